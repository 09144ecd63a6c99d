// SPDX-License-Identifier: MIT
/* Tokenizer for fio-style job files: sections, key=value lines, includes, each with file:line. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iowl/err.h"
#include "iowl/ini.h"

/* Longest stretch of user text quoted in a message; the rest becomes "...". */
#define INI_QUOTE_MAX 80
#define INI_Q(s, len)                                                                              \
	((len) > INI_QUOTE_MAX ? INI_QUOTE_MAX : (int)(len)), (s),                                 \
		((len) > INI_QUOTE_MAX ? "..." : "")

#define INI_OUTSIDE "is outside a [section] (put it under [global] or a job)"

/* A file being read: the top-level one, then each nested include. */
struct ini_frame {
	const char *name; /* interned display name */
	char *real;	  /* canonical path for loop detection, NULL when unknown */
};

struct ini_ctx {
	struct ini_doc *doc;
	struct iowl_err *err;
	unsigned file_index;
	size_t cur;	/* 1 + index of the section being filled, 0 before the first */
	unsigned depth; /* index of the innermost frame */
	struct ini_frame stack[INI_MAX_INCLUDE_DEPTH + 1];
};

/* One line, blanks trimmed and any comment cut off. */
struct ini_line {
	const char *file;
	unsigned line;
	const char *s;
	size_t len;
	bool cut; /* a ';' or '#' comment was cut off */
};

/* A growing NUL-terminated string. */
struct ini_buf {
	char *p;
	size_t len, cap;
};

static const char *const ini_keywords[] = {"pagesize", "mb_memory", "ncpus"};

static bool ini_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Returns arr grown to hold need elements (cap updated), or NULL with arr untouched. */
static void *ini_grow(void *arr, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 4;
	void *p;

	if (arr && need <= *cap)
		return arr;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return NULL;
		ncap *= 2;
	}
	if (ncap > SIZE_MAX / size)
		return NULL;
	p = realloc(arr, ncap * size);
	if (p)
		*cap = ncap;
	return p;
}

void ini_doc_init(struct ini_doc *doc)
{
	memset(doc, 0, sizeof(*doc));
}

static void ini_section_free(struct ini_section *sec)
{
	size_t i;

	for (i = 0; i < sec->nentries; i++) {
		free(sec->entries[i].key);
		free(sec->entries[i].value);
	}
	free(sec->entries);
	free(sec->name);
}

static void ini_doc_truncate(struct ini_doc *doc, size_t n)
{
	while (doc->nsections > n)
		ini_section_free(&doc->sections[--doc->nsections]);
}

void ini_doc_release(struct ini_doc *doc)
{
	size_t i;

	ini_doc_truncate(doc, 0);
	free(doc->sections);
	for (i = 0; i < doc->nfiles; i++)
		free(doc->files[i]);
	free(doc->files);
	ini_doc_init(doc);
}

const char *ini_doc_intern(struct ini_doc *doc, const char *name)
{
	char **files;
	size_t i;

	for (i = 0; i < doc->nfiles; i++)
		if (!strcmp(doc->files[i], name))
			return doc->files[i];
	files = ini_grow(doc->files, &doc->files_cap, doc->nfiles + 1, sizeof(*files));
	if (!files)
		return NULL;
	doc->files = files;
	files[doc->nfiles] = strdup(name);
	if (!files[doc->nfiles])
		return NULL;
	return files[doc->nfiles++];
}

/* Appends an entry owning key and value; on failure frees both.  Returns 0 or -ENOMEM. */
static int ini_section_take(struct ini_section *sec, char *key, char *value, const char *file,
			    unsigned line)
{
	struct ini_entry *ents;

	ents = ini_grow(sec->entries, &sec->cap, sec->nentries + 1, sizeof(*ents));
	if (!ents) {
		free(key);
		free(value);
		return -ENOMEM;
	}
	sec->entries = ents;
	ents[sec->nentries++] = (struct ini_entry){key, value, file, line};
	return 0;
}

int ini_section_add(struct ini_section *sec, const char *key, const char *value, const char *file,
		    unsigned line)
{
	char *k, *v = NULL;

	k = strdup(key);
	if (!k)
		return -ENOMEM;
	if (value) {
		v = strdup(value);
		if (!v) {
			free(k);
			return -ENOMEM;
		}
	}
	return ini_section_take(sec, k, v, file, line);
}

