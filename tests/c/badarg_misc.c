/*
 * Other bad inputs under MPI_ERRORS_RETURN: invalid requests in MPI_Wait / MPI_Test /
 * MPI_Request_free (MPI_ERR_REQUEST; wrong-kind handles, stale copies of completed requests,
 * MPI_Request_free of MPI_REQUEST_NULL), NULL flag / request pointers (MPI_ERR_ARG);
 * MPI_ERRHANDLER_NULL and non-handler values in MPI_Comm_set_errhandler and
 * MPI_Errhandler_free (MPI_ERR_ERRHANDLER) with the current handler unchanged;
 * MPI_Error_class of a value that is not an error class (MPI_ERR_ARG); a second MPI_Init or
 * MPI_Init_thread (MPI_ERR_OTHER); NULL outputs of the environment queries (MPI_ERR_ARG).
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

        MPI_Request bads[] = {stale, (MPI_Request)MPI_COMM_WORLD, (MPI_Request)c,
                              (MPI_Request)MPI_INT, (MPI_Request)MPI_ERRORS_RETURN};
        for (int i = 0; i < (int)(sizeof bads / sizeof bads[0]); i++) {
            MPI_Request r = bads[i];
            int flag = SENTINEL_INT;
            CHECK_RC(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
            CHECK_MSG(r == bads[i], "bad request #%d: MPI_Wait changed the handle", i);
            CHECK_RC(MPI_Test(&r, &flag, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
            CHECK_MSG(r == bads[i], "bad request #%d: MPI_Test changed the handle", i);
            CHECK_MSG(flag == SENTINEL_INT, "bad request #%d: MPI_Test wrote flag %d", i, flag);
            CHECK_RC(MPI_Request_free(&r), MPI_ERR_REQUEST);
            CHECK_MSG(r == bads[i], "bad request #%d: MPI_Request_free changed the handle", i);
        }
        MPI_Request rn = MPI_REQUEST_NULL;
        CHECK_RC(MPI_Request_free(&rn), MPI_ERR_REQUEST);
        CHECK_RC(MPI_Wait(NULL, MPI_STATUS_IGNORE), MPI_ERR_ARG);
        CHECK_RC(MPI_Test(NULL, &(int){0}, MPI_STATUS_IGNORE), MPI_ERR_ARG);
        CHECK_RC(MPI_Request_free(NULL), MPI_ERR_ARG);
        /* MPI_Test with a NULL flag on a live request: error, the request survives. */
        MPI_Comm c2 = MPI_COMM_NULL;
        MPI_Request r2 = MPI_REQUEST_NULL;
        REQUIRE_OK(MPI_Comm_idup(MPI_COMM_WORLD, &c2, &r2));
        CHECK_RC(MPI_Test(&r2, NULL, MPI_STATUS_IGNORE), MPI_ERR_ARG);
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
        for (int i = 0; i < (int)(sizeof bads / sizeof bads[0]); i++) {
            CHECK_RC(MPI_Comm_set_errhandler(c, bads[i]), MPI_ERR_ERRHANDLER);
            CHECK_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, bads[i]), MPI_ERR_ERRHANDLER);
            CHECK_RC(MPI_Comm_set_errhandler(MPI_COMM_SELF, bads[i]), MPI_ERR_ERRHANDLER);
            MPI_Errhandler e = bads[i];
            CHECK_RC(MPI_Errhandler_free(&e), MPI_ERR_ERRHANDLER);
            CHECK_MSG(e == bads[i], "bad errhandler #%d: MPI_Errhandler_free changed it", i);
        }
        CHECK_RC(MPI_Errhandler_free(NULL), MPI_ERR_ARG);
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
        static const int notclasses[] = {-1, MPI_ERR_ABI + 1, 1000, MPI_ERR_LASTCODE, 123456789};
        for (int i = 0; i < (int)(sizeof notclasses / sizeof notclasses[0]); i++) {
            int got = SENTINEL_INT;
            CHECK_RC(MPI_Error_class(notclasses[i], &got), MPI_ERR_ARG);
            CHECK_MSG(got == SENTINEL_INT, "MPI_Error_class(%d) failed but wrote %d",
                      notclasses[i], got);
        }
        CHECK_RC(MPI_Error_class(MPI_ERR_KEYVAL, NULL), MPI_ERR_ARG);
        int len;
        CHECK_RC(MPI_Error_string(MPI_ERR_KEYVAL, NULL, &len), MPI_ERR_ARG);
        char s[MPI_MAX_ERROR_STRING];
        CHECK_RC(MPI_Error_string(MPI_ERR_KEYVAL, s, NULL), MPI_ERR_ARG);
    }

    /* ---- environment ---- */
    {
        CHECK_RC(MPI_Init(&argc, &argv), MPI_ERR_OTHER);
        int provided = SENTINEL_INT;
        CHECK_RC(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided), MPI_ERR_OTHER);
        CHECK_RC(MPI_Init(NULL, NULL), MPI_ERR_OTHER);
        CHECK_RC(MPI_Initialized(NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Finalized(NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Query_thread(NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Is_thread_main(NULL), MPI_ERR_ARG);
        int v, sv;
        CHECK_RC(MPI_Get_version(NULL, &sv), MPI_ERR_ARG);
        CHECK_RC(MPI_Get_version(&v, NULL), MPI_ERR_ARG);
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        CHECK_RC(MPI_Get_library_version(NULL, &len), MPI_ERR_ARG);
        CHECK_RC(MPI_Get_library_version(lib, NULL), MPI_ERR_ARG);
        {
            /* the class is not fixed by SPEC/semantics.md: only that it fails */
            void *p = SENTINEL_HANDLE(void *);
            int rc = MPI_Alloc_mem(-1, MPI_INFO_NULL, &p);
            CHECK_MSG(rc != MPI_SUCCESS, "MPI_Alloc_mem(-1) succeeded");
            (void)rc_class(rc);
            CHECK_EQ_PTR(p, SENTINEL_HANDLE(void *));
        }
        /* still initialised and working */
        int flag = 0;
        CHECK_OK(MPI_Initialized(&flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_OK(MPI_Finalized(&flag));
        CHECK_EQ_INT(flag, 0);
        CHECK_OK(MPI_Query_thread(&provided));
        CHECK_EQ_INT(provided, MPI_THREAD_SINGLE);
    }

    REQUIRE_OK(MPI_Finalize());
    return test_finish("badarg_misc");
}
