// SPDX-License-Identifier: MIT
/*
 * The HTML report: one self-contained page (inline SVG, no scripts, no fonts, no network) drawn
 * from iowl's or fio's JSON: a summary, the diagnostics, then one section per run and job.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <jansson.h>

#include "iowl/ddir.h"
#include "iowl/report.h"
#include "iowl/version.h"
#include "report/html_int.h"

static const char css[] =
	"body{font-family:sans-serif;margin:1.5em auto;max-width:820px;color:#222}"
	"h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:2em}"
	"h3{font-size:1em}table{border-collapse:collapse;font-size:0.85em;margin:0.5em 0}"
	"td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
	"td.l,th.l{text-align:left}figure{margin:1em 0;page-break-inside:avoid}"
	"figcaption{font-size:0.85em;color:#444;margin-top:0.2em}"
	"code{font-size:0.9em;word-break:break-all}svg{max-width:100%;height:auto}"
	".diag li{margin:0.3em 0}";

static void *keep(struct html *h, void *p)
{
	void **m;

	if (!p) {
		h->oom = true;
		return NULL;
	}
	if (h->nmem == h->capmem) {
		size_t cap = h->capmem ? 2 * h->capmem : 64;

		m = realloc(h->mem, cap * sizeof(*m));
		if (!m) {
			free(p);
			h->oom = true;
			return NULL;
		}
		h->mem = m;
		h->capmem = cap;
	}
	h->mem[h->nmem++] = p;
	return p;
}

double *html_doubles(struct html *h, size_t n)
{
	return keep(h, calloc(n ? n : 1, sizeof(double)));
}

char *html_strdup(struct html *h, const char *s)
{
	return keep(h, strdup(s ? s : ""));
}

char *html_printf(struct html *h, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return keep(h, s);
}

const char *html_plot(struct html *h, struct plot *p, const char *caption)
{
	char *id;

	if (!plot_has_data(p))
		return NULL;	/* nothing empty is drawn */
	id = html_printf(h, "plot%u-%s", ++h->nplots, p->kind ? p->kind : "plot");
	if (!id)
		return NULL;
	p->id = id;
	sb_puts(&h->body, "<figure>\n");
	plot_svg(&h->body, p);
	if (caption && *caption) {
		sb_puts(&h->body, "<figcaption>");
		sb_esc(&h->body, caption);
		sb_puts(&h->body, "</figcaption>\n");
	}
	sb_puts(&h->body, "</figure>\n");
	return id;
}

double jnum(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *jstr_get(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

const char *lat_unit(double max_ns, double *div)
{
	if (max_ns < 10e3) {
		*div = 1;
		return "ns";
	}
	if (max_ns < 10e6) {
		*div = 1e3;
		return "µs";
	}
	if (max_ns < 10e9) {
		*div = 1e6;
		return "ms";
	}
	*div = 1e9;
	return "s";
}

/* What a JSON document is. */
enum doc_kind {
	DOC_UNKNOWN,
	DOC_RUN,		/* iowl's or fio's results: "jobs" and "fio version" */
	DOC_LINE,		/* one --status-interval / --iostat JSON line */
	DOC_SWEEP,
	DOC_CURVE,
	DOC_ANALYSIS,
};

static enum doc_kind doc_kind(const json_t *d)
{
	if (!json_is_object(d))
		return DOC_UNKNOWN;
	if (json_is_array(json_object_get(d, "jobs")) && json_object_get(d, "fio version"))
		return DOC_RUN;
	if (json_object_get(d, "interval") && json_object_get(d, "t_ms"))
		return DOC_LINE;
	if (json_is_array(json_object_get(d, "points")))
		return DOC_SWEEP;
	if (json_is_array(json_object_get(d, "curve")))
		return DOC_CURVE;
	if (json_is_array(json_object_get(d, "analysis")))
		return DOC_ANALYSIS;
	return DOC_UNKNOWN;
}

/* A figure for the summary table: "1.23k", "-" when absent. */
static void cell_num(struct sbuf *b, double v)
{
	char s[32];

	if (!isfinite(v)) {
		sb_puts(b, "<td>-</td>");
		return;
	}
	plot_fmt_num(s, sizeof(s), v);
	sb_printf(b, "<td>%s</td>", s);
}

static void cell_lat(struct sbuf *b, double ns)
{
	double div;
	const char *u;

	if (!isfinite(ns) || ns <= 0) {
		sb_puts(b, "<td>-</td>");
		return;
	}
	u = lat_unit(ns, &div);
	sb_printf(b, "<td>%.4g %s</td>", ns / div, u);
}

/* The value of the percentile nearest pct in a fio "percentile" object, NAN when there is none. */
static double pct_value(const json_t *lat, double pct)
{
	const json_t *pm = json_object_get(lat, "percentile");
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)pm, k, v)
		if (fabs(strtod(k, NULL) - pct) < 1e-6)
			return json_number_value(v);
	return NAN;
}

