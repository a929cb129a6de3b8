! The request functions of chapter 3 through `use mpi_f08` (src/capi/p2p_requests.rs, the
! generated Fortran routines):
! - MPI_Send_init/MPI_Recv_init started by MPI_Startall and MPI_Start, twice, each start
!   sending what the buffer holds then; the requests stay allocated until MPI_Request_free;
! - a persistent collective (MPI_Allreduce_init) run by MPI_Start;
! - MPI_Waitany, MPI_Testany, MPI_Waitsome, MPI_Testsome: indices count from 1 in Fortran,
!   MPI_UNDEFINED stays MPI_UNDEFINED; MPI_Testall; MPI_Request_get_status(_any);
! - MPI_Mprobe/MPI_Mrecv and MPI_Improbe/MPI_Imrecv with TYPE(MPI_Message): the handle
!   becomes MPI_MESSAGE_NULL; MPI_MESSAGE_NO_PROC from MPI_PROC_NULL;
! - MPI_Status_set_tag/get_tag/set_source/get_source/set_error/get_error,
!   MPI_Status_set_cancelled with MPI_Test_cancelled;
! - MPI_Start of MPI_REQUEST_NULL fails with MPI_ERR_REQUEST.

program p2p_requests_f08
  use mpi_f08
  use checks
  implicit none
  integer :: ierror, i, value, got, index, outcount, indices(3), vals(3), outs(3), v
  logical :: flag
  type(MPI_Request) :: send, recv, reqs(3), none, ar
  type(MPI_Status) :: status, statuses(3)
  type(MPI_Message) :: message

  test_name = 'p2p_requests_f08'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_Init()
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierror)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierror)

  ! Persistent send and receive.
  call MPI_Send_init(value, 1, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, send, ierror)
  call check_ok('MPI_Send_init', ierror)
  call MPI_Recv_init(got, 1, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, recv, ierror)
  call check_ok('MPI_Recv_init', ierror)
  do i = 1, 2
    value = 10 * i
    got = -1
    reqs(1) = recv
    reqs(2) = send
    if (i == 1) then
      call MPI_Startall(2, reqs, ierror)
      call check_ok('MPI_Startall', ierror)
    else
      call MPI_Start(reqs(1), ierror)
      call check_ok('MPI_Start', ierror)
      call MPI_Start(reqs(2), ierror)
      call check_ok('MPI_Start', ierror)
    end if
    call MPI_Waitall(2, reqs, statuses, ierror)
    call check_ok('MPI_Waitall', ierror)
    call check_int('persistent receive', got, 10 * i)
    call check_int('its tag', statuses(1)%MPI_TAG, 3)
    call check(reqs(1) == recv .and. reqs(2) == send, 'persistent requests are kept')
  end do
  call MPI_Request_free(send, ierror)
  call check_ok('MPI_Request_free', ierror)
  call MPI_Request_free(recv, ierror)
  call check(recv == MPI_REQUEST_NULL, 'MPI_Request_free sets MPI_REQUEST_NULL')
  none = MPI_REQUEST_NULL
  call MPI_Start(none, ierror)
  call check_class('MPI_Start(MPI_REQUEST_NULL)', ierror, MPI_ERR_REQUEST)

  ! A persistent collective through MPI_Start.
  call MPI_Allreduce_init(value, got, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &
                          ar, ierror)
  call check_ok('MPI_Allreduce_init', ierror)
  value = 77
  got = 0
  call MPI_Start(ar, ierror)
  call check_ok('MPI_Start(allreduce)', ierror)
  call MPI_Wait(ar, MPI_STATUS_IGNORE, ierror)
  call check_int('MPI_Allreduce_init result', got, 77)
  call MPI_Request_free(ar, ierror)
  call check_ok('MPI_Request_free(allreduce)', ierror)

  ! Waitany and friends: Fortran indices count from 1.
  reqs(1) = MPI_REQUEST_NULL
  call MPI_Irecv(outs(2), 1, MPI_INTEGER, 0, 21, MPI_COMM_WORLD, reqs(2), ierror)
  call MPI_Irecv(outs(3), 1, MPI_INTEGER, 0, 22, MPI_COMM_WORLD, reqs(3), ierror)
  call MPI_Testany(3, reqs, index, flag, status, ierror)
  call check_ok('MPI_Testany', ierror)
  call check(.not. flag, 'MPI_Testany: nothing complete')
  call check_int('MPI_Testany index', index, MPI_UNDEFINED)
  call MPI_Request_get_status(reqs(2), flag, status, ierror)
  call check(.not. flag, 'MPI_Request_get_status: not complete')
  vals = [1, 2, 3]
  call MPI_Send(vals(3), 1, MPI_INTEGER, 0, 22, MPI_COMM_WORLD, ierror)
  call MPI_Request_get_status_any(3, reqs, index, flag, status, ierror)
  call check_ok('MPI_Request_get_status_any', ierror)
  call check(flag, 'MPI_Request_get_status_any: one complete')
  call check_int('MPI_Request_get_status_any index', index, 3)
  call MPI_Waitany(3, reqs, index, status, ierror)
  call check_ok('MPI_Waitany', ierror)
  call check_int('MPI_Waitany index', index, 3)
  call check_int('MPI_Waitany data', outs(3), 3)
  call check(reqs(3) == MPI_REQUEST_NULL, 'MPI_Waitany frees the request')
  call MPI_Send(vals(2), 1, MPI_INTEGER, 0, 21, MPI_COMM_WORLD, ierror)
  indices = -1
  call MPI_Waitsome(3, reqs, outcount, indices, statuses, ierror)
  call check_ok('MPI_Waitsome', ierror)
  call check_int('MPI_Waitsome outcount', outcount, 1)
  call check_int('MPI_Waitsome index', indices(1), 2)
  call check_int('MPI_Waitsome tag', statuses(1)%MPI_TAG, 21)
  call MPI_Testsome(3, reqs, outcount, indices, statuses, ierror)
  call check_int('MPI_Testsome outcount, all null', outcount, MPI_UNDEFINED)
  call MPI_Waitany(3, reqs, index, status, ierror)
  call check_int('MPI_Waitany index, all null', index, MPI_UNDEFINED)
  call MPI_Testall(3, reqs, flag, MPI_STATUSES_IGNORE, ierror)
  call check(flag, 'MPI_Testall of null requests')

  ! Matched probes.
  v = 99
  call MPI_Send(v, 1, MPI_INTEGER, 0, 30, MPI_COMM_WORLD, ierror)
  call MPI_Mprobe(0, 30, MPI_COMM_WORLD, message, status, ierror)
  call check_ok('MPI_Mprobe', ierror)
  call check(message /= MPI_MESSAGE_NULL, 'MPI_Mprobe gives a message')
  got = 0
  call MPI_Mrecv(got, 1, MPI_INTEGER, message, status, ierror)
  call check_ok('MPI_Mrecv', ierror)
  call check_int('MPI_Mrecv data', got, 99)
  call check(message == MPI_MESSAGE_NULL, 'MPI_Mrecv sets MPI_MESSAGE_NULL')
  call MPI_Mrecv(got, 1, MPI_INTEGER, message, status, ierror)
  call check_class('MPI_Mrecv(MPI_MESSAGE_NULL)', ierror, MPI_ERR_REQUEST)
  call MPI_Send(v, 1, MPI_INTEGER, 0, 31, MPI_COMM_WORLD, ierror)
  call MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, flag, message, status, ierror)
  call check(flag, 'MPI_Improbe finds the message')
  call check_int('MPI_Improbe tag', status%MPI_TAG, 31)
  call MPI_Imrecv(got, 1, MPI_INTEGER, message, recv, ierror)
  call check_ok('MPI_Imrecv', ierror)
  call MPI_Wait(recv, status, ierror)
  call check(message == MPI_MESSAGE_NULL, 'MPI_Imrecv sets MPI_MESSAGE_NULL')
  call MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, message, status, ierror)
  call check(message == MPI_MESSAGE_NO_PROC, 'MPI_Mprobe(MPI_PROC_NULL)')
  call MPI_Mrecv(got, 1, MPI_INTEGER, message, status, ierror)
  call check_int('MPI_Mrecv(MPI_MESSAGE_NO_PROC) source', status%MPI_SOURCE, MPI_PROC_NULL)

  ! Status accessors.
  call MPI_Status_set_tag(status, 12, ierror)
  call check_ok('MPI_Status_set_tag', ierror)
  call MPI_Status_set_source(status, 0, ierror)
  call MPI_Status_set_error(status, MPI_ERR_TAG, ierror)
  call MPI_Status_get_tag(status, v, ierror)
  call check_int('MPI_Status_get_tag', v, 12)
  call check_int('status%MPI_TAG', status%MPI_TAG, 12)
  call MPI_Status_get_source(status, v, ierror)
  call check_int('MPI_Status_get_source', v, 0)
  call MPI_Status_get_error(status, v, ierror)
  call check_int('MPI_Status_get_error', v, MPI_ERR_TAG)
  call MPI_Status_set_cancelled(status, .true., ierror)
  call check_ok('MPI_Status_set_cancelled', ierror)
  call MPI_Test_cancelled(status, flag, ierror)
  call check(flag, 'MPI_Test_cancelled after MPI_Status_set_cancelled')

  call MPI_Finalize(ierror)
  call check_ok('MPI_Finalize', ierror)
  call finish()
end program p2p_requests_f08
