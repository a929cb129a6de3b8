! A Fortran program with `use mpi`, built against an installed mpiattr by tests/install.rs
! (wrapper, pkg-config, CMake) and run with mpiexec -n 1. Its explicit interfaces make the
! compiler reject a program whose INTEGER kind differs from the library's configuration.
program hello_mpi
  use mpi
  implicit none
  integer :: ierror, dup, keyval, size, failures
  integer(kind=MPI_ADDRESS_KIND) :: value, got
  logical :: flag

  failures = 0
  call MPI_INIT(ierror)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, size, ierror)
  if (size /= 1) call fail('MPI_COMM_WORLD has one process')
  if (kind(size) /= MPI_INTEGER_KIND) call fail('default INTEGER is MPI_INTEGER_KIND')
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, keyval, &
       0_MPI_ADDRESS_KIND, ierror)
  value = 7
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, keyval, value, ierror)
  call MPI_COMM_DUP(MPI_COMM_WORLD, dup, ierror)
  call MPI_COMM_GET_ATTR(dup, keyval, got, flag, ierror)
  if (.not. flag .or. got /= 7) call fail('the attribute was copied to the duplicate')
  call MPI_COMM_FREE(dup, ierror)
  call MPI_COMM_FREE_KEYVAL(keyval, ierror)
  call MPI_FINALIZE(ierror)
  if (ierror /= MPI_SUCCESS) call fail('MPI_FINALIZE')
  if (failures /= 0) stop 1
  print '(A)', 'OK hello_mpi'
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(A,A)', 'FAILED: ', what
    failures = failures + 1
  end subroutine fail
end program hello_mpi
