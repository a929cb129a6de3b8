! The bad-input catalogue through `use mpi` (attributes.md §5, docs/errors.md), with MPI_ERRORS_RETURN on
! MPI_COMM_WORLD, MPI_COMM_SELF and the window. Every routine that takes a handle, a keyval or
! another checked argument is called with each bad value, and each call must give IERROR of
! the expected class, write none of its outputs (they hold sentinels), keep its in-out
! arguments, run no callback and change no attribute, name or error handler (state_unchanged):
! - communicators: MPI_COMM_NULL, freed handles, datatype / window / other predefined handles
!   and made-up integers (0, -1, 4095, huge, a live handle with its generation changed):
!   MPI_ERR_COMM in every routine that takes one;
! - datatypes and windows likewise: MPI_ERR_TYPE and MPI_ERR_WIN;
! - keyvals: MPI_KEYVAL_INVALID, negative and huge numbers, freed ones, ones of another kind
!   (user or predefined): MPI_ERR_KEYVAL in every set, get, delete and free routine; the
!   predefined keyvals of the right kind cannot be set, deleted or freed; a freed keyval
!   still in use cannot set a new value;
! - requests: stale, wrong-kind and made-up ones (MPI_ERR_REQUEST), MPI_REQUEST_FREE of
!   MPI_REQUEST_NULL;
! - other arguments: info handles (MPI_ERR_INFO), colours (MPI_ERR_ARG), counts and sizes that
!   overflow (MPI_ERR_COUNT), predefined objects freed (MPI_ERR_COMM, MPI_ERR_TYPE), window and
!   memory sizes (MPI_ERR_SIZE, MPI_ERR_NO_MEM), displacement units (MPI_ERR_DISP), foreign
!   addresses to MPI_FREE_MEM (MPI_ERR_BASE), error codes (MPI_ERR_ARG), error handlers
!   (MPI_ERR_ERRHANDLER), thread levels (MPI_ERR_ARG), a second MPI_INIT (MPI_ERR_OTHER).
! Values that need an 8-byte INTEGER to be out of a C int's range (huge(0)) are in both
! configurations: with 4-byte INTEGERs they are simply other bad values.

module badargs_mpi_cb
  use mpi
  implicit none
  ! callbacks run, and what the last one was given
  integer :: ncalls = 0
  integer :: last_obj = 0, last_kv = 0
  integer(kind=MPI_ADDRESS_KIND) :: last_val = 0, last_extra = 0
