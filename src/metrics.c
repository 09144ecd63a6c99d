// SPDX-License-Identifier: MIT
/*
 * Live metrics (include/iowl/metrics.h).  The main thread adds every interval's figures to
 * per-unit totals (monotonic counters, cumulative histograms) and renders both formats into
 * fresh buffers, then swaps them in under the lock; the HTTP thread (libmicrohttpd's own)
 * copies the current buffer under the same lock into its response.  A slow or hostile client
 * costs the HTTP thread at most one bounded connection, never the run.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "iowl/clock.h"
#include "iowl/ddir.h"
#include "iowl/diskstats.h"
#include "iowl/hist.h"
#include "iowl/job.h"
#include "iowl/metrics.h"
#include "iowl/signals.h"

#define CONN_LIMIT 32		/* connections at once */
#define CONN_PER_IP 16
#define CONN_TIMEOUT_S 5	/* an idle or slow connection is closed after this */
#define CONN_MEMORY 16384	/* per connection: the request line and headers must fit */

/* Upper bounds of the latency histogram's buckets, ns (Prometheus' le=, in seconds). */
static const uint64_t le_ns[] = {
	100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 500000,
	1000000, 2500000, 5000000, 10000000, 25000000, 50000000, 100000000, 250000000,
	500000000, 1000000000, 2500000000ULL, 5000000000ULL, 10000000000ULL,
};
#define NLE (sizeof(le_ns) / sizeof(le_ns[0]))

/* A reported unit's totals since the run started (all its phases and runs). */
struct mx_unit {
	char *name;
	unsigned clone;
	char rw[16], engine[32];
	uint64_t bs, iodepth;
	uint64_t ios[DDIR_NR], bytes[DDIR_NR], errors[DDIR_NR];
	uint64_t clat_n[DDIR_NR];
	double clat_sum[3];		/* seconds */
	uint64_t *le[DDIR_NR];		/* per bucket (not cumulative), NULL: no histogram */
	unsigned inflight;
	struct cfill_stats cfill;
};

struct mx_dev {
	char name[DISK_NAME_LEN];
	struct disk_iostat io;
	uint64_t in_flight;
};

struct metrics {
	struct metrics_opts o;
	struct MHD_Daemon *d;
	pthread_mutex_t lock;		/* guards text, om */
	char *text, *om;
	size_t text_len, om_len;
	struct mx_unit *u;
	unsigned nu;
	struct mx_dev *dev;
	unsigned ndev;
	unsigned bin_le[HIST_NR];	/* bucket of each histogram bin (NLE: +Inf) */
	unsigned intervals;
	bool done;
	ivl_watch_fn next;
	void *next_ctx;
};

int metrics_parse_listen(const char *v, struct metrics_opts *o, struct iowl_err *err)
{
	const char *colon = strrchr(v, ':'), *p = colon ? colon + 1 : v;
	char addr[64], *end;
	unsigned long port;
	struct in6_addr a6;
	struct in_addr a4;

	errno = 0;
	port = strtoul(p, &end, 10);
	if (!*p || *end || errno || port < 1 || port > 65535 || *p == '-' || *p == '+')
		return err_set(err, "--metrics=%s: give a port from 1 to 65535, optionally after an address (--metrics=9100, --metrics=127.0.0.1:9100, --metrics=[::1]:9100)",
			       v);
	free(o->addr);
	o->addr = NULL;
	o->port = (unsigned)port;
	if (!colon)
		return 0;
	if (colon - v >= (long)sizeof(addr))
		return err_set(err, "--metrics=%s: the address is too long", v);
	snprintf(addr, sizeof(addr), "%.*s", (int)(colon - v), v);
	if (addr[0] == '[' && addr[strlen(addr) - 1] == ']') {
		memmove(addr, addr + 1, strlen(addr));
		addr[strlen(addr) - 1] = 0;
		if (inet_pton(AF_INET6, addr, &a6) != 1)
			return err_set(err, "--metrics=%s: '%s' is not an IPv6 address", v, addr);
	} else if (inet_pton(AF_INET, addr, &a4) != 1) {
		return err_set(err, "--metrics=%s: '%s' is not a numeric IPv4 address (IPv6: [::1]:PORT)",
			       v, addr);
	}
	o->addr = strdup(addr);
	return o->addr ? 0 : err_nomem(err, "out of memory");
}

