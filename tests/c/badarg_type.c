/*
 * Bad datatype arguments under MPI_ERRORS_RETURN (datatype errors go to MPI_COMM_SELF's
 * handler): MPI_DATATYPE_NULL, freed datatypes and wrong-kind handles cast to MPI_Datatype fail
 * with MPI_ERR_TYPE in every datatype function (and MPI_Type_c2f gives the null handle's
 * integer), as do made-up values; freeing a predefined datatype is MPI_ERR_TYPE; a negative
 * count in MPI_Type_contiguous, or one that makes the size overflow 64 bits, is MPI_ERR_COUNT;
 * NULL output pointers are MPI_ERR_ARG; MPI_Type_f2c of an integer that names no datatype is
 * MPI_DATATYPE_NULL. Outputs stay untouched (CHECK_FAILS), no callback runs, attributes are
 * unchanged and the datatypes still work.
 */
#include "check.h"

#include <limits.h>

static int ncopy, ndel;
static int cnt_copy(MPI_Datatype t, int kv, void *e, void *in, void *out, int *flag)
{
    (void)t, (void)kv, (void)e;
    ncopy++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}
static int cnt_del(MPI_Datatype t, int kv, void *v, void *e)
{
    (void)t, (void)kv, (void)v, (void)e;
    ndel++;
    return MPI_SUCCESS;
}

static int kv;
static MPI_Datatype good;

static void state_unchanged(const char *what)
{
    void *v = NULL;
    int flag = -1;
    CHECK_OK(MPI_Type_get_attr(good, kv, &v, &flag));
    CHECK_MSG(flag == 1 && PTRI(v) == 5, "%s: attribute on the user type changed", what);
    flag = -1;
    CHECK_OK(MPI_Type_get_attr(MPI_INT, kv, &v, &flag));
    CHECK_MSG(flag == 1 && PTRI(v) == 6, "%s: attribute on MPI_INT changed", what);
    CHECK_MSG(ncopy == 0 && ndel == 0, "%s: callbacks ran (%d copies, %d deletes)", what, ncopy,
              ndel);
    int size = -1;
    CHECK_OK(MPI_Type_size(good, &size));
    CHECK_EQ_INT(size, 3 * (int)sizeof(double));
}

