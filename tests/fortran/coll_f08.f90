! Collectives and point-to-point through `use mpi_f08` (choice buffers TYPE(*), DIMENSION(..)
! passed as C descriptors, TYPE(MPI_Status), optional ierror):
! - MPI_Barrier, MPI_Bcast, MPI_Reduce and MPI_Allreduce (MPI_SUM, MPI_MAX, MPI_PROD) on
!   INTEGER and DOUBLE PRECISION, with MPI_IN_PLACE;
! - MPI_MINLOC / MPI_MAXLOC on MPI_2INTEGER and MPI_2DOUBLE_PRECISION pairs (with
!   MPI_Reduce_local on two elements, so the comparison really happens);
! - MPI_LAND, MPI_LOR, MPI_LXOR on MPI_LOGICAL, and MPI_SUM on MPI_LOGICAL refused
!   (MPI_ERR_OP);
! - the sizes of the Fortran predefined datatypes (MPI_INTEGER, MPI_LOGICAL and MPI_2INTEGER
!   follow the default INTEGER), MPI_SUM on MPI_COMPLEX, MPI_MIN on MPI_INTEGER8, MPI_BAND on
!   MPI_INTEGER2, and MPI_MAX on MPI_COMPLEX and MPI_SUM on MPI_CHARACTER refused;
! - MPI_Gather, MPI_Scatter, MPI_Allgather, MPI_Alltoall (also with MPI_IN_PLACE), MPI_Scan,
!   MPI_Exscan;
! - MPI_Send/MPI_Recv of a 2-D array section that is not contiguous (a block of a matrix and
!   a strided row), in both directions, and of a rank-3 array; MPI_Sendrecv; status
!   components status%MPI_SOURCE and %MPI_TAG (TYPE(MPI_Status) is the size of
!   INTEGER(MPI_STATUS_SIZE)); MPI_STATUS_IGNORE; MPI_Isend +
!   MPI_Wait; MPI_Waitall with MPI_STATUSES_IGNORE;
! - MPI_Irecv into a non-contiguous section is refused with MPI_ERR_BUFFER (it would be
!   written after the call returns), and writes no request (where MPI_SUBARRAYS_SUPPORTED is
!   .FALSE.; every send is an MPI_Isend, so the program is correct for any MPI);
! - MPI_ERR_TRUNCATE under MPI_ERRORS_RETURN; ierror left out.
! With MPICH 4's mpi_f08 the program fails one check: its MPI_Sendrecv into the rank-2
! section of a rank-3 array puts the elements in the wrong places.

