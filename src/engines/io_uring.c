// SPDX-License-Identifier: MIT
/* The io_uring engine (liburing): IOs batched into one submit at commit(), reaped in batches. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "engines/engines_int.h"
#include "iowl/clock.h"

#define URING_PUNCH_MODE (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE)

struct uring_priv {
	struct io_uring ring;
	bool ring_ok;
	bool fixedbufs;
	bool iopoll;			/* completions only appear when we enter the kernel */
	bool sqpoll;			/* a kernel thread takes what we flush to the SQ ring */
	uint8_t sqe_flags;		/* IOSQE_FIXED_FILE or 0 */
	bool nowait;			/* RWF_NOWAIT on reads and writes */
	bool vectored;			/* nonvectored=0: READV/WRITEV with one iovec */
	unsigned force_async;		/* IOSQE_ASYNC on every Nth IO */
	unsigned since_async;
	unsigned depth;
	unsigned outstanding;		/* queued and not yet reaped */
	unsigned unsubmitted;		/* in the SQ ring, waiting for a submit */
	int *fds;			/* per file: its descriptor or its registered index */
	struct iovec *iovs;		/* per io_u index, when vectored */
	struct io_uring_cqe **cqes;
	struct io_u **done;		/* what the last getevents() returned */
};

/*
 * Setup flags that help when the kernel has them, dropped in this order when it answers EINVAL:
 * DEFER_TASKRUN (6.1, needs SINGLE_ISSUER, 6.0) runs completion work only when we reap, on
 * this thread; COOP_TASKRUN (5.19) spares the IPI; TASKRUN_FLAG tells liburing when reaping must
 * enter the kernel; SUBMIT_ALL (5.18) goes on past an SQE that fails to prepare.
 */
static const unsigned uring_optional_flags[] = {
	IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
	IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
	IORING_SETUP_SUBMIT_ALL,
};

#define URING_NOPTIONAL (sizeof(uring_optional_flags) / sizeof(uring_optional_flags[0]))

/* The flags asked for first; the task-run ones are invalid with an SQ polling thread. */
static unsigned uring_wanted_flags(const struct engine_params *ep)
{
	unsigned flags = IORING_SETUP_CLAMP;
	unsigned i;

	for (i = 0; i < URING_NOPTIONAL; i++)
		flags |= uring_optional_flags[i];
	if (ep->hipri)
		flags |= IORING_SETUP_IOPOLL;
	if (ep->sqthread_poll) {
		flags &= ~(IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_COOP_TASKRUN |
			   IORING_SETUP_TASKRUN_FLAG);
		flags |= IORING_SETUP_SQPOLL;
		if (ep->sqthread_poll_cpu >= 0)
			flags |= IORING_SETUP_SQ_AFF;
	}
	return flags;
}

static const char *uring_setup_hint(int r, unsigned flags)
{
	switch (r) {
	case -EINVAL:
		return flags & IORING_SETUP_SQ_AFF ?
			" (is sqthread_poll_cpu a CPU this process may run on?)" : "";
	case -ENOSYS:
		return " (this kernel has no io_uring)";
	case -EPERM:
		return " (io_uring may be disabled: see /proc/sys/kernel/io_uring_disabled)";
	case -ENOMEM:
		return " (raise the locked-memory limit: ulimit -l unlimited, or LimitMEMLOCK= in "
		       "systemd)";
	default:
		return "";
	}
}

/*
 * An SQ thread moves the SQ head only after a whole batch, whose IOs may have completed and been
 * reaped and queued again by then: twice depth entries keep queue() from finding the ring full.
 */
static unsigned uring_sq_entries(const struct engine *e)
{
	return e->params.sqthread_poll ? 2 * e->depth : e->depth;
}

static int uring_setup_ring(struct engine *e, struct uring_priv *p, struct iowl_err *err)
{
	struct io_uring_params par;
	unsigned flags = uring_wanted_flags(&e->params);
	unsigned i = 0;
	int r;

	for (;;) {
		memset(&par, 0, sizeof(par));
		par.flags = flags;
		if (flags & IORING_SETUP_SQ_AFF)
			par.sq_thread_cpu = (unsigned)e->params.sqthread_poll_cpu;
		r = io_uring_queue_init_params(uring_sq_entries(e), &p->ring, &par);
		if (r != -EINVAL || i == URING_NOPTIONAL)
			break;
		flags &= ~uring_optional_flags[i++];
	}
	if (r < 0) {
		err_set(err, "io_uring: setting up a %u-entry ring (flags 0x%x) failed: %s%s",
			uring_sq_entries(e), flags, strerror(-r), uring_setup_hint(r, flags));
		return r;
	}
	p->ring_ok = true;
	p->iopoll = flags & IORING_SETUP_IOPOLL;
	p->sqpoll = flags & IORING_SETUP_SQPOLL;
	e->setup.set = true;
	e->setup.uring_flags = flags;
	/* saves the descriptor lookup on every io_uring_enter(); optional */
	e->setup.uring_ring_fd = io_uring_register_ring_fd(&p->ring) == 1;
	return 0;
}

