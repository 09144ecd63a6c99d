// SPDX-License-Identifier: MIT
/* cgroup= and cgroup_nodelete (include/iowl/cgroup.h): a clone's thread in a blkio control group. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iowl/cgroup.h"

enum { CG_UNKNOWN, CG_NONE, CG_V1, CG_V2 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int kind = CG_UNKNOWN;
static char root[PATH_MAX]; /* the hierarchy's mount point */
static struct made {
	char *path;
	bool keep;
} * made;
static unsigned nmade;

/* The hierarchy fio picks: the first cgroup v1 mount with blkio, or cgroup v2.  Under lock. */
static int find_root(void)
{
	struct mntent m, *e;
	char buf[4096];
	FILE *f;

	if (kind != CG_UNKNOWN)
		return kind;
	kind = CG_NONE;
	f = setmntent("/proc/mounts", "r");
	while (f && (e = getmntent_r(f, &m, buf, sizeof(buf)))) {
		bool v1 = !strcmp(e->mnt_type, "cgroup") && strstr(e->mnt_opts, "blkio");

		if (v1 || !strcmp(e->mnt_type, "cgroup2")) {
			kind = v1 ? CG_V1 : CG_V2;
			snprintf(root, sizeof(root), "%s", e->mnt_dir);
			break;
		}
	}
	if (f)
		endmntent(f);
	return kind;
}

int cgroup_check(const char *name, char *why, unsigned len)
{
	int k;

	if (!*name || !strcmp(name, ".") || strstr(name, "..")) {
		snprintf(why, len,
			 "'%s' is not a control group name (a directory under the blkio hierarchy, e.g. cgroup=iowl)",
			 name);
		return -EINVAL;
	}
	pthread_mutex_lock(&lock);
	k = find_root();
	pthread_mutex_unlock(&lock);
	if (k == CG_NONE) {
		snprintf(why, len,
			 "no cgroup v1 blkio hierarchy and no cgroup v2 is mounted (/proc/mounts); mount one as fio's manual says: mount -t cgroup -o blkio none /cgroup");
		return -EINVAL;
	}
	if (k == CG_V2) {
		snprintf(why, len,
			 "refused on this machine: its first cgroup hierarchy (%s) is cgroup v2, where a group holds whole processes (cgroup.procs) and the io controller is not threaded, and iowl's jobs are threads of one process, so no job can have a block IO group of its own (fio runs jobs as processes there); a cgroup v1 blkio hierarchy mounted before it would do",
			 root);
		return -EINVAL;
	}
	return 0;
}

/* Writes the calling thread's id into dir/tasks. */
static int put_tid(const char *dir)
{
	char path[PATH_MAX + 8], tid[24];
	int fd, n, ret = 0;

	snprintf(path, sizeof(path), "%s/tasks", dir);
	n = snprintf(tid, sizeof(tid), "%ld", (long)gettid());
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, tid, (size_t)n) != n)
		ret = -errno;
	if (fd >= 0)
		close(fd);
	return ret;
}

int cgroup_join(const char *name, bool nodelete, const char *job, struct iowl_err *err)
{
	char why[1024], dir[PATH_MAX * 2];
	int ret;

	if (cgroup_check(name, why, sizeof(why)))
		return err_set(err, "job '%s': cgroup=%s %s", job, name, why);
	snprintf(dir, sizeof(dir), "%s/%s", root, name);
	pthread_mutex_lock(&lock);
	if (!mkdir(dir, 0755)) { /* made here: removed at the end unless cgroup_nodelete */
		struct made *m = realloc(made, (nmade + 1) * sizeof(*made));

		if (m) {
			made = m;
			made[nmade].path = strdup(dir);
			made[nmade].keep = nodelete;
			nmade += made[nmade].path != NULL;
		}
	} else if (errno != EEXIST) {
		ret = -errno;
		pthread_mutex_unlock(&lock);
		return err_set(err, "job '%s': cgroup=%s: cannot make '%s': %s", job, name, dir,
			       strerror(-ret));
	}
	pthread_mutex_unlock(&lock);
	ret = put_tid(dir);
	if (ret)
		return err_set(err, "job '%s': cgroup=%s: cannot join '%s/tasks': %s", job, name,
			       dir, strerror(-ret));
	return 0;
}

void cgroup_leave(void)
{
	if (kind == CG_V1)
		put_tid(root);
}

void cgroup_cleanup(void)
{
	pthread_mutex_lock(&lock);
	for (unsigned i = 0; i < nmade; i++) {
		if (!made[i].keep)
			rmdir(made[i].path);
		free(made[i].path);
	}
	free(made);
	made = NULL;
	nmade = 0;
	pthread_mutex_unlock(&lock);
}
