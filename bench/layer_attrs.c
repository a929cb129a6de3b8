/*
 * Attribute get and set in a job of several processes, written against the standard MPI C
 * API only, so that the same binary runs on a real MPI natively and with the layer
 * (docs/layer.md) preloaded; ci/bench runs it as 2 processes of Debian's MPICH and Open MPI.
 *
 * As bench/attrs.c, with 10^4 live keyvals in each process and N = 1, 16, 256 and 1024
 * attributes on a duplicate of MPI_COMM_WORLD, it measures in nanoseconds per operation:
 *   get_set        MPI_Comm_get_attr of an attribute the communicator has (cycling over all N)
 *   set_existing   MPI_Comm_set_attr over an existing value (no delete callback)
 * Attribute calls are local: every process times its own loops (timing.h: the best of
 * several runs of about 20 ms each), with a barrier between figures so that all of them
 * time the same thing at once. Each figure is the lowest over the processes.
 * Output, from rank 0: one line per figure, "op N ns".
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define LIVE_KEYVALS 10000

static const int sizes[] = {1, 16, 256, 1024};
static int keyvals[LIVE_KEYVALS];
static volatile intptr_t sink;

struct comm_state {
    MPI_Comm comm;
    int n;
};

static void get_set(void *p, long count)
{
    struct comm_state *s = p;
    for (long i = 0; i < count; i++)
        for (int k = 0; k < s->n; k++) {
            void *v;
            int flag;
            MPI_Comm_get_attr(s->comm, keyvals[k], &v, &flag);
            sink += (intptr_t)v;
        }
}

static void set_existing(void *p, long count)
{
    struct comm_state *s = p;
    for (long i = 0; i < count; i++)
        for (int k = 0; k < s->n; k++)
            MPI_Comm_set_attr(s->comm, keyvals[k], (void *)(intptr_t)(i + 1));
}

/* Times `body` on every process at once; rank 0 prints the lowest figure. */
static void report(const char *op, int n, body_fn body, struct comm_state *s, int rank)
{
    check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    double ns = measure(body, s, n), best;
    check(MPI_Reduce(&ns, &best, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD), "MPI_Reduce");
    if (rank == 0) {
        printf("%s %d %.2f\n", op, n, best);
        fflush(stdout);
    }
}

int main(int argc, char **argv)
{
    int rank;
    check(MPI_Init(&argc, &argv), "MPI_Init");
    check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    for (int i = 0; i < LIVE_KEYVALS; i++)
        check(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &keyvals[i], NULL),
              "MPI_Comm_create_keyval");

    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        struct comm_state cs = {MPI_COMM_NULL, n};
        check(MPI_Comm_dup(MPI_COMM_WORLD, &cs.comm), "MPI_Comm_dup");
        for (int k = 0; k < n; k++)
            check(MPI_Comm_set_attr(cs.comm, keyvals[k], (void *)(intptr_t)(k + 1)),
                  "MPI_Comm_set_attr");
        report("get_set", n, get_set, &cs, rank);
        report("set_existing", n, set_existing, &cs, rank);
        check(MPI_Comm_free(&cs.comm), "MPI_Comm_free");
    }
    for (int i = 0; i < LIVE_KEYVALS; i++)
        check(MPI_Comm_free_keyval(&keyvals[i]), "MPI_Comm_free_keyval");
    check(MPI_Finalize(), "MPI_Finalize");
    return 0;
}
