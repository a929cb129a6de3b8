/*
 * The exact figures of docs/errors.md, "How many objects" and "When a stale number names a
 * new object":
 *
 * - A freed keyval's number names a new keyval only after 1,048,575 create/free cycles
 *   (1025 per reuse of its slot, 1023 generations); never before.
 * - A freed communicator's Fortran integer names a new communicator only after 31,775
 *   dup/free cycles with 4-byte INTEGERs (1025 per reuse, 31 generation codes); with 8-byte
 *   INTEGERs, and for C handles, only after 1025 × 130,023,424 cycles or more: none in
 *   2 × 31,775.
 *   Until then MPI_Comm_f2c of the stale integer gives MPI_COMM_NULL.
 * - At most 2^22 communicators live at once with 4-byte INTEGERs (MPI_COMM_WORLD and
 *   MPI_COMM_SELF count): the next MPI_Comm_dup fails with MPI_ERR_OTHER and makes nothing.
 *   Every communicator made has a Fortran integer of its own. With 8-byte INTEGERs the program
 *   goes one past 2^22 and that communicator has its integer too.
 *
 * Under valgrind (MPIATTR_CHECK_MEMORY set) 4 million communicators take minutes: there the
 * last part makes 3000 only. The figures are mpiattr's: with another mpi.h, SKIP.
 */
#include "check.h"

#if defined(MPIATTR_MPI_H)

#define LIMIT_4 4194304 /* 2^22 */

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    const int four_byte = sizeof(MPI_Fint) == 4;
    const int under_valgrind = getenv("MPIATTR_CHECK_MEMORY") != NULL;

    /* Keyvals: the first repeat of a freed number. */
    int kv;
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
    const int stale_keyval = kv;
    REQUIRE_OK(MPI_Comm_free_keyval(&kv));
    long repeat = 0;
    for (long cycle = 1; cycle <= 1048575 + 2050 && repeat == 0; cycle++) {
        REQUIRE_OK(
            MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
        if (kv == stale_keyval)
            repeat = cycle;
        REQUIRE_OK(MPI_Comm_free_keyval(&kv));
    }
    CHECK_MSG(repeat == 1048575, "a freed keyval's number came back after %ld cycles, not 1048575",
              repeat);

    /* Communicators: the first repeat of a freed Fortran integer, and of a C handle. */
    MPI_Comm comm;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    const MPI_Comm stale_comm = comm;
    const MPI_Fint stale_integer = MPI_Comm_c2f(comm);
    REQUIRE_OK(MPI_Comm_free(&comm));
    const long expected = four_byte ? 31775 : 0;
    long integer_repeat = 0, handle_repeat = 0, f2c_named = 0;
    for (long cycle = 1; cycle <= 2 * 31775; cycle++) {
        if (MPI_Comm_f2c(stale_integer) != MPI_COMM_NULL && f2c_named == 0)
            f2c_named = cycle;
        REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
        if (MPI_Comm_c2f(comm) == stale_integer && integer_repeat == 0)
            integer_repeat = cycle;
        if (comm == stale_comm && handle_repeat == 0)
            handle_repeat = cycle;
        REQUIRE_OK(MPI_Comm_free(&comm));
    }
    CHECK_MSG(integer_repeat == expected,
              "a freed communicator's Fortran integer came back after %ld cycles, not %ld",
              integer_repeat, expected);
    CHECK_MSG(handle_repeat == 0, "a freed communicator's C handle came back after %ld cycles",
              handle_repeat);
    CHECK_MSG(f2c_named == 0, "MPI_Comm_f2c of the stale integer named a communicator at cycle %ld",
              f2c_named);

    /* How many communicators can live at once. */
    const long planned = under_valgrind ? 3000 : four_byte ? LIMIT_4 - 2 : LIMIT_4 - 1;
    MPI_Comm *comms = malloc(sizeof(MPI_Comm) * (size_t)planned);
    REQUIRE(comms != NULL);
    long made = 0;
    for (; made < planned; made++) {
        int rc = MPI_Comm_dup(MPI_COMM_WORLD, &comms[made]);
        if (rc != MPI_SUCCESS) {
            CHECK_OK(rc);
            break;
        }
    }
    CHECK_MSG(made == planned, "%ld communicators made, not %ld", made, planned);
    long without_integer = 0;
    for (long i = 0; i < made; i++) {
        const MPI_Fint f = MPI_Comm_c2f(comms[i]);
        if (f == MPI_Comm_c2f(MPI_COMM_NULL) || MPI_Comm_f2c(f) != comms[i])
            without_integer++;
    }
    CHECK_MSG(without_integer == 0, "%ld communicators have no Fortran integer of their own",
              without_integer);
    if (four_byte && !under_valgrind) {
        struct outs o;
        CHECK_FAILS_NEW("with 2^22 communicators live", o, MPI_Comm_dup(MPI_COMM_WORLD, &o.comm),
                        MPI_ERR_OTHER);
        REQUIRE_OK(MPI_Comm_free(&comms[made / 2]));
        CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comms[made / 2]));
        CHECK_FAILS_NEW("full again", o, MPI_Comm_dup(MPI_COMM_WORLD, &o.comm), MPI_ERR_OTHER);
    }
    for (long i = 0; i < made; i++)
        REQUIRE_OK(MPI_Comm_free(&comms[i]));
    free(comms);

    REQUIRE_OK(MPI_Finalize());
    return test_finish("handle_numbers");
}

#else

int main(void)
{
    printf("SKIP handle_numbers: checks mpiattr's handle numbering, and this is not mpiattr's "
           "mpi.h\n");
    return 0;
}

#endif