/* The completion latency of a direction, else its total latency (fio's lat_percentiles). */
static const json_t *dir_lat(const json_t *dir)
{
	const json_t *c = json_object_get(dir, "clat_ns");

	if (json_object_get(c, "percentile") || jnum(c, "N") > 0)
		return c;
	return json_object_get(dir, "lat_ns");
}

/* One row per job and direction with IO: the headline figures. */
static void summary_run(struct sbuf *b, const char *src, const json_t *doc)
{
	size_t i;
	json_t *job;

	json_array_foreach(json_object_get(doc, "jobs"), i, job) {
		for (unsigned d = 0; d < DDIR_NR; d++) {
			const json_t *dir = json_object_get(job, ddir_name(d)), *lat = dir_lat(dir);

			if (!(jnum(dir, "total_ios") > 0))
				continue;
			sb_puts(b, "<tr><td class=\"l\">");
			sb_esc(b, src);
			sb_puts(b, "</td><td class=\"l\">");
			sb_esc(b, jstr_get(job, "jobname"));
			sb_printf(b, "</td><td class=\"l\">%s</td>", ddir_name(d));
			cell_num(b, jnum(dir, "iops"));
			cell_num(b, jnum(dir, "bw_bytes") / 1048576);
			cell_lat(b, jnum(lat, "mean"));
			cell_lat(b, pct_value(lat, 50));
			cell_lat(b, pct_value(lat, 99));
			cell_lat(b, pct_value(lat, 99.9));
			cell_num(b, jnum(job, "error") ? jnum(job, "error") :
				    jnum(json_object_get(job, "iowl"), "errors"));
			sb_puts(b, "</tr>\n");
		}
	}
}

struct input_docs {
	const char *name;
	json_t *const *docs;
	size_t n;
};

/* The last run document of a file: fio's --status-interval prints one cumulative document each time. */
static const json_t *last_run(const struct input_docs *in)
{
	for (size_t k = in->n; k-- > 0;)
		if (doc_kind(in->docs[k]) == DOC_RUN)
			return in->docs[k];
	return NULL;
}

static void kv_row(struct sbuf *b, const char *k, const char *v)
{
	if (!v || !*v)
		return;
	sb_printf(b, "<tr><th class=\"l\">%s</th><td class=\"l\"><code>", k);
	sb_esc(b, v);
	sb_puts(b, "</code></td></tr>\n");
}

static void summary_head(struct sbuf *b, const struct input_docs *in, unsigned n,
			 const struct report_meta *m)
{
	sb_puts(b, "<section id=\"summary\">\n<table class=\"meta\">\n");
	kv_row(b, "command", m && m->command ? m->command : NULL);
	for (unsigned i = 0; i < n; i++) {
		const json_t *run = last_run(&in[i]), *iowl = json_object_get(run, "iowl");
		const json_t *d0 = in[i].n ? in[i].docs[0] : NULL;
		const char *ver = jstr_get(run, "fio version");
		char host[512] = "";
		const json_t *hj = json_object_get(iowl, "host");

		kv_row(b, "results", in[i].name);
		if (!(m && m->command))
			kv_row(b, "command", jstr_get(iowl, "command"));
		kv_row(b, "version", ver ? ver : jstr_get(d0, "iowl version"));
		kv_row(b, "time", jstr_get(run, "time"));
		if (hj)
			snprintf(host, sizeof(host), "%s, Linux %s %s, %.0f CPUs",
				 jstr_get(hj, "hostname") ? jstr_get(hj, "hostname") : "?",
				 jstr_get(hj, "kernel") ? jstr_get(hj, "kernel") : "?",
				 jstr_get(hj, "machine") ? jstr_get(hj, "machine") : "",
				 jnum(hj, "cpus"));
		kv_row(b, "machine", host);
	}
	kv_row(b, "report", "iowl-" IOWL_VERSION);
	sb_puts(b, "</table>\n");
}

