/*
 * The sessions model without MPI_Init, and the functions MPI-4.1 §12.4.1 and its table allows
 * at any time, with MPI_ERRORS_RETURN (docs/semantics.md "Initialisation and threads"):
 * - before MPI_Init: an info object is made and filled; a session is started, its process
 *   sets give a group, the group a communicator on which messages, a reduction and
 *   attributes (a delete callback included) work; MPI_COMM_WORLD and MPI_COMM_SELF are
 *   refused (MPI_ERR_OTHER) and MPI_Initialized says 0 all the while;
 * - MPI_Init with the session alive: the info object made before it is the same handle with
 *   the same pairs, the world model works, and so does the session's communicator;
 * - MPI_Finalize finalizes the world model only: the session's communicator still works after
 *   it, MPI_COMM_WORLD is refused again; then the session ends;
 * - after MPI_Finalize: the info object is still usable, a new session from "mpi://SELF"
 *   gives a working communicator, MPI_Init fails (MPI_ERR_OTHER), and once the last session
 *   ends, calls that need the library open fail with MPI_ERR_OTHER.
 */
#include "check.h"

static int deletes;
static int count_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    CHECK_EQ_PTR(value, IPTR(42));
    deletes++;
    return MPI_SUCCESS;
}

/* Messages, a reduction and attributes on a communicator of one process. */
static void use_comm(MPI_Comm comm, const char *when)
{
    int rank = -1, size = -1;
    CHECK_OK(MPI_Comm_rank(comm, &rank));
    CHECK_OK(MPI_Comm_size(comm, &size));
    CHECK_MSG(rank == 0 && size == 1, "%s: rank %d of %d", when, rank, size);
    int out[3] = {1, 2, 3}, in[3] = {0, 0, 0};
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Status st;
    CHECK_OK(MPI_Isend(out, 3, MPI_INT, 0, 7, comm, &req));
    CHECK_OK(MPI_Recv(in, 3, MPI_INT, 0, 7, comm, &st));
    CHECK_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK_MSG(in[0] == 1 && in[1] == 2 && in[2] == 3, "%s: received %d %d %d", when, in[0],
              in[1], in[2]);
    CHECK_EQ_INT(st.MPI_SOURCE, 0);
    CHECK_EQ_INT(st.MPI_TAG, 7);
    int sum = -1, one = 5;
    CHECK_OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm));
    CHECK_EQ_INT(sum, 5);

    int keyval = MPI_KEYVAL_INVALID, flag = -1;
    void *value = NULL;
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &keyval, NULL));
    CHECK_OK(MPI_Comm_set_attr(comm, keyval, IPTR(42)));
    CHECK_OK(MPI_Comm_get_attr(comm, keyval, &value, &flag));
    CHECK_MSG(flag == 1 && value == IPTR(42), "%s: attribute flag %d", when, flag);
    int before = deletes;
    CHECK_OK(MPI_Comm_delete_attr(comm, keyval));
    CHECK_EQ_INT(deletes, before + 1);
    CHECK_OK(MPI_Comm_set_attr(comm, keyval, IPTR(42)));
    CHECK_OK(MPI_Comm_free_keyval(&keyval));
    CHECK_EQ_INT(keyval, MPI_KEYVAL_INVALID);
}

/* A communicator of a session's process set. */
static MPI_Comm comm_of(MPI_Session session, const char *pset, const char *tag)
{
    MPI_Group group = MPI_GROUP_NULL;
    CHECK_OK(MPI_Group_from_session_pset(session, pset, &group));
    int gsize = -1;
    CHECK_OK(MPI_Group_size(group, &gsize));
    CHECK_EQ_INT(gsize, 1);
    MPI_Comm comm = MPI_COMM_NULL;
    CHECK_OK(MPI_Comm_create_from_group(group, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm));
    CHECK_NE_HANDLE(comm, MPI_COMM_NULL);
    CHECK_OK(MPI_Group_free(&group));
    return comm;
}

static void world_refused(const char *when)
{
    struct outs o;
    CHECK_FAILS(when, o, MPI_Comm_rank(MPI_COMM_WORLD, &o.i), MPI_ERR_OTHER);
    CHECK_FAILS(when, o, MPI_Comm_size(MPI_COMM_SELF, &o.i), MPI_ERR_OTHER);
    CHECK_FAILS(when, o, MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &o.ptr, &o.i),
                MPI_ERR_OTHER);
    CHECK_FAILS_NEW(when, o, MPI_Comm_dup(MPI_COMM_SELF, &o.comm), MPI_ERR_OTHER);
    int data = 1;
    CHECK_FAILS(when, o, MPI_Send(&data, 1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_OTHER);
}

