/* SPDX-License-Identifier: MIT */
/*
 * read_iolog: fio's iolog versions 2 and 3 and blktrace binary traces (as blkparse -d writes
 * them), read whole before the run into one array of IOs per log, as fio 3.33 reads them:
 * the files the log adds (or replay_redirect), each IO's action, offset (replay_scale,
 * replay_align) and length, and the delay before it (v2 "wait", v3 timestamps, blktrace event
 * times; replay_time_scale, replay_no_stall).
 */
#ifndef IOWL_IOLOG_READ_H
#define IOWL_IOLOG_READ_H

#include <stdbool.h>
#include <stdint.h>

#include "iowl/err.h"

struct job;

struct replay_io {
	uint64_t offset;
	uint64_t delay_ns; /* to wait after the previous IO's issue (fio's iolog_delay) */
	uint32_t len;
	uint16_t file; /* index into the job's filenames */
	uint8_t op;    /* enum ddir */
};

struct replay {
	struct replay_io *io;	/* NULL when chunked */
	uint64_t n;		/* the IOs of the log */
	bool blktrace;
	bool chunked;		/* read_iolog_chunked: read again as it is replayed (replay_reader) */
	char *path;		/* chunked: the log's path */
	char **names;		/* the first replay of a job: the files of all its logs, in order */
	unsigned nnames;
};

/* read_iolog_chunked: the IOs a reader holds at a time (32 bytes each). */
#define REPLAY_CHUNK 4096u

/*
 * Reads the job's read_iolog logs (':' separated, one per clone in turn) into job->replays and
 * makes the job what the logs say: filename= the files they add (or replay_redirect), rw= the
 * directions they hold, bs= their largest IO per direction (a blktrace is replayed buffered
 * unless direct=1, as fio 3.33 does).
 * Nothing when read_iolog is unset.  Returns 0 or -errno with err set (LOG:LINE for a bad line).
 */
int replay_prepare(struct job *job, struct iowl_err *err);

/* Frees job->replays. */
void replay_release(struct job *job);

/*
 * read_iolog_chunked, as fio's: a text log is read once before the run to learn its files,
 * directions, largest IOs and number of IOs (keeping none of them), then read again by each
 * clone that replays it, REPLAY_CHUNK IOs at a time as the replay goes, so memory stays
 * bounded whatever the log's length.  A blktrace is read whole (as fio 3.33 reads one).
 */
struct replay_reader;

/* Opens r's log (r->chunked) for the job's clone.  Returns the reader, or NULL with err set. */
struct replay_reader *replay_reader_open(const struct job *job, const struct replay *r,
					 struct iowl_err *err);

/*
 * Reads the next chunk: *io receives its IOs.  Returns how many (0 at the end of the log) or
 * -errno with err set (LOG:LINE of a line that no longer reads as it did before the run).
 */
int64_t replay_reader_next(struct replay_reader *rd, const struct replay_io **io,
			   struct iowl_err *err);

void replay_reader_close(struct replay_reader *rd);

#endif
