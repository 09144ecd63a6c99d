// SPDX-License-Identifier: MIT
/* fio's built-in job profiles (include/iowl/profile.h). */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "iowl/act.h"
#include "iowl/clock.h"
#include "iowl/profile.h"
#include "iowl/value.h"

struct popt {
	const char *name, *help;
};

static const struct popt tb_opts[] = {
	{ "size", "size of each job's files in MiB (default: 4 KiB per MiB of memory)" },
	{ "block", "block size in bytes (default 4096)" },
	{ "numruns", "number of runs: each job's loops (default 1)" },
	{ "dir", "directory of the four files .fio.tio.1 to .fio.tio.4 (default ./)" },
	{ "threads", "number of threads: each job's numjobs (default 1)" },
	{ NULL, NULL },
};

/* fio 3.33's act options, in its order */
static const struct popt act_opts[] = {
	{ "device-names", "devices to use, ','-separated (required)" },
	{ "load",
	  "ACT load multiplier: per device 2000 reads/s and 1000 read-sized records written per second in large blocks (default 1)" },
	{ "test-duration",
	  "how long the read and write jobs run (default 24h; a bare number is seconds)" },
	{ "threads-per-queue", "number of read threads per device (default 8)" },
	{ "read-req-num-512-blocks", "number of 512-byte blocks a read reads (default 3)" },
	{ "large-block-op-kbytes",
	  "size of a large-block write in bytes, as fio uses it (default 131072)" },
	{ "prep",
	  "run ACT's prep instead: write each device whole with zeros, then salt it with random 4 KiB writes" },
	{ NULL, NULL },
};

static const struct popt *popts(const struct profile_args *a)
{
	static const struct popt none[] = { { NULL, NULL } };

	return !a->name ? none : !strcmp(a->name, "act") ? act_opts : tb_opts;
}

struct profile_args *profile_cur(void)
{
	static struct profile_args cur;

	return &cur;
}

int profile_select(struct profile_args *a, const char *name, struct iowl_err *err)
{
	if (!strcmp(name, "act")) {
		*a = (struct profile_args){ .name = "act",
					    .load = 1,
					    .duration_s = 24 * 3600,
					    .read_threads = 8,
					    .read_blocks = 3,
					    .write_size = 131072 };
		return 0;
	}
	if (strcmp(name, "tiobench"))
		return err_set(err, "--profile=%s: fio has no such profile (tiobench, act)", name);
	*a = (struct profile_args){ .name = "tiobench", .block = 4096, .numruns = 1, .threads = 1 };
	snprintf(a->dir, sizeof(a->dir), "./");
	return 0;
}

bool profile_has_option(const struct profile_args *a, const char *key)
{
	for (const struct popt *p = popts(a); p->name; p++)
		if (!strcmp(key, p->name))
			return true;
	return false;
}

unsigned profile_act_slices(void)
{
	const struct profile_args *a = profile_cur();

	if (!a->name || strcmp(a->name, "act") || a->prep)
		return 0;
	return (unsigned)((a->duration_s + ACT_SLICE_S - 1) / ACT_SLICE_S);
}

/* One of act's options. */
static int act_set(struct profile_args *a, const char *key, const char *value, struct iowl_err *err)
{
	char why[VAL_WHY_LEN];
	uint64_t n;
	bool on;

	if (!strcmp(key, "prep")) {
		if (val_parse_bool(value, &on, why))
			return err_set(err, "--prep=%s: %s", value, why);
		a->prep = on;
		return 0;
	}
	if (!value || !*value)
		return err_set(err, "--%s: the act profile's option needs a value (--%s=...)", key,
			       key);
	if (!strcmp(key, "device-names")) {
		if (strlen(value) >= sizeof(a->devices))
			return err_set(err, "--device-names=%s: too long", value);
		for (const char *d = value;; d++) {
			if (*d == ',' || !*d) {
				if (d == value || d[-1] == ',')
					return err_set(err,
						       "--device-names=%s: an empty device name (give them ','-separated: /dev/sdb,/dev/sdc)",
						       value);
				if (!*d)
					break;
			}
		}
		snprintf(a->devices, sizeof(a->devices), "%s", value);
		return 0;
	}
	if (!strcmp(key, "test-duration")) {
		if (val_parse_time_ns(value, NSEC_PER_SEC, &n, why))
			return err_set(err, "--test-duration=%s: %s", value, why);
		if (n < NSEC_PER_SEC || n % NSEC_PER_SEC)
			return err_set(err,
				       "--test-duration=%s: whole seconds, 1 or more (24h, 3600, 90s)",
				       value);
		if (n / NSEC_PER_SEC > (uint64_t)ACT_MAX_SLICES * ACT_SLICE_S)
			return err_set(err,
				       "--test-duration=%s: at most %ud (a year of hourly slices)",
				       value, ACT_MAX_SLICES / 24);
		a->duration_s = n / NSEC_PER_SEC;
		return 0;
	}
	if (!strcmp(key, "large-block-op-kbytes")) {
		if (val_parse_size(value, 1024, &n, why))
			return err_set(err, "--large-block-op-kbytes=%s: %s", value, why);
		if (!n || n > UINT32_MAX)
			return err_set(err,
				       "--large-block-op-kbytes=%s: a write's size in bytes, as fio 3.33 uses it (128k or 131072 is ACT's 128 KiB)",
				       value);
		a->write_size = (unsigned)n;
		return 0;
	}
	if (val_parse_u64(value, &n, why))
		return err_set(err, "--%s=%s: %s (the act profile's %s is a whole number)", key,
			       value, why, key);
	if (!n || n > 1000000)
		return err_set(err, "--%s=%s: must be 1 to 1000000", key, value);
	if (!strcmp(key, "load"))
		a->load = (unsigned)n;
	else if (!strcmp(key, "threads-per-queue"))
		a->read_threads = (unsigned)n;
	else
		a->read_blocks = (unsigned)n;
	return 0;
}

