/* Built by ci/abi-dropin with MPICH's standard-ABI wrapper `mpicc_abi` (MPICH's own
 * mpi_abi.h, linked against libmpi_abi.so.1), then run with libmpiattr standing in for
 * libmpi_abi.so.1. It uses the ABI's handles, constants, callbacks and status layout as
 * another implementation's header compiled them, checks what mpiattr answers, and prints
 * `OK abi_check`. Standard API only: on MPICH itself it runs too, and says which library it
 * ran on. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(condition)                                              \
    do {                                                              \
        if (!(condition)) {                                           \
            printf("FAILED line %d: %s\n", __LINE__, #condition);     \
            failures++;                                               \
        }                                                             \
    } while (0)

static int copies, deletes;

static int copy_fn(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm;
    (void)keyval;
    CHECK(extra == (void *)&copies);
    *(void **)out = in;
    *flag = 1;
    copies++;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)value;
    (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0, flag = 0, size = 0, keyval = MPI_KEYVAL_INVALID, type_keyval, class_ = 0;
    int provided = -1, *tag_ub = NULL, value = 7;
    void *got = NULL;
    MPI_Comm dup = MPI_COMM_NULL, idup = MPI_COMM_NULL;
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Status status;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_Win win = MPI_WIN_NULL;
    char buffer[64];

    CHECK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) == MPI_SUCCESS);
    CHECK(provided == MPI_THREAD_MULTIPLE);
    MPI_Get_library_version(version, &length);
    printf("library: %.*s\n", (int)strcspn(version, "\n"), version);
    CHECK(strncmp(version, "mpiattr ", 8) == 0);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 1);

    /* Predefined attribute, read through the ABI's keyval number. */
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag) == MPI_SUCCESS);
    CHECK(flag && tag_ub != NULL && *tag_ub >= 32767);

    /* A user keyval with C callbacks: copied on dup and idup, deleted on free. */
    CHECK(MPI_Comm_create_keyval(copy_fn, delete_fn, &keyval, &copies) == MPI_SUCCESS);
    CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &value) == MPI_SUCCESS);
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS);
    CHECK(MPI_Comm_get_attr(dup, keyval, &got, &flag) == MPI_SUCCESS && flag && got == &value);
    CHECK(MPI_Comm_idup(MPI_COMM_WORLD, &idup, &request) == MPI_SUCCESS);
    CHECK(MPI_Wait(&request, &status) == MPI_SUCCESS && request == MPI_REQUEST_NULL);
    CHECK(status.MPI_ERROR == MPI_SUCCESS);
    CHECK(copies == 2);
    CHECK(MPI_Comm_free(&dup) == MPI_SUCCESS && dup == MPI_COMM_NULL);
    CHECK(MPI_Comm_free(&idup) == MPI_SUCCESS);
    CHECK(deletes == 2);

    /* Errors come back as the ABI's classes. */
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, 123456789, &got, &flag) != MPI_SUCCESS);
    CHECK(MPI_Error_class(MPI_ERR_KEYVAL, &class_) == MPI_SUCCESS && class_ == MPI_ERR_KEYVAL);
    CHECK(MPI_Comm_set_attr(MPI_COMM_NULL, keyval, &value) != MPI_SUCCESS);

    /* Datatypes: a predefined handle, dup with MPI_TYPE_DUP_FN. */
    CHECK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &type_keyval, NULL)
          == MPI_SUCCESS);
    CHECK(MPI_Type_dup(MPI_DOUBLE, &type) == MPI_SUCCESS);
    CHECK(MPI_Type_size(type, &size) == MPI_SUCCESS && size == (int)sizeof(double));
    CHECK(MPI_Type_set_attr(type, type_keyval, &value) == MPI_SUCCESS);
    CHECK(MPI_Type_get_attr(type, type_keyval, &got, &flag) == MPI_SUCCESS && flag && got == &value);
    CHECK(MPI_Type_free(&type) == MPI_SUCCESS && type == MPI_DATATYPE_NULL);
    CHECK(MPI_Type_free_keyval(&type_keyval) == MPI_SUCCESS);

    /* Windows: MPI_WIN_BASE and MPI_WIN_SIZE. */
    CHECK(MPI_Win_create(buffer, sizeof buffer, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win)
          == MPI_SUCCESS);
    CHECK(MPI_Win_get_attr(win, MPI_WIN_BASE, &got, &flag) == MPI_SUCCESS && flag && got == buffer);
    CHECK(MPI_Win_get_attr(win, MPI_WIN_SIZE, &got, &flag) == MPI_SUCCESS && flag
          && *(MPI_Aint *)got == (MPI_Aint)sizeof buffer);
    CHECK(MPI_Win_free(&win) == MPI_SUCCESS && win == MPI_WIN_NULL);

    CHECK(MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval) == MPI_SUCCESS && deletes == 3);
    CHECK(MPI_Comm_free_keyval(&keyval) == MPI_SUCCESS && keyval == MPI_KEYVAL_INVALID);
    CHECK(MPI_Finalize() == MPI_SUCCESS);
    if (failures != 0)
        return 1;
    printf("OK abi_check\n");
    return 0;
}
