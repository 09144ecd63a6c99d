// SPDX-License-Identifier: MIT
/* What a run produced (include/iowl/result.h): its units as they are gathered, exit statuses. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "iowl/result.h"

struct job_result *results_group(struct results *res, unsigned group)
{
	for (unsigned i = 0; i < res->n; i++)
		if (res->units[i].group == group && !res->units[i].hidden)
			return &res->units[i];
	return NULL;
}

struct job_result *results_add(struct results *res, const struct job *job, unsigned clone)
{
	bool merged = job_group_merged(job);

	if (res->n == res->cap) {
		unsigned cap = res->cap ? 2 * res->cap : 16;
		struct job_result *u = realloc(res->units, cap * sizeof(*u));

		if (!u)
			return NULL;
		res->units = u;
		res->cap = cap;
	}
	memset(&res->units[res->n], 0, sizeof(res->units[0]));
	res->units[res->n].job = merged ? job_group_lead(job) : job;
	res->units[res->n].clone = merged ? 0 : clone;
	res->units[res->n].group = job->group;
	res->units[res->n].pid = (int)getpid();
	if (stats_init(&res->units[res->n].st, 0, false, false, false))
		return NULL;
	return &res->units[res->n++];
}

struct job_result *results_unit(struct results *res, const struct job *job, unsigned clone)
{
	if (job_group_merged(job)) {
		struct job_result *u = results_group(res, job->group);

		return u ? u : results_add(res, job, clone);
	}
	for (unsigned i = 0; i < res->n; i++)
		if (res->units[i].job == job && res->units[i].clone == clone)
			return &res->units[i];
	return results_add(res, job, clone);
}

bool result_group_disks(const struct run_result *r, unsigned g, const struct disk_sample **first,
			const struct disk_sample **last)
{
	const struct group_result *gr = g < r->ngroups ? &r->groups[g] : NULL;

	if (!gr || !r->phase_disk || !r->disks || !r->disks->n || gr->first_phase >= r->nphases ||
	    gr->last_phase >= r->nphases)
		return false;
	*first = r->phase_disk + (size_t)2 * gr->first_phase * r->disks->n;
	*last = r->phase_disk + ((size_t)2 * gr->last_phase + 1) * r->disks->n;
	return true;
}

/* How bad a status is: a signal, then an error, then bad usage, then a failed --assert. */
static int status_rank(int status)
{
	switch (status) {
	case IOWL_EXIT_OK: return 0;
	case IOWL_EXIT_ASSERT: return 1;
	case IOWL_EXIT_USAGE: return 2;
	case IOWL_EXIT_IO: return 3;
	default: return 4; /* a signal */
	}
}

int run_status_worst(int a, int b)
{
	return status_rank(b) > status_rank(a) ? b : a;
}

void run_outcome_release(struct run_outcome *o)
{
	for (unsigned i = 0; i < o->res.n; i++) {
		free(o->res.units[i].why);
		stats_release(&o->res.units[i].st);
		ivl_series_release(&o->res.units[i].series);
		steady_release(&o->res.units[i].ss);
	}
	free(o->res.units);
	free(o->res.collected);
	free(o->r.groups);
	free(o->gkv);
	free(o->own_io);
	json_decref(o->iostat_log);
	free(o->phase_disk);
	idleprof_result_free(&o->idle);
	disk_set_release(&o->disks);
	memset(o, 0, sizeof(*o));
}
