// SPDX-License-Identifier: MIT
/* Unit tests for the job file tokenizer: tokens, positions, includes, expansion, errors. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "iowl/err.h"
#include "iowl/ini.h"

/* Parses text as "t.ini" into doc.  Returns what ini_parse_buffer() returns. */
static int parse(struct ini_doc *doc, const char *text, struct iowl_err *err)
{
	return ini_parse_buffer(doc, "t.ini", text, strlen(text), err);
}

static void entry_is(const struct ini_section *sec, size_t i, const char *key, const char *value,
		     const char *file, unsigned line)
{
	const struct ini_entry *e;

	if (i >= sec->nentries)
		fail_msg("section '%s' has %zu entries, no entry %zu", sec->name, sec->nentries, i);
	e = &sec->entries[i];
	assert_string_equal(e->key, key);
	if (value)
		assert_string_equal(e->value, value);
	else
		assert_null(e->value);
	assert_string_equal(e->file, file);
	assert_int_equal(e->line, line);
}

/* Asserts that text fails with ret and exactly the message want, leaving the doc empty. */
static void fails(const char *text, size_t len, int ret, const char *want)
{
	struct iowl_err err = {""};
	struct ini_doc doc;

	ini_doc_init(&doc);
	assert_int_equal(ini_parse_buffer(&doc, "t.ini", text, len, &err), ret);
	assert_string_equal(err.text, want);
	assert_int_equal(doc.nsections, 0);
	assert_int_equal(doc.ntop, 0);
	ini_doc_release(&doc);
}

#define FAILS(text, want) fails(text, strlen(text), -EINVAL, want)

static void test_tokens(void **state)
{
	static const char text[] = "[global]\n"
				   "bs=4k\n"
				   "\n"
				   "[job1]\n"
				   "rw = randread \n"
				   "bare\n"
				   "key=\n"
				   "\tpath=/a b/c\t\n"
				   "k==v=\n";
	struct iowl_err err = {""};
	struct ini_doc doc;
	const struct ini_section *s;

	ini_doc_init(&doc);
	assert_int_equal(parse(&doc, text, &err), 0);
	assert_int_equal(doc.nsections, 2);
	assert_int_equal(doc.ntop, 1);
	s = &doc.sections[0];
	assert_string_equal(s->name, "global");
	assert_true(s->global);
	assert_string_equal(s->file, "t.ini");
	assert_int_equal(s->line, 1);
	assert_int_equal(s->file_index, 0);
	assert_int_equal(s->nentries, 1);
	entry_is(s, 0, "bs", "4k", "t.ini", 2);
	s = &doc.sections[1];
	assert_string_equal(s->name, "job1");
	assert_false(s->global);
	assert_int_equal(s->line, 4);
	assert_int_equal(s->nentries, 5);
	entry_is(s, 0, "rw", "randread", "t.ini", 5);
	entry_is(s, 1, "bare", NULL, "t.ini", 6);
	entry_is(s, 2, "key", "", "t.ini", 7);
	entry_is(s, 3, "path", "/a b/c", "t.ini", 8);
	entry_is(s, 4, "k", "=v=", "t.ini", 9);
	ini_doc_release(&doc);
	assert_int_equal(doc.nsections, 0);
	assert_null(doc.sections);
}

static void test_comments(void **state)
{
	static const char text[] = "; leading comment\n"
				   "# another\n"
				   "   ;indented\n"
				   "\t# indented\n"
				   "[a] ; comment after a header\n"
				   "x=1 ; inline\n"
				   "y=/p#frag\n"
				   "z = 2# c\n"
				   "v= ;only a comment\n"
				   "w=\t3\t\n"
				   "flag # bare key with comment\n";
	struct iowl_err err = {""};
	struct ini_doc doc;

	ini_doc_init(&doc);
	assert_int_equal(parse(&doc, text, &err), 0);
	assert_int_equal(doc.nsections, 1);
	assert_int_equal(doc.sections[0].line, 5);
	assert_int_equal(doc.sections[0].nentries, 6);
	entry_is(&doc.sections[0], 0, "x", "1", "t.ini", 6);
	entry_is(&doc.sections[0], 1, "y", "/p", "t.ini", 7);
	entry_is(&doc.sections[0], 2, "z", "2", "t.ini", 8);
	entry_is(&doc.sections[0], 3, "v", "", "t.ini", 9);
	entry_is(&doc.sections[0], 4, "w", "3", "t.ini", 10);
	entry_is(&doc.sections[0], 5, "flag", NULL, "t.ini", 11);
	ini_doc_release(&doc);
}

