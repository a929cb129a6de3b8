/*
 * Attribute reads from several threads at once, written against the standard MPI C API only
 * (ci/bench builds it against mpiattr, MPICH and Open MPI). Under MPI_THREAD_MULTIPLE each
 * thread reads, in a loop, the 16 attributes of a communicator of its own; the figure is
 * nanoseconds per MPI_Comm_get_attr per thread, with 1 thread and then with 2 at once (the
 * same figure for 2 means reads scale; twice it means they are serialised).
 * Output: "threads_get T ns" for T = 1, 2.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ATTRS 16
#define SECONDS 0.3
#define MAX_THREADS 2

static int keyvals[ATTRS];

/* Each worker on cache lines of its own (two: adjacent-line prefetchers pair them): a thread
 * writes its sink after every get, and workers sharing a line would slow each other down
 * whatever the library does. */
struct worker {
    _Alignas(128) pthread_t thread;
    MPI_Comm comm;
    double ns;
    intptr_t sink;
};

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void *run(void *p)
{
    struct worker *w = p;
    long gets = 0;
    double start = now_ns(), end = start + SECONDS * 1e9, t;
    do {
        for (int rep = 0; rep < 256; rep++)
            for (int k = 0; k < ATTRS; k++) {
                void *v;
                int flag;
                MPI_Comm_get_attr(w->comm, keyvals[k], &v, &flag);
                w->sink += (intptr_t)v;
            }
        gets += 256 * ATTRS;
        t = now_ns();
    } while (t < end);
    w->ns = (t - start) / (double)gets;
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided != MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "threads: MPI_THREAD_MULTIPLE not provided\n");
        return 1;
    }
    for (int k = 0; k < ATTRS; k++)
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyvals[k], NULL);
    struct worker workers[MAX_THREADS];
    for (int i = 0; i < MAX_THREADS; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &workers[i].comm);
        for (int k = 0; k < ATTRS; k++)
            MPI_Comm_set_attr(workers[i].comm, keyvals[k], (void *)(intptr_t)(k + 1));
    }
    for (int threads = 1; threads <= MAX_THREADS; threads++) {
        double best = 1e300;
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < threads; i++)
                pthread_create(&workers[i].thread, NULL, run, &workers[i]);
            double worst = 0;
            for (int i = 0; i < threads; i++) {
                pthread_join(workers[i].thread, NULL);
                if (workers[i].ns > worst)
                    worst = workers[i].ns;
            }
            if (worst < best)
                best = worst;
        }
        printf("threads_get %d %.2f\n", threads, best);
    }
    for (int i = 0; i < MAX_THREADS; i++)
        MPI_Comm_free(&workers[i].comm);
    MPI_Finalize();
    return 0;
}
