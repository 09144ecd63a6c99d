// SPDX-License-Identifier: MIT
/*
 * Reading a vdbench parameter file as vdbench does: $NAME / !NAME substitutions, comment lines
 * ('*', '#', '/'), 'eof', include=, quotes, text after the first blank dropped, a trailing comma
 * joining the next line, and the keyword=value tokens, each with its file and line.  sd= and wd=
 * definitions that name $host, !host or #host are repeated once per host.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iowl/ini.h"
#include "vdbench/vdbench_int.h"

/* Characters protected by quotes, kept as these bytes until a value's items are cut. */
#define Q_BLANK '\x11'
#define Q_COMMA '\x12'
#define Q_EQUAL '\x13'
#define Q_DASH '\x14'
#define Q_OPEN '\x15'
#define Q_CLOSE '\x16'

/* A line that holds parameters, after substitution, trimmed. */
struct pline {
	char *text;
	struct vdb_pos pos;
};

struct reader {
	struct vdb *v;
	struct pline *lines;
	unsigned nlines;
	enum vdb_section sec;		/* the parser's state, for where definitions start */
	enum vdb_section look;		/* the state after the definition being gathered */
	struct vdb_tok *def;		/* the definition being gathered */
	unsigned ndef;
};

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static int read_text(struct vdb *v, const char *path, const struct vdb_pos *from, char **text,
		     size_t *len)
{
	struct stat st;
	ssize_t n;
	size_t cap = 65536, got = 0;
	char *buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		int e = fd < 0 ? errno : EINVAL;

		if (fd >= 0)
			close(fd);
		return err_at(v->err, from ? from->file : NULL, from ? from->line : 0,
			      "cannot read %s'%s': %s", from ? "include=" : "parameter file ",
			      path, e == EINVAL ? "not a regular file" : strerror(e));
	}
	buf = malloc(cap);
	while (buf) {
		if (cap - got < 2) {
			char *nb = cap < INI_MAX_FILE_SIZE ? realloc(buf, cap * 2) : NULL;

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + got, cap - got - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (!buf || cap - got < 2) {
		free(buf);
		return err_at(v->err, from ? from->file : NULL, from ? from->line : 0,
			      "'%s' is larger than %lu MiB", path, INI_MAX_FILE_SIZE >> 20);
	}
	buf[got] = '\0';
	*text = buf;
	*len = got;
	return 0;
}

static bool ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Replaces every $NAME and !NAME of the --vdbench-var list, longest names first. */
static char *substitute(struct reader *r, const char *line, const struct vdb_pos *pos)
{
	struct vdb *v = r->v;
	const struct vdbench_opts *o = v->opts;
	char *cur = vdb_strdup(v, line);
	bool done[64] = { false };

	for (unsigned round = 0; cur && round < o->nvars && round < 64; round++) {
		unsigned best = o->nvars;

		for (unsigned i = 0; i < o->nvars && i < 64; i++)
			if (!done[i] && (best == o->nvars ||
					 strlen(o->vars[i].key) > strlen(o->vars[best].key)))
				best = i;
		done[best] = true;
		for (const char *m = "$!"; *m && cur; m++) {
			char pat[256];
			const char *hit;

			snprintf(pat, sizeof(pat), "%c%s", *m, o->vars[best].key);
			while (cur && (hit = strstr(cur, pat))) {
				size_t pre = (size_t)(hit - cur), klen = strlen(pat);

				cur = vdb_printf(v, "%.*s%s%s", (int)pre, cur, o->vars[best].value,
						 hit + klen);
				v->var_used[best]++;
			}
		}
	}
	if (!cur)
		vdb_nomem(v, pos);
	return cur;
}

/* A $NAME (or =!NAME) left without a value is an error, as in vdbench; $host is repeated later. */
static int check_unresolved(struct reader *r, const char *s, const struct vdb_pos *pos)
{
	for (const char *p = s; *p; p++) {
		const char *name = p + 1;
		size_t n = 0;

		if (*p != '$' && !(*p == '!' && p > s && p[-1] == '='))
			continue;
		while (ident(name[n]))
			n++;
		if (!n || (n == 4 && !strncmp(name, "host", 4)))
			continue;
		return err_at(r->v->err, pos->file, pos->line,
			      "'%c%.*s' has no value: give it on the command line with --vdbench-var %.*s=VALUE (vdbench: %.*s=VALUE after the file)",
			      *p, (int)n, name, (int)n, name, (int)n, name);
	}
	return 0;
}

static int read_file(struct reader *r, const char *path, const struct vdb_pos *from);

static int include(struct reader *r, const char *arg, const struct vdb_pos *pos)
{
	struct vdb *v = r->v;
	const char *slash = strrchr(pos->file, '/');
	char *path;

	if (pos->file != v->file)
		return err_at(v->err, pos->file, pos->line,
			      "include=%s: an included file may not include another (vdbench reads one level)",
			      arg);
	if (!*arg)
		return err_at(v->err, pos->file, pos->line, "include= needs a file name");
	/* A bare name is looked for next to the including file, then in the current directory
	 * (vdbench); a relative path with a '/' in the current directory, then next to it. */
	if (strchr(arg, '/') || !slash) {
		path = vdb_strdup(v, arg);
		if (path && access(path, R_OK) && arg[0] != '/' && slash)
			path = vdb_printf(v, "%.*s/%s", (int)(slash - pos->file), pos->file, arg);
	} else {
		path = vdb_printf(v, "%.*s/%s", (int)(slash - pos->file), pos->file, arg);
		if (path && access(path, R_OK) && !access(arg, R_OK))
			path = vdb_strdup(v, arg);
	}
	if (!path)
		return vdb_nomem(v, pos);
	if (access(path, R_OK))
		path = vdb_strdup(v, arg);
	return path ? read_file(r, path, pos) : vdb_nomem(v, pos);
}

static int add_pline(struct reader *r, char *text, const struct vdb_pos *pos)
{
	struct pline *p = vdb_push(r->v, (void **)&r->lines, &r->nlines, sizeof(*p));

	if (!p)
		return vdb_nomem(r->v, pos);
	p->text = text;
	p->pos = *pos;
	return 0;
}

/* One physical line: substitution, comments, eof, include=.  *eof is set at an 'eof' line. */
static int one_line(struct reader *r, const char *raw, size_t len, const struct vdb_pos *pos,
		    bool *eof)
{
	char *line = vdb_strndup(r->v, raw, len), *s, *end;

	if (!line)
		return vdb_nomem(r->v, pos);
	if (memchr(raw, '\0', len))
		return err_at(r->v->err, pos->file, pos->line, "unexpected NUL byte in line");
	for (size_t i = 0; i < len; i++)
		if (raw[i] >= Q_BLANK && raw[i] <= Q_CLOSE)
			return err_at(r->v->err, pos->file, pos->line,
				      "unexpected control character 0x%02x in line", raw[i]);
	line = substitute(r, line, pos);
	if (!line)
		return -ENOMEM;
	for (s = line; blank(*s); s++)
		;
	end = s + strlen(s);
	while (end > s && blank(end[-1]))
		*--end = '\0';
	if (!strncmp(s, "eof", 3)) {
		*eof = true;
		return 0;
	}
	if (!*s || *s == '*' || *s == '#' || *s == '/')
		return 0;
	if (!strncmp(s, "include=", 8)) {
		char *arg = s + 8, *b = arg;

		while (*b && !blank(*b))
			b++;
		*b = '\0';
		return include(r, arg, pos);
	}
	if (check_unresolved(r, s, pos))
		return -EINVAL;
	return add_pline(r, s, pos);
}

/* The lines of text (a file called name) into r; from: the include= line, NULL at the top. */
static int read_lines(struct reader *r, const char *name, const char *text, size_t len,
		      const struct vdb_pos *from)
{
	struct vdb_pos pos = { vdb_strdup(r->v, name), 0 };
	const char *p = text, *end = text + len;
	bool eof = false;
	int ret = 0;

	if (!pos.file)
		return vdb_nomem(r->v, from);
	if (!from)
		r->v->file = pos.file;
	if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	while (!ret && !eof && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			nl = end;
		pos.line++;
		ret = one_line(r, p, (size_t)(nl - p), &pos, &eof);
		p = nl + 1;
	}
	return ret;
}

static int read_file(struct reader *r, const char *path, const struct vdb_pos *from)
{
	char *text = NULL;
	size_t len = 0;
	int ret = read_text(r->v, path, from, &text, &len);

	if (ret)
		return ret;
	ret = read_lines(r, path, text, len, from);
	free(text);
	return ret;
}

/* Quotes protect blanks, commas, '=', '-' and parentheses; the first blank outside them ends the line. */
static void specialize(char *s)
{
	static const char from[] = " ,=-()", to[] = { Q_BLANK, Q_COMMA, Q_EQUAL, Q_DASH, Q_OPEN,
						       Q_CLOSE };
	char *w = s;
	bool q = false;

	for (char *p = s; *p; p++) {
		const char *k;

		if (*p == '"') {
			q = !q;
			continue;
		}
		if (!q && blank(*p))
			break;
		if (q && (k = strchr(from, *p)) != NULL && *p)
			*w++ = to[k - from];
		else
			*w++ = *p;
	}
	*w = '\0';
}

/* Puts the protected characters back. */
static void unprotect(char *s)
{
	static const char from[] = { Q_BLANK, Q_COMMA, Q_EQUAL, Q_DASH, Q_OPEN, Q_CLOSE, 0 };
	static const char to[] = " ,=-()";

	for (; *s; s++) {
		const char *k = strchr(from, *s);

		if (k && *s)
			*s = to[k - from];
	}
}

/* Cuts value (within parentheses when list) into items; marks each item's range dash. */
static int split_items(struct vdb *v, struct vdb_tok *t, char *val)
{
	char *p = val;
	unsigned n = 1;

	if (t->list) {
		size_t len = strlen(val);

		if (len < 2 || val[len - 1] != ')')
			return err_at(v->err, t->pos.file, t->pos.line,
				      "%s=%s: text after the closing ')'", t->key, t->raw);
		val[len - 1] = '\0';
		p = val + 1;
		for (char *c = p; *c; c++) {
			if (*c == '(' || *c == ')')
				return err_at(v->err, t->pos.file, t->pos.line,
					      "%s=%s: nested parentheses", t->key, t->raw);
			n += *c == ',';
		}
	} else if (strchr(val, '(') || strchr(val, ')')) {
		return err_at(v->err, t->pos.file, t->pos.line,
			      "%s=%s: a list is written in parentheses from the start: %s=(a,b,c)",
			      t->key, t->raw, t->key);
	}
	t->items = vdb_alloc(v, n * sizeof(*t->items));
	t->dash = vdb_alloc(v, n * sizeof(*t->dash));
	if (!t->items || !t->dash)
		return vdb_nomem(v, &t->pos);
	for (unsigned i = 0; i < n; i++) {
		char *c = t->list ? strchr(p, ',') : NULL, *d;

		if (c)
			*c = '\0';
		if (!*p)
			return err_at(v->err, t->pos.file, t->pos.line,
				      "%s=%s: an empty value in the list", t->key, t->raw);
		d = strchr(p + 1, '-');
		t->dash[i] = t->list && d ? (int)(d - p) : -1;
		unprotect(p);
		t->items[i] = p;
		p = c ? c + 1 : p + strlen(p);
	}
	t->nitems = n;
	return 0;
}

/* One "keyword=value" of a logical line into t.  Returns 0 or -EINVAL. */
static int make_tok(struct vdb *v, char *s, const struct vdb_pos *pos, struct vdb_tok *t)
{
	char *eq = strchr(s, '=');

	t->pos = *pos;
	if (!*s)
		return err_at(v->err, pos->file, pos->line,
			      "an empty parameter (two commas in a row?)");
	if (!eq || eq == s) {
		unprotect(s);
		return err_at(v->err, pos->file, pos->line,
			      "'%s' is not a parameter: write keyword=value", s);
	}
	*eq = '\0';
	for (char *k = s; *k; k++) {
		if (*k >= Q_BLANK && *k <= Q_CLOSE)
			return err_at(v->err, pos->file, pos->line,
				      "a parameter name may not be quoted: '%s'", s);
		*k = (char)tolower((unsigned char)*k);
	}
	t->key = s;
	if (strlen(s) < 2)
		return err_at(v->err, pos->file, pos->line,
			      "'%s=': a keyword has at least two letters (vdbench)", s);
	t->raw = vdb_strdup(v, eq + 1);
	if (!t->raw)
		return vdb_nomem(v, pos);
	unprotect(t->raw);
	if (!eq[1])
		return err_at(v->err, pos->file, pos->line, "%s=: no value", s);
	t->list = eq[1] == '(';
	return split_items(v, t, eq + 1);
}

/* Host labels for $host: the hd= names, or vdbench's default "localhost". */
static unsigned host_labels(const struct vdb *v, const char **out, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < v->nhosts && n < max; i++)
		out[n++] = v->hosts[i].name;
	if (!n)
		out[n++] = "localhost";
	return n;
}