static void test_line_ends(void **state)
{
	static const char crlf[] = "[a]\r\nx=1\r\n\r\ny = 2 \r\n";
	static const char bom[] = "\xef\xbb\xbf[a]\nx=1";
	struct iowl_err err = {""};
	struct ini_doc doc;

	ini_doc_init(&doc);
	assert_int_equal(parse(&doc, crlf, &err), 0);
	entry_is(&doc.sections[0], 0, "x", "1", "t.ini", 2);
	entry_is(&doc.sections[0], 1, "y", "2", "t.ini", 4);
	/* no newline at the end, and a byte order mark */
	assert_int_equal(parse(&doc, bom, &err), 0);
	assert_string_equal(doc.sections[1].name, "a");
	entry_is(&doc.sections[1], 0, "x", "1", "t.ini", 2);
	/* the buffer is not NUL-terminated: only len bytes count */
	assert_int_equal(ini_parse_buffer(&doc, "t.ini", "[b]\nx=12345", 9, &err), 0);
	entry_is(&doc.sections[2], 0, "x", "123", "t.ini", 2);
	assert_int_equal(ini_parse_buffer(&doc, "empty", NULL, 0, &err), 0);
	assert_int_equal(ini_parse_buffer(&doc, "empty", "", 0, &err), 0);
	assert_int_equal(doc.nsections, 3);
	assert_int_equal(doc.ntop, 5);
	ini_doc_release(&doc);
}

static void test_sections(void **state)
{
	static const char text[] = "[  job one  ]\n"
				   "[ global ]\n"
				   "[globalfoo]\n"
				   "[Global]\n"
				   "[a]\nx=1\n"
				   "[a]\nx=2\nx=3\n";
	struct iowl_err err = {""};
	struct ini_doc doc;

	ini_doc_init(&doc);
	assert_int_equal(parse(&doc, text, &err), 0);
	assert_int_equal(doc.nsections, 6);
	assert_string_equal(doc.sections[0].name, "job one");
	assert_false(doc.sections[0].global);
	assert_string_equal(doc.sections[1].name, "global");
	assert_true(doc.sections[1].global);
	assert_false(doc.sections[2].global); /* fio's prefix match is not copied */
	assert_false(doc.sections[3].global);
	/* duplicate names are separate jobs; repeated keys are kept in order */
	assert_string_equal(doc.sections[4].name, "a");
	assert_string_equal(doc.sections[5].name, "a");
	assert_int_equal(doc.sections[4].nentries, 1);
	entry_is(&doc.sections[5], 0, "x", "2", "t.ini", 8);
	entry_is(&doc.sections[5], 1, "x", "3", "t.ini", 9);
	ini_doc_release(&doc);
}

static void test_several_files(void **state)
{
	struct iowl_err err = {""};
	struct ini_doc doc;

	ini_doc_init(&doc);
	assert_int_equal(ini_parse_buffer(&doc, "one.ini", "[a]\n[b]\n", 8, &err), 0);
	assert_int_equal(ini_parse_buffer(&doc, "two.ini", "[c]\n", 4, &err), 0);
	assert_int_equal(doc.ntop, 2);
	assert_int_equal(doc.sections[1].file_index, 0);
	assert_string_equal(doc.sections[1].file, "one.ini");
	assert_int_equal(doc.sections[2].file_index, 1);
	assert_string_equal(doc.sections[2].file, "two.ini");
	/* a failed file leaves the doc as it was and does not use up a file index */
	assert_int_equal(ini_parse_buffer(&doc, "bad.ini", "[d]\nx=1\n[e\n", 11, &err), -EINVAL);
	assert_int_equal(doc.nsections, 3);
	assert_int_equal(doc.ntop, 2);
	assert_int_equal(ini_parse_buffer(&doc, "three.ini", "[f]\n", 4, &err), 0);
	assert_int_equal(doc.sections[3].file_index, 2);
	ini_doc_release(&doc);
}

