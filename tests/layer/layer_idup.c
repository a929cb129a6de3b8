/*
 * MPI_Comm_idup copies attributes as MPI_Comm_dup does (docs/layer.md): after the request
 * completes, the new communicator has the copies, made with the copy callbacks, and works.
 * So does MPI-4.0's MPI_Comm_idup_with_info where the MPI has it (not Open MPI 4.1).
 */
#include "check.h"

static int copies;

static int counting_copy(MPI_Comm c, int k, void *e, void *in, void *out, int *flag)
{
    (void)c, (void)k, (void)e;
    copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    int kv;
    REQUIRE_OK(MPI_Comm_create_keyval(counting_copy, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kv, IPTR(42)));
    MPI_Comm dup;
    MPI_Request request;
    CHECK_OK(MPI_Comm_idup(MPI_COMM_WORLD, &dup, &request));
    CHECK_OK(MPI_Wait(&request, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(copies, 1);
    void *v = NULL;
    int flag = 0;
    CHECK_OK(MPI_Comm_get_attr(dup, kv, &v, &flag));
    CHECK(flag == 1 && PTRI(v) == 42);
    int sum = 0, one = 1;
    CHECK_OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dup));
    CHECK_EQ_INT(sum, 2);
    CHECK_OK(MPI_Comm_free(&dup));
#if MPI_VERSION >= 4
    CHECK_OK(MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dup, &request));
    CHECK_OK(MPI_Wait(&request, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(copies, 2);
    v = NULL;
    flag = 0;
    CHECK_OK(MPI_Comm_get_attr(dup, kv, &v, &flag));
    CHECK(flag == 1 && PTRI(v) == 42);
    CHECK_OK(MPI_Comm_free(&dup));
#endif
    CHECK_OK(MPI_Comm_delete_attr(MPI_COMM_WORLD, kv));
    CHECK_OK(MPI_Comm_free_keyval(&kv));
    /* Not CHECK_OK: Open MPI 4.1.4 aborts an MPI_Error_class after MPI_Finalize. */
    REQUIRE(MPI_Finalize() == MPI_SUCCESS);
    return test_finish("layer_idup");
}