static bool hosty(const char *s)
{
	return strstr(s, "$host") || strstr(s, "!host") || strstr(s, "#host");
}

static char *host_sub(struct vdb *v, const char *s, const char *label, unsigned idx, unsigned n)
{
	static const char *const pats[] = { "#hosts", "$host", "!host", "#host" };
	char *cur = vdb_strdup(v, s);

	for (unsigned k = 0; cur && k < 4; k++) {
		char num[16];
		const char *hit, *rep = label;

		if (k == 0 || k == 3) {
			snprintf(num, sizeof(num), "%u", k ? idx : n);
			rep = num;
		}
		while (cur && (hit = strstr(cur, pats[k])))
			cur = vdb_printf(v, "%.*s%s%s", (int)(hit - cur), cur, rep,
					 hit + strlen(pats[k]));
	}
	return cur;
}

static int apply_toks(struct reader *r, const struct vdb_tok *t, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		int ret = vdb_param(r->v, &r->sec, &t[i]);

		if (ret)
			return ret;
	}
	return 0;
}

/* A copy of t with the host's name and number in place of $host, !host, #host, #hosts. */
static int host_tok(struct vdb *v, const struct vdb_tok *t, const char *label, unsigned idx,
		    unsigned nh, struct vdb_tok *out)
{
	*out = *t;
	out->raw = host_sub(v, t->raw, label, idx, nh);
	out->items = vdb_alloc(v, t->nitems * sizeof(*out->items));
	if (!out->raw || !out->items)
		return vdb_nomem(v, &t->pos);
	for (unsigned j = 0; j < t->nitems; j++)
		if (!(out->items[j] = host_sub(v, t->items[j], label, idx, nh)))
			return vdb_nomem(v, &t->pos);
	return 0;
}