contains
  subroutine saw(obj, kv, val, extra)
    integer, intent(in) :: obj, kv
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: val, extra
    ncalls = ncalls + 1
    last_obj = obj
    last_kv = kv
    last_val = val
    last_extra = extra
  end subroutine saw

  subroutine comm_copy(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    integer :: oldcomm, comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    call saw(oldcomm, comm_keyval, attribute_val_in, extra_state)
    attribute_val_out = attribute_val_in
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine comm_copy

  subroutine comm_del(comm, comm_keyval, attribute_val, extra_state, ierror)
    integer :: comm, comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call saw(comm, comm_keyval, attribute_val, extra_state)
    ierror = MPI_SUCCESS
  end subroutine comm_del

  subroutine type_copy(oldtype, type_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    integer :: oldtype, type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    call saw(oldtype, type_keyval, attribute_val_in, extra_state)
    attribute_val_out = attribute_val_in
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine type_copy

  subroutine type_del(datatype, type_keyval, attribute_val, extra_state, ierror)
    integer :: datatype, type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call saw(datatype, type_keyval, attribute_val, extra_state)
    ierror = MPI_SUCCESS
  end subroutine type_del

  subroutine win_del(win, win_keyval, attribute_val, extra_state, ierror)
    integer :: win, win_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call saw(win, win_keyval, attribute_val, extra_state)
    ierror = MPI_SUCCESS
  end subroutine win_del

  ! MPI-1 convention: INTEGER value and extra state
  subroutine mpi1_del(comm, keyval, attribute_val, extra_state, ierror)
    integer :: comm, keyval, attribute_val, extra_state, ierror
    call saw(comm, keyval, int(attribute_val, MPI_ADDRESS_KIND), int(extra_state, MPI_ADDRESS_KIND))
    ierror = MPI_SUCCESS
  end subroutine mpi1_del
end module badargs_mpi_cb

program badargs_mpi
  use mpi
  use checks
  use badargs_mpi_cb
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
  integer, parameter :: NB = 24
  ! the objects and keyvals whose state must not change
  integer :: ckv, m1kv, tkv, wkv, good, gtype, gwin
  integer, target :: wbuf(8)
  integer(kind=MPI_ADDRESS_KIND) :: wbuf_address
  ! outputs of the calls that must fail: sentinels before each call
  integer :: ierr, ival, ival2, newh, req, status(MPI_STATUS_SIZE)
  integer(kind=MPI_ADDRESS_KIND) :: aval
  logical :: flag
  character(len=300) :: text
  character(len=300), parameter :: untouched_text = repeat('u', 300)
  ! bad values and their names
  integer :: bads(NB), nbad, i, h, fresh(100)
  character(len=64) :: names(NB)
  ! scratch
  integer :: c, t, w, freed, freed_attr, kv, kv2, kv3, stale
  integer(kind=MPI_ADDRESS_KIND) :: zero, big_size
  integer :: buf(4)

  test_name = 'badargs_mpi'
  max_error_string = MPI_MAX_ERROR_STRING
  zero = 0
  big_size = huge(zero)
  call MPI_INIT(ierr)
  call check_ok('MPI_INIT', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD)', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF)', ierr)

  ! ---- the state that must not change ----
  call MPI_COMM_CREATE_KEYVAL(comm_copy, comm_del, ckv, 100_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call MPI_KEYVAL_CREATE(MPI_DUP_FN, mpi1_del, m1kv, 101, ierr)
  call check_ok('MPI_KEYVAL_CREATE', ierr)
  call MPI_TYPE_CREATE_KEYVAL(type_copy, type_del, tkv, 102_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_TYPE_CREATE_KEYVAL', ierr)
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, win_del, wkv, 103_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_WIN_CREATE_KEYVAL', ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, good, ierr)
  call check_ok('MPI_COMM_DUP', ierr)
  call MPI_COMM_SET_NAME(good, 'good', ierr)
  call check_ok('MPI_COMM_SET_NAME', ierr)
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, ckv, 11_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)
  call MPI_COMM_SET_ATTR(good, ckv, 22_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)
  call MPI_ATTR_PUT(good, m1kv, -33, ierr)
  call check_ok('MPI_ATTR_PUT', ierr)
  call MPI_TYPE_CONTIGUOUS(3, MPI_INTEGER, gtype, ierr)
  call check_ok('MPI_TYPE_CONTIGUOUS', ierr)
  call MPI_TYPE_COMMIT(gtype, ierr)
  call check_ok('MPI_TYPE_COMMIT', ierr)
  call MPI_TYPE_SET_ATTR(gtype, tkv, 5_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_TYPE_SET_ATTR', ierr)
  call MPI_TYPE_SET_ATTR(MPI_INTEGER, tkv, 6_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_TYPE_SET_ATTR(MPI_INTEGER)', ierr)
  call MPI_WIN_CREATE(wbuf, int(size(wbuf) * (bit_size(0) / 8), MPI_ADDRESS_KIND), 1, MPI_INFO_NULL, &
                      MPI_COMM_WORLD, gwin, ierr)
  call check_ok('MPI_WIN_CREATE', ierr)
  call MPI_WIN_SET_ERRHANDLER(gwin, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_WIN_SET_ERRHANDLER', ierr)
  call MPI_WIN_SET_ATTR(gwin, wkv, 9_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_WIN_SET_ATTR', ierr)
  call MPI_GET_ADDRESS(wbuf, wbuf_address, ierr)
  call check_ok('MPI_GET_ADDRESS', ierr)
  ncalls = 0
  call state_unchanged('the start')

  ! ---- bad communicators ----
  call MPI_COMM_DUP(MPI_COMM_WORLD, freed, ierr)
  call check_ok('MPI_COMM_DUP', ierr)
  h = freed
  call MPI_COMM_FREE(freed, ierr)
  call check_ok('MPI_COMM_FREE', ierr)
  freed = h
  call MPI_COMM_DUP(good, freed_attr, ierr)
  call check_ok('MPI_COMM_DUP', ierr)
  h = freed_attr
  call MPI_COMM_FREE(freed_attr, ierr)
  call check_ok('MPI_COMM_FREE', ierr)
  freed_attr = h
  ! WORLD's dup: one copy and one delete; good's: one copy (MPI_DUP_FN is not called) and two deletes
  call check_int('callbacks of the dups and frees of communicators with attributes', ncalls, 5)
  ncalls = 0
  nbad = 0
  call add(MPI_COMM_NULL, 'MPI_COMM_NULL')
  call add(freed, 'a freed communicator')
  call add(freed_attr, 'a freed communicator that had attributes')
  call add(gtype, 'a datatype')
  call add(MPI_INTEGER, 'MPI_INTEGER')
  call add(gwin, 'a window')
  call add(MPI_WIN_NULL, 'MPI_WIN_NULL')
  call add(MPI_DATATYPE_NULL, 'MPI_DATATYPE_NULL')
  call add(MPI_ERRORS_RETURN, 'MPI_ERRORS_RETURN')
  call add(MPI_INFO_NULL, 'MPI_INFO_NULL')
  call add(MPI_REQUEST_NULL, 'MPI_REQUEST_NULL')
  call add(MPI_GROUP_EMPTY, 'MPI_GROUP_EMPTY')
  call add(0, '0')
  call add(-1, '-1')
  call add(4095, '4095')
  call add(123456789, '123456789')
  call add(huge(0), 'huge(0)')
  call add(-huge(0), '-huge(0)')
  call add(ieor(good, ishft(1, bit_size(0) - 2)), 'a communicator with its generation changed')
  do i = 1, nbad
    call bad_comm(bads(i), 'communicator ' // trim(names(i)))
  end do
  ! a stale handle stays invalid while new communicators come and go
  do i = 1, size(fresh)
    call MPI_COMM_DUP(MPI_COMM_SELF, fresh(i), ierr)
    call check_ok('MPI_COMM_DUP', ierr)
  end do
  call bad_comm(freed, 'a freed communicator, after 100 new ones')
  do i = 1, size(fresh)
    call MPI_COMM_FREE(fresh(i), ierr)
    call check_ok('MPI_COMM_FREE', ierr)
  end do
  call bad_comm(freed, 'a freed communicator, after 100 more frees')

  ! ---- bad datatypes ----
  call MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER, freed, ierr)
  call check_ok('MPI_TYPE_CONTIGUOUS', ierr)
  h = freed
  call MPI_TYPE_FREE(freed, ierr)
  call check_ok('MPI_TYPE_FREE', ierr)
  freed = h
  call MPI_TYPE_DUP(gtype, freed_attr, ierr)
  call check_ok('MPI_TYPE_DUP', ierr)
  h = freed_attr
  call MPI_TYPE_FREE(freed_attr, ierr)
  call check_ok('MPI_TYPE_FREE', ierr)
  freed_attr = h
  call check_int('callbacks of the dup and free of a datatype with attributes', ncalls, 2)
  ncalls = 0
  nbad = 0
  call add(MPI_DATATYPE_NULL, 'MPI_DATATYPE_NULL')
  call add(freed, 'a freed datatype')
  call add(freed_attr, 'a freed datatype that had attributes')
  call add(good, 'a communicator')
  call add(MPI_COMM_WORLD, 'MPI_COMM_WORLD')
  call add(gwin, 'a window')
  call add(MPI_WIN_NULL, 'MPI_WIN_NULL')
  call add(MPI_COMM_NULL, 'MPI_COMM_NULL')
  call add(0, '0')
  call add(-1, '-1')
  call add(4095, '4095')
  call add(123456789, '123456789')
  call add(huge(0), 'huge(0)')
  call add(ieor(gtype, ishft(1, bit_size(0) - 2)), 'a datatype with its generation changed')
  do i = 1, nbad
    call bad_type(bads(i), 'datatype ' // trim(names(i)))
  end do

  ! ---- bad windows ----
  call MPI_WIN_CREATE_DYNAMIC(MPI_INFO_NULL, MPI_COMM_SELF, freed, ierr)
  call check_ok('MPI_WIN_CREATE_DYNAMIC', ierr)
  h = freed
  call MPI_WIN_FREE(freed, ierr)
  call check_ok('MPI_WIN_FREE', ierr)
  freed = h
  call MPI_WIN_ALLOCATE(16_MPI_ADDRESS_KIND, 1, MPI_INFO_NULL, MPI_COMM_WORLD, aval, freed_attr, ierr)
  call check_ok('MPI_WIN_ALLOCATE', ierr)
  call MPI_WIN_SET_ATTR(freed_attr, wkv, 3_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_WIN_SET_ATTR', ierr)
  h = freed_attr
  call MPI_WIN_FREE(freed_attr, ierr)
  call check_ok('MPI_WIN_FREE', ierr)
  freed_attr = h
  call check_int('callbacks of the free of a window with attributes', ncalls, 1)
  ncalls = 0
  nbad = 0
  call add(MPI_WIN_NULL, 'MPI_WIN_NULL')
  call add(freed, 'a freed window')
  call add(freed_attr, 'a freed window that had attributes')
  call add(good, 'a communicator')
  call add(MPI_COMM_WORLD, 'MPI_COMM_WORLD')
  call add(gtype, 'a datatype')
  call add(MPI_INTEGER, 'MPI_INTEGER')
  call add(MPI_COMM_NULL, 'MPI_COMM_NULL')
  call add(0, '0')
  call add(-1, '-1')
  call add(4095, '4095')
  call add(123456789, '123456789')
  call add(huge(0), 'huge(0)')
  call add(ieor(gwin, ishft(1, bit_size(0) - 2)), 'a window with its generation changed')
  do i = 1, nbad
    call bad_win(bads(i), 'window ' // trim(names(i)))
  end do

  ! ---- bad keyvals ----
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kv, zero, ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, kv2, zero, ierr)
  call check_ok('MPI_TYPE_CREATE_KEYVAL', ierr)
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, kv3, zero, ierr)
  call check_ok('MPI_WIN_CREATE_KEYVAL', ierr)
  c = kv
  t = kv2
  w = kv3
  call MPI_COMM_FREE_KEYVAL(kv, ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  call MPI_TYPE_FREE_KEYVAL(kv2, ierr)
  call check_ok('MPI_TYPE_FREE_KEYVAL', ierr)
  call MPI_WIN_FREE_KEYVAL(kv3, ierr)
  call check_ok('MPI_WIN_FREE_KEYVAL', ierr)
  nbad = 0
  call add(MPI_KEYVAL_INVALID, 'MPI_KEYVAL_INVALID')
  call add(-5, '-5')
  call add(123456789, '123456789')
  call add(huge(0), 'huge(0)')
  call add(-huge(0), '-huge(0)')
  do i = 1, nbad
    call bad_comm_keyval(bads(i), 'keyval ' // trim(names(i)))
    call bad_type_keyval(bads(i), 'keyval ' // trim(names(i)))
    call bad_win_keyval(bads(i), 'keyval ' // trim(names(i)))
  end do
  call bad_comm_keyval(c, 'a freed communicator keyval')
  call bad_type_keyval(t, 'a freed datatype keyval')
  call bad_win_keyval(w, 'a freed window keyval')
  call bad_comm_keyval(tkv, 'a datatype keyval on communicators')
  call bad_comm_keyval(wkv, 'a window keyval on communicators')
  call bad_comm_keyval(t, 'a freed datatype keyval on communicators')
  call bad_comm_keyval(MPI_WIN_BASE, 'MPI_WIN_BASE on communicators')
  call bad_type_keyval(ckv, 'a communicator keyval on datatypes')
  call bad_type_keyval(m1kv, 'an MPI_KEYVAL_CREATE keyval on datatypes')
  call bad_type_keyval(wkv, 'a window keyval on datatypes')
  call bad_type_keyval(MPI_TAG_UB, 'MPI_TAG_UB on datatypes')
  call bad_win_keyval(ckv, 'a communicator keyval on windows')
  call bad_win_keyval(tkv, 'a datatype keyval on windows')
  call bad_win_keyval(MPI_APPNUM, 'MPI_APPNUM on windows')
  ! predefined keyvals of the right kind: read only
  call predefined_comm_keyval(MPI_TAG_UB, 'MPI_TAG_UB')
  call predefined_comm_keyval(MPI_HOST, 'MPI_HOST')
  call predefined_comm_keyval(MPI_IO, 'MPI_IO')
  call predefined_comm_keyval(MPI_WTIME_IS_GLOBAL, 'MPI_WTIME_IS_GLOBAL')
  call predefined_comm_keyval(MPI_UNIVERSE_SIZE, 'MPI_UNIVERSE_SIZE')
  call predefined_comm_keyval(MPI_APPNUM, 'MPI_APPNUM')
  call predefined_comm_keyval(MPI_LASTUSEDCODE, 'MPI_LASTUSEDCODE')
  call predefined_win_keyval(MPI_WIN_BASE, 'MPI_WIN_BASE')
  call predefined_win_keyval(MPI_WIN_SIZE, 'MPI_WIN_SIZE')
  call predefined_win_keyval(MPI_WIN_DISP_UNIT, 'MPI_WIN_DISP_UNIT')
  call predefined_win_keyval(MPI_WIN_CREATE_FLAVOR, 'MPI_WIN_CREATE_FLAVOR')
  call predefined_win_keyval(MPI_WIN_MODEL, 'MPI_WIN_MODEL')
  ! a freed keyval still in use: no new value; the values it has stay
  call MPI_COMM_CREATE_KEYVAL(comm_copy, comm_del, kv, zero, ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call MPI_KEYVAL_CREATE(MPI_NULL_COPY_FN, mpi1_del, kv2, 0, ierr)
  call check_ok('MPI_KEYVAL_CREATE', ierr)
  call MPI_TYPE_CREATE_KEYVAL(type_copy, type_del, kv3, zero, ierr)
  call check_ok('MPI_TYPE_CREATE_KEYVAL', ierr)
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, win_del, stale, zero, ierr)
  call check_ok('MPI_WIN_CREATE_KEYVAL', ierr)
  call MPI_COMM_SET_ATTR(good, kv, 41_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)
  call MPI_ATTR_PUT(good, kv2, 42, ierr)
  call check_ok('MPI_ATTR_PUT', ierr)
  call MPI_TYPE_SET_ATTR(gtype, kv3, 43_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_TYPE_SET_ATTR', ierr)
  call MPI_WIN_SET_ATTR(gwin, stale, 44_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_WIN_SET_ATTR', ierr)
  c = kv
  call MPI_COMM_FREE_KEYVAL(kv, ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  kv = c
  c = kv2
  call MPI_KEYVAL_FREE(kv2, ierr)
  call check_ok('MPI_KEYVAL_FREE', ierr)
  kv2 = c
  c = kv3
  call MPI_TYPE_FREE_KEYVAL(kv3, ierr)
  call check_ok('MPI_TYPE_FREE_KEYVAL', ierr)
  kv3 = c
  c = stale
  call MPI_WIN_FREE_KEYVAL(stale, ierr)
  call check_ok('MPI_WIN_FREE_KEYVAL', ierr)
  stale = c
  call reset()
  call MPI_COMM_SET_ATTR(good, kv, 7_MPI_ADDRESS_KIND, ierr)
  call expect('freed keyval still in use: MPI_COMM_SET_ATTR', ierr, MPI_ERR_KEYVAL)
  call reset()
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, kv, 7_MPI_ADDRESS_KIND, ierr)
  call expect('freed keyval still in use: MPI_COMM_SET_ATTR(MPI_COMM_SELF)', ierr, MPI_ERR_KEYVAL)
  call reset()
  call MPI_ATTR_PUT(good, kv2, 7, ierr)
  call expect('freed keyval still in use: MPI_ATTR_PUT', ierr, MPI_ERR_KEYVAL)
  call reset()
  call MPI_TYPE_SET_ATTR(gtype, kv3, 7_MPI_ADDRESS_KIND, ierr)
  call expect('freed keyval still in use: MPI_TYPE_SET_ATTR', ierr, MPI_ERR_KEYVAL)
  call reset()
  call MPI_WIN_SET_ATTR(gwin, stale, 7_MPI_ADDRESS_KIND, ierr)
  call expect('freed keyval still in use: MPI_WIN_SET_ATTR', ierr, MPI_ERR_KEYVAL)
  call check_int('callbacks run by the refused sets', ncalls, 0)
  call expect_comm_attr(good, kv, 41_MPI_ADDRESS_KIND, 'value of the freed keyval still in use')
  call MPI_ATTR_GET(good, kv2, ival, flag, ierr)
  call check_ok('MPI_ATTR_GET', ierr)
  call check_attr_int('MPI-1 value of the freed keyval still in use', flag, ival, 42)
  call MPI_TYPE_GET_ATTR(gtype, kv3, aval, flag, ierr)
  call check_ok('MPI_TYPE_GET_ATTR', ierr)
  call check_attr_addr('type value of the freed keyval still in use', flag, aval, 43_MPI_ADDRESS_KIND)
  call MPI_WIN_GET_ATTR(gwin, stale, aval, flag, ierr)
  call check_ok('MPI_WIN_GET_ATTR', ierr)
  call check_attr_addr('window value of the freed keyval still in use', flag, aval, 44_MPI_ADDRESS_KIND)
  ! deleting the last values ends the keyvals: then they are invalid everywhere
  call MPI_COMM_DELETE_ATTR(good, kv, ierr)
  call check_ok('MPI_COMM_DELETE_ATTR', ierr)
  call MPI_ATTR_DELETE(good, kv2, ierr)
  call check_ok('MPI_ATTR_DELETE', ierr)
  call MPI_TYPE_DELETE_ATTR(gtype, kv3, ierr)
  call check_ok('MPI_TYPE_DELETE_ATTR', ierr)
  call MPI_WIN_DELETE_ATTR(gwin, stale, ierr)
  call check_ok('MPI_WIN_DELETE_ATTR', ierr)
  call check_int('delete callbacks of the last values of the freed keyvals', ncalls, 4)
  ncalls = 0
  call bad_comm_keyval(kv, 'a communicator keyval gone with its last value')
  call bad_comm_keyval(kv2, 'an MPI_KEYVAL_CREATE keyval gone with its last value')
  call bad_type_keyval(kv3, 'a datatype keyval gone with its last value')
  call bad_win_keyval(stale, 'a window keyval gone with its last value')

  ! ---- requests ----
  call MPI_COMM_IDUP(MPI_COMM_WORLD, c, kv, ierr)
  call check_ok('MPI_COMM_IDUP', ierr)
  stale = kv
  call MPI_WAIT(kv, MPI_STATUS_IGNORE, ierr)
  call check_ok('MPI_WAIT', ierr)
  call check_int('MPI_WAIT sets MPI_REQUEST_NULL', kv, MPI_REQUEST_NULL)
  call MPI_COMM_FREE(c, ierr)
  call check_ok('MPI_COMM_FREE', ierr)
  call check_int('callbacks of the idup and free of MPI_COMM_WORLD', ncalls, 2)
  ncalls = 0
  nbad = 0
  call add(stale, 'a completed request')
  call add(MPI_COMM_WORLD, 'MPI_COMM_WORLD')
  call add(good, 'a communicator')
  call add(gtype, 'a datatype')
  call add(MPI_ERRORS_RETURN, 'MPI_ERRORS_RETURN')
  call add(0, '0')
  call add(-1, '-1')
  call add(123456789, '123456789')
  call add(huge(0), 'huge(0)')
  call add(ieor(stale, ishft(1, bit_size(0) - 2)), 'a request with its generation changed')
  do i = 1, nbad
    call bad_request(bads(i), 'request ' // trim(names(i)))
  end do
  h = MPI_REQUEST_NULL
  call reset()
  call MPI_REQUEST_FREE(h, ierr)
  call expect_kept('MPI_REQUEST_FREE(MPI_REQUEST_NULL)', ierr, MPI_ERR_REQUEST, h, MPI_REQUEST_NULL)

  ! ---- other bad arguments ----
  nbad = 0
  call add(MPI_COMM_WORLD, 'MPI_COMM_WORLD')
  call add(MPI_INTEGER, 'MPI_INTEGER')
  call add(12345, '12345')
  call add(-1, '-1')
  call add(huge(0), 'huge(0)')
  do i = 1, nbad
    call reset()
    call MPI_COMM_DUP_WITH_INFO(good, bads(i), newh, ierr)
    call expect_new('MPI_COMM_DUP_WITH_INFO with info ' // trim(names(i)), ierr, MPI_ERR_INFO, MPI_COMM_NULL)
    call reset()
    call MPI_WIN_CREATE(buf, 16_MPI_ADDRESS_KIND, 1, bads(i), good, newh, ierr)
    call expect('MPI_WIN_CREATE with info ' // trim(names(i)), ierr, MPI_ERR_INFO)
    call reset()
    call MPI_WIN_ALLOCATE(16_MPI_ADDRESS_KIND, 1, bads(i), good, aval, newh, ierr)
    call expect('MPI_WIN_ALLOCATE with info ' // trim(names(i)), ierr, MPI_ERR_INFO)
    call reset()
    call MPI_WIN_CREATE_DYNAMIC(bads(i), good, newh, ierr)
    call expect('MPI_WIN_CREATE_DYNAMIC with info ' // trim(names(i)), ierr, MPI_ERR_INFO)
    call reset()
    call MPI_ALLOC_MEM(16_MPI_ADDRESS_KIND, bads(i), aval, ierr)
    call expect('MPI_ALLOC_MEM with info ' // trim(names(i)), ierr, MPI_ERR_INFO)
  end do
  call reset()
  call MPI_COMM_SPLIT(good, -5, 0, newh, ierr)
  call expect('MPI_COMM_SPLIT with colour -5', ierr, MPI_ERR_ARG)
  call reset()
  call MPI_COMM_SPLIT(MPI_COMM_WORLD, -huge(0), 0, newh, ierr)
  call expect('MPI_COMM_SPLIT with colour -huge(0)', ierr, MPI_ERR_ARG)
  h = MPI_COMM_WORLD
  call reset()
  call MPI_COMM_FREE(h, ierr)
  call expect_kept('MPI_COMM_FREE(MPI_COMM_WORLD)', ierr, MPI_ERR_COMM, h, MPI_COMM_WORLD)
  h = MPI_COMM_SELF
  call reset()
  call MPI_COMM_FREE(h, ierr)
  call expect_kept('MPI_COMM_FREE(MPI_COMM_SELF)', ierr, MPI_ERR_COMM, h, MPI_COMM_SELF)
  h = MPI_INTEGER
  call reset()
  call MPI_TYPE_FREE(h, ierr)
  call expect_kept('MPI_TYPE_FREE(MPI_INTEGER)', ierr, MPI_ERR_TYPE, h, MPI_INTEGER)
  h = MPI_DOUBLE_PRECISION
  call reset()
  call MPI_TYPE_FREE(h, ierr)
  call expect_kept('MPI_TYPE_FREE(MPI_DOUBLE_PRECISION)', ierr, MPI_ERR_TYPE, h, MPI_DOUBLE_PRECISION)
  call reset()
  call MPI_TYPE_CONTIGUOUS(-1, MPI_INTEGER, newh, ierr)
  call expect('MPI_TYPE_CONTIGUOUS with count -1', ierr, MPI_ERR_COUNT)
  call reset()
  call MPI_TYPE_CONTIGUOUS(-huge(0), gtype, newh, ierr)
  call expect('MPI_TYPE_CONTIGUOUS with count -huge(0)', ierr, MPI_ERR_COUNT)
  call size_overflow()
  call reset()
  call MPI_WIN_CREATE(buf, -1_MPI_ADDRESS_KIND, 1, MPI_INFO_NULL, good, newh, ierr)
  call expect('MPI_WIN_CREATE with size -1', ierr, MPI_ERR_SIZE)
  call reset()
  call MPI_WIN_CREATE(buf, 16_MPI_ADDRESS_KIND, 0, MPI_INFO_NULL, good, newh, ierr)
  call expect('MPI_WIN_CREATE with disp_unit 0', ierr, MPI_ERR_DISP)
  call reset()
  call MPI_WIN_CREATE(buf, 16_MPI_ADDRESS_KIND, -4, MPI_INFO_NULL, MPI_COMM_WORLD, newh, ierr)
  call expect('MPI_WIN_CREATE with disp_unit -4', ierr, MPI_ERR_DISP)
  call reset()
  call MPI_WIN_ALLOCATE(-8_MPI_ADDRESS_KIND, 1, MPI_INFO_NULL, good, aval, newh, ierr)
  call expect('MPI_WIN_ALLOCATE with size -8', ierr, MPI_ERR_SIZE)
  call reset()
  call MPI_WIN_ALLOCATE(8_MPI_ADDRESS_KIND, 0, MPI_INFO_NULL, good, aval, newh, ierr)
  call expect('MPI_WIN_ALLOCATE with disp_unit 0', ierr, MPI_ERR_DISP)
  call reset()
  call MPI_WIN_ALLOCATE(big_size, 1, MPI_INFO_NULL, good, aval, newh, ierr)
  call expect('MPI_WIN_ALLOCATE of huge(0_MPI_ADDRESS_KIND) bytes', ierr, MPI_ERR_NO_MEM)
  if (bit_size(0) == 64) then
    ! a displacement unit beyond a C int
    call reset()
    call MPI_WIN_CREATE(buf, 16_MPI_ADDRESS_KIND, huge(0), MPI_INFO_NULL, good, newh, ierr)
    call expect('MPI_WIN_CREATE with disp_unit huge(0)', ierr, MPI_ERR_DISP)
    call reset()
    call MPI_WIN_ALLOCATE(8_MPI_ADDRESS_KIND, -huge(0), MPI_INFO_NULL, good, aval, newh, ierr)
    call expect('MPI_WIN_ALLOCATE with disp_unit -huge(0)', ierr, MPI_ERR_DISP)
  end if
  call reset()
  call MPI_ALLOC_MEM(-1_MPI_ADDRESS_KIND, MPI_INFO_NULL, aval, ierr)
  call expect('MPI_ALLOC_MEM with size -1', ierr, MPI_ERR_SIZE)
  call reset()
  call MPI_ALLOC_MEM(big_size, MPI_INFO_NULL, aval, ierr)
  call expect('MPI_ALLOC_MEM of huge(0_MPI_ADDRESS_KIND) bytes', ierr, MPI_ERR_NO_MEM)
  call free_mem_errors()
  ! error codes
  nbad = 0
  call add(-1, '-1')
  call add(MPI_ERR_LASTCODE + 1, 'MPI_ERR_LASTCODE + 1')
  call add(1000, '1000')
  call add(huge(0), 'huge(0)')
  call add(-huge(0), '-huge(0)')
  do i = 1, nbad
    call reset()
    call MPI_ERROR_CLASS(bads(i), ival, ierr)
    call expect('MPI_ERROR_CLASS of ' // trim(names(i)), ierr, MPI_ERR_ARG)
    call reset()
    call MPI_ERROR_STRING(bads(i), text, ival, ierr)
    call expect('MPI_ERROR_STRING of ' // trim(names(i)), ierr, MPI_ERR_ARG)
  end do
  ! error handlers
  nbad = 0
  call add(MPI_ERRHANDLER_NULL, 'MPI_ERRHANDLER_NULL')
  call add(MPI_COMM_WORLD, 'MPI_COMM_WORLD')
  call add(MPI_INTEGER, 'MPI_INTEGER')
  call add(0, '0')
  call add(-1, '-1')
  call add(12345, '12345')
  call add(huge(0), 'huge(0)')
  do i = 1, nbad
    call reset()
    call MPI_COMM_SET_ERRHANDLER(good, bads(i), ierr)
    call expect('MPI_COMM_SET_ERRHANDLER with ' // trim(names(i)), ierr, MPI_ERR_ERRHANDLER)
    call reset()
    call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, bads(i), ierr)
    call expect('MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD) with ' // trim(names(i)), ierr, MPI_ERR_ERRHANDLER)
    call reset()
    call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, bads(i), ierr)
    call expect('MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF) with ' // trim(names(i)), ierr, MPI_ERR_ERRHANDLER)
    call reset()
    call MPI_WIN_SET_ERRHANDLER(gwin, bads(i), ierr)
    call expect('MPI_WIN_SET_ERRHANDLER with ' // trim(names(i)), ierr, MPI_ERR_ERRHANDLER)
    h = bads(i)
    call reset()
    call MPI_ERRHANDLER_FREE(h, ierr)
    call expect_kept('MPI_ERRHANDLER_FREE of ' // trim(names(i)), ierr, MPI_ERR_ERRHANDLER, h, bads(i))
  end do
  call expect_handler(MPI_COMM_WORLD, 'MPI_COMM_WORLD after the refused handlers')
  call expect_handler(MPI_COMM_SELF, 'MPI_COMM_SELF after the refused handlers')
  ! the environment
  call reset()
  call MPI_INIT(ierr)
  call expect('a second MPI_INIT', ierr, MPI_ERR_OTHER)
  call reset()
  call MPI_INIT_THREAD(MPI_THREAD_MULTIPLE, ival, ierr)
  call expect('MPI_INIT_THREAD after MPI_INIT', ierr, MPI_ERR_OTHER)
  nbad = 0
  call add(77, '77')
  call add(-1, '-1')
  call add(huge(0), 'huge(0)')
  do i = 1, nbad
    call reset()
    call MPI_INIT_THREAD(bads(i), ival, ierr)
    call expect('MPI_INIT_THREAD with required ' // trim(names(i)), ierr, MPI_ERR_ARG)
  end do
  call MPI_QUERY_THREAD(ival, ierr)
  call check_ok('MPI_QUERY_THREAD', ierr)
  call check_int('MPI_QUERY_THREAD after the refused MPI_INIT_THREAD', ival, MPI_THREAD_SINGLE)
  call state_unchanged('the other bad arguments')

  ! ---- everything still works ----
  call MPI_COMM_DUP(good, c, ierr)
  call check_ok('MPI_COMM_DUP of the good communicator', ierr)
  call check_int('copy callbacks of that dup', ncalls, 1)
  call expect_comm_attr(c, ckv, 22_MPI_ADDRESS_KIND, 'attribute copied from the good communicator')
  call MPI_COMM_FREE(c, ierr)
  call check_ok('MPI_COMM_FREE', ierr)
  call MPI_COMM_FREE(good, ierr)
  call check_ok('MPI_COMM_FREE of the good communicator', ierr)
  call MPI_TYPE_FREE(gtype, ierr)
  call check_ok('MPI_TYPE_FREE', ierr)
  call MPI_WIN_FREE(gwin, ierr)
  call check_ok('MPI_WIN_FREE', ierr)
  ! the copy, then the deletes of the copy's two, good's two, gtype's and gwin's
  call check_int('callbacks of the frees', ncalls, 1 + 2 + 2 + 1 + 1)
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, ckv, ierr)
  call check_ok('MPI_COMM_DELETE_ATTR', ierr)
  call MPI_TYPE_DELETE_ATTR(MPI_INTEGER, tkv, ierr)
  call check_ok('MPI_TYPE_DELETE_ATTR', ierr)
  call MPI_COMM_FREE_KEYVAL(ckv, ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  call MPI_KEYVAL_FREE(m1kv, ierr)
  call check_ok('MPI_KEYVAL_FREE', ierr)
  call MPI_TYPE_FREE_KEYVAL(tkv, ierr)
  call check_ok('MPI_TYPE_FREE_KEYVAL', ierr)
  call MPI_WIN_FREE_KEYVAL(wkv, ierr)
  call check_ok('MPI_WIN_FREE_KEYVAL', ierr)
  call MPI_FINALIZE(ierr)
  call check_ok('MPI_FINALIZE', ierr)
  call finish()

contains

  subroutine add(value, name)
    integer, intent(in) :: value
    character(len=*), intent(in) :: name
    nbad = nbad + 1
    bads(nbad) = value
    names(nbad) = name
  end subroutine add

  !> The name of an error class, for the messages.
  function class_name(class) result(name)
    integer, intent(in) :: class
    character(len=:), allocatable :: name
    select case (class)
    case (MPI_ERR_COMM)
      name = 'MPI_ERR_COMM'
    case (MPI_ERR_TYPE)
      name = 'MPI_ERR_TYPE'
    case (MPI_ERR_WIN)
      name = 'MPI_ERR_WIN'
    case (MPI_ERR_KEYVAL)
      name = 'MPI_ERR_KEYVAL'
    case (MPI_ERR_REQUEST)
      name = 'MPI_ERR_REQUEST'
    case (MPI_ERR_ARG)
      name = 'MPI_ERR_ARG'
    case (MPI_ERR_COUNT)
      name = 'MPI_ERR_COUNT'
    case (MPI_ERR_INFO)
      name = 'MPI_ERR_INFO'
    case (MPI_ERR_SIZE)
      name = 'MPI_ERR_SIZE'
    case (MPI_ERR_DISP)
      name = 'MPI_ERR_DISP'
    case (MPI_ERR_NO_MEM)
      name = 'MPI_ERR_NO_MEM'
    case (MPI_ERR_BASE)
      name = 'MPI_ERR_BASE'
    case (MPI_ERR_ERRHANDLER)
      name = 'MPI_ERR_ERRHANDLER'
    case (MPI_ERR_OTHER)
      name = 'MPI_ERR_OTHER'
    case default
      name = 'class ' // istr(class)
    end select
  end function class_name

  !> Every output variable holds its sentinel.
  subroutine reset()
    ival = sentinel
    ival2 = sentinel
    newh = sentinel
    req = sentinel
    status = sentinel
    aval = addr_sentinel
    flag = .true.
    text = untouched_text
    ierr = sentinel
  end subroutine reset

  !> A failed call: IERROR of `class`, and no output written (a new handle may also be the
  !> kind's null handle `new_null`: attributes.md §5 "A failed dup").
  subroutine expect_new(what, ierror, class, new_null)
    character(len=*), intent(in) :: what
    integer, intent(in) :: ierror, class, new_null
    integer :: j
    call check_class(what, ierror, class, class_name(class))
    call check_untouched(what // ' (first INTEGER output)', ival)
    call check_untouched(what // ' (second INTEGER output)', ival2)
    if (newh /= new_null) call check_untouched(what // ' (new handle)', newh)
    call check_untouched(what // ' (request)', req)
    do j = 1, size(status)
      call check_untouched(what // ' (status)', status(j))
    end do
    call check_untouched_addr(what // ' (address-kind output)', aval)
    call check_logical(what // ' (flag left alone)', flag, .true.)
    call check_untouched_text(what, text, untouched_text)
  end subroutine expect_new

  subroutine expect(what, ierror, class)
    character(len=*), intent(in) :: what
    integer, intent(in) :: ierror, class
    call expect_new(what, ierror, class, sentinel)
  end subroutine expect

  !> expect, for a routine with an in-out handle or keyval: it keeps its value.
  subroutine expect_kept(what, ierror, class, got, before)
    character(len=*), intent(in) :: what
    integer, intent(in) :: ierror, class, got, before
    call expect(what, ierror, class)
    call check_int(what // ': the in-out argument', got, before)
  end subroutine expect_kept

  subroutine expect_comm_attr(comm, keyval, expected, what)
    integer, intent(in) :: comm, keyval
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: expected
    character(len=*), intent(in) :: what
    integer(kind=MPI_ADDRESS_KIND) :: v
    logical :: found
    integer :: e
    v = -1
    found = .false.
    call MPI_COMM_GET_ATTR(comm, keyval, v, found, e)
    call check_ok('MPI_COMM_GET_ATTR (' // what // ')', e)
    call check_attr_addr(what, found, v, expected)
  end subroutine expect_comm_attr

  subroutine expect_handler(comm, what)
    integer, intent(in) :: comm
    character(len=*), intent(in) :: what
    integer :: e, handler
    handler = MPI_ERRHANDLER_NULL
    call MPI_COMM_GET_ERRHANDLER(comm, handler, e)
    call check_ok('MPI_COMM_GET_ERRHANDLER (' // what // ')', e)
    call check_int(what // ': error handler', handler, MPI_ERRORS_RETURN)
    call MPI_ERRHANDLER_FREE(handler, e)
    call check_ok('MPI_ERRHANDLER_FREE (' // what // ')', e)
  end subroutine expect_handler

  !> Nothing changed: attributes, names, error handlers, sizes; no callback ran.
  subroutine state_unchanged(what)
    character(len=*), intent(in) :: what
    integer(kind=MPI_ADDRESS_KIND) :: v
    integer :: iv, e, handler
    logical :: found
    character(len=MPI_MAX_OBJECT_NAME) :: name
    call check_int(what // ': callbacks run', ncalls, 0)
    call expect_comm_attr(MPI_COMM_WORLD, ckv, 11_MPI_ADDRESS_KIND, what // ': MPI_COMM_WORLD''s attribute')
    call expect_comm_attr(good, ckv, 22_MPI_ADDRESS_KIND, what // ': the good communicator''s attribute')
    iv = 0
    found = .false.
    call MPI_ATTR_GET(good, m1kv, iv, found, e)
    call check_ok('MPI_ATTR_GET (' // what // ')', e)
    call check_attr_int(what // ': the good communicator''s MPI-1 attribute', found, iv, -33)
    name = ' '
    iv = -1
    call MPI_COMM_GET_NAME(good, name, iv, e)
    call check_ok('MPI_COMM_GET_NAME (' // what // ')', e)
    call check(name == 'good' .and. iv == 4, what // ': the good communicator''s name is ''' // trim(name) // '''')
    call expect_handler(good, what // ': the good communicator')
    v = -1
    call MPI_TYPE_GET_ATTR(gtype, tkv, v, found, e)
    call check_ok('MPI_TYPE_GET_ATTR (' // what // ')', e)
    call check_attr_addr(what // ': the datatype''s attribute', found, v, 5_MPI_ADDRESS_KIND)
    call MPI_TYPE_GET_ATTR(MPI_INTEGER, tkv, v, found, e)
    call check_ok('MPI_TYPE_GET_ATTR (' // what // ')', e)
    call check_attr_addr(what // ': MPI_INTEGER''s attribute', found, v, 6_MPI_ADDRESS_KIND)
    iv = -1
    call MPI_TYPE_SIZE(gtype, iv, e)
    call check_ok('MPI_TYPE_SIZE (' // what // ')', e)
    call check_int(what // ': the datatype''s size', iv, 3 * (bit_size(0) / 8))
    call MPI_WIN_GET_ATTR(gwin, wkv, v, found, e)
    call check_ok('MPI_WIN_GET_ATTR (' // what // ')', e)
    call check_attr_addr(what // ': the window''s attribute', found, v, 9_MPI_ADDRESS_KIND)
    call MPI_WIN_GET_ATTR(gwin, MPI_WIN_BASE, v, found, e)
    call check_ok('MPI_WIN_GET_ATTR (' // what // ')', e)
    call check_attr_addr(what // ': the window''s MPI_WIN_BASE', found, v, wbuf_address)
    handler = MPI_ERRHANDLER_NULL
    call MPI_WIN_GET_ERRHANDLER(gwin, handler, e)
    call check_ok('MPI_WIN_GET_ERRHANDLER (' // what // ')', e)
    call check_int(what // ': the window''s error handler', handler, MPI_ERRORS_RETURN)
  end subroutine state_unchanged

  !> Every routine that takes a communicator, with `bad`: MPI_ERR_COMM.
  subroutine bad_comm(bad, what)
    integer, intent(in) :: bad
    character(len=*), intent(in) :: what
    integer :: victim
    call reset()
    call MPI_COMM_DUP(bad, newh, ierr)
    call expect_new(what // ': MPI_COMM_DUP', ierr, MPI_ERR_COMM, MPI_COMM_NULL)
    call reset()
    call MPI_COMM_DUP_WITH_INFO(bad, MPI_INFO_NULL, newh, ierr)
    call expect_new(what // ': MPI_COMM_DUP_WITH_INFO', ierr, MPI_ERR_COMM, MPI_COMM_NULL)
    call reset()
    call MPI_COMM_IDUP(bad, newh, req, ierr)
    call expect_new(what // ': MPI_COMM_IDUP', ierr, MPI_ERR_COMM, MPI_COMM_NULL)
    call reset()
    call MPI_COMM_SPLIT(bad, 0, 0, newh, ierr)
    call expect(what // ': MPI_COMM_SPLIT', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_COMM_SPLIT(bad, MPI_UNDEFINED, 0, newh, ierr)
    call expect(what // ': MPI_COMM_SPLIT(MPI_UNDEFINED)', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_COMM_RANK(bad, ival, ierr)
    call expect(what // ': MPI_COMM_RANK', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_COMM_SIZE(bad, ival, ierr)
    call expect(what // ': MPI_COMM_SIZE', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_COMM_COMPARE(bad, MPI_COMM_WORLD, ival, ierr)
    call expect(what // ': MPI_COMM_COMPARE(bad, MPI_COMM_WORLD)', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_COMM_COMPARE(good, bad, ival, ierr)
    call expect(what // ': MPI_COMM_COMPARE(good, bad)', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_COMM_COMPARE(bad, bad, ival, ierr)
    call expect(what // ': MPI_COMM_COMPARE(bad, bad)', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_COMM_SET_NAME(bad, 'renamed', ierr)
    call expect(what // ': MPI_COMM_SET_NAME', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_COMM_GET_NAME(bad, text, ival, ierr)
    call expect(what // ': MPI_COMM_GET_NAME', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_COMM_SET_ATTR(bad, ckv, 5_MPI_ADDRESS_KIND, ierr)
    call expect(what // ': MPI_COMM_SET_ATTR', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_COMM_GET_ATTR(bad, ckv, aval, flag, ierr)
    call expect(what // ': MPI_COMM_GET_ATTR', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_COMM_GET_ATTR(bad, MPI_TAG_UB, aval, flag, ierr)
    call expect(what // ': MPI_COMM_GET_ATTR(MPI_TAG_UB)', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_COMM_DELETE_ATTR(bad, ckv, ierr)
    call expect(what // ': MPI_COMM_DELETE_ATTR', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_ATTR_PUT(bad, m1kv, 5, ierr)
    call expect(what // ': MPI_ATTR_PUT', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_ATTR_GET(bad, m1kv, ival, flag, ierr)
    call expect(what // ': MPI_ATTR_GET', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_ATTR_GET(bad, MPI_TAG_UB, ival, flag, ierr)
    call expect(what // ': MPI_ATTR_GET(MPI_TAG_UB)', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_ATTR_DELETE(bad, m1kv, ierr)
    call expect(what // ': MPI_ATTR_DELETE', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_COMM_SET_ERRHANDLER(bad, MPI_ERRORS_RETURN, ierr)
    call expect(what // ': MPI_COMM_SET_ERRHANDLER', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_COMM_GET_ERRHANDLER(bad, ival, ierr)
    call expect(what // ': MPI_COMM_GET_ERRHANDLER', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_WIN_CREATE(buf, 16_MPI_ADDRESS_KIND, 1, MPI_INFO_NULL, bad, newh, ierr)
    call expect(what // ': MPI_WIN_CREATE', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_WIN_ALLOCATE(16_MPI_ADDRESS_KIND, 1, MPI_INFO_NULL, bad, aval, newh, ierr)
    call expect(what // ': MPI_WIN_ALLOCATE', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_WIN_CREATE_DYNAMIC(MPI_INFO_NULL, bad, newh, ierr)
    call expect(what // ': MPI_WIN_CREATE_DYNAMIC', ierr, MPI_ERR_COMM)
    victim = bad
    call reset()
    call MPI_COMM_FREE(victim, ierr)
    call expect_kept(what // ': MPI_COMM_FREE', ierr, MPI_ERR_COMM, victim, bad)
    call state_unchanged(what)
  end subroutine bad_comm

  !> Every routine that takes a datatype, with `bad`: MPI_ERR_TYPE.
  subroutine bad_type(bad, what)
    integer, intent(in) :: bad
    character(len=*), intent(in) :: what
    integer :: victim
    call reset()
    call MPI_TYPE_DUP(bad, newh, ierr)
    call expect_new(what // ': MPI_TYPE_DUP', ierr, MPI_ERR_TYPE, MPI_DATATYPE_NULL)
    call reset()
    call MPI_TYPE_CONTIGUOUS(2, bad, newh, ierr)
    call expect(what // ': MPI_TYPE_CONTIGUOUS', ierr, MPI_ERR_TYPE)
    call reset()
    call MPI_TYPE_CONTIGUOUS(0, bad, newh, ierr)
    call expect(what // ': MPI_TYPE_CONTIGUOUS(0)', ierr, MPI_ERR_TYPE)
    call reset()
    call MPI_TYPE_SIZE(bad, ival, ierr)
    call expect(what // ': MPI_TYPE_SIZE', ierr, MPI_ERR_TYPE)
    call reset()
    call MPI_TYPE_SET_ATTR(bad, tkv, 5_MPI_ADDRESS_KIND, ierr)
    call expect(what // ': MPI_TYPE_SET_ATTR', ierr, MPI_ERR_TYPE)
    call reset()
    call MPI_TYPE_GET_ATTR(bad, tkv, aval, flag, ierr)
    call expect(what // ': MPI_TYPE_GET_ATTR', ierr, MPI_ERR_TYPE)
    call reset()
    call MPI_TYPE_DELETE_ATTR(bad, tkv, ierr)
    call expect(what // ': MPI_TYPE_DELETE_ATTR', ierr, MPI_ERR_TYPE)
    victim = bad
    call reset()
    call MPI_TYPE_COMMIT(victim, ierr)
    call expect_kept(what // ': MPI_TYPE_COMMIT', ierr, MPI_ERR_TYPE, victim, bad)
    call reset()
    call MPI_TYPE_FREE(victim, ierr)
    call expect_kept(what // ': MPI_TYPE_FREE', ierr, MPI_ERR_TYPE, victim, bad)
    call state_unchanged(what)
  end subroutine bad_type

  !> Every routine that takes a window, with `bad`: MPI_ERR_WIN.
  subroutine bad_win(bad, what)
    integer, intent(in) :: bad
    character(len=*), intent(in) :: what
    integer :: victim
    call reset()
    call MPI_WIN_SET_ATTR(bad, wkv, 5_MPI_ADDRESS_KIND, ierr)
    call expect(what // ': MPI_WIN_SET_ATTR', ierr, MPI_ERR_WIN)
    call reset()
    call MPI_WIN_GET_ATTR(bad, wkv, aval, flag, ierr)
    call expect(what // ': MPI_WIN_GET_ATTR', ierr, MPI_ERR_WIN)
    call reset()
    call MPI_WIN_GET_ATTR(bad, MPI_WIN_BASE, aval, flag, ierr)
    call expect(what // ': MPI_WIN_GET_ATTR(MPI_WIN_BASE)', ierr, MPI_ERR_WIN)
    call reset()
    call MPI_WIN_DELETE_ATTR(bad, wkv, ierr)
    call expect(what // ': MPI_WIN_DELETE_ATTR', ierr, MPI_ERR_WIN)
    call reset()
    call MPI_WIN_SET_ERRHANDLER(bad, MPI_ERRORS_RETURN, ierr)
    call expect(what // ': MPI_WIN_SET_ERRHANDLER', ierr, MPI_ERR_WIN)
    call reset()
    call MPI_WIN_GET_ERRHANDLER(bad, ival, ierr)
    call expect(what // ': MPI_WIN_GET_ERRHANDLER', ierr, MPI_ERR_WIN)
    victim = bad
    call reset()
    call MPI_WIN_FREE(victim, ierr)
    call expect_kept(what // ': MPI_WIN_FREE', ierr, MPI_ERR_WIN, victim, bad)
    call state_unchanged(what)
  end subroutine bad_win

  !> Every routine that takes a communicator keyval, with `bad`, on two communicators.
  subroutine bad_comm_keyval(bad, what)
    integer, intent(in) :: bad
    character(len=*), intent(in) :: what
    integer :: victim, j, comm
    do j = 1, 3
      comm = good
      if (j == 2) comm = MPI_COMM_WORLD
      if (j == 3) comm = MPI_COMM_SELF
      call reset()
      call MPI_COMM_SET_ATTR(comm, bad, 5_MPI_ADDRESS_KIND, ierr)
      call expect(what // ': MPI_COMM_SET_ATTR', ierr, MPI_ERR_KEYVAL)
      call reset()
      call MPI_COMM_GET_ATTR(comm, bad, aval, flag, ierr)
      call expect(what // ': MPI_COMM_GET_ATTR', ierr, MPI_ERR_KEYVAL)
      call reset()
      call MPI_COMM_DELETE_ATTR(comm, bad, ierr)
      call expect(what // ': MPI_COMM_DELETE_ATTR', ierr, MPI_ERR_KEYVAL)
      call reset()
      call MPI_ATTR_PUT(comm, bad, 5, ierr)
      call expect(what // ': MPI_ATTR_PUT', ierr, MPI_ERR_KEYVAL)
      call reset()
      call MPI_ATTR_GET(comm, bad, ival, flag, ierr)
      call expect(what // ': MPI_ATTR_GET', ierr, MPI_ERR_KEYVAL)
      call reset()
      call MPI_ATTR_DELETE(comm, bad, ierr)
      call expect(what // ': MPI_ATTR_DELETE', ierr, MPI_ERR_KEYVAL)
    end do
    victim = bad
    call reset()
    call MPI_COMM_FREE_KEYVAL(victim, ierr)
    call expect_kept(what // ': MPI_COMM_FREE_KEYVAL', ierr, MPI_ERR_KEYVAL, victim, bad)
    call reset()
    call MPI_KEYVAL_FREE(victim, ierr)
    call expect_kept(what // ': MPI_KEYVAL_FREE', ierr, MPI_ERR_KEYVAL, victim, bad)
    call state_unchanged(what)
  end subroutine bad_comm_keyval

  !> Every routine that takes a datatype keyval, with `bad`, on two datatypes.
  subroutine bad_type_keyval(bad, what)
    integer, intent(in) :: bad
    character(len=*), intent(in) :: what
    integer :: victim, j, datatype
    do j = 1, 2
      datatype = gtype
      if (j == 2) datatype = MPI_INTEGER
      call reset()
      call MPI_TYPE_SET_ATTR(datatype, bad, 5_MPI_ADDRESS_KIND, ierr)
      call expect(what // ': MPI_TYPE_SET_ATTR', ierr, MPI_ERR_KEYVAL)
      call reset()
      call MPI_TYPE_GET_ATTR(datatype, bad, aval, flag, ierr)
      call expect(what // ': MPI_TYPE_GET_ATTR', ierr, MPI_ERR_KEYVAL)
      call reset()
      call MPI_TYPE_DELETE_ATTR(datatype, bad, ierr)
      call expect(what // ': MPI_TYPE_DELETE_ATTR', ierr, MPI_ERR_KEYVAL)
    end do
    victim = bad
    call reset()
    call MPI_TYPE_FREE_KEYVAL(victim, ierr)
    call expect_kept(what // ': MPI_TYPE_FREE_KEYVAL', ierr, MPI_ERR_KEYVAL, victim, bad)
    call state_unchanged(what)
  end subroutine bad_type_keyval

  !> Every routine that takes a window keyval, with `bad`.
  subroutine bad_win_keyval(bad, what)
    integer, intent(in) :: bad
    character(len=*), intent(in) :: what
    integer :: victim
    call reset()
    call MPI_WIN_SET_ATTR(gwin, bad, 5_MPI_ADDRESS_KIND, ierr)
    call expect(what // ': MPI_WIN_SET_ATTR', ierr, MPI_ERR_KEYVAL)
    call reset()
    call MPI_WIN_GET_ATTR(gwin, bad, aval, flag, ierr)
    call expect(what // ': MPI_WIN_GET_ATTR', ierr, MPI_ERR_KEYVAL)
    call reset()
    call MPI_WIN_DELETE_ATTR(gwin, bad, ierr)
    call expect(what // ': MPI_WIN_DELETE_ATTR', ierr, MPI_ERR_KEYVAL)
    victim = bad
    call reset()
    call MPI_WIN_FREE_KEYVAL(victim, ierr)
    call expect_kept(what // ': MPI_WIN_FREE_KEYVAL', ierr, MPI_ERR_KEYVAL, victim, bad)
    call state_unchanged(what)
  end subroutine bad_win_keyval

  !> A predefined communicator keyval cannot be set, deleted or freed; it can be read.
  subroutine predefined_comm_keyval(key, what)
    integer, intent(in) :: key
    character(len=*), intent(in) :: what
    integer :: victim, j, comm
    do j = 1, 3
      comm = good
      if (j == 2) comm = MPI_COMM_WORLD
      if (j == 3) comm = MPI_COMM_SELF
      call reset()
      call MPI_COMM_SET_ATTR(comm, key, 5_MPI_ADDRESS_KIND, ierr)
      call expect(what // ': MPI_COMM_SET_ATTR', ierr, MPI_ERR_KEYVAL)
      call reset()
      call MPI_COMM_DELETE_ATTR(comm, key, ierr)
      call expect(what // ': MPI_COMM_DELETE_ATTR', ierr, MPI_ERR_KEYVAL)
      call reset()
      call MPI_ATTR_PUT(comm, key, 5, ierr)
      call expect(what // ': MPI_ATTR_PUT', ierr, MPI_ERR_KEYVAL)
      call reset()
      call MPI_ATTR_DELETE(comm, key, ierr)
      call expect(what // ': MPI_ATTR_DELETE', ierr, MPI_ERR_KEYVAL)
    end do
    victim = key
    call reset()
    call MPI_COMM_FREE_KEYVAL(victim, ierr)
    call expect_kept(what // ': MPI_COMM_FREE_KEYVAL', ierr, MPI_ERR_KEYVAL, victim, key)
    call reset()
    call MPI_KEYVAL_FREE(victim, ierr)
    call expect_kept(what // ': MPI_KEYVAL_FREE', ierr, MPI_ERR_KEYVAL, victim, key)
    flag = .false.
    call MPI_ATTR_GET(MPI_COMM_WORLD, key, ival, flag, ierr)
    call check_ok('MPI_ATTR_GET(MPI_COMM_WORLD, ' // what // ')', ierr)
    call check_logical(what // ': still on MPI_COMM_WORLD', flag, .true.)
    call state_unchanged(what)
  end subroutine predefined_comm_keyval

  !> A predefined window keyval cannot be set, deleted or freed; it can be read.
  subroutine predefined_win_keyval(key, what)
    integer, intent(in) :: key
    character(len=*), intent(in) :: what
    integer :: victim
    call reset()
    call MPI_WIN_SET_ATTR(gwin, key, 5_MPI_ADDRESS_KIND, ierr)
    call expect(what // ': MPI_WIN_SET_ATTR', ierr, MPI_ERR_KEYVAL)
    call reset()
    call MPI_WIN_DELETE_ATTR(gwin, key, ierr)
    call expect(what // ': MPI_WIN_DELETE_ATTR', ierr, MPI_ERR_KEYVAL)
    victim = key
    call reset()
    call MPI_WIN_FREE_KEYVAL(victim, ierr)
    call expect_kept(what // ': MPI_WIN_FREE_KEYVAL', ierr, MPI_ERR_KEYVAL, victim, key)
    flag = .false.
    call MPI_WIN_GET_ATTR(gwin, key, aval, flag, ierr)
    call check_ok('MPI_WIN_GET_ATTR(' // what // ')', ierr)
    call check_logical(what // ': still on the window', flag, .true.)
    call state_unchanged(what)
  end subroutine predefined_win_keyval

  !> MPI_WAIT, MPI_TEST and MPI_REQUEST_FREE with `bad`: MPI_ERR_REQUEST.
  subroutine bad_request(bad, what)
    integer, intent(in) :: bad
    character(len=*), intent(in) :: what
    integer :: victim
    victim = bad
    call reset()
    call MPI_WAIT(victim, status, ierr)
    call expect_kept(what // ': MPI_WAIT', ierr, MPI_ERR_REQUEST, victim, bad)
    call reset()
    call MPI_TEST(victim, flag, status, ierr)
    call expect_kept(what // ': MPI_TEST', ierr, MPI_ERR_REQUEST, victim, bad)
    call reset()
    call MPI_REQUEST_FREE(victim, ierr)
    call expect_kept(what // ': MPI_REQUEST_FREE', ierr, MPI_ERR_REQUEST, victim, bad)
    call state_unchanged(what)
  end subroutine bad_request

  !> MPI_TYPE_CONTIGUOUS of huge(0) copies, again and again, until the size overflows 64
  !> bits: MPI_ERR_COUNT (the third time with 4-byte INTEGERs, the second with 8-byte ones).
  subroutine size_overflow()
    integer :: types(4), n, j, e, size_out
    types(1) = MPI_BYTE
    n = 1
    do j = 1, 3
      call reset()
      call MPI_TYPE_CONTIGUOUS(huge(0), types(n), newh, e)
      if (e /= MPI_SUCCESS) exit
      n = n + 1
      types(n) = newh
    end do
    call check(n > 1 .and. n < 4, 'MPI_TYPE_CONTIGUOUS(huge(0)) repeated: ' // istr(n - 1) // ' succeeded')
    if (n < 4) call expect('MPI_TYPE_CONTIGUOUS(huge(0)) beyond 64 bits', e, MPI_ERR_COUNT)
    size_out = -1
    call MPI_TYPE_SIZE(types(n), size_out, e)
    call check_ok('MPI_TYPE_SIZE of the largest', e)
    ! huge(0) bytes with 8-byte INTEGERs; about 2^62, more than a default INTEGER holds, with 4
    if (bit_size(0) == 64) then
      call check_int('MPI_TYPE_SIZE of the largest', size_out, huge(0))
    else
      call check_int('MPI_TYPE_SIZE of the largest', size_out, MPI_UNDEFINED)
    end if
    do j = n, 2, -1
      call MPI_TYPE_FREE(types(j), e)
      call check_ok('MPI_TYPE_FREE', e)
    end do
  end subroutine size_overflow

  !> MPI_FREE_MEM of what MPI_ALLOC_MEM did not return: MPI_ERR_BASE.
  subroutine free_mem_errors()
    integer, pointer :: mem(:)
    type(c_ptr) :: memptr
    integer(kind=MPI_ADDRESS_KIND) :: address
    integer :: e
    call reset()
    call MPI_FREE_MEM(buf, ierr)
    call expect('MPI_FREE_MEM of a local array', ierr, MPI_ERR_BASE)
    call reset()
    call MPI_FREE_MEM(wbuf, ierr)
    call expect('MPI_FREE_MEM of a window''s memory', ierr, MPI_ERR_BASE)
    address = 0
    call MPI_ALLOC_MEM(int(4 * (bit_size(0) / 8), MPI_ADDRESS_KIND), MPI_INFO_NULL, address, e)
    call check_ok('MPI_ALLOC_MEM', e)
    if (address == 0) return
    memptr = transfer(address, memptr)
    call c_f_pointer(memptr, mem, [4])
    mem = 7
    call reset()
    call MPI_FREE_MEM(mem(2:), ierr)
    call expect('MPI_FREE_MEM of the second element', ierr, MPI_ERR_BASE)
    call check_int('the memory after the refused MPI_FREE_MEM', sum(mem), 28)
    call MPI_FREE_MEM(mem, e)
    call check_ok('MPI_FREE_MEM', e)
    call reset()
    call MPI_FREE_MEM(mem, ierr)
    call expect('MPI_FREE_MEM a second time', ierr, MPI_ERR_BASE)
  end subroutine free_mem_errors
end program badargs_mpi
