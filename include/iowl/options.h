/* SPDX-License-Identifier: MIT */
/* The one option table: every job option's name, type, place in struct job_opts, default and help. */
#ifndef IOWL_OPTIONS_H
#define IOWL_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iowl/err.h"

struct job_opts;

enum opt_type {
	OPT_STR,		/* char * (strdup'd) */
	OPT_BOOL,		/* bool */
	OPT_UINT,		/* unsigned, within [min, max] */
	OPT_U64,		/* uint64_t, within [min, max] */
	OPT_SIZE,		/* uint64_t with k/m/g suffixes (kb_base) */
	OPT_SIZE_PCT,		/* struct size_pct: a size or a percentage of the target */
	OPT_TIME,		/* uint64_t nanoseconds; bare numbers in unit_ns */
	OPT_ENUM,		/* unsigned: the value of one of values[] */
	OPT_ENUM_STR,		/* char *: the name of one of values[] (strdup'd) */
	OPT_DIR_SIZE,		/* uint64_t[3]: per-direction sizes (bs=4k,64k) */
	OPT_FUNC,		/* parsed by parse() */
	OPT_UNSUPPORTED,	/* a fio option iowl does not implement: always an error */
};

enum opt_flags {
	OPT_F_BARE_OK = 1U << 0,	/* OPT_FUNC that takes a bare key as true */
	OPT_F_STREAM = 1U << 1,		/* may be set per stream (after stream=NAME) */
	OPT_F_STREAM_ONLY = 1U << 2,	/* means something only inside a stream */
	OPT_F_RANGE = 1U << 3,		/* in a stream, a range inside the job's region: --set sets the job's */
};

struct opt_value {
	const char *name;
	unsigned value;
	const char *help;	/* for OPT_VALUE_REFUSED: why, and what to use instead */
};

/* opt_value.value of a value fio knows and iowl refuses (with the reason as its help). */
#define OPT_VALUE_REFUSED UINT32_MAX

struct opt_def;

/* Custom parser for OPT_FUNC: value may be NULL for a bare key.  Returns 0 or -errno with why set. */
typedef int (*opt_parse_fn)(const struct opt_def *def, struct job_opts *o, const char *value,
			    char *why);

struct opt_def {
	const char *name;
	const char *alias;		/* a second accepted name, or NULL */
	enum opt_type type;
	size_t off;			/* offsetof(struct job_opts, field) */
	const char *def;		/* default, as it would be written in a job file, or NULL */
	uint64_t min, max;		/* for OPT_UINT / OPT_U64 (max 0: no limit) */
	uint64_t unit_ns;		/* OPT_TIME: unit of a bare number */
	const struct opt_value *values;	/* OPT_ENUM: NULL-name terminated */
	opt_parse_fn parse;		/* OPT_FUNC */
	const char *engine;		/* owning ioengines (separated by |) for engine options, else NULL */
	unsigned flags;			/* enum opt_flags */
	const char *category;		/* manual section: "files", "io", "engine", ... */
	const char *help;		/* one line */
};

/*
 * The options the code asks about by name (job_opt_is_set(), opt_by_id()), as enum opt_id
 * constants OPT_ID_<name>: a misspelt name does not compile.  A new option needs no line here,
 * only one the code names does (test_options checks that each is in the table).
 */