/* A label value with Prometheus' escapes (backslash, double quote, newline) into buf. */
static const char *esc(const char *s, char *buf, size_t len)
{
	size_t j = 0;

	for (; *s && j + 3 < len; s++) {
		if (*s == '\\' || *s == '"' || *s == '\n')
			buf[j++] = '\\';
		buf[j++] = *s == '\n' ? 'n' : *s;
	}
	buf[j] = 0;
	return buf;
}

/* The family header: HELP and TYPE; OpenMetrics names a counter without its _total. */
static void family(FILE *f, bool om, const char *name, const char *type, const char *help)
{
	size_t n = strlen(name);
	int base = (int)n;

	if (om && !strcmp(type, "counter") && n > 6 && !strcmp(name + n - 6, "_total"))
		base = (int)n - 6;
	if (om && !strcmp(type, "info") && n > 5 && !strcmp(name + n - 5, "_info"))
		base = (int)n - 5;
	if (!om && !strcmp(type, "info"))
		type = "gauge";
	fprintf(f, "# HELP %.*s %s\n# TYPE %.*s %s\n", base, name, help, base, name, type);
}

static void unit_labels(const struct mx_unit *u, char *buf, size_t len)
{
	char e[256];

	snprintf(buf, len, "job=\"%s\",clone=\"%u\"", esc(u->name, e, sizeof(e)), u->clone);
}

/* One counter family with a series per unit and direction, from the unit's uint64_t[DDIR_NR] at off. */
static void per_dir_counter(const struct metrics *m, FILE *f, bool om, const char *name,
			    const char *help, size_t off)
{
	char l[320];

	family(f, om, name, "counter", help);
	for (unsigned i = 0; i < m->nu; i++) {
		const uint64_t *v = (const uint64_t *)((const char *)&m->u[i] + off);

		unit_labels(&m->u[i], l, sizeof(l));
		for (unsigned d = 0; d < DDIR_NR; d++)
			fprintf(f, "%s{%s,direction=\"%s\"} %llu\n", name, l, ddir_name(d),
				(unsigned long long)v[d]);
	}
}

