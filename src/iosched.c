// SPDX-License-Identifier: MIT
/* ioscheduler=: switching, checking and restoring a block device's IO scheduler (iosched.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "iowl/diskstats.h"
#include "iowl/iosched.h"

#define IOSCHED_MAX 64 /* devices one run switches */

static struct {
	char file[PATH_MAX]; /* its queue/scheduler */
	char old[64];
} saved[IOSCHED_MAX];
static unsigned nsaved;
static pthread_mutex_t saved_mu = PTHREAD_MUTEX_INITIALIZER;

/* The queue/scheduler file of the device behind path into file.  Returns 0 or -errno. */
static int sched_file(const char *path, char *file, size_t len, struct iowl_err *err)
{
	char sys[64], real[PATH_MAX - 32];
	struct stat st;
	int ret = disk_stat_target(path, &st);
	dev_t dev;

	if (ret)
		return err_errno(err, -ret, "'%s'", path);
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!major(dev) || !realpath(sys, real))
		return err_set(err,
			       "'%s' is on no block device (a file system such as tmpfs or overlay has no IO scheduler)",
			       path),
		       -ENODEV;
	snprintf(file, len, "%s/queue/scheduler", real);
	if (access(file, F_OK)) /* a partition: its disk's queue */
		snprintf(file, len, "%s/../queue/scheduler", real);
	if (access(file, F_OK))
		return err_set(err, "the device behind '%s' (%s) has no IO scheduler to switch",
			       path, real),
		       -ENODEV;
	return 0;
}

/* True when the line offers name as one of its words (with or without [ ]). */
static bool sched_offers(const char *line, const char *name, bool current)
{
	size_t n = strlen(name);

	for (const char *p = line; *p; p++) {
		bool br = *p == '[';

		if (p != line && p[-1] != ' ')
			continue;
		if ((br || !current) && !strncmp(p + br, name, n) &&
		    (br ? p[n + 1] == ']' : (p[n] == ' ' || !p[n])))
			return true;
	}
	return false;
}

int iosched_check(const char *path, const char *name, struct iowl_err *err)
{
	char file[PATH_MAX], line[256];
	int ret = sched_file(path, file, sizeof(file), err);

	if (ret)
		return ret;
	if ((ret = disk_read_line(file, line, sizeof(line))))
		return err_errno(err, -ret, "reading %s", file);
	while (*line && line[strlen(line) - 1] == ' ')
		line[strlen(line) - 1] = '\0';
	if (!sched_offers(line, name, false))
		return err_set(err, "the device behind '%s' has no scheduler '%s' (it offers: %s)",
			       path, name, line),
		       -EINVAL;
	return 0;
}

int iosched_switch(const char *job, const char *path, const char *name, struct iowl_err *err)
{
	char file[PATH_MAX], line[256], old[64] = "";
	struct iowl_err why = { "" };
	int ret = iosched_check(path, name, &why);
	FILE *f;

	if (ret)
		return err_set(err, "job '%s': ioscheduler=%s: %s", job, name, why.text), ret;
	sched_file(path, file, sizeof(file), err);
	if (!disk_read_line(file, line, sizeof(line))) {
		const char *b = strchr(line, '[');

		if (b)
			snprintf(old, sizeof(old), "%.*s", (int)strcspn(b + 1, "]"), b + 1);
	}
	bool known = false;

	pthread_mutex_lock(&saved_mu);
	for (unsigned i = 0; i < nsaved && !known; i++)
		known = !strcmp(saved[i].file, file);
	if (!known && *old && nsaved < IOSCHED_MAX) {
		snprintf(saved[nsaved].file, sizeof(saved[nsaved].file), "%s", file);
		snprintf(saved[nsaved].old, sizeof(saved[nsaved].old), "%s", old);
		nsaved++;
	}
	f = fopen(file, "w");
	ret = !f ? -errno : fputs(name, f) < 0 ? -errno : 0;
	if (f && fclose(f) && !ret)
		ret = -errno;
	if (ret) {
		pthread_mutex_unlock(&saved_mu);
		return err_errno(err, -ret, "job '%s': ioscheduler=%s: writing %s", job, name,
				 file);
	}
	/* read back, as fio: the scheduler is the one in brackets now */
	ret = disk_read_line(file, line, sizeof(line));
	pthread_mutex_unlock(&saved_mu);
	if (ret || !sched_offers(line, name, true))
		return err_set(err, "job '%s': ioscheduler=%s: %s still says '%s'", job, name, file,
			       line),
		       -EINVAL;
	return 0;
}

void iosched_restore(void)
{
	pthread_mutex_lock(&saved_mu);
	for (unsigned i = 0; i < nsaved; i++) {
		FILE *f = fopen(saved[i].file, "w");

		if (f) {
			fputs(saved[i].old, f);
			fclose(f);
		}
	}
	nsaved = 0;
	pthread_mutex_unlock(&saved_mu);
}
