/*
 * Bad communicator arguments under MPI_ERRORS_RETURN (attributes.md §5 "Bad input"): for every
 * function of attributes.md §1 that takes a communicator, MPI_COMM_NULL, freed handles (also after many
 * new communicators were made) and wrong-kind handles (MPI_WIN_NULL, a real window, a datatype,
 * other predefined handles, cast to MPI_Comm) and made-up values fail with MPI_ERR_COMM (and
 * MPI_Comm_c2f gives the null handle's integer); NULL output pointers fail with MPI_ERR_ARG;
 * an invalid info handle in MPI_Comm_dup_with_info is MPI_ERR_INFO, a negative colour other
 * than MPI_UNDEFINED in MPI_Comm_split MPI_ERR_ARG, freeing MPI_COMM_WORLD or MPI_COMM_SELF
 * MPI_ERR_COMM; MPI_Comm_f2c of an integer that names no communicator is MPI_COMM_NULL.
 * After each failing call the outputs are untouched (CHECK_FAILS), no callback ran,
 * attributes and their values are unchanged and the communicators are still usable.
 */
#include "check.h"

static int ncopy, ndel;
static int cnt_copy(MPI_Comm c, int kv, void *e, void *in, void *out, int *flag)
{
    (void)c, (void)kv, (void)e;
    ncopy++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}
static int cnt_del(MPI_Comm c, int kv, void *v, void *e)
{
    (void)c, (void)kv, (void)v, (void)e;
    ndel++;
    return MPI_SUCCESS;
}

static int kv;
static MPI_Comm good;

static void state_unchanged(const char *what)
{
    void *v = NULL;
    int flag = -1;
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, kv, &v, &flag));
    CHECK_MSG(flag == 1 && PTRI(v) == 11, "%s: WORLD's attribute changed (flag %d, value %ld)",
              what, flag, (long)PTRI(v));
    flag = -1;
    CHECK_OK(MPI_Comm_get_attr(good, kv, &v, &flag));
    CHECK_MSG(flag == 1 && PTRI(v) == 22, "%s: the dup's attribute changed (flag %d, value %ld)",
              what, flag, (long)PTRI(v));
    CHECK_MSG(ncopy == 0 && ndel == 0, "%s: callbacks ran (%d copies, %d deletes)", what, ncopy,
              ndel);
    int r = -1;
    CHECK_OK(MPI_Comm_rank(good, &r));
    CHECK_EQ_INT(r, 0);
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_OK(MPI_Comm_get_name(good, name, &len));
    CHECK_MSG(len == 4 && strcmp(name, "good") == 0, "%s: the dup's name changed to \"%s\"", what,
              name);
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    CHECK_OK(MPI_Comm_get_errhandler(good, &eh));
    CHECK_MSG(eh == MPI_ERRORS_RETURN, "%s: the dup's error handler changed", what);
    CHECK_OK(MPI_Errhandler_free(&eh));
}

/* Every comm-taking function with one bad communicator. */
static void all_functions(MPI_Comm bad, const char *what)
{
    struct outs o;
    int buf[4];
#define BAD(call) CHECK_FAILS(what, o, call, MPI_ERR_COMM)
#define BAD_NEW(call) CHECK_FAILS_NEW(what, o, call, MPI_ERR_COMM)
    BAD_NEW(MPI_Comm_dup(bad, &o.comm));
    BAD_NEW(MPI_Comm_dup_with_info(bad, MPI_INFO_NULL, &o.comm));
    BAD_NEW(MPI_Comm_idup(bad, &o.comm, &o.request));
    BAD(MPI_Comm_split(bad, 0, 0, &o.comm));
    BAD(MPI_Comm_split(bad, MPI_UNDEFINED, 0, &o.comm));
    BAD(MPI_Comm_rank(bad, &o.i));
    BAD(MPI_Comm_size(bad, &o.i));
    BAD(MPI_Comm_compare(bad, MPI_COMM_WORLD, &o.i));
    BAD(MPI_Comm_compare(MPI_COMM_WORLD, bad, &o.i));
    BAD(MPI_Comm_compare(bad, bad, &o.i));
    BAD(MPI_Comm_set_name(bad, "x"));
    BAD(MPI_Comm_get_name(bad, o.text, &o.i));
    BAD(MPI_Comm_set_attr(bad, kv, IPTR(5)));
    BAD(MPI_Comm_get_attr(bad, kv, &o.ptr, &o.i));
    BAD(MPI_Comm_get_attr(bad, MPI_TAG_UB, &o.ptr, &o.i));
    BAD(MPI_Comm_delete_attr(bad, kv));
    BAD(MPI_Attr_put(bad, kv, IPTR(5)));
    BAD(MPI_Attr_get(bad, kv, &o.ptr, &o.i));
    BAD(MPI_Attr_delete(bad, kv));
    BAD(MPI_Comm_set_errhandler(bad, MPI_ERRORS_RETURN));
    BAD(MPI_Comm_get_errhandler(bad, &o.errhandler));
    BAD(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, bad, &o.win));
    BAD(MPI_Win_allocate(16, 1, MPI_INFO_NULL, bad, &o.ptr, &o.win));
    BAD(MPI_Win_create_dynamic(MPI_INFO_NULL, bad, &o.win));
    {
        MPI_Comm victim = bad;
        CHECK_FAILS_INOUT(what, o, victim, MPI_Comm_free(&victim), MPI_ERR_COMM);
    }
