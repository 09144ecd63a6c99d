// SPDX-License-Identifier: MIT
/* Checks that man/iowl.1 documents the option table, the command-line flags and the exit statuses. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "iowl/cli.h"
#include "iowl/options.h"
#include "iowl/run.h"

static const int exit_statuses[] = {
	IOWL_EXIT_OK, IOWL_EXIT_USAGE, IOWL_EXIT_IO, IOWL_EXIT_ASSERT, IOWL_EXIT_SIGINT,
	IOWL_EXIT_SIGTERM,
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The manual split into lines, with roff escapes turned into plain text. */
struct manual {
	const char *path;
	char *text;
	char **plain;
	size_t n;
};

/* Lines [begin, end) of one .SH section, the header line excluded. */
struct section {
	size_t begin, end;
};

static const char *roff_special(const char *name)
{
	static const struct { const char *name, *text; } chars[] = {
		{ "lq", "\"" }, { "rq", "\"" }, { "dq", "\"" }, { "ha", "^" }, { "ti", "~" },
		{ "mu", "x" }, { "bu", "*" }, { "em", "-" }, { "en", "-" }, { "aq", "'" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(chars); i++)
		if (!strncmp(name, chars[i].name, 2))
			return chars[i].text;
	return "?";
}

/* Returns a malloc'd copy of a roff line with font changes and escapes replaced by plain text, or NULL. */
static char *roff_plain(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;

	if (!out)
		return NULL;
	while (*s) {
		if (*s != '\\') {
			*o++ = *s++;
			continue;
		}
		s++;
		switch (*s) {
		case '\0':
			continue;
		case 'f':	/* \fB, \fI, \fR, \fP, \f(XX */
			s += s[1] == '(' ? 4 : s[1] ? 2 : 1;
			continue;
		case '(': {	/* \(xx: a named character */
			const char *t = s[1] && s[2] ? roff_special(s + 1) : "?";

			while (*t)
				*o++ = *t++;
			s += s[1] && s[2] ? 3 : 1;
			continue;
		}
		case '&': case ':': case 'c': case '%':
			s++;
			continue;
		case 'e':
			*o++ = '\\';
			s++;
			continue;
		default:	/* \-, \\, "\ " and the like: the character itself */
			*o++ = *s++;
			continue;
		}
	}
	*o = '\0';
	return out;
}

/* Reads the whole file at path into a malloc'd NUL-terminated buffer.  Returns it or NULL. */
static char *read_text(const char *path)
{
	size_t len = 0, cap = 65536, n;
	char *text = malloc(cap), *p;
	FILE *f = fopen(path, "r");

	if (!f || !text) {
		print_error("cannot read the manual '%s': %s (run from the repository root, or set IOWL_MANUAL)\n",
			    path, strerror(errno));
		goto out_free;
	}
	while ((n = fread(text + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len > 1)
			continue;
		p = realloc(text, 2 * cap);
		if (!p)
			goto out_free;
		text = p;
		cap *= 2;
	}
	if (ferror(f))
		goto out_free;
	fclose(f);
	text[len] = '\0';
	return text;

out_free:
	if (f)
		fclose(f);
	free(text);
	return NULL;
}

static int manual_teardown(void **state);

static int manual_setup(void **state)
{
	struct manual *m = calloc(1, sizeof(*m));
	const char *path = getenv("IOWL_MANUAL");
	size_t n = 1;
	char *p;

	*state = m;
	if (!m)
		return -1;
	m->path = path && *path ? path : "man/iowl.1";
	m->text = read_text(m->path);
	if (!m->text)
		goto out_fail;
	for (p = m->text; *p; p++)
		n += *p == '\n';
	m->plain = calloc(n, sizeof(*m->plain));
	if (!m->plain)
		goto out_fail;
	for (p = m->text; *p;) {
		char *nl = strchr(p, '\n');

		if (nl)
			*nl = '\0';
		m->plain[m->n] = roff_plain(p);
		if (!m->plain[m->n++])
			goto out_fail;
		p = nl ? nl + 1 : p + strlen(p);
	}
	return 0;

out_fail:
	manual_teardown(state);
	*state = NULL;
	return -1;
}

static int manual_teardown(void **state)
{
	struct manual *m = *state;

	for (size_t i = 0; m && i < m->n; i++)
		free(m->plain[i]);
	if (m) {
		free(m->plain);
		free(m->text);
	}
	free(m);
	return 0;
}

static bool is_macro(const char *line, const char *macro)
{
	size_t len = strlen(macro);

	return !strncmp(line, macro, len) && (line[len] == '\0' || line[len] == ' ');
}

/* Finds the .SH section titled title (quotes optional).  Fails the test when there is none. */
static struct section find_section(const struct manual *m, const char *title)
{
	struct section sec = { 0, 0 };
	bool found = false;

	for (size_t i = 0; i < m->n; i++) {
		const char *t = m->plain[i] + 3;
		size_t len;

		if (!is_macro(m->plain[i], ".SH"))
			continue;
		if (found) {
			sec.end = i;
			return sec;
		}
		while (*t == ' ')
			t++;
		if (*t == '"')
			t++;
		len = strlen(title);
		if (!strncmp(t, title, len) && (t[len] == '\0' || t[len] == '"' || t[len] == ' ')) {
			found = true;
			sec.begin = i + 1;
		}
	}
	if (!found)
		fail_msg("%s: no section '.SH %s'", m->path, title);
	sec.end = m->n;
	return sec;
}

/*
 * The tag of a .TP (or .TQ) entry: the first word of the font macro line after it, up to '=',
 * a blank or a quote (".BI rw= mode" gives "rw", ".B thread" gives "thread").  Writes it into
 * buf and returns true, or returns false when the line is not a .B/.BI/.BR/.I/.IR line.
 */
static bool tag_word(const char *plain, char *buf, size_t size)
{
	static const char *const macros[] = { ".BI", ".BR", ".B", ".IR", ".IB", ".I" };
	const char *p = NULL;
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(macros) && !p; i++)
		if (is_macro(plain, macros[i]))
			p = plain + strlen(macros[i]);
	if (!p)
		return false;
	while (*p == ' ' || *p == '"')
		p++;
	while (p[n] && !strchr(" =\"", p[n]) && n + 1 < size) {
		buf[n] = p[n];
		n++;
	}
	buf[n] = '\0';
	return n > 0;
}

static bool is_entry_start(const char *plain)
{
	return is_macro(plain, ".TP") || is_macro(plain, ".TQ");
}

static bool is_entry_end(const char *plain)
{
	return is_entry_start(plain) || is_macro(plain, ".SS") || is_macro(plain, ".SH");
}

static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-';
}

