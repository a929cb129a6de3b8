! MPI_GREQUEST_START with callbacks in Fortran's convention (EXTRA_STATE an
! INTEGER(KIND=MPI_ADDRESS_KIND), IERROR last), through `use mpi` (EXTERNAL procedures,
! STATUS(MPI_STATUS_SIZE)) and `use mpi_f08` (procedures of the abstract interfaces
! MPI_Grequest_query_function ..., TYPE(MPI_Status)):
! - no callback runs before MPI_GREQUEST_COMPLETE; MPI_TEST says not done;
! - MPI_CANCEL calls the cancel procedure with COMPLETE .FALSE. before and .TRUE. after
!   MPI_GREQUEST_COMPLETE;
! - MPI_WAIT calls the query procedure, with the EXTRA_STATE given, and returns the status it
!   set (MPI_SOURCE, MPI_TAG, and the element count set with MPI_STATUS_SET_ELEMENTS), then the
!   free procedure, once; the request is MPI_REQUEST_NULL;
! - an IERROR from the query procedure is what MPI_WAIT returns (the free procedure still runs);
! - MPI_REQUEST_FREE before completion: the free procedure runs at MPI_GREQUEST_COMPLETE and
!   the query procedure never.

module greq_log
  implicit none
  integer :: queries = 0, frees = 0, cancels = 0
  !> The COMPLETE the cancel procedure got last; the EXTRA_STATE the last callback got.
  logical :: last_complete = .false.
  integer(kind=8) :: last_extra = 0
  !> What the query procedure returns in IERROR.
  integer :: query_ierror = 0
end module greq_log

module greq_f08
  use mpi_f08
  use greq_log
  implicit none
