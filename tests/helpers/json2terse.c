// SPDX-License-Identifier: MIT
/*
 * json2terse VERSION FILE.json: prints the terse lines iowl's writer makes from a JSON document
 * in fio's layout, so a test can hold them to the lines fio itself printed for the same run.
 * A file whose JSON follows other output (fio's terse lines first) is read from its first '{'.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "report/terse.h"

int main(int argc, char **argv)
{
	json_error_t jerr;
	json_t *root;
	char *text = NULL, *brace;
	size_t len = 0;
	FILE *f;
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: json2terse VERSION FILE.json\n");
		return 2;
	}
	f = fopen(argv[2], "r");
	if (!f || getdelim(&text, &len, '\0', f) < 0) {
		perror(argv[2]);
		return 2;
	}
	fclose(f);
	brace = strstr(text, "\n{");
	root = json_loads(brace ? brace + 1 : text, JSON_DISABLE_EOF_CHECK, &jerr);
	free(text);
	if (!root) {
		fprintf(stderr, "%s:%d: %s\n", argv[2], jerr.line, jerr.text);
		return 2;
	}
	ret = terse_from_json(stdout, root, (unsigned)atoi(argv[1]));
	json_decref(root);
	return ret ? 1 : 0;
}
