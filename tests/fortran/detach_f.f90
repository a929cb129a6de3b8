! MPI_BUFFER_DETACH, MPI_COMM_DETACH_BUFFER and MPI_SESSION_DETACH_BUFFER in Fortran.
! - `use mpi_f08`: BUFFER_ADDR is a TYPE(C_PTR) that gets the address attached (C_LOC of the
!   buffer; C_F_POINTER of it is that memory) and SIZE its size, for the process, a
!   communicator and a session; with nothing attached a null C_PTR and 0; MPI_BUFFER_AUTOMATIC
!   comes back as C_LOC(MPI_BUFFER_AUTOMATIC) with size 0, and attaching what came back
!   attaches the automatic buffer again (a buffered send of 4000 INTEGERs succeeds); IERROR
!   may be left out; MPI_COMM_NULL is refused with MPI_ERR_COMM and the C_PTR keeps its value;
! - `use mpi`: BUFFER_ADDR, `<type> BUFFER_ADDR(*)`, is unused (MPI-4.1 §3.6.1): an
!   INTEGER(KIND=MPI_ADDRESS_KIND) passed there keeps its value, the buffer itself passed there
!   keeps its contents; SIZE is the size attached (process, MPI_COMM_WORLD), 0 with nothing
!   attached; after the detach a buffered send has no buffer (MPI_ERR_BUFFER).

subroutine detach_f08()
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr, c_loc, c_associated, c_f_pointer, c_null_ptr
  use checks, only: check_int, check_ok, check_class, check
  implicit none
  integer :: ierror, i, got_size
  character(len=1), target :: space(5000), other(3000)
  character(len=1), pointer :: back(:)
  integer(kind=1), pointer :: automatic(:)
  integer :: sent(4000), got(4000)
  type(c_ptr) :: addr
  type(MPI_Session) :: session

  addr = c_loc(space)
  got_size = -1
  call MPI_Buffer_detach(addr, got_size, ierror)
  call check_ok('MPI_Buffer_detach with nothing attached', ierror)
  call check(.not. c_associated(addr), 'MPI_Buffer_detach with nothing attached: a null C_PTR')
  call check_int('MPI_Buffer_detach with nothing attached: size', got_size, 0)

  space = 'a'
  call MPI_Buffer_attach(space, size(space), ierror)
  call check_ok('MPI_Buffer_attach', ierror)
  got_size = -1
  addr = c_null_ptr
  call MPI_Buffer_detach(addr, got_size, ierror)
  call check_ok('MPI_Buffer_detach', ierror)
  call check(c_associated(addr, c_loc(space)), 'MPI_Buffer_detach: the address attached')
  call check_int('MPI_Buffer_detach: size', got_size, size(space))
  call c_f_pointer(addr, back, [got_size])
  back(got_size) = 'z'
  call check(space(size(space)) == 'z', 'MPI_Buffer_detach: C_F_POINTER of the address is the buffer')

  ! Without IERROR.
  call MPI_Buffer_attach(space, 100)
  call MPI_Buffer_detach(addr, got_size)
  call check(c_associated(addr, c_loc(space)), 'MPI_Buffer_detach without IERROR: the address')
  call check_int('MPI_Buffer_detach without IERROR: size', got_size, 100)

  call MPI_Comm_attach_buffer(MPI_COMM_SELF, other, size(other), ierror)
  call check_ok('MPI_Comm_attach_buffer', ierror)
  addr = c_null_ptr
  got_size = -1
  call MPI_Comm_detach_buffer(MPI_COMM_SELF, addr, got_size, ierror)
  call check_ok('MPI_Comm_detach_buffer', ierror)
  call check(c_associated(addr, c_loc(other)), 'MPI_Comm_detach_buffer: the address attached')
  call check_int('MPI_Comm_detach_buffer: size', got_size, size(other))
  call MPI_Comm_detach_buffer(MPI_COMM_SELF, addr, got_size, ierror)
  call check(.not. c_associated(addr), 'a second MPI_Comm_detach_buffer: a null C_PTR')
  call check_int('a second MPI_Comm_detach_buffer: size', got_size, 0)
  addr = c_loc(other)
  got_size = -7
  call MPI_Comm_detach_buffer(MPI_COMM_NULL, addr, got_size, ierror)
  call check_class('MPI_Comm_detach_buffer(MPI_COMM_NULL)', ierror, MPI_ERR_COMM, 'MPI_ERR_COMM')
  call check(c_associated(addr, c_loc(other)), 'MPI_Comm_detach_buffer(MPI_COMM_NULL) keeps the C_PTR')
  call check_int('MPI_Comm_detach_buffer(MPI_COMM_NULL) keeps size', got_size, -7)

  call MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, session, ierror)
  call check_ok('MPI_Session_init', ierror)
  call MPI_Session_attach_buffer(session, space, 4321, ierror)
  call check_ok('MPI_Session_attach_buffer', ierror)
  addr = c_null_ptr
  got_size = -1
  call MPI_Session_detach_buffer(session, addr, got_size, ierror)
  call check_ok('MPI_Session_detach_buffer', ierror)
  call check(c_associated(addr, c_loc(space)), 'MPI_Session_detach_buffer: the address attached')
  call check_int('MPI_Session_detach_buffer: size', got_size, 4321)
  call MPI_Session_finalize(session, ierror)
  call check_ok('MPI_Session_finalize', ierror)

  ! MPI_BUFFER_AUTOMATIC: itself and 0; attaching what came back attaches it again.
  call MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0, ierror)
  call check_ok('MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC)', ierror)
  got_size = -1
  call MPI_Buffer_detach(addr, got_size, ierror)
  call check_ok('MPI_Buffer_detach of MPI_BUFFER_AUTOMATIC', ierror)
  call check(c_associated(addr, c_loc(MPI_BUFFER_AUTOMATIC)), &
    'MPI_Buffer_detach of MPI_BUFFER_AUTOMATIC: C_LOC(MPI_BUFFER_AUTOMATIC)')
  call check_int('MPI_Buffer_detach of MPI_BUFFER_AUTOMATIC: size', got_size, 0)
  sent = [(7 * i, i = 1, 4000)]
  call MPI_Bsend(sent, 4000, MPI_INTEGER, 0, 3, MPI_COMM_SELF, ierror)
  call check_class('MPI_Bsend after the detach', ierror, MPI_ERR_BUFFER, 'MPI_ERR_BUFFER')
  call c_f_pointer(addr, automatic, [1])
  call MPI_Buffer_attach(automatic, got_size, ierror)
  call check_ok('MPI_Buffer_attach of the detached MPI_BUFFER_AUTOMATIC', ierror)
  call MPI_Bsend(sent, 4000, MPI_INTEGER, 0, 3, MPI_COMM_SELF, ierror)
  call check_ok('MPI_Bsend with the automatic buffer attached again', ierror)
  got = 0
  call MPI_Recv(got, 4000, MPI_INTEGER, 0, 3, MPI_COMM_SELF, MPI_STATUS_IGNORE, ierror)
  call check(all(got == sent), 'MPI_Recv delivers what MPI_Bsend sent')
  call MPI_Buffer_detach(addr, got_size, ierror)
  call check(c_associated(addr, c_loc(MPI_BUFFER_AUTOMATIC)), &
    'the second MPI_Buffer_detach of MPI_BUFFER_AUTOMATIC')