struct ini_section *ini_doc_add_section(struct ini_doc *doc, const char *name, const char *file,
					unsigned line, unsigned file_index)
{
	struct ini_section *secs, *sec;
	char *copy;

	secs = ini_grow(doc->sections, &doc->cap, doc->nsections + 1, sizeof(*secs));
	if (!secs)
		return NULL;
	doc->sections = secs;
	copy = strdup(name);
	if (!copy)
		return NULL;
	sec = &secs[doc->nsections++];
	memset(sec, 0, sizeof(*sec));
	sec->name = copy;
	sec->file = file;
	sec->line = line;
	sec->file_index = file_index;
	sec->global = !strcmp(name, "global");
	return sec;
}

static int ini_nomem(struct ini_ctx *ctx, const struct ini_line *ln)
{
	err_at(ctx->err, ln ? ln->file : NULL, ln ? ln->line : 0, "out of memory");
	return -ENOMEM;
}

static int ini_buf_put(struct ini_buf *b, const char *s, size_t n)
{
	char *p;

	if (n >= SIZE_MAX - b->len)
		return -ENOMEM;
	p = ini_grow(b->p, &b->cap, b->len + n + 1, 1);
	if (!p)
		return -ENOMEM;
	b->p = p;
	memcpy(p + b->len, s, n);
	b->len += n;
	p[b->len] = '\0';
	return 0;
}

/* Reads a whole file into a malloc'd buffer.  Returns 0 or -errno (-EFBIG above the limit). */
static int ini_read_path(const char *path, bool regular_only, char **text, size_t *len)
{
	struct ini_buf b = {0};
	struct stat st;
	ssize_t n;
	char *p;
	int fd, r = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | (regular_only ? O_NONBLOCK : 0));
	if (fd < 0)
		return -errno;
	/* An include is a file on disk: a FIFO or a device could block or never end. */
	if (regular_only && (fstat(fd, &st) || !S_ISREG(st.st_mode))) {
		close(fd);
		return -EINVAL;
	}
	for (;;) {
		if (b.cap - b.len < 2) {
			p = ini_grow(b.p, &b.cap, b.cap ? b.cap * 2 : 65536, 1);
			if (!p) {
				r = -ENOMEM;
				break;
			}
			b.p = p;
		}
		n = read(fd, b.p + b.len, b.cap - b.len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : 0;
			break;
		}
		b.len += (size_t)n;
		if (b.len > INI_MAX_FILE_SIZE) {
			r = -EFBIG;
			break;
		}
	}
	close(fd);
	if (r) {
		free(b.p);
		return r;
	}
	*text = b.p;
	*len = b.len;
	return 0;
}

/* Writes "a -> b -> ... -> last" for the include stack into buf. */
static void ini_chain(const struct ini_ctx *ctx, const char *last, char *buf, size_t size)
{
	size_t n = 0;
	unsigned i;
	int r;

	buf[0] = '\0';
	for (i = 0; i <= ctx->depth + 1 && n < size; i++) {
		r = snprintf(buf + n, size - n, "%s%s", i ? " -> " : "",
			     i <= ctx->depth ? ctx->stack[i].name : last);
		if (r < 0)
			break;
		n += (size_t)r;
	}
}

static int ini_chain_err(struct ini_ctx *ctx, const struct ini_line *ln, const char *last,
			 const char *what)
{
	char chain[IOWL_ERR_LEN];

	ini_chain(ctx, last, chain, sizeof(chain));
	return err_at(ctx->err, ln->file, ln->line, "%s: %s", what, chain);
}

static bool ini_in_stack(const struct ini_ctx *ctx, const char *real)
{
	unsigned i;

	for (i = 0; i <= ctx->depth; i++)
		if (ctx->stack[i].real && !strcmp(ctx->stack[i].real, real))
			return true;
	return false;
}

static int ini_parse_text(struct ini_ctx *ctx, const char *text, size_t len);

/* Parses an opened include as the next frame.  Returns 0 or -errno. */
static int ini_push(struct ini_ctx *ctx, const struct ini_line *ln, const char *path,
		    const char *text, size_t len)
{
	char *real = realpath(path, NULL);
	const char *name;
	int r;

	if (real && ini_in_stack(ctx, real))
		r = ini_chain_err(ctx, ln, path, "include loop");
	else if (ctx->depth >= INI_MAX_INCLUDE_DEPTH)
		r = ini_chain_err(ctx, ln, path, "includes nested more than 16 deep");
	else if (!(name = ini_doc_intern(ctx->doc, path)))
		r = ini_nomem(ctx, ln);
	else {
		ctx->depth++;
		ctx->stack[ctx->depth] = (struct ini_frame){name, real};
		r = ini_parse_text(ctx, text, len);
		ctx->depth--;
	}
	free(real);
	return r;
}

