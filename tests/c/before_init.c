/*
 * Calls before MPI_Init (semantics.md "Initialisation and threads", docs/errors.md): the
 * functions callable at any time work (MPI_Initialized, MPI_Finalized, MPI_Get_version,
 * MPI_Get_library_version, MPI_Error_class, MPI_Error_string, MPI_Wtime, MPI_Wtick,
 * MPI_Comm_set_errhandler / MPI_Comm_get_errhandler on MPI_COMM_SELF and MPI_COMM_WORLD,
 * MPI_Errhandler_free, the handle conversions) and refuse their own bad arguments as they do
 * while initialized; every other function, with arguments that would be valid once MPI is
 * initialized (MPI_COMM_WORLD, MPI_COMM_SELF, MPI_INT, keyval numbers), fails with
 * MPI_ERR_OTHER, raised on MPI_COMM_SELF's handler — set to MPI_ERRORS_RETURN before MPI_Init
 * here — and writes none of its outputs (outside.h). MPI_Init_thread with a bad thread level
 * or a NULL `provided` fails with MPI_ERR_ARG and does not initialize. Nothing from before
 * MPI_Init leaks into the state: the handlers chosen stay in force after it and everything
 * works.
 */
#include "outside.h"

int main(int argc, char **argv)
{
    /* choosing the initial error handler first: errors from here on return */
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    anytime_calls("before MPI_Init", 0, 0);

    struct outside x = {
        .when = "before MPI_Init",
        .comm = MPI_COMM_NULL,
        .type = MPI_INT,
        .win = MPI_WIN_NULL,
        .comm_keyval = MPI_TAG_UB,
        .type_keyval = 1,
        .win_keyval = MPI_WIN_BASE,
        .request = MPI_REQUEST_NULL,
        .mem = NULL,
    };
    outside_calls(&x);

    /* MPI_Init_thread's own argument errors: MPI_ERR_ARG, and MPI is not initialized */
    {
        struct outs o;
        CHECK_FAILS("before MPI_Init", o, MPI_Init_thread(&argc, &argv, 77, &o.i), MPI_ERR_ARG);
        CHECK_FAILS("before MPI_Init", o, MPI_Init_thread(&argc, &argv, -1, &o.i), MPI_ERR_ARG);
        CHECK_FAILS("before MPI_Init", o,
                    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, NULL), MPI_ERR_ARG);
    }

    /* still not initialised */
    anytime_calls("before MPI_Init, after the failed calls", 0, 0);

    REQUIRE_OK(MPI_Init(&argc, &argv));
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
        int provided = -1;
        CHECK_OK(MPI_Query_thread(&provided));
        /* the calls before MPI_Init made the library with MPI_THREAD_MULTIPLE (the
           functions callable at any time may be called by any thread): MPI_Init provides
           it (docs/semantics.md) */
        CHECK_EQ_INT(provided, MPI_THREAD_MULTIPLE);
        int *tag_ub = NULL;
        int f = -1;
        CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &f));
        CHECK_EQ_INT(f, 1);
        if (tag_ub != NULL)
            CHECK(*tag_ub >= 32767);
        f = -1;
        void *v = NULL;
        CHECK_OK(MPI_Comm_get_attr(MPI_COMM_SELF, MPI_TAG_UB, &v, &f));
        CHECK_EQ_INT(f, 0);
        char name[MPI_MAX_OBJECT_NAME];
        int len;
        CHECK_OK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
        CHECK_EQ_STR(name, "MPI_COMM_WORLD");
        int size = -1;
        CHECK_OK(MPI_Type_size(MPI_INT, &size));
        CHECK_EQ_INT(size, (int)sizeof(int));
        MPI_Comm c;
        CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        CHECK_OK(MPI_Comm_free(&c));
    }
    REQUIRE_OK(MPI_Finalize());
    return test_finish("before_init");
}
