// SPDX-License-Identifier: MIT
/*
 * maxrss CMD ARGS...: runs CMD and prints its peak resident set in KiB (wait4's ru_maxrss), then
 * exits with CMD's status.  A process's peak includes what its parent had before the exec (a fork
 * of python's 10 MiB counted as the child's): this helper is small, so a small peak shows.
 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: maxrss CMD ARGS...\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("maxrss: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("maxrss: wait4");
		return 2;
	}
	printf("%ld\n", ru.ru_maxrss);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
