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
	struct replay_io *io;
	uint64_t n;
	bool blktrace;
};

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

#endif
