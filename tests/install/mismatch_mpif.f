! A fixed-form program with mpif.h written as old codes are: it passes a REAL array and then
! an INTEGER one to the same choice-buffer routines (MPI_GET_ADDRESS, MPI_WIN_CREATE).
! mpif.h declares no interfaces, so gfortran 10 and later reject the second call of each
! unless -fallow-argument-mismatch is given, which mpiattr's Fortran wrappers add for them.
! tests/install.rs builds it with mpif77, mpif90, mpifort and pkg-config's mpi-fort, and
! checks that gfortran without the flag rejects it. It checks the addresses the library
! got, then prints `OK mismatch_mpif`.
      PROGRAM MISMATCH
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      REAL R(4)
      INTEGER I(4), IERROR, WIN, NFAIL, RBYTES, IBYTES
      INTEGER(KIND=MPI_ADDRESS_KIND) AR1, AR2, AI1, AI3, BASE, WSIZE
      LOGICAL FLAG
      NFAIL = 0
      RBYTES = STORAGE_SIZE(R(1)) / 8
      IBYTES = STORAGE_SIZE(I(1)) / 8
      CALL MPI_INIT(IERROR)
!     Elements of a REAL array, then of an INTEGER one.
      CALL MPI_GET_ADDRESS(R(1), AR1, IERROR)
      CALL MPI_GET_ADDRESS(R(2), AR2, IERROR)
      CALL MPI_GET_ADDRESS(I(1), AI1, IERROR)
      CALL MPI_GET_ADDRESS(I(3), AI3, IERROR)
      IF (AR2 - AR1 .NE. RBYTES .OR. AI3 - AI1 .NE. 2 * IBYTES) THEN
         PRINT '(A)', 'FAILED: MPI_GET_ADDRESS of array elements'
         NFAIL = NFAIL + 1
      END IF
!     A window over the REAL array, then one over the INTEGER array.
      WSIZE = 4 * RBYTES
      CALL MPI_WIN_CREATE(R, WSIZE, RBYTES, MPI_INFO_NULL,
     &     MPI_COMM_SELF, WIN, IERROR)
      CALL MPI_WIN_GET_ATTR(WIN, MPI_WIN_BASE, BASE, FLAG, IERROR)
      IF (IERROR .NE. MPI_SUCCESS .OR. .NOT. FLAG .OR. BASE .NE. AR1)
     &     THEN
         PRINT '(A)', 'FAILED: the REAL window''s base'
         NFAIL = NFAIL + 1
      END IF
      CALL MPI_WIN_FREE(WIN, IERROR)
      WSIZE = 4 * IBYTES
      CALL MPI_WIN_CREATE(I, WSIZE, IBYTES, MPI_INFO_NULL,
     &     MPI_COMM_SELF, WIN, IERROR)
      CALL MPI_WIN_GET_ATTR(WIN, MPI_WIN_BASE, BASE, FLAG, IERROR)
      IF (IERROR .NE. MPI_SUCCESS .OR. .NOT. FLAG .OR. BASE .NE. AI1)
     &     THEN
         PRINT '(A)', 'FAILED: the INTEGER window''s base'
         NFAIL = NFAIL + 1
      END IF
      CALL MPI_WIN_FREE(WIN, IERROR)
      CALL MPI_FINALIZE(IERROR)
      IF (NFAIL .NE. 0) STOP 1
      PRINT '(A)', 'OK mismatch_mpif'
      END
