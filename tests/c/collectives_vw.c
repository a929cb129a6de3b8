/*
 * The v and w collectives, the reduce-scatters and the nonblocking collectives on
 * communicators of one process (issue 14 item 3), with MPI_ERRORS_RETURN:
 * - MPI_Gatherv, MPI_Scatterv, MPI_Allgatherv, MPI_Alltoallv, MPI_Alltoallw and their _c
 *   forms: a derived send type (2 ints, contiguous) against MPI_INT on the other side (the
 *   same signature, another type map), displacements (in extents; in bytes for Alltoallw):
 *   the data lands there and nothing around it is written;
 * - MPI_Reduce_scatter(_block) and _c: the one block is the send data;
 * - the _c forms of Bcast, Reduce, Allreduce, Gather, Scatter, Allgather, Alltoall, Scan,
 *   Exscan and of every nonblocking and persistent collective that has one;
 * - MPI_IN_PLACE where the standard allows it (nothing moves, the ignored arrays are not read:
 *   NULL there is fine) and MPI_ERR_BUFFER where it does not;
 * - every nonblocking form: a request that MPI_Wait, MPI_Test, MPI_Waitall complete and set
 *   to MPI_REQUEST_NULL, with the blocking form's results;
 * - the persistent forms (MPI_Barrier_init ... MPI_Exscan_init, _c forms): an inactive request
 *   (MPI_Test says complete at once and keeps it; nothing moves at the init), freed by
 *   MPI_Request_free; their bad input fails like the blocking form's, and a bad info is
 *   MPI_ERR_INFO (MPI_Start is another part's: the starts are tested where it exists);
 * - bad input (MPI_COMM_NULL, root 1, negative counts, NULL arrays, uncommitted and null
 *   datatypes, signature mismatch, truncation, an op undefined on the type, NULL request):
 *   the standard's class, buffers and *request untouched.
 */
#include "check.h"

/* MPICH defines MPI_STATUSES_IGNORE as (MPI_Status *)1, which gcc 12 takes for an array too
 * small for MPI_Waitall's array parameter. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

#define FILL(a, v)                                                                             \
    do {                                                                                       \
        for (size_t i_ = 0; i_ < sizeof(a) / sizeof((a)[0]); i_++)                             \
            (a)[i_] = (v);                                                                     \
    } while (0)

/* Whether a[0..n) is all `v` except [from, from + k) which holds want[0..k). */
static int holds(const int *a, int n, int v, int from, const int *want, int k)
{
    for (int i = 0; i < n; i++) {
        int expected = (i >= from && i < from + k) ? want[i - from] : v;
        if (a[i] != expected)
            return 0;
    }
    return 1;
}

static MPI_Datatype pair; /* 2 MPI_INT, contiguous, committed */

