/* SPDX-License-Identifier: MIT */
/* opendir=: the regular files below a directory, as fio finds them. */
#ifndef IOWL_DIRFILES_H
#define IOWL_DIRFILES_H

/*
 * Appends to *names (a NULL-terminated array of malloc'd strings, or NULL; *n of them) every
 * regular file below dir, recursively, as fio's opendir adds them: in readdir(3) order, a
 * subdirectory walked where it is met, each named dir/entry, symbolic links and other special
 * files left out.  Returns 0, or -errno with why (VAL_WHY_LEN) naming the path that failed.
 */
int dirfiles_add(const char *dir, char ***names, unsigned *n, char *why);

#endif
