/* SPDX-License-Identifier: MIT */
/* What only the vdbench module's files share: the parameter file's model, its translation, its output. */
#ifndef IOWL_VDBENCH_INT_H
#define IOWL_VDBENCH_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "iowl/err.h"
#include "iowl/ini.h"
#include "iowl/interval.h"
#include "iowl/sweep.h"
#include "iowl/vdbench.h"

#define VDB_MAX_LIST 4096		/* values of one parameter, ranges expanded */
#define VDB_MAX_XFER 64			/* (size,pct) pairs of one xfersize= */
#define VDB_MAX_LOOPS 8			/* for-loops of one rd */
#define VDB_DEFAULT_THREADS 8
#define VDB_DEFAULT_HITAREA (1024 * 1024)
#define VDB_SEEK_EOF (-1.0)		/* seekpct=eof: sequential, one pass */

/* Where a parameter was written. */
struct vdb_pos {
	const char *file;		/* the module's own copy (lives as long as the vdb) */
	unsigned line;
};

/* One keyword=value as written (after substitution), split into its list items. */
struct vdb_tok {
	char *key;			/* lower case, possibly abbreviated */
	char *raw;			/* the value as written, quotes removed */
	char **items;			/* the value's items: one, or the elements of (a,b,...) */
	int *dash;			/* per item: where an unquoted '-' makes it a range, or -1 */
	unsigned nitems;
	bool list;			/* the value was in parentheses */
	struct vdb_pos pos;
};

/* A bump allocator: everything the model holds lives until the vdb is released. */
struct vdb_chunk;

/* The general parameters. */
struct vdb_general {
	double compratio;		/* 1: incompressible */
	struct vdb_pos compratio_pos;
};

/* What every definition (hd, sd, wd, rd) starts with. */
struct vdb_head {
	char *name;
	struct vdb_pos pos;
};

struct vdb_host {
	char *name;			/* name and pos first, as in struct vdb_head */
	struct vdb_pos pos;
	char *system;			/* NULL: the local host */
};

enum vdb_openflags {
	VDB_OF_DIRECT = 1U << 0,	/* o_direct, directio */
	VDB_OF_FSYNC = 1U << 1,		/* fsync: fsync when the run ends */
};

/* A range= or hotband= (lo, hi): percentages, or bytes above 100 (lo) or 200 (hi). */
struct vdb_range {
	bool set;
	double lo, hi;
	struct vdb_pos pos;
};

struct vdb_sd {
	char *name;
	struct vdb_pos pos;
	char *lun;			/* as written */
	struct vdb_pos lun_pos;
	uint64_t size;			/* 0: the lun's own size */
	struct vdb_pos size_pos;
	uint64_t offset, align, hitarea;
	struct vdb_pos offset_pos, align_pos, hitarea_pos;
	unsigned threads;
	struct vdb_pos threads_pos;
	unsigned openflags;
	bool openflags_set;
	struct vdb_pos openflags_pos;
	struct vdb_range range;
	unsigned count_start, count_n;	/* count=(start,n): n copies */
	struct vdb_pos count_pos;
	char **hosts;			/* host= / hd=: the hosts that have it; none: every host */
	unsigned nhosts;
	bool used;			/* a run uses it */
};

struct vdb_wd {
	char *name;
	struct vdb_pos pos;
	char **sds;			/* sd= patterns */
	unsigned nsds;
	struct vdb_pos sds_pos;
	double skew;			/* 0: a share of what the others leave */
	struct vdb_pos skew_pos;
	double *xfer;			/* 1 size, (size,pct) pairs, or (min,max,align) */
	unsigned nxfer;
	struct vdb_pos xfer_pos;
	double rdpct;
	struct vdb_pos rdpct_pos;
	double seekpct;			/* 0 sequential .. 100 random, VDB_SEEK_EOF */
	struct vdb_pos seekpct_pos;
	struct vdb_range range;
	bool hotband;			/* range came from hotband= */
	unsigned streams;		/* streams=: 0 or >= 2 */
	struct vdb_pos streams_pos;
	double rhpct, whpct;
	struct vdb_pos rhpct_pos, whpct_pos;
	unsigned openflags;
	bool openflags_set;
	struct vdb_pos openflags_pos;
	char **hosts;			/* host=: the hosts that run it; none: every host */
	unsigned nhosts;
	struct vdb_pos hosts_pos;
};

