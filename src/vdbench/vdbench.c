// SPDX-License-Identifier: MIT
/*
 * A vdbench parameter file from start to end: recognise it, read it, check it, translate it
 * into steps of iowl jobs, check every step before the first runs, then run (or show, or
 * analyze) them one after the other with vdbench's output beside iowl's.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "iowl/analyze_run.h"
#include "iowl/curve.h"
#include "iowl/run.h"
#include "iowl/sweep.h"
#include "iowl/vdbench.h"
#include "vdbench/vdbench_int.h"

bool vdbench_detect(const char *path)
{
	char buf[65536];
	FILE *f = fopen(path, "r");
	bool found = false;

	if (!f)
		return false;
	while (fgets(buf, sizeof(buf), f)) {
		char *s = buf;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '[') {
			found = false;
			break;
		}
		if (!strncasecmp(s, "sd=", 3) || !strncasecmp(s, "wd=", 3) ||
		    !strncasecmp(s, "rd=", 3) || !strncasecmp(s, "hd=", 3) ||
		    !strncasecmp(s, "fsd=", 4) || !strncasecmp(s, "fwd=", 4))
			found = true;
	}
	fclose(f);
	return found;
}

int vdbench_kv_add(struct vdbench_kv **list, unsigned *n, const char *flag, const char *kv,
		   struct iowl_err *err)
{
	const char *eq = strchr(kv, '=');
	struct vdbench_kv *l;

	if (!eq || eq == kv)
		return err_set(err, "%s '%s': give NAME=VALUE", flag, kv);
	l = realloc(*list, (*n + 1) * sizeof(*l));
	if (!l)
		return err_nomem(err, "out of memory");
	*list = l;
	l[*n].key = strndup(kv, (size_t)(eq - kv));
	l[*n].value = strdup(eq + 1);
	(*n)++;
	if (!l[*n - 1].key || !l[*n - 1].value)
		return err_nomem(err, "out of memory");
	if (!strcmp(flag, "--vdbench-var"))
		for (const char *p = l[*n - 1].key; *p; p++)
			if (!isalnum((unsigned char)*p) && *p != '_')
				return err_set(err, "%s %s: a name is letters, digits and '_'", flag, kv);
	return 0;
}

static void kv_free(struct vdbench_kv *l, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		free(l[i].key);
		free(l[i].value);
	}
	free(l);
}

void vdbench_opts_release(struct vdbench_opts *o)
{
	free(o->file);
	kv_free(o->vars, o->nvars);
	kv_free(o->luns, o->nluns);
	memset(o, 0, sizeof(*o));
}

void vdb_init(struct vdb *v, const struct vdbench_opts *opts, struct iowl_err *err)
{
	memset(v, 0, sizeof(*v));
	v->opts = opts;
	v->err = err;
	v->gen.compratio = 1;
	v->cur = -1;
	v->sd_dflt.name = vdb_strdup(v, "default");
	v->sd_dflt.threads = VDB_DEFAULT_THREADS;
	v->sd_dflt.hitarea = VDB_DEFAULT_HITAREA;
	v->wd_dflt.name = vdb_strdup(v, "default");
	v->wd_dflt.rdpct = 100;
	v->wd_dflt.seekpct = 100;
	v->wd_dflt.nxfer = 1;
	v->wd_dflt.xfer = vdb_alloc(v, sizeof(double));
	if (v->wd_dflt.xfer)
		v->wd_dflt.xfer[0] = 4096;
	v->rd_dflt.name = vdb_strdup(v, "default");
	v->rd_dflt.elapsed = 30;
	v->rd_dflt.interval = 1;
}

/* Makes step s the run's jobs and its sweep or curve.  Returns 0 or -errno with err set. */
static int step_load(struct vdb *v, struct iowl_run *run, struct vdb_step *s,
		     struct iowl_err *err)
{
	struct run_opts *o = &run->opts;
	int ret = vdb_step_doc(v, s, &run->doc);

	if (ret)
		return ret;
	o->sweeps = s->sweeps;
	o->nsweeps = s->nsweeps;
	o->ncurve = s->ncurve;
	memcpy(o->curve, s->curve, sizeof(o->curve));
	o->watch_period = (uint64_t)(s->interval * 1e9);
	if (v->rank_hd) { /* the jobs of hosts that are not every rank's (hd=) */
		o->rank_jobs = s->rank_jobs;
		o->nrank_jobs = s->nrank_jobs;
	}
	return run_rebuild(run, err);
}

