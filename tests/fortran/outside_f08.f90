! Calls before MPI_Init and after MPI_Finalize through `use mpi_f08` (semantics.md
! "Initialisation and threads", docs/errors.md), errors raised on MPI_COMM_SELF's handler, set
! to MPI_ERRORS_RETURN before MPI_Init. The same catalogue as outside_mpi (`use mpi`):
! - the routines callable at any time work and refuse their own bad arguments;
! - every other routine, with arguments valid while MPI is initialized (predefined handles
!   before MPI_Init; the objects, keyvals, pending request and memory that were alive at
!   MPI_Finalize after it), fails with MPI_ERR_OTHER in ierror, writes no output, keeps its
!   in-out arguments, runs no callback; with ierror absent it returns too;
! - MPI_Init_thread with a bad thread level fails with MPI_ERR_ARG and does not initialize;
!   MPI_Init and MPI_Init_thread after MPI_Finalize fail with MPI_ERR_OTHER.

module outside_f08_cb
  use mpi_f08
  implicit none
  integer :: ncalls = 0
  integer :: last = 0
  integer(kind=MPI_ADDRESS_KIND) :: last_val = 0
contains
  subroutine comm_copy(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    ncalls = ncalls + 1
    last = ieor(comm_keyval, oldcomm%MPI_VAL)
    last_val = extra_state
    attribute_val_out = attribute_val_in
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine comm_copy

  subroutine comm_del(comm, comm_keyval, attribute_val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    ncalls = ncalls + 1
    last = ieor(comm_keyval, comm%MPI_VAL)
    last_val = attribute_val + extra_state
    ierror = MPI_SUCCESS
  end subroutine comm_del

  subroutine type_del(datatype, type_keyval, attribute_val, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer :: type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    ncalls = ncalls + 1
    last = ieor(type_keyval, datatype%MPI_VAL)
    last_val = attribute_val + extra_state
    ierror = MPI_SUCCESS
  end subroutine type_del

  subroutine win_del(win, win_keyval, attribute_val, extra_state, ierror)
    type(MPI_Win) :: win
    integer :: win_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    ncalls = ncalls + 1
    last = ieor(win_keyval, win%MPI_VAL)
    last_val = attribute_val + extra_state
    ierror = MPI_SUCCESS
  end subroutine win_del

  subroutine greq_query(extra_state, status, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    type(MPI_Status) :: status
    integer :: ierror
    ncalls = ncalls + 1
    last_val = extra_state
    status%MPI_TAG = 0
    ierror = MPI_SUCCESS
  end subroutine greq_query

  subroutine greq_free(extra_state, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: ierror
    ncalls = ncalls + 1
    last_val = extra_state
    ierror = MPI_SUCCESS
  end subroutine greq_free

  subroutine greq_cancel(extra_state, complete, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    logical :: complete
    integer :: ierror
    ncalls = ncalls + 1
    last_val = extra_state
    if (complete) last = 1
    ierror = MPI_SUCCESS
  end subroutine greq_cancel
end module outside_f08_cb

program outside_f08
  use mpi_f08
  use checks
  use outside_f08_cb
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer, c_associated, c_null_ptr
  implicit none
  ! outputs of the calls that must fail: sentinels before each call
  integer :: ierr, ival
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
  ! what the calls name
  type(MPI_Comm) :: comm, idup_comm
  type(MPI_Datatype) :: datatype
  type(MPI_Win) :: win
  type(MPI_Request) :: request
  type(c_ptr) :: memory
  integer :: ckv, tkv, wkv, m1kv, i
  integer :: buf(4)
  integer :: bad_levels(3)

  test_name = 'outside_f08'
  max_error_string = MPI_MAX_ERROR_STRING

  ! ---- before MPI_Init ----
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_Comm_set_errhandler(MPI_COMM_SELF) before MPI_Init', ierr)
  call anytime('before MPI_Init', .false., .false.)
  call outside('before MPI_Init', MPI_COMM_NULL, MPI_INTEGER, MPI_WIN_NULL, MPI_TAG_UB, 1, MPI_WIN_BASE, &
               MPI_TAG_UB, MPI_REQUEST_NULL, c_null_ptr)
  bad_levels = [77, -1, huge(0)]
  do i = 1, size(bad_levels)
    call reset()
    call MPI_Init_thread(bad_levels(i), ival, ierr)
    call expect('before MPI_Init: MPI_Init_thread with required ' // istr(bad_levels(i)), ierr, MPI_ERR_ARG)
  end do
  call anytime('before MPI_Init, after the failed calls', .false., .false.)

  call MPI_Init(ierr)
  call check_ok('MPI_Init', ierr)
  call MPI_Query_thread(ival, ierr)
  call check_ok('MPI_Query_thread', ierr)
  call check_int('MPI_Query_thread after MPI_Init', ival, MPI_THREAD_SINGLE)
  call MPI_Comm_get_errhandler(MPI_COMM_WORLD, eh, ierr)
  call check_ok('MPI_Comm_get_errhandler', ierr)
  call check_logical('MPI_COMM_WORLD''s handler chosen before MPI_Init', eh == MPI_ERRORS_RETURN, .true.)
  call MPI_Errhandler_free(eh, ierr)
  call check_ok('MPI_Errhandler_free', ierr)

  ! ---- objects alive at MPI_Finalize ----
  call MPI_Comm_create_keyval(comm_copy, comm_del, ckv, 1_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Comm_create_keyval', ierr)
  call MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, m1kv, 0, ierr)
  call check_ok('MPI_Keyval_create', ierr)
  call MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_del, tkv, 2_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Type_create_keyval', ierr)
  call MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_del, wkv, 3_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Win_create_keyval', ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, comm, ierr)
  call check_ok('MPI_Comm_dup', ierr)
  call MPI_Comm_set_attr(comm, ckv, 4_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Comm_set_attr', ierr)
  call MPI_Type_contiguous(2, MPI_INTEGER, datatype, ierr)
  call check_ok('MPI_Type_contiguous', ierr)
  call MPI_Type_set_attr(datatype, tkv, 5_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Type_set_attr', ierr)
  call MPI_Win_allocate(8_MPI_ADDRESS_KIND, 1, MPI_INFO_NULL, MPI_COMM_WORLD, baseptr, win, ierr)
  call check_ok('MPI_Win_allocate', ierr)
  call MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_Win_set_errhandler', ierr)
  call MPI_Win_set_attr(win, wkv, 6_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Win_set_attr', ierr)
  call MPI_Comm_idup(MPI_COMM_SELF, idup_comm, request, ierr)
  call check_ok('MPI_Comm_idup', ierr)
  call MPI_Alloc_mem(32_MPI_ADDRESS_KIND, MPI_INFO_NULL, memory, ierr)
  call check_ok('MPI_Alloc_mem', ierr)
  call check_logical('MPI_Alloc_mem gives memory', c_associated(memory), .true.)
  call MPI_Finalize(ierr)
  call check_ok('MPI_Finalize', ierr)
  call check_int('callbacks run by MPI_Finalize (live objects go without them)', ncalls, 0)

  ! ---- after MPI_Finalize ----
  call anytime('after MPI_Finalize', .true., .true.)
  call outside('after MPI_Finalize', comm, datatype, win, ckv, tkv, wkv, m1kv, request, memory)
  call reset()
  call MPI_Init(ierr)
  call expect('after MPI_Finalize: MPI_Init', ierr, MPI_ERR_OTHER)
  call reset()
  call MPI_Init_thread(MPI_THREAD_MULTIPLE, ival, ierr)
  call expect('after MPI_Finalize: MPI_Init_thread', ierr, MPI_ERR_OTHER)
  call check_int('callbacks run after MPI_Finalize', ncalls, 0)
  call anytime('after MPI_Finalize, after the failed calls', .true., .true.)
  call finish()

contains

  subroutine reset()
    ival = sentinel
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

  function class_name(class) result(name)
    integer, intent(in) :: class
    character(len=:), allocatable :: name
    select case (class)
    case (MPI_ERR_OTHER)
      name = 'MPI_ERR_OTHER'
    case (MPI_ERR_ARG)
      name = 'MPI_ERR_ARG'
    case (MPI_ERR_COMM)
      name = 'MPI_ERR_COMM'
    case (MPI_ERR_ERRHANDLER)
      name = 'MPI_ERR_ERRHANDLER'
    case default
      name = 'class ' // istr(class)
    end select
  end function class_name

  !> No output written (a new communicator or datatype may also be the null handle).
  subroutine untouched(what)
    character(len=*), intent(in) :: what
    call check_untouched(what // ' (INTEGER output)', ival)
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

  subroutine expect(what, ierror, class)
    character(len=*), intent(in) :: what
    integer, intent(in) :: ierror, class
    call check_class(what, ierror, class, class_name(class))
    call untouched(what)
  end subroutine expect

  !> The routines callable at any time.
  subroutine anytime(when, initialized, finalized)
    character(len=*), intent(in) :: when
    logical, intent(in) :: initialized, finalized
    integer :: version, subversion, len, class, j, e
    type(MPI_Comm) :: comms(2)
    type(MPI_Errhandler) :: handler
    logical :: answer
    double precision :: t1, t2
    answer = .not. initialized
    call MPI_Initialized(answer, e)
    call check_ok(when // ': MPI_Initialized', e)
    call check_logical(when // ': MPI_Initialized', answer, initialized)
    answer = .not. finalized
    call MPI_Finalized(answer)
    call check_logical(when // ': MPI_Finalized (without ierror)', answer, finalized)
    version = -1
    subversion = -1
    call MPI_Get_version(version, subversion, e)
    call check_ok(when // ': MPI_Get_version', e)
    call check_int(when // ': MPI_Get_version', version * 10 + subversion, 50)
    len = -1
    call MPI_Get_library_version(text, len, e)
    call check_ok(when // ': MPI_Get_library_version', e)
    call check(len > 0 .and. len <= MPI_MAX_LIBRARY_VERSION_STRING, when // ': MPI_Get_library_version length')
    class = -1
    call MPI_Error_class(MPI_ERR_KEYVAL, class, e)
    call check_ok(when // ': MPI_Error_class', e)
    call check_int(when // ': MPI_Error_class(MPI_ERR_KEYVAL)', class, MPI_ERR_KEYVAL)
    call check_error_string(when // ': MPI_Error_string', MPI_ERR_OTHER)
    call reset()
    call MPI_Error_class(-1, ival, ierr)
    call expect(when // ': MPI_Error_class(-1)', ierr, MPI_ERR_ARG)
    call reset()
    call MPI_Error_string(huge(0), text, ival, ierr)
    call expect(when // ': MPI_Error_string(huge(0))', ierr, MPI_ERR_ARG)
    t1 = MPI_Wtime()
    t2 = MPI_Wtime()
    call check(t2 >= t1, when // ': MPI_Wtime went back')
    call check(MPI_Wtick() > 0d0, when // ': MPI_Wtick is not positive')
    comms = [MPI_COMM_WORLD, MPI_COMM_SELF]
    do j = 1, 2
      call MPI_Comm_set_errhandler(comms(j), MPI_ERRORS_RETURN, e)
      call check_ok(when // ': MPI_Comm_set_errhandler', e)
      handler = MPI_ERRHANDLER_NULL
      call MPI_Comm_get_errhandler(comms(j), handler, e)
      call check_ok(when // ': MPI_Comm_get_errhandler', e)
      call check_logical(when // ': MPI_Comm_get_errhandler', handler == MPI_ERRORS_RETURN, .true.)
      call MPI_Errhandler_free(handler, e)
      call check_ok(when // ': MPI_Errhandler_free', e)
      call check_logical(when // ': MPI_Errhandler_free sets MPI_ERRHANDLER_NULL', handler == MPI_ERRHANDLER_NULL, .true.)
      call reset()
      call MPI_Comm_set_errhandler(comms(j), MPI_ERRHANDLER_NULL, ierr)
      call expect(when // ': MPI_Comm_set_errhandler(MPI_ERRHANDLER_NULL)', ierr, MPI_ERR_ERRHANDLER)
      call reset()
      call MPI_Comm_set_errhandler(comms(j), MPI_Errhandler(12345), ierr)
      call expect(when // ': MPI_Comm_set_errhandler(12345)', ierr, MPI_ERR_ERRHANDLER)
      call MPI_Comm_get_errhandler(comms(j), handler, e)
      call check_ok(when // ': MPI_Comm_get_errhandler', e)
      call check_logical(when // ': the handler after the refused ones', handler == MPI_ERRORS_RETURN, .true.)
    end do
    call reset()
    call MPI_Comm_set_errhandler(MPI_COMM_NULL, MPI_ERRORS_RETURN, ierr)
    call expect(when // ': MPI_Comm_set_errhandler(MPI_COMM_NULL)', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_Comm_get_errhandler(MPI_COMM_NULL, eh, ierr)
    call expect(when // ': MPI_Comm_get_errhandler(MPI_COMM_NULL)', ierr, MPI_ERR_COMM)
    handler = MPI_ERRHANDLER_NULL
    call reset()
    call MPI_Errhandler_free(handler, ierr)
    call expect(when // ': MPI_Errhandler_free(MPI_ERRHANDLER_NULL)', ierr, MPI_ERR_ERRHANDLER)
    call check_logical(when // ': MPI_Errhandler_free(MPI_ERRHANDLER_NULL) keeps it', handler == MPI_ERRHANDLER_NULL, .true.)
  end subroutine anytime

  !> Every routine that needs MPI initialized: MPI_ERR_OTHER.
  subroutine outside(when, c, t, w, ck, tk, wk, mk, r, mem_ptr)
    character(len=*), intent(in) :: when
    type(MPI_Comm), intent(in) :: c
    type(MPI_Datatype), intent(in) :: t
    type(MPI_Win), intent(in) :: w
    integer, intent(in) :: ck, tk, wk, mk
    type(MPI_Request), intent(in) :: r
    type(c_ptr), intent(in) :: mem_ptr
    type(MPI_Comm) :: comms(3)
    type(MPI_Datatype) :: types(2), type_victim
    type(MPI_Win) :: win_victim
    type(MPI_Request) :: request_victim
    integer :: ncomm, j, victim
    integer, pointer :: mem(:)
    call reset()
    call MPI_Query_thread(ival, ierr)
    call expect(when // ': MPI_Query_thread', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Is_thread_main(flag, ierr)
    call expect(when // ': MPI_Is_thread_main', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Finalize(ierr)
    call expect(when // ': MPI_Finalize', ierr, MPI_ERR_OTHER)

    comms = [MPI_COMM_WORLD, MPI_COMM_SELF, c]
    ncomm = 2
    if (c /= MPI_COMM_NULL) ncomm = 3
    do j = 1, ncomm
      call outside_comm(when // ' on communicator ' // istr(comms(j)%MPI_VAL), comms(j), ck, mk)
    end do
    if (c /= MPI_COMM_NULL) then
      call reset()
      call MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN, ierr)
      call expect(when // ': MPI_Comm_set_errhandler of a user communicator', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_Comm_get_errhandler(c, eh, ierr)
      call expect(when // ': MPI_Comm_get_errhandler of a user communicator', ierr, MPI_ERR_OTHER)
    end if
    request_victim = r
    call reset()
    call MPI_Wait(request_victim, status, ierr)
    call expect(when // ': MPI_Wait', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Test(request_victim, flag, status, ierr)
    call expect(when // ': MPI_Test', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Request_free(request_victim, ierr)
    call expect(when // ': MPI_Request_free', ierr, MPI_ERR_OTHER)
    call check_logical(when // ': the request is kept', request_victim == r, .true.)

    call reset()
    call MPI_Comm_create_keyval(comm_copy, comm_del, ival, 0_MPI_ADDRESS_KIND, ierr)
    call expect(when // ': MPI_Comm_create_keyval', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_del, ival, 0_MPI_ADDRESS_KIND, ierr)
    call expect(when // ': MPI_Type_create_keyval', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_del, ival, 0_MPI_ADDRESS_KIND, ierr)
    call expect(when // ': MPI_Win_create_keyval', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, ival, 0, ierr)
    call expect(when // ': MPI_Keyval_create', ierr, MPI_ERR_OTHER)
    victim = ck
    call reset()
    call MPI_Comm_free_keyval(victim, ierr)
    call expect(when // ': MPI_Comm_free_keyval', ierr, MPI_ERR_OTHER)
    call check_int(when // ': MPI_Comm_free_keyval keeps the keyval', victim, ck)
    victim = mk
    call reset()
    call MPI_Keyval_free(victim, ierr)
    call expect(when // ': MPI_Keyval_free', ierr, MPI_ERR_OTHER)
    call check_int(when // ': MPI_Keyval_free keeps the keyval', victim, mk)
    victim = tk
    call reset()
    call MPI_Type_free_keyval(victim, ierr)
    call expect(when // ': MPI_Type_free_keyval', ierr, MPI_ERR_OTHER)
    call check_int(when // ': MPI_Type_free_keyval keeps the keyval', victim, tk)
    victim = wk
    call reset()
    call MPI_Win_free_keyval(victim, ierr)
    call expect(when // ': MPI_Win_free_keyval', ierr, MPI_ERR_OTHER)
    call check_int(when // ': MPI_Win_free_keyval keeps the keyval', victim, wk)

    types = [MPI_INTEGER, t]
    do j = 1, 2
      call reset()
      call MPI_Type_dup(types(j), newtype, ierr)
      call expect(when // ': MPI_Type_dup', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_Type_contiguous(2, types(j), newtype, ierr)
      call expect(when // ': MPI_Type_contiguous', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_Type_size(types(j), ival, ierr)
      call expect(when // ': MPI_Type_size', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_Type_set_attr(types(j), tk, 5_MPI_ADDRESS_KIND, ierr)
      call expect(when // ': MPI_Type_set_attr', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_Type_get_attr(types(j), tk, aval, flag, ierr)
      call expect(when // ': MPI_Type_get_attr', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_Type_delete_attr(types(j), tk, ierr)
      call expect(when // ': MPI_Type_delete_attr', ierr, MPI_ERR_OTHER)
      type_victim = types(j)
      call reset()
      call MPI_Type_commit(type_victim, ierr)
      call expect(when // ': MPI_Type_commit', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_Type_free(type_victim, ierr)
      call expect(when // ': MPI_Type_free', ierr, MPI_ERR_OTHER)
      call check_logical(when // ': the datatype is kept', type_victim == types(j), .true.)
    end do

    if (w /= MPI_WIN_NULL) then
      call reset()
      call MPI_Win_set_attr(w, wk, 5_MPI_ADDRESS_KIND, ierr)
      call expect(when // ': MPI_Win_set_attr', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_Win_get_attr(w, wk, aval, flag, ierr)
      call expect(when // ': MPI_Win_get_attr', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_Win_get_attr(w, MPI_WIN_BASE, aval, flag, ierr)
      call expect(when // ': MPI_Win_get_attr(MPI_WIN_BASE)', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_Win_delete_attr(w, wk, ierr)
      call expect(when // ': MPI_Win_delete_attr', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN, ierr)
      call expect(when // ': MPI_Win_set_errhandler', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_Win_get_errhandler(w, eh, ierr)
      call expect(when // ': MPI_Win_get_errhandler', ierr, MPI_ERR_OTHER)
      win_victim = w
      call reset()
      call MPI_Win_free(win_victim, ierr)
      call expect(when // ': MPI_Win_free', ierr, MPI_ERR_OTHER)
      call check_logical(when // ': the window is kept', win_victim == w, .true.)
    end if

    call reset()
    call MPI_Get_address(buf, aval, ierr)
    call expect(when // ': MPI_Get_address', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Alloc_mem(16_MPI_ADDRESS_KIND, MPI_INFO_NULL, baseptr, ierr)
    call expect(when // ': MPI_Alloc_mem', ierr, MPI_ERR_OTHER)
    if (c_associated(mem_ptr)) then
      ! only the address is used: the library never reads the memory
      call c_f_pointer(mem_ptr, mem, [1])
      call reset()
      call MPI_Free_mem(mem, ierr)
      call expect(when // ': MPI_Free_mem', ierr, MPI_ERR_OTHER)
    else
      call reset()
      call MPI_Free_mem(buf, ierr)
      call expect(when // ': MPI_Free_mem', ierr, MPI_ERR_OTHER)
    end if
    ! a detach routine's TYPE(C_PTR), a generalized request (no callback runs), a
    ! large-count routine (with 8-byte INTEGERs, the ordinary one)
    call reset()
    call MPI_Buffer_detach(baseptr, ival, ierr)
    call expect(when // ': MPI_Buffer_detach', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Grequest_start(greq_query, greq_free, greq_cancel, 7_MPI_ADDRESS_KIND, req, ierr)
    call expect(when // ': MPI_Grequest_start', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Type_size(t, aval, ierr)
    call expect(when // ': MPI_Type_size with an MPI_COUNT_KIND size', ierr, MPI_ERR_OTHER)
    ! without ierror: the calls return, and write nothing
    call reset()
    call MPI_Comm_rank(MPI_COMM_WORLD, ival)
    call MPI_Comm_dup(MPI_COMM_WORLD, newcomm)
    call MPI_Type_size(t, ival)
    call check_untouched(when // ': calls without ierror (ierr)', ierr)
    call untouched(when // ': calls without ierror')
  end subroutine outside

  !> Every routine on one communicator: MPI_ERR_OTHER.
  subroutine outside_comm(when, comm_in, ck, mk)
    character(len=*), intent(in) :: when
    type(MPI_Comm), intent(in) :: comm_in
    integer, intent(in) :: ck, mk
    type(MPI_Comm) :: victim
    call reset()
    call MPI_Comm_dup(comm_in, newcomm, ierr)
    call expect(when // ': MPI_Comm_dup', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Comm_dup_with_info(comm_in, MPI_INFO_NULL, newcomm, ierr)
    call expect(when // ': MPI_Comm_dup_with_info', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Comm_idup(comm_in, newcomm, req, ierr)
    call expect(when // ': MPI_Comm_idup', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Comm_split(comm_in, 0, 0, newcomm, ierr)
    call expect(when // ': MPI_Comm_split', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Comm_split(comm_in, MPI_UNDEFINED, 0, newcomm, ierr)
    call expect(when // ': MPI_Comm_split(MPI_UNDEFINED)', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Comm_rank(comm_in, ival, ierr)
    call expect(when // ': MPI_Comm_rank', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Comm_size(comm_in, ival, ierr)
    call expect(when // ': MPI_Comm_size', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Comm_compare(comm_in, MPI_COMM_SELF, ival, ierr)
    call expect(when // ': MPI_Comm_compare', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Comm_set_name(comm_in, 'outside', ierr)
    call expect(when // ': MPI_Comm_set_name', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Comm_get_name(comm_in, text, ival, ierr)
    call expect(when // ': MPI_Comm_get_name', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Comm_set_attr(comm_in, ck, 5_MPI_ADDRESS_KIND, ierr)
    call expect(when // ': MPI_Comm_set_attr', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Comm_get_attr(comm_in, ck, aval, flag, ierr)
    call expect(when // ': MPI_Comm_get_attr', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Comm_get_attr(comm_in, MPI_TAG_UB, aval, flag, ierr)
    call expect(when // ': MPI_Comm_get_attr(MPI_TAG_UB)', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Comm_delete_attr(comm_in, ck, ierr)
    call expect(when // ': MPI_Comm_delete_attr', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Attr_put(comm_in, mk, 5, ierr)
    call expect(when // ': MPI_Attr_put', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Attr_get(comm_in, mk, ival, flag, ierr)
    call expect(when // ': MPI_Attr_get', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Attr_get(comm_in, MPI_TAG_UB, ival, flag, ierr)
    call expect(when // ': MPI_Attr_get(MPI_TAG_UB)', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Attr_delete(comm_in, mk, ierr)
    call expect(when // ': MPI_Attr_delete', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Win_create(buf, 16_MPI_ADDRESS_KIND, 1, MPI_INFO_NULL, comm_in, newwin, ierr)
    call expect(when // ': MPI_Win_create', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Win_allocate(16_MPI_ADDRESS_KIND, 1, MPI_INFO_NULL, comm_in, baseptr, newwin, ierr)
    call expect(when // ': MPI_Win_allocate', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_Win_create_dynamic(MPI_INFO_NULL, comm_in, newwin, ierr)
    call expect(when // ': MPI_Win_create_dynamic', ierr, MPI_ERR_OTHER)
    victim = comm_in
    call reset()
    call MPI_Comm_free(victim, ierr)
    call expect(when // ': MPI_Comm_free', ierr, MPI_ERR_OTHER)
    call check_logical(when // ': the communicator is kept', victim == comm_in, .true.)
  end subroutine outside_comm
end program outside_f08
