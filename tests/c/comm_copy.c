/*
 * Copying communicator attributes (attributes.md §4): on MPI_Comm_dup, MPI_Comm_dup_with_info and
 * MPI_Comm_idup (completed with MPI_Wait, MPI_Test or MPI_Request_free):
 * MPI_COMM_DUP_FN copies the value, MPI_COMM_NULL_COPY_FN does not, a user copy callback
 * gets (old comm, keyval, extra_state exactly, value) and decides with its flag (false: the
 * new comm lacks the attribute; true: it has the callback's output value); copy callbacks run
 * in the order in which the attributes were set; the new comm's attributes are independent of
 * the old one's; no copy on MPI_Comm_split. Delete callbacks on the copies get the new comm.
 */
#include "check.h"

#define NK 6
#define LOGN 256

struct rec {
    MPI_Comm comm;
    int keyval;
    void *extra;
    intptr_t value;
};
static struct rec copylog[LOGN], dellog[LOGN];
static int ncopy, ndel;

static int extras[NK];

/* Copies with flag true: out = in + 1000. */
static int copy_plus(MPI_Comm comm, int keyval, void *extra_state, void *in, void *out, int *flag)
{
    if (ncopy < LOGN)
        copylog[ncopy] = (struct rec){comm, keyval, extra_state, PTRI(in)};
    ncopy++;
    *(void **)out = IPTR(PTRI(in) + 1000);
    *flag = 1;
    return MPI_SUCCESS;
}

/* Declines with flag false. */
static int copy_decline(MPI_Comm comm, int keyval, void *extra_state, void *in, void *out,
                        int *flag)
{
    if (ncopy < LOGN)
        copylog[ncopy] = (struct rec){comm, keyval, extra_state, PTRI(in)};
    ncopy++;
    *(void **)out = IPTR(-12345); /* must be ignored */
    *flag = 0;
    return MPI_SUCCESS;
}

static int del_log(MPI_Comm comm, int keyval, void *value, void *extra_state)
{
    if (ndel < LOGN)
        dellog[ndel] = (struct rec){comm, keyval, extra_state, PTRI(value)};
    ndel++;
    return MPI_SUCCESS;
}

/* keyvals: 0 DUP_FN, 1 NULL_COPY_FN, 2 copy_plus, 3 copy_decline, 4 copy_plus, 5 DUP_FN */
static int kv[NK];

static void get_expect(MPI_Comm comm, int k, int present, intptr_t value, const char *what)
{
    void *v = SENTINEL_HANDLE(void *);
    int flag = -1;
    CHECK_OK(MPI_Comm_get_attr(comm, kv[k], &v, &flag));
    CHECK_MSG(flag == present, "%s: keyval #%d flag %d, expected %d", what, k, flag, present);
    if (present && flag)
        CHECK_MSG(PTRI(v) == value, "%s: keyval #%d value %ld, expected %ld", what, k, (long)PTRI(v),
                  (long)value);
}

/* Order in which the attributes are set on the source: not the keyval creation order. */
static const int set_order[NK] = {4, 2, 0, 5, 3, 1};

static intptr_t src_value(int k) { return 10 * (k + 1); }

/* Checks the copy log and the new communicator after one dup of src. */
static void check_copied(MPI_Comm src, MPI_Comm newcomm, const char *what)
{
    /* User copy callbacks (keyvals 2, 3, 4) ran once each, in set order: 4, 2, 3. */
    CHECK_MSG(ncopy == 3, "%s: %d copy callbacks ran, expected 3", what, ncopy);
    static const int expected[3] = {4, 2, 3};
    for (int i = 0; i < 3 && i < ncopy; i++) {
        int k = expected[i];
        CHECK_MSG(copylog[i].keyval == kv[k], "%s: copy #%d was for keyval %d, expected %d (#%d)",
                  what, i, copylog[i].keyval, kv[k], k);
        CHECK_MSG(copylog[i].comm == src, "%s: copy #%d got comm %p, expected the old comm %p",
                  what, i, (void *)copylog[i].comm, (void *)src);
        CHECK_MSG(copylog[i].extra == &extras[k], "%s: copy #%d got extra_state %p, expected %p",
                  what, i, copylog[i].extra, (void *)&extras[k]);
        CHECK_MSG(copylog[i].value == src_value(k), "%s: copy #%d got value %ld, expected %ld",
                  what, i, (long)copylog[i].value, (long)src_value(k));
    }
    get_expect(newcomm, 0, 1, src_value(0), what);
    get_expect(newcomm, 1, 0, 0, what);
    get_expect(newcomm, 2, 1, src_value(2) + 1000, what);
    get_expect(newcomm, 3, 0, 0, what);
    get_expect(newcomm, 4, 1, src_value(4) + 1000, what);
    get_expect(newcomm, 5, 1, src_value(5), what);
    /* The source is unchanged. */
    for (int k = 0; k < NK; k++)
        get_expect(src, k, 1, src_value(k), what);
    CHECK_MSG(ndel == 0, "%s: %d delete callbacks ran during a successful dup", what, ndel);
}

