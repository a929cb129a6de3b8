/*
 * Attributes on communicators made by MPI_Comm_split and MPI_Comm_create in a job of two
 * processes (docs/layer.md): a new communicator has no attributes; values set on each rank
 * are that rank's own; MPI_Comm_dup copies them with the copy callback on each rank, and
 * MPI_Comm_free deletes them with the delete callback; a value set on MPI_COMM_WORLD by one
 * rank is not seen by the other.
 */
#include "check.h"

static int copies, deletes;

static int add_one(MPI_Comm c, int k, void *e, void *in, void *out, int *flag)
{
    (void)c, (void)k, (void)e;
    copies++;
    *(void **)out = IPTR(PTRI(in) + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Comm c, int k, void *v, void *e)
{
    (void)c, (void)k, (void)v, (void)e;
    deletes++;
    return MPI_SUCCESS;
}

static void expect_value(MPI_Comm comm, int kv, int present, intptr_t value, const char *what)
{
    void *v = NULL;
    int flag = -1;
    CHECK_OK(MPI_Comm_get_attr(comm, kv, &v, &flag));
    CHECK_MSG(flag == present, "%s: flag %d, expected %d", what, flag, present);
    if (present && flag)
        CHECK_MSG(PTRI(v) == value, "%s: value %ld, expected %ld", what, (long)PTRI(v),
                  (long)value);
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    int rank, size;
    REQUIRE_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    REQUIRE_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    REQUIRE(size == 2);
    int kv;
    REQUIRE_OK(MPI_Comm_create_keyval(add_one, count_delete, &kv, NULL));

    /* Each rank alone in its split; rank 0 alone in the created one. */
    MPI_Comm split, created;
    REQUIRE_OK(MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &split));
    MPI_Group world_group, first;
    REQUIRE_OK(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
    int zero = 0;
    REQUIRE_OK(MPI_Group_incl(world_group, 1, &zero, &first));
    REQUIRE_OK(MPI_Comm_create(MPI_COMM_WORLD, first, &created));
    expect_value(split, kv, 0, 0, "new split communicator");

    CHECK_OK(MPI_Comm_set_attr(split, kv, IPTR(100 + rank)));
    expect_value(split, kv, 1, 100 + rank, "split, after set");
    if (rank == 0) {
        REQUIRE(created != MPI_COMM_NULL);
        expect_value(created, kv, 0, 0, "new created communicator");
        CHECK_OK(MPI_Comm_set_attr(created, kv, IPTR(200)));
    } else {
        CHECK_EQ_HANDLE(created, MPI_COMM_NULL);
    }

    MPI_Comm dup;
    CHECK_OK(MPI_Comm_dup(split, &dup));
    CHECK_EQ_INT(copies, 1);
    expect_value(dup, kv, 1, 101 + rank, "duplicate of split");
    expect_value(split, kv, 1, 100 + rank, "split after its dup");
    CHECK_OK(MPI_Comm_free(&dup));
    CHECK_EQ_INT(deletes, 1);
    CHECK_OK(MPI_Comm_free(&split));
    CHECK_EQ_INT(deletes, 2);
    if (rank == 0) {
        expect_value(created, kv, 1, 200, "created");
        CHECK_OK(MPI_Comm_free(&created));
        CHECK_EQ_INT(deletes, 3);
    }

    /* One rank's value on MPI_COMM_WORLD is its own. */
    if (rank == 0)
        CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kv, IPTR(7)));
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    expect_value(MPI_COMM_WORLD, kv, rank == 0, 7, "MPI_COMM_WORLD");
    if (rank == 0)
        CHECK_OK(MPI_Comm_delete_attr(MPI_COMM_WORLD, kv));
    CHECK_EQ_INT(deletes, rank == 0 ? 4 : 2);

    CHECK_OK(MPI_Group_free(&first));
    CHECK_OK(MPI_Group_free(&world_group));
    CHECK_OK(MPI_Comm_free_keyval(&kv));
    /* Not CHECK_OK: Open MPI 4.1.4 aborts an MPI_Error_class after MPI_Finalize. */
    REQUIRE(MPI_Finalize() == MPI_SUCCESS);
    return test_finish("layer_split");
}
