// A C++ program built against an installed mpiattr by tests/install.rs with each method (the
// mpicxx wrapper, CMake's FindMPI, Meson, autotools, pkg-config) and run with mpiexec -n 1.
// mpi.h is the C header: it declares the functions extern "C" for C++. The program checks
// that it runs on mpiattr and that an attribute follows a dup, then prints `OK hello_cpp`.
// It is C++98, so that every standard from C++98 on compiles it.
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

int failures = 0;

void check(bool condition, const std::string &what)
{
    if (!condition) {
        std::printf("FAILED: %s\n", what.c_str());
        ++failures;
    }
}

// A copy callback of C++ linkage: MPI takes any function of the right type.
int copy_doubled(MPI_Comm, int, void *, void *value_in, void *value_out, int *flag)
{
    // value_out points at the new attribute's value, a void *.
    long doubled = 2 * reinterpret_cast<long>(value_in);
    *static_cast<void **>(value_out) = reinterpret_cast<void *>(doubled);
    *flag = 1;
    return MPI_SUCCESS;
}

} // namespace

int main(int argc, char **argv)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0, size = 0, flag = 0, keyval = MPI_KEYVAL_INVALID;
    long got = 0;
    MPI_Comm dup = MPI_COMM_NULL;

    check(MPI_Init(&argc, &argv) == MPI_SUCCESS, "MPI_Init");
    MPI_Get_library_version(version, &length);
    check(std::strncmp(version, "mpiattr ", 8) == 0, "the library is mpiattr");
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check(size == 1, "MPI_COMM_WORLD has one process");
    MPI_Comm_create_keyval(copy_doubled, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, reinterpret_cast<void *>(21L));
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    void *value = NULL;
    MPI_Comm_get_attr(dup, keyval, &value, &flag);
    got = reinterpret_cast<long>(value);
    check(flag != 0 && got == 42, "the C++ copy callback doubled the attribute in the duplicate");
    MPI_Comm_free(&dup);
    MPI_Comm_free_keyval(&keyval);
    check(keyval == MPI_KEYVAL_INVALID, "the keyval variable was reset");
    MPI_Finalize();
    std::printf("%s\n", version);
    if (failures != 0)
        return 1;
    std::printf("OK hello_cpp\n");
    return 0;
}