/* The RD parameters a for-loop (or a list) can vary. */
enum vdb_loopvar {
	VDB_L_XFERSIZE,
	VDB_L_THREADS,
	VDB_L_RDPCT,
	VDB_L_RHPCT,
	VDB_L_WHPCT,
	VDB_L_SEEKPCT,
	VDB_L_HITAREA,
	VDB_L_COMPRATIO,
	VDB_L_IORATE,
	VDB_L_COUNT,
};

struct vdb_loop {
	enum vdb_loopvar var;
	double *v;
	unsigned n;
	struct vdb_pos pos;
};

enum vdb_iorate {
	VDB_IO_UNSET = 0,
	VDB_IO_MAX,
	VDB_IO_CURVE,
	VDB_IO_RATE,
};

struct vdb_rd {
	char *name;
	struct vdb_pos pos;
	char **wds;
	unsigned nwds;
	struct vdb_pos wds_pos;
	char **sds;			/* sd=: the SDs of this run instead of each wd's */
	unsigned nsds;
	struct vdb_pos sds_pos;
	unsigned iorate;		/* enum vdb_iorate */
	double rate;			/* VDB_IO_RATE: the first of the list */
	struct vdb_pos iorate_pos;
	double *curve;			/* curve=: percentages, NULL: vdbench's */
	unsigned ncurve;
	struct vdb_pos curve_pos;
	double elapsed, interval, warmup, pause;	/* seconds */
	struct vdb_pos elapsed_pos, interval_pos, warmup_pos, pause_pos;
	bool deterministic;		/* distribution=deterministic (else exponential) */
	struct vdb_pos distribution_pos;
	unsigned openflags;
	bool openflags_set;
	struct vdb_pos openflags_pos;
	struct vdb_loop loops[VDB_MAX_LOOPS];	/* in the order written: the first outermost */
	unsigned nloops;
};

/* The values of one run: the rd's, or those of one point of its loops. */
struct vdb_point {
	double v[VDB_L_COUNT];
	bool set[VDB_L_COUNT];
};

/* One line of a generated job, with where it comes from and a word on why. */
struct vdb_entry {
	const char *key;
	char *value;
	struct vdb_pos pos;
	const char *note;		/* a comment for --vdbench-show, or NULL */
};

/* A generated iowl job: one SD in one run. */
struct vdb_job {
	char *name;
	struct vdb_pos pos;
	char *note;			/* the comment above its section */
	struct vdb_entry *e;
	unsigned n, cap;
};

/* What vdbench's report says of one run (one phase of a step). */
struct vdb_phase {
	const struct vdb_rd *rd;
	char *fortext;			/* "threads=8 xfersize=4k", or "" */
	const char *ratetext;		/* "Uncontrolled MAX", "1000", ... */
	double reqrate;			/* flatfile reqrate: the rate asked for, 0 for max */
	unsigned threads;		/* flatfile threads, 0 when SDs differ */
	double xfersize, rdpct, rhpct, whpct, seekpct;	/* -1 when workloads differ */
	double compratio;
	uint64_t lunsize;		/* bytes of the SDs when known */
};

/* One iowl invocation: jobs in phases, and a sweep or a curve over them. */
struct vdb_step {
	struct vdb_job *jobs;
	unsigned njobs;
	struct vdb_phase *phases;	/* one per phase, in order */
	unsigned nphases;
	struct sweep_key sweeps[VDB_MAX_LOOPS];
	const char *sweep_var[VDB_MAX_LOOPS];	/* vdbench's name of each swept key */
	unsigned nsweeps;
	double curve[32];
	unsigned ncurve;
	double interval;		/* seconds: vdbench's reporting interval */
	double pause;			/* seconds to sleep after the step */
	char **rank_jobs;		/* MPI with hd=: --rank-jobs of the jobs not on every rank */
	unsigned nrank_jobs;
};

