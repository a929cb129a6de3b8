/*
 * C attribute values (attributes.md §3, row "C pointer"): whatever void* is stored by
 * MPI_{Comm,Type,Win}_set_attr or MPI_Attr_put is read back exactly by the C getters, for
 * pointers to locals and to structs, NULL, and integers cast to pointers (negative, small,
 * the extremes of intptr_t). Values on different objects and keyvals are independent;
 * replacing and deleting behave; thousands of attributes on one object.
 */
#include "check.h"

struct payload {
    int a;
    double b;
    char text[16];
};

#define NVALUES 10
#define NMANY 3000

static void *values[NVALUES];

static void fill_values(int *local, struct payload *p)
{
    values[0] = local;
    values[1] = p;
    values[2] = NULL;
    values[3] = IPTR(-7);
    values[4] = IPTR(1);
    values[5] = IPTR(INTPTR_MAX);
    values[6] = IPTR(INTPTR_MIN);
    values[7] = IPTR(-1);
#if UINTPTR_MAX > 0xffffffffu
    values[8] = (void *)(uintptr_t)0x123456789abcdef0u;
    values[9] = IPTR((intptr_t)1 << 40);
#else
    values[8] = (void *)(uintptr_t)0x89abcdefu;
    values[9] = IPTR(0x7fffffff);
#endif
}

