/*
 * Not a test program: a library the layer's harness (tests/layer.rs) preloads after the
 * layer, to prove that no attribute call reaches the real MPI's attribute code. It defines
 * the PMPI_ attribute routines, which the layer finds with dlsym(RTLD_NEXT) in place of the
 * real MPI's; each counts its call and forwards it to the real MPI. At exit it prints one
 * line on stderr: `spy: N calls, M other than reads of a predefined attribute`. Under the
 * layer M must be 0 (the layer only reads the real MPI's predefined attributes).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>

static int calls, others;

static int predefined(int keyval)
{
    return keyval == MPI_TAG_UB || keyval == MPI_HOST || keyval == MPI_IO ||
           keyval == MPI_WTIME_IS_GLOBAL || keyval == MPI_UNIVERSE_SIZE ||
           keyval == MPI_LASTUSEDCODE || keyval == MPI_APPNUM || keyval == MPI_WIN_BASE ||
           keyval == MPI_WIN_SIZE || keyval == MPI_WIN_DISP_UNIT ||
           keyval == MPI_WIN_CREATE_FLAVOR || keyval == MPI_WIN_MODEL;
}

#define FORWARD(name, params, args, is_read, keyval)                                           \
    int name params                                                                            \
    {                                                                                          \
        calls++;                                                                               \
        if (!((is_read) && predefined(keyval)))                                                \
            others++;                                                                          \
        int(*real) params = (int(*) params)dlsym(RTLD_NEXT, #name);                            \
        return real args;                                                                      \
    }

FORWARD(PMPI_Comm_create_keyval, (MPI_Comm_copy_attr_function *c, MPI_Comm_delete_attr_function *d, int *k, void *e), (c, d, k, e), 0, 0)
FORWARD(PMPI_Type_create_keyval, (MPI_Type_copy_attr_function *c, MPI_Type_delete_attr_function *d, int *k, void *e), (c, d, k, e), 0, 0)
FORWARD(PMPI_Win_create_keyval, (MPI_Win_copy_attr_function *c, MPI_Win_delete_attr_function *d, int *k, void *e), (c, d, k, e), 0, 0)
FORWARD(PMPI_Comm_free_keyval, (int *k), (k), 0, 0)
FORWARD(PMPI_Type_free_keyval, (int *k), (k), 0, 0)
FORWARD(PMPI_Win_free_keyval, (int *k), (k), 0, 0)
FORWARD(PMPI_Comm_set_attr, (MPI_Comm o, int k, void *v), (o, k, v), 0, 0)
FORWARD(PMPI_Type_set_attr, (MPI_Datatype o, int k, void *v), (o, k, v), 0, 0)
FORWARD(PMPI_Win_set_attr, (MPI_Win o, int k, void *v), (o, k, v), 0, 0)
FORWARD(PMPI_Comm_get_attr, (MPI_Comm o, int k, void *v, int *f), (o, k, v, f), 1, k)
FORWARD(PMPI_Type_get_attr, (MPI_Datatype o, int k, void *v, int *f), (o, k, v, f), 1, k)
FORWARD(PMPI_Win_get_attr, (MPI_Win o, int k, void *v, int *f), (o, k, v, f), 1, k)
FORWARD(PMPI_Comm_delete_attr, (MPI_Comm o, int k), (o, k), 0, 0)
FORWARD(PMPI_Type_delete_attr, (MPI_Datatype o, int k), (o, k), 0, 0)
FORWARD(PMPI_Win_delete_attr, (MPI_Win o, int k), (o, k), 0, 0)

__attribute__((destructor)) static void spy_report(void)
{
    fprintf(stderr, "spy: %d calls, %d other than reads of a predefined attribute\n", calls,
            others);
}
