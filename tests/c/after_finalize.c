/*
 * Calls after MPI_Finalize (semantics.md "Initialisation and threads", docs/errors.md):
 * MPI_Initialized and MPI_Finalized say true; the functions callable at any time work and
 * refuse their own bad arguments as before (outside.h); every other function — MPI_Init,
 * MPI_Init_thread and a second MPI_Finalize included, and every call on the communicator,
 * datatype, window, keyvals, pending request and memory that were alive before MPI_Finalize —
 * fails with MPI_ERR_OTHER, writes none of its outputs and keeps its in-out arguments; no
 * callback runs (live objects are released at MPI_Finalize without callbacks).
 */
#include "outside.h"

static int ncalls;
static int cdel(MPI_Comm c, int kv, void *v, void *e)
{
    (void)c, (void)kv, (void)v, (void)e;
    ncalls++;
    return MPI_SUCCESS;
}
static int ccopy(MPI_Comm c, int kv, void *e, void *in, void *out, int *flag)
{
    (void)c, (void)kv, (void)e;
    ncalls++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}
static int tdel(MPI_Datatype t, int kv, void *v, void *e)
{
    (void)t, (void)kv, (void)v, (void)e;
    ncalls++;
    return MPI_SUCCESS;
}
static int wdel(MPI_Win w, int kv, void *v, void *e)
{
    (void)w, (void)kv, (void)v, (void)e;
    ncalls++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    struct outside x = {.when = "after MPI_Finalize"};
    REQUIRE_OK(MPI_Comm_create_keyval(ccopy, cdel, &x.comm_keyval, NULL));
    REQUIRE_OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, tdel, &x.type_keyval, NULL));
    REQUIRE_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, wdel, &x.win_keyval, NULL));
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &x.comm));
    REQUIRE_OK(MPI_Comm_set_attr(x.comm, x.comm_keyval, IPTR(4)));
    REQUIRE_OK(MPI_Type_contiguous(2, MPI_INT, &x.type));
    REQUIRE_OK(MPI_Type_set_attr(x.type, x.type_keyval, IPTR(5)));
    void *base;
    REQUIRE_OK(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &x.win));
    REQUIRE_OK(MPI_Win_set_errhandler(x.win, MPI_ERRORS_RETURN));
    REQUIRE_OK(MPI_Win_set_attr(x.win, x.win_keyval, IPTR(6)));
    MPI_Comm idup;
    REQUIRE_OK(MPI_Comm_idup(MPI_COMM_SELF, &idup, &x.request));
    REQUIRE_OK(MPI_Alloc_mem(32, MPI_INFO_NULL, &x.mem));

    REQUIRE_OK(MPI_Finalize());
    CHECK_EQ_INT(ncalls, 0); /* live objects are released without callbacks */

    anytime_calls("after MPI_Finalize", 1, 1);
    outside_calls(&x);
    {
        struct outs o;
        CHECK_FAILS(x.when, o, MPI_Init(&argc, &argv), MPI_ERR_OTHER);
        CHECK_FAILS(x.when, o, MPI_Init(NULL, NULL), MPI_ERR_OTHER);
        CHECK_FAILS(x.when, o, MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &o.i),
                    MPI_ERR_OTHER);
        CHECK_FAILS(x.when, o, MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &o.i),
                    MPI_ERR_OTHER);
    }
#if defined(MPIATTR_MPI_H)
    /* the objects are gone: their Fortran integers are the null handles' */
    CHECK_EQ_INT(MPI_Comm_c2f(x.comm), MPI_Comm_c2f(MPI_COMM_NULL));
    CHECK_EQ_INT(MPI_Type_c2f(x.type), MPI_Type_c2f(MPI_DATATYPE_NULL));
    CHECK_EQ_INT(MPI_Win_c2f(x.win), MPI_Win_c2f(MPI_WIN_NULL));
#endif
    CHECK_EQ_INT(ncalls, 0);
    anytime_calls("after MPI_Finalize, after the failed calls", 1, 1);
    return test_finish("after_finalize");
}
