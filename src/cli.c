// SPDX-License-Identifier: MIT
/* The command line: flags, job files, --set overrides and fio-style --name=... jobs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/clock.h"
#include "iowl/cli.h"
#include "iowl/clock.h"
#include "iowl/engine.h"
#include "iowl/options.h"
#include "iowl/analyze.h"
#include "iowl/curve.h"
#include "iowl/suggest.h"
#include "iowl/sweep.h"
#include "iowl/value.h"

#define CMDLINE "command line"

static const char *const flags[] = {
	"output",      "output-format",	   "eta",
	"parse-only",  "section",	   "set",
	"help",	       "version",	   "cmdhelp",
	"analyze",     "assert",	   "sweep",
	"curve",       "status-interval",  "iostat",
	"vdbench",     "vdbench-show",	   "vdbench-output",
	"vdbench-lun", "vdbench-var",	   "report",
	"metrics",     "metrics-textfile", "metrics-linger",
	"minimal",     "terse-version",	   "append-terse",
	"cache-fill",  "cache-fill-exact", "rank-jobs",
};

/* fio's flags (fio_flag()): with fio's meaning, or refused with the reason. */
static const char *const fio_flags[] = {
	"readonly",
	"max-jobs",
	"showcmd",
	"warnings-fatal",
	"eta-newline",
	"eta-interval",
	"alloc-size",
	"trigger-file",
	"trigger-timeout",
	"trigger",
	"trigger-remote",
	"enghelp",
	"debug",
	"aux-path",
	"crctest",
	"cpuclock-test",
	"merge-blktrace-only",
	"idle-prof",
	"bandwidth-log",
	"inflate-log",
	"server",
	"client",
	"daemonize",
	"remote-config",
};

/* Flags (without their dashes) that may take their value from the next argument. */
static bool next_flag(const char *name)
{
	static const char *const next[] = { "set", "assert", "sweep", "vdbench", "vdbench-show",
					    "vdbench-lun", "vdbench-var" };

	for (size_t i = 0; i < sizeof(next) / sizeof(next[0]); i++)
		if (!strcmp(name, next[i]))
			return true;
	return false;
}

