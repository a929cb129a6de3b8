/*
 * Bad window arguments, with MPI_ERRORS_RETURN on the communicators and (through
 * MPI_Win_set_errhandler) on the windows: MPI_WIN_NULL, freed windows and wrong-kind handles
 * cast to MPI_Win fail with MPI_ERR_WIN in every window function; window creation rejects a
 * negative size (MPI_ERR_SIZE), a displacement unit below 1 (MPI_ERR_DISP), an info handle
 * other than MPI_INFO_NULL / MPI_INFO_ENV (MPI_ERR_INFO) and NULL outputs (MPI_ERR_ARG);
 * MPI_Free_mem of an address MPI_Alloc_mem did not return is MPI_ERR_BASE; a NULL error
 * handler is MPI_ERR_ERRHANDLER. Outputs stay untouched, no callback runs, attributes are
 * unchanged, and the windows still work.
 */
#include "check.h"

static int ndel;
static int cnt_del(MPI_Win w, int kv, void *v, void *e)
{
    (void)w, (void)kv, (void)v, (void)e;
    ndel++;
    return MPI_SUCCESS;
}

static int kv;
static MPI_Win good;
static double gbuf[8];

static void state_unchanged(const char *what)
{
    void *v = NULL;
    int flag = -1;
    CHECK_OK(MPI_Win_get_attr(good, kv, &v, &flag));
    CHECK_MSG(flag == 1 && PTRI(v) == 9, "%s: window attribute changed", what);
    flag = -1;
    CHECK_OK(MPI_Win_get_attr(good, MPI_WIN_BASE, &v, &flag));
    CHECK_MSG(flag == 1 && v == (void *)gbuf, "%s: MPI_WIN_BASE changed", what);
    MPI_Aint *sz = NULL;
    CHECK_OK(MPI_Win_get_attr(good, MPI_WIN_SIZE, &sz, &flag));
    CHECK_MSG(flag == 1 && sz != NULL && *sz == (MPI_Aint)sizeof gbuf, "%s: MPI_WIN_SIZE changed",
              what);
    CHECK_MSG(ndel == 0, "%s: %d delete callbacks ran", what, ndel);
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    CHECK_OK(MPI_Win_get_errhandler(good, &eh));
    CHECK_MSG(eh == MPI_ERRORS_RETURN, "%s: the window's error handler changed", what);
    CHECK_OK(MPI_Errhandler_free(&eh));
}