/* clang-format off */
#define OPT_IDS(X) \
	X(blockalign) \
	X(bs) \
	X(bs_unaligned) \
	X(bsrange) \
	X(bssplit) \
	X(buffer_compress_percentage) \
	X(buffer_pattern) \
	X(bwavgtime) \
	X(cgroup) \
	X(clocksource) \
	X(cmdprio_bssplit) \
	X(cmdprio_percentage) \
	X(create_on_open) \
	X(dedupe_global) \
	X(dedupe_mode) \
	X(dedupe_percentage) \
	X(dedupe_working_set_percentage) \
	X(directory) \
	X(fallocate) \
	X(filename) \
	X(filename_format) \
	X(filesize) \
	X(gid) \
	X(hipri) \
	X(iodepth) \
	X(iodepth_batch_complete_max) \
	X(iodepth_batch_complete_min) \
	X(iodepth_batch_submit) \
	X(iodepth_low) \
	X(ioengine) \
	X(iopsavgtime) \
	X(ioscheduler) \
	X(log_avg_msec) \
	X(log_compression) \
	X(log_hist_msec) \
	X(log_max_value) \
	X(log_store_compressed) \
	X(merge_blktrace_file) \
	X(merge_blktrace_iters) \
	X(merge_blktrace_scalars) \
	X(nrfiles) \
	X(numjobs) \
	X(offset) \
	X(offset_increment) \
	X(opendir) \
	X(percentage_random) \
	X(percentile_list) \
	X(randseed) \
	X(rate) \
	X(rate_cycle) \
	X(rate_iops) \
	X(rate_iops_min) \
	X(rate_min) \
	X(read_iolog) \
	X(replay_align) \
	X(rw) \
	X(scramble_buffers) \
	X(size) \
	X(sqthread_poll_cpu) \
	X(ss_dur) \
	X(thinktime_blocks) \
	X(thinktime_blocks_type) \
	X(thinktime_iotime) \
	X(thinktime_spin) \
	X(time_based) \
	X(trim_backlog) \
	X(trim_backlog_batch) \
	X(trim_percentage) \
	X(uid) \
	X(unlink_each_loop) \
	X(verify) \
	X(verify_async) \
	X(verify_async_cpus) \
	X(verify_backlog) \
	X(verify_backlog_batch) \
	X(verify_dump) \
	X(verify_fatal) \
	X(verify_interval) \
	X(verify_offset) \
	X(verify_only) \
	X(wait_for) \
	X(worker_ramp) \
	X(write_bw_log) \
	X(write_hist_log) \
	X(write_iolog) \
	X(write_iops_log) \
	X(write_lat_log) \
	X(zero_buffers) \
	X(zonecapacity) \
	X(zonemode) \
	X(zonerange) \
	X(zonesize) \
	X(zoneskip)
/* clang-format on */

enum opt_id {
#define OPT_ID_ENUM(n) OPT_ID_##n,
	OPT_IDS(OPT_ID_ENUM)
#undef OPT_ID_ENUM
		OPT_ID_NR
};

/* The table entry of a named option (never NULL: test_options checks them all). */
const struct opt_def *opt_by_id(enum opt_id id);

/* The table, terminated by an entry with a NULL name; *n gets the number of entries. */
const struct opt_def *opt_table(unsigned *n);

/* Finds an option by name or alias (exact).  Returns a table entry or NULL. */
const struct opt_def *opt_find(const char *name);

/* Position of an option in the table, for per-job bookkeeping arrays. */
unsigned opt_index(const struct opt_def *def);

/* Number of entries in the table. */
unsigned opt_count(void);

/* Names of every option (and alias) for "did you mean" suggestions; *n gets the count. */
const char *const *opt_names(size_t *n);

/*
 * Parses value (NULL for a bare key) for def into o.  On failure returns -EINVAL (or -ERANGE)
 * with why describing what was wrong and what would be right, without position.
 */
int opt_apply(const struct opt_def *def, struct job_opts *o, const char *value, char *why);

/* Sets every option of o to its table default.  Returns 0 or -errno. */
int opt_set_defaults(struct job_opts *o);

/* Frees the strings opt_apply() and opt_set_defaults() allocated in o. */
void opt_release(struct job_opts *o);

/* Deep copy of src into dst (dst uninitialised).  Returns 0 or -ENOMEM. */
int opt_copy(struct job_opts *dst, const struct job_opts *src);

/* Writes a one-line description of the option's values to buf (enum names, or the type). */
void opt_describe_type(const struct opt_def *def, char *buf, size_t len);

#endif