static void summary_table(struct sbuf *b, const struct input_docs *in, unsigned n)
{
	struct sbuf rows = { 0 };

	for (unsigned i = 0; i < n; i++)
		if (last_run(&in[i]))
			summary_run(&rows, in[i].name, last_run(&in[i]));
	if (rows.len && !rows.oom) {
		sb_puts(b, "<table class=\"headline\">\n<tr><th class=\"l\">results</th><th class=\"l\">job</th>"
			"<th class=\"l\">dir</th><th>IOPS</th><th>MiB/s</th><th>lat mean</th><th>p50</th>"
			"<th>p99</th><th>p99.9</th><th>errors</th></tr>\n");
		sb_puts(b, rows.s);
		sb_puts(b, "</table>\n");
	}
	sb_release(&rows);
	sb_puts(b, "</section>\n");
}

/* Which plot shows what a diagnostic is about. */
static const char *diag_target(const struct html *h, const char *kind)
{
	const char *t = NULL;

	if (kind && (!strcmp(kind, "page_cache") || !strcmp(kind, "device_split")))
		t = !strcmp(kind, "device_split") && h->first_iostat[0] ? h->first_iostat : h->first_hist;
	else if (kind && (!strcmp(kind, "queue_depth") || !strcmp(kind, "sync_iodepth")) &&
		 h->first_iostat[0])
		t = h->first_iostat;
	else if (kind && !strcmp(kind, "saturated"))
		t = h->first_tput;
	if (!t || !t[0])
		t = h->first_lat[0] ? h->first_lat : h->first_tput;
	return t[0] ? t : NULL;
}

static void diagnostics(struct sbuf *b, const struct html *h, const struct input_docs *in,
			unsigned n)
{
	bool any = false;

	for (unsigned i = 0; i < n; i++) {
		size_t k;
		json_t *d;

		json_array_foreach(json_object_get(json_object_get(last_run(&in[i]), "iowl"),
						   "diagnostics"), k, d) {
			const char *kind = jstr_get(d, "kind"), *t = diag_target(h, kind);

			if (!any)
				sb_puts(b, "<section id=\"diagnostics\" class=\"diag\">\n<h2>Diagnostics</h2>\n<ul>\n");
			any = true;
			sb_puts(b, "<li>");
			if (n > 1) {
				sb_esc(b, in[i].name);
				sb_puts(b, ": ");
			}
			sb_printf(b, "<b>%s</b>: ", kind ? kind : "?");
			sb_esc(b, jstr_get(d, "message"));
			if (t)
				sb_printf(b, " (<a href=\"#%s\">plot</a>)", t);
			sb_puts(b, "</li>\n");
		}
	}
	if (any)
		sb_puts(b, "</ul>\n</section>\n");
}

/* The JSON lines of a file that are --status-interval / --iostat intervals. */
static json_t **lines_of(const struct input_docs *in, size_t *n)
{
	json_t **v = calloc(in->n ? in->n : 1, sizeof(*v));

	*n = 0;
	for (size_t k = 0; v && k < in->n; k++)
		if (doc_kind(in->docs[k]) == DOC_LINE)
			v[(*n)++] = in->docs[k];
	return v;
}

