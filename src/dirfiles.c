// SPDX-License-Identifier: MIT
/* opendir=: the regular files below a directory, in fio's order (readdir, depth first). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "iowl/dirfiles.h"
#include "iowl/value.h"

/* Deep enough for any real tree; a loop of bind mounts ends here instead of never. */
#define DIRFILES_MAX_DEPTH 256

static int push(char ***names, unsigned *n, char *path)
{
	char **v = realloc(*names, (*n + 2) * sizeof(*v));

	if (!v) {
		free(path);
		return -ENOMEM;
	}
	v[(*n)++] = path;
	v[*n] = NULL;
	*names = v;
	return 0;
}

static int walk(const char *dir, char ***names, unsigned *n, char *why, unsigned depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int ret = 0;

	if (!d) {
		ret = -errno;
		snprintf(why, VAL_WHY_LEN, "cannot open directory '%s': %s", dir, strerror(errno));
		return ret;
	}
	if (depth > DIRFILES_MAX_DEPTH) {
		closedir(d);
		snprintf(why, VAL_WHY_LEN, "'%s' is more than %u directories deep", dir,
			 DIRFILES_MAX_DEPTH);
		return -ELOOP;
	}
	while (!ret && (errno = 0, e = readdir(d))) {
		struct stat st;
		char *path;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (asprintf(&path, "%s/%s", dir, e->d_name) < 0) {
			ret = -ENOMEM;
			break;
		}
		if (lstat(path, &st)) {
			ret = -errno;
			snprintf(why, VAL_WHY_LEN, "'%s': %s", path, strerror(errno));
			free(path);
		} else if (S_ISREG(st.st_mode)) {
			ret = push(names, n, path);
		} else {
			if (S_ISDIR(st.st_mode))
				ret = walk(path, names, n, why, depth + 1);
			free(path);
		}
	}
	if (!ret && errno) {
		ret = -errno;
		snprintf(why, VAL_WHY_LEN, "reading directory '%s': %s", dir, strerror(errno));
	}
	closedir(d);
	if (ret == -ENOMEM && !why[0])
		snprintf(why, VAL_WHY_LEN, "out of memory");
	return ret;
}

int dirfiles_add(const char *dir, char ***names, unsigned *n, char *why)
{
	why[0] = '\0';
	return walk(dir, names, n, why, 0);
}
