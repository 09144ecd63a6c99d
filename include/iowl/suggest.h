/* SPDX-License-Identifier: MIT */
/* "Did you mean" suggestions: the nearest known name to a misspelt one. */
#ifndef IOWL_SUGGEST_H
#define IOWL_SUGGEST_H

#include <stddef.h>

/* Words longer than this are never matched (no suggestion). */
#define SUGGEST_MAX_LEN 128

/*
 * Returns the candidate closest to word by case-insensitive Damerau-Levenshtein distance
 * (optimal string alignment: insert, delete, substitute, swap two neighbours), the first one on a
 * tie, or NULL when the best distance is more than max(2, strlen(word) / 3).  NULL entries in
 * cands are skipped.  The result is borrowed from cands.
 */
const char *suggest_closest(const char *word, const char *const *cands, size_t n);

#endif