static bool takes_next(const char *arg)
{
	return !strncmp(arg, "--", 2) && next_flag(arg + 2);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: iowl [options] [job.ini ...] [--name=job --option=value ...]\n"
		"\n"
		"Runs fio job files, or jobs given on the command line as --name=NAME followed by\n"
		"that job's options (--rw=randread --bs=4k --size=1g ...).\n"
		"\n"
		"  --output=FILE            write the results to FILE instead of stdout\n"
		"  --output-format=FMT      normal, json, json+ or terse (a comma list prints several);\n"
		"  --minimal                fio's terse lines (--output-format=terse)\n"
		"  --terse-version=N        terse format version 2, 3 (default), 4 or 5\n"
		"  --append-terse           terse lines as well as the other formats\n"
		"                           vdbench-flat: vdbench's flatfile columns as CSV\n"
		"  --eta=WHEN               status line on stderr: auto (a terminal), always, never\n"
		"  --status-interval=T      print the figures of each interval of T (1s, 500ms; a\n"
		"                           bare number is seconds): per interval, not cumulative;\n"
		"                           with json, one JSON document per line\n"
		"  --iostat[=T]             print iostat -x figures of the devices behind the targets\n"
		"                           every T (default: the status interval, else 1s)\n"
		"  --parse-only             check the jobs completely (options, targets) and exit\n"
		"  --analyze[=N]            generate N IOs of each job (default 1000000) without doing\n"
		"                           them and describe the pattern: streams, sizes, hot blocks\n"
		"  --section=NAME           run only the job sections named (repeatable)\n"
		"  --set KEY=VALUE          set a job option in every job, as if written last (repeatable)\n"
		"  --sweep KEY=V1,V2,...    run the jobs once per value (KEY=1..256x2, bs=4k..1m x2,\n"
		"                           8..64+8 ranges; repeatable: a cross product), one table,\n"
		"                           and a scalability fit when sweeping iodepth or numjobs\n"
		"  --curve[=P1,P2,...]      a run at maximum rate, then at P%% of it (default\n"
		"                           10,50,70,80,90,100): latency against throughput, the knee\n"
		"  --assert EXPR            check a result after the run, e.g. read.clat.p99<=2ms,\n"
		"                           write.bw>=200MiB/s, errors==0 (repeatable; exit 3 if not)\n"
		"  --vdbench FILE           run a vdbench parameter file with vdbench's meaning (a file\n"
		"                           with sd=, wd=, rd= lines is recognised as one by itself)\n"
		"  --vdbench-show FILE      print the iowl job file that runs a vdbench parameter file\n"
		"  --vdbench-output         vdbench's interval lines on stdout beside iowl's report\n"
		"  --vdbench-lun NAME=PATH  run vdbench's lun=NAME (a Windows or Solaris name) on PATH\n"
		"  --vdbench-var NAME=VAL   replace $NAME and !NAME in the parameter file\n"
		"  --metrics=[ADDR:]PORT    serve GET /metrics for Prometheus while the run lasts\n"
		"                           (default address 127.0.0.1)\n"
		"  --metrics-linger=T       keep serving T after the run (default 0)\n"
		"  --metrics-textfile=DIR   write DIR/iowl.prom every interval (node exporter)\n"
		"  --report=FILE.html       also draw the results as one self-contained HTML page\n"
		"                           (iowl report RESULTS.json ... -o FILE.html: from saved JSON)\n"
		"  --cache-fill[=on|off]    count the distinct blocks each job touches (default off)\n"
		"  --cache-fill-exact=N     count exactly up to N blocks per clone, then estimate\n"
		"  --rank-jobs=RANKS[:JOB,...]  under mpirun (iowl-mpi): run the jobs named only on\n"
		"                           RANKS (0-3,6); without :JOB every job (repeatable)\n"
		"  --cmdhelp[=OPTION]       list the job options, or describe one\n"
		"  --enghelp[=ENGINE[,OPT]] list the engines, an engine's options, or describe one\n"
		"fio's flags, with fio's meaning:\n"
		"  --readonly               refuse jobs that write or trim\n"
		"  --max-jobs=N             refuse a run of more than N clones\n"
		"  --showcmd                print the job files as command lines and exit\n"
		"  --warnings-fatal         a warning while reading the jobs is an error\n"
		"  --eta-newline=T          start a new status line every T\n"
		"  --eta-interval=T         refresh the status line every T (at least 250ms)\n"
		"  --trigger-file=FILE      end the run when FILE appears, then run --trigger\n"
		"  --trigger-timeout=T      end the run T after its start, then run --trigger\n"
		"  --trigger=CMD            the command a trigger runs (/bin/sh -c CMD)\n"
		"  --alloc-size=KB          accepted: iowl has no fixed pool to size\n"
		"  refused, with the reason: --server, --client, --daemonize, --remote-config,\n"
		"  --trigger-remote, --debug, --aux-path, --crctest, --cpuclock-test,\n"
		"  --merge-blktrace-only, --idle-prof, --bandwidth-log, --inflate-log\n"
		"  --help, --version\n"
		"\n"
		"Exit status: 0 success, 1 bad usage or job file (nothing ran), 2 an IO or runtime\n"
		"error during the run, 3 an --assert did not hold, 130/143 interrupted by SIGINT/SIGTERM.\n"
		"See iowl(1).\n");
}

/* Lists the job options, or describes one.  Returns CLI_DONE, or -EINVAL for an unknown name. */
static int cmdhelp(const char *name, struct iowl_err *err)
{
	const struct opt_def *one = name ? opt_find(name) : NULL;
	unsigned n;
	const struct opt_def *tab = opt_table(&n);
	char type[256];

	if (name && !one)
		return err_set(err, "--cmdhelp: unknown option '%s' (iowl --cmdhelp lists them)", name);
	if (one && one->type == OPT_UNSUPPORTED)
		return err_set(err, "--cmdhelp: '%s' %s", name,
			       one->help ? one->help : "is a fio option iowl does not support yet");
	for (unsigned i = 0; i < n; i++) {
		const struct opt_def *d = &tab[i];

		if (d->type == OPT_UNSUPPORTED || (one && d != one))
			continue;
		printf("%-28s %s\n", d->name, d->help);
		if (!one)
			continue;
		opt_describe_type(d, type, sizeof(type));
		printf("%-28s type: %s\n", "", type);
		if (d->def)
			printf("%-28s default: %s\n", "", d->def);
		if (d->alias)
			printf("%-28s alias: %s\n", "", d->alias);
		if (d->engine)
			printf("%-28s option of ioengine %s\n", "", d->engine);
	}
	return CLI_DONE;
}

static int parse_formats(const char *v, unsigned *out, struct iowl_err *err)
{
	char *dup = strdup(v), *save = NULL, *tok;
	int ret = 0;

	if (!dup)
		return err_nomem(err, "out of memory");
	*out = 0;
	for (tok = strtok_r(dup, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "normal"))
			*out |= OUT_NORMAL;
		else if (!strcmp(tok, "json"))
			*out |= OUT_JSON;
		else if (!strcmp(tok, "json+"))
			*out |= OUT_JSONPLUS;
		else if (!strcmp(tok, "csv"))
			*out |= OUT_CSV;
		else if (!strcmp(tok, "vdbench-flat"))
			*out |= OUT_VDBFLAT;
		else if (!strcmp(tok, "terse"))
			*out |= OUT_TERSE;
		else
			ret = err_set(err, "--output-format: '%s' is not a format (use normal, json, json+, terse, csv with --sweep, or vdbench-flat with a vdbench parameter file)",
				      tok);
	}
	free(dup);
	if (!ret && !*out)
		ret = err_set(err, "--output-format needs a format (normal, json or json+)");
	return ret;
}

