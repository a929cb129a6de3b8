/*
 * Re-entrant callbacks (attributes.md §4 last rule, semantics.md "Attributes"):
 *  - a delete callback that deletes its sibling attributes on the communicator being freed:
 *    each sibling's delete callback runs exactly once;
 *  - MPI_Comm_get_attr of a sibling (and of the attribute itself) inside a delete callback;
 *  - deleting the attribute whose delete callback is running: succeeds, does nothing;
 *  - a keyval freed inside its own delete callback;
 *  - a delete callback that sets a new attribute on the object being freed: deleted too;
 *  - a value set inside its own delete callback replaces the value being deleted;
 *  - freeing the object inside its own delete callback during its free: MPI_ERR_COMM;
 *  - a copy callback that reads, sets and deletes other attributes of the source and dups
 *    (and frees) another communicator;
 *  - the same sibling deletion on datatypes and windows.
 */
#include "check.h"

#define NS 4
static int sib_kv[NS];
static int sib_calls[NS];
static int sib_idx[NS] = {0, 1, 2, 3};
static int killer_kv;
static int killer_calls;

static int sib_del(MPI_Comm c, int kv, void *v, void *extra)
{
    (void)c, (void)kv, (void)v;
    sib_calls[*(int *)extra]++;
    return MPI_SUCCESS;
}

/* Deletes every sibling on the comm being freed, and tries to delete itself. */
static int killer_del(MPI_Comm c, int kv, void *v, void *extra)
{
    (void)v, (void)extra;
    killer_calls++;
    for (int i = 0; i < NS; i++)
        CHECK_OK(MPI_Comm_delete_attr(c, sib_kv[i]));
    /* the attribute being deleted: succeeds and does nothing (semantics.md) */
    CHECK_OK(MPI_Comm_delete_attr(c, kv));
    return MPI_SUCCESS;
}

/* Reads a sibling and itself during the free. */
static int reader_kv, reader_calls, reader_saw_sibling, reader_saw_self;
static intptr_t reader_sibling_value, reader_self_value;
static int reader_del(MPI_Comm c, int kv, void *v, void *extra)
{
    (void)v, (void)extra;
    reader_calls++;
    void *got = NULL;
    int flag = -1;
    CHECK_OK(MPI_Comm_get_attr(c, sib_kv[0], &got, &flag));
    reader_saw_sibling = flag;
    reader_sibling_value = PTRI(got);
    flag = -1;
    CHECK_OK(MPI_Comm_get_attr(c, kv, &got, &flag));
    reader_saw_self = flag;
    reader_self_value = PTRI(got);
    /* other queries on the object being freed work too */
    int size = -1;
    CHECK_OK(MPI_Comm_size(c, &size));
    CHECK_EQ_INT(size, 1);
    return MPI_SUCCESS;
}

/* Frees its own keyval. */
static int selfkv, selfkv_calls, selfkv_after;
static int selffree_del(MPI_Comm c, int kv, void *v, void *extra)
{
    (void)c, (void)v, (void)extra;
    selfkv_calls++;
    CHECK_EQ_INT(kv, selfkv);
    CHECK_OK(MPI_Comm_free_keyval(&selfkv));
    selfkv_after = selfkv;
    return MPI_SUCCESS;
}

/* Sets a sibling attribute on the object being freed (once). */
static int setter_kv, setter_calls;
static int setter_del(MPI_Comm c, int kv, void *v, void *extra)
{
    (void)kv, (void)v, (void)extra;
    setter_calls++;
    CHECK_OK(MPI_Comm_set_attr(c, sib_kv[3], IPTR(333)));
    return MPI_SUCCESS;
}

/* Sets its own keyval again inside its delete callback (only for the first value). */
static int again_kv, again_calls;
static intptr_t again_values[4];
static int again_del(MPI_Comm c, int kv, void *v, void *extra)
{
    (void)extra;
    if (again_calls < 4)
        again_values[again_calls] = PTRI(v);
    again_calls++;
    if (PTRI(v) == 1)
        CHECK_OK(MPI_Comm_set_attr(c, kv, IPTR(2)));
    return MPI_SUCCESS;
}

/* Frees the comm being freed, from inside its free. */
static int suicide_kv, suicide_calls;
static int suicide_del(MPI_Comm c, int kv, void *v, void *extra)
{
    (void)kv, (void)v, (void)extra;
    suicide_calls++;
    MPI_Comm copy = c;
    CHECK_RC(MPI_Comm_free(&copy), MPI_ERR_COMM);
    CHECK_EQ_HANDLE(copy, c);
    return MPI_SUCCESS;
}

