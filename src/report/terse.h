/* SPDX-License-Identifier: MIT */
/* fio's terse (--minimal) lines, written from a fio-compatible JSON document. */
#ifndef IOWL_REPORT_TERSE_H
#define IOWL_REPORT_TERSE_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "iowl/report.h"

/*
 * Writes one terse line per job of root, a document in fio's JSON layout (iowl's or fio's own
 * 3.x output), in terse version ver (2 to 5), field for field as fio 3.33 prints it from the
 * same figures.  Returns 0, -EINVAL for a version fio does not have, or -EIO.
 */
int terse_from_json(FILE *f, const json_t *root, unsigned ver);

/* The JSON document report_json() writes, for the terse writer (json.c). */
json_t *report_json_tree(const struct run_result *r, bool plus);

#endif
