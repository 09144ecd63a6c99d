// SPDX-License-Identifier: MIT
/* fio's built-in job profiles (include/iowl/profile.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "iowl/profile.h"
#include "iowl/value.h"

#define ACT_WHY                                                                                    \
	"fio's act profile is refused: its verdict is a table of the share of IOs slower than 1, 8 and 64 ms in each hour of a 24-hour run, counted by a per-IO latency hook of fio's profile interface, with PASSED or FAILED against ACT's limits; iowl has no such hook, and the jobs without it would not be ACT. Run its jobs directly (per device: randread at 2000 IOPS per load over threads-per-queue threads of 1536-byte reads, randwrite of 128 KiB blocks, direct=1, ioengine=sync)"

static const struct {
	const char *name, *help;
} tb_opts[] = {
	{ "size", "size of each job's files in MiB (default: 4 KiB per MiB of memory)" },
	{ "block", "block size in bytes (default 4096)" },
	{ "numruns", "number of runs: each job's loops (default 1)" },
	{ "dir", "directory of the four files .fio.tio.1 to .fio.tio.4 (default ./)" },
	{ "threads", "number of threads: each job's numjobs (default 1)" },
};

#define NTB (sizeof(tb_opts) / sizeof(tb_opts[0]))

struct profile_args *profile_cur(void)
{
	static struct profile_args cur;

	return &cur;
}

int profile_select(struct profile_args *a, const char *name, struct iowl_err *err)
{
	if (!strcmp(name, "act"))
		return err_set(err, "--profile=act: %s", ACT_WHY);
	if (strcmp(name, "tiobench"))
		return err_set(err,
			       "--profile=%s: fio has no such profile (tiobench; act is refused)",
			       name);
	*a = (struct profile_args){ .name = "tiobench", .block = 4096, .numruns = 1, .threads = 1 };
	snprintf(a->dir, sizeof(a->dir), "./");
	return 0;
}

bool profile_has_option(const struct profile_args *a, const char *key)
{
	for (size_t i = 0; a->name && i < NTB; i++)
		if (!strcmp(key, tb_opts[i].name))
			return true;
	return false;
}

int profile_set(struct profile_args *a, const char *key, const char *value, struct iowl_err *err)
{
	char why[VAL_WHY_LEN];
	uint64_t n;

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

int profile_jobs(const struct profile_args *a,
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

void profile_help(const struct profile_args *a, FILE *out)
{
	for (size_t i = 0; a->name && i < NTB; i++)
		fprintf(out, "%-24s: %s\n", tb_opts[i].name, tb_opts[i].help);
}
