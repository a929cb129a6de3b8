! mixed_errors: error codes of callbacks crossing between C and Fortran (attributes.md §5), with
! `use mpi_f08` (TYPE(MPI_Comm) handles; comm%MPI_VAL is the integer C converts with
! MPI_Comm_f2c). Everything runs under MPI_ERRORS_RETURN.
!
! 1. A Fortran delete callback setting IERROR to MPI_ERR_ARG makes C's MPI_Comm_free return
!    that class; the communicator stays valid with its attribute, and a retry after the
!    callback succeeds frees it. IERROR 12345 (not an error code) gives MPI_ERR_OTHER.
!    The callback's TYPE(MPI_Comm) holds the Fortran handle of the communicator C frees.
! 2. A C copy callback returning MPI_ERR_KEYVAL makes Fortran's MPI_Comm_dup return
!    MPI_ERR_KEYVAL in IERROR, with newcomm == MPI_COMM_NULL and the source unchanged;
!    12345 and -3 give MPI_ERR_OTHER.
! 3. A Fortran copy callback setting IERROR (MPI_ERR_INTERN, 12345) makes C's MPI_Comm_dup
!    return MPI_ERR_INTERN / MPI_ERR_OTHER with MPI_COMM_NULL.
! 4. A C delete callback returning MPI_ERR_ARG (12345) makes Fortran's MPI_Comm_delete_attr
!    and MPI_Comm_free return MPI_ERR_ARG (MPI_ERR_OTHER); the value and the communicator
!    stay; a retry frees it.
! Classes are checked with MPI_Error_class on both sides. The C half is mixed_errors.c.
module mixed_errors_helpers
  use mpi_f08
  use checks
  implicit none
  integer, parameter :: ak = MPI_ADDRESS_KIND
  ! Fortran callbacks: the IERROR they set, and what they saw.
  integer :: copy_result = MPI_SUCCESS, del_result = MPI_SUCCESS
  integer :: ncopy = 0, ndel = 0, copy_old = -1, del_comm = -1, copy_kv = -1, del_kv = -1
  integer(ak) :: copy_extra = -1, copy_in = -1, del_extra = -1, del_val = -1