static int add_set(struct run_opts *o, const char *kv, struct iowl_err *err)
{
	const char *eq = strchr(kv, '=');
	struct job_set *s;

	if (!eq || eq == kv)
		return err_set(err, "--set '%s': use --set KEY=VALUE (e.g. --set iodepth=32)", kv);
	s = realloc(o->sets, (o->nsets + 1) * sizeof(*s));
	if (!s)
		return err_nomem(err, "out of memory");
	o->sets = s;
	s[o->nsets].key = strndup(kv, (size_t)(eq - kv));
	s[o->nsets].value = strdup(eq + 1);
	o->nsets++;
	if (!s[o->nsets - 1].key || !s[o->nsets - 1].value)
		return err_nomem(err, "out of memory");
	if (!opt_find(s[o->nsets - 1].key)) {
		size_t n;
		const char *const *names = opt_names(&n);
		const char *best = suggest_closest(s[o->nsets - 1].key, names, n);

		return err_set(err, "--set: unknown option '%s'%s%s%s", s[o->nsets - 1].key,
			       best ? " (did you mean '" : "", best ? best : "", best ? "'?)" : "");
	}
	return 0;
}

static int push(char ***v, unsigned *n, char *s, struct iowl_err *err)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (!nv)
		return err_nomem(err, "out of memory");
	nv[(*n)++] = s;
	*v = nv;
	return 0;
}

/*
 * Terse lines are a job file run's results: a sweep's or curve's table, --analyze's description
 * and the interval series have no terse form, so they are refused rather than printed otherwise.
 */
static int check_terse(const struct run_opts *o, struct iowl_err *err)
{
	const char *what = o->nsweeps ? "--sweep" : o->ncurve ? "--curve" :
			   o->analyze ? "--analyze" : o->vdb.file ? "--vdbench" : NULL;

	if (o->terse_version && !(o->formats & OUT_TERSE))
		iowl_warn("--terse-version=%u changes nothing without terse output (--minimal or --output-format=terse)",
			  o->terse_version);
	if (!(o->formats & OUT_TERSE))
		return 0;
	if (what)
		return err_set(err, "terse output (--minimal) has fio's per-job lines only: %s prints its own table (use normal, json or csv)",
			       what);
	if (o->status_interval && !(o->formats & (OUT_NORMAL | OUT_JSON | OUT_JSONPLUS)))
		return err_set(err, "--status-interval prints its intervals as normal text or JSON lines: add --output-format=terse,json or terse,normal");
	return 0;
}

/* --enghelp: the engines, an engine's options, or one of them described (fio's --enghelp). */
static int enghelp(const char *value, struct iowl_err *err)
{
	const struct opt_def *eng = opt_by_id(OPT_ID_ioengine);
	char name[64] = "";
	const char *cmd = NULL;
	unsigned n;
	const struct opt_def *tab = opt_table(&n);
	bool known = false;

	if (!value) {
		printf("Available IO engines:\n");
		for (const struct opt_value *v = eng->values; v->name; v++)
			if (v->value != OPT_VALUE_REFUSED)
				printf("\t%s\n", v->name);
		return CLI_DONE;
	}
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(value, ","), value);
	cmd = strchr(value, ',') ? strchr(value, ',') + 1 : NULL;
	for (const struct opt_value *v = eng->values; v->name; v++)
		known = known || (!strcmp(v->name, name) && v->value != OPT_VALUE_REFUSED);
	if (!known)
		return err_set(err,
			       "--enghelp=%s: '%s' is not an engine iowl has (iowl --enghelp lists them)",
			       value, name);
	for (unsigned i = 0; i < n; i++) {
		const char *e = tab[i].engine;
		size_t len = strlen(name);
		bool mine = false;

		for (; e && *e; e += strcspn(e, "|"), e += *e == '|')
			mine = mine || (!strncmp(e, name, len) && (e[len] == '|' || !e[len]));
		if (!mine || (cmd && strcmp(cmd, tab[i].name)))
			continue;
		if (cmd)
			return cmdhelp(cmd, err);
		printf("%-28s %s\n", tab[i].name, tab[i].help);
	}
	if (cmd)
		return err_set(err, "--enghelp=%s: '%s' is not an option of ioengine %s", value,
			       cmd, name);
	return CLI_DONE;
}