/* Writes a size as "4 KiB", "1 MiB" or "1000 bytes" for messages. */
static void uring_fmt_size(char *out, size_t n, uint64_t size)
{
	static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB" };
	unsigned u = 0;

	while (u < 3 && size && !(size & 1023)) {
		size >>= 10;
		u++;
	}
	snprintf(out, n, "%llu %s", (unsigned long long)size, unit[u]);
}

static int uring_register_bufs(struct engine *e, struct uring_priv *p, struct iowl_err *err)
{
	struct iovec *iov;
	char size[32];
	unsigned i;
	int r;

	iov = calloc(e->depth, sizeof(*iov));
	if (!iov) {
		err_nomem(err, "io_uring: out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < e->depth; i++) {
		iov[i].iov_base = (char *)e->buf_base + (size_t)i * e->buf_size;
		iov[i].iov_len = e->buf_size;
	}
	r = io_uring_register_buffers(&p->ring, iov, e->depth);
	free(iov);
	if (r == 0) {
		p->fixedbufs = true;
		return 0;
	}
	uring_fmt_size(size, sizeof(size), e->buf_size);
	/* pinned buffer pages count against RLIMIT_MEMLOCK unless we have CAP_IPC_LOCK */
	err_set(err, "io_uring fixedbufs: registering %u buffers of %s failed: %s%s", e->depth,
		size, strerror(-r),
		r == -ENOMEM || r == -EPERM ? uring_setup_hint(-ENOMEM, 0) : "");
	return r;
}

static int uring_register_files(struct engine *e, struct uring_priv *p, struct iowl_err *err)
{
	unsigned i;
	int r;

	for (i = 0; i < e->nfiles; i++)
		p->fds[i] = e->files[i].fd;
	if (!e->nfiles || !(e->params.registerfiles || e->params.sqthread_poll))
		return 0;
	r = io_uring_register_files(&p->ring, p->fds, e->nfiles);
	if (r < 0) {
		err_errno(err, -r, "io_uring registerfiles: registering %u files failed",
			  e->nfiles);
		return r;
	}
	for (i = 0; i < e->nfiles; i++)
		p->fds[i] = (int)i;
	p->sqe_flags = IOSQE_FIXED_FILE;
	return 0;
}

/* openfiles: the new descriptor, or -1, in the ring's table of files or the plain one. */
static int uring_file_changed(struct engine *e, unsigned f, struct iowl_err *err)
{
	struct uring_priv *p = e->priv;
	int fd = e->files[f].fd, r;

	if (!(p->sqe_flags & IOSQE_FIXED_FILE)) {
		p->fds[f] = fd;
		return 0;
	}
	r = io_uring_register_files_update(&p->ring, f, &fd, 1);
	if (r < 0)
		return err_errno(err, -r, "io_uring registerfiles: updating file %u ('%s') failed",
				 f, e->files[f].path);
	return 0;
}

static int uring_alloc(struct uring_priv *p, const struct engine *e)
{
	p->depth = e->depth;
	p->fds = calloc(e->nfiles ? e->nfiles : 1, sizeof(*p->fds));
	p->iovs = calloc(e->depth, sizeof(*p->iovs));
	p->cqes = calloc(e->depth, sizeof(*p->cqes));
	p->done = calloc(e->depth, sizeof(*p->done));
	if (!p->fds || !p->iovs || !p->cqes || !p->done)
		return -ENOMEM;
	return 0;
}

static void uring_free(struct uring_priv *p)
{
	free(p->done);
	free(p->cqes);
	free(p->fds);
	free(p->iovs);
	free(p);
}

/*
 * Waits for what the kernel still holds, so no IO touches the worker's buffers after cleanup.
 * Anything queued is submitted first; a second without a completion ends the wait.
 */
static void uring_drain(struct uring_priv *p)
{
	struct __kernel_timespec ts = { .tv_sec = 1 };
	struct io_uring_cqe *cqe;
	unsigned left = p->outstanding;
	unsigned n;
	int r;

	if (left)
		io_uring_submit(&p->ring);
	while (left) {
		r = io_uring_wait_cqe_timeout(&p->ring, &cqe, &ts);
		if (r == -EINTR)
			continue;
		if (r < 0)
			break;
		n = io_uring_cq_ready(&p->ring);
		io_uring_cq_advance(&p->ring, n);
		left -= n < left ? n : left;
	}
	p->outstanding = 0;
	p->unsubmitted = 0;
}

/* Must run on the thread that called init(): with SINGLE_ISSUER the ring belongs to it. */
static void uring_cleanup(struct engine *e)
{
	struct uring_priv *p = e->priv;

	if (!p)
		return;
	if (p->ring_ok) {
		uring_drain(p);
		io_uring_queue_exit(&p->ring);
	}
	uring_free(p);
	e->priv = NULL;
}

/* fio's nonvectored: 0 asks for READV/WRITEV; -1 for READ/WRITE where the kernel has them (5.6). */
static bool uring_vectored(struct uring_priv *p, int nonvectored)
{
	struct io_uring_probe *probe;
	bool have;

	if (nonvectored >= 0)
		return !nonvectored;
	probe = io_uring_get_probe_ring(&p->ring);
	if (!probe)
		return false;
	have = io_uring_opcode_supported(probe, IORING_OP_READ) &&
	       io_uring_opcode_supported(probe, IORING_OP_WRITE);
	io_uring_free_probe(probe);
	return !have;
}

static int uring_init(struct engine *e, struct iowl_err *err)
{
	struct uring_priv *p;
	int r;

	e->priv = NULL;
	if (!e->depth)
		return err_set(err, "io_uring: iodepth must be at least 1");
	p = calloc(1, sizeof(*p));
	if (!p || uring_alloc(p, e) < 0) {
		if (p)
			uring_free(p);
		err_nomem(err, "io_uring: out of memory");
		return -ENOMEM;
	}
	/* from here on cleanup() undoes whatever was set up */
	e->priv = p;
	p->nowait = e->params.nowait;
	r = uring_setup_ring(e, p, err);
	if (r < 0)
		goto out_cleanup;
	if (e->params.fixedbufs) {
		r = uring_register_bufs(e, p, err);
		if (r < 0)
			goto out_cleanup;
	}
	r = uring_register_files(e, p, err);
	if (r < 0)
		goto out_cleanup;
	p->vectored = uring_vectored(p, e->params.nonvectored);
	p->force_async = e->params.force_async;
	e->setup.uring_fixedbufs = p->fixedbufs;
	e->setup.uring_files = p->sqe_flags == IOSQE_FIXED_FILE;
	e->setup.uring_vectored = p->vectored && !p->fixedbufs;
	return 0;

out_cleanup:
	uring_cleanup(e);
	return r;
}

static const struct iovec *uring_iov(struct uring_priv *p, const struct io_u *io)
{
	struct iovec *iov = &p->iovs[io->index];

	iov->iov_base = io->buf;
	iov->iov_len = io->len;
	return iov;
}

static void uring_prep(struct uring_priv *p, struct io_uring_sqe *sqe, struct io_u *io)
{
	int fd = p->fds[io->file];

	switch (io->op) {
	case DDIR_READ:
		if (p->fixedbufs)
			io_uring_prep_read_fixed(sqe, fd, io->buf, io->len, io->offset, io->index);
		else if (p->vectored)
			io_uring_prep_readv(sqe, fd, uring_iov(p, io), 1, io->offset);
		else
			io_uring_prep_read(sqe, fd, io->buf, io->len, io->offset);
		break;
	case DDIR_WRITE:
		if (p->fixedbufs)
			io_uring_prep_write_fixed(sqe, fd, io->buf, io->len, io->offset, io->index);
		else if (p->vectored)
			io_uring_prep_writev(sqe, fd, uring_iov(p, io), 1, io->offset);
		else
			io_uring_prep_write(sqe, fd, io->buf, io->len, io->offset);
		break;
	case DDIR_TRIM:
		io_uring_prep_fallocate(sqe, fd, URING_PUNCH_MODE, (off_t)io->offset, io->len);
		break;
	case DDIR_FSYNC: io_uring_prep_fsync(sqe, fd, 0); break;
	default:
		io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
		break;
	}
	sqe->flags = p->sqe_flags;
	sqe->ioprio = io->ioprio;
	if (p->force_async && ++p->since_async == p->force_async) {
		p->since_async = 0;
		sqe->flags |= IOSQE_ASYNC;
	}
	if (p->nowait && io->op <= DDIR_WRITE)
		sqe->rw_flags = RWF_NOWAIT;
	io_uring_sqe_set_data(sqe, io);
}

static int uring_queue(struct engine *e, struct io_u *io)
{
	struct uring_priv *p = e->priv;
	struct io_uring_sqe *sqe;

	if (io->op > DDIR_FDATASYNC) {
		io->res = -EINVAL;
		return ENGINE_COMPLETED;
	}
	if (io->op == DDIR_TRIM && e->files[io->file].is_bdev) {
		/* no discard opcode in io_uring before 6.12: BLKDISCARD, synchronously */
		io->res = sync_nondata(&e->files[io->file], io);
		return ENGINE_COMPLETED;
	}
	if (p->outstanding == p->depth)
		return ENGINE_BUSY;
	sqe = io_uring_get_sqe(&p->ring);
	if (!sqe)
		return ENGINE_BUSY;
	uring_prep(p, sqe, io);
	p->outstanding++;
	p->unsubmitted++;
	return ENGINE_QUEUED;
}

/*
 * After a submit: what the kernel did not take stays in the SQ ring for the next one, except
 * with an SQ thread, which takes everything flushed to the ring by itself.
 */
static void uring_submitted(struct uring_priv *p)
{
	p->unsubmitted = p->sqpoll ? 0 : io_uring_sq_ready(&p->ring);
}

static int uring_commit(struct engine *e)
{
	struct uring_priv *p = e->priv;
	int r;

	if (!p->unsubmitted)
		return 0;
	do {
		r = io_uring_submit(&p->ring);
	} while (r == -EINTR);
	/* EAGAIN/EBUSY: short of resources until completions are reaped; retried next time */
	if (r < 0 && r != -EAGAIN && r != -EBUSY)
		return r;
	uring_submitted(p);
	return 0;
}

/*
 * Enters the kernel until min completions are in the CQ ring or timeout_ns passed, submitting
 * anything queued; with DEFER_TASKRUN this is also where completion work runs.  Returns 0, 1
 * when the time ran out, or -errno.
 */
static int uring_wait(struct uring_priv *p, unsigned min, uint64_t timeout_ns)
{
	struct __kernel_timespec ts = { (long long)(timeout_ns / NSEC_PER_SEC),
					(long long)(timeout_ns % NSEC_PER_SEC) };
	struct io_uring_cqe *cqe;
	int r;

	do {
		if (timeout_ns == ENGINE_WAIT_FOREVER || !min)
			r = io_uring_submit_and_wait(&p->ring, min);
		else
			r = io_uring_submit_and_wait_timeout(&p->ring, &cqe, min, &ts, NULL);
	} while (r == -EINTR);
	uring_submitted(p);
	if (r == -ETIME)
		return 1;
	if (r < 0 && r != -EAGAIN && r != -EBUSY)
		return r;
	return 0;
}

static void uring_reap(struct uring_priv *p, unsigned n)
{
	struct io_uring_cqe *cqe;
	struct io_u *io;
	unsigned i;

	for (i = 0; i < n; i++) {
		cqe = p->cqes[i];
		io = io_uring_cqe_get_data(cqe);
		io->res = cqe->res;
		/* a punched hole answers 0: report the whole trim, as the other engines do */
		if (io->op == DDIR_TRIM && !cqe->res)
			io->res = (int32_t)io->len;
		p->done[i] = io;
	}
	io_uring_cq_advance(&p->ring, n);
	p->outstanding -= n;
}

static int uring_getevents(struct engine *e, unsigned min, unsigned max, uint64_t timeout_ns)
{
	struct uring_priv *p = e->priv;
	unsigned n;
	int r;

	if (max > p->depth)
		max = p->depth;
	if (min > max)
		min = max;
	if (min > p->outstanding)
		min = p->outstanding;
	n = io_uring_peek_batch_cqe(&p->ring, p->cqes, max);
	if (!n && !min && p->iopoll && p->outstanding) {
		/* polled completions are only found by entering the kernel */
		r = uring_wait(p, 0, timeout_ns);
		if (r < 0)
			return r;
		n = io_uring_peek_batch_cqe(&p->ring, p->cqes, max);
	}
	while (n < min) {
		r = uring_wait(p, min, timeout_ns);
		if (r < 0)
			return r;
		n = io_uring_peek_batch_cqe(&p->ring, p->cqes, max);
		if (r)
			break;	/* the time ran out */
	}
	uring_reap(p, n);
	return (int)n;
}

static struct io_u *uring_event(struct engine *e, unsigned i)
{
	struct uring_priv *p = e->priv;

	return p->done[i];
}

const struct engine_ops engine_io_uring_ops = {
	.name = "io_uring",
	.flags = 0,
	.help = "io_uring through liburing: batched submission and reaping, fixedbufs, "
		"registerfiles, sqthread_poll, hipri",
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.getevents = uring_getevents,
	.event = uring_event,
	.cleanup = uring_cleanup,
	.file_changed = uring_file_changed,
};