/* Copy callback that reads, sets and deletes other attributes of the source and dups WORLD. */
static int busy_kv, busy_calls, aux_kv, gone_kv, gone_calls, read_kv;
static intptr_t busy_read;
static int busy_copy(MPI_Comm c, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)kv, (void)extra;
    busy_calls++;
    void *got = NULL;
    int f = -1;
    CHECK_OK(MPI_Comm_get_attr(c, read_kv, &got, &f));
    CHECK_EQ_INT(f, 1);
    busy_read = PTRI(got);
    CHECK_OK(MPI_Comm_set_attr(c, aux_kv, IPTR(555)));
    CHECK_OK(MPI_Comm_delete_attr(c, gone_kv));
    MPI_Comm other;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &other));
    int r = -1;
    CHECK_OK(MPI_Comm_rank(other, &r));
    CHECK_EQ_INT(r, 0);
    CHECK_OK(MPI_Comm_free(&other));
    *(void **)out = IPTR(PTRI(in) * 10);
    *flag = 1;
    return MPI_SUCCESS;
}
static int gone_del(MPI_Comm c, int kv, void *v, void *extra)
{
    (void)c, (void)kv, (void)v, (void)extra;
    gone_calls++;
    return MPI_SUCCESS;
}

/* Datatype and window siblings. */
static int tsib[3], tsib_calls[3], tkiller;
static int tsib_del(MPI_Datatype t, int kv, void *v, void *extra)
{
    (void)t, (void)kv, (void)v;
    tsib_calls[*(int *)extra]++;
    return MPI_SUCCESS;
}
static int tkiller_del(MPI_Datatype t, int kv, void *v, void *extra)
{
    (void)kv, (void)v, (void)extra;
    for (int i = 0; i < 3; i++)
        CHECK_OK(MPI_Type_delete_attr(t, tsib[i]));
    return MPI_SUCCESS;
}
static int wsib[3], wsib_calls[3], wkiller;
static int wsib_del(MPI_Win w, int kv, void *v, void *extra)
{
    (void)w, (void)kv, (void)v;
    wsib_calls[*(int *)extra]++;
    return MPI_SUCCESS;
}
static int wkiller_del(MPI_Win w, int kv, void *v, void *extra)
{
    (void)kv, (void)v, (void)extra;
    for (int i = 0; i < 3; i++)
        CHECK_OK(MPI_Win_delete_attr(w, wsib[i]));
    return MPI_SUCCESS;
}