#undef BAD
#undef BAD_NEW
#if defined(MPIATTR_MPI_H)
    /* no error to report: the integer of a handle that names no communicator is the null
       handle's */
    CHECK_MSG(MPI_Comm_c2f(bad) == MPI_Comm_c2f(MPI_COMM_NULL), "%s: MPI_Comm_c2f gave %ld",
              what, (long)MPI_Comm_c2f(bad));
#endif
    state_unchanged(what);
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    REQUIRE_OK(MPI_Comm_create_keyval(cnt_copy, cnt_del, &kv, NULL));
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &good));
    REQUIRE_OK(MPI_Comm_set_name(good, "good"));
    REQUIRE_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kv, IPTR(11)));
    REQUIRE_OK(MPI_Comm_set_attr(good, kv, IPTR(22)));

    /* objects of other kinds, to cast */
    MPI_Win win;
    void *wbase;
    REQUIRE_OK(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_SELF, &wbase, &win));
    MPI_Datatype type;
    REQUIRE_OK(MPI_Type_contiguous(2, MPI_INT, &type));

    /* freed handles */
    MPI_Comm freed, freed_with_attr;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &freed));
    MPI_Comm freed_saved = freed;
    REQUIRE_OK(MPI_Comm_free(&freed));
    CHECK_EQ_HANDLE(freed, MPI_COMM_NULL);
    REQUIRE_OK(MPI_Comm_dup(good, &freed_with_attr)); /* copies kv: one copy, one delete */
    MPI_Comm freed_with_attr_saved = freed_with_attr;
    REQUIRE_OK(MPI_Comm_free(&freed_with_attr));
    CHECK_EQ_INT(ncopy, 2); /* both dups copied kv (WORLD has it too) */
    CHECK_EQ_INT(ndel, 2);
    ncopy = ndel = 0;

    all_functions(MPI_COMM_NULL, "MPI_COMM_NULL");
    all_functions(freed_saved, "freed communicator");
    all_functions(freed_with_attr_saved, "freed communicator that had attributes");
    all_functions((MPI_Comm)MPI_WIN_NULL, "(MPI_Comm)MPI_WIN_NULL");
    all_functions((MPI_Comm)win, "(MPI_Comm)window");
    all_functions((MPI_Comm)MPI_INT, "(MPI_Comm)MPI_INT");
    all_functions((MPI_Comm)type, "(MPI_Comm)datatype");
    all_functions((MPI_Comm)MPI_ERRORS_RETURN, "(MPI_Comm)MPI_ERRORS_RETURN");
    all_functions((MPI_Comm)MPI_INFO_NULL, "(MPI_Comm)MPI_INFO_NULL");
    all_functions((MPI_Comm)MPI_REQUEST_NULL, "(MPI_Comm)MPI_REQUEST_NULL");
    all_functions((MPI_Comm)MPI_GROUP_EMPTY, "(MPI_Comm)MPI_GROUP_EMPTY");

    /* A stale handle stays invalid after many new communicators were made. */
    {
        enum { NNEW = 200 };
        MPI_Comm fresh[NNEW];
        for (int i = 0; i < NNEW; i++)
            REQUIRE_OK(MPI_Comm_dup(MPI_COMM_SELF, &fresh[i]));
        all_functions(freed_saved, "freed communicator (after 200 new ones)");
        for (int i = 0; i < NNEW; i++)
            CHECK_OK(MPI_Comm_free(&fresh[i]));
        all_functions(freed_saved, "freed communicator (after 200 more frees)");
    }

    /* Made-up handle values. */
    all_functions((MPI_Comm)(intptr_t)1, "(MPI_Comm)1");
    all_functions((MPI_Comm)(intptr_t)0x7777, "(MPI_Comm)0x7777");
    all_functions((MPI_Comm)(intptr_t)-1, "(MPI_Comm)-1");
    all_functions((MPI_Comm)(intptr_t)0x7ff123456781, "(MPI_Comm)0x7ff123456781");

    /* NULL output pointers: MPI_ERR_ARG, no new object, no callback. */
    {
        const char *what = "NULL output pointer";
        struct outs o;
#define BAD(call) CHECK_FAILS(what, o, call, MPI_ERR_ARG)
        BAD(MPI_Comm_dup(good, NULL));
        BAD(MPI_Comm_dup_with_info(good, MPI_INFO_NULL, NULL));
        BAD(MPI_Comm_idup(good, NULL, &o.request));
        CHECK_FAILS_NEW(what, o, MPI_Comm_idup(good, &o.comm, NULL), MPI_ERR_ARG);
        BAD(MPI_Comm_split(good, 0, 0, NULL));
        BAD(MPI_Comm_split(good, MPI_UNDEFINED, 0, NULL));
        BAD(MPI_Comm_free(NULL));
        BAD(MPI_Comm_rank(good, NULL));
        BAD(MPI_Comm_size(good, NULL));
        BAD(MPI_Comm_compare(good, MPI_COMM_WORLD, NULL));
        BAD(MPI_Comm_set_name(good, NULL));
        BAD(MPI_Comm_get_name(good, NULL, &o.i));
        BAD(MPI_Comm_get_name(good, o.text, NULL));
        BAD(MPI_Comm_get_attr(good, kv, NULL, &o.i));
        BAD(MPI_Comm_get_attr(good, kv, &o.ptr, NULL));
        BAD(MPI_Attr_get(good, kv, NULL, &o.i));
        BAD(MPI_Attr_get(good, kv, &o.ptr, NULL));
        BAD(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, NULL, &o.i));
        BAD(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &o.ptr, NULL));
        BAD(MPI_Comm_get_errhandler(good, NULL));
        BAD(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, NULL, NULL));
        BAD(MPI_Comm_create_keyval(cnt_copy, cnt_del, NULL, NULL));
        BAD(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, NULL, NULL));
        BAD(MPI_Comm_free_keyval(NULL));
        BAD(MPI_Keyval_free(NULL));
        BAD(MPI_Win_create_dynamic(MPI_INFO_NULL, good, NULL));
