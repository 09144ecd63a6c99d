// SPDX-License-Identifier: MIT
/*
 * Test shim loaded with LD_PRELOAD: injects faults into the sync and psync engines' system calls.
 *   IOWL_FAULT_EIO_OFFSET=N     pread/pwrite at offset N fail with EIO (read/write when the fd's position is N)
 *   IOWL_FAULT_SHORT_EVERY=N    every Nth transfer moves only half of what was asked
 *   IOWL_FAULT_EINTR_EVERY=N    every Nth call fails with EINTR before doing anything
 *   IOWL_FAULT_HANG_AFTER=N     call N+1 never returns (a hung device)
 *   IOWL_FAULT_HANG_MARK=PATH   ... and creates PATH as it hangs (a test waits for it)
 *   IOWL_FAULT_STALL_AT=N       call N takes 300 ms (a device that stalls once)
 *   IOWL_FAULT_SLOW_EVERY=N:US  every Nth call takes US microseconds longer (a slow device)
 *   IOWL_FAULT_LOSE_OFFSET=N    a pwrite at offset N reports success and writes nothing (lost write)
 *   IOWL_FAULT_MISDIRECT=N:M    a pwrite at offset N lands at offset M (misdirected write)
 * Only files whose path contains IOWL_FAULT_MATCH (default "iowl-fault") are affected.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long env_long(const char *name)
{
	const char *v = getenv(name);

	return v ? atol(v) : -1;
}

static int matches(int fd)
{
	char link[64], path[PATH_MAX];
	const char *m = getenv("IOWL_FAULT_MATCH");
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	return strstr(path, m ? m : "iowl-fault") != NULL;
}

/* Decides a fault for one call: 0 none, -1 failed with errno set, 1 halve the transfer. */
static int fault(int fd, off_t off)
{
	static long calls;
	long eio = env_long("IOWL_FAULT_EIO_OFFSET");
	long shrt = env_long("IOWL_FAULT_SHORT_EVERY");
	long eintr = env_long("IOWL_FAULT_EINTR_EVERY");
	long hang = env_long("IOWL_FAULT_HANG_AFTER");
	long stall = env_long("IOWL_FAULT_STALL_AT");
	const char *slow = getenv("IOWL_FAULT_SLOW_EVERY");

	if (!matches(fd))
		return 0;
	calls++;
	if (hang >= 0 && calls > hang) {
		const char *mark = getenv("IOWL_FAULT_HANG_MARK");
		int m = mark ? open(mark, O_WRONLY | O_CREAT, 0644) : -1;

		if (m >= 0)
			close(m);
		for (;;)
			sleep(1000);
	}
	if (stall > 0 && calls == stall)
		usleep(300000);
	if (slow && atol(slow) > 0 && strchr(slow, ':') && calls % atol(slow) == 0)
		usleep((useconds_t)atol(strchr(slow, ':') + 1));
	if (eio >= 0 && off == eio) {
		errno = EIO;
		return -1;
	}
	if (eintr > 0 && calls % eintr == 0) {
		errno = EINTR;
		return -1;
	}
	return shrt > 0 && calls % shrt == 0;
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
	static ssize_t (*real)(int, void *, size_t, off_t);
	int f = fault(fd, off);

	if (!real)
		real = (ssize_t(*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread64");
	if (f < 0)
		return -1;
	return real(fd, buf, f && n > 1 ? n / 2 : n, off);
}

/* Where a pwrite at off really goes: -1 nowhere (lost), else the (mis)directed offset. */
static off_t write_target(int fd, off_t off)
{
	const char *m = getenv("IOWL_FAULT_MISDIRECT");
	long lose = env_long("IOWL_FAULT_LOSE_OFFSET");

	if (!matches(fd))
		return off;
	if (lose >= 0 && off == lose)
		return -1;
	if (m && atol(m) == off && strchr(m, ':'))
		return atol(strchr(m, ':') + 1);
	return off;
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off_t);
	int f = fault(fd, off);
	off_t to = write_target(fd, off);

	if (!real)
		real = (ssize_t(*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite64");
	if (f < 0)
		return -1;
	if (to < 0)
		return (ssize_t)n;
	off = to;
	return real(fd, buf, f && n > 1 ? n / 2 : n, off);
}

ssize_t read(int fd, void *buf, size_t n)
{
	static ssize_t (*real)(int, void *, size_t);
	int f = fault(fd, lseek(fd, 0, SEEK_CUR));

	if (!real)
		real = (ssize_t(*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	if (f < 0)
		return -1;
	return real(fd, buf, f && n > 1 ? n / 2 : n);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);
	int f = fault(fd, lseek(fd, 0, SEEK_CUR));

	if (!real)
		real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (f < 0)
		return -1;
	return real(fd, buf, f && n > 1 ? n / 2 : n);
}
