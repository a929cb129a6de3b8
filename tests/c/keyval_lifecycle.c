/*
 * Keyval lifetime (attributes.md §4, semantics.md "Keyvals"), for communicator, datatype and window
 * keyvals: numbers are positive, distinct, never MPI_KEYVAL_INVALID nor a predefined keyval.
 * Freeing a keyval that attributes still use sets the variable to MPI_KEYVAL_INVALID; get and
 * delete through the old number still work and callbacks (copy and delete) still run; set
 * through it fails with MPI_ERR_KEYVAL; freeing it again through a saved copy succeeds. Once
 * its last attribute is gone the number is invalid everywhere (MPI_ERR_KEYVAL) and is not
 * handed out again to new keyvals. A keyval without attributes is gone at once when freed.
 * Freeing MPI_KEYVAL_INVALID fails with MPI_ERR_KEYVAL.
 */
#include "check.h"

#define NNEW 20000

static int ncopy, ndel;
static intptr_t last_del;

static int ccopy(MPI_Comm c, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)c, (void)kv, (void)extra;
    ncopy++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}
static int cdel(MPI_Comm c, int kv, void *v, void *extra)
{
    (void)c, (void)kv, (void)extra;
    ndel++;
    last_del = PTRI(v);
    return MPI_SUCCESS;
}
static int tcopy(MPI_Datatype t, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)t, (void)kv, (void)extra;
    ncopy++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}
static int tdel(MPI_Datatype t, int kv, void *v, void *extra)
{
    (void)t, (void)kv, (void)extra;
    ndel++;
    last_del = PTRI(v);
    return MPI_SUCCESS;
}
static int wdel(MPI_Win w, int kv, void *v, void *extra)
{
    (void)w, (void)kv, (void)extra;
    ndel++;
    last_del = PTRI(v);
    return MPI_SUCCESS;
}

