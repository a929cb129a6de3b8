/*
 * Bad datatype arguments under MPI_ERRORS_RETURN (datatype errors go to MPI_COMM_SELF's
 * handler): MPI_DATATYPE_NULL, freed datatypes and wrong-kind handles cast to MPI_Datatype fail
 * with MPI_ERR_TYPE in every datatype function; freeing a predefined datatype is MPI_ERR_TYPE;
 * a negative count in MPI_Type_contiguous is MPI_ERR_COUNT; NULL output pointers are
 * MPI_ERR_ARG. Outputs stay untouched, no callback runs, attributes are unchanged and the
 * datatypes still work.
 */
#include "check.h"

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
    MPI_Datatype out = SENTINEL_HANDLE(MPI_Datatype);
    int ival = SENTINEL_INT;
    void *v = SENTINEL_HANDLE(void *);

/* A failed dup may set the new handle to MPI_DATATYPE_NULL (SPEC §5 "A failed dup"). */
#define BAD(call)                                                                              \
    do {                                                                                       \
        CHECK_RC(call, MPI_ERR_TYPE);                                                          \
        CHECK_MSG((out == SENTINEL_HANDLE(MPI_Datatype) ||                                     \
                   (out == MPI_DATATYPE_NULL && strncmp(#call, "MPI_Type_dup(", 13) == 0)) &&  \
                      ival == SENTINEL_INT &&                                                  \
                      v == SENTINEL_HANDLE(void *),                                            \
                  "%s: %s wrote to an output argument", what, #call);                          \
        out = SENTINEL_HANDLE(MPI_Datatype);                                                   \
        ival = SENTINEL_INT;                                                                   \
        v = SENTINEL_HANDLE(void *);                                                           \
    } while (0)

    BAD(MPI_Type_dup(bad, &out));
    BAD(MPI_Type_contiguous(2, bad, &out));
    BAD(MPI_Type_size(bad, &ival));
    BAD(MPI_Type_set_attr(bad, kv, IPTR(1)));
    BAD(MPI_Type_get_attr(bad, kv, &v, &ival));
    BAD(MPI_Type_delete_attr(bad, kv));
    {
        MPI_Datatype victim = bad;
        CHECK_RC(MPI_Type_commit(&victim), MPI_ERR_TYPE);
        CHECK_MSG(victim == bad, "%s: MPI_Type_commit changed the variable", what);
        CHECK_RC(MPI_Type_free(&victim), MPI_ERR_TYPE);
        CHECK_MSG(victim == bad, "%s: MPI_Type_free changed the variable", what);
    }
#undef BAD
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

    /* Negative count. */
    {
        MPI_Datatype out = SENTINEL_HANDLE(MPI_Datatype);
        CHECK_RC(MPI_Type_contiguous(-1, MPI_INT, &out), MPI_ERR_COUNT);
        CHECK_EQ_HANDLE(out, SENTINEL_HANDLE(MPI_Datatype));
        CHECK_RC(MPI_Type_contiguous(-1000000, good, &out), MPI_ERR_COUNT);
        CHECK_EQ_HANDLE(out, SENTINEL_HANDLE(MPI_Datatype));
        /* zero is fine */
        CHECK_OK(MPI_Type_contiguous(0, MPI_INT, &out));
        int size = -1;
        CHECK_OK(MPI_Type_size(out, &size));
        CHECK_EQ_INT(size, 0);
        CHECK_OK(MPI_Type_free(&out));
    }

    /* NULL output pointers. */
    {
        int ival = SENTINEL_INT;
        void *v = SENTINEL_HANDLE(void *);
        CHECK_RC(MPI_Type_dup(good, NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Type_contiguous(2, good, NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Type_size(good, NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Type_commit(NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Type_free(NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Type_get_attr(good, kv, NULL, &ival), MPI_ERR_ARG);
        CHECK_EQ_INT(ival, SENTINEL_INT);
        CHECK_RC(MPI_Type_get_attr(good, kv, &v, NULL), MPI_ERR_ARG);
        CHECK_EQ_PTR(v, SENTINEL_HANDLE(void *));
        CHECK_RC(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, NULL, NULL),
                 MPI_ERR_ARG);
        CHECK_RC(MPI_Type_free_keyval(NULL), MPI_ERR_ARG);
        state_unchanged("NULL output pointers");
    }

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
