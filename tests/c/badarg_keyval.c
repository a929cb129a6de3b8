/*
 * Invalid keyvals under MPI_ERRORS_RETURN (attributes.md §4, §5): MPI_KEYVAL_INVALID, negative numbers,
 * huge numbers, a freed-and-gone keyval and a wrong-kind keyval (user or predefined) fail with
 * MPI_ERR_KEYVAL in every set/get/delete/free function of the three kinds and of the
 * deprecated interface; predefined keyvals of the right kind cannot be set, deleted or freed
 * (MPI_ERR_KEYVAL) and still read; a freed keyval still in use cannot set a new value
 * (MPI_ERR_KEYVAL) and its values stay. A failed call writes no output (CHECK_FAILS), a failed
 * free leaves the variable unchanged; nothing else changes (attributes, values, callbacks).
 */
#include "check.h"

static MPI_Comm comm;
static MPI_Datatype type;
static MPI_Win win;
static int kc, kt, kw;
static void *wbase;

static void unchanged(const char *what)
{
    void *v;
    int flag = -1;
    CHECK_OK(MPI_Comm_get_attr(comm, kc, &v, &flag));
    CHECK_MSG(flag == 1 && PTRI(v) == 1, "%s: comm attribute changed", what);
    flag = -1;
    CHECK_OK(MPI_Type_get_attr(type, kt, &v, &flag));
    CHECK_MSG(flag == 1 && PTRI(v) == 2, "%s: type attribute changed", what);
    flag = -1;
    CHECK_OK(MPI_Win_get_attr(win, kw, &v, &flag));
    CHECK_MSG(flag == 1 && PTRI(v) == 3, "%s: window attribute changed", what);
    CHECK_MSG(callback_calls == 0, "%s: %d callbacks ran", what, callback_calls);
}

/* bad comm/type/win keyval numbers: every function that takes one */
static void try_comm(int key, const char *what)
{
    struct outs o;
    MPI_Comm targets[3] = {comm, MPI_COMM_WORLD, MPI_COMM_SELF};
    for (int i = 0; i < 3; i++) {
        CHECK_FAILS(what, o, MPI_Comm_set_attr(targets[i], key, IPTR(7)), MPI_ERR_KEYVAL);
        CHECK_FAILS(what, o, MPI_Comm_get_attr(targets[i], key, &o.ptr, &o.i), MPI_ERR_KEYVAL);
        CHECK_FAILS(what, o, MPI_Comm_delete_attr(targets[i], key), MPI_ERR_KEYVAL);
        CHECK_FAILS(what, o, MPI_Attr_put(targets[i], key, IPTR(7)), MPI_ERR_KEYVAL);
        CHECK_FAILS(what, o, MPI_Attr_get(targets[i], key, &o.ptr, &o.i), MPI_ERR_KEYVAL);
        CHECK_FAILS(what, o, MPI_Attr_delete(targets[i], key), MPI_ERR_KEYVAL);
    }
    int k = key;
    CHECK_FAILS_INOUT(what, o, k, MPI_Comm_free_keyval(&k), MPI_ERR_KEYVAL);
    CHECK_FAILS_INOUT(what, o, k, MPI_Keyval_free(&k), MPI_ERR_KEYVAL);
    unchanged(what);
}

static void try_type(int key, const char *what)
{
    struct outs o;
    MPI_Datatype targets[2] = {type, MPI_INT};
    for (int i = 0; i < 2; i++) {
        CHECK_FAILS(what, o, MPI_Type_set_attr(targets[i], key, IPTR(7)), MPI_ERR_KEYVAL);
        CHECK_FAILS(what, o, MPI_Type_get_attr(targets[i], key, &o.ptr, &o.i), MPI_ERR_KEYVAL);
        CHECK_FAILS(what, o, MPI_Type_delete_attr(targets[i], key), MPI_ERR_KEYVAL);
    }
    int k = key;
    CHECK_FAILS_INOUT(what, o, k, MPI_Type_free_keyval(&k), MPI_ERR_KEYVAL);
    unchanged(what);
}

static void try_win(int key, const char *what)
{
    struct outs o;
    CHECK_FAILS(what, o, MPI_Win_set_attr(win, key, IPTR(7)), MPI_ERR_KEYVAL);
    CHECK_FAILS(what, o, MPI_Win_get_attr(win, key, &o.ptr, &o.i), MPI_ERR_KEYVAL);
    CHECK_FAILS(what, o, MPI_Win_delete_attr(win, key), MPI_ERR_KEYVAL);
    int k = key;
    CHECK_FAILS_INOUT(what, o, k, MPI_Win_free_keyval(&k), MPI_ERR_KEYVAL);
    unchanged(what);
}

/* Predefined keyvals of the right kind: read-only. Setting, deleting and freeing them fail;
   reading still works. */
