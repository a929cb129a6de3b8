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
 *   loop_pack_vector, loop_unpack_vector, loop_pack_subarray, loop_unpack_subarray N
 *                       the same copies as plain C loops (no MPI): the memory's speed, which
 *                       no MPI can beat by much
 *   pack_contiguous N   MB/s for MPI_Pack of N contiguous doubles, and memcpy N the same copy
 *                       by memcpy (the target: pack at 80% of memcpy or more)
 *   commit_indexed N    ns per block to build and commit an indexed type of N blocks
 *                       (N = 10^5 and 10^6: linear when the two agree)
 *   commit_indexed_kb N the growth of the process's peak resident memory, in KiB, over the
 *                       commit of the 10^6-block type
 * Each time is the best of several runs of about 20 ms. Every buffer is written before it is
 * measured: untouched calloc'ed memory reads as the one zero page, which would make packing
 * look several times faster than memory allows.
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

/* n doubles, each written (so every page is the process's own). */
static double *filled(size_t n)
{
    double *data = malloc(n * sizeof(double));
    if (data == NULL) {
        fprintf(stderr, "bench: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        data[i] = (double)i;
    return data;
}

/* The copies MPI_Pack and MPI_Unpack make, as plain C loops: the floor for any MPI. */
struct loop {
    double *data, *packed;
    long n;
};

static void loop_pack_vector(void *state, long count)
{
    struct loop *l = state;
    for (long c = 0; c < count; c++) {
        for (long i = 0; i < l->n; i++)
            l->packed[i] = l->data[2 * i];
        __asm__ volatile("" : : "r"(l->packed) : "memory");
    }
}

static void loop_unpack_vector(void *state, long count)
{
    struct loop *l = state;
    for (long c = 0; c < count; c++) {
        for (long i = 0; i < l->n; i++)
            l->data[2 * i] = l->packed[i];
        __asm__ volatile("" : : "r"(l->data) : "memory");
    }
}

/* 128^3 from 256^3, starts 64 (the subarray below), row by row. */
static void loop_subarray(void *state, long count, int pack)
{
    struct loop *l = state;
    for (long c = 0; c < count; c++) {
        double *packed = l->packed;
        for (long z = 64; z < 192; z++) {
            for (long y = 64; y < 192; y++) {
                double *row = l->data + (z * 256 + y) * 256 + 64;
                if (pack)
                    memcpy(packed, row, 128 * sizeof(double));
                else
                    memcpy(row, packed, 128 * sizeof(double));
                packed += 128;
            }
        }
        __asm__ volatile("" : : "r"(l->data), "r"(l->packed) : "memory");
    }
}

static void loop_pack_subarray(void *state, long count) { loop_subarray(state, count, 1); }
static void loop_unpack_subarray(void *state, long count) { loop_subarray(state, count, 0); }

/* The plain C loops' bandwidth for `name` (vector or subarray) over n packed doubles. */
static void loop_figures(const char *name, long n, double *data)
{
    struct loop l = {data, filled((size_t)n), n};
    int vector = strcmp(name, "vector") == 0;
    double bytes = (double)n * sizeof(double);
    printf("loop_pack_%s %ld %.1f\n", name, n,
           bytes / measure(vector ? loop_pack_vector : loop_pack_subarray, &l, 1) * 1e3);
    printf("loop_unpack_%s %ld %.1f\n", name, n,
           bytes / measure(vector ? loop_unpack_vector : loop_unpack_subarray, &l, 1) * 1e3);
    free(l.packed);
}

/* Pack and unpack bandwidth of one item of `type` over `data`, in MB/s of packed bytes. */
static void pack_figures(const char *name, long n, MPI_Datatype type, void *data)
{
    struct packing p = {type, data, NULL, 0};
    check(MPI_Type_commit(&p.type), "MPI_Type_commit");
    check(MPI_Pack_size(1, p.type, MPI_COMM_WORLD, &p.size), "MPI_Pack_size");
    p.packed = malloc((size_t)p.size);
    memset(p.packed, 1, (size_t)p.size);  /* written, as `data` is */
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

    /* First, while the process's peak memory is still small: the peak's growth is the
     * commit's. */
    commit_indexed(100000);
    commit_indexed(1000000);

    /* Vector: 10^6 blocks of one double, stride 2. */
    int blocks = 1000000;
    double *strided = filled(2 * (size_t)blocks);
    MPI_Datatype vector;
    check(MPI_Type_vector(blocks, 1, 2, MPI_DOUBLE, &vector), "MPI_Type_vector");
    pack_figures("vector", blocks, vector, strided);
    loop_figures("vector", blocks, strided);
    free(strided);

    /* 3-D subarray: 128^3 of a 256^3 array of doubles. */
    int sizes[3] = {256, 256, 256}, subsizes[3] = {128, 128, 128}, starts[3] = {64, 64, 64};
    double *cube = filled((size_t)256 * 256 * 256);
    MPI_Datatype subarray;
    check(MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE,
                                   &subarray),
          "MPI_Type_create_subarray");
    pack_figures("subarray", 128L * 128 * 128, subarray, cube);
    loop_figures("subarray", 128L * 128 * 128, cube);
    free(cube);

    /* Contiguous: 1 MiB of doubles, against memcpy. */
    int n = 1 << 17;
    double *contiguous_data = filled((size_t)n);
    MPI_Datatype contiguous;
    check(MPI_Type_contiguous(n, MPI_DOUBLE, &contiguous), "MPI_Type_contiguous");
    pack_figures("contiguous", n, contiguous, contiguous_data);
    free(contiguous_data);

    MPI_Finalize();
    return 0;
}
