/*
 * Failing delete callbacks (attributes.md §5): in *_delete_attr and in *_set_attr over an existing
 * value the call fails with the callback's code (or MPI_ERR_OTHER for a code that is not an
 * error class) and the old value stays. During MPI_Comm_free / MPI_Type_free / MPI_Win_free
 * every other delete callback is still tried (once), the failed attributes stay attached and
 * readable, the handle stays valid (not set to the null handle) and the object usable; a retry
 * after making the callback succeed finishes the free and sets the handle to null.
 */
#include "check.h"

#define N 5

/* Per-attribute behaviour: the callback returns fail_code[i] (MPI_SUCCESS to succeed). */
static int fail_code[N];
static int calls[N];
static intptr_t last_value[N];
static int idx[N] = {0, 1, 2, 3, 4};

static int del_common(void *extra, void *value)
{
    int i = *(int *)extra;
    calls[i]++;
    last_value[i] = PTRI(value);
    return fail_code[i];
}

static int comm_del(MPI_Comm c, int kv, void *v, void *extra)
{
    (void)c, (void)kv;
    return del_common(extra, v);
}
static int type_del(MPI_Datatype t, int kv, void *v, void *extra)
{
    (void)t, (void)kv;
    return del_common(extra, v);
}
static int win_del(MPI_Win w, int kv, void *v, void *extra)
{
    (void)w, (void)kv;
    return del_common(extra, v);
}

static void reset(void)
{
    memset(calls, 0, sizeof calls);
    memset(fail_code, 0, sizeof fail_code);
}

static int ckv[N], tkv[N], wkv[N];

/* Generic accessors so one scenario runs on the three kinds. */
enum kind { COMM, TYPE, WIN };
static const char *const kind_name[] = {"comm", "type", "win"};

static int get_attr(enum kind k, void *obj, int i, void *v, int *flag)
{
    switch (k) {
    case COMM:
        return MPI_Comm_get_attr((MPI_Comm)obj, ckv[i], v, flag);
    case TYPE:
        return MPI_Type_get_attr((MPI_Datatype)obj, tkv[i], v, flag);
    default:
        return MPI_Win_get_attr((MPI_Win)obj, wkv[i], v, flag);
    }
}
static int set_attr(enum kind k, void *obj, int i, void *v)
{
    switch (k) {
    case COMM:
        return MPI_Comm_set_attr((MPI_Comm)obj, ckv[i], v);
    case TYPE:
        return MPI_Type_set_attr((MPI_Datatype)obj, tkv[i], v);
    default:
        return MPI_Win_set_attr((MPI_Win)obj, wkv[i], v);
    }
}
static int delete_attr(enum kind k, void *obj, int i)
{
    switch (k) {
    case COMM:
        return MPI_Comm_delete_attr((MPI_Comm)obj, ckv[i]);
    case TYPE:
        return MPI_Type_delete_attr((MPI_Datatype)obj, tkv[i]);
    default:
        return MPI_Win_delete_attr((MPI_Win)obj, wkv[i]);
    }
}
static int free_obj(enum kind k, void **obj)
{
    switch (k) {
    case COMM: {
        MPI_Comm c = (MPI_Comm)*obj;
        int rc = MPI_Comm_free(&c);
        *obj = (void *)c;
        return rc;
    }
    case TYPE: {
        MPI_Datatype t = (MPI_Datatype)*obj;
        int rc = MPI_Type_free(&t);
        *obj = (void *)t;
        return rc;
    }
    default: {
        MPI_Win w = (MPI_Win)*obj;
        int rc = MPI_Win_free(&w);
        *obj = (void *)w;
        return rc;
    }
    }
}
static void *null_of(enum kind k)
{
    return k == COMM ? (void *)MPI_COMM_NULL : k == TYPE ? (void *)MPI_DATATYPE_NULL : (void *)MPI_WIN_NULL;
}

static void expect_attr(enum kind k, void *obj, int i, int present, intptr_t value, const char *what)
{
    void *v = NULL;
    int flag = -1;
    CHECK_OK(get_attr(k, obj, i, &v, &flag));
    CHECK_MSG(flag == present, "%s (%s): attribute %d flag %d, expected %d", what, kind_name[k], i,
              flag, present);
    if (flag && present)
        CHECK_MSG(PTRI(v) == value, "%s (%s): attribute %d value %ld, expected %ld", what,
                  kind_name[k], i, (long)PTRI(v), (long)value);
}