/* True when word occurs in text with no name character (letter, digit, '_', '-') around it. */
static bool has_word(const char *text, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
		if ((p == text || !word_char(p[-1])) && !word_char(p[len]))
			return true;
	return false;
}

/* True when word appears in lines [begin, end) of the manual's plain text. */
static bool lines_have_word(const struct manual *m, size_t begin, size_t end, const char *word)
{
	for (size_t i = begin; i < end; i++)
		if (has_word(m->plain[i], word))
			return true;
	return false;
}

/* Index of the tag line of the entry documenting name in sec, or 0 when there is none. */
static size_t find_entry(const struct manual *m, struct section sec, const char *name)
{
	char tag[128];

	for (size_t i = sec.begin; i + 1 < sec.end; i++)
		if (is_entry_start(m->plain[i]) && tag_word(m->plain[i + 1], tag, sizeof(tag)) &&
		    !strcmp(tag, name))
			return i + 1;
	return 0;
}

static size_t entry_end(const struct manual *m, struct section sec, size_t tag_line)
{
	size_t i = tag_line + 1;

	while (i < sec.end && !is_entry_end(m->plain[i]))
		i++;
	return i;
}

/* Every supported option has a ".TP" entry under JOB OPTIONS that mentions its alias. */
static void test_every_option_documented(void **state)
{
	const struct manual *m = *state;
	struct section sec = find_section(m, "JOB OPTIONS");
	unsigned n, missing = 0;
	const struct opt_def *tab = opt_table(&n);

	for (unsigned i = 0; i < n; i++) {
		size_t line;

		if (tab[i].type == OPT_UNSUPPORTED)
			continue;
		line = find_entry(m, sec, tab[i].name);
		if (!line) {
			print_message("%s: JOB OPTIONS has no entry for '%s' (.TP then .BI %s= type, or .B %s)\n",
				      m->path, tab[i].name, tab[i].name, tab[i].name);
			missing++;
		} else if (tab[i].alias &&
			   !lines_have_word(m, line, entry_end(m, sec, line), tab[i].alias)) {
			print_message("%s:%zu: the entry of '%s' does not mention its alias '%s'\n",
				      m->path, line + 1, tab[i].name, tab[i].alias);
			missing++;
		}
	}
	assert_int_equal(missing, 0);
}

