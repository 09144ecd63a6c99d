/* SPDX-License-Identifier: MIT */
/*
 * Live metrics for Prometheus: --metrics=[ADDR:]PORT serves GET /metrics over HTTP
 * (libmicrohttpd) in the Prometheus text format, or OpenMetrics when the scraper asks for it;
 * --metrics-textfile=DIR writes DIR/iowl.prom (temp file + rename) for node exporter's textfile
 * collector.  The main thread builds the exposition from the interval series (interval.h's
 * watch hook) once per interval; the HTTP thread only copies the last built text under a lock.
 * Nothing runs on the per-IO path.
 */
#ifndef IOWL_METRICS_H
#define IOWL_METRICS_H

#include <stdbool.h>
#include <stdint.h>

#include "iowl/err.h"
#include "iowl/interval.h"

#define METRICS_FILE "iowl.prom"

/* The command line's metrics settings. */
struct metrics_opts {
	char *addr;			/* numeric IPv4 or IPv6 address; NULL: 127.0.0.1 */
	unsigned port;			/* 0: no HTTP endpoint */
	char *textfile_dir;		/* NULL: no textfile */
	uint64_t linger_ns;		/* how long the endpoint stays up after the run */
};

struct metrics;

/* Parses --metrics=[ADDR:]PORT ([V6ADDR]:PORT for IPv6).  Returns 0 or -EINVAL with err set. */
int metrics_parse_listen(const char *v, struct metrics_opts *o, struct iowl_err *err);

/*
 * Starts the endpoint (binds now: a taken port is an error before any IO) and checks the
 * textfile directory.  Returns NULL with err set on failure.
 */
struct metrics *metrics_start(const struct metrics_opts *o, struct iowl_err *err);

/*
 * The interval hook (ivl_watch_fn): adds an interval's figures and rebuilds the exposition.
 * ctx is the struct metrics.  Passes the view on to the hook set with metrics_chain().
 */
void metrics_watch(void *ctx, const struct ivl_view *view, bool last);

/* Sets the hook metrics_watch() passes every view on to (vdbench's output); fn NULL: none. */
void metrics_chain(struct metrics *m, ivl_watch_fn fn, void *ctx);

/* Marks the run done, publishes the totals, stays up linger_ns (a signal ends it), stops. */
void metrics_end(struct metrics *m);

/* Builds the exposition into a malloc'd string (openmetrics: the OpenMetrics format). */
char *metrics_render(struct metrics *m, bool openmetrics, size_t *len);

#endif
