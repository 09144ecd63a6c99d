/* SPDX-License-Identifier: MIT */
/* Per-worker statistics: written only by their worker on the IO path, merged after the run. */
#ifndef IOWL_STATS_H
#define IOWL_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "iowl/engine.h"
#include "iowl/hist.h"
#include "iowl/lat.h"

#define STATS_BUCKETS 7

/*
 * Completion latency per IO priority, as fio 3.33 reports it when a job's IOs have several
 * (cmdprio_*): one slot per ioprio value, made before the run (no allocation per IO); the
 * total latency instead with lat_percentiles, as fio.  Slots are found by class and level.
 */
#define STATS_PRIO_MAX 32
struct prio_stats {
	unsigned n;
	uint8_t slot[STATS_PRIO_MAX];	/* stats_prio_key() -> slot + 1; 0: none */
	uint16_t ioprio[STATS_PRIO_MAX];
	struct lat_stat lat[STATS_PRIO_MAX];
	struct hist *hist[STATS_PRIO_MAX];	/* with clat_percentiles or lat_percentiles */
};

static inline unsigned stats_prio_key(uint16_t ioprio)
{
	return ((ioprio >> 13) & 3U) << 3 | (ioprio & 7U);
}

/* Figures of one direction. */
struct dir_stats {
	uint64_t ios;			/* completed IOs (each short IO counts once) */
	uint64_t bytes;
	uint64_t short_ios;
	uint64_t errors;
	/*
	 * The zero-read share (stats_zero_share()), in weights: the first ZERO_ALL reads weigh 1
	 * each and have their first, middle and last words looked at (zero_cand of them with those
	 * words zero), the candidates scanned whole while among the first 1024 reads (weight 1),
	 * then one in 64 drawn at random (weight 64).  Past ZERO_ALL reads only one read in about
	 * 64, at random gaps, is looked at at all, weighing the gap before it (zero_gap counts it
	 * down, zero_w is its weight).  zero_checked sums the looked-at reads' weights, zero_scanned
	 * the scanned ones', zero_reads those found all zeros.
	 */
	uint64_t zero_checked, zero_cand, zero_scanned, zero_reads;
	uint32_t zero_gap, zero_w;
	struct lat_stat slat, clat, lat;
	struct hist *slat_hist;		/* NULL unless slat_percentiles */
	struct hist *clat_hist;		/* NULL unless clat_percentiles */
	struct hist *lat_hist;		/* NULL unless lat_percentiles */
	struct lat_stat sched;		/* rate-limited jobs: completion - intended start */
	struct hist *sched_hist;	/* with sched, when clat_percentiles */
	struct lat_stat bw_samples;	/* KiB/s, one per sample period */
	struct lat_stat iops_samples;	/* IOs/s, one per sample period */
	struct prio_stats *prios;	/* NULL unless the job's IOs have several priorities */
};

/* Adds a priority slot to d (allocating d->prios).  Returns 0 or -ENOMEM. */
int stats_prio_slot(struct dir_stats *d, uint16_t ioprio, bool hist);

/* One IO's latency under its priority (a value without a slot is not counted). */
static inline void stats_prio_add(struct prio_stats *p, uint16_t ioprio, uint64_t ns)
{
	unsigned s = p->slot[stats_prio_key(ioprio)];

	if (!s)
		return;
	lat_add(&p->lat[s - 1], ns);
	if (p->hist[s - 1])
		hist_add(p->hist[s - 1], ns);
}

/* The first IO error a worker saw. */
struct io_error {
	int err;			/* positive errno; 0: none */
	uint64_t offset;
	uint32_t len;
	uint8_t op;			/* enum ddir */
	char path[512];			/* a copy: the plan naming the file ends with its worker */
};

/* What one stream of a job did. */
struct stream_stats {
	uint64_t ios[DDIR_NR];
	uint64_t bytes[DDIR_NR];
	struct lat_stat clat[DDIR_NR];
	struct hist *
		clat_hist[DDIR_NR]; /* for the directions the stream issues, with clat_percentiles */
};

/* One step of a worker ramp (worker_ramp=): what the workers did while step+1 of them ran. */
struct step_stats {
	uint64_t ios, bytes;
	struct lat_stat clat;		/* mean and count exact; min and max are the run's so far */
	struct hist *clat_hist;		/* NULL unless clat_percentiles */
	unsigned workers;		/* workers that contributed */
	uint64_t ns;			/* how long the step lasted */
};

