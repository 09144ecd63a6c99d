// SPDX-License-Identifier: MIT
/* Test helper: prints the JSON value at a dotted path (jobs.0.read.iops) of a file or stdin, so shell tests need no jq. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *walk(json_t *v, char *path)
{
	char *save = NULL;

	for (char *tok = strtok_r(path, ".", &save); tok && v; tok = strtok_r(NULL, ".", &save)) {
		if (json_is_array(v))
			v = json_array_get(v, strtoul(tok, NULL, 10));
		else
			v = json_object_get(v, tok);
	}
	return v;
}

int main(int argc, char **argv)
{
	json_error_t jerr;
	json_t *root, *v;
	int members;

	if (argc != 3) {
		fprintf(stderr, "usage: jget FILE|- PATH (a.0.b; array indices as numbers; an array or object prints its length; a '=' suffix prints an object's members as key=value lines, in order)\n");
		return 2;
	}
	root = strcmp(argv[1], "-") ? json_load_file(argv[1], 0, &jerr) :
				      json_loadf(stdin, 0, &jerr);
	if (!root) {
		fprintf(stderr, "jget: %s:%d: %s\n", argv[1], jerr.line, jerr.text);
		return 1;
	}
	members = argv[2][0] && argv[2][strlen(argv[2]) - 1] == '=';
	if (members)
		argv[2][strlen(argv[2]) - 1] = '\0';
	v = walk(root, argv[2]);
	if (v && members) {
		const char *key;
		json_t *m;

		json_object_foreach(v, key, m) {
			char *text = json_is_string(m) ? NULL : json_dumps(m, JSON_COMPACT | JSON_ENCODE_ANY);

			printf("%s=%s\n", key, text ? text : json_string_value(m));
			free(text);
		}
		json_decref(root);
		return 0;
	}
	if (!v) {
		fprintf(stderr, "jget: no value at '%s'\n", argv[2]);
		json_decref(root);
		return 1;
	}
	if (json_is_string(v))
		puts(json_string_value(v));
	else if (json_is_integer(v))
		printf("%lld\n", (long long)json_integer_value(v));
	else if (json_is_real(v))
		printf("%.6f\n", json_real_value(v));
	else if (json_is_array(v))
		printf("%zu\n", json_array_size(v));
	else if (json_is_object(v))
		printf("%zu\n", json_object_size(v));
	else
		puts(json_is_true(v) ? "true" : json_is_false(v) ? "false" : "null");
	json_decref(root);
	return 0;
}
