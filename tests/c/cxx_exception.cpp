// expect-exit: SIGABRT
// expect-stderr: mpiattr: MPI_Comm_delete_attr: the delete callback
// expect-stderr: ended by an exception or another unwind, which MPI callbacks may not do: aborting
/*
 * A C++ exception thrown by a callback (docs/semantics.md, "Callbacks that break the rules"):
 * MPI callbacks must return, so the library does not let the exception pass through its
 * frames to the program's catch block, half-way through its own work. It prints one line
 * naming the callback and its keyval and object, and aborts. (Without this, the Rust runtime
 * aborted with "Rust cannot catch foreign exceptions", naming nothing.)
 */
#include <mpi.h>

#include <cstdio>
#include <stdexcept>

static int throwing_delete(MPI_Comm, int, void *, void *)
{
    throw std::runtime_error("thrown by a delete callback");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int keyval = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, throwing_delete, &keyval, nullptr);
    MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, nullptr);
    try {
        MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval);
    } catch (const std::exception &e) {
        std::printf("FAILED cxx_exception: the exception came through: %s\n", e.what());
        return 1;
    }
    std::printf("FAILED cxx_exception: MPI_Comm_delete_attr returned\n");
    return 1;
}
