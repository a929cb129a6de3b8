! A status filled by a Fortran receive (`use mpi`, INTEGER(MPI_STATUS_SIZE)) reads the same
! in C: the C half converts it with MPI_Status_f2c, checks its public fields and asks
! MPI_Get_count in C for the count Fortran got, then converts it back with MPI_Status_c2f
! (the same INTEGERs) and converts a status a C receive filled for Fortran to read, which
! MPI_GET_COUNT and MPI_TEST_CANCELLED then read in Fortran.

program mixed_status
  use mpi
  use checks
  implicit none
  integer :: ierror, count, cfail, status(MPI_STATUS_SIZE), from_c(MPI_STATUS_SIZE)
  double precision :: dvec(6), dout(6)
  logical :: flag

  test_name = 'mixed_status'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_INIT(ierror)
  dvec = 1.0d0
  call MPI_SEND(dvec, 5, MPI_DOUBLE_PRECISION, 0, 33, MPI_COMM_WORLD, ierror)
  status = -7  ! MPI_ERROR keeps this: a single receive does not set it (MPI-4.1 3.2.5)
  call MPI_RECV(dout, 6, MPI_DOUBLE_PRECISION, 0, MPI_ANY_TAG, MPI_COMM_WORLD, status, ierror)
  call check_ok('MPI_RECV', ierror)
  call MPI_GET_COUNT(status, MPI_DOUBLE_PRECISION, count, ierror)
  call check_int('MPI_GET_COUNT in Fortran', count, 5)
  ! C reads the Fortran status, and fills one from a C receive of 3 ints with tag 44
  from_c = sentinel
  call c_check_status(status, count, from_c)
  call MPI_GET_COUNT(from_c, MPI_INTEGER4, count, ierror)
  call check_ok('MPI_GET_COUNT of the C status', ierror)
  call check_int('MPI_GET_COUNT of the C status', count, 3)
  call check_int('the C status tag', from_c(MPI_TAG), 44)
  call check_int('the C status source', from_c(MPI_SOURCE), 0)
  call MPI_TEST_CANCELLED(from_c, flag, ierror)
  call check_logical('the C status is not cancelled', flag, .false.)
  call c_failures(cfail)
  call MPI_FINALIZE(ierror)
  call finish(cfail)
end program mixed_status
