! MPI_AINT_ADD and MPI_AINT_DIFF, INTEGER(KIND=MPI_ADDRESS_KIND) functions in all three
! bindings (mpif.h declares their type; `use mpi` and `use mpi_f08` have interfaces): on the
! addresses of an array's elements (MPI_GET_ADDRESS), where ADD of a distance gives the other
! address and DIFF gives the distance back, and on values beyond 32 bits.

subroutine aint_mpif()
  use checks, only: check_addr
  implicit none
  include 'mpif.h'
  integer :: ierror
  integer(kind=MPI_ADDRESS_KIND) :: first, third, big
  double precision :: values(4)

  values = 0.0d0
  call MPI_Get_address(values(1), first, ierror)
  call MPI_Get_address(values(3), third, ierror)
  call check_addr('mpif.h MPI_AINT_DIFF of values(3) and values(1)', MPI_AINT_DIFF(third, first), &
                  16_MPI_ADDRESS_KIND)
  call check_addr('mpif.h MPI_AINT_DIFF of values(1) and values(3)', MPI_AINT_DIFF(first, third), &
                  -16_MPI_ADDRESS_KIND)
  call check_addr('mpif.h MPI_AINT_ADD of values(1) and 16', MPI_AINT_ADD(first, 16_MPI_ADDRESS_KIND), &
                  third)
  big = 2_MPI_ADDRESS_KIND**40
  call check_addr('mpif.h MPI_AINT_ADD beyond 32 bits', MPI_AINT_ADD(big, -5_MPI_ADDRESS_KIND), &
                  big - 5_MPI_ADDRESS_KIND)
  call check_addr('mpif.h MPI_AINT_DIFF beyond 32 bits', MPI_AINT_DIFF(big, 3_MPI_ADDRESS_KIND), &
                  big - 3_MPI_ADDRESS_KIND)
end subroutine aint_mpif

subroutine aint_mpi()
  use mpi
  use checks, only: check_addr
  implicit none
  integer :: ierror
  integer(kind=MPI_ADDRESS_KIND) :: first, fourth, big
  integer :: values(4)

  values = 0
  call MPI_Get_address(values(1), first, ierror)
  call MPI_Get_address(values(4), fourth, ierror)
  call check_addr('use mpi MPI_Aint_diff of values(4) and values(1)', MPI_Aint_diff(fourth, first), &
                  int(3 * (bit_size(0) / 8), MPI_ADDRESS_KIND))
  call check_addr('use mpi MPI_Aint_add of values(4) and the distance back', &
                  MPI_Aint_add(fourth, MPI_Aint_diff(first, fourth)), first)
  big = -(2_MPI_ADDRESS_KIND**41)
  call check_addr('use mpi MPI_Aint_add of negatives', MPI_Aint_add(big, big), 2 * big)
  call check_addr('use mpi MPI_Aint_diff to zero', MPI_Aint_diff(big, big), 0_MPI_ADDRESS_KIND)
end subroutine aint_mpi

subroutine aint_f08()
  use mpi_f08
  use checks, only: check_addr
  implicit none
  integer(kind=MPI_ADDRESS_KIND) :: first, second, big
  character(len=1) :: text(8)

  text = 'x'
  call MPI_Get_address(text(1), first)
  call MPI_Get_address(text(2), second)
  call check_addr('use mpi_f08 MPI_Aint_diff of text(2) and text(1)', MPI_Aint_diff(second, first), &
                  1_MPI_ADDRESS_KIND)
  call check_addr('use mpi_f08 MPI_Aint_add of text(1) and 1', MPI_Aint_add(first, 1_MPI_ADDRESS_KIND), &
                  second)
  big = 2_MPI_ADDRESS_KIND**62
  call check_addr('use mpi_f08 MPI_Aint_add beyond 32 bits', MPI_Aint_add(big, big - 1_MPI_ADDRESS_KIND), &
                  huge(big))
end subroutine aint_f08

program aint_f
  use checks, only: test_name, max_error_string, check_ok, finish
  implicit none
  include 'mpif.h'
  integer :: ierror

  test_name = 'aint_f'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_Init(ierror)
  call check_ok('MPI_Init', ierror)
  call aint_mpif()
  call aint_mpi()
  call aint_f08()
  call MPI_Finalize(ierror)
  call finish()
end program aint_f
