! Errors through `use mpi` with MPI_ERRORS_RETURN on MPI_COMM_WORLD and MPI_COMM_SELF
! (attributes.md §4, §5, docs/semantics.md). IERROR carries the class (read with MPI_ERROR_CLASS, and
! MPI_ERROR_STRING gives a non-empty text for it):
! - MPI_ERR_KEYVAL for an invalid keyval (MPI_KEYVAL_INVALID, a number never handed out), a
!   stale one (freed, no attribute left), a wrong-kind one (type keyval on a communicator,
!   communicator keyval on a datatype, window keyval on a communicator), and none of these
!   calls changes anything;
! - a copy callback setting IERROR = MPI_ERR_ARG makes MPI_COMM_DUP fail with MPI_ERR_ARG,
!   newcomm is MPI_COMM_NULL, the attribute already copied is deleted (delete callback on the
!   new communicator, not the source) and the source is unchanged; a callback returning a
!   code that is no MPI error code gives MPI_ERR_OTHER;
! - a failing delete callback: MPI_COMM_DELETE_ATTR fails with its code and the value stays;
!   MPI_COMM_SET_ATTR over that value fails and the old value stays;
! - a failing MPI_COMM_FREE tries every delete callback, keeps the failed value and the
!   communicator (same handle, still usable); a retry once the callback succeeds frees it;
! - MPI_ERR_COMM for MPI_COMM_NULL, for a freed communicator handle, and for the integers
!   mpiattr's numbering would give MPI_COMM_WORLD's and MPI_COMM_SELF's table slots (one
!   handle per predefined object).

module errors_f_cb
  use mpi
  implicit none
  ! IERROR the failing callbacks return (MPI_SUCCESS: they succeed)
  integer :: copy_error = MPI_SUCCESS, delete_error = MPI_SUCCESS
  integer, parameter :: LOGN = 64
  integer :: ncopy = 0, ndel = 0
  integer :: copy_obj(LOGN), copy_kv(LOGN), del_obj(LOGN), del_kv(LOGN)
  integer(kind=MPI_ADDRESS_KIND) :: del_val(LOGN), last_extra = 0