/* Every ".TP" entry under JOB OPTIONS names a supported option of the table, once. */
static void test_no_stale_option_documented(void **state)
{
	const struct manual *m = *state;
	struct section sec = find_section(m, "JOB OPTIONS");
	unsigned bad = 0;
	char tag[128];

	for (size_t i = sec.begin; i + 1 < sec.end; i++) {
		const struct opt_def *def;

		if (!is_entry_start(m->plain[i]))
			continue;
		if (!tag_word(m->plain[i + 1], tag, sizeof(tag))) {
			print_message("%s:%zu: a .TP under JOB OPTIONS must be followed by .BI name= type or .B name\n",
				      m->path, i + 1);
			bad++;
			continue;
		}
		def = opt_find(tag);
		if (!def || def->type == OPT_UNSUPPORTED || strcmp(def->name, tag)) {
			print_message("%s:%zu: JOB OPTIONS documents '%s', which is %s\n", m->path,
				      i + 2, tag,
				      !def ? "not in the option table" :
				      def->type == OPT_UNSUPPORTED ? "an unsupported fio option" :
				      "an alias (document it in its option's entry)");
			bad++;
		} else if (find_entry(m, sec, tag) != i + 1) {
			print_message("%s:%zu: '%s' is documented twice under JOB OPTIONS\n",
				      m->path, i + 2, tag);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/*
 * Every unsupported fio option is named under FIO OPTIONS NOT SUPPORTED, and every name listed
 * in its .TP entries (.B/.BR lines) is one of them.
 */
static void test_unsupported_listed(void **state)
{
	const struct manual *m = *state;
	struct section sec = find_section(m, "FIO OPTIONS NOT SUPPORTED");
	unsigned n, bad = 0;
	const struct opt_def *tab = opt_table(&n);
	bool in_entry = false;
	char word[128];

	for (unsigned i = 0; i < n; i++) {
		if (tab[i].type != OPT_UNSUPPORTED ||
		    lines_have_word(m, sec.begin, sec.end, tab[i].name))
			continue;
		print_message("%s: FIO OPTIONS NOT SUPPORTED does not name '%s'\n", m->path,
			      tab[i].name);
		bad++;
	}
	for (size_t i = sec.begin; i < sec.end; i++) {
		const struct opt_def *def;

		if (is_entry_start(m->plain[i]) || is_entry_end(m->plain[i])) {
			in_entry = is_entry_start(m->plain[i]);
			i += in_entry;	/* skip the tag line (the group's title) */
			continue;
		}
		if (!in_entry || (!is_macro(m->plain[i], ".B") && !is_macro(m->plain[i], ".BR")) ||
		    !tag_word(m->plain[i], word, sizeof(word)))
			continue;
		def = opt_find(word);
		if (!def || def->type != OPT_UNSUPPORTED || strcmp(def->name, word)) {
			print_message("%s:%zu: FIO OPTIONS NOT SUPPORTED lists '%s', which is %s\n",
				      m->path, i + 1, word,
				      def ? "an option iowl supports" : "not in the option table");
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/*
 * Every command-line flag of cli.c's table (fio's refused ones too) has an entry under COMMAND
 * LINE, and so has --name, the job option that starts a command-line job.
 */
static void test_flags_documented(void **state)
{
	const struct manual *m = *state;
	struct section sec = find_section(m, "COMMAND LINE");
	unsigned missing = 0;
	size_t n;
	const struct cli_flag *t = cli_flag_table(&n);
	char flag[64];

	if (!find_entry(m, sec, "--name")) {
		print_message("%s: COMMAND LINE has no entry for '--name'\n", m->path);
		missing++;
	}
	for (size_t f = 0; f < n; f++) {
		snprintf(flag, sizeof(flag), "--%s", t[f].name);
		if (find_entry(m, sec, flag))
			continue;
		print_message("%s: COMMAND LINE has no entry for %s'%s' (.TP then .BI %s= value, or .B %s)\n",
			      m->path, t[f].fio ? "fio's " : "", flag, flag, flag);
		missing++;
	}
	assert_int_equal(missing, 0);
}

/* EXIT STATUS has an entry for each status of enum iowl_exit, and no other. */
static void test_exit_statuses(void **state)
{
	const struct manual *m = *state;
	struct section sec = find_section(m, "EXIT STATUS");
	unsigned bad = 0;
	char num[16], tag[128];

	for (size_t i = 0; i < ARRAY_SIZE(exit_statuses); i++) {
		snprintf(num, sizeof(num), "%d", exit_statuses[i]);
		if (find_entry(m, sec, num))
			continue;
		print_message("%s: EXIT STATUS has no entry for status %s (.TP then .B %s)\n",
			      m->path, num, num);
		bad++;
	}
	for (size_t i = sec.begin; i + 1 < sec.end; i++) {
		bool known = false;

		if (!is_entry_start(m->plain[i]) || !tag_word(m->plain[i + 1], tag, sizeof(tag)))
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(exit_statuses); k++) {
			snprintf(num, sizeof(num), "%d", exit_statuses[k]);
			known |= !strcmp(num, tag);
		}
		if (!known) {
			print_message("%s:%zu: EXIT STATUS documents status '%s', which iowl never returns\n",
				      m->path, i + 2, tag);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_option_documented),
		cmocka_unit_test(test_no_stale_option_documented),
		cmocka_unit_test(test_unsupported_listed),
		cmocka_unit_test(test_flags_documented),
		cmocka_unit_test(test_exit_statuses),
	};

	return cmocka_run_group_tests(tests, manual_setup, manual_teardown);
}
