/*
 * Error handlers (attributes.md §5, semantics.md "Errors" and "Objects and handles"): the default on
 * MPI_COMM_WORLD and MPI_COMM_SELF is MPI_ERRORS_ARE_FATAL; set/get round trips on
 * communicators and windows; MPI_Errhandler_free of a handler returned by get succeeds and sets
 * the variable to MPI_ERRHANDLER_NULL; dup, dup_with_info, idup and split inherit the handler;
 * errors go to the handler of the object concerned: with MPI_ERRORS_RETURN on one
 * communicator only, errors on it return while the others keep theirs; errors on invalid
 * handles, keyval calls and datatype calls go to MPI_COMM_SELF's handler (they return here
 * because only MPI_COMM_SELF was set to MPI_ERRORS_RETURN while MPI_COMM_WORLD stays fatal).
 */
#include "check.h"

static MPI_Errhandler get_comm_eh(MPI_Comm c)
{
    MPI_Errhandler e = MPI_ERRHANDLER_NULL;
    CHECK_OK(MPI_Comm_get_errhandler(c, &e));
    MPI_Errhandler copy = e;
    CHECK_OK(MPI_Errhandler_free(&e));
    CHECK_EQ_HANDLE(e, MPI_ERRHANDLER_NULL);
    return copy;
}

static MPI_Errhandler get_win_eh(MPI_Win w)
{
    MPI_Errhandler e = MPI_ERRHANDLER_NULL;
    CHECK_OK(MPI_Win_get_errhandler(w, &e));
    MPI_Errhandler copy = e;
    CHECK_OK(MPI_Errhandler_free(&e));
    CHECK_EQ_HANDLE(e, MPI_ERRHANDLER_NULL);
    return copy;
}

