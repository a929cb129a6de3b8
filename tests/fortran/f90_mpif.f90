! Free-form source with include 'mpif.h': the environment and communicator basics.
! - MPI_INITIALIZED / MPI_FINALIZED before MPI_INIT, between, and after MPI_FINALIZE;
!   MPI_QUERY_THREAD after MPI_INIT is MPI_THREAD_SINGLE, MPI_IS_THREAD_MAIN is .true.;
! - MPI_WTIME and MPI_WTICK are DOUBLE PRECISION functions declared by mpif.h: time goes on,
!   in seconds, and the tick is in (0, 1);
! - MPI_GET_VERSION agrees with MPI_VERSION/MPI_SUBVERSION; MPI_GET_LIBRARY_VERSION,
!   MPI_COMM_GET_NAME and MPI_ERROR_STRING give resultlen and a blank-padded string;
!   MPI_COMM_SET_NAME names a communicator, MPI_COMM_WORLD and MPI_COMM_SELF have their
!   standard names, a new communicator has an empty name;
! - MPI_COMM_RANK / SIZE / COMPARE on MPI_COMM_WORLD, MPI_COMM_SELF, a dup and a split;
! - MPI_COMM_SPLIT copies no attribute (no copy callback runs, not even MPI_COMM_DUP_FN's, and
!   the split of MPI_COMM_WORLD has no MPI_TAG_UB), while MPI_COMM_DUP does; MPI_UNDEFINED
!   gives MPI_COMM_NULL;
! - MPI_TYPE_CONTIGUOUS / COMMIT / SIZE / FREE (MPI_INTEGER is bit_size(0)/8 bytes).

module f90_mpif_cb
  implicit none
  include 'mpif.h'
  integer :: ncopy = 0, last_comm = 0, last_keyval = 0
  integer(kind=MPI_ADDRESS_KIND) :: last_extra = 0
