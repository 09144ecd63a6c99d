// SPDX-License-Identifier: MIT
/* The job-facing side of verification: a worker's verify_params from its job, and the checks of a job's verify options against its method's header and its files. */
#include <inttypes.h>

#include "iowl/job.h"
#include "verify/verify_int.h"

void verify_params_of(const struct job *job, unsigned clone, struct verify_params *p)
{
	const struct job_opts *o = &job->o;

	*p = (struct verify_params){
		.name = o->name,
		.mode = o->verify,
		.interval = (uint32_t)o->verify_interval,
		.offset = (uint32_t)o->verify_offset,
		.pattern = o->verify_pattern_len ? o->verify_pattern : NULL,
		.pattern_len = o->verify_pattern_len,
		.job = job->index,
		.clone = clone,
		.writes = job_does_dir(job, DDIR_WRITE),
		.do_verify = o->do_verify,
		.fatal = o->verify_fatal,
		.dump = o->verify_dump,
		.only = o->verify_only,
		.backlog = o->verify_backlog,
		.backlog_batch = o->verify_backlog_batch,
		.async = o->verify_async,
		.trim_pct = o->trim_percentage,
		.trim_backlog = o->trim_backlog,
		.trim_batch = o->trim_backlog_batch,
		.trim_zero = o->trim_verify_zero,
	};
	for (unsigned i = 0; i < PLACE_CPUS_MAX / 64; i++)
		if (o->verify_async_cpus.bits[i])
			p->async_cpus = &o->verify_async_cpus;
}

/*
 * verify_offset: the header and its checksum are swapped with as many bytes there, which must lie
 * after them inside the unit (fio's swap of overlapping areas is not undone by swapping again).
 */
static int check_offset(const struct job *job, struct iowl_err *err)
{
	const struct job_opts *o = &job->o;
	unsigned hl = verify_mode_hdr_len(o->verify);

	if (!o->verify_offset)
		return 0;
	if (!hl)
		return job_opt_err(job, OPT_ID_verify_offset, err,
				   "verify=%s writes no header: verify_offset has nothing to move",
				   verify_mode_name(o->verify));
	if (o->verify_offset < hl || o->verify_offset + hl > o->verify_interval)
		return job_opt_err(job, OPT_ID_verify_offset, err,
				   "the %u bytes of verify=%s's header and checksum must move to after themselves, within the %llu-byte unit (use %u to %llu)",
				   hl, verify_mode_name(o->verify),
				   (unsigned long long)o->verify_interval, hl,
				   (unsigned long long)(o->verify_interval - hl));
	return 0;
}

int verify_check_job(const struct job *job, struct iowl_err *err)
{
	const struct job_opts *o = &job->o;
	unsigned hl = verify_mode_hdr_len(o->verify);

	if (!o->verify)
		return 0;
	if (o->verify_interval <= hl || o->verify_interval > UINT32_MAX)
		return job_opt_err(job,
				   job_opt_is_set(job, OPT_ID_verify_interval) ?
					   OPT_ID_verify_interval :
					   OPT_ID_bs,
				   err,
				   "verify_interval=%llu: a verified unit of verify=%s holds a %u-byte header and data after it, and is at most 4 GiB",
				   (unsigned long long)o->verify_interval,
				   verify_mode_name(o->verify), hl);
	return check_offset(job, err);
}

int verify_check_plan(const struct job *job, const struct target_plan *plan, struct iowl_err *err)
{
	const struct job_opts *o = &job->o;
	uint32_t iv = (uint32_t)o->verify_interval;

	if (o->verify && o->direct && plan->lbs > 1 && iv % plan->lbs)
		return job_opt_err(job,
				   job_opt_is_set(job, OPT_ID_verify_interval) ?
					   OPT_ID_verify_interval :
					   OPT_ID_bs,
				   err,
				   "verify_interval=%" PRIu32
				   " is not a multiple of the %u-byte logical block size (direct=1 reads units back on their own)",
				   iv, plan->lbs);
	return 0;
}
