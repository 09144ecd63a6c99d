/* SPDX-License-Identifier: MIT */
/* A run: the command line's settings, the jobs, their phases and threads, signals, and the results. */
#ifndef IOWL_RUN_H
#define IOWL_RUN_H

#include <stdbool.h>

#include "iowl/clock.h"
#include "iowl/assert.h"
#include "iowl/diagnose.h"
#include "iowl/diskstats.h"
#include "iowl/err.h"
#include "iowl/idleprof.h"
#include "iowl/guard.h"
#include "iowl/interval.h"
#include "iowl/ini.h"
#include "iowl/job.h"
#include "iowl/target.h"
#include "iowl/jobfile.h"
#include "iowl/metrics.h"
#include "iowl/progress.h"
#include "iowl/result.h"
#include "iowl/signals.h"
#include "iowl/vdbench_opts.h"
#include "iowl/worker.h"

#define CURVE_MAX_POINTS 32		/* --curve's percentages */
#define IOSTAT_DEFAULT 1		/* --iostat without a time */
#define RANK_TIMEOUT_DEFAULT_NS (30 * NSEC_PER_SEC) /* --rank-timeout */
#define INTERVAL_DEFAULT_NS NSEC_PER_SEC /* the series' interval without --status-interval */

enum out_format {
	OUT_NORMAL = 1U << 0,
	OUT_JSON = 1U << 1,
	OUT_JSONPLUS = 1U << 2,
	OUT_CSV = 1U << 3,		/* --sweep's table only */
	OUT_VDBFLAT = 1U << 4,		/* vdbench's flatfile columns (vdbench parameter files only) */
	OUT_TERSE = 1U << 5,		/* fio's terse lines (--minimal) */
};

/* Settings from the command line that are not job options. */
struct run_opts {
	unsigned formats;		/* enum out_format */
	unsigned terse_version;		/* --terse-version, 2 to 5 (0: fio's default, 3) */
	char *output;			/* --output=FILE, or NULL for stdout */
	char *report;			/* --report=FILE.html, or NULL */
	char *command;			/* the command line, with --report */
	unsigned eta;			/* enum eta_mode */
	bool parse_only;
	uint64_t analyze;		/* --analyze: IOs to generate per job, 0: run normally */
	char **sections;
	unsigned nsections;
	char **rank_jobs; /* --rank-jobs=RANKS[:JOB,...] (ranks.h) */
	uint64_t rank_timeout; /* --rank-timeout, ns: a rank silent this long hangs; 0: never */
	bool vdb_rank_jobs;    /* rank_jobs are a vdbench step's (its hd=), not the command line's */
	unsigned nrank_jobs;
	struct job_set *sets;
	unsigned nsets;
	char **files;			/* job files */
	unsigned nfiles;
	struct assertion *asserts;	/* --assert */
	unsigned nasserts;
	struct sweep_key *sweeps;	/* --sweep */
	unsigned nsweeps;
	double curve[CURVE_MAX_POINTS];	/* --curve: percentages of the maximum rate */
	unsigned ncurve;
	uint64_t status_interval;	/* --status-interval, ns; 0: none */
	uint64_t iostat;		/* --iostat, ns (IOSTAT_DEFAULT: the status interval or 1 s); 0: none */
	struct vdbench_opts vdb;	/* a vdbench parameter file and its flags */
	ivl_watch_fn watch;		/* called with every interval (vdbench's output); NULL: none */
	void *watch_ctx;
	uint64_t watch_period;		/* ns: the interval without --status-interval; 0: the default */
	struct metrics_opts metrics;	/* --metrics, --metrics-textfile, --metrics-linger */
	struct metrics *mx;		/* their endpoint while the run lasts; NULL: none */
	bool cfill;			/* --cache-fill: count distinct blocks */
	uint64_t fill_exact;		/* --cache-fill-exact, blocks; 0: CFILL_EXACT_DEFAULT */
	/* fio's command-line flags (cli.c); the strings are borrowed from argv */
	bool readonly;	       /* --readonly: a job that writes or trims is an error */
	unsigned max_jobs;     /* --max-jobs: most clones in the run; 0: no limit */
	bool showcmd;	       /* --showcmd: print the job files as command lines */
	bool warnings_fatal;   /* --warnings-fatal: a warning while parsing is an error */
	uint64_t eta_newline;  /* --eta-newline, ns: start a new status line this often; 0: never */
	uint64_t eta_interval; /* --eta-interval, ns; 0: 1 s */
	const char *trigger_file; /* --trigger-file: end the run when it appears */
	uint64_t trigger_timeout; /* --trigger-timeout, ns from the start; 0: none */
	const char *trigger_cmd;  /* --trigger: run by /bin/sh when the trigger fires */
	bool bandwidth_log;	  /* --bandwidth-log: agg-*_bw.log (bwlog.h) */
	unsigned idle_prof;	  /* --idle-prof: enum idleprof_mode */
};