static void render_units(struct metrics *m, FILE *f, bool om)
{
	char l[320];

	per_dir_counter(m, f, om, "iowl_io_total", "IOs completed, by job and direction.",
			offsetof(struct mx_unit, ios));
	per_dir_counter(m, f, om, "iowl_io_bytes_total", "Bytes transferred by completed IOs.",
			offsetof(struct mx_unit, bytes));
	per_dir_counter(m, f, om, "iowl_io_errors_total", "IOs that completed with an error.",
			offsetof(struct mx_unit, errors));
	family(f, om, "iowl_latency_seconds", "histogram",
	       "Completion latency (submission to completion), from iowl's histogram (bins within 0.4 %).");
	for (unsigned i = 0; i < m->nu; i++)
		for (unsigned d = 0; d < DDIR_NR; d++) {
			const struct mx_unit *u = &m->u[i];
			uint64_t cum = 0;

			unit_labels(u, l, sizeof(l));
			for (unsigned b = 0; u->le[d] && b < NLE; b++) {
				cum += u->le[d][b];
				fprintf(f,
					"iowl_latency_seconds_bucket{%s,direction=\"%s\",le=\"%g\"} %llu\n",
					l, ddir_name(d), (double)le_ns[b] / 1e9,
					(unsigned long long)cum);
			}
			fprintf(f,
				"iowl_latency_seconds_bucket{%s,direction=\"%s\",le=\"+Inf\"} %llu\n",
				l, ddir_name(d), (unsigned long long)u->clat_n[d]);
			fprintf(f, "iowl_latency_seconds_sum{%s,direction=\"%s\"} %.9f\n", l,
				ddir_name(d), u->clat_sum[d]);
			fprintf(f, "iowl_latency_seconds_count{%s,direction=\"%s\"} %llu\n", l,
				ddir_name(d), (unsigned long long)u->clat_n[d]);
		}
	family(f, om, "iowl_inflight", "gauge", "IOs submitted and not yet completed, at the last interval.");
	for (unsigned i = 0; i < m->nu; i++) {
		unit_labels(&m->u[i], l, sizeof(l));
		fprintf(f, "iowl_inflight{%s} %u\n", l, m->u[i].inflight);
	}
	for (unsigned k = 0; k < 2; k++) {
		static const char *const names[2] = { "iowl_cache_fill_blocks", "iowl_cache_region_blocks" };
		static const char *const helps[2] = {
			"Distinct blocks of the region touched so far (--cache-fill; estimated above --cache-fill-exact).",
			"Blocks in the job's region (--cache-fill).",
		};
		bool head = false;

		for (unsigned i = 0; i < m->nu; i++) {
			if (!m->u[i].cfill.unit)
				continue;
			if (!head)
				family(f, om, names[k], "gauge", helps[k]);
			head = true;
			unit_labels(&m->u[i], l, sizeof(l));
			fprintf(f, "%s{%s} %llu\n", names[k], l,
				(unsigned long long)(k ? m->u[i].cfill.blocks : m->u[i].cfill.distinct));
		}
	}
	family(f, om, "iowl_job_info", "info", "A job's settings (value 1).");
	for (unsigned i = 0; i < m->nu; i++) {
		char e[64];

		unit_labels(&m->u[i], l, sizeof(l));
		fprintf(f, "iowl_job_info{%s,rw=\"%s\",bs=\"%llu\",ioengine=\"%s\",iodepth=\"%llu\"} 1\n",
			l, m->u[i].rw, (unsigned long long)m->u[i].bs, esc(m->u[i].engine, e, sizeof(e)),
			(unsigned long long)m->u[i].iodepth);
	}
}

static void render_devs(struct metrics *m, FILE *f, bool om)
{
	static const struct {
		const char *name, *help;
		size_t off;
		double scale;
	} g[] = {
#define IO(field) offsetof(struct disk_iostat, field)
		{ "iowl_device_reads_per_second", "Reads completed per second (iostat r/s).", IO(rd.ios_s), 1 },
		{ "iowl_device_writes_per_second", "Writes completed per second (iostat w/s).", IO(wr.ios_s), 1 },
		{ "iowl_device_read_bytes_per_second", "Bytes read per second (iostat rkB/s).", IO(rd.kb_s), 1024 },
		{ "iowl_device_write_bytes_per_second", "Bytes written per second (iostat wkB/s).", IO(wr.kb_s), 1024 },
		{ "iowl_device_read_await_seconds", "Mean read time, queue included (iostat r_await).", IO(rd.await), 1e-3 },
		{ "iowl_device_write_await_seconds", "Mean write time, queue included (iostat w_await).", IO(wr.await), 1e-3 },
		{ "iowl_device_queue_size", "Mean requests in the queue (iostat aqu-sz).", IO(aqu_sz), 1 },
		{ "iowl_device_util_ratio", "Share of the interval with a request in flight (iostat %util / 100).", IO(util), 1e-2 },
#undef IO
	};

	if (!m->ndev)
		return;
	for (size_t k = 0; k < sizeof(g) / sizeof(g[0]); k++) {
		family(f, om, g[k].name, "gauge", g[k].help);
		for (unsigned i = 0; i < m->ndev; i++)
			fprintf(f, "%s{device=\"%s\"} %.9g\n", g[k].name, m->dev[i].name,
				*(const double *)((const char *)&m->dev[i].io + g[k].off) * g[k].scale);
	}
	family(f, om, "iowl_device_in_flight", "gauge", "Requests in flight at the last sample.");
	for (unsigned i = 0; i < m->ndev; i++)
		fprintf(f, "iowl_device_in_flight{device=\"%s\"} %llu\n", m->dev[i].name,
			(unsigned long long)m->dev[i].in_flight);
}