/* fio's flags iowl refuses, with the reason; NULL for the others. */
static const char *fio_refused(const char *name)
{
	static const char *const mpi =
		"iowl has no fio server or client: it runs a job on several hosts with MPI instead, mpirun -np N iowl JOBFILE (see iowl(1), multi-host runs)";
	static const struct {
		const char *name, *why;
	} refused[] = {
		{ "server", NULL },
		{ "client", NULL },
		{ "daemonize", NULL },
		{ "remote-config", NULL },
		{ "trigger-remote", NULL },
		{ "debug",
		  "fio's internal debug traces have no counterpart in iowl (strace -f, --status-interval and the JSON's iowl.diagnostics show what it does)" },
		{ "aux-path",
		  "iowl writes no state files of its own (fio puts verify state files there)" },
		{ "crctest",
		  "iowl has no checksum speed test (bench/ holds its micro-benchmarks)" },
		{ "cpuclock-test",
		  "iowl calibrates the CPU's invariant TSC against CLOCK_MONOTONIC at every start and falls back to clock_gettime() where there is none (see clocksource); it has no separate test" },
		{ "merge-blktrace-only", "iowl does not read blktrace traces" },
		{ "idle-prof",
		  "iowl does not run fio's idle-priority profiling threads; the JSON's usr_cpu and sys_cpu and --iostat's %util show the CPU and device load" },
		{ "bandwidth-log",
		  "fio 3.33 fills its agg-*_bw.log files only while it prints the status line; use write_bw_log in each job, or --status-interval, whose JSON lines hold the run's bandwidth" },
		{ "inflate-log", "iowl does not write compressed logs (log_store_compressed)" },
	};

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (!strcmp(name, refused[i].name))
			return refused[i].why ? refused[i].why : mpi;
	return NULL;
}

/* A time for --eta-newline, --eta-interval, --trigger-timeout: bare numbers are seconds, as fio. */
static int fio_time(const char *name, const char *value, uint64_t min, uint64_t *out,
		    struct iowl_err *err)
{
	char why[VAL_WHY_LEN];

	if (!value || val_parse_time_ns(value, NSEC_PER_SEC, out, why) || *out < min || !*out)
		return err_set(err,
			       "--%s=%s: give a time of at least %llums (e.g. --%s=2s; a bare number is seconds)",
			       name, value ? value : "",
			       (unsigned long long)(min ? min / 1000000 : 1), name);
	return 0;
}

/* One of fio_flags[].  Returns 0, CLI_DONE, or -errno; *mine false: not one. */
static int fio_flag(struct run_opts *o, const char *name, const char *value, bool *mine,
		    struct iowl_err *err)
{
	const char *why = fio_refused(name);
	char vwhy[VAL_WHY_LEN];
	uint64_t n;

	if (why)
		return err_set(err, "--%s is not supported: %s", name, why);
	if (!strcmp(name, "enghelp"))
		return enghelp(value, err);
	if (!strcmp(name, "readonly") || !strcmp(name, "showcmd") ||
	    !strcmp(name, "warnings-fatal")) {
		if (value)
			return err_set(err, "--%s takes no value", name);
		*(name[0] == 'r' ? &o->readonly :
		  name[0] == 's' ? &o->showcmd :
				   &o->warnings_fatal) = true;
		return 0;
	}
	if (!strcmp(name, "max-jobs") || !strcmp(name, "alloc-size")) {
		if (!value || val_parse_u64(value, &n, vwhy) || !n || n > UINT32_MAX)
			return err_set(err, "--%s=%s: give a number of at least 1 (e.g. --%s=%s)",
				       name, value ? value : "", name,
				       name[0] == 'm' ? "64" : "16384");
		if (name[0] == 'm')
			o->max_jobs = (unsigned)n;
		return 0; /* --alloc-size: fio's smalloc pool; iowl allocates from the heap */
	}
	if (!strcmp(name, "eta-newline"))
		return fio_time(name, value, 0, &o->eta_newline, err);
	if (!strcmp(name, "eta-interval"))
		return fio_time(name, value, 250 * NSEC_PER_MSEC, &o->eta_interval, err);
	if (!strcmp(name, "trigger-timeout"))
		return fio_time(name, value, 0, &o->trigger_timeout, err);
	if (!strcmp(name, "trigger-file") || !strcmp(name, "trigger")) {
		if (!value || !*value)
			return err_set(err, "--%s needs a %s (--%s=...)", name,
				       name[7] ? "file name" : "command", name);
		*(name[7] ? &o->trigger_file : &o->trigger_cmd) = value;
		return 0;
	}
	*mine = false;
	return 0;
}

