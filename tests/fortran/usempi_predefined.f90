! The predefined attributes through `use mpi` (attributes.md §3, docs/semantics.md):
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

program usempi_predefined
  use, intrinsic :: iso_c_binding, only: c_loc, c_ptr, c_f_pointer
  use mpi
  use checks
  implicit none
  integer :: ierr, dup1, dup2, win, win2, win3, kv, i
  integer(kind=MPI_ADDRESS_KIND) :: aval, baseptr, tag_ub
  logical :: flag
  double precision, target :: buf(10)
  integer, pointer :: mem(:)
  type(c_ptr) :: cptr

  test_name = 'usempi_predefined'
  max_error_string = MPI_MAX_ERROR_STRING
  buf = 1.0d0
  tag_ub = -1
  call MPI_INIT(ierr)
  call check_ok('MPI_INIT', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD)', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF)', ierr)

  ! ---- communicator attributes ----
  call check_comm(MPI_COMM_WORLD, 'MPI_COMM_WORLD')
  call MPI_COMM_DUP(MPI_COMM_WORLD, dup1, ierr)
  call check_ok('MPI_COMM_DUP(MPI_COMM_WORLD)', ierr)
  call check_comm(dup1, 'dup of MPI_COMM_WORLD')
  call MPI_COMM_DUP(dup1, dup2, ierr)
  call check_ok('MPI_COMM_DUP(dup)', ierr)
  call check_comm(dup2, 'dup of a dup of MPI_COMM_WORLD')
  call check_absent(MPI_COMM_SELF, 'MPI_COMM_SELF')

  ! ---- predefined communicator keyvals cannot be set, deleted or freed ----
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, 5_MPI_ADDRESS_KIND, ierr)
  call check_class('MPI_COMM_SET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB)', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_ATTR_PUT(MPI_COMM_WORLD, MPI_TAG_UB, 5, ierr)
  call check_class('MPI_ATTR_PUT(MPI_COMM_WORLD, MPI_TAG_UB)', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_COMM_SET_ATTR(dup1, MPI_APPNUM, 5_MPI_ADDRESS_KIND, ierr)
  call check_class('MPI_COMM_SET_ATTR(dup, MPI_APPNUM)', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, MPI_HOST, 5_MPI_ADDRESS_KIND, ierr)
  call check_class('MPI_COMM_SET_ATTR(MPI_COMM_SELF, MPI_HOST)', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, ierr)
  call check_class('MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, MPI_TAG_UB)', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_ATTR_DELETE(MPI_COMM_WORLD, MPI_HOST, ierr)
  call check_class('MPI_ATTR_DELETE(MPI_COMM_WORLD, MPI_HOST)', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_COMM_DELETE_ATTR(dup2, MPI_IO, ierr)
  call check_class('MPI_COMM_DELETE_ATTR(dup of dup, MPI_IO)', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  kv = MPI_TAG_UB
  call MPI_COMM_FREE_KEYVAL(kv, ierr)
  call check_class('MPI_COMM_FREE_KEYVAL(MPI_TAG_UB)', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  kv = MPI_WTIME_IS_GLOBAL
  call MPI_KEYVAL_FREE(kv, ierr)
  call check_class('MPI_KEYVAL_FREE(MPI_WTIME_IS_GLOBAL)', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  ! ... and all of that changed nothing
  call check_comm(MPI_COMM_WORLD, 'MPI_COMM_WORLD after the refused calls')
  call check_comm(dup1, 'dup after the refused calls')
  call check_comm(dup2, 'dup of dup after the refused calls')
  call check_absent(MPI_COMM_SELF, 'MPI_COMM_SELF after the refused calls')

  call MPI_COMM_FREE(dup2, ierr)
  call check_ok('MPI_COMM_FREE', ierr)
  call MPI_COMM_FREE(dup1, ierr)
  call check_ok('MPI_COMM_FREE', ierr)
  call check_comm(MPI_COMM_WORLD, 'MPI_COMM_WORLD after freeing its dups')

  ! ---- MPI_WIN_CREATE over a Fortran array ----
  call MPI_WIN_CREATE(buf, int(8 * size(buf), MPI_ADDRESS_KIND), 8, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call check_ok('MPI_WIN_CREATE', ierr)
  call MPI_WIN_SET_ERRHANDLER(win, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_WIN_SET_ERRHANDLER', ierr)
  call win_expect(win, 'MPI_WIN_CREATE', transfer(c_loc(buf), 0_MPI_ADDRESS_KIND), &
                  int(8 * size(buf), MPI_ADDRESS_KIND), 8, MPI_WIN_FLAVOR_CREATE, 'MPI_WIN_FLAVOR_CREATE')

  ! predefined window keyvals cannot be set, deleted or freed; comm and win keyvals do not mix
  call MPI_WIN_SET_ATTR(win, MPI_WIN_BASE, 0_MPI_ADDRESS_KIND, ierr)
  call check_class('MPI_WIN_SET_ATTR(win, MPI_WIN_BASE)', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_WIN_SET_ATTR(win, MPI_WIN_SIZE, 1_MPI_ADDRESS_KIND, ierr)
  call check_class('MPI_WIN_SET_ATTR(win, MPI_WIN_SIZE)', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_WIN_DELETE_ATTR(win, MPI_WIN_DISP_UNIT, ierr)
  call check_class('MPI_WIN_DELETE_ATTR(win, MPI_WIN_DISP_UNIT)', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_WIN_DELETE_ATTR(win, MPI_WIN_MODEL, ierr)
  call check_class('MPI_WIN_DELETE_ATTR(win, MPI_WIN_MODEL)', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  kv = MPI_WIN_BASE
  call MPI_WIN_FREE_KEYVAL(kv, ierr)
  call check_class('MPI_WIN_FREE_KEYVAL(MPI_WIN_BASE)', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  kv = MPI_WIN_CREATE_FLAVOR
  call MPI_WIN_FREE_KEYVAL(kv, ierr)
  call check_class('MPI_WIN_FREE_KEYVAL(MPI_WIN_CREATE_FLAVOR)', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_WIN_GET_ATTR(win, MPI_TAG_UB, aval, flag, ierr)
  call check_class('MPI_WIN_GET_ATTR(win, MPI_TAG_UB): a communicator keyval', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_WIN_BASE, aval, flag, ierr)
  call check_class('MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_WIN_BASE): a window keyval', ierr, &
                   MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call win_expect(win, 'MPI_WIN_CREATE window after the refused calls', transfer(c_loc(buf), 0_MPI_ADDRESS_KIND), &
                  int(8 * size(buf), MPI_ADDRESS_KIND), 8, MPI_WIN_FLAVOR_CREATE, 'MPI_WIN_FLAVOR_CREATE')
  call MPI_WIN_FREE(win, ierr)
  call check_ok('MPI_WIN_FREE', ierr)
  call check_int('MPI_WIN_FREE sets the handle to MPI_WIN_NULL', win, MPI_WIN_NULL)

  ! ---- MPI_WIN_ALLOCATE ----
  baseptr = 0
  call MPI_WIN_ALLOCATE(48_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, baseptr, win2, ierr)
  call check_ok('MPI_WIN_ALLOCATE', ierr)
  call MPI_WIN_SET_ERRHANDLER(win2, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_WIN_SET_ERRHANDLER', ierr)
  call check_logical('MPI_WIN_ALLOCATE returns a non-zero baseptr', baseptr /= 0, .true.)
  call win_expect(win2, 'MPI_WIN_ALLOCATE', baseptr, 48_MPI_ADDRESS_KIND, 4, MPI_WIN_FLAVOR_ALLOCATE, &
                  'MPI_WIN_FLAVOR_ALLOCATE')
  if (baseptr /= 0) then
    ! the memory is usable: 48 bytes hold 48 / (bit_size(0) / 8) default INTEGERs
    cptr = transfer(baseptr, cptr)
    call c_f_pointer(cptr, mem, [48 / (bit_size(0) / 8)])
    do i = 1, size(mem)
      mem(i) = i
    end do
    call check_int('sum of the INTEGERs written to the MPI_WIN_ALLOCATE memory', sum(mem), &
                   size(mem) * (size(mem) + 1) / 2)
  end if
  call MPI_WIN_FREE(win2, ierr)
  call check_ok('MPI_WIN_FREE', ierr)
  call check_int('MPI_WIN_FREE sets the handle to MPI_WIN_NULL', win2, MPI_WIN_NULL)

  ! ---- MPI_WIN_CREATE_DYNAMIC ----
  call MPI_WIN_CREATE_DYNAMIC(MPI_INFO_NULL, MPI_COMM_WORLD, win3, ierr)
  call check_ok('MPI_WIN_CREATE_DYNAMIC', ierr)
  call MPI_WIN_SET_ERRHANDLER(win3, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_WIN_SET_ERRHANDLER', ierr)
  call win_expect(win3, 'MPI_WIN_CREATE_DYNAMIC', 0_MPI_ADDRESS_KIND, 0_MPI_ADDRESS_KIND, 1, MPI_WIN_FLAVOR_DYNAMIC, &
                  'MPI_WIN_FLAVOR_DYNAMIC')
  call MPI_WIN_FREE(win3, ierr)
  call check_ok('MPI_WIN_FREE', ierr)

  call MPI_FINALIZE(ierr)
  call check_ok('MPI_FINALIZE', ierr)
  call finish()

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
    call check_ok('MPI_COMM_GET_ATTR(' // label // ', ' // name // ')', ierr)
    call check_logical('MPI_COMM_GET_ATTR(' // label // ', ' // name // ') flag', present, .true.)
    ival = -123456
    flag = .false.
    call MPI_ATTR_GET(comm, keyval, ival, flag, ierr)
    call check_ok('MPI_ATTR_GET(' // label // ', ' // name // ')', ierr)
    call check_logical('MPI_ATTR_GET(' // label // ', ' // name // ') flag', flag, .true.)
    if (present .and. flag) &
      call check_addr('MPI_ATTR_GET(' // label // ', ' // name // ') reads what MPI_COMM_GET_ATTR reads', &
                      int(ival, MPI_ADDRESS_KIND), aval)
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
                  // str(v))
      ! every communicator of MPI_COMM_WORLD's family reads the same bound
      if (tag_ub == -1) tag_ub = v
      call check_addr('MPI_TAG_UB on ' // label // ' is the one of MPI_COMM_WORLD', v, tag_ub)
    end if
    call read_both(comm, label, MPI_HOST, 'MPI_HOST', v, present)
    if (present) call check_addr('MPI_HOST on ' // label // ' (MPI_PROC_NULL)', v, int(MPI_PROC_NULL, MPI_ADDRESS_KIND))
    call read_both(comm, label, MPI_IO, 'MPI_IO', v, present)
    if (present) call check_addr('MPI_IO on ' // label, v, 0_MPI_ADDRESS_KIND)
    call read_both(comm, label, MPI_WTIME_IS_GLOBAL, 'MPI_WTIME_IS_GLOBAL', v, present)
    if (present) call check_addr('MPI_WTIME_IS_GLOBAL on ' // label, v, 1_MPI_ADDRESS_KIND)
    call read_both(comm, label, MPI_UNIVERSE_SIZE, 'MPI_UNIVERSE_SIZE', v, present)
    if (present) call check_addr('MPI_UNIVERSE_SIZE on ' // label, v, 1_MPI_ADDRESS_KIND)
    call read_both(comm, label, MPI_APPNUM, 'MPI_APPNUM', v, present)
    if (present) call check_addr('MPI_APPNUM on ' // label, v, 0_MPI_ADDRESS_KIND)
    call read_both(comm, label, MPI_LASTUSEDCODE, 'MPI_LASTUSEDCODE', v, present)
    if (present .and. (v < MPI_ERR_LASTCODE .or. v > 2147483647_MPI_ADDRESS_KIND)) &
      call fail('MPI_LASTUSEDCODE on ' // label // ': expected a code in MPI_ERR_LASTCODE (' // istr(MPI_ERR_LASTCODE) &
                // ')..2147483647, got ' // str(v))
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
      call check_ok('MPI_COMM_GET_ATTR(' // label // ', ' // trim(names(k)) // ')', ierr)
      call check_logical('MPI_COMM_GET_ATTR(' // label // ', ' // trim(names(k)) // ') flag', flag, .false.)
      flag = .true.
      call MPI_ATTR_GET(comm, keyvals(k), ival, flag, ierr)
      call check_ok('MPI_ATTR_GET(' // label // ', ' // trim(names(k)) // ')', ierr)
      call check_logical('MPI_ATTR_GET(' // label // ', ' // trim(names(k)) // ') flag', flag, .false.)
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
    call check_ok('MPI_WIN_GET_ATTR(' // label // ', ' // name // ')', ierr)
    call check_logical('MPI_WIN_GET_ATTR(' // label // ', ' // name // ') flag', flag, .true.)
  end subroutine win_get

  subroutine win_expect(w, label, base, wsize, disp_unit, flavor, flavor_name)
    integer, intent(in) :: w, disp_unit, flavor
    character(len=*), intent(in) :: label, flavor_name
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: base, wsize
    integer(kind=MPI_ADDRESS_KIND) :: v
    call win_get(w, MPI_WIN_BASE, label, 'MPI_WIN_BASE', v)
    call check_addr(label // ': MPI_WIN_BASE', v, base)
    call win_get(w, MPI_WIN_SIZE, label, 'MPI_WIN_SIZE', v)
    call check_addr(label // ': MPI_WIN_SIZE', v, wsize)
    call win_get(w, MPI_WIN_DISP_UNIT, label, 'MPI_WIN_DISP_UNIT', v)
    call check_addr(label // ': MPI_WIN_DISP_UNIT', v, int(disp_unit, MPI_ADDRESS_KIND))
    call win_get(w, MPI_WIN_CREATE_FLAVOR, label, 'MPI_WIN_CREATE_FLAVOR', v)
    call check_addr(label // ': MPI_WIN_CREATE_FLAVOR (' // flavor_name // ')', v, int(flavor, MPI_ADDRESS_KIND))
    call win_get(w, MPI_WIN_MODEL, label, 'MPI_WIN_MODEL', v)
    call check_addr(label // ': MPI_WIN_MODEL (MPI_WIN_UNIFIED)', v, int(MPI_WIN_UNIFIED, MPI_ADDRESS_KIND))
  end subroutine win_expect
end program usempi_predefined
