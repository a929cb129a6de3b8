/*
 * MPI_THREAD_MULTIPLE beyond communicator attributes (attributes.md §6), as a threaded user
 * program calls in: four pthreads each, from the start, read MPI_Wtime (its first call may be
 * on any of them), create and free keyvals with user callbacks for communicators, datatypes
 * and windows, duplicate and free datatypes and windows with attributes on them, set
 * attributes on a predefined datatype and MPI_COMM_WORLD shared by all, name communicators,
 * convert handles to Fortran and back, set MPI_COMM_WORLD's error handler while the others
 * make calls that fail on it and on MPI_COMM_SELF. Every value read is right and every
 * callback runs as often as expected. ci/check-memory runs it under helgrind and drd too:
 * nothing in the library may look like a race to them.
 */
#include "check.h"

#include <pthread.h>

#define NT 4
#define ITERS 300

static atomic_int copies, deletes, exp_copies, exp_deletes, bad_reads;
static int kShared; /* a communicator keyval made by main, set by every thread on WORLD */

#define BAD_READ(what, flag, value)                                                            \
    do {                                                                                       \
        atomic_fetch_add(&bad_reads, 1);                                                       \
        check_fail(__FILE__, __LINE__, "%s: flag %d, value %#lx", what, (int)(flag),           \
                   (unsigned long)PTRI(value));                                                \
    } while (0)

static int copy_type(MPI_Datatype t, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)t, (void)kv, (void)extra;
    atomic_fetch_add(&copies, 1);
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int del_type(MPI_Datatype t, int kv, void *v, void *extra)
{
    (void)t, (void)kv, (void)v, (void)extra;
    atomic_fetch_add(&deletes, 1);
    return MPI_SUCCESS;
}

static int del_comm(MPI_Comm c, int kv, void *v, void *extra)
{
    (void)c, (void)kv, (void)v, (void)extra;
    atomic_fetch_add(&deletes, 1);
    return MPI_SUCCESS;
}

static int del_win(MPI_Win w, int kv, void *v, void *extra)
{
    (void)w, (void)kv, (void)v, (void)extra;
    atomic_fetch_add(&deletes, 1);
    return MPI_SUCCESS;
}

static int tids[NT];

static void *worker(void *arg)
{
    int t = *(int *)arg;
    int e_copies = 0, e_deletes = 0;
    double start = MPI_Wtime();
    CHECK(start >= 0.0);
    char buf[64];

    for (int i = 0; i < ITERS; i++) {
        void *v = IPTR(((intptr_t)(t + 1) << 24) | i);
        int f = -1;
        void *got = NULL;

        /* keyvals with user callbacks, made and freed by this thread */
        int kc, kt, kw;
        CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_comm, &kc, NULL));
        CHECK_OK(MPI_Type_create_keyval(copy_type, del_type, &kt, NULL));
        CHECK_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, del_win, &kw, NULL));

        /* a datatype of its own, with an attribute copied by MPI_Type_dup */
        MPI_Datatype mine, twin;
        CHECK_OK(MPI_Type_contiguous(2 + t, MPI_INT, &mine));
        CHECK_OK(MPI_Type_set_attr(mine, kt, v));
        CHECK_OK(MPI_Type_dup(mine, &twin));
        e_copies++;
        CHECK_OK(MPI_Type_get_attr(twin, kt, &got, &f));
        if (f != 1 || got != v)
            BAD_READ("dup'd type attribute", f, got);
        CHECK_OK(MPI_Type_free(&twin));
        CHECK_OK(MPI_Type_free(&mine));
        e_deletes += 2;

        /* a predefined datatype every thread uses */
        CHECK_OK(MPI_Type_set_attr(MPI_INT, kt, v));
        CHECK_OK(MPI_Type_get_attr(MPI_INT, kt, &got, &f));
        if (f != 1 || got != v)
            BAD_READ("MPI_INT attribute", f, got);
        CHECK_OK(MPI_Type_delete_attr(MPI_INT, kt));
        e_deletes++;

        /* a window with an attribute */
        int base[4];
        MPI_Win win;
        CHECK_OK(MPI_Win_create(base, sizeof base, sizeof base[0], MPI_INFO_NULL, MPI_COMM_SELF,
                                &win));
        CHECK_OK(MPI_Win_set_attr(win, kw, v));
        void *wbase = NULL;
        CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_BASE, &wbase, &f));
        if (f != 1 || wbase != (void *)base)
            BAD_READ("MPI_WIN_BASE", f, wbase);
        CHECK_OK(MPI_Win_free(&win));
        e_deletes++;

        /* communicators: an attribute on MPI_COMM_WORLD, a name, handle conversions */
        CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kc, v));
        CHECK_OK(MPI_Comm_delete_attr(MPI_COMM_WORLD, kc));
        e_deletes++;
        CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kShared, v));
        CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, kShared, &got, &f));
        if (f != 1 || (PTRI(got) >> 24) < 1 || (PTRI(got) >> 24) > NT)
            BAD_READ("shared WORLD attribute", f, got);
        MPI_Comm c;
        CHECK_OK(MPI_Comm_dup(MPI_COMM_SELF, &c));
        snprintf(buf, sizeof buf, "thread %d comm %d", t, i);
        CHECK_OK(MPI_Comm_set_name(c, buf));
        char name[MPI_MAX_OBJECT_NAME];
        int len = -1;
        CHECK_OK(MPI_Comm_get_name(c, name, &len));
        CHECK(strcmp(name, buf) == 0);
        CHECK(MPI_Comm_f2c(MPI_Comm_c2f(c)) == c);
        CHECK(MPI_Type_f2c(MPI_Type_c2f(MPI_INT)) == MPI_INT);
        CHECK_OK(MPI_Comm_free(&c));

        /* error handlers: set on WORLD by one thread while the others fail on WORLD and SELF */
        if (t == 0)
            CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
        CHECK_RC(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, v), MPI_ERR_KEYVAL);
        CHECK_RC(MPI_Comm_delete_attr(MPI_COMM_SELF, MPI_KEYVAL_INVALID), MPI_ERR_KEYVAL);
        MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
        CHECK_OK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
        CHECK(eh == MPI_ERRORS_RETURN);
        CHECK_OK(MPI_Errhandler_free(&eh));

        CHECK_OK(MPI_Comm_free_keyval(&kc));
        CHECK_OK(MPI_Type_free_keyval(&kt));
        CHECK_OK(MPI_Win_free_keyval(&kw));
    }
    CHECK(MPI_Wtime() >= start);
    atomic_fetch_add(&exp_copies, e_copies);
    atomic_fetch_add(&exp_deletes, e_deletes);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = -1;
    REQUIRE_OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_EQ_INT(provided, MPI_THREAD_MULTIPLE);
    errors_return();
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kShared,
                                      NULL));

    pthread_t th[NT];
    for (int t = 0; t < NT; t++) {
        tids[t] = t;
        REQUIRE(pthread_create(&th[t], NULL, worker, &tids[t]) == 0);
    }
    for (int t = 0; t < NT; t++)
        REQUIRE(pthread_join(th[t], NULL) == 0);

    CHECK_EQ_INT(atomic_load(&bad_reads), 0);
    CHECK_EQ_INT(atomic_load(&copies), atomic_load(&exp_copies));
    CHECK_EQ_INT(atomic_load(&deletes), atomic_load(&exp_deletes));
    CHECK_EQ_INT(atomic_load(&copies), NT * ITERS);

    CHECK_OK(MPI_Comm_free_keyval(&kShared));
    REQUIRE_OK(MPI_Finalize());
    return test_finish("threads_wide");
}