program coll_f08
  use mpi_f08
  use checks
  implicit none
  integer :: ierror, i, ivec(4), iout(4), isum, imax, pair(2, 2), rank3(2, 2, 2), back3(2, 2, 2)
  double precision :: dvec(3), dout(3), dpair(2, 2), mat(4, 5), block(2, 3), row(5)
  logical :: lvec(3), lout(3)
  complex :: zin(2), zout(2)
  integer(kind=8) :: i8in(2), i8out(2)
  integer(kind=2) :: i2in(2), i2out(2)
  character(len=4) :: text = 'abcd', text2 = 'efgh'
  type(MPI_Status) :: status
  type(MPI_Request) :: req, reqs(2)
  integer :: count

  test_name = 'coll_f08'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_Init()
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierror)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierror)

  call MPI_Barrier(MPI_COMM_WORLD, ierror)
  call check_ok('MPI_Barrier', ierror)

  ! Bcast, Reduce, Allreduce
  ivec = [3, -1, 4, 1]
  call MPI_Bcast(ivec, 4, MPI_INTEGER, 0, MPI_COMM_WORLD, ierror)
  call check_ok('MPI_Bcast', ierror)
  call check(all(ivec == [3, -1, 4, 1]), 'MPI_Bcast keeps the root''s data')
  iout = 0
  call MPI_Reduce(ivec, iout, 4, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierror)
  call check_ok('MPI_Reduce', ierror)
  call check(all(iout == ivec), 'MPI_Reduce of one process is a copy')
  call MPI_Allreduce(MPI_IN_PLACE, ivec, 4, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierror)
  call check_ok('MPI_Allreduce in place', ierror)
  call check(all(ivec == [3, -1, 4, 1]), 'MPI_Allreduce in place keeps the data')
  call MPI_Reduce(MPI_IN_PLACE, ivec, 4, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierror)
  call check_ok('MPI_Reduce in place at the root', ierror)
  dvec = [0.5d0, 2.0d0, -3.0d0]
  dout = 0
  call MPI_Allreduce(dvec, dout, 3, MPI_DOUBLE_PRECISION, MPI_PROD, MPI_COMM_WORLD)
  call check(all(dout == dvec), 'MPI_Allreduce of doubles, ierror left out')

  ! Reduce_local applies the operation: inoutbuf = inbuf op inoutbuf
  ivec = [1, 5, 3, 8]
  iout = [2, 4, 3, 9]
  call MPI_Reduce_local(ivec, iout, 4, MPI_INTEGER, MPI_SUM, ierror)
  call check_ok('MPI_Reduce_local MPI_SUM', ierror)
  call check(all(iout == [3, 9, 6, 17]), 'MPI_SUM on INTEGER')
  isum = 7
  imax = 9
  call MPI_Reduce_local(isum, imax, 1, MPI_INTEGER, MPI_MAX, ierror)
  call check_int('MPI_MAX on INTEGER scalars', imax, 9)
  ! MINLOC on 2INTEGER: (value, index) pairs
  pair(:, 1) = [5, 1]
  pair(:, 2) = [2, 7]
  ivec(1:2) = [3, 4]
  call MPI_Reduce_local(pair(:, 1), ivec(1:2), 1, MPI_2INTEGER, MPI_MINLOC, ierror)
  call check_ok('MPI_MINLOC on MPI_2INTEGER', ierror)
  call check(all(ivec(1:2) == [3, 4]), 'MPI_MINLOC keeps the smaller value and its index')
  call MPI_Reduce_local(pair(:, 2), ivec(1:2), 1, MPI_2INTEGER, MPI_MINLOC, ierror)
  call check(all(ivec(1:2) == [2, 7]), 'MPI_MINLOC takes a smaller value with its index')
  dpair(:, 1) = [1.5d0, 3.0d0]
  dpair(:, 2) = [1.5d0, 2.0d0]
  call MPI_Reduce_local(dpair(:, 1), dpair(:, 2), 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, ierror)
  call check_ok('MPI_MAXLOC on MPI_2DOUBLE_PRECISION', ierror)
  call check(all(dpair(:, 2) == [1.5d0, 2.0d0]), 'MPI_MAXLOC on a tie keeps the smaller index')
  dpair(:, 1) = [9.0d0, 5.0d0]
  call MPI_Reduce_local(dpair(:, 1), dpair(:, 2), 1, MPI_2DOUBLE_PRECISION, MPI_MINLOC, ierror)
  call check(all(dpair(:, 2) == [1.5d0, 2.0d0]), 'MPI_MINLOC on MPI_2DOUBLE_PRECISION')

  ! LOGICAL operations on MPI_LOGICAL
  lvec = [.true., .false., .true.]
  lout = [.true., .true., .false.]
  call MPI_Reduce_local(lvec, lout, 3, MPI_LOGICAL, MPI_LAND, ierror)
  call check_ok('MPI_LAND on MPI_LOGICAL', ierror)
  call check(all(lout .eqv. [.true., .false., .false.]), 'MPI_LAND')
  lout = [.false., .false., .false.]
  call MPI_Reduce_local(lvec, lout, 3, MPI_LOGICAL, MPI_LOR, ierror)
  call check(all(lout .eqv. lvec), 'MPI_LOR')
  lout = [.true., .true., .true.]
  call MPI_Reduce_local(lvec, lout, 3, MPI_LOGICAL, MPI_LXOR, ierror)
  call check(all(lout .eqv. [.false., .true., .false.]), 'MPI_LXOR')
  call MPI_Allreduce(MPI_IN_PLACE, lvec, 3, MPI_LOGICAL, MPI_SUM, MPI_COMM_WORLD, ierror)
  call check_class('MPI_SUM on MPI_LOGICAL', ierror, MPI_ERR_OP)

  ! The Fortran predefined datatypes: sizes (default INTEGER and LOGICAL follow the
  ! configuration) and reductions on some of them
  call size_is(MPI_INTEGER, bit_size(0) / 8, 'MPI_INTEGER')
  call size_is(MPI_LOGICAL, bit_size(0) / 8, 'MPI_LOGICAL')
  call size_is(MPI_2INTEGER, 2 * (bit_size(0) / 8), 'MPI_2INTEGER')
  call size_is(MPI_REAL, 4, 'MPI_REAL')
  call size_is(MPI_DOUBLE_PRECISION, 8, 'MPI_DOUBLE_PRECISION')
  call size_is(MPI_COMPLEX, 8, 'MPI_COMPLEX')
  call size_is(MPI_DOUBLE_COMPLEX, 16, 'MPI_DOUBLE_COMPLEX')
  call size_is(MPI_CHARACTER, 1, 'MPI_CHARACTER')
  call size_is(MPI_2REAL, 8, 'MPI_2REAL')
  call size_is(MPI_2DOUBLE_PRECISION, 16, 'MPI_2DOUBLE_PRECISION')
  call size_is(MPI_INTEGER1, 1, 'MPI_INTEGER1')
  call size_is(MPI_INTEGER2, 2, 'MPI_INTEGER2')
  call size_is(MPI_INTEGER4, 4, 'MPI_INTEGER4')
  call size_is(MPI_INTEGER8, 8, 'MPI_INTEGER8')
  call size_is(MPI_REAL4, 4, 'MPI_REAL4')
  call size_is(MPI_REAL8, 8, 'MPI_REAL8')
  zin = [(1.0, 2.0), (-0.5, 0.25)]
  zout = [(3.0, -1.0), (0.5, 0.75)]
  call MPI_Reduce_local(zin, zout, 2, MPI_COMPLEX, MPI_SUM, ierror)
  call check_ok('MPI_SUM on MPI_COMPLEX', ierror)
  call check(all(zout == [(4.0, 1.0), (0.0, 1.0)]), 'MPI_SUM on MPI_COMPLEX adds both parts')
  i8in = [5_8, -huge(0_8)]
  i8out = [7_8, 3_8]
  call MPI_Reduce_local(i8in, i8out, 2, MPI_INTEGER8, MPI_MIN, ierror)
  call check(all(i8out == [5_8, -huge(0_8)]), 'MPI_MIN on MPI_INTEGER8')
  i2in = [int(12, 2), int(10, 2)]
  i2out = [int(10, 2), int(6, 2)]
  call MPI_Reduce_local(i2in, i2out, 2, MPI_INTEGER2, MPI_BAND, ierror)
  call check(all(i2out == [int(8, 2), int(2, 2)]), 'MPI_BAND on MPI_INTEGER2')
  call MPI_Reduce_local(zin, zout, 2, MPI_COMPLEX, MPI_MAX, ierror)
  call check_class('MPI_MAX on MPI_COMPLEX', ierror, MPI_ERR_OP)
  call MPI_Reduce_local(text, text2, 4, MPI_CHARACTER, MPI_SUM, ierror)
  call check_class('MPI_SUM on MPI_CHARACTER', ierror, MPI_ERR_OP)

  ! Gather, Scatter, Allgather, Alltoall, Scan, Exscan
  ivec = [11, 12, 13, 14]
  iout = 0
  call MPI_Gather(ivec, 2, MPI_INTEGER, iout, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierror)
  call check_ok('MPI_Gather', ierror)
  call check(all(iout == [11, 12, 0, 0]), 'MPI_Gather')
  iout = 0
  call MPI_Scatter(ivec, 3, MPI_INTEGER, iout, 3, MPI_INTEGER, 0, MPI_COMM_WORLD, ierror)
  call check(all(iout == [11, 12, 13, 0]), 'MPI_Scatter')
  iout = 0
  call MPI_Allgather(ivec, 4, MPI_INTEGER, iout, 4, MPI_INTEGER, MPI_COMM_WORLD, ierror)
  call check(all(iout == ivec), 'MPI_Allgather')
  iout = 0
  call MPI_Alltoall(ivec, 1, MPI_INTEGER, iout, 1, MPI_INTEGER, MPI_COMM_WORLD, ierror)
  call check(all(iout == [11, 0, 0, 0]), 'MPI_Alltoall')
  call MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ivec, 4, MPI_INTEGER, MPI_COMM_WORLD, ierror)
  call check_ok('MPI_Alltoall in place', ierror)
  call check(all(ivec == [11, 12, 13, 14]), 'MPI_Alltoall in place keeps the data')
  dout = 0
  call MPI_Scan(dvec, dout, 3, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierror)
  call check(all(dout == dvec), 'MPI_Scan')
  iout = -7
  call MPI_Exscan(ivec, iout, 4, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierror)
  call check_ok('MPI_Exscan', ierror)

  ! Non-contiguous sections, both ways
  mat = reshape([(dble(i), i = 1, 20)], [4, 5])
  ! (each send is an MPI_Isend completed after its receive: correct whatever an MPI buffers)
  call MPI_Isend(mat(2:3, 2:4), 6, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_WORLD, req, ierror)
  call check_ok('MPI_Isend of a block', ierror)
  block = 0
  call MPI_Recv(block, 6, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_WORLD, status, ierror)
  call check(all(block == mat(2:3, 2:4)), 'a 2x3 block arrives in array element order')
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierror)
  call check_int('status%MPI_SOURCE', status%MPI_SOURCE, 0)
  call check_int('status%MPI_TAG', status%MPI_TAG, 1)
  ! (status%MPI_ERROR: a single completion need not set it; p2p_usempi checks mpiattr's)
  call check_int('TYPE(MPI_Status) holds MPI_STATUS_SIZE INTEGERs', storage_size(status) / bit_size(0), &
                 MPI_STATUS_SIZE)
  call MPI_Get_count(status, MPI_DOUBLE_PRECISION, count, ierror)
  call check_int('MPI_Get_count of the block', count, 6)
  row = [-1d0, -2d0, -3d0, -4d0, -5d0]
  call MPI_Isend(row, 5, MPI_DOUBLE_PRECISION, 0, 2, MPI_COMM_WORLD, req, ierror)
  call MPI_Recv(mat(4, :), 5, MPI_DOUBLE_PRECISION, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierror)
  call check_ok('MPI_Recv into a strided row', ierror)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierror)
  call check(all(mat(4, :) == row) .and. mat(3, 5) == 19d0, 'the row receives, the rest stays')
  rank3 = reshape([(i, i = 1, 8)], [2, 2, 2])
  back3 = 0
  call MPI_Sendrecv(rank3(:, :, 2), 4, MPI_INTEGER, 0, 3, back3(1, :, :), 4, MPI_INTEGER, 0, 3, &
                    MPI_COMM_WORLD, status, ierror)
  call check_ok('MPI_Sendrecv of rank-2 sections of rank-3 arrays', ierror)
  call check(all(back3(1, :, :) == reshape([5, 6, 7, 8], [2, 2])) .and. all(back3(2, :, :) == 0), &
             'MPI_Sendrecv scatters into the section')

  ! Isend + Wait, Waitall with MPI_STATUSES_IGNORE
  call MPI_Isend(mat(1, :), 5, MPI_DOUBLE_PRECISION, 0, 4, MPI_COMM_WORLD, req, ierror)
  call check_ok('MPI_Isend of a strided row (copied at once)', ierror)
  row = 0
  call MPI_Recv(row, 5, MPI_DOUBLE_PRECISION, 0, 4, MPI_COMM_WORLD, status, ierror)
  call check(all(row == mat(1, :)), 'the Isend row arrives')
  call MPI_Wait(req, status, ierror)
  call check_ok('MPI_Wait', ierror)
  call check(req == MPI_REQUEST_NULL, 'MPI_Wait nulls the request')
  call MPI_Irecv(iout, 2, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, reqs(1), ierror)
  call MPI_Isend(ivec, 2, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, reqs(2), ierror)
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierror)
  call check_ok('MPI_Waitall', ierror)
  call check(all(iout(1:2) == ivec(1:2)), 'MPI_Waitall completes the receive')

  ! Truncation
  call MPI_Isend(ivec, 4, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, req, ierror)
  call MPI_Recv(iout, 2, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, status, ierror)
  call check_class('MPI_Recv of 4 into 2', ierror, MPI_ERR_TRUNCATE)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierror)

  ! A nonblocking receive into a non-contiguous section is refused (mpiattr: MPICH, whose
  ! MPI_SUBARRAYS_SUPPORTED is .TRUE., accepts it)
  if (.not. MPI_SUBARRAYS_SUPPORTED) then
    req = MPI_REQUEST_NULL
    call MPI_Irecv(mat(1, :), 5, MPI_DOUBLE_PRECISION, 0, 6, MPI_COMM_WORLD, req, ierror)
    call check_class('MPI_Irecv into a strided row', ierror, MPI_ERR_BUFFER)
    call check(req == MPI_REQUEST_NULL, 'the refused MPI_Irecv writes no request')
  end if

  call MPI_Finalize(ierror)
  call check_ok('MPI_Finalize', ierror)
  call finish()

contains

  subroutine size_is(datatype, expected, name)
    type(MPI_Datatype), intent(in) :: datatype
    integer, intent(in) :: expected
    character(len=*), intent(in) :: name
    integer :: bytes, e
    call MPI_Type_size(datatype, bytes, e)
    call check_ok('MPI_Type_size(' // name // ')', e)
    call check_int('MPI_Type_size(' // name // ')', bytes, expected)
  end subroutine size_is
end program coll_f08
