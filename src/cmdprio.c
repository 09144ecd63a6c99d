// SPDX-License-Identifier: MIT
/* fio's per-IO priorities: cmdprio_percentage, cmdprio_class, cmdprio and cmdprio_bssplit. */
#include <errno.h>
#include <linux/ioprio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/cmdprio.h"
#include "iowl/pattern/rng.h"
#include "iowl/value.h"

/* One whole number in [lo, hi] into out. */
static int cp_uint(const char *s, unsigned lo, unsigned hi, const char *what, unsigned *out,
		   char *why)
{
	uint64_t v;

	if (val_parse_u64(s, &v, why))
		return -EINVAL;
	if (v < lo || v > hi) {
		snprintf(why, VAL_WHY_LEN, "%s %llu is out of range: use %u to %u", what,
			 (unsigned long long)v, lo, hi);
		return -ERANGE;
	}
	*out = (unsigned)v;
	return 0;
}

static int one_pct(const char *elem, unsigned dir, void *ctx, char *why)
{
	return cp_uint(elem, 0, 100, "percentage", &((struct cmdprio_opts *)ctx)->pct[dir], why);
}

static int one_class(const char *elem, unsigned dir, void *ctx, char *why)
{
	return cp_uint(elem, IOPRIO_CLASS_RT, IOPRIO_CLASS_IDLE,
		       "class (1 real time, 2 best effort, 3 idle)",
		       &((struct cmdprio_opts *)ctx)->cls[dir], why);
}

static int one_level(const char *elem, unsigned dir, void *ctx, char *why)
{
	return cp_uint(elem, 0, 7, "level", &((struct cmdprio_opts *)ctx)->level[dir], why);
}

int cmdprio_parse_pct(struct cmdprio_opts *c, const char *v, char *why)
{
	return val_parse_per_dir(v ? v : "", one_pct, c, NULL, why);
}

int cmdprio_parse_class(struct cmdprio_opts *c, const char *v, char *why)
{
	return val_parse_per_dir(v ? v : "", one_class, c, NULL, why);
}

int cmdprio_parse_level(struct cmdprio_opts *c, const char *v, char *why)
{
	return val_parse_per_dir(v ? v : "", one_level, c, NULL, why);
}

/* "bs/pct" or "bs/pct/class/level" (fio's two formats). */
static int one_entry(char *s, unsigned kb_base, struct cmdprio_entry *e, char *why)
{
	char *f[5];
	unsigned n = 0;

	for (char *p = s; p && n < 5; n++) {
		f[n] = p;
		p = strchr(p, '/');
		if (p)
			*p++ = '\0';
	}
	if (n != 2 && n != 4) {
		snprintf(why, VAL_WHY_LEN,
			 "'%.64s' is not bs/percentage or bs/percentage/class/level, e.g. 4k/50 or 64k/10/1/0",
			 s);
		return -EINVAL;
	}
	if (val_parse_size(f[0], kb_base, &e->bs, why) ||
	    cp_uint(f[1], 0, 100, "percentage", &e->pct, why))
		return -EINVAL;
	if (!e->bs) {
		snprintf(why, VAL_WHY_LEN, "a block size of 0 matches no IO");
		return -EINVAL;
	}
	e->cls = e->level = CMDPRIO_CLASS_DEFAULT;
	if (n == 4 && (cp_uint(f[2], IOPRIO_CLASS_RT, IOPRIO_CLASS_IDLE,
			       "class (1 real time, 2 best effort, 3 idle)", &e->cls, why) ||
		       cp_uint(f[3], 0, 7, "level", &e->level, why)))
		return -EINVAL;
	return 0;
}

/* cmdprio_bssplit's per-direction parse: where to put it, and the job's kb_base for its sizes. */
struct split_ctx {
	struct cmdprio_opts *c;
	unsigned kb_base;
};

static int one_split(const char *elem, unsigned dir, void *ctx, char *why)
{
	const struct split_ctx *x = ctx;
	struct cmdprio_entry tmp[CMDPRIO_SPLIT_MAX];
	char *dup = strdup(elem), *save = NULL, *tok;
	unsigned n = 0;
	int ret = 0;

	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, ":", &save); tok && !ret; tok = strtok_r(NULL, ":", &save)) {
		if (n == CMDPRIO_SPLIT_MAX) {
			snprintf(why, VAL_WHY_LEN, "more than %u entries", CMDPRIO_SPLIT_MAX);
			ret = -EINVAL;
			break;
		}
		ret = one_entry(tok, x->kb_base, &tmp[n++], why);
	}
	free(dup);
	if (!ret && !n) {
		snprintf(why, VAL_WHY_LEN,
			 "no entries: use bs/percentage entries separated by ':', e.g. 4k/50:64k/10");
		ret = -EINVAL;
	}
	if (ret)
		return ret;
	memcpy(x->c->split[dir], tmp, n * sizeof(tmp[0]));
	x->c->nsplit[dir] = n;
	return 0;
}

int cmdprio_parse_bssplit(struct cmdprio_opts *c, unsigned kb_base, const char *v, char *why)
{
	struct split_ctx x = { c, kb_base };

	return val_parse_per_dir(v ? v : "", one_split, &x, NULL, why);
}

bool cmdprio_active(const struct cmdprio_opts *c)
{
	for (unsigned d = 0; d < 2; d++)
		if (c->pct[d] || c->nsplit[d])
			return true;
	return false;
}

unsigned cmdprio_values(const struct cmdprio *c, unsigned d, uint16_t out[CMDPRIO_SPLIT_MAX])
{
	unsigned n = 0;

	if (!c->split[d]) {
		if (c->pct[d])
			out[n++] = c->prio[d];
		return n;
	}
	for (unsigned i = 0; i < c->nsplit[d]; i++)
		if (c->split[d][i].pct)
			out[n++] = c->split_prio[d][i];
	return n;
}

void cmdprio_init(struct cmdprio *c, const struct cmdprio_opts *o, uint64_t seed)
{
	uint64_t s = seed;

	memset(c, 0, sizeof(*c));
	c->rng = rng_splitmix64(&s) | 1;
	for (unsigned d = 0; d < 2; d++) {
		c->pct[d] = o->pct[d];
		c->prio[d] = (uint16_t)IOPRIO_PRIO_VALUE(o->cls[d], o->level[d]);
		if (!o->nsplit[d])
			continue;
		c->split[d] = o->split[d];
		c->nsplit[d] = o->nsplit[d];
		for (unsigned i = 0; i < o->nsplit[d]; i++) {
			const struct cmdprio_entry *e = &o->split[d][i];

			c->split_prio[d][i] = e->cls == CMDPRIO_CLASS_DEFAULT ?
						      c->prio[d] :
						      (uint16_t)IOPRIO_PRIO_VALUE(e->cls, e->level);
		}
	}
}