static void all_functions(MPI_Win bad, const char *what)
{
    void *v = SENTINEL_HANDLE(void *);
    int flag = SENTINEL_INT;
    MPI_Errhandler eh = SENTINEL_HANDLE(MPI_Errhandler);

#define BAD(call)                                                                              \
    do {                                                                                       \
        CHECK_RC(call, MPI_ERR_WIN);                                                           \
        CHECK_MSG(v == SENTINEL_HANDLE(void *) && flag == SENTINEL_INT &&                      \
                      eh == SENTINEL_HANDLE(MPI_Errhandler),                                   \
                  "%s: %s wrote to an output argument", what, #call);                          \
        v = SENTINEL_HANDLE(void *);                                                           \
        flag = SENTINEL_INT;                                                                   \
        eh = SENTINEL_HANDLE(MPI_Errhandler);                                                  \
    } while (0)

    BAD(MPI_Win_set_attr(bad, kv, IPTR(1)));
    BAD(MPI_Win_get_attr(bad, kv, &v, &flag));
    BAD(MPI_Win_get_attr(bad, MPI_WIN_BASE, &v, &flag));
    BAD(MPI_Win_delete_attr(bad, kv));
    BAD(MPI_Win_set_errhandler(bad, MPI_ERRORS_RETURN));
    BAD(MPI_Win_get_errhandler(bad, &eh));
    {
        MPI_Win victim = bad;
        CHECK_RC(MPI_Win_free(&victim), MPI_ERR_WIN);
        CHECK_MSG(victim == bad, "%s: MPI_Win_free changed the variable", what);
    }
#undef BAD
    state_unchanged(what);
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    REQUIRE_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, cnt_del, &kv, NULL));
    REQUIRE_OK(MPI_Win_create(gbuf, sizeof gbuf, (int)sizeof(double), MPI_INFO_NULL,
                              MPI_COMM_WORLD, &good));
    REQUIRE_OK(MPI_Win_set_errhandler(good, MPI_ERRORS_RETURN));
    REQUIRE_OK(MPI_Win_set_attr(good, kv, IPTR(9)));

    MPI_Win freed, freed2;
    REQUIRE_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_SELF, &freed));
    MPI_Win freed_saved = freed;
    REQUIRE_OK(MPI_Win_free(&freed));
    CHECK_EQ_HANDLE(freed, MPI_WIN_NULL);
    void *b2;
    REQUIRE_OK(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &b2, &freed2));
    REQUIRE_OK(MPI_Win_set_attr(freed2, kv, IPTR(3)));
    MPI_Win freed2_saved = freed2;
    REQUIRE_OK(MPI_Win_free(&freed2));
    CHECK_EQ_INT(ndel, 1);
    ndel = 0;

    MPI_Comm comm;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MPI_Datatype type;
    REQUIRE_OK(MPI_Type_dup(MPI_INT, &type));

    all_functions(MPI_WIN_NULL, "MPI_WIN_NULL");
    all_functions(freed_saved, "freed window");
    all_functions(freed2_saved, "freed window that had attributes");
    all_functions((MPI_Win)MPI_COMM_WORLD, "(MPI_Win)MPI_COMM_WORLD");
    all_functions((MPI_Win)comm, "(MPI_Win)communicator");
    all_functions((MPI_Win)MPI_INT, "(MPI_Win)MPI_INT");
    all_functions((MPI_Win)type, "(MPI_Win)datatype");
    all_functions((MPI_Win)MPI_COMM_NULL, "(MPI_Win)MPI_COMM_NULL");
    {
        enum { NNEW = 50 };
        MPI_Win fresh[NNEW];
        for (int i = 0; i < NNEW; i++)
            REQUIRE_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_SELF, &fresh[i]));
        all_functions(freed_saved, "freed window (after 50 new ones)");
        for (int i = 0; i < NNEW; i++)
            CHECK_OK(MPI_Win_free(&fresh[i]));
    }

    /* Creation errors (raised on the communicator: MPI_ERRORS_RETURN). */
    {
        int buf[4];
        MPI_Win w = SENTINEL_HANDLE(MPI_Win);
        void *base = SENTINEL_HANDLE(void *);
        CHECK_RC(MPI_Win_create(buf, -1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w), MPI_ERR_SIZE);
        CHECK_RC(MPI_Win_create(buf, -4096, 4, MPI_INFO_NULL, comm, &w), MPI_ERR_SIZE);
        CHECK_RC(MPI_Win_create(buf, sizeof buf, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &w), MPI_ERR_DISP);
        CHECK_RC(MPI_Win_create(buf, sizeof buf, -4, MPI_INFO_NULL, MPI_COMM_WORLD, &w), MPI_ERR_DISP);
        CHECK_RC(MPI_Win_allocate(-8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w), MPI_ERR_SIZE);
        CHECK_RC(MPI_Win_allocate(8, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w), MPI_ERR_DISP);
        CHECK_RC(MPI_Win_create(buf, sizeof buf, 1, (MPI_Info)MPI_COMM_WORLD, MPI_COMM_WORLD, &w),
                 MPI_ERR_INFO);
        CHECK_RC(MPI_Win_create_dynamic((MPI_Info)MPI_INT, MPI_COMM_WORLD, &w), MPI_ERR_INFO);
        CHECK_EQ_HANDLE(w, SENTINEL_HANDLE(MPI_Win));
        CHECK_EQ_PTR(base, SENTINEL_HANDLE(void *));
        CHECK_RC(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, NULL, &w), MPI_ERR_ARG);
        CHECK_EQ_HANDLE(w, SENTINEL_HANDLE(MPI_Win));
        CHECK_RC(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
        /* MPI_INFO_ENV is accepted */
        CHECK_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_ENV, MPI_COMM_WORLD, &w));
        CHECK_OK(MPI_Win_free(&w));
        state_unchanged("window creation errors");
    }

    /* NULL outputs and handlers on a good window. */
    {
        int flag = SENTINEL_INT;
        void *v = SENTINEL_HANDLE(void *);
        CHECK_RC(MPI_Win_get_attr(good, kv, NULL, &flag), MPI_ERR_ARG);
        CHECK_EQ_INT(flag, SENTINEL_INT);
        CHECK_RC(MPI_Win_get_attr(good, kv, &v, NULL), MPI_ERR_ARG);
        CHECK_EQ_PTR(v, SENTINEL_HANDLE(void *));
        CHECK_RC(MPI_Win_get_errhandler(good, NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Win_free(NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Win_create_keyval(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, NULL, NULL),
                 MPI_ERR_ARG);
        CHECK_RC(MPI_Win_free_keyval(NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Win_set_errhandler(good, MPI_ERRHANDLER_NULL), MPI_ERR_ERRHANDLER);
        CHECK_RC(MPI_Win_set_errhandler(good, (MPI_Errhandler)MPI_COMM_WORLD), MPI_ERR_ERRHANDLER);
        state_unchanged("bad arguments on a good window");
    }

    /* Memory. */
    {
        void *mem = SENTINEL_HANDLE(void *);
        CHECK_RC(MPI_Alloc_mem(16, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
        int local;
        CHECK_RC(MPI_Free_mem(&local), MPI_ERR_BASE);
        CHECK_OK(MPI_Alloc_mem(16, MPI_INFO_NULL, &mem));
        REQUIRE(mem != NULL && mem != SENTINEL_HANDLE(void *));
        CHECK_RC(MPI_Free_mem((char *)mem + 1), MPI_ERR_BASE);
        CHECK_OK(MPI_Free_mem(mem));
        CHECK_RC(MPI_Free_mem(mem), MPI_ERR_BASE); /* freed twice */
        CHECK_OK(MPI_Free_mem(NULL));
    }

    /* Everything still works. */
    CHECK_OK(MPI_Win_free(&good));
    CHECK_EQ_HANDLE(good, MPI_WIN_NULL);
    CHECK_EQ_INT(ndel, 1);
    CHECK_OK(MPI_Win_free_keyval(&kv));
    CHECK_OK(MPI_Comm_free(&comm));
    CHECK_OK(MPI_Type_free(&type));
    REQUIRE_OK(MPI_Finalize());
    return test_finish("badarg_win");
}
