/* SPDX-License-Identifier: MIT */
/* IO generation: direction, block size, file and offset of the next IO of a worker. */
#ifndef IOWL_GEN_H
#define IOWL_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "iowl/engine.h"
#include "iowl/err.h"
#include "iowl/job.h"
#include "iowl/target.h"

struct gen;

/*
 * Sets up the generator of clone number clone of job over the plan's files, seeded from the
 * job's randseed (randrepeat) or the OS.  Returns a new generator (caller frees with gen_free())
 * or NULL with err set.
 */
struct gen *gen_new(const struct job *job, unsigned clone, unsigned thread_number,
		    const struct target_plan *plan, struct iowl_err *err);

/* Fills op, file, offset and len of io with the next IO; io->buf is left alone. */
void gen_next(struct gen *g, struct io_u *io);

/* Starts a new pass (a new loop): sequential positions return to their starts. */
void gen_restart(struct gen *g);

/*
 * Starts a new pass that repeats the first, as fio's randrepeat re-seeds at each loop: when a
 * stream keeps a random map, every generator and map goes back to where gen_new() left it, so
 * the pass draws the same sequence again; otherwise it is gen_restart().
 */
void gen_rewind(struct gen *g);

/*
 * True once the pass is over in every file, as fio's files are done: a purely sequential job
 * reached the end of each region (the next block would not fit), or the random map gave every
 * slot.  Jobs of streams (whose walkers wrap) and other patterns never end a pass here: their
 * pass is its bytes.  gen_next() goes on after it (wrapping), gen_restart() starts a new pass.
 */
bool gen_pass_done(const struct gen *g);

/*
 * openfiles below the number of files (fio's open_files): the generator keeps to the files it
 * counts as open, as fio's file service does, and takes a file that is not open only while
 * fewer than openfiles files are open and not over; gen_next() counts the file it picks as
 * open.  The worker opens that file before the IO, and when it opens one, closes first the open
 * files whose pass is over (gen_file_done()), telling the generator (gen_file_closed()).
 * gen_file_opened() counts a file the worker opened for another reason (a verify read).
 */
bool gen_files_limited(const struct gen *g);
bool gen_file_done(const struct gen *g, unsigned f);
void gen_file_opened(struct gen *g, unsigned f);
void gen_file_closed(struct gen *g, unsigned f);

void gen_free(struct gen *g);

#endif
