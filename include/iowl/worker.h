/* SPDX-License-Identifier: MIT */
/* A worker: one thread running one clone of one job, with its own engine, buffers, generator and statistics. */
#ifndef IOWL_WORKER_H
#define IOWL_WORKER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "iowl/act.h"
#include "iowl/engine.h"
#include "iowl/err.h"
#include "iowl/fill.h"
#include "iowl/iomem.h"
#include "iowl/cachefill.h"
#include "iowl/cmdprio.h"
#include "iowl/iolog_read.h"
#include "iowl/job.h"
#include "iowl/snap.h"
#include "iowl/stats.h"
#include "iowl/iolog.h"
#include "iowl/target.h"

struct gen;
struct wlog;
struct verify;

/* What the run shares with its workers: read-mostly flags, each on its own cache line. */
struct run_ctl {
	_Alignas(64) int stop;		/* set by the run (signal, error, deadline); workers poll it */
	unsigned snap_req;		/* raised by the run to ask for interval snapshots (snap.h) */
	_Alignas(64) unsigned go;	/* set once every worker of the phase is ready (a futex) */
	unsigned ready;			/* workers that finished setup (atomic) */
	unsigned done;			/* workers that ended (atomic; a futex the run waits on) */
	uint64_t start_ns;		/* when the phase started */
	uint64_t fill_exact;		/* cache fill: exact up to this many blocks; 0: not counted */
	unsigned *job_done; /* per job (index): clones finished (atomic), for wait_for */
};

enum worker_state {
	WORKER_SETUP = 0,
	WORKER_READY,
	WORKER_RAMP,
	WORKER_RUNNING,
	WORKER_DONE,
};

/* rate, rate_iops and their schedule; rate_min and rate_iops_min (worker_rate.c) */
struct worker_rate {
	bool on;			/* rate or rate_iops: IOs follow a schedule */
	uint64_t next[DDIR_NR];		/* when the next IO of each direction is due */
	uint64_t check_ns;		/* rate_min / rate_iops_min: next check; UINT64_MAX: none */
	/* rate_min / rate_iops_min: each direction's figures when its current cycle began */
	uint64_t cycle_ns[DDIR_NR], cycle_ios[DDIR_NR], cycle_bytes[DDIR_NR];
	unsigned short_dir;		/* 0, or 1 + the direction that fell below its minimum */
	uint64_t short_got;		/* what it did: bytes/s or IOs/s */
	uint64_t short_ns;		/* over this long */
};

/* thinktime stalls (worker_think.c) */
struct worker_think {
	uint64_t ns;			/* thinktime, 0: none */
	uint64_t blocks;		/* thinktime_blocks, 0: stalls by thinktime_iotime only */
	uint64_t last;			/* the count thinktime_blocks applies to, at the last stall */
	uint64_t io_at;			/* thinktime_iotime: when the next stall is due; UINT64_MAX: none */
};

/* worker_ramp: cumulative figures at the start of the current step (worker_steps.c) */
struct worker_steps {
	unsigned cur;
	uint64_t next_ns;		/* UINT64_MAX: no more steps */
	uint64_t start_ns;
	uint64_t ios, bytes;
	struct lat_stat lat;
	struct hist *hist, *scratch;
};

struct flow;

