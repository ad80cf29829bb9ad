/* The chip scheduler: rank 0 coordinates, every rank computes. */
#include "dse_sched.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_REQUEST = 101, TAG_ANSWER = 102 };

struct dse_sched {
    MPI_Comm comm;
    int rank, size;
    int *todo, n_todo, next;      /* rank 0: chips not yet handed out      */
    bool stopping;
    bool epoch;                   /* a flush epoch is open                 */
    bool *told;                   /* [rank] told FLUSH in this epoch       */
    int n_told, n_finished;       /* workers told FLUSH / told DONE        */
    int handed;                   /* chips handed out since the last flush */
    double flush_interval, last_flush;
    dse_progress *progress;
};

dse_sched *dse_sched_alloc(MPI_Comm comm, const int *todo, int n_todo, double flush_interval,
                           dse_progress *progress)
{
    dse_sched *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->comm = comm;
    MPI_Comm_rank(comm, &s->rank);
    MPI_Comm_size(comm, &s->size);
    s->todo = malloc(sizeof(int) * (size_t)(n_todo ? n_todo : 1));
    s->told = calloc((size_t)s->size, sizeof(bool));
    if (!s->todo || !s->told) {
        dse_sched_free(s);
        return NULL;
    }
    memcpy(s->todo, todo, sizeof(int) * (size_t)n_todo);
    s->n_todo = n_todo;
    s->flush_interval = flush_interval;
    s->last_flush = dse_now();
    s->progress = progress;
    return s;
}

void dse_sched_free(dse_sched *s)
{
    if (!s)
        return;
    free(s->todo);
    free(s->told);
    free(s);
}

void dse_sched_stop(dse_sched *s) { s->stopping = true; }

static bool work_left(const dse_sched *s) { return !s->stopping && s->next < s->n_todo; }

static void count_units(dse_sched *s, int units)
{
    if (s->progress)
        dse_progress_add(s->progress, units);
}

/* Rank 0's answer to worker w.  A worker told DONE is gone for good, so once any worker
 * is, no further epoch may open (it could never be joined).  An epoch opens only after
 * chips were handed out since the last one, so flushes never starve the work. */
static int answer_for(dse_sched *s, int w)
{
    if (s->epoch && !s->told[w]) {
        s->told[w] = true;
        s->n_told++;
        return DSE_SCHED_FLUSH;
    }
    if (!work_left(s)) {
        s->n_finished++;
        return DSE_SCHED_DONE;
    }
    s->handed++;
    return s->todo[s->next++];
}

static void serve_one(dse_sched *s, bool block)
{
    MPI_Status st;
    int flag = 1, units;
    if (!block)
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_REQUEST, s->comm, &flag, &st);
    if (!flag)
        return;
    MPI_Recv(&units, 1, MPI_INT, block ? MPI_ANY_SOURCE : st.MPI_SOURCE, TAG_REQUEST, s->comm, &st);
    if (units < 0) { /* the worker saw a stop request: one is enough for every rank */
        s->stopping = true;
        units = -1 - units;
    }
    count_units(s, units);
    int answer = answer_for(s, st.MPI_SOURCE);
    MPI_Send(&answer, 1, MPI_INT, st.MPI_SOURCE, TAG_ANSWER, s->comm);
}

static void maybe_open_epoch(dse_sched *s)
{
    if (!s->epoch && s->n_finished == 0 && work_left(s) && s->handed > 0 &&
        dse_now() - s->last_flush >= s->flush_interval) {
        s->epoch = true;
        s->n_told = 0;
        memset(s->told, 0, sizeof(bool) * (size_t)s->size);
    }
}

void dse_sched_poll(dse_sched *s)
{
    if (s->rank != 0)
        return;
    maybe_open_epoch(s);
    for (int i = 0; i < s->size; i++)
        serve_one(s, false);
    count_units(s, 0);
}

static int coordinator_next(dse_sched *s, int units)
{
    count_units(s, units);
    dse_sched_poll(s);
    if (s->epoch) {
        while (s->n_told < s->size - 1)
            serve_one(s, true);
        s->epoch = false;
        s->handed = 0;
        s->last_flush = dse_now();
        return DSE_SCHED_FLUSH;
    }
    if (!work_left(s)) {
        while (s->n_finished < s->size - 1)
            serve_one(s, true);
        return DSE_SCHED_DONE;
    }
    s->handed++;
    return s->todo[s->next++];
}

int dse_sched_next(dse_sched *s, int units, bool stop)
{
    if (stop)
        s->stopping = true;
    if (s->rank == 0)
        return coordinator_next(s, units);
    int answer, msg = s->stopping ? -1 - units : units;
    MPI_Send(&msg, 1, MPI_INT, 0, TAG_REQUEST, s->comm);
    MPI_Recv(&answer, 1, MPI_INT, 0, TAG_ANSWER, s->comm, MPI_STATUS_IGNORE);
    return answer;
}