struct sweep_key;

struct iowl_run {
	struct run_opts opts;
	struct ini_doc doc;		/* job files, then the command-line jobs */
	struct job *jobs;
	unsigned njobs;
	struct run_ctl ctl;
	int signal;			/* the signal that stopped the run, 0: none */
	bool abandoned;			/* workers were left running after a signal */
	int out_errno;			/* the results cannot be written (EPIPE): the run ends */
	char ended_by[IOWL_ERR_LEN];	/* exitall (exit_what=all) or exitall_on_error ended the run: why */
	FILE *out;			/* where results and interval output go (NULL: stdout) */
	struct ivl_opts ivl;		/* interval settings, from opts */
	struct guard_set guard;		/* block devices written: checked once, held for the run */
	/* Each clone's target plan from run_prepare(), by clone number, until the run takes it
	 * (the devices it finds, then the first phase's workers); NULL: none kept. */
	struct target_plan *plans;
	unsigned nplans;
	uint64_t trigger_t0; /* --trigger-timeout counts from here: the first phase's start */
	struct bwlog *bwlog; /* --bandwidth-log; NULL: none */
};

/*
 * Where informational lines go (fio's log_info: the layout, rounding notes): with the results,
 * run->out or stdout, when the normal text output is on; NULL (dropped) for JSON and CSV only,
 * as fio leaves them out of its JSON.  Never stderr: a successful run keeps it empty.
 */
FILE *run_info(const struct iowl_run *run);

/* Sets up an empty run. */
void run_init(struct iowl_run *run);

/*
 * Joins the run's ranks (ranks_quiet(): the heartbeat): ranks other than 0 report nothing
 * themselves, so their --output, --report, --metrics, --assert and status line are dropped.
 */
void run_ranks_quiet(struct iowl_run *run);

/*
 * Builds and validates the jobs, plans every target and checks every path the run writes (no
 * IO; preflight_clone(), preflight_output()).  Unless --parse-only or --analyze, every block
 * device written is held with O_EXCL from here until run_release().  Returns 0 or -errno with
 * err set.
 */
int run_prepare(struct iowl_run *run, struct iowl_err *err);

/*
 * Drops the jobs and builds them again from the same job files with the current --set list
 * (a sweep or curve point changes it between runs).  Returns run_prepare()'s result.
 */
int run_rebuild(struct iowl_run *run, struct iowl_err *err);

/* Runs every phase and gathers the results in o (release with run_outcome_release()).  Returns o->ret. */
int run_collect(struct iowl_run *run, struct run_outcome *o);

/* The exit status of a collected run (signals, errors, then --assert).  Prints failed assertions. */
int run_status(const struct iowl_run *run, const struct run_outcome *o);

/*
 * With --report, writes the page of doc (a reference it takes), with the jobs' analysis beside it
 * when analysis is set (a run's own results); says on stderr why it could not.  Returns 0 (also
 * without --report) or -errno.
 */
int run_report_html(const struct iowl_run *run, struct json_t *doc, bool analysis);

/* Runs every phase, prints the results, and returns the exit status (enum iowl_exit). */
int run_exec(struct iowl_run *run);

/* Frees everything the run owns. */
void run_release(struct iowl_run *run);

#endif