static void sections(struct html *h, const struct input_docs *in, unsigned n)
{
	const json_t **runs = calloc(n ? n : 1, sizeof(*runs));
	const char **names = calloc(n ? n : 1, sizeof(*names));
	size_t nruns = 0;

	for (unsigned i = 0; i < n; i++) {
		const json_t *run = last_run(&in[i]);
		size_t nl = 0;
		json_t **lines = lines_of(&in[i], &nl);

		if (run || nl)
			html_run(h, in[i].name, run, lines, nl);
		free(lines);
		for (size_t k = 0; k < in[i].n; k++) {
			switch (doc_kind(in[i].docs[k])) {
			case DOC_SWEEP:
				html_sweep(h, in[i].name, in[i].docs[k]);
				break;
			case DOC_CURVE:
				html_curve(h, in[i].name, in[i].docs[k]);
				break;
			case DOC_ANALYSIS:
				html_analysis(h, in[i].name, in[i].docs[k]);
				break;
			default:
				break;
			}
		}
		if (run && runs && names) {
			runs[nruns] = run;
			names[nruns++] = in[i].name;
		}
	}
	if (nruns > 1)
		html_compare(h, runs, names, nruns);
	free(runs);
	free(names);
}

static int report_inputs(FILE *f, const struct input_docs *in, unsigned n,
			 const struct report_meta *m)
{
	struct html h = { 0 };
	struct sbuf head = { 0 };
	int ret = 0;

	sections(&h, in, n);
	sb_puts(&head, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
		"<meta name=\"generator\" content=\"iowl-" IOWL_VERSION "\"/>\n<title>iowl report");
	if (n == 1) {
		sb_puts(&head, ": ");
		sb_esc(&head, in[0].name);
	}
	sb_printf(&head, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>iowl report</h1>\n", css);
	summary_head(&head, in, n, m);
	summary_table(&head, in, n);
	diagnostics(&head, &h, in, n);
	if (head.oom || h.body.oom || h.oom)
		ret = -ENOMEM;
	else if (fputs(head.s, f) == EOF || (h.body.len && fputs(h.body.s, f) == EOF) ||
		 fputs("</body>\n</html>\n", f) == EOF || fflush(f))
		ret = -EIO;
	sb_release(&head);
	sb_release(&h.body);
	for (size_t i = 0; i < h.nmem; i++)
		free(h.mem[i]);
	free(h.mem);
	return ret;
}

int report_html(FILE *f, const char *name, struct json_t *const *docs, size_t n,
		const struct report_meta *m)
{
	struct input_docs in = { name, docs, n };

	return report_inputs(f, &in, 1, m);
}

int report_html_file(const char *path, const char *name, struct json_t *const *docs, size_t n,
		     const struct report_meta *m)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -errno;
	ret = report_html(f, name, docs, n, m);
	if (fclose(f) && !ret)
		ret = -EIO;
	return ret;
}

int report_html_page(const char *path, const char *name, const char *command, json_t *doc,
		     json_t *extra)
{
	struct report_meta m = { command };
	json_t *docs[2] = { doc, extra };
	int ret;

	ret = doc ? report_html_file(path, name, docs, extra ? 2 : 1, &m) : -ENOMEM;
	if (ret)
		fprintf(stderr, "iowl: --report '%s': %s\n", path, strerror(-ret));
	json_decref(extra);
	json_decref(doc);
	return ret;
}

void report_host(struct report_host *hst)
{
	struct utsname u;

	memset(hst, 0, sizeof(*hst));
	if (!uname(&u)) {
		snprintf(hst->hostname, sizeof(hst->hostname), "%s", u.nodename);
		snprintf(hst->kernel, sizeof(hst->kernel), "%s", u.release);
		snprintf(hst->machine, sizeof(hst->machine), "%s", u.machine);
	}
	hst->cpus = sysconf(_SC_NPROCESSORS_ONLN);
}

/* ---- iowl report FILE.json ... -o FILE.html ---- */