static int is_predefined(int k)
{
    return (k >= MPI_TAG_UB && k <= MPI_UNIVERSE_SIZE) || (k >= MPI_WIN_BASE && k <= MPI_WIN_MODEL);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Creates and frees NNEW keyvals of each kind: all valid numbers, none equal to a stale one,
   all distinct (never reused while the library is initialised). */
static void no_reuse(const int *stale, int nstale)
{
    int *seen = malloc(sizeof(int) * 3 * NNEW);
    REQUIRE(seen != NULL);
    int n = 0;
    for (int i = 0; i < NNEW; i++) {
        int k = MPI_KEYVAL_INVALID;
        switch (i % 3) {
        case 0:
            REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL));
            break;
        case 1:
            REQUIRE_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k, NULL));
            break;
        default:
            REQUIRE_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &k, NULL));
            break;
        }
        CHECK_MSG(k > 0, "new keyval %d is not positive", k);
        CHECK_MSG(!is_predefined(k), "new keyval %d equals a predefined keyval", k);
        for (int s = 0; s < nstale; s++)
            CHECK_MSG(k != stale[s], "new keyval %d reuses the number of a freed keyval", k);
        seen[n++] = k;
        int saved = k;
        switch (i % 3) {
        case 0:
            CHECK_OK(MPI_Comm_free_keyval(&k));
            break;
        case 1:
            CHECK_OK(MPI_Type_free_keyval(&k));
            break;
        default:
            CHECK_OK(MPI_Win_free_keyval(&k));
            break;
        }
        CHECK_EQ_INT(k, MPI_KEYVAL_INVALID);
        /* freshly freed, unused: gone at once */
        if (i < 30) {
            void *v;
            int flag;
            if (i % 3 == 0)
                CHECK_RC(MPI_Comm_get_attr(MPI_COMM_SELF, saved, &v, &flag), MPI_ERR_KEYVAL);
            else if (i % 3 == 1)
                CHECK_RC(MPI_Type_get_attr(MPI_INT, saved, &v, &flag), MPI_ERR_KEYVAL);
        }
    }
    qsort(seen, (size_t)n, sizeof(int), cmp_int);
    int dups = 0;
    for (int i = 1; i < n; i++)
        if (seen[i] == seen[i - 1])
            dups++;
    CHECK_MSG(dups == 0, "%d keyval numbers were handed out twice among %d create/free cycles",
              dups, n);
    free(seen);
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    int stale[8];
    int nstale = 0;

    /* Freeing MPI_KEYVAL_INVALID. */
    {
        int k = MPI_KEYVAL_INVALID;
        CHECK_RC(MPI_Comm_free_keyval(&k), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Type_free_keyval(&k), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Win_free_keyval(&k), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Keyval_free(&k), MPI_ERR_KEYVAL);
        CHECK_EQ_INT(k, MPI_KEYVAL_INVALID);
    }

    /* ---- communicator keyval ---- */
    int kc = MPI_KEYVAL_INVALID;
    REQUIRE_OK(MPI_Comm_create_keyval(ccopy, cdel, &kc, NULL));
    CHECK(kc > 0);
    CHECK(!is_predefined(kc));
    MPI_Comm a, b, c;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &b));
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_OK(MPI_Comm_set_attr(a, kc, IPTR(1)));
    CHECK_OK(MPI_Comm_set_attr(b, kc, IPTR(2)));
    int kc_saved = kc;
    ndel = ncopy = 0;
    CHECK_OK(MPI_Comm_free_keyval(&kc));
    CHECK_EQ_INT(kc, MPI_KEYVAL_INVALID);
    CHECK_EQ_INT(ndel, 0);
    {
        void *v = NULL;
        int flag = -1;
        CHECK_OK(MPI_Comm_get_attr(a, kc_saved, &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(v), 1);
        flag = -1;
        CHECK_OK(MPI_Attr_get(b, kc_saved, &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(v), 2);
        /* not present on c, but the keyval is still valid for reading */
        flag = -1;
        CHECK_OK(MPI_Comm_get_attr(c, kc_saved, &v, &flag));
        CHECK_EQ_INT(flag, 0);
        /* set through it fails, on an object with or without a value; nothing changes */
        CHECK_RC(MPI_Comm_set_attr(c, kc_saved, IPTR(3)), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Comm_set_attr(a, kc_saved, IPTR(4)), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Attr_put(a, kc_saved, IPTR(4)), MPI_ERR_KEYVAL);
        CHECK_EQ_INT(ndel, 0);
        CHECK_OK(MPI_Comm_get_attr(a, kc_saved, &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(v), 1);
        CHECK_OK(MPI_Comm_get_attr(c, kc_saved, &v, &flag));
        CHECK_EQ_INT(flag, 0);
        /* freeing again through the saved copy succeeds and does nothing */
        int again = kc_saved;
        CHECK_OK(MPI_Comm_free_keyval(&again));
        CHECK_EQ_INT(again, MPI_KEYVAL_INVALID);
        CHECK_OK(MPI_Comm_get_attr(a, kc_saved, &v, &flag));
        CHECK_EQ_INT(flag, 1);
        /* the copy callback still runs on dup */
        MPI_Comm a2;
        CHECK_OK(MPI_Comm_dup(a, &a2));
        CHECK_EQ_INT(ncopy, 1);
        flag = -1;
        CHECK_OK(MPI_Comm_get_attr(a2, kc_saved, &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(v), 1);
        CHECK_OK(MPI_Comm_free(&a2));
        CHECK_EQ_INT(ndel, 1);
        /* delete through it runs the callback */
        CHECK_OK(MPI_Comm_delete_attr(a, kc_saved));
        CHECK_EQ_INT(ndel, 2);
        CHECK_EQ_INT(last_del, 1);
        flag = -1;
        CHECK_OK(MPI_Comm_get_attr(a, kc_saved, &v, &flag));
        CHECK_EQ_INT(flag, 0);
        /* last attribute goes with b's free */
        CHECK_OK(MPI_Comm_free(&b));
        CHECK_EQ_INT(ndel, 3);
        CHECK_EQ_INT(last_del, 2);
        /* now the number is invalid everywhere */
        CHECK_RC(MPI_Comm_get_attr(a, kc_saved, &v, &flag), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Attr_get(a, kc_saved, &v, &flag), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Comm_set_attr(a, kc_saved, IPTR(5)), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Comm_delete_attr(a, kc_saved), MPI_ERR_KEYVAL);
        again = kc_saved;
        CHECK_RC(MPI_Comm_free_keyval(&again), MPI_ERR_KEYVAL);
        CHECK_EQ_INT(again, kc_saved);
        CHECK_EQ_INT(ndel, 3);
    }
    stale[nstale++] = kc_saved;

    /* ---- datatype keyval ---- */
    int kt = MPI_KEYVAL_INVALID;
    REQUIRE_OK(MPI_Type_create_keyval(tcopy, tdel, &kt, NULL));
    CHECK(kt > 0);
    CHECK(!is_predefined(kt));
    CHECK(kt != kc_saved);
    MPI_Datatype t1;
    REQUIRE_OK(MPI_Type_contiguous(3, MPI_INT, &t1));
    CHECK_OK(MPI_Type_set_attr(t1, kt, IPTR(11)));
    CHECK_OK(MPI_Type_set_attr(MPI_FLOAT, kt, IPTR(12)));
    int kt_saved = kt;
    ndel = ncopy = 0;
    CHECK_OK(MPI_Type_free_keyval(&kt));
    CHECK_EQ_INT(kt, MPI_KEYVAL_INVALID);
    {
        void *v = NULL;
        int flag = -1;
        CHECK_OK(MPI_Type_get_attr(t1, kt_saved, &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(v), 11);
        CHECK_RC(MPI_Type_set_attr(MPI_INT, kt_saved, IPTR(13)), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Type_set_attr(t1, kt_saved, IPTR(13)), MPI_ERR_KEYVAL);
        int again = kt_saved;
        CHECK_OK(MPI_Type_free_keyval(&again));
        CHECK_EQ_INT(again, MPI_KEYVAL_INVALID);
        MPI_Datatype t2;
        CHECK_OK(MPI_Type_dup(t1, &t2));
        CHECK_EQ_INT(ncopy, 1);
        CHECK_OK(MPI_Type_get_attr(t2, kt_saved, &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(v), 11);
        CHECK_OK(MPI_Type_free(&t2));
        CHECK_OK(MPI_Type_free(&t1));
        CHECK_EQ_INT(ndel, 2);
        CHECK_OK(MPI_Type_delete_attr(MPI_FLOAT, kt_saved));
        CHECK_EQ_INT(ndel, 3);
        CHECK_EQ_INT(last_del, 12);
        CHECK_RC(MPI_Type_get_attr(MPI_FLOAT, kt_saved, &v, &flag), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Type_delete_attr(MPI_FLOAT, kt_saved), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Type_set_attr(MPI_FLOAT, kt_saved, IPTR(1)), MPI_ERR_KEYVAL);
        again = kt_saved;
        CHECK_RC(MPI_Type_free_keyval(&again), MPI_ERR_KEYVAL);
        CHECK_EQ_INT(again, kt_saved);
    }
    stale[nstale++] = kt_saved;

    /* ---- window keyval ---- */
    int kw = MPI_KEYVAL_INVALID;
    REQUIRE_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, wdel, &kw, NULL));
    CHECK(kw > 0);
    CHECK(!is_predefined(kw));
    CHECK(kw != kc_saved && kw != kt_saved);
    MPI_Win w1, w2;
    int buf[2];
    REQUIRE_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w1));
    REQUIRE_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w2));
    REQUIRE_OK(MPI_Win_set_errhandler(w1, MPI_ERRORS_RETURN));
    REQUIRE_OK(MPI_Win_set_errhandler(w2, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Win_set_attr(w1, kw, IPTR(21)));
    int kw_saved = kw;
    ndel = 0;
    CHECK_OK(MPI_Win_free_keyval(&kw));
    CHECK_EQ_INT(kw, MPI_KEYVAL_INVALID);
    {
        void *v = NULL;
        int flag = -1;
        CHECK_OK(MPI_Win_get_attr(w1, kw_saved, &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(v), 21);
        CHECK_OK(MPI_Win_get_attr(w2, kw_saved, &v, &flag));
        CHECK_EQ_INT(flag, 0);
        CHECK_RC(MPI_Win_set_attr(w2, kw_saved, IPTR(22)), MPI_ERR_KEYVAL);
        int again = kw_saved;
        CHECK_OK(MPI_Win_free_keyval(&again));
        CHECK_EQ_INT(again, MPI_KEYVAL_INVALID);
        CHECK_EQ_INT(ndel, 0);
        CHECK_OK(MPI_Win_free(&w1));
        CHECK_EQ_INT(ndel, 1);
        CHECK_EQ_INT(last_del, 21);
        CHECK_RC(MPI_Win_get_attr(w2, kw_saved, &v, &flag), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Win_delete_attr(w2, kw_saved), MPI_ERR_KEYVAL);
        again = kw_saved;
        CHECK_RC(MPI_Win_free_keyval(&again), MPI_ERR_KEYVAL);
    }
    stale[nstale++] = kw_saved;

    /* A stale communicator keyval stays invalid after many new keyvals. */
    no_reuse(stale, nstale);
    {
        void *v;
        int flag;
        CHECK_RC(MPI_Comm_get_attr(a, kc_saved, &v, &flag), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Type_get_attr(MPI_FLOAT, kt_saved, &v, &flag), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Win_get_attr(w2, kw_saved, &v, &flag), MPI_ERR_KEYVAL);
    }

    /* Many live keyvals at once: distinct and valid. */
    {
        enum { NLIVE = 5000 };
        int *live = malloc(sizeof(int) * NLIVE);
        REQUIRE(live != NULL);
        for (int i = 0; i < NLIVE; i++) {
            REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN,
                                              &live[i], NULL));
            CHECK_MSG(live[i] > 0 && !is_predefined(live[i]), "live keyval %d invalid", live[i]);
        }
        int *sorted = malloc(sizeof(int) * NLIVE);
        REQUIRE(sorted != NULL);
        memcpy(sorted, live, sizeof(int) * NLIVE);
        qsort(sorted, NLIVE, sizeof(int), cmp_int);
        for (int i = 1; i < NLIVE; i++)
            CHECK_MSG(sorted[i] != sorted[i - 1], "live keyval %d handed out twice", sorted[i]);
        for (int i = 0; i < NLIVE; i++)
            CHECK_OK(MPI_Comm_free_keyval(&live[i]));
        free(sorted);
        free(live);
    }

    /* Thousands of slots are free now, so every create reuses one (the fast paths of create
       and free): the same checks, kinds and deferred frees. */
    {
        void *v = NULL;
        int flag = -1;
        int k = MPI_KEYVAL_INVALID, kd = MPI_KEYVAL_INVALID, kt2 = MPI_KEYVAL_INVALID;
        REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL));
        REQUIRE_OK(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &kd, NULL));
        REQUIRE_OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &kt2, NULL));
        for (int s = 0; s < nstale; s++)
            CHECK(k != stale[s] && kd != stale[s] && kt2 != stale[s]);
        CHECK(k != kd && kd != kt2 && k != kt2);
        CHECK_RC(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, NULL, NULL),
                 MPI_ERR_ARG);
        CHECK_RC(MPI_Comm_free_keyval(NULL), MPI_ERR_ARG);
        int saved = k;
        CHECK_RC(MPI_Type_free_keyval(&k), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Win_free_keyval(&k), MPI_ERR_KEYVAL);
        CHECK_EQ_INT(k, saved);
        int other = kt2;
        CHECK_RC(MPI_Comm_free_keyval(&other), MPI_ERR_KEYVAL);
        CHECK_EQ_INT(other, kt2);
        int tag_ub = MPI_TAG_UB;
        CHECK_RC(MPI_Comm_free_keyval(&tag_ub), MPI_ERR_KEYVAL);
        CHECK_EQ_INT(tag_ub, MPI_TAG_UB);
        /* MPI_DUP_FN copies; a held keyval's free is deferred */
        CHECK_OK(MPI_Comm_set_attr(a, kd, IPTR(31)));
        MPI_Comm d;
        CHECK_OK(MPI_Comm_dup(a, &d));
        CHECK_OK(MPI_Comm_get_attr(d, kd, &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(v), 31);
        int kd_saved = kd;
        CHECK_OK(MPI_Keyval_free(&kd));
        CHECK_EQ_INT(kd, MPI_KEYVAL_INVALID);
        CHECK_OK(MPI_Comm_get_attr(a, kd_saved, &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_RC(MPI_Comm_set_attr(c, kd_saved, IPTR(32)), MPI_ERR_KEYVAL);
        /* nor over a value it has, on the object or its copies, made before or after */
        CHECK_RC(MPI_Comm_set_attr(a, kd_saved, IPTR(33)), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Comm_set_attr(d, kd_saved, IPTR(34)), MPI_ERR_KEYVAL);
        MPI_Comm d2;
        CHECK_OK(MPI_Comm_dup(d, &d2));
        CHECK_RC(MPI_Comm_set_attr(d2, kd_saved, IPTR(35)), MPI_ERR_KEYVAL);
        CHECK_OK(MPI_Comm_get_attr(d2, kd_saved, &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(v), 31);
        CHECK_OK(MPI_Comm_free(&d2));
        CHECK_OK(MPI_Comm_get_attr(a, kd_saved, &v, &flag));
        CHECK_EQ_INT(PTRI(v), 31);
        /* the same where a copy callback made the copy (and no delete callback runs) */
        int kcb = MPI_KEYVAL_INVALID;
        REQUIRE_OK(MPI_Comm_create_keyval(ccopy, MPI_COMM_NULL_DELETE_FN, &kcb, NULL));
        CHECK_OK(MPI_Comm_set_attr(a, kcb, IPTR(36)));
        int kcb_saved = kcb;
        CHECK_OK(MPI_Comm_free_keyval(&kcb));
        ncopy = 0;
        CHECK_OK(MPI_Comm_dup(a, &d2));
        CHECK_EQ_INT(ncopy, 1);
        CHECK_RC(MPI_Comm_set_attr(d2, kcb_saved, IPTR(37)), MPI_ERR_KEYVAL);
        CHECK_OK(MPI_Comm_get_attr(d2, kcb_saved, &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_OK(MPI_Comm_free(&d2));
        CHECK_OK(MPI_Comm_delete_attr(a, kcb_saved));
        CHECK_RC(MPI_Comm_get_attr(a, kcb_saved, &v, &flag), MPI_ERR_KEYVAL);
        CHECK_OK(MPI_Comm_free(&d));
        CHECK_OK(MPI_Comm_delete_attr(a, kd_saved));
        CHECK_RC(MPI_Comm_get_attr(a, kd_saved, &v, &flag), MPI_ERR_KEYVAL);
        /* freed and gone at once: a second free fails and leaves the variable */
        CHECK_OK(MPI_Comm_free_keyval(&k));
        CHECK_EQ_INT(k, MPI_KEYVAL_INVALID);
        k = saved;
        CHECK_RC(MPI_Comm_free_keyval(&k), MPI_ERR_KEYVAL);
        CHECK_EQ_INT(k, saved);
        CHECK_RC(MPI_Comm_get_attr(a, saved, &v, &flag), MPI_ERR_KEYVAL);
        /* a datatype keyval freed while a datatype holds it: no value set over it either */
        MPI_Datatype t2;
        CHECK_OK(MPI_Type_dup(MPI_INT, &t2));
        CHECK_OK(MPI_Type_set_attr(t2, kt2, IPTR(41)));
        CHECK_OK(MPI_Type_set_attr(t2, kt2, IPTR(42)));
        int kt2_saved = kt2;
        CHECK_OK(MPI_Type_free_keyval(&kt2));
        CHECK_EQ_INT(kt2, MPI_KEYVAL_INVALID);
        CHECK_RC(MPI_Type_set_attr(t2, kt2_saved, IPTR(43)), MPI_ERR_KEYVAL);
        CHECK_OK(MPI_Type_get_attr(t2, kt2_saved, &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(v), 42);
        CHECK_OK(MPI_Type_free(&t2));
        CHECK_RC(MPI_Type_get_attr(MPI_INT, kt2_saved, &v, &flag), MPI_ERR_KEYVAL);
    }

    CHECK_OK(MPI_Win_free(&w2));
    CHECK_OK(MPI_Comm_free(&a));
    CHECK_OK(MPI_Comm_free(&c));
    REQUIRE_OK(MPI_Finalize());
    return test_finish("keyval_lifecycle");
}