contains
  subroutine log_copy(obj, kv)
    integer, intent(in) :: obj, kv
    ncopy = ncopy + 1
    if (ncopy > LOGN) stop 2
    copy_obj(ncopy) = obj
    copy_kv(ncopy) = kv
  end subroutine log_copy

  subroutine log_del(obj, kv, val)
    integer, intent(in) :: obj, kv
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: val
    ndel = ndel + 1
    if (ndel > LOGN) stop 2
    del_obj(ndel) = obj
    del_kv(ndel) = kv
    del_val(ndel) = val
  end subroutine log_del

  ! Copies: out = in + 1.
  subroutine good_copy(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    integer :: oldcomm, comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    call log_copy(oldcomm, comm_keyval)
    last_extra = extra_state
    attribute_val_out = attribute_val_in + 1
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine good_copy

  ! Fails with copy_error (after writing an output that must be ignored).
  subroutine bad_copy(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    integer :: oldcomm, comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    call log_copy(oldcomm, comm_keyval)
    last_extra = extra_state
    attribute_val_out = attribute_val_in + 1
    flag = .true.
    ierror = copy_error
  end subroutine bad_copy

  subroutine good_del(comm, comm_keyval, attribute_val, extra_state, ierror)
    integer :: comm, comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call log_del(comm, comm_keyval, attribute_val)
    last_extra = extra_state
    ierror = MPI_SUCCESS
  end subroutine good_del

  ! Fails with delete_error.
  subroutine bad_del(comm, comm_keyval, attribute_val, extra_state, ierror)
    integer :: comm, comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call log_del(comm, comm_keyval, attribute_val)
    last_extra = extra_state
    ierror = delete_error
  end subroutine bad_del
end module errors_f_cb

program errors_f
  use mpi
  use checks
  use errors_f_cb
  implicit none
  integer :: ierr, ckv, tkv, wkv, m1kv, stale, kv, c, c2, saved, t, nc, nd, i, rank
  integer :: ka, kb, kd, ke, ival, alias, index_bits
  integer(kind=MPI_ADDRESS_KIND) :: aval, zero
  logical :: flag

  test_name = 'errors_f'
  max_error_string = MPI_MAX_ERROR_STRING
  zero = 0
  call MPI_INIT(ierr)
  call check_ok('MPI_INIT', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD)', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF)', ierr)

  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, ckv, zero, ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, ckv, 77_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)

  ! ---- invalid keyvals ----
  do i = 1, 2
    if (i == 1) then
      kv = MPI_KEYVAL_INVALID
    else
      kv = 123456789
    end if
    call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, kv, aval, flag, ierr)
    call check_class('MPI_COMM_GET_ATTR with invalid keyval ' // istr(kv), ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
    call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, kv, 1_MPI_ADDRESS_KIND, ierr)
    call check_class('MPI_COMM_SET_ATTR with invalid keyval ' // istr(kv), ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
    call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, kv, ierr)
    call check_class('MPI_COMM_DELETE_ATTR with invalid keyval ' // istr(kv), ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
    call MPI_ATTR_GET(MPI_COMM_WORLD, kv, ival, flag, ierr)
    call check_class('MPI_ATTR_GET with invalid keyval ' // istr(kv), ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
    call MPI_ATTR_PUT(MPI_COMM_WORLD, kv, 1, ierr)
    call check_class('MPI_ATTR_PUT with invalid keyval ' // istr(kv), ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
    call MPI_COMM_FREE_KEYVAL(kv, ierr)
    call check_class('MPI_COMM_FREE_KEYVAL with invalid keyval', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  end do

  ! ---- wrong-kind keyvals ----
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, tkv, zero, ierr)
  call check_ok('MPI_TYPE_CREATE_KEYVAL', ierr)
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, wkv, zero, ierr)
  call check_ok('MPI_WIN_CREATE_KEYVAL', ierr)
  call MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN, m1kv, 0, ierr)
  call check_ok('MPI_KEYVAL_CREATE', ierr)
  call MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER, t, ierr)
  call check_ok('MPI_TYPE_CONTIGUOUS', ierr)
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, tkv, 1_MPI_ADDRESS_KIND, ierr)
  call check_class('MPI_COMM_SET_ATTR with a type keyval', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, tkv, aval, flag, ierr)
  call check_class('MPI_COMM_GET_ATTR with a type keyval', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, tkv, ierr)
  call check_class('MPI_COMM_DELETE_ATTR with a type keyval', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_ATTR_PUT(MPI_COMM_WORLD, tkv, 1, ierr)
  call check_class('MPI_ATTR_PUT with a type keyval', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, wkv, aval, flag, ierr)
  call check_class('MPI_COMM_GET_ATTR with a window keyval', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_TYPE_SET_ATTR(t, ckv, 1_MPI_ADDRESS_KIND, ierr)
  call check_class('MPI_TYPE_SET_ATTR with a communicator keyval', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_TYPE_GET_ATTR(t, ckv, aval, flag, ierr)
  call check_class('MPI_TYPE_GET_ATTR with a communicator keyval', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_TYPE_SET_ATTR(t, m1kv, 1_MPI_ADDRESS_KIND, ierr)
  call check_class('MPI_TYPE_SET_ATTR with an MPI_KEYVAL_CREATE keyval', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  kv = tkv
  call MPI_COMM_FREE_KEYVAL(kv, ierr)
  call check_class('MPI_COMM_FREE_KEYVAL of a type keyval', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  kv = ckv
  call MPI_TYPE_FREE_KEYVAL(kv, ierr)
  call check_class('MPI_TYPE_FREE_KEYVAL of a communicator keyval', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  ! nothing changed: every keyval still works for its own kind
  call MPI_TYPE_SET_ATTR(t, tkv, 5_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_TYPE_SET_ATTR with the type keyval after the refused calls', ierr)
  call MPI_TYPE_GET_ATTR(t, tkv, aval, flag, ierr)
  call check_ok('MPI_TYPE_GET_ATTR', ierr)
  call check_addr('type attribute after the refused calls', aval, 5_MPI_ADDRESS_KIND)
  call expect_attr(MPI_COMM_WORLD, ckv, 77_MPI_ADDRESS_KIND, 'MPI_COMM_WORLD attribute after the refused calls')
  call MPI_TYPE_FREE(t, ierr)
  call check_ok('MPI_TYPE_FREE', ierr)
  call MPI_TYPE_FREE_KEYVAL(tkv, ierr)
  call check_ok('MPI_TYPE_FREE_KEYVAL', ierr)
  call MPI_WIN_FREE_KEYVAL(wkv, ierr)
  call check_ok('MPI_WIN_FREE_KEYVAL', ierr)
  call MPI_KEYVAL_FREE(m1kv, ierr)
  call check_ok('MPI_KEYVAL_FREE', ierr)

  ! ---- a failing copy callback ----
  call MPI_COMM_CREATE_KEYVAL(good_copy, good_del, ka, zero, ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call MPI_COMM_CREATE_KEYVAL(bad_copy, good_del, kb, zero, ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, c, ierr)
  call check_ok('MPI_COMM_DUP', ierr)
  call MPI_COMM_SET_ATTR(c, ka, 10_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)
  call MPI_COMM_SET_ATTR(c, kb, 20_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)
  copy_error = MPI_ERR_ARG
  nc = ncopy
  nd = ndel
  c2 = MPI_COMM_WORLD
  call MPI_COMM_DUP(c, c2, ierr)
  call check_class('MPI_COMM_DUP with a copy callback failing with MPI_ERR_ARG', ierr, MPI_ERR_ARG, 'MPI_ERR_ARG')
  call check_int('MPI_COMM_DUP failed: newcomm is MPI_COMM_NULL', c2, MPI_COMM_NULL)
  ! set order: ka's copy ran and succeeded, then kb's failed; the copy of ka is deleted again
  call check_int('copy callbacks run by the failed MPI_COMM_DUP', ncopy - nc, 2)
  if (ncopy - nc == 2) then
    call check_int('first copy callback keyval (set order)', copy_kv(nc + 1), ka)
    call check_int('second copy callback keyval (set order)', copy_kv(nc + 2), kb)
    call check_int('copy callback handle: the source', copy_obj(nc + 1), c)
  end if
  call check_int('delete callbacks run by the failed MPI_COMM_DUP (the copy of ka)', ndel - nd, 1)
  if (ndel - nd == 1) then
    call check_int('rollback delete callback keyval', del_kv(nd + 1), ka)
    call check_addr('rollback delete callback value (the copy 10 + 1)', del_val(nd + 1), 11_MPI_ADDRESS_KIND)
    if (del_obj(nd + 1) == c) call fail('rollback delete callback got the source communicator, expected the new one')
  end if
  ! the source is unchanged
  call expect_attr(c, ka, 10_MPI_ADDRESS_KIND, 'source after the failed MPI_COMM_DUP, ka')
  call expect_attr(c, kb, 20_MPI_ADDRESS_KIND, 'source after the failed MPI_COMM_DUP, kb')
  ! a code that is no MPI error code becomes MPI_ERR_OTHER
  copy_error = 987654
  c2 = MPI_COMM_WORLD
  call MPI_COMM_DUP(c, c2, ierr)
  call check_class('MPI_COMM_DUP with a copy callback returning 987654', ierr, MPI_ERR_OTHER, 'MPI_ERR_OTHER')
  call check_int('MPI_COMM_DUP failed: newcomm is MPI_COMM_NULL', c2, MPI_COMM_NULL)
  ! once the callback succeeds, the same source dups fine
  copy_error = MPI_SUCCESS
  call MPI_COMM_DUP(c, c2, ierr)
  call check_ok('MPI_COMM_DUP once the copy callback succeeds', ierr)
  call expect_attr(c2, ka, 11_MPI_ADDRESS_KIND, 'dup of the source, ka')
  call expect_attr(c2, kb, 21_MPI_ADDRESS_KIND, 'dup of the source, kb')
  call MPI_COMM_FREE(c2, ierr)
  call check_ok('MPI_COMM_FREE', ierr)
  call MPI_COMM_FREE(c, ierr)
  call check_ok('MPI_COMM_FREE', ierr)

  ! ---- a failing delete callback ----
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, bad_del, kd, zero, ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, good_del, ke, zero, ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, c, ierr)
  call check_ok('MPI_COMM_DUP', ierr)
  call MPI_COMM_SET_ATTR(c, ke, 50_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)
  call MPI_COMM_SET_ATTR(c, kd, 5_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)
  delete_error = MPI_ERR_ACCESS
  nd = ndel
  call MPI_COMM_DELETE_ATTR(c, kd, ierr)
  call check_class('MPI_COMM_DELETE_ATTR with a delete callback failing with MPI_ERR_ACCESS', ierr, &
                   MPI_ERR_ACCESS, 'MPI_ERR_ACCESS')
  call check_int('delete callbacks run by the failed MPI_COMM_DELETE_ATTR', ndel - nd, 1)
  call expect_attr(c, kd, 5_MPI_ADDRESS_KIND, 'value after the failed MPI_COMM_DELETE_ATTR')
  call MPI_COMM_SET_ATTR(c, kd, 6_MPI_ADDRESS_KIND, ierr)
  call check_class('MPI_COMM_SET_ATTR over a value whose delete callback fails', ierr, MPI_ERR_ACCESS, 'MPI_ERR_ACCESS')
  call expect_attr(c, kd, 5_MPI_ADDRESS_KIND, 'value after the failed MPI_COMM_SET_ATTR over it')

  ! ---- a failing MPI_COMM_FREE, and its retry ----
  saved = c
  nd = ndel
  call MPI_COMM_FREE(c, ierr)
  call check_class('MPI_COMM_FREE with a delete callback failing with MPI_ERR_ACCESS', ierr, &
                   MPI_ERR_ACCESS, 'MPI_ERR_ACCESS')
  call check_int('failed MPI_COMM_FREE leaves the handle', c, saved)
  ! newest first: kd (fails), then ke (succeeds): both tried
  call check_int('delete callbacks tried by the failed MPI_COMM_FREE', ndel - nd, 2)
  if (ndel - nd == 2) then
    call check_int('failed MPI_COMM_FREE: first delete callback (newest)', del_kv(nd + 1), kd)
    call check_int('failed MPI_COMM_FREE: second delete callback', del_kv(nd + 2), ke)
  end if
  c = saved
  rank = -1
  call MPI_COMM_RANK(c, rank, ierr)
  call check_ok('MPI_COMM_RANK on the communicator whose free failed', ierr)
  call check_int('MPI_COMM_RANK on the communicator whose free failed', rank, 0)
  call expect_attr(c, kd, 5_MPI_ADDRESS_KIND, 'value whose delete failed during MPI_COMM_FREE')
  flag = .true.
  call MPI_COMM_GET_ATTR(c, ke, aval, flag, ierr)
  call check_ok('MPI_COMM_GET_ATTR', ierr)
  call check_logical('value whose delete succeeded during the failed MPI_COMM_FREE is gone', flag, .false.)
  delete_error = MPI_SUCCESS
  nd = ndel
  call MPI_COMM_FREE(c, ierr)
  call check_ok('MPI_COMM_FREE retried once the delete callback succeeds', ierr)
  call check_int('retried MPI_COMM_FREE sets MPI_COMM_NULL', c, MPI_COMM_NULL)
  call check_int('delete callbacks run by the retried MPI_COMM_FREE', ndel - nd, 1)
  if (ndel - nd == 1) then
    call check_int('retried MPI_COMM_FREE: delete callback keyval', del_kv(nd + 1), kd)
    call check_int('retried MPI_COMM_FREE: delete callback handle', del_obj(nd + 1), saved)
    call check_addr('retried MPI_COMM_FREE: delete callback value', del_val(nd + 1), 5_MPI_ADDRESS_KIND)
  end if

  ! ---- MPI_COMM_NULL and a freed communicator: MPI_ERR_COMM ----
  call MPI_COMM_GET_ATTR(MPI_COMM_NULL, MPI_TAG_UB, aval, flag, ierr)
  call check_class('MPI_COMM_GET_ATTR(MPI_COMM_NULL)', ierr, MPI_ERR_COMM, 'MPI_ERR_COMM')
  call MPI_COMM_SET_ATTR(MPI_COMM_NULL, ckv, 1_MPI_ADDRESS_KIND, ierr)
  call check_class('MPI_COMM_SET_ATTR(MPI_COMM_NULL)', ierr, MPI_ERR_COMM, 'MPI_ERR_COMM')
  call MPI_COMM_DELETE_ATTR(MPI_COMM_NULL, ckv, ierr)
  call check_class('MPI_COMM_DELETE_ATTR(MPI_COMM_NULL)', ierr, MPI_ERR_COMM, 'MPI_ERR_COMM')
  call MPI_ATTR_GET(MPI_COMM_NULL, ckv, ival, flag, ierr)
  call check_class('MPI_ATTR_GET(MPI_COMM_NULL)', ierr, MPI_ERR_COMM, 'MPI_ERR_COMM')
  c2 = MPI_COMM_WORLD
  call MPI_COMM_DUP(MPI_COMM_NULL, c2, ierr)
  call check_class('MPI_COMM_DUP(MPI_COMM_NULL)', ierr, MPI_ERR_COMM, 'MPI_ERR_COMM')
  c = MPI_COMM_NULL
  call MPI_COMM_FREE(c, ierr)
  call check_class('MPI_COMM_FREE(MPI_COMM_NULL)', ierr, MPI_ERR_COMM, 'MPI_ERR_COMM')

  ! ---- the integers mpiattr's numbering gives the table slots of MPI_COMM_WORLD (index 0)
  ! and MPI_COMM_SELF (index 1): 1 << (B + 4) | index << 4 | 1, B = 22 index bits for 4-byte
  ! INTEGERs (67108865 and 67108881), 32 for 8-byte ones. They are no handles: MPI_ERR_COMM.
  index_bits = merge(32, 22, bit_size(index_bits) == 64)
  do i = 0, 1
    alias = ior(ior(ishft(1, index_bits + 4), ishft(i, 4)), 1)
    call MPI_COMM_GET_ATTR(alias, MPI_TAG_UB, aval, flag, ierr)
    call check_class('MPI_COMM_GET_ATTR(' // istr(alias) // ')', ierr, MPI_ERR_COMM, 'MPI_ERR_COMM')
    call MPI_COMM_COMPARE(alias, MPI_COMM_WORLD, ival, ierr)
    call check_class('MPI_COMM_COMPARE(' // istr(alias) // ', MPI_COMM_WORLD)', ierr, MPI_ERR_COMM, &
                     'MPI_ERR_COMM')
    call MPI_COMM_SET_ATTR(alias, ckv, 1_MPI_ADDRESS_KIND, ierr)
    call check_class('MPI_COMM_SET_ATTR(' // istr(alias) // ')', ierr, MPI_ERR_COMM, 'MPI_ERR_COMM')
    c = alias
    call MPI_COMM_FREE(c, ierr)
    call check_class('MPI_COMM_FREE(' // istr(alias) // ')', ierr, MPI_ERR_COMM, 'MPI_ERR_COMM')
    call check_int('a failed MPI_COMM_FREE keeps its argument', c, alias)
  end do

  ! ---- a stale keyval: freed, nothing uses it ----
  call MPI_COMM_CREATE_KEYVAL(good_copy, good_del, kv, zero, ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  stale = kv
  nd = ndel
  call MPI_COMM_FREE_KEYVAL(kv, ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  call check_int('MPI_COMM_FREE_KEYVAL sets MPI_KEYVAL_INVALID', kv, MPI_KEYVAL_INVALID)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, stale, aval, flag, ierr)
  call check_class('MPI_COMM_GET_ATTR with a freed keyval', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, stale, 1_MPI_ADDRESS_KIND, ierr)
  call check_class('MPI_COMM_SET_ATTR with a freed keyval', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, stale, ierr)
  call check_class('MPI_COMM_DELETE_ATTR with a freed keyval', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call MPI_ATTR_GET(MPI_COMM_WORLD, stale, ival, flag, ierr)
  call check_class('MPI_ATTR_GET with a freed keyval', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  kv = stale
  call MPI_COMM_FREE_KEYVAL(kv, ierr)
  call check_class('MPI_COMM_FREE_KEYVAL of a freed keyval', ierr, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call check_int('delete callbacks run by calls with a stale keyval', ndel - nd, 0)

  call MPI_COMM_DUP(MPI_COMM_WORLD, c, ierr)
  call check_ok('MPI_COMM_DUP', ierr)
  saved = c
  call MPI_COMM_FREE(c, ierr)
  call check_ok('MPI_COMM_FREE', ierr)
  call MPI_COMM_GET_ATTR(saved, ckv, aval, flag, ierr)
  call check_class('MPI_COMM_GET_ATTR on a freed communicator', ierr, MPI_ERR_COMM, 'MPI_ERR_COMM')
  call MPI_COMM_SET_ATTR(saved, ckv, 1_MPI_ADDRESS_KIND, ierr)
  call check_class('MPI_COMM_SET_ATTR on a freed communicator', ierr, MPI_ERR_COMM, 'MPI_ERR_COMM')
  call MPI_COMM_DELETE_ATTR(saved, ckv, ierr)
  call check_class('MPI_COMM_DELETE_ATTR on a freed communicator', ierr, MPI_ERR_COMM, 'MPI_ERR_COMM')
  c2 = MPI_COMM_WORLD
  call MPI_COMM_DUP(saved, c2, ierr)
  call check_class('MPI_COMM_DUP of a freed communicator', ierr, MPI_ERR_COMM, 'MPI_ERR_COMM')
  c = saved
  call MPI_COMM_FREE(c, ierr)
  call check_class('MPI_COMM_FREE of a freed communicator', ierr, MPI_ERR_COMM, 'MPI_ERR_COMM')

  call MPI_COMM_FREE_KEYVAL(ka, ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  call MPI_COMM_FREE_KEYVAL(kb, ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  call MPI_COMM_FREE_KEYVAL(kd, ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  call MPI_COMM_FREE_KEYVAL(ke, ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, ckv, ierr)
  call check_ok('MPI_COMM_DELETE_ATTR', ierr)
  call MPI_COMM_FREE_KEYVAL(ckv, ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  call MPI_FINALIZE(ierr)
  call check_ok('MPI_FINALIZE', ierr)
  call finish()

contains

  subroutine expect_attr(comm, keyval, expected, what)
    integer, intent(in) :: comm, keyval
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: expected
    character(len=*), intent(in) :: what
    integer(kind=MPI_ADDRESS_KIND) :: v
    logical :: present
    integer :: e
    v = -1
    present = .false.
    call MPI_COMM_GET_ATTR(comm, keyval, v, present, e)
    call check_ok('MPI_COMM_GET_ATTR (' // what // ')', e)
    call check_attr_addr(what, present, v, expected)
  end subroutine expect_attr
end program errors_f
