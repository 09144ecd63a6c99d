// SPDX-License-Identifier: MIT
/*
 * lockfile=: one lock per file shared by the jobs that lock it, as fio 3.33's: the lock is held
 * from before an IO is handed to the engine until the engine's queue call returns, so a
 * synchronous engine does the whole IO under it and a queueing one only its submission.
 * exclusive is a mutex, readwrite a reader-writer lock (reads share it).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "iowl/flock.h"

struct file_lock {
	struct file_lock *next;
	dev_t dev;
	ino_t ino;
	pthread_mutex_t mu;
	pthread_rwlock_t rw;
};

static pthread_mutex_t locks_mu = PTHREAD_MUTEX_INITIALIZER;
static struct file_lock *locks;

struct file_lock *file_lock_get(int fd)
{
	struct file_lock *l;
	struct stat st;
	dev_t dev;
	ino_t ino;

	if (fstat(fd, &st))
		return NULL;
	/* a block device is the same whatever node opened it */
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	ino = S_ISBLK(st.st_mode) ? 0 : st.st_ino;
	pthread_mutex_lock(&locks_mu);
	for (l = locks; l; l = l->next)
		if (l->dev == dev && l->ino == ino)
			break;
	if (!l && (l = calloc(1, sizeof(*l)))) {
		l->dev = dev;
		l->ino = ino;
		pthread_mutex_init(&l->mu, NULL);
		pthread_rwlock_init(&l->rw, NULL);
		l->next = locks;
		locks = l;
	} else if (!l) {
		errno = ENOMEM;
	}
	pthread_mutex_unlock(&locks_mu);
	return l;
}

void file_lock_take(struct file_lock *l, enum lockfile_mode mode, bool read)
{
	if (mode == LOCKFILE_EXCLUSIVE)
		pthread_mutex_lock(&l->mu);
	else if (read)
		pthread_rwlock_rdlock(&l->rw);
	else
		pthread_rwlock_wrlock(&l->rw);
}

void file_lock_drop(struct file_lock *l, enum lockfile_mode mode)
{
	if (mode == LOCKFILE_EXCLUSIVE)
		pthread_mutex_unlock(&l->mu);
	else
		pthread_rwlock_unlock(&l->rw);
}
