! Attribute caching through `use mpi_f08` (attributes.md §1, §3, §4):
! - TYPE(MPI_Comm) / TYPE(MPI_Datatype) / TYPE(MPI_Win) / TYPE(MPI_Request) handles, compared
!   with == and /= (a freed handle is the kind's null handle); calls with and without ierror;
! - copy and delete callbacks written as module procedures with the standard abstract
!   interfaces (MPI_Comm_copy_attr_function ...): the source handle for copies, the object's
!   for deletes, the value, the extra state given at creation (a change made through it seen
!   by the next callback of that keyval), flag .false. leaving the new object without it;
! - communicator attributes on MPI_Comm_dup and MPI_Comm_idup (completed with MPI_Wait, with
!   MPI_STATUS_IGNORE and with a TYPE(MPI_Status) that reads as an empty status), in set
!   order; deletes newest first; MPI_COMM_DUP_FN / MPI_COMM_NULL_COPY_FN / MPI_TYPE_DUP_FN;
! - datatype attributes on MPI_Type_dup / MPI_Type_free; window attributes on MPI_Win_create
!   over a Fortran array and on MPI_Win_allocate with a TYPE(C_PTR) baseptr (MPI_WIN_BASE is
!   that address), deleted by MPI_Win_free;
! - MPI_Alloc_mem / MPI_Free_mem with TYPE(C_PTR); freeing a keyval sets MPI_KEYVAL_INVALID;
!   with ierror present an invalid keyval gives MPI_ERR_KEYVAL and MPI_COMM_NULL MPI_ERR_COMM.

module f08_attrs_cb
  use mpi_f08
  use checks
  implicit none
  integer, parameter :: OP_COPY = 1, OP_DEL = 2
  integer, parameter :: LOGN = 100
  integer :: nlog = 0
  integer :: log_op(LOGN), log_kv(LOGN)
  integer(kind=MPI_ADDRESS_KIND) :: log_val(LOGN), log_extra(LOGN)
  type(MPI_Comm) :: log_comm(LOGN)
  type(MPI_Datatype) :: log_type(LOGN)
  type(MPI_Win) :: log_win(LOGN)
  ! keyval whose copy callback answers flag = .false.
  integer :: decline_kv = MPI_KEYVAL_INVALID
  integer :: nwincopy = 0

  ! check_handle(what, got, expected) for TYPE(MPI_Comm), TYPE(MPI_Datatype) and TYPE(MPI_Win).
  interface check_handle
    module procedure check_comm, check_type, check_win
  end interface check_handle
contains
  subroutine record(op, kv, val, extra)
    integer, intent(in) :: op, kv
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: val, extra
    nlog = nlog + 1
    if (nlog > LOGN) stop 2
    log_op(nlog) = op
    log_kv(nlog) = kv
    log_val(nlog) = val
    log_extra(nlog) = extra
    log_comm(nlog) = MPI_COMM_NULL
    log_type(nlog) = MPI_DATATYPE_NULL
    log_win(nlog) = MPI_WIN_NULL
  end subroutine record

  ! out = in + 1; every callback adds one to its extra state
  subroutine comm_copy(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    call record(OP_COPY, comm_keyval, attribute_val_in, extra_state)
    log_comm(nlog) = oldcomm
    extra_state = extra_state + 1
    attribute_val_out = attribute_val_in + 1
    flag = comm_keyval /= decline_kv
    ierror = MPI_SUCCESS
  end subroutine comm_copy

  subroutine comm_del(comm, comm_keyval, attribute_val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call record(OP_DEL, comm_keyval, attribute_val, extra_state)
    log_comm(nlog) = comm
    extra_state = extra_state + 1
    ierror = MPI_SUCCESS
  end subroutine comm_del

  subroutine type_copy(oldtype, type_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    type(MPI_Datatype) :: oldtype
    integer :: type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    call record(OP_COPY, type_keyval, attribute_val_in, extra_state)
    log_type(nlog) = oldtype
    extra_state = extra_state + 1
    attribute_val_out = attribute_val_in + 1
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine type_copy

  subroutine type_del(datatype, type_keyval, attribute_val, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer :: type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call record(OP_DEL, type_keyval, attribute_val, extra_state)
    log_type(nlog) = datatype
    extra_state = extra_state + 1
    ierror = MPI_SUCCESS
  end subroutine type_del

  subroutine win_copy(oldwin, win_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    type(MPI_Win) :: oldwin
    integer :: win_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    call record(OP_COPY, win_keyval, attribute_val_in, extra_state)
    nwincopy = nwincopy + 1
    log_win(nlog) = oldwin
    extra_state = extra_state + 1
    attribute_val_out = attribute_val_in
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine win_copy

  subroutine win_del(win, win_keyval, attribute_val, extra_state, ierror)
    type(MPI_Win) :: win
    integer :: win_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call record(OP_DEL, win_keyval, attribute_val, extra_state)
    log_win(nlog) = win
    extra_state = extra_state + 1
    ierror = MPI_SUCCESS
  end subroutine win_del

  ! Handles compare with the binding's ==; a mismatch shows their MPI_VAL.
  subroutine check_comm(what, got, expected)
    character(len=*), intent(in) :: what
    type(MPI_Comm), intent(in) :: got, expected
    if (.not. (got == expected)) call handle_mismatch(what, got%MPI_VAL, expected%MPI_VAL)
  end subroutine check_comm

  subroutine check_type(what, got, expected)
    character(len=*), intent(in) :: what
    type(MPI_Datatype), intent(in) :: got, expected
    if (.not. (got == expected)) call handle_mismatch(what, got%MPI_VAL, expected%MPI_VAL)
  end subroutine check_type

  subroutine check_win(what, got, expected)
    character(len=*), intent(in) :: what
    type(MPI_Win), intent(in) :: got, expected
    if (.not. (got == expected)) call handle_mismatch(what, got%MPI_VAL, expected%MPI_VAL)
  end subroutine check_win

  subroutine handle_mismatch(what, got, expected)
    character(len=*), intent(in) :: what
    integer, intent(in) :: got, expected
    call fail(what // ': expected handle ' // istr(expected) // ', got ' // istr(got))
  end subroutine handle_mismatch

  ! Log entry i: op, keyval, value, extra state.
  subroutine check_entry(what, i, op, kv, val, extra)
    character(len=*), intent(in) :: what
    integer, intent(in) :: i, op, kv
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: val, extra
    if (i > nlog) then
      call fail(what // ': expected a callback #' // istr(i) // ', only ' // istr(nlog) // ' ran')
      return
    end if
    call check_int(what // ': copy (1) or delete (2)', log_op(i), op)
    call check_int(what // ': keyval', log_kv(i), kv)
    call check_addr(what // ': attribute value', log_val(i), val)
    call check_addr(what // ': extra state', log_extra(i), extra)
  end subroutine check_entry
end module f08_attrs_cb

program f08_attrs
  use, intrinsic :: iso_c_binding, only: c_ptr, c_loc, c_associated, c_f_pointer, c_null_ptr
  use mpi_f08
  use checks
  use f08_attrs_cb
  implicit none
  type(MPI_Comm) :: c, d, d2, d_saved
  type(MPI_Datatype) :: t, t2, t_saved
  type(MPI_Win) :: win, win_saved
  type(MPI_Request) :: req
  type(MPI_Status) :: st
  integer :: ierr, ck, ck_no, ckd, ckn, tk, tkd, wk, o(3), mark, i, tsize
  integer(kind=MPI_ADDRESS_KIND) :: big, ex_c, ex_c2, ex_t, ex_w, ex_o, zero, aval
  ! the extra states given at creation (the variables passed are copies the library must not touch)
  integer(kind=MPI_ADDRESS_KIND), parameter :: EXC = 2_MPI_ADDRESS_KIND**40 + 10, EXC2 = 20, &
    EXT = -(2_MPI_ADDRESS_KIND**40), EXW = 2_MPI_ADDRESS_KIND**40 + 30, EXO = 0
  logical :: flag
  type(c_ptr) :: baseptr, memptr
  integer, pointer :: mem(:)
  double precision, target :: buf(6)

  test_name = 'f08_attrs'
  max_error_string = MPI_MAX_ERROR_STRING
  big = 2_MPI_ADDRESS_KIND**40 + 5
  zero = 0
  buf = 0.0d0
  call MPI_Init()
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_Comm_set_errhandler(MPI_COMM_SELF)', ierr)

  ! ---- handles compare with == and /= ----
  call check_logical('MPI_COMM_WORLD == MPI_COMM_WORLD', MPI_COMM_WORLD == MPI_COMM_WORLD, .true.)
  call check_logical('MPI_COMM_WORLD /= MPI_COMM_SELF', MPI_COMM_WORLD /= MPI_COMM_SELF, .true.)
  call check_logical('MPI_COMM_WORLD /= MPI_COMM_NULL', MPI_COMM_WORLD /= MPI_COMM_NULL, .true.)
  call check_logical('MPI_INTEGER /= MPI_DATATYPE_NULL', MPI_INTEGER /= MPI_DATATYPE_NULL, .true.)

  ! ---- predefined attribute, with and without ierror ----
  aval = -1
  flag = .false.
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, aval, flag)
  call check_logical('MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB) flag', flag, .true.)
  if (aval < 32767 .or. aval > 2147483647_MPI_ADDRESS_KIND) &
    call fail('MPI_TAG_UB: expected a tag bound in 32767..2147483647, got ' // str(aval))

  ! ---- communicator keyvals ----
  ex_c = EXC
  call MPI_Comm_create_keyval(comm_copy, comm_del, ck, ex_c)
  ex_c2 = EXC2
  call MPI_Comm_create_keyval(comm_copy, comm_del, ck_no, ex_c2, ierr)
  call check_ok('MPI_Comm_create_keyval', ierr)
  decline_kv = ck_no
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, ckd, zero, ierr)
  call check_ok('MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN)', ierr)
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, ckn, zero, ierr)
  call check_ok('MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN)', ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, c)
  call check_logical('MPI_Comm_dup gives a new handle', c /= MPI_COMM_WORLD .and. c /= MPI_COMM_NULL, .true.)
  call MPI_Comm_set_attr(c, ck, big)
  call MPI_Comm_set_attr(c, ck_no, 7_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Comm_set_attr', ierr)
  call MPI_Comm_set_attr(c, ckd, -9_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Comm_set_attr', ierr)
  call MPI_Comm_set_attr(c, ckn, 8_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Comm_set_attr', ierr)
  mark = nlog + 1
  call MPI_Comm_dup(c, d, ierr)
  call check_ok('MPI_Comm_dup', ierr)
  call check_int('copy callbacks run by MPI_Comm_dup', nlog - mark + 1, 2)
  call check_entry('MPI_Comm_dup copy #1', mark, OP_COPY, ck, big, EXC)
  call check_handle('MPI_Comm_dup copy #1: oldcomm is the source', log_comm(mark), c)
  call check_entry('MPI_Comm_dup copy #2', mark + 1, OP_COPY, ck_no, 7_MPI_ADDRESS_KIND, EXC2)
  call check_handle('MPI_Comm_dup copy #2: oldcomm is the source', log_comm(mark + 1), c)
  call expect_attr(d, ck, .true., big + 1, 'dup: user copy with flag .true.')
  call expect_attr(d, ck_no, .false., zero, 'dup: user copy with flag .false.')
  call expect_attr(d, ckd, .true., -9_MPI_ADDRESS_KIND, 'dup: MPI_COMM_DUP_FN')
  call expect_attr(d, ckn, .false., zero, 'dup: MPI_COMM_NULL_COPY_FN')
  call expect_attr(c, ck_no, .true., 7_MPI_ADDRESS_KIND, 'source after the dup')
  call MPI_Comm_delete_attr(d, ckd)
  call expect_attr(d, ckd, .false., zero, 'dup after MPI_Comm_delete_attr')
  d_saved = d
  mark = nlog + 1
  call MPI_Comm_free(d)
  call check_handle('MPI_Comm_free sets MPI_COMM_NULL', d, MPI_COMM_NULL)
  call check_logical('newcomm == MPI_COMM_NULL after MPI_Comm_free', d == MPI_COMM_NULL, .true.)
  call check_int('delete callbacks run by MPI_Comm_free', nlog - mark + 1, 1)
  call check_entry('MPI_Comm_free delete', mark, OP_DEL, ck, big + 1, EXC + 1)
  call check_handle('MPI_Comm_free delete: the freed communicator', log_comm(mark), d_saved)

  ! ---- MPI_Comm_idup + MPI_Wait ----
  mark = nlog + 1
  call MPI_Comm_idup(c, d, req, ierr)
  call check_ok('MPI_Comm_idup', ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call check_ok('MPI_Wait(MPI_STATUS_IGNORE)', ierr)
  call check_logical('MPI_Wait sets the request to MPI_REQUEST_NULL', req == MPI_REQUEST_NULL, .true.)
  call check_int('copy callbacks run by MPI_Comm_idup', nlog - mark + 1, 2)
  call check_entry('MPI_Comm_idup copy #1', mark, OP_COPY, ck, big, EXC + 2)
  call check_handle('MPI_Comm_idup copy #1: oldcomm is the source', log_comm(mark), c)
  call expect_attr(d, ck, .true., big + 1, 'idup: user copy')
  call expect_attr(d, ck_no, .false., zero, 'idup: user copy with flag .false.')
  call expect_attr(d, ckd, .true., -9_MPI_ADDRESS_KIND, 'idup: MPI_COMM_DUP_FN')
  st%MPI_SOURCE = 12345
  st%MPI_TAG = 12345
  st%MPI_ERROR = 12345
  call MPI_Comm_idup(d, d2, req)
  call MPI_Wait(req, st)
  call check_logical('MPI_Wait sets the request to MPI_REQUEST_NULL', req == MPI_REQUEST_NULL, .true.)
  call check_int('MPI_Wait status of MPI_Comm_idup: MPI_SOURCE', st%MPI_SOURCE, MPI_ANY_SOURCE)
  call check_int('MPI_Wait status of MPI_Comm_idup: MPI_TAG', st%MPI_TAG, MPI_ANY_TAG)
  call check_int('MPI_Wait status of MPI_Comm_idup: MPI_ERROR', st%MPI_ERROR, MPI_SUCCESS)
  call expect_attr(d2, ck, .true., big + 2, 'idup of an idup: user copy')
  call check_logical('two idups differ', d2 /= d .and. d2 /= c, .true.)
  call MPI_Comm_free(d2, ierr)
  call check_ok('MPI_Comm_free', ierr)
  call MPI_Comm_free(d)
  call check_logical('MPI_Comm_free sets MPI_COMM_NULL', d == MPI_COMM_NULL .and. d2 == MPI_COMM_NULL, .true.)

  ! ---- copy order = set order; delete order newest first ----
  ex_o = EXO
  do i = 1, 3
    call MPI_Comm_create_keyval(comm_copy, comm_del, o(i), ex_o, ierr)
    call check_ok('MPI_Comm_create_keyval', ierr)
  end do
  call MPI_Comm_dup(MPI_COMM_SELF, d, ierr)
  call check_ok('MPI_Comm_dup(MPI_COMM_SELF)', ierr)
  call MPI_Comm_set_attr(d, o(2), 2_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(d, o(3), 3_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(d, o(1), 1_MPI_ADDRESS_KIND)
  mark = nlog + 1
  call MPI_Comm_dup(d, d2)
  call check_int('copy callbacks run by MPI_Comm_dup', nlog - mark + 1, 3)
  call check_entry('copy order #1 (set order o2 o3 o1)', mark, OP_COPY, o(2), 2_MPI_ADDRESS_KIND, EXO)
  call check_entry('copy order #2 (set order o2 o3 o1)', mark + 1, OP_COPY, o(3), 3_MPI_ADDRESS_KIND, EXO)
  call check_entry('copy order #3 (set order o2 o3 o1)', mark + 2, OP_COPY, o(1), 1_MPI_ADDRESS_KIND, EXO)
  call check_handle('copy callback oldcomm', log_comm(mark), d)
  d_saved = d2
  mark = nlog + 1
  call MPI_Comm_free(d2)
  call check_int('delete callbacks run by MPI_Comm_free', nlog - mark + 1, 3)
  call check_entry('delete order #1 (newest first)', mark, OP_DEL, o(1), 2_MPI_ADDRESS_KIND, EXO + 1)
  call check_entry('delete order #2', mark + 1, OP_DEL, o(3), 4_MPI_ADDRESS_KIND, EXO + 1)
  call check_entry('delete order #3', mark + 2, OP_DEL, o(2), 3_MPI_ADDRESS_KIND, EXO + 1)
  call check_handle('delete callback comm', log_comm(mark), d_saved)
  call MPI_Comm_free(d)
  do i = 1, 3
    call MPI_Comm_free_keyval(o(i))
    call check_int('MPI_Comm_free_keyval sets MPI_KEYVAL_INVALID', o(i), MPI_KEYVAL_INVALID)
  end do

  ! ---- datatypes ----
  call MPI_Type_contiguous(4, MPI_INTEGER, t)
  call MPI_Type_commit(t, ierr)
  call check_ok('MPI_Type_commit', ierr)
  ex_t = EXT
  call MPI_Type_create_keyval(type_copy, type_del, tk, ex_t, ierr)
  call check_ok('MPI_Type_create_keyval', ierr)
  call MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, tkd, zero)
  call MPI_Type_set_attr(t, tk, 55_MPI_ADDRESS_KIND)
  call MPI_Type_set_attr(t, tkd, big, ierr)
  call check_ok('MPI_Type_set_attr', ierr)
  mark = nlog + 1
  call MPI_Type_dup(t, t2, ierr)
  call check_ok('MPI_Type_dup', ierr)
  call check_logical('MPI_Type_dup gives a new handle', t2 /= t .and. t2 /= MPI_DATATYPE_NULL, .true.)
  call check_int('copy callbacks run by MPI_Type_dup', nlog - mark + 1, 1)
  call check_entry('MPI_Type_dup copy', mark, OP_COPY, tk, 55_MPI_ADDRESS_KIND, EXT)
  call check_handle('MPI_Type_dup copy: oldtype is the source', log_type(mark), t)
  tsize = -1
  call MPI_Type_size(t2, tsize)
  call check_int('MPI_Type_size of the dup of 4 x MPI_INTEGER', tsize, 4 * (bit_size(0) / 8))
  aval = 0
  call MPI_Type_get_attr(t2, tk, aval, flag, ierr)
  call check_ok('MPI_Type_get_attr', ierr)
  call check_logical('MPI_Type_get_attr flag on the dup', flag, .true.)
  call check_addr('MPI_Type_get_attr on the dup (55 + 1)', aval, 56_MPI_ADDRESS_KIND)
  call MPI_Type_get_attr(t2, tkd, aval, flag)
  call check_logical('MPI_TYPE_DUP_FN attribute on the dup', flag, .true.)
  call check_addr('MPI_TYPE_DUP_FN attribute on the dup', aval, big)
  t_saved = t2
  mark = nlog + 1
  call MPI_Type_free(t2)
  call check_handle('MPI_Type_free sets MPI_DATATYPE_NULL', t2, MPI_DATATYPE_NULL)
  call check_int('delete callbacks run by MPI_Type_free', nlog - mark + 1, 1)
  call check_entry('MPI_Type_free delete', mark, OP_DEL, tk, 56_MPI_ADDRESS_KIND, EXT + 1)
  call check_handle('MPI_Type_free delete: the freed datatype', log_type(mark), t_saved)
  t_saved = t
  mark = nlog + 1
  call MPI_Type_free(t, ierr)
  call check_ok('MPI_Type_free', ierr)
  call check_entry('MPI_Type_free delete', mark, OP_DEL, tk, 55_MPI_ADDRESS_KIND, EXT + 2)
  call check_handle('MPI_Type_free delete: the freed datatype', log_type(mark), t_saved)

  ! ---- windows ----
  ex_w = EXW
  call MPI_Win_create_keyval(win_copy, win_del, wk, ex_w, ierr)
  call check_ok('MPI_Win_create_keyval', ierr)
  call MPI_Win_create(buf, int(8 * size(buf), MPI_ADDRESS_KIND), 8, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call check_ok('MPI_Win_create', ierr)
  call MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN)
  call check_win_attr(win, MPI_WIN_BASE, 'MPI_Win_create: MPI_WIN_BASE is the array''s address', &
                      transfer(c_loc(buf), 0_MPI_ADDRESS_KIND))
  call check_win_attr(win, MPI_WIN_SIZE, 'MPI_Win_create: MPI_WIN_SIZE', int(8 * size(buf), MPI_ADDRESS_KIND))
  call check_win_attr(win, MPI_WIN_CREATE_FLAVOR, 'MPI_Win_create: MPI_WIN_CREATE_FLAVOR', &
                      int(MPI_WIN_FLAVOR_CREATE, MPI_ADDRESS_KIND))
  call MPI_Win_set_attr(win, wk, 31_MPI_ADDRESS_KIND)
  win_saved = win
  mark = nlog + 1
  call MPI_Win_free(win, ierr)
  call check_ok('MPI_Win_free', ierr)
  call check_logical('MPI_Win_free sets MPI_WIN_NULL', win == MPI_WIN_NULL, .true.)
  call check_int('delete callbacks run by MPI_Win_free', nlog - mark + 1, 1)
  call check_entry('MPI_Win_free delete', mark, OP_DEL, wk, 31_MPI_ADDRESS_KIND, EXW)
  call check_handle('MPI_Win_free delete: the freed window', log_win(mark), win_saved)

  baseptr = c_null_ptr
  call MPI_Win_allocate(64_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, baseptr, win, ierr)
  call check_ok('MPI_Win_allocate', ierr)
  call MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_Win_set_errhandler', ierr)
  call check_logical('MPI_Win_allocate gives a baseptr', c_associated(baseptr), .true.)
  call check_win_attr(win, MPI_WIN_BASE, 'MPI_Win_allocate: MPI_WIN_BASE is baseptr', transfer(baseptr, 0_MPI_ADDRESS_KIND))
  call check_win_attr(win, MPI_WIN_SIZE, 'MPI_Win_allocate: MPI_WIN_SIZE', 64_MPI_ADDRESS_KIND)
  call check_win_attr(win, MPI_WIN_DISP_UNIT, 'MPI_Win_allocate: MPI_WIN_DISP_UNIT', 4_MPI_ADDRESS_KIND)
  call check_win_attr(win, MPI_WIN_CREATE_FLAVOR, 'MPI_Win_allocate: MPI_WIN_CREATE_FLAVOR', &
                      int(MPI_WIN_FLAVOR_ALLOCATE, MPI_ADDRESS_KIND))
  call check_win_attr(win, MPI_WIN_MODEL, 'MPI_Win_allocate: MPI_WIN_MODEL', int(MPI_WIN_UNIFIED, MPI_ADDRESS_KIND))
  if (c_associated(baseptr)) then
    call c_f_pointer(baseptr, mem, [64 / (bit_size(0) / 8)])
    mem = 3
    call check_int('sum of the MPI_Win_allocate memory', sum(mem), 3 * size(mem))
  end if
  call MPI_Win_set_attr(win, wk, -32_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Win_set_attr', ierr)
  mark = nlog + 1
  call MPI_Win_delete_attr(win, wk, ierr)
  call check_ok('MPI_Win_delete_attr', ierr)
  call check_entry('MPI_Win_delete_attr delete', mark, OP_DEL, wk, -32_MPI_ADDRESS_KIND, EXW + 1)
  call check_handle('MPI_Win_delete_attr delete: the window', log_win(mark), win)
  call MPI_Win_set_attr(win, wk, 33_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Win_set_attr', ierr)
  win_saved = win
  mark = nlog + 1
  call MPI_Win_free(win)
  call check_logical('MPI_Win_free sets MPI_WIN_NULL', win == MPI_WIN_NULL, .true.)
  call check_entry('MPI_Win_free delete', mark, OP_DEL, wk, 33_MPI_ADDRESS_KIND, EXW + 2)
  call check_handle('MPI_Win_free delete: the freed window', log_win(mark), win_saved)
  call check_int('window copy callbacks run', nwincopy, 0)

  ! ---- MPI_Alloc_mem / MPI_Free_mem with TYPE(C_PTR) ----
  memptr = c_null_ptr
  call MPI_Alloc_mem(10_MPI_ADDRESS_KIND * (bit_size(0) / 8), MPI_INFO_NULL, memptr, ierr)
  call check_ok('MPI_Alloc_mem', ierr)
  call check_logical('MPI_Alloc_mem gives memory', c_associated(memptr), .true.)
  if (c_associated(memptr)) then
    call c_f_pointer(memptr, mem, [10])
    do i = 1, 10
      mem(i) = i * i
    end do
    call check_int('sum of squares written to MPI_Alloc_mem memory', sum(mem), 385)
    call MPI_Free_mem(mem, ierr)
    call check_ok('MPI_Free_mem', ierr)
  end if

  ! ---- errors through the optional ierror ----
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, aval, flag, ierr)
  call check_class('MPI_Comm_get_attr(MPI_KEYVAL_INVALID)', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_Comm_get_attr(MPI_COMM_NULL, ck, aval, flag, ierr)
  call check_class('MPI_Comm_get_attr(MPI_COMM_NULL)', ierr, MPI_ERR_COMM, 'MPI_ERR_COMM')
  call MPI_Type_set_attr(MPI_INTEGER, ck, 1_MPI_ADDRESS_KIND, ierr)
  call check_class('MPI_Type_set_attr with a communicator keyval', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')

  ! ---- keyvals go ----
  mark = nlog + 1
  call MPI_Comm_free(c, ierr)
  call check_ok('MPI_Comm_free', ierr)
  call check_int('delete callbacks run by MPI_Comm_free (ck, ck_no)', nlog - mark + 1, 2)
  call check_entry('MPI_Comm_free delete #1 (newest first)', mark, OP_DEL, ck_no, 7_MPI_ADDRESS_KIND, EXC2 + 2)
  call check_entry('MPI_Comm_free delete #2', mark + 1, OP_DEL, ck, big, EXC + 6)
  call MPI_Comm_free_keyval(ck)
  call check_int('MPI_Comm_free_keyval sets MPI_KEYVAL_INVALID', ck, MPI_KEYVAL_INVALID)
  call MPI_Comm_free_keyval(ck_no, ierr)
  call check_ok('MPI_Comm_free_keyval', ierr)
  call check_int('MPI_Comm_free_keyval sets MPI_KEYVAL_INVALID', ck_no, MPI_KEYVAL_INVALID)
  call MPI_Comm_free_keyval(ckd)
  call MPI_Comm_free_keyval(ckn)
  call MPI_Type_free_keyval(tk, ierr)
  call check_ok('MPI_Type_free_keyval', ierr)
  call check_int('MPI_Type_free_keyval sets MPI_KEYVAL_INVALID', tk, MPI_KEYVAL_INVALID)
  call MPI_Type_free_keyval(tkd)
  call check_int('MPI_Type_free_keyval sets MPI_KEYVAL_INVALID', tkd, MPI_KEYVAL_INVALID)
  call MPI_Win_free_keyval(wk)
  call check_int('MPI_Win_free_keyval sets MPI_KEYVAL_INVALID', wk, MPI_KEYVAL_INVALID)

  ! the library held its own copies of the extra states
  call check_addr('caller''s extra_state variable after the callbacks changed theirs', ex_c, EXC)
  call check_addr('caller''s extra_state variable after the callbacks changed theirs', ex_c2, EXC2)
  call check_addr('caller''s extra_state variable after the callbacks changed theirs', ex_t, EXT)
  call check_addr('caller''s extra_state variable after the callbacks changed theirs', ex_w, EXW)
  call check_addr('caller''s extra_state variable after the callbacks changed theirs', ex_o, EXO)

  call MPI_Finalize(ierr)
  call check_ok('MPI_Finalize', ierr)
  call finish()

contains

  subroutine expect_attr(comm, keyval, present, expected, what)
    type(MPI_Comm), intent(in) :: comm
    integer, intent(in) :: keyval
    logical, intent(in) :: present
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: expected
    character(len=*), intent(in) :: what
    integer(kind=MPI_ADDRESS_KIND) :: v
    logical :: f
    integer :: e
    v = -1
    f = .not. present
    call MPI_Comm_get_attr(comm, keyval, v, f, e)
    call check_ok('MPI_Comm_get_attr (' // what // ')', e)
    call check_logical(what // ': flag', f, present)
    if (present .and. f) call check_addr(what, v, expected)
  end subroutine expect_attr

  subroutine check_win_attr(w, keyval, what, expected)
    type(MPI_Win), intent(in) :: w
    integer, intent(in) :: keyval
    character(len=*), intent(in) :: what
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: expected
    integer(kind=MPI_ADDRESS_KIND) :: v
    logical :: f
    integer :: e
    v = -1
    f = .false.
    call MPI_Win_get_attr(w, keyval, v, f, e)
    call check_ok('MPI_Win_get_attr (' // what // ')', e)
    call check_attr_addr(what, f, v, expected)
  end subroutine check_win_attr
end program f08_attrs
