// SPDX-License-Identifier: MIT
/* fio's --idle-prof: calibrated idle-priority spinning threads, one per CPU (idleprof.h). */
#include <errno.h>
#include <stdio.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "iowl/clock.h"
#include "iowl/idleprof.h"

#define CALIBRATE_RUNS 10	/* fio's: the fastest of 10 runs ... */
#define CALIBRATE_SCALE 1000	/* ... of 1000 units */

enum { ST_CALIBRATE, ST_READY, ST_RUN, ST_STOP };

struct idle_thread {
	struct idleprof *ip;
	pthread_t tid;
	unsigned cpu;
	bool started, ok;	/* the thread runs; it was pinned and calibrated */
	unsigned char *data;	/* a page, written by the unit of work */
	double unit_us;		/* the calibrated unit */
	uint64_t loops, t0, t1;
	double idle;
};

struct idleprof {
	enum idleprof_mode mode;
	unsigned ncpus;
	long page;
	int state;		/* ST_*: read by the threads */
	unsigned ready;		/* threads calibrated (atomic) */
	struct idle_thread *t;
};

/* fio's unit of work: a page written byte by byte (false when told to stop midway). */
static bool unit(struct idle_thread *t, unsigned long j)
{
	unsigned long page = (unsigned long)t->ip->page;

	for (unsigned long k = 0; k < page; k++) {
		t->data[(k + j) % page] = (unsigned char)(k % 256);
		if (__atomic_load_n(&t->ip->state, __ATOMIC_RELAXED) == ST_STOP)
			return false;
	}
	return true;
}

/* The unit's time in us: the fastest of CALIBRATE_RUNS runs of CALIBRATE_SCALE units. */
static double calibrate(struct idle_thread *t)
{
	double best = 0;

	for (unsigned i = 0; i < CALIBRATE_RUNS; i++) {
		uint64_t t0 = clock_gettime_ns(), us;

		for (unsigned long j = 0; j < CALIBRATE_SCALE; j++)
			if (!unit(t, j))
				return 0;
		us = (clock_gettime_ns() - t0) / 1000;
		if (us && (!best || (double)us < best))
			best = (double)us;
	}
	return best / CALIBRATE_SCALE;
}

static void *idle_main(void *arg)
{
	struct idle_thread *t = arg;
	struct idleprof *ip = t->ip;
	struct sched_param sp = { 0 };
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	/* Calibrated at the normal class, as fio does: at SCHED_IDLE on a busy machine the runs
	 * would wait for idle time (seconds) and time the waits, not the unit. */
	t->ok = !pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (t->ok)
		t->unit_us = calibrate(t);
	t->ok = t->ok && t->unit_us > 0 && !pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp);
	__atomic_add_fetch(&ip->ready, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&ip->state, __ATOMIC_ACQUIRE) < ST_RUN)
		clock_nap(1000000);
	t->t0 = clock_gettime_ns();
	for (unsigned long j = 0; t->ok; j++) {
		if (!unit(t, j))
			break;
		t->loops++;
	}
	t->t1 = clock_gettime_ns();
	return NULL;
}

int idleprof_parse(const char *v, struct iowl_err *err)
{
	if (v && !strcmp(v, "system"))
		return IDLEPROF_SYSTEM;
	if (v && !strcmp(v, "percpu"))
		return IDLEPROF_PERCPU;
	if (v && !strcmp(v, "calibrate"))
		return IDLEPROF_CALIBRATE;
	return err_set(err, "--idle-prof=%s: use system, percpu or calibrate", v ? v : "");
}

int idleprof_start(struct idleprof **out, enum idleprof_mode mode, struct iowl_err *err)
{
	struct idleprof *ip = calloc(1, sizeof(*ip));
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	int ret = 0;

	*out = NULL;
	if (!ip || n < 1 || !(ip->t = calloc((size_t)n, sizeof(*ip->t)))) {
		free(ip);
		return err_nomem(err, "--idle-prof: out of memory");
	}
	ip->mode = mode;
	ip->ncpus = (unsigned)n;
	ip->page = sysconf(_SC_PAGESIZE);
	for (unsigned i = 0; i < ip->ncpus && !ret; i++) {
		struct idle_thread *t = &ip->t[i];

		t->ip = ip;
		t->cpu = i;
		if (!(t->data = malloc((size_t)ip->page)))
			ret = err_nomem(err, "--idle-prof: out of memory");
		else if ((ret = -pthread_create(&t->tid, NULL, idle_main, t)))
			err_errno(err, -ret, "--idle-prof: cannot start a thread");
		else
			t->started = true;
	}
	if (ret) {
		idleprof_stop(ip, NULL);
		return ret;
	}
	while (__atomic_load_n(&ip->ready, __ATOMIC_ACQUIRE) < ip->ncpus)
		clock_nap(1000000);
	*out = ip;
	return 0;
}

