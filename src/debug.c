// SPDX-License-Identifier: MIT
/* --debug: fio's trace categories, iowl's traces (include/iowl/debug.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iowl/clock.h"
#include "iowl/debug.h"

unsigned iowl_debug;

/* Each category with what iowl traces, or NULL: fio-internal, nothing in iowl to trace. */
static const struct {
	const char *name, *what, *fio_only;
} types[DBG_NR] = {
	[DBG_PROCESS] = { "process", "each clone's thread as it starts and ends, with its status",
			  NULL },
	[DBG_FILE] = { "file", "each target as a clone opens it: path, size, region, block size",
		       NULL },
	[DBG_IO] = { "io",
		     "each IO as it is issued and as it completes: direction, offset, length, file, result",
		     NULL },
	[DBG_MEM] = { "mem", "each clone's IO buffers: the memory type, size and address", NULL },
	[DBG_BLKTRACE] = { "blktrace",
			   "read_iolog of a blktrace binary trace: the events read and the IOs they make",
			   NULL },
	[DBG_VERIFY] = { "verify", "each clone's verify set-up: method, block and depth", NULL },
	[DBG_RANDOM] = { "random", "each clone's random seeds (offsets, buffers, priorities)",
			 NULL },
	[DBG_PARSE] = { "parse", "each option as it is applied to a job, with its file and line",
			NULL },
	[DBG_DISKUTIL] = { "diskutil",
			   "the block devices found behind the targets and their samples", NULL },
	[DBG_JOB] = { "job", "each job as it is built: engine, rw, bs, depth, clones", NULL },
	[DBG_MUTEX] = { "mutex", NULL,
			"fio's inter-process mutexes: iowl's clones are threads that share no lock on the IO path" },
	[DBG_PROFILE] = { "profile", NULL,
			  "fio's profile interface: iowl's profiles (tiobench, act) are the jobs they make, traced under parse" },
	[DBG_TIME] = { "time", "the clock: the calibrated TSC or clock_gettime, and its rate",
		       NULL },
	[DBG_NET] = { "net", NULL,
		      "fio's net engine and client/server protocol: iowl has neither" },
	[DBG_RATE] = { "rate", "each clone's rate limits and its rate_min checks", NULL },
	[DBG_COMPRESS] = { "compress",
			   "log_store_compressed: each chunk of a log as it is deflated", NULL },
	[DBG_STEADYSTATE] = { "steadystate",
			      "each steady-state window: the criterion's value and whether it holds",
			      NULL },
	[DBG_HELPERTHREAD] = { "helperthread", NULL,
			       "fio's helper thread (its status, disk and steady-state ticks): iowl's main thread does that work, traced under diskutil and steadystate" },
	[DBG_ZBD] = { "zbd", NULL,
		      "zoned block devices: iowl refuses zonemode=zbd (no zoned device here)" },
};

void debug_print(enum debug_type type, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n = snprintf(line, sizeof(line), "%-8s %-5d ", types[type].name, (int)gettid());

	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s\n", line); /* one call: lines of threads do not mix */
}

static void debug_help(void)
{
	printf("fio's debug categories (--debug=TYPE[,TYPE]; all: every one), as iowl traces them on stderr:\n");
	for (unsigned t = 0; t < DBG_NR; t++)
		printf("  %-13s %s%s\n", types[t].name, types[t].what ? "" : "nothing to trace: ",
		       types[t].what ? types[t].what : types[t].fio_only);
}

int debug_parse(const char *list, struct iowl_err *err)
{
	char *dup, *save = NULL, *tok;
	unsigned mask = 0;
	int ret = 0;

	if (!list || !*list)
		return err_set(err,
			       "--debug needs categories (--debug=io,file; --debug=help lists them)");
	if (!strcmp(list, "?") || !strcmp(list, "help")) {
		debug_help();
		return 1;
	}
	if (!(dup = strdup(list)))
		return err_nomem(err, "out of memory");
	for (tok = strtok_r(dup, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		unsigned t;

		if (!strcmp(tok, "all")) {
			mask = (1U << DBG_NR) - 1;
			continue;
		}
		for (t = 0; t < DBG_NR && strcmp(tok, types[t].name); t++)
			;
		if (t == DBG_NR)
			ret = err_set(err,
				      "--debug=%s: '%s' is not a debug category (--debug=help lists them)",
				      list, tok);
		else if (!types[t].what)
			iowl_warn("--debug=%s: nothing to trace in iowl: %s", tok,
				  types[t].fio_only);
		mask |= 1U << t;
	}
	free(dup);
	if (ret)
		return ret;
	iowl_debug = mask;
	if (iowl_clock.tsc || iowl_clock.pending) /* main() prints its rate once calibrated */
		dprint(DBG_TIME,
		       "clock: the invariant TSC, calibrated against CLOCK_MONOTONIC when a run starts");
	else
		dprint(DBG_TIME,
		       "clock: clock_gettime(CLOCK_MONOTONIC) (no invariant TSC, or IOWL_CLOCK=gettime)");
	return 0;
}
