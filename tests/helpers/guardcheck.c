// SPDX-License-Identifier: MIT
/* Test helper: prints guard_check_write()'s verdict on a path, for the shell tests. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/guard.h"

/* Parses "3" or "mounted,signature" into a mask of enum guard_allow. */
static int parse_allow(char *s, unsigned *allow)
{
	char *save = NULL, *end;

	*allow = (unsigned)strtoul(s, &end, 0);
	if (*s && !*end)
		return 0;
	*allow = 0;
	for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "mounted"))
			*allow |= GUARD_ALLOW_MOUNTED;
		else if (!strcmp(tok, "signature"))
			*allow |= GUARD_ALLOW_SIGNATURE;
		else
			return -EINVAL;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct iowl_err err = {""};
	unsigned allow = 0;
	int r;

	if (argc < 2 || argc > 3 || (argc == 3 && parse_allow(argv[2], &allow))) {
		fprintf(stderr, "usage: guardcheck PATH [MASK|mounted,signature]\n");
		return 2;
	}
	r = guard_check_write(argv[1], allow, &err);
	if (!r) {
		printf("ok\n");
		return 0;
	}
	printf("%s: %s\n", strerrorname_np(-r), err.text);
	return 1;
}
