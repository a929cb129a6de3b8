/*
 * A copy callback failing at attribute k of n (attributes.md §5 "A failed dup") on MPI_Comm_dup,
 * MPI_Comm_dup_with_info, MPI_Comm_idup and MPI_Type_dup: the call returns the callback's
 * code when it is a valid MPI error class, else MPI_ERR_OTHER; the new handle is
 * MPI_COMM_NULL / MPI_DATATYPE_NULL; every copy already made was deleted with its delete
 * callback (exactly once, on the new object, with the copied value), the failing attribute's
 * delete callback did not run for the new object; the source is unchanged (every attribute
 * readable with its value, no delete callback ran on it) and a later dup succeeds.
 */
#include "check.h"

#define N 5
#define LOGN 64

static int fail_at = -1;  /* index of the attribute whose copy fails, -1: none */
static int fail_code;     /* what the failing callback returns */
static int copied[N];     /* copy callbacks that produced a value */
static int deleted[N];    /* delete callbacks on objects other than the source */
static int deleted_src[N];
static intptr_t deleted_value[N];
static void *src_obj;     /* the source object */
static void *copy_obj;    /* the object the copies went to (from the delete callbacks) */
static int bad_obj;

/* extra_state is a pointer to the index (0..N-1). */
static int idx_of(void *extra) { return *(int *)extra; }

static int comm_copy(MPI_Comm c, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)kv;
    int i = idx_of(extra);
    if ((void *)c != src_obj)
        bad_obj++;
    if (i == fail_at) {
        *flag = 0;
        return fail_code;
    }
    copied[i]++;
    *(void **)out = IPTR(PTRI(in) + 1000);
    *flag = 1;
    return MPI_SUCCESS;
}

static int comm_del(MPI_Comm c, int kv, void *v, void *extra)
{
    (void)kv;
    int i = idx_of(extra);
    if ((void *)c == src_obj) {
        deleted_src[i]++;
    } else {
        deleted[i]++;
        deleted_value[i] = PTRI(v);
        if (copy_obj == NULL)
            copy_obj = (void *)c;
        else if (copy_obj != (void *)c)
            bad_obj++;
    }
    return MPI_SUCCESS;
}

static int type_copy(MPI_Datatype t, int kv, void *extra, void *in, void *out, int *flag)
{
    return comm_copy((MPI_Comm)(void *)t, kv, extra, in, out, flag);
}

static int type_del(MPI_Datatype t, int kv, void *v, void *extra)
{
    return comm_del((MPI_Comm)(void *)t, kv, v, extra);
}

static int idx[N] = {0, 1, 2, 3, 4};
static int ckv[N], tkv[N], cdupkv, tdupkv;

static void reset(void)
{
    memset(copied, 0, sizeof copied);
    memset(deleted, 0, sizeof deleted);
    memset(deleted_src, 0, sizeof deleted_src);
    memset(deleted_value, 0, sizeof deleted_value);
    copy_obj = NULL;
    bad_obj = 0;
}

/* After a failed dup: every copy made was deleted once, with the copied value; nothing
   happened to the source. */
static void check_rollback(const char *what, int k)
{
    for (int i = 0; i < N; i++) {
        CHECK_MSG(deleted_src[i] == 0, "%s (fail at %d): delete callback %d ran on the source",
                  what, k, i);
        CHECK_MSG(deleted[i] == copied[i],
                  "%s (fail at %d): attribute %d copied %d time(s) but deleted %d time(s)", what,
                  k, i, copied[i], deleted[i]);
        if (deleted[i])
            CHECK_MSG(deleted_value[i] == 1000 + 10 * i,
                      "%s (fail at %d): delete %d got %ld, expected the copied value %d", what, k,
                      i, (long)deleted_value[i], 1000 + 10 * i);
    }
    for (int i = 0; i < k; i++)
        CHECK_MSG(copied[i] == 1, "%s (fail at %d): attribute %d (set before the failing one) "
                                  "copied %d times, expected 1", what, k, i, copied[i]);
    CHECK_MSG(copied[k] == 0, "%s (fail at %d): failing attribute counted as copied", what, k);
    CHECK_MSG(bad_obj == 0, "%s (fail at %d): callbacks got unexpected object handles", what, k);
    CHECK_MSG(copy_obj != src_obj, "%s: copies deleted from the source object", what);
}

