/*
 * Predefined communicator attributes (attributes.md §3, docs/semantics.md "Predefined attributes"):
 * on MPI_COMM_WORLD, C reads an int* for each of MPI_TAG_UB (>= 32767), MPI_HOST
 * (MPI_PROC_NULL), MPI_IO (0), MPI_WTIME_IS_GLOBAL (1), MPI_UNIVERSE_SIZE (1), MPI_APPNUM (0),
 * MPI_LASTUSEDCODE (>= MPI_ERR_LASTCODE). The same values on duplicates of MPI_COMM_WORLD
 * (dup, dup_with_info, idup, dup of a dup), not on MPI_COMM_SELF nor on split communicators.
 * The pointer returned stays valid and unchanged: the same pointer on every read, the same
 * value after other attribute traffic and dups/frees.
 */
#include "check.h"

#define NPRE 7
static const int pre_keys[NPRE] = {MPI_TAG_UB,       MPI_HOST,   MPI_IO,          MPI_WTIME_IS_GLOBAL,
                                   MPI_UNIVERSE_SIZE, MPI_APPNUM, MPI_LASTUSEDCODE};
static const char *const pre_names[NPRE] = {"MPI_TAG_UB",        "MPI_HOST",   "MPI_IO",
                                            "MPI_WTIME_IS_GLOBAL", "MPI_UNIVERSE_SIZE",
                                            "MPI_APPNUM",        "MPI_LASTUSEDCODE"};

static void check_value(int i, int v, const char *where)
{
    switch (pre_keys[i]) {
    case MPI_TAG_UB:
        CHECK_MSG(v >= 32767, "%s on %s: %d < 32767", pre_names[i], where, v);
        break;
    case MPI_HOST:
        CHECK_MSG(v == MPI_PROC_NULL, "%s on %s: expected MPI_PROC_NULL, got %d", pre_names[i],
                  where, v);
        break;
    case MPI_IO:
        CHECK_MSG(v == 0, "%s on %s: expected 0, got %d", pre_names[i], where, v);
        break;
    case MPI_WTIME_IS_GLOBAL:
        CHECK_MSG(v == 1, "%s on %s: expected 1, got %d", pre_names[i], where, v);
        break;
    case MPI_UNIVERSE_SIZE:
        CHECK_MSG(v == 1, "%s on %s: expected 1, got %d", pre_names[i], where, v);
        break;
    case MPI_APPNUM:
        CHECK_MSG(v == 0, "%s on %s: expected 0, got %d", pre_names[i], where, v);
        break;
    case MPI_LASTUSEDCODE:
        CHECK_MSG(v >= MPI_ERR_LASTCODE, "%s on %s: %d < MPI_ERR_LASTCODE", pre_names[i], where,
                  v);
        break;
    }
}

/* Reads every predefined attribute of comm, checks the values, returns the pointers. */
static void read_all(MPI_Comm comm, const char *where, int *ptrs[NPRE], int vals[NPRE])
{
    for (int i = 0; i < NPRE; i++) {
        int *p = NULL;
        int flag = -1;
        CHECK_OK(MPI_Comm_get_attr(comm, pre_keys[i], &p, &flag));
        CHECK_MSG(flag == 1, "%s on %s: flag %d, expected 1", pre_names[i], where, flag);
        ptrs[i] = NULL;
        if (flag != 1)
            continue;
        CHECK_MSG(p != NULL, "%s on %s: NULL pointer", pre_names[i], where);
        if (p == NULL)
            continue;
        ptrs[i] = p;
        vals[i] = *p;
        check_value(i, *p, where);
        /* The deprecated getter reads the same C view. */
        int *q = NULL;
        flag = -1;
        CHECK_OK(MPI_Attr_get(comm, pre_keys[i], &q, &flag));
        CHECK_EQ_INT(flag, 1);
        if (q != NULL)
            CHECK_MSG(*q == *p, "%s on %s: MPI_Attr_get %d vs MPI_Comm_get_attr %d", pre_names[i],
                      where, *q, *p);
    }
}

