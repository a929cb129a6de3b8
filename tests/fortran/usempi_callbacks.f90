! Every Fortran callback convention of `use mpi` (attributes.md §3, §4):
! - MPI-1 keyvals (MPI_KEYVAL_CREATE: INTEGER extra state and values) and address-kind keyvals
!   (MPI_COMM_CREATE_KEYVAL, MPI_TYPE_CREATE_KEYVAL with MPI_TYPE_DUP, MPI_WIN_CREATE_KEYVAL
!   with deletes on MPI_WIN_DELETE_ATTR, on a replacing MPI_WIN_SET_ATTR and on MPI_WIN_FREE);
! - a callback gets the Fortran handle of the source (copy) or of the object (delete), the
!   attribute as its own convention reads it (MPI-1: the INTEGER view, address kind: the
!   address view), and a reference to the extra state given at creation, held by the library:
!   a change made through it is seen by the next callback of that keyval, and the caller's
!   own variable is left alone;
! - a copy's output is stored as set in the callback's convention; flag .false. leaves the
!   new object without the attribute;
! - the predefined Fortran callbacks (MPI_COMM_DUP_FN ... MPI_NULL_DELETE_FN) behave like
!   their C twins: DUP copies word and tag exactly, NULL_COPY copies nothing, NULL_DELETE
!   succeeds doing nothing;
! - copies run in set order, deletes on free newest-set first, a replaced value counting as
!   newly set (for the copies too, docs/semantics.md), conventions mixed on one object.

! What the user callbacks saw, in call order, and what they do.
module usempi_callbacks_cb
  use mpi
  use checks
  implicit none
  integer, parameter :: OP_COPY = 1, OP_DEL = 2
  integer, parameter :: K_COMM = 1, K_TYPE = 2, K_WIN = 3
  integer, parameter :: LOGN = 200
  integer :: nlog = 0
  integer :: log_op(LOGN), log_kind(LOGN), log_obj(LOGN), log_kv(LOGN)
  integer(kind=MPI_ADDRESS_KIND) :: log_val(LOGN), log_extra(LOGN)
  ! keyvals whose user copy callback answers flag = .false.
  integer :: nnoflag = 0
  integer :: noflag(16)
  ! extra state given at creation, per keyval, from log entry reg_from on
  integer :: nreg = 0
  integer :: reg_kv(64), reg_from(64)
  integer(kind=MPI_ADDRESS_KIND) :: reg_extra(64)
