/*
 * Attribute caching speed, written against the standard MPI C API only, so the same source
 * builds against mpiattr, MPICH and Open MPI (ci/bench builds it against each and prints the
 * table).
 *
 * With 10^4 live keyvals in the process, for N = 1, 16, 256 and 1024 attributes on one
 * object, it measures in nanoseconds per operation:
 *   get_set        MPI_Comm_get_attr of an attribute the communicator has (cycling over all N)
 *   get_unset      MPI_Comm_get_attr of a keyval the communicator has no value for
 *   set_existing   MPI_Comm_set_attr over an existing value (no delete callback)
 *   delete_set     MPI_Comm_delete_attr followed by MPI_Comm_set_attr
 *   comm_dup       MPI_Comm_dup, per attribute copied with MPI_COMM_DUP_FN (N >= 16):
 *                  (time with N attributes - time with none) / N, both timed alternately in
 *                  one loop, the median of 15 runs
 *   comm_free      MPI_Comm_free of such a duplicate, per attribute, the same way (N >= 16)
 *   type_dup       MPI_Type_dup, per attribute copied with MPI_TYPE_DUP_FN (N >= 16)
 *   type_free      MPI_Type_free of such a duplicate, per attribute (N >= 16)
 *   comm_dup_free_call, type_dup_free_call
 *                  a whole MPI_Comm_dup + MPI_Comm_free (MPI_Type_dup + MPI_Type_free) of an
 *                  object with no attribute (printed as N = 0) and with one (N = 1), timed
 *                  over a loop of them like the other figures (a clock read around each
 *                  call, as the per-attribute figures need, would add about two reads of the
 *                  clock, 40 ns each on a virtual machine, to every implementation's figure):
 *                  at 1 attribute a per-attribute figure would be the difference of two
 *                  times of about 100 ns, mostly noise
 * and once:
 *   keyval         MPI_Comm_create_keyval + MPI_Comm_free_keyval
 *
 * Every other figure is the best of several timed runs of about 20 ms (the least disturbed
 * one).
 * Output: one line per figure, "op N ns".
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "timing.h"

#define LIVE_KEYVALS 10000

static const int sizes[] = {1, 16, 256, 1024};
static int keyvals[LIVE_KEYVALS];
static int type_keyvals[1024];
static volatile intptr_t sink;

struct comm_state {
    MPI_Comm comm;
    int n;
    int unset;
};

static void get_set(void *p, long count)
{
    struct comm_state *s = p;
    for (long i = 0; i < count; i++)
        for (int k = 0; k < s->n; k++) {
            void *v;
            int flag;
            MPI_Comm_get_attr(s->comm, keyvals[k], &v, &flag);
            sink += (intptr_t)v;
        }
}

static void get_unset(void *p, long count)
{
    struct comm_state *s = p;
    for (long i = 0; i < count; i++) {
        void *v;
        int flag;
        MPI_Comm_get_attr(s->comm, s->unset, &v, &flag);
        sink += flag;
    }
}

static void set_existing(void *p, long count)
{
    struct comm_state *s = p;
    for (long i = 0; i < count; i++)
        for (int k = 0; k < s->n; k++)
            MPI_Comm_set_attr(s->comm, keyvals[k], (void *)(intptr_t)(i + 1));
}

static void delete_set(void *p, long count)
{
    struct comm_state *s = p;
    for (long i = 0; i < count; i++)
        for (int k = 0; k < s->n; k++) {
            MPI_Comm_delete_attr(s->comm, keyvals[k]);
            MPI_Comm_set_attr(s->comm, keyvals[k], (void *)(intptr_t)(i + 1));
        }
}

/* Dup and free, timed apart, of an object with attributes and of a bare one, alternately in
   one loop so that both see the same machine; accumulates the four times. */
struct dup_state {
    MPI_Comm comm, bare_comm;
    MPI_Datatype type, bare_type;
    double dup_ns, free_ns, bare_dup_ns, bare_free_ns;
};

static void time_comm(MPI_Comm comm, double *dup, double *freed)
{
    MPI_Comm copy;
    double t0 = now_ns();
    MPI_Comm_dup(comm, &copy);
    double t1 = now_ns();
    MPI_Comm_free(&copy);
    double t2 = now_ns();
    *dup += t1 - t0;
    *freed += t2 - t1;
}

static void time_type(MPI_Datatype type, double *dup, double *freed)
{
    MPI_Datatype copy;
    double t0 = now_ns();
    MPI_Type_dup(type, &copy);
    double t1 = now_ns();
    MPI_Type_free(&copy);
    double t2 = now_ns();
    *dup += t1 - t0;
    *freed += t2 - t1;
}

static void comm_dup_free(void *p, long count)
{
    struct dup_state *s = p;
    for (long i = 0; i < count; i++) {
        time_comm(s->comm, &s->dup_ns, &s->free_ns);
        time_comm(s->bare_comm, &s->bare_dup_ns, &s->bare_free_ns);
    }
}

static void type_dup_free(void *p, long count)
{
    struct dup_state *s = p;
    for (long i = 0; i < count; i++) {
        time_type(s->type, &s->dup_ns, &s->free_ns);
        time_type(s->bare_type, &s->bare_dup_ns, &s->bare_free_ns);
    }
}

/* Whole dup + free pairs of one object, for the calls at 0 and 1 attributes. */
struct whole_state {
    MPI_Comm comm;
    MPI_Datatype type;
};

