// SPDX-License-Identifier: MIT
/* A run's results made ready for the reports: units not run, the units shown, reporting groups, [global] options, the printed formats, and the notes on rounded plans. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/act.h"
#include "iowl/clock.h"
#include "iowl/engine.h"
#include "iowl/interval.h"
#include "iowl/options.h"
#include "iowl/report.h"
#include "iowl/run.h"
#include "iowl/target.h"

#include "run_int.h"

/* Says which block sizes bs_roundup changes, so the mix is never changed silently. */
static void report_roundup(FILE *info, const struct job *job, const struct target_plan *plan)
{
	unsigned ns = job->nstreams ? job->nstreams : 1;
	char sizes[256] = "";
	size_t n = 0;

	if (!job->o.direct || plan->lbs <= 1)
		return;
	for (unsigned s = 0; s < ns; s++) {
		const struct job_opts *o = job->nstreams ? &job->streams[s].o : &job->o;

		for (unsigned d = 0; o->bs_roundup && d < DDIR_NR; d++) {
			for (unsigned i = 0; i < o->bssplit[d].n; i++) {
				uint64_t bs = o->bssplit[d].e[i].bs;
				char one[32];

				snprintf(one, sizeof(one), " %llu,", (unsigned long long)bs);
				if (bs < plan->lbs && !strstr(sizes, one) &&
				    n + strlen(one) < sizeof(sizes))
					n += (size_t)snprintf(sizes + n, sizeof(sizes) - n, "%s",
							      one);
			}
			if (!o->bssplit[d].n && o->bs[d] < plan->lbs && (o->rw & (1U << d)))
				n += (size_t)snprintf(sizes + n, sizeof(sizes) - n, " %llu,",
						      (unsigned long long)o->bs[d]);
		}
	}
	if (n && info)
		fprintf(info,
			"%s: bs_roundup: IOs of%.*s bytes go out as %u bytes, the logical block size of the target\n",
			job->o.name, (int)n - 1, sizes, plan->lbs);
}

/* What the plan of a job's first clone rounded: block sizes (bs_roundup) and stream ranges. */
void run_report_notes(FILE *info, const struct job *job, const struct target_plan *plan)
{
	report_roundup(info, job, plan);
	target_report_ranges(info, job, plan);
}

/* A unit for every clone (or merged group) that no phase collected: not run, and why. */
int run_add_not_run(const struct iowl_run *run, struct results *res, const char *why)
{
	for (unsigned j = 0; j < run->njobs; j++) {
		const struct job *job = &run->jobs[j];
		bool merged = job_group_merged(job);

		for (unsigned c = res->collected[j];
		     !job->off_rank && job->o.stats && c < job->o.numjobs; c++) {
			struct job_result *u;

			if (merged && results_group(res, job->group))
				break;
			u = results_add(res, job, c);
			if (!u || run_unit_why(u, ECANCELED, true, "%s", why))
				return -ENOMEM;
		}
	}
	return 0;
}

/* The units of stats=0 jobs go last, out of the results' count; returns the count of the rest. */
unsigned run_units_shown(struct results *res)
{
	unsigned n = 0;

	for (unsigned i = 0; i < res->n; i++) {
		struct job_result u = res->units[i];

		if (u.hidden)
			continue;
		memmove(&res->units[n + 1], &res->units[n], (i - n) * sizeof(u));
		res->units[n++] = u;
	}
	return n;
}

/* Adds one direction's figures to slot k of the group (k 3: every direction, as fio's mixed). */
static void group_slot(struct group_result *g, unsigned k, const struct dir_stats *ds, uint64_t rt)
{
	uint64_t bw = rt ? (uint64_t)((unsigned __int128)ds->bytes * NSEC_PER_SEC / rt) : 0;

	if (!g->ios[k] || bw < g->min_bw[k])
		g->min_bw[k] = bw;
	if (bw > g->max_bw[k])
		g->max_bw[k] = bw;
	if (!g->ios[k] || rt < g->min_runtime_ns[k])
		g->min_runtime_ns[k] = rt;
	if (rt > g->runtime_ns[k])
		g->runtime_ns[k] = rt;
	g->bytes[k] += ds->bytes;
	g->ios[k] += ds->ios;
}