static void all_functions(MPI_Datatype bad, const char *what)
{
    struct outs o;
#define BAD(call) CHECK_FAILS(what, o, call, MPI_ERR_TYPE)
    CHECK_FAILS_NEW(what, o, MPI_Type_dup(bad, &o.type), MPI_ERR_TYPE);
    BAD(MPI_Type_contiguous(2, bad, &o.type));
    BAD(MPI_Type_contiguous(0, bad, &o.type));
    BAD(MPI_Type_size(bad, &o.i));
    BAD(MPI_Type_set_attr(bad, kv, IPTR(1)));
    BAD(MPI_Type_get_attr(bad, kv, &o.ptr, &o.i));
    BAD(MPI_Type_delete_attr(bad, kv));
    {
        MPI_Datatype victim = bad;
        CHECK_FAILS_INOUT(what, o, victim, MPI_Type_commit(&victim), MPI_ERR_TYPE);
        CHECK_FAILS_INOUT(what, o, victim, MPI_Type_free(&victim), MPI_ERR_TYPE);
    }
#undef BAD
#if defined(MPIATTR_MPI_H)
    /* no error to report: the integer of a handle that names no datatype is the null
       handle's */
    CHECK_MSG(MPI_Type_c2f(bad) == MPI_Type_c2f(MPI_DATATYPE_NULL), "%s: MPI_Type_c2f gave %ld",
              what, (long)MPI_Type_c2f(bad));
#endif
    state_unchanged(what);
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    REQUIRE_OK(MPI_Type_create_keyval(cnt_copy, cnt_del, &kv, NULL));
    REQUIRE_OK(MPI_Type_contiguous(3, MPI_DOUBLE, &good));
    REQUIRE_OK(MPI_Type_commit(&good));
    REQUIRE_OK(MPI_Type_set_attr(good, kv, IPTR(5)));
    REQUIRE_OK(MPI_Type_set_attr(MPI_INT, kv, IPTR(6)));

    MPI_Datatype freed, freed2;
    REQUIRE_OK(MPI_Type_contiguous(4, MPI_CHAR, &freed));
    MPI_Datatype freed_saved = freed;
    REQUIRE_OK(MPI_Type_free(&freed));
    CHECK_EQ_HANDLE(freed, MPI_DATATYPE_NULL);
    REQUIRE_OK(MPI_Type_dup(good, &freed2));
    MPI_Datatype freed2_saved = freed2;
    REQUIRE_OK(MPI_Type_free(&freed2));
    CHECK_EQ_INT(ncopy, 1);
    CHECK_EQ_INT(ndel, 1);
    ncopy = ndel = 0;

    MPI_Comm comm;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MPI_Win win;
    REQUIRE_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));

    all_functions(MPI_DATATYPE_NULL, "MPI_DATATYPE_NULL");
    all_functions(freed_saved, "freed datatype");
    all_functions(freed2_saved, "freed datatype that had attributes");
    all_functions((MPI_Datatype)MPI_COMM_WORLD, "(MPI_Datatype)MPI_COMM_WORLD");
    all_functions((MPI_Datatype)comm, "(MPI_Datatype)communicator");
    all_functions((MPI_Datatype)win, "(MPI_Datatype)window");
    all_functions((MPI_Datatype)MPI_WIN_NULL, "(MPI_Datatype)MPI_WIN_NULL");
    all_functions((MPI_Datatype)MPI_OP_NULL, "(MPI_Datatype)MPI_OP_NULL");
    {
        enum { NNEW = 100 };
        MPI_Datatype fresh[NNEW];
        for (int i = 0; i < NNEW; i++)
            REQUIRE_OK(MPI_Type_contiguous(i + 1, MPI_BYTE, &fresh[i]));
        all_functions(freed_saved, "freed datatype (after 100 new ones)");
        for (int i = 0; i < NNEW; i++)
            CHECK_OK(MPI_Type_free(&fresh[i]));
    }

    /* Freeing predefined datatypes. */
    {
        MPI_Datatype pre[] = {MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_BYTE, MPI_2INT, MPI_AINT};
        for (int i = 0; i < (int)(sizeof pre / sizeof pre[0]); i++) {
            MPI_Datatype t = pre[i];
            CHECK_RC(MPI_Type_free(&t), MPI_ERR_TYPE);
            CHECK_EQ_HANDLE(t, pre[i]);
        }
        state_unchanged("free of predefined datatypes");
    }

    /* Made-up handle values. */
    all_functions((MPI_Datatype)(intptr_t)1, "(MPI_Datatype)1");
    all_functions((MPI_Datatype)(intptr_t)0x2ff, "(MPI_Datatype)0x2ff");
    all_functions((MPI_Datatype)(intptr_t)-1, "(MPI_Datatype)-1");
    all_functions((MPI_Datatype)(intptr_t)0x7ff123456782, "(MPI_Datatype)0x7ff123456782");

    /* Negative and too large counts. */
    {
        const char *what = "bad count";
        struct outs o;
        CHECK_FAILS(what, o, MPI_Type_contiguous(-1, MPI_INT, &o.type), MPI_ERR_COUNT);
        CHECK_FAILS(what, o, MPI_Type_contiguous(-1000000, good, &o.type), MPI_ERR_COUNT);
        /* a size beyond 2^64 bytes */
        MPI_Datatype big, bigger;
        REQUIRE_OK(MPI_Type_contiguous(INT_MAX, MPI_CHAR, &big)); /* 2^31 - 1 bytes */
        REQUIRE_OK(MPI_Type_contiguous(INT_MAX, big, &bigger)); /* about 2^62 */
        CHECK_FAILS(what, o, MPI_Type_contiguous(INT_MAX, bigger, &o.type), MPI_ERR_COUNT);
        int size = SENTINEL_INT;
        CHECK_OK(MPI_Type_size(bigger, &size));
        CHECK_EQ_INT(size, MPI_UNDEFINED);
        CHECK_OK(MPI_Type_free(&bigger));
        CHECK_OK(MPI_Type_free(&big));
        /* zero is fine */
        MPI_Datatype zero;
        CHECK_OK(MPI_Type_contiguous(0, MPI_INT, &zero));
        size = -1;
        CHECK_OK(MPI_Type_size(zero, &size));
        CHECK_EQ_INT(size, 0);
        CHECK_OK(MPI_Type_free(&zero));
        state_unchanged(what);
    }

    /* NULL output pointers. */
    {
        const char *what = "NULL output pointer";
        struct outs o;
#define BAD(call) CHECK_FAILS(what, o, call, MPI_ERR_ARG)
        BAD(MPI_Type_dup(good, NULL));
        BAD(MPI_Type_contiguous(2, good, NULL));
        BAD(MPI_Type_size(good, NULL));
        BAD(MPI_Type_commit(NULL));
        BAD(MPI_Type_free(NULL));
        BAD(MPI_Type_get_attr(good, kv, NULL, &o.i));
        BAD(MPI_Type_get_attr(good, kv, &o.ptr, NULL));
        BAD(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, NULL, NULL));
        BAD(MPI_Type_create_keyval(cnt_copy, cnt_del, NULL, NULL));
        BAD(MPI_Type_free_keyval(NULL));
#undef BAD
        state_unchanged(what);
    }

#if defined(MPIATTR_MPI_H)
    /* Fortran integers that name no datatype give MPI_DATATYPE_NULL. */
    {
        MPI_Fint bads[] = {0, -1, 1, 4095, 123456789, MPI_Comm_c2f(MPI_COMM_WORLD),
                           MPI_Comm_c2f(comm), MPI_Win_c2f(win), MPI_Type_c2f(MPI_DATATYPE_NULL)};
        for (int i = 0; i < (int)(sizeof bads / sizeof bads[0]); i++)
            CHECK_MSG(MPI_Type_f2c(bads[i]) == MPI_DATATYPE_NULL, "MPI_Type_f2c(%ld) names a "
                      "datatype", (long)bads[i]);
    }
#endif

    /* Everything still works. */
    MPI_Datatype d;
    CHECK_OK(MPI_Type_dup(good, &d));
    CHECK_EQ_INT(ncopy, 1);
    CHECK_OK(MPI_Type_free(&d));
    CHECK_OK(MPI_Type_free(&good));
    CHECK_OK(MPI_Type_delete_attr(MPI_INT, kv));
    CHECK_EQ_INT(ndel, 3);
    CHECK_OK(MPI_Type_free_keyval(&kv));
    CHECK_OK(MPI_Comm_free(&comm));
    CHECK_OK(MPI_Win_free(&win));
    REQUIRE_OK(MPI_Finalize());
    return test_finish("badarg_type");
}
