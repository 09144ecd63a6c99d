// SPDX-License-Identifier: MIT
/*
 * openfiles: a clone's files opened as its IOs reach them and closed once their pass is over,
 * so that no more than openfiles are open at once (fio's open_files); the per-IO loop comes here
 * only for a file that is not open.
 */
#include <errno.h>
#include <unistd.h>

#include "iowl/debug.h"
#include "iowl/gen.h"
#include "worker_int.h"

/* True when an IO waiting to be issued again is on file f. */
static bool requeued_on(const struct worker *w, unsigned f)
{
	for (unsigned i = 0; i < w->nrequeue; i++) {
		unsigned k = w->rq_head + i;

		if (w->requeue[k >= w->eng.depth ? k - w->eng.depth : k]->file == f)
			return true;
	}
	return false;
}

/* openfiles: every IO issued finishes (before a file is closed).  Returns 0 or -errno. */
static int drain(struct worker *w)
{
	int ret = 0;

	while (!ret && (w->pending || w->inflight)) {
		ret = worker_commit(w);
		if (!ret && w->inflight)
			ret = worker_reap(w, w->inflight);
	}
	return ret;
}

/* openfiles: closes file f (fsync_on_close first, as fio's close of a file). */
static int close_file(struct worker *w, unsigned f)
{
	struct target_file *tf = &w->plan.files[f];
	struct io_u sync = { .op = DDIR_FSYNC, .file = f };

	if (w->job->o.fsync_on_close && job_does_dir(w->job, DDIR_WRITE) && fsync(tf->fd))
		worker_record_error(w, &sync, errno);
	close(tf->fd);
	tf->fd = -1;
	gen_file_closed(w->gen, f);
	if (w->iolog.fd >= 0)
		iolog_w_file(&w->iolog, tf->path, "close");
	return w->eng.ops->file_changed ? w->eng.ops->file_changed(&w->eng, f, &w->err) : 0;
}

/*
 * openfiles: the IO's file is not open.  As fio: the IOs in flight finish first (fio waits for
 * those of a file it closes), the open files whose pass is over are closed, then the file is
 * opened; the verification after the writes only opens (fio's keeps each file it reads open to
 * the end).  Returns 0 or -errno with w->err set.
 */
__attribute__((noinline, cold)) int worker_open_file(struct worker *w, unsigned f)
{
	int ret = drain(w);

	for (unsigned i = 0; !ret && !w->verifying && i < w->plan.nfiles; i++)
		if (w->plan.files[i].fd >= 0 && gen_file_done(w->gen, i) && !requeued_on(w, i))
			ret = close_file(w, i);
	if (!ret)
		ret = target_open_one(w->job, &w->plan, f, &w->err);
	if (!ret && w->eng.ops->file_changed)
		ret = w->eng.ops->file_changed(&w->eng, f, &w->err);
	if (ret)
		return ret;
	dprint(DBG_FILE, "job '%s' clone %u: open file %u '%s' fd %d", w->job->o.name, w->clone, f,
	       w->plan.files[f].path, w->plan.files[f].fd);
	gen_file_opened(w->gen, f);
	if (w->iolog.fd >= 0)
		iolog_w_file(&w->iolog, w->plan.files[f].path, "open");
	return 0;
}

int worker_close_done(struct worker *w)
{
	int ret = drain(w);

	for (unsigned i = 0; !ret && w->plan.lazy && i < w->plan.nfiles; i++)
		if (w->plan.files[i].fd >= 0 && gen_file_done(w->gen, i))
			ret = close_file(w, i);
	return ret;
}

void worker_close_files(struct worker *w)
{
	for (unsigned i = 0; w->plan.lazy && !w->stuck && i < w->plan.nfiles; i++) {
		struct target_file *tf = &w->plan.files[i];

		if (tf->fd < 0)
			continue;
		if (w->iolog.fd >= 0)
			iolog_w_file(&w->iolog, tf->path, "close");
		close(tf->fd);
		tf->fd = -1;
	}
}