static void v_forms(MPI_Comm comm)
{
    const int two[2] = {5, 6};
    int big[6];
    int counts[1] = {2}, displs[1] = {3};
    int one[1] = {1}, zero[1] = {0};

    /* Gatherv: one pair lands at element 3 of the MPI_INT receive buffer. */
    FILL(big, -7);
    CHECK_OK(MPI_Gatherv(two, 1, pair, big, counts, displs, MPI_INT, 0, comm));
    CHECK(holds(big, 6, -7, 3, two, 2));
    /* ... and the other way: 2 ints into block 2 (in pair extents: element 4). */
    int pdispls[1] = {2};
    FILL(big, -7);
    CHECK_OK(MPI_Gatherv(two, 2, MPI_INT, big, one, pdispls, pair, 0, comm));
    CHECK(holds(big, 6, -7, 4, two, 2));

    /* Scatterv: from element 3 of the send buffer. */
    int src[6] = {0, 1, 2, 3, 4, 5}, got[2] = {-1, -1};
    CHECK_OK(MPI_Scatterv(src, counts, displs, MPI_INT, got, 1, pair, 0, comm));
    CHECK(got[0] == 3 && got[1] == 4);

    /* Allgatherv. */
    FILL(big, -7);
    CHECK_OK(MPI_Allgatherv(two, 1, pair, big, counts, displs, MPI_INT, comm));
    CHECK(holds(big, 6, -7, 3, two, 2));

    /* Alltoallv: one pair at block 1 of src (elements 2 and 3; displacements count extents
       of each side's own type) to element 1 of big. */
    int sd[1] = {1}, rd[1] = {1};
    FILL(big, -7);
    CHECK_OK(MPI_Alltoallv(src, one, sd, pair, big, counts, rd, MPI_INT, comm));
    {
        const int want[2] = {2, 3};
        CHECK(holds(big, 6, -7, 1, want, 2));
    }

    /* Alltoallw: displacements in bytes. */
    int wsd[1] = {(int)(2 * sizeof(int))}, wrd[1] = {(int)(4 * sizeof(int))};
    MPI_Datatype st[1] = {MPI_INT}, rt[1] = {pair};
    FILL(big, -7);
    CHECK_OK(MPI_Alltoallw(src, counts, wsd, st, big, one, wrd, rt, comm));
    {
        const int want[2] = {2, 3};
        CHECK(holds(big, 6, -7, 4, want, 2));
    }

    /* Zero counts move nothing (NULL buffers allowed then). */
    FILL(big, -7);
    CHECK_OK(MPI_Gatherv(NULL, 0, MPI_INT, big, zero, zero, MPI_INT, 0, comm));
    CHECK(holds(big, 6, -7, 0, NULL, 0));

    /* The large-count forms. */
    MPI_Count ccounts[1] = {2}, cone[1] = {1};
    MPI_Aint cdispls[1] = {3}, cone_d[1] = {1};
    FILL(big, -7);
    CHECK_OK(MPI_Gatherv_c(two, 1, pair, big, ccounts, cdispls, MPI_INT, 0, comm));
    CHECK(holds(big, 6, -7, 3, two, 2));
    got[0] = got[1] = -1;
    CHECK_OK(MPI_Scatterv_c(src, ccounts, cdispls, MPI_INT, got, 1, pair, 0, comm));
    CHECK(got[0] == 3 && got[1] == 4);
    FILL(big, -7);
    CHECK_OK(MPI_Allgatherv_c(two, 2, MPI_INT, big, ccounts, cdispls, MPI_INT, comm));
    CHECK(holds(big, 6, -7, 3, two, 2));
    FILL(big, -7);
    CHECK_OK(MPI_Alltoallv_c(src, cone, cone_d, pair, big, ccounts, cone_d, MPI_INT, comm));
    {
        const int want[2] = {2, 3};
        CHECK(holds(big, 6, -7, 1, want, 2));
    }
    /* The large-count one-block forms. */
    int g2[2] = {0, 0};
    CHECK_OK(MPI_Gather_c(two, 1, pair, g2, 2, MPI_INT, 0, comm));
    CHECK(g2[0] == 5 && g2[1] == 6);
    g2[0] = g2[1] = 0;
    CHECK_OK(MPI_Scatter_c(two, 2, MPI_INT, g2, 1, pair, 0, comm));
    CHECK(g2[0] == 5 && g2[1] == 6);
    g2[0] = g2[1] = 0;
    CHECK_OK(MPI_Allgather_c(two, 2, MPI_INT, g2, 2, MPI_INT, comm));
    CHECK(g2[0] == 5 && g2[1] == 6);
    g2[0] = g2[1] = 0;
    CHECK_OK(MPI_Alltoall_c(two, 1, pair, g2, 2, MPI_INT, comm));
    CHECK(g2[0] == 5 && g2[1] == 6);
    g2[0] = g2[1] = -3;
    CHECK_OK(MPI_Exscan_c(two, g2, 2, MPI_INT, MPI_SUM, comm));
    CHECK(g2[0] == -3 && g2[1] == -3);
    CHECK_RC(MPI_Gather_c(two, 2, MPI_INT, g2, 1, MPI_INT, 0, comm), MPI_ERR_TRUNCATE);
    CHECK_RC(MPI_Scatter_c(two, -1, MPI_INT, g2, 1, MPI_INT, 0, comm), MPI_ERR_COUNT);
    CHECK_RC(MPI_Allgather_c(two, 2, MPI_INT, g2, 2, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_RC(MPI_Alltoall_c(two, 2, MPI_INT, MPI_IN_PLACE, 2, MPI_INT, comm), MPI_ERR_BUFFER);
    CHECK_RC(MPI_Exscan_c(two, g2, 2, MPI_INT, MPI_BAND, comm), MPI_SUCCESS);
    CHECK_RC(MPI_Exscan_c(two, g2, 2, MPI_FLOAT, MPI_BAND, comm), MPI_ERR_OP);
    CHECK(g2[0] == -3 && g2[1] == -3);
    int b2[2] = {5, 6};
    CHECK_OK(MPI_Bcast_c(b2, 1, pair, 0, comm));
    CHECK(b2[0] == 5 && b2[1] == 6);
    CHECK_RC(MPI_Bcast_c(b2, -1, MPI_INT, 0, comm), MPI_ERR_COUNT);
    CHECK_RC(MPI_Bcast_c(b2, 2, MPI_INT, 1, comm), MPI_ERR_ROOT);
    g2[0] = g2[1] = 0;
    CHECK_OK(MPI_Reduce_c(two, g2, 2, MPI_INT, MPI_SUM, 0, comm));
    CHECK(g2[0] == 5 && g2[1] == 6);
    g2[0] = g2[1] = 0;
    CHECK_OK(MPI_Reduce_c(two, g2, 1, pair, MPI_SUM, 0, comm));
    CHECK(g2[0] == 5 && g2[1] == 6);
    g2[0] = g2[1] = 0;
    CHECK_OK(MPI_Allreduce_c(two, g2, 2, MPI_INT, MPI_MAX, comm));
    CHECK(g2[0] == 5 && g2[1] == 6);
    g2[0] = g2[1] = 0;
    CHECK_OK(MPI_Scan_c(two, g2, 2, MPI_INT, MPI_PROD, comm));
    CHECK(g2[0] == 5 && g2[1] == 6);
    CHECK_OK(MPI_Allreduce_c(MPI_IN_PLACE, g2, 2, MPI_INT, MPI_SUM, comm));
    CHECK(g2[0] == 5 && g2[1] == 6);
    CHECK_RC(MPI_Allreduce_c(two, g2, 2, MPI_FLOAT, MPI_BOR, comm), MPI_ERR_OP);
    CHECK_RC(MPI_Reduce_c(two, g2, 2, MPI_INT, MPI_SUM, 1, comm), MPI_ERR_ROOT);
    CHECK_RC(MPI_Scan_c(two, MPI_IN_PLACE, 2, MPI_INT, MPI_SUM, comm), MPI_ERR_BUFFER);
    CHECK(g2[0] == 5 && g2[1] == 6);
    MPI_Aint cwsd[1] = {(MPI_Aint)(2 * sizeof(int))}, cwrd[1] = {(MPI_Aint)(4 * sizeof(int))};
    FILL(big, -7);
    CHECK_OK(MPI_Alltoallw_c(src, ccounts, cwsd, st, big, cone, cwrd, rt, comm));
    {
        const int want[2] = {2, 3};
        CHECK(holds(big, 6, -7, 4, want, 2));
    }
}

static void reduce_scatters(MPI_Comm comm)
{
    double d[3] = {1.5, 2.5, -3.0}, e[4] = {0, 0, 0, 9};
    int rc3[1] = {3};
    CHECK_OK(MPI_Reduce_scatter(d, e, rc3, MPI_DOUBLE, MPI_MIN, comm));
    CHECK(e[0] == 1.5 && e[1] == 2.5 && e[2] == -3.0 && e[3] == 9);
    FILL(e, 0);
    CHECK_OK(MPI_Reduce_scatter_block(d, e, 2, MPI_DOUBLE, MPI_SUM, comm));
    CHECK(e[0] == 1.5 && e[1] == 2.5 && e[2] == 0 && e[3] == 0);
    FILL(e, 0);
    MPI_Count c2[1] = {2};
    CHECK_OK(MPI_Reduce_scatter_c(d, e, c2, MPI_DOUBLE, MPI_MAX, comm));
    CHECK(e[0] == 1.5 && e[1] == 2.5 && e[2] == 0);
    FILL(e, 0);
    CHECK_OK(MPI_Reduce_scatter_block_c(d, e, 3, MPI_DOUBLE, MPI_PROD, comm));
    CHECK(e[0] == 1.5 && e[1] == 2.5 && e[2] == -3.0 && e[3] == 0);
    /* A derived type: the ops apply to its elements. */
    int ip[2] = {4, 5}, io[2] = {0, 0};
    CHECK_OK(MPI_Reduce_scatter_block(ip, io, 1, pair, MPI_SUM, comm));
    CHECK(io[0] == 4 && io[1] == 5);
}

static void in_place(MPI_Comm comm)
{
    int big[6];
    int counts[1] = {2}, displs[1] = {3}, bad[1] = {-1};
    const int two[2] = {5, 6};

    /* Allowed: nothing moves, and the ignored arguments are not looked at. */
    FILL(big, -7);
    CHECK_OK(MPI_Gatherv(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, big, counts, displs, MPI_INT, 0,
                         comm));
    CHECK(holds(big, 6, -7, 0, NULL, 0));
    CHECK_OK(MPI_Scatterv(big, counts, displs, MPI_INT, MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, 0,
                          comm));
    CHECK(holds(big, 6, -7, 0, NULL, 0));
    CHECK_OK(MPI_Allgatherv(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, big, counts, displs, MPI_INT,
                            comm));
    CHECK(holds(big, 6, -7, 0, NULL, 0));
    CHECK_OK(MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, big, counts, displs,
                           MPI_INT, comm));
    CHECK(holds(big, 6, -7, 0, NULL, 0));
    MPI_Datatype ints[1] = {MPI_INT};
    CHECK_OK(MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, big, counts, displs, ints, comm));
    CHECK(holds(big, 6, -7, 0, NULL, 0));
    int r[3] = {7, 8, 9}, c3[1] = {3};
    CHECK_OK(MPI_Reduce_scatter(MPI_IN_PLACE, r, c3, MPI_INT, MPI_SUM, comm));
    CHECK(r[0] == 7 && r[1] == 8 && r[2] == 9);
    CHECK_OK(MPI_Reduce_scatter_block(MPI_IN_PLACE, r, 3, MPI_INT, MPI_BXOR, comm));
    CHECK(r[0] == 7 && r[1] == 8 && r[2] == 9);

    /* Forbidden: MPI_ERR_BUFFER, nothing written. */
    CHECK_RC(MPI_Gatherv(two, 2, MPI_INT, MPI_IN_PLACE, counts, displs, MPI_INT, 0, comm),
             MPI_ERR_BUFFER);
    int got[2] = {-1, -1};
    CHECK_RC(MPI_Scatterv(MPI_IN_PLACE, counts, displs, MPI_INT, got, 2, MPI_INT, 0, comm),
             MPI_ERR_BUFFER);
    CHECK(got[0] == -1 && got[1] == -1);
    CHECK_RC(MPI_Allgatherv(two, 2, MPI_INT, MPI_IN_PLACE, counts, displs, MPI_INT, comm),
             MPI_ERR_BUFFER);
    CHECK_RC(MPI_Alltoallv(two, counts, displs, MPI_INT, MPI_IN_PLACE, counts, displs, MPI_INT,
                           comm),
             MPI_ERR_BUFFER);
    CHECK_RC(MPI_Alltoallw(two, counts, displs, ints, MPI_IN_PLACE, counts, displs, ints, comm),
             MPI_ERR_BUFFER);
    CHECK_RC(MPI_Reduce_scatter(r, MPI_IN_PLACE, c3, MPI_INT, MPI_SUM, comm), MPI_ERR_BUFFER);
    CHECK_RC(MPI_Reduce_scatter_block(r, MPI_IN_PLACE, 3, MPI_INT, MPI_SUM, comm),
             MPI_ERR_BUFFER);
    (void)bad;
}

