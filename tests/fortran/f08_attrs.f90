! Attribute caching through `use mpi_f08` (SPEC §1, §3, §4):
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

! Local helpers on top of the shared `checks` module (tests/fortran/support/checks.f90):
! expected-first comparisons that print both values, LOGICAL checks, the IERROR checks, and
! the INTEGER view of an address-kind word.
module f08_attrs_chk
  use checks, only: test_name, fail, checks_finish => finish
  use mpi_f08
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
end module f08_attrs_chk

module f08_attrs_cb
  use mpi_f08
  use f08_attrs_chk
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

  subroutine check_comm(what, expected, actual)
    character(len=*), intent(in) :: what
    type(MPI_Comm), intent(in) :: expected, actual
    if (.not. (actual == expected)) &
      call fail(what // ': expected handle ' // istr(expected%MPI_VAL) // ', got ' // istr(actual%MPI_VAL))
  end subroutine check_comm

  subroutine check_type(what, expected, actual)
    character(len=*), intent(in) :: what
    type(MPI_Datatype), intent(in) :: expected, actual
    if (.not. (actual == expected)) &
      call fail(what // ': expected handle ' // istr(expected%MPI_VAL) // ', got ' // istr(actual%MPI_VAL))
  end subroutine check_type

  subroutine check_win(what, expected, actual)
    character(len=*), intent(in) :: what
    type(MPI_Win), intent(in) :: expected, actual
    if (.not. (actual == expected)) &
      call fail(what // ': expected handle ' // istr(expected%MPI_VAL) // ', got ' // istr(actual%MPI_VAL))
  end subroutine check_win

  ! Log entry i: op, keyval, value, extra state.
  subroutine check_entry(what, i, op, kv, val, extra)
    character(len=*), intent(in) :: what
    integer, intent(in) :: i, op, kv
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: val, extra
    if (i > nlog) then
      call fail(what // ': expected a callback #' // istr(i) // ', only ' // istr(nlog) // ' ran')
      return
    end if
    call check_i(what // ': copy (1) or delete (2)', op, log_op(i))
    call check_i(what // ': keyval', kv, log_kv(i))
    call check_a(what // ': attribute value', val, log_val(i))
    call check_a(what // ': extra state', extra, log_extra(i))
  end subroutine check_entry
end module f08_attrs_cb

program f08_attrs
  use, intrinsic :: iso_c_binding, only: c_ptr, c_loc, c_associated, c_f_pointer, c_null_ptr
  use mpi_f08
  use f08_attrs_chk
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
  big = 2_MPI_ADDRESS_KIND**40 + 5
  zero = 0
  buf = 0.0d0
  call MPI_Init()
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call ok('MPI_Comm_set_errhandler(MPI_COMM_SELF)', ierr)

  ! ---- handles compare with == and /= ----
  call check_l('MPI_COMM_WORLD == MPI_COMM_WORLD', .true., MPI_COMM_WORLD == MPI_COMM_WORLD)
  call check_l('MPI_COMM_WORLD /= MPI_COMM_SELF', .true., MPI_COMM_WORLD /= MPI_COMM_SELF)
  call check_l('MPI_COMM_WORLD /= MPI_COMM_NULL', .true., MPI_COMM_WORLD /= MPI_COMM_NULL)
  call check_l('MPI_INTEGER /= MPI_DATATYPE_NULL', .true., MPI_INTEGER /= MPI_DATATYPE_NULL)

  ! ---- predefined attribute, with and without ierror ----
  aval = -1
  flag = .false.
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, aval, flag)
  call check_l('MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB) flag', .true., flag)
  if (aval < 32767 .or. aval > 2147483647_MPI_ADDRESS_KIND) &
    call fail('MPI_TAG_UB: expected a tag bound in 32767..2147483647, got ' // astr(aval))

  ! ---- communicator keyvals ----
  ex_c = EXC
  call MPI_Comm_create_keyval(comm_copy, comm_del, ck, ex_c)
  ex_c2 = EXC2
  call MPI_Comm_create_keyval(comm_copy, comm_del, ck_no, ex_c2, ierr)
  call ok('MPI_Comm_create_keyval', ierr)
  decline_kv = ck_no
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, ckd, zero, ierr)
  call ok('MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN)', ierr)
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, ckn, zero, ierr)
  call ok('MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN)', ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, c)
  call check_l('MPI_Comm_dup gives a new handle', .true., c /= MPI_COMM_WORLD .and. c /= MPI_COMM_NULL)
  call MPI_Comm_set_attr(c, ck, big)
  call MPI_Comm_set_attr(c, ck_no, 7_MPI_ADDRESS_KIND, ierr)
  call ok('MPI_Comm_set_attr', ierr)
  call MPI_Comm_set_attr(c, ckd, -9_MPI_ADDRESS_KIND, ierr)
  call ok('MPI_Comm_set_attr', ierr)
  call MPI_Comm_set_attr(c, ckn, 8_MPI_ADDRESS_KIND, ierr)
  call ok('MPI_Comm_set_attr', ierr)
  mark = nlog + 1
  call MPI_Comm_dup(c, d, ierr)
  call ok('MPI_Comm_dup', ierr)
  call check_i('copy callbacks run by MPI_Comm_dup', 2, nlog - mark + 1)
  call check_entry('MPI_Comm_dup copy #1', mark, OP_COPY, ck, big, EXC)
  call check_comm('MPI_Comm_dup copy #1: oldcomm is the source', c, log_comm(mark))
  call check_entry('MPI_Comm_dup copy #2', mark + 1, OP_COPY, ck_no, 7_MPI_ADDRESS_KIND, EXC2)
  call check_comm('MPI_Comm_dup copy #2: oldcomm is the source', c, log_comm(mark + 1))
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
  call check_comm('MPI_Comm_free sets MPI_COMM_NULL', MPI_COMM_NULL, d)
  call check_l('newcomm == MPI_COMM_NULL after MPI_Comm_free', .true., d == MPI_COMM_NULL)
  call check_i('delete callbacks run by MPI_Comm_free', 1, nlog - mark + 1)
  call check_entry('MPI_Comm_free delete', mark, OP_DEL, ck, big + 1, EXC + 1)
  call check_comm('MPI_Comm_free delete: the freed communicator', d_saved, log_comm(mark))

  ! ---- MPI_Comm_idup + MPI_Wait ----
  mark = nlog + 1
  call MPI_Comm_idup(c, d, req, ierr)
  call ok('MPI_Comm_idup', ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call ok('MPI_Wait(MPI_STATUS_IGNORE)', ierr)
  call check_l('MPI_Wait sets the request to MPI_REQUEST_NULL', .true., req == MPI_REQUEST_NULL)
  call check_i('copy callbacks run by MPI_Comm_idup', 2, nlog - mark + 1)
  call check_entry('MPI_Comm_idup copy #1', mark, OP_COPY, ck, big, EXC + 2)
  call check_comm('MPI_Comm_idup copy #1: oldcomm is the source', c, log_comm(mark))
  call expect_attr(d, ck, .true., big + 1, 'idup: user copy')
  call expect_attr(d, ck_no, .false., zero, 'idup: user copy with flag .false.')
  call expect_attr(d, ckd, .true., -9_MPI_ADDRESS_KIND, 'idup: MPI_COMM_DUP_FN')
  st%MPI_SOURCE = 12345
  st%MPI_TAG = 12345
  st%MPI_ERROR = 12345
  call MPI_Comm_idup(d, d2, req)
  call MPI_Wait(req, st)
  call check_l('MPI_Wait sets the request to MPI_REQUEST_NULL', .true., req == MPI_REQUEST_NULL)
  call check_i('MPI_Wait status of MPI_Comm_idup: MPI_SOURCE', MPI_ANY_SOURCE, st%MPI_SOURCE)
  call check_i('MPI_Wait status of MPI_Comm_idup: MPI_TAG', MPI_ANY_TAG, st%MPI_TAG)
  call check_i('MPI_Wait status of MPI_Comm_idup: MPI_ERROR', MPI_SUCCESS, st%MPI_ERROR)
  call expect_attr(d2, ck, .true., big + 2, 'idup of an idup: user copy')
  call check_l('two idups differ', .true., d2 /= d .and. d2 /= c)
  call MPI_Comm_free(d2, ierr)
  call ok('MPI_Comm_free', ierr)
  call MPI_Comm_free(d)
  call check_l('MPI_Comm_free sets MPI_COMM_NULL', .true., d == MPI_COMM_NULL .and. d2 == MPI_COMM_NULL)

  ! ---- copy order = set order; delete order newest first ----
  ex_o = EXO
  do i = 1, 3
    call MPI_Comm_create_keyval(comm_copy, comm_del, o(i), ex_o, ierr)
    call ok('MPI_Comm_create_keyval', ierr)
  end do
  call MPI_Comm_dup(MPI_COMM_SELF, d, ierr)
  call ok('MPI_Comm_dup(MPI_COMM_SELF)', ierr)
  call MPI_Comm_set_attr(d, o(2), 2_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(d, o(3), 3_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(d, o(1), 1_MPI_ADDRESS_KIND)
  mark = nlog + 1
  call MPI_Comm_dup(d, d2)
  call check_i('copy callbacks run by MPI_Comm_dup', 3, nlog - mark + 1)
  call check_entry('copy order #1 (set order o2 o3 o1)', mark, OP_COPY, o(2), 2_MPI_ADDRESS_KIND, EXO)
  call check_entry('copy order #2 (set order o2 o3 o1)', mark + 1, OP_COPY, o(3), 3_MPI_ADDRESS_KIND, EXO)
  call check_entry('copy order #3 (set order o2 o3 o1)', mark + 2, OP_COPY, o(1), 1_MPI_ADDRESS_KIND, EXO)
  call check_comm('copy callback oldcomm', d, log_comm(mark))
  d_saved = d2
  mark = nlog + 1
  call MPI_Comm_free(d2)
  call check_i('delete callbacks run by MPI_Comm_free', 3, nlog - mark + 1)
  call check_entry('delete order #1 (newest first)', mark, OP_DEL, o(1), 2_MPI_ADDRESS_KIND, EXO + 1)
  call check_entry('delete order #2', mark + 1, OP_DEL, o(3), 4_MPI_ADDRESS_KIND, EXO + 1)
  call check_entry('delete order #3', mark + 2, OP_DEL, o(2), 3_MPI_ADDRESS_KIND, EXO + 1)
  call check_comm('delete callback comm', d_saved, log_comm(mark))
  call MPI_Comm_free(d)
  do i = 1, 3
    call MPI_Comm_free_keyval(o(i))
    call check_i('MPI_Comm_free_keyval sets MPI_KEYVAL_INVALID', MPI_KEYVAL_INVALID, o(i))
  end do

  ! ---- datatypes ----
  call MPI_Type_contiguous(4, MPI_INTEGER, t)
  call MPI_Type_commit(t, ierr)
  call ok('MPI_Type_commit', ierr)
  ex_t = EXT
  call MPI_Type_create_keyval(type_copy, type_del, tk, ex_t, ierr)
  call ok('MPI_Type_create_keyval', ierr)
  call MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, tkd, zero)
  call MPI_Type_set_attr(t, tk, 55_MPI_ADDRESS_KIND)
  call MPI_Type_set_attr(t, tkd, big, ierr)
  call ok('MPI_Type_set_attr', ierr)
  mark = nlog + 1
  call MPI_Type_dup(t, t2, ierr)
  call ok('MPI_Type_dup', ierr)
  call check_l('MPI_Type_dup gives a new handle', .true., t2 /= t .and. t2 /= MPI_DATATYPE_NULL)
  call check_i('copy callbacks run by MPI_Type_dup', 1, nlog - mark + 1)
  call check_entry('MPI_Type_dup copy', mark, OP_COPY, tk, 55_MPI_ADDRESS_KIND, EXT)
  call check_type('MPI_Type_dup copy: oldtype is the source', t, log_type(mark))
  tsize = -1
  call MPI_Type_size(t2, tsize)
  call check_i('MPI_Type_size of the dup of 4 x MPI_INTEGER', 4 * (bit_size(0) / 8), tsize)
  aval = 0
  call MPI_Type_get_attr(t2, tk, aval, flag, ierr)
  call ok('MPI_Type_get_attr', ierr)
  call check_l('MPI_Type_get_attr flag on the dup', .true., flag)
  call check_a('MPI_Type_get_attr on the dup (55 + 1)', 56_MPI_ADDRESS_KIND, aval)
  call MPI_Type_get_attr(t2, tkd, aval, flag)
  call check_l('MPI_TYPE_DUP_FN attribute on the dup', .true., flag)
  call check_a('MPI_TYPE_DUP_FN attribute on the dup', big, aval)
  t_saved = t2
  mark = nlog + 1
  call MPI_Type_free(t2)
  call check_type('MPI_Type_free sets MPI_DATATYPE_NULL', MPI_DATATYPE_NULL, t2)
  call check_i('delete callbacks run by MPI_Type_free', 1, nlog - mark + 1)
  call check_entry('MPI_Type_free delete', mark, OP_DEL, tk, 56_MPI_ADDRESS_KIND, EXT + 1)
  call check_type('MPI_Type_free delete: the freed datatype', t_saved, log_type(mark))
  t_saved = t
  mark = nlog + 1
  call MPI_Type_free(t, ierr)
  call ok('MPI_Type_free', ierr)
  call check_entry('MPI_Type_free delete', mark, OP_DEL, tk, 55_MPI_ADDRESS_KIND, EXT + 2)
  call check_type('MPI_Type_free delete: the freed datatype', t_saved, log_type(mark))

  ! ---- windows ----
  ex_w = EXW
  call MPI_Win_create_keyval(win_copy, win_del, wk, ex_w, ierr)
  call ok('MPI_Win_create_keyval', ierr)
  call MPI_Win_create(buf, int(8 * size(buf), MPI_ADDRESS_KIND), 8, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call ok('MPI_Win_create', ierr)
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
  call ok('MPI_Win_free', ierr)
  call check_l('MPI_Win_free sets MPI_WIN_NULL', .true., win == MPI_WIN_NULL)
  call check_i('delete callbacks run by MPI_Win_free', 1, nlog - mark + 1)
  call check_entry('MPI_Win_free delete', mark, OP_DEL, wk, 31_MPI_ADDRESS_KIND, EXW)
  call check_win('MPI_Win_free delete: the freed window', win_saved, log_win(mark))

  baseptr = c_null_ptr
  call MPI_Win_allocate(64_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, baseptr, win, ierr)
  call ok('MPI_Win_allocate', ierr)
  call MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN, ierr)
  call ok('MPI_Win_set_errhandler', ierr)
  call check_l('MPI_Win_allocate gives a baseptr', .true., c_associated(baseptr))
  call check_win_attr(win, MPI_WIN_BASE, 'MPI_Win_allocate: MPI_WIN_BASE is baseptr', transfer(baseptr, 0_MPI_ADDRESS_KIND))
  call check_win_attr(win, MPI_WIN_SIZE, 'MPI_Win_allocate: MPI_WIN_SIZE', 64_MPI_ADDRESS_KIND)
  call check_win_attr(win, MPI_WIN_DISP_UNIT, 'MPI_Win_allocate: MPI_WIN_DISP_UNIT', 4_MPI_ADDRESS_KIND)
  call check_win_attr(win, MPI_WIN_CREATE_FLAVOR, 'MPI_Win_allocate: MPI_WIN_CREATE_FLAVOR', &
                      int(MPI_WIN_FLAVOR_ALLOCATE, MPI_ADDRESS_KIND))
  call check_win_attr(win, MPI_WIN_MODEL, 'MPI_Win_allocate: MPI_WIN_MODEL', int(MPI_WIN_UNIFIED, MPI_ADDRESS_KIND))
  if (c_associated(baseptr)) then
    call c_f_pointer(baseptr, mem, [64 / (bit_size(0) / 8)])
    mem = 3
    call check_i('sum of the MPI_Win_allocate memory', 3 * size(mem), sum(mem))
  end if
  call MPI_Win_set_attr(win, wk, -32_MPI_ADDRESS_KIND, ierr)
  call ok('MPI_Win_set_attr', ierr)
  mark = nlog + 1
  call MPI_Win_delete_attr(win, wk, ierr)
  call ok('MPI_Win_delete_attr', ierr)
  call check_entry('MPI_Win_delete_attr delete', mark, OP_DEL, wk, -32_MPI_ADDRESS_KIND, EXW + 1)
  call check_win('MPI_Win_delete_attr delete: the window', win, log_win(mark))
  call MPI_Win_set_attr(win, wk, 33_MPI_ADDRESS_KIND, ierr)
  call ok('MPI_Win_set_attr', ierr)
  win_saved = win
  mark = nlog + 1
  call MPI_Win_free(win)
  call check_l('MPI_Win_free sets MPI_WIN_NULL', .true., win == MPI_WIN_NULL)
  call check_entry('MPI_Win_free delete', mark, OP_DEL, wk, 33_MPI_ADDRESS_KIND, EXW + 2)
  call check_win('MPI_Win_free delete: the freed window', win_saved, log_win(mark))
  call check_i('window copy callbacks run', 0, nwincopy)

  ! ---- MPI_Alloc_mem / MPI_Free_mem with TYPE(C_PTR) ----
  memptr = c_null_ptr
  call MPI_Alloc_mem(10_MPI_ADDRESS_KIND * (bit_size(0) / 8), MPI_INFO_NULL, memptr, ierr)
  call ok('MPI_Alloc_mem', ierr)
  call check_l('MPI_Alloc_mem gives memory', .true., c_associated(memptr))
  if (c_associated(memptr)) then
    call c_f_pointer(memptr, mem, [10])
    do i = 1, 10
      mem(i) = i * i
    end do
    call check_i('sum of squares written to MPI_Alloc_mem memory', 385, sum(mem))
    call MPI_Free_mem(mem, ierr)
    call ok('MPI_Free_mem', ierr)
  end if

  ! ---- errors through the optional ierror ----
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, aval, flag, ierr)
  call check_class('MPI_Comm_get_attr(MPI_KEYVAL_INVALID)', MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL', ierr)
  call MPI_Comm_get_attr(MPI_COMM_NULL, ck, aval, flag, ierr)
  call check_class('MPI_Comm_get_attr(MPI_COMM_NULL)', MPI_ERR_COMM, 'MPI_ERR_COMM', ierr)
  call MPI_Type_set_attr(MPI_INTEGER, ck, 1_MPI_ADDRESS_KIND, ierr)
  call check_class('MPI_Type_set_attr with a communicator keyval', MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL', ierr)

  ! ---- keyvals go ----
  mark = nlog + 1
  call MPI_Comm_free(c, ierr)
  call ok('MPI_Comm_free', ierr)
  call check_i('delete callbacks run by MPI_Comm_free (ck, ck_no)', 2, nlog - mark + 1)
  call check_entry('MPI_Comm_free delete #1 (newest first)', mark, OP_DEL, ck_no, 7_MPI_ADDRESS_KIND, EXC2 + 2)
  call check_entry('MPI_Comm_free delete #2', mark + 1, OP_DEL, ck, big, EXC + 6)
  call MPI_Comm_free_keyval(ck)
  call check_i('MPI_Comm_free_keyval sets MPI_KEYVAL_INVALID', MPI_KEYVAL_INVALID, ck)
  call MPI_Comm_free_keyval(ck_no, ierr)
  call ok('MPI_Comm_free_keyval', ierr)
  call check_i('MPI_Comm_free_keyval sets MPI_KEYVAL_INVALID', MPI_KEYVAL_INVALID, ck_no)
  call MPI_Comm_free_keyval(ckd)
  call MPI_Comm_free_keyval(ckn)
  call MPI_Type_free_keyval(tk, ierr)
  call ok('MPI_Type_free_keyval', ierr)
  call check_i('MPI_Type_free_keyval sets MPI_KEYVAL_INVALID', MPI_KEYVAL_INVALID, tk)
  call MPI_Type_free_keyval(tkd)
  call check_i('MPI_Type_free_keyval sets MPI_KEYVAL_INVALID', MPI_KEYVAL_INVALID, tkd)
  call MPI_Win_free_keyval(wk)
  call check_i('MPI_Win_free_keyval sets MPI_KEYVAL_INVALID', MPI_KEYVAL_INVALID, wk)

  ! the library held its own copies of the extra states
  call check_a('caller''s extra_state variable after the callbacks changed theirs', EXC, ex_c)
  call check_a('caller''s extra_state variable after the callbacks changed theirs', EXC2, ex_c2)
  call check_a('caller''s extra_state variable after the callbacks changed theirs', EXT, ex_t)
  call check_a('caller''s extra_state variable after the callbacks changed theirs', EXW, ex_w)
  call check_a('caller''s extra_state variable after the callbacks changed theirs', EXO, ex_o)

  call MPI_Finalize(ierr)
  call ok('MPI_Finalize', ierr)
  call finish('f08_attrs')

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
    call ok('MPI_Comm_get_attr (' // what // ')', e)
    call check_l(what // ': flag', present, f)
    if (present .and. f) call check_a(what, expected, v)
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
    call ok('MPI_Win_get_attr (' // what // ')', e)
    call check_l(what // ': flag', .true., f)
    if (f) call check_a(what, expected, v)
  end subroutine check_win_attr
end program f08_attrs
