! expect-exit: 5
! expect-stderr: MPI_COMM_GET_ATTR(
! expect-stderr: MPI_ERR_COMM: invalid communicator handle (freed)
!
! A message about a bad handle says why, in Fortran as in C (docs/errors.md, "Messages"):
! MPI_COMM_GET_ATTR on the integer of a freed communicator, under MPI_ERRORS_ARE_FATAL, prints
! one line ending in "invalid communicator handle (freed)" and exits with MPI_ERR_COMM (5).
program fatal_freed_comm_f
  use mpi
  use checks
  implicit none
  integer :: ierr, comm, freed
  integer(kind=MPI_ADDRESS_KIND) :: aval
  logical :: flag

  test_name = 'fatal_freed_comm_f'
  call MPI_INIT(ierr)
  call check_ok('MPI_INIT', ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, comm, ierr)
  call check_ok('MPI_COMM_DUP', ierr)
  freed = comm
  call MPI_COMM_FREE(comm, ierr)
  call check_ok('MPI_COMM_FREE', ierr)
  call MPI_COMM_GET_ATTR(freed, MPI_TAG_UB, aval, flag, ierr)
  call fail('MPI_COMM_GET_ATTR on a freed communicator under MPI_ERRORS_ARE_FATAL: expected the ' // &
            'process to exit with status 5, but the call returned with IERROR = ' // istr(ierr))
  call finish()
end program fatal_freed_comm_f
