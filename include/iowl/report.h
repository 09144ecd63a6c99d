/* SPDX-License-Identifier: MIT */
/* Results of a run as the reports see them, and the report writers (normal text, fio-compatible JSON). */
#ifndef IOWL_REPORT_H
#define IOWL_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "iowl/ddir.h"
#include "iowl/diskstats.h"

struct diag_list;
#include "iowl/interval.h"
#include "iowl/job.h"
#include "iowl/stats.h"
#include "iowl/steady.h"
#include "iowl/verify.h"

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
	const struct job_kv *global_kv;	/* options given in [global] sections, for "global options" */
	unsigned nglobal_kv;
	bool interrupted;		/* stopped by a signal */
	bool compact;			/* JSON on one line (beside --status-interval's JSON lines) */
	bool no_disk_util; /* every job has disk_util=0: no "disk_util" at all, as fio */
	const struct disk_set *disks;	/* devices behind the targets, sampled at start and end; may be NULL */
	/*
	 * Each phase's device samples, at its start (after the layout) and its end: phase p's are
	 * phase_disk[(2p) * disks->n + i] and [(2p + 1) * disks->n + i] for device i (nfields 0
	 * where none was taken); NULL without devices.  See report_group_disks().
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
};

/* Prints the results as fio's normal output does.  Returns 0 or -errno. */
int report_text(FILE *f, const struct run_result *r);

/* Prints the results as one fio-compatible JSON document (json+ adds the histogram bins).  Returns 0 or -errno. */
int report_json(FILE *f, const struct run_result *r, bool plus);

/* Prints one fio terse line per reported unit, terse version ver (2 to 5).  Returns 0 or -errno. */
int report_terse(FILE *f, const struct run_result *r, unsigned ver);

/* The JSON document report_json() prints (new reference), NULL when out of memory. */
struct json_t *report_json_tree(const struct run_result *r, bool plus);

/* The machine a run ran on, for the reports. */
struct report_host {
	char hostname[256], kernel[128], machine[128];
	long cpus;
};
void report_host(struct report_host *h);

/* What the HTML report says about where the results came from (NULL fields: not known). */
struct report_meta {
	const char *command;		/* the command line, for a report written by the run itself */
};

/*
 * Writes one self-contained HTML page (report.c, html.c) drawn from one source's JSON
 * documents (a run, its --status-interval lines, a sweep, a curve, an analysis).  Returns 0
 * or -errno.
 */
int report_html(FILE *f, const char *name, struct json_t *const *docs, size_t n,
		const struct report_meta *m);
int report_html_file(const char *path, const char *name, struct json_t *const *docs, size_t n,
		     const struct report_meta *m);

/* The devices' iostat -x figures of the set's last interval, as a JSON array (new reference). */
struct json_t *report_iostat_json(const struct disk_set *s);

/*
 * An ivl_watch_fn that appends each interval's device figures ({"t_ms", "ms", "devices"}) to
 * the JSON array *(json_t **)ctx, made on first use.
 */
struct ivl_view;
void report_iostat_record(void *ctx, const struct ivl_view *v, bool last);

struct iowl_run;
/*
 * With --report, writes the page for doc (a reference it takes), naming the command; says on
 * stderr why it could not.  Returns 0 (also without --report) or -errno.
 */
int report_html_run(const struct iowl_run *run, struct json_t *doc);

/* iowl report RESULTS.json [MORE.json ...] -o FILE.html (argv[0] is "report").  Returns the exit status. */
int report_html_main(int argc, char **argv);

/*
 * The device samples that frame group g (from the start of its first phase to the end of its
 * last: groups that run side by side share them) into *first and *last (disks->n each).
 * Returns false when there are none.
 */
bool report_group_disks(const struct run_result *r, unsigned g, const struct disk_sample **first,
			const struct disk_sample **last);

#endif
