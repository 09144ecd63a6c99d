// SPDX-License-Identifier: MIT
/* Interval snapshots of a worker's cumulative figures (see include/iowl/snap.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/hist.h"
#include "iowl/snap.h"
#include "iowl/stats.h"

int snap_hists(struct snap *s, const struct worker_stats *st)
{
	for (unsigned d = 0; d < DDIR_NR; d++)
		if (st->dir[d].clat_hist && !s->clat_hist[d] && !(s->clat_hist[d] = hist_alloc()))
			return -ENOMEM;
	return 0;
}

int snap_init(struct snap *s, const struct worker_stats *st)
{
	memset(s, 0, sizeof(*s));
	if (snap_hists(s, st)) {
		snap_release(s);
		return -ENOMEM;
	}
	return 0;
}

static void dir_zero(struct snap_dir *sd)
{
	sd->ios = sd->bytes = sd->errors = 0;
	lat_init(&sd->slat);
	lat_init(&sd->clat);
	lat_init(&sd->lat);
}

void snap_dirs_take(struct snap_dir dir[DDIR_NR], const struct worker_stats *st)
{
	for (unsigned d = 0; d < DDIR_NR; d++) {
		const struct dir_stats *ds = &st->dir[d];

		dir[d].ios = ds->ios;
		dir[d].bytes = ds->bytes;
		dir[d].errors = ds->errors;
		dir[d].slat = ds->slat;
		dir[d].clat = ds->clat;
		dir[d].lat = ds->lat;
	}
}

void snap_take(struct snap *s, const struct worker_stats *st, bool running)
{
	/* A histogram is copied or cleared only when its count moved: see snap_copy(). */
	s->cfill = st->cfill;
	for (unsigned d = 0; d < DDIR_NR; d++) {
		if (!running) {
			if (s->clat_hist[d] && s->dir[d].ios)
				hist_clear(s->clat_hist[d]);
			dir_zero(&s->dir[d]);
		} else if (s->clat_hist[d] && st->dir[d].clat_hist && s->dir[d].ios != st->dir[d].ios) {
			hist_copy(s->clat_hist[d], st->dir[d].clat_hist);
		}
	}
	s->running = running;
	if (running)
		snap_dirs_take(s->dir, st);
}

void snap_sub(struct snap *dst, const struct snap *a, const struct snap *b)
{
	dst->running = a->running;
	for (unsigned d = 0; d < DDIR_NR; d++) {
		dst->dir[d].ios = a->dir[d].ios - b->dir[d].ios;
		dst->dir[d].bytes = a->dir[d].bytes - b->dir[d].bytes;
		dst->dir[d].errors = a->dir[d].errors - b->dir[d].errors;
		lat_sub(&dst->dir[d].slat, &a->dir[d].slat, &b->dir[d].slat);
		lat_sub(&dst->dir[d].clat, &a->dir[d].clat, &b->dir[d].clat);
		lat_sub(&dst->dir[d].lat, &a->dir[d].lat, &b->dir[d].lat);
		if (dst->clat_hist[d] && a->clat_hist[d] && b->clat_hist[d])
			hist_sub(dst->clat_hist[d], a->clat_hist[d], b->clat_hist[d]);
	}
}

void snap_copy(struct snap *dst, const struct snap *src)
{
	/* Snapshots with the same count of d have the same histogram of d (zero in ramp_time). */
	for (unsigned d = 0; d < DDIR_NR; d++)
		if (dst->clat_hist[d] && src->clat_hist[d] && dst->dir[d].ios != src->dir[d].ios)
			hist_copy(dst->clat_hist[d], src->clat_hist[d]);
	dst->running = src->running;
	dst->inflight = src->inflight;
	dst->cfill = src->cfill;
	memcpy(dst->dir, src->dir, sizeof(dst->dir));
}

void snap_release(struct snap *s)
{
	for (unsigned d = 0; d < DDIR_NR; d++)
		hist_free(s->clat_hist[d]);
	memset(s, 0, sizeof(*s));
}
