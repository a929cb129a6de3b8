/*
 * A duplication whose copy callback fails on one rank only (docs/layer.md): on that rank
 * MPI_Comm_dup returns the callback's code, the new handle is MPI_COMM_NULL and the copies
 * made before the failure are deleted; the other rank has its duplicate. Nothing hangs: both
 * go on to communicate on MPI_COMM_WORLD.
 */
#include "check.h"

static int rank, deletes;

static int fail_on_one(MPI_Comm c, int k, void *e, void *in, void *out, int *flag)
{
    (void)c, (void)k, (void)e;
    if (rank == 1)
        return MPI_ERR_OTHER;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Comm c, int k, void *v, void *e)
{
    (void)c, (void)k, (void)v, (void)e;
    deletes++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    REQUIRE_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    int first, second;
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_delete, &first, NULL));
    REQUIRE_OK(MPI_Comm_create_keyval(fail_on_one, count_delete, &second, NULL));
    MPI_Comm source;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &source));
    CHECK_OK(MPI_Comm_set_attr(source, first, IPTR(1)));
    CHECK_OK(MPI_Comm_set_attr(source, second, IPTR(2)));

    MPI_Comm dup = MPI_COMM_WORLD;
    int rc = MPI_Comm_dup(source, &dup);
    if (rank == 1) {
        int class = -1;
        CHECK_OK(MPI_Error_class(rc, &class));
        CHECK_EQ_INT(class, MPI_ERR_OTHER);
        CHECK_EQ_HANDLE(dup, MPI_COMM_NULL);
        /* The copy of `first`, made before `second` failed, was deleted. */
        CHECK_EQ_INT(deletes, 1);
    } else {
        CHECK_OK(rc);
        void *v = NULL;
        int flag = 0;
        CHECK_OK(MPI_Comm_get_attr(dup, second, &v, &flag));
        CHECK(flag == 1 && PTRI(v) == 2);
        CHECK_OK(MPI_Comm_free(&dup));
        CHECK_EQ_INT(deletes, 2);
    }
    int sum = 0, one = 1;
    CHECK_OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_EQ_INT(sum, 2);
    CHECK_OK(MPI_Comm_free(&source));
    CHECK_OK(MPI_Comm_free_keyval(&first));
    CHECK_OK(MPI_Comm_free_keyval(&second));
    /* Not CHECK_OK: Open MPI 4.1.4 aborts an MPI_Error_class after MPI_Finalize. */
    REQUIRE(MPI_Finalize() == MPI_SUCCESS);
    return test_finish("layer_dup_fail");
}