/* Applies the definition gathered: once, or once per host when it names $host, !host or #host. */
static int flush(struct reader *r)
{
	struct vdb *v = r->v;
	const char *labels[256];
	unsigned nh = host_labels(v, labels, 256), ndef = r->ndef;
	bool repeat = false;
	int ret = 0;

	r->ndef = 0;
	for (unsigned i = 0; i < ndef; i++)
		repeat = repeat || hosty(r->def[i].raw);
	if (!repeat)
		return apply_toks(r, r->def, ndef);
	if (strcmp(r->def[0].key, "sd") && strcmp(r->def[0].key, "wd"))
		return err_at(v->err, r->def[0].pos.file, r->def[0].pos.line,
			      "$host, !host and #host repeat sd= and wd= definitions only");
	for (unsigned h = 0; h < nh && !ret; h++) {
		for (unsigned i = 0; i < ndef && !ret; i++) {
			struct vdb_tok t;

			ret = host_tok(v, &r->def[i], labels[h], h, nh, &t);
			if (!ret)
				ret = vdb_param(v, &r->sec, &t);
		}
	}
	return ret;
}

/* Gathers t into the current definition, flushing the previous one where t starts a new one. */
static int gather(struct reader *r, const struct vdb_tok *t)
{
	int start = vdb_section_start(r->look, t->key);
	struct vdb_tok *slot;
	int ret = 0;

	if (start >= 0 || r->look == VDB_S_GENERAL) {
		ret = flush(r);
		if (start >= 0)
			r->look = (enum vdb_section)start;
	}
	slot = ret ? NULL : vdb_push(r->v, (void **)&r->def, &r->ndef, sizeof(*slot));
	if (!ret && !slot)
		return vdb_nomem(r->v, &t->pos);
	if (slot)
		*slot = *t;
	return ret;
}

