! Info objects through `use mpi`: MPI_INFO_SET, MPI_INFO_GET of a key that is there (the
! value, blank-padded) and of one that is not (FLAG false and the VALUE variable left as the
! program had it: no string is written), MPI_INFO_GET_NKEYS, MPI_INFO_DELETE, MPI_INFO_FREE.
program info_f
  use mpi
  use checks
  implicit none
  integer :: ierror, info, nkeys
  logical :: flag
  character(len=MPI_MAX_INFO_VAL) :: value

  test_name = 'info_f'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_Init(ierror)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierror)
  call MPI_Info_create(info, ierror)
  call check_ok('MPI_Info_create', ierror)
  call MPI_Info_set(info, 'color', 'blue', ierror)
  call check_ok('MPI_Info_set', ierror)
  value = 'untouched'
  call MPI_Info_get(info, 'color', MPI_MAX_INFO_VAL, value, flag, ierror)
  call check_ok('MPI_Info_get', ierror)
  call check_logical('MPI_Info_get finds color', flag, .true.)
  call check(value == 'blue', 'MPI_Info_get gives blue, blank-padded')
  value = 'untouched'
  call MPI_Info_get(info, 'shape', MPI_MAX_INFO_VAL, value, flag, ierror)
  call check_ok('MPI_Info_get of a missing key', ierror)
  call check_logical('MPI_Info_get of a missing key: flag', flag, .false.)
  call check(value == 'untouched', 'MPI_Info_get of a missing key leaves VALUE alone')
  call MPI_Info_get_nkeys(info, nkeys, ierror)
  call check_int('MPI_Info_get_nkeys', nkeys, 1)
  call MPI_Info_delete(info, 'color', ierror)
  call check_ok('MPI_Info_delete', ierror)
  call MPI_Info_get_nkeys(info, nkeys, ierror)
  call check_int('MPI_Info_get_nkeys after the delete', nkeys, 0)
  call MPI_Info_free(info, ierror)
  call check_ok('MPI_Info_free', ierror)
  call check_int('MPI_Info_free sets MPI_INFO_NULL', info, MPI_INFO_NULL)
  call MPI_Finalize(ierror)
  call finish()
end program info_f
