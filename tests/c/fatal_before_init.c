// expect-exit: 16
// expect-stderr: mpiattr: MPI_Comm_create_keyval(
// expect-stderr: MPI_ERR_OTHER
/*
 * A call before MPI_Init under the default handler (semantics.md): MPI_Comm_create_keyval
 * fails with MPI_ERR_OTHER raised on MPI_COMM_SELF's handler, MPI_ERRORS_ARE_FATAL: one line
 * on stderr, exit status 16.
 */
#include "check.h"

int main(void)
{
    int kv;
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kv, NULL);
    printf("FAILED fatal_before_init: MPI_Comm_create_keyval returned before MPI_Init\n");
    return 1;
}