/*
 * Reads an include: path as given (relative to the cwd), then, for a relative path, next to the
 * including file.  *opened gets the path that worked.  Returns 0 or -errno with err set.
 */
static int ini_read_include(struct ini_ctx *ctx, const struct ini_line *ln, const char *path,
			    char **opened, char **text, size_t *len)
{
	const char *slash = strrchr(ln->file, '/');
	char *alt = NULL;
	int r;

	r = ini_read_path(path, true, text, len);
	if (r == -ENOENT && path[0] != '/' && slash) {
		if (asprintf(&alt, "%.*s%s", (int)(slash - ln->file + 1), ln->file, path) < 0)
			return ini_nomem(ctx, ln);
		r = ini_read_path(alt, true, text, len);
		if (r == -ENOENT) {
			err_at(ctx->err, ln->file, ln->line,
			       "cannot read include '%s': %s (looked in the current directory and "
			       "in '%.*s')",
			       path, strerror(-r), (int)(slash - ln->file + 1), ln->file);
			free(alt);
			return r;
		}
	}
	if (r) {
		err_at(ctx->err, ln->file, ln->line, "cannot read include '%s': %s",
		       alt ? alt : path, r == -EINVAL ? "not a regular file" : strerror(-r));
		free(alt);
		return r;
	}
	*opened = alt ? alt : strdup(path);
	if (!*opened) {
		free(*text);
		return ini_nomem(ctx, ln);
	}
	return 0;
}

static int ini_on_include(struct ini_ctx *ctx, const struct ini_line *ln, const char *arg,
			  size_t alen)
{
	char *path, *opened = NULL, *text = NULL;
	size_t len = 0;
	int r;

	if (!alen)
		return err_at(ctx->err, ln->file, ln->line, "'include' needs a file name");
	if (!ctx->cur)
		return err_at(ctx->err, ln->file, ln->line, "include '%.*s%s' " INI_OUTSIDE,
			      INI_Q(arg, alen));
	path = strndup(arg, alen);
	if (!path)
		return ini_nomem(ctx, ln);
	r = ini_read_include(ctx, ln, path, &opened, &text, &len);
	free(path);
	if (r)
		return r;
	r = ini_push(ctx, ln, opened, text, len);
	free(opened);
	free(text);
	return r;
}

static int ini_on_section(struct ini_ctx *ctx, const struct ini_line *ln)
{
	const char *close = memchr(ln->s, ']', ln->len), *name = ln->s + 1;
	struct ini_section *sec;
	size_t nlen, rest;
	char *copy;

	if (ctx->depth)
		return err_at(ctx->err, ln->file, ln->line,
			      "sections are not allowed in included files ('%.*s%s')",
			      INI_Q(ln->s, ln->len));
	if (!close)
		return err_at(ctx->err, ln->file, ln->line,
			      "missing ']' in section header '%.*s%s'%s", INI_Q(ln->s, ln->len),
			      ln->cut ? " (';' and '#' start a comment)" : "");
	rest = ln->len - (size_t)(close + 1 - ln->s);
	if (rest)
		return err_at(ctx->err, ln->file, ln->line,
			      "unexpected text '%.*s%s' after section header '%.*s'",
			      INI_Q(close + 1, rest), (int)(close + 1 - ln->s), ln->s);
	nlen = (size_t)(close - name);
	while (nlen && ini_blank(*name))
		name++, nlen--;
	while (nlen && ini_blank(name[nlen - 1]))
		nlen--;
	if (!nlen)
		return err_at(ctx->err, ln->file, ln->line, "empty section name '%.*s%s'",
			      INI_Q(ln->s, ln->len));
	copy = strndup(name, nlen);
	if (!copy)
		return ini_nomem(ctx, ln);
	sec = ini_doc_add_section(ctx->doc, copy, ln->file, ln->line, ctx->file_index);
	free(copy);
	if (!sec)
		return ini_nomem(ctx, ln);
	ctx->cur = ctx->doc->nsections;
	return 0;
}

static bool ini_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static long long ini_keyword_value(unsigned i)
{
	long long page = sysconf(_SC_PAGESIZE);

	if (i == 0)
		return page;
	if (i == 1)
		return (long long)sysconf(_SC_PHYS_PAGES) * page / (1024 * 1024);
	return sysconf(_SC_NPROCESSORS_ONLN);
}

