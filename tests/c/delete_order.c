/*
 * Delete callbacks (attributes.md §4): on *_delete_attr (with object, keyval, value and extra_state
 * exactly), on *_set_attr over an existing value (the old value's callback first, before the
 * new value is visible), and on object free newest set first, a replaced value counting as
 * newly set — for communicators, datatypes and windows. MPI_*_NULL_DELETE_FN runs nothing.
 */
#include "check.h"

#define NK 6
#define LOGN 256

struct rec {
    void *obj;
    int keyval;
    intptr_t value;
    void *extra;
    intptr_t seen; /* the value visible through get_attr while the callback ran */
    int seen_flag;
};
static struct rec dlog[LOGN];
static int ndel;
static int extras[NK];
static int ckv[NK], tkv[NK], wkv[NK];

static void log_del(void *obj, int keyval, void *value, void *extra, intptr_t seen, int flag)
{
    if (ndel < LOGN)
        dlog[ndel] = (struct rec){obj, keyval, PTRI(value), extra, seen, flag};
    ndel++;
}

static int comm_del(MPI_Comm c, int keyval, void *value, void *extra)
{
    void *v = NULL;
    int flag = -1;
    CHECK_OK(MPI_Comm_get_attr(c, keyval, &v, &flag));
    log_del((void *)c, keyval, value, extra, PTRI(v), flag);
    return MPI_SUCCESS;
}

static int type_del(MPI_Datatype t, int keyval, void *value, void *extra)
{
    void *v = NULL;
    int flag = -1;
    CHECK_OK(MPI_Type_get_attr(t, keyval, &v, &flag));
    log_del((void *)t, keyval, value, extra, PTRI(v), flag);
    return MPI_SUCCESS;
}

static int win_del(MPI_Win w, int keyval, void *value, void *extra)
{
    void *v = NULL;
    int flag = -1;
    CHECK_OK(MPI_Win_get_attr(w, keyval, &v, &flag));
    log_del((void *)w, keyval, value, extra, PTRI(v), flag);
    return MPI_SUCCESS;
}