static void check_info(MPI_Info info, const char *key, const char *want, const char *when)
{
    char val[32];
    int len = (int)sizeof val, flag = -1;
    CHECK_OK(MPI_Info_get_string(info, key, &len, val, &flag));
    CHECK_MSG(flag == 1 && strcmp(val, want) == 0, "%s: %s is not %s", when, key, want);
}

int main(int argc, char **argv)
{
    /* the initial error handler (errors on no object) and MPI_COMM_WORLD's */
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int flag = -1, before;

    /* before MPI_Init */
    MPI_Info info = MPI_INFO_NULL;
    CHECK_OK(MPI_Info_create(&info));
    CHECK_OK(MPI_Info_set(info, "made", "before MPI_Init"));
    MPI_Info saved = info;

    MPI_Session session = MPI_SESSION_NULL;
    CHECK_OK(MPI_Session_init(info, MPI_ERRORS_RETURN, &session));
    MPI_Comm comm = comm_of(session, "mpi://WORLD", "org.mpiattr.sessions_only");
    use_comm(comm, "a session before MPI_Init");
    world_refused("a session before MPI_Init");
    CHECK_OK(MPI_Initialized(&flag));
    CHECK_EQ_INT(flag, 0);

    /* MPI_Init with the session alive */
    REQUIRE_OK(MPI_Init(&argc, &argv));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_EQ_HANDLE(info, saved);
    check_info(info, "made", "before MPI_Init", "after MPI_Init");
    int rank = -1;
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_EQ_INT(rank, 0);
    use_comm(MPI_COMM_WORLD, "MPI_COMM_WORLD");
    use_comm(comm, "a session and the world model");
    CHECK_OK(MPI_Initialized(&flag));
    CHECK_EQ_INT(flag, 1);

    /* MPI_Finalize ends the world model only */
    before = deletes;
    REQUIRE_OK(MPI_Finalize());
    CHECK_EQ_INT(deletes, before + 1);
    CHECK_OK(MPI_Finalized(&flag));
    CHECK_EQ_INT(flag, 1);
    use_comm(comm, "a session after MPI_Finalize");
    world_refused("a session after MPI_Finalize");
    /* each use_comm left an attribute of a freed keyval on the communicator: its three go
       with it, their delete callbacks run */
    before = deletes;
    CHECK_OK(MPI_Comm_free(&comm));
    CHECK_EQ_INT(deletes, before + 3);
    CHECK_OK(MPI_Session_finalize(&session));
    CHECK_EQ_HANDLE(session, MPI_SESSION_NULL);

    /* after MPI_Finalize, no session: the info object lives on */
    check_info(info, "made", "before MPI_Init", "after MPI_Finalize");
    CHECK_OK(MPI_Info_set(info, "made", "again"));
    check_info(info, "made", "again", "after MPI_Finalize");
    {
        struct outs o;
        CHECK_FAILS("after MPI_Finalize", o, MPI_Init(&argc, &argv), MPI_ERR_OTHER);
        CHECK_FAILS("after MPI_Finalize", o, MPI_Type_size(MPI_INT, &o.i), MPI_ERR_OTHER);
    }

    /* a new session after MPI_Finalize, from "mpi://SELF" */
    CHECK_OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
    comm = comm_of(session, "mpi://SELF", "org.mpiattr.after");
    use_comm(comm, "a session started after MPI_Finalize");
    world_refused("a session started after MPI_Finalize");
    MPI_Info got = MPI_INFO_NULL;
    CHECK_OK(MPI_Session_get_info(session, &got));
    CHECK_OK(MPI_Info_free(&got));
    CHECK_OK(MPI_Comm_free(&comm));
    CHECK_OK(MPI_Session_finalize(&session));
    CHECK_OK(MPI_Info_free(&info));
    CHECK_EQ_HANDLE(info, MPI_INFO_NULL);
    {
        struct outs o;
        CHECK_FAILS("after the last session", o, MPI_Comm_rank(MPI_COMM_WORLD, &o.i),
                    MPI_ERR_OTHER);
        CHECK_FAILS("after the last session", o, MPI_Type_size(MPI_INT, &o.i), MPI_ERR_OTHER);
    }
    /* one MPI_Comm_delete_attr per use_comm (5), MPI_COMM_WORLD's attribute at MPI_Finalize,
       the three of the first session's communicator, the one of the second's */
    CHECK_EQ_INT(deletes, 5 + 1 + 3 + 1);
    return test_finish("sessions_only");
}