/* The run's own settings back as they were (the steps' sweeps live in the vdb). */
static void step_unload(struct iowl_run *run)
{
	run->opts.sweeps = NULL;
	run->opts.nsweeps = 0;
	run->opts.ncurve = 0;
	if (run->opts.vdb_rank_jobs) { /* the step's, in the vdb too */
		run->opts.rank_jobs = NULL;
		run->opts.nrank_jobs = 0;
	}
}

/* Every point of a sweep is built and planned now, so a bad one stops nothing midway. */
static int check_sweeps(struct iowl_run *run, const struct vdb_step *s, struct iowl_err *err)
{
	struct run_opts *o = &run->opts;
	unsigned nbase = o->nsets;
	struct job_set *base = o->sets, *sets = calloc(nbase + 1, sizeof(*sets));
	int ret = 0;

	if (!sets)
		return err_nomem(err, "out of memory");
	if (nbase)
		memcpy(sets, base, nbase * sizeof(*sets));
	o->sets = sets;
	o->nsets = nbase + 1;
	for (unsigned k = 0; k < s->nsweeps && !ret; k++)
		for (unsigned i = 0; i < s->sweeps[k].nvalues && !ret; i++) {
			sets[nbase] = (struct job_set){ (char *)s->sweeps[k].key,
							s->sweeps[k].values[i] };
			ret = run_rebuild(run, err);
		}
	o->sets = base;
	o->nsets = nbase;
	free(sets);
	return ret;
}

/* A lun that does not exist is created by vdbench with size=: without one there is nothing to run on. */
static int check_luns(struct vdb *v, struct iowl_err *err)
{
	for (unsigned i = 0; i < v->nsds; i++) {
		const struct vdb_sd *sd = &v->sds[i];
		struct stat st;

		if (sd->used && !sd->size && stat(vdb_lun_path(v, sd), &st))
			return err_at(err, sd->lun_pos.file, sd->lun_pos.line,
				      "sd=%s,lun=%s: %s, and the SD has no size= to create it with",
				      sd->name, vdb_lun_path(v, sd), strerror(errno));
	}
	return 0;
}

static int check_steps(struct vdb *v, struct iowl_run *run, struct iowl_err *err)
{
	int ret = check_luns(v, err);

	for (unsigned i = 0; i < v->nsteps && !ret; i++) {
		ret = step_load(v, run, &v->steps[i], err);
		if (!ret && v->steps[i].nsweeps)
			ret = check_sweeps(run, &v->steps[i], err);
		step_unload(run);
	}
	return ret;
}

/* Sleeps secs, a tenth of a second at a time, until a signal is seen. */
static void nap(double secs)
{
	struct timespec tenth = { 0, 100000000 };

	for (double left = secs; left > 0 && !run_signal_seen(); left -= 0.1)
		nanosleep(&tenth, NULL);
}

static int run_step(struct iowl_run *run)
{
	const struct run_opts *o = &run->opts;

	if (o->parse_only)
		return IOWL_EXIT_OK;
	if (o->analyze)
		return analyze_run(run, o->analyze);
	if (o->nsweeps)
		return sweep_run(run);
	if (o->ncurve)
		return curve_run(run);
	return run_exec(run);
}

/* Runs the steps in order; the exit status is the worst of them. */
static int run_steps(struct vdb *v, struct iowl_run *run, struct vdb_out *out, bool flat)
{
	struct iowl_err err = { "" };
	char *output = run->opts.output;
	int status = IOWL_EXIT_OK;

	for (unsigned i = 0; i < v->nsteps && !run->signal && !run->abandoned; i++) {
		const struct vdb_step *s = &v->steps[i];
		int st;

		if (step_load(v, run, &v->steps[i], &err)) {
			fprintf(stderr, "iowl: %s\n", err.text);
			step_unload(run);
			return IOWL_EXIT_USAGE;
		}
		vdb_out_step(out, s);
		/* With the flatfile as the output, the tables of sweeps and curves go nowhere. */
		if (flat)
			run->opts.output = (s->nsweeps || s->ncurve) ? (char *)"/dev/null" : NULL;
		st = run_step(run);
		run->opts.output = output;
		step_unload(run);
		status = st > status ? st : status;
		if (s->pause && i + 1 < v->nsteps && !run->opts.parse_only && !run->opts.analyze)
			nap(s->pause);
		/* a signal during the pause ends the run as one during a step does */
		if (!run->signal && run_signal_seen())
			return run_signal_seen() == SIGTERM ? IOWL_EXIT_SIGTERM : IOWL_EXIT_SIGINT;
	}
	return status;
}

