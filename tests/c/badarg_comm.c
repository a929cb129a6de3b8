/*
 * Bad communicator arguments under MPI_ERRORS_RETURN (SPEC §5 "Bad input"): for every
 * function of SPEC §1 that takes a communicator, MPI_COMM_NULL, freed handles (also after many
 * new communicators were made) and wrong-kind handles (MPI_WIN_NULL, a real window, a datatype,
 * other predefined handles, cast to MPI_Comm) fail with MPI_ERR_COMM; NULL output pointers
 * fail with MPI_ERR_ARG. After each failing call the outputs are untouched, no callback ran,
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
    MPI_Comm out = SENTINEL_HANDLE(MPI_Comm);
    MPI_Request req = SENTINEL_HANDLE(MPI_Request);
    int ival = SENTINEL_INT;
    void *v = SENTINEL_HANDLE(void *);
    int flag = SENTINEL_INT;
    char name[MPI_MAX_OBJECT_NAME] = "untouched";
    MPI_Errhandler eh = SENTINEL_HANDLE(MPI_Errhandler);
    MPI_Win win = SENTINEL_HANDLE(MPI_Win);
    void *base = SENTINEL_HANDLE(void *);
    int buf[4];

#define BAD_OUT(call, out_ok)                                                                  \
    do {                                                                                       \
        CHECK_RC(call, MPI_ERR_COMM);                                                          \
        CHECK_MSG((out_ok) && req == SENTINEL_HANDLE(MPI_Request) &&   \
                      ival == SENTINEL_INT && v == SENTINEL_HANDLE(void *) &&                  \
                      flag == SENTINEL_INT && strcmp(name, "untouched") == 0 &&                \
                      eh == SENTINEL_HANDLE(MPI_Errhandler) &&                                 \
                      win == SENTINEL_HANDLE(MPI_Win) && base == SENTINEL_HANDLE(void *),      \
                  "%s: %s wrote to an output argument", what, #call);                          \
        out = SENTINEL_HANDLE(MPI_Comm);                                                       \
        req = SENTINEL_HANDLE(MPI_Request);                                                    \
        ival = flag = SENTINEL_INT;                                                            \
        v = base = SENTINEL_HANDLE(void *);                                                    \
        strcpy(name, "untouched");                                                             \
        eh = SENTINEL_HANDLE(MPI_Errhandler);                                                  \
        win = SENTINEL_HANDLE(MPI_Win);                                                        \
    } while (0)
/* Most functions leave their outputs alone. A failed dup may also set the new handle to
   MPI_COMM_NULL (SPEC §5 "A failed dup: the new handle is MPI_COMM_NULL"). */
#define BAD(call) BAD_OUT(call, out == SENTINEL_HANDLE(MPI_Comm))
#define BAD_DUP(call) BAD_OUT(call, out == SENTINEL_HANDLE(MPI_Comm) || out == MPI_COMM_NULL)

    BAD_DUP(MPI_Comm_dup(bad, &out));
    BAD_DUP(MPI_Comm_dup_with_info(bad, MPI_INFO_NULL, &out));
    BAD_DUP(MPI_Comm_idup(bad, &out, &req));
    BAD(MPI_Comm_split(bad, 0, 0, &out));
    BAD(MPI_Comm_split(bad, MPI_UNDEFINED, 0, &out));
    BAD(MPI_Comm_rank(bad, &ival));
    BAD(MPI_Comm_size(bad, &ival));
    BAD(MPI_Comm_compare(bad, MPI_COMM_WORLD, &ival));
    BAD(MPI_Comm_compare(MPI_COMM_WORLD, bad, &ival));
    BAD(MPI_Comm_compare(bad, bad, &ival));
    BAD(MPI_Comm_set_name(bad, "x"));
    BAD(MPI_Comm_get_name(bad, name, &ival));
    BAD(MPI_Comm_set_attr(bad, kv, IPTR(5)));
    BAD(MPI_Comm_get_attr(bad, kv, &v, &flag));
    BAD(MPI_Comm_get_attr(bad, MPI_TAG_UB, &v, &flag));
    BAD(MPI_Comm_delete_attr(bad, kv));
    BAD(MPI_Attr_put(bad, kv, IPTR(5)));
    BAD(MPI_Attr_get(bad, kv, &v, &flag));
    BAD(MPI_Attr_delete(bad, kv));
    BAD(MPI_Comm_set_errhandler(bad, MPI_ERRORS_RETURN));
    BAD(MPI_Comm_get_errhandler(bad, &eh));
    BAD(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, bad, &win));
    BAD(MPI_Win_allocate(16, 1, MPI_INFO_NULL, bad, &base, &win));
    BAD(MPI_Win_create_dynamic(MPI_INFO_NULL, bad, &win));
    {
        MPI_Comm victim = bad;
        CHECK_RC(MPI_Comm_free(&victim), MPI_ERR_COMM);
        CHECK_MSG(victim == bad, "%s: MPI_Comm_free of a bad handle changed the variable", what);
    }
#undef BAD
#undef BAD_DUP
#undef BAD_OUT
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

    /* NULL output pointers: MPI_ERR_ARG, no new object, no callback. */
    {
        MPI_Comm out = SENTINEL_HANDLE(MPI_Comm);
        MPI_Request req = SENTINEL_HANDLE(MPI_Request);
        int ival = SENTINEL_INT;
        void *v = SENTINEL_HANDLE(void *);
        char name[MPI_MAX_OBJECT_NAME];
        CHECK_RC(MPI_Comm_dup(good, NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Comm_dup_with_info(good, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Comm_idup(good, NULL, &req), MPI_ERR_ARG);
        CHECK_EQ_HANDLE(req, SENTINEL_HANDLE(MPI_Request));
        CHECK_RC(MPI_Comm_idup(good, &out, NULL), MPI_ERR_ARG);
        CHECK_MSG(out == SENTINEL_HANDLE(MPI_Comm) || out == MPI_COMM_NULL,
                  "failed MPI_Comm_idup wrote %p to newcomm", (void *)out);
        CHECK_RC(MPI_Comm_split(good, 0, 0, NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Comm_free(NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Comm_rank(good, NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Comm_size(good, NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Comm_compare(good, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Comm_set_name(good, NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Comm_get_name(good, NULL, &ival), MPI_ERR_ARG);
        CHECK_EQ_INT(ival, SENTINEL_INT);
        CHECK_RC(MPI_Comm_get_name(good, name, NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Comm_get_attr(good, kv, NULL, &ival), MPI_ERR_ARG);
        CHECK_EQ_INT(ival, SENTINEL_INT);
        CHECK_RC(MPI_Comm_get_attr(good, kv, &v, NULL), MPI_ERR_ARG);
        CHECK_EQ_PTR(v, SENTINEL_HANDLE(void *));
        CHECK_RC(MPI_Attr_get(good, kv, NULL, &ival), MPI_ERR_ARG);
        CHECK_RC(MPI_Attr_get(good, kv, &v, NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, NULL, &ival), MPI_ERR_ARG);
        CHECK_RC(MPI_Comm_get_errhandler(good, NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, NULL, NULL),
                 MPI_ERR_ARG);
        CHECK_RC(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, NULL, NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Comm_free_keyval(NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Keyval_free(NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Win_create_dynamic(MPI_INFO_NULL, good, NULL), MPI_ERR_ARG);
        state_unchanged("NULL output pointers");
    }

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