/* Completes `*request` with MPI_Wait and checks it became MPI_REQUEST_NULL. */
#define WAIT(request)                                                                          \
    do {                                                                                       \
        CHECK_OK(MPI_Wait(&(request), MPI_STATUS_IGNORE));                                     \
        CHECK_EQ_HANDLE((request), MPI_REQUEST_NULL);                                          \
    } while (0)

static void nonblocking(MPI_Comm comm)
{
    MPI_Request rq[20];
    int n = 0;
    int b[2] = {3, 4}, g[2] = {0, 0}, s[2] = {0, 0}, ag[2] = {0, 0}, a2a[2] = {0, 0};
    int gv[4] = {-1, -1, -1, -1}, sv[2] = {0, 0}, agv[4] = {-1, -1, -1, -1}, a2av[2] = {0, 0};
    int a2aw[2] = {0, 0}, rd[2] = {0, 0}, ar[2] = {0, 0}, rsb[2] = {0, 0}, rs[2] = {0, 0};
    int sc[2] = {0, 0}, ex[2] = {-5, -5};
    int cnt[1] = {2}, dsp[1] = {0}, dsp2[1] = {2}, one[1] = {1};
    MPI_Datatype ints[1] = {MPI_INT};
    CHECK_OK(MPI_Ibarrier(comm, &rq[n++]));
    CHECK_OK(MPI_Ibcast(b, 2, MPI_INT, 0, comm, &rq[n++]));
    CHECK_OK(MPI_Igather(b, 1, pair, g, 2, MPI_INT, 0, comm, &rq[n++]));
    CHECK_OK(MPI_Iscatter(b, 2, MPI_INT, s, 1, pair, 0, comm, &rq[n++]));
    CHECK_OK(MPI_Iallgather(b, 2, MPI_INT, ag, 2, MPI_INT, comm, &rq[n++]));
    CHECK_OK(MPI_Ialltoall(b, 2, MPI_INT, a2a, 1, pair, comm, &rq[n++]));
    CHECK_OK(MPI_Igatherv(b, 2, MPI_INT, gv, cnt, dsp2, MPI_INT, 0, comm, &rq[n++]));
    CHECK_OK(MPI_Iscatterv(b, one, dsp, pair, sv, 2, MPI_INT, 0, comm, &rq[n++]));
    CHECK_OK(MPI_Iallgatherv(b, 1, pair, agv, cnt, dsp2, MPI_INT, comm, &rq[n++]));
    CHECK_OK(MPI_Ialltoallv(b, cnt, dsp, MPI_INT, a2av, one, dsp, pair, comm, &rq[n++]));
    CHECK_OK(MPI_Ialltoallw(b, cnt, dsp, ints, a2aw, cnt, dsp, ints, comm, &rq[n++]));
    CHECK_OK(MPI_Ireduce(b, rd, 2, MPI_INT, MPI_SUM, 0, comm, &rq[n++]));
    CHECK_OK(MPI_Iallreduce(b, ar, 2, MPI_INT, MPI_MAX, comm, &rq[n++]));
    CHECK_OK(MPI_Ireduce_scatter_block(b, rsb, 2, MPI_INT, MPI_MIN, comm, &rq[n++]));
    CHECK_OK(MPI_Ireduce_scatter(b, rs, cnt, MPI_INT, MPI_PROD, comm, &rq[n++]));
    CHECK_OK(MPI_Iscan(b, sc, 2, MPI_INT, MPI_SUM, comm, &rq[n++]));
    CHECK_OK(MPI_Iexscan(b, ex, 2, MPI_INT, MPI_SUM, comm, &rq[n++]));
    CHECK_OK(MPI_Waitall(n, rq, MPI_STATUSES_IGNORE));
    for (int i = 0; i < n; i++)
        CHECK_EQ_HANDLE(rq[i], MPI_REQUEST_NULL);
    CHECK(b[0] == 3 && b[1] == 4);
    CHECK(g[0] == 3 && g[1] == 4);
    CHECK(s[0] == 3 && s[1] == 4);
    CHECK(ag[0] == 3 && ag[1] == 4);
    CHECK(a2a[0] == 3 && a2a[1] == 4);
    CHECK(gv[0] == -1 && gv[1] == -1 && gv[2] == 3 && gv[3] == 4);
    CHECK(sv[0] == 3 && sv[1] == 4);
    CHECK(agv[0] == -1 && agv[1] == -1 && agv[2] == 3 && agv[3] == 4);
    CHECK(a2av[0] == 3 && a2av[1] == 4);
    CHECK(a2aw[0] == 3 && a2aw[1] == 4);
    CHECK(rd[0] == 3 && rd[1] == 4);
    CHECK(ar[0] == 3 && ar[1] == 4);
    CHECK(rsb[0] == 3 && rsb[1] == 4);
    CHECK(rs[0] == 3 && rs[1] == 4);
    CHECK(sc[0] == 3 && sc[1] == 4);
    /* Exscan leaves rank 0's receive buffer undefined; mpiattr leaves it alone. */
    CHECK(ex[0] == -5 && ex[1] == -5);

    /* MPI_Test, MPI_Request_free; in place. */
    MPI_Request r;
    int flag = 0, x = 6;
    CHECK_OK(MPI_Iallreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_PROD, comm, &r));
    CHECK_OK(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
    CHECK(flag);
    CHECK_EQ_HANDLE(r, MPI_REQUEST_NULL);
    CHECK_EQ_INT(x, 6);
    /* (MPI_Request_free and MPI_Cancel on a nonblocking collective's request are erroneous,
       MPI-4.1 §6.12.) */
    CHECK_OK(MPI_Ibarrier(comm, &r));
    WAIT(r);

    /* The large-count nonblocking forms. */
    MPI_Count ccnt[1] = {2}, cone[1] = {1};
    MPI_Aint cdsp[1] = {0}, cdsp2[1] = {2};
    int o4[4] = {-1, -1, -1, -1}, o2[2] = {0, 0};
    CHECK_OK(MPI_Igatherv_c(b, 2, MPI_INT, o4, ccnt, cdsp2, MPI_INT, 0, comm, &r));
    WAIT(r);
    CHECK(o4[0] == -1 && o4[1] == -1 && o4[2] == 3 && o4[3] == 4);
    CHECK_OK(MPI_Iscatterv_c(b, cone, cdsp, pair, o2, 2, MPI_INT, 0, comm, &r));
    WAIT(r);
    CHECK(o2[0] == 3 && o2[1] == 4);
    FILL(o4, -1);
    CHECK_OK(MPI_Iallgatherv_c(b, 2, MPI_INT, o4, ccnt, cdsp2, MPI_INT, comm, &r));
    WAIT(r);
    CHECK(o4[0] == -1 && o4[1] == -1 && o4[2] == 3 && o4[3] == 4);
    FILL(o2, 0);
    CHECK_OK(MPI_Ialltoallv_c(b, ccnt, cdsp, MPI_INT, o2, ccnt, cdsp, MPI_INT, comm, &r));
    WAIT(r);
    CHECK(o2[0] == 3 && o2[1] == 4);
    FILL(o2, 0);
    CHECK_OK(MPI_Ialltoallw_c(b, ccnt, cdsp, ints, o2, ccnt, cdsp, ints, comm, &r));
    WAIT(r);
    CHECK(o2[0] == 3 && o2[1] == 4);
    FILL(o2, 0);
    CHECK_OK(MPI_Ireduce_scatter_c(b, o2, ccnt, MPI_INT, MPI_SUM, comm, &r));
    WAIT(r);
    CHECK(o2[0] == 3 && o2[1] == 4);
    FILL(o2, 0);
    CHECK_OK(MPI_Ireduce_scatter_block_c(b, o2, 2, MPI_INT, MPI_SUM, comm, &r));
    WAIT(r);
    CHECK(o2[0] == 3 && o2[1] == 4);
    CHECK_OK(MPI_Ibcast_c(b, 2, MPI_INT, 0, comm, &r));
    WAIT(r);
    CHECK(b[0] == 3 && b[1] == 4);
    FILL(o2, 0);
    CHECK_OK(MPI_Igather_c(b, 1, pair, o2, 2, MPI_INT, 0, comm, &r));
    WAIT(r);
    CHECK(o2[0] == 3 && o2[1] == 4);
    FILL(o2, 0);
    CHECK_OK(MPI_Iscatter_c(b, 2, MPI_INT, o2, 2, MPI_INT, 0, comm, &r));
    WAIT(r);
    CHECK(o2[0] == 3 && o2[1] == 4);
    FILL(o2, 0);
    CHECK_OK(MPI_Iallgather_c(b, 2, MPI_INT, o2, 1, pair, comm, &r));
    WAIT(r);
    CHECK(o2[0] == 3 && o2[1] == 4);
    FILL(o2, 0);
    CHECK_OK(MPI_Ialltoall_c(b, 2, MPI_INT, o2, 2, MPI_INT, comm, &r));
    WAIT(r);
    CHECK(o2[0] == 3 && o2[1] == 4);
    FILL(o2, 0);
    CHECK_OK(MPI_Ireduce_c(b, o2, 2, MPI_INT, MPI_MAX, 0, comm, &r));
    WAIT(r);
    CHECK(o2[0] == 3 && o2[1] == 4);
    FILL(o2, 0);
    CHECK_OK(MPI_Iallreduce_c(b, o2, 2, MPI_INT, MPI_MIN, comm, &r));
    WAIT(r);
    CHECK(o2[0] == 3 && o2[1] == 4);
    FILL(o2, 0);
    CHECK_OK(MPI_Iscan_c(b, o2, 2, MPI_INT, MPI_SUM, comm, &r));
    WAIT(r);
    CHECK(o2[0] == 3 && o2[1] == 4);
    FILL(o2, -2);
    CHECK_OK(MPI_Iexscan_c(b, o2, 2, MPI_INT, MPI_SUM, comm, &r));
    WAIT(r);
    CHECK(o2[0] == -2 && o2[1] == -2);
    CHECK_RC(MPI_Iallreduce_c(b, o2, -1, MPI_INT, MPI_SUM, comm, &r), MPI_ERR_COUNT);
    CHECK_RC(MPI_Igather_c(b, 2, MPI_INT, o2, 1, MPI_INT, 0, comm, &r), MPI_ERR_TRUNCATE);
    CHECK_EQ_HANDLE(r, MPI_REQUEST_NULL);
}