static void group_add(struct group_result *g, const struct job_result *u)
{
	if (!g->lead)
		g->lead = u->job;
	for (unsigned d = 0; d < DDIR_NR; d++) {
		if (!u->st.dir[d].ios)
			continue;
		group_slot(g, d, &u->st.dir[d], stats_dir_runtime(&u->st, d));
		group_slot(g, 3, &u->st.dir[d], stats_dir_runtime(&u->st, d));
	}
}

int run_build_groups(const struct iowl_run *run, struct run_result *r)
{
	unsigned n = run->njobs ? run->jobs[run->njobs - 1].group + 1 : 0;

	r->groups = calloc(n ? n : 1, sizeof(*r->groups));
	if (!r->groups)
		return -ENOMEM;
	r->ngroups = n;
	for (unsigned g = 0; g < n; g++) {
		r->groups[g].id = g;
		r->groups[g].kb_base = 1024;
		r->groups[g].first_phase = UINT_MAX;
	}
	for (unsigned j = 0; j < run->njobs; j++) {
		struct group_result *g = &r->groups[run->jobs[j].group];

		g->first_phase =
			run->jobs[j].phase < g->first_phase ? run->jobs[j].phase : g->first_phase;
		g->last_phase =
			run->jobs[j].phase > g->last_phase ? run->jobs[j].phase : g->last_phase;
	}
	for (unsigned i = 0; i < r->nunits; i++) {
		struct group_result *g = &r->groups[r->units[i].group];

		g->kb_base = r->units[i].job->o.kb_base;
		group_add(g, &r->units[i]);
	}
	for (unsigned g = 0; g < n; g++)
		for (unsigned d = 0; d < 4; d++)
			if (r->groups[g].runtime_ns[d])
				r->groups[g].agg_bw[d] =
					(uint64_t)((unsigned __int128)r->groups[g].bytes[d] *
						   NSEC_PER_SEC / r->groups[g].runtime_ns[d]);
	return 0;
}

/* Options written in [global] sections, for the JSON "global options". */
struct job_kv *run_global_kv(const struct iowl_run *run, unsigned *n)
{
	struct job_kv *kv = NULL;

	*n = 0;
	for (size_t s = 0; s < run->doc.nsections; s++) {
		const struct ini_section *sec = &run->doc.sections[s];

		for (size_t e = 0; sec->global && e < sec->nentries; e++) {
			struct job_kv *v = realloc(kv, (*n + 1) * sizeof(*kv));

			if (!v)
				return kv;
			kv = v;
			kv[*n].key = sec->entries[e].key;
			kv[*n].value = sec->entries[e].value;
			(*n)++;
		}
	}
	return kv;
}

int run_print_reports(const struct iowl_run *run, FILE *f, struct run_result *r)
{
	int ret = 0;

	errno = 0;	/* a failed write leaves why (ENOSPC, EPIPE) where the reports say EIO */
	/* --profile=act's table first, as fio's act prints it when the last job ends */
	if (r->act && (run->opts.formats & (OUT_TERSE | OUT_NORMAL)))
		ret = act_print(f, r->act);
	/* fio's order: terse, then JSON, then normal */
	if (!ret && (run->opts.formats & OUT_TERSE))
		ret = report_terse(f, r, run->opts.terse_version ? run->opts.terse_version : 3);
	if (!ret && (run->opts.formats & (OUT_JSON | OUT_JSONPLUS)))
		ret = report_json(f, r, run->opts.formats & OUT_JSONPLUS);
	if (!ret && (run->opts.formats & OUT_NORMAL))
		ret = report_text(f, r);
	if (ret == -EIO && errno)
		ret = -errno;
	if (fflush(f) && !ret)
		ret = -errno;
	return ret;
}
