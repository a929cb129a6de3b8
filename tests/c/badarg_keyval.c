/*
 * Invalid keyvals under MPI_ERRORS_RETURN (SPEC §5): MPI_KEYVAL_INVALID, negative numbers,
 * huge numbers, a freed-and-gone keyval and a wrong-kind keyval fail with MPI_ERR_KEYVAL in
 * every set/get/delete/free function of the three kinds and of the deprecated interface; a
 * failed free leaves the variable unchanged; nothing else changes (attributes, values,
 * callbacks).
 */
#include "check.h"

static MPI_Comm comm;
static MPI_Datatype type;
static MPI_Win win;
static int kc, kt, kw;

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

/* bad comm/type/win keyval numbers */
static void try_comm(int key, const char *what)
{
    void *v = SENTINEL_HANDLE(void *);
    int flag = SENTINEL_INT;
    MPI_Comm targets[3] = {comm, MPI_COMM_WORLD, MPI_COMM_SELF};
    for (int i = 0; i < 3; i++) {
        CHECK_RC(MPI_Comm_set_attr(targets[i], key, IPTR(7)), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Comm_get_attr(targets[i], key, &v, &flag), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Comm_delete_attr(targets[i], key), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Attr_put(targets[i], key, IPTR(7)), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Attr_get(targets[i], key, &v, &flag), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Attr_delete(targets[i], key), MPI_ERR_KEYVAL);
    }
    CHECK_MSG(v == SENTINEL_HANDLE(void *) && flag == SENTINEL_INT,
              "%s: a failed get wrote its outputs", what);
    int k = key;
    CHECK_RC(MPI_Comm_free_keyval(&k), MPI_ERR_KEYVAL);
    CHECK_MSG(k == key, "%s: MPI_Comm_free_keyval changed the variable to %d", what, k);
    CHECK_RC(MPI_Keyval_free(&k), MPI_ERR_KEYVAL);
    CHECK_MSG(k == key, "%s: MPI_Keyval_free changed the variable to %d", what, k);
    unchanged(what);
}

static void try_type(int key, const char *what)
{
    void *v = SENTINEL_HANDLE(void *);
    int flag = SENTINEL_INT;
    MPI_Datatype targets[2] = {type, MPI_INT};
    for (int i = 0; i < 2; i++) {
        CHECK_RC(MPI_Type_set_attr(targets[i], key, IPTR(7)), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Type_get_attr(targets[i], key, &v, &flag), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Type_delete_attr(targets[i], key), MPI_ERR_KEYVAL);
    }
    CHECK_MSG(v == SENTINEL_HANDLE(void *) && flag == SENTINEL_INT,
              "%s: a failed get wrote its outputs", what);
    int k = key;
    CHECK_RC(MPI_Type_free_keyval(&k), MPI_ERR_KEYVAL);
    CHECK_MSG(k == key, "%s: MPI_Type_free_keyval changed the variable to %d", what, k);
    unchanged(what);
}

static void try_win(int key, const char *what)
{
    void *v = SENTINEL_HANDLE(void *);
    int flag = SENTINEL_INT;
    CHECK_RC(MPI_Win_set_attr(win, key, IPTR(7)), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Win_get_attr(win, key, &v, &flag), MPI_ERR_KEYVAL);
    CHECK_RC(MPI_Win_delete_attr(win, key), MPI_ERR_KEYVAL);
    CHECK_MSG(v == SENTINEL_HANDLE(void *) && flag == SENTINEL_INT,
              "%s: a failed get wrote its outputs", what);
    int k = key;
    CHECK_RC(MPI_Win_free_keyval(&k), MPI_ERR_KEYVAL);
    CHECK_MSG(k == key, "%s: MPI_Win_free_keyval changed the variable to %d", what, k);
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
    void *base;
    REQUIRE_OK(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
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
