! User reduction operations and user error handlers whose functions are Fortran procedures,
! through `use mpi_f08` (the procedures match the abstract interfaces MPI_User_function and
! MPI_Comm/Win/Session/File_errhandler_function):
! - MPI_Op_create: MPI_Reduce_local calls the procedure once with LEN and the datatype's
!   handle, the input first (a non-commutative op shows the order); MPI_Op_commutative
!   gives back the LOGICAL; MPI_Allreduce accepts the op; MPI_Op_free nulls the handle and a
!   freed op is MPI_ERR_OP;
! - MPI_Comm_create_errhandler: an error raised on a communicator (MPI_Bcast with a bad
!   root) and MPI_Comm_call_errhandler call the procedure with that communicator's handle and
!   the code; the failing call then returns the code, MPI_Comm_call_errhandler MPI_SUCCESS
!   (MPI-4.1 §9.3.6); MPI_Comm_get_errhandler gives the same handle;
!   a duplicate inherits it; MPI_Errhandler_free, then the communicator still uses it;
! - MPI_Win_, MPI_Session_ and MPI_File_create_errhandler through their *_call_errhandler
!   (the file one on MPI_FILE_NULL); a handler of another kind is MPI_ERR_ARG.
module user_callbacks_state
  use mpi_f08
  implicit none
  integer :: op_calls = 0, op_len = -1
  type(MPI_Datatype) :: op_type
  integer :: eh_calls = 0, eh_code = -1, eh_kind = 0
  type(MPI_Comm) :: eh_comm
  type(MPI_Win) :: eh_win
  type(MPI_Session) :: eh_session
  type(MPI_File) :: eh_file
contains
  ! inoutvec(i) = 10 * inoutvec(i) + invec(i): not commutative.
  subroutine shift_add(invec, inoutvec, len, datatype)
    use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = 10 * b + a
    op_calls = op_calls + 1
    op_len = len
    op_type = datatype
  end subroutine shift_add

  subroutine on_comm(comm, error_code)
    type(MPI_Comm) :: comm
    integer :: error_code
    eh_calls = eh_calls + 1
    eh_kind = 1
    eh_comm = comm
    eh_code = error_code
  end subroutine on_comm

  subroutine on_win(win, error_code)
    type(MPI_Win) :: win
    integer :: error_code
    eh_calls = eh_calls + 1
    eh_kind = 2
    eh_win = win
    eh_code = error_code
  end subroutine on_win

  subroutine on_session(session, error_code)
    type(MPI_Session) :: session
    integer :: error_code
    eh_calls = eh_calls + 1
    eh_kind = 3
    eh_session = session
    eh_code = error_code
  end subroutine on_session

  subroutine on_file(file, error_code)
    type(MPI_File) :: file
    integer :: error_code
    eh_calls = eh_calls + 1
    eh_kind = 4
    eh_file = file
    eh_code = error_code
  end subroutine on_file
end module user_callbacks_state

