// SPDX-License-Identifier: MIT
/*
 * io_submit_mode=offload, as fio's: the job's thread generates and paces the IOs and hands them
 * to a pool of iodepth submit threads; each thread runs its own instance of the job's engine and
 * does one IO at a time (queue, commit, wait for its completion), so a slow device backs up in
 * the pool and never delays the next submission.  This table wraps the job's engine: queue()
 * collects, commit() hands the batch to the pool, getevents() takes what the threads finished.
 * The hand-over is a mutex and two condition variables, per IO: the price of the mode, as in fio.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines/engines_int.h"
#include "iowl/clock.h"

struct off_thread {
	struct off_priv *p;
	pthread_t tid;
	bool started;
	struct engine inner; /* its own instance of the job's engine, made on this thread */
	int init_ret;
	struct iowl_err err;
};

struct off_priv {
	pthread_mutex_t mu;
	pthread_cond_t work; /* IOs to submit, a stop, or (the job's thread) a thread set up */
	pthread_cond_t done; /* IOs finished */
	struct io_u **subq;  /* ring of depth: handed over, not yet taken by a thread */
	unsigned sq_head, sq_n;
	struct io_u **doneq; /* ring of depth: finished, not yet taken by getevents() */
	unsigned dq_head, dq_n;
	struct io_u **pending; /* queued since the last commit (the job's thread only) */
	unsigned npending;
	struct io_u **events; /* what the last getevents() returned */
	unsigned depth, nthreads, nready;
	bool stop;
	struct off_thread *t;
};

static void ring_push(struct io_u **ring, unsigned depth, unsigned head, unsigned *n,
		      struct io_u *io)
{
	ring[(head + (*n)++) % depth] = io;
}

static struct io_u *ring_pop(struct io_u **ring, unsigned depth, unsigned *head, unsigned *n)
{
	struct io_u *io = ring[*head];

	*head = (*head + 1) % depth;
	--*n;
	return io;
}

/* One IO on the thread's own engine, start to end: io->res is set on return. */
static void off_do(struct engine *e, struct io_u *io)
{
	int r = e->ops->queue(e, io);

	while (r == ENGINE_BUSY) { /* the instance is empty between IOs: only a kernel refusal */
		clock_nap(100000);
		r = e->ops->queue(e, io);
	}
	if (r == ENGINE_QUEUED) {
		r = e->ops->commit ? e->ops->commit(e) : 0;
		while (!r) {
			r = e->ops->getevents(e, 1, 1, ENGINE_WAIT_FOREVER);
			if (r == 1) {
				e->ops->event(e, 0); /* sets io->res */
				return;
			}
		}
	}
	if (r < 0)
		io->res = r;
}

static void *off_main(void *arg)
{
	struct off_thread *t = arg;
	struct off_priv *p = t->p;

	/* made here: an io_uring ring with SINGLE_ISSUER belongs to the thread that made it */
	t->init_ret = t->inner.ops->init(&t->inner, &t->err);
	pthread_mutex_lock(&p->mu);
	p->nready++;
	pthread_cond_broadcast(&p->done);
	while (!t->init_ret) {
		struct io_u *io;

		while (!p->sq_n && !p->stop)
			pthread_cond_wait(&p->work, &p->mu);
		if (!p->sq_n)
			break;
		io = ring_pop(p->subq, p->depth, &p->sq_head, &p->sq_n);
		pthread_mutex_unlock(&p->mu);
		off_do(&t->inner, io);
		pthread_mutex_lock(&p->mu);
		ring_push(p->doneq, p->depth, p->dq_head, &p->dq_n, io);
		pthread_cond_signal(&p->done);
	}
	pthread_mutex_unlock(&p->mu);
	t->inner.ops->cleanup(&t->inner);
	return NULL;
}

static void off_stop(struct off_priv *p)
{
	pthread_mutex_lock(&p->mu);
	p->stop = true;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	for (unsigned i = 0; i < p->nthreads; i++)
		if (p->t[i].started)
			pthread_join(p->t[i].tid, NULL);
}

static void off_free(struct off_priv *p)
{
	pthread_cond_destroy(&p->done);
	pthread_cond_destroy(&p->work);
	pthread_mutex_destroy(&p->mu);
	free(p->t);
	free(p->events);
	free(p->pending);
	free(p->doneq);
	free(p->subq);
	free(p);
}

