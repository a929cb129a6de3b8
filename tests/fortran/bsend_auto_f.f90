! MPI_BUFFER_AUTOMATIC and MPI_BSEND_OVERHEAD in Fortran, and MPI_PCONTROL (a subroutine of
! LEVEL alone: no IERROR).
! - mpif.h and `use mpi` (here `use mpi`): MPI_BSEND_OVERHEAD is mpi.h's value, 512;
!   MPI_BUFFER_ATTACH(MPI_BUFFER_AUTOMATIC, 0) attaches the automatic buffer, so a buffered
!   send of 4000 INTEGERs (far more than nothing) to this process succeeds and delivers them;
!   a second attach fails with MPI_ERR_BUFFER;
! - `use mpi_f08`: MPI_Comm_attach_buffer(MPI_COMM_SELF, MPI_BUFFER_AUTOMATIC, 0) the same on
!   MPI_COMM_SELF; MPI_Pcontrol(level) with and without its values.

subroutine automatic_f08()
  use mpi_f08
  use checks, only: check_int, check_ok, check_class, check
  implicit none
  integer :: ierror, i
  integer :: sent(300), got(300)
  type(MPI_Status) :: status

  call MPI_Pcontrol(0)
  call MPI_Pcontrol(2)
  call MPI_Comm_attach_buffer(MPI_COMM_SELF, MPI_BUFFER_AUTOMATIC, 0, ierror)
  call check_ok('MPI_Comm_attach_buffer of MPI_BUFFER_AUTOMATIC', ierror)
  sent = [(3 * i, i = 1, 300)]
  got = 0
  call MPI_Bsend(sent, 300, MPI_INTEGER, 0, 7, MPI_COMM_SELF, ierror)
  call check_ok('f08 MPI_Bsend with the automatic buffer', ierror)
  call MPI_Recv(got, 300, MPI_INTEGER, 0, 7, MPI_COMM_SELF, status, ierror)
  call check_ok('f08 MPI_Recv', ierror)
  call check(all(got == sent), 'f08 MPI_Recv delivers what MPI_Bsend sent')
  call check_int('f08 MPI_Recv: tag', status%MPI_TAG, 7)
  call MPI_Comm_attach_buffer(MPI_COMM_SELF, MPI_BUFFER_AUTOMATIC, 0, ierror)
  call check_class('a second MPI_Comm_attach_buffer', ierror, MPI_ERR_BUFFER, 'MPI_ERR_BUFFER')
  call MPI_Pcontrol(1)
end subroutine automatic_f08

program bsend_auto_f
  use mpi
  use checks
  implicit none
  integer :: ierror, i
  integer :: sent(4000), got(4000), status(MPI_STATUS_SIZE)

  test_name = 'bsend_auto_f'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_Init(ierror)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierror)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierror)
  call check_int('MPI_BSEND_OVERHEAD', MPI_BSEND_OVERHEAD, 512)
  call MPI_Pcontrol(1)
  call MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0, ierror)
  call check_ok('MPI_Buffer_attach of MPI_BUFFER_AUTOMATIC', ierror)
  sent = [(i - 2000, i = 1, 4000)]
  got = 0
  call MPI_Bsend(sent, 4000, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, ierror)
  call check_ok('MPI_Bsend with the automatic buffer', ierror)
  call MPI_Recv(got, 4000, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, status, ierror)
  call check_ok('MPI_Recv', ierror)
  call check(all(got == sent), 'MPI_Recv delivers what MPI_Bsend sent')
  call check_int('MPI_Recv: tag', status(MPI_TAG), 5)
  call MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0, ierror)
  call check_class('a second MPI_Buffer_attach', ierror, MPI_ERR_BUFFER, 'MPI_ERR_BUFFER')
  call MPI_Pcontrol(0)
  call automatic_f08()
  call MPI_Finalize(ierror)
  call check_ok('MPI_Finalize with automatic buffers attached', ierror)
  call finish()
end program bsend_auto_f
