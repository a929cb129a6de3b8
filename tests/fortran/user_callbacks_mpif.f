! User reduction operations and user error handlers written in fixed-form Fortran through
! mpif.h (EXTERNAL procedures, INTEGER handles), with a C companion that uses them:
! - MPI_OP_CREATE: MPI_REDUCE_LOCAL calls the procedure with LEN and MPI_INTEGER, input
!   first; the C companion applies the same op (MPI_Op_f2c) with MPI_Reduce_local, which
!   calls the Fortran procedure with the Fortran integer of its datatype;
! - MPI_COMM_CREATE_ERRHANDLER: MPI_COMM_CALL_ERRHANDLER and an error raised on the
!   communicator call the procedure with the communicator's INTEGER handle and the code;
!   the handler's handle crosses to C (MPI_Errhandler_f2c) and back (MPI_Errhandler_c2f)
!   unchanged, and C sets it on MPI_COMM_SELF, where a C error runs the Fortran procedure.
      PROGRAM USER_CALLBACKS_MPIF
      USE CHECKS
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      EXTERNAL SHIFTADD, ONCOMM
      INTEGER IERR, OP, EH, DUP, INV(2), INOUT(2), BACK, CFAILS
      INTEGER NCALLS, NLEN, NTYPE, ECALLS, ECOMM, ECODE
      COMMON /STATE/ NCALLS, NLEN, NTYPE, ECALLS, ECOMM, ECODE
      NCALLS = 0
      ECALLS = 0
      TEST_NAME = 'user_callbacks_mpif'
      MAX_ERROR_STRING = MPI_MAX_ERROR_STRING
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN,
     &     IERR)
      CALL MPI_OP_CREATE(SHIFTADD, .FALSE., OP, IERR)
      CALL CHECK_OK('MPI_OP_CREATE', IERR)
      INV(1) = 1
      INV(2) = 2
      INOUT(1) = 3
      INOUT(2) = 4
      CALL MPI_REDUCE_LOCAL(INV, INOUT, 2, MPI_INTEGER, OP, IERR)
      CALL CHECK_OK('MPI_REDUCE_LOCAL', IERR)
      CALL CHECK_INT('calls', NCALLS, 1)
      CALL CHECK_INT('LEN', NLEN, 2)
      CALL CHECK_INT('DATATYPE', NTYPE, MPI_INTEGER)
      CALL CHECK_INT('INOUT(1)', INOUT(1), 31)
      CALL CHECK_INT('INOUT(2)', INOUT(2), 42)

      CALL MPI_COMM_CREATE_ERRHANDLER(ONCOMM, EH, IERR)
      CALL CHECK_OK('MPI_COMM_CREATE_ERRHANDLER', IERR)
      CALL MPI_COMM_DUP(MPI_COMM_WORLD, DUP, IERR)
      CALL MPI_COMM_SET_ERRHANDLER(DUP, EH, IERR)
      CALL CHECK_OK('MPI_COMM_SET_ERRHANDLER', IERR)
      CALL MPI_COMM_CALL_ERRHANDLER(DUP, MPI_ERR_OTHER, IERR)
      CALL CHECK_OK('MPI_COMM_CALL_ERRHANDLER', IERR)
      CALL CHECK_INT('handler calls', ECALLS, 1)
      CALL CHECK_INT('handler COMM', ECOMM, DUP)
      CALL CHECK_INT('handler code', ECODE, MPI_ERR_OTHER)
      CALL MPI_SEND(INV, 1, MPI_INTEGER, 7, 0, DUP, IERR)
      CALL CHECK_CLASS('MPI_SEND to rank 7', IERR, MPI_ERR_RANK,
     &     'MPI_ERR_RANK')
      CALL CHECK_INT('handler calls', ECALLS, 2)
      CALL CHECK_INT('handler code', ECODE, IERR)

      CFAILS = 0
      BACK = -1
      CALL C_USE_FORTRAN_CALLBACKS(OP, EH, BACK, CFAILS)
      CALL CHECK_INT('MPI_Errhandler_c2f(f2c(EH))', BACK, EH)
      CALL CHECK_INT('C calls of the user op', NCALLS, 2)
      CALL CHECK_INT('C calls ran the Fortran handler', ECALLS, 4)
      CALL CHECK_INT('on MPI_COMM_SELF', ECOMM, MPI_COMM_SELF)

      CALL MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN,
     &     IERR)
      CALL MPI_ERRHANDLER_FREE(EH, IERR)
      CALL CHECK_OK('MPI_ERRHANDLER_FREE', IERR)
      CALL CHECK_INT('EH is null', EH, MPI_ERRHANDLER_NULL)
      CALL MPI_OP_FREE(OP, IERR)
      CALL CHECK_OK('MPI_OP_FREE', IERR)
      CALL MPI_COMM_FREE(DUP, IERR)
      CALL MPI_FINALIZE(IERR)
      CALL FINISH(CFAILS)
      END

      SUBROUTINE SHIFTADD(INVEC, INOUTVEC, LEN, DATATYPE)
      IMPLICIT NONE
      INTEGER LEN, DATATYPE, I
      INTEGER INVEC(LEN), INOUTVEC(LEN)
      INTEGER NCALLS, NLEN, NTYPE, ECALLS, ECOMM, ECODE
      COMMON /STATE/ NCALLS, NLEN, NTYPE, ECALLS, ECOMM, ECODE
      DO I = 1, LEN
         INOUTVEC(I) = 10 * INOUTVEC(I) + INVEC(I)
      END DO
      NCALLS = NCALLS + 1
      NLEN = LEN
      NTYPE = DATATYPE
      END

      SUBROUTINE ONCOMM(COMM, CODE)
      IMPLICIT NONE
      INTEGER COMM, CODE
      INTEGER NCALLS, NLEN, NTYPE, ECALLS, ECOMM, ECODE
      COMMON /STATE/ NCALLS, NLEN, NTYPE, ECALLS, ECOMM, ECODE
      ECALLS = ECALLS + 1
      ECOMM = COMM
      ECODE = CODE
      END
