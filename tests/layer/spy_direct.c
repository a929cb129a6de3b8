/*
 * Not run under the layer: the harness (tests/layer.rs) runs it with only spy.c preloaded,
 * to show that the spy sees attribute calls that reach the real MPI (its PMPI_ routines,
 * called directly here). It must report calls other than reads of predefined attributes.
 */
#include "check.h"

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    int kv;
    REQUIRE_OK(PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
    CHECK_OK(PMPI_Comm_set_attr(MPI_COMM_WORLD, kv, IPTR(1)));
    CHECK_OK(PMPI_Comm_delete_attr(MPI_COMM_WORLD, kv));
    CHECK_OK(PMPI_Comm_free_keyval(&kv));
    /* Not CHECK_OK: Open MPI 4.1.4 aborts an MPI_Error_class after MPI_Finalize. */
    REQUIRE(MPI_Finalize() == MPI_SUCCESS);
    return test_finish("spy_direct");
}