void idleprof_go(struct idleprof *ip)
{
	if (ip)
		__atomic_store_n(&ip->state, ST_RUN, __ATOMIC_RELEASE);
}

void idleprof_stop(struct idleprof *ip, struct idleprof_result *res)
{
	double sum = 0, sq = 0;
	unsigned n = 0, nu = 0;

	if (!ip)
		return;
	__atomic_store_n(&ip->state, ST_STOP, __ATOMIC_RELEASE);
	for (unsigned i = 0; i < ip->ncpus; i++)
		if (ip->t[i].started)
			pthread_join(ip->t[i].tid, NULL);
	if (res) {
		memset(res, 0, sizeof(*res));
		res->mode = ip->mode;
		res->ncpus = ip->ncpus;
		res->idle = calloc(ip->ncpus, sizeof(*res->idle));
	}
	for (unsigned i = 0; i < ip->ncpus; i++) {
		struct idle_thread *t = &ip->t[i];
		double us = (double)(t->t1 - t->t0) / 1000.0;

		t->idle = !t->ok ? -1 : us > 0 ? fmin(1.0, (double)t->loops * t->unit_us / us) : 0;
		if (t->ok) {
			sum += t->unit_us;
			sq += t->unit_us * t->unit_us;
			nu++;
		}
		if (res && res->idle)
			res->idle[i] = t->idle;
		if (res && t->idle >= 0) {
			res->system += t->idle;
			n++;
		}
		free(t->data);
	}
	if (res) {
		res->system = n ? res->system / n : 0;
		res->unit_mean = nu ? sum / nu : 0;
		res->unit_stddev = nu > 1 ? sqrt(fmax(0, (sq - sum * sum / nu) / (nu - 1))) : 0;
	}
	free(ip->t);
	free(ip);
}

void idleprof_result_free(struct idleprof_result *res)
{
	free(res->idle);
	res->idle = NULL;
}

void idleprof_text(FILE *f, const struct idleprof_result *res)
{
	if (!res || res->mode == IDLEPROF_NONE)
		return;
	fprintf(f, "\nCPU idleness:\n");
	if (res->mode != IDLEPROF_CALIBRATE)
		fprintf(f, "  system: %3.2f%%\n", res->system * 100.0);
	if (res->mode == IDLEPROF_PERCPU) {
		for (unsigned i = 0; res->idle && i < res->ncpus; i++)
			fprintf(f, "%s%3.2f%%", i ? ", " : "  percpu: ",
				res->idle[i] < 0 ? 0 : res->idle[i] * 100.0);
		fprintf(f, "\n");
	}
	fprintf(f, "  unit work: mean=%3.2fus, stddev=%3.2f\n", res->unit_mean, res->unit_stddev);
}

json_t *idleprof_json(const struct idleprof_result *res)
{
	json_t *o = json_object();

	if (!o || json_object_set_new(o, "system", json_real(res->system * 100.0)))
		goto fail;
	for (unsigned i = 0; res->mode == IDLEPROF_PERCPU && res->idle && i < res->ncpus; i++) {
		char key[32];

		snprintf(key, sizeof(key), "cpu-%u", i);
		if (json_object_set_new(o, key,
					json_real(res->idle[i] < 0 ? 0 : res->idle[i] * 100.0)))
			goto fail;
	}
	if (json_object_set_new(o, "unit_mean", json_real(res->unit_mean)) ||
	    json_object_set_new(o, "unit_stddev", json_real(res->unit_stddev)))
		goto fail;
	return o;
fail:
	json_decref(o);
	return NULL;
}
