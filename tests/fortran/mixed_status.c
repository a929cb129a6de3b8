/*
 * C half of mixed_status (the program is mixed_status.f90): reads a status a Fortran receive
 * filled, through MPI_Status_f2c, and fills one for Fortran through MPI_Status_c2f.
 */
#include <string.h>

#include "check.h"

void c_failures_(MPI_Fint *n) { *n = (MPI_Fint)atomic_load(&check_failures); }

/* `fstatus` came from a Fortran MPI_RECV of `*fcount` doubles with tag 33; `out` gets the
 * status of a C receive of 3 ints with tag 44. */
void c_check_status_(MPI_Fint *fstatus, MPI_Fint *fcount, MPI_Fint *out)
{
    MPI_Status status;
    int count = -1;
    CHECK_OK(MPI_Status_f2c(fstatus, &status));
    CHECK_MSG(status.MPI_SOURCE == 0, "MPI_SOURCE %d", status.MPI_SOURCE);
    CHECK_MSG(status.MPI_TAG == 33, "MPI_TAG %d", status.MPI_TAG);
    /* The Fortran program set the status to -7; a single receive leaves MPI_ERROR alone. */
    CHECK_MSG(status.MPI_ERROR == -7, "MPI_ERROR %d", status.MPI_ERROR);
    CHECK_OK(MPI_Get_count(&status, MPI_DOUBLE, &count));
    CHECK_MSG(count == *fcount, "MPI_Get_count in C: %d, Fortran's %d", count,
              (int)*fcount);
    CHECK_OK(MPI_Get_count(&status, MPI_BYTE, &count));
    CHECK_MSG(count == 8 * *fcount, "MPI_Get_count in bytes: %d", count);
    MPI_Fint back[MPI_F_STATUS_SIZE];
    CHECK_OK(MPI_Status_c2f(&status, back));
    CHECK_MSG(memcmp(back, fstatus, sizeof back) == 0, "MPI_Status_c2f(MPI_Status_f2c(s)) != s");

    int ints[3] = {1, 2, 3}, got[3];
    MPI_Status mine;
    CHECK_OK(MPI_Send(ints, 3, MPI_INT, 0, 44, MPI_COMM_WORLD));
    CHECK_OK(MPI_Recv(got, 3, MPI_INT, 0, 44, MPI_COMM_WORLD, &mine));
    CHECK_OK(MPI_Status_c2f(&mine, out));
    REQUIRE_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK_RC(MPI_Status_f2c(NULL, &mine), MPI_ERR_ARG);
}
