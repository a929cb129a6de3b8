! MPI_Info_create_env through `use mpi_f08` (Fortran has no argc/argv: the routine takes the
! new info only), before MPI_Init and after it: a new info object, not MPI_INFO_NULL nor
! MPI_INFO_ENV, holding MPI_INFO_ENV's pairs (the same number of keys, and the same value of
! each, read with MPI_Info_get_nthkey and MPI_Info_get_string); freeing it sets
! MPI_INFO_NULL. IERROR is optional.
program info_env_f08
  use mpi_f08
  use checks
  implicit none
  integer :: ierror, nkeys, env_nkeys, i, len1, len2
  type(MPI_Info) :: early, late
  logical :: flag1, flag2
  character(len=MPI_MAX_INFO_KEY) :: key
  character(len=MPI_MAX_INFO_VAL) :: value1, value2

  test_name = 'info_env_f08'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_Info_create_env(early, ierror)
  call check_ok('MPI_Info_create_env before MPI_Init', ierror)
  call MPI_Init()
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)
  call MPI_Info_create_env(late)
  call check(late /= MPI_INFO_NULL, 'MPI_Info_create_env gives an info object')
  call check(late /= MPI_INFO_ENV, 'MPI_Info_create_env gives a new object')
  call check(early /= late, 'two calls give two objects')
  call MPI_Info_get_nkeys(MPI_INFO_ENV, env_nkeys, ierror)
  call check_ok('MPI_Info_get_nkeys of MPI_INFO_ENV', ierror)
  call check(env_nkeys > 0, 'MPI_INFO_ENV has keys')
  call MPI_Info_get_nkeys(late, nkeys, ierror)
  call check_int('MPI_Info_create_env: the keys of MPI_INFO_ENV', nkeys, env_nkeys)
  call MPI_Info_get_nkeys(early, nkeys, ierror)
  call check_int('MPI_Info_create_env before MPI_Init: the keys of MPI_INFO_ENV', nkeys, env_nkeys)
  do i = 0, env_nkeys - 1
    call MPI_Info_get_nthkey(MPI_INFO_ENV, i, key, ierror)
    call check_ok('MPI_Info_get_nthkey', ierror)
    len1 = MPI_MAX_INFO_VAL
    call MPI_Info_get_string(MPI_INFO_ENV, key, len1, value1, flag1, ierror)
    call check_ok('MPI_Info_get_string of MPI_INFO_ENV', ierror)
    len2 = MPI_MAX_INFO_VAL
    call MPI_Info_get_string(late, key, len2, value2, flag2, ierror)
    call check_ok('MPI_Info_get_string of the new info', ierror)
    call check_logical('the new info has ' // trim(key), flag2, .true.)
    call check_int('the length of ' // trim(key), len2, len1)
    call check(value1 == value2, 'the value of ' // trim(key))
    call check(len1 == len_trim(value1), 'BUFLEN is the length of ' // trim(key))
  end do
  call MPI_Info_free(late, ierror)
  call check_ok('MPI_Info_free', ierror)
  call check(late == MPI_INFO_NULL, 'MPI_Info_free sets MPI_INFO_NULL')
  call MPI_Info_free(early)
  call MPI_Finalize(ierror)
  call finish()
end program info_env_f08