int main(int argc, char **argv)
{
    REQUIRE_OK(MPI_Init(&argc, &argv));
    /* defaults (these calls succeed, so the fatal handler is not triggered) */
    CHECK_EQ_HANDLE(get_comm_eh(MPI_COMM_WORLD), MPI_ERRORS_ARE_FATAL);
    CHECK_EQ_HANDLE(get_comm_eh(MPI_COMM_SELF), MPI_ERRORS_ARE_FATAL);

    /* Only MPI_COMM_SELF returns errors; MPI_COMM_WORLD stays fatal. */
    REQUIRE_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK_EQ_HANDLE(get_comm_eh(MPI_COMM_SELF), MPI_ERRORS_RETURN);
    CHECK_EQ_HANDLE(get_comm_eh(MPI_COMM_WORLD), MPI_ERRORS_ARE_FATAL);

    /* keyval calls without an object: MPI_COMM_SELF's handler */
    {
        int k = -5;
        CHECK_RC(MPI_Comm_free_keyval(&k), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Type_free_keyval(&k), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Win_free_keyval(&k), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, NULL, NULL),
                 MPI_ERR_ARG);
    }
    /* datatype calls: MPI_COMM_SELF's handler */
    {
        int size;
        CHECK_RC(MPI_Type_size(MPI_DATATYPE_NULL, &size), MPI_ERR_TYPE);
        MPI_Datatype t;
        CHECK_RC(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT);
    }
    /* invalid communicator handles: MPI_COMM_SELF's handler */
    {
        int r;
        CHECK_RC(MPI_Comm_rank(MPI_COMM_NULL, &r), MPI_ERR_COMM);
        CHECK_RC(MPI_Comm_get_attr(MPI_COMM_NULL, MPI_TAG_UB, &(void *){NULL}, &r), MPI_ERR_COMM);
        CHECK_RC(MPI_Win_free(&(MPI_Win){MPI_WIN_NULL}), MPI_ERR_WIN);
    }
    /* an error on MPI_COMM_SELF itself */
    CHECK_RC(MPI_Comm_set_attr(MPI_COMM_SELF, MPI_TAG_UB, NULL), MPI_ERR_KEYVAL);

    /* inheritance: a dup of SELF returns errors, a dup of WORLD is fatal */
    MPI_Comm sd, wd, wdi, ws, wi;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_SELF, &sd));
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &wd));
    CHECK_EQ_HANDLE(get_comm_eh(sd), MPI_ERRORS_RETURN);
    CHECK_EQ_HANDLE(get_comm_eh(wd), MPI_ERRORS_ARE_FATAL);
    CHECK_RC(MPI_Comm_set_attr(sd, MPI_TAG_UB, NULL), MPI_ERR_KEYVAL);

    /* set RETURN on wd only: its errors return, WORLD stays fatal */
    REQUIRE_OK(MPI_Comm_set_errhandler(wd, MPI_ERRORS_RETURN));
    CHECK_EQ_HANDLE(get_comm_eh(wd), MPI_ERRORS_RETURN);
    CHECK_EQ_HANDLE(get_comm_eh(MPI_COMM_WORLD), MPI_ERRORS_ARE_FATAL);
    CHECK_RC(MPI_Comm_rank(wd, NULL), MPI_ERR_ARG);
    CHECK_RC(MPI_Comm_delete_attr(wd, MPI_HOST), MPI_ERR_KEYVAL);

    /* every way of making a communicator inherits */
    REQUIRE_OK(MPI_Comm_dup_with_info(wd, MPI_INFO_NULL, &wdi));
    REQUIRE_OK(MPI_Comm_split(wd, 0, 0, &ws));
    MPI_Request req;
    REQUIRE_OK(MPI_Comm_idup(wd, &wi, &req));
    REQUIRE_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK_EQ_HANDLE(get_comm_eh(wdi), MPI_ERRORS_RETURN);
    CHECK_EQ_HANDLE(get_comm_eh(ws), MPI_ERRORS_RETURN);
    CHECK_EQ_HANDLE(get_comm_eh(wi), MPI_ERRORS_RETURN);
    CHECK_RC(MPI_Comm_size(ws, NULL), MPI_ERR_ARG);

    /* set back and forth; MPI_ERRORS_ABORT can be set and read back */
    REQUIRE_OK(MPI_Comm_set_errhandler(wdi, MPI_ERRORS_ABORT));
    CHECK_EQ_HANDLE(get_comm_eh(wdi), MPI_ERRORS_ABORT);
    REQUIRE_OK(MPI_Comm_set_errhandler(wdi, MPI_ERRORS_ARE_FATAL));
    CHECK_EQ_HANDLE(get_comm_eh(wdi), MPI_ERRORS_ARE_FATAL);
    REQUIRE_OK(MPI_Comm_set_errhandler(wdi, MPI_ERRORS_RETURN));
    CHECK_EQ_HANDLE(get_comm_eh(wdi), MPI_ERRORS_RETURN);

    /* windows: set/get, errors on the window return only when its handler says so */
    MPI_Win w;
    void *base;
    REQUIRE_OK(MPI_Win_allocate(8, 1, MPI_INFO_NULL, wd, &base, &w));
    /* A new window starts with MPI_ERRORS_ARE_FATAL, whatever its communicator has. */
    CHECK_EQ_HANDLE(get_comm_eh(wd), MPI_ERRORS_RETURN);
    CHECK_EQ_HANDLE(get_win_eh(w), MPI_ERRORS_ARE_FATAL);
    REQUIRE_OK(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
    CHECK_EQ_HANDLE(get_win_eh(w), MPI_ERRORS_RETURN);
    CHECK_RC(MPI_Win_set_attr(w, MPI_WIN_BASE, NULL), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Win_get_attr(w, MPI_WIN_BASE, NULL, &(int){0}), MPI_ERR_ARG);
    REQUIRE_OK(MPI_Win_set_errhandler(w, MPI_ERRORS_ABORT));
    CHECK_EQ_HANDLE(get_win_eh(w), MPI_ERRORS_ABORT);
    REQUIRE_OK(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
    CHECK_RC(MPI_Win_delete_attr(w, MPI_WIN_SIZE), MPI_ERR_KEYVAL);

    /* freeing a predefined handler obtained from get leaves the communicator's alone */
    {
        MPI_Errhandler e;
        CHECK_OK(MPI_Comm_get_errhandler(wd, &e));
        CHECK_OK(MPI_Errhandler_free(&e));
        CHECK_OK(MPI_Errhandler_free(&(MPI_Errhandler){MPI_ERRORS_RETURN}));
        CHECK_EQ_HANDLE(get_comm_eh(wd), MPI_ERRORS_RETURN);
        CHECK_RC(MPI_Comm_rank(wd, NULL), MPI_ERR_ARG);
    }

    CHECK_OK(MPI_Win_free(&w));
    CHECK_OK(MPI_Comm_free(&sd));
    CHECK_OK(MPI_Comm_free(&wd));
    CHECK_OK(MPI_Comm_free(&wdi));
    CHECK_OK(MPI_Comm_free(&ws));
    CHECK_OK(MPI_Comm_free(&wi));
    REQUIRE_OK(MPI_Finalize());
    return test_finish("errhandlers");
}
