/* A C program built against an installed mpiattr by tests/install.rs with each method
 * (the mpicc wrapper, pkg-config, CMake's FindMPI, the static library) and run with
 * mpiexec -n 1. It checks that it runs on mpiattr and that an attribute follows a dup, then
 * prints `OK hello_c`. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void check(int condition, const char *what)
{
    if (!condition) {
        printf("FAILED: %s\n", what);
        failures++;
    }
}

int main(int argc, char **argv)
{
    static int value = 42;
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0, size = 0, flag = 0, keyval = MPI_KEYVAL_INVALID;
    int *got = NULL;
    MPI_Comm dup = MPI_COMM_NULL;

    check(MPI_Init(&argc, &argv) == MPI_SUCCESS, "MPI_Init");
    MPI_Get_library_version(version, &length);
    check(strncmp(version, "mpiattr ", 8) == 0, "the library is mpiattr");
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check(size == 1, "MPI_COMM_WORLD has one process");
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &value);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_get_attr(dup, keyval, &got, &flag);
    check(flag && got == &value, "the attribute was copied to the duplicate");
    MPI_Comm_free(&dup);
    MPI_Comm_free_keyval(&keyval);
    check(keyval == MPI_KEYVAL_INVALID, "the keyval variable was reset");
    MPI_Finalize();
    printf("%s\n", version);
    if (failures != 0)
        return 1;
    printf("OK hello_c\n");
    return 0;
}
