/*
 * The timing harness the C benchmarks share (bench/attrs.c, messages.c, packing.c): the best
 * time per operation over REPEATS runs of about TARGET_NS each, after a calibration.
 */
#ifndef MPIATTR_BENCH_TIMING_H
#define MPIATTR_BENCH_TIMING_H

#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define REPEATS 7
#define TARGET_NS 20e6

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

__attribute__((unused)) static void check(int rc, const char *what)
{
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "bench: %s failed with %d\n", what, rc);
        exit(1);
    }
}

/* One measured operation: runs `count` operations and returns nothing. */
typedef void (*body_fn)(void *state, long count);

/* Best time per operation, in ns, over REPEATS runs of about TARGET_NS each. */
static double measure(body_fn body, void *state, long ops_per_call)
{
    long count = 1;
    for (;;) { /* calibrate */
        double t0 = now_ns();
        body(state, count);
        double t = now_ns() - t0;
        if (t > TARGET_NS / 10 || count > (1L << 40))
            break;
        count *= 4;
    }
    double t0 = now_ns();
    body(state, count);
    double per = (now_ns() - t0) / (double)count;
    long runs = (long)(TARGET_NS / (per > 1 ? per : 1)) + 1;
    double best = 1e300;
    for (int r = 0; r < REPEATS; r++) {
        t0 = now_ns();
        body(state, runs);
        double ns = (now_ns() - t0) / (double)runs / (double)ops_per_call;
        if (ns < best)
            best = ns;
    }
    return best;
}

#endif
