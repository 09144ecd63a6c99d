// SPDX-License-Identifier: MIT
/* The once-a-second status line on stderr, read from the workers' counters without stopping them. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "iowl/clock.h"
#include "iowl/progress.h"

bool progress_wanted(unsigned eta_mode)
{
	return eta_mode == ETA_ALWAYS || (eta_mode == ETA_AUTO && isatty(STDERR_FILENO));
}

void progress_init(struct progress *p, unsigned eta, uint64_t eta_interval, uint64_t eta_newline,
		   const struct job *jobs, unsigned njobs)
{
	memset(p, 0, sizeof(*p));
	p->on = progress_wanted(eta);
	p->interval_ns = eta_interval ? eta_interval : NSEC_PER_SEC;
	p->newline_ns = eta_newline;
	for (unsigned j = 0; j < njobs; j++) {
		const struct job_opts *o = &jobs[j].o;
		uint64_t t = o->startdelay.hi + o->ramp_time + o->runtime;

		if (!o->runtime) {
			p->planned_ns = 0;
			break;
		}
		if (t > p->planned_ns)
			p->planned_ns = t;
	}
}

static void fmt_rate(char *buf, size_t len, double v, const char *unit)
{
	static const char *const pre[] = { "", "k", "M", "G", "T" };
	unsigned i = 0;

	while (v >= 1000.0 && i < 4) {
		v /= (unit[0] == 'B') ? 1024.0 : 1000.0;
		i++;
	}
	snprintf(buf, len, "%.*f%s%s", v < 10 ? 1 : 0, v, unit[0] == 'B' ? (i ? pre[i] : "") : pre[i],
		 unit[0] == 'B' ? (i ? "iB/s" : "B/s") : "");
}

void progress_update(struct progress *p, const struct worker *const *w, unsigned n,
		     uint64_t start_ns)
{
	static const char dchar[DDIR_NR] = { 'r', 'w', 't' };
	uint64_t now = clock_ns(), ios[DDIR_NR] = { 0 }, bytes[DDIR_NR] = { 0 };
	unsigned running = 0;
	char line[256], a[32], b[32];
	size_t len = 0;
	double dt;

	if (!p->on || now < p->next_ns)
		return;
	for (unsigned i = 0; i < n; i++) {
		enum worker_state st = __atomic_load_n(&w[i]->state, __ATOMIC_ACQUIRE);

		running += st != WORKER_DONE;
		if (st == WORKER_SETUP)	/* its counters are being set up */
			continue;
		for (unsigned d = 0; d < DDIR_NR; d++) {
			ios[d] += __atomic_load_n(&w[i]->stats.dir[d].ios, __ATOMIC_RELAXED);
			bytes[d] += __atomic_load_n(&w[i]->stats.dir[d].bytes, __ATOMIC_RELAXED);
		}
	}
	dt = p->last_ns ? (double)(now - p->last_ns) / 1e9 : 0;
	len += (size_t)snprintf(line + len, sizeof(line) - len, "Jobs: %u: [%llus]", running,
				(unsigned long long)((now - start_ns) / NSEC_PER_SEC));
	for (unsigned d = 0; dt > 0 && d < DDIR_NR; d++) {
		if (ios[d] < p->last_ios[d] || (!ios[d] && !p->last_ios[d]))
			continue;
		fmt_rate(a, sizeof(a), (double)(bytes[d] - p->last_bytes[d]) / dt, "B");
		fmt_rate(b, sizeof(b), (double)(ios[d] - p->last_ios[d]) / dt, "");
		len += (size_t)snprintf(line + len, sizeof(line) - len, "[%c=%s, %s IOPS]",
					dchar[d], a, b);
	}
	if (p->planned_ns && now - start_ns < p->planned_ns) {
		uint64_t left = (p->planned_ns - (now - start_ns)) / NSEC_PER_SEC;

		snprintf(line + len, sizeof(line) - len, "[eta %02llum:%02llus]",
			 (unsigned long long)(left / 60), (unsigned long long)(left % 60));
	}
	fprintf(stderr, "\r%-79s", line);
	if (!p->newline_at)
		p->newline_at = now + p->newline_ns;
	if (p->newline_ns && now >= p->newline_at) { /* fio's --eta-newline: keep this one */
		fputc('\n', stderr);
		p->newline_at = now + p->newline_ns;
	}
	fflush(stderr);
	p->printed = true;
	p->last_ns = now;
	p->next_ns = now + p->interval_ns;
	memcpy(p->last_ios, ios, sizeof(ios));
	memcpy(p->last_bytes, bytes, sizeof(bytes));
}

void progress_end(struct progress *p)
{
	if (p->printed)
		fprintf(stderr, "\r%-79s\r", "");
	p->printed = false;
}
