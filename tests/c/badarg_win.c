/*
 * Bad window arguments, with MPI_ERRORS_RETURN on the communicators and (through
 * MPI_Win_set_errhandler) on the windows: MPI_WIN_NULL, freed windows and wrong-kind handles
 * cast to MPI_Win, and made-up values, fail with MPI_ERR_WIN in every window function (and
 * MPI_Win_c2f gives the null handle's integer); window creation rejects a negative size
 * (MPI_ERR_SIZE), a displacement unit below 1 (MPI_ERR_DISP), an info handle other than
 * MPI_INFO_NULL / MPI_INFO_ENV (MPI_ERR_INFO), more memory than can exist (MPI_ERR_NO_MEM) and
 * NULL outputs (MPI_ERR_ARG); MPI_Alloc_mem rejects the same sizes and info handles;
 * MPI_Free_mem of an address MPI_Alloc_mem did not return (or already freed) is MPI_ERR_BASE;
 * MPI_Get_address with a NULL output is MPI_ERR_ARG; an invalid error handler is
 * MPI_ERR_ERRHANDLER; MPI_Win_f2c of an integer that names no window is MPI_WIN_NULL. Outputs
 * stay untouched (CHECK_FAILS), no callback runs, attributes are unchanged, and the windows
 * still work.
 */
#include "check.h"

#include <stddef.h>

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
    struct outs o;
#define BAD(call) CHECK_FAILS(what, o, call, MPI_ERR_WIN)
    BAD(MPI_Win_set_attr(bad, kv, IPTR(1)));
    BAD(MPI_Win_get_attr(bad, kv, &o.ptr, &o.i));
    BAD(MPI_Win_get_attr(bad, MPI_WIN_BASE, &o.ptr, &o.i));
    BAD(MPI_Win_delete_attr(bad, kv));
    BAD(MPI_Win_set_errhandler(bad, MPI_ERRORS_RETURN));
    BAD(MPI_Win_get_errhandler(bad, &o.errhandler));
    {
        MPI_Win victim = bad;
        CHECK_FAILS_INOUT(what, o, victim, MPI_Win_free(&victim), MPI_ERR_WIN);
    }
#undef BAD
#if defined(MPIATTR_MPI_H)
    /* no error to report: the integer of a handle that names no window is the null handle's */
    CHECK_MSG(MPI_Win_c2f(bad) == MPI_Win_c2f(MPI_WIN_NULL), "%s: MPI_Win_c2f gave %ld", what,
              (long)MPI_Win_c2f(bad));