/* Where each piece of a joined line came from. */
struct seg {
	size_t off;
	struct vdb_pos pos;
};

static int logical_line(struct reader *r, unsigned *i)
{
	struct vdb *v = r->v;
	struct seg segs[256];
	unsigned nseg = 0;
	char *line = vdb_strdup(v, "");
	int depth = 0, ret = 0;
	size_t start = 0;

	/* A line that ends with a comma goes on with the next one. */
	do {
		char *t = vdb_strdup(v, r->lines[*i].text);

		if (!t || !line)
			return vdb_nomem(v, &r->lines[*i].pos);
		specialize(t);
		if (nseg < 256)
			segs[nseg++] = (struct seg){ strlen(line), r->lines[*i].pos };
		line = vdb_printf(v, "%s%s", line, t);
		(*i)++;
	} while (line && *line && line[strlen(line) - 1] == ',' && *i < r->nlines);
	if (!line)
		return vdb_nomem(v, NULL);
	for (size_t k = 0; !ret; k++) {
		char c = line[k];

		depth += c == '(';
		depth -= c == ')';
		if (depth < 0 || (!c && depth > 0)) {
			const struct vdb_pos *p = &segs[0].pos;

			for (unsigned s = 0; s < nseg; s++)
				if (segs[s].off <= k)
					p = &segs[s].pos;
			return err_at(v->err, p->file, p->line, "%s", depth < 0 ?
				      "unmatched ')'" : "missing ')': the list is not closed");
		}
		if ((c == ',' && !depth) || !c) {
			struct vdb_tok t = { 0 };
			const struct vdb_pos *p = &segs[0].pos;

			for (unsigned s = 0; s < nseg; s++)
				if (segs[s].off <= start)
					p = &segs[s].pos;
			line[k] = '\0';
			/* A comma at the very end of the file ends nothing more. */
			if (!(k == start && !c && k))
				ret = make_tok(v, line + start, p, &t);
			if (!ret && t.key)
				ret = gather(r, &t);
			start = k + 1;
			if (!c)
				break;
		}
	}
	return ret;
}