/* The whole parameter file and what it becomes. */
struct vdb {
	struct vdb_chunk *arena;
	const struct vdbench_opts *opts;
	struct iowl_err *err;
	const char *file;		/* the top-level file's name (arena copy) */
	struct vdb_general gen;
	struct vdb_host *hosts;
	unsigned nhosts;
	struct vdb_sd *sds;
	unsigned nsds;
	struct vdb_sd sd_dflt;
	struct vdb_wd *wds;
	unsigned nwds;
	struct vdb_wd wd_dflt;
	struct vdb_rd *rds;
	unsigned nrds;
	struct vdb_rd rd_dflt;
	unsigned *var_used;		/* per --vdbench-var: substitutions made */
	struct vdb_host hd_dflt;
	unsigned *rank_hd;		/* MPI with hd=: per rank, the hd= it runs; NULL: none */
	int cur;			/* the definition being read: an index, or -1 for default */
	struct vdb_step *steps;
	unsigned nsteps;
};

/* vdbench.c: an empty model with vdbench's defaults (release with vdb_release()). */
void vdb_init(struct vdb *v, const struct vdbench_opts *opts, struct iowl_err *err);

/* arena.c */
void *vdb_alloc(struct vdb *v, size_t n);			/* zeroed; NULL: ENOMEM */
char *vdb_strndup(struct vdb *v, const char *s, size_t n);
char *vdb_strdup(struct vdb *v, const char *s);
char *vdb_printf(struct vdb *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vdb_release(struct vdb *v);
/* Returns -ENOMEM after reporting it at pos. */
int vdb_nomem(struct vdb *v, const struct vdb_pos *pos);
/* Grows *arr (n elements of size) by one zeroed element; returns it or NULL. */
void *vdb_push(struct vdb *v, void **arr, unsigned *n, size_t size);

enum vdb_section {
	VDB_S_GENERAL = 0,
	VDB_S_HD,
	VDB_S_SD,
	VDB_S_WD,
	VDB_S_RD,
};
/* read.c: lines, comments, includes, substitutions, continuations, tokens. */
int vdb_read(struct vdb *v, const char *path);
/* The same for a file held in memory (name for messages); NUL bytes are refused. */
int vdb_read_text(struct vdb *v, const char *name, const char *text, size_t len);
/* The section a definition keyword starts in state sec, or -1 when key is no such keyword there. */
int vdb_section_start(enum vdb_section sec, const char *key);

/* params.c: keyword=value into the model, with vdbench's checks of each value. */
/* Starts a definition (hd=, sd=, wd=, rd=) or applies a parameter of the current one. */
int vdb_param(struct vdb *v, enum vdb_section *sec, const struct vdb_tok *t);

/* params_value.c: a parameter's value as vdbench reads it; errors name FILE:LINE key=value. */
/* Parses one number as vdbench does: k, m, g, t (1024s, optional b), h; time: m is minutes. */
int vdb_number(const char *s, bool time, double *out);
enum vdb_vk {
	VK_COUNT,			/* a plain number (k, m, g, t allowed, as vdbench does) */
	VK_SIZE,			/* bytes */
	VK_TIME,			/* seconds; m minutes, h hours */
};
/* "FILE:LINE: key=value: <why>" into v->err.  Returns -EINVAL. */
int vdb_bad(struct vdb *v, const struct vdb_tok *t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The items of t as numbers, ranges (a-b,step) and (a-b,d) expanded as vdbench does. */
int vdb_nums(struct vdb *v, const struct vdb_tok *t, enum vdb_vk kind, double **out, unsigned *n);
/* One number from lo to hi; a percentage; a whole number of seconds from lo. */
int vdb_num1(struct vdb *v, const struct vdb_tok *t, enum vdb_vk kind, double lo, double hi,
	     double *out);
int vdb_pct1(struct vdb *v, const struct vdb_tok *t, double *out);
int vdb_secs1(struct vdb *v, const struct vdb_tok *t, double lo, double *out);
/* The items of t as names, (sd1-sd32) ranges expanded; one name. */
int vdb_names(struct vdb *v, const struct vdb_tok *t, char ***out, unsigned *n);
int vdb_name1(struct vdb *v, const struct vdb_tok *t, char **out);
/* range=(a,b): in percent of the lun (up to 200 across its end) or in bytes. */
int vdb_range2(struct vdb *v, const struct vdb_tok *t, struct vdb_range *r);
/* openflags= (o_direct, directio, fsync) as VDB_OF_ flags into *out. */
int vdb_openflags(struct vdb *v, const struct vdb_tok *t, unsigned *out);

/* check.c: the checks once every parameter is read, and what they and the translation share. */
/* Hosts, counts, luns, references, skews, times.  Returns 0 or -EINVAL with err set. */
int vdb_check(struct vdb *v);
/* True when name matches pattern ('*' any run of characters, '?' one). */
bool vdb_match(const char *pattern, const char *name);
/* The size of an SD's lun: size= or the file's or device's own; 0 when unknown. */
uint64_t vdb_sd_bytes(const struct vdb *v, const struct vdb_sd *sd);
/* The Linux path of an SD's lun (--vdbench-lun applied). */
const char *vdb_lun_path(const struct vdb *v, const struct vdb_sd *sd);

/* translate_rd.c: the runs (rd=, their for-loops, sweeps and pauses) as iowl jobs in steps. */
int vdb_translate(struct vdb *v);
/* Builds step s's jobs into doc (emptied first).  Returns 0 or -ENOMEM. */
int vdb_step_doc(struct vdb *v, const struct vdb_step *s, struct ini_doc *doc);

/* translate.c: one run's jobs, one per SD, from its workloads (shared with translate_rd.c). */
/* One workload on one SD in one run. */
struct vdb_wg {
	const struct vdb_wd *wd;
	unsigned sd;
	double skew;			/* percent of the run's IOs */
};

/* What a run's jobs are built from. */
struct vdb_runspec {
	const struct vdb_rd *rd;
	struct vdb_point pt;
	struct vdb_wg *wgs;
	unsigned nwgs;
	bool mixed_form;		/* every stream mixed (rdpct is swept) */
	bool single_bs;			/* every stream one bs= (xfersize is swept) */
	unsigned phase;			/* in the step */
	double startdelay;		/* the pause of the run before, in the step */
	const char *desc;		/* the jobs' description */
};

/* A size as the iowl job file writes it: 8k, 1m, or bytes. */
const char *vdb_size_str(char *buf, size_t len, double bytes);
/* The run's point's value of loop var, or dflt when the run does not loop over it. */
double vdb_point_or(const struct vdb_runspec *rs, enum vdb_loopvar var, double dflt);
/* The workloads of a run on each SD, with their shares.  Returns 0 or -errno (v->err set). */
int vdb_collect_wgs(struct vdb *v, struct vdb_runspec *rs);
/* The transfer sizes of a workload in this run: the table, or the swept single size. */
const double *vdb_xfer_of(const struct vdb_runspec *rs, const struct vdb_wd *wd, unsigned *n);
/* The run's compratio: its point's, else the general one. */
double vdb_compratio(const struct vdb *v, const struct vdb_runspec *rs);
/* One SD's job in a run (first: the step's first run).  Returns 0 or -errno (v->err set). */
int vdb_build_job(struct vdb *v, struct vdb_step *st, const struct vdb_runspec *rs, unsigned sd,
		  bool first);

/* show.c: --vdbench-show. */
void vdb_show(const struct vdb *v, FILE *f);

/* output.c: vdbench's interval lines and flatfile columns. */
struct vdb_out;
struct vdb_out *vdb_out_new(struct vdb *v, struct iowl_run *run, bool lines, bool flat, FILE *flat_f);
/* Starts step s (the phases' descriptions). */
void vdb_out_step(struct vdb_out *o, const struct vdb_step *s);
/* The interval hook (struct ivl_opts.watch). */
void vdb_out_watch(void *ctx, const struct ivl_view *view, bool last);
void vdb_out_free(struct vdb_out *o);

#endif