static void comm_values(MPI_Comm comm, int kv)
{
    for (int i = 0; i < NVALUES; i++) {
        void *got = SENTINEL_HANDLE(void *);
        int flag = -1;
        CHECK_OK(MPI_Comm_set_attr(comm, kv, values[i]));
        CHECK_OK(MPI_Comm_get_attr(comm, kv, &got, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_PTR(got, values[i]);
        /* The deprecated getter reads the same C view. */
        got = SENTINEL_HANDLE(void *);
        flag = -1;
        CHECK_OK(MPI_Attr_get(comm, kv, &got, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_PTR(got, values[i]);
        /* And what MPI_Attr_put stores, the new getter reads. */
        CHECK_OK(MPI_Attr_put(comm, kv, values[(i + 1) % NVALUES]));
        got = SENTINEL_HANDLE(void *);
        CHECK_OK(MPI_Comm_get_attr(comm, kv, &got, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_PTR(got, values[(i + 1) % NVALUES]);
    }
}

static void type_values(MPI_Datatype type, int kv)
{
    for (int i = 0; i < NVALUES; i++) {
        void *got = SENTINEL_HANDLE(void *);
        int flag = -1;
        CHECK_OK(MPI_Type_set_attr(type, kv, values[i]));
        CHECK_OK(MPI_Type_get_attr(type, kv, &got, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_PTR(got, values[i]);
    }
}

static void win_values(MPI_Win win, int kv)
{
    for (int i = 0; i < NVALUES; i++) {
        void *got = SENTINEL_HANDLE(void *);
        int flag = -1;
        CHECK_OK(MPI_Win_set_attr(win, kv, values[i]));
        CHECK_OK(MPI_Win_get_attr(win, kv, &got, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_PTR(got, values[i]);
    }
}

static int *many_kv;

int main(int argc, char **argv)
{
    test_init(&argc, &argv);

    int local = 41;
    struct payload pl = {7, 2.5, "payload"};
    fill_values(&local, &pl);

    int ckv = MPI_KEYVAL_INVALID, ckv2 = MPI_KEYVAL_INVALID;
    int tkv = MPI_KEYVAL_INVALID, wkv = MPI_KEYVAL_INVALID;
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ckv, NULL));
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ckv2, NULL));
    REQUIRE_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tkv, NULL));
    REQUIRE_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &wkv, NULL));
    CHECK(ckv != ckv2);

    /* Nothing stored yet: flag false. */
    {
        void *got = NULL;
        int flag = -1;
        CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, ckv, &got, &flag));
        CHECK_EQ_INT(flag, 0);
        flag = -1;
        CHECK_OK(MPI_Attr_get(MPI_COMM_SELF, ckv, &got, &flag));
        CHECK_EQ_INT(flag, 0);
        flag = -1;
        CHECK_OK(MPI_Type_get_attr(MPI_INT, tkv, &got, &flag));
        CHECK_EQ_INT(flag, 0);
    }

    MPI_Comm dup;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    comm_values(MPI_COMM_WORLD, ckv);
    comm_values(MPI_COMM_SELF, ckv);
    comm_values(dup, ckv);

    /* A pointer to a struct gives back the struct itself. */
    CHECK_OK(MPI_Comm_set_attr(dup, ckv2, &pl));
    {
        struct payload *p = NULL;
        int flag = 0;
        CHECK_OK(MPI_Comm_get_attr(dup, ckv2, &p, &flag));
        CHECK_EQ_INT(flag, 1);
        REQUIRE(p == &pl);
        p->a = 99;
        CHECK_EQ_INT(pl.a, 99);
        CHECK_EQ_STR(p->text, "payload");
    }

    /* Independence: one keyval, three objects; two keyvals, one object. */
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, ckv, IPTR(1001)));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_SELF, ckv, IPTR(1002)));
    CHECK_OK(MPI_Comm_set_attr(dup, ckv, IPTR(1003)));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, ckv2, IPTR(-2001)));
    {
        void *got;
        int flag;
        CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, ckv, &got, &flag));
        CHECK_EQ_INT(PTRI(got), 1001);
        CHECK_OK(MPI_Comm_get_attr(MPI_COMM_SELF, ckv, &got, &flag));
        CHECK_EQ_INT(PTRI(got), 1002);
        CHECK_OK(MPI_Comm_get_attr(dup, ckv, &got, &flag));
        CHECK_EQ_INT(PTRI(got), 1003);
        CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, ckv2, &got, &flag));
        CHECK_EQ_INT(PTRI(got), -2001);
        CHECK_OK(MPI_Comm_get_attr(dup, ckv2, &got, &flag));
        CHECK_EQ_PTR(got, &pl);
    }

    /* Delete: gone, other objects keep theirs, deleting again is fine (semantics.md). */
    CHECK_OK(MPI_Comm_delete_attr(MPI_COMM_SELF, ckv));
    {
        void *got = NULL;
        int flag = -1;
        CHECK_OK(MPI_Comm_get_attr(MPI_COMM_SELF, ckv, &got, &flag));
        CHECK_EQ_INT(flag, 0);
        CHECK_OK(MPI_Comm_delete_attr(MPI_COMM_SELF, ckv));
        CHECK_OK(MPI_Attr_delete(MPI_COMM_SELF, ckv));
        CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, ckv, &got, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(got), 1001);
        /* Set again after delete. */
        CHECK_OK(MPI_Comm_set_attr(MPI_COMM_SELF, ckv, IPTR(-7)));
        CHECK_OK(MPI_Comm_get_attr(MPI_COMM_SELF, ckv, &got, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(got), -7);
    }

    /* Datatypes: predefined, contiguous, dup. */
    MPI_Datatype contig, tdup;
    REQUIRE_OK(MPI_Type_contiguous(3, MPI_DOUBLE, &contig));
    REQUIRE_OK(MPI_Type_commit(&contig));
    REQUIRE_OK(MPI_Type_dup(MPI_INT, &tdup));
    type_values(MPI_INT, tkv);
    type_values(MPI_BYTE, tkv);
    type_values(contig, tkv);
    type_values(tdup, tkv);
    CHECK_OK(MPI_Type_set_attr(MPI_INT, tkv, IPTR(-31)));
    CHECK_OK(MPI_Type_set_attr(contig, tkv, &pl));
    {
        void *got;
        int flag;
        CHECK_OK(MPI_Type_get_attr(MPI_INT, tkv, &got, &flag));
        CHECK_EQ_INT(PTRI(got), -31);
        CHECK_OK(MPI_Type_get_attr(contig, tkv, &got, &flag));
        CHECK_EQ_PTR(got, &pl);
        CHECK_OK(MPI_Type_delete_attr(MPI_INT, tkv));
        flag = -1;
        CHECK_OK(MPI_Type_get_attr(MPI_INT, tkv, &got, &flag));
        CHECK_EQ_INT(flag, 0);
        CHECK_OK(MPI_Type_delete_attr(MPI_INT, tkv));
        CHECK_OK(MPI_Type_get_attr(MPI_BYTE, tkv, &got, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_OK(MPI_Type_delete_attr(MPI_BYTE, tkv));
    }

    /* Windows. */
    int buf[4] = {0};
    MPI_Win win;
    REQUIRE_OK(MPI_Win_create(buf, (MPI_Aint)sizeof buf, (int)sizeof(int), MPI_INFO_NULL,
                              MPI_COMM_WORLD, &win));
    REQUIRE_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    win_values(win, wkv);
    CHECK_OK(MPI_Win_delete_attr(win, wkv));
    {
        void *got;
        int flag = -1;
        CHECK_OK(MPI_Win_get_attr(win, wkv, &got, &flag));
        CHECK_EQ_INT(flag, 0);
        CHECK_OK(MPI_Win_delete_attr(win, wkv));
    }

    /* Thousands of attributes on one object, each read back. */
    many_kv = malloc(sizeof(int) * NMANY);
    REQUIRE(many_kv != NULL);
    for (int i = 0; i < NMANY; i++) {
        REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN,
                                          &many_kv[i], NULL));
        CHECK_OK(MPI_Comm_set_attr(dup, many_kv[i], IPTR((intptr_t)i * 7919 - 5)));
    }
    for (int i = 0; i < NMANY; i++) {
        void *got = NULL;
        int flag = 0;
        CHECK_OK(MPI_Comm_get_attr(dup, many_kv[i], &got, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(got), (intptr_t)i * 7919 - 5);
        if (i % 2 == 0)
            CHECK_OK(MPI_Comm_delete_attr(dup, many_kv[i]));
    }
    for (int i = 0; i < NMANY; i++) {
        void *got = NULL;
        int flag = -1;
        CHECK_OK(MPI_Comm_get_attr(dup, many_kv[i], &got, &flag));
        CHECK_EQ_INT(flag, i % 2);
        if (i % 2)
            CHECK_EQ_INT(PTRI(got), (intptr_t)i * 7919 - 5);
    }
    for (int i = 0; i < NMANY; i++)
        CHECK_OK(MPI_Comm_free_keyval(&many_kv[i]));
    free(many_kv);

    CHECK_OK(MPI_Win_free(&win));
    CHECK_EQ_HANDLE(win, MPI_WIN_NULL);
    CHECK_OK(MPI_Type_free(&contig));
    CHECK_OK(MPI_Type_free(&tdup));
    CHECK_OK(MPI_Comm_free(&dup));
    CHECK_EQ_HANDLE(dup, MPI_COMM_NULL);
    CHECK_OK(MPI_Comm_free_keyval(&ckv));
    CHECK_OK(MPI_Comm_free_keyval(&ckv2));
    CHECK_OK(MPI_Type_free_keyval(&tkv));
    CHECK_OK(MPI_Win_free_keyval(&wkv));
    CHECK_EQ_INT(ckv, MPI_KEYVAL_INVALID);
    CHECK_EQ_INT(tkv, MPI_KEYVAL_INVALID);
    CHECK_EQ_INT(wkv, MPI_KEYVAL_INVALID);

    REQUIRE_OK(MPI_Finalize());
    return test_finish("attr_values");
}
