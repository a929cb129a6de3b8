! MPI_ABI_GET_FORTRAN_BOOLEANS (MPI-5.0) in Fortran: for a LOGICAL of the default size
! (mpi_logical_size of MPI_ABI_GET_FORTRAN_INFO: 4, or 8 with 8-byte INTEGERs) and for 1, 2,
! 4 and 8 bytes, LOGICAL_TRUE is .TRUE. and LOGICAL_FALSE .FALSE. (gfortran's 1 and 0, seen
! through TRANSFER), IS_SET .TRUE.; IERROR may be left out (`use mpi_f08`); a size of 3 is
! refused with MPI_ERR_ARG and the outputs keep their values; before MPI_INIT it fails with
! MPI_ERR_OTHER (MPI_COMM_SELF's handler set to MPI_ERRORS_RETURN first). `use mpi` and `use mpi_f08`.

subroutine booleans_f08()
  use mpi_f08
  use checks, only: check_logical, check_ok, check_int
  implicit none
  logical :: yes, no, is_set

  yes = .false.
  no = .true.
  is_set = .false.
  call MPI_Abi_get_fortran_booleans(storage_size(yes) / 8, yes, no, is_set)
  call check_logical('f08 LOGICAL_TRUE', yes, .true.)
  call check_logical('f08 LOGICAL_FALSE', no, .false.)
  call check_logical('f08 IS_SET', is_set, .true.)
  call check_int('f08 LOGICAL_TRUE as an INTEGER', transfer(yes, 0), 1)
end subroutine booleans_f08

program abi_booleans_f
  use mpi
  use checks
  implicit none
  logical :: yes, no, is_set, found
  integer :: ierror, logical_size, i, sizes(4), info, buflen
  character(len=8) :: text

  test_name = 'abi_booleans_f'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierror)
  call check_ok('MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF) before MPI_INIT', ierror)
  yes = .false.
  call MPI_Abi_get_fortran_booleans(4, yes, no, is_set, ierror)
  call check_class('MPI_ABI_GET_FORTRAN_BOOLEANS before MPI_INIT', ierror, MPI_ERR_OTHER, 'MPI_ERR_OTHER')
  call check_logical('before MPI_INIT: LOGICAL_TRUE untouched', yes, .false.)

  call MPI_Init(ierror)

  call MPI_Abi_get_fortran_info(info, ierror)
  call check_ok('MPI_ABI_GET_FORTRAN_INFO', ierror)
  buflen = len(text)
  call MPI_Info_get_string(info, 'mpi_logical_size', buflen, text, found, ierror)
  call check_logical('mpi_logical_size is there', found, .true.)
  read (text, *) logical_size
  call check_int('mpi_logical_size is the default LOGICAL''s', logical_size, storage_size(yes) / 8)
  call MPI_Info_free(info, ierror)

  sizes = [logical_size, 1, 2, 8]
  do i = 1, size(sizes)
    yes = .false.
    no = .true.
    is_set = .false.
    call MPI_Abi_get_fortran_booleans(sizes(i), yes, no, is_set, ierror)
    call check_ok('MPI_ABI_GET_FORTRAN_BOOLEANS(' // istr(sizes(i)) // ')', ierror)
    call check_logical('LOGICAL_TRUE of ' // istr(sizes(i)) // ' bytes', yes, .true.)
    call check_logical('LOGICAL_FALSE of ' // istr(sizes(i)) // ' bytes', no, .false.)
    call check_logical('IS_SET of ' // istr(sizes(i)) // ' bytes', is_set, .true.)
    call check_int('LOGICAL_TRUE as an INTEGER', transfer(yes, 0), 1)
    call check_int('LOGICAL_FALSE as an INTEGER', transfer(no, 0), 0)
  end do

  yes = .false.
  no = .true.
  is_set = .false.
  call MPI_Abi_get_fortran_booleans(3, yes, no, is_set, ierror)
  call check_class('MPI_ABI_GET_FORTRAN_BOOLEANS(3)', ierror, MPI_ERR_ARG, 'MPI_ERR_ARG')
  call check_logical('a refused size: LOGICAL_TRUE untouched', yes, .false.)
  call check_logical('a refused size: LOGICAL_FALSE untouched', no, .true.)
  call check_logical('a refused size: IS_SET untouched', is_set, .false.)

  call booleans_f08()
  call MPI_Finalize(ierror)
  call finish()
end program abi_booleans_f