static void comm_dup_free_whole(void *p, long count)
{
    struct whole_state *s = p;
    for (long i = 0; i < count; i++) {
        MPI_Comm copy;
        MPI_Comm_dup(s->comm, &copy);
        MPI_Comm_free(&copy);
    }
}

static void type_dup_free_whole(void *p, long count)
{
    struct whole_state *s = p;
    for (long i = 0; i < count; i++) {
        MPI_Datatype copy;
        MPI_Type_dup(s->type, &copy);
        MPI_Type_free(&copy);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define DUP_REPEATS 15

struct dup_figures {
    double dup, freed; /* per attribute */
};

static double median(double *values)
{
    qsort(values, DUP_REPEATS, sizeof(double), cmp_double);
    return values[DUP_REPEATS / 2];
}

/* Medians over DUP_REPEATS runs: per attribute (time with n attributes - time bare) / n, for
   dup and for free. */
static struct dup_figures measure_dup(body_fn body, struct dup_state *s, int n)
{
    long runs = n >= 256 ? 100 : 1000;
    double dups[DUP_REPEATS], frees[DUP_REPEATS];
    for (int r = 0; r < DUP_REPEATS; r++) {
        s->dup_ns = s->free_ns = s->bare_dup_ns = s->bare_free_ns = 0;
        body(s, runs);
        dups[r] = (s->dup_ns - s->bare_dup_ns) / (double)runs / n;
        frees[r] = (s->free_ns - s->bare_free_ns) / (double)runs / n;
    }
    struct dup_figures f = {median(dups), median(frees)};
    return f;
}

/* One kind's per-attribute rows (from 16 attributes on). */
static void print_dup(const char *kind, int n, struct dup_figures f)
{
    printf("%s_dup %d %.2f\n", kind, n, f.dup);
    printf("%s_free %d %.2f\n", kind, n, f.freed);
}

static void keyval_create_free(void *p, long count)
{
    (void)p;
    for (long i = 0; i < count; i++) {
        int k;
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL);
        MPI_Comm_free_keyval(&k);
    }
}

int main(int argc, char **argv)
{
    check(MPI_Init(&argc, &argv), "MPI_Init");
    for (int i = 0; i < LIVE_KEYVALS; i++)
        check(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &keyvals[i], NULL),
              "MPI_Comm_create_keyval");
    for (int i = 0; i < 1024; i++)
        check(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &type_keyvals[i],
                                     NULL),
              "MPI_Type_create_keyval");

    /* The bare objects, the baseline subtracted from every size. */
    MPI_Comm bare_comm;
    MPI_Datatype bare_type;
    check(MPI_Comm_dup(MPI_COMM_WORLD, &bare_comm), "MPI_Comm_dup");
    check(MPI_Type_contiguous(2, MPI_INT, &bare_type), "MPI_Type_contiguous");
    check(MPI_Type_commit(&bare_type), "MPI_Type_commit");

    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        struct comm_state cs = {MPI_COMM_NULL, n, keyvals[LIVE_KEYVALS - 1]};
        check(MPI_Comm_dup(MPI_COMM_WORLD, &cs.comm), "MPI_Comm_dup");
        for (int k = 0; k < n; k++)
            check(MPI_Comm_set_attr(cs.comm, keyvals[k], (void *)(intptr_t)(k + 1)),
                  "MPI_Comm_set_attr");
        printf("get_set %d %.2f\n", n, measure(get_set, &cs, n));
        printf("get_unset %d %.2f\n", n, measure(get_unset, &cs, 1));
        printf("set_existing %d %.2f\n", n, measure(set_existing, &cs, n));
        printf("delete_set %d %.2f\n", n, measure(delete_set, &cs, n));

        struct dup_state ds = {cs.comm, bare_comm, MPI_DATATYPE_NULL, bare_type, 0, 0, 0, 0};
        check(MPI_Type_contiguous(2, MPI_INT, &ds.type), "MPI_Type_contiguous");
        check(MPI_Type_commit(&ds.type), "MPI_Type_commit");
        for (int k = 0; k < n; k++)
            check(MPI_Type_set_attr(ds.type, type_keyvals[k], (void *)(intptr_t)(k + 1)),
                  "MPI_Type_set_attr");
        if (n == 1) {
            struct whole_state bare = {bare_comm, bare_type}, one = {cs.comm, ds.type};
            printf("comm_dup_free_call 0 %.2f\n", measure(comm_dup_free_whole, &bare, 1));
            printf("comm_dup_free_call 1 %.2f\n", measure(comm_dup_free_whole, &one, 1));
            printf("type_dup_free_call 0 %.2f\n", measure(type_dup_free_whole, &bare, 1));
            printf("type_dup_free_call 1 %.2f\n", measure(type_dup_free_whole, &one, 1));
        } else {
            print_dup("comm", n, measure_dup(comm_dup_free, &ds, n));
            print_dup("type", n, measure_dup(type_dup_free, &ds, n));
        }
        fflush(stdout);
        MPI_Type_free(&ds.type);
        MPI_Comm_free(&cs.comm);
    }
    printf("keyval 0 %.2f\n", measure(keyval_create_free, NULL, 1));
    MPI_Comm_free(&bare_comm);
    MPI_Type_free(&bare_type);
    MPI_Finalize();
    return 0;
}
