// SPDX-License-Identifier: MIT
/* The command line: flags, job files, --set overrides and fio-style --name=... jobs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iowl/clock.h"
#include "iowl/cli.h"
#include "iowl/clock.h"
#include "iowl/engine.h"
#include "iowl/options.h"
#include "iowl/profile.h"
#include "iowl/ranks.h"
#include "iowl/analyze.h"
#include "iowl/curve.h"
#include "iowl/suggest.h"
#include "iowl/sweep.h"
#include "iowl/value.h"
#include "iowl/vdbench.h"

#define CMDLINE "command line"

int cli_push(char ***v, unsigned *n, char *s, struct iowl_err *err)
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

int cli_check_jobs(const struct iowl_run *run, struct iowl_err *err)
{
	const struct run_opts *o = &run->opts;
	unsigned clones = 0, w = iowl_warnings();

	for (unsigned j = 0; j < run->njobs; j++) {
		const struct job *job = &run->jobs[j];

		if (o->readonly && (job_does_dir(job, 1) || job_does_dir(job, 2)))
			return job_opt_err(job, OPT_ID_rw, err,
					   "job '%s' %s, and --readonly forbids writes and trims (as fio)",
					   job->o.name, job_does_dir(job, 1) ? "writes" : "trims");
		clones += job->o.numjobs;
	}
	for (unsigned j = 0, want = 0; j < run->njobs; j++) {
		const struct job *job = &run->jobs[j];
		unsigned c = job->o.clocksource;

		if (c && want && c != want)
			return job_opt_err(job, OPT_ID_clocksource, err,
					   "the run has one clock: job '%s' asks for another than the jobs before it (give clocksource in [global])",
					   job->o.name);
		if (c == CLOCK_SRC_CPU && !iowl_clock.tsc && !iowl_clock.pending)
			return job_opt_err(job, OPT_ID_clocksource, err,
					   "clocksource=cpu: this CPU has no invariant time-stamp counter iowl could calibrate (or IOWL_CLOCK=gettime is set); use clock_gettime");
		want = c ? c : want;
		if (c == CLOCK_SRC_GETTIME) /* before any worker starts */
			iowl_clock.tsc = iowl_clock.pending = false;
	}
	if (o->bandwidth_log && !o->parse_only && access(".", W_OK))
		return err_errno(err, errno,
				 "--bandwidth-log writes agg-read_bw.log, agg-write_bw.log and agg-trim_bw.log in the current directory");
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

/* The flag closest to a misspelt name, or NULL. */
static const char *flag_suggest(const char *name)
{
	const char *names[128];
	size_t n, k = 0;
	const struct cli_flag *t = cli_flag_table(&n);

	for (size_t i = 0; i < n && k < sizeof(names) / sizeof(names[0]); i++)
		if (!t[i].refused)
			names[k++] = t[i].name;
	return suggest_closest(name, names, k);
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
			best = flag_suggest(name);
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

/* --profile=NAME: its jobs join the command line's, with its options (profile.h). */
struct profile_ctx {
	struct iowl_run *run;
	struct ini_section **cur;
	unsigned argi;
	struct iowl_err *err;
};

static int profile_add(void *ctx, const char *key, const char *value)
{
	struct profile_ctx *c = ctx;

	return cmdline_option(c->run, key, value, c->cur, 0, c->argi, c->err);
}

/* Finds --profile=NAME and selects it; *argi: where, 0 for none. */
static int profile_find(int argc, char **argv, unsigned *argi, struct iowl_err *err)
{
	struct profile_args *a = profile_cur();

	*argi = 0;
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--profile", 9) || (argv[i][9] && argv[i][9] != '='))
			continue;
		if (*argi)
			return err_set(err, "--profile: one profile at a time");
		if (argv[i][9] != '=' || !argv[i][10])
			return err_set(err, "--profile needs a profile (--profile=tiobench)");
		*argi = (unsigned)i;
		if (profile_select(a, argv[i] + 10, err))
			return -EINVAL;
	}
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
	struct profile_args *prof = profile_cur();
	unsigned nopts = 0, prof_at, named = 0;
	int ret = profile_find(argc, argv, &prof_at, err);

	/*
	 * As fio: the command line's jobs and defaults come first, in the first job file's group
	 * (file index 0), wherever the files are among the options; then the job files.
	 */
	for (int i = 1; i < argc && !ret; i++) {
		if (argv[i][0] == '-') {
			const struct cli_flag *f = cli_flag_find(argv[i] + 2 * (argv[i][1] == '-'));

			i += f && (f->arg == CLI_ARG_NEXT || f->arg == CLI_ARG_NEXT_OPT) &&
			     i + 1 < argc && argv[i + 1][0] != '-';
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
		ret = cli_push(&run->opts.files, &run->opts.nfiles, argv[i], err);
		if (ret)
			return ret;
	}
	for (int i = 1; i < argc && !ret; i++) {
		const char *arg = argv[i], *eq;
		const struct cli_flag *f;
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
		if ((f = cli_flag_find(name))) {
			ret = cli_flag_apply(&run->opts, f, eq ? eq + 1 : NULL,
					     i + 1 < argc ? argv[i + 1] : NULL, &used_next, err);
			i += used_next;
		} else if (!strcmp(name, "profile") && prof_at) {
			nopts++; /* its jobs come after the loop */
		} else if (prof_at && profile_has_option(prof, name)) {
			ret = profile_set(prof, name, eq ? eq + 1 : NULL, err);
		} else {
			named += !strcmp(name, "name");
			ret = cmdline_option(run, name, eq ? eq + 1 : NULL, &cur, 0, (unsigned)i, err);
			nopts++;
		}
	}
	if (!ret && prof_at && named)
		ret = err_set(err,
			      "--profile=%s makes its own jobs: not with --name jobs beside it (run them apart)",
			      prof->name);
	/* act's table is one run's, of one process's workers */
	if (!ret && prof_at && !strcmp(prof->name, "act") &&
	    (run->opts.nsweeps || run->opts.ncurve || ranks_on()))
		ret = err_set(err,
			      "--profile=act: its table is of one run in one process: not with %s",
			      run->opts.nsweeps ? "--sweep" :
			      run->opts.ncurve	? "--curve" :
						  "MPI ranks (run it on each host)");
	if (!ret && prof_at) {
		struct profile_ctx c = { run, &cur, prof_at, err };

		ret = profile_jobs(prof, profile_add, &c, err);
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
		cli_usage(stderr);
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
