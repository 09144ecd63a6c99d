/* SPDX-License-Identifier: MIT */
/*
 * What a run produced: its reported units, groups, ranks and diagnostics as the reports,
 * --assert, the diagnostics and the ranks' reduction see them, and the exit statuses.  Types and
 * the few functions on them (src/result.c); the run (run.h) fills them, the reports print them.
 */
#ifndef IOWL_RESULT_H
#define IOWL_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "iowl/ddir.h"
#include "iowl/diskstats.h"
#include "iowl/idleprof.h"
#include "iowl/interval.h"
#include "iowl/job.h"
#include "iowl/stats.h"
#include "iowl/steady.h"
#include "iowl/verify.h"

/* Exit statuses, documented in man/iowl.1 (EXIT STATUS). */
enum iowl_exit {
	IOWL_EXIT_OK = 0,
	IOWL_EXIT_USAGE = 1,		/* bad command line or job file: nothing ran */
	IOWL_EXIT_IO = 2,		/* an IO or runtime error during the run */
	IOWL_EXIT_ASSERT = 3,		/* an --assert did not hold */
	IOWL_EXIT_SIGINT = 130,
	IOWL_EXIT_SIGTERM = 143,
};

#define DIAG_MAX 32

struct diag {
	char kind[24];		/* "device_split", "queue_depth", "concurrency", "page_cache",
				 * "zero_reads", "sync_iodepth", "saturated" */
	char text[320];
};

struct diag_list {
	struct diag d[DIAG_MAX];
	unsigned n;
};

/*
 * One reported unit: a job clone, or with group_reporting every clone of every job of a group
 * merged into one (named after the group's first job, as fio does).
 */
struct job_result {
	const struct job *job;		/* the job (the group's first job with group_reporting) */
	unsigned clone;			/* clone number (0 for a merged unit) */
	unsigned nworkers;		/* workers merged into this unit */
	unsigned group;
	struct worker_stats st;		/* merged statistics (histograms owned here) */
	int error;			/* positive errno of the first error (ECANCELED: not run), 0: none */
	bool not_run;			/* the run stopped before this unit started (why says why) */
	char *why;			/* its setup failure, or why it was not run; NULL: it ran */
	uint64_t elapsed_ns;		/* wall time from start to end, ramp included */
	int pid;			/* the process id (iowl runs workers as threads) */
	struct ivl_series series;	/* per interval, adding up to st (empty: none taken) */
	struct steady ss;		/* the steady-state window, when has_ss (ss_dur) */
	bool has_ss;
	uint64_t ss_attained_ns;	/* when it was attained, from the phase start; 0: not */
	bool hidden;			/* stats=0: left out of the results (after the others) */
	struct verify_totals verify;	/* its workers' verification (mode 0: none verified) */
};

/* Aggregates of one reporting group (fio's "Run status group N"). */
struct group_result {
	unsigned id;
	/* per direction; [3]: the directions summed (unified_rw_reporting=both) */
	uint64_t bytes[4];
	uint64_t ios[4];
	uint64_t runtime_ns[4]; /* longest unit runtime with IO in that direction */
	uint64_t min_runtime_ns[4];
	uint64_t min_bw[4], max_bw[4]; /* bytes/s, across units */
	uint64_t agg_bw[4];	       /* bytes/s: bytes / longest runtime */
	const struct job *
		lead; /* its first unit's job: significant_figures, unit_base, unified_rw_reporting */
	unsigned kb_base;
	unsigned first_phase, last_phase;	/* the phases its jobs ran in (device windows) */
};

/* IO iowl did itself on a device before the run, outside every job (the write guard's probe). */
struct own_io {
	const char *path;
	uint64_t reads, read_bytes;	/* as the device counted them */
};