int profile_set(struct profile_args *a, const char *key, const char *value, struct iowl_err *err)
{
	char why[VAL_WHY_LEN];
	uint64_t n;

	if (!strcmp(a->name, "act"))
		return act_set(a, key, value, err);
	if (!value || !*value)
		return err_set(err, "--%s: the tiobench profile's option needs a value (--%s=...)",
			       key, key);
	if (!strcmp(key, "dir")) {
		if (strlen(value) >= sizeof(a->dir))
			return err_set(err, "--dir=%s: too long", value);
		snprintf(a->dir, sizeof(a->dir), "%s", value);
		return 0;
	}
	if (val_parse_u64(value, &n, why))
		return err_set(err, "--%s=%s: %s (the tiobench profile's %s is a whole number)",
			       key, value, why, key);
	if (!strcmp(key, "size")) {
		if (!n || n > (UINT64_MAX >> 20))
			return err_set(err, "--size=%s: the tiobench size is in MiB, 1 or more",
				       value);
		a->size_mib = n;
		return 0;
	}
	if (!n || n > UINT32_MAX)
		return err_set(err, "--%s=%s: must be 1 to %u", key, value, UINT32_MAX);
	if (!strcmp(key, "block"))
		a->block = (unsigned)n;
	else if (!strcmp(key, "numruns"))
		a->numruns = (unsigned)n;
	else
		a->threads = (unsigned)n;
	return 0;
}

/* fio's $mb_memory: the machine's memory in MiB. */
static uint64_t mb_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);

	return pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize / (1024 * 1024) : 0;
}

static int tiobench_jobs(const struct profile_args *a,
			 int (*add)(void *ctx, const char *key, const char *value), void *ctx)
{
	char size[32], bs[16], loops[16], numjobs[16];
	/* fio 3.33's tiobench, in its order */
	const char *opts[][2] = {
		{ "buffered", "0" },
		{ "size", size },
		{ "bs", bs },
		{ "loops", loops },
		{ "directory", a->dir },
		{ "numjobs", numjobs },
		{ "timeout", "600" },
		{ "group_reporting", NULL },
		{ "thread", NULL },
		{ "overwrite", "1" },
		{ "filename", ".fio.tio.1:.fio.tio.2:.fio.tio.3:.fio.tio.4" },
		{ "ioengine", "sync" },
		{ "name", "seqwrite" },
		{ "rw", "write" },
		{ "end_fsync", "1" },
		{ "name", "randwrite" },
		{ "stonewall", NULL },
		{ "rw", "randwrite" },
		{ "end_fsync", "1" },
		{ "name", "seqread" },
		{ "stonewall", NULL },
		{ "rw", "read" },
		{ "name", "randread" },
		{ "stonewall", NULL },
		{ "rw", "randread" },
	};
	int ret = 0;

	snprintf(size, sizeof(size), "%" PRIu64,
		 a->size_mib ? a->size_mib << 20 : 4 * 1024 * mb_memory());
	snprintf(bs, sizeof(bs), "%u", a->block);
	snprintf(loops, sizeof(loops), "%u", a->numruns);
	snprintf(numjobs, sizeof(numjobs), "%u", a->threads);
	for (size_t i = 0; !ret && i < sizeof(opts) / sizeof(opts[0]); i++)
		ret = add(ctx, opts[i][0], opts[i][1]);
	return ret;
}

