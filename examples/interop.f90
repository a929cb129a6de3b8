! The Fortran half of examples/interop.c: stores values the way a Fortran program does, and
! reads any value with both Fortran get calls.

! MPI_ATTR_PUT stores a default INTEGER; MPI_COMM_SET_ATTR an address-sized one.
subroutine set_in_fortran(comm, put_keyval, small_keyval, large_keyval)
  use mpi
  implicit none
  integer, intent(in) :: comm, put_keyval, small_keyval, large_keyval
  integer :: ierror
  call MPI_ATTR_PUT(comm, put_keyval, -7, ierror)
  call MPI_COMM_SET_ATTR(comm, small_keyval, 42_MPI_ADDRESS_KIND, ierror)
  call MPI_COMM_SET_ATTR(comm, large_keyval, 2_MPI_ADDRESS_KIND**40, ierror)
end subroutine set_in_fortran

! What MPI_ATTR_GET and MPI_COMM_GET_ATTR read; the flags are returned as 0 or 1.
subroutine read_in_fortran(comm, keyval, attr_get, attr_flag, comm_get, comm_flag)
  use mpi
  implicit none
  integer, intent(in) :: comm, keyval
  integer, intent(out) :: attr_get, attr_flag, comm_flag
  integer(kind=MPI_ADDRESS_KIND), intent(out) :: comm_get
  logical :: flag
  integer :: ierror
  call MPI_ATTR_GET(comm, keyval, attr_get, flag, ierror)
  attr_flag = merge(1, 0, flag)
  call MPI_COMM_GET_ATTR(comm, keyval, comm_get, flag, ierror)
  comm_flag = merge(1, 0, flag)
end subroutine read_in_fortran
