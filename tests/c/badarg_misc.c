/*
 * Other bad inputs under MPI_ERRORS_RETURN: invalid requests in MPI_Wait / MPI_Test /
 * MPI_Request_free (MPI_ERR_REQUEST; wrong-kind handles, stale copies of completed requests,
 * made-up values, MPI_Request_free of MPI_REQUEST_NULL), NULL flag / request pointers
 * (MPI_ERR_ARG), with the request variable, flag and status untouched;
 * MPI_ERRHANDLER_NULL and non-handler values in MPI_Comm_set_errhandler and
 * MPI_Errhandler_free (MPI_ERR_ERRHANDLER) with the current handler unchanged;
 * MPI_Error_class and MPI_Error_string of a value that is not an error code (MPI_ERR_ARG); a
 * second MPI_Init or MPI_Init_thread (MPI_ERR_OTHER), MPI_Init_thread with a bad thread level
 * or a NULL `provided` (MPI_ERR_ARG); NULL outputs of the environment queries (MPI_ERR_ARG).
 * Failed calls write no output (CHECK_FAILS) and MPI stays initialised as it was.
 */
#include "check.h"

int main(int argc, char **argv)
{
    test_init(&argc, &argv);

    /* ---- requests ---- */
    {
        MPI_Comm c = MPI_COMM_NULL;
        MPI_Request req = MPI_REQUEST_NULL;
        REQUIRE_OK(MPI_Comm_idup(MPI_COMM_WORLD, &c, &req));
        MPI_Request stale = req;
        REQUIRE_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        CHECK_EQ_HANDLE(req, MPI_REQUEST_NULL);

        MPI_Request bads[] = {stale,
                              (MPI_Request)MPI_COMM_WORLD,
                              (MPI_Request)c,
                              (MPI_Request)MPI_INT,
                              (MPI_Request)MPI_ERRORS_RETURN,
                              (MPI_Request)(intptr_t)1,
                              (MPI_Request)(intptr_t)0x7777,
                              (MPI_Request)(intptr_t)-1,
                              (MPI_Request)(intptr_t)0x7ff123456784};
        struct outs o;
        for (int i = 0; i < (int)(sizeof bads / sizeof bads[0]); i++) {
            char what[64];
            snprintf(what, sizeof what, "bad request #%d", i);
            MPI_Request r = bads[i];
            CHECK_FAILS_INOUT(what, o, r, MPI_Wait(&r, &o.status), MPI_ERR_REQUEST);
            CHECK_FAILS_INOUT(what, o, r, MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
            CHECK_FAILS_INOUT(what, o, r, MPI_Test(&r, &o.i, &o.status), MPI_ERR_REQUEST);
            CHECK_FAILS_INOUT(what, o, r, MPI_Request_free(&r), MPI_ERR_REQUEST);
        }
        MPI_Request rn = MPI_REQUEST_NULL;
        CHECK_FAILS_INOUT("MPI_REQUEST_NULL", o, rn, MPI_Request_free(&rn), MPI_ERR_REQUEST);
        CHECK_FAILS("NULL request", o, MPI_Wait(NULL, &o.status), MPI_ERR_ARG);
        CHECK_FAILS("NULL request", o, MPI_Test(NULL, &o.i, &o.status), MPI_ERR_ARG);
        CHECK_FAILS("NULL request", o, MPI_Request_free(NULL), MPI_ERR_ARG);
        /* MPI_Test with a NULL flag on a live request: error, the request survives. */
        MPI_Comm c2 = MPI_COMM_NULL;
        MPI_Request r2 = MPI_REQUEST_NULL;
        REQUIRE_OK(MPI_Comm_idup(MPI_COMM_WORLD, &c2, &r2));
        CHECK_FAILS_INOUT("NULL flag", o, r2, MPI_Test(&r2, NULL, &o.status), MPI_ERR_ARG);
        CHECK_NE_HANDLE(r2, MPI_REQUEST_NULL);
        CHECK_OK(MPI_Wait(&r2, MPI_STATUS_IGNORE));
        CHECK_EQ_HANDLE(r2, MPI_REQUEST_NULL);
        /* the communicators from idup work */
        int size = -1;
        CHECK_OK(MPI_Comm_size(c2, &size));
        CHECK_EQ_INT(size, 1);
        CHECK_OK(MPI_Comm_free(&c2));
        CHECK_OK(MPI_Comm_free(&c));
    }

    /* ---- error handlers ---- */
    {
        MPI_Comm c;
        REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        MPI_Errhandler bads[] = {MPI_ERRHANDLER_NULL, (MPI_Errhandler)MPI_COMM_WORLD,
                                 (MPI_Errhandler)MPI_INT, (MPI_Errhandler)(intptr_t)0x7777};
        struct outs o;
        for (int i = 0; i < (int)(sizeof bads / sizeof bads[0]); i++) {
            char what[64];
            snprintf(what, sizeof what, "bad errhandler #%d", i);
            CHECK_FAILS(what, o, MPI_Comm_set_errhandler(c, bads[i]), MPI_ERR_ERRHANDLER);
            CHECK_FAILS(what, o, MPI_Comm_set_errhandler(MPI_COMM_WORLD, bads[i]),
                        MPI_ERR_ERRHANDLER);
            CHECK_FAILS(what, o, MPI_Comm_set_errhandler(MPI_COMM_SELF, bads[i]),
                        MPI_ERR_ERRHANDLER);
            MPI_Errhandler e = bads[i];
            CHECK_FAILS_INOUT(what, o, e, MPI_Errhandler_free(&e), MPI_ERR_ERRHANDLER);
        }
        CHECK_FAILS("NULL errhandler", o, MPI_Errhandler_free(NULL), MPI_ERR_ARG);
        /* handlers unchanged: still returning */
        MPI_Comm targets[3] = {c, MPI_COMM_WORLD, MPI_COMM_SELF};
        for (int i = 0; i < 3; i++) {
            MPI_Errhandler e = MPI_ERRHANDLER_NULL;
            CHECK_OK(MPI_Comm_get_errhandler(targets[i], &e));
            CHECK_EQ_HANDLE(e, MPI_ERRORS_RETURN);
            CHECK_OK(MPI_Errhandler_free(&e));
            CHECK_EQ_HANDLE(e, MPI_ERRHANDLER_NULL);
        }
        /* and an error on c still returns */
        int r;
        CHECK_RC(MPI_Comm_rank(c, NULL), MPI_ERR_ARG);
        CHECK_OK(MPI_Comm_rank(c, &r));
        CHECK_OK(MPI_Comm_free(&c));
    }

    /* ---- error classes and strings ---- */
    {
        for (int cls = 0; cls <= MPI_ERR_ABI; cls++) {
            int got = -1;
            CHECK_OK(MPI_Error_class(cls, &got));
            CHECK_MSG(got == cls, "MPI_Error_class(%d) gave %d", cls, got);
            char s[MPI_MAX_ERROR_STRING];
            int len = -1;
            CHECK_OK(MPI_Error_string(cls, s, &len));
            CHECK_MSG(len > 0 && len <= MPI_MAX_ERROR_STRING && (int)strlen(s) == len,
                      "MPI_Error_string(%d): length %d", cls, len);
        }
        /* the class names are in the strings of the classes the library returns */
        {
            char s[MPI_MAX_ERROR_STRING];
            int len;
            CHECK_OK(MPI_Error_string(MPI_ERR_KEYVAL, s, &len));
            CHECK_MSG(strstr(s, "keyval") != NULL || strstr(s, "KEYVAL") != NULL ||
                          strstr(s, "key") != NULL,
                      "MPI_Error_string(MPI_ERR_KEYVAL) = \"%s\" does not mention keyvals", s);
        }
        static const int notclasses[] = {-1, MPI_ERR_ABI + 1, 1000, MPI_ERR_LASTCODE, 123456789,
                                         -2147483647 - 1};
        struct outs o;
        for (int i = 0; i < (int)(sizeof notclasses / sizeof notclasses[0]); i++) {
            char what[64];
            snprintf(what, sizeof what, "error code %d", notclasses[i]);
            CHECK_FAILS(what, o, MPI_Error_class(notclasses[i], &o.i), MPI_ERR_ARG);
            CHECK_FAILS(what, o, MPI_Error_string(notclasses[i], o.text, &o.i), MPI_ERR_ARG);
        }
        CHECK_FAILS("NULL output", o, MPI_Error_class(MPI_ERR_KEYVAL, NULL), MPI_ERR_ARG);
        CHECK_FAILS("NULL output", o, MPI_Error_string(MPI_ERR_KEYVAL, NULL, &o.i), MPI_ERR_ARG);
        CHECK_FAILS("NULL output", o, MPI_Error_string(MPI_ERR_KEYVAL, o.text, NULL), MPI_ERR_ARG);
    }

    /* ---- environment ---- */
    {
        const char *what = "environment";
        struct outs o;
        CHECK_FAILS(what, o, MPI_Init(&argc, &argv), MPI_ERR_OTHER);
        CHECK_FAILS(what, o, MPI_Init(NULL, NULL), MPI_ERR_OTHER);
        CHECK_FAILS(what, o, MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &o.i),
                    MPI_ERR_OTHER);
        /* MPI_Init_thread's own argument errors come first */
        CHECK_FAILS(what, o, MPI_Init_thread(&argc, &argv, 77, &o.i), MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, NULL), MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Initialized(NULL), MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Finalized(NULL), MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Query_thread(NULL), MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Is_thread_main(NULL), MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Get_version(NULL, &o.i), MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Get_version(&o.i, NULL), MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Get_library_version(NULL, &o.i), MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Get_library_version(o.text, NULL), MPI_ERR_ARG);
        /* still initialised, with the thread level of MPI_Init, and working */
        int flag = 0;
        CHECK_OK(MPI_Initialized(&flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_OK(MPI_Finalized(&flag));
        CHECK_EQ_INT(flag, 0);
        int provided = -1;
        CHECK_OK(MPI_Query_thread(&provided));
        CHECK_EQ_INT(provided, MPI_THREAD_SINGLE);
        CHECK_OK(MPI_Is_thread_main(&flag));
        CHECK_EQ_INT(flag, 1);
    }

    REQUIRE_OK(MPI_Finalize());
    return test_finish("badarg_misc");
}
