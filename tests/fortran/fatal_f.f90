! expect-exit: 36
! expect-stderr: MPI_COMM_GET_ATTR(
! expect-stderr: MPI_ERR_KEYVAL
!
! The default error handler through `use mpi` (attributes.md §5): with no handler change,
! MPI_COMM_GET_ATTR on MPI_COMM_WORLD with an invalid keyval (MPI_KEYVAL_INVALID) is fatal:
! one line on stderr naming the Fortran routine and the class, exit status MPI_ERR_KEYVAL (36).
! Reaching the lines after the call is a failure.
program fatal_f
  use mpi
  use checks
  implicit none
  integer :: ierr, kv
  integer(kind=MPI_ADDRESS_KIND) :: aval
  logical :: flag

  test_name = 'fatal_f'
  call MPI_INIT(ierr)
  call check_ok('MPI_INIT', ierr)
  kv = MPI_KEYVAL_INVALID
  aval = 0
  flag = .false.
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, kv, aval, flag, ierr)
  call fail('MPI_COMM_GET_ATTR with an invalid keyval under MPI_ERRORS_ARE_FATAL: expected the process to exit ' // &
            'with status 36, but the call returned with IERROR = ' // istr(ierr))
  call finish()
end program fatal_f
