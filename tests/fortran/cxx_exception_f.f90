! expect-exit: SIGABRT
! expect-stderr: mpiattr: MPI_COMM_DELETE_ATTR: the delete callback
! expect-stderr: (keyval
! expect-stderr: communicator
! expect-stderr: ended by an exception or another unwind, which MPI callbacks may not do: aborting
!
! A C++ exception thrown through a Fortran callback (docs/semantics.md, "Callbacks that break
! the rules"): the delete callback calls a C++ routine of the program, which throws. MPI
! callbacks must return, so the library stops the exception in its frame that called the
! callback, prints one line naming the call, the callback, its keyval and the communicator's
! Fortran integer, and aborts. (Before: the Rust runtime aborted with "Rust cannot catch
! foreign exceptions", naming nothing.) The main program is C++ (cxx_exception_f.cpp), so that
! gfortran's runtime adds no backtrace of its own to the abort.
subroutine cxx_exception_run()
  use mpi
  use checks
  implicit none
  external throwing_delete
  integer :: ierr, kv
  integer(kind=MPI_ADDRESS_KIND) :: extra, value

  test_name = 'cxx_exception_f'
  extra = 0
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, throwing_delete, kv, extra, ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  value = 5
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, kv, value, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, kv, ierr)
  call fail('MPI_COMM_DELETE_ATTR returned although its delete callback threw, IERROR = ' // istr(ierr))
  call finish()
end subroutine cxx_exception_run

subroutine throwing_delete(comm, keyval, attribute_val, extra_state, ierror)
  use mpi
  implicit none
  integer :: comm, keyval, ierror
  integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
  if (comm == MPI_COMM_NULL .and. keyval == 0 .and. attribute_val == 0 .and. extra_state == 0) return
  call cxx_throw()
  ierror = MPI_SUCCESS
end subroutine throwing_delete
