! expect-exit: 13
! expect-stderr: MPI_COMM_CREATE_KEYVAL(comm_copy_attr_fn=MPI_COMM_DUP_FN, comm_delete_attr_fn=MPI_COMM_DUP_FN,
! expect-stderr: MPI_ERR_ARG
!
! Fatal errors' messages name the predefined callbacks, as C's do (docs/semantics.md,
! "Fortran"): MPI_COMM_DUP_FN given as the delete callback fails with MPI_ERR_ARG (13), and
! the one-line message shows both arguments as MPI_COMM_DUP_FN, not as addresses.
program fatal_callback_name_f
  use mpi
  use checks
  implicit none
  integer :: ierr, kv
  integer(kind=MPI_ADDRESS_KIND) :: extra

  test_name = 'fatal_callback_name_f'
  call MPI_INIT(ierr)
  call check_ok('MPI_INIT', ierr)
  extra = 0
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_DUP_FN, kv, extra, ierr)
  call fail('MPI_COMM_CREATE_KEYVAL with MPI_COMM_DUP_FN as delete under MPI_ERRORS_ARE_FATAL: ' // &
            'expected the process to exit with status 13, but the call returned with IERROR = ' // istr(ierr))
  call finish()
end program fatal_callback_name_f
