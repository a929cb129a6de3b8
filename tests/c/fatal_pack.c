// expect-exit: 15
// expect-stderr: mpiattr: MPI_Pack(inbuf=0x
// expect-stderr: incount=3, datatype=MPI_INT, outbuf=0x
// expect-stderr: outsize=8, position=0x
// expect-stderr: comm=MPI_COMM_WORLD) failed: MPI_ERR_TRUNCATE
/*
 * MPI_Pack reports on its communicator's handler: with MPI_ERRORS_RETURN on MPI_COMM_SELF
 * only, packing 3 ints into 8 bytes of MPI_COMM_WORLD's default MPI_ERRORS_ARE_FATAL prints
 * one line naming the function and its arguments and exits with MPI_ERR_TRUNCATE (15).
 */
#include "check.h"

int main(int argc, char **argv)
{
    REQUIRE_OK(MPI_Init(&argc, &argv));
    REQUIRE_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    int data[3] = {1, 2, 3}, position = 0;
    char out[8];
    MPI_Pack(data, 3, MPI_INT, out, (int)sizeof out, &position, MPI_COMM_WORLD);
    printf("FAILED fatal_pack: MPI_Pack returned under MPI_ERRORS_ARE_FATAL\n");
    return 1;
}
