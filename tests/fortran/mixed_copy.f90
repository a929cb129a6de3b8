! mixed_copy: attribute copies across C and Fortran (attributes.md §3, §4), on communicators and
! datatypes.
!
! 1. Keyvals created in C with MPI_COMM_DUP_FN / MPI_TYPE_DUP_FN hold Fortran values (an
!    address value from MPI_*_SET_ATTR; for communicators also an MPI_ATTR_PUT INTEGER);
!    the object is duplicated in Fortran and in C; both languages read each copy with the
!    tag's views (Fortran: v and its low bits; C: a pointer to an MPI_Aint / MPI_Fint); the C
!    pointer of every copy differs from the source's and from the other copy's (copies own
!    their storage); after the source is freed the copies read the same, through fresh gets
!    and through the pointers C saved.
! 2. The reverse: a keyval created in Fortran with the DUP_FN holds a C pointer to a struct;
!    after a dup (Fortran and C) Fortran reads the pointer's integer value and C the struct.
! 3. A C copy callback that returns the very pointer it was given for Fortran-tagged values:
!    it is given the C view (a pointer to the value), and the copy still has its own storage,
!    with the same value and tag.
! 4. A Fortran MPI-1 copy callback (MPI_KEYVAL_CREATE) that sees the INTEGER view of an
!    address value and returns -5: C reads *(MPI_Fint*)p == -5, Fortran reads -5 both ways.
!    For datatypes, an address-kind Fortran callback returning -5: C reads *(MPI_Aint*)p.
! The C half is mixed_copy.c.
module mixed_copy_helpers
  use mpi
  use checks
  implicit none
  integer, parameter :: ak = MPI_ADDRESS_KIND
  integer, parameter :: obj_comm = 1, obj_type = 2
  ! copy callbacks of the keyvals C creates
  integer, parameter :: c_dup_fn = 1, c_copy_same = 2
  ! what the Fortran copy callbacks saw
  integer :: ncopy = 0, seen_old = -1, seen_kv = -1
  integer(ak) :: seen_extra = -1, seen_in = -1