/* Checks dlog[0..n) against the expected keyval indexes and values. */
static void expect_log(const char *what, void *obj, const int *kvs, int n, const int *idx,
                       const intptr_t *vals)
{
    CHECK_MSG(ndel == n, "%s: %d delete callbacks, expected %d", what, ndel, n);
    for (int i = 0; i < n && i < ndel; i++) {
        CHECK_MSG(dlog[i].keyval == kvs[idx[i]],
                  "%s: delete #%d was for keyval %d, expected #%d (%d)", what, i, dlog[i].keyval,
                  idx[i], kvs[idx[i]]);
        CHECK_MSG(dlog[i].value == vals[i], "%s: delete #%d got value %ld, expected %ld", what, i,
                  (long)dlog[i].value, (long)vals[i]);
        CHECK_MSG(dlog[i].obj == obj, "%s: delete #%d got object %p, expected %p", what, i,
                  dlog[i].obj, obj);
        CHECK_MSG(dlog[i].extra == &extras[idx[i]], "%s: delete #%d got extra %p, expected %p",
                  what, i, dlog[i].extra, (void *)&extras[idx[i]]);
    }
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);

    for (int k = 0; k < NK; k++) {
        REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN,
                                          k == 5 ? MPI_COMM_NULL_DELETE_FN : comm_del, &ckv[k],
                                          &extras[k]));
        REQUIRE_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN,
                                          k == 5 ? MPI_TYPE_NULL_DELETE_FN : type_del, &tkv[k],
                                          &extras[k]));
        REQUIRE_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN,
                                         k == 5 ? MPI_WIN_NULL_DELETE_FN : win_del, &wkv[k],
                                         &extras[k]));
    }

    /* ---- communicators ---- */
    MPI_Comm c;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    /* delete_attr: one callback, exact arguments, the value still visible inside it. */
    CHECK_OK(MPI_Comm_set_attr(c, ckv[0], IPTR(-70)));
    ndel = 0;
    CHECK_OK(MPI_Comm_delete_attr(c, ckv[0]));
    {
        static const int idx[1] = {0};
        static const intptr_t vals[1] = {-70};
        expect_log("MPI_Comm_delete_attr", (void *)c, ckv, 1, idx, vals);
    }
    /* set over an existing value: the old value's callback runs, and sees the old value. */
    CHECK_OK(MPI_Comm_set_attr(c, ckv[1], IPTR(1)));
    ndel = 0;
    CHECK_OK(MPI_Comm_set_attr(c, ckv[1], IPTR(2)));
    {
        static const int idx[1] = {1};
        static const intptr_t vals[1] = {1};
        expect_log("MPI_Comm_set_attr over a value", (void *)c, ckv, 1, idx, vals);
        if (ndel == 1) {
            CHECK_EQ_INT(dlog[0].seen_flag, 1);
            CHECK_EQ_INT(dlog[0].seen, 1);
        }
        void *v;
        int flag;
        CHECK_OK(MPI_Comm_get_attr(c, ckv[1], &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(v), 2);
    }
    /* MPI_Attr_put over a value and MPI_Attr_delete run the callbacks the same way. */
    ndel = 0;
    CHECK_OK(MPI_Attr_put(c, ckv[1], IPTR(3)));
    CHECK_OK(MPI_Attr_put(c, ckv[0], IPTR(30)));
    CHECK_OK(MPI_Attr_delete(c, ckv[0]));
    {
        static const int idx[2] = {1, 0};
        static const intptr_t vals[2] = {2, 30};
        expect_log("MPI_Attr_put / MPI_Attr_delete", (void *)c, ckv, 2, idx, vals);
    }
    /* NULL_DELETE_FN: nothing runs. */
    ndel = 0;
    CHECK_OK(MPI_Comm_set_attr(c, ckv[5], IPTR(5)));
    CHECK_OK(MPI_Comm_set_attr(c, ckv[5], IPTR(6)));
    CHECK_OK(MPI_Comm_delete_attr(c, ckv[5]));
    CHECK_EQ_INT(ndel, 0);

    /* Free order. Currently set: ckv[1]=3. Then set 2, 3, 4, 0, replace 3, set 5 (null). */
    ndel = 0;
    CHECK_OK(MPI_Comm_set_attr(c, ckv[2], IPTR(20)));
    CHECK_OK(MPI_Comm_set_attr(c, ckv[3], IPTR(31)));
    CHECK_OK(MPI_Comm_set_attr(c, ckv[4], IPTR(40)));
    CHECK_OK(MPI_Comm_set_attr(c, ckv[0], IPTR(0)));
    CHECK_OK(MPI_Comm_set_attr(c, ckv[3], IPTR(32)));
    CHECK_OK(MPI_Comm_set_attr(c, ckv[5], IPTR(50)));
    MPI_Comm csaved = c;
    CHECK_OK(MPI_Comm_free(&c));
    CHECK_EQ_HANDLE(c, MPI_COMM_NULL);
    {
        /* the replacement of 3 logged one delete (31) first */
        static const int idx[6] = {3, 3, 0, 4, 2, 1};
        static const intptr_t vals[6] = {31, 32, 0, 40, 20, 3};
        /* dlog[0] is the replacement (object c as well) */
        expect_log("MPI_Comm_free order", (void *)csaved, ckv, 6, idx, vals);
        /* during free every attribute is still visible to its own callback */
        for (int i = 1; i < ndel && i < 6; i++)
            CHECK_MSG(dlog[i].seen_flag == 1 && dlog[i].seen == vals[i],
                      "MPI_Comm_free: delete #%d saw flag %d value %ld", i, dlog[i].seen_flag,
                      (long)dlog[i].seen);
    }

    /* MPI_COMM_SELF and MPI_COMM_WORLD: delete_attr and replace work there too. */
    ndel = 0;
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_SELF, ckv[2], IPTR(9)));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_SELF, ckv[2], IPTR(10)));
    CHECK_OK(MPI_Comm_delete_attr(MPI_COMM_SELF, ckv[2]));
    {
        static const int idx[2] = {2, 2};
        static const intptr_t vals[2] = {9, 10};
        expect_log("MPI_COMM_SELF", (void *)MPI_COMM_SELF, ckv, 2, idx, vals);
    }

    /* ---- datatypes ---- */
    MPI_Datatype t;
    REQUIRE_OK(MPI_Type_contiguous(2, MPI_INT, &t));
    ndel = 0;
    CHECK_OK(MPI_Type_set_attr(t, tkv[0], IPTR(100)));
    CHECK_OK(MPI_Type_set_attr(t, tkv[1], IPTR(101)));
    CHECK_OK(MPI_Type_set_attr(t, tkv[2], IPTR(102)));
    CHECK_OK(MPI_Type_set_attr(t, tkv[0], IPTR(200))); /* replace: 100 deleted */
    CHECK_OK(MPI_Type_delete_attr(t, tkv[1]));         /* 101 deleted */
    CHECK_OK(MPI_Type_set_attr(t, tkv[3], IPTR(103)));
    CHECK_OK(MPI_Type_set_attr(t, tkv[5], IPTR(105)));
    MPI_Datatype tsaved = t;
    CHECK_OK(MPI_Type_free(&t));
    CHECK_EQ_HANDLE(t, MPI_DATATYPE_NULL);
    {
        static const int idx[5] = {0, 1, 3, 0, 2};
        static const intptr_t vals[5] = {100, 101, 103, 200, 102};
        expect_log("datatype", (void *)tsaved, tkv, 5, idx, vals);
    }
    /* On a predefined datatype. */
    ndel = 0;
    CHECK_OK(MPI_Type_set_attr(MPI_CHAR, tkv[4], IPTR(44)));
    CHECK_OK(MPI_Type_set_attr(MPI_CHAR, tkv[4], IPTR(45)));
    CHECK_OK(MPI_Type_delete_attr(MPI_CHAR, tkv[4]));
    {
        static const int idx[2] = {4, 4};
        static const intptr_t vals[2] = {44, 45};
        expect_log("MPI_CHAR", (void *)MPI_CHAR, tkv, 2, idx, vals);
    }

    /* ---- windows ---- */
    MPI_Win w;
    void *base = NULL;
    REQUIRE_OK(MPI_Win_allocate(16, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w));
    REQUIRE_OK(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
    ndel = 0;
    CHECK_OK(MPI_Win_set_attr(w, wkv[4], IPTR(4)));
    CHECK_OK(MPI_Win_set_attr(w, wkv[3], IPTR(3)));
    CHECK_OK(MPI_Win_set_attr(w, wkv[2], IPTR(2)));
    CHECK_OK(MPI_Win_set_attr(w, wkv[4], IPTR(-4))); /* replace: 4 deleted */
    CHECK_OK(MPI_Win_set_attr(w, wkv[1], IPTR(1)));
    CHECK_OK(MPI_Win_delete_attr(w, wkv[3])); /* 3 deleted */
    MPI_Win wsaved = w;
    CHECK_OK(MPI_Win_free(&w));
    CHECK_EQ_HANDLE(w, MPI_WIN_NULL);
    {
        static const int idx[5] = {4, 3, 1, 4, 2};
        static const intptr_t vals[5] = {4, 3, 1, -4, 2};
        expect_log("window", (void *)wsaved, wkv, 5, idx, vals);
    }

    for (int k = 0; k < NK; k++) {
        CHECK_OK(MPI_Comm_free_keyval(&ckv[k]));
        CHECK_OK(MPI_Type_free_keyval(&tkv[k]));
        CHECK_OK(MPI_Win_free_keyval(&wkv[k]));
    }
    REQUIRE_OK(MPI_Finalize());
    return test_finish("delete_order");
}
