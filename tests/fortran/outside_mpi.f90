! Calls before MPI_INIT and after MPI_FINALIZE through `use mpi` (semantics.md "Initialisation
! and threads", docs/errors.md), errors raised on MPI_COMM_SELF's handler, set to
! MPI_ERRORS_RETURN before MPI_INIT:
! - the routines callable at any time work (MPI_INITIALIZED, MPI_FINALIZED, MPI_GET_VERSION,
!   MPI_GET_LIBRARY_VERSION, MPI_ERROR_CLASS, MPI_ERROR_STRING, MPI_WTIME, MPI_WTICK,
!   MPI_COMM_SET_ERRHANDLER / MPI_COMM_GET_ERRHANDLER on MPI_COMM_WORLD and MPI_COMM_SELF,
!   MPI_ERRHANDLER_FREE) and refuse their own bad arguments with the usual classes;
! - every other routine, with arguments that are valid while MPI is initialized (predefined
!   handles before MPI_INIT; the communicator, datatype, window, keyvals, pending request and
!   memory that were alive before MPI_FINALIZE after it), fails with MPI_ERR_OTHER, writes
!   none of its outputs and keeps its in-out arguments; no callback runs;
! - MPI_INIT_THREAD with a bad thread level fails with MPI_ERR_ARG and does not initialize;
!   MPI_INIT, MPI_INIT_THREAD and MPI_FINALIZE after MPI_FINALIZE fail with MPI_ERR_OTHER.

module outside_mpi_cb
  use mpi
  implicit none
  integer :: ncalls = 0
  integer :: last_obj = 0, last_kv = 0
  integer(kind=MPI_ADDRESS_KIND) :: last_val = 0
contains
  subroutine comm_copy(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    integer :: oldcomm, comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    ncalls = ncalls + 1
    last_obj = oldcomm
    last_kv = comm_keyval
    last_val = extra_state
    attribute_val_out = attribute_val_in
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine comm_copy

  subroutine any_del(object, keyval, attribute_val, extra_state, ierror)
    integer :: object, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    ncalls = ncalls + 1
    last_obj = object
    last_kv = keyval
    last_val = attribute_val + extra_state
    ierror = MPI_SUCCESS
  end subroutine any_del

  subroutine greq_query(extra_state, status, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: status(MPI_STATUS_SIZE), ierror
    ncalls = ncalls + 1
    last_val = extra_state
    status(MPI_TAG) = 0
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
    if (complete) last_kv = 1
    ierror = MPI_SUCCESS
  end subroutine greq_cancel
end module outside_mpi_cb

program outside_mpi
  use mpi
  use checks
  use outside_mpi_cb
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
  ! outputs of the calls that must fail: sentinels before each call
  integer :: ierr, ival, newh, req, status(MPI_STATUS_SIZE)
  integer(kind=MPI_ADDRESS_KIND) :: aval
  logical :: flag
  character(len=300) :: text
  character(len=300), parameter :: untouched_text = repeat('u', 300)
  ! what the calls name
  integer :: comm, datatype, win, ckv, tkv, wkv, m1kv, request, newcomm, i
  integer(kind=MPI_ADDRESS_KIND) :: mem_address
  integer :: buf(4)
  integer :: bad_levels(3)

  test_name = 'outside_mpi'
  max_error_string = MPI_MAX_ERROR_STRING

  ! ---- before MPI_INIT ----
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF) before MPI_INIT', ierr)
  call anytime('before MPI_INIT', .false., .false.)
  call outside('before MPI_INIT', MPI_COMM_NULL, MPI_INTEGER, MPI_WIN_NULL, MPI_TAG_UB, 1, MPI_WIN_BASE, &
               MPI_TAG_UB, MPI_REQUEST_NULL, 0_MPI_ADDRESS_KIND)
  bad_levels = [77, -1, huge(0)]
  do i = 1, size(bad_levels)
    call reset()
    call MPI_INIT_THREAD(bad_levels(i), ival, ierr)
    call expect('before MPI_INIT: MPI_INIT_THREAD with required ' // istr(bad_levels(i)), ierr, MPI_ERR_ARG)
  end do
  call anytime('before MPI_INIT, after the failed calls', .false., .false.)

  call MPI_INIT(ierr)
  call check_ok('MPI_INIT', ierr)
  ! the handler chosen before MPI_INIT is in force; nothing leaked into the state
  call MPI_COMM_GET_ERRHANDLER(MPI_COMM_WORLD, ival, ierr)
  call check_ok('MPI_COMM_GET_ERRHANDLER', ierr)
  call check_int('MPI_COMM_WORLD''s handler chosen before MPI_INIT', ival, MPI_ERRORS_RETURN)
  call MPI_ERRHANDLER_FREE(ival, ierr)
  call check_ok('MPI_ERRHANDLER_FREE', ierr)
  call MPI_QUERY_THREAD(ival, ierr)
  call check_ok('MPI_QUERY_THREAD', ierr)
  call check_int('MPI_QUERY_THREAD after MPI_INIT', ival, MPI_THREAD_SINGLE)
  call MPI_ATTR_GET(MPI_COMM_WORLD, MPI_TAG_UB, ival, flag, ierr)
  call check_ok('MPI_ATTR_GET(MPI_TAG_UB)', ierr)
  call check_logical('MPI_TAG_UB on MPI_COMM_WORLD', flag, .true.)
  call MPI_COMM_GET_NAME(MPI_COMM_WORLD, text, ival, ierr)
  call check_ok('MPI_COMM_GET_NAME', ierr)
  call check(text == 'MPI_COMM_WORLD', 'MPI_COMM_WORLD''s name is ''' // trim(text) // '''')

  ! ---- objects alive at MPI_FINALIZE ----
  call MPI_COMM_CREATE_KEYVAL(comm_copy, any_del, ckv, 1_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN, m1kv, 0, ierr)
  call check_ok('MPI_KEYVAL_CREATE', ierr)
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_DUP_FN, any_del, tkv, 2_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_TYPE_CREATE_KEYVAL', ierr)
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, any_del, wkv, 3_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_WIN_CREATE_KEYVAL', ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, comm, ierr)
  call check_ok('MPI_COMM_DUP', ierr)
  call MPI_COMM_SET_ATTR(comm, ckv, 4_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)
  call MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER, datatype, ierr)
  call check_ok('MPI_TYPE_CONTIGUOUS', ierr)
  call MPI_TYPE_SET_ATTR(datatype, tkv, 5_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_TYPE_SET_ATTR', ierr)
  call MPI_WIN_ALLOCATE(8_MPI_ADDRESS_KIND, 1, MPI_INFO_NULL, MPI_COMM_WORLD, aval, win, ierr)
  call check_ok('MPI_WIN_ALLOCATE', ierr)
  call MPI_WIN_SET_ERRHANDLER(win, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_WIN_SET_ERRHANDLER', ierr)
  call MPI_WIN_SET_ATTR(win, wkv, 6_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_WIN_SET_ATTR', ierr)
  call MPI_COMM_IDUP(MPI_COMM_SELF, newcomm, request, ierr)
  call check_ok('MPI_COMM_IDUP', ierr)
  call MPI_ALLOC_MEM(32_MPI_ADDRESS_KIND, MPI_INFO_NULL, mem_address, ierr)
  call check_ok('MPI_ALLOC_MEM', ierr)
  call MPI_FINALIZE(ierr)
  call check_ok('MPI_FINALIZE', ierr)
  call check_int('callbacks run by MPI_FINALIZE (live objects go without them)', ncalls, 0)

  ! ---- after MPI_FINALIZE ----
  call anytime('after MPI_FINALIZE', .true., .true.)
  call outside('after MPI_FINALIZE', comm, datatype, win, ckv, tkv, wkv, m1kv, request, mem_address)
  call reset()
  call MPI_INIT(ierr)
  call expect('after MPI_FINALIZE: MPI_INIT', ierr, MPI_ERR_OTHER)
  call reset()
  call MPI_INIT_THREAD(MPI_THREAD_MULTIPLE, ival, ierr)
  call expect('after MPI_FINALIZE: MPI_INIT_THREAD', ierr, MPI_ERR_OTHER)
  call check_int('callbacks run after MPI_FINALIZE', ncalls, 0)
  call anytime('after MPI_FINALIZE, after the failed calls', .true., .true.)
  call finish()

contains

  subroutine reset()
    ival = sentinel
    newh = sentinel
    req = sentinel
    status = sentinel
    aval = addr_sentinel
    flag = .true.
    text = untouched_text
    ierr = sentinel
  end subroutine reset

  !> A failed call: IERROR of `class`, no output written (a new communicator or datatype may
  !> also be the null handle: attributes.md §5 "A failed dup").
  subroutine expect(what, ierror, class)
    character(len=*), intent(in) :: what
    integer, intent(in) :: ierror, class
    integer :: j
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
    call check_class(what, ierror, class, name)
    call check_untouched(what // ' (INTEGER output)', ival)
    if (newh /= MPI_COMM_NULL .and. newh /= MPI_DATATYPE_NULL) call check_untouched(what // ' (new handle)', newh)
    call check_untouched(what // ' (request)', req)
    do j = 1, size(status)
      call check_untouched(what // ' (status)', status(j))
    end do
    call check_untouched_addr(what // ' (address-kind output)', aval)
    call check_logical(what // ' (flag left alone)', flag, .true.)
    call check_untouched_text(what, text, untouched_text)
  end subroutine expect

  subroutine expect_kept(what, ierror, class, got, before)
    character(len=*), intent(in) :: what
    integer, intent(in) :: ierror, class, got, before
    call expect(what, ierror, class)
    call check_int(what // ': the in-out argument', got, before)
  end subroutine expect_kept

  !> The routines callable at any time.
  subroutine anytime(when, initialized, finalized)
    character(len=*), intent(in) :: when
    logical, intent(in) :: initialized, finalized
    integer :: version, subversion, len, class, handler, j, comms(2), e
    logical :: answer
    double precision :: t1, t2
    answer = .not. initialized
    call MPI_INITIALIZED(answer, e)
    call check_ok(when // ': MPI_INITIALIZED', e)
    call check_logical(when // ': MPI_INITIALIZED', answer, initialized)
    answer = .not. finalized
    call MPI_FINALIZED(answer, e)
    call check_ok(when // ': MPI_FINALIZED', e)
    call check_logical(when // ': MPI_FINALIZED', answer, finalized)
    version = -1
    subversion = -1
    call MPI_GET_VERSION(version, subversion, e)
    call check_ok(when // ': MPI_GET_VERSION', e)
    call check_int(when // ': MPI_GET_VERSION', version * 10 + subversion, 50)
    len = -1
    call MPI_GET_LIBRARY_VERSION(text, len, e)
    call check_ok(when // ': MPI_GET_LIBRARY_VERSION', e)
    call check(len > 0 .and. len <= MPI_MAX_LIBRARY_VERSION_STRING, when // ': MPI_GET_LIBRARY_VERSION length')
    class = -1
    call MPI_ERROR_CLASS(MPI_ERR_KEYVAL, class, e)
    call check_ok(when // ': MPI_ERROR_CLASS', e)
    call check_int(when // ': MPI_ERROR_CLASS(MPI_ERR_KEYVAL)', class, MPI_ERR_KEYVAL)
    call check_error_string(when // ': MPI_ERROR_STRING', MPI_ERR_OTHER)
    call reset()
    call MPI_ERROR_CLASS(-1, ival, ierr)
    call expect(when // ': MPI_ERROR_CLASS(-1)', ierr, MPI_ERR_ARG)
    call reset()
    call MPI_ERROR_STRING(huge(0), text, ival, ierr)
    call expect(when // ': MPI_ERROR_STRING(huge(0))', ierr, MPI_ERR_ARG)
    t1 = MPI_WTIME()
    t2 = MPI_WTIME()
    call check(t2 >= t1, when // ': MPI_WTIME went back')
    call check(MPI_WTICK() > 0d0, when // ': MPI_WTICK is not positive')
    comms = [MPI_COMM_WORLD, MPI_COMM_SELF]
    do j = 1, 2
      call MPI_COMM_SET_ERRHANDLER(comms(j), MPI_ERRORS_RETURN, e)
      call check_ok(when // ': MPI_COMM_SET_ERRHANDLER', e)
      handler = MPI_ERRHANDLER_NULL
      call MPI_COMM_GET_ERRHANDLER(comms(j), handler, e)
      call check_ok(when // ': MPI_COMM_GET_ERRHANDLER', e)
      call check_int(when // ': MPI_COMM_GET_ERRHANDLER', handler, MPI_ERRORS_RETURN)
      call MPI_ERRHANDLER_FREE(handler, e)
      call check_ok(when // ': MPI_ERRHANDLER_FREE', e)
      call check_int(when // ': MPI_ERRHANDLER_FREE sets MPI_ERRHANDLER_NULL', handler, MPI_ERRHANDLER_NULL)
      call reset()
      call MPI_COMM_SET_ERRHANDLER(comms(j), MPI_ERRHANDLER_NULL, ierr)
      call expect(when // ': MPI_COMM_SET_ERRHANDLER(MPI_ERRHANDLER_NULL)', ierr, MPI_ERR_ERRHANDLER)
      call reset()
      call MPI_COMM_SET_ERRHANDLER(comms(j), 12345, ierr)
      call expect(when // ': MPI_COMM_SET_ERRHANDLER(12345)', ierr, MPI_ERR_ERRHANDLER)
      handler = -1
      call MPI_COMM_GET_ERRHANDLER(comms(j), handler, e)
      call check_ok(when // ': MPI_COMM_GET_ERRHANDLER', e)
      call check_int(when // ': the handler after the refused ones', handler, MPI_ERRORS_RETURN)
    end do
    call reset()
    call MPI_COMM_SET_ERRHANDLER(MPI_COMM_NULL, MPI_ERRORS_RETURN, ierr)
    call expect(when // ': MPI_COMM_SET_ERRHANDLER(MPI_COMM_NULL)', ierr, MPI_ERR_COMM)
    call reset()
    call MPI_COMM_GET_ERRHANDLER(MPI_COMM_NULL, ival, ierr)
    call expect(when // ': MPI_COMM_GET_ERRHANDLER(MPI_COMM_NULL)', ierr, MPI_ERR_COMM)
    handler = MPI_ERRHANDLER_NULL
    call reset()
    call MPI_ERRHANDLER_FREE(handler, ierr)
    call expect_kept(when // ': MPI_ERRHANDLER_FREE(MPI_ERRHANDLER_NULL)', ierr, MPI_ERR_ERRHANDLER, handler, &
                     MPI_ERRHANDLER_NULL)
  end subroutine anytime

  !> Every routine that needs MPI initialized: MPI_ERR_OTHER. MPI_COMM_NULL and MPI_WIN_NULL
  !> for `c` and `w` mean none (before MPI_INIT no window exists).
  subroutine outside(when, c, t, w, ck, tk, wk, mk, r, memory)
    character(len=*), intent(in) :: when
    integer, intent(in) :: c, t, w, ck, tk, wk, mk, r
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: memory
    integer :: comms(3), types(2), ncomm, j, victim
    integer, pointer :: mem(:)
    type(c_ptr) :: memptr
    call reset()
    call MPI_QUERY_THREAD(ival, ierr)
    call expect(when // ': MPI_QUERY_THREAD', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_IS_THREAD_MAIN(flag, ierr)
    call expect(when // ': MPI_IS_THREAD_MAIN', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_FINALIZE(ierr)
    call expect(when // ': MPI_FINALIZE', ierr, MPI_ERR_OTHER)

    comms = [MPI_COMM_WORLD, MPI_COMM_SELF, c]
    ncomm = 2
    if (c /= MPI_COMM_NULL) ncomm = 3
    do j = 1, ncomm
      call outside_comm(when // ' on communicator ' // istr(comms(j)), comms(j), ck, mk)
    end do
    if (c /= MPI_COMM_NULL) then
      call reset()
      call MPI_COMM_SET_ERRHANDLER(c, MPI_ERRORS_RETURN, ierr)
      call expect(when // ': MPI_COMM_SET_ERRHANDLER of a user communicator', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_COMM_GET_ERRHANDLER(c, ival, ierr)
      call expect(when // ': MPI_COMM_GET_ERRHANDLER of a user communicator', ierr, MPI_ERR_OTHER)
    end if
    victim = r
    call reset()
    call MPI_WAIT(victim, status, ierr)
    call expect_kept(when // ': MPI_WAIT', ierr, MPI_ERR_OTHER, victim, r)
    call reset()
    call MPI_TEST(victim, flag, status, ierr)
    call expect_kept(when // ': MPI_TEST', ierr, MPI_ERR_OTHER, victim, r)
    call reset()
    call MPI_REQUEST_FREE(victim, ierr)
    call expect_kept(when // ': MPI_REQUEST_FREE', ierr, MPI_ERR_OTHER, victim, r)

    call reset()
    call MPI_COMM_CREATE_KEYVAL(comm_copy, any_del, ival, 0_MPI_ADDRESS_KIND, ierr)
    call expect(when // ': MPI_COMM_CREATE_KEYVAL', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, ival, 0_MPI_ADDRESS_KIND, ierr)
    call expect(when // ': MPI_TYPE_CREATE_KEYVAL', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, any_del, ival, 0_MPI_ADDRESS_KIND, ierr)
    call expect(when // ': MPI_WIN_CREATE_KEYVAL', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN, ival, 0, ierr)
    call expect(when // ': MPI_KEYVAL_CREATE', ierr, MPI_ERR_OTHER)
    victim = ck
    call reset()
    call MPI_COMM_FREE_KEYVAL(victim, ierr)
    call expect_kept(when // ': MPI_COMM_FREE_KEYVAL', ierr, MPI_ERR_OTHER, victim, ck)
    victim = mk
    call reset()
    call MPI_KEYVAL_FREE(victim, ierr)
    call expect_kept(when // ': MPI_KEYVAL_FREE', ierr, MPI_ERR_OTHER, victim, mk)
    victim = tk
    call reset()
    call MPI_TYPE_FREE_KEYVAL(victim, ierr)
    call expect_kept(when // ': MPI_TYPE_FREE_KEYVAL', ierr, MPI_ERR_OTHER, victim, tk)
    victim = wk
    call reset()
    call MPI_WIN_FREE_KEYVAL(victim, ierr)
    call expect_kept(when // ': MPI_WIN_FREE_KEYVAL', ierr, MPI_ERR_OTHER, victim, wk)

    types = [MPI_INTEGER, t]
    do j = 1, 2
      call reset()
      call MPI_TYPE_DUP(types(j), newh, ierr)
      call expect(when // ': MPI_TYPE_DUP', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_TYPE_CONTIGUOUS(2, types(j), newh, ierr)
      call expect(when // ': MPI_TYPE_CONTIGUOUS', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_TYPE_SIZE(types(j), ival, ierr)
      call expect(when // ': MPI_TYPE_SIZE', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_TYPE_SET_ATTR(types(j), tk, 5_MPI_ADDRESS_KIND, ierr)
      call expect(when // ': MPI_TYPE_SET_ATTR', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_TYPE_GET_ATTR(types(j), tk, aval, flag, ierr)
      call expect(when // ': MPI_TYPE_GET_ATTR', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_TYPE_DELETE_ATTR(types(j), tk, ierr)
      call expect(when // ': MPI_TYPE_DELETE_ATTR', ierr, MPI_ERR_OTHER)
      victim = types(j)
      call reset()
      call MPI_TYPE_COMMIT(victim, ierr)
      call expect_kept(when // ': MPI_TYPE_COMMIT', ierr, MPI_ERR_OTHER, victim, types(j))
      call reset()
      call MPI_TYPE_FREE(victim, ierr)
      call expect_kept(when // ': MPI_TYPE_FREE', ierr, MPI_ERR_OTHER, victim, types(j))
    end do

    if (w /= MPI_WIN_NULL) then
      call reset()
      call MPI_WIN_SET_ATTR(w, wk, 5_MPI_ADDRESS_KIND, ierr)
      call expect(when // ': MPI_WIN_SET_ATTR', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_WIN_GET_ATTR(w, wk, aval, flag, ierr)
      call expect(when // ': MPI_WIN_GET_ATTR', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_WIN_GET_ATTR(w, MPI_WIN_BASE, aval, flag, ierr)
      call expect(when // ': MPI_WIN_GET_ATTR(MPI_WIN_BASE)', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_WIN_DELETE_ATTR(w, wk, ierr)
      call expect(when // ': MPI_WIN_DELETE_ATTR', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_WIN_SET_ERRHANDLER(w, MPI_ERRORS_RETURN, ierr)
      call expect(when // ': MPI_WIN_SET_ERRHANDLER', ierr, MPI_ERR_OTHER)
      call reset()
      call MPI_WIN_GET_ERRHANDLER(w, ival, ierr)
      call expect(when // ': MPI_WIN_GET_ERRHANDLER', ierr, MPI_ERR_OTHER)
      victim = w
      call reset()
      call MPI_WIN_FREE(victim, ierr)
      call expect_kept(when // ': MPI_WIN_FREE', ierr, MPI_ERR_OTHER, victim, w)
    end if

    call reset()
    call MPI_GET_ADDRESS(buf, aval, ierr)
    call expect(when // ': MPI_GET_ADDRESS', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_ALLOC_MEM(16_MPI_ADDRESS_KIND, MPI_INFO_NULL, aval, ierr)
    call expect(when // ': MPI_ALLOC_MEM', ierr, MPI_ERR_OTHER)
    if (memory /= 0) then
      ! only the address is used: the library never reads the memory
      memptr = transfer(memory, memptr)
      call c_f_pointer(memptr, mem, [1])
      call reset()
      call MPI_FREE_MEM(mem, ierr)
      call expect(when // ': MPI_FREE_MEM', ierr, MPI_ERR_OTHER)
    else
      call reset()
      call MPI_FREE_MEM(buf, ierr)
      call expect(when // ': MPI_FREE_MEM', ierr, MPI_ERR_OTHER)
    end if
    ! a detach routine (BUFFER_ADDR unused) and a generalized request (no callback runs)
    call reset()
    call MPI_BUFFER_DETACH(buf, ival, ierr)
    call expect(when // ': MPI_BUFFER_DETACH', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_GREQUEST_START(greq_query, greq_free, greq_cancel, 7_MPI_ADDRESS_KIND, req, ierr)
    call expect(when // ': MPI_GREQUEST_START', ierr, MPI_ERR_OTHER)
  end subroutine outside

  !> Every routine on one communicator: MPI_ERR_OTHER.
  subroutine outside_comm(when, comm_in, ck, mk)
    character(len=*), intent(in) :: when
    integer, intent(in) :: comm_in, ck, mk
    integer :: victim
    call reset()
    call MPI_COMM_DUP(comm_in, newh, ierr)
    call expect(when // ': MPI_COMM_DUP', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_COMM_DUP_WITH_INFO(comm_in, MPI_INFO_NULL, newh, ierr)
    call expect(when // ': MPI_COMM_DUP_WITH_INFO', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_COMM_IDUP(comm_in, newh, req, ierr)
    call expect(when // ': MPI_COMM_IDUP', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_COMM_SPLIT(comm_in, 0, 0, newh, ierr)
    call expect(when // ': MPI_COMM_SPLIT', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_COMM_SPLIT(comm_in, MPI_UNDEFINED, 0, newh, ierr)
    call expect(when // ': MPI_COMM_SPLIT(MPI_UNDEFINED)', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_COMM_RANK(comm_in, ival, ierr)
    call expect(when // ': MPI_COMM_RANK', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_COMM_SIZE(comm_in, ival, ierr)
    call expect(when // ': MPI_COMM_SIZE', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_COMM_COMPARE(comm_in, MPI_COMM_SELF, ival, ierr)
    call expect(when // ': MPI_COMM_COMPARE', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_COMM_SET_NAME(comm_in, 'outside', ierr)
    call expect(when // ': MPI_COMM_SET_NAME', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_COMM_GET_NAME(comm_in, text, ival, ierr)
    call expect(when // ': MPI_COMM_GET_NAME', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_COMM_SET_ATTR(comm_in, ck, 5_MPI_ADDRESS_KIND, ierr)
    call expect(when // ': MPI_COMM_SET_ATTR', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_COMM_GET_ATTR(comm_in, ck, aval, flag, ierr)
    call expect(when // ': MPI_COMM_GET_ATTR', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_COMM_GET_ATTR(comm_in, MPI_TAG_UB, aval, flag, ierr)
    call expect(when // ': MPI_COMM_GET_ATTR(MPI_TAG_UB)', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_COMM_DELETE_ATTR(comm_in, ck, ierr)
    call expect(when // ': MPI_COMM_DELETE_ATTR', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_ATTR_PUT(comm_in, mk, 5, ierr)
    call expect(when // ': MPI_ATTR_PUT', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_ATTR_GET(comm_in, mk, ival, flag, ierr)
    call expect(when // ': MPI_ATTR_GET', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_ATTR_GET(comm_in, MPI_TAG_UB, ival, flag, ierr)
    call expect(when // ': MPI_ATTR_GET(MPI_TAG_UB)', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_ATTR_DELETE(comm_in, mk, ierr)
    call expect(when // ': MPI_ATTR_DELETE', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_WIN_CREATE(buf, 16_MPI_ADDRESS_KIND, 1, MPI_INFO_NULL, comm_in, newh, ierr)
    call expect(when // ': MPI_WIN_CREATE', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_WIN_ALLOCATE(16_MPI_ADDRESS_KIND, 1, MPI_INFO_NULL, comm_in, aval, newh, ierr)
    call expect(when // ': MPI_WIN_ALLOCATE', ierr, MPI_ERR_OTHER)
    call reset()
    call MPI_WIN_CREATE_DYNAMIC(MPI_INFO_NULL, comm_in, newh, ierr)
    call expect(when // ': MPI_WIN_CREATE_DYNAMIC', ierr, MPI_ERR_OTHER)
    victim = comm_in
    call reset()
    call MPI_COMM_FREE(victim, ierr)
    call expect_kept(when // ': MPI_COMM_FREE', ierr, MPI_ERR_OTHER, victim, comm_in)
  end subroutine outside_comm
end program outside_mpi
