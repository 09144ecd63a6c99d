// SPDX-License-Identifier: MIT
/*
 * Test shim loaded with LD_PRELOAD: a fake libaio device under the libaio engine.  io_submit()
 * does each IO at once with pread/pwrite and keeps its completion; io_getevents() hands the
 * completions out (the kernel's ring stays empty, so the engine's ring reader finds none).
 *   IOWL_AIO_SHORT=1   every transfer longer than 512 bytes moves only half of it, so one
 *                      reap batch holds many short completions
 *   IOWL_AIO_HANG=N    IOs after the first N are taken and never complete (a hung device)
 *   IOWL_AIO_SETUP=E   io_setup() fails with errno E: an engine that cannot be set up, without
 *                      taking the system-wide AIO events (fs.aio-max-nr) from other tests
 * Without either variable the real libaio calls are used.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <libaio.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define SHIM_EVENTS 65536

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct io_event done[SHIM_EVENTS];
static unsigned head, count;
static long submitted;

static long env_long(const char *name)
{
	const char *v = getenv(name);

	return v ? atol(v) : -1;
}

static int shimmed(void)
{
	return env_long("IOWL_AIO_SHORT") > 0 || env_long("IOWL_AIO_HANG") >= 0;
}

static long do_io(struct iocb *cb)
{
	size_t n = cb->u.c.nbytes;
	ssize_t r;

	if (env_long("IOWL_AIO_SHORT") > 0 && n > 512)
		n /= 2;
	switch (cb->aio_lio_opcode) {
	case IO_CMD_PREAD:
		r = pread(cb->aio_fildes, cb->u.c.buf, n, cb->u.c.offset);
		break;
	case IO_CMD_PWRITE:
		r = pwrite(cb->aio_fildes, cb->u.c.buf, n, cb->u.c.offset);
		break;
	case IO_CMD_FSYNC:
		r = fsync(cb->aio_fildes);
		break;
	case IO_CMD_FDSYNC:
		r = fdatasync(cb->aio_fildes);
		break;
	default:
		errno = EINVAL;
		r = -1;
	}
	return r < 0 ? -errno : r;
}

int io_submit(io_context_t ctx, long nr, struct iocb **iocbs)
{
	static int (*real)(io_context_t, long, struct iocb **);
	long hang = env_long("IOWL_AIO_HANG");

	if (!shimmed()) {
		if (!real)
			real = (int (*)(io_context_t, long, struct iocb **))dlsym(RTLD_NEXT, "io_submit");
		return real(ctx, nr, iocbs);
	}
	pthread_mutex_lock(&lock);
	for (long i = 0; i < nr; i++) {
		struct io_event *ev;

		if (hang >= 0 && submitted++ >= hang)
			continue;	/* taken, never completed */
		ev = &done[(head + count++) % SHIM_EVENTS];
		ev->data = iocbs[i]->data;
		ev->obj = iocbs[i];
		ev->res = (unsigned long)do_io(iocbs[i]);
		ev->res2 = 0;
	}
	pthread_mutex_unlock(&lock);
	return (int)nr;
}

int io_setup(int maxevents, io_context_t *ctx)
{
	static int (*real)(int, io_context_t *);
	long e = env_long("IOWL_AIO_SETUP");

	if (e > 0)
		return (int)-e;
	if (!real)
		real = (int (*)(int, io_context_t *))dlsym(RTLD_NEXT, "io_setup");
	return real(maxevents, ctx);
}

int io_getevents(io_context_t ctx, long min, long max, struct io_event *events,
		 struct timespec *timeout)
{
	static int (*real)(io_context_t, long, long, struct io_event *, struct timespec *);
	long n = 0;

	if (!shimmed()) {
		if (!real)
			real = (int (*)(io_context_t, long, long, struct io_event *, struct timespec *))
				dlsym(RTLD_NEXT, "io_getevents");
		return real(ctx, min, max, events, timeout);
	}
	pthread_mutex_lock(&lock);
	while (count && n < max) {
		events[n++] = done[head];
		head = (head + 1) % SHIM_EVENTS;
		count--;
	}
	pthread_mutex_unlock(&lock);
	if (n >= min || n)
		return (int)n;
	/* Nothing will come: wait as long as asked, which without a timeout is for ever. */
	if (timeout)
		nanosleep(timeout, NULL);
	else
		for (;;)
			pause();
	return 0;
}
