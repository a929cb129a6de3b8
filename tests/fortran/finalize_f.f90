! MPI_FINALIZE runs the Fortran delete callbacks of what is still attached (SPEC §4,
! docs/semantics.md): first MPI_COMM_SELF's attributes newest first (a replaced value counts as
! newest, a keyval freed while in use still runs its callback), then MPI_COMM_WORLD's newest
! first (address-kind and MPI-1 callbacks mixed), then those on predefined datatypes; each
! callback exactly once, with the object's handle, its value and extra state, and
! MPI_FINALIZED still .false. inside it (MPI-4.1: .true. only once MPI_FINALIZE has
! completed). The callbacks record what they saw in module variables; everything is checked
! after MPI_FINALIZE, when MPI_FINALIZED says .true.

! Local helpers on top of the shared `checks` module (tests/fortran/support/checks.f90):
! expected-first comparisons that print both values, LOGICAL checks, the IERROR checks, and
! the INTEGER view of an address-kind word.
module finalize_f_chk
  use checks, only: test_name, fail, checks_finish => finish
  use mpi
  implicit none
contains
  function istr(i) result(s)
    integer, intent(in) :: i
    character(len=:), allocatable :: s
    character(len=40) :: b
    write (b, '(I0)') i
    s = trim(b)
  end function istr

  function astr(v) result(s)
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: v
    character(len=:), allocatable :: s
    character(len=40) :: b
    write (b, '(I0)') v
    s = trim(b)
  end function astr

  subroutine check_i(what, expected, actual)
    character(len=*), intent(in) :: what
    integer, intent(in) :: expected, actual
    if (expected /= actual) call fail(what // ': expected ' // istr(expected) // ', got ' // istr(actual))
  end subroutine check_i

  subroutine check_a(what, expected, actual)
    character(len=*), intent(in) :: what
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: expected, actual
    if (expected /= actual) call fail(what // ': expected ' // astr(expected) // ', got ' // astr(actual))
  end subroutine check_a

  subroutine check_l(what, expected, actual)
    character(len=*), intent(in) :: what
    logical, intent(in) :: expected, actual
    if (expected .neqv. actual) then
      if (expected) then
        call fail(what // ': expected .true., got .false.')
      else
        call fail(what // ': expected .false., got .true.')
      end if
    end if
  end subroutine check_l

  ! IERROR is MPI_SUCCESS.
  subroutine ok(what, ierr)
    character(len=*), intent(in) :: what
    integer, intent(in) :: ierr
    integer :: cls, e
    if (ierr /= MPI_SUCCESS) then
      cls = -1
      call MPI_ERROR_CLASS(ierr, cls, e)
      call fail(what // ': expected MPI_SUCCESS, got error code ' // istr(ierr) // ' (class ' // istr(cls) // ')')
    end if
  end subroutine ok

  ! IERROR is a code of error class `expected` (through MPI_ERROR_CLASS), and MPI_ERROR_STRING
  ! gives a non-empty text for it.
  subroutine check_class(what, expected, expected_name, ierr)
    character(len=*), intent(in) :: what, expected_name
    integer, intent(in) :: expected, ierr
    integer :: cls, e, slen
    character(len=MPI_MAX_ERROR_STRING) :: text
    cls = -1
    e = -1
    call MPI_ERROR_CLASS(ierr, cls, e)
    if (e /= MPI_SUCCESS) then
      call fail(what // ': MPI_ERROR_CLASS(' // istr(ierr) // ') failed with ' // istr(e))
    else if (cls /= expected) then
      call fail(what // ': expected ' // expected_name // ' (' // istr(expected) // '), got class ' // &
                istr(cls) // ' (code ' // istr(ierr) // ')')
    end if
    if (ierr /= MPI_SUCCESS) then
      slen = -1
      text = ''
      call MPI_ERROR_STRING(ierr, text, slen, e)
      if (e /= MPI_SUCCESS) then
        call fail(what // ': MPI_ERROR_STRING(' // istr(ierr) // ') failed with ' // istr(e))
      else if (slen <= 0 .or. slen > MPI_MAX_ERROR_STRING .or. len_trim(text) == 0) then
        call fail(what // ': MPI_ERROR_STRING(' // istr(ierr) // ') gave an empty text or resultlen ' // istr(slen))
      end if
    end if
  end subroutine check_class

  ! The INTEGER view of an address-kind word: its least significant bit_size(0) bits.
  integer function low_bits(v)
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: v
    integer(kind=MPI_ADDRESS_KIND) :: m
    m = ibits(v, 0, bit_size(0) - 1)
    if (btest(v, bit_size(0) - 1)) then
      low_bits = int(m) - huge(0) - 1
    else
      low_bits = int(m)
    end if
  end function low_bits

  ! `OK name`, or the number of failed checks and stop 1.
  subroutine finish(name)
    character(len=*), intent(in) :: name
    test_name = name
    call checks_finish()
  end subroutine finish
end module finalize_f_chk

module finalize_f_cb
  use mpi
  implicit none
  integer, parameter :: LOGN = 32
  integer :: nlog = 0
  integer :: log_obj(LOGN), log_kv(LOGN), log_fin_err(LOGN)
  integer(kind=MPI_ADDRESS_KIND) :: log_val(LOGN), log_extra(LOGN)
  logical :: log_fin(LOGN)
contains
  subroutine record(obj, kv, val, extra)
    integer, intent(in) :: obj, kv
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: val, extra
    logical :: fin
    integer :: e
    fin = .true.
    call MPI_FINALIZED(fin, e)
    nlog = nlog + 1
    if (nlog > LOGN) stop 2
    log_obj(nlog) = obj
    log_kv(nlog) = kv
    log_val(nlog) = val
    log_extra(nlog) = extra
    log_fin(nlog) = fin
    log_fin_err(nlog) = e
  end subroutine record

  subroutine a_del(comm, comm_keyval, attribute_val, extra_state, ierror)
    integer :: comm, comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call record(comm, comm_keyval, attribute_val, extra_state)
    ierror = MPI_SUCCESS
  end subroutine a_del

  subroutine m1_del(comm, keyval, attribute_val, extra_state, ierr)
    integer :: comm, keyval, attribute_val, extra_state, ierr
    call record(comm, keyval, int(attribute_val, MPI_ADDRESS_KIND), int(extra_state, MPI_ADDRESS_KIND))
    ierr = MPI_SUCCESS
  end subroutine m1_del

  subroutine t_del(datatype, type_keyval, attribute_val, extra_state, ierror)
    integer :: datatype, type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call record(datatype, type_keyval, attribute_val, extra_state)
    ierror = MPI_SUCCESS
  end subroutine t_del
end module finalize_f_cb

program finalize_f
  use mpi
  use finalize_f_chk
  use finalize_f_cb
  implicit none
  integer :: ierr, s1, s2, s3, sfree, sfree_saved, w1, w2, wm, tk, mark, i, n, wm_extra
  integer(kind=MPI_ADDRESS_KIND) :: ex(8)
  logical :: flag
  integer :: e_obj(8), e_kv(8)
  integer(kind=MPI_ADDRESS_KIND) :: e_val(8), e_extra(8)
  character(len=16) :: e_where(8)

  test_name = 'finalize_f'
  ex = [(1000_MPI_ADDRESS_KIND * i, i = 1, 8)]
  call MPI_INIT(ierr)
  call ok('MPI_INIT', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call ok('MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD)', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call ok('MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF)', ierr)

  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, a_del, s1, ex(1), ierr)
  call ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, a_del, s2, ex(2), ierr)
  call ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, a_del, s3, ex(3), ierr)
  call ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, a_del, sfree, ex(4), ierr)
  call ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, a_del, w1, ex(5), ierr)
  call ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, a_del, w2, ex(6), ierr)
  call ok('MPI_COMM_CREATE_KEYVAL', ierr)
  wm_extra = 7000
  call MPI_KEYVAL_CREATE(MPI_NULL_COPY_FN, m1_del, wm, wm_extra, ierr)
  call ok('MPI_KEYVAL_CREATE', ierr)
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_NULL_COPY_FN, t_del, tk, ex(8), ierr)
  call ok('MPI_TYPE_CREATE_KEYVAL', ierr)

  ! MPI_COMM_SELF: set s1 s2 s3 sfree, free the keyval sfree, replace s1
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, s1, 101_MPI_ADDRESS_KIND, ierr)
  call ok('MPI_COMM_SET_ATTR(MPI_COMM_SELF)', ierr)
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, s2, 102_MPI_ADDRESS_KIND, ierr)
  call ok('MPI_COMM_SET_ATTR(MPI_COMM_SELF)', ierr)
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, s3, 103_MPI_ADDRESS_KIND, ierr)
  call ok('MPI_COMM_SET_ATTR(MPI_COMM_SELF)', ierr)
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, sfree, 104_MPI_ADDRESS_KIND, ierr)
  call ok('MPI_COMM_SET_ATTR(MPI_COMM_SELF)', ierr)
  sfree_saved = sfree
  call MPI_COMM_FREE_KEYVAL(sfree, ierr)
  call ok('MPI_COMM_FREE_KEYVAL (keyval still in use)', ierr)
  mark = nlog + 1
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, s1, 111_MPI_ADDRESS_KIND, ierr)
  call ok('MPI_COMM_SET_ATTR(MPI_COMM_SELF) over a value', ierr)
  call check_i('delete callbacks run by the replace on MPI_COMM_SELF', 1, nlog - mark + 1)
  if (nlog - mark + 1 == 1) then
    call check_a('replaced value given to its delete callback', 101_MPI_ADDRESS_KIND, log_val(mark))
    call check_i('handle given to the delete callback of the replaced value', MPI_COMM_SELF, log_obj(mark))
  end if
  ! MPI_COMM_WORLD: set w1, wm (MPI-1), w2
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, w1, 201_MPI_ADDRESS_KIND, ierr)
  call ok('MPI_COMM_SET_ATTR(MPI_COMM_WORLD)', ierr)
  call MPI_ATTR_PUT(MPI_COMM_WORLD, wm, -202, ierr)
  call ok('MPI_ATTR_PUT(MPI_COMM_WORLD)', ierr)
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, w2, 203_MPI_ADDRESS_KIND, ierr)
  call ok('MPI_COMM_SET_ATTR(MPI_COMM_WORLD)', ierr)
  ! a predefined datatype
  call MPI_TYPE_SET_ATTR(MPI_INTEGER, tk, 301_MPI_ADDRESS_KIND, ierr)
  call ok('MPI_TYPE_SET_ATTR(MPI_INTEGER)', ierr)

  call check_i('delete callbacks run before MPI_FINALIZE', 1, nlog)

  mark = nlog + 1
  call MPI_FINALIZE(ierr)
  ! no more MPI calls but MPI_FINALIZED from here on
  call ok('MPI_FINALIZE', ierr)
  flag = .false.
  call MPI_FINALIZED(flag, ierr)
  call ok('MPI_FINALIZED after MPI_FINALIZE', ierr)
  call check_l('MPI_FINALIZED after MPI_FINALIZE', .true., flag)

  e_obj = [MPI_COMM_SELF, MPI_COMM_SELF, MPI_COMM_SELF, MPI_COMM_SELF, &
           MPI_COMM_WORLD, MPI_COMM_WORLD, MPI_COMM_WORLD, MPI_INTEGER]
  e_kv = [s1, sfree_saved, s3, s2, w2, wm, w1, tk]
  e_val = [111_MPI_ADDRESS_KIND, 104_MPI_ADDRESS_KIND, 103_MPI_ADDRESS_KIND, 102_MPI_ADDRESS_KIND, &
           203_MPI_ADDRESS_KIND, -202_MPI_ADDRESS_KIND, 201_MPI_ADDRESS_KIND, 301_MPI_ADDRESS_KIND]
  e_extra = [ex(1), ex(4), ex(3), ex(2), ex(6), 7000_MPI_ADDRESS_KIND, ex(5), ex(8)]
  e_where = [character(len=16) :: 'MPI_COMM_SELF', 'MPI_COMM_SELF', 'MPI_COMM_SELF', 'MPI_COMM_SELF', &
             'MPI_COMM_WORLD', 'MPI_COMM_WORLD', 'MPI_COMM_WORLD', 'MPI_INTEGER']
  n = nlog - mark + 1
  call check_i('delete callbacks run by MPI_FINALIZE', 8, n)
  do i = 1, min(n, 8)
    call check_i('MPI_FINALIZE delete #' // istr(i) // ': keyval', e_kv(i), log_kv(mark + i - 1))
    call check_i('MPI_FINALIZE delete #' // istr(i) // ': handle (' // trim(e_where(i)) // ')', e_obj(i), &
                 log_obj(mark + i - 1))
    call check_a('MPI_FINALIZE delete #' // istr(i) // ': value', e_val(i), log_val(mark + i - 1))
    call check_a('MPI_FINALIZE delete #' // istr(i) // ': extra state', e_extra(i), log_extra(mark + i - 1))
    call check_i('MPI_FINALIZE delete #' // istr(i) // ' (' // trim(e_where(i)) // '): MPI_FINALIZED inside it', &
                 MPI_SUCCESS, log_fin_err(mark + i - 1))
    call check_l('MPI_FINALIZE delete #' // istr(i) // ' (' // trim(e_where(i)) // '): MPI_FINALIZED flag inside it', &
                 .false., log_fin(mark + i - 1))
  end do
  call finish('finalize_f')
end program finalize_f
