! The bad-input catalogue through `use mpi_f08` (attributes.md §5, docs/errors.md), with
! MPI_ERRORS_RETURN on MPI_COMM_WORLD, MPI_COMM_SELF and the window. A bad handle is a
! TYPE(MPI_Comm), TYPE(MPI_Datatype), TYPE(MPI_Win) or TYPE(MPI_Request) whose MPI_VAL is a
! null, freed, other-kind or made-up value. Every routine that takes a handle, a keyval or
! another checked argument is called with each bad value; each call must give the expected
! class in ierror, write none of its outputs (they hold sentinels), keep its in-out
! arguments, run no callback and change no attribute, name or error handler. With ierror
! absent the error handler still returns (MPI_ERRORS_RETURN) and nothing changes either.
! The same catalogue as badargs_mpi (`use mpi`); the symbols are shared, the interfaces are not.

module badargs_f08_cb
  use mpi_f08
  implicit none
  integer :: ncalls = 0
  integer :: last_kv = 0
  integer(kind=MPI_ADDRESS_KIND) :: last_val = 0, last_extra = 0
contains
  subroutine saw(kv, val, extra)
    integer, intent(in) :: kv
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: val, extra
    ncalls = ncalls + 1
    last_kv = kv
    last_val = val
    last_extra = extra
  end subroutine saw

  subroutine comm_copy(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    call saw(ieor(comm_keyval, oldcomm%MPI_VAL), attribute_val_in, extra_state)
    attribute_val_out = attribute_val_in
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine comm_copy

  subroutine comm_del(comm, comm_keyval, attribute_val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call saw(ieor(comm_keyval, comm%MPI_VAL), attribute_val, extra_state)
    ierror = MPI_SUCCESS
  end subroutine comm_del

  subroutine type_copy(oldtype, type_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    type(MPI_Datatype) :: oldtype
    integer :: type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    call saw(ieor(type_keyval, oldtype%MPI_VAL), attribute_val_in, extra_state)
    attribute_val_out = attribute_val_in
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine type_copy

  subroutine type_del(datatype, type_keyval, attribute_val, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer :: type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call saw(ieor(type_keyval, datatype%MPI_VAL), attribute_val, extra_state)
    ierror = MPI_SUCCESS
  end subroutine type_del

  subroutine win_del(win, win_keyval, attribute_val, extra_state, ierror)
    type(MPI_Win) :: win
    integer :: win_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call saw(ieor(win_keyval, win%MPI_VAL), attribute_val, extra_state)
    ierror = MPI_SUCCESS
  end subroutine win_del

  subroutine mpi1_del(comm, keyval, attribute_val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: keyval, attribute_val, extra_state, ierror
    call saw(ieor(keyval, comm%MPI_VAL), int(attribute_val, MPI_ADDRESS_KIND), int(extra_state, MPI_ADDRESS_KIND))
    ierror = MPI_SUCCESS
  end subroutine mpi1_del
end module badargs_f08_cb

program badargs_f08
  use mpi_f08
  use checks
  use badargs_f08_cb
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer, c_associated
  implicit none
  integer, parameter :: NB = 24
  ! the objects and keyvals whose state must not change
  integer :: ckv, m1kv, tkv, wkv
  type(MPI_Comm) :: good
  type(MPI_Datatype) :: gtype
  type(MPI_Win) :: gwin
  integer, target :: wbuf(8)
  integer(kind=MPI_ADDRESS_KIND) :: wbuf_address
  ! outputs of the calls that must fail: sentinels before each call
  integer :: ierr, ival, ival2
  type(MPI_Comm) :: newcomm
  type(MPI_Datatype) :: newtype
  type(MPI_Win) :: newwin
  type(MPI_Request) :: req
  type(MPI_Errhandler) :: eh
  type(MPI_Status) :: status
  type(c_ptr) :: baseptr
  integer(kind=MPI_ADDRESS_KIND) :: aval
  logical :: flag
  character(len=300) :: text
  character(len=300), parameter :: untouched_text = repeat('u', 300)
  ! bad values and their names
  integer :: bads(NB), nbad, i
  character(len=64) :: names(NB)
  ! scratch
  type(MPI_Comm) :: c, cfreed, cfreed_attr, comm_victim
  type(MPI_Datatype) :: tfreed, tfreed_attr, type_victim
  type(MPI_Win) :: wfreed, wfreed_attr
  type(MPI_Request) :: r, stale_req
  type(MPI_Errhandler) :: eh_victim
  integer :: kv, kv2, kv3, kv4, saved
  integer(kind=MPI_ADDRESS_KIND) :: zero, big_size
  integer :: buf(4)

  test_name = 'badargs_f08'
  max_error_string = MPI_MAX_ERROR_STRING
  zero = 0
  big_size = huge(zero)
  call MPI_Init(ierr)
  call check_ok('MPI_Init', ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_Comm_set_errhandler(MPI_COMM_WORLD)', ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_Comm_set_errhandler(MPI_COMM_SELF)', ierr)

  ! ---- the state that must not change ----
  call MPI_Comm_create_keyval(comm_copy, comm_del, ckv, 100_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Comm_create_keyval', ierr)
  call MPI_Keyval_create(MPI_DUP_FN, mpi1_del, m1kv, 101, ierr)
  call check_ok('MPI_Keyval_create', ierr)
  call MPI_Type_create_keyval(type_copy, type_del, tkv, 102_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Type_create_keyval', ierr)
  call MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_del, wkv, 103_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Win_create_keyval', ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, good, ierr)
  call check_ok('MPI_Comm_dup', ierr)
  call MPI_Comm_set_name(good, 'good', ierr)
  call check_ok('MPI_Comm_set_name', ierr)
  call MPI_Comm_set_attr(MPI_COMM_WORLD, ckv, 11_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Comm_set_attr', ierr)
  call MPI_Comm_set_attr(good, ckv, 22_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Comm_set_attr', ierr)
  call MPI_Attr_put(good, m1kv, -33, ierr)
  call check_ok('MPI_Attr_put', ierr)
  call MPI_Type_contiguous(3, MPI_INTEGER, gtype, ierr)
  call check_ok('MPI_Type_contiguous', ierr)
  call MPI_Type_commit(gtype, ierr)
  call check_ok('MPI_Type_commit', ierr)
  call MPI_Type_set_attr(gtype, tkv, 5_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Type_set_attr', ierr)
  call MPI_Type_set_attr(MPI_INTEGER, tkv, 6_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Type_set_attr(MPI_INTEGER)', ierr)
  call MPI_Win_create(wbuf, int(size(wbuf) * (bit_size(0) / 8), MPI_ADDRESS_KIND), 1, MPI_INFO_NULL, &
                      MPI_COMM_WORLD, gwin, ierr)
  call check_ok('MPI_Win_create', ierr)
  call MPI_Win_set_errhandler(gwin, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_Win_set_errhandler', ierr)
  call MPI_Win_set_attr(gwin, wkv, 9_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Win_set_attr', ierr)
  call MPI_Get_address(wbuf, wbuf_address, ierr)
  call check_ok('MPI_Get_address', ierr)
  ncalls = 0
  call state_unchanged('the start')

  ! ---- bad communicators ----
  call MPI_Comm_dup(MPI_COMM_WORLD, c, ierr)
  call check_ok('MPI_Comm_dup', ierr)
  cfreed = c
  call MPI_Comm_free(c, ierr)
  call check_ok('MPI_Comm_free', ierr)
  call MPI_Comm_dup(good, c, ierr)
  call check_ok('MPI_Comm_dup', ierr)
  cfreed_attr = c
  call MPI_Comm_free(c, ierr)
  call check_ok('MPI_Comm_free', ierr)
  call check_int('callbacks of the dups and frees of communicators with attributes', ncalls, 5)
  ncalls = 0
  nbad = 0
  call add(MPI_COMM_NULL%MPI_VAL, 'MPI_COMM_NULL')
  call add(cfreed%MPI_VAL, 'a freed communicator')
  call add(cfreed_attr%MPI_VAL, 'a freed communicator that had attributes')
  call add(gtype%MPI_VAL, 'a datatype')
  call add(MPI_INTEGER%MPI_VAL, 'MPI_INTEGER')
  call add(gwin%MPI_VAL, 'a window')
  call add(MPI_WIN_NULL%MPI_VAL, 'MPI_WIN_NULL')
  call add(MPI_ERRORS_RETURN%MPI_VAL, 'MPI_ERRORS_RETURN')
  call add(MPI_INFO_NULL%MPI_VAL, 'MPI_INFO_NULL')
  call add(MPI_REQUEST_NULL%MPI_VAL, 'MPI_REQUEST_NULL')
  call add(0, '0')
  call add(-1, '-1')
  call add(4095, '4095')
  call add(123456789, '123456789')
  call add(huge(0), 'huge(0)')
  call add(ieor(good%MPI_VAL, ishft(1, bit_size(0) - 2)), 'a communicator with its generation changed')
  do i = 1, nbad
    call bad_comm(MPI_Comm(bads(i)), 'communicator ' // trim(names(i)))
  end do

  ! ---- bad datatypes ----
  call MPI_Type_contiguous(2, MPI_INTEGER, newtype, ierr)
  call check_ok('MPI_Type_contiguous', ierr)
  tfreed = newtype
  call MPI_Type_free(newtype, ierr)
  call check_ok('MPI_Type_free', ierr)
  call MPI_Type_dup(gtype, newtype, ierr)
  call check_ok('MPI_Type_dup', ierr)
  tfreed_attr = newtype
  call MPI_Type_free(newtype, ierr)
  call check_ok('MPI_Type_free', ierr)
  call check_int('callbacks of the dup and free of a datatype with attributes', ncalls, 2)
  ncalls = 0
  nbad = 0
  call add(MPI_DATATYPE_NULL%MPI_VAL, 'MPI_DATATYPE_NULL')
  call add(tfreed%MPI_VAL, 'a freed datatype')
  call add(tfreed_attr%MPI_VAL, 'a freed datatype that had attributes')
  call add(good%MPI_VAL, 'a communicator')
  call add(MPI_COMM_WORLD%MPI_VAL, 'MPI_COMM_WORLD')
  call add(gwin%MPI_VAL, 'a window')
  call add(0, '0')
  call add(-1, '-1')
  call add(123456789, '123456789')
  call add(huge(0), 'huge(0)')
  call add(ieor(gtype%MPI_VAL, ishft(1, bit_size(0) - 2)), 'a datatype with its generation changed')
  do i = 1, nbad
    call bad_type(MPI_Datatype(bads(i)), 'datatype ' // trim(names(i)))
  end do

  ! ---- bad windows ----
  call MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_SELF, newwin, ierr)
  call check_ok('MPI_Win_create_dynamic', ierr)
  wfreed = newwin
  call MPI_Win_free(newwin, ierr)
  call check_ok('MPI_Win_free', ierr)
  call MPI_Win_allocate(16_MPI_ADDRESS_KIND, 1, MPI_INFO_NULL, MPI_COMM_WORLD, baseptr, newwin, ierr)
  call check_ok('MPI_Win_allocate', ierr)
  call MPI_Win_set_attr(newwin, wkv, 3_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Win_set_attr', ierr)
  wfreed_attr = newwin
  call MPI_Win_free(newwin, ierr)
  call check_ok('MPI_Win_free', ierr)
  call check_int('callbacks of the free of a window with attributes', ncalls, 1)
  ncalls = 0
  nbad = 0
  call add(MPI_WIN_NULL%MPI_VAL, 'MPI_WIN_NULL')
  call add(wfreed%MPI_VAL, 'a freed window')
  call add(wfreed_attr%MPI_VAL, 'a freed window that had attributes')
  call add(good%MPI_VAL, 'a communicator')
  call add(MPI_COMM_WORLD%MPI_VAL, 'MPI_COMM_WORLD')
  call add(gtype%MPI_VAL, 'a datatype')
  call add(MPI_INTEGER%MPI_VAL, 'MPI_INTEGER')
  call add(0, '0')
  call add(-1, '-1')
  call add(123456789, '123456789')
  call add(huge(0), 'huge(0)')
  call add(ieor(gwin%MPI_VAL, ishft(1, bit_size(0) - 2)), 'a window with its generation changed')
  do i = 1, nbad
    call bad_win(MPI_Win(bads(i)), 'window ' // trim(names(i)))
  end do

  ! ---- bad keyvals ----
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kv, zero, ierr)
  call check_ok('MPI_Comm_create_keyval', ierr)
  call MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, kv2, zero, ierr)
  call check_ok('MPI_Type_create_keyval', ierr)
  call MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, kv3, zero, ierr)
  call check_ok('MPI_Win_create_keyval', ierr)
  call MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, kv4, 0, ierr)
  call check_ok('MPI_Keyval_create', ierr)
  nbad = 0
  call add(kv, 'a freed communicator keyval')
  call add(kv2, 'a freed datatype keyval')
  call add(kv3, 'a freed window keyval')
  call add(kv4, 'a freed MPI_Keyval_create keyval')
  call MPI_Comm_free_keyval(kv, ierr)
  call check_ok('MPI_Comm_free_keyval', ierr)
  call MPI_Type_free_keyval(kv2, ierr)
  call check_ok('MPI_Type_free_keyval', ierr)
  call MPI_Win_free_keyval(kv3, ierr)
  call check_ok('MPI_Win_free_keyval', ierr)
  call MPI_Keyval_free(kv4, ierr)
  call check_ok('MPI_Keyval_free', ierr)
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
  call bad_comm_keyval(tkv, 'a datatype keyval on communicators')
  call bad_comm_keyval(wkv, 'a window keyval on communicators')
  call bad_comm_keyval(MPI_WIN_SIZE, 'MPI_WIN_SIZE on communicators')
  call bad_type_keyval(ckv, 'a communicator keyval on datatypes')
  call bad_type_keyval(m1kv, 'an MPI_Keyval_create keyval on datatypes')
  call bad_type_keyval(wkv, 'a window keyval on datatypes')
  call bad_type_keyval(MPI_HOST, 'MPI_HOST on datatypes')
  call bad_win_keyval(ckv, 'a communicator keyval on windows')
  call bad_win_keyval(m1kv, 'an MPI_Keyval_create keyval on windows')
  call bad_win_keyval(tkv, 'a datatype keyval on windows')
  call bad_win_keyval(MPI_TAG_UB, 'MPI_TAG_UB on windows')
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
  ! a freed keyval still in use: no new value; the value it has stays
  call MPI_Comm_create_keyval(comm_copy, comm_del, kv, zero, ierr)
  call check_ok('MPI_Comm_create_keyval', ierr)
  call MPI_Comm_set_attr(good, kv, 41_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Comm_set_attr', ierr)
  saved = kv
  call MPI_Comm_free_keyval(kv, ierr)
  call check_ok('MPI_Comm_free_keyval', ierr)
  kv = saved
  call reset()
  call MPI_Comm_set_attr(good, kv, 7_MPI_ADDRESS_KIND, ierr)
  call expect('freed keyval still in use: MPI_Comm_set_attr', ierr, MPI_ERR_KEYVAL)
  call reset()
  call MPI_Attr_put(good, kv, 7, ierr)
  call expect('freed keyval still in use: MPI_Attr_put', ierr, MPI_ERR_KEYVAL)
  call check_int('callbacks run by the refused sets', ncalls, 0)
  call expect_comm_attr(good, kv, 41_MPI_ADDRESS_KIND, 'value of the freed keyval still in use')
  call MPI_Comm_delete_attr(good, kv, ierr)
  call check_ok('MPI_Comm_delete_attr', ierr)
  call check_int('delete callback of the last value of the freed keyval', ncalls, 1)
  ncalls = 0
  call bad_comm_keyval(kv, 'a communicator keyval gone with its last value')

  ! ---- requests ----
  call MPI_Comm_idup(MPI_COMM_WORLD, c, r, ierr)
  call check_ok('MPI_Comm_idup', ierr)
  stale_req = r
  call MPI_Wait(r, MPI_STATUS_IGNORE, ierr)
  call check_ok('MPI_Wait', ierr)
  call check_logical('MPI_Wait sets MPI_REQUEST_NULL', r == MPI_REQUEST_NULL, .true.)
  call MPI_Comm_free(c, ierr)
  call check_ok('MPI_Comm_free', ierr)
  call check_int('callbacks of the idup and free of MPI_COMM_WORLD', ncalls, 2)
  ncalls = 0
  nbad = 0
  call add(stale_req%MPI_VAL, 'a completed request')
  call add(MPI_COMM_WORLD%MPI_VAL, 'MPI_COMM_WORLD')
  call add(good%MPI_VAL, 'a communicator')
  call add(gtype%MPI_VAL, 'a datatype')
  call add(0, '0')
  call add(-1, '-1')
  call add(123456789, '123456789')
  call add(huge(0), 'huge(0)')
  call add(ieor(stale_req%MPI_VAL, ishft(1, bit_size(0) - 2)), 'a request with its generation changed')
  do i = 1, nbad
    call bad_request(MPI_Request(bads(i)), 'request ' // trim(names(i)))
  end do
  r = MPI_REQUEST_NULL
  call reset()
  call MPI_Request_free(r, ierr)
  call expect('MPI_Request_free(MPI_REQUEST_NULL)', ierr, MPI_ERR_REQUEST)
  call check_logical('MPI_Request_free(MPI_REQUEST_NULL) keeps it', r == MPI_REQUEST_NULL, .true.)

  ! ---- other bad arguments ----
  nbad = 0
  call add(MPI_COMM_WORLD%MPI_VAL, 'MPI_COMM_WORLD')
  call add(MPI_INTEGER%MPI_VAL, 'MPI_INTEGER')
  call add(12345, '12345')
  call add(-1, '-1')
  call add(huge(0), 'huge(0)')
  do i = 1, nbad
    call reset()
    call MPI_Comm_dup_with_info(good, MPI_Info(bads(i)), newcomm, ierr)
    call expect('MPI_Comm_dup_with_info with info ' // trim(names(i)), ierr, MPI_ERR_INFO)
    call reset()
    call MPI_Win_create(buf, 16_MPI_ADDRESS_KIND, 1, MPI_Info(bads(i)), good, newwin, ierr)
    call expect('MPI_Win_create with info ' // trim(names(i)), ierr, MPI_ERR_INFO)
    call reset()
    call MPI_Win_allocate(16_MPI_ADDRESS_KIND, 1, MPI_Info(bads(i)), good, baseptr, newwin, ierr)
    call expect('MPI_Win_allocate with info ' // trim(names(i)), ierr, MPI_ERR_INFO)
    call reset()
    call MPI_Win_create_dynamic(MPI_Info(bads(i)), good, newwin, ierr)
    call expect('MPI_Win_create_dynamic with info ' // trim(names(i)), ierr, MPI_ERR_INFO)
    call reset()
    call MPI_Alloc_mem(16_MPI_ADDRESS_KIND, MPI_Info(bads(i)), baseptr, ierr)
    call expect('MPI_Alloc_mem with info ' // trim(names(i)), ierr, MPI_ERR_INFO)
  end do
  call reset()
  call MPI_Comm_split(good, -5, 0, newcomm, ierr)
  call expect('MPI_Comm_split with colour -5', ierr, MPI_ERR_ARG)
  comm_victim = MPI_COMM_WORLD
  call reset()
  call MPI_Comm_free(comm_victim, ierr)
  call expect('MPI_Comm_free(MPI_COMM_WORLD)', ierr, MPI_ERR_COMM)
  call check_logical('MPI_Comm_free(MPI_COMM_WORLD) keeps it', comm_victim == MPI_COMM_WORLD, .true.)
  comm_victim = MPI_COMM_SELF
  call reset()
  call MPI_Comm_free(comm_victim, ierr)
  call expect('MPI_Comm_free(MPI_COMM_SELF)', ierr, MPI_ERR_COMM)
  call check_logical('MPI_Comm_free(MPI_COMM_SELF) keeps it', comm_victim == MPI_COMM_SELF, .true.)
  type_victim = MPI_INTEGER
  call reset()
  call MPI_Type_free(type_victim, ierr)
  call expect('MPI_Type_free(MPI_INTEGER)', ierr, MPI_ERR_TYPE)
  call check_logical('MPI_Type_free(MPI_INTEGER) keeps it', type_victim == MPI_INTEGER, .true.)
  call reset()
  call MPI_Type_contiguous(-1, MPI_INTEGER, newtype, ierr)
  call expect('MPI_Type_contiguous with count -1', ierr, MPI_ERR_COUNT)
  call reset()
  call MPI_Win_create(buf, -1_MPI_ADDRESS_KIND, 1, MPI_INFO_NULL, good, newwin, ierr)
  call expect('MPI_Win_create with size -1', ierr, MPI_ERR_SIZE)
  call reset()
  call MPI_Win_create(buf, 16_MPI_ADDRESS_KIND, 0, MPI_INFO_NULL, good, newwin, ierr)
  call expect('MPI_Win_create with disp_unit 0', ierr, MPI_ERR_DISP)
  call reset()
  call MPI_Win_allocate(-8_MPI_ADDRESS_KIND, 1, MPI_INFO_NULL, good, baseptr, newwin, ierr)
  call expect('MPI_Win_allocate with size -8', ierr, MPI_ERR_SIZE)
  call reset()
  call MPI_Win_allocate(8_MPI_ADDRESS_KIND, -1, MPI_INFO_NULL, good, baseptr, newwin, ierr)
  call expect('MPI_Win_allocate with disp_unit -1', ierr, MPI_ERR_DISP)
  call reset()
  call MPI_Win_allocate(big_size, 1, MPI_INFO_NULL, good, baseptr, newwin, ierr)
  call expect('MPI_Win_allocate of huge(0_MPI_ADDRESS_KIND) bytes', ierr, MPI_ERR_NO_MEM)
  if (bit_size(0) == 64) then
    call reset()
    call MPI_Win_create(buf, 16_MPI_ADDRESS_KIND, huge(0), MPI_INFO_NULL, good, newwin, ierr)
    call expect('MPI_Win_create with disp_unit huge(0)', ierr, MPI_ERR_DISP)
  end if
  call reset()
  call MPI_Alloc_mem(-1_MPI_ADDRESS_KIND, MPI_INFO_NULL, baseptr, ierr)
  call expect('MPI_Alloc_mem with size -1', ierr, MPI_ERR_SIZE)
  call reset()
  call MPI_Alloc_mem(big_size, MPI_INFO_NULL, baseptr, ierr)
  call expect('MPI_Alloc_mem of huge(0_MPI_ADDRESS_KIND) bytes', ierr, MPI_ERR_NO_MEM)
  call free_mem_errors()
  nbad = 0
  call add(-1, '-1')
  call add(1000, '1000')
  call add(huge(0), 'huge(0)')
  call add(-huge(0), '-huge(0)')
  do i = 1, nbad
    call reset()
    call MPI_Error_class(bads(i), ival, ierr)
    call expect('MPI_Error_class of ' // trim(names(i)), ierr, MPI_ERR_ARG)
    call reset()
    call MPI_Error_string(bads(i), text, ival, ierr)
    call expect('MPI_Error_string of ' // trim(names(i)), ierr, MPI_ERR_ARG)
  end do
  nbad = 0
  call add(MPI_ERRHANDLER_NULL%MPI_VAL, 'MPI_ERRHANDLER_NULL')
  call add(MPI_COMM_WORLD%MPI_VAL, 'MPI_COMM_WORLD')
  call add(0, '0')
  call add(12345, '12345')
  call add(huge(0), 'huge(0)')
  do i = 1, nbad
    call reset()
    call MPI_Comm_set_errhandler(good, MPI_Errhandler(bads(i)), ierr)
    call expect('MPI_Comm_set_errhandler with ' // trim(names(i)), ierr, MPI_ERR_ERRHANDLER)
    call reset()
    call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_Errhandler(bads(i)), ierr)
    call expect('MPI_Comm_set_errhandler(MPI_COMM_SELF) with ' // trim(names(i)), ierr, MPI_ERR_ERRHANDLER)
    call reset()
    call MPI_Win_set_errhandler(gwin, MPI_Errhandler(bads(i)), ierr)
    call expect('MPI_Win_set_errhandler with ' // trim(names(i)), ierr, MPI_ERR_ERRHANDLER)
    eh_victim = MPI_Errhandler(bads(i))
    call reset()
    call MPI_Errhandler_free(eh_victim, ierr)
    call expect('MPI_Errhandler_free of ' // trim(names(i)), ierr, MPI_ERR_ERRHANDLER)
    call check_int('MPI_Errhandler_free of ' // trim(names(i)) // ' keeps it', eh_victim%MPI_VAL, bads(i))
  end do
  call expect_handler(MPI_COMM_SELF, 'MPI_COMM_SELF after the refused handlers')
  call reset()
  call MPI_Init(ierr)
  call expect('a second MPI_Init', ierr, MPI_ERR_OTHER)
  call reset()
  call MPI_Init_thread(MPI_THREAD_MULTIPLE, ival, ierr)
  call expect('MPI_Init_thread after MPI_Init', ierr, MPI_ERR_OTHER)
  call reset()
  call MPI_Init_thread(huge(0), ival, ierr)
  call expect('MPI_Init_thread with required huge(0)', ierr, MPI_ERR_ARG)
  call state_unchanged('the other bad arguments')

  ! ---- everything still works ----
  call MPI_Comm_dup(good, c, ierr)
  call check_ok('MPI_Comm_dup of the good communicator', ierr)
  call check_int('copy callbacks of that dup', ncalls, 1)
  call MPI_Comm_free(c, ierr)
  call check_ok('MPI_Comm_free', ierr)
  call MPI_Comm_free(good, ierr)
  call check_ok('MPI_Comm_free of the good communicator', ierr)
  call MPI_Type_free(gtype, ierr)
  call check_ok('MPI_Type_free', ierr)
  call MPI_Win_free(gwin, ierr)
  call check_ok('MPI_Win_free', ierr)
  call check_int('callbacks of the frees', ncalls, 1 + 2 + 2 + 1 + 1)
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, ckv, ierr)
  call check_ok('MPI_Comm_delete_attr', ierr)
  call MPI_Type_delete_attr(MPI_INTEGER, tkv, ierr)
  call check_ok('MPI_Type_delete_attr', ierr)
  call MPI_Comm_free_keyval(ckv, ierr)
  call check_ok('MPI_Comm_free_keyval', ierr)
  call MPI_Keyval_free(m1kv, ierr)
  call check_ok('MPI_Keyval_free', ierr)
  call MPI_Type_free_keyval(tkv, ierr)
  call check_ok('MPI_Type_free_keyval', ierr)
  call MPI_Win_free_keyval(wkv, ierr)
  call check_ok('MPI_Win_free_keyval', ierr)
  call MPI_Finalize(ierr)
  call check_ok('MPI_Finalize', ierr)
  call finish()

contains

  subroutine add(value, name)
    integer, intent(in) :: value
    character(len=*), intent(in) :: name
    nbad = nbad + 1
    bads(nbad) = value
    names(nbad) = name
  end subroutine add

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

  subroutine reset()
    ival = sentinel
    ival2 = sentinel
    newcomm%MPI_VAL = sentinel
    newtype%MPI_VAL = sentinel
    newwin%MPI_VAL = sentinel
    req%MPI_VAL = sentinel
    eh%MPI_VAL = sentinel
    status%MPI_SOURCE = sentinel
    status%MPI_TAG = sentinel
    status%MPI_ERROR = sentinel
    baseptr = transfer(addr_sentinel, baseptr)
    aval = addr_sentinel
    flag = .true.
    text = untouched_text
    ierr = sentinel
  end subroutine reset

  !> A failed call: ierror of `class`, no output written (a new communicator or datatype may
  !> also be the null handle: attributes.md §5 "A failed dup").
  subroutine expect(what, ierror, class)
    character(len=*), intent(in) :: what
    integer, intent(in) :: ierror, class
    call check_class(what, ierror, class, class_name(class))
    call untouched(what)
  end subroutine expect

  subroutine untouched(what)
    character(len=*), intent(in) :: what
    call check_untouched(what // ' (first INTEGER output)', ival)
    call check_untouched(what // ' (second INTEGER output)', ival2)
    if (newcomm /= MPI_COMM_NULL) call check_untouched(what // ' (new communicator)', newcomm%MPI_VAL)
    if (newtype /= MPI_DATATYPE_NULL) call check_untouched(what // ' (new datatype)', newtype%MPI_VAL)
    call check_untouched(what // ' (new window)', newwin%MPI_VAL)
    call check_untouched(what // ' (request)', req%MPI_VAL)
    call check_untouched(what // ' (error handler)', eh%MPI_VAL)
    call check_untouched(what // ' (status MPI_SOURCE)', status%MPI_SOURCE)
    call check_untouched(what // ' (status MPI_TAG)', status%MPI_TAG)
    call check_untouched(what // ' (status MPI_ERROR)', status%MPI_ERROR)
    call check_untouched_addr(what // ' (baseptr)', transfer(baseptr, aval))
    call check_untouched_addr(what // ' (address-kind output)', aval)
    call check_logical(what // ' (flag left alone)', flag, .true.)
    call check_untouched_text(what, text, untouched_text)
  end subroutine untouched

  subroutine expect_comm_attr(comm, keyval, expected, what)
    type(MPI_Comm), intent(in) :: comm
    integer, intent(in) :: keyval
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: expected
    character(len=*), intent(in) :: what
    integer(kind=MPI_ADDRESS_KIND) :: v
    logical :: found
    integer :: e
    v = -1
    found = .false.
    call MPI_Comm_get_attr(comm, keyval, v, found, e)
    call check_ok('MPI_Comm_get_attr (' // what // ')', e)
    call check_attr_addr(what, found, v, expected)
  end subroutine expect_comm_attr

  subroutine expect_handler(comm, what)
    type(MPI_Comm), intent(in) :: comm
    character(len=*), intent(in) :: what
    type(MPI_Errhandler) :: handler
    integer :: e
    handler = MPI_ERRHANDLER_NULL
    call MPI_Comm_get_errhandler(comm, handler, e)
    call check_ok('MPI_Comm_get_errhandler (' // what // ')', e)
    call check_logical(what // ': error handler is MPI_ERRORS_RETURN', handler == MPI_ERRORS_RETURN, .true.)
    call MPI_Errhandler_free(handler, e)
    call check_ok('MPI_Errhandler_free (' // what // ')', e)
  end subroutine expect_handler

  subroutine state_unchanged(what)
    character(len=*), intent(in) :: what
    integer(kind=MPI_ADDRESS_KIND) :: v
    integer :: iv, e
    logical :: found
    type(MPI_Errhandler) :: handler
    character(len=MPI_MAX_OBJECT_NAME) :: name
    call check_int(what // ': callbacks run', ncalls, 0)
    call expect_comm_attr(MPI_COMM_WORLD, ckv, 11_MPI_ADDRESS_KIND, what // ': MPI_COMM_WORLD''s attribute')
    call expect_comm_attr(good, ckv, 22_MPI_ADDRESS_KIND, what // ': the good communicator''s attribute')
    iv = 0
    found = .false.
    call MPI_Attr_get(good, m1kv, iv, found, e)
    call check_ok('MPI_Attr_get (' // what // ')', e)
    call check_attr_int(what // ': the good communicator''s MPI-1 attribute', found, iv, -33)
    name = ' '
    iv = -1
    call MPI_Comm_get_name(good, name, iv, e)
    call check_ok('MPI_Comm_get_name (' // what // ')', e)
    call check(name == 'good' .and. iv == 4, what // ': the good communicator''s name is ''' // trim(name) // '''')
    call expect_handler(good, what // ': the good communicator')
    call expect_handler(MPI_COMM_WORLD, what // ': MPI_COMM_WORLD')
    v = -1
    call MPI_Type_get_attr(gtype, tkv, v, found, e)
    call check_ok('MPI_Type_get_attr (' // what // ')', e)
    call check_attr_addr(what // ': the datatype''s attribute', found, v, 5_MPI_ADDRESS_KIND)
    call MPI_Type_get_attr(MPI_INTEGER, tkv, v, found, e)
    call check_ok('MPI_Type_get_attr (' // what // ')', e)
    call check_attr_addr(what // ': MPI_INTEGER''s attribute', found, v, 6_MPI_ADDRESS_KIND)
    iv = -1
    call MPI_Type_size(gtype, iv, e)
    call check_ok('MPI_Type_size (' // what // ')', e)
    call check_int(what // ': the datatype''s size', iv, 3 * (bit_size(0) / 8))
    call MPI_Win_get_attr(gwin, wkv, v, found, e)
    call check_ok('MPI_Win_get_attr (' // what // ')', e)
    call check_attr_addr(what // ': the window''s attribute', found, v, 9_MPI_ADDRESS_KIND)
    call MPI_Win_get_attr(gwin, MPI_WIN_BASE, v, found, e)
    call check_ok('MPI_Win_get_attr (' // what // ')', e)
    call check_attr_addr(what // ': the window''s MPI_WIN_BASE', found, v, wbuf_address)
    handler = MPI_ERRHANDLER_NULL
    call MPI_Win_get_errhandler(gwin, handler, e)
    call check_ok('MPI_Win_get_errhandler (' // what // ')', e)
    call check_logical(what // ': the window''s error handler', handler == MPI_ERRORS_RETURN, .true.)
  end subroutine state_unchanged

  subroutine bad_comm(bad, what)
    type(MPI_Comm), intent(in) :: bad
    character(len=*), intent(in) :: what
    type(MPI_Comm) :: victim
    call reset()
    call MPI_Comm_dup(bad, newcomm, ierr)
    call expect(what // ': MPI_Comm_dup', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Comm_dup_with_info(bad, MPI_INFO_NULL, newcomm, ierr)
    call expect(what // ': MPI_Comm_dup_with_info', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Comm_idup(bad, newcomm, req, ierr)
    call expect(what // ': MPI_Comm_idup', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Comm_split(bad, 0, 0, newcomm, ierr)
    call expect(what // ': MPI_Comm_split', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Comm_split(bad, MPI_UNDEFINED, 0, newcomm, ierr)
    call expect(what // ': MPI_Comm_split(MPI_UNDEFINED)', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Comm_rank(bad, ival, ierr)
    call expect(what // ': MPI_Comm_rank', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Comm_size(bad, ival, ierr)
    call expect(what // ': MPI_Comm_size', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Comm_compare(bad, MPI_COMM_WORLD, ival, ierr)
    call expect(what // ': MPI_Comm_compare(bad, MPI_COMM_WORLD)', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Comm_compare(good, bad, ival, ierr)
    call expect(what // ': MPI_Comm_compare(good, bad)', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Comm_set_name(bad, 'renamed', ierr)
    call expect(what // ': MPI_Comm_set_name', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Comm_get_name(bad, text, ival, ierr)
    call expect(what // ': MPI_Comm_get_name', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Comm_set_attr(bad, ckv, 5_MPI_ADDRESS_KIND, ierr)
    call expect(what // ': MPI_Comm_set_attr', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Comm_get_attr(bad, ckv, aval, flag, ierr)
    call expect(what // ': MPI_Comm_get_attr', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Comm_get_attr(bad, MPI_TAG_UB, aval, flag, ierr)
    call expect(what // ': MPI_Comm_get_attr(MPI_TAG_UB)', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Comm_delete_attr(bad, ckv, ierr)
    call expect(what // ': MPI_Comm_delete_attr', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Attr_put(bad, m1kv, 5, ierr)
    call expect(what // ': MPI_Attr_put', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Attr_get(bad, m1kv, ival, flag, ierr)
    call expect(what // ': MPI_Attr_get', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Attr_delete(bad, m1kv, ierr)
    call expect(what // ': MPI_Attr_delete', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Comm_set_errhandler(bad, MPI_ERRORS_RETURN, ierr)
    call expect(what // ': MPI_Comm_set_errhandler', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Comm_get_errhandler(bad, eh, ierr)
    call expect(what // ': MPI_Comm_get_errhandler', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Win_create(buf, 16_MPI_ADDRESS_KIND, 1, MPI_INFO_NULL, bad, newwin, ierr)
    call expect(what // ': MPI_Win_create', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Win_allocate(16_MPI_ADDRESS_KIND, 1, MPI_INFO_NULL, bad, baseptr, newwin, ierr)
    call expect(what // ': MPI_Win_allocate', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Win_create_dynamic(MPI_INFO_NULL, bad, newwin, ierr)
    call expect(what // ': MPI_Win_create_dynamic', ierr, MPI_ERR_COMM)
    victim = bad
    call reset()
    call MPI_Comm_free(victim, ierr)
    call expect(what // ': MPI_Comm_free', ierr, MPI_ERR_COMM)
    call check_logical(what // ': MPI_Comm_free keeps the handle', victim == bad, .true.)
    ! without ierror: the handler (MPI_ERRORS_RETURN) returns, and nothing is written
    call reset()
    call MPI_Comm_rank(bad, ival)
    call MPI_Comm_set_attr(bad, ckv, 5_MPI_ADDRESS_KIND)
    call MPI_Comm_get_attr(bad, ckv, aval, flag)
    call MPI_Comm_dup(bad, newcomm)
    call check_untouched(what // ': calls without ierror (ierr)', ierr)
    call untouched(what // ': calls without ierror')
    call state_unchanged(what)
  end subroutine bad_comm

  subroutine bad_type(bad, what)
    type(MPI_Datatype), intent(in) :: bad
    character(len=*), intent(in) :: what
    type(MPI_Datatype) :: victim
    call reset()
    call MPI_Type_dup(bad, newtype, ierr)
    call expect(what // ': MPI_Type_dup', ierr, MPI_ERR_TYPE)
    call reset()
    call MPI_Type_contiguous(2, bad, newtype, ierr)
    call expect(what // ': MPI_Type_contiguous', ierr, MPI_ERR_TYPE)
    call reset()
    call MPI_Type_size(bad, ival, ierr)
    call expect(what // ': MPI_Type_size', ierr, MPI_ERR_TYPE)
    call reset()
    call MPI_Type_set_attr(bad, tkv, 5_MPI_ADDRESS_KIND, ierr)
    call expect(what // ': MPI_Type_set_attr', ierr, MPI_ERR_TYPE)
    call reset()
    call MPI_Type_get_attr(bad, tkv, aval, flag, ierr)
    call expect(what // ': MPI_Type_get_attr', ierr, MPI_ERR_TYPE)
    call reset()
    call MPI_Type_delete_attr(bad, tkv, ierr)
    call expect(what // ': MPI_Type_delete_attr', ierr, MPI_ERR_TYPE)
    victim = bad
    call reset()
    call MPI_Type_commit(victim, ierr)
    call expect(what // ': MPI_Type_commit', ierr, MPI_ERR_TYPE)
    call check_logical(what // ': MPI_Type_commit keeps the handle', victim == bad, .true.)
    call reset()
    call MPI_Type_free(victim, ierr)
    call expect(what // ': MPI_Type_free', ierr, MPI_ERR_TYPE)
    call check_logical(what // ': MPI_Type_free keeps the handle', victim == bad, .true.)
    call reset()
    call MPI_Type_size(bad, ival)
    call MPI_Type_free(victim)
    call check_untouched(what // ': calls without ierror (ierr)', ierr)
    call untouched(what // ': calls without ierror')
    call check_logical(what // ': MPI_Type_free without ierror keeps the handle', victim == bad, .true.)
    call state_unchanged(what)
  end subroutine bad_type

  subroutine bad_win(bad, what)
    type(MPI_Win), intent(in) :: bad
    character(len=*), intent(in) :: what
    type(MPI_Win) :: victim
    call reset()
    call MPI_Win_set_attr(bad, wkv, 5_MPI_ADDRESS_KIND, ierr)
    call expect(what // ': MPI_Win_set_attr', ierr, MPI_ERR_WIN)
    call reset()
    call MPI_Win_get_attr(bad, wkv, aval, flag, ierr)
    call expect(what // ': MPI_Win_get_attr', ierr, MPI_ERR_WIN)
    call reset()
    call MPI_Win_get_attr(bad, MPI_WIN_BASE, aval, flag, ierr)
    call expect(what // ': MPI_Win_get_attr(MPI_WIN_BASE)', ierr, MPI_ERR_WIN)
    call reset()
    call MPI_Win_delete_attr(bad, wkv, ierr)
    call expect(what // ': MPI_Win_delete_attr', ierr, MPI_ERR_WIN)
    call reset()
    call MPI_Win_set_errhandler(bad, MPI_ERRORS_RETURN, ierr)
    call expect(what // ': MPI_Win_set_errhandler', ierr, MPI_ERR_WIN)
    call reset()
    call MPI_Win_get_errhandler(bad, eh, ierr)
    call expect(what // ': MPI_Win_get_errhandler', ierr, MPI_ERR_WIN)
    victim = bad
    call reset()
    call MPI_Win_free(victim, ierr)
    call expect(what // ': MPI_Win_free', ierr, MPI_ERR_WIN)
    call check_logical(what // ': MPI_Win_free keeps the handle', victim == bad, .true.)
    call reset()
    call MPI_Win_get_attr(bad, MPI_WIN_SIZE, aval, flag)
    call MPI_Win_free(victim)
    call check_untouched(what // ': calls without ierror (ierr)', ierr)
    call untouched(what // ': calls without ierror')
    call state_unchanged(what)
  end subroutine bad_win

  subroutine bad_comm_keyval(bad, what)
    integer, intent(in) :: bad
    character(len=*), intent(in) :: what
    integer :: victim, j
    type(MPI_Comm) :: comms(3)
    comms = [good, MPI_COMM_WORLD, MPI_COMM_SELF]
    do j = 1, 3
      call reset()
      call MPI_Comm_set_attr(comms(j), bad, 5_MPI_ADDRESS_KIND, ierr)
      call expect(what // ': MPI_Comm_set_attr', ierr, MPI_ERR_KEYVAL)
      call reset()
      call MPI_Comm_get_attr(comms(j), bad, aval, flag, ierr)
      call expect(what // ': MPI_Comm_get_attr', ierr, MPI_ERR_KEYVAL)
      call reset()
      call MPI_Comm_delete_attr(comms(j), bad, ierr)
      call expect(what // ': MPI_Comm_delete_attr', ierr, MPI_ERR_KEYVAL)
      call reset()
      call MPI_Attr_put(comms(j), bad, 5, ierr)
      call expect(what // ': MPI_Attr_put', ierr, MPI_ERR_KEYVAL)
      call reset()
      call MPI_Attr_get(comms(j), bad, ival, flag, ierr)
      call expect(what // ': MPI_Attr_get', ierr, MPI_ERR_KEYVAL)
      call reset()
      call MPI_Attr_delete(comms(j), bad, ierr)
      call expect(what // ': MPI_Attr_delete', ierr, MPI_ERR_KEYVAL)
    end do
    victim = bad
    call reset()
    call MPI_Comm_free_keyval(victim, ierr)
    call expect(what // ': MPI_Comm_free_keyval', ierr, MPI_ERR_KEYVAL)
    call check_int(what // ': MPI_Comm_free_keyval keeps the keyval', victim, bad)
    call reset()
    call MPI_Keyval_free(victim, ierr)
    call expect(what // ': MPI_Keyval_free', ierr, MPI_ERR_KEYVAL)
    call check_int(what // ': MPI_Keyval_free keeps the keyval', victim, bad)
    call state_unchanged(what)
  end subroutine bad_comm_keyval

  subroutine bad_type_keyval(bad, what)
    integer, intent(in) :: bad
    character(len=*), intent(in) :: what
    integer :: victim, j
    type(MPI_Datatype) :: types(2)
    types = [gtype, MPI_INTEGER]
    do j = 1, 2
      call reset()
      call MPI_Type_set_attr(types(j), bad, 5_MPI_ADDRESS_KIND, ierr)
      call expect(what // ': MPI_Type_set_attr', ierr, MPI_ERR_KEYVAL)
      call reset()
      call MPI_Type_get_attr(types(j), bad, aval, flag, ierr)
      call expect(what // ': MPI_Type_get_attr', ierr, MPI_ERR_KEYVAL)
      call reset()
      call MPI_Type_delete_attr(types(j), bad, ierr)
      call expect(what // ': MPI_Type_delete_attr', ierr, MPI_ERR_KEYVAL)
    end do
    victim = bad
    call reset()
    call MPI_Type_free_keyval(victim, ierr)
    call expect(what // ': MPI_Type_free_keyval', ierr, MPI_ERR_KEYVAL)
    call check_int(what // ': MPI_Type_free_keyval keeps the keyval', victim, bad)
    call state_unchanged(what)
  end subroutine bad_type_keyval

  subroutine bad_win_keyval(bad, what)
    integer, intent(in) :: bad
    character(len=*), intent(in) :: what
    integer :: victim
    call reset()
    call MPI_Win_set_attr(gwin, bad, 5_MPI_ADDRESS_KIND, ierr)
    call expect(what // ': MPI_Win_set_attr', ierr, MPI_ERR_KEYVAL)
    call reset()
    call MPI_Win_get_attr(gwin, bad, aval, flag, ierr)
    call expect(what // ': MPI_Win_get_attr', ierr, MPI_ERR_KEYVAL)
    call reset()
    call MPI_Win_delete_attr(gwin, bad, ierr)
    call expect(what // ': MPI_Win_delete_attr', ierr, MPI_ERR_KEYVAL)
    victim = bad
    call reset()
    call MPI_Win_free_keyval(victim, ierr)
    call expect(what // ': MPI_Win_free_keyval', ierr, MPI_ERR_KEYVAL)
    call check_int(what // ': MPI_Win_free_keyval keeps the keyval', victim, bad)
    call state_unchanged(what)
  end subroutine bad_win_keyval

  subroutine predefined_comm_keyval(key, what)
    integer, intent(in) :: key
    character(len=*), intent(in) :: what
    integer :: victim, j
    type(MPI_Comm) :: comms(3)
    comms = [good, MPI_COMM_WORLD, MPI_COMM_SELF]
    do j = 1, 3
      call reset()
      call MPI_Comm_set_attr(comms(j), key, 5_MPI_ADDRESS_KIND, ierr)
      call expect(what // ': MPI_Comm_set_attr', ierr, MPI_ERR_KEYVAL)
      call reset()
      call MPI_Comm_delete_attr(comms(j), key, ierr)
      call expect(what // ': MPI_Comm_delete_attr', ierr, MPI_ERR_KEYVAL)
      call reset()
      call MPI_Attr_put(comms(j), key, 5, ierr)
      call expect(what // ': MPI_Attr_put', ierr, MPI_ERR_KEYVAL)
      call reset()
      call MPI_Attr_delete(comms(j), key, ierr)
      call expect(what // ': MPI_Attr_delete', ierr, MPI_ERR_KEYVAL)
    end do
    victim = key
    call reset()
    call MPI_Comm_free_keyval(victim, ierr)
    call expect(what // ': MPI_Comm_free_keyval', ierr, MPI_ERR_KEYVAL)
    call check_int(what // ': MPI_Comm_free_keyval keeps the keyval', victim, key)
    call reset()
    call MPI_Keyval_free(victim, ierr)
    call expect(what // ': MPI_Keyval_free', ierr, MPI_ERR_KEYVAL)
    call check_int(what // ': MPI_Keyval_free keeps the keyval', victim, key)
    flag = .false.
    call MPI_Comm_get_attr(MPI_COMM_WORLD, key, aval, flag, ierr)
    call check_ok('MPI_Comm_get_attr(MPI_COMM_WORLD, ' // what // ')', ierr)
    call check_logical(what // ': still on MPI_COMM_WORLD', flag, .true.)
    call state_unchanged(what)
  end subroutine predefined_comm_keyval

  subroutine predefined_win_keyval(key, what)
    integer, intent(in) :: key
    character(len=*), intent(in) :: what
    integer :: victim
    call reset()
    call MPI_Win_set_attr(gwin, key, 5_MPI_ADDRESS_KIND, ierr)
    call expect(what // ': MPI_Win_set_attr', ierr, MPI_ERR_KEYVAL)
    call reset()
    call MPI_Win_delete_attr(gwin, key, ierr)
    call expect(what // ': MPI_Win_delete_attr', ierr, MPI_ERR_KEYVAL)
    victim = key
    call reset()
    call MPI_Win_free_keyval(victim, ierr)
    call expect(what // ': MPI_Win_free_keyval', ierr, MPI_ERR_KEYVAL)
    call check_int(what // ': MPI_Win_free_keyval keeps the keyval', victim, key)
    flag = .false.
    call MPI_Win_get_attr(gwin, key, aval, flag, ierr)
    call check_ok('MPI_Win_get_attr(' // what // ')', ierr)
    call check_logical(what // ': still on the window', flag, .true.)
    call state_unchanged(what)
  end subroutine predefined_win_keyval

  subroutine bad_request(bad, what)
    type(MPI_Request), intent(in) :: bad
    character(len=*), intent(in) :: what
    type(MPI_Request) :: victim
    victim = bad
    call reset()
    call MPI_Wait(victim, status, ierr)
    call expect(what // ': MPI_Wait', ierr, MPI_ERR_REQUEST)
    call check_logical(what // ': MPI_Wait keeps the request', victim == bad, .true.)
    call reset()
    call MPI_Test(victim, flag, status, ierr)
    call expect(what // ': MPI_Test', ierr, MPI_ERR_REQUEST)
    call check_logical(what // ': MPI_Test keeps the request', victim == bad, .true.)
    call reset()
    call MPI_Request_free(victim, ierr)
    call expect(what // ': MPI_Request_free', ierr, MPI_ERR_REQUEST)
    call check_logical(what // ': MPI_Request_free keeps the request', victim == bad, .true.)
    call state_unchanged(what)
  end subroutine bad_request

  subroutine free_mem_errors()
    integer, pointer :: mem(:)
    type(c_ptr) :: memptr
    integer :: e
    call reset()
    call MPI_Free_mem(buf, ierr)
    call expect('MPI_Free_mem of a local array', ierr, MPI_ERR_BASE)
    call MPI_Alloc_mem(int(4 * (bit_size(0) / 8), MPI_ADDRESS_KIND), MPI_INFO_NULL, memptr, e)
    call check_ok('MPI_Alloc_mem', e)
    if (.not. c_associated(memptr)) return
    call c_f_pointer(memptr, mem, [4])
    mem = 7
    call reset()
    call MPI_Free_mem(mem(3:), ierr)
    call expect('MPI_Free_mem of the third element', ierr, MPI_ERR_BASE)
    call check_int('the memory after the refused MPI_Free_mem', sum(mem), 28)
    call MPI_Free_mem(mem, e)
    call check_ok('MPI_Free_mem', e)
    call reset()
    call MPI_Free_mem(mem, ierr)
    call expect('MPI_Free_mem a second time', ierr, MPI_ERR_BASE)
  end subroutine free_mem_errors
end program badargs_f08