/* Reads every JSON document of a file (one, or one per line, or fio's concatenated ones). */
static int load_file(const char *path, json_t ***docs, size_t *n)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, off = 0;
	unsigned line = 1;
	int ret = 0;

	*docs = NULL;
	*n = 0;
	if (!f) {
		fprintf(stderr, "iowl report: '%s': %s\n", path, strerror(errno));
		return -errno;
	}
	{
		FILE *m = open_memstream(&buf, &len);
		char chunk[65536];
		size_t r;

		while (m && (r = fread(chunk, 1, sizeof(chunk), f)) > 0)
			fwrite(chunk, 1, r, m);
		if (!m || fclose(m) || ferror(f)) {
			fclose(f);
			free(buf);
			fprintf(stderr, "iowl report: '%s': read error\n", path);
			return -EIO;
		}
	}
	fclose(f);
	while (off < len && !ret) {
		json_error_t e;
		json_t *d, **nd;

		if (buf[off] == '\n')
			line++;
		if (buf[off] == ' ' || buf[off] == '\t' || buf[off] == '\n' || buf[off] == '\r') {
			off++;
			continue;
		}
		if (buf[off] != '{') {	/* fio's notes before its JSON: skip the line */
			while (off < len && buf[off] != '\n')
				off++;
			continue;
		}
		d = json_loadb(buf + off, len - off, JSON_DISABLE_EOF_CHECK, &e);
		if (!d) {
			fprintf(stderr, "iowl report: %s:%u: not valid JSON: %s\n", path,
				line + (unsigned)(e.line > 0 ? e.line - 1 : 0), e.text);
			ret = -EINVAL;
			break;
		}
		if (doc_kind(d) == DOC_UNKNOWN) {
			fprintf(stderr, "iowl report: %s:%u: neither iowl's nor fio's results (no \"jobs\", \"points\", \"curve\", \"analysis\" or interval line)\n",
				path, line);
			json_decref(d);
			ret = -EINVAL;
			break;
		}
		nd = realloc(*docs, (*n + 1) * sizeof(*nd));
		if (!nd) {
			json_decref(d);
			ret = -ENOMEM;
			break;
		}
		*docs = nd;
		(*docs)[(*n)++] = d;
		for (size_t k = 0; k < (size_t)e.position; k++)
			line += buf[off + k] == '\n';
		off += e.position;
	}
	free(buf);
	if (!ret && !*n) {
		fprintf(stderr, "iowl report: '%s': no JSON document in it\n", path);
		ret = -EINVAL;
	}
	return ret;
}

static void usage(FILE *f)
{
	fputs("usage: iowl report RESULTS.json [MORE.json ...] -o FILE.html\n"
	      "\n"
	      "Draws one self-contained HTML page from iowl's JSON (a run, --status-interval JSON\n"
	      "lines, --sweep, --curve, --analyze) or fio 3.x's json and json+ output; several\n"
	      "files are shown side by side.  See iowl(1), REPORT.\n", f);
}

int report_html_main(int argc, char **argv)
{
	struct input_docs *in = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*in));
	const char *out = NULL;
	unsigned n = 0;
	int status = 1;
	FILE *f;

	for (int i = 1; in && i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			status = 0;
			goto out;
		}
		if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (i + 1 == argc) {
				fprintf(stderr, "iowl report: %s needs a file name (-o FILE.html)\n", a);
				goto out;
			}
			out = argv[++i];
		} else if (!strncmp(a, "--output=", 9)) {
			out = a + 9;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "iowl report: '%s' is not an option (iowl report --help)\n", a);
			goto out;
		} else {
			in[n].name = a;
			n++;
		}
	}
	if (!in) {
		fprintf(stderr, "iowl report: out of memory\n");
		return 1;
	}
	if (!n || !out || !*out) {
		usage(stderr);
		fprintf(stderr, "iowl report: %s\n", !n ? "no results file given" : "no output file given (-o FILE.html)");
		goto out;
	}
	for (unsigned i = 0; i < n; i++) {
		json_t **d;
		size_t nd;

		if (load_file(in[i].name, &d, &nd))
			goto out;
		in[i].docs = d;
		in[i].n = nd;
	}
	f = fopen(out, "w");
	if (!f) {
		fprintf(stderr, "iowl report: '%s': %s\n", out, strerror(errno));
		goto out;
	}
	if (report_inputs(f, in, n, NULL) | fclose(f))
		fprintf(stderr, "iowl report: '%s': could not write the report\n", out);
	else
		status = 0;
out:
	for (unsigned i = 0; in && i < n; i++) {
		for (size_t k = 0; k < in[i].n; k++)
			json_decref(in[i].docs[k]);
		free((void *)in[i].docs);
	}
	free(in);
	return status;
}
