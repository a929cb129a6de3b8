/*
 * Datatype packing and committing in a single-process MPI (bench/messages.c has the calls), written against the standard MPI C API only, so
 * the same source builds against mpiattr, MPICH and Open MPI (ci/bench builds it against each,
 * runs every implementation as one process and prints the table).
 *
 * Figures, one line each, "op N value":
 *   pack_vector 1000000 MB/s for MPI_Pack of a vector of 10^6 blocks of one double, stride 2
 *                       (bytes of packed data per second)
 *   unpack_vector ...   the same for MPI_Unpack
 *   pack_subarray N     MB/s for MPI_Pack of a 3-D subarray (N = elements: 128^3 of a 256^3
 *                       array of doubles, starts 64) and unpack_subarray for MPI_Unpack
 *   pack_contiguous N   MB/s for MPI_Pack of N contiguous doubles, and memcpy N the same copy
 *                       by memcpy (the target: pack at 80% of memcpy or more)
 *   commit_indexed N    ns per block to build and commit an indexed type of N blocks
 *                       (N = 10^5 and 10^6: linear when the two agree)
 *   commit_indexed_kb N the growth of the process's peak resident memory, in KiB, over the
 *                       commit of the 10^6-block type
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


/* ---- packing ------------------------------------------------------------------------------ */

struct packing {
    MPI_Datatype type;
    void *data, *packed;
    int size;
};

static void pack(void *state, long count)
{
    struct packing *p = state;
    for (long i = 0; i < count; i++) {
        int position = 0;
        MPI_Pack(p->data, 1, p->type, p->packed, p->size, &position, MPI_COMM_WORLD);
    }
}

static void unpack(void *state, long count)
{
    struct packing *p = state;
    for (long i = 0; i < count; i++) {
        int position = 0;
        MPI_Unpack(p->packed, p->size, &position, p->data, 1, p->type, MPI_COMM_WORLD);
    }
}

static void copy(void *state, long count)
{
    struct packing *p = state;
    for (long i = 0; i < count; i++) {
        memcpy(p->packed, p->data, (size_t)p->size);
        __asm__ volatile("" : : "r"(p->packed) : "memory");
    }
}

/* Pack and unpack bandwidth of one item of `type` over `data`, in MB/s of packed bytes. */
static void pack_figures(const char *name, long n, MPI_Datatype type, void *data)
{
    struct packing p = {type, data, NULL, 0};
    check(MPI_Type_commit(&p.type), "MPI_Type_commit");
    check(MPI_Pack_size(1, p.type, MPI_COMM_WORLD, &p.size), "MPI_Pack_size");
    p.packed = malloc((size_t)p.size);
    memset(p.packed, 1, (size_t)p.size);
    printf("pack_%s %ld %.1f\n", name, n, p.size / measure(pack, &p, 1) * 1e3);
    printf("unpack_%s %ld %.1f\n", name, n, p.size / measure(unpack, &p, 1) * 1e3);
    if (strcmp(name, "contiguous") == 0) {
        printf("memcpy %ld %.1f\n", n, p.size / measure(copy, &p, 1) * 1e3);
    }
    free(p.packed);
    MPI_Type_free(&p.type);
}

static long peak_kib(void)
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

/* ns per block of building and committing an indexed type of `blocks` blocks. */
static void commit_indexed(int blocks)
{
    int *lengths = malloc(blocks * sizeof(int));
    int *displacements = malloc(blocks * sizeof(int));
    for (int i = 0; i < blocks; i++) {
        lengths[i] = 1 + i % 3;
        displacements[i] = 4 * i;
    }
    double best = 1e300;
    long before = peak_kib();
    for (int r = 0; r < 3; r++) {
        MPI_Datatype type;
        double t0 = now_ns();
        check(MPI_Type_indexed(blocks, lengths, displacements, MPI_DOUBLE, &type),
              "MPI_Type_indexed");
        check(MPI_Type_commit(&type), "MPI_Type_commit");
        double ns = now_ns() - t0;
        MPI_Type_free(&type);
        if (ns < best)
            best = ns;
    }
    printf("commit_indexed %d %.2f\n", blocks, best / blocks);
    if (blocks == 1000000) {
        printf("commit_indexed_kb %d %ld\n", blocks, peak_kib() - before);
    }
    free(lengths);
    free(displacements);
}

int main(int argc, char **argv)
{
    check(MPI_Init(&argc, &argv), "MPI_Init");

    /* Vector: 10^6 blocks of one double, stride 2. */
    int blocks = 1000000;
    double *strided = calloc(2 * (size_t)blocks, sizeof(double));
    MPI_Datatype vector;
    check(MPI_Type_vector(blocks, 1, 2, MPI_DOUBLE, &vector), "MPI_Type_vector");
    pack_figures("vector", blocks, vector, strided);
    free(strided);

    /* 3-D subarray: 128^3 of a 256^3 array of doubles. */
    int sizes[3] = {256, 256, 256}, subsizes[3] = {128, 128, 128}, starts[3] = {64, 64, 64};
    double *cube = calloc((size_t)256 * 256 * 256, sizeof(double));
    MPI_Datatype subarray;
    check(MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE,
                                   &subarray),
          "MPI_Type_create_subarray");
    pack_figures("subarray", 128L * 128 * 128, subarray, cube);
    free(cube);

    /* Contiguous: 1 MiB of doubles, against memcpy. */
    int n = 1 << 17;
    double *contiguous_data = calloc(n, sizeof(double));
    MPI_Datatype contiguous;
    check(MPI_Type_contiguous(n, MPI_DOUBLE, &contiguous), "MPI_Type_contiguous");
    pack_figures("contiguous", n, contiguous, contiguous_data);
    free(contiguous_data);

    commit_indexed(100000);
    commit_indexed(1000000);

    MPI_Finalize();
    return 0;
}
