/*
 * User reduction operations and MPI_Info_create_env before MPI_Init (issue 14 items 3, 6):
 * - MPI_Info_create_env before MPI_Init gives a handle that works after MPI_Init (its pairs
 *   are MPI_INFO_ENV's) and can be freed;
 * - MPI_Op_create: MPI_Reduce_local calls the function with the program's buffers, the count
 *   and the datatype handle (predefined and derived); a non-commutative op;
 *   MPI_Op_commutative (1 for predefined ops); MPI_Op_create_c with an MPI_Count length;
 * - MPI_Reduce, MPI_Allreduce, MPI_Scan, MPI_Exscan accept a user op on one process and
 *   deliver the one contribution without calling it;
 * - MPI_Op_c2f/f2c and MPI_Op_toint/fromint round trips;
 * - MPI_Op_free sets MPI_OP_NULL; a freed op, MPI_OP_NULL and a predefined op are
 *   MPI_ERR_OP for MPI_Op_free, MPI_Op_commutative, MPI_Reduce_local and MPI_Allreduce;
 *   NULL outputs and a NULL function are MPI_ERR_ARG; failed calls write nothing.
 */
#include "check.h"

static int calls;
static void *seen_in, *seen_inout;
static int seen_len;
static MPI_Datatype seen_type;

/* inout[i] = in[i] * 10 + inout[i]: the order of the operands shows. */
static void shift_add(void *in, void *inout, int *len, MPI_Datatype *type)
{
    calls++;
    seen_in = in;
    seen_inout = inout;
    seen_len = *len;
    seen_type = *type;
    int count = *len;
    if (*type != MPI_INT)
        count *= 2; /* the pair type below: two ints per element */
    for (int i = 0; i < count; i++)
        ((int *)inout)[i] = ((int *)in)[i] * 10 + ((int *)inout)[i];
}

static MPI_Count seen_len_c;

static void add_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *type)
{
    calls++;
    seen_len_c = *len;
    seen_type = *type;
    for (MPI_Count i = 0; i < *len; i++)
        ((double *)inout)[i] += ((double *)in)[i];
}