contains
  subroutine record(op, kind, obj, kv, val, extra)
    integer, intent(in) :: op, kind, obj, kv
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: val, extra
    nlog = nlog + 1
    if (nlog > LOGN) then
      call fail('callback log overflow')
      stop 1
    end if
    log_op(nlog) = op
    log_kind(nlog) = kind
    log_obj(nlog) = obj
    log_kv(nlog) = kv
    log_val(nlog) = val
    log_extra(nlog) = extra
  end subroutine record

  logical function declines(kv)
    integer, intent(in) :: kv
    integer :: i
    declines = .false.
    do i = 1, nnoflag
      if (noflag(i) == kv) declines = .true.
    end do
  end function declines

  subroutine register(kv, extra)
    integer, intent(in) :: kv
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: extra
    nreg = nreg + 1
    reg_kv(nreg) = kv
    reg_extra(nreg) = extra
    reg_from(nreg) = nlog + 1
  end subroutine register

  ! MPI-1 convention (MPI_KEYVAL_CREATE): out = in - 1000.
  subroutine m1_copy(oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierr)
    integer :: oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, ierr
    logical :: flag
    call record(OP_COPY, K_COMM, oldcomm, keyval, int(attribute_val_in, MPI_ADDRESS_KIND), &
                int(extra_state, MPI_ADDRESS_KIND))
    extra_state = extra_state + 1
    attribute_val_out = attribute_val_in - 1000
    flag = .not. declines(keyval)
    ierr = MPI_SUCCESS
  end subroutine m1_copy

  subroutine m1_del(comm, keyval, attribute_val, extra_state, ierr)
    integer :: comm, keyval, attribute_val, extra_state, ierr
    call record(OP_DEL, K_COMM, comm, keyval, int(attribute_val, MPI_ADDRESS_KIND), &
                int(extra_state, MPI_ADDRESS_KIND))
    extra_state = extra_state + 1
    ierr = MPI_SUCCESS
  end subroutine m1_del

  ! Address-kind convention: out = 2 * in.
  subroutine a_comm_copy(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    integer :: oldcomm, comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    call record(OP_COPY, K_COMM, oldcomm, comm_keyval, attribute_val_in, extra_state)
    extra_state = extra_state + 1
    attribute_val_out = 2 * attribute_val_in
    flag = .not. declines(comm_keyval)
    ierror = MPI_SUCCESS
  end subroutine a_comm_copy

  subroutine a_comm_del(comm, comm_keyval, attribute_val, extra_state, ierror)
    integer :: comm, comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call record(OP_DEL, K_COMM, comm, comm_keyval, attribute_val, extra_state)
    extra_state = extra_state + 1
    ierror = MPI_SUCCESS
  end subroutine a_comm_del

  subroutine a_type_copy(oldtype, type_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    integer :: oldtype, type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    call record(OP_COPY, K_TYPE, oldtype, type_keyval, attribute_val_in, extra_state)
    extra_state = extra_state + 1
    attribute_val_out = 2 * attribute_val_in
    flag = .not. declines(type_keyval)
    ierror = MPI_SUCCESS
  end subroutine a_type_copy

  subroutine a_type_del(datatype, type_keyval, attribute_val, extra_state, ierror)
    integer :: datatype, type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call record(OP_DEL, K_TYPE, datatype, type_keyval, attribute_val, extra_state)
    extra_state = extra_state + 1
    ierror = MPI_SUCCESS
  end subroutine a_type_del

  subroutine a_win_copy(oldwin, win_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    integer :: oldwin, win_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    call record(OP_COPY, K_WIN, oldwin, win_keyval, attribute_val_in, extra_state)
    extra_state = extra_state + 1
    attribute_val_out = attribute_val_in
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine a_win_copy

  subroutine a_win_del(win, win_keyval, attribute_val, extra_state, ierror)
    integer :: win, win_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call record(OP_DEL, K_WIN, win, win_keyval, attribute_val, extra_state)
    extra_state = extra_state + 1
    ierror = MPI_SUCCESS
  end subroutine a_win_del

  function opname(op) result(s)
    integer, intent(in) :: op
    character(len=6) :: s
    if (op == OP_COPY) then
      s = 'copy'
    else
      s = 'delete'
    end if
  end function opname

  ! The callbacks logged from entry `first` on are exactly ops/objs/kvs/vals, in that order.
  subroutine expect_log(what, first, kind, ops, objs, kvs, vals)
    character(len=*), intent(in) :: what
    integer, intent(in) :: first, kind
    integer, intent(in) :: ops(:), objs(:), kvs(:)
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: vals(:)
    integer :: i, j, n
    n = nlog - first + 1
    call check_int(what // ': number of callbacks', n, size(ops))
    do i = 1, min(n, size(ops))
      j = first + i - 1
      call check_int(what // ': callback #' // istr(i) // ' was a copy (1) or delete (2)', log_op(j), ops(i))
      call check_int(what // ': callback #' // istr(i) // ' object kind (1 comm, 2 type, 3 win)', log_kind(j), kind)
      call check_int(what // ': ' // trim(opname(ops(i))) // ' callback #' // istr(i) // ' keyval', log_kv(j), kvs(i))
      call check_int(what // ': ' // trim(opname(ops(i))) // ' callback #' // istr(i) // ' handle', log_obj(j), objs(i))
      call check_addr(what // ': ' // trim(opname(ops(i))) // ' callback #' // istr(i) // ' attribute value', &
                      log_val(j), vals(i))
    end do
  end subroutine expect_log

  ! Every callback saw the extra state given at creation plus one per earlier callback of its
  ! keyval (each callback adds one through its reference).
  subroutine check_extras()
    integer :: i, j, r, prior
    do i = 1, nlog
      r = 0
      do j = 1, nreg
        if (reg_kv(j) == log_kv(i) .and. reg_from(j) <= i) r = j
      end do
      if (r == 0) then
        call fail('callback #' // istr(i) // ' (' // trim(opname(log_op(i))) // ') for unknown keyval ' // &
                  istr(log_kv(i)))
        cycle
      end if
      prior = 0
      do j = reg_from(r), i - 1
        if (log_kv(j) == log_kv(i)) prior = prior + 1
      end do
      call check_addr('extra_state seen by callback #' // istr(i) // ' (' // trim(opname(log_op(i))) // &
                      ', keyval ' // istr(log_kv(i)) // ', ' // istr(prior) // ' earlier callback(s) of that keyval)', &
                      log_extra(i), reg_extra(r) + prior)
    end do
  end subroutine check_extras
end module usempi_callbacks_cb

program usempi_callbacks
  use mpi
  use checks
  use usempi_callbacks_cb
  implicit none
  integer :: ierr, c, d, d_saved, c_saved, t, t_saved, t2, t2_saved, w, w_saved, mark, ival
  integer :: k_m1, k_m1_noflag, ex_m1, ex_m1b
  integer :: k_a, k_a_noflag, k_a3, k_a3_saved
  integer :: k_t, k_t_noflag, k_w, k_w2
  integer :: kd, kdp, kn, kd1, kd1b, kn1, ktd, ktn, kwd, kwn, kwnd
  integer :: o(4)
  integer :: size1, size2
  integer(kind=MPI_ADDRESS_KIND) :: big, aval, ex_a, ex_a2, ex_a3, ex_t, ex_t2, ex_w, ex_w2, ex_wnd, zero, ex_o(4)
  logical :: flag
  double precision, target :: wbuf(4)

  test_name = 'usempi_callbacks'
  max_error_string = MPI_MAX_ERROR_STRING
  big = 2_MPI_ADDRESS_KIND**40 + 5
  zero = 0
  wbuf = 0.0d0
  call MPI_INIT(ierr)
  call check_ok('MPI_INIT', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD)', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF)', ierr)

  ! ---- 1. MPI-1 convention: INTEGER extra state, INTEGER view of the values ----
  ex_m1 = 500
  call MPI_KEYVAL_CREATE(m1_copy, m1_del, k_m1, ex_m1, ierr)
  call check_ok('MPI_KEYVAL_CREATE', ierr)
  call register(k_m1, 500_MPI_ADDRESS_KIND)
  ex_m1b = 700
  call MPI_KEYVAL_CREATE(m1_copy, m1_del, k_m1_noflag, ex_m1b, ierr)
  call check_ok('MPI_KEYVAL_CREATE', ierr)
  call register(k_m1_noflag, 700_MPI_ADDRESS_KIND)
  nnoflag = nnoflag + 1
  noflag(nnoflag) = k_m1_noflag
  call check_logical('two MPI-1 keyvals differ', k_m1 /= k_m1_noflag, .true.)

  call MPI_COMM_DUP(MPI_COMM_WORLD, c, ierr)
  call check_ok('MPI_COMM_DUP', ierr)
  call MPI_ATTR_PUT(c, k_m1, -7, ierr)
  call check_ok('MPI_ATTR_PUT', ierr)
  call MPI_COMM_SET_ATTR(c, k_m1_noflag, big, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)
  mark = nlog + 1
  call MPI_COMM_DUP(c, d, ierr)
  call check_ok('MPI_COMM_DUP (MPI-1 copy callbacks)', ierr)
  call expect_log('MPI-1 copy on MPI_COMM_DUP', mark, K_COMM, [OP_COPY, OP_COPY], [c, c], &
                  [k_m1, k_m1_noflag], [-7_MPI_ADDRESS_KIND, int(low_bits(big), MPI_ADDRESS_KIND)])
  ! the MPI-1 copy's output (INTEGER, -1007) is stored as a Fortran INTEGER: sign-extended
  aval = 0
  flag = .false.
  call MPI_COMM_GET_ATTR(d, k_m1, aval, flag, ierr)
  call check_ok('MPI_COMM_GET_ATTR', ierr)
  call check_logical('MPI-1 copy with flag .true.: new comm has the attribute', flag, .true.)
  call check_addr('MPI_COMM_GET_ATTR of the MPI-1 copy output -7-1000', aval, -1007_MPI_ADDRESS_KIND)
  ival = 0
  call MPI_ATTR_GET(d, k_m1, ival, flag, ierr)
  call check_ok('MPI_ATTR_GET', ierr)
  call check_int('MPI_ATTR_GET of the MPI-1 copy output', ival, -1007)
  flag = .true.
  call MPI_COMM_GET_ATTR(d, k_m1_noflag, aval, flag, ierr)
  call check_ok('MPI_COMM_GET_ATTR', ierr)
  call check_logical('MPI-1 copy with flag .false.: new comm lacks the attribute', flag, .false.)
  ! the source is unchanged
  call MPI_COMM_GET_ATTR(c, k_m1_noflag, aval, flag, ierr)
  call check_ok('MPI_COMM_GET_ATTR', ierr)
  call check_logical('source keeps its attribute after the dup', flag, .true.)
  call check_addr('source value after the dup (MPI_COMM_GET_ATTR)', aval, big)
  call MPI_ATTR_GET(c, k_m1, ival, flag, ierr)
  call check_ok('MPI_ATTR_GET', ierr)
  call check_int('source value after the dup (MPI_ATTR_GET)', ival, -7)

  d_saved = d
  mark = nlog + 1
  call MPI_COMM_FREE(d, ierr)
  call check_ok('MPI_COMM_FREE', ierr)
  call check_int('MPI_COMM_FREE sets the handle to MPI_COMM_NULL', d, MPI_COMM_NULL)
  call expect_log('MPI-1 delete on MPI_COMM_FREE', mark, K_COMM, [OP_DEL], [d_saved], [k_m1], &
                  [-1007_MPI_ADDRESS_KIND])
  mark = nlog + 1
  call MPI_ATTR_DELETE(c, k_m1, ierr)
  call check_ok('MPI_ATTR_DELETE', ierr)
  call expect_log('MPI-1 delete on MPI_ATTR_DELETE', mark, K_COMM, [OP_DEL], [c], [k_m1], [-7_MPI_ADDRESS_KIND])
  c_saved = c
  mark = nlog + 1
  call MPI_COMM_FREE(c, ierr)
  call check_ok('MPI_COMM_FREE', ierr)
  call expect_log('MPI-1 delete (INTEGER view of 2**40+5) on MPI_COMM_FREE', mark, K_COMM, [OP_DEL], &
                  [c_saved], [k_m1_noflag], [int(low_bits(big), MPI_ADDRESS_KIND)])
  call check_int('caller''s MPI-1 extra_state variable is not the library''s copy', ex_m1, 500)
  call check_int('caller''s MPI-1 extra_state variable is not the library''s copy', ex_m1b, 700)

  ! ---- 2. address-kind convention on communicators ----
  ex_a = 2_MPI_ADDRESS_KIND**40 + 100
  call MPI_COMM_CREATE_KEYVAL(a_comm_copy, a_comm_del, k_a, ex_a, ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call register(k_a, ex_a)
  ex_a2 = 2_MPI_ADDRESS_KIND**40 + 200
  call MPI_COMM_CREATE_KEYVAL(a_comm_copy, a_comm_del, k_a_noflag, ex_a2, ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call register(k_a_noflag, ex_a2)
  nnoflag = nnoflag + 1
  noflag(nnoflag) = k_a_noflag
  ex_a3 = -(2_MPI_ADDRESS_KIND**40) - 300
  call MPI_COMM_CREATE_KEYVAL(a_comm_copy, a_comm_del, k_a3, ex_a3, ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call register(k_a3, ex_a3)

  call MPI_COMM_DUP(MPI_COMM_WORLD, c, ierr)
  call check_ok('MPI_COMM_DUP', ierr)
  call MPI_ATTR_PUT(c, k_a, -7, ierr)
  call check_ok('MPI_ATTR_PUT', ierr)
  call MPI_COMM_SET_ATTR(c, k_a_noflag, big, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)
  call MPI_COMM_SET_ATTR(c, k_a3, big, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)
  mark = nlog + 1
  call MPI_COMM_DUP(c, d, ierr)
  call check_ok('MPI_COMM_DUP (address-kind copy callbacks)', ierr)
  call expect_log('address-kind copy on MPI_COMM_DUP', mark, K_COMM, [OP_COPY, OP_COPY, OP_COPY], [c, c, c], &
                  [k_a, k_a_noflag, k_a3], [-7_MPI_ADDRESS_KIND, big, big])
  call MPI_COMM_GET_ATTR(d, k_a, aval, flag, ierr)
  call check_ok('MPI_COMM_GET_ATTR', ierr)
  call check_logical('address-kind copy with flag .true.: new comm has the attribute', flag, .true.)
  call check_addr('MPI_COMM_GET_ATTR of the copy output 2*(-7)', aval, -14_MPI_ADDRESS_KIND)
  call MPI_ATTR_GET(d, k_a, ival, flag, ierr)
  call check_ok('MPI_ATTR_GET', ierr)
  call check_int('MPI_ATTR_GET of the copy output 2*(-7)', ival, -14)
  call MPI_COMM_GET_ATTR(d, k_a3, aval, flag, ierr)
  call check_ok('MPI_COMM_GET_ATTR', ierr)
  call check_logical('address-kind copy with flag .true.: new comm has the attribute', flag, .true.)
  call check_addr('MPI_COMM_GET_ATTR of the copy output 2*(2**40+5), stored as an address', aval, 2 * big)
  call MPI_ATTR_GET(d, k_a3, ival, flag, ierr)
  call check_ok('MPI_ATTR_GET', ierr)
  call check_int('MPI_ATTR_GET of the copy output 2*(2**40+5): its low bits', ival, low_bits(2 * big))
  flag = .true.
  call MPI_COMM_GET_ATTR(d, k_a_noflag, aval, flag, ierr)
  call check_ok('MPI_COMM_GET_ATTR', ierr)
  call check_logical('address-kind copy with flag .false.: new comm lacks the attribute', flag, .false.)

  d_saved = d
  mark = nlog + 1
  call MPI_COMM_FREE(d, ierr)
  call check_ok('MPI_COMM_FREE', ierr)
  call expect_log('address-kind deletes on MPI_COMM_FREE of the dup (newest copy first)', mark, K_COMM, &
                  [OP_DEL, OP_DEL], [d_saved, d_saved], [k_a3, k_a], [2 * big, -14_MPI_ADDRESS_KIND])
  mark = nlog + 1
  call MPI_COMM_DELETE_ATTR(c, k_a, ierr)
  call check_ok('MPI_COMM_DELETE_ATTR', ierr)
  call expect_log('address-kind delete on MPI_COMM_DELETE_ATTR', mark, K_COMM, [OP_DEL], [c], [k_a], &
                  [-7_MPI_ADDRESS_KIND])
  ! a keyval freed while in use: its delete callback still runs when the comm goes
  k_a3_saved = k_a3
  call MPI_COMM_FREE_KEYVAL(k_a3, ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL (keyval still in use)', ierr)
  call check_int('MPI_COMM_FREE_KEYVAL sets the keyval to MPI_KEYVAL_INVALID', k_a3, MPI_KEYVAL_INVALID)
  c_saved = c
  mark = nlog + 1
  call MPI_COMM_FREE(c, ierr)
  call check_ok('MPI_COMM_FREE', ierr)
  call expect_log('address-kind deletes on MPI_COMM_FREE (newest first)', mark, K_COMM, [OP_DEL, OP_DEL], &
                  [c_saved, c_saved], [k_a3_saved, k_a_noflag], [big, big])
  call check_addr('caller''s extra_state variable is not the library''s copy', ex_a, 2_MPI_ADDRESS_KIND**40 + 100)
  call check_addr('caller''s extra_state variable is not the library''s copy', ex_a3, -(2_MPI_ADDRESS_KIND**40) - 300)

  ! ---- 3. datatypes: MPI_TYPE_CREATE_KEYVAL with MPI_TYPE_DUP ----
  call MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER, t, ierr)
  call check_ok('MPI_TYPE_CONTIGUOUS', ierr)
  call MPI_TYPE_COMMIT(t, ierr)
  call check_ok('MPI_TYPE_COMMIT', ierr)
  ex_t = 2_MPI_ADDRESS_KIND**40 + 400
  call MPI_TYPE_CREATE_KEYVAL(a_type_copy, a_type_del, k_t, ex_t, ierr)
  call check_ok('MPI_TYPE_CREATE_KEYVAL', ierr)
  call register(k_t, ex_t)
  ex_t2 = 450
  call MPI_TYPE_CREATE_KEYVAL(a_type_copy, a_type_del, k_t_noflag, ex_t2, ierr)
  call check_ok('MPI_TYPE_CREATE_KEYVAL', ierr)
  call register(k_t_noflag, ex_t2)
  nnoflag = nnoflag + 1
  noflag(nnoflag) = k_t_noflag
  call MPI_TYPE_SET_ATTR(t, k_t, big, ierr)
  call check_ok('MPI_TYPE_SET_ATTR', ierr)
  call MPI_TYPE_SET_ATTR(t, k_t_noflag, 42_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_TYPE_SET_ATTR', ierr)
  mark = nlog + 1
  call MPI_TYPE_DUP(t, t2, ierr)
  call check_ok('MPI_TYPE_DUP', ierr)
  call expect_log('address-kind copy on MPI_TYPE_DUP', mark, K_TYPE, [OP_COPY, OP_COPY], [t, t], &
                  [k_t, k_t_noflag], [big, 42_MPI_ADDRESS_KIND])
  size1 = -1
  size2 = -2
  call MPI_TYPE_SIZE(t, size1, ierr)
  call check_ok('MPI_TYPE_SIZE', ierr)
  call MPI_TYPE_SIZE(t2, size2, ierr)
  call check_ok('MPI_TYPE_SIZE', ierr)
  call check_int('MPI_TYPE_SIZE of the dup', size2, size1)
  call MPI_TYPE_GET_ATTR(t2, k_t, aval, flag, ierr)
  call check_ok('MPI_TYPE_GET_ATTR', ierr)
  call check_logical('type copy with flag .true.: new type has the attribute', flag, .true.)
  call check_addr('MPI_TYPE_GET_ATTR of the copy output 2*(2**40+5)', aval, 2 * big)
  flag = .true.
  call MPI_TYPE_GET_ATTR(t2, k_t_noflag, aval, flag, ierr)
  call check_ok('MPI_TYPE_GET_ATTR', ierr)
  call check_logical('type copy with flag .false.: new type lacks the attribute', flag, .false.)
  t2_saved = t2
  mark = nlog + 1
  call MPI_TYPE_FREE(t2, ierr)
  call check_ok('MPI_TYPE_FREE', ierr)
  call check_int('MPI_TYPE_FREE sets the handle to MPI_DATATYPE_NULL', t2, MPI_DATATYPE_NULL)
  call expect_log('type delete on MPI_TYPE_FREE of the dup', mark, K_TYPE, [OP_DEL], [t2_saved], [k_t], [2 * big])
  t_saved = t
  mark = nlog + 1
  call MPI_TYPE_FREE(t, ierr)
  call check_ok('MPI_TYPE_FREE', ierr)
  call expect_log('type deletes on MPI_TYPE_FREE (newest first)', mark, K_TYPE, [OP_DEL, OP_DEL], &
                  [t_saved, t_saved], [k_t_noflag, k_t], [42_MPI_ADDRESS_KIND, big])

  ! ---- 4. windows: MPI_WIN_CREATE_KEYVAL, deletes on delete_attr, on replace, on free ----
  call MPI_WIN_CREATE(wbuf, int(8 * size(wbuf), MPI_ADDRESS_KIND), 8, MPI_INFO_NULL, MPI_COMM_WORLD, w, ierr)
  call check_ok('MPI_WIN_CREATE', ierr)
  call MPI_WIN_SET_ERRHANDLER(w, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_WIN_SET_ERRHANDLER', ierr)
  ex_w = -(2_MPI_ADDRESS_KIND**40) - 500
  call MPI_WIN_CREATE_KEYVAL(a_win_copy, a_win_del, k_w, ex_w, ierr)
  call check_ok('MPI_WIN_CREATE_KEYVAL', ierr)
  call register(k_w, ex_w)
  ex_w2 = 2_MPI_ADDRESS_KIND**40 + 550
  call MPI_WIN_CREATE_KEYVAL(a_win_copy, a_win_del, k_w2, ex_w2, ierr)
  call check_ok('MPI_WIN_CREATE_KEYVAL', ierr)
  call register(k_w2, ex_w2)
  call MPI_WIN_SET_ATTR(w, k_w, big, ierr)
  call check_ok('MPI_WIN_SET_ATTR', ierr)
  call MPI_WIN_SET_ATTR(w, k_w2, -5_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_WIN_SET_ATTR', ierr)
  mark = nlog + 1
  call MPI_WIN_DELETE_ATTR(w, k_w2, ierr)
  call check_ok('MPI_WIN_DELETE_ATTR', ierr)
  call expect_log('win delete on MPI_WIN_DELETE_ATTR', mark, K_WIN, [OP_DEL], [w], [k_w2], [-5_MPI_ADDRESS_KIND])
  mark = nlog + 1
  call MPI_WIN_SET_ATTR(w, k_w, 77_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_WIN_SET_ATTR over a value', ierr)
  call expect_log('win delete of the old value on MPI_WIN_SET_ATTR over it', mark, K_WIN, [OP_DEL], [w], [k_w], [big])
  call MPI_WIN_GET_ATTR(w, k_w, aval, flag, ierr)
  call check_ok('MPI_WIN_GET_ATTR', ierr)
  call check_logical('MPI_WIN_GET_ATTR flag after the replace', flag, .true.)
  call check_addr('MPI_WIN_GET_ATTR after the replace', aval, 77_MPI_ADDRESS_KIND)
  w_saved = w
  mark = nlog + 1
  call MPI_WIN_FREE(w, ierr)
  call check_ok('MPI_WIN_FREE', ierr)
  call check_int('MPI_WIN_FREE sets the handle to MPI_WIN_NULL', w, MPI_WIN_NULL)
  call expect_log('win delete on MPI_WIN_FREE', mark, K_WIN, [OP_DEL], [w_saved], [k_w], [77_MPI_ADDRESS_KIND])
  call check_addr('caller''s win extra_state variable is not the library''s copy', ex_w, &
                  -(2_MPI_ADDRESS_KIND**40) - 500)

  ! every user callback so far saw the extra state of its keyval, as changed by the earlier ones
  call check_extras()

  ! ---- 5. the predefined Fortran callbacks ----
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kd, zero, ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN)', ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kdp, zero, ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN)', ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kn, zero, ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN)', ierr)
  call MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN, kd1, 0, ierr)
  call check_ok('MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN)', ierr)
  call MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN, kd1b, 0, ierr)
  call check_ok('MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN)', ierr)
  call MPI_KEYVAL_CREATE(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, kn1, 0, ierr)
  call check_ok('MPI_KEYVAL_CREATE(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN)', ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, c, ierr)
  call check_ok('MPI_COMM_DUP', ierr)
  call MPI_COMM_SET_ATTR(c, kd, big, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)
  call MPI_ATTR_PUT(c, kdp, -7, ierr)
  call check_ok('MPI_ATTR_PUT', ierr)
  call MPI_COMM_SET_ATTR(c, kn, 5_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)
  call MPI_COMM_SET_ATTR(c, kd1, big, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)
  call MPI_ATTR_PUT(c, kd1b, -7, ierr)
  call check_ok('MPI_ATTR_PUT', ierr)
  call MPI_ATTR_PUT(c, kn1, 6, ierr)
  call check_ok('MPI_ATTR_PUT', ierr)
  mark = nlog + 1
  call MPI_COMM_DUP(c, d, ierr)
  call check_ok('MPI_COMM_DUP (predefined callbacks)', ierr)
  call check_int('user callbacks run by a dup with only predefined callbacks', nlog - mark + 1, 0)
  call MPI_COMM_GET_ATTR(d, kd, aval, flag, ierr)
  call check_ok('MPI_COMM_GET_ATTR', ierr)
  call check_logical('MPI_COMM_DUP_FN copies the attribute', flag, .true.)
  call check_addr('MPI_COMM_DUP_FN copy of 2**40+5 (MPI_COMM_GET_ATTR)', aval, big)
  call MPI_ATTR_GET(d, kd, ival, flag, ierr)
  call check_ok('MPI_ATTR_GET', ierr)
  call check_int('MPI_COMM_DUP_FN copy of 2**40+5 (MPI_ATTR_GET: low bits)', ival, low_bits(big))
  call MPI_COMM_GET_ATTR(d, kdp, aval, flag, ierr)
  call check_ok('MPI_COMM_GET_ATTR', ierr)
  call check_logical('MPI_COMM_DUP_FN copies an MPI_ATTR_PUT value', flag, .true.)
  call check_addr('MPI_COMM_DUP_FN copy of MPI_ATTR_PUT -7 (MPI_COMM_GET_ATTR)', aval, -7_MPI_ADDRESS_KIND)
  call MPI_ATTR_GET(d, kdp, ival, flag, ierr)
  call check_ok('MPI_ATTR_GET', ierr)
  call check_int('MPI_COMM_DUP_FN copy of MPI_ATTR_PUT -7 (MPI_ATTR_GET)', ival, -7)
  call MPI_COMM_GET_ATTR(d, kd1, aval, flag, ierr)
  call check_ok('MPI_COMM_GET_ATTR', ierr)
  call check_logical('MPI_DUP_FN copies the attribute', flag, .true.)
  call check_addr('MPI_DUP_FN copy of an address-kind 2**40+5: word and tag copied exactly', aval, big)
  call MPI_ATTR_GET(d, kd1, ival, flag, ierr)
  call check_ok('MPI_ATTR_GET', ierr)
  call check_int('MPI_DUP_FN copy of 2**40+5 (MPI_ATTR_GET: low bits)', ival, low_bits(big))
  call MPI_COMM_GET_ATTR(d, kd1b, aval, flag, ierr)
  call check_ok('MPI_COMM_GET_ATTR', ierr)
  call check_logical('MPI_DUP_FN copies an MPI_ATTR_PUT value', flag, .true.)
  call check_addr('MPI_DUP_FN copy of MPI_ATTR_PUT -7 (MPI_COMM_GET_ATTR)', aval, -7_MPI_ADDRESS_KIND)
  flag = .true.
  call MPI_COMM_GET_ATTR(d, kn, aval, flag, ierr)
  call check_ok('MPI_COMM_GET_ATTR', ierr)
  call check_logical('MPI_COMM_NULL_COPY_FN: the dup lacks the attribute', flag, .false.)
  flag = .true.
  call MPI_ATTR_GET(d, kn1, ival, flag, ierr)
  call check_ok('MPI_ATTR_GET', ierr)
  call check_logical('MPI_NULL_COPY_FN: the dup lacks the attribute', flag, .false.)
  call MPI_COMM_DELETE_ATTR(d, kd, ierr)
  call check_ok('MPI_COMM_DELETE_ATTR with MPI_COMM_NULL_DELETE_FN', ierr)
  flag = .true.
  call MPI_COMM_GET_ATTR(d, kd, aval, flag, ierr)
  call check_ok('MPI_COMM_GET_ATTR', ierr)
  call check_logical('attribute gone after MPI_COMM_DELETE_ATTR', flag, .false.)
  call MPI_ATTR_DELETE(d, kd1, ierr)
  call check_ok('MPI_ATTR_DELETE with MPI_NULL_DELETE_FN', ierr)
  flag = .true.
  call MPI_ATTR_GET(d, kd1, ival, flag, ierr)
  call check_ok('MPI_ATTR_GET', ierr)
  call check_logical('attribute gone after MPI_ATTR_DELETE', flag, .false.)
  ! the source still has every value
  call MPI_COMM_GET_ATTR(c, kn, aval, flag, ierr)
  call check_ok('MPI_COMM_GET_ATTR', ierr)
  call check_logical('source keeps its MPI_COMM_NULL_COPY_FN attribute', flag, .true.)
  call check_addr('source value of the MPI_COMM_NULL_COPY_FN attribute', aval, 5_MPI_ADDRESS_KIND)
  call MPI_COMM_GET_ATTR(c, kd, aval, flag, ierr)
  call check_ok('MPI_COMM_GET_ATTR', ierr)
  call check_addr('source value of the MPI_COMM_DUP_FN attribute after deleting the copy', aval, big)
  call MPI_COMM_FREE(d, ierr)
  call check_ok('MPI_COMM_FREE (predefined delete callbacks)', ierr)
  call MPI_COMM_FREE(c, ierr)
  call check_ok('MPI_COMM_FREE (predefined delete callbacks)', ierr)
  call check_int('user callbacks run by the predefined callbacks', nlog - mark + 1, 0)

  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, ktd, zero, ierr)
  call check_ok('MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN)', ierr)
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, ktn, zero, ierr)
  call check_ok('MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN)', ierr)
  call MPI_TYPE_CONTIGUOUS(3, MPI_DOUBLE_PRECISION, t, ierr)
  call check_ok('MPI_TYPE_CONTIGUOUS', ierr)
  call MPI_TYPE_SET_ATTR(t, ktd, -big, ierr)
  call check_ok('MPI_TYPE_SET_ATTR', ierr)
  call MPI_TYPE_SET_ATTR(t, ktn, 9_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_TYPE_SET_ATTR', ierr)
  call MPI_TYPE_DUP(t, t2, ierr)
  call check_ok('MPI_TYPE_DUP (predefined callbacks)', ierr)
  call MPI_TYPE_GET_ATTR(t2, ktd, aval, flag, ierr)
  call check_ok('MPI_TYPE_GET_ATTR', ierr)
  call check_logical('MPI_TYPE_DUP_FN copies the attribute', flag, .true.)
  call check_addr('MPI_TYPE_DUP_FN copy of -(2**40+5)', aval, -big)
  flag = .true.
  call MPI_TYPE_GET_ATTR(t2, ktn, aval, flag, ierr)
  call check_ok('MPI_TYPE_GET_ATTR', ierr)
  call check_logical('MPI_TYPE_NULL_COPY_FN: the dup lacks the attribute', flag, .false.)
  call MPI_TYPE_DELETE_ATTR(t2, ktd, ierr)
  call check_ok('MPI_TYPE_DELETE_ATTR with MPI_TYPE_NULL_DELETE_FN', ierr)
  call MPI_TYPE_FREE(t2, ierr)
  call check_ok('MPI_TYPE_FREE', ierr)
  call MPI_TYPE_FREE(t, ierr)
  call check_ok('MPI_TYPE_FREE (predefined delete callbacks)', ierr)

  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, kwd, zero, ierr)
  call check_ok('MPI_WIN_CREATE_KEYVAL(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN)', ierr)
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, kwn, zero, ierr)
  call check_ok('MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN)', ierr)
  ex_wnd = 1
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, a_win_del, kwnd, ex_wnd, ierr)
  call check_ok('MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, user delete)', ierr)
  call register(kwnd, ex_wnd)
  call MPI_WIN_CREATE(wbuf, int(8 * size(wbuf), MPI_ADDRESS_KIND), 8, MPI_INFO_NULL, MPI_COMM_WORLD, w, ierr)
  call check_ok('MPI_WIN_CREATE', ierr)
  call MPI_WIN_SET_ERRHANDLER(w, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_WIN_SET_ERRHANDLER', ierr)
  call MPI_WIN_SET_ATTR(w, kwd, big, ierr)
  call check_ok('MPI_WIN_SET_ATTR', ierr)
  call MPI_WIN_SET_ATTR(w, kwn, 3_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_WIN_SET_ATTR', ierr)
  call MPI_WIN_SET_ATTR(w, kwnd, 4_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_WIN_SET_ATTR', ierr)
  call MPI_WIN_GET_ATTR(w, kwd, aval, flag, ierr)
  call check_ok('MPI_WIN_GET_ATTR', ierr)
  call check_addr('MPI_WIN_GET_ATTR of a MPI_WIN_DUP_FN keyval', aval, big)
  call MPI_WIN_DELETE_ATTR(w, kwn, ierr)
  call check_ok('MPI_WIN_DELETE_ATTR with MPI_WIN_NULL_DELETE_FN', ierr)
  w_saved = w
  mark = nlog + 1
  call MPI_WIN_FREE(w, ierr)
  call check_ok('MPI_WIN_FREE (predefined and user delete callbacks)', ierr)
  call expect_log('win delete on MPI_WIN_FREE next to MPI_WIN_NULL_DELETE_FN', mark, K_WIN, [OP_DEL], [w_saved], &
                  [kwnd], [4_MPI_ADDRESS_KIND])

  ! ---- 6. copy order = set order, delete order = newest set first; a replace counts as new ----
  ex_o = [1000_MPI_ADDRESS_KIND, 2000_MPI_ADDRESS_KIND, 3000_MPI_ADDRESS_KIND, 4000_MPI_ADDRESS_KIND]
  ex_m1 = 2000
  call MPI_COMM_CREATE_KEYVAL(a_comm_copy, a_comm_del, o(1), ex_o(1), ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call register(o(1), ex_o(1))
  call MPI_KEYVAL_CREATE(m1_copy, m1_del, o(2), ex_m1, ierr)
  call check_ok('MPI_KEYVAL_CREATE', ierr)
  call register(o(2), ex_o(2))
  call MPI_COMM_CREATE_KEYVAL(a_comm_copy, a_comm_del, o(3), ex_o(3), ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call register(o(3), ex_o(3))
  call MPI_COMM_CREATE_KEYVAL(a_comm_copy, a_comm_del, o(4), ex_o(4), ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call register(o(4), ex_o(4))
  call MPI_COMM_DUP(MPI_COMM_WORLD, c, ierr)
  call check_ok('MPI_COMM_DUP', ierr)
  call MPI_COMM_SET_ATTR(c, o(3), 30_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)
  call MPI_COMM_SET_ATTR(c, o(1), 10_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)
  call MPI_ATTR_PUT(c, o(2), 20, ierr)
  call check_ok('MPI_ATTR_PUT', ierr)
  call MPI_COMM_SET_ATTR(c, o(4), 40_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)
  mark = nlog + 1
  call MPI_COMM_SET_ATTR(c, o(1), 11_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR over a value', ierr)
  call expect_log('delete of the old value on MPI_COMM_SET_ATTR over it', mark, K_COMM, [OP_DEL], [c], [o(1)], &
                  [10_MPI_ADDRESS_KIND])
  mark = nlog + 1
  call MPI_COMM_DUP(c, d, ierr)
  call check_ok('MPI_COMM_DUP', ierr)
  call expect_log('copy order on MPI_COMM_DUP (set order o3 o1 o2 o4, then o1 replaced)', mark, K_COMM, &
                  [OP_COPY, OP_COPY, OP_COPY, OP_COPY], [c, c, c, c], [o(3), o(2), o(4), o(1)], &
                  [30_MPI_ADDRESS_KIND, 20_MPI_ADDRESS_KIND, 40_MPI_ADDRESS_KIND, 11_MPI_ADDRESS_KIND])
  d_saved = d
  mark = nlog + 1
  call MPI_COMM_FREE(d, ierr)
  call check_ok('MPI_COMM_FREE', ierr)
  call expect_log('delete order on MPI_COMM_FREE of the dup (reverse copy order)', mark, K_COMM, &
                  [OP_DEL, OP_DEL, OP_DEL, OP_DEL], [d_saved, d_saved, d_saved, d_saved], [o(1), o(4), o(2), o(3)], &
                  [22_MPI_ADDRESS_KIND, 80_MPI_ADDRESS_KIND, -980_MPI_ADDRESS_KIND, 60_MPI_ADDRESS_KIND])
  c_saved = c
  mark = nlog + 1
  call MPI_COMM_FREE(c, ierr)
  call check_ok('MPI_COMM_FREE', ierr)
  call expect_log('delete order on MPI_COMM_FREE (newest set first, the replaced o1 newest)', mark, K_COMM, &
                  [OP_DEL, OP_DEL, OP_DEL, OP_DEL], [c_saved, c_saved, c_saved, c_saved], [o(1), o(4), o(2), o(3)], &
                  [11_MPI_ADDRESS_KIND, 40_MPI_ADDRESS_KIND, 20_MPI_ADDRESS_KIND, 30_MPI_ADDRESS_KIND])

  call check_extras()

  ! ---- keyvals go ----
  call MPI_KEYVAL_FREE(k_m1, ierr)
  call check_ok('MPI_KEYVAL_FREE', ierr)
  call check_int('MPI_KEYVAL_FREE sets the keyval to MPI_KEYVAL_INVALID', k_m1, MPI_KEYVAL_INVALID)
  call MPI_KEYVAL_FREE(k_m1_noflag, ierr)
  call check_ok('MPI_KEYVAL_FREE', ierr)
  call MPI_COMM_FREE_KEYVAL(k_a, ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  call check_int('MPI_COMM_FREE_KEYVAL sets the keyval to MPI_KEYVAL_INVALID', k_a, MPI_KEYVAL_INVALID)
  call MPI_COMM_FREE_KEYVAL(k_a_noflag, ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  call MPI_TYPE_FREE_KEYVAL(k_t, ierr)
  call check_ok('MPI_TYPE_FREE_KEYVAL', ierr)
  call check_int('MPI_TYPE_FREE_KEYVAL sets the keyval to MPI_KEYVAL_INVALID', k_t, MPI_KEYVAL_INVALID)
  call MPI_TYPE_FREE_KEYVAL(k_t_noflag, ierr)
  call check_ok('MPI_TYPE_FREE_KEYVAL', ierr)
  call MPI_WIN_FREE_KEYVAL(k_w, ierr)
  call check_ok('MPI_WIN_FREE_KEYVAL', ierr)
  call check_int('MPI_WIN_FREE_KEYVAL sets the keyval to MPI_KEYVAL_INVALID', k_w, MPI_KEYVAL_INVALID)
  call MPI_WIN_FREE_KEYVAL(k_w2, ierr)
  call check_ok('MPI_WIN_FREE_KEYVAL', ierr)
  call MPI_COMM_FREE_KEYVAL(kd, ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  call MPI_COMM_FREE_KEYVAL(kdp, ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  call MPI_COMM_FREE_KEYVAL(kn, ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  call MPI_KEYVAL_FREE(kd1, ierr)
  call check_ok('MPI_KEYVAL_FREE', ierr)
  call MPI_KEYVAL_FREE(kd1b, ierr)
  call check_ok('MPI_KEYVAL_FREE', ierr)
  call MPI_KEYVAL_FREE(kn1, ierr)
  call check_ok('MPI_KEYVAL_FREE', ierr)
  call MPI_TYPE_FREE_KEYVAL(ktd, ierr)
  call check_ok('MPI_TYPE_FREE_KEYVAL', ierr)
  call MPI_TYPE_FREE_KEYVAL(ktn, ierr)
  call check_ok('MPI_TYPE_FREE_KEYVAL', ierr)
  call MPI_WIN_FREE_KEYVAL(kwd, ierr)
  call check_ok('MPI_WIN_FREE_KEYVAL', ierr)
  call MPI_WIN_FREE_KEYVAL(kwn, ierr)
  call check_ok('MPI_WIN_FREE_KEYVAL', ierr)
  call MPI_WIN_FREE_KEYVAL(kwnd, ierr)
  call check_ok('MPI_WIN_FREE_KEYVAL', ierr)
  call MPI_COMM_FREE_KEYVAL(o(1), ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  call MPI_KEYVAL_FREE(o(2), ierr)
  call check_ok('MPI_KEYVAL_FREE', ierr)
  call MPI_COMM_FREE_KEYVAL(o(3), ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  call MPI_COMM_FREE_KEYVAL(o(4), ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL', ierr)

  ! no window copy callback can ever run (windows are never duplicated)
  mark = 0
  do ival = 1, nlog
    if (log_kind(ival) == K_WIN .and. log_op(ival) == OP_COPY) mark = mark + 1
  end do
  call check_int('window copy callbacks run', mark, 0)

  call MPI_FINALIZE(ierr)
  call check_ok('MPI_FINALIZE', ierr)
  call finish()
end program usempi_callbacks
