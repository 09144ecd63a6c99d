/* SPDX-License-Identifier: MIT */
/* Shared by options.c (the table) and options_parse.c (the option-specific value parsers). */
#ifndef IOWL_OPTIONS_INT_H
#define IOWL_OPTIONS_INT_H

#include "iowl/options.h"

struct job_opts;

/* The byte of struct job_opts an option's row points at (def->off). */
static inline void *opt_field(struct job_opts *o, const struct opt_def *def)
{
	return (char *)o + def->off;
}

/* val_parse_per_dir() callback of one direction's size (bs=, apply_dir_size); ctx: {o, vals}. */
int opt_one_dir_size(const char *elem, unsigned dir, void *ctx, char *why);

/* The OPT_FUNC parsers of the table's rows (opt_parse_fn): each fills its part of o, or says why not. */
int opt_parse_bsrange(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_bssplit(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_buffer_pattern(const struct opt_def *def, struct job_opts *o, const char *v,
			     char *why);
int opt_parse_buffered(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_clock_id(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_dir_iops(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_file_service(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_filesize(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_gtod_cpu(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_gtod_reduce(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_ignore_error(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_kb_base(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_nonvectored(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_pct_list(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_pct_random(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_profile(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_rdist(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_replay_skip(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_rw(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_rwmixwrite(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_sqpoll_cpu(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_startdelay(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_stream(const struct opt_def *def, struct job_opts *o, const char *v, char *why);
int opt_parse_sync_file_range(const struct opt_def *def, struct job_opts *o, const char *v,
			      char *why);
int opt_parse_verify_pattern(const struct opt_def *def, struct job_opts *o, const char *v,
			     char *why);
int opt_parse_weight(const struct opt_def *def, struct job_opts *o, const char *v, char *why);

#endif