int cli_check_jobs(const struct iowl_run *run, struct iowl_err *err)
{
	const struct run_opts *o = &run->opts;
	unsigned clones = 0, w = iowl_warnings();

	for (unsigned j = 0; j < run->njobs; j++) {
		const struct job *job = &run->jobs[j];

		if (o->readonly && (job_does_dir(job, 1) || job_does_dir(job, 2)))
			return job_opt_err(job, "rw", err,
					   "job '%s' %s, and --readonly forbids writes and trims (as fio)",
					   job->o.name, job_does_dir(job, 1) ? "writes" : "trims");
		clones += job->o.numjobs;
	}
	for (unsigned j = 0, want = 0; j < run->njobs; j++) {
		const struct job *job = &run->jobs[j];
		unsigned c = job->o.clocksource;

		if (c && want && c != want)
			return job_opt_err(job, "clocksource", err,
					   "the run has one clock: job '%s' asks for another than the jobs before it (give clocksource in [global])",
					   job->o.name);
		if (c == CLOCK_SRC_CPU && !iowl_clock.tsc)
			return job_opt_err(job, "clocksource", err,
					   "clocksource=cpu: this CPU has no invariant time-stamp counter iowl could calibrate (or IOWL_CLOCK=gettime is set); use clock_gettime");
		want = c ? c : want;
		if (c == CLOCK_SRC_GETTIME) /* before any worker starts */
			iowl_clock.tsc = false;
	}
	if (o->max_jobs && clones > o->max_jobs)
		return err_set(err, "the jobs have %u clones in all, more than --max-jobs=%u",
			       clones, o->max_jobs);
	if (o->warnings_fatal && w)
		return err_set(err, "--warnings-fatal: the %u warning%s above %s an error", w,
			       w == 1 ? "" : "s", w == 1 ? "is" : "are");
	return 0;
}

/* --showcmd: each job file as one command line of its options, as fio prints it. */
static void showcmd(const struct ini_doc *doc)
{
	for (unsigned f = 0; f < doc->ntop; f++) {
		bool any = false;

		for (size_t s = 0; s < doc->nsections; s++) {
			const struct ini_section *sec = &doc->sections[s];

			if (sec->file_index != f || sec->cmdline)
				continue;
			printf("%s", any ? "" : "iowl");
			any = true;
			if (!sec->global)
				printf(" --name=%s", sec->name);
			for (size_t e = 0; e < sec->nentries; e++) {
				const char *v = sec->entries[e].value;
				bool q = v && (!*v || strpbrk(v, " \t'\"$\\;&|<>()*?`"));

				printf(" --%s%s%s%s%s", sec->entries[e].key, v ? "=" : "",
				       q ? "'" : "", v ? v : "", q ? "'" : "");
			}
		}
		if (any)
			printf("\n");
	}
}

/* One of iowl's own flags.  Returns 0, CLI_DONE, or -errno; *used_next when it took argv[i+1]. */
static int flag(struct iowl_run *run, const char *name, const char *value, char *next, bool *used_next,
		struct iowl_err *err)
{
	struct run_opts *o = &run->opts;
	bool mine = true;
	int ret = fio_flag(o, name, value, &mine, err);

