// SPDX-License-Identifier: MIT
/* Builds validated jobs from parsed job files: globals in order, section entries, --set overrides, groups and phases. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/debug.h"
#include "iowl/engine.h"
#include "iowl/iolog_read.h"
#include "iowl/jobfile.h"
#include "iowl/options.h"
#include "iowl/suggest.h"
#include "iowl/value.h"

/* One key=value to apply, with where it was written. */
struct pending {
	const char *key;
	const char *value;
	const char *file;
	unsigned line;
	bool from_section;	/* shown in the JSON "job options" */
	bool from_set;		/* a --set override */
};

struct pending_list {
	struct pending *v;
	unsigned n, cap;
};

static int pending_add(struct pending_list *l, const char *key, const char *value,
		       const char *file, unsigned line, bool from_section)
{
	if (l->n == l->cap) {
		unsigned cap = l->cap ? 2 * l->cap : 32;
		struct pending *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = (struct pending){ key, value, file, line, from_section,
					 !strcmp(file, "--set") };
	return 0;
}

static int unknown_option(const char *key, const char *file, unsigned line,
			  struct iowl_err *err)
{
	size_t n;
	const char *const *names = opt_names(&n);
	const char *best = suggest_closest(key, names, n);

	if (best)
		return err_at(err, file, line, "unknown option '%s' (did you mean '%s'?)", key,
			      best);
	return err_at(err, file, line, "unknown option '%s' (iowl --cmdhelp lists them all)",
		      key);
}

/* Applies one line to o; pos (per option index) records where, when not NULL. */
static int apply_to(struct job_opts *o, struct opt_pos *pos, const struct pending *p,
		    struct iowl_err *err)
{
	const struct opt_def *def = opt_find(p->key);
	char why[VAL_WHY_LEN];
	int ret;

	if (!def)
		return unknown_option(p->key, p->file, p->line, err);
	ret = opt_apply(def, o, p->value, why);
	if (ret == -ENOMEM) {
		err_at(err, p->file, p->line, "out of memory");
		return -ENOMEM;
	}
	if (ret) {
		if (def->type == OPT_UNSUPPORTED)
			return err_at(err, p->file, p->line, "'%s' %s", p->key, why);
		return err_at(err, p->file, p->line, "%s=%s: %s", p->key,
			      p->value ? p->value : "", why);
	}
	if (pos)
		pos[opt_index(def)] = (struct opt_pos){ p->file, p->line, p->value };
	dprint(DBG_PARSE, "%s:%u: %s%s%s", p->file ? p->file : "command line", p->line, p->key,
	       p->value ? "=" : "", p->value ? p->value : "");
	return 0;
}

/* A job-level line: stream-only options are refused here. */
static int apply_one(struct job *job, const struct pending *p, struct iowl_err *err)
{
	const struct opt_def *def = opt_find(p->key);

	if (def && (def->flags & OPT_F_STREAM_ONLY))
		return err_at(err, p->file, p->line,
			      "'%s' means something only inside a stream (after a stream=NAME line)",
			      p->key);
	return apply_to(&job->o, job->pos, p, err);
}

static int add_kv(struct job *job, const struct pending *p)
{
	struct job_kv *kv = realloc(job->kv, (job->nkv + 1) * sizeof(*kv));

	if (!kv)
		return -ENOMEM;
	job->kv = kv;
	kv[job->nkv].key = strdup(p->key);
	kv[job->nkv].value = p->value ? strdup(p->value) : NULL;
	if (!kv[job->nkv].key || (p->value && !kv[job->nkv].value)) {
		free(kv[job->nkv].key);
		free(kv[job->nkv].value);
		return -ENOMEM;
	}
	job->nkv++;
	return 0;
}

static bool is_stream_line(const struct pending *p)
{
	return p->from_section && !strcmp(p->key, "stream");
}

/* Starts stream number job->nstreams named by p, with a copy of the job's options. */
static int stream_begin(struct job *job, const struct pending *p, struct iowl_err *err)
{
	struct job_stream *s;

	if (!p->value || !*p->value)
		return err_at(err, p->file, p->line, "stream= needs a name (e.g. stream=hot1)");
	for (unsigned i = 0; i < job->nstreams; i++)
		if (!strcmp(job->streams[i].name, p->value))
			return err_at(err, p->file, p->line,
				      "stream '%s' is defined twice in job '%s' (give each stream its own name)",
				      p->value, job->o.name);
	if (job->nstreams == JOB_MAX_STREAMS)
		return err_at(err, p->file, p->line, "more than %d streams in one job",
			      JOB_MAX_STREAMS);
	s = realloc(job->streams, (job->nstreams + 1) * sizeof(*s));
	if (!s)
		return err_nomem(err, "out of memory");
	job->streams = s;
	s = &s[job->nstreams];
	memset(s, 0, sizeof(*s));
	if (opt_copy(&s->o, &job->o) || !(s->name = strdup(p->value))) {
		free(s->name);
		return err_nomem(err, "out of memory");
	}
	s->file = p->file;
	s->line = p->line;
	job->nstreams++;
	return 0;
}

/* A line inside a stream block: only options marked as per-stream. */
static int stream_apply(struct job *job, const struct pending *p, struct iowl_err *err)
{
	const struct opt_def *def = opt_find(p->key);

	if (def && !(def->flags & OPT_F_STREAM))
		return err_at(err, p->file, p->line,
			      "'%s' applies to the whole job and cannot be set per stream (move it above the first stream= line)",
			      p->key);
	if (def && !strcmp(def->name, "offset"))
		job->streams[job->nstreams - 1].has_offset = true;
	if (def && !strcmp(def->name, "size"))
		job->streams[job->nstreams - 1].has_size = true;
	return apply_to(&job->streams[job->nstreams - 1].o, NULL, p, err);
}

/* The job's own lines: globals, the section up to its first stream=, then --set. */
static int apply_job_level(struct job *job, const struct pending_list *l, struct iowl_err *err)
{
	bool in_stream = false;
	int ret;

	for (unsigned i = 0; i < l->n; i++) {
		const struct pending *p = &l->v[i];

		in_stream = in_stream || is_stream_line(p);
		if (!strcmp(p->key, "kb_base") || (in_stream && !p->from_set))
			continue;
		if (!p->from_section && !p->from_set && !strcmp(p->key, "stream"))
			return err_at(err, p->file, p->line,
				      "stream= belongs in a job section, not in [global]");
		ret = apply_one(job, p, err);
		if (ret)
			return ret;
		if (p->from_section && add_kv(job, p))
			return err_nomem(err, "out of memory");
	}
	return 0;
}

/*
 * Each stream block over a copy of the job's options; --set lines apply to every stream too,
 * except a stream's range (offset=, size=): --set sizes the job, and the streams keep their
 * places in it.
 */
static int apply_streams(struct job *job, const struct pending_list *l, struct iowl_err *err)
{
	int ret = 0;

	for (unsigned i = 0; i < l->n && !ret; i++) {
		const struct pending *p = &l->v[i];

		if (is_stream_line(p))
			ret = stream_begin(job, p, err);
		else if (job->nstreams && p->from_section)
			ret = stream_apply(job, p, err);
		if (!ret && job->nstreams && p->from_section && add_kv(job, p))
			ret = err_nomem(err, "out of memory");
	}
	for (unsigned s = 0; s < job->nstreams && !ret; s++) {
		for (unsigned i = 0; i < l->n && !ret; i++) {
			const struct opt_def *def = opt_find(l->v[i].key);

			if (l->v[i].from_set && def && (def->flags & OPT_F_STREAM) &&
			    !(def->flags & (OPT_F_STREAM_ONLY | OPT_F_RANGE)))
				ret = apply_to(&job->streams[s].o, NULL, &l->v[i], err);
		}
	}
	return ret;
}

/* kb_base changes how every size is read, so it is applied before anything else (as fio's option priorities do). */
static int apply_all(struct job *job, const struct pending_list *l, struct iowl_err *err)
{
	int ret;

	for (unsigned i = 0; i < l->n; i++) {
		if (strcmp(l->v[i].key, "kb_base"))
			continue;
		ret = apply_one(job, &l->v[i], err);
		if (ret)
			return ret;
	}
	ret = apply_job_level(job, l, err);
	if (!ret)
		ret = apply_streams(job, l, err);
	return ret;
}

static int job_init(struct job *job, const struct ini_section *sec, struct iowl_err *err)
{
	memset(job, 0, sizeof(*job));
	job->pos = calloc(opt_count(), sizeof(*job->pos));
	if (!job->pos || opt_set_defaults(&job->o))
		return err_nomem(err, "out of memory");
	job->file = sec->file;
	job->line = sec->line;
	job->file_index = sec->file_index;
	return 0;
}

static bool section_selected(const struct jobfile_input *in, const char *name)
{
	if (!in->nsections)
		return true;
	for (unsigned i = 0; i < in->nsections; i++)
		if (!strcmp(in->sections[i], name))
			return true;
	return false;
}

/* Entries of the globals that apply to section idx: the [global] sections above it in its file. */
static int collect(const struct jobfile_input *in, size_t idx, struct pending_list *l)
{
	const struct ini_section *sec = &in->doc->sections[idx];
	int ret = 0;

	for (size_t s = 0; s <= idx && !ret; s++) {
		const struct ini_section *g = &in->doc->sections[s];

		if (!g->global || (g->file_index != sec->file_index && !g->cmdline))
			continue;
		for (size_t e = 0; e < g->nentries && !ret; e++)
			ret = pending_add(l, g->entries[e].key, g->entries[e].value,
					  g->entries[e].file, g->entries[e].line, false);
	}
	for (size_t e = 0; e < sec->nentries && !ret; e++)
		ret = pending_add(l, sec->entries[e].key, sec->entries[e].value,
				  sec->entries[e].file, sec->entries[e].line, true);
	for (unsigned i = 0; i < in->nsets && !ret; i++)
		ret = pending_add(l, in->sets[i].key, in->sets[i].value, "--set", 0, false);
	return ret;
}

/* Globals must parse even when no job follows them, so their errors are never hidden. */
static int check_globals(const struct jobfile_input *in, struct iowl_err *err)
{
	for (size_t s = 0; s < in->doc->nsections; s++) {
		const struct ini_section *g = &in->doc->sections[s];
		struct pending_list l = { 0 };
		struct job job;
		int ret;

		if (!g->global)
			continue;
		ret = job_init(&job, g, err);
		for (size_t e = 0; e < g->nentries && !ret; e++)
			ret = pending_add(&l, g->entries[e].key, g->entries[e].value,
					  g->entries[e].file, g->entries[e].line, false);
		if (!ret)
			ret = apply_all(&job, &l, err);
		free(l.v);
		job_release(&job);
		if (ret)
			return ret;
	}
	return 0;
}

static void assign_groups(struct job *jobs, unsigned njobs)
{
	unsigned group = 0, phase = 0;

	for (unsigned i = 0; i < njobs; i++) {
		if (i) {
			bool new_file = jobs[i].file_index != jobs[i - 1].file_index;

			if (new_file || jobs[i].o.stonewall) {
				phase++;
				group++;
			} else if (jobs[i].o.new_group) {
				group++;
			}
		}
		jobs[i].index = i;
		jobs[i].group = group;
		jobs[i].phase = phase;
	}
}

/*
 * wait_for=NAME: the job starts after every clone of the earlier job of that name, as fio: the
 * name must be an earlier job's, and one job's only.  Returns 0 or -EINVAL with err set.
 */
static int resolve_wait_for(struct job *jobs, unsigned njobs, struct iowl_err *err)
{
	for (unsigned i = 0; i < njobs; i++) {
		const char *name = jobs[i].o.wait_for;
		unsigned found = 0, n = 0;

		if (!name || !*name)
			continue;
		if (!strcmp(name, jobs[i].o.name))
			return job_opt_err(&jobs[i], OPT_ID_wait_for, err,
					   "a job cannot wait for itself");
		for (unsigned k = 0; k < njobs; k++)
			if (k != i && !strcmp(jobs[k].o.name, name)) {
				found = k + 1;
				n++;
			}
		if (!n || found > i)
			return job_opt_err(&jobs[i], OPT_ID_wait_for, err,
					   "no job named '%s' before this one (a waitee comes first, as in fio)",
					   name);
		if (n > 1)
			return job_opt_err(&jobs[i], OPT_ID_wait_for, err,
					   "%u jobs are named '%s': the waitee's name must be unique",
					   n, name);
		jobs[i].wait_for = found;
	}
	return 0;
}

/* An option's value as the job file wrote it, for --debug=job. */
static const char *written(const struct job *job, const char *key)
{
	const struct opt_def *d = opt_find(key);
	const char *v = d && job->pos ? job->pos[opt_index(d)].value : NULL;

	return v ? v : "(default)";
}

/* --debug=job: a job as built. */
static void debug_job(const struct job *job)
{
	const struct job_opts *o = &job->o;

	if (!(iowl_debug & (1U << DBG_JOB)))
		return;
	dprint(DBG_JOB,
	       "job '%s' (%s:%u): ioengine=%s rw=%s bs=%s iodepth=%u numjobs=%u size=%s, group %u",
	       o->name, job->file ? job->file : "command line", job->line, job->engine->name,
	       written(job, "rw"), written(job, "bs"), o->iodepth, o->numjobs, written(job, "size"),
	       job->group);
}

int jobfile_build(const struct jobfile_input *in, struct job **jobs_out, unsigned *njobs_out,
		  struct iowl_err *err)
{
	struct job *jobs = calloc(in->doc->nsections ? in->doc->nsections : 1, sizeof(*jobs));
	unsigned njobs = 0;
	int ret;

	if (!jobs)
		return err_nomem(err, "out of memory");
	ret = check_globals(in, err);
	for (size_t s = 0; s < in->doc->nsections && !ret; s++) {
		const struct ini_section *sec = &in->doc->sections[s];
		struct pending_list l = { 0 };

		if (sec->global || !section_selected(in, sec->name))
			continue;
		ret = job_init(&jobs[njobs], sec, err);
		njobs++;
		/* fio's "job options" of a command-line job start with its name. */
		if (!ret && sec->cmdline &&
		    add_kv(&jobs[njobs - 1], &(struct pending){ .key = "name", .value = sec->name }))
			ret = err_nomem(err, "out of memory");
		if (!ret)
			ret = collect(in, s, &l) ? err_nomem(err, "out of memory") : 0;
		if (!ret && !jobs[njobs - 1].o.name) {
			jobs[njobs - 1].o.name = strdup(sec->name);
			if (!jobs[njobs - 1].o.name)
				ret = err_nomem(err, "out of memory");
		}
		if (!ret)
			ret = apply_all(&jobs[njobs - 1], &l, err);
		free(l.v);
		if (!ret)
			ret = replay_prepare(&jobs[njobs - 1], err);
		if (!ret)
			ret = job_validate(&jobs[njobs - 1], err);
		if (!ret)
			debug_job(&jobs[njobs - 1]);
	}
	if (!ret && !njobs && in->nsections)
		ret = err_set(err, "no job matches the --section names given");
	else if (!ret && !njobs && in->doc->nsections)	/* only globals: point at the last one */
		ret = err_at(err, in->doc->sections[in->doc->nsections - 1].file,
			     in->doc->sections[in->doc->nsections - 1].line,
			     "no jobs defined: only [global] sections (add a job section, e.g. [job1])");
	else if (!ret && !njobs)
		ret = err_at(err, in->doc->nfiles ? in->doc->files[0] : "command line", 1,
			     "no jobs defined (a job file needs a [section], or use --name=...)");
	if (ret) {
		jobfile_free(jobs, njobs);
		return ret;
	}
	assign_groups(jobs, njobs);
	ret = resolve_wait_for(jobs, njobs, err);
	if (ret) {
		jobfile_free(jobs, njobs);
		return ret;
	}
	*jobs_out = jobs;
	*njobs_out = njobs;
	return 0;
}

void jobfile_free(struct job *jobs, unsigned njobs)
{
	for (unsigned i = 0; jobs && i < njobs; i++) {
		replay_release(&jobs[i]);
		job_release(&jobs[i]);
	}
	free(jobs);
}
