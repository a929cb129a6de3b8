/*
 * What before_init.c and after_finalize.c share (semantics.md "Initialisation and threads",
 * docs/errors.md): every function of the library called outside MPI_Init .. MPI_Finalize.
 *
 * outside_calls(): every function that needs MPI initialized, called with arguments that
 * would be valid while it is, fails with MPI_ERR_OTHER and writes none of its outputs (and
 * keeps its in-out arguments). anytime_calls(): the functions callable at any time work, and
 * reject their own bad arguments with the same classes as while initialized. Errors go to
 * MPI_COMM_SELF's handler, which the programs set to MPI_ERRORS_RETURN first.
 */
#ifndef MPIATTR_TEST_OUTSIDE_H
#define MPIATTR_TEST_OUTSIDE_H

#include "check.h"

/* The objects the calls name: predefined ones before MPI_Init, ones that were alive before
   MPI_Finalize after it. */
struct outside {
    const char *when;
    MPI_Comm comm;      /* a communicator that is not MPI_COMM_WORLD or MPI_COMM_SELF, or
                           MPI_COMM_NULL for none (before MPI_Init) */
    MPI_Datatype type;  /* MPI_INT before MPI_Init */
    MPI_Win win;        /* MPI_WIN_NULL for none: no window exists before MPI_Init */
    int comm_keyval, type_keyval, win_keyval; /* keyval numbers */
    MPI_Request request; /* a request that was pending, or MPI_REQUEST_NULL */
    void *mem;          /* memory from MPI_Alloc_mem, or NULL */
};

#define OUTSIDE(call) CHECK_FAILS(x->when, o, call, MPI_ERR_OTHER)
#define OUTSIDE_NEW(call) CHECK_FAILS_NEW(x->when, o, call, MPI_ERR_OTHER)
#define OUTSIDE_INOUT(var, call) CHECK_FAILS_INOUT(x->when, o, var, call, MPI_ERR_OTHER)

/* A user reduction function the calls below never get to run. */
static void outside_user_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in, (void)inout, (void)len, (void)type;
    fprintf(stderr, "a user op ran outside MPI_Init .. MPI_Finalize\n");
}
static void outside_user_fn_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *type)
{
    (void)in, (void)inout, (void)len, (void)type;
    fprintf(stderr, "a user op ran outside MPI_Init .. MPI_Finalize\n");
}

/* User error handlers the calls below never get to create. */
static void outside_comm_handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm, (void)code;
}
static void outside_win_handler(MPI_Win *win, int *code, ...)
{
    (void)win, (void)code;
}
static void outside_session_handler(MPI_Session *session, int *code, ...)
{
    (void)session, (void)code;
}
static void outside_file_handler(MPI_File *file, int *code, ...)
{
    (void)file, (void)code;
}

/* Every function on one communicator (MPI_COMM_WORLD, MPI_COMM_SELF or a user one). */
static void outside_comm_calls(const struct outside *x, MPI_Comm comm)
{
    struct outs o;
    int buf[4];
    OUTSIDE_NEW(MPI_Comm_dup(comm, &o.comm));
    OUTSIDE_NEW(MPI_Comm_dup_with_info(comm, MPI_INFO_NULL, &o.comm));
    OUTSIDE_NEW(MPI_Comm_idup(comm, &o.comm, &o.request));
    OUTSIDE(MPI_Comm_split(comm, 0, 0, &o.comm));
    OUTSIDE(MPI_Comm_split(comm, MPI_UNDEFINED, 0, &o.comm));
    OUTSIDE(MPI_Comm_rank(comm, &o.i));
    OUTSIDE(MPI_Comm_size(comm, &o.i));
    OUTSIDE(MPI_Comm_compare(comm, MPI_COMM_SELF, &o.i));
    OUTSIDE(MPI_Comm_compare(MPI_COMM_WORLD, comm, &o.i));
    OUTSIDE(MPI_Comm_set_name(comm, "outside"));
    OUTSIDE(MPI_Comm_get_name(comm, o.text, &o.i));
    OUTSIDE(MPI_Comm_set_attr(comm, x->comm_keyval, IPTR(5)));
    OUTSIDE(MPI_Comm_get_attr(comm, x->comm_keyval, &o.ptr, &o.i));
    OUTSIDE(MPI_Comm_get_attr(comm, MPI_TAG_UB, &o.ptr, &o.i));
    OUTSIDE(MPI_Comm_delete_attr(comm, x->comm_keyval));
    OUTSIDE(MPI_Attr_put(comm, x->comm_keyval, IPTR(5)));
    OUTSIDE(MPI_Attr_get(comm, x->comm_keyval, &o.ptr, &o.i));
    OUTSIDE(MPI_Attr_get(comm, MPI_TAG_UB, &o.ptr, &o.i));
    OUTSIDE(MPI_Attr_delete(comm, x->comm_keyval));
    OUTSIDE(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, comm, &o.win));
    OUTSIDE(MPI_Win_allocate(16, 1, MPI_INFO_NULL, comm, &o.ptr, &o.win));
    OUTSIDE(MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &o.win));
    {
        MPI_Comm victim = comm;
        OUTSIDE_INOUT(victim, MPI_Comm_free(&victim));
    }
}

