! expect-exit: 44
! expect-stderr: mpiattr: MPI_ABORT(
! expect-stderr: errorcode=300
!
! MPI_ABORT with a bad communicator through `use mpi_f08` (docs/errors.md): MPI_ABORT cannot
! fail, so a communicator whose MPI_VAL names nothing does not turn it into an error that
! returns: it prints one line and exits with status errorcode & 255 (300 gives 44).
! Reaching the lines after the call is a failure.
program fatal_abort_f
  use mpi_f08
  use checks
  implicit none
  integer :: ierr

  test_name = 'fatal_abort_f'
  call MPI_Init(ierr)
  call check_ok('MPI_Init', ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_Comm_set_errhandler', ierr)
  call MPI_Abort(MPI_Comm(123456789), 300, ierr)
  call fail('MPI_Abort with a bad communicator returned with IERROR = ' // istr(ierr))
  call finish()
end program fatal_abort_f
