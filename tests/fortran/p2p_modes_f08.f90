! Buffered mode and partitioned communication through `use mpi_f08` (routines generated over
! the C bodies of src/capi/p2p_modes.rs):
! - MPI_Buffer_attach of a byte array with room for one message of 40 bytes (plus the 512
!   bytes of MPI_BSEND_OVERHEAD), MPI_Bsend, a second MPI_Bsend refused with MPI_ERR_BUFFER
!   (nothing queued), MPI_Recv, MPI_Ibsend + MPI_Wait, MPI_Buffer_flush, MPI_Buffer_iflush,
!   MPI_Comm_flush_buffer; a negative size refused with MPI_ERR_ARG (the buffer stays attached to
!   the end; detach_f.f90 tests the detach routines);
! - MPI_Psend_init / MPI_Precv_init of 3 partitions of 2 INTEGERs, MPI_Startall,
!   MPI_Pready, MPI_Parrived (the partition is in the receive buffer then), MPI_Pready_list,
!   MPI_Pready_range, MPI_Wait; a partition out of range (MPI_ERR_ARG) and the wrong kind of
!   request (MPI_ERR_REQUEST); MPI_Grequest_complete of MPI_REQUEST_NULL (MPI_ERR_REQUEST).

program p2p_modes_f08
  use mpi_f08
  use checks
  implicit none
  integer, parameter :: overhead = 512
  integer :: ierror, i
  integer :: sendv(10), recvv(10), sbuf(6), rbuf(6), list(2)
  character(len=1) :: space(2 * (40 + overhead) - 1)
  type(MPI_Request) :: req, sreq, rreq, both(2)
  type(MPI_Status) :: status
  logical :: arrived

  test_name = 'p2p_modes_f08'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_Init()
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierror)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierror)

  sendv = [(100 + i, i = 1, 10)]
  call MPI_Bsend(sendv, 10, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, ierror)
  call check_class('MPI_Bsend without a buffer', ierror, MPI_ERR_BUFFER, 'MPI_ERR_BUFFER')
  call MPI_Buffer_attach(space, -1, ierror)
  call check_class('MPI_Buffer_attach(size -1)', ierror, MPI_ERR_ARG, 'MPI_ERR_ARG')
  call MPI_Buffer_attach(space, size(space), ierror)
  call check_ok('MPI_Buffer_attach', ierror)
  call MPI_Bsend(sendv, 10, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, ierror)
  call check_ok('MPI_Bsend', ierror)
  call MPI_Bsend(sendv, 10, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, ierror)
  call check_class('a second MPI_Bsend', ierror, MPI_ERR_BUFFER, 'MPI_ERR_BUFFER')
  call MPI_Iprobe(0, 2, MPI_COMM_WORLD, arrived, MPI_STATUS_IGNORE, ierror)
  call check_logical('MPI_Iprobe after the refused send', arrived, .false.)
  recvv = 0
  call MPI_Recv(recvv, 10, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, status, ierror)
  call check_ok('MPI_Recv', ierror)
  call check_int('recvv(10)', recvv(10), 110)
  call MPI_Ibsend(sendv, 10, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, req, ierror)
  call check_ok('MPI_Ibsend', ierror)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierror)
  call check_ok('MPI_Wait(MPI_Ibsend)', ierror)
  call MPI_Buffer_flush(ierror)
  call check_ok('MPI_Buffer_flush', ierror)
  call MPI_Bsend(sendv, 10, MPI_INTEGER, 0, 4, MPI_COMM_WORLD, ierror)
  call check_ok('MPI_Bsend after the flush', ierror)
  call MPI_Buffer_iflush(req, ierror)
  call check_ok('MPI_Buffer_iflush', ierror)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierror)
  call MPI_Comm_flush_buffer(MPI_COMM_WORLD, ierror)
  call check_ok('MPI_Comm_flush_buffer', ierror)
  call MPI_Recv(recvv, 10, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, status, ierror)
  call check_ok('MPI_Recv 3', ierror)
  call MPI_Recv(recvv, 10, MPI_INTEGER, 0, 4, MPI_COMM_WORLD, status, ierror)
  call check_ok('MPI_Recv 4', ierror)
  call check_int('recvv(1)', recvv(1), 101)

  ! Partitioned: 3 partitions of 2 INTEGERs.
  sbuf = [(10 + i, i = 1, 6)]
  rbuf = -1
  call MPI_Psend_init(sbuf, 3, 2_MPI_COUNT_KIND, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, &
                      MPI_INFO_NULL, sreq, ierror)
  call check_ok('MPI_Psend_init', ierror)
  call MPI_Precv_init(rbuf, 3, 2_MPI_COUNT_KIND, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, &
                      MPI_INFO_NULL, rreq, ierror)
  call check_ok('MPI_Precv_init', ierror)
  both = [sreq, rreq]
  call MPI_Startall(2, both, ierror)
  call check_ok('MPI_Startall', ierror)
  call MPI_Pready(1, sreq, ierror)
  call check_ok('MPI_Pready(1)', ierror)
  call MPI_Parrived(rreq, 1, arrived, ierror)
  call check_ok('MPI_Parrived(1)', ierror)
  call check_logical('MPI_Parrived(1)', arrived, .true.)
  call check_int('rbuf(3)', rbuf(3), 13)
  call check_int('rbuf(4)', rbuf(4), 14)
  call check_int('rbuf(1)', rbuf(1), -1)
  call MPI_Pready(3, sreq, ierror)
  call check_class('MPI_Pready(3)', ierror, MPI_ERR_ARG, 'MPI_ERR_ARG')
  call MPI_Pready(0, rreq, ierror)
  call check_class('MPI_Pready on a receive', ierror, MPI_ERR_REQUEST, 'MPI_ERR_REQUEST')
  call MPI_Parrived(rreq, 0, arrived, ierror)
  call check_logical('MPI_Parrived(0) before', arrived, .false.)
  list = [0, 2]
  call MPI_Pready_list(1, list, sreq, ierror)
  call check_ok('MPI_Pready_list', ierror)
  call MPI_Pready_range(2, 2, sreq, ierror)
  call check_ok('MPI_Pready_range', ierror)
  call MPI_Wait(sreq, MPI_STATUS_IGNORE, ierror)
  call check_ok('MPI_Wait(send)', ierror)
  call MPI_Wait(rreq, status, ierror)
  call check_ok('MPI_Wait(receive)', ierror)
  do i = 1, 6
    call check_int('rbuf(' // istr(i) // ')', rbuf(i), 10 + i)
  end do
  call MPI_Request_free(sreq, ierror)
  call check_ok('MPI_Request_free(send)', ierror)
  call MPI_Request_free(rreq, ierror)
  call check_ok('MPI_Request_free(receive)', ierror)

  call MPI_Grequest_complete(MPI_REQUEST_NULL, ierror)
  call check_class('MPI_Grequest_complete(MPI_REQUEST_NULL)', ierror, MPI_ERR_REQUEST, &
                   'MPI_ERR_REQUEST')

  call MPI_Finalize(ierror)
  call check_ok('MPI_Finalize', ierror)
  call finish()
end program p2p_modes_f08
