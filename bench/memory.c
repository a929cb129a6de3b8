/*
 * Heap bytes per attribute, written against the standard MPI C API only (ci/bench builds it
 * against mpiattr, MPICH and Open MPI). About 10^6 C attributes are set, spread three ways:
 * 1024 per datatype, 16 per datatype, and 1 per datatype on 10^6 datatypes; the figure is the
 * growth of the heap (glibc's mallinfo2: bytes in use, allocator headers included) from just
 * before the first set to just after the last, divided by the number of attributes. Datatypes,
 * not communicators: MPICH and Open MPI cannot have 10^6 communicators.
 * Also: heap bytes per derived datatype without attributes.
 * One figure per run, so that no allocator pool kept from another figure hides memory:
 *   memory 1024 | memory 16 | memory 1   ->  "memory N bytes"
 *   memory bare                          ->  "memory_bare 0 bytes"
 */
#include <mpi.h>

#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define TOTAL 1000000L

static long heap(void)
{
    struct mallinfo2 m = mallinfo2();
    return (long)m.uordblks + (long)m.hblkhd;
}

static double per_attribute(int per_object, const int *keyvals)
{
    long objects = TOTAL / per_object;
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)objects);
    for (long i = 0; i < objects; i++)
        MPI_Type_contiguous(1, MPI_INT, &types[i]);
    long before = heap();
    for (long i = 0; i < objects; i++)
        for (int k = 0; k < per_object; k++)
            MPI_Type_set_attr(types[i], keyvals[k], (void *)(intptr_t)(k + 1));
    long after = heap();
    for (long i = 0; i < objects; i++)
        MPI_Type_free(&types[i]);
    free(types);
    return (double)(after - before) / (double)(objects * per_object);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc > 1 && argv[1][0] == 'b') {
        long objects = 100000;
        MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)objects);
        long before = heap();
        for (long i = 0; i < objects; i++)
            MPI_Type_contiguous(1, MPI_INT, &types[i]);
        long after = heap();
        printf("memory_bare 0 %.1f\n", (double)(after - before) / (double)objects);
        for (long i = 0; i < objects; i++)
            MPI_Type_free(&types[i]);
        free(types);
    } else {
        int per_object = argc > 1 ? atoi(argv[1]) : 1024;
        if (per_object < 1 || per_object > 1024) {
            fprintf(stderr, "memory: attributes per object must be 1 to 1024\n");
            return 1;
        }
        static int keyvals[1024];
        for (int k = 0; k < per_object; k++)
            MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &keyvals[k],
                                   NULL);
        printf("memory %d %.1f\n", per_object, per_attribute(per_object, keyvals));
    }
    MPI_Finalize();
    return 0;
}
