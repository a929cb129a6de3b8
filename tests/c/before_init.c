/*
 * Calls before MPI_Init (semantics.md "Initialisation and threads"): the functions callable
 * at any time work (MPI_Initialized, MPI_Finalized, MPI_Get_version, MPI_Get_library_version,
 * MPI_Error_class, MPI_Error_string, MPI_Wtime, MPI_Wtick, and MPI_Comm_set_errhandler /
 * MPI_Comm_get_errhandler on MPI_COMM_SELF and MPI_COMM_WORLD); everything else fails with
 * MPI_ERR_OTHER, raised on MPI_COMM_SELF's handler — set to MPI_ERRORS_RETURN before
 * MPI_Init here — and changes nothing (outputs untouched). The handlers chosen before
 * MPI_Init stay in force after it.
 */
#include "check.h"

int main(int argc, char **argv)
{
    int flag = -1;
    CHECK_OK(MPI_Initialized(&flag));
    CHECK_EQ_INT(flag, 0);
    CHECK_OK(MPI_Finalized(&flag));
    CHECK_EQ_INT(flag, 0);
    int v = -1, sv = -1;
    CHECK_OK(MPI_Get_version(&v, &sv));
    CHECK_EQ_INT(v, 5);
    CHECK_EQ_INT(sv, 0);
    {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = -1;
        CHECK_OK(MPI_Get_library_version(lib, &len));
        CHECK(len > 0);
    }
    {
        int cls = -1;
        CHECK_OK(MPI_Error_class(MPI_ERR_KEYVAL, &cls));
        CHECK_EQ_INT(cls, MPI_ERR_KEYVAL);
        char s[MPI_MAX_ERROR_STRING];
        int len = -1;
        CHECK_OK(MPI_Error_string(MPI_ERR_OTHER, s, &len));
        CHECK(len > 0);
    }
    CHECK(MPI_Wtick() > 0.0);
    (void)MPI_Wtime();

    /* choosing the initial error handlers */
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    {
        MPI_Errhandler e = MPI_ERRHANDLER_NULL;
        CHECK_OK(MPI_Comm_get_errhandler(MPI_COMM_SELF, &e));
        CHECK_EQ_HANDLE(e, MPI_ERRORS_RETURN);
        e = MPI_ERRHANDLER_NULL;
        CHECK_OK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &e));
        CHECK_EQ_HANDLE(e, MPI_ERRORS_RETURN);
    }

    /* everything else: MPI_ERR_OTHER, outputs untouched */
    {
        int kv = SENTINEL_INT;
        MPI_Comm c = SENTINEL_HANDLE(MPI_Comm);
        MPI_Datatype t = SENTINEL_HANDLE(MPI_Datatype);
        MPI_Win w = SENTINEL_HANDLE(MPI_Win);
        void *val = SENTINEL_HANDLE(void *);
        int ival = SENTINEL_INT;
        MPI_Request req = SENTINEL_HANDLE(MPI_Request);
        void *mem = SENTINEL_HANDLE(void *);

        CHECK_RC(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kv, NULL),
                 MPI_ERR_OTHER);
        CHECK_RC(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &kv, NULL),
                 MPI_ERR_OTHER);
        CHECK_RC(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &kv, NULL),
                 MPI_ERR_OTHER);
        CHECK_RC(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &kv, NULL), MPI_ERR_OTHER);
        CHECK_EQ_INT(kv, SENTINEL_INT);
        CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &c), MPI_ERR_OTHER);
        CHECK_RC(MPI_Comm_dup_with_info(MPI_COMM_SELF, MPI_INFO_NULL, &c), MPI_ERR_OTHER);
        CHECK_RC(MPI_Comm_idup(MPI_COMM_WORLD, &c, &req), MPI_ERR_OTHER);
        CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &c), MPI_ERR_OTHER);
        /* a failed dup may set the new handle to MPI_COMM_NULL (SPEC §5 "A failed dup") */
        CHECK_MSG(c == SENTINEL_HANDLE(MPI_Comm) || c == MPI_COMM_NULL, "newcomm became %p",
                  (void *)c);
        CHECK_EQ_HANDLE(req, SENTINEL_HANDLE(MPI_Request));
        CHECK_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &val, &ival), MPI_ERR_OTHER);
        CHECK_RC(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &val, &ival), MPI_ERR_OTHER);
        CHECK_EQ_PTR(val, SENTINEL_HANDLE(void *));
        CHECK_EQ_INT(ival, SENTINEL_INT);
        CHECK_RC(MPI_Comm_set_attr(MPI_COMM_SELF, 1, NULL), MPI_ERR_OTHER);
        CHECK_RC(MPI_Comm_delete_attr(MPI_COMM_SELF, 1), MPI_ERR_OTHER);
        CHECK_RC(MPI_Comm_rank(MPI_COMM_WORLD, &ival), MPI_ERR_OTHER);
        CHECK_RC(MPI_Comm_size(MPI_COMM_WORLD, &ival), MPI_ERR_OTHER);
        CHECK_EQ_INT(ival, SENTINEL_INT);
        CHECK_RC(MPI_Type_dup(MPI_INT, &t), MPI_ERR_OTHER);
        CHECK_RC(MPI_Type_contiguous(2, MPI_INT, &t), MPI_ERR_OTHER);
        CHECK_MSG(t == SENTINEL_HANDLE(MPI_Datatype) || t == MPI_DATATYPE_NULL,
                  "newtype became %p", (void *)t);
        CHECK_RC(MPI_Type_size(MPI_INT, &ival), MPI_ERR_OTHER);
        CHECK_RC(MPI_Type_get_attr(MPI_INT, 1, &val, &ival), MPI_ERR_OTHER);
        CHECK_RC(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w), MPI_ERR_OTHER);
        CHECK_RC(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w), MPI_ERR_OTHER);
        CHECK_EQ_HANDLE(w, SENTINEL_HANDLE(MPI_Win));
        CHECK_RC(MPI_Alloc_mem(8, MPI_INFO_NULL, &mem), MPI_ERR_OTHER);
        CHECK_EQ_PTR(mem, SENTINEL_HANDLE(void *));
        CHECK_RC(MPI_Query_thread(&ival), MPI_ERR_OTHER);
        CHECK_RC(MPI_Is_thread_main(&ival), MPI_ERR_OTHER);
        CHECK_EQ_INT(ival, SENTINEL_INT);
        CHECK_RC(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, &ival), MPI_ERR_OTHER);
        CHECK_RC(MPI_Comm_set_name(MPI_COMM_WORLD, "early"), MPI_ERR_OTHER);
        CHECK_RC(MPI_Finalize(), MPI_ERR_OTHER);
    }

    /* still not initialised */
    CHECK_OK(MPI_Initialized(&flag));
    CHECK_EQ_INT(flag, 0);

    REQUIRE_OK(MPI_Init(&argc, &argv));
    CHECK_OK(MPI_Initialized(&flag));
    CHECK_EQ_INT(flag, 1);
    /* the handlers chosen before MPI_Init are in force */
    {
        MPI_Errhandler e = MPI_ERRHANDLER_NULL;
        CHECK_OK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &e));
        CHECK_EQ_HANDLE(e, MPI_ERRORS_RETURN);
        CHECK_OK(MPI_Errhandler_free(&e));
        void *val;
        int f;
        CHECK_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, -5, &val, &f), MPI_ERR_KEYVAL);
        int k = -5;
        CHECK_RC(MPI_Comm_free_keyval(&k), MPI_ERR_KEYVAL);
    }
    /* and everything works now: nothing from before MPI_Init leaked into the state */
    {
        int *tag_ub = NULL;
        int f = -1;
        CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &f));
        CHECK_EQ_INT(f, 1);
        if (tag_ub != NULL)
            CHECK(*tag_ub >= 32767);
        char name[MPI_MAX_OBJECT_NAME];
        int len;
        CHECK_OK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
        CHECK_EQ_STR(name, "MPI_COMM_WORLD");
        MPI_Comm c;
        CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        CHECK_OK(MPI_Comm_free(&c));
    }
    REQUIRE_OK(MPI_Finalize());
    return test_finish("before_init");
}
