/*
 * MPI_Finalize's order (attributes.md §4, semantics.md "MPI_Finalize order"): first the delete
 * callbacks of MPI_COMM_SELF's attributes, newest set first (a replaced value counts as
 * newest, a freed-but-used keyval still runs), with MPI_Finalized reporting false inside them;
 * then MPI_COMM_WORLD's, newest first; then those on predefined datatypes (in handle order,
 * each newest first). Objects still alive (a user communicator, a user datatype) are released
 * without callbacks. The order is recorded in a global array and checked after MPI_Finalize
 * returns, when MPI_Finalized says true.
 */
#include "check.h"

#define LOGN 64
static int order_log[LOGN]; /* tags, see below */
static int nlog;
static int finalized_inside[LOGN];
static int initialized_inside[LOGN];

static void record(int tag)
{
    int fin = -1, ini = -1;
    int rc1 = MPI_Finalized(&fin);
    int rc2 = MPI_Initialized(&ini);
    if (nlog < LOGN) {
        order_log[nlog] = tag;
        finalized_inside[nlog] = rc1 == MPI_SUCCESS ? fin : -2;
        initialized_inside[nlog] = rc2 == MPI_SUCCESS ? ini : -2;
    }
    nlog++;
}

/* The attribute value is the tag. */
static int comm_del(MPI_Comm c, int kv, void *value, void *extra)
{
    (void)c, (void)kv, (void)extra;
    record((int)PTRI(value));
    return MPI_SUCCESS;
}

static int type_del(MPI_Datatype t, int kv, void *value, void *extra)
{
    (void)t, (void)kv, (void)extra;
    record((int)PTRI(value));
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);

    int ks[4], kw[3], kt[3], kalive, ktalive;
    for (int i = 0; i < 4; i++)
        REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_del, &ks[i], NULL));
    for (int i = 0; i < 3; i++)
        REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_del, &kw[i], NULL));
    for (int i = 0; i < 3; i++)
        REQUIRE_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_del, &kt[i], NULL));
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_del, &kalive, NULL));
    REQUIRE_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_del, &ktalive, NULL));

    /* WORLD first in time, so that "SELF first" is not just "newest first overall". */
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kw[0], IPTR(201)));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kw[1], IPTR(202)));
    /* SELF: 101, 102, 103, 104, then 101 replaced by 111 (logs 101 now). */
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_SELF, ks[0], IPTR(101)));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_SELF, ks[1], IPTR(102)));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_SELF, ks[2], IPTR(103)));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_SELF, ks[3], IPTR(104)));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_SELF, ks[0], IPTR(111)));
    CHECK_EQ_INT(nlog, 1);
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kw[2], IPTR(203)));
    /* Predefined datatypes: MPI_DOUBLE (0x214) set first, MPI_INT (0x209) after. */
    CHECK_OK(MPI_Type_set_attr(MPI_DOUBLE, kt[0], IPTR(301)));
    CHECK_OK(MPI_Type_set_attr(MPI_INT, kt[1], IPTR(302)));
    CHECK_OK(MPI_Type_set_attr(MPI_INT, kt[2], IPTR(303)));
    /* Live user objects: released without callbacks. */
    MPI_Comm alive;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_SELF, &alive));
    CHECK_OK(MPI_Comm_set_attr(alive, kalive, IPTR(901)));
    MPI_Datatype talive;
    REQUIRE_OK(MPI_Type_contiguous(2, MPI_INT, &talive));
    CHECK_OK(MPI_Type_set_attr(talive, ktalive, IPTR(902)));

    /* A freed keyval still in use on SELF: its callback still runs at finalize. */
    CHECK_OK(MPI_Comm_free_keyval(&ks[3]));
    CHECK_EQ_INT(ks[3], MPI_KEYVAL_INVALID);

    nlog = 0;
    REQUIRE_OK(MPI_Finalize());

    int fin = -1, ini = -1;
    CHECK_OK(MPI_Finalized(&fin));
    CHECK_EQ_INT(fin, 1);
    CHECK_OK(MPI_Initialized(&ini));
    CHECK_EQ_INT(ini, 1);

    static const int expected[] = {111, 104, 103, 102, /* SELF, newest first */
                                   203, 202, 201,      /* WORLD, newest first */
                                   303, 302,           /* MPI_INT (0x209), newest first */
                                   301};               /* MPI_DOUBLE (0x214) */
    const int nexp = (int)(sizeof expected / sizeof expected[0]);
    CHECK_MSG(nlog == nexp, "%d delete callbacks ran during MPI_Finalize, expected %d", nlog, nexp);
    for (int i = 0; i < nlog && i < LOGN; i++) {
        if (i < nexp)
            CHECK_MSG(order_log[i] == expected[i], "finalize delete #%d: got %d, expected %d", i,
                      order_log[i], expected[i]);
        else
            CHECK_MSG(0, "finalize delete #%d: unexpected callback for %d", i, order_log[i]);
        CHECK_MSG(order_log[i] != 901 && order_log[i] != 902,
                  "a live user object's delete callback (%d) ran during MPI_Finalize",
                  order_log[i]);
        if (order_log[i] >= 101 && order_log[i] <= 111)
            CHECK_MSG(finalized_inside[i] == 0,
                      "MPI_Finalized inside MPI_COMM_SELF's delete callback #%d gave %d, expected 0",
                      i, finalized_inside[i]);
        CHECK_MSG(initialized_inside[i] == 1,
                  "MPI_Initialized inside delete callback #%d gave %d, expected 1", i,
                  initialized_inside[i]);
    }
    return test_finish("finalize_order");
}