/* Distinct blocks touched (cachefill.h), cumulative: ramp_time included, as a cache sees it. */
struct cfill_stats {
	uint64_t distinct;		/* blocks touched (estimated when estimated) */
	uint64_t blocks;		/* in the regions */
	uint64_t ios;			/* IOs counted */
	uint32_t unit;			/* block size, 0: not counted */
	bool estimated;			/* a HyperLogLog estimate, not an exact count */
};

struct worker_stats {
	struct dir_stats dir[DDIR_NR];
	struct lat_stat sync_lat;	/* fsync / fdatasync */
	uint64_t depth[STATS_BUCKETS];	/* IOs by queue depth at submission (fio iodepth_level) */
	uint64_t submit[STATS_BUCKETS];	/* submit calls by batch size */
	uint64_t complete[STATS_BUCKETS];	/* reap calls by batch size */
	uint64_t runtime_ns;		/* measured time, ramp excluded */
	uint64_t clones_runtime_ns;	/* merged clones' runtimes added up (fio's total_run_time); 0: one */
	uint64_t read_runtime_ns;	/* the reads' time where it differs (verify read-back), 0: runtime_ns */
	uint64_t usr_ns, sys_ns;
	unsigned latency_depth; /* latency_target: the depth it ended at; 0: none */
	uint64_t ctx, majf, minf;
	uint64_t think_stalls, think_ns, think_spin_ns;	/* thinktime: stalls, their time, spun part */
	uint64_t errors;
	struct io_error first_error;
	struct stream_stats *streams;	/* nstreams entries, NULL for a job without streams */
	unsigned nstreams;
	struct step_stats *steps;	/* nsteps entries with worker_ramp, else NULL */
	unsigned nsteps;
	struct cfill_stats cfill;		/* not reset by stats_reset() */
	struct engine_setup setup;		/* what the engine set up (not reset) */
};

/* Adds a clone's distinct blocks to a unit's (clones count their own regions' blocks). */
void stats_cfill_add(struct cfill_stats *dst, const struct cfill_stats *src);

/*
 * Sets up empty statistics, allocating the histograms asked for in the directions of dirs (bit d:
 * direction d; the others never get a sample).  Returns 0 or -ENOMEM.
 */
int stats_init(struct worker_stats *s, unsigned dirs, bool slat_hist, bool clat_hist,
	       bool lat_hist);

/* Adds per-stream counters for n streams.  Returns 0 or -ENOMEM. */
int stats_streams_init(struct worker_stats *s, unsigned n);

/* Gives stream i a completion-latency histogram for direction d.  Returns 0 or -ENOMEM. */
int stats_stream_hist(struct worker_stats *s, unsigned i, unsigned d);

/* Adds n worker-ramp steps (with histograms when hist).  Returns 0 or -ENOMEM. */
int stats_steps_init(struct worker_stats *s, unsigned n, bool hist);

/* Zeroes the figures (at the end of ramp_time) and keeps the histograms allocated. */
void stats_reset(struct worker_stats *s);

/* Adds src into dst; dst's histograms must exist where src's do (or are allocated).  Returns 0 or -ENOMEM. */
int stats_merge(struct worker_stats *dst, const struct worker_stats *src);

/*
 * Moves src into dst, which holds nothing yet (stats_init() without histograms): the same as
 * stats_merge() into it without copying a histogram.  src is left empty.
 */
void stats_take(struct worker_stats *dst, struct worker_stats *src);

/* Frees the histograms. */
void stats_release(struct worker_stats *s);

/*
 * fio's unified_rw_reporting: out gets src's directions summed into out->dir[0] (latencies and
 * histograms merged, the bw and iops samples added up as fio does, the runtime the longest).
 * Returns 0 or -ENOMEM; stats_release(out) frees it.
 */
int stats_mixed(struct worker_stats *out, const struct worker_stats *src);

/* The same in place: s's directions become one, dir[0] (unified_rw_reporting=mixed). */
int stats_fold_mixed(struct worker_stats *s);

/*
 * The share of d's reads (0 to 1) whose data came back all zeros: the candidates' share times the
 * weighted share of the scanned candidates found all zeros; -1 when no read was looked at.
 */
double stats_zero_share(const struct dir_stats *d);

/* Counts a read of len bytes at offset whose data is buf for the zero-read share. */
void stats_count_zero(struct dir_stats *ds, const void *buf, uint32_t len, uint64_t offset);

/* The measured time of direction d: the job's, or for reads the time of the verify read-back too. */
uint64_t stats_dir_runtime(const struct worker_stats *s, unsigned d);
/* The run time of all the clones merged into s, each counted for as long as it ran. */
uint64_t stats_clones_runtime(const struct worker_stats *s);

#endif
