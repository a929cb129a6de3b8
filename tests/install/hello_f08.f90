! A Fortran program with `use mpi_f08`, built against an installed mpiattr by
! tests/install.rs (wrapper, pkg-config, CMake) and run with mpiexec -n 1.
program hello_f08
  use mpi_f08
  implicit none
  type(MPI_Comm) :: dup
  integer :: keyval, size, length, failures
  integer(kind=MPI_ADDRESS_KIND) :: value, got
  logical :: flag
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version

  failures = 0
  call MPI_Init()
  call MPI_Get_library_version(version, length)
  if (version(1:8) /= 'mpiattr ') call fail('the library is mpiattr')
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  if (size /= 1) call fail('MPI_COMM_WORLD has one process')
  if (kind(keyval) /= MPI_INTEGER_KIND) call fail('default INTEGER is MPI_INTEGER_KIND')
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, keyval, 0_MPI_ADDRESS_KIND)
  value = 2_MPI_ADDRESS_KIND**40 + 5
  call MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, value)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_get_attr(dup, keyval, got, flag)
  if (.not. flag .or. got /= value) call fail('the attribute was copied to the duplicate')
  call MPI_Comm_free(dup)
  call MPI_Comm_free_keyval(keyval)
  if (keyval /= MPI_KEYVAL_INVALID) call fail('the keyval variable was reset')
  call MPI_Finalize()
  print '(A)', trim(version)
  if (failures /= 0) stop 1
  print '(A)', 'OK hello_f08'
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(A,A)', 'FAILED: ', what
    failures = failures + 1
  end subroutine fail
end program hello_f08