char *metrics_render(struct metrics *m, bool om, size_t *len)
{
	static const char *const phases[] = { "setup", "running", "done" };
	unsigned phase = m->done ? 2 : m->intervals ? 1 : 0;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	render_units(m, f, om);
	render_devs(m, f, om);
	family(f, om, "iowl_run_phase", "gauge",
	       "Where the run is: 1 for the current phase (setup, running, done), 0 for the others.");
	for (unsigned k = 0; k < 3; k++)
		fprintf(f, "iowl_run_phase{phase=\"%s\"} %u\n", phases[k], k == phase);
	family(f, om, "iowl_intervals_total", "counter", "Intervals closed (the figures' updates).");
	fprintf(f, "iowl_intervals_total %u\n", m->intervals);
	if (om)
		fputs("# EOF\n", f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Writes DIR/iowl.prom through a temporary file in DIR and rename(2): readers see whole files. */
static void write_textfile(struct metrics *m, const char *text, size_t len)
{
	char tmp[4096], dst[4096];
	int fd;

	snprintf(dst, sizeof(dst), "%s/%s", m->o.textfile_dir, METRICS_FILE);
	snprintf(tmp, sizeof(tmp), "%s/.%s.%d.tmp", m->o.textfile_dir, METRICS_FILE, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, text, len) != (ssize_t)len || close(fd) || rename(tmp, dst))
		unlink(tmp);
}

/* Renders both formats and swaps them in. */
static void publish(struct metrics *m)
{
	size_t tl = 0, ol = 0;
	char *t = metrics_render(m, false, &tl), *o = m->d ? metrics_render(m, true, &ol) : NULL;
	char *old_t, *old_o;

	if (!t)
		return;
	if (m->o.textfile_dir)
		write_textfile(m, t, tl);
	if (!m->d) {
		free(t);
		return;
	}
	pthread_mutex_lock(&m->lock);
	old_t = m->text;
	old_o = m->om;
	m->text = t;
	m->text_len = tl;
	m->om = o;
	m->om_len = o ? ol : 0;
	pthread_mutex_unlock(&m->lock);
	free(old_t);
	free(old_o);
}

static void rw_name(unsigned rw, char *buf, size_t len)
{
	const char *base = (rw & RW_F_READ) && (rw & RW_F_WRITE) ? "rw" :
			   (rw & RW_F_TRIM) && (rw & RW_F_WRITE) ? "trimwrite" :
			   rw & RW_F_WRITE ? "write" : rw & RW_F_TRIM ? "trim" : "read";

	snprintf(buf, len, "%s%s", rw & RW_F_RANDOM && strcmp(base, "trimwrite") ? "rand" : "", base);
}

static struct mx_unit *unit_of(struct metrics *m, const struct ivl_row *r)
{
	struct mx_unit *u;

	for (unsigned i = 0; i < m->nu; i++)
		if (m->u[i].clone == r->clone && !strcmp(m->u[i].name, r->job->o.name))
			return &m->u[i];
	u = realloc(m->u, (m->nu + 1) * sizeof(*u));
	if (!u)
		return NULL;
	m->u = u;
	u = &m->u[m->nu];
	memset(u, 0, sizeof(*u));
	if (!(u->name = strdup(r->job->o.name)))
		return NULL;
	m->nu++;
	u->clone = r->clone;
	rw_name(r->job->o.rw, u->rw, sizeof(u->rw));
	snprintf(u->engine, sizeof(u->engine), "%s", r->job->o.ioengine ? r->job->o.ioengine : "");
	u->bs = r->job->o.bs[0];
	u->iodepth = r->job->o.iodepth;
	return u;
}

static void add_row(struct metrics *m, const struct ivl_row *r)
{
	struct mx_unit *u = r->pt ? unit_of(m, r) : NULL;

	if (!u)
		return;
	u->inflight = r->pt->inflight;
	if (r->pt->cfill.unit)
		u->cfill = r->pt->cfill;
	for (unsigned d = 0; d < DDIR_NR; d++) {
		const struct ivl_dir *x = &r->pt->dir[d];

		u->ios[d] += x->ios;
		u->bytes[d] += x->bytes;
		u->errors[d] += x->errors;
		u->clat_n[d] += x->clat.n;
		u->clat_sum[d] += (double)x->clat.sum / 1e9;
		if (!r->hist[d])
			continue;
		if (!u->le[d] && !(u->le[d] = calloc(NLE + 1, sizeof(uint64_t))))
			continue;
		for (unsigned b = 0; b < HIST_NR; b++)
			u->le[d][m->bin_le[b]] += r->hist[d]->count[b];
	}
}

static void add_devs(struct metrics *m, const struct disk_set *s)
{
	struct mx_dev *d;
	unsigned n = 0;

	if (!s || !s->n || s->nsamples < 2)
		return;
	if (m->ndev < s->n) {
		if (!(d = realloc(m->dev, s->n * sizeof(*d))))
			return;
		m->dev = d;
	}
	for (unsigned i = 0; i < s->n; i++) {
		if (!s->devs[i].is_target)
			continue;
		d = &m->dev[n++];
		snprintf(d->name, sizeof(d->name), "%s", s->devs[i].name);
		disk_calc_iostat(&s->devs[i].prev, &s->devs[i].last, &d->io);
		d->in_flight = s->devs[i].last.f[DISK_IN_FLIGHT];
	}
	m->ndev = n;
}

void metrics_watch(void *ctx, const struct ivl_view *v, bool last)
{
	struct metrics *m = ctx;

	if (v) {
		/* the last call carries only the sliver folded into the last point */
		for (unsigned i = 0; i < v->nrows; i++)
			add_row(m, &v->rows[i]);
		add_devs(m, v->disks);
		if (!last)
			m->intervals++;
		publish(m);
	}
	if (m->next)
		m->next(m->next_ctx, v, last);
}

void metrics_chain(struct metrics *m, ivl_watch_fn fn, void *ctx)
{
	m->next = fn;
	m->next_ctx = ctx;
}

/* The scraper asks for OpenMetrics (Prometheus does, first, with q=1). */
static bool wants_om(struct MHD_Connection *c)
{
	const char *a = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	const char *p = a ? strstr(a, "application/openmetrics-text") : NULL;
	const char *q;

	if (!p)
		return false;
	q = strstr(p, "q=");
	/* its own parameters run up to the next comma: q=0 refuses it */
	return !(q && (!strchr(p, ',') || q < strchr(p, ',')) && strtod(q + 2, NULL) <= 0);
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *type,
			     const char *body, size_t len)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_len, void **req)
{
	static const char nf[] = "not found: iowl serves only GET /metrics\n";
	static const char na[] = "method not allowed: iowl serves only GET /metrics\n";
	struct metrics *m = cls;
	enum MHD_Result ret;
	bool om;

	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", na, sizeof(na) - 1);
	if (strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND, "text/plain", nf, sizeof(nf) - 1);
	om = wants_om(c);
	pthread_mutex_lock(&m->lock);
	if (om && m->om)
		ret = reply(c, MHD_HTTP_OK, "application/openmetrics-text; version=1.0.0; charset=utf-8",
			    m->om, m->om_len);
	else
		ret = reply(c, MHD_HTTP_OK, "text/plain; version=0.0.4; charset=utf-8",
			    m->text ? m->text : "", m->text ? m->text_len : 0);
	pthread_mutex_unlock(&m->lock);
	return ret;
}

