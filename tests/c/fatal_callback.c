// expect-exit: 38
// expect-stderr: mpiattr: MPI_Comm_dup(
// expect-stderr: MPI_ERR_NAME
/*
 * A copy callback's error under the default MPI_ERRORS_ARE_FATAL (attributes.md §5): the dup fails
 * with the callback's code (MPI_ERR_NAME, 38), which the fatal handler prints on one line
 * and uses as the exit status.
 */
#include "check.h"

static int failing_copy(MPI_Comm c, int kv, void *e, void *in, void *out, int *flag)
{
    (void)c, (void)kv, (void)e, (void)in, (void)out;
    *flag = 0;
    return MPI_ERR_NAME;
}

int main(int argc, char **argv)
{
    REQUIRE_OK(MPI_Init(&argc, &argv));
    int kv;
    REQUIRE_OK(MPI_Comm_create_keyval(failing_copy, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
    REQUIRE_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kv, NULL));
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    printf("FAILED fatal_callback: MPI_Comm_dup returned under MPI_ERRORS_ARE_FATAL\n");
    return 1;
}