/* Expands "${NAME}" at s (len bytes available); *used gets its length.  Returns 0 or -errno. */
static int ini_expand_env(struct ini_ctx *ctx, const struct ini_line *ln, const char *s, size_t len,
			  struct ini_buf *b, size_t *used)
{
	const char *close = memchr(s + 2, '}', len - 2), *val;
	char *name;

	/* The messages quote the whole key=value line, so they name the key. */
	if (!close)
		return err_at(ctx->err, ln->file, ln->line,
			      "%.*s%s: missing '}' after '${' (write ${NAME})", INI_Q(ln->s, ln->len));
	if (close == s + 2)
		return err_at(ctx->err, ln->file, ln->line,
			      "%.*s%s: empty variable name in '${}' (write ${NAME})",
			      INI_Q(ln->s, ln->len));
	name = strndup(s + 2, (size_t)(close - s - 2));
	if (!name)
		return ini_nomem(ctx, ln);
	val = getenv(name);
	free(name);
	*used = (size_t)(close - s) + 1;
	if (val && ini_buf_put(b, val, strlen(val)))
		return ini_nomem(ctx, ln);
	return 0;
}

/* Expands the '$' at s: ${VAR}, a keyword, or a literal '$'.  Returns 0 or -errno. */
static int ini_expand_dollar(struct ini_ctx *ctx, const struct ini_line *ln, const char *s,
			     size_t len, struct ini_buf *b, size_t *used)
{
	char num[32];
	size_t kl;
	unsigned i;

	if (len >= 2 && s[1] == '{')
		return ini_expand_env(ctx, ln, s, len, b, used);
	for (i = 0; i < sizeof(ini_keywords) / sizeof(ini_keywords[0]); i++) {
		kl = strlen(ini_keywords[i]);
		if (len < kl + 1 || memcmp(s + 1, ini_keywords[i], kl) ||
		    (len > kl + 1 && ini_ident_char(s[kl + 1])))
			continue;
		snprintf(num, sizeof(num), "%lld", ini_keyword_value(i));
		*used = kl + 1;
		return ini_buf_put(b, num, strlen(num)) ? ini_nomem(ctx, ln) : 0;
	}
	*used = 1;
	return ini_buf_put(b, "$", 1) ? ini_nomem(ctx, ln) : 0;
}

/* Makes a malloc'd copy of value v with blanks trimmed in front and $ forms expanded. */
static int ini_expand(struct ini_ctx *ctx, const struct ini_line *ln, const char *v, size_t len,
		      char **out)
{
	struct ini_buf b = {0};
	const char *dollar;
	size_t used;
	int r;

	while (len && ini_blank(*v))
		v++, len--;
	r = ini_buf_put(&b, "", 0) ? ini_nomem(ctx, ln) : 0;
	while (!r && len) {
		dollar = memchr(v, '$', len);
		used = dollar ? (size_t)(dollar - v) : len;
		if (used)
			r = ini_buf_put(&b, v, used) ? ini_nomem(ctx, ln) : 0;
		else
			r = ini_expand_dollar(ctx, ln, v, len, &b, &used);
		v += used;
		len -= used;
	}
	if (r) {
		free(b.p);
		return r;
	}
	*out = b.p;
	return 0;
}

static int ini_on_option(struct ini_ctx *ctx, const struct ini_line *ln)
{
	const char *eq = memchr(ln->s, '=', ln->len);
	size_t klen = eq ? (size_t)(eq - ln->s) : ln->len;
	char *key, *value = NULL;
	int r;

	while (klen && ini_blank(ln->s[klen - 1]))
		klen--;
	if (!klen)
		return err_at(ctx->err, ln->file, ln->line,
			      "missing option name before '=' in '%.*s%s'", INI_Q(ln->s, ln->len));
	if (!ctx->cur)
		return err_at(ctx->err, ln->file, ln->line, "option '%.*s%s' " INI_OUTSIDE,
			      INI_Q(ln->s, klen));
	if (memchr(ln->s, ' ', klen) || memchr(ln->s, '\t', klen))
		return err_at(ctx->err, ln->file, ln->line,
			      "option name '%.*s%s' contains a blank (missing '='?)",
			      INI_Q(ln->s, klen));
	if (klen == 7 && !memcmp(ln->s, "include", 7))
		return err_at(ctx->err, ln->file, ln->line,
			      "'include' is a directive: write 'include FILE' without '='");
	if (eq) {
		r = ini_expand(ctx, ln, eq + 1, ln->len - (size_t)(eq + 1 - ln->s), &value);
		if (r)
			return r;
	}
	key = strndup(ln->s, klen);
	if (!key) {
		free(value);
		return ini_nomem(ctx, ln);
	}
	r = ini_section_take(&ctx->doc->sections[ctx->cur - 1], key, value, ln->file, ln->line);
	return r ? ini_nomem(ctx, ln) : 0;
}