/* The object is still usable: a query of its kind works. */
static void usable(enum kind k, void *obj, const char *what)
{
    if (k == COMM) {
        int r = -1, world = -2;
        CHECK_OK(MPI_Comm_rank((MPI_Comm)obj, &r));
        CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &world));
        CHECK_MSG(r == world, "%s: rank %d, expected %d (a duplicate of MPI_COMM_WORLD)", what,
                  r, world);
        /* a dup copies the remaining attributes (MPI_COMM_DUP_FN); let its free succeed and
           keep the counters of the scenario */
        int saved_calls[N], saved_codes[N];
        memcpy(saved_calls, calls, sizeof calls);
        memcpy(saved_codes, fail_code, sizeof fail_code);
        memset(fail_code, 0, sizeof fail_code);
        MPI_Comm d;
        CHECK_OK(MPI_Comm_dup((MPI_Comm)obj, &d));
        CHECK_OK(MPI_Comm_free(&d));
        memcpy(calls, saved_calls, sizeof calls);
        memcpy(fail_code, saved_codes, sizeof fail_code);
    } else if (k == TYPE) {
        int s = -1;
        CHECK_OK(MPI_Type_size((MPI_Datatype)obj, &s));
        CHECK_MSG(s == 2 * (int)sizeof(int), "%s: size %d", what, s);
    } else {
        void *base = NULL;
        int flag = -1;
        CHECK_OK(MPI_Win_get_attr((MPI_Win)obj, MPI_WIN_BASE, &base, &flag));
        CHECK_MSG(flag == 1, "%s: MPI_WIN_BASE not readable", what);
    }
}