/* One rank of a run over MPI (ranks.h): its own figures, as rank 0 gathered them. */
struct rank_result {
	unsigned rank;
	char host[64];
	bool answered; /* its results came (false: it died or was killed) */
	int status;    /* its own exit status */
	char why[256]; /* its failure, "" none */
	uint64_t ios[DDIR_NR], bytes[DDIR_NR];
	uint64_t runtime_ns[DDIR_NR]; /* longest unit runtime per direction */
	const uint64_t *starts; /* wall clock (ns since the epoch) each phase's IO started */
	unsigned nstarts;
	struct json_t *iostat; /* --iostat: its host's device view per interval; NULL: none */
};

struct run_result {
	struct job_result *units;
	unsigned nunits;
	struct group_result *groups;
	unsigned ngroups;
	time_t start;			/* wall clock time the run started */
	uint64_t start_ms;		/* the same in milliseconds since the epoch */
	const struct job_kv *global_kv; /* options given in [global] sections, for "global options" */
	unsigned nglobal_kv;
	bool interrupted;  /* stopped by a signal */
	bool compact;	   /* JSON on one line (beside --status-interval's JSON lines) */
	bool no_disk_util; /* every job has disk_util=0: no "disk_util" at all, as fio */
	const struct disk_set
		*disks; /* devices behind the targets, sampled at start and end; may be NULL */
	/*
	 * Each phase's device samples, at its start (after the layout) and its end: phase p's are
	 * phase_disk[(2p) * disks->n + i] and [(2p + 1) * disks->n + i] for device i (nfields 0
	 * where none was taken); NULL without devices.  See result_group_disks().
	 */
	const struct disk_sample *phase_disk;
	unsigned nphases;
	const struct diag_list *diags;	/* what the run's figures say (diagnose()); may be NULL */
	const struct own_io *own_io;	/* iowl's own IO before the run, per device */
	unsigned nown_io;
	const char *command;		/* the command line (--report), NULL: not kept */
	struct json_t *iostat_log;	/* --iostat's intervals (report_iostat_record()), NULL: none */
	const struct rank_result *ranks; /* a run over MPI: every rank's own; NULL: one process */
	unsigned nranks;
	const char *mpi; /* the MPI library */
	const struct idleprof_result *idle; /* --idle-prof; NULL: none */
	const struct act_table *act;	    /* --profile=act's latency table; NULL: none */
};

/* The units reported so far, while a run collects them. */
struct results {
	struct job_result *units;
	unsigned n, cap;
	unsigned *collected;		/* per job index: clones gathered into units so far */
};

/* Everything one run produced, before it is printed. */
struct run_outcome {
	struct results res;
	struct run_result r;		/* points into res, disks and gkv */
	struct disk_set disks;
	struct disk_sample *phase_disk;	/* r.phase_disk */
	struct idleprof_result idle;	/* --idle-prof's figures (r.idle) */
	struct job_kv *gkv;
	struct diag_list diags;
	struct own_io *own_io;
	struct json_t *iostat_log;	/* --iostat's intervals, NULL: none */
	bool io_error;
	int ret;			/* 0, or -errno of a failure that is not an IO error */
};

/*
 * The status of a run made of several runs (sweep and curve points): the worse of a and b, in
 * the order of run_status(): a signal, then an IO or runtime error (2), then bad usage (1), then
 * a failed --assert (3), then success.
 */
int run_status_worst(int a, int b);

/* The unit that clone clone of job is reported in (a new one when none yet), NULL: out of memory. */
struct job_result *results_unit(struct results *res, const struct job *job, unsigned clone);

/*
 * A new, empty unit for clone clone of job (clone 0 and the group's first job when the group is
 * merged), NULL: out of memory.
 */
struct job_result *results_add(struct results *res, const struct job *job, unsigned clone);

/* The unit of merged group group, or NULL when it has none yet. */
struct job_result *results_group(struct results *res, unsigned group);

/* Frees everything o holds. */
void run_outcome_release(struct run_outcome *o);

/*
 * The device samples that frame group g (from the start of its first phase to the end of its
 * last: groups that run side by side share them) into *first and *last (disks->n each).
 * Returns false when there are none.
 */
bool result_group_disks(const struct run_result *r, unsigned g, const struct disk_sample **first,
			const struct disk_sample **last);

#endif
