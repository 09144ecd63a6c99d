// SPDX-License-Identifier: MIT
/* One job: its release, reporting group, option positions and messages, derived block sizes, walkers and streams, and job_validate() over the checks of job_check.c. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/engine.h"
#include "iowl/job.h"
#include "iowl/options.h"

#include "job_int.h"

void job_release(struct job *job)
{
	opt_release(&job->o);
	for (unsigned i = 0; i < job->nkv; i++) {
		free(job->kv[i].key);
		free(job->kv[i].value);
	}
	free(job->kv);
	val_strv_free(job->filenames);
	free(job->merged);
	for (unsigned i = 0; i < job->nstreams; i++) {
		opt_release(&job->streams[i].o);
		free(job->streams[i].name);
	}
	free(job->streams);
	free(job->pos);
	memset(job, 0, sizeof(*job));
}

bool job_does_dir(const struct job *job, unsigned d)
{
	return job->dirs & (1U << d);
}

const struct job *job_group_lead(const struct job *job)
{
	while (job->index && (job - 1)->group == job->group)
		job--;
	return job;
}

bool job_group_merged(const struct job *job)
{
	return job_group_lead(job)->o.group_reporting;
}

/* Position of an option for messages: where it was set, else the job's section. */
const struct opt_pos *job_pos_of(const struct job *job, enum opt_id id, struct opt_pos *tmp)
{
	const struct opt_def *def = opt_by_id(id);

	if (job->pos[opt_index(def)].file)
		return &job->pos[opt_index(def)];
	tmp->file = job->file;
	tmp->line = job->line;
	return tmp;
}

/*
 * Where a message about opt in job belongs: the line that set opt ("opt=value" there), or the
 * job's section ("job 'name'").  Sets *file and *line; returns what into what.
 */
static const char *job_opt_where(const struct job *job, enum opt_id opt, const char **file,
				 unsigned *line, char *what, size_t len)
{
	const struct opt_def *def = opt_by_id(opt);
	const struct opt_pos *p = &job->pos[opt_index(def)];

	if (p->file) {
		*file = p->file;
		*line = p->line;
		snprintf(what, len, "%s%s%s", def->name, p->value ? "=" : "", p->value ? p->value : "");
	} else {
		*file = job->file;
		*line = job->line;
		snprintf(what, len, "job '%s'", job->o.name);
	}
	return what;
}

int job_opt_err(const struct job *job, enum opt_id opt, struct iowl_err *err, const char *fmt, ...)
{
	char msg[IOWL_ERR_LEN / 2], what[IOWL_ERR_LEN / 2];
	const char *file;
	unsigned line;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	job_opt_where(job, opt, &file, &line, what, sizeof(what));
	return err_at(err, file, line, "%s: %s", what, msg);
}

bool job_error_ignored(const struct job_opts *o, unsigned type, int err)
{
	static const int non_fatal[] = { EIO, EILSEQ };
	const int *list = o->nignore_error[type] ? o->ignore_error[type] : non_fatal;
	unsigned n = o->nignore_error[type] ? o->nignore_error[type] : 2;

	if (!(o->continue_on_error & (1U << type)))
		return false;
	for (unsigned i = 0; i < n; i++)
		if (list[i] == err)
			return true;
	return false;
}

bool job_opt_is_set(const struct job *job, enum opt_id id)
{
	return job->pos[opt_index(opt_by_id(id))].file;
}

/*
 * A combination fio runs, where iowl does what fio does and says what it ignored or changed:
 * "iowl: FILE:LINE: warning: opt=value: <message>" at the line that set opt.
 */
void job_warn(const struct job *job, enum opt_id opt, const char *fmt, ...)
{
	char msg[IOWL_ERR_LEN / 2], what[IOWL_ERR_LEN / 2];
	const char *file;
	unsigned line;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	job_opt_where(job, opt, &file, &line, what, sizeof(what));
	iowl_warn("%s:%u: warning: %s: %s", file, line, what, msg);
}

const char *const job_dir_names[DDIR_NR] = { "reads", "writes", "trims" };

/* The sizes a direction can issue: bssplit, else bsrange, else bs (fio's precedence). */
static int derive_bs(const struct job_opts *o, unsigned min_bs[DDIR_NR], unsigned max_bs[DDIR_NR],
		     enum opt_id *why_opt, char *why, size_t len)
{
	for (unsigned d = 0; d < DDIR_NR; d++) {
		uint64_t lo = o->bs[d], hi = o->bs[d];

		if (o->bssplit[d].n && o->bsrange[d].hi) {
			*why_opt = OPT_ID_bsrange;
			snprintf(why, len,
				 "bsrange and bssplit both set the block sizes of %s (keep one)",
				 job_dir_names[d]);
			return -EINVAL;
		}
		if (o->bssplit[d].n) {
			lo = UINT64_MAX;
			hi = 0;
			for (unsigned i = 0; i < o->bssplit[d].n; i++) {
				uint64_t bs = o->bssplit[d].e[i].bs;

				if (o->bssplit[d].e[i].pct <= 0)
					continue;
				lo = bs < lo ? bs : lo;
				hi = bs > hi ? bs : hi;
			}
		} else if (o->bsrange[d].hi) {
			lo = o->bsrange[d].lo;
			hi = o->bsrange[d].hi;
			if (!lo) {
				*why_opt = OPT_ID_bsrange;
				snprintf(why, len, "bsrange starts at 0 (block sizes must be at least 1 byte, e.g. 4k-64k)");
				return -EINVAL;
			}
		}
		if (hi > UINT32_MAX) {
			*why_opt = o->bssplit[d].n ? OPT_ID_bssplit : OPT_ID_bsrange;
			snprintf(why, len, "block sizes above 4 GiB are not supported");
			return -EINVAL;
		}
		min_bs[d] = (unsigned)lo;
		max_bs[d] = (unsigned)hi;
	}
	/* bs_is_seq_rand: every direction may issue the sequential (read) or random (write) sizes */
	for (unsigned d = 0; d < DDIR_NR && o->bs_is_seq_rand; d++) {
		min_bs[d] = min_bs[0] < min_bs[1] ? min_bs[0] : min_bs[1];
		max_bs[d] = max_bs[0] > max_bs[1] ? max_bs[0] : max_bs[1];
	}
	return 0;
}

