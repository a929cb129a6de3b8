/*
 * The language-interoperability examples of the MPI standard ("Attributes" in the chapter on
 * language interoperability), run in one process: values are set in C and in Fortran on
 * MPI_COMM_WORLD, and every value is read by C (MPI_Comm_get_attr), by Fortran's
 * MPI_ATTR_GET (a default INTEGER) and by Fortran's MPI_COMM_GET_ATTR (an
 * INTEGER(KIND=MPI_ADDRESS_KIND)). The Fortran half is examples/interop.f90.
 *
 * Build and run (ci/demo does this):
 *   mpicc -c interop.c && mpifort interop.o interop.f90 -o interop && ./interop
 */
#include <mpi.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Fortran routines of interop.f90 (gfortran's names: lower case, one trailing underscore). */
void set_in_fortran_(MPI_Fint *comm, MPI_Fint *put_keyval, MPI_Fint *small_keyval,
                     MPI_Fint *large_keyval);
void read_in_fortran_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *attr_get, MPI_Fint *attr_flag,
                      MPI_Aint *comm_get, MPI_Fint *comm_flag);

struct solver {
    const char *name;
    int iterations;
};

static int five = 5;
static struct solver solver = {"CG solver", 12};

enum kind { C_POINTER, C_STRUCT, C_INTEGER, FORTRAN_INTEGER, FORTRAN_ADDRESS };

struct row {
    const char *set_by;
    enum kind kind;
    int keyval;
};

/* What C reads: the pointer itself, and what a Fortran-tagged value's pointer points at. */
static void describe_c(const struct row *row, void *value, char *text, size_t size)
{
    switch (row->kind) {
    case C_POINTER:
        snprintf(text, size, "%p -> %d", value, *(int *)value);
        break;
    case C_STRUCT:
        snprintf(text, size, "%p -> \"%s\"", value, ((struct solver *)value)->name);
        break;
    case C_INTEGER:
        snprintf(text, size, "%p", value);
        break;
    case FORTRAN_INTEGER:
        snprintf(text, size, "(MPI_Fint *) -> %" PRId64, (int64_t)*(MPI_Fint *)value);
        break;
    case FORTRAN_ADDRESS:
        snprintf(text, size, "(MPI_Aint *) -> %" PRId64, (int64_t)*(MPI_Aint *)value);
        break;
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    struct row rows[] = {
        {"C: &five, an int holding 5", C_POINTER, 0},
        {"C: &solver, a struct", C_STRUCT, 0},
        {"C: (void *)(intptr_t)42", C_INTEGER, 0},
        {"Fortran MPI_ATTR_PUT: -7", FORTRAN_INTEGER, 0},
        {"Fortran MPI_COMM_SET_ATTR: 42", FORTRAN_ADDRESS, 0},
        {"Fortran MPI_COMM_SET_ATTR: 2**40", FORTRAN_ADDRESS, 0},
    };
    const int nrows = (int)(sizeof rows / sizeof rows[0]);
    for (int i = 0; i < nrows; i++)
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &rows[i].keyval,
                               NULL);

    MPI_Comm_set_attr(MPI_COMM_WORLD, rows[0].keyval, &five);
    MPI_Comm_set_attr(MPI_COMM_WORLD, rows[1].keyval, &solver);
    MPI_Comm_set_attr(MPI_COMM_WORLD, rows[2].keyval, (void *)(intptr_t)42);
    MPI_Fint world = MPI_Comm_c2f(MPI_COMM_WORLD);
    MPI_Fint put = rows[3].keyval, small = rows[4].keyval, large = rows[5].keyval;
    set_in_fortran_(&world, &put, &small, &large);

    printf("Fortran default INTEGER: %d bytes; addresses: %d bytes\n\n", (int)sizeof(MPI_Fint),
           (int)sizeof(MPI_Aint));
    printf("%-34s | %-32s | %-15s | %s\n", "value set by", "C MPI_Comm_get_attr",
           "MPI_ATTR_GET", "MPI_COMM_GET_ATTR");
    printf("%.34s-+-%.32s-+-%.15s-+-%.20s\n", "----------------------------------------",
           "----------------------------------------", "----------------", "--------------------");
    for (int i = 0; i < nrows; i++) {
        void *value = NULL;
        int flag = 0;
        MPI_Comm_get_attr(MPI_COMM_WORLD, rows[i].keyval, &value, &flag);
        char c_text[64] = "(no value)";
        if (flag)
            describe_c(&rows[i], value, c_text, sizeof c_text);
        MPI_Fint keyval = rows[i].keyval, attr_get = 0, attr_flag = 0, comm_flag = 0;
        MPI_Aint comm_get = 0;
        read_in_fortran_(&world, &keyval, &attr_get, &attr_flag, &comm_get, &comm_flag);
        printf("%-34s | %-32s | %15" PRId64 " | %" PRId64 "\n", rows[i].set_by, c_text,
               (int64_t)attr_get, (int64_t)comm_get);
    }
    printf("\nC reads a C value as the pointer stored; a Fortran value as a pointer to the\n"
           "library's copy of it. MPI_ATTR_GET reads the low-order INTEGER-width bits of\n"
           "any value, MPI_COMM_GET_ATTR the whole word.\n");
    for (int i = 0; i < nrows; i++)
        MPI_Comm_free_keyval(&rows[i].keyval);
    MPI_Finalize();
    return 0;
}
