! A fixed-form program with mpif.h, built against an installed mpiattr by
! tests/install.rs (wrapper, pkg-config, CMake) and run with mpiexec -n 1.
! mpif.h declares no interfaces: the KIND check catches a program compiled without the
! INTEGER configuration's flag.
      PROGRAM HELLO
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERROR, KEYVAL, NEWCOM, SIZE, NFAIL
      INTEGER VALUE, GOT
      LOGICAL FLAG
      NFAIL = 0
!     Checked before any call: with the wrong kind, calls would write past the variables.
      IF (KIND(SIZE) .NE. MPI_INTEGER_KIND) THEN
         PRINT '(A)', 'FAILED: default INTEGER is not MPI_INTEGER_KIND'
         STOP 1
      END IF
      CALL MPI_INIT(IERROR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, SIZE, IERROR)
      IF (SIZE .NE. 1) NFAIL = NFAIL + 1
      CALL MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN, KEYVAL,
     &     0, IERROR)
      VALUE = -7
      CALL MPI_ATTR_PUT(MPI_COMM_WORLD, KEYVAL, VALUE, IERROR)
      CALL MPI_COMM_DUP(MPI_COMM_WORLD, NEWCOM, IERROR)
      CALL MPI_ATTR_GET(NEWCOM, KEYVAL, GOT, FLAG, IERROR)
      IF (.NOT. FLAG .OR. GOT .NE. -7) THEN
         PRINT '(A)', 'FAILED: the attribute was not copied'
         NFAIL = NFAIL + 1
      END IF
      CALL MPI_COMM_FREE(NEWCOM, IERROR)
      CALL MPI_KEYVAL_FREE(KEYVAL, IERROR)
      CALL MPI_FINALIZE(IERROR)
      IF (NFAIL .NE. 0) STOP 1
      PRINT '(A)', 'OK hello_mpif'
      END
