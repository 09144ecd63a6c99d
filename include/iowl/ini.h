/* SPDX-License-Identifier: MIT */
/* fio-style job files read into sections of key=value tokens, each with its file and line. */
#ifndef IOWL_INI_H
#define IOWL_INI_H

#include <stdbool.h>
#include <stddef.h>

struct iowl_err;

/* Deepest chain of nested includes accepted (the top-level file is depth 0). */
#define INI_MAX_INCLUDE_DEPTH 16

/* Largest job file (top level or included) read into memory. */
#define INI_MAX_FILE_SIZE (64UL << 20)

/* One "key=value" (or bare "key") line. */
struct ini_entry {
	char *key;
	char *value;	  /* NULL for a bare key; "" for "key=" */
	const char *file; /* borrowed: interned in the doc, or a caller string */
	unsigned line;
};

/* One "[name]" section: a job, or a global section. */
struct ini_section {
	char *name;
	const char *file; /* borrowed, like ini_entry.file */
	unsigned line;
	/* which top-level file (0, 1, ...) it came from: job files are reporting groups */
	unsigned file_index;
	bool global; /* name is exactly "global" */
	/* from the command line: a global one holds defaults for the jobs of every file (fio's) */
	bool cmdline;
	struct ini_entry *entries;
	size_t nentries, cap;
};

/* Every section of every file parsed into it, in file order. */
struct ini_doc {
	struct ini_section *sections;
	size_t nsections, cap;
	char **files; /* interned file names; entries and sections point at them */
	size_t nfiles, files_cap;
	unsigned ntop; /* top-level files parsed so far: the next file_index */
};

/* Makes doc empty.  It owns nothing until something is parsed or added. */
void ini_doc_init(struct ini_doc *doc);

/*
 * Reads the job file at path and appends its sections to doc with file_index doc->ntop, then
 * increments doc->ntop.  Includes are followed (a relative path is tried against the cwd, then
 * against the including file's directory), ${VAR} and $pagesize, $mb_memory, $ncpus are expanded
 * in values.  Returns 0, -EINVAL for a syntax error or -errno for an I/O error or ENOMEM, with
 * err filled.  On failure doc is left as it was before the call (interned names aside).
 */
int ini_parse_file(struct ini_doc *doc, const char *path, struct iowl_err *err);

/*
 * Like ini_parse_file() for len bytes of text in memory; name is used in messages and as the
 * "including file" for relative includes.  text need not be NUL-terminated; a NUL byte in it is
 * a syntax error.  Returns 0 or -errno, as ini_parse_file().
 */
int ini_parse_buffer(struct ini_doc *doc, const char *name, const char *text, size_t len,
		     struct iowl_err *err);

/* Frees everything doc owns (sections, entries, interned names) and makes it empty again. */
void ini_doc_release(struct ini_doc *doc);

/*
 * Returns a copy of name owned by doc that stays valid until ini_doc_release(), the same pointer
 * for equal names, or NULL on ENOMEM.  Use it for the file argument of the two functions below
 * when the caller's string does not live as long as the doc.
 */
const char *ini_doc_intern(struct ini_doc *doc, const char *name);

/*
 * Appends an entry to a section (used by the command line for --name=... jobs and --set).  key
 * and value (NULL for a bare key) are copied; file is borrowed and must outlive the doc (a string
 * literal or an ini_doc_intern() result).  Returns 0 or -ENOMEM.
 */
int ini_section_add(struct ini_section *sec, const char *key, const char *value, const char *file,
		    unsigned line);

/*
 * Appends a new empty section; name is copied, file is borrowed as for ini_section_add().
 * global is set when name is exactly "global".  Returns the section (borrowed, valid until the
 * next section is added to doc) or NULL on ENOMEM.
 */
struct ini_section *ini_doc_add_section(struct ini_doc *doc, const char *name, const char *file,
					unsigned line, unsigned file_index);

#endif