contains
  function objname(kind) result(s)
    integer, intent(in) :: kind
    character(:), allocatable :: s
    if (kind == obj_comm) then
      s = 'comm'
    else
      s = 'datatype'
    end if
  end function objname

  ! A new object: a duplicate of MPI_COMM_WORLD, or a committed contiguous datatype.
  subroutine new_obj(kind, h)
    integer, intent(in) :: kind
    integer, intent(out) :: h
    integer :: ierr
    if (kind == obj_comm) then
      call MPI_COMM_DUP(MPI_COMM_WORLD, h, ierr)
      call check_ok('MPI_COMM_DUP(MPI_COMM_WORLD)', ierr)
    else
      call MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER, h, ierr)
      call check_ok('MPI_TYPE_CONTIGUOUS', ierr)
      call MPI_TYPE_COMMIT(h, ierr)
      call check_ok('MPI_TYPE_COMMIT', ierr)
    end if
  end subroutine new_obj

  subroutine dup_obj(kind, h, newh)
    integer, intent(in) :: kind, h
    integer, intent(out) :: newh
    integer :: ierr
    if (kind == obj_comm) then
      call MPI_COMM_DUP(h, newh, ierr)
    else
      call MPI_TYPE_DUP(h, newh, ierr)
    end if
    call check_ok('Fortran dup of a ' // objname(kind), ierr)
  end subroutine dup_obj

  subroutine free_obj(kind, h)
    integer, intent(in) :: kind
    integer, intent(inout) :: h
    integer :: ierr
    if (kind == obj_comm) then
      call MPI_COMM_FREE(h, ierr)
    else
      call MPI_TYPE_FREE(h, ierr)
    end if
    call check_ok('Fortran free of a ' // objname(kind), ierr)
  end subroutine free_obj

  subroutine free_keyval(kind, kv)
    integer, intent(in) :: kind
    integer, intent(inout) :: kv
    integer :: ierr
    if (kind == obj_comm) then
      call MPI_COMM_FREE_KEYVAL(kv, ierr)
    else
      call MPI_TYPE_FREE_KEYVAL(kv, ierr)
    end if
    call check_ok('Fortran free of a ' // objname(kind) // ' keyval', ierr)
  end subroutine free_keyval

  subroutine set_addr(kind, h, kv, v)
    integer, intent(in) :: kind, h, kv
    integer(ak), intent(in) :: v
    integer :: ierr
    if (kind == obj_comm) then
      call MPI_COMM_SET_ATTR(h, kv, v, ierr)
    else
      call MPI_TYPE_SET_ATTR(h, kv, v, ierr)
    end if
    call check_ok('MPI_' // objname(kind) // '_SET_ATTR', ierr)
  end subroutine set_addr

  ! The Fortran readers: MPI_*_GET_ATTR reads `expected`; on a communicator MPI_ATTR_GET
  ! reads its low INTEGER-width bits.
  subroutine f_read(what, kind, h, kv, expected)
    character(*), intent(in) :: what
    integer, intent(in) :: kind, h, kv
    integer(ak), intent(in) :: expected
    integer(ak) :: got_a
    integer :: got_i, ierr
    logical :: flag
    got_a = -12345
    flag = .false.
    if (kind == obj_comm) then
      call MPI_COMM_GET_ATTR(h, kv, got_a, flag, ierr)
    else
      call MPI_TYPE_GET_ATTR(h, kv, got_a, flag, ierr)
    end if
    call check_ok(what // ': MPI_*_GET_ATTR', ierr)
    call check_attr_addr(what // ': MPI_*_GET_ATTR', flag, got_a, expected)
    if (kind /= obj_comm) return
    got_i = -12345
    flag = .false.
    call MPI_ATTR_GET(h, kv, got_i, flag, ierr)
    call check_ok(what // ': MPI_ATTR_GET', ierr)
    call check_attr_int(what // ': MPI_ATTR_GET', flag, got_i, low_bits(expected))
  end subroutine f_read

  ! Fortran MPI-1 copy callback: records what it saw, the copy is -5.
  subroutine copy_mpi1(oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, &
      flag, ierr)
    integer :: oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, ierr
    logical :: flag
    ncopy = ncopy + 1
    seen_old = oldcomm
    seen_kv = keyval
    seen_extra = int(extra_state, ak)
    seen_in = int(attribute_val_in, ak)
    attribute_val_out = -5
    flag = .true.
    ierr = MPI_SUCCESS
  end subroutine copy_mpi1

  ! Fortran address-kind datatype copy callback: records what it saw, the copy is -5.
  subroutine type_copy_neg(oldtype, type_keyval, extra_state, attribute_val_in, &
      attribute_val_out, flag, ierr)
    integer :: oldtype, type_keyval, ierr
    integer(ak) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    ncopy = ncopy + 1
    seen_old = oldtype
    seen_kv = type_keyval
    seen_extra = extra_state
    seen_in = attribute_val_in
    attribute_val_out = -5
    flag = .true.
    ierr = MPI_SUCCESS
  end subroutine type_copy_neg
end module mixed_copy_helpers

program mixed_copy
  use mpi
  use checks
  use mixed_copy_helpers
  implicit none
  integer :: ierr, cfail, kind

  test_name = 'mixed_copy'
  call MPI_INIT(ierr)
  call check_ok('MPI_INIT', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call check_ok('set MPI_ERRORS_RETURN on MPI_COMM_WORLD', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call check_ok('set MPI_ERRORS_RETURN on MPI_COMM_SELF', ierr)

  do kind = obj_comm, obj_type
    call c_keyval_holds_fortran_values(kind)
    call fortran_keyval_holds_c_pointer(kind)
    call c_callback_returns_its_input(kind)
  end do
  call fortran_mpi1_callback_negative()
  call fortran_type_callback_negative()

  call c_failures(cfail)
  call MPI_FINALIZE(ierr)
  call check_ok('MPI_FINALIZE', ierr)
  call finish(cfail)

contains

  ! 1. C keyvals with the DUP_FN, Fortran values, copies made in Fortran and in C.
  ! C slots: 1, 2 the source's pointers; 3, 4 the Fortran copy's; 5, 6 the C copy's.
  subroutine c_keyval_holds_fortran_values(kind)
    integer, intent(in) :: kind
    integer :: kva, kvi, src, df, dc, ierr, k
    integer(ak), parameter :: a = 2_ak**40 + 5
    integer, parameter :: i = -7
    character(:), allocatable :: what

    kvi = MPI_KEYVAL_INVALID   ! only communicators get the INTEGER value
    call c_create_keyval(kind, c_dup_fn, 0, kva)
    call new_obj(kind, src)
    call set_addr(kind, src, kva, a)
    call c_view_aint(kind, src, kva, a, 1)
    if (kind == obj_comm) then
      call c_create_keyval(kind, c_dup_fn, 0, kvi)
      call MPI_ATTR_PUT(src, kvi, i, ierr)
      call check_ok('MPI_ATTR_PUT', ierr)
      call c_view_fint(kind, src, kvi, i, 2)
    end if

    call dup_obj(kind, src, df)
    call c_dup(kind, src, dc)
    do k = 1, 2   ! once with the source alive, once after it is freed
      what = 'DUP_FN copy (made in Fortran) of a ' // objname(kind) // ' address value'
      call f_read(what, kind, df, kva, a)
      what = 'DUP_FN copy (made in C) of a ' // objname(kind) // ' address value'
      call f_read(what, kind, dc, kva, a)
      if (k == 1) then
        call c_view_aint(kind, df, kva, a, 3)
        call c_view_aint(kind, dc, kva, a, 5)
        call c_distinct(1, 3)
        call c_distinct(1, 5)
        call c_distinct(3, 5)
      else
        call c_recheck(3)
        call c_recheck(5)
      end if
      if (kind == obj_comm) then
        call f_read('DUP_FN copy (made in Fortran) of an INTEGER value', kind, df, kvi, &
            int(i, ak))
        call f_read('DUP_FN copy (made in C) of an INTEGER value', kind, dc, kvi, int(i, ak))
        if (k == 1) then
          call c_view_fint(kind, df, kvi, i, 4)
          call c_view_fint(kind, dc, kvi, i, 6)
          call c_distinct(2, 4)
          call c_distinct(2, 6)
          call c_distinct(4, 6)
        else
          call c_recheck(4)
          call c_recheck(6)
        end if
      end if
      if (k == 1) call free_obj(kind, src)
    end do

    call c_forget_all()
    call free_obj(kind, df)
    call free_obj(kind, dc)
    call free_keyval(kind, kva)
    if (kind == obj_comm) call free_keyval(kind, kvi)
  end subroutine c_keyval_holds_fortran_values

  ! 2. A Fortran keyval with the DUP_FN holding a C pointer to a struct.
  subroutine fortran_keyval_holds_c_pointer(kind)
    integer, intent(in) :: kind
    integer :: kv, src, df, dc, ierr
    integer(ak) :: addr
    if (kind == obj_comm) then
      call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kv, 0_ak, ierr)
    else
      call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, kv, 0_ak, ierr)
    end if
    call check_ok('Fortran create keyval with the DUP_FN', ierr)
    call new_obj(kind, src)
    addr = 0
    call c_set_struct(kind, src, kv, addr)
    call dup_obj(kind, src, df)
    call c_dup(kind, src, dc)
    call free_obj(kind, src)
    call f_read('DUP_FN copy (made in Fortran) of a C pointer on a ' // objname(kind), kind, &
        df, kv, addr)
    call f_read('DUP_FN copy (made in C) of a C pointer on a ' // objname(kind), kind, dc, &
        kv, addr)
    call c_view_struct(kind, df, kv)
    call c_view_struct(kind, dc, kv)
    call free_obj(kind, df)
    call free_obj(kind, dc)
    call free_keyval(kind, kv)
  end subroutine fortran_keyval_holds_c_pointer

  ! 3. A C copy callback returning the pointer it was given for Fortran-tagged values.
  ! C slots: 1, 2 the source's pointers (the callback expects its input there); 3, 4 the copy's.
  subroutine c_callback_returns_its_input(kind)
    integer, intent(in) :: kind
    integer :: kva, kvi, src, dst, ierr, n, n0
    integer(ak), parameter :: b = -(2_ak**40) - 5
    integer, parameter :: j = -11
    kvi = MPI_KEYVAL_INVALID   ! only communicators get the INTEGER value
    call c_create_keyval(kind, c_copy_same, 1, kva)
    call new_obj(kind, src)
    call set_addr(kind, src, kva, b)
    call c_view_aint(kind, src, kva, b, 1)
    if (kind == obj_comm) then
      call c_create_keyval(kind, c_copy_same, 2, kvi)
      call MPI_ATTR_PUT(src, kvi, j, ierr)
      call check_ok('MPI_ATTR_PUT', ierr)
      call c_view_fint(kind, src, kvi, j, 2)
    end if
    call c_copy_same_calls(n0)
    call dup_obj(kind, src, dst)
    call c_copy_same_calls(n)
    if (kind == obj_comm) then
      call check_int('C copy callback calls on a comm dup', n - n0, 2)
    else
      call check_int('C copy callback calls on a datatype dup', n - n0, 1)
    end if
    call c_view_aint(kind, dst, kva, b, 3)
    call c_distinct(1, 3)
    if (kind == obj_comm) then
      call c_view_fint(kind, dst, kvi, j, 4)
      call c_distinct(2, 4)
    end if
    call free_obj(kind, src)
    call f_read('copy (C callback returned its input) of a ' // objname(kind) // &
        ' address value', kind, dst, kva, b)
    call c_recheck(3)
    if (kind == obj_comm) then
      call f_read('copy (C callback returned its input) of an INTEGER value', kind, dst, kvi, &
          int(j, ak))
      call c_recheck(4)
    end if
    call c_forget_all()
    call free_obj(kind, dst)
    call free_keyval(kind, kva)
    if (kind == obj_comm) call free_keyval(kind, kvi)
  end subroutine c_callback_returns_its_input

  ! 4a. A Fortran MPI-1 copy callback gets the INTEGER view and returns -5.
  subroutine fortran_mpi1_callback_negative()
    integer :: kv, src, df, dc, ierr
    integer(ak), parameter :: v = 2_ak**40 + 11
    call MPI_KEYVAL_CREATE(copy_mpi1, MPI_NULL_DELETE_FN, kv, 77, ierr)
    call check_ok('MPI_KEYVAL_CREATE', ierr)
    call new_obj(obj_comm, src)
    call set_addr(obj_comm, src, kv, v)
    ncopy = 0
    call dup_obj(obj_comm, src, df)
    call check_int('MPI-1 copy callback calls after a Fortran dup', ncopy, 1)
    call check_int('MPI-1 copy callback: oldcomm', seen_old, src)
    call check_int('MPI-1 copy callback: keyval', seen_kv, kv)
    call check_addr('MPI-1 copy callback: extra_state', seen_extra, 77_ak)
    call check_addr('MPI-1 copy callback: attribute_val_in (INTEGER view of 2**40+11)', &
        seen_in, int(low_bits(v), ak))
    seen_old = -1
    call c_dup(obj_comm, src, dc)
    call check_int('MPI-1 copy callback calls after a C dup', ncopy, 2)
    call check_int('MPI-1 copy callback (C dup): oldcomm', seen_old, src)
    call free_obj(obj_comm, src)
    call f_read('MPI-1 callback result -5 (Fortran dup)', obj_comm, df, kv, -5_ak)
    call f_read('MPI-1 callback result -5 (C dup)', obj_comm, dc, kv, -5_ak)
    call c_view_fint(obj_comm, df, kv, -5, 1)
    call c_view_fint(obj_comm, dc, kv, -5, 2)
    call c_forget_all()
    call free_obj(obj_comm, df)
    call free_obj(obj_comm, dc)
    call MPI_KEYVAL_FREE(kv, ierr)
    call check_ok('MPI_KEYVAL_FREE', ierr)
  end subroutine fortran_mpi1_callback_negative

  ! 4b. A Fortran address-kind datatype copy callback returns -5.
  subroutine fortran_type_callback_negative()
    integer :: kv, src, df, dc, ierr
    integer(ak), parameter :: v = 2_ak**40 + 12
    call MPI_TYPE_CREATE_KEYVAL(type_copy_neg, MPI_TYPE_NULL_DELETE_FN, kv, 2_ak**33, ierr)
    call check_ok('MPI_TYPE_CREATE_KEYVAL', ierr)
    call new_obj(obj_type, src)
    call set_addr(obj_type, src, kv, v)
    ncopy = 0
    call dup_obj(obj_type, src, df)
    call check_int('type copy callback calls after a Fortran dup', ncopy, 1)
    call check_int('type copy callback: oldtype', seen_old, src)
    call check_int('type copy callback: keyval', seen_kv, kv)
    call check_addr('type copy callback: extra_state', seen_extra, 2_ak**33)
    call check_addr('type copy callback: attribute_val_in', seen_in, v)
    seen_old = -1
    call c_dup(obj_type, src, dc)
    call check_int('type copy callback calls after a C dup', ncopy, 2)
    call check_int('type copy callback (C dup): oldtype', seen_old, src)
    call free_obj(obj_type, src)
    call f_read('type callback result -5 (Fortran dup)', obj_type, df, kv, -5_ak)
    call f_read('type callback result -5 (C dup)', obj_type, dc, kv, -5_ak)
    call c_view_aint(obj_type, df, kv, -5_ak, 1)
    call c_view_aint(obj_type, dc, kv, -5_ak, 2)
    call c_forget_all()
    call free_obj(obj_type, df)
    call free_obj(obj_type, dc)
    call free_keyval(obj_type, kv)
  end subroutine fortran_type_callback_negative
end program mixed_copy
