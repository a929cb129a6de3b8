! Every live object has a Fortran integer (docs/errors.md, "How many objects"): at most
! MPI_MAX_LIVE = 2**22 = 4194304 objects of a kind live at once with 4-byte INTEGERs (the
! integer's index field has 22 bits; MPI_COMM_WORLD and MPI_COMM_SELF count), and the call that
! would make one more fails with MPI_ERR_OTHER; freeing one makes room again. With 8-byte
! INTEGERs the limit is 2**32 - 1, so a program can go past 2**22 and every object there has
! its own integer: a delete callback of a communicator past 2**22 receives that communicator's
! integer, not MPI_COMM_NULL.
!
! Under valgrind (MPIATTR_CHECK_MEMORY set) 4 million communicators take minutes: there the
! program makes 3000 and checks their integers only; the limits are checked in the plain run.
module handle_range_cb
  use mpi
  implicit none
  integer :: deleted_comm = -1, ndeleted = 0
contains
  subroutine record_delete(comm, keyval, attribute_val, extra_state, ierror)
    integer :: comm, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    deleted_comm = comm
    ndeleted = ndeleted + 1
    if (keyval == MPI_KEYVAL_INVALID .or. attribute_val /= 7 .or. extra_state /= 0) ndeleted = -1000
    ierror = MPI_SUCCESS
  end subroutine record_delete
end module handle_range_cb

program handle_range_f
  use mpi
  use checks
  use handle_range_cb
  implicit none
  integer, parameter :: LIMIT_4 = 4194304
  integer, allocatable :: comms(:)
  integer :: ierr, i, n, planned, extra, kv, last, middle, again, vlen
  integer(kind=MPI_ADDRESS_KIND) :: zero
  logical :: four_byte, full

  test_name = 'handle_range_f'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_INIT(ierr)
  call check_ok('MPI_INIT', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  four_byte = bit_size(ierr) == 32
  call get_environment_variable('MPIATTR_CHECK_MEMORY', length=vlen)
  full = vlen == 0
  ! 4-byte: every slot but MPI_COMM_WORLD's and MPI_COMM_SELF's; 8-byte: one past 2**22.
  if (.not. full) then
    n = 3000
  else if (four_byte) then
    n = LIMIT_4 - 2
  else
    n = LIMIT_4 - 1
  end if
  planned = n
  allocate(comms(n))
  do i = 1, n
    call MPI_COMM_DUP(MPI_COMM_WORLD, comms(i), ierr)
    if (ierr /= MPI_SUCCESS) then
      call check_ok('MPI_COMM_DUP number ' // istr(i), ierr)
      n = i - 1
      exit
    end if
  end do
  call check_int('communicators made', n, planned)

  ! Each has its own integer, which names it (MPI_COMM_COMPARE says MPI_IDENT).
  do i = 1, n
    if (comms(i) == MPI_COMM_NULL .or. comms(i) == MPI_COMM_WORLD .or. comms(i) == MPI_COMM_SELF) then
      call fail('communicator ' // istr(i) // ' has the integer ' // istr(comms(i)))
      exit
    end if
    if (i > 1) then
      if (comms(i) == comms(i - 1)) then
        call fail('communicators ' // istr(i - 1) // ' and ' // istr(i) // ' share an integer')
        exit
      end if
    end if
  end do
  call MPI_COMM_COMPARE(comms(n), comms(n), again, ierr)
  call check_ok('MPI_COMM_COMPARE(last, last)', ierr)
  call check_int('MPI_COMM_COMPARE(last, last)', again, MPI_IDENT)

  if (four_byte .and. full) then
    ! 2**22 communicators live: one more fails, and changes nothing.
    extra = -424242
    call MPI_COMM_DUP(MPI_COMM_WORLD, extra, ierr)
    call check_class('MPI_COMM_DUP with 2**22 communicators live', ierr, MPI_ERR_OTHER, 'MPI_ERR_OTHER')
    call check(extra == -424242 .or. extra == MPI_COMM_NULL, &
               'a failed MPI_COMM_DUP leaves newcomm or sets MPI_COMM_NULL, got ' // istr(extra))
    ! Freeing one makes room for one.
    middle = n / 2
    call MPI_COMM_FREE(comms(middle), ierr)
    call check_ok('MPI_COMM_FREE(middle)', ierr)
    call MPI_COMM_DUP(MPI_COMM_WORLD, comms(middle), ierr)
    call check_ok('MPI_COMM_DUP after a free', ierr)
    call MPI_COMM_DUP(MPI_COMM_WORLD, extra, ierr)
    call check_class('MPI_COMM_DUP when full again', ierr, MPI_ERR_OTHER, 'MPI_ERR_OTHER')
  end if

  ! The newest communicator (past 2**22 with 8-byte INTEGERs): its delete callback receives
  ! its integer.
  zero = 0
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, record_delete, kv, zero, ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  last = comms(n)
  call MPI_COMM_SET_ATTR(comms(n), kv, 7_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR(last)', ierr)
  do i = 1, n
    call MPI_COMM_FREE(comms(i), ierr)
    if (ierr /= MPI_SUCCESS) then
      call check_ok('MPI_COMM_FREE number ' // istr(i), ierr)
      exit
    end if
  end do
  call check_int('delete callbacks run', ndeleted, 1)
  call check_int('the delete callback''s communicator', deleted_comm, last)
  deallocate(comms)
  call MPI_COMM_FREE_KEYVAL(kv, ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  call MPI_FINALIZE(ierr)
  call check_ok('MPI_FINALIZE', ierr)
  call finish()
end program handle_range_f