contains
  ! The attribute is still there with value v.
  subroutine check_value(what, comm, kv, v)
    character(*), intent(in) :: what
    type(MPI_Comm), intent(in) :: comm
    integer, intent(in) :: kv
    integer(ak), intent(in) :: v
    integer(ak) :: got
    logical :: flag
    integer :: ierr
    got = -1
    flag = .false.
    call MPI_Comm_get_attr(comm, kv, got, flag, ierr)
    call check_ok(what // ': MPI_Comm_get_attr', ierr)
    call check_attr_addr(what // ': MPI_Comm_get_attr', flag, got, v)
  end subroutine check_value

  subroutine f_copy(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, &
      flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    ncopy = ncopy + 1
    copy_old = oldcomm%MPI_VAL
    copy_kv = comm_keyval
    copy_extra = extra_state
    copy_in = attribute_val_in
    attribute_val_out = attribute_val_in
    flag = .true.
    ierror = copy_result
  end subroutine f_copy

  subroutine f_delete(comm, comm_keyval, attribute_val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    ndel = ndel + 1
    del_comm = comm%MPI_VAL
    del_kv = comm_keyval
    del_extra = extra_state
    del_val = attribute_val
    ierror = del_result
  end subroutine f_delete
end module mixed_errors_helpers

program mixed_errors
  use mpi_f08
  use checks
  use mixed_errors_helpers
  implicit none
  integer :: ierr, cfail

  test_name = 'mixed_errors'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_Init(ierr)
  call check_ok('MPI_Init', ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call check_ok('set MPI_ERRORS_RETURN on MPI_COMM_WORLD', ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call check_ok('set MPI_ERRORS_RETURN on MPI_COMM_SELF', ierr)

  call fortran_delete_fails_c_free(MPI_ERR_ARG, MPI_ERR_ARG, 'MPI_ERR_ARG')
  call fortran_delete_fails_c_free(12345, MPI_ERR_OTHER, '12345')
  call c_copy_fails_fortran_dup(MPI_ERR_KEYVAL, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call c_copy_fails_fortran_dup(12345, MPI_ERR_OTHER, '12345')
  call c_copy_fails_fortran_dup(-3, MPI_ERR_OTHER, '-3')
  call fortran_copy_fails_c_dup(MPI_ERR_INTERN, MPI_ERR_INTERN, 'MPI_ERR_INTERN')
  call fortran_copy_fails_c_dup(12345, MPI_ERR_OTHER, '12345')
  call c_delete_fails_fortran(MPI_ERR_ARG, MPI_ERR_ARG, 'MPI_ERR_ARG')
  call c_delete_fails_fortran(12345, MPI_ERR_OTHER, '12345')

  call c_failures(cfail)
  call MPI_Finalize(ierr)
  call check_ok('MPI_Finalize', ierr)
  call finish(cfail)

contains

  ! 1. The Fortran delete callback sets IERROR = code; C's MPI_Comm_free returns `cls`.
  subroutine fortran_delete_fails_c_free(code, cls, name)
    integer, intent(in) :: code, cls
    character(*), intent(in) :: name
    type(MPI_Comm) :: c
    integer :: kv, ierr, rc, h
    integer(ak), parameter :: v = 2_ak**40 + 1
    character(:), allocatable :: what
    what = 'Fortran delete callback returning ' // name // ', C MPI_Comm_free'

    call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, f_delete, kv, 5_ak, ierr)
    call check_ok('MPI_Comm_create_keyval', ierr)
    call MPI_Comm_dup(MPI_COMM_WORLD, c, ierr)
    call check_ok('MPI_Comm_dup', ierr)
    call MPI_Comm_set_attr(c, kv, v, ierr)
    call check_ok('MPI_Comm_set_attr', ierr)
    h = c%MPI_VAL
    ndel = 0
    del_comm = -1
    del_result = code
    rc = MPI_SUCCESS
    call c_free_comm(h, cls, rc)   ! C checks the class and that the communicator stays
    call check_class(what, rc, cls)
    call check_int(what // ': the communicator''s handle', h, c%MPI_VAL)
    call check_int(what // ': delete callback calls', ndel, 1)
    call check_int(what // ': delete callback comm%MPI_VAL', del_comm, c%MPI_VAL)
    call check_int(what // ': delete callback keyval', del_kv, kv)
    call check_addr(what // ': delete callback attribute_val', del_val, v)
    call check_addr(what // ': delete callback extra_state', del_extra, 5_ak)
    call check_value(what // ', the value stays', c, kv, v)

    del_result = MPI_SUCCESS
    call c_free_comm(h, MPI_SUCCESS, rc)
    call check_ok(what // ', retry', rc)
    call check_int(what // ', retry: delete callback calls', ndel, 2)
    call check_int(what // ', retry: delete callback comm%MPI_VAL', del_comm, c%MPI_VAL)
    call check_int(what // ', retry: C handle after the free', h, MPI_COMM_NULL%MPI_VAL)
    call MPI_Comm_free_keyval(kv, ierr)
    call check_ok('MPI_Comm_free_keyval', ierr)
  end subroutine fortran_delete_fails_c_free

  ! 2. A C copy callback returns `code`; Fortran's MPI_Comm_dup returns `cls`.
  subroutine c_copy_fails_fortran_dup(code, cls, name)
    integer, intent(in) :: code, cls
    character(*), intent(in) :: name
    type(MPI_Comm) :: c, newc
    integer :: kv, ierr, n
    character(:), allocatable :: what
    what = 'C copy callback returning ' // name // ', Fortran MPI_Comm_dup'

    call c_create_failing_keyval(code, kv)
    call MPI_Comm_dup(MPI_COMM_WORLD, c, ierr)
    call check_ok('MPI_Comm_dup', ierr)
    call MPI_Comm_set_attr(c, kv, 7_ak, ierr)
    call check_ok('MPI_Comm_set_attr', ierr)
    newc = MPI_COMM_WORLD   ! anything but MPI_COMM_NULL
    call c_copy_calls(n)
    call MPI_Comm_dup(c, newc, ierr)
    call check_class(what, ierr, cls)
    if (newc /= MPI_COMM_NULL) &
        call fail(what // ': newcomm expected MPI_COMM_NULL, got ' // istr(newc%MPI_VAL))
    call c_expect_copy_call(n + 1, c%MPI_VAL)
    call check_value(what // ', the source is unchanged', c, kv, 7_ak)
    call MPI_Comm_free(c, ierr)
    call check_ok('MPI_Comm_free', ierr)
    call MPI_Comm_free_keyval(kv, ierr)
    call check_ok('MPI_Comm_free_keyval', ierr)
  end subroutine c_copy_fails_fortran_dup

  ! 3. The Fortran copy callback sets IERROR = code; C's MPI_Comm_dup returns `cls`.
  subroutine fortran_copy_fails_c_dup(code, cls, name)
    integer, intent(in) :: code, cls
    character(*), intent(in) :: name
    type(MPI_Comm) :: c
    integer :: kv, ierr, rc
    character(:), allocatable :: what
    what = 'Fortran copy callback returning ' // name // ', C MPI_Comm_dup'

    call MPI_Comm_create_keyval(f_copy, MPI_COMM_NULL_DELETE_FN, kv, 6_ak, ierr)
    call check_ok('MPI_Comm_create_keyval', ierr)
    call MPI_Comm_dup(MPI_COMM_WORLD, c, ierr)
    call check_ok('MPI_Comm_dup', ierr)
    call MPI_Comm_set_attr(c, kv, 8_ak, ierr)
    call check_ok('MPI_Comm_set_attr', ierr)
    ncopy = 0
    copy_result = code
    rc = MPI_SUCCESS
    call c_dup_comm(c%MPI_VAL, cls, rc)   ! C checks the class and MPI_COMM_NULL
    call check_class(what, rc, cls)
    call check_int(what // ': copy callback calls', ncopy, 1)
    call check_int(what // ': copy callback oldcomm%MPI_VAL', copy_old, c%MPI_VAL)
    call check_int(what // ': copy callback keyval', copy_kv, kv)
    call check_addr(what // ': copy callback attribute_val_in', copy_in, 8_ak)
    call check_addr(what // ': copy callback extra_state', copy_extra, 6_ak)
    call check_value(what // ', the source is unchanged', c, kv, 8_ak)
    copy_result = MPI_SUCCESS
    call MPI_Comm_free(c, ierr)
    call check_ok('MPI_Comm_free', ierr)
    call MPI_Comm_free_keyval(kv, ierr)
    call check_ok('MPI_Comm_free_keyval', ierr)
  end subroutine fortran_copy_fails_c_dup

  ! 4. A C delete callback returns `code`: Fortran's MPI_Comm_delete_attr and MPI_Comm_free
  ! return `cls`; then the callback succeeds and the free goes through.
  subroutine c_delete_fails_fortran(code, cls, name)
    integer, intent(in) :: code, cls
    character(*), intent(in) :: name
    type(MPI_Comm) :: c
    integer :: kv, ierr, h, nproc, nworld, n0, n
    character(:), allocatable :: what
    what = 'C delete callback returning ' // name

    call c_create_deleting_keyval(kv)
    call MPI_Comm_dup(MPI_COMM_WORLD, c, ierr)
    call check_ok('MPI_Comm_dup', ierr)
    call MPI_Comm_set_attr(c, kv, 9_ak, ierr)
    call check_ok('MPI_Comm_set_attr', ierr)
    h = c%MPI_VAL
    call c_delete_calls(n0)
    call c_set_delete_result(code)

    call MPI_Comm_delete_attr(c, kv, ierr)
    call check_class(what // ', Fortran MPI_Comm_delete_attr', ierr, cls)
    call check_value(what // ', after the failed delete_attr', c, kv, 9_ak)

    call MPI_Comm_free(c, ierr)
    call check_class(what // ', Fortran MPI_Comm_free', ierr, cls)
    call check_int(what // ', Fortran MPI_Comm_free: the handle stays', c%MPI_VAL, h)
    nproc = -1
    call MPI_Comm_size(c, nproc, ierr)
    call check_ok(what // ', MPI_Comm_size after the failed free', ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nworld, ierr)
    call check_int(what // ', MPI_Comm_size after the failed free', nproc, nworld)
    call check_value(what // ', after the failed free', c, kv, 9_ak)
    call c_delete_calls(n)
    call check_int(what // ': C delete callback calls', n - n0, 2)

    call c_set_delete_result(MPI_SUCCESS)
    call MPI_Comm_free(c, ierr)
    call check_ok(what // ', retried MPI_Comm_free', ierr)
    if (c /= MPI_COMM_NULL) call fail(what // ', retried MPI_Comm_free: handle expected ' // &
        'MPI_COMM_NULL, got ' // istr(c%MPI_VAL))
    call c_delete_calls(n)
    call check_int(what // ': C delete callback calls after the retry', n - n0, 3)
    call c_expect_delete_comm(h)
    call MPI_Comm_free_keyval(kv, ierr)
    call check_ok('MPI_Comm_free_keyval', ierr)
  end subroutine c_delete_fails_fortran
end program mixed_errors
