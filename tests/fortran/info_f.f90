! Info objects through `use mpi`: MPI_INFO_SET, MPI_INFO_GET of a key that is there (the
! value, blank-padded) and of one that is not (FLAG false and the VALUE variable left as the
! program had it: no string is written), MPI_INFO_GET_NKEYS, MPI_INFO_DELETE, MPI_INFO_FREE.
! MPI_INFO_GET_STRING: in Fortran BUFLEN counts characters without C's NUL (MPI-4.1 §10: "In
! C, buflen includes the required space for the null terminator"): on entry how many
! characters may be stored (0: none, VALUE untouched), on return the length of the whole value;
! the value goes back cut at BUFLEN and at the variable's length, blank-padded.
program info_f
  use mpi
  use checks
  implicit none
  integer :: ierror, info, nkeys
  logical :: flag
  character(len=MPI_MAX_INFO_VAL) :: value
  character(len=3) :: short
  integer :: buflen

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

  ! MPI_INFO_GET_STRING.
  buflen = MPI_MAX_INFO_VAL
  value = 'untouched'
  call MPI_Info_get_string(info, 'color', buflen, value, flag, ierror)
  call check_ok('MPI_Info_get_string', ierror)
  call check_logical('MPI_Info_get_string finds color', flag, .true.)
  call check_int('MPI_Info_get_string: BUFLEN is the length of blue', buflen, 4)
  call check(value == 'blue', 'MPI_Info_get_string gives blue, blank-padded')
  buflen = 4
  value = 'untouched'
  call MPI_Info_get_string(info, 'color', buflen, value, flag, ierror)
  call check_ok('MPI_Info_get_string, BUFLEN 4', ierror)
  call check_int('MPI_Info_get_string, BUFLEN 4: BUFLEN', buflen, 4)
  call check(value == 'blue', 'MPI_Info_get_string, BUFLEN 4 stores all of blue (no NUL)')
  buflen = 2
  value = 'untouched'
  call MPI_Info_get_string(info, 'color', buflen, value, flag, ierror)
  call check_ok('MPI_Info_get_string, BUFLEN 2', ierror)
  call check_logical('MPI_Info_get_string, BUFLEN 2: flag', flag, .true.)
  call check_int('MPI_Info_get_string, BUFLEN 2: BUFLEN', buflen, 4)
  call check(value == 'bl', 'MPI_Info_get_string, BUFLEN 2 gives bl, blank-padded')
  buflen = 0
  value = 'untouched'
  call MPI_Info_get_string(info, 'color', buflen, value, flag, ierror)
  call check_ok('MPI_Info_get_string, BUFLEN 0', ierror)
  call check_logical('MPI_Info_get_string, BUFLEN 0: flag', flag, .true.)
  call check_int('MPI_Info_get_string, BUFLEN 0: BUFLEN', buflen, 4)
  call check(value == 'untouched', 'MPI_Info_get_string, BUFLEN 0 leaves VALUE alone')
  buflen = 10
  short = 'xyz'
  call MPI_Info_get_string(info, 'color', buflen, short, flag, ierror)
  call check_ok('MPI_Info_get_string into 3 characters', ierror)
  call check_int('MPI_Info_get_string into 3 characters: BUFLEN', buflen, 4)
  call check(short == 'blu', 'MPI_Info_get_string into 3 characters gives blu')
  buflen = 10
  value = 'untouched'
  call MPI_Info_get_string(info, 'shape', buflen, value, flag, ierror)
  call check_ok('MPI_Info_get_string of a missing key', ierror)
  call check_logical('MPI_Info_get_string of a missing key: flag', flag, .false.)
  call check_int('MPI_Info_get_string of a missing key: BUFLEN unchanged', buflen, 10)
  call check(value == 'untouched', 'MPI_Info_get_string of a missing key leaves VALUE alone')
  buflen = -1
  value = 'untouched'
  call MPI_Info_get_string(info, 'color', buflen, value, flag, ierror)
  call check_class('MPI_Info_get_string, BUFLEN -1', ierror, MPI_ERR_ARG, 'MPI_ERR_ARG')
  call check_int('MPI_Info_get_string, BUFLEN -1: BUFLEN unchanged', buflen, -1)
  call check(value == 'untouched', 'MPI_Info_get_string, BUFLEN -1 leaves VALUE alone')
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