static int derive_job_bs(struct job *job, struct iowl_err *err)
{
	enum opt_id opt = OPT_ID_bs;
	char why[256];

	bool both = false;

	for (unsigned d = 0; d < DDIR_NR; d++) {
		if (!job->o.bssplit[d].n || !job->o.bsrange[d].hi)
			continue;
		both = true;
		job->o.bsrange[d].hi = 0;
	}
	if (both)
		job_warn(job, OPT_ID_bsrange,
			 "bssplit sets the block sizes: bsrange is ignored where both are given (as fio)");
	if (derive_bs(&job->o, job->min_bs, job->max_bs, &opt, why, sizeof(why)))
		return JOB_ERR(job, opt, err, "%s", why);
	job->dirs = job->o.rw & (RW_F_READ | RW_F_WRITE | RW_F_TRIM);
	return 0;
}

/* Splits a stream with walkers=N into N streams NAME.0 ... NAME.N-1 sharing its weight. */
static int expand_walkers(struct job *job, struct iowl_err *err)
{
	unsigned total = 0;
	struct job_stream *v;
	unsigned k = 0;

	for (unsigned i = 0; i < job->nstreams; i++)
		total += job->streams[i].o.walkers;
	if (total > JOB_MAX_STREAMS)
		return err_at(err, job->file, job->line,
			      "job '%s' has %u streams with its walkers (at most %d)", job->o.name,
			      total, JOB_MAX_STREAMS);
	v = calloc(total, sizeof(*v));
	if (!v)
		return err_nomem(err, "out of memory");
	for (unsigned i = 0; i < job->nstreams; i++) {
		struct job_stream *s = &job->streams[i];
		unsigned n = s->o.walkers;

		for (unsigned w = 0; w < n; w++, k++) {
			v[k] = *s;
			v[k].walker = w;
			v[k].nwalkers = n;
			v[k].weight = s->o.weight / n;
			if (w && opt_copy(&v[k].o, &s->o))
				goto out_nomem;
			if (n > 1 && asprintf(&v[k].name, "%s.%u", s->name, w) < 0) {
				v[k].name = NULL;
				goto out_nomem;
			}
		}
		if (n > 1)
			free(s->name);
	}
	free(job->streams);
	job->streams = v;
	job->nstreams = total;
	return 0;
out_nomem:
	/* Only the copies made here are released; the originals stay with job->streams. */
	for (unsigned j = 0; j < k; j++) {
		if (v[j].walker)
			opt_release(&v[j].o);
		if (v[j].nwalkers > 1)
			free(v[j].name);
	}
	free(v);
	return err_nomem(err, "out of memory");
}

static int validate_streams(struct job *job, struct iowl_err *err)
{
	int ret;

	if (!job->nstreams)
		return 0;
	ret = expand_walkers(job, err);
	if (ret)
		return ret;
	job->dirs = 0;
	for (unsigned d = 0; d < DDIR_NR; d++) {
		job->min_bs[d] = UINT32_MAX;
		job->max_bs[d] = 0;
	}
	for (unsigned i = 0; i < job->nstreams; i++) {
		struct job_stream *s = &job->streams[i];
		enum opt_id opt = OPT_ID_bs;
		char why[256];

		if (derive_bs(&s->o, s->min_bs, s->max_bs, &opt, why, sizeof(why)))
			return err_at(err, s->file, s->line, "stream '%s': %s", s->name, why);
		s->dirs = s->o.rw & (RW_F_READ | RW_F_WRITE | RW_F_TRIM);
		job->dirs |= s->dirs;
		for (unsigned d = 0; d < DDIR_NR; d++) {
			if (!(s->dirs & (1U << d)))
				continue;
			if (s->min_bs[d] < job->min_bs[d])
				job->min_bs[d] = s->min_bs[d];
			if (s->max_bs[d] > job->max_bs[d])
				job->max_bs[d] = s->max_bs[d];
		}
	}
	for (unsigned d = 0; d < DDIR_NR; d++)
		if (job->min_bs[d] == UINT32_MAX)
			job->min_bs[d] = job->max_bs[d] = (unsigned)job->o.bs[d];
	return 0;
}

int job_validate(struct job *job, struct iowl_err *err)
{
	int ret;

	ret = derive_job_bs(job, err);
	if (!ret)
		ret = validate_streams(job, err);
	if (!ret)
		job_check_depths(job);
	if (!ret)
		ret = job_check_engine(job, err);
	if (!ret)
		ret = job_check_files(job, err);
	if (!ret)
		ret = job_check_misc(job, err);
	if (!ret)
		ret = job_check_rate_min(job, err);
	if (!ret)
		ret = job_check_stats_opts(job, err);
	if (!ret)
		job_check_think(job);
	if (!ret)
		job_check_pct_random(job);
	if (!ret)
		ret = job_check_verify(job, err);
	if (!ret)
		ret = job_check_buffers(job, err);
	return ret;
}
