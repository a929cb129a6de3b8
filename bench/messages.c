/*
 * The everyday calls of a single-process MPI (bench/packing.c has the datatype figures), written against the standard MPI C API only, so
 * the same source builds against mpiattr, MPICH and Open MPI (ci/bench builds it against each,
 * runs every implementation as one process and prints the table).
 *
 * Figures, one line each, "op N value":
 *   isend_recv 8        ns for MPI_Isend + MPI_Recv + MPI_Wait of 8 bytes to oneself
 *   sendrecv 8          ns for MPI_Sendrecv of 8 bytes to oneself
 *   allreduce 1         ns for MPI_Allreduce of 1 double (MPI_SUM) on MPI_COMM_WORLD
 *   allreduce 131072    ns for MPI_Allreduce of 1 MiB of doubles (131072), written first
 *   memcpy_ns 131072    ns for memcpy of the same 1 MiB: the floor of that Allreduce
 *   bcast 8             ns for MPI_Bcast of 8 bytes
 *   barrier 0           ns for MPI_Barrier
 * Each time is the best of several runs of about 20 ms.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "timing.h"


/* ---- point-to-point ----------------------------------------------------------------------- */

static void isend_recv(void *state, long count)
{
    double *x = state, y;
    MPI_Request request;
    for (long i = 0; i < count; i++) {
        MPI_Isend(x, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, &request);
        MPI_Recv(&y, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
}

static void sendrecv(void *state, long count)
{
    double *x = state, y;
    for (long i = 0; i < count; i++) {
        MPI_Sendrecv(x, 1, MPI_DOUBLE, 0, 7, &y, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    }
}

/* ---- collectives -------------------------------------------------------------------------- */

struct buffers {
    double *in, *out;
    int n;
};

static void allreduce(void *state, long count)
{
    struct buffers *b = state;
    for (long i = 0; i < count; i++) {
        MPI_Allreduce(b->in, b->out, b->n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
}

static void copy(void *state, long count)
{
    struct buffers *b = state;
    for (long i = 0; i < count; i++) {
        memcpy(b->out, b->in, (size_t)b->n * sizeof(double));
        __asm__ volatile("" : : "r"(b->out) : "memory");
    }
}

static void bcast(void *state, long count)
{
    for (long i = 0; i < count; i++) {
        MPI_Bcast(state, 8, MPI_BYTE, 0, MPI_COMM_WORLD);
    }
}

static void barrier(void *state, long count)
{
    (void)state;
    for (long i = 0; i < count; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    check(MPI_Init(&argc, &argv), "MPI_Init");

    double x = 1.0;
    printf("isend_recv 8 %.2f\n", measure(isend_recv, &x, 1));
    printf("sendrecv 8 %.2f\n", measure(sendrecv, &x, 1));

    struct buffers one = {&x, malloc(sizeof(double)), 1};
    printf("allreduce 1 %.2f\n", measure(allreduce, &one, 1));
    int n = 1 << 17; /* 1 MiB of doubles, written (untouched pages all read as one zero page) */
    struct buffers big = {malloc(n * sizeof(double)), malloc(n * sizeof(double)), n};
    if (big.in == NULL || big.out == NULL)
        return 1;
    for (int i = 0; i < n; i++)
        big.in[i] = big.out[i] = i;
    printf("allreduce %d %.2f\n", n, measure(allreduce, &big, 1));
    printf("memcpy_ns %d %.2f\n", n, measure(copy, &big, 1));
    printf("bcast 8 %.2f\n", measure(bcast, &x, 1));
    printf("barrier 0 %.2f\n", measure(barrier, NULL, 1));

    free(one.out);
    free(big.in);
    free(big.out);
    MPI_Finalize();
    return 0;
}