contains
  subroutine query_f08(extra_state, status, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    type(MPI_Status) :: status
    integer :: ierror
    queries = queries + 1
    last_extra = extra_state
    status%MPI_SOURCE = int(extra_state)
    status%MPI_TAG = 31
    call MPI_Status_set_elements(status, MPI_INTEGER, 5, ierror)
    if (ierror == MPI_SUCCESS) ierror = query_ierror
  end subroutine query_f08

  subroutine free_f08(extra_state, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: ierror
    frees = frees + 1
    last_extra = extra_state
    ierror = MPI_SUCCESS
  end subroutine free_f08

  subroutine cancel_f08(extra_state, complete, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    logical :: complete
    integer :: ierror
    cancels = cancels + 1
    last_extra = extra_state
    last_complete = complete
    ierror = MPI_SUCCESS
  end subroutine cancel_f08
end module greq_f08

subroutine query_mpi(extra_state, status, ierror)
  use mpi
  use greq_log
  implicit none
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  integer :: status(MPI_STATUS_SIZE), ierror
  queries = queries + 1
  last_extra = extra_state
  status(MPI_SOURCE) = int(extra_state)
  status(MPI_TAG) = 32
  call MPI_Status_set_elements(status, MPI_DOUBLE_PRECISION, 3, ierror)
  if (ierror == MPI_SUCCESS) ierror = query_ierror
end subroutine query_mpi

subroutine free_mpi(extra_state, ierror)
  use mpi
  use greq_log
  implicit none
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  integer :: ierror
  frees = frees + 1
  last_extra = extra_state
  ierror = MPI_SUCCESS
end subroutine free_mpi

subroutine cancel_mpi(extra_state, complete, ierror)
  use mpi
  use greq_log
  implicit none
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  logical :: complete
  integer :: ierror
  cancels = cancels + 1
  last_extra = extra_state
  last_complete = complete
  ierror = MPI_SUCCESS
end subroutine cancel_mpi

subroutine grequest_f08_part()
  use mpi_f08
  use greq_log
  use greq_f08
  use checks, only: check_int, check_ok, check_class, check_logical, check, istr
  implicit none
  type(MPI_Request) :: request, kept
  type(MPI_Status) :: status
  logical :: flag
  integer :: ierror, count

  queries = 0
  frees = 0
  cancels = 0
  call MPI_Grequest_start(query_f08, free_f08, cancel_f08, 11_MPI_ADDRESS_KIND, request, ierror)
  call check_ok('MPI_Grequest_start', ierror)
  call check(request /= MPI_REQUEST_NULL, 'MPI_Grequest_start: a request')
  call MPI_Test(request, flag, status, ierror)
  call check_ok('MPI_Test', ierror)
  call check_logical('MPI_Test before MPI_Grequest_complete', flag, .false.)
  call check_int('callbacks before completion', queries + frees + cancels, 0)
  call MPI_Cancel(request, ierror)
  call check_ok('MPI_Cancel', ierror)
  call check_int('MPI_Cancel: cancel calls', cancels, 1)
  call check_logical('MPI_Cancel before completion: COMPLETE', last_complete, .false.)
  call check(last_extra == 11, 'the cancel procedure gets EXTRA_STATE, got ' // istr(int(last_extra)))
  call MPI_Grequest_complete(request, ierror)
  call check_ok('MPI_Grequest_complete', ierror)
  call MPI_Cancel(request, ierror)
  call check_logical('MPI_Cancel after completion: COMPLETE', last_complete, .true.)
  call MPI_Wait(request, status, ierror)
  call check_ok('MPI_Wait', ierror)
  call check_int('MPI_Wait: query calls', queries, 1)
  call check_int('MPI_Wait: free calls', frees, 1)
  call check(request == MPI_REQUEST_NULL, 'MPI_Wait: MPI_REQUEST_NULL')
  call check_int('MPI_Wait: status%MPI_SOURCE (the query procedure''s)', status%MPI_SOURCE, 11)
  call check_int('MPI_Wait: status%MPI_TAG', status%MPI_TAG, 31)
  call MPI_Get_count(status, MPI_INTEGER, count, ierror)
  call check_int('MPI_Get_count of the query''s status', count, 5)

  ! An error from the query procedure: MPI_Wait returns it; the free procedure still runs.
  query_ierror = MPI_ERR_NAME
  call MPI_Grequest_start(query_f08, free_f08, cancel_f08, 12_MPI_ADDRESS_KIND, request)
  call MPI_Grequest_complete(request)
  call MPI_Wait(request, status, ierror)
  call check_class('MPI_Wait with a failing query procedure', ierror, MPI_ERR_NAME, 'MPI_ERR_NAME')
  call check_int('a failing query: free calls', frees, 2)
  call check(request == MPI_REQUEST_NULL, 'a failing query: MPI_REQUEST_NULL')
  query_ierror = MPI_SUCCESS

  ! Freed before completion: free at MPI_Grequest_complete, query never.
  call MPI_Grequest_start(query_f08, free_f08, cancel_f08, 13_MPI_ADDRESS_KIND, request)
  kept = request
  call MPI_Request_free(request, ierror)
  call check_ok('MPI_Request_free', ierror)
  call check_int('MPI_Request_free before completion: free calls', frees, 2)
  call MPI_Grequest_complete(kept, ierror)
  call check_ok('MPI_Grequest_complete of a freed request', ierror)
  call check_int('MPI_Grequest_complete of a freed request: free calls', frees, 3)
  call check(last_extra == 13, 'the free procedure gets EXTRA_STATE')
  call check_int('query calls in all', queries, 2)
end subroutine grequest_f08_part

program grequest_f
  use mpi
  use greq_log
  use checks
  implicit none
  external :: query_mpi, free_mpi, cancel_mpi
  integer :: request, ierror, count, status(MPI_STATUS_SIZE)
  logical :: flag

  test_name = 'grequest_f'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_Init(ierror)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierror)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierror)

  request = sentinel
  call MPI_Grequest_start(query_mpi, free_mpi, cancel_mpi, 21_MPI_ADDRESS_KIND, request, ierror)
  call check_ok('MPI_GREQUEST_START', ierror)
  call check(request /= MPI_REQUEST_NULL .and. request /= sentinel, 'MPI_GREQUEST_START: a request')
  call MPI_Test(request, flag, status, ierror)
  call check_logical('MPI_TEST before MPI_GREQUEST_COMPLETE', flag, .false.)
  call MPI_Cancel(request, ierror)
  call check_int('MPI_CANCEL: cancel calls', cancels, 1)
  call check_logical('MPI_CANCEL before completion: COMPLETE', last_complete, .false.)
  call MPI_Grequest_complete(request, ierror)
  call check_ok('MPI_GREQUEST_COMPLETE', ierror)
  call MPI_Cancel(request, ierror)
  call check_logical('MPI_CANCEL after completion: COMPLETE', last_complete, .true.)
  call check_int('MPI_CANCEL after completion: cancel calls', cancels, 2)
  status = -1
  call MPI_Wait(request, status, ierror)
  call check_ok('MPI_WAIT', ierror)
  call check_int('MPI_WAIT: query calls', queries, 1)
  call check_int('MPI_WAIT: free calls', frees, 1)
  call check_int('MPI_WAIT: request', request, MPI_REQUEST_NULL)
  call check_int('MPI_WAIT: STATUS(MPI_SOURCE)', status(MPI_SOURCE), 21)
  call check_int('MPI_WAIT: STATUS(MPI_TAG)', status(MPI_TAG), 32)
  call check(last_extra == 21, 'the callbacks get EXTRA_STATE')
  call MPI_Get_count(status, MPI_DOUBLE_PRECISION, count, ierror)
  call check_int('MPI_GET_COUNT of the query''s status', count, 3)

  call grequest_f08_part()
  call MPI_Finalize(ierror)
  call finish()
end program grequest_f
