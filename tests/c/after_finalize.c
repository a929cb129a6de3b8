/*
 * Calls after MPI_Finalize (semantics.md "Initialisation and threads"): MPI_Initialized and
 * MPI_Finalized say true, MPI_Get_version, MPI_Error_class / MPI_Error_string, MPI_Wtime /
 * MPI_Wtick still work, the predefined communicators' handlers can still be set; every other
 * function — including MPI_Init, MPI_Init_thread and a second MPI_Finalize, and calls on
 * objects and keyvals that were alive before MPI_Finalize — fails with MPI_ERR_OTHER and
 * leaves its outputs untouched; no callback runs.
 */
#include "check.h"

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

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    int kv, tkv;
    REQUIRE_OK(MPI_Comm_create_keyval(ccopy, cdel, &kv, NULL));
    REQUIRE_OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &tkv, NULL));
    MPI_Comm live;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &live));
    REQUIRE_OK(MPI_Comm_set_attr(live, kv, IPTR(4)));
    MPI_Datatype tlive;
    REQUIRE_OK(MPI_Type_contiguous(2, MPI_INT, &tlive));
    MPI_Win wlive;
    void *base;
    REQUIRE_OK(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &wlive));
    REQUIRE_OK(MPI_Win_set_errhandler(wlive, MPI_ERRORS_RETURN));

    REQUIRE_OK(MPI_Finalize());
    CHECK_EQ_INT(ncalls, 0); /* live objects are released without callbacks */

    int flag = -1;
    CHECK_OK(MPI_Finalized(&flag));
    CHECK_EQ_INT(flag, 1);
    flag = -1;
    CHECK_OK(MPI_Initialized(&flag));
    CHECK_EQ_INT(flag, 1);
    int v = -1, sv = -1;
    CHECK_OK(MPI_Get_version(&v, &sv));
    CHECK_EQ_INT(v, 5);
    CHECK(MPI_Wtick() > 0.0);
    (void)MPI_Wtime();
    {
        int cls = -1;
        CHECK_OK(MPI_Error_class(MPI_ERR_COMM, &cls));
        CHECK_EQ_INT(cls, MPI_ERR_COMM);
    }
    /* the handler may be (re)chosen at any time on the predefined communicators */
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    {
        int k = SENTINEL_INT;
        MPI_Comm c = SENTINEL_HANDLE(MPI_Comm);
        MPI_Datatype t = SENTINEL_HANDLE(MPI_Datatype);
        MPI_Win w = SENTINEL_HANDLE(MPI_Win);
        void *val = SENTINEL_HANDLE(void *);
        int ival = SENTINEL_INT;
        MPI_Request req = SENTINEL_HANDLE(MPI_Request);

        CHECK_RC(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL),
                 MPI_ERR_OTHER);
        CHECK_RC(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &k, NULL),
                 MPI_ERR_OTHER);
        CHECK_RC(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &k, NULL), MPI_ERR_OTHER);
        CHECK_EQ_INT(k, SENTINEL_INT);
        CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &c), MPI_ERR_OTHER);
        CHECK_RC(MPI_Comm_dup(live, &c), MPI_ERR_OTHER);
        CHECK_RC(MPI_Comm_idup(MPI_COMM_SELF, &c, &req), MPI_ERR_OTHER);
        /* a failed dup may set the new handle to MPI_COMM_NULL (SPEC §5 "A failed dup") */
        CHECK_MSG(c == SENTINEL_HANDLE(MPI_Comm) || c == MPI_COMM_NULL, "newcomm became %p",
                  (void *)c);
        CHECK_EQ_HANDLE(req, SENTINEL_HANDLE(MPI_Request));
        CHECK_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &val, &ival), MPI_ERR_OTHER);
        CHECK_RC(MPI_Comm_get_attr(live, kv, &val, &ival), MPI_ERR_OTHER);
        CHECK_EQ_PTR(val, SENTINEL_HANDLE(void *));
        CHECK_EQ_INT(ival, SENTINEL_INT);
        CHECK_RC(MPI_Comm_set_attr(live, kv, IPTR(5)), MPI_ERR_OTHER);
        CHECK_RC(MPI_Comm_delete_attr(live, kv), MPI_ERR_OTHER);
        CHECK_RC(MPI_Comm_rank(MPI_COMM_WORLD, &ival), MPI_ERR_OTHER);
        CHECK_EQ_INT(ival, SENTINEL_INT);
        {
            MPI_Comm victim = live;
            CHECK_RC(MPI_Comm_free(&victim), MPI_ERR_OTHER);
            CHECK_EQ_HANDLE(victim, live);
        }
        {
            int victim = kv;
            CHECK_RC(MPI_Comm_free_keyval(&victim), MPI_ERR_OTHER);
            CHECK_EQ_INT(victim, kv);
            victim = tkv;
            CHECK_RC(MPI_Type_free_keyval(&victim), MPI_ERR_OTHER);
            CHECK_EQ_INT(victim, tkv);
        }
        CHECK_RC(MPI_Type_dup(tlive, &t), MPI_ERR_OTHER);
        CHECK_RC(MPI_Type_size(MPI_INT, &ival), MPI_ERR_OTHER);
        CHECK_RC(MPI_Type_free(&tlive), MPI_ERR_OTHER);
        CHECK_MSG(t == SENTINEL_HANDLE(MPI_Datatype) || t == MPI_DATATYPE_NULL,
                  "newtype became %p", (void *)t);
        CHECK_RC(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w), MPI_ERR_OTHER);
        CHECK_EQ_HANDLE(w, SENTINEL_HANDLE(MPI_Win));
        CHECK_RC(MPI_Win_get_attr(wlive, MPI_WIN_BASE, &val, &ival), MPI_ERR_OTHER);
        CHECK_RC(MPI_Win_free(&wlive), MPI_ERR_OTHER);
        CHECK_RC(MPI_Query_thread(&ival), MPI_ERR_OTHER);
        CHECK_RC(MPI_Init(&argc, &argv), MPI_ERR_OTHER);
        CHECK_RC(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &ival), MPI_ERR_OTHER);
        CHECK_RC(MPI_Finalize(), MPI_ERR_OTHER);
    }
    CHECK_EQ_INT(ncalls, 0);
    flag = -1;
    CHECK_OK(MPI_Finalized(&flag));
    CHECK_EQ_INT(flag, 1);
    return test_finish("after_finalize");
}
