! MPI_PACK_EXTERNAL, MPI_UNPACK_EXTERNAL and MPI_PACK_EXTERNAL_SIZE through `use mpi_f08` (BIND(C) interfaces, where a CHARACTER(LEN=*) comes as a C descriptor), with
! the data representation as a Fortran CHARACTER (blank-padded, no NUL):
! - 'external32' packs INTEGERs big-endian in 4 bytes whatever the default INTEGER size
!   (MPI_INTEGER4 here, so both configurations agree), POSITION advances, and unpacking gives
!   the values back;
! - MPI_PACK_EXTERNAL_SIZE counts 4 bytes per MPI_INTEGER4;
! - another representation name is refused with MPI_ERR_ARG and POSITION is unchanged.
program external32_f08
  use mpi_f08
  use checks
  implicit none
  integer :: ierror
  integer(kind=4) :: values(2), back(2)
  character(len=1) :: packed(16)
  integer(kind=MPI_ADDRESS_KIND) :: position, nbytes

  test_name = 'external32_f08'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_Init(ierror)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierror)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierror)

  call MPI_Pack_external_size('external32', 2, MPI_INTEGER4, nbytes, ierror)
  call check_ok('MPI_Pack_external_size', ierror)
  call check_addr('MPI_Pack_external_size of 2 MPI_INTEGER4', nbytes, 8_MPI_ADDRESS_KIND)

  values = [1_4, 258_4]
  position = 0
  call MPI_Pack_external('external32', values, 2, MPI_INTEGER4, packed, &
                         int(size(packed), MPI_ADDRESS_KIND), position, ierror)
  call check_ok('MPI_Pack_external', ierror)
  call check_addr('position after packing', position, 8_MPI_ADDRESS_KIND)
  call check_int('byte 4 (low byte of 1, big-endian)', ichar(packed(4)), 1)
  call check_int('byte 1 (high byte of 1)', ichar(packed(1)), 0)
  call check_int('byte 7 of 258', ichar(packed(7)), 1)
  call check_int('byte 8 of 258', ichar(packed(8)), 2)

  back = 0
  position = 0
  call MPI_Unpack_external('external32', packed, 8_MPI_ADDRESS_KIND, position, back, 2, &
                           MPI_INTEGER4, ierror)
  call check_ok('MPI_Unpack_external', ierror)
  call check_int('unpacked 1', int(back(1)), 1)
  call check_int('unpacked 258', int(back(2)), 258)
  call check_addr('position after unpacking', position, 8_MPI_ADDRESS_KIND)

  position = 3
  call MPI_Pack_external('native', values, 2, MPI_INTEGER4, packed, &
                         int(size(packed), MPI_ADDRESS_KIND), position, ierror)
  call check_class('MPI_Pack_external(''native'')', ierror, MPI_ERR_ARG, 'MPI_ERR_ARG')
  call check_addr('position unchanged', position, 3_MPI_ADDRESS_KIND)

  call MPI_Finalize(ierror)
  call finish()
end program external32_f08