static void reset_sib(void) { memset(sib_calls, 0, sizeof sib_calls); }

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    for (int i = 0; i < NS; i++)
        REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, sib_del, &sib_kv[i], &sib_idx[i]));
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, killer_del, &killer_kv, NULL));

    /* 1a. The killer is newest: it runs first on free and deletes the siblings. */
    {
        MPI_Comm c;
        REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        for (int i = 0; i < NS; i++)
            CHECK_OK(MPI_Comm_set_attr(c, sib_kv[i], IPTR(i)));
        CHECK_OK(MPI_Comm_set_attr(c, killer_kv, NULL));
        reset_sib();
        killer_calls = 0;
        CHECK_OK(MPI_Comm_free(&c));
        CHECK_EQ_HANDLE(c, MPI_COMM_NULL);
        CHECK_EQ_INT(killer_calls, 1);
        for (int i = 0; i < NS; i++)
            CHECK_MSG(sib_calls[i] == 1, "killer newest: sibling %d deleted %d times", i, sib_calls[i]);
    }
    /* 1b. The killer is oldest and in the middle: each sibling still deleted once. */
    {
        MPI_Comm c;
        REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        CHECK_OK(MPI_Comm_set_attr(c, sib_kv[0], IPTR(0)));
        CHECK_OK(MPI_Comm_set_attr(c, killer_kv, NULL));
        CHECK_OK(MPI_Comm_set_attr(c, sib_kv[1], IPTR(1)));
        CHECK_OK(MPI_Comm_set_attr(c, sib_kv[2], IPTR(2)));
        reset_sib();
        killer_calls = 0;
        CHECK_OK(MPI_Comm_free(&c));
        CHECK_EQ_INT(killer_calls, 1);
        CHECK_EQ_INT(sib_calls[0], 1);
        CHECK_EQ_INT(sib_calls[1], 1);
        CHECK_EQ_INT(sib_calls[2], 1);
        CHECK_EQ_INT(sib_calls[3], 0);
    }
    /* 1c. Through delete_attr (not free). */
    {
        MPI_Comm c;
        REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        for (int i = 0; i < NS; i++)
            CHECK_OK(MPI_Comm_set_attr(c, sib_kv[i], IPTR(i)));
        CHECK_OK(MPI_Comm_set_attr(c, killer_kv, NULL));
        reset_sib();
        killer_calls = 0;
        CHECK_OK(MPI_Comm_delete_attr(c, killer_kv));
        CHECK_EQ_INT(killer_calls, 1);
        for (int i = 0; i < NS; i++) {
            CHECK_EQ_INT(sib_calls[i], 1);
            void *v;
            int flag = -1;
            CHECK_OK(MPI_Comm_get_attr(c, sib_kv[i], &v, &flag));
            CHECK_EQ_INT(flag, 0);
        }
        void *v;
        int flag = -1;
        CHECK_OK(MPI_Comm_get_attr(c, killer_kv, &v, &flag));
        CHECK_EQ_INT(flag, 0);
        reset_sib();
        CHECK_OK(MPI_Comm_free(&c));
        for (int i = 0; i < NS; i++)
            CHECK_EQ_INT(sib_calls[i], 0);
    }

    /* 2. Reading a sibling and itself inside a delete callback during free. */
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, reader_del, &reader_kv, NULL));
    {
        MPI_Comm c;
        REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        CHECK_OK(MPI_Comm_set_attr(c, sib_kv[0], IPTR(1234))); /* older: still there */
        CHECK_OK(MPI_Comm_set_attr(c, reader_kv, IPTR(4321)));
        reset_sib();
        CHECK_OK(MPI_Comm_free(&c));
        CHECK_EQ_INT(reader_calls, 1);
        CHECK_EQ_INT(reader_saw_sibling, 1);
        CHECK_EQ_INT(reader_sibling_value, 1234);
        CHECK_EQ_INT(reader_saw_self, 1);
        CHECK_EQ_INT(reader_self_value, 4321);
        CHECK_EQ_INT(sib_calls[0], 1);
    }

    /* 3. A keyval freed inside its own delete callback. */
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, selffree_del, &selfkv, NULL));
    {
        int saved = selfkv;
        MPI_Comm c;
        REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        CHECK_OK(MPI_Comm_set_attr(c, selfkv, IPTR(9)));
        CHECK_OK(MPI_Comm_delete_attr(c, saved));
        CHECK_EQ_INT(selfkv_calls, 1);
        CHECK_EQ_INT(selfkv_after, MPI_KEYVAL_INVALID);
        CHECK_EQ_INT(selfkv, MPI_KEYVAL_INVALID);
        void *v;
        int flag;
        /* its last attribute is gone: the keyval is gone */
        CHECK_RC(MPI_Comm_get_attr(c, saved, &v, &flag), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Comm_set_attr(c, saved, IPTR(1)), MPI_ERR_KEYVAL);
        CHECK_OK(MPI_Comm_free(&c));
        CHECK_EQ_INT(selfkv_calls, 1);
    }
    /* 3b. ... during the free of the object, with the keyval used on two objects. */
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, selffree_del, &selfkv, NULL));
    {
        int saved = selfkv;
        selfkv_calls = 0;
        MPI_Comm c, d;
        REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
        CHECK_OK(MPI_Comm_set_attr(c, saved, IPTR(1)));
        CHECK_OK(MPI_Comm_set_attr(d, saved, IPTR(2)));
        CHECK_OK(MPI_Comm_free(&c));
        CHECK_EQ_INT(selfkv_calls, 1);
        CHECK_EQ_INT(selfkv, MPI_KEYVAL_INVALID);
        void *v = NULL;
        int flag = -1;
        CHECK_OK(MPI_Comm_get_attr(d, saved, &v, &flag)); /* still used by d */
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(v), 2);
        /* the second callback frees the (already freed) keyval again: succeeds since d's
           attribute is still attached while its callback runs */
        selfkv = saved;
        CHECK_OK(MPI_Comm_free(&d));
        CHECK_EQ_INT(selfkv_calls, 2);
        CHECK_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, saved, &v, &flag), MPI_ERR_KEYVAL);
    }

    /* 4. A delete callback that sets a new attribute on the object being freed. */
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, setter_del, &setter_kv, NULL));
    {
        MPI_Comm c;
        REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        CHECK_OK(MPI_Comm_set_attr(c, setter_kv, NULL));
        reset_sib();
        CHECK_OK(MPI_Comm_free(&c));
        CHECK_EQ_HANDLE(c, MPI_COMM_NULL);
        CHECK_EQ_INT(setter_calls, 1);
        CHECK_MSG(sib_calls[3] == 1, "attribute set during free: deleted %d times, expected 1",
                  sib_calls[3]);
    }

    /* 5. A value set inside its own delete callback replaces the value being deleted. */
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, again_del, &again_kv, NULL));
    {
        MPI_Comm c;
        REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        CHECK_OK(MPI_Comm_set_attr(c, again_kv, IPTR(1)));
        CHECK_OK(MPI_Comm_delete_attr(c, again_kv));
        CHECK_EQ_INT(again_calls, 1);
        void *v = NULL;
        int flag = -1;
        CHECK_OK(MPI_Comm_get_attr(c, again_kv, &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(v), 2);
        CHECK_OK(MPI_Comm_free(&c));
        CHECK_EQ_INT(again_calls, 2);
        CHECK_EQ_INT(again_values[0], 1);
        CHECK_EQ_INT(again_values[1], 2);
    }

    /* 6. Freeing the object inside its own delete callback during its free. */
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, suicide_del, &suicide_kv, NULL));
    {
        MPI_Comm c;
        REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        CHECK_OK(MPI_Comm_set_attr(c, suicide_kv, NULL));
        CHECK_OK(MPI_Comm_free(&c));
        CHECK_EQ_HANDLE(c, MPI_COMM_NULL);
        CHECK_EQ_INT(suicide_calls, 1);
    }

    /* 7. A busy copy callback. */
    REQUIRE_OK(MPI_Comm_create_keyval(busy_copy, MPI_COMM_NULL_DELETE_FN, &busy_kv, NULL));
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &aux_kv, NULL));
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, gone_del, &gone_kv, NULL));
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &read_kv, NULL));
    {
        MPI_Comm src, dst;
        REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &src));
        CHECK_OK(MPI_Comm_set_attr(src, read_kv, IPTR(-8)));
        CHECK_OK(MPI_Comm_set_attr(src, gone_kv, IPTR(66)));
        CHECK_OK(MPI_Comm_set_attr(src, busy_kv, IPTR(7)));
        CHECK_OK(MPI_Comm_dup(src, &dst));
        CHECK_EQ_INT(busy_calls, 1);
        CHECK_EQ_INT(busy_read, -8);
        CHECK_EQ_INT(gone_calls, 1);
        void *v = NULL;
        int flag = -1;
        CHECK_OK(MPI_Comm_get_attr(dst, busy_kv, &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(v), 70);
        CHECK_OK(MPI_Comm_get_attr(dst, read_kv, &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(v), -8);
        CHECK_OK(MPI_Comm_get_attr(dst, gone_kv, &v, &flag));
        CHECK_EQ_INT(flag, 0);
        CHECK_OK(MPI_Comm_get_attr(dst, aux_kv, &v, &flag));
        CHECK_EQ_INT(flag, 0);
        /* the source got aux and lost gone */
        CHECK_OK(MPI_Comm_get_attr(src, aux_kv, &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(v), 555);
        CHECK_OK(MPI_Comm_get_attr(src, gone_kv, &v, &flag));
        CHECK_EQ_INT(flag, 0);
        CHECK_OK(MPI_Comm_free(&dst));
        CHECK_OK(MPI_Comm_free(&src));
        CHECK_EQ_INT(gone_calls, 1);
    }

    /* 8. Datatypes and windows: sibling deletion during free. */
    {
        static int ti[3] = {0, 1, 2};
        for (int i = 0; i < 3; i++) {
            REQUIRE_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, tsib_del, &tsib[i], &ti[i]));
            REQUIRE_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, wsib_del, &wsib[i], &ti[i]));
        }
        REQUIRE_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, tkiller_del, &tkiller, NULL));
        REQUIRE_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, wkiller_del, &wkiller, NULL));
        MPI_Datatype t;
        REQUIRE_OK(MPI_Type_contiguous(5, MPI_CHAR, &t));
        CHECK_OK(MPI_Type_set_attr(t, tsib[0], NULL));
        CHECK_OK(MPI_Type_set_attr(t, tkiller, NULL));
        CHECK_OK(MPI_Type_set_attr(t, tsib[1], NULL));
        CHECK_OK(MPI_Type_set_attr(t, tsib[2], NULL));
        CHECK_OK(MPI_Type_free(&t));
        CHECK_EQ_HANDLE(t, MPI_DATATYPE_NULL);
        for (int i = 0; i < 3; i++)
            CHECK_MSG(tsib_calls[i] == 1, "datatype sibling %d deleted %d times", i, tsib_calls[i]);

        MPI_Win w;
        void *base;
        REQUIRE_OK(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_SELF, &base, &w));
        REQUIRE_OK(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
        CHECK_OK(MPI_Win_set_attr(w, wsib[0], NULL));
        CHECK_OK(MPI_Win_set_attr(w, wsib[1], NULL));
        CHECK_OK(MPI_Win_set_attr(w, wkiller, NULL));
        CHECK_OK(MPI_Win_set_attr(w, wsib[2], NULL));
        CHECK_OK(MPI_Win_free(&w));
        CHECK_EQ_HANDLE(w, MPI_WIN_NULL);
        for (int i = 0; i < 3; i++)
            CHECK_MSG(wsib_calls[i] == 1, "window sibling %d deleted %d times", i, wsib_calls[i]);
    }

    REQUIRE_OK(MPI_Finalize());
    return test_finish("reentrant");
}
