/* SPDX-License-Identifier: MIT */
/* Shared by job.c and job_check.c: where an option was set, messages at that line, and the checks job_validate() runs. */
#ifndef IOWL_JOB_INT_H
#define IOWL_JOB_INT_H

#include "iowl/err.h"
#include "iowl/job.h"

/* Position of an option for messages: where it was set, else the job's section (in *tmp). */
const struct opt_pos *job_pos_of(const struct job *job, enum opt_id id, struct opt_pos *tmp);

/* err_at() at the line that set opt (else the job's section); returns -EINVAL. */
#define JOB_ERR(job, opt, err, ...)                                                    \
	({                                                                             \
		struct opt_pos _t;                                                     \
		const struct opt_pos *_p = job_pos_of(job, opt, &_t);                      \
		err_at(err, _p->file, _p->line, __VA_ARGS__);                          \
	})

/*
 * A combination fio runs, where iowl does what fio does and says what it ignored or changed:
 * "iowl: FILE:LINE: warning: opt=value: <message>" at the line that set opt.
 */
void job_warn(const struct job *job, enum opt_id opt, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "reads", "writes", "trims": a direction in messages. */
extern const char *const job_dir_names[DDIR_NR];

/*
 * job_check.c: the cross-option checks, in job_validate()'s order.  Each returns 0 or -EINVAL
 * with err set at the option's line; the void ones only adjust the job or warn.
 */
void job_check_depths(struct job *job);
int job_check_engine(struct job *job, struct iowl_err *err);
int job_check_files(struct job *job, struct iowl_err *err);
int job_check_misc(struct job *job, struct iowl_err *err);
int job_check_rate_min(const struct job *job, struct iowl_err *err);
int job_check_stats_opts(const struct job *job, struct iowl_err *err);
void job_check_think(struct job *job);
void job_check_pct_random(struct job *job);
int job_check_verify(struct job *job, struct iowl_err *err);
int job_check_buffers(const struct job *job, struct iowl_err *err);

#endif
