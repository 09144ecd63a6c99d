// SPDX-License-Identifier: MIT
/* fio 3.33's act profile's latency table and verdict (include/iowl/act.h). */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/act.h"

const unsigned act_limit_ms[ACT_NLIM] = { 1, 8, 64 };
const unsigned act_permille[ACT_NLIM] = { 50, 10, 1 };

struct act_table {
	unsigned n;
	struct act_slice slice[ACT_MAX_SLICES];
};

static struct act_table table;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

int act_count_init(struct act_count *c, unsigned n, uint64_t len_ns)
{
	*c = (struct act_count){ .len_ns = len_ns };
	if (!n)
		return 0;
	if (!(c->slice = calloc(n, sizeof(*c->slice))))
		return -ENOMEM;
	c->n = n;
	return 0;
}

void act_count_start(struct act_count *c, uint64_t now)
{
	c->cur = 0;
	c->end_ns = now + c->len_ns;
}

int act_slice_fails(const struct act_slice *s)
{
	for (unsigned i = 0; i < ACT_NLIM; i++)
		if (s->ios && s->over[i] * 1000 >= (uint64_t)act_permille[i] * s->ios)
			return (int)i;
	return -1;
}

int act_count_close(struct act_count *c, uint64_t now)
{
	int f = act_slice_fails(&c->slice[c->cur]);

	c->cur++;
	c->end_ns = now + c->len_ns;
	return f;
}

void act_count_free(struct act_count *c)
{
	free(c->slice);
	*c = (struct act_count){ 0 };
}

void act_table_reset(unsigned n)
{
	pthread_mutex_lock(&table_lock);
	memset(&table, 0, sizeof(table));
	table.n = n < ACT_MAX_SLICES ? n : ACT_MAX_SLICES;
	pthread_mutex_unlock(&table_lock);
}

void act_table_add(const struct act_count *c)
{
	pthread_mutex_lock(&table_lock);
	for (unsigned i = 0; i < c->n && i < table.n; i++) {
		table.slice[i].ios += c->slice[i].ios;
		for (unsigned l = 0; l < ACT_NLIM; l++)
			table.slice[i].over[l] += c->slice[i].over[l];
	}
	pthread_mutex_unlock(&table_lock);
}

const struct act_table *act_table(void)
{
	return table.n ? &table : NULL;
}

/* A cell: the share of the slice's IOs over limit l, in percent (0 without IOs). */
static double pct(const struct act_slice *s, unsigned l)
{
	return s->ios ? 100.0 * (double)s->over[l] / (double)s->ios : 0.0;
}

bool act_passed(const struct act_table *t)
{
	for (unsigned i = 0; i < t->n; i++)
		if (act_slice_fails(&t->slice[i]) >= 0)
			return false;
	return true;
}

/*
 * fio's layout: its "trans" and "device" columns are the same figures (fio has one count, of
 * every IO; ACT's own tool tells transactions from device reads).
 */
int act_print(FILE *f, const struct act_table *t)
{
	fputs("        trans                   device\n"
	      "        %>(ms)                  %>(ms)\n"
	      " slice",
	      f);
	for (unsigned k = 0; k < 2 * ACT_NLIM; k++)
		fprintf(f, "\t %2u", act_limit_ms[k % ACT_NLIM]);
	fputs("\n -----  -----   -----  ------   -----   -----  ------\n", f);
	for (unsigned i = 0; i < t->n; i++) {
		fprintf(f, "   %2u", i + 1);
		for (unsigned k = 0; k < 2 * ACT_NLIM; k++)
			fprintf(f, "\t%2.2f", pct(&t->slice[i], k % ACT_NLIM));
		fputc('\n', f);
	}
	fprintf(f, "\nact: test complete, device(s): %s\n", act_passed(t) ? "PASSED" : "FAILED");
	return ferror(f) ? -EIO : 0;
}

json_t *act_json(const struct act_table *t)
{
	json_t *a = json_array(), *o;

	for (unsigned i = 0; a && i < t->n; i++) {
		const struct act_slice *s = &t->slice[i];

		if (json_array_append_new(a,
					  json_pack("{s:I, s:I, s:I, s:I, s:I, s:[f, f, f], s:b}",
						    "slice", (json_int_t)i + 1, "ios",
						    (json_int_t)s->ios, "over_1ms",
						    (json_int_t)s->over[0], "over_8ms",
						    (json_int_t)s->over[1], "over_64ms",
						    (json_int_t)s->over[2], "pct", pct(s, 0),
						    pct(s, 1), pct(s, 2), "passed",
						    act_slice_fails(s) < 0))) {
			json_decref(a);
			return NULL;
		}
	}
	o = json_pack("{s:o, s:[I, I, I], s:[f, f, f], s:I, s:s}", "slices", a, "limits_ms",
		      (json_int_t)act_limit_ms[0], (json_int_t)act_limit_ms[1],
		      (json_int_t)act_limit_ms[2], "max_pct", act_permille[0] / 10.0,
		      act_permille[1] / 10.0, act_permille[2] / 10.0, "slice_s",
		      (json_int_t)ACT_SLICE_S, "verdict", act_passed(t) ? "PASSED" : "FAILED");
	return o;
}