static void absent_all(MPI_Comm comm, const char *where)
{
    for (int i = 0; i < NPRE; i++) {
        void *p = NULL;
        int flag = -1;
        CHECK_OK(MPI_Comm_get_attr(comm, pre_keys[i], &p, &flag));
        CHECK_MSG(flag == 0, "%s on %s: flag %d, expected 0 (absent)", pre_names[i], where, flag);
    }
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);

    int *wptr[NPRE], wval[NPRE];
    read_all(MPI_COMM_WORLD, "MPI_COMM_WORLD", wptr, wval);

    /* Reading again gives the very same pointers. */
    {
        int *again[NPRE], vals[NPRE];
        read_all(MPI_COMM_WORLD, "MPI_COMM_WORLD (again)", again, vals);
        for (int i = 0; i < NPRE; i++) {
            CHECK_MSG(again[i] == wptr[i], "%s: pointer changed between reads (%p, %p)",
                      pre_names[i], (void *)wptr[i], (void *)again[i]);
            CHECK_EQ_INT(vals[i], wval[i]);
        }
    }

    /* Duplicates carry them, with the same values; dup of a dup too. */
    MPI_Comm d1, d2, d3, d4;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &d1));
    REQUIRE_OK(MPI_Comm_dup(d1, &d2));
    REQUIRE_OK(MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &d3));
    MPI_Request req;
    REQUIRE_OK(MPI_Comm_idup(MPI_COMM_WORLD, &d4, &req));
    REQUIRE_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    {
        MPI_Comm dups[4] = {d1, d2, d3, d4};
        const char *names[4] = {"dup(WORLD)", "dup(dup(WORLD))", "dup_with_info(WORLD)",
                                "idup(WORLD)"};
        for (int d = 0; d < 4; d++) {
            int *ptrs[NPRE], vals[NPRE];
            read_all(dups[d], names[d], ptrs, vals);
            for (int i = 0; i < NPRE; i++) {
                if (ptrs[i] == NULL || wptr[i] == NULL)
                    continue;
                CHECK_MSG(vals[i] == wval[i], "%s on %s: %d, on MPI_COMM_WORLD %d", pre_names[i],
                          names[d], vals[i], wval[i]);
                /* attributes.md §4: no attribute points into another object's storage */
                CHECK_MSG(ptrs[i] != wptr[i], "%s on %s: same int* as on MPI_COMM_WORLD (%p)",
                          pre_names[i], names[d], (void *)ptrs[i]);
            }
        }
    }
    /* The dup's pointers stay valid while the dup lives, across more traffic. */
    int *d1ptr[NPRE], d1val[NPRE];
    read_all(d1, "dup(WORLD)", d1ptr, d1val);

    /* MPI_COMM_SELF and split communicators do not have them. */
    absent_all(MPI_COMM_SELF, "MPI_COMM_SELF");
    MPI_Comm split;
    REQUIRE_OK(MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &split));
    absent_all(split, "split(WORLD)");
    MPI_Comm selfdup;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_SELF, &selfdup));
    absent_all(selfdup, "dup(SELF)");

    /* Attribute traffic on WORLD and elsewhere must not move or change them. */
    int kv[8];
    for (int k = 0; k < 8; k++) {
        REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kv[k], NULL));
        CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kv[k], IPTR(k + 100)));
        CHECK_OK(MPI_Comm_set_attr(d1, kv[k], IPTR(k + 200)));
    }
    for (int r = 0; r < 50; r++) {
        MPI_Comm t;
        REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &t));
        REQUIRE_OK(MPI_Comm_free(&t));
    }
    for (int k = 0; k < 8; k += 2)
        CHECK_OK(MPI_Comm_delete_attr(MPI_COMM_WORLD, kv[k]));
    CHECK_OK(MPI_Comm_free(&d2));
    CHECK_OK(MPI_Comm_free(&d3));
    CHECK_OK(MPI_Comm_free(&d4));
    for (int i = 0; i < NPRE; i++) {
        if (wptr[i] != NULL)
            CHECK_MSG(*wptr[i] == wval[i], "%s on WORLD: stored value changed from %d to %d",
                      pre_names[i], wval[i], *wptr[i]);
        if (d1ptr[i] != NULL)
            CHECK_MSG(*d1ptr[i] == d1val[i], "%s on dup: stored value changed from %d to %d",
                      pre_names[i], d1val[i], *d1ptr[i]);
        int *p = NULL;
        int flag = 0;
        CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, pre_keys[i], &p, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_MSG(p == wptr[i], "%s: pointer on WORLD moved (%p -> %p)", pre_names[i],
                  (void *)wptr[i], (void *)p);
        CHECK_OK(MPI_Comm_get_attr(d1, pre_keys[i], &p, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_MSG(p == d1ptr[i], "%s: pointer on dup moved (%p -> %p)", pre_names[i],
                  (void *)d1ptr[i], (void *)p);
    }
    /* User attributes copied alongside. */
    {
        MPI_Comm t;
        REQUIRE_OK(MPI_Comm_dup(d1, &t));
        int *ptrs[NPRE], vals[NPRE];
        read_all(t, "dup(dup(WORLD)) with user attributes", ptrs, vals);
        for (int k = 0; k < 8; k++) {
            void *v = NULL;
            int flag = 0;
            CHECK_OK(MPI_Comm_get_attr(t, kv[k], &v, &flag));
            CHECK_EQ_INT(flag, 1);
            CHECK_EQ_INT(PTRI(v), k + 200);
        }
        CHECK_OK(MPI_Comm_free(&t));
    }

    for (int k = 0; k < 8; k++)
        CHECK_OK(MPI_Comm_free_keyval(&kv[k]));
    CHECK_OK(MPI_Comm_free(&d1));
    CHECK_OK(MPI_Comm_free(&split));
    CHECK_OK(MPI_Comm_free(&selfdup));
    for (int i = 0; i < NPRE; i++)
        if (wptr[i] != NULL)
            CHECK_MSG(*wptr[i] == wval[i], "%s on WORLD: stored value changed from %d to %d",
                      pre_names[i], wval[i], *wptr[i]);

    REQUIRE_OK(MPI_Finalize());
    return test_finish("predefined_attrs");
}