/* Every function that needs MPI initialized: MPI_ERR_OTHER, nothing written. */
static void outside_calls(const struct outside *x)
{
    struct outs o;

    /* environment */
    OUTSIDE(MPI_Query_thread(&o.i));
    OUTSIDE(MPI_Is_thread_main(&o.i));
    OUTSIDE(MPI_Finalize());

    /* communicators and requests */
    outside_comm_calls(x, MPI_COMM_WORLD);
    outside_comm_calls(x, MPI_COMM_SELF);
    if (x->comm != MPI_COMM_NULL) {
        outside_comm_calls(x, x->comm);
        /* a user communicator's handler cannot be reached outside either */
        OUTSIDE(MPI_Comm_set_errhandler(x->comm, MPI_ERRORS_RETURN));
        OUTSIDE(MPI_Comm_get_errhandler(x->comm, &o.errhandler));
    }
    {
        MPI_Request r = x->request;
        OUTSIDE_INOUT(r, MPI_Wait(&r, &o.status));
        OUTSIDE_INOUT(r, MPI_Test(&r, &o.i, &o.status));
        OUTSIDE_INOUT(r, MPI_Request_free(&r));
        OUTSIDE_INOUT(r, MPI_Cancel(&r));
        OUTSIDE_INOUT(r, MPI_Waitall(1, &r, &o.status));
        OUTSIDE_INOUT(r, MPI_Start(&r));
        OUTSIDE_INOUT(r, MPI_Startall(1, &r));
        OUTSIDE_INOUT(r, MPI_Waitany(1, &r, &o.i, &o.status));
        OUTSIDE_INOUT(r, MPI_Testany(1, &r, &o.i, &o.j, &o.status));
        OUTSIDE_INOUT(r, MPI_Testall(1, &r, &o.i, &o.status));
        OUTSIDE_INOUT(r, MPI_Waitsome(1, &r, &o.i, &o.j, &o.status));
        OUTSIDE_INOUT(r, MPI_Testsome(1, &r, &o.i, &o.j, &o.status));
        OUTSIDE(MPI_Request_get_status(r, &o.i, &o.status));
        OUTSIDE(MPI_Request_get_status_any(1, &r, &o.i, &o.j, &o.status));
        OUTSIDE(MPI_Request_get_status_all(1, &r, &o.i, &o.status));
        OUTSIDE(MPI_Request_get_status_some(1, &r, &o.i, &o.j, &o.status));
    }

    /* point-to-point and collectives */
    {
        int data[2] = {0, 0};
        OUTSIDE(MPI_Send(data, 1, MPI_INT, 0, 0, MPI_COMM_WORLD));
        OUTSIDE(MPI_Ssend(data, 1, MPI_INT, 0, 0, MPI_COMM_WORLD));
        OUTSIDE(MPI_Isend(data, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &o.request));
        OUTSIDE(MPI_Recv(data, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &o.status));
        OUTSIDE(MPI_Irecv(data, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &o.request));
        OUTSIDE(MPI_Sendrecv(data, 1, MPI_INT, 0, 0, data + 1, 1, MPI_INT, 0, 0, MPI_COMM_WORLD,
                             &o.status));
        OUTSIDE(MPI_Probe(0, 0, MPI_COMM_WORLD, &o.status));
        OUTSIDE(MPI_Iprobe(0, 0, MPI_COMM_WORLD, &o.i, &o.status));
        OUTSIDE(MPI_Get_count(&o.status, MPI_INT, &o.i));
        /* the large-count forms, persistent requests, matched probes (a new message handle
           would go to o.ptr, a pointer's size) */
        {
            MPI_Count n = 1;
            OUTSIDE(MPI_Send_c(data, n, MPI_INT, 0, 0, MPI_COMM_WORLD));
            OUTSIDE(MPI_Ssend_c(data, n, MPI_INT, 0, 0, MPI_COMM_WORLD));
            OUTSIDE(MPI_Rsend_c(data, n, MPI_INT, 0, 0, MPI_COMM_WORLD));
            OUTSIDE(MPI_Isend_c(data, n, MPI_INT, 0, 0, MPI_COMM_WORLD, &o.request));
            OUTSIDE(MPI_Issend_c(data, n, MPI_INT, 0, 0, MPI_COMM_WORLD, &o.request));
            OUTSIDE(MPI_Irsend_c(data, n, MPI_INT, 0, 0, MPI_COMM_WORLD, &o.request));
            OUTSIDE(MPI_Recv_c(data, n, MPI_INT, 0, 0, MPI_COMM_WORLD, &o.status));
            OUTSIDE(MPI_Irecv_c(data, n, MPI_INT, 0, 0, MPI_COMM_WORLD, &o.request));
            OUTSIDE(MPI_Sendrecv_c(data, n, MPI_INT, 0, 0, data + 1, n, MPI_INT, 0, 0,
                                   MPI_COMM_WORLD, &o.status));
            OUTSIDE(MPI_Sendrecv_replace_c(data, n, MPI_INT, 0, 0, 0, 0, MPI_COMM_WORLD,
                                           &o.status));
            OUTSIDE(MPI_Send_init(data, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &o.request));
            OUTSIDE(MPI_Send_init_c(data, n, MPI_INT, 0, 0, MPI_COMM_WORLD, &o.request));
            OUTSIDE(MPI_Ssend_init(data, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &o.request));
            OUTSIDE(MPI_Ssend_init_c(data, n, MPI_INT, 0, 0, MPI_COMM_WORLD, &o.request));
            OUTSIDE(MPI_Rsend_init(data, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &o.request));
            OUTSIDE(MPI_Rsend_init_c(data, n, MPI_INT, 0, 0, MPI_COMM_WORLD, &o.request));
            OUTSIDE(MPI_Recv_init(data, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &o.request));
            OUTSIDE(MPI_Recv_init_c(data, n, MPI_INT, 0, 0, MPI_COMM_WORLD, &o.request));
            OUTSIDE(MPI_Mprobe(0, 0, MPI_COMM_WORLD, (MPI_Message *)&o.ptr, &o.status));
            OUTSIDE(MPI_Improbe(0, 0, MPI_COMM_WORLD, &o.i, (MPI_Message *)&o.ptr, &o.status));
            MPI_Message m = MPI_MESSAGE_NO_PROC;
            OUTSIDE_INOUT(m, MPI_Mrecv(data, 1, MPI_INT, &m, &o.status));
            OUTSIDE_INOUT(m, MPI_Mrecv_c(data, n, MPI_INT, &m, &o.status));
            OUTSIDE_INOUT(m, MPI_Imrecv(data, 1, MPI_INT, &m, &o.request));
            OUTSIDE_INOUT(m, MPI_Imrecv_c(data, n, MPI_INT, &m, &o.request));
        }
        /* status accessors */
        OUTSIDE(MPI_Status_get_source(&o.status, &o.i));
        OUTSIDE(MPI_Status_get_tag(&o.status, &o.i));
        OUTSIDE(MPI_Status_get_error(&o.status, &o.i));
        OUTSIDE(MPI_Status_set_source(&o.status, 1));
        OUTSIDE(MPI_Status_set_tag(&o.status, 1));
        OUTSIDE(MPI_Status_set_error(&o.status, 1));
        OUTSIDE(MPI_Status_set_cancelled(&o.status, 1));
        OUTSIDE(MPI_Barrier(MPI_COMM_WORLD));
        OUTSIDE(MPI_Bcast(data, 1, MPI_INT, 0, MPI_COMM_WORLD));
        OUTSIDE(MPI_Allreduce(data, data + 1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        OUTSIDE(MPI_Reduce_local(data, data + 1, 1, MPI_INT, MPI_SUM));
        /* buffered mode, generalized requests, partitioned (src/capi/p2p_modes.rs) */
        char space[MPI_BSEND_OVERHEAD + 16];
        MPI_Count csize = 7;
        int partitions[1] = {0};
        OUTSIDE(MPI_Bsend(data, 1, MPI_INT, 0, 0, MPI_COMM_WORLD));
        OUTSIDE(MPI_Bsend_c(data, 1, MPI_INT, 0, 0, MPI_COMM_WORLD));
        OUTSIDE(MPI_Ibsend(data, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &o.request));
        OUTSIDE(MPI_Ibsend_c(data, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &o.request));
        OUTSIDE(MPI_Bsend_init(data, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &o.request));
        OUTSIDE(MPI_Bsend_init_c(data, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &o.request));
        OUTSIDE(MPI_Buffer_attach(space, (int)sizeof space));
        OUTSIDE(MPI_Buffer_attach_c(space, (MPI_Count)sizeof space));
        OUTSIDE(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0));
        OUTSIDE(MPI_Buffer_detach(&o.ptr, &o.i));
        OUTSIDE(MPI_Buffer_detach_c(&o.ptr, &csize));
        OUTSIDE(MPI_Buffer_flush());
        OUTSIDE(MPI_Buffer_iflush(&o.request));
        OUTSIDE(MPI_Comm_attach_buffer(MPI_COMM_WORLD, space, (int)sizeof space));
        OUTSIDE(MPI_Comm_attach_buffer_c(MPI_COMM_WORLD, space, (MPI_Count)sizeof space));
        OUTSIDE(MPI_Comm_detach_buffer(MPI_COMM_WORLD, &o.ptr, &o.i));
        OUTSIDE(MPI_Comm_detach_buffer_c(MPI_COMM_WORLD, &o.ptr, &csize));
        OUTSIDE(MPI_Comm_flush_buffer(MPI_COMM_WORLD));
        OUTSIDE(MPI_Comm_iflush_buffer(MPI_COMM_WORLD, &o.request));
        OUTSIDE(MPI_Session_attach_buffer(MPI_SESSION_NULL, space, (int)sizeof space));
        OUTSIDE(MPI_Session_attach_buffer_c(MPI_SESSION_NULL, space, (MPI_Count)sizeof space));
        OUTSIDE(MPI_Session_detach_buffer(MPI_SESSION_NULL, &o.ptr, &o.i));
        OUTSIDE(MPI_Session_detach_buffer_c(MPI_SESSION_NULL, &o.ptr, &csize));
        OUTSIDE(MPI_Session_flush_buffer(MPI_SESSION_NULL));
        OUTSIDE(MPI_Session_iflush_buffer(MPI_SESSION_NULL, &o.request));
        CHECK_EQ_INT((int)csize, 7);
        OUTSIDE(MPI_Grequest_start(NULL, NULL, NULL, NULL, &o.request));
        OUTSIDE(MPI_Grequest_complete(x->request));
        OUTSIDE(MPI_Psend_init(data, 1, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
                               &o.request));
        OUTSIDE(MPI_Precv_init(data, 1, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
                               &o.request));
        OUTSIDE(MPI_Pready(0, x->request));
        OUTSIDE(MPI_Pready_range(0, 0, x->request));
        OUTSIDE(MPI_Pready_list(1, partitions, x->request));
        OUTSIDE(MPI_Parrived(x->request, 0, &o.i));
        /* user reduction operations (the new handle would go to o.ptr, a pointer's size) */
        OUTSIDE(MPI_Op_create(outside_user_fn, 1, (MPI_Op *)&o.ptr));
        OUTSIDE(MPI_Op_create_c(outside_user_fn_c, 0, (MPI_Op *)&o.ptr));
        OUTSIDE(MPI_Op_commutative(MPI_SUM, &o.i));
        MPI_Op sum = MPI_SUM;
        OUTSIDE_INOUT(sum, MPI_Op_free(&sum));
        OUTSIDE(MPI_Bcast_c(data, 1, MPI_INT, 0, MPI_COMM_WORLD));
        OUTSIDE(MPI_Reduce_c(data, data + 1, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
        OUTSIDE(MPI_Allreduce_c(data, data + 1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        OUTSIDE(MPI_Scan_c(data, data + 1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        OUTSIDE(MPI_Gather_c(data, 1, MPI_INT, data + 1, 1, MPI_INT, 0, MPI_COMM_WORLD));
        OUTSIDE(MPI_Scatter_c(data, 1, MPI_INT, data + 1, 1, MPI_INT, 0, MPI_COMM_WORLD));
        OUTSIDE(MPI_Allgather_c(data, 1, MPI_INT, data + 1, 1, MPI_INT, MPI_COMM_WORLD));
        OUTSIDE(MPI_Alltoall_c(data, 1, MPI_INT, data + 1, 1, MPI_INT, MPI_COMM_WORLD));
        OUTSIDE(MPI_Exscan_c(data, data + 1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        int one[1] = {1}, zero[1] = {0};
        MPI_Count cone[1] = {1};
        MPI_Aint czero[1] = {0};
        MPI_Datatype ints[1] = {MPI_INT};
        OUTSIDE(MPI_Gatherv(data, 1, MPI_INT, data + 1, one, zero, MPI_INT, 0, MPI_COMM_WORLD));
        OUTSIDE(MPI_Gatherv_c(data, 1, MPI_INT, data + 1, cone, czero, MPI_INT, 0,
                              MPI_COMM_WORLD));
        OUTSIDE(MPI_Scatterv(data, one, zero, MPI_INT, data + 1, 1, MPI_INT, 0, MPI_COMM_WORLD));
        OUTSIDE(MPI_Scatterv_c(data, cone, czero, MPI_INT, data + 1, 1, MPI_INT, 0,
                               MPI_COMM_WORLD));
        OUTSIDE(MPI_Allgatherv(data, 1, MPI_INT, data + 1, one, zero, MPI_INT, MPI_COMM_WORLD));
        OUTSIDE(MPI_Allgatherv_c(data, 1, MPI_INT, data + 1, cone, czero, MPI_INT,
                                 MPI_COMM_WORLD));
        OUTSIDE(MPI_Alltoallv(data, one, zero, MPI_INT, data + 1, one, zero, MPI_INT,
                              MPI_COMM_WORLD));
        OUTSIDE(MPI_Alltoallv_c(data, cone, czero, MPI_INT, data + 1, cone, czero, MPI_INT,
                                MPI_COMM_WORLD));
        OUTSIDE(MPI_Alltoallw(data, one, zero, ints, data + 1, one, zero, ints, MPI_COMM_WORLD));
        OUTSIDE(MPI_Alltoallw_c(data, cone, czero, ints, data + 1, cone, czero, ints,
                                MPI_COMM_WORLD));
        OUTSIDE(MPI_Reduce_scatter(data, data + 1, one, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        OUTSIDE(MPI_Reduce_scatter_c(data, data + 1, cone, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        OUTSIDE(MPI_Reduce_scatter_block(data, data + 1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        OUTSIDE(MPI_Reduce_scatter_block_c(data, data + 1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        OUTSIDE(MPI_Ibarrier(MPI_COMM_WORLD, &o.request));
        OUTSIDE(MPI_Ibcast(data, 1, MPI_INT, 0, MPI_COMM_WORLD, &o.request));
        OUTSIDE(MPI_Igather(data, 1, MPI_INT, data + 1, 1, MPI_INT, 0, MPI_COMM_WORLD,
                            &o.request));
        OUTSIDE(MPI_Igatherv(data, 1, MPI_INT, data + 1, one, zero, MPI_INT, 0, MPI_COMM_WORLD,
                             &o.request));
        OUTSIDE(MPI_Igatherv_c(data, 1, MPI_INT, data + 1, cone, czero, MPI_INT, 0,
                               MPI_COMM_WORLD, &o.request));
        OUTSIDE(MPI_Iscatter(data, 1, MPI_INT, data + 1, 1, MPI_INT, 0, MPI_COMM_WORLD,
                             &o.request));
        OUTSIDE(MPI_Iscatterv(data, one, zero, MPI_INT, data + 1, 1, MPI_INT, 0, MPI_COMM_WORLD,
                              &o.request));
        OUTSIDE(MPI_Iscatterv_c(data, cone, czero, MPI_INT, data + 1, 1, MPI_INT, 0,
                                MPI_COMM_WORLD, &o.request));
        OUTSIDE(MPI_Iallgather(data, 1, MPI_INT, data + 1, 1, MPI_INT, MPI_COMM_WORLD,
                               &o.request));
        OUTSIDE(MPI_Iallgatherv(data, 1, MPI_INT, data + 1, one, zero, MPI_INT, MPI_COMM_WORLD,
                                &o.request));
        OUTSIDE(MPI_Iallgatherv_c(data, 1, MPI_INT, data + 1, cone, czero, MPI_INT,
                                  MPI_COMM_WORLD, &o.request));
        OUTSIDE(MPI_Ialltoall(data, 1, MPI_INT, data + 1, 1, MPI_INT, MPI_COMM_WORLD,
                              &o.request));
        OUTSIDE(MPI_Ialltoallv(data, one, zero, MPI_INT, data + 1, one, zero, MPI_INT,
                               MPI_COMM_WORLD, &o.request));
        OUTSIDE(MPI_Ialltoallv_c(data, cone, czero, MPI_INT, data + 1, cone, czero, MPI_INT,
                                 MPI_COMM_WORLD, &o.request));
        OUTSIDE(MPI_Ialltoallw(data, one, zero, ints, data + 1, one, zero, ints, MPI_COMM_WORLD,
                               &o.request));
        OUTSIDE(MPI_Ialltoallw_c(data, cone, czero, ints, data + 1, cone, czero, ints,
                                 MPI_COMM_WORLD, &o.request));
        OUTSIDE(MPI_Ireduce(data, data + 1, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &o.request));
        OUTSIDE(MPI_Iallreduce(data, data + 1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &o.request));
        OUTSIDE(MPI_Ireduce_scatter(data, data + 1, one, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                    &o.request));
        OUTSIDE(MPI_Ireduce_scatter_c(data, data + 1, cone, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                      &o.request));
        OUTSIDE(MPI_Ireduce_scatter_block(data, data + 1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                          &o.request));
        OUTSIDE(MPI_Ireduce_scatter_block_c(data, data + 1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                            &o.request));
        OUTSIDE(MPI_Iscan(data, data + 1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &o.request));
        OUTSIDE(MPI_Iexscan(data, data + 1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &o.request));
        OUTSIDE(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Bcast_init(data, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Gather_init(data, 1, MPI_INT, data + 1, 1, MPI_INT, 0, MPI_COMM_WORLD,
                                MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Gatherv_init(data, 1, MPI_INT, data + 1, one, zero, MPI_INT, 0,
                                 MPI_COMM_WORLD, MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Gatherv_init_c(data, 1, MPI_INT, data + 1, cone, czero, MPI_INT, 0,
                                   MPI_COMM_WORLD, MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Scatter_init(data, 1, MPI_INT, data + 1, 1, MPI_INT, 0, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Scatterv_init(data, one, zero, MPI_INT, data + 1, 1, MPI_INT, 0,
                                  MPI_COMM_WORLD, MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Scatterv_init_c(data, cone, czero, MPI_INT, data + 1, 1, MPI_INT, 0,
                                    MPI_COMM_WORLD, MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Allgather_init(data, 1, MPI_INT, data + 1, 1, MPI_INT, MPI_COMM_WORLD,
                                   MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Allgatherv_init(data, 1, MPI_INT, data + 1, one, zero, MPI_INT,
                                    MPI_COMM_WORLD, MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Allgatherv_init_c(data, 1, MPI_INT, data + 1, cone, czero, MPI_INT,
                                      MPI_COMM_WORLD, MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Alltoall_init(data, 1, MPI_INT, data + 1, 1, MPI_INT, MPI_COMM_WORLD,
                                  MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Alltoallv_init(data, one, zero, MPI_INT, data + 1, one, zero, MPI_INT,
                                   MPI_COMM_WORLD, MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Alltoallv_init_c(data, cone, czero, MPI_INT, data + 1, cone, czero, MPI_INT,
                                     MPI_COMM_WORLD, MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Alltoallw_init(data, one, zero, ints, data + 1, one, zero, ints,
                                   MPI_COMM_WORLD, MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Alltoallw_init_c(data, cone, czero, ints, data + 1, cone, czero, ints,
                                     MPI_COMM_WORLD, MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Reduce_init(data, data + 1, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD,
                                MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Allreduce_init(data, data + 1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                   MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Reduce_scatter_init(data, data + 1, one, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                        MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Reduce_scatter_init_c(data, data + 1, cone, MPI_INT, MPI_SUM,
                                          MPI_COMM_WORLD, MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Reduce_scatter_block_init(data, data + 1, 1, MPI_INT, MPI_SUM,
                                              MPI_COMM_WORLD, MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Reduce_scatter_block_init_c(data, data + 1, 1, MPI_INT, MPI_SUM,
                                                MPI_COMM_WORLD, MPI_INFO_NULL, &o.request));
        OUTSIDE(MPI_Scan_init(data, data + 1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                              &o.request));
        OUTSIDE(MPI_Exscan_init(data, data + 1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                MPI_INFO_NULL, &o.request));
        CHECK_MSG(data[0] == 0 && data[1] == 0, "%s: a collective wrote its buffer", x->when);
    }

    /* keyvals and attributes without an object */
    OUTSIDE(MPI_Comm_create_keyval(counting_comm_copy, counting_comm_delete, &o.i, NULL));
    OUTSIDE(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &o.i, NULL));
    OUTSIDE(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, counting_type_delete, &o.i, NULL));
    OUTSIDE(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, counting_win_delete, &o.i, NULL));
    OUTSIDE(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &o.i, NULL));
    {
        int k = x->comm_keyval;
        OUTSIDE_INOUT(k, MPI_Comm_free_keyval(&k));
        OUTSIDE_INOUT(k, MPI_Keyval_free(&k));
        k = x->type_keyval;
        OUTSIDE_INOUT(k, MPI_Type_free_keyval(&k));
        k = x->win_keyval;
        OUTSIDE_INOUT(k, MPI_Win_free_keyval(&k));
    }

    /* datatypes, predefined and (after MPI_Finalize) user ones */
    MPI_Datatype types[2] = {MPI_INT, x->type};
    for (int i = 0; i < 2; i++) {
        MPI_Datatype t = types[i];
        OUTSIDE_NEW(MPI_Type_dup(t, &o.type));
        OUTSIDE(MPI_Type_contiguous(2, t, &o.type));
        OUTSIDE(MPI_Type_size(t, &o.i));
        OUTSIDE(MPI_Type_set_attr(t, x->type_keyval, IPTR(5)));
        OUTSIDE(MPI_Type_get_attr(t, x->type_keyval, &o.ptr, &o.i));
        OUTSIDE(MPI_Type_delete_attr(t, x->type_keyval));
        OUTSIDE(MPI_Type_contiguous_c(2, t, &o.type));
        {
            int bl[2] = {1, 1}, dp[2] = {0, 2}, sizes[1] = {4}, subs[1] = {2}, starts[1] = {1};
            int dist[1] = {MPI_DISTRIBUTE_BLOCK}, darg[1] = {MPI_DISTRIBUTE_DFLT_DARG};
            MPI_Aint ad[2] = {0, 16};
            MPI_Count cb[2] = {1, 1}, cd[2] = {0, 2};
            MPI_Datatype ts[2] = {t, t};
            OUTSIDE(MPI_Type_vector(2, 1, 2, t, &o.type));
            OUTSIDE(MPI_Type_vector_c(2, 1, 2, t, &o.type));
            OUTSIDE(MPI_Type_create_hvector(2, 1, 16, t, &o.type));
            OUTSIDE(MPI_Type_create_hvector_c(2, 1, 16, t, &o.type));
            OUTSIDE(MPI_Type_indexed(2, bl, dp, t, &o.type));
            OUTSIDE(MPI_Type_indexed_c(2, cb, cd, t, &o.type));
            OUTSIDE(MPI_Type_create_hindexed(2, bl, ad, t, &o.type));
            OUTSIDE(MPI_Type_create_hindexed_c(2, cb, cd, t, &o.type));
            OUTSIDE(MPI_Type_create_indexed_block(2, 1, dp, t, &o.type));
            OUTSIDE(MPI_Type_create_indexed_block_c(2, 1, cd, t, &o.type));
            OUTSIDE(MPI_Type_create_hindexed_block(2, 1, ad, t, &o.type));
            OUTSIDE(MPI_Type_create_hindexed_block_c(2, 1, cd, t, &o.type));
            OUTSIDE(MPI_Type_create_struct(2, bl, ad, ts, &o.type));
            OUTSIDE(MPI_Type_create_struct_c(2, cb, cd, ts, &o.type));
            OUTSIDE(MPI_Type_create_subarray(1, sizes, subs, starts, MPI_ORDER_C, t, &o.type));
            OUTSIDE(MPI_Type_create_darray(1, 0, 1, sizes, dist, darg, bl, MPI_ORDER_C, t,
                                           &o.type));
            OUTSIDE(MPI_Type_create_resized(t, 0, 16, &o.type));
            OUTSIDE(MPI_Type_create_resized_c(t, 0, 16, &o.type));
            MPI_Count cs[1] = {4}, csub[1] = {2}, cst[1] = {1};
            OUTSIDE(MPI_Type_create_subarray_c(1, cs, csub, cst, MPI_ORDER_C, t, &o.type));
            OUTSIDE(MPI_Type_create_darray_c(1, 0, 1, cs, dist, darg, bl, MPI_ORDER_C, t,
                                             &o.type));
        }
        {
            MPI_Count *c = (MPI_Count *)&o.aint; /* MPI_Count outputs: the same 8 bytes */
            OUTSIDE(MPI_Type_size_c(t, c));
            OUTSIDE(MPI_Type_get_extent_c(t, c, c));
            OUTSIDE(MPI_Type_get_extent_x(t, c, c));
            OUTSIDE(MPI_Type_get_true_extent_c(t, c, c));
            OUTSIDE(MPI_Type_get_true_extent_x(t, c, c));
            OUTSIDE(MPI_Type_get_envelope_c(t, c, c, c, c, &o.i));
            OUTSIDE(MPI_Type_get_contents(t, 1, 1, 1, &o.i, &o.aint, &o.type));
            OUTSIDE(MPI_Type_get_contents_c(t, 1, 1, 1, 1, &o.i, &o.aint, c, &o.type));
            OUTSIDE(MPI_Get_elements_c(&o.status, t, c));
            OUTSIDE(MPI_Get_elements_x(&o.status, t, c));
            OUTSIDE(MPI_Get_count_c(&o.status, t, c));
            OUTSIDE(MPI_Status_set_elements_c(&o.status, t, 1));
            OUTSIDE(MPI_Status_set_elements_x(&o.status, t, 1));
            OUTSIDE(MPI_Pack_size_c(1, t, MPI_COMM_WORLD, c));
            OUTSIDE(MPI_Pack_external_size_c("external32", 1, t, c));
            int data[4] = {1, 2, 3, 4};
            OUTSIDE(MPI_Pack_c(data, 1, t, o.text, 64, c, MPI_COMM_WORLD));
            OUTSIDE(MPI_Unpack_c(o.text, 64, c, data, 1, t, MPI_COMM_WORLD));
            OUTSIDE(MPI_Pack_external_c("external32", data, 1, t, o.text, 64, c));
            OUTSIDE(MPI_Unpack_external_c("external32", o.text, 64, c, data, 1, t));
        }
        OUTSIDE(MPI_Type_size_x(t, (MPI_Count *)&o.aint));
        OUTSIDE(MPI_Type_get_extent(t, &o.aint, &o.aint));
        OUTSIDE(MPI_Type_get_true_extent(t, &o.aint, &o.aint));
        OUTSIDE(MPI_Type_get_envelope(t, &o.i, &o.i, &o.j, &o.j));
        OUTSIDE(MPI_Type_set_name(t, "outside"));
        OUTSIDE(MPI_Type_get_name(t, o.text, &o.i));
        OUTSIDE(MPI_Get_elements(&o.status, t, &o.i));
        OUTSIDE(MPI_Status_set_elements(&o.status, t, 1));
        OUTSIDE(MPI_Pack_size(1, t, MPI_COMM_WORLD, &o.i));
        OUTSIDE(MPI_Pack_external_size("external32", 1, t, &o.aint));
        {
            int data[4] = {1, 2, 3, 4};
            OUTSIDE(MPI_Pack(data, 1, t, o.text, 64, &o.i, MPI_COMM_WORLD));
            OUTSIDE(MPI_Unpack(o.text, 64, &o.i, data, 1, t, MPI_COMM_WORLD));
            OUTSIDE(MPI_Pack_external("external32", data, 1, t, o.text, 64, &o.aint));
            OUTSIDE(MPI_Unpack_external("external32", o.text, 64, &o.aint, data, 1, t));
        }
        OUTSIDE_INOUT(t, MPI_Type_commit(&t));
        OUTSIDE_INOUT(t, MPI_Type_free(&t));
    }
    OUTSIDE(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &o.type));
    OUTSIDE(MPI_Type_create_f90_integer(9, &o.type));
    OUTSIDE(MPI_Type_create_f90_real(6, MPI_UNDEFINED, &o.type));
    OUTSIDE(MPI_Type_create_f90_complex(6, MPI_UNDEFINED, &o.type));

    /* groups, communicator constructors, info objects, sessions, error values, environment
       (on predefined objects: they exist at any time) */
    OUTSIDE(MPI_Comm_group(MPI_COMM_WORLD, &o.group));
    OUTSIDE(MPI_Group_size(MPI_GROUP_EMPTY, &o.i));
    OUTSIDE(MPI_Group_rank(MPI_GROUP_EMPTY, &o.i));
    OUTSIDE(MPI_Group_compare(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, &o.i));
    OUTSIDE(MPI_Group_union(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, &o.group));
    OUTSIDE(MPI_Group_incl(MPI_GROUP_EMPTY, 0, &o.i, &o.group));
    OUTSIDE(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &o.comm));
    OUTSIDE(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &o.comm));
    OUTSIDE(MPI_Comm_test_inter(MPI_COMM_WORLD, &o.i));
    OUTSIDE(MPI_Comm_get_parent(&o.comm));
    OUTSIDE(MPI_Comm_get_info(MPI_COMM_WORLD, &o.info));
    /* the deprecated info accessors are not in the table of MPI-4.1 §12.4.1 */
    OUTSIDE(MPI_Info_get(MPI_INFO_ENV, "thread_level", 8, o.text, &o.i));
    OUTSIDE(MPI_Info_get_valuelen(MPI_INFO_ENV, "thread_level", &o.i, &o.j));
    OUTSIDE(MPI_Comm_create_errhandler(outside_comm_handler, &o.errhandler));
    OUTSIDE(MPI_Win_create_errhandler(outside_win_handler, &o.errhandler));
    OUTSIDE(MPI_File_create_errhandler(outside_file_handler, &o.errhandler));
    OUTSIDE(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    OUTSIDE(MPI_File_get_errhandler(MPI_FILE_NULL, &o.errhandler));
    OUTSIDE(MPI_File_call_errhandler(MPI_FILE_NULL, MPI_ERR_IO));
    OUTSIDE(MPI_Get_processor_name(o.text, &o.i));
    OUTSIDE(MPI_Get_hw_resource_info(&o.info));
    OUTSIDE(MPI_Abi_get_info(&o.info));
    OUTSIDE(MPI_Pcontrol(1));

    /* windows (after MPI_Finalize: one that was alive) and memory */
    if (x->win != MPI_WIN_NULL) {
        MPI_Win w = x->win;
        OUTSIDE(MPI_Win_set_attr(w, x->win_keyval, IPTR(5)));
        OUTSIDE(MPI_Win_get_attr(w, x->win_keyval, &o.ptr, &o.i));
        OUTSIDE(MPI_Win_get_attr(w, MPI_WIN_BASE, &o.ptr, &o.i));
        OUTSIDE(MPI_Win_delete_attr(w, x->win_keyval));
        OUTSIDE(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
        OUTSIDE(MPI_Win_get_errhandler(w, &o.errhandler));
        OUTSIDE_INOUT(w, MPI_Win_free(&w));
    }
    {
        int local = 0;
        OUTSIDE(MPI_Get_address(&local, &o.aint));
        OUTSIDE(MPI_Alloc_mem(16, MPI_INFO_NULL, &o.ptr));
        OUTSIDE(MPI_Alloc_mem(0, MPI_INFO_NULL, &o.ptr));
        OUTSIDE(MPI_Free_mem(x->mem));
    }
}

#undef OUTSIDE
#undef OUTSIDE_NEW
#undef OUTSIDE_INOUT

/* The functions callable at any time work, and refuse their own bad arguments. `initialized`
   and `finalized` are what MPI_Initialized and MPI_Finalized must say. */
static void anytime_calls(const char *when, int initialized, int finalized)
{
    struct outs o;
    int flag = -1;
    CHECK_OK(MPI_Initialized(&flag));
    CHECK_MSG(flag == initialized, "%s: MPI_Initialized says %d", when, flag);
    flag = -1;
    CHECK_OK(MPI_Finalized(&flag));
    CHECK_MSG(flag == finalized, "%s: MPI_Finalized says %d", when, flag);
    CHECK_FAILS(when, o, MPI_Initialized(NULL), MPI_ERR_ARG);
    CHECK_FAILS(when, o, MPI_Finalized(NULL), MPI_ERR_ARG);

    int v = -1, sv = -1;
    CHECK_OK(MPI_Get_version(&v, &sv));
    CHECK_MSG(v == 5 && sv == 0, "%s: MPI_Get_version gave %d.%d", when, v, sv);
    CHECK_FAILS(when, o, MPI_Get_version(NULL, &o.i), MPI_ERR_ARG);
    CHECK_FAILS(when, o, MPI_Get_version(&o.i, NULL), MPI_ERR_ARG);
    {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = -1;
        CHECK_OK(MPI_Get_library_version(lib, &len));
        CHECK_MSG(len > 0 && (int)strlen(lib) == len, "%s: MPI_Get_library_version length %d",
                  when, len);
        CHECK_FAILS(when, o, MPI_Get_library_version(NULL, &o.i), MPI_ERR_ARG);
        CHECK_FAILS(when, o, MPI_Get_library_version(o.text, NULL), MPI_ERR_ARG);
    }

    {
        int cls = -1;
        CHECK_OK(MPI_Error_class(MPI_ERR_KEYVAL, &cls));
        CHECK_EQ_INT(cls, MPI_ERR_KEYVAL);
        char s[MPI_MAX_ERROR_STRING];
        int len = -1;
        CHECK_OK(MPI_Error_string(MPI_ERR_OTHER, s, &len));
        CHECK_MSG(len > 0 && (int)strlen(s) == len, "%s: MPI_Error_string length %d", when, len);
        CHECK_FAILS(when, o, MPI_Error_class(-1, &o.i), MPI_ERR_ARG);
        CHECK_FAILS(when, o, MPI_Error_class(MPI_ERR_ABI + 1, &o.i), MPI_ERR_ARG);
        CHECK_FAILS(when, o, MPI_Error_class(MPI_ERR_KEYVAL, NULL), MPI_ERR_ARG);
        CHECK_FAILS(when, o, MPI_Error_string(-1, o.text, &o.i), MPI_ERR_ARG);
        CHECK_FAILS(when, o, MPI_Error_string(MPI_ERR_ABI + 1, o.text, &o.i), MPI_ERR_ARG);
        CHECK_FAILS(when, o, MPI_Error_string(MPI_ERR_KEYVAL, NULL, &o.i), MPI_ERR_ARG);
        CHECK_FAILS(when, o, MPI_Error_string(MPI_ERR_KEYVAL, o.text, NULL), MPI_ERR_ARG);
    }

    /* address arithmetic needs no library state */
    CHECK_MSG(MPI_Aint_add(4096, 8) == 4104, "%s: MPI_Aint_add", when);
    CHECK_MSG(MPI_Aint_diff(4096, 4104) == -8, "%s: MPI_Aint_diff", when);

    CHECK_MSG(MPI_Wtick() > 0.0, "%s: MPI_Wtick is not positive", when);
    {
        double t1 = MPI_Wtime();
        double t2 = MPI_Wtime();
        CHECK_MSG(t2 >= t1, "%s: MPI_Wtime went back", when);
    }

    /* the predefined communicators' error handlers: set, get, free */
    MPI_Comm predefined[2] = {MPI_COMM_WORLD, MPI_COMM_SELF};
    for (int i = 0; i < 2; i++) {
        CHECK_OK(MPI_Comm_set_errhandler(predefined[i], MPI_ERRORS_RETURN));
        MPI_Errhandler e = MPI_ERRHANDLER_NULL;
        CHECK_OK(MPI_Comm_get_errhandler(predefined[i], &e));
        CHECK_MSG(e == MPI_ERRORS_RETURN, "%s: the handler of communicator #%d is not "
                  "MPI_ERRORS_RETURN", when, i);
        CHECK_OK(MPI_Errhandler_free(&e));
        CHECK_EQ_HANDLE(e, MPI_ERRHANDLER_NULL);
        CHECK_FAILS(when, o, MPI_Comm_set_errhandler(predefined[i], MPI_ERRHANDLER_NULL),
                    MPI_ERR_ERRHANDLER);
        CHECK_FAILS(when, o, MPI_Comm_set_errhandler(predefined[i], (MPI_Errhandler)MPI_INT),
                    MPI_ERR_ERRHANDLER);
        CHECK_FAILS(when, o, MPI_Comm_get_errhandler(predefined[i], NULL), MPI_ERR_ARG);
    }
    CHECK_FAILS(when, o, MPI_Comm_set_errhandler(MPI_COMM_NULL, MPI_ERRORS_RETURN), MPI_ERR_COMM);
    CHECK_FAILS(when, o, MPI_Comm_get_errhandler(MPI_COMM_NULL, &o.errhandler), MPI_ERR_COMM);
    {
        MPI_Errhandler e = MPI_ERRHANDLER_NULL;
        CHECK_FAILS_INOUT(when, o, e, MPI_Errhandler_free(&e), MPI_ERR_ERRHANDLER);
        CHECK_FAILS(when, o, MPI_Errhandler_free(NULL), MPI_ERR_ARG);
    }
    /* the bad handlers were refused: still returning */
    for (int i = 0; i < 2; i++) {
        MPI_Errhandler e = MPI_ERRHANDLER_NULL;
        CHECK_OK(MPI_Comm_get_errhandler(predefined[i], &e));
        CHECK_MSG(e == MPI_ERRORS_RETURN, "%s: a refused MPI_Comm_set_errhandler changed the "
                  "handler of communicator #%d", when, i);
        CHECK_OK(MPI_Errhandler_free(&e));
    }

    /* the table of MPI-4.1 §12.4.1: the info functions */
    {
        MPI_Info info = MPI_INFO_NULL, dup = MPI_INFO_NULL, env = MPI_INFO_NULL;
        CHECK_OK(MPI_Info_create(&info));
        CHECK_NE_HANDLE(info, MPI_INFO_NULL);
        CHECK_OK(MPI_Info_set(info, "alpha", "one"));
        CHECK_OK(MPI_Info_set(info, "beta", "two"));
        CHECK_OK(MPI_Info_set(info, "alpha", "uno"));
        int n = -1;
        CHECK_OK(MPI_Info_get_nkeys(info, &n));
        CHECK_EQ_INT(n, 2);
        char key[MPI_MAX_INFO_KEY], val[16];
        CHECK_OK(MPI_Info_get_nthkey(info, 1, key));
        CHECK_EQ_STR(key, "beta");
        int len = (int)sizeof val, flag = -1;
        CHECK_OK(MPI_Info_get_string(info, "alpha", &len, val, &flag));
        CHECK_MSG(flag == 1 && len == 4 && strcmp(val, "uno") == 0,
                  "%s: MPI_Info_get_string gave flag %d, length %d", when, flag, len);
        CHECK_OK(MPI_Info_dup(info, &dup));
        CHECK_OK(MPI_Info_delete(info, "alpha"));
        CHECK_OK(MPI_Info_get_nkeys(info, &n));
        CHECK_EQ_INT(n, 1);
        CHECK_OK(MPI_Info_get_nkeys(dup, &n));
        CHECK_EQ_INT(n, 2);
        CHECK_FAILS(when, o, MPI_Info_delete(info, "alpha"), MPI_ERR_INFO_NOKEY);
        CHECK_FAILS(when, o, MPI_Info_get_nthkey(info, 1, o.text), MPI_ERR_ARG);
        CHECK_FAILS(when, o, MPI_Info_set(MPI_INFO_NULL, "k", "v"), MPI_ERR_INFO);
        CHECK_FAILS(when, o, MPI_Info_set(MPI_INFO_ENV, "k", "v"), MPI_ERR_INFO);
        CHECK_FAILS(when, o, MPI_Info_get_nkeys(MPI_INFO_NULL, &o.i), MPI_ERR_INFO);
        CHECK_FAILS(when, o, MPI_Info_get_string(info, "beta", &len, val, NULL), MPI_ERR_ARG);
        CHECK_EQ_HANDLE(MPI_Info_f2c(MPI_Info_c2f(dup)), dup);
        CHECK_EQ_HANDLE(MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_NULL)), MPI_INFO_NULL);
        CHECK_OK(MPI_Info_free(&info));
        CHECK_EQ_HANDLE(info, MPI_INFO_NULL);
        CHECK_OK(MPI_Info_free(&dup));
        CHECK_EQ_HANDLE(MPI_Info_f2c(MPI_Info_c2f(dup)), MPI_INFO_NULL);
        CHECK_OK(MPI_Info_create_env(0, NULL, &env));
        CHECK_OK(MPI_Info_get_nkeys(env, &n));
        int envkeys = -1;
        CHECK_OK(MPI_Info_get_nkeys(MPI_INFO_ENV, &envkeys));
        CHECK_MSG(n == envkeys && n > 0, "%s: MPI_Info_create_env gave %d keys, MPI_INFO_ENV %d",
                  when, n, envkeys);
        CHECK_OK(MPI_Info_free(&env));
        MPI_Info keep = MPI_INFO_ENV;
        CHECK_FAILS_INOUT(when, o, keep, MPI_Info_free(&keep), MPI_ERR_INFO);
    }

    /* the table of MPI-4.1 §12.4.1: session error handlers, user error classes, codes and strings */
    {
        MPI_Errhandler e = MPI_ERRHANDLER_NULL;
        CHECK_OK(MPI_Session_create_errhandler(outside_session_handler, &e));
        CHECK_NE_HANDLE(e, MPI_ERRHANDLER_NULL);
        CHECK_EQ_HANDLE(MPI_Errhandler_f2c(MPI_Errhandler_c2f(e)), e);
        CHECK_FAILS(when, o, MPI_Session_create_errhandler(NULL, &o.errhandler), MPI_ERR_ARG);
        CHECK_OK(MPI_Errhandler_free(&e));
        CHECK_EQ_HANDLE(e, MPI_ERRHANDLER_NULL);

        int cls = -1, code = -1, got = -1;
        CHECK_OK(MPI_Add_error_class(&cls));
        CHECK_MSG(cls > MPI_ERR_LASTCODE, "%s: MPI_Add_error_class gave %d", when, cls);
        CHECK_OK(MPI_Add_error_code(cls, &code));
        CHECK_OK(MPI_Add_error_string(code, "an anytime code"));
        CHECK_OK(MPI_Error_class(code, &got));
        CHECK_EQ_INT(got, cls);
        char s[MPI_MAX_ERROR_STRING];
        int len = -1;
        CHECK_OK(MPI_Error_string(code, s, &len));
        CHECK_EQ_STR(s, "an anytime code");
        CHECK_FAILS(when, o, MPI_Add_error_code(-7, &o.i), MPI_ERR_ARG);
        CHECK_FAILS(when, o, MPI_Remove_error_class(cls), MPI_ERR_ARG); /* it has a code */
        CHECK_OK(MPI_Remove_error_string(code));
        CHECK_OK(MPI_Remove_error_code(code));
        CHECK_OK(MPI_Remove_error_class(cls));
        CHECK_FAILS(when, o, MPI_Error_class(code, &o.i), MPI_ERR_ARG);
    }

    /* the sessions model needs no MPI_Init (and goes on after MPI_Finalize); the world
       model's communicators stay refused while a session lives */
    {
        MPI_Session session = MPI_SESSION_NULL;
        CHECK_OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
        CHECK_NE_HANDLE(session, MPI_SESSION_NULL);
        int n = -1;
        CHECK_OK(MPI_Session_get_num_psets(session, MPI_INFO_NULL, &n));
        CHECK_EQ_INT(n, 2);
        CHECK_OK(MPI_Session_call_errhandler(session, MPI_ERR_OTHER));
        int size = -1;
        CHECK_OK(MPI_Type_size(MPI_INT, &size));
        CHECK_EQ_INT(size, (int)sizeof(int));
        CHECK_FAILS(when, o, MPI_Comm_rank(MPI_COMM_WORLD, &o.i), MPI_ERR_OTHER);
        CHECK_FAILS(when, o, MPI_Comm_size(MPI_COMM_SELF, &o.i), MPI_ERR_OTHER);
        CHECK_FAILS(when, o, MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &o.ptr, &o.i),
                    MPI_ERR_OTHER);
        CHECK_FAILS(when, o, MPI_Barrier(MPI_COMM_WORLD), MPI_ERR_OTHER);
        CHECK_OK(MPI_Session_finalize(&session));
        CHECK_EQ_HANDLE(session, MPI_SESSION_NULL);
        CHECK_FAILS(when, o, MPI_Session_call_errhandler(session, MPI_ERR_OTHER), MPI_ERR_SESSION);
        /* the universe closed with the last session */
        CHECK_FAILS(when, o, MPI_Type_size(MPI_INT, &o.i), MPI_ERR_OTHER);
    }

#if defined(MPIATTR_MPI_H)
    /* handle conversions of predefined handles work; nothing else is alive */
    CHECK_EQ_INT(MPI_Comm_c2f(MPI_COMM_WORLD), 257);
    CHECK_EQ_HANDLE(MPI_Comm_f2c(258), MPI_COMM_SELF);
    CHECK_EQ_INT(MPI_Type_c2f(MPI_INT), 0x209);
    CHECK_EQ_HANDLE(MPI_Type_f2c(0x209), MPI_INT);
    CHECK_EQ_INT(MPI_Win_c2f(MPI_WIN_NULL), 0x110);
    CHECK_EQ_HANDLE(MPI_Win_f2c(0x110), MPI_WIN_NULL);
    CHECK_EQ_HANDLE(MPI_Comm_f2c(123456789), MPI_COMM_NULL);
    CHECK_EQ_HANDLE(MPI_Type_f2c(123456789), MPI_DATATYPE_NULL);
    CHECK_EQ_HANDLE(MPI_Win_f2c(123456789), MPI_WIN_NULL);
    CHECK_EQ_INT(MPI_Message_c2f(MPI_MESSAGE_NO_PROC), (MPI_Fint)(intptr_t)MPI_MESSAGE_NO_PROC);
    CHECK_EQ_HANDLE(MPI_Message_f2c((MPI_Fint)(intptr_t)MPI_MESSAGE_NO_PROC), MPI_MESSAGE_NO_PROC);
    CHECK_EQ_HANDLE(MPI_Message_f2c(123456789), MPI_MESSAGE_NULL);
#endif
}

#endif /* MPIATTR_TEST_OUTSIDE_H */
