/*
 * A keyval names one object kind (attributes.md §4, semantics.md "Keyvals"): every wrong pairing —
 * communicator keyval on a datatype or window, datatype keyval on a communicator (also through
 * MPI_Attr_*) or window, window keyval on a communicator or datatype, and freeing through the
 * wrong *_free_keyval — fails with MPI_ERR_KEYVAL and changes nothing. Predefined keyvals
 * (MPI_TAG_UB ... MPI_UNIVERSE_SIZE, MPI_WIN_BASE ... MPI_WIN_MODEL) are readable by get but
 * refused for set, delete and free (MPI_ERR_KEYVAL), and refused on the wrong kind.
 */
#include "check.h"


static MPI_Comm comm;
static MPI_Datatype type;
static MPI_Win win;
static int kc, kt, kw;

/* The right-kind attributes are all still there with their values. */
static void unchanged(const char *what)
{
    void *v;
    int flag = -1;
    CHECK_OK(MPI_Comm_get_attr(comm, kc, &v, &flag));
    CHECK_MSG(flag == 1 && PTRI(v) == 1, "%s: comm attribute changed (flag %d)", what, flag);
    flag = -1;
    CHECK_OK(MPI_Type_get_attr(type, kt, &v, &flag));
    CHECK_MSG(flag == 1 && PTRI(v) == 2, "%s: type attribute changed (flag %d)", what, flag);
    flag = -1;
    CHECK_OK(MPI_Win_get_attr(win, kw, &v, &flag));
    CHECK_MSG(flag == 1 && PTRI(v) == 3, "%s: win attribute changed (flag %d)", what, flag);
    CHECK_MSG(callback_calls == 0, "%s: %d callbacks ran", what, callback_calls);
}

static const int comm_pre[] = {MPI_TAG_UB,       MPI_IO,           MPI_HOST, MPI_WTIME_IS_GLOBAL,
                               MPI_APPNUM,       MPI_LASTUSEDCODE, MPI_UNIVERSE_SIZE};
static const int win_pre[] = {MPI_WIN_BASE, MPI_WIN_DISP_UNIT, MPI_WIN_SIZE, MPI_WIN_CREATE_FLAVOR,
                              MPI_WIN_MODEL};