static void try_predefined_comm(int key, const char *what)
{
    struct outs o;
    MPI_Comm targets[3] = {comm, MPI_COMM_WORLD, MPI_COMM_SELF};
    for (int i = 0; i < 3; i++) {
        CHECK_FAILS(what, o, MPI_Comm_set_attr(targets[i], key, IPTR(7)), MPI_ERR_KEYVAL);
        CHECK_FAILS(what, o, MPI_Comm_delete_attr(targets[i], key), MPI_ERR_KEYVAL);
        CHECK_FAILS(what, o, MPI_Attr_put(targets[i], key, IPTR(7)), MPI_ERR_KEYVAL);
        CHECK_FAILS(what, o, MPI_Attr_delete(targets[i], key), MPI_ERR_KEYVAL);
    }
    int k = key;
    CHECK_FAILS_INOUT(what, o, k, MPI_Comm_free_keyval(&k), MPI_ERR_KEYVAL);
    CHECK_FAILS_INOUT(what, o, k, MPI_Keyval_free(&k), MPI_ERR_KEYVAL);
    int *value = NULL, flag = 0;
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &value, &flag));
    CHECK_MSG(flag == 1 && value != NULL, "%s: MPI_COMM_WORLD lost it", what);
    unchanged(what);
}

static void try_predefined_win(int key, const char *what)
{
    struct outs o;
    CHECK_FAILS(what, o, MPI_Win_set_attr(win, key, IPTR(7)), MPI_ERR_KEYVAL);
    CHECK_FAILS(what, o, MPI_Win_delete_attr(win, key), MPI_ERR_KEYVAL);
    int k = key;
    CHECK_FAILS_INOUT(what, o, k, MPI_Win_free_keyval(&k), MPI_ERR_KEYVAL);
    void *value = NULL;
    int flag = 0;
    CHECK_OK(MPI_Win_get_attr(win, key, &value, &flag));
    CHECK_MSG(flag == 1 && (key != MPI_WIN_BASE || value == wbase), "%s: the window lost it",
              what);
    unchanged(what);
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, counting_comm_delete, &kc, NULL));
    REQUIRE_OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, counting_type_delete, &kt, NULL));
    REQUIRE_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, counting_win_delete, &kw, NULL));
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    REQUIRE_OK(MPI_Type_contiguous(2, MPI_INT, &type));
    REQUIRE_OK(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &wbase, &win));
    REQUIRE_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    REQUIRE_OK(MPI_Comm_set_attr(comm, kc, IPTR(1)));
    REQUIRE_OK(MPI_Type_set_attr(type, kt, IPTR(2)));
    REQUIRE_OK(MPI_Win_set_attr(win, kw, IPTR(3)));

    /* freed and gone keyvals of each kind */
    int gc, gt, gw;
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &gc, NULL));
    REQUIRE_OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &gt, NULL));
    REQUIRE_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &gw, NULL));
    int gc_saved = gc, gt_saved = gt, gw_saved = gw;
    REQUIRE_OK(MPI_Comm_free_keyval(&gc));
    REQUIRE_OK(MPI_Type_free_keyval(&gt));
    REQUIRE_OK(MPI_Win_free_keyval(&gw));

    static const int numbers[] = {MPI_KEYVAL_INVALID, -5, -1, 123456789, 2147483647, -2147483647 - 1};
    for (int i = 0; i < (int)(sizeof numbers / sizeof numbers[0]); i++) {
        char what[64];
        snprintf(what, sizeof what, "keyval %d", numbers[i]);
        try_comm(numbers[i], what);
        try_type(numbers[i], what);
        try_win(numbers[i], what);
    }
    try_comm(gc_saved, "freed comm keyval");
    try_type(gt_saved, "freed type keyval");
    try_win(gw_saved, "freed win keyval");
    /* wrong kinds, including the freed ones of another kind */
    try_comm(kt, "type keyval as comm keyval");
    try_comm(kw, "win keyval as comm keyval");
    try_comm(gt_saved, "freed type keyval as comm keyval");
    try_type(kc, "comm keyval as type keyval");
    try_type(kw, "win keyval as type keyval");
    try_win(kc, "comm keyval as win keyval");
    try_win(kt, "type keyval as win keyval");
    try_win(MPI_TAG_UB, "MPI_TAG_UB as win keyval");
    try_type(MPI_WIN_BASE, "MPI_WIN_BASE as type keyval");
    try_comm(MPI_WIN_SIZE, "MPI_WIN_SIZE as comm keyval");

    try_comm(MPI_WIN_BASE, "MPI_WIN_BASE as comm keyval");
    try_win(MPI_APPNUM, "MPI_APPNUM as win keyval");
    try_type(MPI_TAG_UB, "MPI_TAG_UB as type keyval");

    /* predefined keyvals: read-only */
    {
        static const int comm_keys[] = {MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL,
                                        MPI_UNIVERSE_SIZE, MPI_APPNUM, MPI_LASTUSEDCODE};
        for (int i = 0; i < (int)(sizeof comm_keys / sizeof comm_keys[0]); i++) {
            char what[64];
            snprintf(what, sizeof what, "predefined keyval %d", comm_keys[i]);
            try_predefined_comm(comm_keys[i], what);
        }
        static const int win_keys[] = {MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT,
                                       MPI_WIN_CREATE_FLAVOR, MPI_WIN_MODEL};
        for (int i = 0; i < (int)(sizeof win_keys / sizeof win_keys[0]); i++) {
            char what[64];
            snprintf(what, sizeof what, "predefined keyval %d", win_keys[i]);
            try_predefined_win(win_keys[i], what);
        }
    }

    /* A freed keyval that attributes still use: no new value can be set with it (attributes.md §4);
       the values it has stay, and can still be read. */
    {
        const char *what = "freed keyval still in use";
        struct outs o;
        int kf, tf, wf;
        REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, counting_comm_delete, &kf, NULL));
        REQUIRE_OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, counting_type_delete, &tf, NULL));
        REQUIRE_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, counting_win_delete, &wf, NULL));
        REQUIRE_OK(MPI_Comm_set_attr(comm, kf, IPTR(41)));
        REQUIRE_OK(MPI_Type_set_attr(type, tf, IPTR(42)));
        REQUIRE_OK(MPI_Win_set_attr(win, wf, IPTR(43)));
        int kf_saved = kf, tf_saved = tf, wf_saved = wf;
        REQUIRE_OK(MPI_Comm_free_keyval(&kf));
        REQUIRE_OK(MPI_Type_free_keyval(&tf));
        REQUIRE_OK(MPI_Win_free_keyval(&wf));
        CHECK_FAILS(what, o, MPI_Comm_set_attr(comm, kf_saved, IPTR(7)), MPI_ERR_KEYVAL);
        CHECK_FAILS(what, o, MPI_Comm_set_attr(MPI_COMM_SELF, kf_saved, IPTR(7)), MPI_ERR_KEYVAL);
        CHECK_FAILS(what, o, MPI_Attr_put(comm, kf_saved, IPTR(7)), MPI_ERR_KEYVAL);
        CHECK_FAILS(what, o, MPI_Type_set_attr(type, tf_saved, IPTR(7)), MPI_ERR_KEYVAL);
        CHECK_FAILS(what, o, MPI_Type_set_attr(MPI_INT, tf_saved, IPTR(7)), MPI_ERR_KEYVAL);
        CHECK_FAILS(what, o, MPI_Win_set_attr(win, wf_saved, IPTR(7)), MPI_ERR_KEYVAL);
        void *v = NULL;
        int flag = 0;
        CHECK_OK(MPI_Comm_get_attr(comm, kf_saved, &v, &flag));
        CHECK_MSG(flag == 1 && PTRI(v) == 41, "%s: the comm value changed", what);
        flag = 0;
        CHECK_OK(MPI_Type_get_attr(type, tf_saved, &v, &flag));
        CHECK_MSG(flag == 1 && PTRI(v) == 42, "%s: the type value changed", what);
        flag = 0;
        CHECK_OK(MPI_Win_get_attr(win, wf_saved, &v, &flag));
        CHECK_MSG(flag == 1 && PTRI(v) == 43, "%s: the window value changed", what);
        unchanged(what);
        /* deleting the last value ends the keyval: then it is invalid everywhere */
        CHECK_OK(MPI_Comm_delete_attr(comm, kf_saved));
        CHECK_OK(MPI_Type_delete_attr(type, tf_saved));
        CHECK_OK(MPI_Win_delete_attr(win, wf_saved));
        CHECK_EQ_INT(callback_calls, 3);
        callback_calls = 0;
        try_comm(kf_saved, "comm keyval freed after its last value went");
        try_type(tf_saved, "type keyval freed after its last value went");
        try_win(wf_saved, "win keyval freed after its last value went");
    }

    /* still all fine */
    callback_calls = 0;
    MPI_Comm d;
    CHECK_OK(MPI_Comm_dup(comm, &d));
    void *v = NULL;
    int flag = -1;
    CHECK_OK(MPI_Comm_get_attr(d, kc, &v, &flag));
    CHECK_EQ_INT(flag, 1);
    CHECK_EQ_INT(PTRI(v), 1);
    CHECK_OK(MPI_Comm_free(&d));
    CHECK_OK(MPI_Comm_free(&comm));
    CHECK_OK(MPI_Type_free(&type));
    CHECK_OK(MPI_Win_free(&win));
    CHECK_EQ_INT(callback_calls, 4);
    CHECK_OK(MPI_Comm_free_keyval(&kc));
    CHECK_OK(MPI_Type_free_keyval(&kt));
    CHECK_OK(MPI_Win_free_keyval(&kw));
    REQUIRE_OK(MPI_Finalize());
    return test_finish("badarg_keyval");
}