end subroutine detach_f08

program detach_f
  use mpi
  use checks
  implicit none
  integer :: ierror, got_size
  integer(kind=MPI_ADDRESS_KIND) :: unused
  character(len=1) :: space(3000)
  integer :: sent(10)

  test_name = 'detach_f'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_Init(ierror)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierror)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierror)

  unused = addr_sentinel
  got_size = -1
  call MPI_Buffer_detach(unused, got_size, ierror)
  call check_ok('MPI_BUFFER_DETACH with nothing attached', ierror)
  call check_int('MPI_BUFFER_DETACH with nothing attached: size', got_size, 0)
  call check_untouched_addr('MPI_BUFFER_DETACH with nothing attached: BUFFER_ADDR', unused)

  call MPI_Buffer_attach(space, size(space), ierror)
  call check_ok('MPI_BUFFER_ATTACH', ierror)
  got_size = -1
  call MPI_Buffer_detach(unused, got_size, ierror)
  call check_ok('MPI_BUFFER_DETACH', ierror)
  call check_int('MPI_BUFFER_DETACH: size', got_size, size(space))
  call check_untouched_addr('MPI_BUFFER_DETACH: BUFFER_ADDR (unused)', unused)
  sent = 5
  call MPI_Bsend(sent, 10, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, ierror)
  call check_class('MPI_BSEND after MPI_BUFFER_DETACH', ierror, MPI_ERR_BUFFER, 'MPI_ERR_BUFFER')

  ! The buffer itself as BUFFER_ADDR, as programs pass it.
  space = 'q'
  call MPI_Comm_attach_buffer(MPI_COMM_WORLD, space, 2000, ierror)
  call check_ok('MPI_COMM_ATTACH_BUFFER', ierror)
  got_size = -1
  call MPI_Comm_detach_buffer(MPI_COMM_WORLD, space, got_size, ierror)
  call check_ok('MPI_COMM_DETACH_BUFFER', ierror)
  call check_int('MPI_COMM_DETACH_BUFFER: size', got_size, 2000)
  call check(all(space == 'q'), 'MPI_COMM_DETACH_BUFFER leaves the buffer passed as BUFFER_ADDR')
  call MPI_Comm_detach_buffer(MPI_COMM_WORLD, unused, got_size, ierror)
  call check_int('a second MPI_COMM_DETACH_BUFFER: size', got_size, 0)
  got_size = -7
  call MPI_Comm_detach_buffer(MPI_COMM_NULL, unused, got_size, ierror)
  call check_class('MPI_COMM_DETACH_BUFFER(MPI_COMM_NULL)', ierror, MPI_ERR_COMM, 'MPI_ERR_COMM')
  call check_int('MPI_COMM_DETACH_BUFFER(MPI_COMM_NULL) keeps SIZE', got_size, -7)

  call detach_f08()
  call MPI_Finalize(ierror)
  call finish()
end program detach_f
