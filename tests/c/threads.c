/*
 * MPI_THREAD_MULTIPLE (attributes.md §6): MPI_Init_thread provides MPI_THREAD_MULTIPLE (whatever was
 * required); MPI_Query_thread agrees from every thread; MPI_Is_thread_main is true only on the
 * main thread. Four pthreads each do thousands of set/get/delete/dup/free on a private
 * communicator and on a shared one, plus keyval create/free, with copy and delete callbacks
 * that call back into the library (get_attr, set_attr on another keyval, MPI_Comm_dup +
 * MPI_Comm_free of another communicator). At the end every value read was right and every
 * callback ran exactly as often as expected (each removed value's delete callback once).
 */
#include "check.h"

#include <pthread.h>

#define NT 4
#define ITERS 3000

static MPI_Comm shared;
static int kA, kB, kS, kScratch, kT[NT];
static _Thread_local MPI_Comm scratch;

static atomic_int copyA, delA, delB, copyS, delS, delT, bad_reads;
/* what the threads expect, summed */
static atomic_int exp_copyA, exp_delA, exp_delB, exp_copyS, exp_delS, exp_delT;

/* A wrong value or flag seen somewhere: counted, and reported with its line. */
#define BAD_READ(what, flag, value)                                                            \
    do {                                                                                       \
        atomic_fetch_add(&bad_reads, 1);                                                       \
        check_fail(__FILE__, __LINE__, "%s: flag %d, value %#lx", what, (int)(flag),           \
                   (unsigned long)PTRI(value));                                                \
    } while (0)

static intptr_t value_of(int t, int i) { return ((intptr_t)(t + 1) << 24) | (intptr_t)i; }

/* Calls back into the library: set on another keyval of this thread's scratch comm, and a
   dup/free of another communicator. */
static void call_back_in(void *v)
{
    CHECK_OK(MPI_Comm_set_attr(scratch, kScratch, v));
    MPI_Comm x;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_SELF, &x));
    CHECK_OK(MPI_Comm_free(&x));
}

static int copy_A(MPI_Comm old, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)kv, (void)extra;
    atomic_fetch_add(&copyA, 1);
    /* kB was set on the private comm with the same value, before kA */
    void *b = NULL;
    int f = -1;
    CHECK_OK(MPI_Comm_get_attr(old, kB, &b, &f));
    if (f != 1 || b != in)
        BAD_READ("f != 1 || b != in", f, b);
    call_back_in(in);
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int del_A(MPI_Comm c, int kv, void *v, void *extra)
{
    (void)kv, (void)extra;
    atomic_fetch_add(&delA, 1);
    /* kB is older than kA on every comm that has kA: still there, same value */
    void *b = NULL;
    int f = -1;
    CHECK_OK(MPI_Comm_get_attr(c, kB, &b, &f));
    if (f != 1 || b != v)
        BAD_READ("f != 1 || b != v", f, b);
    call_back_in(v);
    return MPI_SUCCESS;
}

static int del_B(MPI_Comm c, int kv, void *v, void *extra)
{
    (void)c, (void)kv, (void)v, (void)extra;
    atomic_fetch_add(&delB, 1);
    return MPI_SUCCESS;
}

static int copy_S(MPI_Comm old, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)extra;
    atomic_fetch_add(&copyS, 1);
    /* read the shared attribute being copied while other threads replace it */
    void *s = NULL;
    int f = -1;
    CHECK_OK(MPI_Comm_get_attr(old, kv, &s, &f));
    if (f != 1 || (PTRI(s) >> 24) < 1 || (PTRI(s) >> 24) > NT)
        BAD_READ("f != 1 || (PTRI(s) >> 24) < 1 || (PTRI(s) >> 24) > NT", f, s);
    call_back_in(in);
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int del_S(MPI_Comm c, int kv, void *v, void *extra)
{
    (void)c, (void)kv, (void)extra;
    atomic_fetch_add(&delS, 1);
    if ((PTRI(v) >> 24) < 1 || (PTRI(v) >> 24) > NT)
        BAD_READ("(PTRI(v) >> 24) < 1 || (PTRI(v) >> 24) > NT", 1, v);
    return MPI_SUCCESS;
}

