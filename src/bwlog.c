// SPDX-License-Identifier: MIT
/* fio's --bandwidth-log: aggregate bandwidth lines every bwavgtime (include/iowl/bwlog.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/bwlog.h"
#include "iowl/clock.h"
#include "iowl/ddir.h"
#include "iowl/fiolog.h"

struct bwlog {
	FILE *f[DDIR_NR];
	uint64_t t0, period;
	uint64_t last_ns;	/* where the next line's window begins */
	uint64_t last[DDIR_NR]; /* the bytes done by then */
	bool mixed; /* unified_rw_reporting=mixed: every byte is a read's, as fio sums them */
};

static const char *const names[DDIR_NR] = { "agg-read_bw.log", "agg-write_bw.log",
					    "agg-trim_bw.log" };

int bwlog_open(struct bwlog **out, const struct job *jobs, unsigned njobs, uint64_t t0,
	       struct iowl_err *err)
{
	struct bwlog *b = calloc(1, sizeof(*b));

	*out = NULL;
	if (!b)
		return err_nomem(err, "out of memory");
	b->t0 = b->last_ns = t0;
	b->period = 500 * NSEC_PER_MSEC;
	for (unsigned j = 0; j < njobs; j++) {
		if (jobs[j].o.bwavgtime && (j == 0 || jobs[j].o.bwavgtime < b->period))
			b->period = jobs[j].o.bwavgtime;
		b->mixed = b->mixed || jobs[j].o.unified_rw == UNIFIED_MIXED;
	}
	for (unsigned d = 0; d < DDIR_NR; d++) {
		if (!(b->f[d] = fopen(names[d], "w"))) {
			int e = errno;

			bwlog_close(b);
			return err_errno(err, e, "--bandwidth-log: %s", names[d]);
		}
	}
	*out = b;
	return 0;
}

void bwlog_phase(struct bwlog *b, uint64_t now)
{
	if (!b)
		return;
	b->last_ns = now;
	memset(b->last, 0, sizeof(b->last));
}

void bwlog_poll(struct bwlog *b, const struct worker *const *w, unsigned n, uint64_t now)
{
	uint64_t bytes[DDIR_NR] = { 0 }, kib[DDIR_NR], ms;
	bool ramp = false;
	char line[FIOLOG_LINE_MAX];

	if (!b || now - b->last_ns <= b->period)
		return;
	for (unsigned i = 0; i < n; i++) {
		enum worker_state st = __atomic_load_n(&w[i]->state, __ATOMIC_ACQUIRE);

		if (st == WORKER_SETUP)	/* its counters are being set up */
			continue;
		ramp = ramp || st == WORKER_READY || st == WORKER_RAMP;
		for (unsigned d = 0; d < DDIR_NR; d++)
			bytes[d] += __atomic_load_n(&w[i]->stats.dir[d].bytes, __ATOMIC_RELAXED);
	}
	ms = (now - b->last_ns) / NSEC_PER_MSEC;
	for (unsigned d = 0; d < DDIR_NR; d++)
		ramp = ramp || bytes[d] < b->last[d]; /* a ramp_time ended: the counts restart */
	/* fio's calc_rate(): KiB/s of the window, in whole ms */
	for (unsigned d = 0; d < DDIR_NR; d++)
		kib[d] = ms ? (bytes[d] - b->last[d]) * 1000 / ms / 1024 : 0;
	for (unsigned d = 0; d < DDIR_NR && !ramp; d++) {
		struct fiolog_entry e = { .time_ms = (now - b->t0) / NSEC_PER_MSEC,
					  .ddir = d,
					  .value = kib[d] };

		if (b->mixed) /* every direction's rate is the read line's */
			e.value = d ? 0 : kib[DDIR_READ] + kib[DDIR_WRITE] + kib[DDIR_TRIM];
		fwrite(line, 1, fiolog_format(line, &e, false), b->f[d]);
	}
	memcpy(b->last, bytes, sizeof(bytes));
	b->last_ns = now;
}

void bwlog_close(struct bwlog *b)
{
	if (!b)
		return;
	for (unsigned d = 0; d < DDIR_NR; d++)
		if (b->f[d] && (ferror(b->f[d]) | fclose(b->f[d])))
			iowl_warn("--bandwidth-log: %s is incomplete: %s", names[d],
				  strerror(errno));
	free(b);
}