static void scenario(enum kind k, void *obj)
{
    char what[64];

    /* delete_attr failing: old value stays; code passed through or mapped to MPI_ERR_OTHER. */
    reset();
    CHECK_OK(set_attr(k, obj, 0, IPTR(100)));
    fail_code[0] = MPI_ERR_NAME;
    CHECK_RC(delete_attr(k, obj, 0), MPI_ERR_NAME);
    CHECK_EQ_INT(calls[0], 1);
    expect_attr(k, obj, 0, 1, 100, "failed delete_attr");
    fail_code[0] = 424242;
    CHECK_RC(delete_attr(k, obj, 0), MPI_ERR_OTHER);
    CHECK_EQ_INT(calls[0], 2);
    expect_attr(k, obj, 0, 1, 100, "failed delete_attr (odd code)");

    /* set over the value failing: old value stays. */
    fail_code[0] = MPI_ERR_ACCESS;
    CHECK_RC(set_attr(k, obj, 0, IPTR(200)), MPI_ERR_ACCESS);
    CHECK_EQ_INT(calls[0], 3);
    CHECK_EQ_INT(last_value[0], 100);
    expect_attr(k, obj, 0, 1, 100, "failed set over a value");
    fail_code[0] = -17;
    CHECK_RC(set_attr(k, obj, 0, IPTR(200)), MPI_ERR_OTHER);
    expect_attr(k, obj, 0, 1, 100, "failed set over a value (odd code)");

    /* Succeeding now: replace, then delete. */
    fail_code[0] = MPI_SUCCESS;
    CHECK_OK(set_attr(k, obj, 0, IPTR(300)));
    expect_attr(k, obj, 0, 1, 300, "set after failures");
    CHECK_OK(delete_attr(k, obj, 0));
    expect_attr(k, obj, 0, 0, 0, "delete after failures");

    /* Free with two failing callbacks out of five. */
    for (int i = 0; i < N; i++)
        CHECK_OK(set_attr(k, obj, i, IPTR(10 + i)));
    reset();
    fail_code[1] = MPI_ERR_INTERN;
    fail_code[3] = MPI_ERR_INTERN;
    void *h = obj;
    snprintf(what, sizeof what, "failed free");
    CHECK_RC(free_obj(k, &h), MPI_ERR_INTERN);
    CHECK_MSG(h == obj, "%s (%s): handle changed to %p after a failed free", what, kind_name[k], h);
    for (int i = 0; i < N; i++)
        CHECK_MSG(calls[i] == 1, "%s (%s): delete callback %d ran %d times, expected 1", what,
                  kind_name[k], i, calls[i]);
    expect_attr(k, obj, 0, 0, 0, what);
    expect_attr(k, obj, 1, 1, 11, what);
    expect_attr(k, obj, 2, 0, 0, what);
    expect_attr(k, obj, 3, 1, 13, what);
    expect_attr(k, obj, 4, 0, 0, what);
    usable(k, obj, what);

    /* Retry still failing for one: the other goes. */
    reset();
    fail_code[3] = MPI_ERR_BUFFER;
    h = obj;
    CHECK_RC(free_obj(k, &h), MPI_ERR_BUFFER);
    CHECK_MSG(h == obj, "retried free (%s): handle changed", kind_name[k]);
    CHECK_EQ_INT(calls[0] + calls[2] + calls[4], 0);
    CHECK_EQ_INT(calls[1], 1);
    CHECK_EQ_INT(calls[3], 1);
    expect_attr(k, obj, 1, 0, 0, "retried free");
    expect_attr(k, obj, 3, 1, 13, "retried free");
    usable(k, obj, "retried free");

    /* A new attribute on the half-freed object works, and goes with the final free. */
    CHECK_OK(set_attr(k, obj, 4, IPTR(44)));

    /* Retry succeeding: done. */
    reset();
    h = obj;
    CHECK_OK(free_obj(k, &h));
    CHECK_MSG(h == null_of(k), "final free (%s): handle %p, expected the null handle", kind_name[k], h);
    CHECK_EQ_INT(calls[3], 1);
    CHECK_EQ_INT(last_value[3], 13);
    CHECK_EQ_INT(calls[4], 1);
    CHECK_EQ_INT(last_value[4], 44);
    CHECK_EQ_INT(calls[0] + calls[1] + calls[2], 0);
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    for (int i = 0; i < N; i++) {
        REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, comm_del, &ckv[i], &idx[i]));
        REQUIRE_OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_del, &tkv[i], &idx[i]));
        REQUIRE_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_del, &wkv[i], &idx[i]));
    }

    MPI_Comm c;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    scenario(COMM, (void *)c);

    MPI_Datatype t;
    REQUIRE_OK(MPI_Type_contiguous(2, MPI_INT, &t));
    scenario(TYPE, (void *)t);

    MPI_Win w;
    void *base;
    REQUIRE_OK(MPI_Win_allocate(32, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w));
    REQUIRE_OK(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
    scenario(WIN, (void *)w);

    /* Failing delete_attr on the predefined communicators and datatypes. */
    reset();
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_SELF, ckv[2], IPTR(5)));
    fail_code[2] = MPI_ERR_NAME;
    CHECK_RC(MPI_Comm_delete_attr(MPI_COMM_SELF, ckv[2]), MPI_ERR_NAME);
    expect_attr(COMM, (void *)MPI_COMM_SELF, 2, 1, 5, "MPI_COMM_SELF");
    fail_code[2] = MPI_SUCCESS;
    CHECK_OK(MPI_Comm_delete_attr(MPI_COMM_SELF, ckv[2]));
    CHECK_OK(MPI_Type_set_attr(MPI_INT, tkv[2], IPTR(6)));
    fail_code[2] = MPI_ERR_NAME;
    CHECK_RC(MPI_Type_set_attr(MPI_INT, tkv[2], IPTR(7)), MPI_ERR_NAME);
    expect_attr(TYPE, (void *)MPI_INT, 2, 1, 6, "MPI_INT");
    fail_code[2] = MPI_SUCCESS;
    CHECK_OK(MPI_Type_delete_attr(MPI_INT, tkv[2]));

    for (int i = 0; i < N; i++) {
        CHECK_OK(MPI_Comm_free_keyval(&ckv[i]));
        CHECK_OK(MPI_Type_free_keyval(&tkv[i]));
        CHECK_OK(MPI_Win_free_keyval(&wkv[i]));
    }
    REQUIRE_OK(MPI_Finalize());
    return test_finish("fail_delete");
}
