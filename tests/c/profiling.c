/*
 * The profiling interface (attributes.md §1: every function also as PMPI_): a tool defines
 * MPI_Comm_set_attr and MPI_Comm_dup itself and forwards to PMPI_; the program's calls go
 * through the tool, and the PMPI_ entry points do the real work. PMPI_ functions can also
 * be called directly.
 */
#include "check.h"

static int set_calls, dup_calls;

int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void *value)
{
    set_calls++;
    return PMPI_Comm_set_attr(comm, keyval, value);
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    dup_calls++;
    return PMPI_Comm_dup(comm, newcomm);
}

int main(int argc, char **argv)
{
    int keyval, flag = 0;
    void *value = NULL;
    MPI_Comm copy;

    REQUIRE_OK(PMPI_Init(&argc, &argv));
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, (void *)(MPI_Aint)1234));
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &copy));
    CHECK_EQ_INT(set_calls, 1);
    CHECK_EQ_INT(dup_calls, 1);

    /* The tool forwarded: the value is there, and it was copied by PMPI_Comm_dup. */
    CHECK_OK(PMPI_Comm_get_attr(copy, keyval, &value, &flag));
    CHECK_EQ_INT(flag, 1);
    CHECK_EQ_INT((int)(MPI_Aint)value, 1234);

    /* Direct PMPI_ calls do not go through the tool. */
    CHECK_OK(PMPI_Comm_set_attr(copy, keyval, (void *)(MPI_Aint)5678));
    CHECK_EQ_INT(set_calls, 1);
    CHECK_OK(MPI_Comm_get_attr(copy, keyval, &value, &flag));
    CHECK_EQ_INT((int)(MPI_Aint)value, 5678);

    CHECK_OK(PMPI_Comm_free(&copy));
    CHECK_OK(PMPI_Comm_free_keyval(&keyval));
    REQUIRE_OK(PMPI_Finalize());
    return test_finish("profiling");
}