	if (mine)
		return ret;
	if (!strcmp(name, "help")) {
		usage(stdout);
		return CLI_DONE;
	}
	if (!strcmp(name, "version")) {
		printf("iowl-%s\n", IOWL_VERSION);
		return CLI_DONE;
	}
	if (!strcmp(name, "cmdhelp"))
		return cmdhelp(value, err);
	if (!strcmp(name, "parse-only")) {
		o->parse_only = true;
		return 0;
	}
	if (!strcmp(name, "minimal") || !strcmp(name, "append-terse")) {
		if (value)
			return err_set(err, "--%s takes no value", name);
		/* fio: --minimal is --output-format=terse; --append-terse adds it to the rest */
		o->formats = name[0] == 'm' ? OUT_TERSE : o->formats | OUT_TERSE;
		return 0;
	}
	if (!strcmp(name, "terse-version")) {
		if (!value || !value[0] || value[1] || value[0] < '2' || value[0] > '5')
			return err_set(err, "--terse-version=%s: fio's terse versions are 2, 3, 4 and 5",
				       value ? value : "");
		o->terse_version = (unsigned)(value[0] - '0');
		return 0;
	}
	if (!strcmp(name, "curve"))
		return curve_parse(value, o, err);
	if (!strcmp(name, "iostat") || !strcmp(name, "status-interval")) {
		bool st = !strcmp(name, "status-interval");
		char why[VAL_WHY_LEN];
		uint64_t ns = 0;

		if (!value && st)
			return err_set(err, "--status-interval needs a time (--status-interval=1s)");
		if (value && (val_parse_time_ns(value, NSEC_PER_SEC, &ns, why) || ns < 1000000))
			return err_set(err, "--%s=%s: give a time of at least 1ms (e.g. --%s=1s, --%s=500ms)",
				       name, value, name, name);
		if (st)
			o->status_interval = ns;
		else
			o->iostat = ns ? ns : IOSTAT_DEFAULT;
		return 0;
	}
	if (!strcmp(name, "analyze")) {
		char why[VAL_WHY_LEN];

		o->analyze = ANALYZE_DEFAULT_IOS;
		if (value && (val_parse_u64(value, &o->analyze, why) || !o->analyze))
			return err_set(err, "--analyze=%s: give a number of IOs, e.g. --analyze=1000000", value);
		return 0;
	}
	if (!strcmp(name, "cache-fill")) {
		if (value && strcmp(value, "on") && strcmp(value, "off"))
			return err_set(err, "--cache-fill=%s: use on or off (--cache-fill alone is on)", value);
		o->cfill = !value || !strcmp(value, "on");
		return 0;
	}
	if (!strcmp(name, "vdbench-output")) {
		if (value)
			return err_set(err, "--vdbench-output takes no value");
		o->vdb.output = true;
		return 0;
	}
	if (!strcmp(name, "vdbench-show") && !value && !(next && next[0] != '-')) {
		o->vdb.show = true;	/* the file is given on its own */
		return 0;
	}
	if (!value && next_flag(name) && next && next[0] != '-') {
		*used_next = true;
		value = next;
	}
	if (!value)
		return err_set(err, "--%s needs a value (--%s=...)", name, name);
	if (!strcmp(name, "output")) {
		free(o->output);
		o->output = strdup(value);
		return o->output ? 0 : err_nomem(err, "out of memory");
	}
	if (!strcmp(name, "output-format"))
		return parse_formats(value, &o->formats, err);
	if (!strcmp(name, "metrics"))
		return metrics_parse_listen(value, &o->metrics, err);
	if (!strcmp(name, "cache-fill-exact")) {
		char why[VAL_WHY_LEN];

		if (val_parse_u64(value, &o->fill_exact, why) || !o->fill_exact)
			return err_set(err, "--cache-fill-exact=%s: give a number of blocks of at least 1 (e.g. --cache-fill-exact=1000000)",
				       value);
		o->cfill = true;
		return 0;
	}
	if (!strcmp(name, "metrics-textfile")) {
		free(o->metrics.textfile_dir);
		o->metrics.textfile_dir = strdup(value);
		return o->metrics.textfile_dir ? 0 : err_nomem(err, "out of memory");
	}
	if (!strcmp(name, "metrics-linger")) {
		char why[VAL_WHY_LEN];

		if (val_parse_time_ns(value, NSEC_PER_SEC, &o->metrics.linger_ns, why))
			return err_set(err, "--metrics-linger=%s: give a time (--metrics-linger=5s; a bare number is seconds)",
				       value);
		return 0;
	}
	if (!strcmp(name, "report")) {
		free(o->report);
		o->report = strdup(value);
		return o->report ? 0 : err_nomem(err, "out of memory");
	}
	if (!strcmp(name, "vdbench") || !strcmp(name, "vdbench-show")) {
		if (o->vdb.file && strcmp(o->vdb.file, value))
			return err_set(err, "--%s=%s: one vdbench parameter file at a time ('%s' is given already)",
				       name, value, o->vdb.file);
		o->vdb.show = o->vdb.show || !strcmp(name, "vdbench-show");
		free(o->vdb.file);
		o->vdb.file = strdup(value);
		return o->vdb.file ? 0 : err_nomem(err, "out of memory");
	}
	if (!strcmp(name, "vdbench-lun"))
		return vdbench_kv_add(&o->vdb.luns, &o->vdb.nluns, "--vdbench-lun", value, err);
	if (!strcmp(name, "vdbench-var"))
		return vdbench_kv_add(&o->vdb.vars, &o->vdb.nvars, "--vdbench-var", value, err);
	if (!strcmp(name, "eta")) {
		if (!strcmp(value, "auto"))
			o->eta = ETA_AUTO;
		else if (!strcmp(value, "always"))
			o->eta = ETA_ALWAYS;
		else if (!strcmp(value, "never"))
			o->eta = ETA_NEVER;
		else
			return err_set(err, "--eta: '%s' is not a choice (use auto, always or never)",
				       value);
		return 0;
	}
	if (!strcmp(name, "section"))
		return push(&o->sections, &o->nsections, (char *)value, err);
	if (!strcmp(name, "rank-jobs")) /* checked against the jobs by ranks_filter() */
		return push(&o->rank_jobs, &o->nrank_jobs, (char *)value, err);
	if (!strcmp(name, "sweep")) {
		struct sweep_key *k = realloc(o->sweeps, (o->nsweeps + 1) * sizeof(*k));

		if (!k)
			return err_nomem(err, "out of memory");
		o->sweeps = k;
		if (sweep_key_parse(value, &k[o->nsweeps], err))
			return -EINVAL;
		o->nsweeps++;
		return 0;
	}
	if (!strcmp(name, "assert")) {
		struct assertion *a = realloc(o->asserts, (o->nasserts + 1) * sizeof(*a));

		if (!a)
			return err_nomem(err, "out of memory");
		o->asserts = a;
		return assert_parse(value, &a[o->nasserts++], err);
	}
	return add_set(o, value, err);
}

