! Point-to-point with oneself through `use mpi` (choice buffers of any type and rank through
! gfortran's NO_ARG_CHECK, INTEGER(MPI_STATUS_SIZE) statuses):
! - MPI_SEND/MPI_RECV of INTEGER and DOUBLE PRECISION arrays, a scalar, and a 2-D section
!   (a row of a matrix, which gfortran passes as a contiguous copy);
! - status fields MPI_SOURCE, MPI_TAG, MPI_ERROR; MPI_GET_COUNT in elements and
!   MPI_UNDEFINED for a partial element; MPI_STATUS_IGNORE;
! - MPI_ISEND + MPI_RECV + MPI_WAIT, MPI_IRECV + MPI_SEND + MPI_WAIT (the data arrives at
!   the wait), MPI_TEST, MPI_WAITALL with a status array and with MPI_STATUSES_IGNORE;
! - MPI_SENDRECV and MPI_SENDRECV_REPLACE; MPI_PROBE and MPI_IPROBE before receiving;
! - MPI_CANCEL of a pending receive and MPI_TEST_CANCELLED; MPI_REQUEST_FREE;
! - MPI_ANY_SOURCE / MPI_ANY_TAG, MPI_PROC_NULL (an empty status);
! - under MPI_ERRORS_RETURN: truncation is MPI_ERR_TRUNCATE (the status says so, the
!   message is consumed); a bad rank, tag, count, datatype or communicator is refused with
!   its class and writes no output (sentinels stay), an INTEGER beyond a C int (8-byte
!   INTEGERs) too, and a receive that nothing can match
!   fails at once with MPI_ERR_OTHER instead of hanging.

program p2p_usempi
  use mpi
  use checks
  implicit none
  integer :: ierror, i, j, count, req, reqs(3), statuses(MPI_STATUS_SIZE, 3)
  integer :: status(MPI_STATUS_SIZE), ivec(5), iout(5), iscalar, iback, values(3)
  double precision :: dvec(4), dout(4), grid(3, 4), row(4)
  logical :: flag

  test_name = 'p2p_usempi'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_INIT(ierror)
  call check_ok('MPI_INIT', ierror)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierror)

  ! INTEGER array, status fields, count
  ivec = [(10 * i, i = 1, 5)]
  iout = -1
  call MPI_SEND(ivec, 5, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, ierror)
  call check_ok('MPI_SEND integers', ierror)
  status = sentinel
  call MPI_RECV(iout, 5, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status, ierror)
  call check_ok('MPI_RECV integers', ierror)
  call check(all(iout == ivec), 'the integers arrive')
  call check_int('status MPI_SOURCE', status(MPI_SOURCE), 0)
  call check_int('status MPI_TAG', status(MPI_TAG), 7)
  ! MPI-4.1 3.2.5: a call that completes one request leaves MPI_ERROR as it was
  call check_int('status MPI_ERROR untouched', status(MPI_ERROR), sentinel)
  call MPI_GET_COUNT(status, MPI_INTEGER, count, ierror)
  call check_ok('MPI_GET_COUNT', ierror)
  call check_int('MPI_GET_COUNT integers', count, 5)
  call MPI_GET_COUNT(status, MPI_DOUBLE_PRECISION, count, ierror)
  if (bit_size(0) == 32) then
    call check_int('MPI_GET_COUNT of 20 bytes in doubles', count, MPI_UNDEFINED)
  else
    call check_int('MPI_GET_COUNT of 40 bytes in doubles', count, 5)
  end if

  ! DOUBLE PRECISION array into a bigger buffer; MPI_STATUS_IGNORE
  dvec = [1.5d0, -2.25d0, 3.0d100, 0.0d0]
  dout = 0.0d0
  call MPI_SEND(dvec, 3, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_WORLD, ierror)
  call MPI_RECV(dout, 4, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierror)
  call check_ok('MPI_RECV doubles', ierror)
  call check(all(dout(1:3) == dvec(1:3)) .and. dout(4) == 0.0d0, 'three doubles arrive, the fourth stays')

  ! A scalar and a 2-D section (a row: strided in memory)
  iscalar = 42
  call MPI_SEND(iscalar, 1, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, ierror)
  call MPI_RECV(iback, 1, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, status, ierror)
  call check_int('a scalar arrives', iback, 42)
  grid = reshape([(dble(i), i = 1, 12)], [3, 4])
  call MPI_SEND(grid(2, :), 4, MPI_DOUBLE_PRECISION, 0, 3, MPI_COMM_WORLD, ierror)
  call check_ok('MPI_SEND of a row', ierror)
  row = 0.0d0
  call MPI_RECV(row, 4, MPI_DOUBLE_PRECISION, 0, 3, MPI_COMM_WORLD, status, ierror)
  call check(all(row == [2.0d0, 5.0d0, 8.0d0, 11.0d0]), 'the row arrives in order')
  grid(3, :) = 0.0d0
  call MPI_SEND(row, 4, MPI_DOUBLE_PRECISION, 0, 4, MPI_COMM_WORLD, ierror)
  call MPI_RECV(grid(3, :), 4, MPI_DOUBLE_PRECISION, 0, 4, MPI_COMM_WORLD, status, ierror)
  call check_ok('MPI_RECV into a row', ierror)
  call check(all(grid(3, :) == row) .and. grid(1, 1) == 1.0d0, 'a row receives, the rest stays')

  ! Isend + Recv + Wait; Irecv + Send + Wait
  call MPI_ISEND(ivec, 5, MPI_INTEGER, 0, 11, MPI_COMM_WORLD, req, ierror)
  call check_ok('MPI_ISEND', ierror)
  iout = 0
  call MPI_RECV(iout, 5, MPI_INTEGER, 0, 11, MPI_COMM_WORLD, status, ierror)
  call check(all(iout == ivec), 'the Isend message arrives')
  call MPI_WAIT(req, status, ierror)
  call check_ok('MPI_WAIT on the send', ierror)
  call check_int('MPI_WAIT nulls the request', req, MPI_REQUEST_NULL)
  iout = 0
  call MPI_IRECV(iout, 5, MPI_INTEGER, 0, 12, MPI_COMM_WORLD, req, ierror)
  call check_ok('MPI_IRECV', ierror)
  call MPI_TEST(req, flag, status, ierror)
  call check_logical('MPI_TEST before the send', flag, .false.)
  call MPI_SEND(ivec, 5, MPI_INTEGER, 0, 12, MPI_COMM_WORLD, ierror)
  call MPI_WAIT(req, status, ierror)
  call check_ok('MPI_WAIT on the receive', ierror)
  call check(all(iout == ivec), 'the data arrives at the wait')
  call check_int('the receive status tag', status(MPI_TAG), 12)

  ! Waitall: three receives, then their sends; a status array and MPI_STATUSES_IGNORE
  do j = 1, 3
    call MPI_IRECV(iout(j), 1, MPI_INTEGER, 0, 20 + j, MPI_COMM_WORLD, reqs(j), ierror)
  end do
  values = [101, 102, 103]
  do j = 3, 1, -1
    call MPI_SEND(values(j), 1, MPI_INTEGER, 0, 20 + j, MPI_COMM_WORLD, ierror)
  end do
  call MPI_WAITALL(3, reqs, statuses, ierror)
  call check_ok('MPI_WAITALL', ierror)
  call check(all(iout(1:3) == [101, 102, 103]), 'MPI_WAITALL delivers each')
  call check(all(statuses(MPI_TAG, :) == [21, 22, 23]), 'each status has its tag')
  call check(all(reqs == MPI_REQUEST_NULL), 'MPI_WAITALL nulls the requests')
  values = [1, 2, 3]
  do j = 1, 3
    call MPI_ISEND(values(j), 1, MPI_INTEGER, 0, 30, MPI_COMM_WORLD, reqs(j), ierror)
  end do
  call MPI_WAITALL(3, reqs, MPI_STATUSES_IGNORE, ierror)
  call check_ok('MPI_WAITALL with MPI_STATUSES_IGNORE', ierror)
  do j = 1, 3
    call MPI_RECV(iback, 1, MPI_INTEGER, 0, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierror)
    call check_int('non-overtaking order', iback, j)
  end do

  ! Sendrecv and Sendrecv_replace
  iout = 0
  call MPI_SENDRECV(ivec, 5, MPI_INTEGER, 0, 40, iout, 5, MPI_INTEGER, 0, 40, MPI_COMM_WORLD, status, ierror)
  call check_ok('MPI_SENDRECV', ierror)
  call check(all(iout == ivec), 'MPI_SENDRECV delivers')
  iout = [1, 2, 3, 4, 5]
  call MPI_SENDRECV_REPLACE(iout, 5, MPI_INTEGER, 0, 41, 0, 41, MPI_COMM_WORLD, status, ierror)
  call check_ok('MPI_SENDRECV_REPLACE', ierror)
  call check(all(iout == [1, 2, 3, 4, 5]), 'MPI_SENDRECV_REPLACE gets its own message back')

  ! Probe, Iprobe
  call MPI_IPROBE(0, 50, MPI_COMM_WORLD, flag, status, ierror)
  call check_logical('MPI_IPROBE with nothing sent', flag, .false.)
  call MPI_SEND(dvec, 2, MPI_DOUBLE_PRECISION, 0, 50, MPI_COMM_WORLD, ierror)
  call MPI_IPROBE(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, flag, status, ierror)
  call check_logical('MPI_IPROBE finds it', flag, .true.)
  call MPI_PROBE(0, 50, MPI_COMM_WORLD, status, ierror)
  call check_ok('MPI_PROBE', ierror)
  call MPI_GET_COUNT(status, MPI_DOUBLE_PRECISION, count, ierror)
  call check_int('MPI_GET_COUNT after MPI_PROBE', count, 2)
  call MPI_RECV(dout, count, MPI_DOUBLE_PRECISION, 0, 50, MPI_COMM_WORLD, status, ierror)
  call check_ok('receive the probed message', ierror)

  ! Cancel a receive; free a request
  call MPI_IRECV(iout, 5, MPI_INTEGER, 0, 60, MPI_COMM_WORLD, req, ierror)
  call MPI_CANCEL(req, ierror)
  call check_ok('MPI_CANCEL', ierror)
  call MPI_WAIT(req, status, ierror)
  call MPI_TEST_CANCELLED(status, flag, ierror)
  call check_ok('MPI_TEST_CANCELLED', ierror)
  call check_logical('the receive was cancelled', flag, .true.)
  call MPI_ISEND(ivec, 1, MPI_INTEGER, 0, 61, MPI_COMM_WORLD, req, ierror)
  call MPI_REQUEST_FREE(req, ierror)
  call check_ok('MPI_REQUEST_FREE', ierror)
  call check_int('MPI_REQUEST_FREE nulls it', req, MPI_REQUEST_NULL)
  call MPI_RECV(iback, 1, MPI_INTEGER, 0, 61, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierror)
  call check_int('a freed send is still delivered', iback, 10)

  ! The ignore variables are recognised, never written
  call check(all(MPI_STATUS_IGNORE == 0) .and. all(MPI_STATUSES_IGNORE == 0), &
             'MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE are never written')

  ! MPI_PROC_NULL
  call MPI_RECV(iout, 5, MPI_INTEGER, MPI_PROC_NULL, 0, MPI_COMM_WORLD, status, ierror)
  call check_ok('MPI_RECV from MPI_PROC_NULL', ierror)
  call check_int('MPI_PROC_NULL status source', status(MPI_SOURCE), MPI_PROC_NULL)
  call check_int('MPI_PROC_NULL status tag', status(MPI_TAG), MPI_ANY_TAG)

  ! Truncation
  call MPI_SEND(ivec, 5, MPI_INTEGER, 0, 70, MPI_COMM_WORLD, ierror)
  iout = -1
  call MPI_RECV(iout, 3, MPI_INTEGER, 0, 70, MPI_COMM_WORLD, status, ierror)
  call check_class('MPI_RECV of 5 into 3', ierror, MPI_ERR_TRUNCATE)
  call check_int('the truncated status tag', status(MPI_TAG), 70)
  call MPI_IPROBE(0, 70, MPI_COMM_WORLD, flag, MPI_STATUS_IGNORE, ierror)
  call check_logical('the truncated message is consumed', flag, .false.)

  ! Bad arguments: the class, and no output written
  call MPI_SEND(ivec, 1, MPI_INTEGER, 1, 0, MPI_COMM_WORLD, ierror)
  call check_class('MPI_SEND to rank 1', ierror, MPI_ERR_RANK)
  call MPI_SEND(ivec, 1, MPI_INTEGER, 0, -5, MPI_COMM_WORLD, ierror)
  call check_class('MPI_SEND with tag -5', ierror, MPI_ERR_TAG)
  call MPI_SEND(ivec, -1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, ierror)
  call check_class('MPI_SEND of -1 elements', ierror, MPI_ERR_COUNT)
  ! INTEGERs beyond a C int (8-byte INTEGERs) are refused with the argument's own class
  call MPI_SEND(ivec, 1, MPI_INTEGER, huge(0), 0, MPI_COMM_WORLD, ierror)
  call check_class('MPI_SEND to rank huge(0)', ierror, MPI_ERR_RANK)
  if (bit_size(0) == 64) then
    ! (with 4-byte INTEGERs huge(0) is MPI_TAG_UB, a valid tag)
    call MPI_SEND(ivec, 1, MPI_INTEGER, 0, huge(0), MPI_COMM_WORLD, ierror)
    call check_class('MPI_SEND with tag huge(0)', ierror, MPI_ERR_TAG)
    call MPI_SEND(ivec, huge(0), MPI_INTEGER, 0, 0, MPI_COMM_WORLD, ierror)
    call check_class('MPI_SEND of huge(0) elements', ierror, MPI_ERR_COUNT)
  end if
  call MPI_SEND(ivec, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD, ierror)
  call check_class('MPI_SEND of MPI_DATATYPE_NULL', ierror, MPI_ERR_TYPE)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierror)
  call MPI_SEND(ivec, 1, MPI_INTEGER, 0, 0, MPI_COMM_NULL, ierror)
  call check_class('MPI_SEND on MPI_COMM_NULL', ierror, MPI_ERR_COMM)
  req = sentinel
  call MPI_ISEND(ivec, 1, MPI_INTEGER, 0, 0, MPI_COMM_NULL, req, ierror)
  call check_class('MPI_ISEND on MPI_COMM_NULL', ierror, MPI_ERR_COMM)
  call check_untouched('MPI_ISEND request after a failure', req)
  req = sentinel
  call MPI_IRECV(iout, 1, MPI_INTEGER, 3, 0, MPI_COMM_WORLD, req, ierror)
  call check_class('MPI_IRECV from rank 3', ierror, MPI_ERR_RANK)
  call check_untouched('MPI_IRECV request after a failure', req)
  count = sentinel
  call MPI_GET_COUNT(status, MPI_DATATYPE_NULL, count, ierror)
  call check_class('MPI_GET_COUNT of MPI_DATATYPE_NULL', ierror, MPI_ERR_TYPE)
  call check_untouched('MPI_GET_COUNT count after a failure', count)
  status = sentinel
  call MPI_RECV(iout, 5, MPI_INTEGER, 0, 99, MPI_COMM_WORLD, status, ierror)
  call check_class('MPI_RECV that nothing can match', ierror, MPI_ERR_OTHER)
  call check_int('the rejected receive writes no status', status(MPI_TAG), sentinel)
  req = 12345
  call MPI_WAIT(req, status, ierror)
  call check_class('MPI_WAIT on a made-up request', ierror, MPI_ERR_REQUEST)
  call check_int('the made-up request stays', req, 12345)

  call MPI_FINALIZE(ierror)
  call check_ok('MPI_FINALIZE', ierror)
  call finish()
end program p2p_usempi
