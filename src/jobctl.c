// SPDX-License-Identifier: MIT
/* A job's commands before and after its IO (exec_prerun, exec_postrun) and its user and group (uid, gid), done by its own thread. */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "iowl/jobctl.h"

extern char **environ;

int jobctl_exec(const char *cmd, const char *name, const char *mode, struct iowl_err *err)
{
	posix_spawnattr_t attr;
	sigset_t none, all;
	char sh[] = "sh", dash_c[] = "-c", *line = NULL;
	pid_t pid;
	int ret, status;

	/* grouped: all of a list's output goes to the file (fio's "cmd > file" sends a list's
	 * earlier commands' output to its own stdout, amid its results) */
	if (asprintf(&line, "{ %s\n} > '%s.%s.txt' 2>&1", cmd, name, mode) < 0)
		return err_nomem(err, "out of memory");
	sigemptyset(&none);
	sigfillset(&all);
	posix_spawnattr_init(&attr);
	/* the workers block every signal: the command must not inherit that */
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &all);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	ret = posix_spawn(&pid, "/bin/sh", NULL, &attr, (char *[]){ sh, dash_c, line, NULL },
			  environ);
	posix_spawnattr_destroy(&attr);
	free(line);
	if (ret)
		return err_errno(err, ret, "job '%s': exec_%s: /bin/sh", name, mode);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return err_errno(err, errno, "job '%s': exec_%s: waitpid", name, mode);
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	if (WIFEXITED(status))
		err_set(err,
			"job '%s': exec_%s '%s' exited with status %d (its output is in %s.%s.txt)",
			name, mode, cmd, WEXITSTATUS(status), name, mode);
	else
		err_set(err, "job '%s': exec_%s '%s' died of signal %d", name, mode, cmd,
			WTERMSIG(status));
	return -ECHILD;
}

int jobctl_set_ids(long uid, long gid, const char *name, struct iowl_err *err)
{
	if (gid >= 0 && syscall(SYS_setresgid, (gid_t)gid, (gid_t)gid, (gid_t)gid))
		return err_errno(err, errno, "job '%s': gid=%ld", name, gid);
	if (uid >= 0 && syscall(SYS_setresuid, (uid_t)uid, (uid_t)uid, (uid_t)uid))
		return err_errno(err, errno, "job '%s': uid=%ld", name, uid);
	return 0;
}
