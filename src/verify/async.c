// SPDX-License-Identifier: MIT
/*
 * verify_async (fio's meaning): N threads check the worker's reads, so that the worker goes on
 * with its IO while the data is checked.  A completed read is copied into a slot of one thread's
 * ring (its data and the last write of each unit), and the io_u goes back to the worker at once:
 * no lock and no allocation per IO; two semaphores per ring count the slots full and free.
 */
#include <errno.h>
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>

#include "verify/verify_int.h"

#define SLOT_STOP UINT32_MAX /* a slot's file: the thread's last, it ends there */

struct async_slot {
	struct verify_read r;	/* r.buf and r.want point into the slot's own memory */
	unsigned char *buf;
	uint32_t *want;
};

/* One thread and its ring: the worker fills slots at tail, the thread empties them at head. */
struct async_ring {
	struct verify *v;
	struct async_slot *slots;
	unsigned cap, head, tail;	/* head: the thread's alone, tail: the worker's alone */
	sem_t full, free;
	pthread_t tid;
	bool started;
	const struct place_set *cpus;
	struct verify_counts cnt;	/* the thread's, added into v->cnt when it has ended */
	unsigned char *scratch;		/* one unit, to explain failures */
};

struct verify_async {
	unsigned n, next;		/* threads; the ring tried first next */
	unsigned bad;			/* units found bad, not yet reaped (atomic) */
	struct async_ring *rings;
	struct iowl_err err;		/* a thread's placement failure (reported at the end) */
};

static void *async_main(void *arg)
{
	struct async_ring *q = arg;
	struct verify *v = q->v;

	pthread_setname_np(pthread_self(), "iowl-verify");
	if (q->cpus) {
		struct place_opts po = { .cpus = *q->cpus };
		struct iowl_err err = { "" };

		if (place_apply(&po, 0, "verify_async_cpus", &err))
			iowl_warn("verify_async_cpus: %s", err.text);
	}
	for (;;) {
		struct async_slot *s;
		unsigned bad;

		while (sem_wait(&q->full) && errno == EINTR)
			;
		s = &q->slots[q->head];
		q->head = (q->head + 1) % q->cap;
		if (s->r.file == SLOT_STOP)
			break;
		bad = verify_check_read(v, &s->r, &q->cnt, q->scratch);
		if (bad)
			__atomic_add_fetch(&v->async->bad, bad, __ATOMIC_RELEASE);
		sem_post(&q->free);
	}
	return NULL;
}

static int ring_init(struct async_ring *q, struct verify *v, unsigned cap, uint64_t buf_size,
		     const struct place_set *cpus)
{
	q->v = v;
	q->cap = cap;
	q->cpus = cpus;
	q->slots = calloc(cap, sizeof(*q->slots));
	q->scratch = malloc(v->cfg.interval);
	if (!q->slots || !q->scratch)
		return -ENOMEM;
	for (unsigned i = 0; i < cap; i++) {
		q->slots[i].buf = malloc(buf_size);
		q->slots[i].want = malloc(v->max_units * sizeof(uint32_t));
		if (!q->slots[i].buf || !q->slots[i].want)
			return -ENOMEM;
	}
	sem_init(&q->full, 0, 0);
	sem_init(&q->free, 0, cap);
	return 0;
}

int verify_async_start(struct verify *v, unsigned n, const struct place_set *cpus, unsigned depth,
		       uint64_t buf_size, struct iowl_err *err)
{
	struct verify_async *a = calloc(1, sizeof(*a));
	/* Slots for every IO in flight, spread over the threads, one more each for the stop. */
	unsigned cap = (depth + n - 1) / n + 1;

	if (!a || !(a->rings = calloc(n, sizeof(*a->rings)))) {
		free(a);
		return err_nomem(err, "out of memory for verify_async=%u", n);
	}
	v->async = a;
	a->n = n;
	for (unsigned i = 0; i < n; i++) {
		struct async_ring *q = &a->rings[i];
		int ret = ring_init(q, v, cap, buf_size, cpus);

		if (ret)
			return err_nomem(err,
					 "out of memory for verify_async=%u (%u buffers of %llu bytes)",
					 n, n * cap, (unsigned long long)buf_size);
		ret = pthread_create(&q->tid, NULL, async_main, q);
		if (ret)
			return err_errno(err, ret, "verify_async: starting thread %u of %u", i + 1,
					 n);
		q->started = true;
	}
	return 0;
}

/* A free slot of some ring, waiting for one when all are full; sets *qp to its ring. */
static struct async_slot *slot_get(struct verify_async *a, struct async_ring **qp)
{
	struct async_ring *q;

	for (unsigned k = 0; k < a->n; k++) {
		q = &a->rings[(a->next + k) % a->n];
		if (!sem_trywait(&q->free))
			goto got;
	}
	q = &a->rings[a->next];
	while (sem_wait(&q->free) && errno == EINTR)
		;
got:
	a->next = (unsigned)(q - a->rings + 1) % a->n;
	*qp = q;
	return &q->slots[q->tail];
}

static void slot_put(struct async_ring *q)
{
	q->tail = (q->tail + 1) % q->cap;
	sem_post(&q->full);
}

void verify_async_push(struct verify *v, const struct verify_read *r)
{
	struct async_ring *q;
	struct async_slot *s = slot_get(v->async, &q);
	uint32_t n = r->len / v->cfg.interval;

	memcpy(s->buf, r->buf, r->len);
	if (r->want)
		memcpy(s->want, r->want, n * sizeof(*r->want));
	s->r = *r;
	s->r.buf = s->buf;
	s->r.want = r->want ? s->want : NULL;
	slot_put(q);
}

unsigned verify_async_reap(struct verify *v)
{
	unsigned *bad = &v->async->bad;

	if (!__atomic_load_n(bad, __ATOMIC_RELAXED))
		return 0;
	return __atomic_exchange_n(bad, 0, __ATOMIC_ACQUIRE);
}

void verify_async_stop(struct verify *v)
{
	struct verify_async *a = v->async;

	if (!a)
		return;
	for (unsigned i = 0; i < a->n; i++) {
		struct async_ring *q = &a->rings[i];

		if (q->started) { /* after every read handed over, in order */
			struct async_slot *s;

			while (sem_wait(&q->free) && errno == EINTR)
				;
			s = &q->slots[q->tail];
			s->r.file = SLOT_STOP;
			slot_put(q);
		}
	}
	for (unsigned i = 0; i < a->n; i++) {
		struct async_ring *q = &a->rings[i];

		if (q->started) {
			pthread_join(q->tid, NULL);
			v->cnt.units += q->cnt.units;
			v->cnt.errors += q->cnt.errors;
			for (unsigned k = 0; k < 3; k++)
				v->cnt.by_src[k] += q->cnt.by_src[k];
			sem_destroy(&q->full);
			sem_destroy(&q->free);
		}
		for (unsigned k = 0; q->slots && k < q->cap; k++) {
			free(q->slots[k].buf);
			free(q->slots[k].want);
		}
		free(q->slots);
		free(q->scratch);
	}
	free(a->rings);
	v->bad_left = a->bad;
	free(a);
	v->async = NULL;
}