/* add(key, value) with value printed from fmt; 0 or add's -errno. */
static int addf(int (*add)(void *ctx, const char *key, const char *value), void *ctx,
		const char *key, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int addf(int (*add)(void *ctx, const char *key, const char *value), void *ctx,
		const char *key, const char *fmt, ...)
{
	char v[4200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	return add(ctx, key, v);
}

/*
 * fio 3.33's act, option for option in its order: every job's options, then per device either
 * the read and write jobs (their runtime and time_based given before them, as fio's list does)
 * or with prep the zero fill and, after it, the salting.
 */
static int act_jobs(const struct profile_args *a,
		    int (*add)(void *ctx, const char *key, const char *value), void *ctx,
		    struct iowl_err *err)
{
	/*
	 * ACT's 1x load per device: 2000 reads/s over the read threads, and 1000 read-sized
	 * records written per second, gathered into large blocks (rounded up, as fio)
	 */
	unsigned rsize = a->write_size / (a->read_blocks * 512);
	unsigned rrate = (unsigned)((uint64_t)a->load * 2000 / a->read_threads);
	unsigned wrate = rsize ? (unsigned)(((uint64_t)a->load * 1000 + rsize - 1) / rsize) : 0;
	char devs[sizeof(a->devices)], *save = NULL;
	int ret = 0;

	if (!a->devices[0])
		return err_set(err,
			       "--profile=act needs its devices: --device-names=/dev/sdb[,/dev/sdc...]");
	if (!a->prep && !rrate)
		return err_set(err,
			       "--threads-per-queue=%u: more read threads than the %u reads/s of load=%u give them (at most %u)",
			       a->read_threads, a->load * 2000, a->load, a->load * 2000);
	if (!a->prep && !rsize)
		return err_set(err,
			       "--large-block-op-kbytes=%u: a write smaller than a read (%u bytes) has no rate in fio's act (give 131072 or 128k, in bytes)",
			       a->write_size, a->read_blocks * 512);
	const char *every[][2] = {
		{ "direct", "1" },	    { "ioengine", "sync" }, { "random_generator", "lfsr" },
		{ "group_reporting", "1" }, { "thread", NULL },
	};
	for (size_t i = 0; !ret && i < sizeof(every) / sizeof(every[0]); i++)
		ret = add(ctx, every[i][0], every[i][1]);
	snprintf(devs, sizeof(devs), "%s", a->devices);
	for (char *dev = strtok_r(devs, ",", &save); dev && !ret;
	     dev = strtok_r(NULL, ",", &save)) {
		if (a->prep) {
			ret = addf(add, ctx, "name", "act-prep-zeroes-%s", dev);
			ret = ret ? ret : add(ctx, "filename", dev);
			ret = ret ? ret : add(ctx, "bs", "1048576");
			ret = ret ? ret : add(ctx, "zero_buffers", NULL);
			ret = ret ? ret : add(ctx, "rw", "write");
			ret = ret ? ret : addf(add, ctx, "name", "act-prep-salt-%s", dev);
			ret = ret ? ret : add(ctx, "stonewall", NULL);
			ret = ret ? ret : add(ctx, "filename", dev);
			ret = ret ? ret : add(ctx, "bs", "4096");
			ret = ret ? ret : add(ctx, "ioengine", "libaio");
			ret = ret ? ret : add(ctx, "iodepth", "64");
			ret = ret ? ret : add(ctx, "rw", "randwrite");
			continue;
		}
		ret = addf(add, ctx, "runtime", "%" PRIu64 "s", a->duration_s);
		ret = ret ? ret : add(ctx, "time_based", "1");
		ret = ret ? ret : addf(add, ctx, "name", "act-read-%s", dev);
		ret = ret ? ret : add(ctx, "filename", dev);
		ret = ret ? ret : add(ctx, "rw", "randread");
		ret = ret ? ret : addf(add, ctx, "numjobs", "%u", a->read_threads);
		ret = ret ? ret : addf(add, ctx, "rate_iops", "%u", rrate);
		ret = ret ? ret : addf(add, ctx, "bs", "%u", a->read_blocks * 512);
		ret = ret ? ret : addf(add, ctx, "name", "act-write-%s", dev);
		ret = ret ? ret : add(ctx, "filename", dev);
		ret = ret ? ret : add(ctx, "rw", "randwrite");
		ret = ret ? ret : addf(add, ctx, "rate_iops", "%u", wrate);
		ret = ret ? ret : addf(add, ctx, "bs", "%u", a->write_size);
	}
	return ret;
}

int profile_jobs(const struct profile_args *a,
		 int (*add)(void *ctx, const char *key, const char *value), void *ctx,
		 struct iowl_err *err)
{
	return !strcmp(a->name, "act") ? act_jobs(a, add, ctx, err) : tiobench_jobs(a, add, ctx);
}

void profile_help(const struct profile_args *a, FILE *out)
{
	for (const struct popt *p = popts(a); p->name; p++)
		fprintf(out, "%-24s: %s\n", p->name, p->help);
}