contains
  subroutine count_copy(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    integer :: oldcomm, comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    ncopy = ncopy + 1
    last_comm = oldcomm
    last_keyval = comm_keyval
    last_extra = extra_state
    attribute_val_out = attribute_val_in
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine count_copy
end module f90_mpif_cb

program f90_mpif
  use checks, only: test_name, max_error_string, fail, check_int, check_addr, check_logical, check_ok, check_class, &
                    finish, istr
  use f90_mpif_cb, only: count_copy, ncopy, last_comm, last_keyval
  implicit none
  include 'mpif.h'
  integer :: ierr, ver, subver, resultlen, provided, cmp, c, s, s2, s3, t, t2, tsize, kv_count, kv_dup
  integer :: rank, nprocs
  integer(kind=selected_int_kind(18)) :: clk0, clk1, rate
  integer(kind=MPI_ADDRESS_KIND) :: aval, zero
  logical :: flag
  double precision :: w1, w2, tick, elapsed
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: libver
  character(len=MPI_MAX_OBJECT_NAME) :: cname
  character(len=MPI_MAX_ERROR_STRING) :: etext

  test_name = 'f90_mpif'
  max_error_string = MPI_MAX_ERROR_STRING
  zero = 0
  call expect_state('before MPI_INIT', .false., .false.)
  call MPI_INIT(ierr)
  call check_ok('MPI_INIT', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD)', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF)', ierr)
  call expect_state('after MPI_INIT', .true., .false.)
  provided = -1
  call MPI_QUERY_THREAD(provided, ierr)
  call check_ok('MPI_QUERY_THREAD', ierr)
  call check_int('MPI_QUERY_THREAD after MPI_INIT (MPI_THREAD_SINGLE)', provided, MPI_THREAD_SINGLE)
  flag = .false.
  call MPI_IS_THREAD_MAIN(flag, ierr)
  call check_ok('MPI_IS_THREAD_MAIN', ierr)
  call check_logical('MPI_IS_THREAD_MAIN on the thread that called MPI_INIT', flag, .true.)

  ! ---- versions ----
  ver = -1
  subver = -1
  call MPI_GET_VERSION(ver, subver, ierr)
  call check_ok('MPI_GET_VERSION', ierr)
  call check_int('MPI_GET_VERSION version is MPI_VERSION', ver, MPI_VERSION)
  call check_int('MPI_GET_VERSION subversion is MPI_SUBVERSION', subver, MPI_SUBVERSION)
  if (ver < 3) call fail('MPI_GET_VERSION: expected version 3 or later, got ' // istr(ver))
  libver = repeat('#', len(libver))
  resultlen = -1
  call MPI_GET_LIBRARY_VERSION(libver, resultlen, ierr)
  call check_ok('MPI_GET_LIBRARY_VERSION', ierr)
  call check_padded('MPI_GET_LIBRARY_VERSION', libver, resultlen)

  ! ---- MPI_WTIME / MPI_WTICK as functions ----
  tick = MPI_WTICK()
  if (.not. (tick > 0.0d0 .and. tick < 1.0d0)) call fail('MPI_WTICK: expected a tick in (0, 1) seconds')
  w1 = MPI_WTIME()
  call system_clock(clk0, rate)
  clk1 = clk0
  do while (clk1 - clk0 < rate / 5)
    call system_clock(clk1)
  end do
  w2 = MPI_WTIME()
  elapsed = w2 - w1
  if (.not. (elapsed >= 0.1d0 .and. elapsed <= 5.0d0)) then
    write (etext, '(A,F0.6,A)') 'MPI_WTIME: expected about 0.2 s to pass while system_clock counted 0.2 s, got ', &
      elapsed, ' s'
    call fail(trim(etext))
  end if

  ! ---- names ----
  call get_name(MPI_COMM_WORLD, 'MPI_COMM_WORLD', 'MPI_COMM_WORLD')
  call get_name(MPI_COMM_SELF, 'MPI_COMM_SELF', 'MPI_COMM_SELF')
  call MPI_COMM_DUP(MPI_COMM_WORLD, c, ierr)
  call check_ok('MPI_COMM_DUP', ierr)
  call get_name(c, 'a new dup', '')
  call MPI_COMM_SET_NAME(c, 'attribute test comm', ierr)
  call check_ok('MPI_COMM_SET_NAME', ierr)
  call get_name(c, 'a named dup', 'attribute test comm')
  call MPI_COMM_SET_NAME(c, 'x', ierr)
  call check_ok('MPI_COMM_SET_NAME', ierr)
  call get_name(c, 'a renamed dup', 'x')

  ! ---- error strings ----
  call err_string(MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call err_string(MPI_ERR_COMM, 'MPI_ERR_COMM')
  call err_string(MPI_ERR_ARG, 'MPI_ERR_ARG')
  call err_string(MPI_SUCCESS, 'MPI_SUCCESS')
  call check_class('MPI_ERROR_CLASS(MPI_ERR_KEYVAL)', MPI_ERR_KEYVAL, MPI_ERR_KEYVAL, 'MPI_ERR_KEYVAL')
  call check_class('MPI_ERROR_CLASS(MPI_SUCCESS)', MPI_SUCCESS, MPI_SUCCESS, 'MPI_SUCCESS')

  ! ---- rank, size, compare ----
  call rank_size(MPI_COMM_WORLD, 'MPI_COMM_WORLD')
  call rank_size(MPI_COMM_SELF, 'MPI_COMM_SELF')
  call rank_size(c, 'a dup')
  call compare(MPI_COMM_WORLD, MPI_COMM_WORLD, MPI_IDENT, 'MPI_COMM_WORLD with itself (MPI_IDENT)')
  call compare(c, c, MPI_IDENT, 'a dup with itself (MPI_IDENT)')
  call compare(MPI_COMM_WORLD, c, MPI_CONGRUENT, 'MPI_COMM_WORLD with its dup (MPI_CONGRUENT)')
  call compare(MPI_COMM_WORLD, MPI_COMM_SELF, MPI_CONGRUENT, 'MPI_COMM_WORLD with MPI_COMM_SELF (MPI_CONGRUENT)')

  ! ---- MPI_COMM_SPLIT copies no attributes ----
  call MPI_COMM_CREATE_KEYVAL(count_copy, MPI_COMM_NULL_DELETE_FN, kv_count, zero, ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL(user copy)', ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kv_dup, zero, ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN)', ierr)
  call MPI_COMM_SET_ATTR(c, kv_count, 41_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)
  call MPI_COMM_SET_ATTR(c, kv_dup, 42_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR', ierr)
  s = MPI_COMM_NULL
  call MPI_COMM_SPLIT(c, 0, 0, s, ierr)
  call check_ok('MPI_COMM_SPLIT', ierr)
  call check_logical('MPI_COMM_SPLIT with colour 0 gives a communicator', s /= MPI_COMM_NULL, .true.)
  call check_int('copy callbacks run by MPI_COMM_SPLIT', ncopy, 0)
  if (s /= MPI_COMM_NULL) then
    call rank_size(s, 'a split')
    call compare(c, s, MPI_CONGRUENT, 'a dup with its split (MPI_CONGRUENT)')
    flag = .true.
    call MPI_COMM_GET_ATTR(s, kv_count, aval, flag, ierr)
    call check_ok('MPI_COMM_GET_ATTR', ierr)
    call check_logical('split has the user-copied attribute', flag, .false.)
    flag = .true.
    call MPI_COMM_GET_ATTR(s, kv_dup, aval, flag, ierr)
    call check_ok('MPI_COMM_GET_ATTR', ierr)
    call check_logical('split has the MPI_COMM_DUP_FN attribute', flag, .false.)
    call get_name(s, 'a split', '')
    call MPI_COMM_FREE(s, ierr)
    call check_ok('MPI_COMM_FREE', ierr)
  end if
  s2 = MPI_COMM_NULL
  call MPI_COMM_SPLIT(MPI_COMM_WORLD, 3, 7, s2, ierr)
  call check_ok('MPI_COMM_SPLIT(MPI_COMM_WORLD)', ierr)
  if (s2 /= MPI_COMM_NULL) then
    flag = .true.
    call MPI_COMM_GET_ATTR(s2, MPI_TAG_UB, aval, flag, ierr)
    call check_ok('MPI_COMM_GET_ATTR', ierr)
    call check_logical('split of MPI_COMM_WORLD has MPI_TAG_UB', flag, .false.)
    call MPI_COMM_FREE(s2, ierr)
    call check_ok('MPI_COMM_FREE', ierr)
  else
    call fail('MPI_COMM_SPLIT(MPI_COMM_WORLD, 3, 7): expected a communicator, got MPI_COMM_NULL')
  end if
  s3 = MPI_COMM_WORLD
  call MPI_COMM_SPLIT(c, MPI_UNDEFINED, 0, s3, ierr)
  call check_ok('MPI_COMM_SPLIT(MPI_UNDEFINED)', ierr)
  call check_int('MPI_COMM_SPLIT with MPI_UNDEFINED gives MPI_COMM_NULL', s3, MPI_COMM_NULL)
  ! ... while MPI_COMM_DUP copies both (so the split checks above can fail)
  call MPI_COMM_DUP(c, s, ierr)
  call check_ok('MPI_COMM_DUP', ierr)
  call check_int('copy callbacks run by MPI_COMM_DUP', ncopy, 1)
  call check_int('copy callback got the source handle', last_comm, c)
  call check_int('copy callback got the keyval', last_keyval, kv_count)
  aval = 0
  call MPI_COMM_GET_ATTR(s, kv_dup, aval, flag, ierr)
  call check_ok('MPI_COMM_GET_ATTR', ierr)
  call check_logical('dup has the MPI_COMM_DUP_FN attribute', flag, .true.)
  call check_addr('dup''s MPI_COMM_DUP_FN attribute', aval, 42_MPI_ADDRESS_KIND)
  call MPI_COMM_GET_ATTR(s, kv_count, aval, flag, ierr)
  call check_ok('MPI_COMM_GET_ATTR', ierr)
  call check_logical('dup has the user-copied attribute', flag, .true.)
  call check_addr('dup''s user-copied attribute', aval, 41_MPI_ADDRESS_KIND)
  call MPI_COMM_FREE(s, ierr)
  call check_ok('MPI_COMM_FREE', ierr)
  call MPI_COMM_FREE(c, ierr)
  call check_ok('MPI_COMM_FREE', ierr)
  call MPI_COMM_FREE_KEYVAL(kv_count, ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  call MPI_COMM_FREE_KEYVAL(kv_dup, ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL', ierr)

  ! ---- datatypes ----
  tsize = -1
  call MPI_TYPE_SIZE(MPI_INTEGER, tsize, ierr)
  call check_ok('MPI_TYPE_SIZE(MPI_INTEGER)', ierr)
  call check_int('MPI_TYPE_SIZE(MPI_INTEGER) is bit_size(0)/8', tsize, bit_size(0) / 8)
  call MPI_TYPE_CONTIGUOUS(3, MPI_INTEGER, t, ierr)
  call check_ok('MPI_TYPE_CONTIGUOUS', ierr)
  call MPI_TYPE_COMMIT(t, ierr)
  call check_ok('MPI_TYPE_COMMIT', ierr)
  tsize = -1
  call MPI_TYPE_SIZE(t, tsize, ierr)
  call check_ok('MPI_TYPE_SIZE', ierr)
  call check_int('MPI_TYPE_SIZE of 3 x MPI_INTEGER', tsize, 3 * (bit_size(0) / 8))
  call MPI_TYPE_CONTIGUOUS(5, MPI_DOUBLE_PRECISION, t2, ierr)
  call check_ok('MPI_TYPE_CONTIGUOUS', ierr)
  call MPI_TYPE_COMMIT(t2, ierr)
  call check_ok('MPI_TYPE_COMMIT', ierr)
  tsize = -1
  call MPI_TYPE_SIZE(t2, tsize, ierr)
  call check_ok('MPI_TYPE_SIZE', ierr)
  call check_int('MPI_TYPE_SIZE of 5 x MPI_DOUBLE_PRECISION', tsize, 40)
  call MPI_TYPE_FREE(t, ierr)
  call check_ok('MPI_TYPE_FREE', ierr)
  call check_int('MPI_TYPE_FREE sets the handle to MPI_DATATYPE_NULL', t, MPI_DATATYPE_NULL)
  call MPI_TYPE_FREE(t2, ierr)
  call check_ok('MPI_TYPE_FREE', ierr)
  call check_int('MPI_TYPE_FREE sets the handle to MPI_DATATYPE_NULL', t2, MPI_DATATYPE_NULL)

  call MPI_FINALIZE(ierr)
  call check_ok('MPI_FINALIZE', ierr)
  call expect_state('after MPI_FINALIZE', .true., .true.)
  call finish()

contains

  ! MPI_INITIALIZED and MPI_FINALIZED (`when`: before MPI_INIT, ...) say `initialized` and
  ! `finalized`; each flag starts as the other answer.
  subroutine expect_state(when, initialized, finalized)
    character(len=*), intent(in) :: when
    logical, intent(in) :: initialized, finalized
    logical :: got
    integer :: ierr
    got = .not. initialized
    call MPI_INITIALIZED(got, ierr)
    call check_ok('MPI_INITIALIZED ' // when, ierr)
    call check_logical('MPI_INITIALIZED ' // when, got, initialized)
    got = .not. finalized
    call MPI_FINALIZED(got, ierr)
    call check_ok('MPI_FINALIZED ' // when, ierr)
    call check_logical('MPI_FINALIZED ' // when, got, finalized)
  end subroutine expect_state

  ! A Fortran string result: 1 <= resultlen <= len(str), the text up to resultlen is not
  ! blank, and the rest of the variable is blank padding.
  subroutine check_padded(what, str, resultlen)
    character(len=*), intent(in) :: what, str
    integer, intent(in) :: resultlen
    if (resultlen < 1 .or. resultlen > len(str)) then
      call fail(what // ': expected resultlen in 1..' // istr(len(str)) // ', got ' // istr(resultlen))
      return
    end if
    if (len_trim(str(1:resultlen)) == 0) call fail(what // ': the text is blank')
    if (resultlen < len(str)) then
      if (str(resultlen + 1:) /= ' ') &
        call fail(what // ': expected blanks after resultlen ' // istr(resultlen) // ', got "' // &
                  trim(str(resultlen + 1:min(len(str), resultlen + 40))) // '..."')
    end if
  end subroutine check_padded

  subroutine get_name(comm, label, expected)
    integer, intent(in) :: comm
    character(len=*), intent(in) :: label, expected
    integer :: rlen, ierr
    cname = repeat('#', len(cname))
    rlen = -1
    call MPI_COMM_GET_NAME(comm, cname, rlen, ierr)
    call check_ok('MPI_COMM_GET_NAME(' // label // ')', ierr)
    call check_int('MPI_COMM_GET_NAME(' // label // ') resultlen', rlen, len(expected))
    if (cname /= expected) &
      call fail('MPI_COMM_GET_NAME(' // label // '): expected "' // expected // '" padded with blanks, got "' // &
                trim(cname(1:min(len(cname), 60))) // '"')
  end subroutine get_name

  subroutine err_string(code, name)
    integer, intent(in) :: code
    character(len=*), intent(in) :: name
    integer :: rlen, ierr
    etext = repeat('#', len(etext))
    rlen = -1
    call MPI_ERROR_STRING(code, etext, rlen, ierr)
    call check_ok('MPI_ERROR_STRING(' // name // ')', ierr)
    call check_padded('MPI_ERROR_STRING(' // name // ')', etext, rlen)
  end subroutine err_string

  subroutine rank_size(comm, label)
    integer, intent(in) :: comm
    character(len=*), intent(in) :: label
    integer :: ierr
    rank = -1
    nprocs = -1
    call MPI_COMM_RANK(comm, rank, ierr)
    call check_ok('MPI_COMM_RANK(' // label // ')', ierr)
    call check_int('MPI_COMM_RANK(' // label // ')', rank, 0)
    call MPI_COMM_SIZE(comm, nprocs, ierr)
    call check_ok('MPI_COMM_SIZE(' // label // ')', ierr)
    call check_int('MPI_COMM_SIZE(' // label // ')', nprocs, 1)
  end subroutine rank_size

  subroutine compare(c1, c2, expected, label)
    integer, intent(in) :: c1, c2, expected
    character(len=*), intent(in) :: label
    integer :: ierr
    cmp = -1
    call MPI_COMM_COMPARE(c1, c2, cmp, ierr)
    call check_ok('MPI_COMM_COMPARE(' // label // ')', ierr)
    call check_int('MPI_COMM_COMPARE(' // label // ')', cmp, expected)
  end subroutine compare
end program f90_mpif
