! The predefined attributes through `use mpi` (SPEC §3, docs/semantics.md):
! - MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_APPNUM and
!   MPI_LASTUSEDCODE exist on MPI_COMM_WORLD, on a dup of it and on a dup of that dup, with the
!   same values through MPI_COMM_GET_ATTR and MPI_ATTR_GET (MPI_TAG_UB is the tag bound, never
!   an address); MPI_COMM_SELF has none of them;
! - window attributes through MPI_WIN_GET_ATTR: MPI_WIN_CREATE over a Fortran array (base is
!   the array's address, size, disp unit, flavor create, model unified), MPI_WIN_ALLOCATE
!   (base is the returned baseptr, flavor allocate) and MPI_WIN_CREATE_DYNAMIC (base 0, size 0,
!   disp unit 1, flavor dynamic);
! - setting, deleting or freeing a predefined keyval fails with MPI_ERR_KEYVAL and changes
!   nothing; a communicator keyval on a window (or the reverse) is MPI_ERR_KEYVAL too.

! Local helpers on top of the shared `checks` module (tests/fortran/support/checks.f90):
! expected-first comparisons that print both values, LOGICAL checks, the IERROR checks, and
! the INTEGER view of an address-kind word.
module usempi_predefined_chk
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
end module usempi_predefined_chk

program usempi_predefined
  use, intrinsic :: iso_c_binding, only: c_loc, c_ptr, c_f_pointer
  use mpi
  use usempi_predefined_chk
  implicit none
  integer :: ierr, dup1, dup2, win, win2, win3, kv, i
  integer(kind=MPI_ADDRESS_KIND) :: aval, baseptr, tag_ub
  logical :: flag
  double precision, target :: buf(10)
  integer, pointer :: mem(:)
  type(c_ptr) :: cptr

  test_name = 'usempi_predefined'
  buf = 1.0d0
  tag_ub = -1
  call MPI_INIT(ierr)
  call ok('MPI_INIT', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call ok('MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD)', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call ok('MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF)', ierr)

  ! ---- communicator attributes ----
  call check_comm(MPI_COMM_WORLD, 'MPI_COMM_WORLD')
  call MPI_COMM_DUP(MPI_COMM_WORLD, dup1, ierr)
  call ok('MPI_COMM_DUP(MPI_COMM_WORLD)', ierr)
  call check_comm(dup1, 'dup of MPI_COMM_WORLD')
  call MPI_COMM_DUP(dup1, dup2, ierr)
  call ok('MPI_COMM_DUP(dup)', ierr)
  call check_comm(dup2, 'dup of a dup of MPI_COMM_WORLD')
  call check_absent(MPI_COMM_SELF, 'MPI_COMM_SELF')

  ! ---- predefined communicator keyvals cannot be set, deleted or freed ----
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, 5_MPI_ADDRESS_KIND, ierr)
  call check_class('MPI_COMM_SET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB)', MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL', ierr)
  call MPI_ATTR_PUT(MPI_COMM_WORLD, MPI_TAG_UB, 5, ierr)
  call check_class('MPI_ATTR_PUT(MPI_COMM_WORLD, MPI_TAG_UB)', MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL', ierr)
  call MPI_COMM_SET_ATTR(dup1, MPI_APPNUM, 5_MPI_ADDRESS_KIND, ierr)
  call check_class('MPI_COMM_SET_ATTR(dup, MPI_APPNUM)', MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL', ierr)
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, MPI_HOST, 5_MPI_ADDRESS_KIND, ierr)
  call check_class('MPI_COMM_SET_ATTR(MPI_COMM_SELF, MPI_HOST)', MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL', ierr)
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, ierr)
  call check_class('MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, MPI_TAG_UB)', MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL', ierr)
  call MPI_ATTR_DELETE(MPI_COMM_WORLD, MPI_HOST, ierr)
  call check_class('MPI_ATTR_DELETE(MPI_COMM_WORLD, MPI_HOST)', MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL', ierr)
  call MPI_COMM_DELETE_ATTR(dup2, MPI_IO, ierr)
  call check_class('MPI_COMM_DELETE_ATTR(dup of dup, MPI_IO)', MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL', ierr)
  kv = MPI_TAG_UB
  call MPI_COMM_FREE_KEYVAL(kv, ierr)
  call check_class('MPI_COMM_FREE_KEYVAL(MPI_TAG_UB)', MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL', ierr)
  kv = MPI_WTIME_IS_GLOBAL
  call MPI_KEYVAL_FREE(kv, ierr)
  call check_class('MPI_KEYVAL_FREE(MPI_WTIME_IS_GLOBAL)', MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL', ierr)
  ! ... and all of that changed nothing
  call check_comm(MPI_COMM_WORLD, 'MPI_COMM_WORLD after the refused calls')
  call check_comm(dup1, 'dup after the refused calls')
  call check_comm(dup2, 'dup of dup after the refused calls')
  call check_absent(MPI_COMM_SELF, 'MPI_COMM_SELF after the refused calls')

  call MPI_COMM_FREE(dup2, ierr)
  call ok('MPI_COMM_FREE', ierr)
  call MPI_COMM_FREE(dup1, ierr)
  call ok('MPI_COMM_FREE', ierr)
  call check_comm(MPI_COMM_WORLD, 'MPI_COMM_WORLD after freeing its dups')

  ! ---- MPI_WIN_CREATE over a Fortran array ----
  call MPI_WIN_CREATE(buf, int(8 * size(buf), MPI_ADDRESS_KIND), 8, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call ok('MPI_WIN_CREATE', ierr)
  call MPI_WIN_SET_ERRHANDLER(win, MPI_ERRORS_RETURN, ierr)
  call ok('MPI_WIN_SET_ERRHANDLER', ierr)
  call win_expect(win, 'MPI_WIN_CREATE', transfer(c_loc(buf), 0_MPI_ADDRESS_KIND), &
                  int(8 * size(buf), MPI_ADDRESS_KIND), 8, MPI_WIN_FLAVOR_CREATE, 'MPI_WIN_FLAVOR_CREATE')

  ! predefined window keyvals cannot be set, deleted or freed; comm and win keyvals do not mix
  call MPI_WIN_SET_ATTR(win, MPI_WIN_BASE, 0_MPI_ADDRESS_KIND, ierr)
  call check_class('MPI_WIN_SET_ATTR(win, MPI_WIN_BASE)', MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL', ierr)
  call MPI_WIN_SET_ATTR(win, MPI_WIN_SIZE, 1_MPI_ADDRESS_KIND, ierr)
  call check_class('MPI_WIN_SET_ATTR(win, MPI_WIN_SIZE)', MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL', ierr)
  call MPI_WIN_DELETE_ATTR(win, MPI_WIN_DISP_UNIT, ierr)
  call check_class('MPI_WIN_DELETE_ATTR(win, MPI_WIN_DISP_UNIT)', MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL', ierr)
  call MPI_WIN_DELETE_ATTR(win, MPI_WIN_MODEL, ierr)
  call check_class('MPI_WIN_DELETE_ATTR(win, MPI_WIN_MODEL)', MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL', ierr)
  kv = MPI_WIN_BASE
  call MPI_WIN_FREE_KEYVAL(kv, ierr)
  call check_class('MPI_WIN_FREE_KEYVAL(MPI_WIN_BASE)', MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL', ierr)
  kv = MPI_WIN_CREATE_FLAVOR
  call MPI_WIN_FREE_KEYVAL(kv, ierr)
  call check_class('MPI_WIN_FREE_KEYVAL(MPI_WIN_CREATE_FLAVOR)', MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL', ierr)
  call MPI_WIN_GET_ATTR(win, MPI_TAG_UB, aval, flag, ierr)
  call check_class('MPI_WIN_GET_ATTR(win, MPI_TAG_UB): a communicator keyval', MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL', ierr)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_WIN_BASE, aval, flag, ierr)
  call check_class('MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_WIN_BASE): a window keyval', MPI_ERR_KEYVAL, &
                   'MPI_ERR_KEYVAL', ierr)
  call win_expect(win, 'MPI_WIN_CREATE window after the refused calls', transfer(c_loc(buf), 0_MPI_ADDRESS_KIND), &
                  int(8 * size(buf), MPI_ADDRESS_KIND), 8, MPI_WIN_FLAVOR_CREATE, 'MPI_WIN_FLAVOR_CREATE')
  call MPI_WIN_FREE(win, ierr)
  call ok('MPI_WIN_FREE', ierr)
  call check_i('MPI_WIN_FREE sets the handle to MPI_WIN_NULL', MPI_WIN_NULL, win)

  ! ---- MPI_WIN_ALLOCATE ----
  baseptr = 0
  call MPI_WIN_ALLOCATE(48_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, baseptr, win2, ierr)
  call ok('MPI_WIN_ALLOCATE', ierr)
  call MPI_WIN_SET_ERRHANDLER(win2, MPI_ERRORS_RETURN, ierr)
  call ok('MPI_WIN_SET_ERRHANDLER', ierr)
  call check_l('MPI_WIN_ALLOCATE returns a non-zero baseptr', .true., baseptr /= 0)
  call win_expect(win2, 'MPI_WIN_ALLOCATE', baseptr, 48_MPI_ADDRESS_KIND, 4, MPI_WIN_FLAVOR_ALLOCATE, &
                  'MPI_WIN_FLAVOR_ALLOCATE')
  if (baseptr /= 0) then
    ! the memory is usable: 48 bytes hold 48 / (bit_size(0) / 8) default INTEGERs
    cptr = transfer(baseptr, cptr)
    call c_f_pointer(cptr, mem, [48 / (bit_size(0) / 8)])
    do i = 1, size(mem)
      mem(i) = i
    end do
    call check_i('sum of the INTEGERs written to the MPI_WIN_ALLOCATE memory', size(mem) * (size(mem) + 1) / 2, sum(mem))
  end if
  call MPI_WIN_FREE(win2, ierr)
  call ok('MPI_WIN_FREE', ierr)
  call check_i('MPI_WIN_FREE sets the handle to MPI_WIN_NULL', MPI_WIN_NULL, win2)

  ! ---- MPI_WIN_CREATE_DYNAMIC ----
  call MPI_WIN_CREATE_DYNAMIC(MPI_INFO_NULL, MPI_COMM_WORLD, win3, ierr)
  call ok('MPI_WIN_CREATE_DYNAMIC', ierr)
  call MPI_WIN_SET_ERRHANDLER(win3, MPI_ERRORS_RETURN, ierr)
  call ok('MPI_WIN_SET_ERRHANDLER', ierr)
  call win_expect(win3, 'MPI_WIN_CREATE_DYNAMIC', 0_MPI_ADDRESS_KIND, 0_MPI_ADDRESS_KIND, 1, MPI_WIN_FLAVOR_DYNAMIC, &
                  'MPI_WIN_FLAVOR_DYNAMIC')
  call MPI_WIN_FREE(win3, ierr)
  call ok('MPI_WIN_FREE', ierr)

  call MPI_FINALIZE(ierr)
  call ok('MPI_FINALIZE', ierr)
  call finish('usempi_predefined')

contains

  ! One predefined attribute through both readers: present, the two views agree; the value
  ! goes to aval and `present` says whether MPI_COMM_GET_ATTR found it.
  subroutine read_both(comm, label, keyval, name, aval, present)
    integer, intent(in) :: comm, keyval
    character(len=*), intent(in) :: label, name
    integer(kind=MPI_ADDRESS_KIND), intent(out) :: aval
    logical, intent(out) :: present
    integer :: ival, ierr
    logical :: flag
    aval = -123456
    present = .false.
    call MPI_COMM_GET_ATTR(comm, keyval, aval, present, ierr)
    call ok('MPI_COMM_GET_ATTR(' // label // ', ' // name // ')', ierr)
    call check_l('MPI_COMM_GET_ATTR(' // label // ', ' // name // ') flag', .true., present)
    ival = -123456
    flag = .false.
    call MPI_ATTR_GET(comm, keyval, ival, flag, ierr)
    call ok('MPI_ATTR_GET(' // label // ', ' // name // ')', ierr)
    call check_l('MPI_ATTR_GET(' // label // ', ' // name // ') flag', .true., flag)
    if (present .and. flag) &
      call check_a('MPI_ATTR_GET(' // label // ', ' // name // ') reads what MPI_COMM_GET_ATTR reads', aval, &
                   int(ival, MPI_ADDRESS_KIND))
  end subroutine read_both

  subroutine check_comm(comm, label)
    integer, intent(in) :: comm
    character(len=*), intent(in) :: label
    integer(kind=MPI_ADDRESS_KIND) :: v
    logical :: present
    call read_both(comm, label, MPI_TAG_UB, 'MPI_TAG_UB', v, present)
    if (present) then
      if (v < 32767 .or. v > 2147483647_MPI_ADDRESS_KIND) &
        call fail('MPI_COMM_GET_ATTR(' // label // ', MPI_TAG_UB): expected a tag bound in 32767..2147483647, got ' &
                  // astr(v))
      ! every communicator of MPI_COMM_WORLD's family reads the same bound
      if (tag_ub == -1) tag_ub = v
      call check_a('MPI_TAG_UB on ' // label // ' is the one of MPI_COMM_WORLD', tag_ub, v)
    end if
    call read_both(comm, label, MPI_HOST, 'MPI_HOST', v, present)
    if (present) call check_a('MPI_HOST on ' // label // ' (MPI_PROC_NULL)', int(MPI_PROC_NULL, MPI_ADDRESS_KIND), v)
    call read_both(comm, label, MPI_IO, 'MPI_IO', v, present)
    if (present) call check_a('MPI_IO on ' // label, 0_MPI_ADDRESS_KIND, v)
    call read_both(comm, label, MPI_WTIME_IS_GLOBAL, 'MPI_WTIME_IS_GLOBAL', v, present)
    if (present) call check_a('MPI_WTIME_IS_GLOBAL on ' // label, 1_MPI_ADDRESS_KIND, v)
    call read_both(comm, label, MPI_UNIVERSE_SIZE, 'MPI_UNIVERSE_SIZE', v, present)
    if (present) call check_a('MPI_UNIVERSE_SIZE on ' // label, 1_MPI_ADDRESS_KIND, v)
    call read_both(comm, label, MPI_APPNUM, 'MPI_APPNUM', v, present)
    if (present) call check_a('MPI_APPNUM on ' // label, 0_MPI_ADDRESS_KIND, v)
    call read_both(comm, label, MPI_LASTUSEDCODE, 'MPI_LASTUSEDCODE', v, present)
    if (present .and. (v < MPI_ERR_LASTCODE .or. v > 2147483647_MPI_ADDRESS_KIND)) &
      call fail('MPI_LASTUSEDCODE on ' // label // ': expected a code in MPI_ERR_LASTCODE (' // istr(MPI_ERR_LASTCODE) &
                // ')..2147483647, got ' // astr(v))
  end subroutine check_comm

  subroutine check_absent(comm, label)
    integer, intent(in) :: comm
    character(len=*), intent(in) :: label
    integer, parameter :: nk = 7
    integer :: keyvals(nk), k, ierr, ival
    character(len=20) :: names(nk)
    integer(kind=MPI_ADDRESS_KIND) :: v
    logical :: flag
    keyvals = [MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_APPNUM, MPI_LASTUSEDCODE]
    names = [character(len=20) :: 'MPI_TAG_UB', 'MPI_HOST', 'MPI_IO', 'MPI_WTIME_IS_GLOBAL', 'MPI_UNIVERSE_SIZE', &
             'MPI_APPNUM', 'MPI_LASTUSEDCODE']
    do k = 1, nk
      flag = .true.
      call MPI_COMM_GET_ATTR(comm, keyvals(k), v, flag, ierr)
      call ok('MPI_COMM_GET_ATTR(' // label // ', ' // trim(names(k)) // ')', ierr)
      call check_l('MPI_COMM_GET_ATTR(' // label // ', ' // trim(names(k)) // ') flag', .false., flag)
      flag = .true.
      call MPI_ATTR_GET(comm, keyvals(k), ival, flag, ierr)
      call ok('MPI_ATTR_GET(' // label // ', ' // trim(names(k)) // ')', ierr)
      call check_l('MPI_ATTR_GET(' // label // ', ' // trim(names(k)) // ') flag', .false., flag)
    end do
  end subroutine check_absent

  subroutine win_get(w, keyval, label, name, v)
    integer, intent(in) :: w, keyval
    character(len=*), intent(in) :: label, name
    integer(kind=MPI_ADDRESS_KIND), intent(out) :: v
    integer :: ierr
    logical :: flag
    v = -123456
    flag = .false.
    call MPI_WIN_GET_ATTR(w, keyval, v, flag, ierr)
    call ok('MPI_WIN_GET_ATTR(' // label // ', ' // name // ')', ierr)
    call check_l('MPI_WIN_GET_ATTR(' // label // ', ' // name // ') flag', .true., flag)
  end subroutine win_get

  subroutine win_expect(w, label, base, wsize, disp_unit, flavor, flavor_name)
    integer, intent(in) :: w, disp_unit, flavor
    character(len=*), intent(in) :: label, flavor_name
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: base, wsize
    integer(kind=MPI_ADDRESS_KIND) :: v
    call win_get(w, MPI_WIN_BASE, label, 'MPI_WIN_BASE', v)
    call check_a(label // ': MPI_WIN_BASE', base, v)
    call win_get(w, MPI_WIN_SIZE, label, 'MPI_WIN_SIZE', v)
    call check_a(label // ': MPI_WIN_SIZE', wsize, v)
    call win_get(w, MPI_WIN_DISP_UNIT, label, 'MPI_WIN_DISP_UNIT', v)
    call check_a(label // ': MPI_WIN_DISP_UNIT', int(disp_unit, MPI_ADDRESS_KIND), v)
    call win_get(w, MPI_WIN_CREATE_FLAVOR, label, 'MPI_WIN_CREATE_FLAVOR', v)
    call check_a(label // ': MPI_WIN_CREATE_FLAVOR (' // flavor_name // ')', int(flavor, MPI_ADDRESS_KIND), v)
    call win_get(w, MPI_WIN_MODEL, label, 'MPI_WIN_MODEL', v)
    call check_a(label // ': MPI_WIN_MODEL (MPI_WIN_UNIFIED)', int(MPI_WIN_UNIFIED, MPI_ADDRESS_KIND), v)
  end subroutine win_expect
end program usempi_predefined
