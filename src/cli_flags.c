// SPDX-License-Identifier: MIT
/*
 * The one table of command-line flags: the parser (cli.c), --help, the manual's check
 * (test_manual) and the bash completion (which reads --help) all read it.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "iowl/clock.h"
#include "iowl/cli.h"
#include "iowl/options.h"
#include "iowl/profile.h"
#include "iowl/analyze.h"
#include "iowl/curve.h"
#include "iowl/debug.h"
#include "iowl/idleprof.h"
#include "iowl/fiolog_gz.h"
#include "iowl/suggest.h"
#include "iowl/sweep.h"
#include "iowl/value.h"
#include "iowl/verify.h"
#include "iowl/vdbench.h"

#define RO(field) offsetof(struct run_opts, field)

/* Lists the job options, or describes one.  Returns CLI_DONE, or -EINVAL for an unknown name. */
static int cmdhelp(const char *name, struct iowl_err *err)
{
	const struct opt_def *one = name ? opt_find(name) : NULL;
	unsigned n;
	const struct opt_def *tab = opt_table(&n);
	char type[256];

	if (!name && profile_cur()->name) { /* fio: --profile=NAME --cmdhelp, its options */
		profile_help(profile_cur(), stdout);
		return CLI_DONE;
	}
	if (name && !one)
		return err_set(err, "--cmdhelp: unknown option '%s' (iowl --cmdhelp lists them)",
			       name);
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
			ret = err_set(err,
				      "--output-format: '%s' is not a format (use normal, json, json+, terse, csv with --sweep, or vdbench-flat with a vdbench parameter file)",
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

/* --flag with no value: sets the bool at f->off. */
static int set_true(struct run_opts *o, const struct cli_flag *f, const char *value,
		    struct iowl_err *err)
{
	*(bool *)((char *)o + f->off) = true;
	return 0;
}

/* --flag=VALUE kept as a string of its own at f->off (the last one given wins). */
static int set_str(struct run_opts *o, const struct cli_flag *f, const char *value,
		   struct iowl_err *err)
{
	char **p = (char **)((char *)o + f->off);

	free(*p);
	*p = strdup(value);
	return *p ? 0 : err_nomem(err, "out of memory");
}

/* --trigger-file, --trigger: the argument itself (argv lives as long as the run). */
static int set_arg(struct run_opts *o, const struct cli_flag *f, const char *value,
		   struct iowl_err *err)
{
	if (!value || !*value)
		return err_set(err, "--%s needs a %s (--%s=...)", f->name,
			       f->name[7] ? "file name" : "command", f->name);
	*(const char **)((char *)o + f->off) = value;
	return 0;
}

/* A time for --eta-newline, --eta-interval, --trigger-timeout: bare numbers are seconds, as fio. */
static int set_fio_time(struct run_opts *o, const struct cli_flag *f, const char *value,
			struct iowl_err *err)
{
	uint64_t min = f->name[4] == 'i' ? 250 * NSEC_PER_MSEC : 0; /* --eta-interval */
	uint64_t *out = (uint64_t *)((char *)o + f->off);
	char why[VAL_WHY_LEN];

	if (!value || val_parse_time_ns(value, NSEC_PER_SEC, out, why) || *out < min || !*out)
		return err_set(err,
			       "--%s=%s: give a time of at least %llums (e.g. --%s=2s; a bare number is seconds)",
			       f->name, value ? value : "",
			       (unsigned long long)(min ? min / 1000000 : 1), f->name);
	return 0;
}

/* --max-jobs, --alloc-size: a count of at least 1. */
static int set_count(struct run_opts *o, const struct cli_flag *f, const char *value,
		     struct iowl_err *err)
{
	char why[VAL_WHY_LEN];
	uint64_t n;

	if (!value || val_parse_u64(value, &n, why) || !n || n > UINT32_MAX)
		return err_set(err, "--%s=%s: give a number of at least 1 (e.g. --%s=%s)", f->name,
			       value ? value : "", f->name, f->name[0] == 'm' ? "64" : "16384");
	if (f->name[0] == 'm')
		o->max_jobs = (unsigned)n;
	return 0; /* --alloc-size: fio's smalloc pool; iowl allocates from the heap */
}

static int do_help(struct run_opts *o, const struct cli_flag *f, const char *value,
		   struct iowl_err *err)
{
	cli_usage(stdout);
	return CLI_DONE;
}

static int do_version(struct run_opts *o, const struct cli_flag *f, const char *value,
		      struct iowl_err *err)
{
	printf("iowl-%s\n", IOWL_VERSION);
	return CLI_DONE;
}

static int do_cmdhelp(struct run_opts *o, const struct cli_flag *f, const char *value,
		      struct iowl_err *err)
{
	return cmdhelp(value, err);
}

static int do_enghelp(struct run_opts *o, const struct cli_flag *f, const char *value,
		      struct iowl_err *err)
{
	return enghelp(value, err);
}

/* fio's --debug: the categories to trace, or their list. */
static int do_debug(struct run_opts *o, const struct cli_flag *f, const char *value,
		    struct iowl_err *err)
{
	int r = debug_parse(value, err);

	return r == 1 ? CLI_DONE : r;
}

/* fio's --idle-prof: the mode for the run, or with calibrate the unit of work alone. */
static int set_idle_prof(struct run_opts *o, const struct cli_flag *f, const char *value,
			 struct iowl_err *err)
{
	struct idleprof_result res;
	struct idleprof *ip;
	int mode = idleprof_parse(value, err);

	if (mode < 0)
		return mode;
	o->idle_prof = (unsigned)mode;
	if (mode != IDLEPROF_CALIBRATE)
		return 0;
	if (idleprof_start(&ip, IDLEPROF_CALIBRATE, err))
		return -EINVAL;
	idleprof_stop(ip, &res);
	idleprof_text(stdout, &res);
	idleprof_result_free(&res);
	return CLI_DONE;
}

/* fio's --aux-path: the directory of the verify state files. */
static int do_aux_path(struct run_opts *o, const struct cli_flag *f, const char *value,
		       struct iowl_err *err)
{
	struct stat st;

	if (stat(value, &st))
		return err_set(err, "--aux-path=%s: %s", value, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return err_set(err, "--aux-path=%s: not a directory", value);
	verify_state_dir(value);
	return 0;
}

/* fio's --inflate-log: a compressed log printed as text, then the run is over. */
static int do_inflate(struct run_opts *o, const struct cli_flag *f, const char *value,
		      struct iowl_err *err)
{
	if (!*value)
		return err_set(err,
			       "--inflate-log needs a compressed log (--inflate-log=NAME_KIND.N.log.fz)");
	return fiolog_inflate(value, stdout, err) ?: CLI_DONE;
}

/* --minimal is --output-format=terse (fio); --append-terse adds terse to the other formats. */
static int set_terse(struct run_opts *o, const struct cli_flag *f, const char *value,
		     struct iowl_err *err)
{
	o->formats = f->name[0] == 'm' ? OUT_TERSE : o->formats | OUT_TERSE;
	return 0;
}

static int set_terse_version(struct run_opts *o, const struct cli_flag *f, const char *value,
			     struct iowl_err *err)
{
	if (!value || !value[0] || value[1] || value[0] < '2' || value[0] > '5')
		return err_set(err, "--terse-version=%s: fio's terse versions are 2, 3, 4 and 5",
			       value ? value : "");
	o->terse_version = (unsigned)(value[0] - '0');
	return 0;
}

static int set_curve(struct run_opts *o, const struct cli_flag *f, const char *value,
		     struct iowl_err *err)
{
	return curve_parse(value, o, err);
}

/* --iostat[=T] and --status-interval=T. */
static int set_interval(struct run_opts *o, const struct cli_flag *f, const char *value,
			struct iowl_err *err)
{
	bool st = f->name[0] == 's';
	char why[VAL_WHY_LEN];
	uint64_t ns = 0;

	if (!value && st)
		return err_set(err, "--status-interval needs a time (--status-interval=1s)");
	if (value && (val_parse_time_ns(value, NSEC_PER_SEC, &ns, why) || ns < 1000000))
		return err_set(err,
			       "--%s=%s: give a time of at least 1ms (e.g. --%s=1s, --%s=500ms)",
			       f->name, value, f->name, f->name);
	if (st)
		o->status_interval = ns;
	else
		o->iostat = ns ? ns : IOSTAT_DEFAULT;
	return 0;
}

static int set_analyze(struct run_opts *o, const struct cli_flag *f, const char *value,
		       struct iowl_err *err)
{
	char why[VAL_WHY_LEN];

	o->analyze = ANALYZE_DEFAULT_IOS;
	if (value && (val_parse_u64(value, &o->analyze, why) || !o->analyze))
		return err_set(err, "--analyze=%s: give a number of IOs, e.g. --analyze=1000000",
			       value);
	return 0;
}

static int set_cache_fill(struct run_opts *o, const struct cli_flag *f, const char *value,
			  struct iowl_err *err)
{
	if (value && strcmp(value, "on") && strcmp(value, "off"))
		return err_set(err, "--cache-fill=%s: use on or off (--cache-fill alone is on)",
			       value);
	o->cfill = !value || !strcmp(value, "on");
	return 0;
}

static int set_cache_fill_exact(struct run_opts *o, const struct cli_flag *f, const char *value,
				struct iowl_err *err)
{
	char why[VAL_WHY_LEN];

	if (val_parse_u64(value, &o->fill_exact, why) || !o->fill_exact)
		return err_set(err,
			       "--cache-fill-exact=%s: give a number of blocks of at least 1 (e.g. --cache-fill-exact=1000000)",
			       value);
	o->cfill = true;
	return 0;
}

static int set_output_format(struct run_opts *o, const struct cli_flag *f, const char *value,
			     struct iowl_err *err)
{
	return parse_formats(value, &o->formats, err);
}

static int set_metrics(struct run_opts *o, const struct cli_flag *f, const char *value,
		       struct iowl_err *err)
{
	return metrics_parse_listen(value, &o->metrics, err);
}

static int set_metrics_linger(struct run_opts *o, const struct cli_flag *f, const char *value,
			      struct iowl_err *err)
{
	char why[VAL_WHY_LEN];

	if (val_parse_time_ns(value, NSEC_PER_SEC, &o->metrics.linger_ns, why))
		return err_set(err,
			       "--metrics-linger=%s: give a time (--metrics-linger=5s; a bare number is seconds)",
			       value);
	return 0;
}

/* --vdbench FILE and --vdbench-show [FILE] (alone: the file is given on its own). */
static int set_vdbench(struct run_opts *o, const struct cli_flag *f, const char *value,
		       struct iowl_err *err)
{
	bool show = !strcmp(f->name, "vdbench-show");

	if (!value) {
		o->vdb.show = true;
		return 0;
	}
	if (o->vdb.file && strcmp(o->vdb.file, value))
		return err_set(err,
			       "--%s=%s: one vdbench parameter file at a time ('%s' is given already)",
			       f->name, value, o->vdb.file);
	o->vdb.show = o->vdb.show || show;
	free(o->vdb.file);
	o->vdb.file = strdup(value);
	return o->vdb.file ? 0 : err_nomem(err, "out of memory");
}

static int set_vdbench_kv(struct run_opts *o, const struct cli_flag *f, const char *value,
			  struct iowl_err *err)
{
	if (!strcmp(f->name, "vdbench-lun"))
		return vdbench_kv_add(&o->vdb.luns, &o->vdb.nluns, "--vdbench-lun", value, err);
	return vdbench_kv_add(&o->vdb.vars, &o->vdb.nvars, "--vdbench-var", value, err);
}

static int set_eta(struct run_opts *o, const struct cli_flag *f, const char *value,
		   struct iowl_err *err)
{
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

static int add_section(struct run_opts *o, const struct cli_flag *f, const char *value,
		       struct iowl_err *err)
{
	return cli_push(&o->sections, &o->nsections, (char *)value, err);
}

/* checked against the jobs by ranks_filter() */
static int add_rank_jobs(struct run_opts *o, const struct cli_flag *f, const char *value,
			 struct iowl_err *err)
{
	return cli_push(&o->rank_jobs, &o->nrank_jobs, (char *)value, err);
}

/* --rank-timeout=T: 0 (off) or at least a second (the ranks' heartbeats come every 250 ms). */
static int set_rank_timeout(struct run_opts *o, const struct cli_flag *f, const char *value,
			    struct iowl_err *err)
{
	char why[VAL_WHY_LEN];
	uint64_t ns;

	if (val_parse_time_ns(value, NSEC_PER_SEC, &ns, why) || (ns && ns < NSEC_PER_SEC))
		return err_set(err,
			       "--rank-timeout=%s: give 0 (no limit) or a time of at least 1s (e.g. --rank-timeout=30s; a bare number is seconds)",
			       value);
	o->rank_timeout = ns;
	return 0;
}

static int add_sweep(struct run_opts *o, const struct cli_flag *f, const char *value,
		     struct iowl_err *err)
{
	struct sweep_key *k = realloc(o->sweeps, (o->nsweeps + 1) * sizeof(*k));

	if (!k)
		return err_nomem(err, "out of memory");
	o->sweeps = k;
	if (sweep_key_parse(value, &k[o->nsweeps], err))
		return -EINVAL;
	o->nsweeps++;
	return 0;
}

static int add_assert(struct run_opts *o, const struct cli_flag *f, const char *value,
		      struct iowl_err *err)
{
	struct assertion *a = realloc(o->asserts, (o->nasserts + 1) * sizeof(*a));

	if (!a)
		return err_nomem(err, "out of memory");
	o->asserts = a;
	return assert_parse(value, &a[o->nasserts++], err);
}

static int do_add_set(struct run_opts *o, const struct cli_flag *f, const char *value,
		      struct iowl_err *err)
{
	return add_set(o, value, err);
}

#define MPI_WHY                                                                                    \
	"iowl has no fio server or client: it runs a job on several hosts with MPI instead, mpirun -np N iowl JOBFILE (see iowl(1), multi-host runs)"

/*
 * Every flag, in --help's order.  arg: what the flag takes (see enum cli_arg); usage: --help's
 * text after "--name" (the value's form, then two blanks or more, then the help; each further
 * line is a continuation).  fio's flags follow iowl's own; a refused one says why.
 */
#define FLAG(n, a, fn, o, u)                                                                       \
	{                                                                                          \
		.name = n, .arg = a, .set = fn, .off = o, .usage = u                               \
	}
#define FIO_FLAG(n, a, fn, o, u)                                                                   \
	{                                                                                          \
		.name = n, .arg = a, .set = fn, .off = o, .usage = u, .fio = true                  \
	}
#define REFUSED(n, why)                                                                            \
	{                                                                                          \
		.name = n, .refused = why, .fio = true                                             \
	}

static const struct cli_flag table[] = {
	FLAG("output", CLI_ARG_NEED, set_str, RO(output),
	     "=FILE  write the results to FILE instead of stdout"),
	FLAG("output-format", CLI_ARG_NEED, set_output_format, 0,
	     "=FMT  normal, json, json+ or terse (a comma list prints several);\n"
	     "vdbench-flat: vdbench's flatfile columns as CSV"),
	FLAG("minimal", CLI_ARG_NONE, set_terse, 0, "  fio's terse lines (--output-format=terse)"),
	FLAG("terse-version", CLI_ARG_OPT, set_terse_version, 0,
	     "=N  terse format version 2, 3 (default), 4 or 5"),
	FLAG("append-terse", CLI_ARG_NONE, set_terse, 0,
	     "  terse lines as well as the other formats"),
	FLAG("eta", CLI_ARG_NEED, set_eta, 0,
	     "=WHEN  status line on stderr: auto (a terminal), always, never"),
	FLAG("status-interval", CLI_ARG_OPT, set_interval, 0,
	     "=T  print the figures of each interval of T (1s, 500ms; a\n"
	     "bare number is seconds): per interval, not cumulative;\n"
	     "with json, one JSON document per line"),
	FLAG("iostat", CLI_ARG_OPT, set_interval, 0,
	     "[=T]  print iostat -x figures of the devices behind the targets\n"
	     "every T (default: the status interval, else 1s)"),
	FLAG("parse-only", CLI_ARG_NONE, set_true, RO(parse_only),
	     "  check the jobs completely (options, targets) and exit"),
	FLAG("analyze", CLI_ARG_OPT, set_analyze, 0,
	     "[=N]  generate N IOs of each job (default 1000000) without doing\n"
	     "them and describe the pattern: streams, sizes, hot blocks"),
	FLAG("section", CLI_ARG_NEED, add_section, 0,
	     "=NAME  run only the job sections named (repeatable)"),
	FLAG("set", CLI_ARG_NEXT, do_add_set, 0,
	     " KEY=VALUE  set a job option in every job, as if written last (repeatable)"),
	FLAG("sweep", CLI_ARG_NEXT, add_sweep, 0,
	     " KEY=V1,V2,...  run the jobs once per value (KEY=1..256x2, bs=4k..1m x2,\n"
	     "8..64+8 ranges; repeatable: a cross product), one table,\n"
	     "and a scalability fit when sweeping iodepth or numjobs\n"
	     "(or ranks=1..N+1 over MPI: the first k ranks run)"),
	FLAG("curve", CLI_ARG_OPT, set_curve, 0,
	     "[=P1,P2,...]  a run at maximum rate, then at P% of it (default\n"
	     "10,50,70,80,90,100): latency against throughput, the knee"),
	FLAG("assert", CLI_ARG_NEXT, add_assert, 0,
	     " EXPR  check a result after the run, e.g. read.clat.p99<=2ms,\n"
	     "write.bw>=200MiB/s, errors==0 (repeatable; exit 3 if not)"),
	FLAG("vdbench", CLI_ARG_NEXT, set_vdbench, 0,
	     " FILE  run a vdbench parameter file with vdbench's meaning (a file\n"
	     "with sd=, wd=, rd= lines is recognised as one by itself)"),
	FLAG("vdbench-show", CLI_ARG_NEXT_OPT, set_vdbench, 0,
	     " FILE  print the iowl job file that runs a vdbench parameter file"),
	FLAG("vdbench-output", CLI_ARG_NONE, set_true, RO(vdb.output),
	     "  vdbench's interval lines on stdout beside iowl's report"),
	FLAG("vdbench-lun", CLI_ARG_NEXT, set_vdbench_kv, 0,
	     " NAME=PATH  run vdbench's lun=NAME (a Windows or Solaris name) on PATH"),
	FLAG("vdbench-var", CLI_ARG_NEXT, set_vdbench_kv, 0,
	     " NAME=VAL  replace $NAME and !NAME in the parameter file"),
	FLAG("metrics", CLI_ARG_NEED, set_metrics, 0,
	     "=[ADDR:]PORT  serve GET /metrics for Prometheus while the run lasts\n"
	     "(default address 127.0.0.1)"),
	FLAG("metrics-linger", CLI_ARG_NEED, set_metrics_linger, 0,
	     "=T  keep serving T after the run (default 0)"),
	FLAG("metrics-textfile", CLI_ARG_NEED, set_str, RO(metrics.textfile_dir),
	     "=DIR  write DIR/iowl.prom every interval (node exporter)"),
	FLAG("report", CLI_ARG_NEED, set_str, RO(report),
	     "=FILE.html  also draw the results as one self-contained HTML page\n"
	     "(iowl report RESULTS.json ... -o FILE.html: from saved JSON)"),
	FLAG("cache-fill", CLI_ARG_OPT, set_cache_fill, 0,
	     "[=on|off]  count the distinct blocks each job touches (default off)"),
	FLAG("cache-fill-exact", CLI_ARG_NEED, set_cache_fill_exact, 0,
	     "=N  count exactly up to N blocks per clone, then estimate"),
	FLAG("rank-jobs", CLI_ARG_NEED, add_rank_jobs, 0,
	     "=RANKS[:JOB,...]  under mpirun (iowl-mpi): run the jobs named only on\n"
	     "RANKS (0-3,6); without :JOB every job (repeatable)"),
	FLAG("rank-timeout", CLI_ARG_NEED, set_rank_timeout, 0,
	     "=T  under mpirun: a rank that sends no heartbeat for T ends\n"
	     "the run with status 2 (default 30s; 0: never)"),
	FLAG("cmdhelp", CLI_ARG_OPT, do_cmdhelp, 0,
	     "[=OPTION]  list the job options, or describe one"),
	FIO_FLAG("enghelp", CLI_ARG_OPT, do_enghelp, 0,
		 "[=ENGINE[,OPT]]  list the engines, an engine's options, or describe one"),
	FLAG("help", CLI_ARG_NONE, do_help, 0, "  this text (also -h)"),
	FLAG("version", CLI_ARG_NONE, do_version, 0, "  print iowl's version"),
	/* fio's flags, with fio's meaning */
	FIO_FLAG("readonly", CLI_ARG_NONE, set_true, RO(readonly),
		 "  refuse jobs that write or trim"),
	FIO_FLAG("max-jobs", CLI_ARG_OPT, set_count, 0, "=N  refuse a run of more than N clones"),
	FIO_FLAG("showcmd", CLI_ARG_NONE, set_true, RO(showcmd),
		 "  print the job files as command lines and exit"),
	FIO_FLAG("warnings-fatal", CLI_ARG_NONE, set_true, RO(warnings_fatal),
		 "  a warning while reading the jobs is an error"),
	FIO_FLAG("eta-newline", CLI_ARG_OPT, set_fio_time, RO(eta_newline),
		 "=T  start a new status line every T"),
	FIO_FLAG("eta-interval", CLI_ARG_OPT, set_fio_time, RO(eta_interval),
		 "=T  refresh the status line every T (at least 250ms)"),
	FIO_FLAG("trigger-file", CLI_ARG_OPT, set_arg, RO(trigger_file),
		 "=FILE  end the run when FILE appears, then run --trigger"),
	FIO_FLAG("trigger-timeout", CLI_ARG_OPT, set_fio_time, RO(trigger_timeout),
		 "=T  end the run T after its start, then run --trigger"),
	FIO_FLAG("trigger", CLI_ARG_OPT, set_arg, RO(trigger_cmd),
		 "=CMD  the command a trigger runs (/bin/sh -c CMD)"),
	FIO_FLAG("alloc-size", CLI_ARG_OPT, set_count, 0,
		 "=KB  accepted: iowl has no fixed pool to size"),
	FIO_FLAG("bandwidth-log", CLI_ARG_NONE, set_true, RO(bandwidth_log),
		 "  the run's bandwidth in agg-{read,write,trim}_bw.log"),
	FIO_FLAG("aux-path", CLI_ARG_NEED, do_aux_path, 0,
		 "=DIR  the verify state files (verify_state_save) go there, not the current directory"),
	FIO_FLAG("debug", CLI_ARG_NEED, do_debug, 0,
		 "=TYPE[,TYPE]  trace fio's categories iowl has (--debug=help lists them)"),
	FIO_FLAG("idle-prof", CLI_ARG_NEED, set_idle_prof, 0,
		 "=MODE  CPU idleness during the run: system, percpu; calibrate alone"),
	FIO_FLAG("inflate-log", CLI_ARG_NEED, do_inflate, 0,
		 "=FILE  print a compressed log (log_store_compressed) as text"),
	/* fio's flags iowl refuses, with the reason */
	REFUSED("server", MPI_WHY),
	REFUSED("client", MPI_WHY),
	REFUSED("daemonize", MPI_WHY),
	REFUSED("remote-config", MPI_WHY),
	REFUSED("trigger-remote", MPI_WHY),
	REFUSED("crctest", "iowl has no checksum speed test (bench/ holds its micro-benchmarks)"),
	REFUSED("cpuclock-test",
		"iowl calibrates the CPU's invariant TSC against CLOCK_MONOTONIC at every start and falls back to clock_gettime() where there is none (see clocksource); it has no separate test"),
	REFUSED("merge-blktrace-only", "iowl does not read blktrace traces"),
};

const struct cli_flag *cli_flag_table(size_t *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}

const struct cli_flag *cli_flag_find(const char *name)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

int cli_flag_apply(struct run_opts *o, const struct cli_flag *f, const char *value,
		   const char *next, bool *used_next, struct iowl_err *err)
{
	if (f->refused)
		return err_set(err, "--%s is not supported: %s", f->name, f->refused);
	if (f->arg == CLI_ARG_NONE && value)
		return err_set(err, "--%s takes no value", f->name);
	if ((f->arg == CLI_ARG_NEXT || f->arg == CLI_ARG_NEXT_OPT) && !value && next &&
	    next[0] != '-') {
		*used_next = true;
		value = next;
	}
	if ((f->arg == CLI_ARG_NEED || f->arg == CLI_ARG_NEXT) && !value)
		return err_set(err, "--%s needs a value (--%s=...)", f->name, f->name);
	return f->set(o, f, value, err);
}

/* One flag's lines of --help: "  --name" and the value's form padded to a column, then the help. */
static void usage_flag(FILE *f, const struct cli_flag *c)
{
	const char *u = c->usage, *gap = strstr(u, "  ");
	int head = (int)(gap - u);
	int len = fprintf(f, "  --%s%.*s", c->name, head, u);

	u = gap + strspn(gap, " ");
	fprintf(f, "%*s", len < 27 ? 27 - len : 2, "");
	while (*u) {
		size_t line = strcspn(u, "\n");

		fprintf(f, "%.*s\n", (int)line, u);
		u += line + (u[line] == '\n');
		if (*u)
			fprintf(f, "%27s", "");
	}
}

void cli_usage(FILE *f)
{
	size_t n = sizeof(table) / sizeof(table[0]);
	unsigned refused = 0;

	fprintf(f,
		"usage: iowl [options] [job.ini ...] [--name=job --option=value ...]\n"
		"\n"
		"Runs fio job files, or jobs given on the command line as --name=NAME followed by\n"
		"that job's options (--rw=randread --bs=4k --size=1g ...).\n"
		"\n");
	for (size_t i = 0; i < n; i++)
		if (table[i].usage && !table[i].fio)
			usage_flag(f, &table[i]);
	fprintf(f, "fio's flags, with fio's meaning:\n");
	for (size_t i = 0; i < n; i++)
		if (table[i].usage && table[i].fio)
			usage_flag(f, &table[i]);
	fprintf(f, "  refused, with the reason:");
	for (size_t i = 0, col = 28; i < n; i++) {
		if (!table[i].refused)
			continue;
		if (col + strlen(table[i].name) + 4 > 90) {
			fprintf(f, ",\n ");
			col = 3;
		} else {
			fprintf(f, "%s", refused ? "," : "");
		}
		col += (size_t)fprintf(f, " --%s", table[i].name) + 1;
		refused++;
	}
	fprintf(f,
		"\n"
		"\n"
		"Exit status: 0 success, 1 bad usage or job file (nothing ran), 2 an IO or runtime\n"
		"error during the run, 3 an --assert did not hold, 130/143 interrupted by SIGINT/SIGTERM.\n"
		"See iowl(1).\n");
}
