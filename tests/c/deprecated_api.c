/*
 * The deprecated MPI-1 interface: MPI_Keyval_create / MPI_Keyval_free / MPI_Attr_put /
 * MPI_Attr_get / MPI_Attr_delete with MPI_DUP_FN, MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN and
 * user MPI_Copy_function / MPI_Delete_function callbacks. MPI_Keyval_create makes
 * communicator keyvals (usable with MPI_Comm_* too, refused on datatypes and windows);
 * MPI_Attr_* and MPI_Comm_*_attr are two views of the same attributes.
 */
#include "check.h"

static int ncopy, ndel;
static MPI_Comm last_copy_comm, last_del_comm;
static void *last_copy_extra, *last_del_extra;
static intptr_t last_del_value;

static int old_copy(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)keyval;
    ncopy++;
    last_copy_comm = comm;
    last_copy_extra = extra;
    *(void **)out = IPTR(PTRI(in) - 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int old_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)keyval;
    ndel++;
    last_del_comm = comm;
    last_del_extra = extra;
    last_del_value = PTRI(value);
    return MPI_SUCCESS;
}

static void expect(MPI_Comm c, int kv, int present, intptr_t value, const char *what)
{
    void *v = SENTINEL_HANDLE(void *);
    int flag = -1;
    CHECK_OK(MPI_Attr_get(c, kv, &v, &flag));
    CHECK_MSG(flag == present, "%s: MPI_Attr_get flag %d, expected %d", what, flag, present);
    if (flag && present)
        CHECK_MSG(PTRI(v) == value, "%s: MPI_Attr_get value %ld, expected %ld", what,
                  (long)PTRI(v), (long)value);
    v = SENTINEL_HANDLE(void *);
    flag = -1;
    CHECK_OK(MPI_Comm_get_attr(c, kv, &v, &flag));
    CHECK_MSG(flag == present, "%s: MPI_Comm_get_attr flag %d, expected %d", what, flag, present);
    if (flag && present)
        CHECK_MSG(PTRI(v) == value, "%s: MPI_Comm_get_attr value %ld, expected %ld", what,
                  (long)PTRI(v), (long)value);
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    int extra_dup = 1, extra_user = 2;

    int kdup = MPI_KEYVAL_INVALID, knull = MPI_KEYVAL_INVALID, kuser = MPI_KEYVAL_INVALID;
    CHECK_OK(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &kdup, &extra_dup));
    CHECK_OK(MPI_Keyval_create(MPI_NULL_COPY_FN, old_delete, &knull, NULL));
    CHECK_OK(MPI_Keyval_create(old_copy, old_delete, &kuser, &extra_user));
    CHECK(kdup != MPI_KEYVAL_INVALID && knull != MPI_KEYVAL_INVALID && kuser != MPI_KEYVAL_INVALID);
    CHECK(kdup != knull && knull != kuser && kdup != kuser);

    MPI_Comm c;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    int local = 5;
    CHECK_OK(MPI_Attr_put(c, kdup, &local));
    CHECK_OK(MPI_Attr_put(c, knull, IPTR(-7)));
    CHECK_OK(MPI_Comm_set_attr(c, kuser, IPTR(100)));
    expect(c, kdup, 1, PTRI(&local), "MPI_Attr_put");
    expect(c, knull, 1, -7, "MPI_Attr_put");
    expect(c, kuser, 1, 100, "MPI_Comm_set_attr read by MPI_Attr_get");

    /* dup: MPI_DUP_FN copies, MPI_NULL_COPY_FN does not, the user callback transforms. */
    MPI_Comm d;
    ncopy = ndel = 0;
    CHECK_OK(MPI_Comm_dup(c, &d));
    CHECK_EQ_INT(ncopy, 1);
    CHECK_EQ_HANDLE(last_copy_comm, c);
    CHECK_EQ_PTR(last_copy_extra, &extra_user);
    expect(d, kdup, 1, PTRI(&local), "copy with MPI_DUP_FN");
    expect(d, knull, 0, 0, "copy with MPI_NULL_COPY_FN");
    expect(d, kuser, 1, 99, "copy with a user MPI_Copy_function");
    CHECK_EQ_INT(ndel, 0);

    /* MPI_Attr_delete runs the delete callback; MPI_NULL_DELETE_FN runs nothing. */
    CHECK_OK(MPI_Attr_delete(c, knull));
    CHECK_EQ_INT(ndel, 1);
    CHECK_EQ_HANDLE(last_del_comm, c);
    CHECK_EQ_INT(last_del_value, -7);
    CHECK_EQ_PTR(last_del_extra, NULL);
    expect(c, knull, 0, 0, "after MPI_Attr_delete");
    CHECK_OK(MPI_Attr_delete(c, kdup));
    CHECK_EQ_INT(ndel, 1);
    expect(c, kdup, 0, 0, "after MPI_Attr_delete");
    expect(d, kdup, 1, PTRI(&local), "copy after deleting the original");
    /* MPI_Comm_delete_attr on a value set with MPI_Attr_put. */
    CHECK_OK(MPI_Comm_delete_attr(d, kdup));
    expect(d, kdup, 0, 0, "after MPI_Comm_delete_attr");

    /* Replacement through MPI_Attr_put runs the old value's callback. */
    CHECK_OK(MPI_Attr_put(c, kuser, IPTR(200)));
    CHECK_EQ_INT(ndel, 2);
    CHECK_EQ_INT(last_del_value, 100);
    CHECK_EQ_PTR(last_del_extra, &extra_user);
    expect(c, kuser, 1, 200, "after replacing with MPI_Attr_put");

    /* MPI_Keyval_create makes communicator keyvals only. */
    MPI_Datatype t;
    REQUIRE_OK(MPI_Type_dup(MPI_INT, &t));
    CHECK_RC(MPI_Type_set_attr(t, kdup, IPTR(1)), MPI_ERR_KEYVAL);
    {
        void *v;
        int flag = -1;
        CHECK_RC(MPI_Type_get_attr(t, kdup, &v, &flag), MPI_ERR_KEYVAL);
    }
    MPI_Win w;
    void *base;
    REQUIRE_OK(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w));
    REQUIRE_OK(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
    CHECK_RC(MPI_Win_set_attr(w, kuser, IPTR(1)), MPI_ERR_KEYVAL);
    {
        int k = kuser;
        CHECK_RC(MPI_Type_free_keyval(&k), MPI_ERR_KEYVAL);
        CHECK_EQ_INT(k, kuser);
        CHECK_RC(MPI_Win_free_keyval(&k), MPI_ERR_KEYVAL);
        CHECK_EQ_INT(k, kuser);
    }

    /* Free: the user delete callback runs for the attributes left. */
    ndel = 0;
    CHECK_OK(MPI_Comm_free(&d));
    CHECK_EQ_INT(ndel, 1); /* kuser (99) */
    CHECK_EQ_INT(last_del_value, 99);
    ndel = 0;
    CHECK_OK(MPI_Comm_free(&c));
    CHECK_EQ_INT(ndel, 1); /* kuser (200) */
    CHECK_EQ_INT(last_del_value, 200);

    /* MPI_Keyval_free sets the variable to MPI_KEYVAL_INVALID; MPI_Comm_free_keyval also
       frees keyvals made by MPI_Keyval_create, and MPI_Keyval_free those of
       MPI_Comm_create_keyval. */
    int kc = MPI_KEYVAL_INVALID;
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kc, NULL));
    CHECK_OK(MPI_Attr_put(MPI_COMM_SELF, kc, IPTR(3)));
    expect(MPI_COMM_SELF, kc, 1, 3, "MPI_Attr_put with an MPI_Comm_create_keyval keyval");
    CHECK_OK(MPI_Attr_delete(MPI_COMM_SELF, kc));
    CHECK_OK(MPI_Keyval_free(&kc));
    CHECK_EQ_INT(kc, MPI_KEYVAL_INVALID);
    CHECK_OK(MPI_Keyval_free(&kdup));
    CHECK_EQ_INT(kdup, MPI_KEYVAL_INVALID);
    CHECK_OK(MPI_Comm_free_keyval(&knull));
    CHECK_EQ_INT(knull, MPI_KEYVAL_INVALID);
    CHECK_OK(MPI_Keyval_free(&kuser));
    CHECK_EQ_INT(kuser, MPI_KEYVAL_INVALID);
    CHECK_RC(MPI_Keyval_free(&kuser), MPI_ERR_KEYVAL);

    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Win_free(&w));
    REQUIRE_OK(MPI_Finalize());
    return test_finish("deprecated_api");
}