program user_callbacks_f08
  use mpi_f08
  use checks
  use user_callbacks_state
  implicit none
  integer :: ierror, inv(3), inout(3), code, class
  logical :: commute
  type(MPI_Op) :: op, op2
  type(MPI_Errhandler) :: ceh, weh, seh, feh, got
  type(MPI_Comm) :: dup, dup2
  type(MPI_Win) :: win
  type(MPI_Session) :: session
  integer :: wbuf(4)

  test_name = 'user_callbacks_f08'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_Init(ierror)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierror)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierror)

  ! ---- user ops ----
  call MPI_Op_create(shift_add, .false., op, ierror)
  call check_ok('MPI_Op_create', ierror)
  call MPI_Op_commutative(op, commute, ierror)
  call check_ok('MPI_Op_commutative', ierror)
  call check_logical('MPI_Op_commutative of a non-commutative op', commute, .false.)
  inv = [1, 2, 3]
  inout = [4, 5, 6]
  call MPI_Reduce_local(inv, inout, 3, MPI_INTEGER, op, ierror)
  call check_ok('MPI_Reduce_local', ierror)
  call check_int('user op calls', op_calls, 1)
  call check_int('user op LEN', op_len, 3)
  call check_logical('user op DATATYPE is MPI_INTEGER', op_type == MPI_INTEGER, .true.)
  call check_int('inoutvec(1) = 10*4+1', inout(1), 41)
  call check_int('inoutvec(3) = 10*6+3', inout(3), 63)
  call check_int('invec unchanged', inv(2), 2)
  inout = 0
  call MPI_Allreduce(inv, inout, 3, MPI_INTEGER, op, MPI_COMM_WORLD, ierror)
  call check_ok('MPI_Allreduce with a user op', ierror)
  call check_int('MPI_Allreduce of one process is its data', inout(2), 2)
  call MPI_Op_create(shift_add, .true., op2, ierror)
  call check_ok('MPI_Op_create commutative', ierror)
  call MPI_Op_commutative(op2, commute, ierror)
  call check_logical('MPI_Op_commutative of a commutative op', commute, .true.)
  call MPI_Op_free(op2, ierror)
  call check_ok('MPI_Op_free', ierror)
  call check_logical('MPI_Op_free sets MPI_OP_NULL', op2 == MPI_OP_NULL, .true.)
  op2 = op
  call MPI_Op_free(op, ierror)
  call check_ok('MPI_Op_free', ierror)
  call MPI_Reduce_local(inv, inout, 3, MPI_INTEGER, op2, ierror)
  call check_class('MPI_Reduce_local with a freed op', ierror, MPI_ERR_OP, 'MPI_ERR_OP')

  ! ---- communicator handlers ----
  call MPI_Comm_create_errhandler(on_comm, ceh, ierror)
  call check_ok('MPI_Comm_create_errhandler', ierror)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierror)
  call MPI_Comm_set_errhandler(dup, ceh, ierror)
  call check_ok('MPI_Comm_set_errhandler', ierror)
  call MPI_Comm_get_errhandler(dup, got, ierror)
  call check_ok('MPI_Comm_get_errhandler', ierror)
  call check_logical('MPI_Comm_get_errhandler gives the handler', got == ceh, .true.)
  call MPI_Errhandler_free(got, ierror)
  call check_ok('MPI_Errhandler_free of the got handle', ierror)
  call MPI_Bcast(inv, 1, MPI_INTEGER, 5, dup, ierror)
  call check_class('MPI_Bcast with root 5', ierror, MPI_ERR_ROOT, 'MPI_ERR_ROOT')
  call check_int('the handler ran once', eh_calls, 1)
  call check_int('the handler was a communicator one', eh_kind, 1)
  call check_logical('the handler got the communicator', eh_comm == dup, .true.)
  call check_int('the handler got the code', eh_code, ierror)
  call MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER, ierror)
  call check_ok('MPI_Comm_call_errhandler (MPI_SUCCESS once the handler ran)', ierror)
  call check_int('the handler ran again', eh_calls, 2)
  call check_int('with the code', eh_code, MPI_ERR_OTHER)
  call MPI_Comm_dup(dup, dup2, ierror)
  call MPI_Errhandler_free(ceh, ierror)
  call check_ok('MPI_Errhandler_free', ierror)
  call check_logical('MPI_Errhandler_free sets MPI_ERRHANDLER_NULL', ceh == MPI_ERRHANDLER_NULL, .true.)
  call MPI_Comm_call_errhandler(dup2, MPI_ERR_ARG, ierror)
  call check_ok('MPI_Comm_call_errhandler on the duplicate', ierror)
  call check_int('a duplicate inherits the freed handler', eh_calls, 3)
  call check_logical('with its own handle', eh_comm == dup2, .true.)
  call MPI_Comm_free(dup2, ierror)
  call MPI_Comm_free(dup, ierror)

  ! ---- window, session and file handlers ----
  call MPI_Win_create_errhandler(on_win, weh, ierror)
  call check_ok('MPI_Win_create_errhandler', ierror)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, weh, ierror)
  call check_class('a window handler on a communicator', ierror, MPI_ERR_ARG, 'MPI_ERR_ARG')
  call MPI_Win_create(wbuf, int(size(wbuf) * (bit_size(0) / 8), MPI_ADDRESS_KIND), 1, MPI_INFO_NULL, &
                      MPI_COMM_SELF, win, ierror)
  call check_ok('MPI_Win_create', ierror)
  call MPI_Win_set_errhandler(win, weh, ierror)
  call check_ok('MPI_Win_set_errhandler', ierror)
  call MPI_Win_call_errhandler(win, MPI_ERR_WIN, ierror)
  call check_ok('MPI_Win_call_errhandler', ierror)
  call check_int('the window handler ran', eh_kind, 2)
  call check_logical('with the window', eh_win == win, .true.)
  call MPI_Win_free(win, ierror)
  call MPI_Errhandler_free(weh, ierror)

  call MPI_Session_create_errhandler(on_session, seh, ierror)
  call check_ok('MPI_Session_create_errhandler', ierror)
  call MPI_Session_init(MPI_INFO_NULL, seh, session, ierror)
  call check_ok('MPI_Session_init with the handler', ierror)
  call MPI_Session_call_errhandler(session, MPI_ERR_SESSION, ierror)
  call check_ok('MPI_Session_call_errhandler', ierror)
  call check_int('the session handler ran', eh_kind, 3)
  call check_logical('with the session', eh_session == session, .true.)
  call MPI_Session_finalize(session, ierror)
  call MPI_Errhandler_free(seh, ierror)

  call MPI_File_create_errhandler(on_file, feh, ierror)
  call check_ok('MPI_File_create_errhandler', ierror)
  call MPI_File_set_errhandler(MPI_FILE_NULL, feh, ierror)
  call check_ok('MPI_File_set_errhandler on MPI_FILE_NULL', ierror)
  code = -1
  call MPI_Add_error_class(class, ierror)
  call MPI_Add_error_code(class, code, ierror)
  call MPI_File_call_errhandler(MPI_FILE_NULL, code, ierror)
  call check_ok('MPI_File_call_errhandler', ierror)
  call check_int('the file handler ran', eh_kind, 4)
  call check_logical('with MPI_FILE_NULL', eh_file == MPI_FILE_NULL, .true.)
  call check_int('with the user code', eh_code, code)
  call check_int('handlers ran', eh_calls, 6)
  call MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN, ierror)
  call MPI_Errhandler_free(feh, ierror)
  call check_ok('MPI_Errhandler_free', ierror)

  call MPI_Finalize(ierror)
  call finish()
end program user_callbacks_f08