#undef BAD
        state_unchanged(what);
    }

    /* Other bad arguments on a good communicator. */
    {
        const char *what = "bad argument";
        struct outs o;
        /* an info handle other than MPI_INFO_NULL and MPI_INFO_ENV */
        MPI_Info infos[] = {(MPI_Info)MPI_COMM_WORLD, (MPI_Info)MPI_INT, (MPI_Info)(intptr_t)0x7777};
        for (int i = 0; i < (int)(sizeof infos / sizeof infos[0]); i++)
            CHECK_FAILS_NEW(what, o, MPI_Comm_dup_with_info(good, infos[i], &o.comm),
                            MPI_ERR_INFO);
        /* a negative colour other than MPI_UNDEFINED */
        CHECK_FAILS(what, o, MPI_Comm_split(good, -5, 0, &o.comm), MPI_ERR_ARG);
        CHECK_FAILS(what, o, MPI_Comm_split(MPI_COMM_WORLD, -1, 3, &o.comm), MPI_ERR_ARG);
        /* the predefined communicators cannot be freed */
        MPI_Comm predefined[2] = {MPI_COMM_WORLD, MPI_COMM_SELF};
        for (int i = 0; i < 2; i++) {
            MPI_Comm victim = predefined[i];
            CHECK_FAILS_INOUT(what, o, victim, MPI_Comm_free(&victim), MPI_ERR_COMM);
            int size = -1;
            CHECK_OK(MPI_Comm_size(predefined[i], &size));
            CHECK_EQ_INT(size, 1);
        }
        state_unchanged(what);
    }

#if defined(MPIATTR_MPI_H)
    /* Fortran integers that name no communicator give MPI_COMM_NULL. */
    {
        MPI_Fint bads[] = {0, -1, 1, 4095, 123456789, MPI_Type_c2f(MPI_INT), MPI_Type_c2f(type),
                           MPI_Win_c2f(win), MPI_Comm_c2f(MPI_COMM_NULL)};
        for (int i = 0; i < (int)(sizeof bads / sizeof bads[0]); i++)
            CHECK_MSG(MPI_Comm_f2c(bads[i]) == MPI_COMM_NULL, "MPI_Comm_f2c(%ld) names a "
                      "communicator", (long)bads[i]);
    }
#endif

    /* The name is kept by a failed set_name; get_name of a good comm still works. */
    {
        char name[MPI_MAX_OBJECT_NAME];
        int len = -1;
        CHECK_OK(MPI_Comm_get_name(good, name, &len));
        CHECK_EQ_STR(name, "good");
    }

    /* Everything still works. */
    ncopy = ndel = 0;
    MPI_Comm d;
    CHECK_OK(MPI_Comm_dup(good, &d));
    CHECK_EQ_INT(ncopy, 1);
    CHECK_OK(MPI_Comm_free(&d));
    CHECK_OK(MPI_Comm_free(&good));
    CHECK_EQ_INT(ndel, 2);
    CHECK_OK(MPI_Comm_delete_attr(MPI_COMM_WORLD, kv));
    CHECK_EQ_INT(ndel, 3);
    CHECK_OK(MPI_Comm_free_keyval(&kv));
    CHECK_OK(MPI_Win_free(&win));
    CHECK_OK(MPI_Type_free(&type));
    REQUIRE_OK(MPI_Finalize());
    return test_finish("badarg_comm");
}