struct worker {
	/* Hot: touched per IO by this thread only. */
	struct engine eng;
	struct gen *gen;
	uint16_t *free_idx;
	struct io_u **pend;		/* queued, not yet committed: pend[0..pending) */
	unsigned nfree;
	unsigned qd;	 /* IOs in flight at most: the depth, or latency_target's */
	bool lat_limits; /* max_latency, latency_target or act: each completion is checked */
	unsigned inflight;
	unsigned pending;		/* queued, not yet committed */
	struct io_u **requeue;		/* IOs to issue again: refused (BUSY), short, EAGAIN or EINTR */
	unsigned rq_head, nrequeue;	/* a FIFO of depth slots: requeue[rq_head], nrequeue of them */
	struct verify *verify;		/* NULL unless the job verifies */
	struct fill fill;		/* write buffer contents (without verify) */
	struct cmdprio *cmdprio;	/* per-IO priorities; NULL: none */
	uint16_t ioprio;	     /* the thread's own (prio, prioclass): an IO's with ioprio 0 */
	bool prio_lat;		     /* per-priority figures of lat (lat_percentiles), not clat */
	const struct replay *replay; /* read_iolog: the log this clone replays, else NULL */
	uint64_t rpos;		     /* its next IO */
	const struct replay_io
		*rio;		 /* the IOs at hand: the whole log, or read_iolog_chunked's chunk */
	uint64_t rio_n, rio_pos; /* how many of them, the next */
	struct replay_reader *rreader;	   /* read_iolog_chunked: the log's reader */
	uint64_t replay_delay_ns;	   /* the delay before the IO next_io() just took */
	uint64_t replay_last, replay_late; /* the last issue; how much the last delay overslept */
	uint64_t dedupe_base,
		dedupe_total;		/* dedupe_global: the share (fill_share), set by the run */
	struct io_u *blocked;		/* verify: waits for an overlapping IO in flight */
	bool tw_pending;		/* trimwrite: the write of trim tw comes next */
	struct io_u tw;
	bool verifying;			/* in the verification after the writes */
	uint64_t progress_ns;		/* the last completion, or the submission that found none in flight */
	bool error_stop;		/* an error ended the workload */
	uint64_t issued_ios;
	uint64_t loop_bytes;		/* bytes issued in the current loop */
	uint64_t loop_ios;		/* IOs issued in the current loop (number_ios) */
	bool loop_midway;		/* the current loop began inside a pass (where the last stopped) */
	uint64_t writes;		/* writes issued (fsync, fdatasync: a sync at each multiple) */
	bool last_was_sync;		/* the last IO generated was an fsync or fdatasync */
	uint32_t last_write_file;
	uint64_t deadline_ns;		/* UINT64_MAX: none */
	uint64_t ramp_end_ns;		/* 0: not ramping */
	uint64_t next_sample_ns;
	uint64_t last_done_ns;		/* completion time of the previous inline IO, 0: none */
	uint64_t last_ns;		/* async engines: the latest clock reading (commit or reap) */
	bool committed;			/* last_ns is a commit's, and nothing was reaped since */
	struct worker_rate rate;
	struct worker_think think;
	uint64_t done_ios;		/* reads, writes and trims completed */
	bool async;			/* the engine queues (not ENGINE_F_SYNC, depth > 1) */
	bool moves_data;		/* not the null engine: read buffers hold data */
	bool eof_empty;	 /* create_on_open, queueing engine: a read past the end is 0 bytes */
	uint64_t sample_start_ns, iops_start_ns; /* where the bw and iops windows began */
	uint64_t next_bw_ns, next_iops_ns;	 /* when they end */
	uint64_t bw_avg_ns, iops_avg_ns; /* bwavgtime, iopsavgtime (or log_avg_msec when shorter) */
	uint64_t sample_ios[DDIR_NR], sample_bytes[DDIR_NR];
	unsigned loop;
	struct worker_steps steps;
	bool no_more;			/* the workload is exhausted: drain */
	bool log_io;			/* fio logs with a line per IO */
	bool m_slat, m_clat, m_lat;	/* measured: not switched off by disable_slat/clat/lat */
	uint64_t wlog_next;		/* when the averaged logs are next due; UINT64_MAX: never */
	unsigned snap_seen;		/* the last snapshot request answered */
	struct worker_stats stats;
	struct cfill cfill;		/* distinct blocks; cfill.base NULL: not counted */
	struct snap snap;		/* published on request; read by the run's main thread */
	struct wlog *wlog;		/* fio logs (write_*_log), NULL: none */
	/*
	 * Set while the worker is inside an engine call that may block (worker_seize()): since
	 * when (odd, never 0), WORKER_SEIZED once the run took the worker's figures; 0 otherwise.
	 */
	uint64_t sys_ns;
	const struct io_u *sys_io; /* the IO of that call (sync engines), NULL: a batch */
	struct iomem mem;	   /* the IO buffers' memory (eng.buf_base is in it) */
	struct lat_target *lt;	   /* latency_target's search, NULL: none */
	struct act_count act;	   /* --profile=act: its hourly latency counts */
	bool lt_drain;		   /* the depth went down: no new IO until the queue is empty */
	bool lt_final;		   /* the depth is found: reset the statistics once it is empty */
	struct flow *flow;	   /* flow=: the phase's flow of this job's flow_id, NULL: none */
	struct file_lock **flocks; /* lockfile=: each file's lock, NULL: none */
	uint64_t flow_mine;	   /* this clone's IOs counted in it */
	/* Cold. */
	const struct job *job;
	unsigned clone;
	unsigned number;		/* thread number in the run (seeds, names) */
	struct run_ctl *ctl;
	struct target_plan plan;
	uint64_t *sfr_lo, *sfr_hi;	/* sync_file_range: each file's range written since the last */
	bool layout_here;		/* create_serialize=0: the worker lays out its own files */
	FILE *layout_info;		/* where it says so (NULL: nowhere) */
	bool stuck;			/* io_timeout passed with IOs in flight: they are left */
	bool seized;			/* the run took the figures of a worker blocked in a call */
	uint64_t seized_since;		/* since when it was blocked (sys_ns then) */
	struct worker *left_next;	/* worker_free() keeps stuck workers in a list */
	int pass_err;			/* -errno of the files' renewal between loops or (openfiles) an open (err holds why) */
	struct iolog_w iolog;		/* write_iolog; fd -1: none */
	int state;			/* enum worker_state, read by the progress line */
	int halt;			/* set by the run (steady state): end like runtime does */
	int status;			/* 0, or -errno of a setup or engine failure */
	struct iowl_err err;
	uint64_t start_ns, end_ns;
	pthread_t tid;
} __attribute__((aligned(64)));

/* Allocates a worker for clone number clone of job, with its plan already resolved.  Returns NULL on ENOMEM. */
struct worker *worker_new(const struct job *job, unsigned clone, unsigned number,
			  struct run_ctl *ctl);

/* The thread body: setup, wait for go, run, drain, account CPU time.  arg is a struct worker. */
void *worker_main(void *arg);

void worker_free(struct worker *w);

#define WORKER_SEIZED UINT64_MAX

/*
 * Called by the run's main thread: when the worker has been blocked in an engine call for at
 * least min_age ns, takes its figures as they stand (the worker, should the call ever return,
 * exits without touching them again), closes them as the end of the run would and marks the
 * worker done.  Returns true when the worker is seized (now or before).
 */
bool worker_seize(struct worker *w, uint64_t now, uint64_t min_age);

/*
 * The io_timeout watchdog for calls the worker cannot time itself (a synchronous engine blocked
 * in pread, a commit that does not return): seizes a worker blocked in one for longer than its
 * job's io_timeout and gives it that error.  Returns true when it did.
 */
bool worker_watchdog(struct worker *w, uint64_t now);

#endif