/* An inactive persistent request: MPI_Test reports it at once and keeps it; then freed. */
static void inactive_then_free(MPI_Request *r, const char *what)
{
    int flag = 0;
    CHECK_MSG(*r != MPI_REQUEST_NULL, "%s: no request", what);
    MPI_Request kept = *r;
    CHECK_OK(MPI_Test(r, &flag, MPI_STATUS_IGNORE));
    CHECK_MSG(flag, "%s: an inactive request is not complete", what);
    CHECK_MSG(*r == kept, "%s: MPI_Test changed a persistent request's handle", what);
    CHECK_OK(MPI_Request_free(r));
    CHECK_EQ_HANDLE(*r, MPI_REQUEST_NULL);
}

static void persistent(MPI_Comm comm)
{
    MPI_Request r;
    MPI_Info info;
    REQUIRE_OK(MPI_Info_create(&info));
    REQUIRE_OK(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    int b[2] = {3, 4}, o[4] = {-1, -1, -1, -1};
    int cnt[1] = {2}, dsp[1] = {0}, one[1] = {1};
    MPI_Count ccnt[1] = {2};
    MPI_Aint cdsp[1] = {0};
    MPI_Datatype ints[1] = {MPI_INT};
#define INIT(call)                                                                             \
    do {                                                                                       \
        r = MPI_REQUEST_NULL;                                                                  \
        CHECK_OK(call);                                                                        \
        inactive_then_free(&r, #call);                                                         \
    } while (0)
    INIT(MPI_Barrier_init(comm, MPI_INFO_NULL, &r));
    INIT(MPI_Bcast_init(b, 2, MPI_INT, 0, comm, info, &r));
    INIT(MPI_Gather_init(b, 1, pair, o, 2, MPI_INT, 0, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Gatherv_init(b, 2, MPI_INT, o, cnt, dsp, MPI_INT, 0, comm, info, &r));
    INIT(MPI_Gatherv_init_c(b, 2, MPI_INT, o, ccnt, cdsp, MPI_INT, 0, comm, info, &r));
    INIT(MPI_Scatter_init(b, 2, MPI_INT, o, 1, pair, 0, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Scatterv_init(b, one, dsp, pair, o, 2, MPI_INT, 0, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Scatterv_init_c(b, ccnt, cdsp, MPI_INT, o, 2, MPI_INT, 0, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Allgather_init(b, 2, MPI_INT, o, 2, MPI_INT, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Allgather_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, o, 2, MPI_INT, comm,
                            MPI_INFO_NULL, &r));
    INIT(MPI_Allgatherv_init(b, 2, MPI_INT, o, cnt, dsp, MPI_INT, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Allgatherv_init_c(b, 2, MPI_INT, o, ccnt, cdsp, MPI_INT, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Alltoall_init(b, 2, MPI_INT, o, 2, MPI_INT, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Alltoallv_init(b, cnt, dsp, MPI_INT, o, cnt, dsp, MPI_INT, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Alltoallv_init_c(b, ccnt, cdsp, MPI_INT, o, ccnt, cdsp, MPI_INT, comm,
                              MPI_INFO_NULL, &r));
    INIT(MPI_Alltoallw_init(b, cnt, dsp, ints, o, cnt, dsp, ints, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Alltoallw_init_c(b, ccnt, cdsp, ints, o, ccnt, cdsp, ints, comm, MPI_INFO_NULL,
                              &r));
    INIT(MPI_Reduce_init(b, o, 2, MPI_INT, MPI_SUM, 0, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Allreduce_init(b, o, 2, MPI_INT, MPI_MAX, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Allreduce_init(MPI_IN_PLACE, o, 2, MPI_INT, MPI_MAX, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Reduce_scatter_init(b, o, cnt, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Reduce_scatter_init_c(b, o, ccnt, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Reduce_scatter_block_init(b, o, 2, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Reduce_scatter_block_init_c(b, o, 2, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Scan_init(b, o, 2, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Exscan_init(b, o, 2, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Bcast_init_c(b, 2, MPI_INT, 0, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Gather_init_c(b, 2, MPI_INT, o, 1, pair, 0, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Scatter_init_c(b, 2, MPI_INT, o, 2, MPI_INT, 0, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Allgather_init_c(b, 2, MPI_INT, o, 2, MPI_INT, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Alltoall_init_c(b, 2, MPI_INT, o, 2, MPI_INT, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Reduce_init_c(b, o, 2, MPI_INT, MPI_SUM, 0, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Allreduce_init_c(b, o, 2, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Scan_init_c(b, o, 2, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r));
    INIT(MPI_Exscan_init_c(b, o, 2, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r));
#undef INIT
    /* Nothing moved at the init calls. */
    CHECK(o[0] == -1 && o[1] == -1 && o[2] == -1 && o[3] == -1);
    CHECK_OK(MPI_Info_free(&info));
}

/* A failing call: class `cls`, `o` (which holds the request output) untouched. */
#define FAILS(call, cls) CHECK_FAILS(#call, o, call, cls)

static void bad_input(void)
{
    struct outs o;
    MPI_Comm w = MPI_COMM_WORLD;
    int a[4] = {1, 2, 3, 4}, z[4] = {9, 9, 9, 9};
    int c2[1] = {2}, c1[1] = {1}, cneg[1] = {-1}, d0[1] = {0};
    MPI_Datatype ints[1] = {MPI_INT}, doubles[1] = {MPI_DOUBLE}, nulls[1] = {MPI_DATATYPE_NULL};
    MPI_Datatype loose; /* not committed */
    REQUIRE_OK(MPI_Type_contiguous(2, MPI_INT, &loose));
    MPI_Datatype loose1[1] = {loose};

    /* Communicator, root. */
    FAILS(MPI_Gatherv(a, 2, MPI_INT, z, c2, d0, MPI_INT, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    FAILS(MPI_Gatherv(a, 2, MPI_INT, z, c2, d0, MPI_INT, 1, w), MPI_ERR_ROOT);
    FAILS(MPI_Scatterv(a, c2, d0, MPI_INT, z, 2, MPI_INT, 1, w), MPI_ERR_ROOT);
    FAILS(MPI_Scatterv(a, c2, d0, MPI_INT, z, 2, MPI_INT, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    FAILS(MPI_Allgatherv(a, 2, MPI_INT, z, c2, d0, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM);
    FAILS(MPI_Alltoallv(a, c2, d0, MPI_INT, z, c2, d0, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM);
    FAILS(MPI_Alltoallw(a, c2, d0, ints, z, c2, d0, ints, MPI_COMM_NULL), MPI_ERR_COMM);
    FAILS(MPI_Reduce_scatter(a, z, c2, MPI_INT, MPI_SUM, MPI_COMM_NULL), MPI_ERR_COMM);
    FAILS(MPI_Reduce_scatter_block(a, z, 2, MPI_INT, MPI_SUM, MPI_COMM_NULL), MPI_ERR_COMM);
    /* Counts. */
    FAILS(MPI_Gatherv(a, 2, MPI_INT, z, cneg, d0, MPI_INT, 0, w), MPI_ERR_COUNT);
    FAILS(MPI_Gatherv(a, -2, MPI_INT, z, c2, d0, MPI_INT, 0, w), MPI_ERR_COUNT);
    FAILS(MPI_Scatterv(a, cneg, d0, MPI_INT, z, 2, MPI_INT, 0, w), MPI_ERR_COUNT);
    FAILS(MPI_Alltoallv(a, c2, d0, MPI_INT, z, cneg, d0, MPI_INT, w), MPI_ERR_COUNT);
    FAILS(MPI_Alltoallw(a, cneg, d0, ints, z, c2, d0, ints, w), MPI_ERR_COUNT);
    FAILS(MPI_Reduce_scatter(a, z, cneg, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT);
    FAILS(MPI_Reduce_scatter_block(a, z, -1, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT);
    /* NULL arrays that must be read. */
    FAILS(MPI_Gatherv(a, 2, MPI_INT, z, NULL, d0, MPI_INT, 0, w), MPI_ERR_ARG);
    FAILS(MPI_Gatherv(a, 2, MPI_INT, z, c2, NULL, MPI_INT, 0, w), MPI_ERR_ARG);
    FAILS(MPI_Scatterv(a, NULL, d0, MPI_INT, z, 2, MPI_INT, 0, w), MPI_ERR_ARG);
    FAILS(MPI_Alltoallv(a, c2, NULL, MPI_INT, z, c2, d0, MPI_INT, w), MPI_ERR_ARG);
    FAILS(MPI_Alltoallw(a, c2, d0, NULL, z, c2, d0, ints, w), MPI_ERR_ARG);
    FAILS(MPI_Alltoallw(a, c2, d0, ints, z, c2, d0, NULL, w), MPI_ERR_ARG);
    FAILS(MPI_Reduce_scatter(a, z, NULL, MPI_INT, MPI_SUM, w), MPI_ERR_ARG);
    /* Datatypes: null, uncommitted, another signature. */
    FAILS(MPI_Gatherv(a, 2, MPI_DATATYPE_NULL, z, c2, d0, MPI_INT, 0, w), MPI_ERR_TYPE);
    FAILS(MPI_Gatherv(a, 1, loose, z, c2, d0, MPI_INT, 0, w), MPI_ERR_TYPE);
    FAILS(MPI_Allgatherv(a, 2, MPI_INT, z, c2, d0, MPI_FLOAT, w), MPI_ERR_TYPE);
    FAILS(MPI_Alltoallw(a, c2, d0, nulls, z, c2, d0, ints, w), MPI_ERR_TYPE);
    FAILS(MPI_Alltoallw(a, c1, d0, loose1, z, c2, d0, ints, w), MPI_ERR_TYPE);
    FAILS(MPI_Alltoallw(a, c1, d0, ints, z, c1, d0, doubles, w), MPI_ERR_TYPE);
    FAILS(MPI_Reduce_scatter_block(a, z, 1, loose, MPI_SUM, w), MPI_ERR_TYPE);
    /* Truncation. */
    FAILS(MPI_Gatherv(a, 2, MPI_INT, z, c1, d0, MPI_INT, 0, w), MPI_ERR_TRUNCATE);
    FAILS(MPI_Alltoallv(a, c2, d0, MPI_INT, z, c1, d0, MPI_INT, w), MPI_ERR_TRUNCATE);
    /* An op not defined on the type. */
    double dd[2] = {1, 2}, de[2] = {7, 7};
    FAILS(MPI_Reduce_scatter_block(dd, de, 2, MPI_DOUBLE, MPI_BAND, w), MPI_ERR_OP);
    FAILS(MPI_Reduce_scatter(dd, de, c2, MPI_DOUBLE, MPI_LXOR, w), MPI_ERR_OP);
    FAILS(MPI_Reduce_scatter(dd, de, c2, MPI_DOUBLE, MPI_OP_NULL, w), MPI_ERR_OP);
    CHECK(de[0] == 7 && de[1] == 7);

    /* Nonblocking: the blocking form's classes, and *request stays as it was. */
    FAILS(MPI_Ibarrier(MPI_COMM_NULL, &o.request), MPI_ERR_COMM);
    FAILS(MPI_Ibcast(a, 2, MPI_INT, 1, w, &o.request), MPI_ERR_ROOT);
    FAILS(MPI_Ibcast(a, 2, loose, 0, w, &o.request), MPI_ERR_TYPE);
    FAILS(MPI_Igather(a, 2, MPI_INT, z, 1, MPI_INT, 0, w, &o.request), MPI_ERR_TRUNCATE);
    FAILS(MPI_Iscatter(a, -1, MPI_INT, z, 1, MPI_INT, 0, w, &o.request), MPI_ERR_COUNT);
    FAILS(MPI_Iallgather(a, 2, MPI_INT, MPI_IN_PLACE, 2, MPI_INT, w, &o.request),
          MPI_ERR_BUFFER);
    FAILS(MPI_Ialltoall(a, 2, MPI_INT, z, 2, MPI_DOUBLE, w, &o.request), MPI_ERR_TYPE);
    FAILS(MPI_Igatherv(a, 2, MPI_INT, z, NULL, d0, MPI_INT, 0, w, &o.request), MPI_ERR_ARG);
    FAILS(MPI_Iscatterv(a, c2, d0, MPI_INT, z, 2, MPI_INT, 1, w, &o.request), MPI_ERR_ROOT);
    FAILS(MPI_Iallgatherv(a, 2, MPI_INT, z, cneg, d0, MPI_INT, w, &o.request), MPI_ERR_COUNT);
    FAILS(MPI_Ialltoallv(a, c2, d0, MPI_INT, z, c1, d0, MPI_INT, w, &o.request),
          MPI_ERR_TRUNCATE);
    FAILS(MPI_Ialltoallw(a, c2, d0, ints, z, c2, d0, NULL, w, &o.request), MPI_ERR_ARG);
    FAILS(MPI_Ireduce(dd, de, 2, MPI_DOUBLE, MPI_BOR, 0, w, &o.request), MPI_ERR_OP);
    FAILS(MPI_Ireduce(dd, de, 2, MPI_DOUBLE, MPI_SUM, 1, w, &o.request), MPI_ERR_ROOT);
    FAILS(MPI_Iallreduce(dd, MPI_IN_PLACE, 2, MPI_DOUBLE, MPI_SUM, w, &o.request),
          MPI_ERR_BUFFER);
    FAILS(MPI_Ireduce_scatter(dd, de, c2, MPI_DOUBLE, MPI_SUM, MPI_COMM_NULL, &o.request),
          MPI_ERR_COMM);
    FAILS(MPI_Ireduce_scatter_block(dd, de, -2, MPI_DOUBLE, MPI_SUM, w, &o.request),
          MPI_ERR_COUNT);
    FAILS(MPI_Iscan(dd, de, 2, MPI_DOUBLE, MPI_BXOR, w, &o.request), MPI_ERR_OP);
    FAILS(MPI_Iexscan(dd, de, 2, MPI_DATATYPE_NULL, MPI_SUM, w, &o.request), MPI_ERR_TYPE);
    CHECK(de[0] == 7 && de[1] == 7);
    /* Persistent: the blocking form's classes, a bad info, and *request stays. */
    FAILS(MPI_Barrier_init(MPI_COMM_NULL, MPI_INFO_NULL, &o.request), MPI_ERR_COMM);
    FAILS(MPI_Barrier_init(w, (MPI_Info)IPTR(0x7777), &o.request), MPI_ERR_INFO);
    FAILS(MPI_Bcast_init(a, 2, MPI_INT, 1, w, MPI_INFO_NULL, &o.request), MPI_ERR_ROOT);
    FAILS(MPI_Gather_init(a, 2, MPI_INT, z, 1, MPI_INT, 0, w, MPI_INFO_NULL, &o.request),
          MPI_ERR_TRUNCATE);
    FAILS(MPI_Gatherv_init(a, 2, MPI_INT, z, c2, NULL, MPI_INT, 0, w, MPI_INFO_NULL,
                           &o.request),
          MPI_ERR_ARG);
    FAILS(MPI_Scatter_init(a, 2, loose, z, 2, MPI_INT, 0, w, MPI_INFO_NULL, &o.request),
          MPI_ERR_TYPE);
    FAILS(MPI_Scatterv_init(MPI_IN_PLACE, c2, d0, MPI_INT, z, 2, MPI_INT, 0, w, MPI_INFO_NULL,
                            &o.request),
          MPI_ERR_BUFFER);
    FAILS(MPI_Allgather_init(a, 2, MPI_INT, z, 2, MPI_FLOAT, w, MPI_INFO_NULL, &o.request),
          MPI_ERR_TYPE);
    FAILS(MPI_Allgatherv_init(a, 2, MPI_INT, z, cneg, d0, MPI_INT, w, MPI_INFO_NULL,
                              &o.request),
          MPI_ERR_COUNT);
    FAILS(MPI_Alltoall_init(a, -1, MPI_INT, z, 2, MPI_INT, w, MPI_INFO_NULL, &o.request),
          MPI_ERR_COUNT);
    FAILS(MPI_Alltoallv_init(a, c2, d0, MPI_INT, MPI_IN_PLACE, c2, d0, MPI_INT, w,
                             MPI_INFO_NULL, &o.request),
          MPI_ERR_BUFFER);
    FAILS(MPI_Alltoallw_init(a, c2, d0, nulls, z, c2, d0, ints, w, MPI_INFO_NULL, &o.request),
          MPI_ERR_TYPE);
    FAILS(MPI_Reduce_init(dd, de, 2, MPI_DOUBLE, MPI_BAND, 0, w, MPI_INFO_NULL, &o.request),
          MPI_ERR_OP);
    FAILS(MPI_Allreduce_init(dd, de, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_NULL, MPI_INFO_NULL,
                             &o.request),
          MPI_ERR_COMM);
    FAILS(MPI_Reduce_scatter_init(dd, de, NULL, MPI_DOUBLE, MPI_SUM, w, MPI_INFO_NULL,
                                  &o.request),
          MPI_ERR_ARG);
    FAILS(MPI_Reduce_scatter_block_init(dd, MPI_IN_PLACE, 2, MPI_DOUBLE, MPI_SUM, w,
                                        MPI_INFO_NULL, &o.request),
          MPI_ERR_BUFFER);
    FAILS(MPI_Scan_init(dd, de, 2, MPI_DOUBLE, MPI_LAND, w, MPI_INFO_NULL, &o.request),
          MPI_ERR_OP);
    FAILS(MPI_Exscan_init(dd, de, -3, MPI_DOUBLE, MPI_SUM, w, MPI_INFO_NULL, &o.request),
          MPI_ERR_COUNT);
    CHECK_RC(MPI_Barrier_init(w, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
    CHECK(de[0] == 7 && de[1] == 7);

    CHECK_RC(MPI_Ibarrier(w, NULL), MPI_ERR_ARG);
    CHECK_RC(MPI_Iallreduce(dd, de, 2, MPI_DOUBLE, MPI_SUM, w, NULL), MPI_ERR_ARG);
    CHECK(de[0] == 7 && de[1] == 7);

    for (int i = 0; i < 4; i++)
        CHECK_MSG(z[i] == 9, "z[%d] = %d after failed calls", i, z[i]);
    CHECK_OK(MPI_Type_free(&loose));
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    REQUIRE_OK(MPI_Type_contiguous(2, MPI_INT, &pair));
    REQUIRE_OK(MPI_Type_commit(&pair));
    MPI_Comm dup;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_Comm comms[3] = {MPI_COMM_WORLD, MPI_COMM_SELF, dup};
    for (int i = 0; i < 3; i++) {
        v_forms(comms[i]);
        reduce_scatters(comms[i]);
        in_place(comms[i]);
        nonblocking(comms[i]);
        persistent(comms[i]);
    }
    bad_input();
    CHECK_OK(MPI_Comm_free(&dup));
    CHECK_OK(MPI_Type_free(&pair));
    int finalized = MPI_Finalize();
    CHECK_EQ_INT(finalized, MPI_SUCCESS);
    return test_finish("collectives_vw");
}