static void test_errors(void **state)
{
	FAILS("x=1\n",
	      "t.ini:1: option 'x' is outside a [section] (put it under [global] or a job)");
	FAILS("\n\nbare\n",
	      "t.ini:3: option 'bare' is outside a [section] (put it under [global] or a job)");
	FAILS("[a\n", "t.ini:1: missing ']' in section header '[a'");
	FAILS("[a ; x]\n",
	      "t.ini:1: missing ']' in section header '[a' (';' and '#' start a comment)");
	FAILS("[]\n", "t.ini:1: empty section name '[]'");
	FAILS("[ \t ]\n", "t.ini:1: empty section name '[ \t ]'");
	FAILS("[a] x\n", "t.ini:1: unexpected text ' x' after section header '[a]'");
	FAILS("[a]]\n", "t.ini:1: unexpected text ']' after section header '[a]'");
	FAILS("[a]\n=x\n", "t.ini:2: missing option name before '=' in '=x'");
	FAILS("[a]\n  = x\n", "t.ini:2: missing option name before '=' in '= x'");
	FAILS("=x\n", "t.ini:1: missing option name before '=' in '=x'");
	FAILS("[a]\nrw randread\n",
	      "t.ini:2: option name 'rw randread' contains a blank (missing '='?)");
	FAILS("[a]\ninclude=x\n",
	      "t.ini:2: 'include' is a directive: write 'include FILE' without '='");
	FAILS("[a]\ninclude = x\n",
	      "t.ini:2: 'include' is a directive: write 'include FILE' without '='");
	FAILS("[a]\ninclude\n", "t.ini:2: 'include' needs a file name");
	FAILS("include x.inc\n",
	      "t.ini:1: include 'x.inc' is outside a [section] (put it under [global] or a job)");
	FAILS("[a]\nx=${FOO\n", "t.ini:2: x=${FOO: missing '}' after '${' (write ${NAME})");
	FAILS("[a]\nx=a${FOO;}\n", "t.ini:2: x=a${FOO: missing '}' after '${' (write ${NAME})");
	FAILS("[a]\nx=${}\n", "t.ini:2: x=${}: empty variable name in '${}' (write ${NAME})");
	fails("[a]\nx=1\0y\n", 8, -EINVAL, "t.ini:2: unexpected NUL byte in line");
	fails("[a]\n\0", 5, -EINVAL, "t.ini:2: unexpected NUL byte in line");
}

static void test_long_lines(void **state)
{
	const size_t n = 200 * 1024;
	struct iowl_err err = {""};
	struct ini_doc doc;
	char *text = malloc(n + 16);
	char want[128];

	assert_non_null(text);
	memcpy(text, "[a]\nk=", 6);
	memset(text + 6, 'v', n);
	memcpy(text + 6 + n, "\n", 2);
	ini_doc_init(&doc);
	assert_int_equal(parse(&doc, text, &err), 0);
	assert_int_equal(strlen(doc.sections[0].entries[0].value), n);
	ini_doc_release(&doc);

	/* a long quoted subject is cut short */
	text[0] = '[';
	memset(text + 1, 'a', n);
	text[n + 1] = '\0';
	assert_int_equal(parse(&doc, text, &err), -EINVAL);
	snprintf(want, sizeof(want), "t.ini:1: missing ']' in section header '[%.79s...'",
		 text + 1);
	assert_string_equal(err.text, want);
	ini_doc_release(&doc);
	free(text);
}