#endif
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

    /* Made-up handle values. */
    all_functions((MPI_Win)(intptr_t)1, "(MPI_Win)1");
    all_functions((MPI_Win)(intptr_t)0x111, "(MPI_Win)0x111");
    all_functions((MPI_Win)(intptr_t)-1, "(MPI_Win)-1");
    all_functions((MPI_Win)(intptr_t)0x7ff123456783, "(MPI_Win)0x7ff123456783");

    /* Creation errors (raised on the communicator: MPI_ERRORS_RETURN). */
    {
        const char *what = "window creation";
        struct outs o;
        int buf[4];
        MPI_Comm comms[2] = {MPI_COMM_WORLD, comm};
        for (int i = 0; i < 2; i++) {
            MPI_Comm c = comms[i];
            CHECK_FAILS(what, o, MPI_Win_create(buf, -1, 1, MPI_INFO_NULL, c, &o.win), MPI_ERR_SIZE);
            CHECK_FAILS(what, o, MPI_Win_create(buf, -4096, 4, MPI_INFO_NULL, c, &o.win),
                        MPI_ERR_SIZE);
            CHECK_FAILS(what, o, MPI_Win_create(buf, sizeof buf, 0, MPI_INFO_NULL, c, &o.win),
                        MPI_ERR_DISP);
            CHECK_FAILS(what, o, MPI_Win_create(buf, sizeof buf, -4, MPI_INFO_NULL, c, &o.win),
                        MPI_ERR_DISP);
            CHECK_FAILS(what, o,
                        MPI_Win_create(buf, sizeof buf, 1, (MPI_Info)MPI_COMM_WORLD, c, &o.win),
                        MPI_ERR_INFO);
            CHECK_FAILS(what, o, MPI_Win_allocate(-8, 1, MPI_INFO_NULL, c, &o.ptr, &o.win),
                        MPI_ERR_SIZE);
            CHECK_FAILS(what, o, MPI_Win_allocate(8, 0, MPI_INFO_NULL, c, &o.ptr, &o.win),
                        MPI_ERR_DISP);
            CHECK_FAILS(what, o, MPI_Win_allocate(8, 1, (MPI_Info)MPI_INT, c, &o.ptr, &o.win),
                        MPI_ERR_INFO);
            /* more memory than can exist */
            CHECK_FAILS(what, o, MPI_Win_allocate(PTRDIFF_MAX, 1, MPI_INFO_NULL, c, &o.ptr, &o.win),
                        MPI_ERR_NO_MEM);
            CHECK_FAILS(what, o, MPI_Win_create_dynamic((MPI_Info)MPI_INT, c, &o.win),
                        MPI_ERR_INFO);
            CHECK_FAILS(what, o, MPI_Win_create_dynamic((MPI_Info)(intptr_t)0x7777, c, &o.win),
                        MPI_ERR_INFO);
        }
        /* NULL outputs */
        CHECK_FAILS(what, o, MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, NULL),
                    MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, NULL, &o.win),
                    MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &o.ptr, NULL),
                    MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, NULL),
                    MPI_ERR_ARG);
        /* MPI_INFO_ENV is accepted */
        MPI_Win w;
        CHECK_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_ENV, MPI_COMM_WORLD, &w));
        CHECK_OK(MPI_Win_free(&w));
        state_unchanged(what);
    }

    /* NULL outputs and bad handlers on a good window. */
    {
        const char *what = "bad argument on a good window";
        struct outs o;
        CHECK_FAILS(what, o, MPI_Win_get_attr(good, kv, NULL, &o.i), MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Win_get_attr(good, kv, &o.ptr, NULL), MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Win_get_attr(good, MPI_WIN_SIZE, NULL, &o.i), MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Win_get_errhandler(good, NULL), MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Win_free(NULL), MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Win_create_keyval(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, NULL, NULL),
                    MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, cnt_del, NULL, NULL),
                    MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Win_free_keyval(NULL), MPI_ERR_ARG);
        MPI_Errhandler bads[] = {MPI_ERRHANDLER_NULL, (MPI_Errhandler)MPI_COMM_WORLD,
                                 (MPI_Errhandler)(intptr_t)0x7777};
        for (int i = 0; i < (int)(sizeof bads / sizeof bads[0]); i++)
            CHECK_FAILS(what, o, MPI_Win_set_errhandler(good, bads[i]), MPI_ERR_ERRHANDLER);
        state_unchanged(what);
    }

    /* Memory. */
    {
        const char *what = "memory";
        struct outs o;
        CHECK_FAILS(what, o, MPI_Alloc_mem(16, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Alloc_mem(-1, MPI_INFO_NULL, &o.ptr), MPI_ERR_SIZE);
        CHECK_FAILS(what, o, MPI_Alloc_mem(-4096, MPI_INFO_ENV, &o.ptr), MPI_ERR_SIZE);
        CHECK_FAILS(what, o, MPI_Alloc_mem(PTRDIFF_MAX, MPI_INFO_NULL, &o.ptr), MPI_ERR_NO_MEM);
        CHECK_FAILS(what, o, MPI_Alloc_mem(16, (MPI_Info)MPI_COMM_WORLD, &o.ptr), MPI_ERR_INFO);
        CHECK_FAILS(what, o, MPI_Get_address(gbuf, NULL), MPI_ERR_ARG);
        int local;
        CHECK_FAILS(what, o, MPI_Free_mem(&local), MPI_ERR_BASE);
        CHECK_FAILS(what, o, MPI_Free_mem(gbuf), MPI_ERR_BASE);
        void *mem = NULL;
        CHECK_OK(MPI_Alloc_mem(16, MPI_INFO_NULL, &mem));
        REQUIRE(mem != NULL);
        CHECK_FAILS(what, o, MPI_Free_mem((char *)mem + 1), MPI_ERR_BASE);
        memset(mem, 0x11, 16); /* still ours */
        CHECK_OK(MPI_Free_mem(mem));
        CHECK_FAILS(what, o, MPI_Free_mem(mem), MPI_ERR_BASE); /* freed twice */
        CHECK_OK(MPI_Free_mem(NULL));
        state_unchanged(what);
    }

#if defined(MPIATTR_MPI_H)
    /* Fortran integers that name no window give MPI_WIN_NULL. */
    {
        MPI_Fint bads[] = {0, -1, 1, 4095, 123456789, MPI_Comm_c2f(MPI_COMM_WORLD),
                           MPI_Comm_c2f(comm), MPI_Type_c2f(type), MPI_Win_c2f(MPI_WIN_NULL)};
        for (int i = 0; i < (int)(sizeof bads / sizeof bads[0]); i++)
            CHECK_MSG(MPI_Win_f2c(bads[i]) == MPI_WIN_NULL, "MPI_Win_f2c(%ld) names a window",
                      (long)bads[i]);
    }
#endif

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
