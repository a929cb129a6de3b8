! The sessions model without MPI_INIT through `use mpi_f08` (MPI-4.1 §12.3, §12.4.1): an info
! object made first, MPI_Session_init with it, the process set "mpi://SELF" as a group, a
! communicator from that group (rank 0 of 1, a message to itself, a reduction, an attribute),
! MPI_COMM_WORLD refused meanwhile (MPI_ERR_OTHER), MPI_Initialized false throughout, the
! session finalized (MPI_SESSION_NULL), and the info object still usable afterwards.
program sessions_f08
  use mpi_f08
  use checks
  implicit none
  type(MPI_Info) :: info
  type(MPI_Session) :: session
  type(MPI_Group) :: group
  type(MPI_Comm) :: comm
  type(MPI_Request) :: request
  type(MPI_Status) :: status
  integer :: ierr, rank, size, nkeys, keyval, sent, received, total, vlen
  integer(kind=MPI_ADDRESS_KIND) :: value
  logical :: flag
  character(len=MPI_MAX_INFO_VAL) :: text

  test_name = 'sessions_f08'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_Comm_set_errhandler(MPI_COMM_SELF) before any session', ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_Comm_set_errhandler(MPI_COMM_WORLD) before any session', ierr)

  call MPI_Info_create(info, ierr)
  call check_ok('MPI_Info_create without MPI_Init', ierr)
  call MPI_Info_set(info, 'colour', 'green', ierr)
  call check_ok('MPI_Info_set without MPI_Init', ierr)

  call MPI_Session_init(info, MPI_ERRORS_RETURN, session, ierr)
  call check_ok('MPI_Session_init without MPI_Init', ierr)
  call MPI_Group_from_session_pset(session, 'mpi://SELF', group, ierr)
  call check_ok('MPI_Group_from_session_pset', ierr)
  call MPI_Group_size(group, size, ierr)
  call check_int('the size of mpi://SELF', size, 1)
  call MPI_Comm_create_from_group(group, 'org.mpiattr.sessions_f08', MPI_INFO_NULL, &
       MPI_ERRORS_RETURN, comm, ierr)
  call check_ok('MPI_Comm_create_from_group', ierr)
  call MPI_Group_free(group, ierr)
  call check_ok('MPI_Group_free', ierr)

  call MPI_Comm_rank(comm, rank, ierr)
  call check_ok('MPI_Comm_rank', ierr)
  call check_int('the rank in the session''s communicator', rank, 0)
  call MPI_Comm_size(comm, size, ierr)
  call check_int('the size of the session''s communicator', size, 1)
  sent = 17
  received = -1
  call MPI_Isend(sent, 1, MPI_INTEGER, 0, 3, comm, request, ierr)
  call check_ok('MPI_Isend', ierr)
  call MPI_Recv(received, 1, MPI_INTEGER, 0, 3, comm, status, ierr)
  call check_ok('MPI_Recv', ierr)
  call MPI_Wait(request, MPI_STATUS_IGNORE, ierr)
  call check_ok('MPI_Wait', ierr)
  call check_int('the value received', received, 17)
  call check_int('the tag received', status%MPI_TAG, 3)
  call MPI_Allreduce(sent, total, 1, MPI_INTEGER, MPI_SUM, comm, ierr)
  call check_ok('MPI_Allreduce', ierr)
  call check_int('the sum', total, 17)
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, keyval, &
       0_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Comm_create_keyval', ierr)
  call MPI_Comm_set_attr(comm, keyval, 99_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_Comm_set_attr', ierr)
  value = 0
  call MPI_Comm_get_attr(comm, keyval, value, flag, ierr)
  call check_ok('MPI_Comm_get_attr', ierr)
  call check_logical('the attribute is there', flag, .true.)
  call check(value == 99_MPI_ADDRESS_KIND, 'the attribute''s value is 99')
  call MPI_Comm_free_keyval(keyval, ierr)
  call check_ok('MPI_Comm_free_keyval', ierr)

  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call check_class('MPI_Comm_rank(MPI_COMM_WORLD) in the sessions model', ierr, MPI_ERR_OTHER, &
       'MPI_ERR_OTHER')
  call MPI_Initialized(flag, ierr)
  call check_ok('MPI_Initialized', ierr)
  call check_logical('MPI_Initialized with a session', flag, .false.)

  call MPI_Comm_free(comm, ierr)
  call check_ok('MPI_Comm_free', ierr)
  call MPI_Session_finalize(session, ierr)
  call check_ok('MPI_Session_finalize', ierr)
  call check(session == MPI_SESSION_NULL, 'MPI_Session_finalize sets MPI_SESSION_NULL')

  call MPI_Info_get_nkeys(info, nkeys, ierr)
  call check_ok('MPI_Info_get_nkeys after the session', ierr)
  call check_int('the info object''s keys', nkeys, 1)
  vlen = MPI_MAX_INFO_VAL
  call MPI_Info_get_string(info, 'colour', vlen, text, flag, ierr)
  call check_ok('MPI_Info_get_string after the session', ierr)
  call check_logical('colour is there', flag, .true.)
  call check(text == 'green', 'colour is green')
  call MPI_Info_free(info, ierr)
  call check_ok('MPI_Info_free', ierr)
  call check(info == MPI_INFO_NULL, 'MPI_Info_free sets MPI_INFO_NULL')
  call MPI_Initialized(flag, ierr)
  call check_logical('MPI_Initialized at the end', flag, .false.)
  call finish()
end program sessions_f08
