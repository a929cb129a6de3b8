/*
 * Not a test program: a library the layer's harness (tests/layer.rs) preloads after the
 * layer, to prove that no attribute call reaches the real MPI's attribute code. It defines
 * the PMPI_ attribute routines, which the layer finds with dlsym(RTLD_NEXT) in place of the
 * real MPI's, and the internal functions the MPIs' Fortran attribute routines call (MPICH's
 * MPII_*_set_attr, MPII_*_get_attr and MPII_Keyval_set_proxy, Open MPI's ompi_attr_*); each
 * counts its call and forwards it to the real MPI. At exit it prints one
 * line on stderr: `spy: N calls, M other than reads of a predefined attribute`. Under the
 * layer M must be 0 (the layer only reads the real MPI's predefined attributes).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int calls, others;
/* Inside a forwarded read of a predefined attribute: what the MPI calls then is part of it. */
static int in_read;

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
        int read = (is_read) && predefined(keyval);                                            \
        if (!read && !in_read) {                                                               \
            others++;                                                                          \
            if (getenv("SPY_VERBOSE"))                                                         \
                fprintf(stderr, "spy: %s\n", #name);                                           \
        }                                                                                      \
        int(*real) params = (int(*) params)dlsym(RTLD_NEXT, #name);                            \
        in_read += read;                                                                       \
        int rc = real args;                                                                    \
        in_read -= read;                                                                       \
        return rc;                                                                             \
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

/* The internal functions take at most eight integer or pointer arguments (Open MPI's
   ompi_attr_create_keyval_* take seven) and return an int or nothing: on x86-64 passing
   eight such words through (six in registers, two on the stack, which a function of fewer
   arguments ignores) forwards any of them unchanged. */
#define FORWARD_INTERNAL(name, key)                                                            \
    long name(long a, long b, long c, long d, long e, long f, long g, long h)                  \
    {                                                                                          \
        calls++;                                                                               \
        /* The MPI's own settings of its predefined attributes (on MPI_COMM_WORLD during     \
           MPI_Init, on a new window) are its business. */                                     \
        if (!in_read && !predefined((int)(key))) {                                             \
            others++;                                                                          \
            if (getenv("SPY_VERBOSE"))                                                         \
                fprintf(stderr, "spy: %s\n", #name);                                           \
        }                                                                                      \
        long (*real)(long, long, long, long, long, long, long, long) =                         \
            (long (*)(long, long, long, long, long, long, long, long))dlsym(RTLD_NEXT, #name); \
        return real(a, b, c, d, e, f, g, h);                                                   \
    }

/* The second argument: which of the forwarded words is the keyval (-1: none, always counted). */
FORWARD_INTERNAL(MPII_Comm_set_attr, b)
FORWARD_INTERNAL(MPII_Comm_get_attr, b)
FORWARD_INTERNAL(MPII_Type_set_attr, b)
FORWARD_INTERNAL(MPII_Type_get_attr, b)
FORWARD_INTERNAL(MPII_Win_set_attr, b)
FORWARD_INTERNAL(MPII_Win_get_attr, b)
FORWARD_INTERNAL(MPII_Keyval_set_proxy, -1)
FORWARD_INTERNAL(ompi_attr_create_keyval_aint, -1)
FORWARD_INTERNAL(ompi_attr_create_keyval_fint, -1)
FORWARD_INTERNAL(ompi_attr_get_aint, b)
FORWARD_INTERNAL(ompi_attr_get_fint, b)
FORWARD_INTERNAL(ompi_attr_set_aint, d)
FORWARD_INTERNAL(ompi_attr_set_fint, d)

__attribute__((destructor)) static void spy_report(void)
{
    fprintf(stderr, "spy: %d calls, %d other than reads of a predefined attribute\n", calls,
            others);
}