/* Reads the top-level file (held in text when not NULL), then its tokens into the model. */
static int read_all(struct vdb *v, const char *name, const char *text, size_t len)
{
	struct reader r = { .v = v };
	int ret;

	v->var_used = vdb_alloc(v, (v->opts->nvars + 1) * sizeof(*v->var_used));
	if (!v->var_used)
		return vdb_nomem(v, NULL);
	ret = text ? read_lines(&r, name, text, len, NULL) : read_file(&r, name, NULL);
	for (unsigned i = 0; !ret && i < r.nlines;)
		ret = logical_line(&r, &i);
	if (!ret)
		ret = flush(&r);
	for (unsigned i = 0; !ret && i < v->opts->nvars; i++)
		if (!v->var_used[i])
			ret = err_at(v->err, v->file, 0,
				     "--vdbench-var %s=%s: the file has no $%s or !%s to replace (vdbench refuses an unused substitution)",
				     v->opts->vars[i].key, v->opts->vars[i].value,
				     v->opts->vars[i].key, v->opts->vars[i].key);
	return ret;
}

int vdb_read(struct vdb *v, const char *path)
{
	return read_all(v, path, NULL, 0);
}

int vdb_read_text(struct vdb *v, const char *name, const char *text, size_t len)
{
	if (memchr(text, '\0', len))
		return err_at(v->err, name, 0, "unexpected NUL byte");
	return read_all(v, name, text, len);
}
