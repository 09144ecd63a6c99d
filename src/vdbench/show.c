// SPDX-License-Identifier: MIT
/* --vdbench-show: the iowl job file (and command line) that runs a vdbench parameter file, with where each line comes from. */
#include <stdio.h>
#include <string.h>

#include "vdbench/vdbench_int.h"

static void command(const struct vdb_step *s, FILE *f, const char *name)
{
	fputs(";   iowl", f);
	for (unsigned k = 0; k < s->nsweeps; k++) {
		fprintf(f, " --sweep %s=", s->sweeps[k].key);
		for (unsigned i = 0; i < s->sweeps[k].nvalues; i++)
			fprintf(f, "%s%s", i ? "," : "", s->sweeps[k].values[i]);
	}
	if (s->ncurve) {
		fputs(" --curve=", f);
		for (unsigned i = 0; i < s->ncurve; i++)
			fprintf(f, "%s%g", i ? "," : "", s->curve[i]);
	}
	fprintf(f, " %s\n", name);
}

static void step(const struct vdb *v, const struct vdb_step *s, unsigned n, FILE *f)
{
	char name[64];

	snprintf(name, sizeof(name), v->nsteps > 1 ? "step%u.ini" : "job.ini", n + 1);
	if (v->nsteps > 1)
		fprintf(f, "; ---- step %u of %u: a job file of its own (%s) ----\n", n + 1, v->nsteps,
			name);
	fprintf(f, "; Run with:\n");
	command(s, f, name);
	for (unsigned k = 0; k < s->nsweeps; k++)
		fprintf(f, "; --sweep %s: the rd's for%s= loop\n", s->sweeps[k].key, s->sweep_var[k]);
	if (s->ncurve)
		fprintf(f, "; --curve: iorate=curve (a maximum run, then these percentages of it)\n");
	if (s->pause)
		fprintf(f, "; then pause %.0f s (pause=) before the next step\n", s->pause);
	for (unsigned j = 0; j < s->njobs; j++) {
		const struct vdb_job *job = &s->jobs[j];

		fprintf(f, "\n; %s:%u\n[%s]\n", job->pos.file, job->pos.line, job->name);
		for (unsigned i = 0; i < job->n; i++) {
			const struct vdb_entry *e = &job->e[i];
			int w;

			if (!strcmp(e->key, "stream"))
				fputc('\n', f);
			w = fprintf(f, "%s=%s", e->key, e->value);
			fprintf(f, "%*s; %s:%u%s%s\n", w < 40 ? 40 - w : 1, "", e->pos.file,
				e->pos.line, e->note ? ": " : "", e->note ? e->note : "");
		}
	}
}

void vdb_show(const struct vdb *v, FILE *f)
{
	fprintf(f, "; The vdbench parameter file %s as iowl jobs (iowl --vdbench-show).\n", v->file);
	fprintf(f, "; Each rd is a phase (stonewall); each SD a job of one weighted stream per workload.\n");
	for (unsigned i = 0; i < v->nsteps; i++) {
		if (i)
			fputc('\n', f);
		step(v, &v->steps[i], i, f);
	}
}