#define NCP ((int)(sizeof comm_pre / sizeof comm_pre[0]))
#define NWP ((int)(sizeof win_pre / sizeof win_pre[0]))

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    REQUIRE_OK(MPI_Comm_create_keyval(counting_comm_copy, counting_comm_delete, &kc, NULL));
    REQUIRE_OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, counting_type_delete, &kt, NULL));
    REQUIRE_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, counting_win_delete, &kw, NULL));
    CHECK(kc != kt && kt != kw && kc != kw);
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    REQUIRE_OK(MPI_Type_contiguous(2, MPI_SHORT, &type));
    REQUIRE_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    REQUIRE_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Comm_set_attr(comm, kc, IPTR(1)));
    CHECK_OK(MPI_Type_set_attr(type, kt, IPTR(2)));
    CHECK_OK(MPI_Win_set_attr(win, kw, IPTR(3)));
    callback_calls = 0;

    void *v;
    int flag;

    /* comm keyval on a datatype and a window */
    CHECK_RC(MPI_Type_set_attr(type, kc, IPTR(9)), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Type_get_attr(type, kc, &v, &flag), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Type_delete_attr(type, kc), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Type_set_attr(MPI_INT, kc, IPTR(9)), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Win_set_attr(win, kc, IPTR(9)), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Win_get_attr(win, kc, &v, &flag), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Win_delete_attr(win, kc), MPI_ERR_KEYVAL);
    unchanged("comm keyval on type/win");

    /* type keyval on a communicator and a window */
    CHECK_RC(MPI_Comm_set_attr(comm, kt, IPTR(9)), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Comm_get_attr(comm, kt, &v, &flag), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Comm_delete_attr(comm, kt), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Attr_put(comm, kt, IPTR(9)), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Attr_get(comm, kt, &v, &flag), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Attr_delete(comm, kt), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Comm_set_attr(MPI_COMM_WORLD, kt, IPTR(9)), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Win_set_attr(win, kt, IPTR(9)), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Win_get_attr(win, kt, &v, &flag), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Win_delete_attr(win, kt), MPI_ERR_KEYVAL);
    unchanged("type keyval on comm/win");

    /* win keyval on a communicator and a datatype */
    CHECK_RC(MPI_Comm_set_attr(comm, kw, IPTR(9)), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Comm_get_attr(comm, kw, &v, &flag), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Comm_delete_attr(comm, kw), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Attr_put(comm, kw, IPTR(9)), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Attr_get(comm, kw, &v, &flag), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Attr_delete(comm, kw), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Type_set_attr(type, kw, IPTR(9)), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Type_get_attr(type, kw, &v, &flag), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Type_delete_attr(type, kw), MPI_ERR_KEYVAL);
    unchanged("win keyval on comm/type");

    /* freeing through the wrong kind's function: refused, variable unchanged */
    {
        int k = kc;
        CHECK_RC(MPI_Type_free_keyval(&k), MPI_ERR_KEYVAL);
        CHECK_EQ_INT(k, kc);
        CHECK_RC(MPI_Win_free_keyval(&k), MPI_ERR_KEYVAL);
        CHECK_EQ_INT(k, kc);
        k = kt;
        CHECK_RC(MPI_Comm_free_keyval(&k), MPI_ERR_KEYVAL);
        CHECK_EQ_INT(k, kt);
        CHECK_RC(MPI_Keyval_free(&k), MPI_ERR_KEYVAL);
        CHECK_EQ_INT(k, kt);
        CHECK_RC(MPI_Win_free_keyval(&k), MPI_ERR_KEYVAL);
        CHECK_EQ_INT(k, kt);
        k = kw;
        CHECK_RC(MPI_Comm_free_keyval(&k), MPI_ERR_KEYVAL);
        CHECK_EQ_INT(k, kw);
        CHECK_RC(MPI_Type_free_keyval(&k), MPI_ERR_KEYVAL);
        CHECK_EQ_INT(k, kw);
    }
    unchanged("wrong-kind free");

    /* Predefined communicator keyvals: readable on WORLD; set/delete/free refused everywhere;
       wrong kind on windows and datatypes. */
    for (int i = 0; i < NCP; i++) {
        int key = comm_pre[i];
        int *p = NULL;
        flag = -1;
        CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &p, &flag));
        CHECK_MSG(flag == 1, "predefined keyval %d not readable on MPI_COMM_WORLD", key);
        int before = (flag == 1 && p != NULL) ? *p : 0;
        CHECK_RC(MPI_Comm_set_attr(MPI_COMM_WORLD, key, IPTR(5)), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Attr_put(MPI_COMM_WORLD, key, IPTR(5)), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Comm_delete_attr(MPI_COMM_WORLD, key), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Attr_delete(MPI_COMM_WORLD, key), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Comm_set_attr(comm, key, IPTR(5)), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Comm_delete_attr(comm, key), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Comm_set_attr(MPI_COMM_SELF, key, IPTR(5)), MPI_ERR_KEYVAL);
        int k = key;
        CHECK_RC(MPI_Comm_free_keyval(&k), MPI_ERR_KEYVAL);
        CHECK_EQ_INT(k, key);
        CHECK_RC(MPI_Keyval_free(&k), MPI_ERR_KEYVAL);
        CHECK_EQ_INT(k, key);
        CHECK_RC(MPI_Win_get_attr(win, key, &v, &flag), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Win_set_attr(win, key, IPTR(5)), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Type_get_attr(type, key, &v, &flag), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Type_set_attr(type, key, IPTR(5)), MPI_ERR_KEYVAL);
        int *q = NULL;
        flag = -1;
        CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &q, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_PTR(q, p);
        if (q != NULL)
            CHECK_MSG(*q == before, "predefined keyval %d: value changed from %d to %d", key,
                      before, *q);
    }

    /* Predefined window keyvals. */
    for (int i = 0; i < NWP; i++) {
        int key = win_pre[i];
        void *p = SENTINEL_HANDLE(void *);
        flag = -1;
        CHECK_OK(MPI_Win_get_attr(win, key, &p, &flag));
        CHECK_MSG(flag == 1, "predefined window keyval %d not readable", key);
        CHECK_RC(MPI_Win_set_attr(win, key, IPTR(5)), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Win_delete_attr(win, key), MPI_ERR_KEYVAL);
        int k = key;
        CHECK_RC(MPI_Win_free_keyval(&k), MPI_ERR_KEYVAL);
        CHECK_EQ_INT(k, key);
        CHECK_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &v, &flag), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Comm_set_attr(MPI_COMM_WORLD, key, IPTR(5)), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Attr_get(MPI_COMM_WORLD, key, &v, &flag), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Type_get_attr(type, key, &v, &flag), MPI_ERR_KEYVAL);
        void *q = NULL;
        flag = -1;
        CHECK_OK(MPI_Win_get_attr(win, key, &q, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_PTR(q, p);
    }
    unchanged("predefined keyvals");

    callback_calls = 0;
    CHECK_OK(MPI_Comm_free(&comm));
    CHECK_OK(MPI_Type_free(&type));
    CHECK_OK(MPI_Win_free(&win));
    CHECK_EQ_INT(callback_calls, 3);
    CHECK_OK(MPI_Comm_free_keyval(&kc));
    CHECK_OK(MPI_Type_free_keyval(&kt));
    CHECK_OK(MPI_Win_free_keyval(&kw));
    REQUIRE_OK(MPI_Finalize());
    return test_finish("keyval_kinds");
}