static int execute(struct vdb *v, struct iowl_run *run, struct iowl_err *err)
{
	struct run_opts *o = &run->opts;
	bool flat = o->formats & OUT_VDBFLAT;
	FILE *flat_f = stdout;
	struct vdb_out *out;
	char *output = o->output;
	int status;

	if (v->nsteps > 1 && o->output && !flat) {
		err_set(err, "--output holds one report, and '%s' runs %u separate steps (for-loops or curves beside other rds): send stdout to a file instead",
			v->file, v->nsteps);
		return IOWL_EXIT_USAGE;
	}
	if (flat && output && !o->parse_only && !o->analyze && !(flat_f = fopen(output, "w"))) {
		err_errno(err, errno, "--output '%s'", output);
		return IOWL_EXIT_USAGE;
	}
	out = vdb_out_new(v, run, o->vdb.output, flat, flat_f);
	if (!out) {
		err_nomem(err, "out of memory");
		if (flat_f != stdout)
			fclose(flat_f);
		return IOWL_EXIT_USAGE;
	}
	if (flat) {
		o->formats = 0;
		o->output = NULL;
	}
	o->watch = vdb_out_watch;
	o->watch_ctx = out;
	status = run_steps(v, run, out, flat);
	o->watch = NULL;
	o->output = output;
	if (flat_f != stdout && fclose(flat_f) && status == IOWL_EXIT_OK)
		status = IOWL_EXIT_IO;
	if (!run->abandoned)
		vdb_out_free(out);
	return status;
}

/* Builds every step's jobs from doc's sections as options only (no targets).  Returns 0 or -errno. */
static int check_jobs(struct vdb *v, const struct job_set *sets, unsigned nsets,
		      struct ini_doc *doc, struct iowl_err *err)
{
	int ret = 0;

	for (unsigned i = 0; i < v->nsteps && !ret; i++) {
		struct jobfile_input in = { .doc = doc, .sets = sets, .nsets = nsets };
		struct job *jobs = NULL;
		unsigned njobs = 0;

		ret = vdb_step_doc(v, &v->steps[i], doc);
		if (!ret)
			ret = jobfile_build(&in, &jobs, &njobs, err);
		if (!ret)
			jobfile_free(jobs, njobs);
	}
	return ret;
}

int vdbench_check_text(const char *name, const char *text, size_t len, struct iowl_err *err)
{
	struct vdbench_opts opts = { 0 };
	struct ini_doc doc;
	struct vdb v;
	int ret;

	ini_doc_init(&doc);
	vdb_init(&v, &opts, err);
	ret = vdb_read_text(&v, name, text, len);
	if (!ret)
		ret = vdb_check(&v);
	if (!ret)
		ret = vdb_translate(&v);
	if (!ret)
		ret = check_jobs(&v, NULL, 0, &doc, err);
	ini_doc_release(&doc);
	vdb_release(&v);
	return ret;
}

int vdbench_main(struct iowl_run *run)
{
	struct iowl_err err = { "" };
	int ret, status = IOWL_EXIT_USAGE;
	struct vdb v;

	vdb_init(&v, &run->opts.vdb, &err);
	ret = vdb_read(&v, run->opts.vdb.file);
	if (!ret)
		ret = vdb_check(&v);
	if (!ret && v.rank_hd && run->opts.nrank_jobs)
		ret = err_set(&err,
			      "%s: give either hd= host definitions or --rank-jobs: the hd= decide which rank runs what",
			      run->opts.vdb.file);
	run->opts.vdb_rank_jobs = !ret && v.rank_hd;
	if (!ret)
		ret = vdb_translate(&v);
	if (!ret && run->opts.vdb.show) {
		/* the jobs are checked as iowl job options, not as targets on this machine */
		ret = check_jobs(&v, run->opts.sets, run->opts.nsets, &run->doc, &err);
		if (!ret) {
			vdb_show(&v, stdout);
			status = fflush(stdout) ? IOWL_EXIT_IO : IOWL_EXIT_OK;
		}
	} else if (!ret) {
		ret = check_steps(&v, run, &err);
		if (!ret) {
			err.text[0] = '\0';
			status = execute(&v, run, &err);
			ret = err.text[0] ? -EINVAL : 0;
		}
	}
	if (ret)
		fprintf(stderr, "iowl: %s\n", err.text);
	if (!run->abandoned)
		vdb_release(&v);
	return status;
}
