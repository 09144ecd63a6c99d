/* SPDX-License-Identifier: MIT */
/* The IO engine interface: one ops table per engine, one engine instance per worker thread. */
#ifndef IOWL_ENGINE_H
#define IOWL_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "iowl/ddir.h"
#include "iowl/err.h"

/*
 * One IO in flight.  The worker owns the array (engine->ios, engine->depth entries) and fills
 * op, file, offset, len and buf before queue(); the engine sets res when the IO completes.
 */
struct io_u {
	uint64_t offset;	/* byte offset in the file */
	uint64_t start_ns;	/* when the worker generated the IO (start of lat) */
	uint64_t issue_ns;	/* when it was handed to the kernel (end of slat, start of clat) */
	void *buf;		/* depth buffers, each engine->buf_size bytes, aligned */
	uint32_t len;		/* bytes asked for */
	uint32_t file;		/* index into engine->files */
	int32_t res;		/* bytes transferred or -errno, as the kernel reports it */
	uint16_t index;		/* position in engine->ios; stable for the engine's own tables */
	uint8_t op;		/* enum ddir */
	uint8_t flags;		/* worker-private flags */
	uint16_t stream;	/* worker-private: which stream generated it */
	uint16_t ioprio;	/* the IO's priority (cmdprio), 0: the thread's */
	uint32_t seq;		/* worker-private */
	uint64_t sched_ns;	/* worker-private: when a rate schedule meant it to start */
};

/* One target file or block device as the worker opened it. */
struct target_file {
	const char *path;	/* borrowed from the job */
	int fd;
	bool is_bdev;
	unsigned lbs;		/* logical block size (direct IO alignment) */
	uint64_t real_size;	/* size of the file or device */
	uint64_t start;		/* the job's region in this file: [start, start + size) */
	uint64_t size;
	uint64_t cut;		/* a block device's region cut at its end: the size asked, else 0 */
};

/* Engine settings the worker copies from the job options. */
struct engine_params {
	bool direct;
	bool fixedbufs;		/* io_uring: register the buffers */
	bool registerfiles;	/* io_uring: register the file descriptors */
	bool sqthread_poll;	/* io_uring: kernel submission polling thread */
	int sqthread_poll_cpu;	/* -1: not pinned */
	bool hipri;		/* io_uring: polled completions (IOPOLL); pvsync2: RWF_HIPRI */
	unsigned hipri_percentage; /* pvsync2: share of IOs with RWF_HIPRI, 0..100 */
	bool uncached;		/* pvsync2: RWF_DONTCACHE on buffered IO */
	bool nowait;		/* RWF_NOWAIT: pvsync2, libaio, io_uring */
	bool userspace_reap;	/* libaio: a reap of min 0 reads the completion ring, no syscall */
	bool thp;		/* mmap: madvise(MADV_HUGEPAGE) on each mapping */
	int nonvectored; /* io_uring: -1 READ/WRITE where the kernel has them, 0 READV/WRITEV */
	unsigned force_async;	/* io_uring: IOSQE_ASYNC on every Nth IO (0: none) */
	unsigned batch_submit;	/* iodepth_batch_submit (>= 1) */
	unsigned batch_complete_min;
	unsigned batch_complete_max;
};

/* What an engine set up, for the report; set stays false for the engines that report nothing. */
struct engine_setup {
	bool set;
	bool uring_ring_fd; /* io_uring: the ring's descriptor is registered */
	bool uring_fixedbufs, uring_files;
	bool uring_vectored;  /* io_uring: READV/WRITEV instead of READ/WRITE */
	uint32_t uring_flags; /* io_uring: the IORING_SETUP_* flags the ring was created with */
};

/* Returned by queue(). */
enum engine_queue_ret {
	ENGINE_COMPLETED = 0,	/* done inside queue(); io->res is set */
	ENGINE_QUEUED = 1,	/* accepted; completes through getevents() after commit() */
	ENGINE_BUSY = 2,	/* no room now: commit, reap, then queue it again */
};

enum engine_flags {
	ENGINE_F_SYNC = 1U << 0,	/* queue() always completes: commit/getevents unused */
	ENGINE_F_NODATA = 1U << 1,	/* moves no data (null): no files need opening */
	ENGINE_F_INSTANT = 1U << 2,	/* commit() completes everything; getevents() never waits */
};

/* getevents() without a time limit. */
#define ENGINE_WAIT_FOREVER UINT64_MAX

struct engine;

struct engine_ops {
	const char *name;
	unsigned flags;			/* enum engine_flags */
	const char *help;		/* one line for --help and the manual */
	/* Sets up the engine for files, ios and buffers already in place.  Returns 0 or -errno
	 * and fills err with a message that names what is needed (e.g. a memlock limit). */
	int (*init)(struct engine *e, struct iowl_err *err);
	/* Starts one IO.  Returns enum engine_queue_ret or -errno on a fatal engine failure
	 * (an IO error is not fatal: it is io->res = -errno with ENGINE_COMPLETED). */
	int (*queue)(struct engine *e, struct io_u *io);
	/* Submits what queue() accepted.  Returns 0 or -errno.  NULL for sync engines. */
	int (*commit)(struct engine *e);
	/* Waits for at least min and at most max completions, but no longer than timeout_ns
	 * (ENGINE_WAIT_FOREVER: no limit).  Returns how many are ready (event() 0..n-1 give
	 * them; fewer than min when the time ran out) or -errno.  NULL for sync engines. */
	int (*getevents)(struct engine *e, unsigned min, unsigned max, uint64_t timeout_ns);
	struct io_u *(*event)(struct engine *e, unsigned i);
	/* Releases what init() set up; safe after a failed init(). */
	void (*cleanup)(struct engine *e);
	/* openfiles: the worker opened files[f] or closed it (fd -1), with no IO in flight.  NULL
	 * for the engines that read the descriptor at each queue().  Returns 0 or -errno. */
	int (*file_changed)(struct engine *e, unsigned f, struct iowl_err *err);
};

/* One engine instance, owned by one worker thread. */
struct engine {
	const struct engine_ops *ops;
	void *priv;			/* the engine's own state, from init() */
	struct engine_params params;
	struct io_u *ios;		/* depth entries */
	unsigned depth;
	void *buf_base;			/* depth * buf_size bytes, page aligned */
	uint64_t buf_size;
	struct target_file *files;
	unsigned nfiles;
	struct engine_setup setup; /* filled by init() */
	const struct engine_ops *inner; /* io_submit_mode=offload: the engine its threads run */
};

/* io_submit_mode=offload: wraps the engine in inner (engines/offload.c); not an ioengine=. */
extern const struct engine_ops engine_offload_ops;

/* Finds an engine by name.  Returns a static table or NULL. */
const struct engine_ops *engine_find(const char *name);

/* The engines built in, in the order --help lists them; *n receives the count. */
const struct engine_ops *const *engine_list(unsigned *n);

#endif
