/* The C side of user_callbacks_mpif.f: a user op and an error handler made in Fortran, used
   from C through their converted handles. */
#include "check.h"

void c_use_fortran_callbacks_(MPI_Fint *f_op, MPI_Fint *f_eh, MPI_Fint *back, MPI_Fint *failures);

void c_use_fortran_callbacks_(MPI_Fint *f_op, MPI_Fint *f_eh, MPI_Fint *back, MPI_Fint *failures)
{
    MPI_Op op = MPI_Op_f2c(*f_op);
    MPI_Errhandler eh = MPI_Errhandler_f2c(*f_eh);
    MPI_Fint in[2] = {5, 6}, inout[2] = {7, 8};
    int err, class;

    CHECK(op != MPI_OP_NULL);
    CHECK(eh != MPI_ERRHANDLER_NULL);
    CHECK_OK(MPI_Reduce_local(in, inout, 2, MPI_INTEGER, op));
    CHECK_EQ_INT(inout[0], 75);
    CHECK_EQ_INT(inout[1], 86);
    *back = MPI_Errhandler_c2f(eh);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh));
    /* MPI_SUCCESS once the handler ran (MPI-4.1 §9.3.6); a real error returns its code. */
    CHECK_OK(MPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_ARG));
    err = MPI_Send(in, 1, MPI_INT, 9, 0, MPI_COMM_SELF);
    MPI_Error_class(err, &class);
    CHECK_EQ_INT(class, MPI_ERR_RANK);
    *failures = (MPI_Fint)atomic_load(&check_failures);
}