/* Offset of the path in an "include PATH" line, 0 when the line is no include directive. */
static size_t ini_include_arg(const struct ini_line *ln)
{
	size_t i = 7;

	if (ln->len < 7 || memcmp(ln->s, "include", 7))
		return 0;
	if (ln->len == 7)
		return 7;
	if (!ini_blank(ln->s[7]))
		return 0;
	while (i < ln->len && ini_blank(ln->s[i]))
		i++;
	return i < ln->len && ln->s[i] == '=' ? 0 : i;
}

static int ini_on_line(struct ini_ctx *ctx, const struct ini_line *ln)
{
	size_t arg;

	if (ln->s[0] == '[')
		return ini_on_section(ctx, ln);
	arg = ini_include_arg(ln);
	if (arg)
		return ini_on_include(ctx, ln, ln->s + arg, ln->len - arg);
	return ini_on_option(ctx, ln);
}

/* Fills ln with the line s..s+len trimmed and cut at a comment.  Returns 0 or -EINVAL. */
static int ini_line_prepare(struct ini_ctx *ctx, struct ini_line *ln, const char *s, size_t len)
{
	size_t i;

	if (memchr(s, '\0', len))
		return err_at(ctx->err, ln->file, ln->line, "unexpected NUL byte in line");
	while (len && ini_blank(*s))
		s++, len--;
	ln->cut = false;
	for (i = 0; i < len; i++) {
		if (s[i] == ';' || s[i] == '#') {
			ln->cut = true;
			len = i;
			break;
		}
	}
	while (len && ini_blank(s[len - 1]))
		len--;
	ln->s = s;
	ln->len = len;
	return 0;
}

static int ini_parse_text(struct ini_ctx *ctx, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *nl;
	struct ini_line ln = {.file = ctx->stack[ctx->depth].name};
	int r;

	if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		ln.line++;
		r = ini_line_prepare(ctx, &ln, p, (size_t)(nl - p));
		if (!r && ln.len)
			r = ini_on_line(ctx, &ln);
		if (r)
			return r;
		p = nl < end ? nl + 1 : end;
	}
	return 0;
}

static int ini_too_big(struct iowl_err *err, const char *name)
{
	err_set(err, "job file '%s' is larger than %lu MiB", name, INI_MAX_FILE_SIZE >> 20);
	return -EFBIG;
}

/* Parses a top-level text as file doc->ntop; takes ownership of real.  Returns 0 or -errno. */
static int ini_parse_top(struct ini_doc *doc, const char *name, char *real, const char *text,
			 size_t len, struct iowl_err *err)
{
	struct ini_ctx ctx = {.doc = doc, .err = err, .file_index = doc->ntop};
	size_t old = doc->nsections;
	int r;

	ctx.stack[0].real = real;
	ctx.stack[0].name = ini_doc_intern(doc, name);
	if (!ctx.stack[0].name)
		r = ini_nomem(&ctx, NULL);
	else if (len > INI_MAX_FILE_SIZE)
		r = ini_too_big(err, name);
	else
		r = ini_parse_text(&ctx, text, len);
	free(real);
	if (r)
		ini_doc_truncate(doc, old);
	else
		doc->ntop++;
	return r;
}

int ini_parse_buffer(struct ini_doc *doc, const char *name, const char *text, size_t len,
		     struct iowl_err *err)
{
	if (!text) {
		text = "";
		len = 0;
	}
	return ini_parse_top(doc, name, NULL, text, len, err);
}

int ini_parse_file(struct ini_doc *doc, const char *path, struct iowl_err *err)
{
	char *text = NULL;
	size_t len = 0;
	int r;

	r = ini_read_path(path, false, &text, &len);
	if (r) {
		err_errno(err, -r, "cannot read job file '%s'", path);
		return r;
	}
	r = ini_parse_top(doc, path, realpath(path, NULL), text, len, err);
	free(text);
	return r;
}