static void comm_source_intact(MPI_Comm src, const char *what)
{
    for (int i = 0; i < N; i++) {
        void *v = NULL;
        int flag = -1;
        CHECK_OK(MPI_Comm_get_attr(src, ckv[i], &v, &flag));
        CHECK_MSG(flag == 1 && PTRI(v) == 10 * i, "%s: source attribute %d: flag %d value %ld",
                  what, i, flag, (long)PTRI(v));
    }
    void *v = NULL;
    int flag = -1;
    CHECK_OK(MPI_Comm_get_attr(src, cdupkv, &v, &flag));
    CHECK_MSG(flag == 1 && PTRI(v) == 77, "%s: source DUP_FN attribute: flag %d", what, flag);
    int size = -1, world = -2;
    CHECK_OK(MPI_Comm_size(src, &size));
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &world));
    CHECK_EQ_INT(size, world);
}

static void type_source_intact(MPI_Datatype src, const char *what)
{
    for (int i = 0; i < N; i++) {
        void *v = NULL;
        int flag = -1;
        CHECK_OK(MPI_Type_get_attr(src, tkv[i], &v, &flag));
        CHECK_MSG(flag == 1 && PTRI(v) == 10 * i, "%s: source attribute %d: flag %d value %ld",
                  what, i, flag, (long)PTRI(v));
    }
    int size = -1;
    CHECK_OK(MPI_Type_size(src, &size));
    CHECK_EQ_INT(size, 3 * (int)sizeof(int));
}