static void test_env(void **state)
{
	static const char text[] = "[a]\n"
				   "x=${IOWL_T_A}/y\n"
				   "z=${IOWL_T_UNSET}\n"
				   "w=a${IOWL_T_A}${IOWL_T_A}b\n"
				   "s=${IOWL_T_SEMI}\n"
				   "r=${IOWL_T_REC}\n"
				   "${IOWL_T_A}=1\n"
				   "d=$\n"
				   "e=a$b$\n";
	struct iowl_err err = {""};
	struct ini_doc doc;
	const struct ini_section *s;

	setenv("IOWL_T_A", "hello", 1);
	setenv("IOWL_T_SEMI", "a;b#c", 1);
	setenv("IOWL_T_REC", "${IOWL_T_A}$ncpus", 1);
	unsetenv("IOWL_T_UNSET");
	ini_doc_init(&doc);
	assert_int_equal(parse(&doc, text, &err), 0);
	s = &doc.sections[0];
	entry_is(s, 0, "x", "hello/y", "t.ini", 2);
	entry_is(s, 1, "z", "", "t.ini", 3);
	entry_is(s, 2, "w", "ahellohellob", "t.ini", 4);
	entry_is(s, 3, "s", "a;b#c", "t.ini", 5);	      /* expanded after comments are cut */
	entry_is(s, 4, "r", "${IOWL_T_A}$ncpus", "t.ini", 6); /* no second round */
	entry_is(s, 5, "${IOWL_T_A}", "1", "t.ini", 7);	      /* keys are not expanded */
	entry_is(s, 6, "d", "$", "t.ini", 8);
	entry_is(s, 7, "e", "a$b$", "t.ini", 9);
	ini_doc_release(&doc);
}

static void test_keywords(void **state)
{
	static const char text[] = "[a]\n"
				   "p=$pagesize\n"
				   "n=$ncpus\n"
				   "m=$mb_memory\n"
				   "x=$pagesizex\n"
				   "f=$jobname.$jobnum.$filenum\n"
				   "u=a$ncpus+1\n"
				   "t=$ncpus.$pagesize\n";
	long long page = sysconf(_SC_PAGESIZE), ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	long long mb = (long long)sysconf(_SC_PHYS_PAGES) * page / (1024 * 1024);
	struct iowl_err err = {""};
	const struct ini_section *s;
	struct ini_doc doc;
	char want[64];

	ini_doc_init(&doc);
	assert_int_equal(parse(&doc, text, &err), 0);
	s = &doc.sections[0];
	snprintf(want, sizeof(want), "%lld", page);
	entry_is(s, 0, "p", want, "t.ini", 2);
	snprintf(want, sizeof(want), "%lld", ncpu);
	entry_is(s, 1, "n", want, "t.ini", 3);
	snprintf(want, sizeof(want), "%lld", mb);
	entry_is(s, 2, "m", want, "t.ini", 4);
	assert_true(mb > 0 && ncpu > 0 && page >= 4096);
	entry_is(s, 3, "x", "$pagesizex", "t.ini", 5);
	entry_is(s, 4, "f", "$jobname.$jobnum.$filenum", "t.ini", 6);
	snprintf(want, sizeof(want), "a%lld+1", ncpu);
	entry_is(s, 5, "u", want, "t.ini", 7);
	snprintf(want, sizeof(want), "%lld.%lld", ncpu, page);
	entry_is(s, 6, "t", want, "t.ini", 8);
	ini_doc_release(&doc);
}

static void test_api(void **state)
{
	struct ini_section *sec;
	struct ini_doc doc;
	const char *f;

	ini_doc_init(&doc);
	f = ini_doc_intern(&doc, "command line");
	assert_non_null(f);
	assert_ptr_equal(ini_doc_intern(&doc, "command line"), f);
	assert_ptr_not_equal(ini_doc_intern(&doc, "other"), f);
	assert_int_equal(doc.nfiles, 2);
	sec = ini_doc_add_section(&doc, "global", f, 0, 3);
	assert_non_null(sec);
	assert_true(sec->global);
	assert_int_equal(sec->file_index, 3);
	assert_int_equal(ini_section_add(sec, "bs", "4k", f, 0), 0);
	assert_int_equal(ini_section_add(sec, "direct", NULL, "--set", 7), 0);
	sec = ini_doc_add_section(&doc, "job", "--name", 1, 3);
	assert_false(sec->global);
	assert_int_equal(doc.nsections, 2);
	entry_is(&doc.sections[0], 0, "bs", "4k", "command line", 0);
	entry_is(&doc.sections[0], 1, "direct", NULL, "--set", 7);
	ini_doc_release(&doc);
	assert_int_equal(doc.nfiles, 0);
	ini_doc_release(&doc);
}