/* libmicrohttpd's messages (a refused connection, a header too large) are not iowl's errors. */
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
}

static int start_http(struct metrics *m, struct iowl_err *err)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6, .sin6_port = htons((uint16_t)m->o.port) };
	struct sockaddr_in s4 = { .sin_family = AF_INET, .sin_port = htons((uint16_t)m->o.port) };
	const char *addr = m->o.addr ? m->o.addr : "127.0.0.1";
	bool v6 = strchr(addr, ':') != NULL;
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG |
			 MHD_USE_AUTO | (v6 ? MHD_USE_IPv6 : 0);

	if (v6 ? inet_pton(AF_INET6, addr, &s6.sin6_addr) != 1 : inet_pton(AF_INET, addr, &s4.sin_addr) != 1)
		return err_set(err, "--metrics: '%s' is not an address", addr);
	m->d = MHD_start_daemon(flags, (uint16_t)m->o.port, NULL, NULL, handle, m,
				MHD_OPTION_SOCK_ADDR, v6 ? (struct sockaddr *)&s6 : (struct sockaddr *)&s4,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned)CONN_LIMIT,
				MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)CONN_PER_IP,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)CONN_TIMEOUT_S,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONN_MEMORY,
				MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
				MHD_OPTION_END);
	if (!m->d)
		return err_set(err, "--metrics: cannot serve on %s%s%s:%u (%s; is the port taken?)",
			       v6 ? "[" : "", addr, v6 ? "]" : "", m->o.port,
			       errno ? strerror(errno) : "libmicrohttpd refused");
	return 0;
}