/* Frees a copy: delete callbacks run for its 4 attributes with the new comm's handle. */
static void free_copy(MPI_Comm *c, const char *what)
{
    MPI_Comm saved = *c;
    ndel = 0;
    CHECK_OK(MPI_Comm_free(c));
    CHECK_EQ_HANDLE(*c, MPI_COMM_NULL);
    /* keyvals with del_log: all; present on the copy: 0, 2, 4, 5. */
    CHECK_MSG(ndel == 4, "%s: %d delete callbacks on free, expected 4", what, ndel);
    for (int i = 0; i < ndel && i < LOGN; i++)
        CHECK_MSG(dellog[i].comm == saved, "%s: delete callback got comm %p, expected %p", what,
                  (void *)dellog[i].comm, (void *)saved);
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);

    MPI_Comm_copy_attr_function *copyfns[NK] = {MPI_COMM_DUP_FN, MPI_COMM_NULL_COPY_FN, copy_plus,
                                                 copy_decline,    copy_plus,             MPI_COMM_DUP_FN};
    for (int k = 0; k < NK; k++)
        REQUIRE_OK(MPI_Comm_create_keyval(copyfns[k], del_log, &kv[k], &extras[k]));

    MPI_Comm src;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &src));
    for (int i = 0; i < NK; i++)
        REQUIRE_OK(MPI_Comm_set_attr(src, kv[set_order[i]], IPTR(src_value(set_order[i]))));

    /* MPI_Comm_dup */
    MPI_Comm c1 = SENTINEL_HANDLE(MPI_Comm);
    ncopy = ndel = 0;
    CHECK_OK(MPI_Comm_dup(src, &c1));
    REQUIRE(c1 != MPI_COMM_NULL && c1 != SENTINEL_HANDLE(MPI_Comm));
    CHECK_NE_HANDLE(c1, src);
    check_copied(src, c1, "MPI_Comm_dup");

    /* The copy's attributes are independent of the source's. */
    CHECK_OK(MPI_Comm_set_attr(c1, kv[0], IPTR(-1)));
    CHECK_OK(MPI_Comm_set_attr(c1, kv[1], IPTR(-2)));
    get_expect(src, 0, 1, src_value(0), "after setting on the copy");
    get_expect(src, 1, 1, src_value(1), "after setting on the copy");
    CHECK_OK(MPI_Comm_delete_attr(c1, kv[1]));
    CHECK_OK(MPI_Comm_set_attr(c1, kv[0], IPTR(src_value(0))));
    get_expect(src, 1, 1, src_value(1), "after deleting on the copy");
    ndel = 0;
    CHECK_OK(MPI_Comm_delete_attr(src, kv[5]));
    CHECK_EQ_INT(ndel, 1);
    get_expect(c1, 5, 1, src_value(5), "after deleting on the source");
    CHECK_OK(MPI_Comm_set_attr(src, kv[5], IPTR(src_value(5))));
    /* kv[5] was re-set, so it is now last in the source's order: 4, 2, 0, 3, 1, 5 — user copy
       callbacks still run 4, 2, 3. */
    free_copy(&c1, "free of dup");

    /* MPI_Comm_dup_with_info */
    MPI_Comm c2 = SENTINEL_HANDLE(MPI_Comm);
    ncopy = ndel = 0;
    CHECK_OK(MPI_Comm_dup_with_info(src, MPI_INFO_NULL, &c2));
    REQUIRE(c2 != MPI_COMM_NULL && c2 != SENTINEL_HANDLE(MPI_Comm));
    check_copied(src, c2, "MPI_Comm_dup_with_info");

    /* Dup of the dup: copy callbacks run on the copies' values. */
    MPI_Comm c2b;
    ncopy = 0;
    CHECK_OK(MPI_Comm_dup(c2, &c2b));
    CHECK_EQ_INT(ncopy, 2); /* keyvals 4 and 2 are on c2; 3 was declined */
    get_expect(c2b, 2, 1, src_value(2) + 2000, "dup of dup");
    get_expect(c2b, 4, 1, src_value(4) + 2000, "dup of dup");
    get_expect(c2b, 0, 1, src_value(0), "dup of dup");
    get_expect(c2b, 3, 0, 0, "dup of dup");
    if (ncopy >= 1)
        CHECK_EQ_HANDLE(copylog[0].comm, c2);
    free_copy(&c2b, "free of dup of dup");
    free_copy(&c2, "free of dup_with_info");

    /* MPI_Comm_idup + MPI_Wait */
    MPI_Comm c3 = SENTINEL_HANDLE(MPI_Comm);
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Status st;
    ncopy = ndel = 0;
    CHECK_OK(MPI_Comm_idup(src, &c3, &req));
    CHECK_NE_HANDLE(req, MPI_REQUEST_NULL);
    memset(&st, 0x5a, sizeof st);
    CHECK_OK(MPI_Wait(&req, &st));
    CHECK_EQ_HANDLE(req, MPI_REQUEST_NULL);
    CHECK_EQ_INT(st.MPI_SOURCE, MPI_ANY_SOURCE);
    CHECK_EQ_INT(st.MPI_TAG, MPI_ANY_TAG);
    CHECK_EQ_INT(st.MPI_ERROR, MPI_SUCCESS);
    REQUIRE(c3 != MPI_COMM_NULL && c3 != SENTINEL_HANDLE(MPI_Comm));
    check_copied(src, c3, "MPI_Comm_idup + MPI_Wait");
    free_copy(&c3, "free of idup (Wait)");

    /* MPI_Comm_idup + MPI_Test: complete on the first test. */
    MPI_Comm c4 = SENTINEL_HANDLE(MPI_Comm);
    ncopy = ndel = 0;
    CHECK_OK(MPI_Comm_idup(src, &c4, &req));
    int done = -1;
    memset(&st, 0x5a, sizeof st);
    CHECK_OK(MPI_Test(&req, &done, &st));
    CHECK_EQ_INT(done, 1);
    CHECK_EQ_HANDLE(req, MPI_REQUEST_NULL);
    CHECK_EQ_INT(st.MPI_SOURCE, MPI_ANY_SOURCE);
    CHECK_EQ_INT(st.MPI_TAG, MPI_ANY_TAG);
    CHECK_EQ_INT(st.MPI_ERROR, MPI_SUCCESS);
    while (!done) /* only if the check above failed */
        CHECK_OK(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
    check_copied(src, c4, "MPI_Comm_idup + MPI_Test");
    free_copy(&c4, "free of idup (Test)");

    /* MPI_Comm_idup + MPI_Request_free: idup completes before it returns (semantics.md). */
    MPI_Comm c5 = SENTINEL_HANDLE(MPI_Comm);
    ncopy = ndel = 0;
    CHECK_OK(MPI_Comm_idup(src, &c5, &req));
    CHECK_OK(MPI_Request_free(&req));
    CHECK_EQ_HANDLE(req, MPI_REQUEST_NULL);
    check_copied(src, c5, "MPI_Comm_idup + MPI_Request_free");
    free_copy(&c5, "free of idup (Request_free)");

    /* Wait and Test on MPI_REQUEST_NULL succeed at once with an empty status. */
    req = MPI_REQUEST_NULL;
    memset(&st, 0x5a, sizeof st);
    CHECK_OK(MPI_Wait(&req, &st));
    CHECK_EQ_INT(st.MPI_SOURCE, MPI_ANY_SOURCE);
    CHECK_EQ_INT(st.MPI_TAG, MPI_ANY_TAG);
    done = -1;
    CHECK_OK(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(done, 1);

    /* No copy on MPI_Comm_split; the split comm has no attributes; MPI_UNDEFINED gives NULL. */
    MPI_Comm sp = SENTINEL_HANDLE(MPI_Comm);
    ncopy = ndel = 0;
    CHECK_OK(MPI_Comm_split(src, 3, 0, &sp));
    REQUIRE(sp != MPI_COMM_NULL && sp != SENTINEL_HANDLE(MPI_Comm));
    CHECK_EQ_INT(ncopy, 0);
    for (int k = 0; k < NK; k++)
        get_expect(sp, k, 0, 0, "MPI_Comm_split");
    MPI_Comm spu = SENTINEL_HANDLE(MPI_Comm);
    CHECK_OK(MPI_Comm_split(src, MPI_UNDEFINED, 0, &spu));
    CHECK_EQ_HANDLE(spu, MPI_COMM_NULL);
    CHECK_EQ_INT(ncopy, 0);
    CHECK_OK(MPI_Comm_free(&sp));
    CHECK_EQ_INT(ndel, 0);

    /* Dup of MPI_COMM_SELF and of MPI_COMM_WORLD copies their user attributes too. */
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_SELF, kv[0], IPTR(77)));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kv[2], IPTR(88)));
    MPI_Comm s1, w1;
    ncopy = 0;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_SELF, &s1));
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &w1));
    CHECK_EQ_INT(ncopy, 1);
    if (ncopy >= 1)
        CHECK_EQ_HANDLE(copylog[0].comm, MPI_COMM_WORLD);
    get_expect(s1, 0, 1, 77, "dup of MPI_COMM_SELF");
    get_expect(w1, 2, 1, 1088, "dup of MPI_COMM_WORLD");
    ndel = 0;
    CHECK_OK(MPI_Comm_free(&s1));
    CHECK_OK(MPI_Comm_free(&w1));
    CHECK_EQ_INT(ndel, 2);
    CHECK_OK(MPI_Comm_delete_attr(MPI_COMM_SELF, kv[0]));
    CHECK_OK(MPI_Comm_delete_attr(MPI_COMM_WORLD, kv[2]));

    /* Free the source: six delete callbacks. */
    ndel = 0;
    CHECK_OK(MPI_Comm_free(&src));
    CHECK_EQ_INT(ndel, NK);
    for (int k = 0; k < NK; k++)
        CHECK_OK(MPI_Comm_free_keyval(&kv[k]));

    REQUIRE_OK(MPI_Finalize());
    return test_finish("comm_copy");
}