static int del_T(MPI_Comm c, int kv, void *v, void *extra)
{
    (void)c, (void)v;
    atomic_fetch_add(&delT, 1);
    /* extra_state is the owning thread's index */
    if (kv != kT[*(int *)extra])
        BAD_READ("kv != kT[*(int *)extra]", 1, IPTR(kv));
    return MPI_SUCCESS;
}

static int tids[NT];

static void *worker(void *arg)
{
    int t = *(int *)arg;
    int flag = -1;
    CHECK_OK(MPI_Is_thread_main(&flag));
    CHECK_EQ_INT(flag, 0);
    int provided = -1;
    CHECK_OK(MPI_Query_thread(&provided));
    CHECK_EQ_INT(provided, MPI_THREAD_MULTIPLE);

    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_SELF, &scratch));
    MPI_Comm priv;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &priv));
    int e_copyA = 0, e_delA = 0, e_delB = 0, e_copyS = 0, e_delS = 0, e_delT = 0;
    int t_set = 0, b_set = 0;

    for (int i = 0; i < ITERS; i++) {
        void *v = IPTR(value_of(t, i));
        /* private comm: kB then kA with the same value */
        CHECK_OK(MPI_Comm_set_attr(priv, kB, v));
        if (b_set)
            e_delB++;
        b_set = 1;
        CHECK_OK(MPI_Comm_set_attr(priv, kA, v));
        void *got = NULL;
        int f = -1;
        CHECK_OK(MPI_Comm_get_attr(priv, kA, &got, &f));
        if (f != 1 || got != v)
            BAD_READ("f != 1 || got != v", f, got);

        MPI_Comm q;
        CHECK_OK(MPI_Comm_dup(priv, &q));
        e_copyA++;
        got = NULL;
        f = -1;
        CHECK_OK(MPI_Comm_get_attr(q, kA, &got, &f));
        if (f != 1 || got != v)
            BAD_READ("f != 1 || got != v", f, got);
        CHECK_OK(MPI_Comm_get_attr(q, kB, &got, &f));
        if (f != 1 || got != v)
            BAD_READ("f != 1 || got != v", f, got);
        CHECK_OK(MPI_Comm_free(&q));
        e_delA++;
        e_delB++;
        CHECK_OK(MPI_Comm_delete_attr(priv, kA));
        e_delA++;

        /* shared comm: this thread's own keyval */
        CHECK_OK(MPI_Comm_set_attr(shared, kT[t], v));
        if (t_set)
            e_delT++;
        t_set = 1;
        got = NULL;
        f = -1;
        CHECK_OK(MPI_Comm_get_attr(shared, kT[t], &got, &f));
        if (f != 1 || got != v)
            BAD_READ("f != 1 || got != v", f, got);
        if (i % 4 == 3) {
            CHECK_OK(MPI_Comm_delete_attr(shared, kT[t]));
            e_delT++;
            t_set = 0;
        }

        /* shared comm: one keyval for all threads */
        CHECK_OK(MPI_Comm_set_attr(shared, kS, v));
        e_delS++; /* every value set is deleted once in the end */
        got = NULL;
        f = -1;
        CHECK_OK(MPI_Comm_get_attr(shared, kS, &got, &f));
        if (f != 1 || (PTRI(got) >> 24) < 1 || (PTRI(got) >> 24) > NT)
            BAD_READ("f != 1 || (PTRI(got) >> 24) < 1 || (PTRI(got) >> 24) > NT", f, got);

        if (i % 50 == 0) {
            MPI_Comm d;
            CHECK_OK(MPI_Comm_dup(shared, &d));
            e_copyS++;
            got = NULL;
            f = -1;
            CHECK_OK(MPI_Comm_get_attr(d, kS, &got, &f));
            if (f != 1)
                BAD_READ("f != 1", f, got);
            CHECK_OK(MPI_Comm_get_attr(d, kT[t], &got, &f));
            if (f != 0) /* NULL copy */
                BAD_READ("f != 0 (kT has MPI_COMM_NULL_COPY_FN)", f, got);
            CHECK_OK(MPI_Comm_free(&d));
            e_delS++;
            /* a keyval born and gone in this thread */
            int k;
            CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL));
            CHECK_OK(MPI_Comm_set_attr(priv, k, v));
            CHECK_OK(MPI_Comm_free_keyval(&k));
            CHECK_EQ_INT(k, MPI_KEYVAL_INVALID);
            CHECK_RC(MPI_Comm_delete_attr(priv, MPI_KEYVAL_INVALID), MPI_ERR_KEYVAL);
        }
    }
    /* private comm: kB left (and the freed keyvals' attributes) */
    CHECK_OK(MPI_Comm_free(&priv));
    e_delB++;
    CHECK_OK(MPI_Comm_free(&scratch));

    atomic_fetch_add(&exp_copyA, e_copyA);
    atomic_fetch_add(&exp_delA, e_delA);
    atomic_fetch_add(&exp_delB, e_delB);
    atomic_fetch_add(&exp_copyS, e_copyS);
    atomic_fetch_add(&exp_delS, e_delS);
    atomic_fetch_add(&exp_delT, e_delT + t_set); /* the last value goes with the shared comm */
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = -1;
    REQUIRE_OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided));
    CHECK_EQ_INT(provided, MPI_THREAD_MULTIPLE);
    errors_return();
    provided = -1;
    CHECK_OK(MPI_Query_thread(&provided));
    CHECK_EQ_INT(provided, MPI_THREAD_MULTIPLE);
    int flag = -1;
    CHECK_OK(MPI_Is_thread_main(&flag));
    CHECK_EQ_INT(flag, 1);

    REQUIRE_OK(MPI_Comm_create_keyval(copy_A, del_A, &kA, NULL));
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, del_B, &kB, NULL));
    REQUIRE_OK(MPI_Comm_create_keyval(copy_S, del_S, &kS, NULL));
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kScratch, NULL));
    for (int t = 0; t < NT; t++) {
        tids[t] = t;
        REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_T, &kT[t], &tids[t]));
    }
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &shared));

    pthread_t th[NT];
    for (int t = 0; t < NT; t++)
        REQUIRE(pthread_create(&th[t], NULL, worker, &tids[t]) == 0);
    for (int t = 0; t < NT; t++)
        REQUIRE(pthread_join(th[t], NULL) == 0);

    CHECK_OK(MPI_Comm_free(&shared));

    CHECK_EQ_INT(atomic_load(&bad_reads), 0);
    CHECK_EQ_INT(atomic_load(&copyA), atomic_load(&exp_copyA));
    CHECK_EQ_INT(atomic_load(&delA), atomic_load(&exp_delA));
    CHECK_EQ_INT(atomic_load(&delB), atomic_load(&exp_delB));
    CHECK_EQ_INT(atomic_load(&copyS), atomic_load(&exp_copyS));
    CHECK_EQ_INT(atomic_load(&delS), atomic_load(&exp_delS));
    CHECK_EQ_INT(atomic_load(&delT), atomic_load(&exp_delT));
    CHECK_EQ_INT(atomic_load(&copyA), NT * ITERS);

    CHECK_OK(MPI_Comm_free_keyval(&kA));
    CHECK_OK(MPI_Comm_free_keyval(&kB));
    CHECK_OK(MPI_Comm_free_keyval(&kS));
    CHECK_OK(MPI_Comm_free_keyval(&kScratch));
    for (int t = 0; t < NT; t++)
        CHECK_OK(MPI_Comm_free_keyval(&kT[t]));
    REQUIRE_OK(MPI_Finalize());
    return test_finish("threads");
}