/* Deterministic garbage, and near-miss job files, must never crash or leak. */
static void test_garbage(void **state)
{
	static const char alphabet[] = "[]=;#$ {}\n\r\tab\0x";
	struct iowl_err err;
	struct ini_doc doc;
	uint32_t seed = 12345;
	char buf[256];
	size_t i, j, len;

	ini_doc_init(&doc);
	for (i = 0; i < 20000; i++) {
		len = (seed >> 8) % sizeof(buf);
		for (j = 0; j < len; j++) {
			seed = seed * 1103515245 + 12345;
			buf[j] = (seed >> 16) & 1 ? alphabet[(seed >> 17) % (sizeof(alphabet) - 1)]
						  : (char)(seed >> 20);
		}
		if (ini_parse_buffer(&doc, "fuzz", buf, len, &err) && !err.text[0])
			fail_msg("error without a message at iteration %zu", i);
		err.text[0] = '\0';
	}
	ini_doc_release(&doc);
}

/* ---- includes, on real files in a scratch directory ---- */

struct scratch {
	char dir[64];
	char old[PATH_MAX];
};

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int scratch_setup(void **state)
{
	struct scratch *s = calloc(1, sizeof(*s));

	if (!s || !getcwd(s->old, sizeof(s->old)))
		return -1;
	strcpy(s->dir, "/tmp/iowl-ini-XXXXXX");
	if (!mkdtemp(s->dir) || chdir(s->dir) || mkdir("jobs", 0755))
		return -1;
	*state = s;
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static int scratch_teardown(void **state)
{
	struct scratch *s = *state;
	int r;

	r = chdir(s->old);
	r |= nftw(s->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(s);
	return r;
}

/* Parses path and asserts it fails with ret and exactly the message want. */
static void file_fails(const char *path, int ret, const char *want)
{
	struct iowl_err err = {""};
	struct ini_doc doc;

	ini_doc_init(&doc);
	assert_int_equal(ini_parse_file(&doc, path, &err), ret);
	assert_string_equal(err.text, want);
	assert_int_equal(doc.nsections, 0);
	ini_doc_release(&doc);
}

static void test_include_dirs(void **state)
{
	struct iowl_err err = {""};
	struct ini_doc doc;
	const struct ini_section *s;

	put("jobs/main.ini", "[global]\ninclude common.inc\n[a]\nx=1\ninclude common.inc\ny=2\n");
	put("jobs/common.inc", "; shared\nbs=4k\n\nrw=read\n");
	ini_doc_init(&doc);
	/* not in the cwd: found next to the including file, with its own name and lines */
	assert_int_equal(ini_parse_file(&doc, "jobs/main.ini", &err), 0);
	assert_int_equal(doc.nsections, 2);
	entry_is(&doc.sections[0], 0, "bs", "4k", "jobs/common.inc", 2);
	s = &doc.sections[1];
	assert_int_equal(s->nentries, 4);
	entry_is(s, 0, "x", "1", "jobs/main.ini", 4);
	entry_is(s, 1, "bs", "4k", "jobs/common.inc", 2);
	entry_is(s, 2, "rw", "read", "jobs/common.inc", 4);
	entry_is(s, 3, "y", "2", "jobs/main.ini", 6);
	ini_doc_release(&doc);

	/* the cwd is tried first */
	put("common.inc", "bs=8k\n");
	assert_int_equal(ini_parse_file(&doc, "jobs/main.ini", &err), 0);
	entry_is(&doc.sections[1], 1, "bs", "8k", "common.inc", 1);
	assert_int_equal(doc.sections[1].nentries, 3);
	ini_doc_release(&doc);
	unlink("common.inc");

	/* an absolute path, and a buffer whose name gives the directory */
	{
		char cwd[4096], text[4200];

		assert_non_null(getcwd(cwd, sizeof(cwd)));
		snprintf(text, sizeof(text), "[a]\ninclude %s/jobs/common.inc\n", cwd);
		put("jobs/abs.ini", text);
	}
	assert_int_equal(ini_parse_file(&doc, "jobs/abs.ini", &err), 0);
	assert_int_equal(
		ini_parse_buffer(&doc, "jobs/mem.ini", "[m]\ninclude common.inc\n", 22, &err), 0);
	entry_is(&doc.sections[1], 0, "bs", "4k", "jobs/common.inc", 2);
	ini_doc_release(&doc);
}

static void test_include_nested(void **state)
{
	struct iowl_err err = {""};
	struct ini_doc doc;
	const struct ini_section *s;

	put("jobs/nest.ini", "[a]\ninclude n1.inc\nz=3\n");
	put("jobs/n1.inc", "a=1\ninclude sub/n2.inc\nb=2\n");
	assert_int_equal(mkdir("jobs/sub", 0755), 0);
	put("jobs/sub/n2.inc", "\nc=${IOWL_T_INC}\ninclude n3.inc\n");
	put("jobs/sub/n3.inc", "d=4");
	setenv("IOWL_T_INC", "env", 1);
	ini_doc_init(&doc);
	assert_int_equal(ini_parse_file(&doc, "jobs/nest.ini", &err), 0);
	s = &doc.sections[0];
	assert_int_equal(s->nentries, 5);
	entry_is(s, 0, "a", "1", "jobs/n1.inc", 1);
	entry_is(s, 1, "c", "env", "jobs/sub/n2.inc", 2);
	entry_is(s, 2, "d", "4", "jobs/sub/n3.inc", 1);
	entry_is(s, 3, "b", "2", "jobs/n1.inc", 3);
	entry_is(s, 4, "z", "3", "jobs/nest.ini", 3);
	/* including the same file twice is no loop */
	put("jobs/twice.ini", "[a]\ninclude sub/n3.inc\ninclude sub/n3.inc\n");
	assert_int_equal(ini_parse_file(&doc, "jobs/twice.ini", &err), 0);
	assert_int_equal(doc.sections[1].nentries, 2);
	ini_doc_release(&doc);
}

static void test_include_loops(void **state)
{
	put("jobs/self.ini", "[a]\ninclude self.ini\n");
	file_fails("jobs/self.ini", -EINVAL,
		   "jobs/self.ini:2: include loop: jobs/self.ini -> jobs/self.ini");
	put("jobs/loop.ini", "[a]\ninclude loop1.inc\n");
	put("jobs/loop1.inc", "x=1\ninclude loop2.inc\n");
	put("jobs/loop2.inc", "include loop1.inc\n");
	file_fails("jobs/loop.ini", -EINVAL,
		   "jobs/loop2.inc:1: include loop: jobs/loop.ini -> jobs/loop1.inc -> "
		   "jobs/loop2.inc -> jobs/loop1.inc");
}

static void test_include_depth(void **state)
{
	char path[64], text[64], want[IOWL_ERR_LEN];
	struct iowl_err err = {""};
	struct ini_doc doc;
	size_t n;
	int i;

	/* deep.ini -> d1 -> ... -> d16 is 16 levels: fine */
	put("jobs/deep.ini", "[a]\ninclude d1.inc\n");
	for (i = 1; i <= 17; i++) {
		snprintf(path, sizeof(path), "jobs/d%d.inc", i);
		snprintf(text, sizeof(text), "k%d=%d\n", i, i);
		put(path, text);
	}
	for (i = 1; i < 16; i++) {
		snprintf(path, sizeof(path), "jobs/d%d.inc", i);
		snprintf(text, sizeof(text), "k%d=%d\ninclude d%d.inc\n", i, i, i + 1);
		put(path, text);
	}
	ini_doc_init(&doc);
	assert_int_equal(ini_parse_file(&doc, "jobs/deep.ini", &err), 0);
	assert_int_equal(doc.sections[0].nentries, 16);
	entry_is(&doc.sections[0], 15, "k16", "16", "jobs/d16.inc", 1);
	ini_doc_release(&doc);

	/* one more is too deep */
	put("jobs/d16.inc", "k16=16\ninclude d17.inc\n");
	n = (size_t)snprintf(want, sizeof(want),
			     "jobs/d16.inc:2: includes nested more than 16 deep: jobs/deep.ini");
	for (i = 1; i <= 17; i++)
		n += (size_t)snprintf(want + n, sizeof(want) - n, " -> jobs/d%d.inc", i);
	file_fails("jobs/deep.ini", -EINVAL, want);
}

static void big_buffer_fails(void)
{
	char *big = malloc(INI_MAX_FILE_SIZE + 1);

	assert_non_null(big);
	memcpy(big, "[a]\n", 4);
	fails(big, INI_MAX_FILE_SIZE + 1, -EFBIG, "job file 't.ini' is larger than 64 MiB");
	free(big);
}

static void test_include_errors(void **state)
{
	put("jobs/sec.ini", "[a]\ninclude sec.inc\n");
	put("jobs/sec.inc", "x=1\n[b]\n");
	file_fails("jobs/sec.ini", -EINVAL,
		   "jobs/sec.inc:2: sections are not allowed in included files ('[b]')");
	put("jobs/miss.ini", "[a]\n\ninclude nope.inc\n");
	file_fails("jobs/miss.ini", -ENOENT,
		   "jobs/miss.ini:3: cannot read include 'nope.inc': No such file or directory "
		   "(looked in the current directory and in 'jobs/')");
	put("jobs/abs.ini", "[a]\ninclude /nonexistent/x.inc\n");
	file_fails("jobs/abs.ini", -ENOENT,
		   "jobs/abs.ini:2: cannot read include '/nonexistent/x.inc': No such file or "
		   "directory");
	put("jobs/dir.ini", "[a]\ninclude sub\n");
	assert_int_equal(mkdir("jobs/sub", 0755), 0);
	file_fails("jobs/dir.ini", -EINVAL,
		   "jobs/dir.ini:2: cannot read include 'jobs/sub': not a regular file");
	/* devices and FIFOs could block or never end: an include must be a regular file */
	put("jobs/dev.ini", "[a]\ninclude /dev/zero\n");
	file_fails("jobs/dev.ini", -EINVAL,
		   "jobs/dev.ini:2: cannot read include '/dev/zero': not a regular file");
	put("jobs/bad.ini", "[a]\ninclude bad.inc\n");
	put("jobs/bad.inc", "ok=1\n=x\n");
	file_fails("jobs/bad.ini", -EINVAL,
		   "jobs/bad.inc:2: missing option name before '=' in '=x'");
	file_fails("nope.ini", -ENOENT,
		   "cannot read job file 'nope.ini': No such file or directory");
	file_fails("jobs", -EISDIR, "cannot read job file 'jobs': Is a directory");
	/* files and buffers above the size limit */
	assert_int_equal(truncate("jobs/bad.inc", INI_MAX_FILE_SIZE + 1), 0);
	file_fails("jobs/bad.ini", -EFBIG,
		   "jobs/bad.ini:2: cannot read include 'jobs/bad.inc': File too large");
	put("jobs/bad.inc", "ok=1\n");
	assert_int_equal(truncate("jobs/bad.inc", INI_MAX_FILE_SIZE), 0);
	file_fails("jobs/bad.ini", -EINVAL, "jobs/bad.inc:2: unexpected NUL byte in line");
	assert_int_equal(truncate("jobs/bad.ini", INI_MAX_FILE_SIZE + 1), 0);
	file_fails("jobs/bad.ini", -EFBIG, "cannot read job file 'jobs/bad.ini': File too large");
	big_buffer_fails();
	/* a buffer with no directory in its name looks only in the cwd */
	fails("[a]\ninclude nope.inc\n", 20, -ENOENT,
	      "t.ini:2: cannot read include 'nope.inc': No such file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tokens),
		cmocka_unit_test(test_comments),
		cmocka_unit_test(test_line_ends),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_several_files),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_env),
		cmocka_unit_test(test_keywords),
		cmocka_unit_test(test_api),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test_setup_teardown(test_include_dirs, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_include_nested, scratch_setup,
						scratch_teardown),
		cmocka_unit_test_setup_teardown(test_include_loops, scratch_setup,
						scratch_teardown),
		cmocka_unit_test_setup_teardown(test_include_depth, scratch_setup,
						scratch_teardown),
		cmocka_unit_test_setup_teardown(test_include_errors, scratch_setup,
						scratch_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
