/* SPDX-License-Identifier: MIT */
/* Jobs: the options of one job section, their defaults, validation, and the run's list of jobs. */
#ifndef IOWL_JOB_H
#define IOWL_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iowl/ddir.h"
#include "iowl/err.h"
#include "iowl/job_opts.h"
#include "iowl/options.h"

/* Where an option was last set, for messages about it. */
struct opt_pos {
	const char *file;
	unsigned line;
	const char *value;	/* as written (borrowed from the parsed job file), NULL for a bare key */
};

/* An option as the user wrote it, for the JSON "job options". */
struct job_kv {
	char *key;
	char *value;		/* NULL for a bare key */
};

/*
 * One stream of a job: the lines after "stream=NAME" up to the next stream= line, applied over
 * a copy of the job's options.  A stream with walkers=N becomes N streams (NAME.0 ... NAME.N-1),
 * each with weight/N and its own sequential cursor.
 */
struct job_stream {
	char *name;
	const char *file;	/* the stream= line */
	unsigned line;
	double weight;		/* share of the job's IOs, in percent of the sum of weights */
	unsigned walker, nwalkers;
	bool has_offset, has_size;	/* its range was given (offset=, size= in the block) */
	struct job_opts o;
	unsigned dirs;		/* RW_F_READ | RW_F_WRITE | RW_F_TRIM it issues */
	unsigned min_bs[DDIR_NR], max_bs[DDIR_NR];
};

/* One job section after parsing; numjobs clones run from it. */
struct engine_ops;

struct job {
	struct job_opts o;
	const struct engine_ops *engine; /* o.ioengine's, resolved once by the validation */
	const char *file;	/* where its section starts */
	unsigned line;
	unsigned index;		/* position in the run */
	unsigned group;		/* reporting group */
	unsigned phase;		/* jobs of one phase run together; stonewall starts a new one */
	bool off_rank;		/* --rank-jobs leaves it to other ranks: not run here (ranks.h) */
	unsigned wait_for;	/* 1 + index of the job wait_for= names (an earlier one); 0: none */
	unsigned file_index;	/* which job file it came from */
	struct opt_pos *pos;	/* per option (opt_index), file NULL where never set */
	struct job_kv *kv;
	unsigned nkv;
	char **filenames;	/* split filename=, or NULL for generated names */
	unsigned nfilenames;
	unsigned min_bs[DDIR_NR],
		max_bs[DDIR_NR]; /* derived from bs / bsrange / bssplit (all streams) */
	unsigned dirs;		/* directions issued (all streams) */
	struct job_stream *streams;	/* NULL: the job is one stream of its own options */
	unsigned nstreams;
	struct replay *replays; /* read_iolog: one per log, clones take them in turn */
	unsigned nreplays;
	char *merged;		/* merge_blktrace_file: the merged trace, written when the run starts */
	size_t merged_len;
};

/*
 * Releases everything a job owns (not the struct itself) but its replays (read_iolog), which
 * replay_release() frees (jobfile_free() does both).
 */
void job_release(struct job *job);

/*
 * Checks one job's options against each other (its replays, replay_prepare(), are read before:
 * they decide its directions and block sizes).  Returns 0 or -EINVAL with err set.
 */
int job_validate(struct job *job, struct iowl_err *err);

/*
 * Formats an error about option opt of job: "FILE:LINE: opt=value: <message>" at the line that
 * set it, or "FILE:LINE: job 'name': <message>" at the job's section when it was never set.
 * Returns -EINVAL.
 */
int job_opt_err(const struct job *job, enum opt_id opt, struct iowl_err *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* True when the job file or command line set the option (by name or alias) for this job. */
bool job_opt_is_set(const struct job *job, enum opt_id id);

/*
 * True when error err of type type (0 read, 1 write, trim or sync, 2 verify) lets the job go on,
 * as fio decides it: continue_on_error covers the type and err is in its ignore_error list
 * (by default EIO and EILSEQ).
 */
bool job_error_ignored(const struct job_opts *o, unsigned type, int err);

/* True when the job issues IO in direction d (0 read, 1 write, 2 trim). */
bool job_does_dir(const struct job *job, unsigned d);

/*
 * The first job of job's reporting group, which names a merged group and decides whether it
 * is merged (jobs are one array in run order, job->index, and a group's jobs are contiguous).
 */
const struct job *job_group_lead(const struct job *job);

/* True when job's group is reported as one unit: its first job says group_reporting. */
bool job_group_merged(const struct job *job);

#endif