static bool is_flag(const char *name)
{
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (!strcmp(flags[i], name))
			return true;
	for (size_t i = 0; i < sizeof(fio_flags) / sizeof(fio_flags[0]); i++)
		if (!strcmp(fio_flags[i], name))
			return true;
	return false;
}

/* A job option on the command line: --name starts a section, others go to the current one. */
static int cmdline_option(struct iowl_run *run, const char *name, const char *value,
			  struct ini_section **cur, unsigned file_index, unsigned argi,
			  struct iowl_err *err)
{
	if (!strcmp(name, "name")) {
		if (!value || !*value)
			return err_set(err, "--name needs a job name (--name=NAME)");
		*cur = ini_doc_add_section(&run->doc, value, CMDLINE, argi, file_index);
		if (*cur)
			(*cur)->cmdline = true;
		return *cur ? 0 : err_nomem(err, "out of memory");
	}
	if (!opt_find(name)) {
		size_t n;
		const char *const *names = opt_names(&n);
		const char *best = suggest_closest(name, names, n);

		if (!best)
			best = suggest_closest(name, flags, sizeof(flags) / sizeof(flags[0]));
		return err_set(err, "unknown option '--%s'%s%s%s (iowl --help)", name,
			       best ? " (did you mean '--" : "", best ? best : "", best ? "'?)" : "");
	}
	if (!*cur) {	/* options before the first --name are defaults for every job */
		*cur = ini_doc_add_section(&run->doc, "global", CMDLINE, argi, file_index);
		if (!*cur)
			return err_nomem(err, "out of memory");
		(*cur)->cmdline = true;
	}
	if (ini_section_add(*cur, name, value, CMDLINE, argi))
		return err_nomem(err, "out of memory");
	return 0;
}

static int read_job_files(struct iowl_run *run, struct iowl_err *err)
{
	for (unsigned i = 0; i < run->opts.nfiles; i++) {
		int ret = ini_parse_file(&run->doc, run->opts.files[i], err);

		if (ret)
			return ret;
	}
	return 0;
}

/* A vdbench parameter file runs alone; its flags need one. */
static int check_vdbench(const struct run_opts *o, unsigned nopts, struct iowl_err *err)
{
	const struct vdbench_opts *v = &o->vdb;

	if (!v->file) {
		if (v->output || v->nluns || v->nvars || (o->formats & OUT_VDBFLAT))
			return err_set(err, "%s belongs to a vdbench parameter file (give one: iowl --vdbench FILE)",
				       v->output ? "--vdbench-output" : v->nluns ? "--vdbench-lun" :
				       v->nvars ? "--vdbench-var" : "--output-format=vdbench-flat");
		return 0;
	}
	if (o->nfiles || nopts)
		return err_set(err, "the vdbench parameter file '%s' runs on its own: no job files, --name jobs or job options beside it (--set KEY=VALUE sets an option in its jobs)",
			       v->file);
	if (o->report)
		return err_set(err, "--report=%s: not with a vdbench parameter file (its runs are vdbench's rd= steps; run the translated jobs, iowl --vdbench-show '%s', with --report)",
			       o->report, v->file);
	if (o->nsweeps || o->ncurve)
		return err_set(err, "--%s: the vdbench parameter file '%s' says what to sweep (for-loops) and when to run a curve (iorate=curve)",
			       o->nsweeps ? "sweep" : "curve", v->file);
	if ((o->formats & OUT_VDBFLAT) && o->formats != OUT_VDBFLAT)
		return err_set(err, "--output-format=vdbench-flat is a CSV of its own: give it alone");
	return 0;
}

/* The command line as one string, for the report; arguments with blanks or quotes quoted. */
static char *cli_command(int argc, char **argv)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		return NULL;
	for (int i = 0; i < argc; i++) {
		bool q = !argv[i][0] || strpbrk(argv[i], " \t'\"$\\") != NULL;

		fprintf(f, "%s%s", i ? " " : "", q ? "'" : "");
		for (const char *c = argv[i]; *c; c++)
			fputs(*c == '\'' ? "'\\''" : (char[2]){ *c, 0 }, f);
		fputs(q ? "'" : "", f);
	}
	if (fclose(f)) {
		free(s);
		return NULL;
	}
	return s;
}