int main(int argc, char **argv)
{
    /* MPI_Info_create_env before MPI_Init. */
    MPI_Info early = MPI_INFO_NULL;
    CHECK_OK(MPI_Info_create_env(argc, argv, &early));
    CHECK_NE_HANDLE(early, MPI_INFO_NULL);
    test_init(&argc, &argv);
    int nkeys = -1, env_keys = -2;
    CHECK_OK(MPI_Info_get_nkeys(early, &nkeys));
    CHECK_OK(MPI_Info_get_nkeys(MPI_INFO_ENV, &env_keys));
    CHECK_EQ_INT(nkeys, env_keys);
    char value[MPI_MAX_INFO_VAL + 1];
    int buflen = sizeof value, flag = 0;
    CHECK_OK(MPI_Info_get_string(early, "maxprocs", &buflen, value, &flag));
    CHECK_EQ_INT(flag, 1);
    if (flag)
        CHECK_EQ_STR(value, "1");
    CHECK_OK(MPI_Info_free(&early));
    CHECK_EQ_HANDLE(early, MPI_INFO_NULL);

    /* A user op applied by MPI_Reduce_local. */
    MPI_Op op = MPI_OP_NULL;
    CHECK_OK(MPI_Op_create(shift_add, 0, &op));
    CHECK_NE_HANDLE(op, MPI_OP_NULL);
    int commute = -1;
    CHECK_OK(MPI_Op_commutative(op, &commute));
    CHECK_EQ_INT(commute, 0);
    CHECK_OK(MPI_Op_commutative(MPI_SUM, &commute));
    CHECK_EQ_INT(commute, 1);
    int in[3] = {1, 2, 3}, inout[3] = {4, 5, 6};
    CHECK_OK(MPI_Reduce_local(in, inout, 3, MPI_INT, op));
    CHECK_EQ_INT(calls, 1);
    CHECK_EQ_PTR(seen_in, (void *)in);
    CHECK_EQ_PTR(seen_inout, (void *)inout);
    CHECK_EQ_INT(seen_len, 3);
    CHECK_EQ_HANDLE(seen_type, MPI_INT);
    CHECK_EQ_INT(inout[0], 14);
    CHECK_EQ_INT(inout[2], 36);
    /* A derived datatype reaches the function as its handle. */
    MPI_Datatype pair;
    REQUIRE_OK(MPI_Type_contiguous(2, MPI_INT, &pair));
    REQUIRE_OK(MPI_Type_commit(&pair));
    int pin[4] = {1, 1, 2, 2}, pinout[4] = {0, 0, 0, 0};
    CHECK_OK(MPI_Reduce_local(pin, pinout, 2, pair, op));
    CHECK_EQ_INT(calls, 2);
    CHECK_EQ_INT(seen_len, 2);
    CHECK_EQ_HANDLE(seen_type, pair);
    CHECK_EQ_INT(pinout[3], 20);
    /* Count 0: nothing to combine, NULL buffers allowed. */
    CHECK_OK(MPI_Reduce_local(NULL, NULL, 0, MPI_INT, op));
    /* NULL buffers with data: MPI_ERR_BUFFER, the function not called. */
    CHECK_RC(MPI_Reduce_local(NULL, inout, 3, MPI_INT, op), MPI_ERR_BUFFER);
    CHECK_EQ_INT(calls, 2);

    /* The collectives accept it and never call it: one contribution. */
    int send[3] = {7, 8, 9}, recv[3] = {0, 0, 0};
    CHECK_OK(MPI_Allreduce(send, recv, 3, MPI_INT, op, MPI_COMM_WORLD));
    CHECK_EQ_INT(recv[1], 8);
    recv[1] = 0;
    CHECK_OK(MPI_Reduce(send, recv, 3, MPI_INT, op, 0, MPI_COMM_WORLD));
    CHECK_EQ_INT(recv[1], 8);
    recv[2] = 0;
    CHECK_OK(MPI_Scan(send, recv, 3, MPI_INT, op, MPI_COMM_WORLD));
    CHECK_EQ_INT(recv[2], 9);
    CHECK_OK(MPI_Exscan(send, recv, 3, MPI_INT, op, MPI_COMM_WORLD));
    CHECK_OK(MPI_Allreduce(MPI_IN_PLACE, recv, 3, MPI_INT, op, MPI_COMM_WORLD));
    CHECK_EQ_INT(calls, 2);

    /* Handle conversions. */
    MPI_Fint f = MPI_Op_c2f(op);
    CHECK_EQ_HANDLE(MPI_Op_f2c(f), op);
    CHECK_EQ_HANDLE(MPI_Op_f2c(MPI_Op_c2f(MPI_MAX)), MPI_MAX);
    CHECK_EQ_HANDLE(MPI_Op_fromint(MPI_Op_toint(op)), op);
    CHECK_EQ_HANDLE(MPI_Op_fromint(MPI_Op_toint(MPI_SUM)), MPI_SUM);

    /* The large-count form. */
    MPI_Op op_c = MPI_OP_NULL;
    CHECK_OK(MPI_Op_create_c(add_c, 1, &op_c));
    CHECK_OK(MPI_Op_commutative(op_c, &commute));
    CHECK_EQ_INT(commute, 1);
    double din[2] = {0.5, 1.5}, dinout[2] = {1.0, 2.0};
    CHECK_OK(MPI_Reduce_local(din, dinout, 2, MPI_DOUBLE, op_c));
    CHECK_EQ_INT(calls, 3);
    CHECK_MSG(seen_len_c == 2, "len %lld", (long long)seen_len_c);
    CHECK_EQ_HANDLE(seen_type, MPI_DOUBLE);
    CHECK_MSG(dinout[0] == 1.5 && dinout[1] == 3.5, "got %g %g", dinout[0], dinout[1]);
    CHECK_OK(MPI_Op_free(&op_c));

    /* Bad input. */
    struct outs o;
    MPI_Op untouched = SENTINEL_HANDLE(MPI_Op);
    CHECK_RC(MPI_Op_create(NULL, 1, &untouched), MPI_ERR_ARG);
    CHECK_EQ_HANDLE(untouched, SENTINEL_HANDLE(MPI_Op));
    CHECK_RC(MPI_Op_create(shift_add, 1, NULL), MPI_ERR_ARG);
    CHECK_FAILS("NULL commute", o, MPI_Op_commutative(op, NULL), MPI_ERR_ARG);
    CHECK_FAILS("null op", o, MPI_Op_commutative(MPI_OP_NULL, &o.i), MPI_ERR_OP);
    MPI_Op predefined = MPI_SUM;
    CHECK_FAILS_INOUT("predefined op", o, predefined, MPI_Op_free(&predefined), MPI_ERR_OP);
    MPI_Op null_op = MPI_OP_NULL;
    CHECK_FAILS_INOUT("null op", o, null_op, MPI_Op_free(&null_op), MPI_ERR_OP);
    CHECK_RC(MPI_Op_free(NULL), MPI_ERR_ARG);
    CHECK_FAILS("not an op", o, MPI_Op_commutative((MPI_Op)MPI_COMM_WORLD, &o.i), MPI_ERR_OP);

    /* Freed: MPI_OP_NULL, then every use is MPI_ERR_OP. */
    MPI_Op stale = op;
    CHECK_OK(MPI_Op_free(&op));
    CHECK_EQ_HANDLE(op, MPI_OP_NULL);
    CHECK_FAILS_INOUT("freed op", o, stale, MPI_Op_free(&stale), MPI_ERR_OP);
    CHECK_FAILS("freed op", o, MPI_Op_commutative(stale, &o.i), MPI_ERR_OP);
    inout[0] = 4;
    CHECK_RC(MPI_Reduce_local(in, inout, 3, MPI_INT, stale), MPI_ERR_OP);
    CHECK_EQ_INT(inout[0], 4);
    recv[0] = -1;
    CHECK_RC(MPI_Allreduce(send, recv, 3, MPI_INT, stale, MPI_COMM_WORLD), MPI_ERR_OP);
    CHECK_RC(MPI_Reduce(send, recv, 3, MPI_INT, stale, 0, MPI_COMM_WORLD), MPI_ERR_OP);
    CHECK_RC(MPI_Scan(send, recv, 3, MPI_INT, stale, MPI_COMM_WORLD), MPI_ERR_OP);
    CHECK_RC(MPI_Exscan(send, recv, 3, MPI_INT, stale, MPI_COMM_WORLD), MPI_ERR_OP);
    CHECK_EQ_INT(recv[0], -1);
    CHECK_EQ_INT(calls, 3);
    CHECK_EQ_INT(MPI_Op_c2f(stale), MPI_Op_c2f(MPI_OP_NULL));

    CHECK_OK(MPI_Type_free(&pair));
    CHECK_OK(MPI_Finalize());
    return test_finish("user_ops");
}
