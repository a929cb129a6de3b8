// expect-exit: 36
// expect-stderr: mpiattr: MPI_Win_set_attr(
// expect-stderr: MPI_ERR_KEYVAL
/*
 * Window errors go to the window's own handler (attributes.md §5): with MPI_ERRORS_RETURN on both
 * predefined communicators but MPI_ERRORS_ARE_FATAL set on the window, setting the
 * predefined MPI_WIN_BASE attribute prints one line and exits with MPI_ERR_KEYVAL (36).
 */
#include "check.h"

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    MPI_Win w;
    void *base;
    REQUIRE_OK(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w));
    REQUIRE_OK(MPI_Win_set_errhandler(w, MPI_ERRORS_ARE_FATAL));
    MPI_Win_set_attr(w, MPI_WIN_BASE, NULL);
    printf("FAILED fatal_win: MPI_Win_set_attr returned under MPI_ERRORS_ARE_FATAL\n");
    return 1;
}
