! mixed_values: the nine cells of attributes.md §3's table, across C and Fortran in one process.
!
! Row "C pointer": C stores a pointer to a static struct, a heap address above 2**32 (via
! MPI_Attr_put) and (void*)-7; C reads the same pointers back (and the structs through them),
! Fortran MPI_COMM_GET_ATTR reads the address as an integer, MPI_ATTR_GET its low
! INTEGER-width bits. Row "Fortran address": MPI_COMM_SET_ATTR of 2**40+5, huge, -(2**40)-3
! and 2**31; Fortran reads v and its low bits, C (MPI_Comm_get_attr and MPI_Attr_get) reads a
! pointer to an MPI_Aint holding v. Row "Fortran INTEGER": MPI_ATTR_PUT of -7, 42, huge(0);
! Fortran reads i both ways (sign-extended), C reads a pointer to an MPI_Fint holding i.
! C's pointer is the same on every get and its storage stays valid and unchanged while other
! attributes are set, deleted and copied; replacing a value (from either language) changes
! its tag. A Fortran address value on a datatype and on a window reads from C the same way.
! The C half is mixed_values.c.
program mixed_values
  use mpi
  use checks
  implicit none
  integer, parameter :: ak = MPI_ADDRESS_KIND
  ! object kinds for the C side
  integer, parameter :: obj_comm = 1, obj_type = 2, obj_win = 3
  integer, parameter :: nextra = 40
  integer :: ierr, comm, dup, dtype, win, tkv, wkv, i, cfail
  integer :: kvc(3), kva(4), kvi(3), kvx(nextra)
  integer(ak) :: addr(3), aval(4), got_a, v
  integer :: ival(3), got_i
  logical :: flag
  character(8) :: n

  test_name = 'mixed_values'
  call MPI_INIT(ierr)
  call check_ok('MPI_INIT', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call check_ok('set MPI_ERRORS_RETURN on MPI_COMM_WORLD', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call check_ok('set MPI_ERRORS_RETURN on MPI_COMM_SELF', ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, comm, ierr)
  call check_ok('MPI_COMM_DUP', ierr)

  do i = 1, 3
    call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kvc(i), 0_ak, ierr)
    call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
    call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kvi(i), 0_ak, ierr)
    call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  end do
  do i = 1, 4
    call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kva(i), 0_ak, ierr)
    call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  end do

  ! Row "C pointer": C stores &static struct, a heap address > 2**32 (MPI_Attr_put) and
  ! (void*)-7, and tells us their integer values.
  addr = -12345
  call c_set_pointers(comm, kvc, addr)
  call check_addr('(void*)-7 passed from C as an MPI_Aint, read as INTEGER(MPI_ADDRESS_KIND)', &
      addr(3), -7_ak)
  do i = 1, 3
    write (n, '(I0)') i
    call f_read_comm('C pointer ' // trim(n), comm, kvc(i), addr(i))
  end do

  ! Row "Fortran address".
  aval = [2_ak**40 + 5, huge(0_ak), -(2_ak**40) - 3, 2_ak**31]
  do i = 1, 4
    write (n, '(I0)') i
    call MPI_COMM_SET_ATTR(comm, kva(i), aval(i), ierr)
    call check_ok('MPI_COMM_SET_ATTR address value ' // trim(n), ierr)
    call f_read_comm('address value ' // trim(n), comm, kva(i), aval(i))
    call c_read_aint(obj_comm, comm, kva(i), aval(i), i)
  end do
  ! attributes.md §3's own example, independently of low_bits: 2**40+5 reads 5 with a 4-byte INTEGER.
  got_i = -12345
  call MPI_ATTR_GET(comm, kva(1), got_i, flag, ierr)
  call check_ok('MPI_ATTR_GET of 2**40+5', ierr)
  if (bit_size(0) == 32) then
    call check_int('MPI_ATTR_GET of 2**40+5 (4-byte INTEGER)', got_i, 5)
  else
    call check_addr('MPI_ATTR_GET of 2**40+5 (8-byte INTEGER)', int(got_i, ak), 2_ak**40 + 5)
  end if

  ! Row "Fortran INTEGER": MPI_ATTR_GET reads i, MPI_COMM_GET_ATTR reads i sign-extended.
  ival = [-7, 42, huge(0)]
  do i = 1, 3
    write (n, '(I0)') i
    call MPI_ATTR_PUT(comm, kvi(i), ival(i), ierr)
    call check_ok('MPI_ATTR_PUT INTEGER value ' // trim(n), ierr)
    call f_read_comm('INTEGER value ' // trim(n), comm, kvi(i), int(ival(i), ak))
    call c_read_fint(obj_comm, comm, kvi(i), ival(i), 4 + i)
  end do

  ! C's pointers stay valid and unchanged while the object changes around them: many more
  ! attributes set, half of them deleted, the communicator duplicated (with DUP_FN keyvals).
  do i = 1, nextra
    call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kvx(i), 0_ak, ierr)
    call check_ok('MPI_COMM_CREATE_KEYVAL (extra)', ierr)
    call MPI_COMM_SET_ATTR(comm, kvx(i), int(1000 + i, ak), ierr)
    call check_ok('MPI_COMM_SET_ATTR (extra)', ierr)
  end do
  do i = 1, nextra, 2
    call MPI_COMM_DELETE_ATTR(comm, kvx(i), ierr)
    call check_ok('MPI_COMM_DELETE_ATTR (extra)', ierr)
  end do
  call MPI_COMM_DUP(comm, dup, ierr)
  call check_ok('MPI_COMM_DUP', ierr)
  call MPI_COMM_FREE(dup, ierr)
  call check_ok('MPI_COMM_FREE', ierr)
  call c_recheck_saved()

  ! Replacing changes the tag: an address value replaced by MPI_ATTR_PUT reads as an MPI_Fint
  ! from C; an INTEGER value replaced by MPI_COMM_SET_ATTR as an MPI_Aint; one replaced from C
  ! by a pointer reads as that pointer's integer value in Fortran.
  call MPI_ATTR_PUT(comm, kva(1), -9, ierr)
  call check_ok('MPI_ATTR_PUT over an address value', ierr)
  call f_read_comm('INTEGER -9 over an address value', comm, kva(1), -9_ak)
  call c_read_fint(obj_comm, comm, kva(1), -9, 1)
  v = 2_ak**40 + 9
  call MPI_COMM_SET_ATTR(comm, kvi(1), v, ierr)
  call check_ok('MPI_COMM_SET_ATTR over an INTEGER value', ierr)
  call f_read_comm('address 2**40+9 over an INTEGER value', comm, kvi(1), v)
  call c_read_aint(obj_comm, comm, kvi(1), v, 5)
  v = -(2_ak**40) - 13
  call c_forget(6)
  call c_set_int_pointer(comm, kvi(2), v)
  call f_read_comm('C pointer (void*)(-(2**40)-13) over an INTEGER value', comm, kvi(2), v)
  call c_recheck_saved()

  ! A Fortran address value on a datatype (user-defined and predefined) and on a window.
  call MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER, dtype, ierr)
  call check_ok('MPI_TYPE_CONTIGUOUS', ierr)
  call MPI_TYPE_COMMIT(dtype, ierr)
  call check_ok('MPI_TYPE_COMMIT', ierr)
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, tkv, 0_ak, ierr)
  call check_ok('MPI_TYPE_CREATE_KEYVAL', ierr)
  v = 2_ak**40 + 6
  call MPI_TYPE_SET_ATTR(dtype, tkv, v, ierr)
  call check_ok('MPI_TYPE_SET_ATTR', ierr)
  got_a = -12345
  flag = .false.
  call MPI_TYPE_GET_ATTR(dtype, tkv, got_a, flag, ierr)
  call check_ok('MPI_TYPE_GET_ATTR', ierr)
  call check_attr_addr('MPI_TYPE_GET_ATTR', flag, got_a, v)
  call c_read_aint(obj_type, dtype, tkv, v, 9)
  v = -(2_ak**40) - 6
  call MPI_TYPE_SET_ATTR(MPI_INTEGER, tkv, v, ierr)
  call check_ok('MPI_TYPE_SET_ATTR on MPI_INTEGER', ierr)
  call c_read_aint(obj_type, MPI_INTEGER, tkv, v, 10)

  call MPI_WIN_CREATE_DYNAMIC(MPI_INFO_NULL, comm, win, ierr)
  call check_ok('MPI_WIN_CREATE_DYNAMIC', ierr)
  call MPI_WIN_SET_ERRHANDLER(win, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_WIN_SET_ERRHANDLER', ierr)
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, wkv, 0_ak, ierr)
  call check_ok('MPI_WIN_CREATE_KEYVAL', ierr)
  v = 2_ak**40 + 7
  call MPI_WIN_SET_ATTR(win, wkv, v, ierr)
  call check_ok('MPI_WIN_SET_ATTR', ierr)
  got_a = -12345
  flag = .false.
  call MPI_WIN_GET_ATTR(win, wkv, got_a, flag, ierr)
  call check_ok('MPI_WIN_GET_ATTR', ierr)
  call check_attr_addr('MPI_WIN_GET_ATTR', flag, got_a, v)
  call c_read_aint(obj_win, win, wkv, v, 11)
  call c_recheck_saved()

  ! Clean up (the saved C pointers die with their attributes).
  call c_forget_all()
  call MPI_TYPE_DELETE_ATTR(MPI_INTEGER, tkv, ierr)
  call check_ok('MPI_TYPE_DELETE_ATTR on MPI_INTEGER', ierr)
  call MPI_TYPE_FREE(dtype, ierr)
  call check_ok('MPI_TYPE_FREE', ierr)
  call MPI_WIN_FREE(win, ierr)
  call check_ok('MPI_WIN_FREE', ierr)
  call MPI_TYPE_FREE_KEYVAL(tkv, ierr)
  call check_ok('MPI_TYPE_FREE_KEYVAL', ierr)
  call MPI_WIN_FREE_KEYVAL(wkv, ierr)
  call check_ok('MPI_WIN_FREE_KEYVAL', ierr)
  call MPI_COMM_FREE(comm, ierr)
  call check_ok('MPI_COMM_FREE', ierr)
  do i = 1, 3
    call MPI_COMM_FREE_KEYVAL(kvc(i), ierr)
    call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
    call MPI_COMM_FREE_KEYVAL(kvi(i), ierr)
    call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  end do
  do i = 1, 4
    call MPI_COMM_FREE_KEYVAL(kva(i), ierr)
    call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  end do
  do i = 1, nextra
    call MPI_COMM_FREE_KEYVAL(kvx(i), ierr)
    call check_ok('MPI_COMM_FREE_KEYVAL', ierr)
  end do
  call c_failures(cfail)
  call MPI_FINALIZE(ierr)
  call check_ok('MPI_FINALIZE', ierr)
  call finish(cfail)

contains

  ! Both Fortran readers of one attribute: MPI_COMM_GET_ATTR reads `expected`, MPI_ATTR_GET
  ! its low bits.
  subroutine f_read_comm(what, comm, kv, expected)
    character(*), intent(in) :: what
    integer, intent(in) :: comm, kv
    integer(ak), intent(in) :: expected
    integer(ak) :: got_a
    integer :: got_i, ierr
    logical :: flag
    got_a = -12345
    flag = .false.
    call MPI_COMM_GET_ATTR(comm, kv, got_a, flag, ierr)
    call check_ok(what // ': MPI_COMM_GET_ATTR', ierr)
    call check_attr_addr(what // ': MPI_COMM_GET_ATTR', flag, got_a, expected)
    got_i = -12345
    flag = .false.
    call MPI_ATTR_GET(comm, kv, got_i, flag, ierr)
    call check_ok(what // ': MPI_ATTR_GET', ierr)
    call check_attr_int(what // ': MPI_ATTR_GET (low INTEGER bits)', flag, got_i, low_bits(expected))
  end subroutine f_read_comm
end program mixed_values
