// expect-exit: 3
// expect-stderr: mpiattr: MPI_Type_size(
// expect-stderr: MPI_ERR_TYPE
/*
 * Datatype errors go to MPI_COMM_SELF's handler (attributes.md §5): with MPI_ERRORS_RETURN on
 * MPI_COMM_WORLD but the default MPI_ERRORS_ARE_FATAL on MPI_COMM_SELF, MPI_Type_size of
 * MPI_DATATYPE_NULL prints one line and exits with MPI_ERR_TYPE (3).
 */
#include "check.h"

int main(int argc, char **argv)
{
    REQUIRE_OK(MPI_Init(&argc, &argv));
    REQUIRE_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int size = 0;
    MPI_Type_size(MPI_DATATYPE_NULL, &size);
    printf("FAILED fatal_type: MPI_Type_size returned under MPI_ERRORS_ARE_FATAL\n");
    return 1;
}
