! The large-count routines of `use mpi_f08`: the specific procedures with
! INTEGER(KIND=MPI_COUNT_KIND) counts under the generic names of the others. A count beyond a
! 4-byte INTEGER: MPI_Type_contiguous of 3*10^9 bytes, whose size MPI_Type_size gives whole to
! a count-kind variable (and to a 4-byte INTEGER as MPI_UNDEFINED); point-to-point with
! MPI_Get_count and MPI_Get_elements, a collective, packing and unpacking, and a negative
! count (MPI_ERR_COUNT, nothing written), all with count-kind arguments. With 8-byte default
! INTEGERs the same calls reach the ordinary routines, whose counts have that size already.

program large_count_f08
  use mpi_f08
  use checks
  implicit none
  integer :: ierror, size_i, i
  integer(kind=MPI_COUNT_KIND) :: n, size_c, count_c, position
  type(MPI_Datatype) :: big, never
  type(MPI_Status) :: status
  type(MPI_Request) :: request
  integer, asynchronous :: sendbuf(4)
  integer :: recvbuf(4)
  double precision :: x(3), y(3)
  character :: packed(64)

  test_name = 'large_count_f08'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_Init(ierror)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierror)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierror)

  ! A type of 3*10^9 bytes.
  n = 3000000000_MPI_COUNT_KIND
  call MPI_Type_contiguous(n, MPI_BYTE, big, ierror)
  call check_ok('MPI_Type_contiguous of 3*10^9 bytes', ierror)
  size_c = -1
  call MPI_Type_size(big, size_c, ierror)
  call check_ok('MPI_Type_size into a count-kind variable', ierror)
  call check_addr('its size, count kind', size_c, n)
  size_i = -1
  call MPI_Type_size(big, size_i, ierror)
  call check_ok('MPI_Type_size into a default INTEGER', ierror)
  if (bit_size(0) == 32) then
    call check_int('its size, 4-byte INTEGER', size_i, MPI_UNDEFINED)
  else
    call check(int(size_i, MPI_COUNT_KIND) == n, 'its size, 8-byte INTEGER: '//istr(size_i))
  end if
  call MPI_Type_free(big, ierror)
  call check_ok('MPI_Type_free', ierror)

  ! A negative count: MPI_ERR_COUNT, the output untouched.
  never = MPI_DATATYPE_NULL
  call MPI_Type_contiguous(-1_MPI_COUNT_KIND, MPI_BYTE, never, ierror)
  call check_class('MPI_Type_contiguous of -1', ierror, MPI_ERR_COUNT)
  call check(never == MPI_DATATYPE_NULL, 'a failed MPI_Type_contiguous writes no type')

  ! Point-to-point with oneself.
  sendbuf = [(10 * i, i = 1, 4)]
  recvbuf = 0
  ! (MPI_Isend: a blocking MPI_Send to oneself may wait for the receive, as MPICH's does)
  call MPI_Isend(sendbuf, 4_MPI_COUNT_KIND, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, request, ierror)
  call check_ok('MPI_Isend of 4 INTEGERs', ierror)
  call MPI_Recv(recvbuf, 4_MPI_COUNT_KIND, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, status, ierror)
  call check_ok('MPI_Recv of 4 INTEGERs', ierror)
  call MPI_Wait(request, MPI_STATUS_IGNORE, ierror)
  call check_ok('MPI_Wait of the send', ierror)
  call check(all(recvbuf == sendbuf), 'MPI_Recv received what MPI_Isend sent')
  count_c = -1
  call MPI_Get_count(status, MPI_INTEGER, count_c, ierror)
  call check_ok('MPI_Get_count', ierror)
  call check_addr('MPI_Get_count', count_c, 4_MPI_COUNT_KIND)
  count_c = -1
  call MPI_Get_elements(status, MPI_INTEGER, count_c, ierror)
  call check_ok('MPI_Get_elements', ierror)
  call check_addr('MPI_Get_elements', count_c, 4_MPI_COUNT_KIND)
  recvbuf = 0
  call MPI_Sendrecv(sendbuf, 2_MPI_COUNT_KIND, MPI_INTEGER, 0, 8, recvbuf, 4_MPI_COUNT_KIND, &
                    MPI_INTEGER, 0, 8, MPI_COMM_WORLD, status, ierror)
  call check_ok('MPI_Sendrecv', ierror)
  call check(all(recvbuf == [10, 20, 0, 0]), 'MPI_Sendrecv moved 2 INTEGERs')
  call MPI_Get_count(status, MPI_INTEGER, count_c, ierror)
  call check_addr('MPI_Get_count after MPI_Sendrecv', count_c, 2_MPI_COUNT_KIND)

  ! A collective.
  x = [1.5d0, 2.5d0, 3.5d0]
  y = 0
  call MPI_Allreduce(x, y, 3_MPI_COUNT_KIND, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierror)
  call check_ok('MPI_Allreduce of 3 DOUBLE PRECISION', ierror)
  call check(all(y == x), 'MPI_Allreduce on one process copies')

  ! Packing.
  call MPI_Pack_size(3_MPI_COUNT_KIND, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, size_c, ierror)
  call check_ok('MPI_Pack_size', ierror)
  call check(size_c >= 24, 'MPI_Pack_size of 3 DOUBLE PRECISION: '//str(size_c))
  position = 0
  call MPI_Pack(x, 3_MPI_COUNT_KIND, MPI_DOUBLE_PRECISION, packed, 64_MPI_COUNT_KIND, position, &
                MPI_COMM_WORLD, ierror)
  call check_ok('MPI_Pack', ierror)
  call check_addr('MPI_Pack: the position after 3 DOUBLE PRECISION', position, 24_MPI_COUNT_KIND)
  y = 0
  position = 0
  call MPI_Unpack(packed, 64_MPI_COUNT_KIND, position, y, 3_MPI_COUNT_KIND, &
                  MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, ierror)
  call check_ok('MPI_Unpack', ierror)
  call check(all(y == x), 'MPI_Unpack gives back what MPI_Pack packed')
  call check_addr('MPI_Unpack: the position', position, 24_MPI_COUNT_KIND)

  call MPI_Finalize(ierror)
  call check_ok('MPI_Finalize', ierror)
  call finish()
end program large_count_f08