/* codes to return, and the class the call must then fail with */
static const int codes[][2] = {
    {MPI_ERR_NAME, MPI_ERR_NAME},
    {MPI_ERR_KEYVAL, MPI_ERR_KEYVAL},
    {MPI_ERR_OTHER, MPI_ERR_OTHER},
#ifdef MPI_ERR_ABI /* MPI-5.0's class: absent from MPI-4.1 headers */
    {MPI_ERR_ABI, MPI_ERR_ABI},
#endif
    {123456, MPI_ERR_OTHER},
    {-1, MPI_ERR_OTHER},
    {MPI_ERR_LASTCODE + 1, MPI_ERR_OTHER},
};
#define NCODES ((int)(sizeof codes / sizeof codes[0]))

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    for (int i = 0; i < N; i++) {
        REQUIRE_OK(MPI_Comm_create_keyval(comm_copy, comm_del, &ckv[i], &idx[i]));
        REQUIRE_OK(MPI_Type_create_keyval(type_copy, type_del, &tkv[i], &idx[i]));
    }
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &cdupkv, NULL));
    REQUIRE_OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &tdupkv, NULL));

    MPI_Comm src;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &src));
    src_obj = (void *)src;
    /* set order = index order; a DUP_FN attribute in the middle */
    for (int i = 0; i < N; i++) {
        REQUIRE_OK(MPI_Comm_set_attr(src, ckv[i], IPTR(10 * i)));
        if (i == 2)
            REQUIRE_OK(MPI_Comm_set_attr(src, cdupkv, IPTR(77)));
    }

    for (int k = 0; k < N; k++) {
        for (int c = 0; c < NCODES; c++) {
            char what[96];
            fail_at = k;
            fail_code = codes[c][0];
            int variant = (k * NCODES + c) % 3;

            reset();
            MPI_Comm nc = SENTINEL_HANDLE(MPI_Comm);
            if (variant == 0) {
                snprintf(what, sizeof what, "MPI_Comm_dup, code %d", fail_code);
                CHECK_RC(MPI_Comm_dup(src, &nc), codes[c][1]);
            } else if (variant == 1) {
                snprintf(what, sizeof what, "MPI_Comm_dup_with_info, code %d", fail_code);
                CHECK_RC(MPI_Comm_dup_with_info(src, MPI_INFO_NULL, &nc), codes[c][1]);
            } else {
                snprintf(what, sizeof what, "MPI_Comm_idup, code %d", fail_code);
                MPI_Request req = MPI_REQUEST_NULL;
                CHECK_RC(MPI_Comm_idup(src, &nc, &req), codes[c][1]);
            }
            CHECK_MSG(nc == MPI_COMM_NULL, "%s (fail at %d): new handle %p, expected MPI_COMM_NULL",
                      what, k, (void *)nc);
            check_rollback(what, k);
            comm_source_intact(src, what);
        }
    }

    /* Without failure, the dup works and copies everything. */
    fail_at = -1;
    reset();
    MPI_Comm good;
    CHECK_OK(MPI_Comm_dup(src, &good));
    for (int i = 0; i < N; i++) {
        CHECK_EQ_INT(copied[i], 1);
        void *v = NULL;
        int flag = -1;
        CHECK_OK(MPI_Comm_get_attr(good, ckv[i], &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(v), 1000 + 10 * i);
    }
    reset();
    CHECK_OK(MPI_Comm_free(&good));
    for (int i = 0; i < N; i++)
        CHECK_EQ_INT(deleted[i], 1);

    /* Datatypes. */
    MPI_Datatype tsrc;
    REQUIRE_OK(MPI_Type_contiguous(3, MPI_INT, &tsrc));
    src_obj = (void *)tsrc;
    for (int i = 0; i < N; i++) {
        REQUIRE_OK(MPI_Type_set_attr(tsrc, tkv[i], IPTR(10 * i)));
        if (i == 1)
            REQUIRE_OK(MPI_Type_set_attr(tsrc, tdupkv, IPTR(78)));
    }
    for (int k = 0; k < N; k++) {
        for (int c = 0; c < NCODES; c++) {
            char what[96];
            snprintf(what, sizeof what, "MPI_Type_dup, code %d", codes[c][0]);
            fail_at = k;
            fail_code = codes[c][0];
            reset();
            MPI_Datatype nt = SENTINEL_HANDLE(MPI_Datatype);
            CHECK_RC(MPI_Type_dup(tsrc, &nt), codes[c][1]);
            CHECK_MSG(nt == MPI_DATATYPE_NULL,
                      "%s (fail at %d): new handle %p, expected MPI_DATATYPE_NULL", what, k,
                      (void *)nt);
            check_rollback(what, k);
            type_source_intact(tsrc, what);
        }
    }
    /* Dup of a predefined datatype failing. */
    src_obj = (void *)MPI_INT;
    CHECK_OK(MPI_Type_set_attr(MPI_INT, tkv[0], IPTR(0)));
    CHECK_OK(MPI_Type_set_attr(MPI_INT, tkv[1], IPTR(10)));
    fail_at = 1;
    fail_code = MPI_ERR_TYPE;
    reset();
    {
        MPI_Datatype nt = SENTINEL_HANDLE(MPI_Datatype);
        CHECK_RC(MPI_Type_dup(MPI_INT, &nt), MPI_ERR_TYPE);
        CHECK_EQ_HANDLE(nt, MPI_DATATYPE_NULL);
        CHECK_EQ_INT(copied[0], 1);
        CHECK_EQ_INT(deleted[0], 1);
        CHECK_EQ_INT(deleted_src[0] + deleted_src[1], 0);
        void *v;
        int flag = -1;
        CHECK_OK(MPI_Type_get_attr(MPI_INT, tkv[1], &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(v), 10);
    }
    fail_at = -1;
    CHECK_OK(MPI_Type_delete_attr(MPI_INT, tkv[0]));
    CHECK_OK(MPI_Type_delete_attr(MPI_INT, tkv[1]));

    src_obj = (void *)tsrc;
    reset();
    MPI_Datatype tgood;
    CHECK_OK(MPI_Type_dup(tsrc, &tgood));
    for (int i = 0; i < N; i++)
        CHECK_EQ_INT(copied[i], 1);
    {
        void *v = NULL;
        int flag = -1;
        CHECK_OK(MPI_Type_get_attr(tgood, tdupkv, &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(v), 78);
    }
    CHECK_OK(MPI_Type_free(&tgood));

    /* Free the sources: each delete callback exactly once, on the source. */
    src_obj = (void *)src;
    reset();
    CHECK_OK(MPI_Comm_free(&src));
    for (int i = 0; i < N; i++)
        CHECK_EQ_INT(deleted_src[i], 1);
    src_obj = (void *)tsrc;
    reset();
    CHECK_OK(MPI_Type_free(&tsrc));
    for (int i = 0; i < N; i++)
        CHECK_EQ_INT(deleted_src[i], 1);

    for (int i = 0; i < N; i++) {
        CHECK_OK(MPI_Comm_free_keyval(&ckv[i]));
        CHECK_OK(MPI_Type_free_keyval(&tkv[i]));
    }
    CHECK_OK(MPI_Comm_free_keyval(&cdupkv));
    CHECK_OK(MPI_Type_free_keyval(&tdupkv));
    REQUIRE_OK(MPI_Finalize());
    return test_finish("fail_copy");
}