static int check_dir(const char *dir, struct iowl_err *err)
{
	struct stat st;

	if (stat(dir, &st))
		return err_set(err, "--metrics-textfile=%s: %s (give an existing directory)", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return err_set(err, "--metrics-textfile=%s: not a directory", dir);
	if (access(dir, W_OK | X_OK))
		return err_errno(err, errno, "--metrics-textfile=%s", dir);
	return 0;
}

struct metrics *metrics_start(const struct metrics_opts *o, struct iowl_err *err)
{
	struct metrics *m = calloc(1, sizeof(*m));
	unsigned b = 0;

	if (!m) {
		err_nomem(err, "out of memory");
		return NULL;
	}
	m->o = *o;
	pthread_mutex_init(&m->lock, NULL);
	/* a bin counts in the first bucket that holds its whole range (bins are 0.4 % wide) */
	for (unsigned i = 0; i < HIST_NR; i++) {
		while (b < NLE && hist_bin_high(i) > le_ns[b])
			b++;
		m->bin_le[i] = b;
	}
	if ((o->textfile_dir && check_dir(o->textfile_dir, err)) || (o->port && start_http(m, err))) {
		pthread_mutex_destroy(&m->lock);
		free(m);
		return NULL;
	}
	publish(m);
	return m;
}

void metrics_end(struct metrics *m)
{
	uint64_t left;

	if (!m)
		return;
	m->done = true;
	publish(m);
	/* the results are out before the wait: a script reads them while the endpoint lingers */
	fflush(stdout);
	fflush(stderr);
	for (left = m->d ? m->o.linger_ns : 0; left && !run_signal_seen();) {
		uint64_t nap = left < 100000000ULL ? left : 100000000ULL;

		clock_nap(nap);
		left -= nap;
	}
	if (m->d)
		MHD_stop_daemon(m->d);
	for (unsigned i = 0; i < m->nu; i++) {
		free(m->u[i].name);
		for (unsigned d = 0; d < DDIR_NR; d++)
			free(m->u[i].le[d]);
	}
	free(m->u);
	free(m->dev);
	free(m->text);
	free(m->om);
	pthread_mutex_destroy(&m->lock);
	free(m);
}