int cli_parse(int argc, char **argv, struct iowl_run *run, struct iowl_err *err)
{
	struct ini_section *cur = NULL;
	unsigned nopts = 0;
	int ret = 0;

	/*
	 * As fio: the command line's jobs and defaults come first, in the first job file's group
	 * (file index 0), wherever the files are among the options; then the job files.
	 */
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-') {
			i += takes_next(argv[i]) && i + 1 < argc && argv[i + 1][0] != '-';
			continue;
		}
		/* A vdbench parameter file is recognised by what it holds, and run on its own. */
		if (vdbench_detect(argv[i])) {
			if (run->opts.vdb.file)
				return err_set(err, "'%s': one vdbench parameter file at a time ('%s' is given already)",
					       argv[i], run->opts.vdb.file);
			run->opts.vdb.file = strdup(argv[i]);
			if (!run->opts.vdb.file)
				return err_nomem(err, "out of memory");
			continue;
		}
		ret = push(&run->opts.files, &run->opts.nfiles, argv[i], err);
		if (ret)
			return ret;
	}
	for (int i = 1; i < argc && !ret; i++) {
		const char *arg = argv[i], *eq;
		char name[128];
		bool used_next = false;

		if (arg[0] != '-')
			continue;
		if (!strcmp(arg, "-h"))
			arg = "--help";
		if (strncmp(arg, "--", 2) || !arg[2])
			return err_set(err, "'%s' is not an option (options are --name=value; iowl --help)", arg);
		eq = strchr(arg + 2, '=');
		snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - arg - 2) : (int)strlen(arg + 2),
			 arg + 2);
		if (is_flag(name)) {
			ret = flag(run, name, eq ? eq + 1 : NULL, i + 1 < argc ? argv[i + 1] : NULL,
				   &used_next, err);
			i += used_next;
		} else {
			ret = cmdline_option(run, name, eq ? eq + 1 : NULL, &cur, 0, (unsigned)i, err);
			nopts++;
		}
	}
	if (!ret && run->opts.report && !(run->opts.command = cli_command(argc, argv)))
		ret = err_nomem(err, "out of memory");
	if (!ret)
		ret = read_job_files(run, err);
	if (!ret && run->opts.showcmd) {
		showcmd(&run->doc);
		return CLI_DONE;
	}
	if (!ret && run->opts.ncurve && run->opts.nsweeps)
		ret = err_set(err, "--curve and --sweep cannot be combined (run one, then the other)");
	if (!ret && run->opts.status_interval && run->opts.iostat &&
	    run->opts.iostat != IOSTAT_DEFAULT && run->opts.iostat != run->opts.status_interval)
		ret = err_set(err, "--iostat and --status-interval share one interval: give the time once (--status-interval=T --iostat)");
	if (!ret && run->opts.report && run->opts.parse_only)
		ret = err_set(err, "--report=%s: --parse-only runs nothing to draw", run->opts.report);
	if (!ret && (run->opts.formats & OUT_CSV) && !run->opts.nsweeps)
		ret = err_set(err, "--output-format=csv is the table of a --sweep (add --sweep KEY=...)");
	if (!ret)
		ret = check_terse(&run->opts, err);
	if (!ret)
		ret = check_vdbench(&run->opts, nopts, err);
	if (!ret && (run->opts.metrics.port || run->opts.metrics.textfile_dir) &&
	    (run->opts.parse_only || run->opts.analyze))
		ret = err_set(err, "--metrics%s shows a run's figures: not with --%s, which runs no IO",
			      run->opts.metrics.port ? "" : "-textfile",
			      run->opts.parse_only ? "parse-only" : "analyze");
	if (!ret && run->opts.metrics.linger_ns && !run->opts.metrics.port)
		ret = err_set(err, "--metrics-linger keeps the --metrics endpoint up after the run: give --metrics=[ADDR:]PORT too");
	if (!ret && !run->opts.nfiles && !nopts && !run->opts.vdb.file) {
		usage(stderr);
		return err_set(err, "no job files and no jobs given");
	}
	return ret;
}

void cli_release(struct run_opts *o)
{
	for (unsigned i = 0; i < o->nsets; i++) {
		free(o->sets[i].key);
		free(o->sets[i].value);
	}
	free(o->sets);
	free(o->metrics.addr);
	free(o->metrics.textfile_dir);
	free(o->asserts);
	for (unsigned i = 0; i < o->nsweeps; i++)
		sweep_key_release(&o->sweeps[i]);
	free(o->sweeps);
	free(o->sections);
	free(o->rank_jobs);
	free(o->files);
	free(o->output);
	free(o->report);
	free(o->command);
	vdbench_opts_release(&o->vdb);
}