static int off_start(struct engine *e, struct off_priv *p, struct iowl_err *err)
{
	int ret = 0;

	for (unsigned i = 0; i < p->nthreads; i++) {
		struct off_thread *t = &p->t[i];

		t->p = p;
		t->inner = *e; /* the same files, IO units and buffers; its own state */
		t->inner.ops = e->inner;
		t->inner.priv = NULL;
		t->inner.inner = NULL;
		t->inner.setup = (struct engine_setup){ 0 };
		ret = -pthread_create(&t->tid, NULL, off_main, t);
		if (ret)
			return err_errno(err, -ret,
					 "io_submit_mode=offload: cannot start submit thread %u of %u",
					 i + 1, p->nthreads);
		t->started = true;
	}
	pthread_mutex_lock(&p->mu);
	while (p->nready < p->nthreads)
		pthread_cond_wait(&p->done, &p->mu);
	pthread_mutex_unlock(&p->mu);
	for (unsigned i = 0; i < p->nthreads && !ret; i++)
		if (p->t[i].init_ret) {
			ret = p->t[i].init_ret;
			*err = p->t[i].err;
		}
	if (!ret)
		e->setup = p->t[0].inner.setup;
	return ret;
}

static int off_init(struct engine *e, struct iowl_err *err)
{
	struct off_priv *p = calloc(1, sizeof(*p));
	pthread_condattr_t ca;
	int ret;

	e->priv = NULL;
	if (!p)
		return err_nomem(err, "io_submit_mode=offload: out of memory");
	p->depth = p->nthreads = e->depth;
	p->subq = calloc(e->depth, sizeof(*p->subq));
	p->doneq = calloc(e->depth, sizeof(*p->doneq));
	p->pending = calloc(e->depth, sizeof(*p->pending));
	p->events = calloc(e->depth, sizeof(*p->events));
	p->t = calloc(e->depth, sizeof(*p->t));
	pthread_mutex_init(&p->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* getevents() times out on it */
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, &ca);
	pthread_condattr_destroy(&ca);
	if (!p->subq || !p->doneq || !p->pending || !p->events || !p->t) {
		off_free(p);
		return err_nomem(err, "io_submit_mode=offload: out of memory");
	}
	e->priv = p;
	ret = off_start(e, p, err);
	return ret;
}

static int off_queue(struct engine *e, struct io_u *io)
{
	struct off_priv *p = e->priv;

	p->pending[p->npending++] = io;
	return ENGINE_QUEUED;
}

static int off_commit(struct engine *e)
{
	struct off_priv *p = e->priv;

	if (!p->npending)
		return 0;
	pthread_mutex_lock(&p->mu);
	for (unsigned i = 0; i < p->npending; i++)
		ring_push(p->subq, p->depth, p->sq_head, &p->sq_n, p->pending[i]);
	if (p->npending == 1)
		pthread_cond_signal(&p->work);
	else
		pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	p->npending = 0;
	return 0;
}

static int off_getevents(struct engine *e, unsigned min, unsigned max, uint64_t timeout_ns)
{
	struct off_priv *p = e->priv;
	struct timespec until;
	unsigned n = 0;

	if (timeout_ns != ENGINE_WAIT_FOREVER) {
		uint64_t t = clock_ns() + timeout_ns;

		until = (struct timespec){ (time_t)(t / NSEC_PER_SEC), (long)(t % NSEC_PER_SEC) };
	}
	pthread_mutex_lock(&p->mu);
	while (p->dq_n < min) {
		if (timeout_ns == ENGINE_WAIT_FOREVER)
			pthread_cond_wait(&p->done, &p->mu);
		else if (pthread_cond_timedwait(&p->done, &p->mu, &until) == ETIMEDOUT)
			break;
	}
	while (p->dq_n && n < max)
		p->events[n++] = ring_pop(p->doneq, p->depth, &p->dq_head, &p->dq_n);
	pthread_mutex_unlock(&p->mu);
	return (int)n;
}

static struct io_u *off_event(struct engine *e, unsigned i)
{
	struct off_priv *p = e->priv;

	return p->events[i];
}

/* openfiles: each submit thread's engine hears of the file (they are idle: nothing in flight). */
static int off_file_changed(struct engine *e, unsigned f, struct iowl_err *err)
{
	struct off_priv *p = e->priv;
	int ret = 0;

	pthread_mutex_lock(&p->mu);
	for (unsigned i = 0; i < p->nthreads && !ret; i++)
		if (p->t[i].inner.ops->file_changed)
			ret = p->t[i].inner.ops->file_changed(&p->t[i].inner, f, err);
	pthread_mutex_unlock(&p->mu);
	return ret;
}

static void off_cleanup(struct engine *e)
{
	struct off_priv *p = e->priv;

	if (!p)
		return;
	off_stop(p);
	off_free(p);
	e->priv = NULL;
}

const struct engine_ops engine_offload_ops = {
	.name = "offload",
	.flags = 0,
	.help = "io_submit_mode=offload: the job's engine run by a pool of iodepth submit threads",
	.init = off_init,
	.queue = off_queue,
	.commit = off_commit,
	.getevents = off_getevents,
	.event = off_event,
	.cleanup = off_cleanup,
	.file_changed = off_file_changed,
};
