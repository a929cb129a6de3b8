! mixed_keyvals: keyvals and callbacks across C and Fortran (attributes.md §4).
!
! 1. A keyval created in one language is freed in the other: MPI_COMM_CREATE_KEYVAL and
!    MPI_KEYVAL_CREATE (Fortran) freed by MPI_Comm_free_keyval / MPI_Keyval_free (C), a C
!    MPI_Comm_create_keyval freed by MPI_COMM_FREE_KEYVAL, and the same for datatype keyvals.
!    The freed variable becomes MPI_KEYVAL_INVALID; the unused keyval's number is then invalid
!    in both languages (MPI_ERR_KEYVAL).
! 2. A keyval freed while an attribute uses it keeps working in the other language: get works,
!    set fails with MPI_ERR_KEYVAL, freeing it again succeeds; its callbacks still run, called
!    from dups, deletes and frees made in the other language; once its last attribute is gone
!    its number is invalid. Done for Fortran address-kind callbacks (comm and datatype),
!    Fortran MPI-1 callbacks and C callbacks.
! 3. Fortran callbacks get Fortran handles: a copy callback the source's handle, a delete
!    callback the handle of the object deleted from, compared with MPI_Comm_c2f /
!    MPI_Type_c2f of the object C duplicates or frees, and with the handle a Fortran
!    MPI_COMM_FREE / MPI_TYPE_FREE frees (recorded before the call). C callbacks get C handles
!    whose c2f is the Fortran handle Fortran used. Extra state arrives as given.
! The C half is mixed_keyvals.c.
module mixed_keyvals_helpers
  use mpi
  use checks
  implicit none
  integer, parameter :: ak = MPI_ADDRESS_KIND
  integer, parameter :: obj_comm = 1, obj_type = 2
  ! What the Fortran callbacks saw last, and how often they ran.
  integer :: ncopy = 0, ndel = 0
  integer :: copy_old = -1, copy_kv = -1, del_obj = -1, del_kv = -1
  integer(ak) :: copy_extra = -1, copy_in = -1, del_val = -1, del_extra = -1
contains
  ! The Fortran callbacks' record: how many calls so far, and what the last one saw.
  subroutine expect_copy(what, n, old, kv, extra, val)
    character(*), intent(in) :: what
    integer, intent(in) :: n, old, kv
    integer(ak), intent(in) :: extra, val
    call check_int(what // ': Fortran copy callback calls', ncopy, n)
    call check_int(what // ': copy callback oldcomm/oldtype (the source''s Fortran handle)', &
        copy_old, old)
    call check_int(what // ': copy callback keyval', copy_kv, kv)
    call check_addr(what // ': copy callback extra_state', copy_extra, extra)
    call check_addr(what // ': copy callback attribute_val_in', copy_in, val)
  end subroutine expect_copy

  subroutine expect_delete(what, n, obj, kv, val, extra)
    character(*), intent(in) :: what
    integer, intent(in) :: n, obj, kv
    integer(ak), intent(in) :: val, extra
    call check_int(what // ': Fortran delete callback calls', ndel, n)
    call check_int(what // ': delete callback comm/datatype (the Fortran handle)', del_obj, obj)
    call check_int(what // ': delete callback keyval', del_kv, kv)
    call check_addr(what // ': delete callback attribute_val', del_val, val)
    call check_addr(what // ': delete callback extra_state', del_extra, extra)
  end subroutine expect_delete

  ! Address-kind callbacks (communicators and datatypes share the calling convention).
  subroutine f_copy(old, kv, extra_state, attribute_val_in, attribute_val_out, flag, ierr)
    integer :: old, kv, ierr
    integer(ak) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    ncopy = ncopy + 1
    copy_old = old
    copy_kv = kv
    copy_extra = extra_state
    copy_in = attribute_val_in
    attribute_val_out = attribute_val_in
    flag = .true.
    ierr = MPI_SUCCESS
  end subroutine f_copy

  subroutine f_delete(obj, kv, attribute_val, extra_state, ierr)
    integer :: obj, kv, ierr
    integer(ak) :: attribute_val, extra_state
    ndel = ndel + 1
    del_obj = obj
    del_kv = kv
    del_val = attribute_val
    del_extra = extra_state
    ierr = MPI_SUCCESS
  end subroutine f_delete

  ! MPI-1 callbacks: everything a default INTEGER.
  subroutine f_copy1(old, kv, extra_state, attribute_val_in, attribute_val_out, flag, ierr)
    integer :: old, kv, extra_state, attribute_val_in, attribute_val_out, ierr
    logical :: flag
    ncopy = ncopy + 1
    copy_old = old
    copy_kv = kv
    copy_extra = int(extra_state, ak)
    copy_in = int(attribute_val_in, ak)
    attribute_val_out = attribute_val_in
    flag = .true.
    ierr = MPI_SUCCESS
  end subroutine f_copy1

  subroutine f_delete1(obj, kv, attribute_val, extra_state, ierr)
    integer :: obj, kv, attribute_val, extra_state, ierr
    ndel = ndel + 1
    del_obj = obj
    del_kv = kv
    del_val = int(attribute_val, ak)
    del_extra = int(extra_state, ak)
    ierr = MPI_SUCCESS
  end subroutine f_delete1

  ! Setting through `kv` fails with MPI_ERR_KEYVAL in Fortran (a freed keyval; `gone`: one
  ! whose last attribute is gone too, so getting fails as well). Tried on a scratch object: a
  ! library that wrongly accepts the set has attached a value under a dead keyval there, and
  ! that object is then left alone so that nothing else depends on it.
  subroutine expect_stale(what, kind, kv, gone)
    character(*), intent(in) :: what
    integer, intent(in) :: kind, kv
    logical, intent(in) :: gone
    integer(ak) :: v
    integer :: h, ierr, e
    logical :: flag
    v = 0
    flag = .false.
    if (kind == obj_comm) then
      call MPI_COMM_DUP(MPI_COMM_SELF, h, e)
      if (gone) call MPI_COMM_GET_ATTR(h, kv, v, flag, ierr)
    else
      call MPI_TYPE_CONTIGUOUS(5, MPI_INTEGER, h, e)
      if (gone) call MPI_TYPE_GET_ATTR(h, kv, v, flag, ierr)
    end if
    call check_ok(what // ': creating a scratch object', e)
    if (gone) call check_class(what // ': Fortran get with the stale keyval number', ierr, &
        MPI_ERR_KEYVAL)
    if (kind == obj_comm) then
      call MPI_COMM_SET_ATTR(h, kv, 1_ak, ierr)
    else
      call MPI_TYPE_SET_ATTR(h, kv, 1_ak, ierr)
    end if
    call check_class(what // ': Fortran set through the freed keyval', ierr, MPI_ERR_KEYVAL)
    if (ierr /= MPI_SUCCESS) then
      if (kind == obj_comm) then
        call MPI_COMM_FREE(h, e)
      else
        call MPI_TYPE_FREE(h, e)
      end if
      call check_ok(what // ': freeing the scratch object', e)
    end if
  end subroutine expect_stale
end module mixed_keyvals_helpers

program mixed_keyvals
  use mpi
  use checks
  use mixed_keyvals_helpers
  implicit none
  integer :: ierr, cfail

  test_name = 'mixed_keyvals'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_INIT(ierr)
  call check_ok('MPI_INIT', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call check_ok('set MPI_ERRORS_RETURN on MPI_COMM_WORLD', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call check_ok('set MPI_ERRORS_RETURN on MPI_COMM_SELF', ierr)

  call free_in_other_language()
  call fortran_comm_keyval_freed_by_c_in_use()
  call fortran_mpi1_keyval_freed_by_c_in_use()
  call fortran_type_keyval_freed_by_c_in_use()
  call c_comm_keyval_freed_by_fortran_in_use()
  call c_type_keyval_freed_by_fortran_in_use()

  call c_failures(cfail)
  call MPI_FINALIZE(ierr)
  call check_ok('MPI_FINALIZE', ierr)
  call finish(cfail)

contains

  ! 1. Unused keyvals freed in the other language.
  subroutine free_in_other_language()
    integer :: kv, old, ierr

    call MPI_COMM_CREATE_KEYVAL(f_copy, f_delete, kv, 0_ak, ierr)
    call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
    old = kv
    call c_free_keyval(obj_comm, 0, kv)
    call expect_freed('Fortran comm keyval (MPI_COMM_CREATE_KEYVAL) freed in C (MPI_Comm_free_keyval)', &
        obj_comm, kv, old)

    call MPI_KEYVAL_CREATE(f_copy1, f_delete1, kv, 0, ierr)
    call check_ok('MPI_KEYVAL_CREATE', ierr)
    old = kv
    call c_free_keyval(obj_comm, 1, kv)
    call expect_freed('Fortran MPI-1 keyval (MPI_KEYVAL_CREATE) freed in C (MPI_Keyval_free)', obj_comm, &
        kv, old)

    call c_create_keyval(obj_comm, kv)
    old = kv
    call MPI_COMM_FREE_KEYVAL(kv, ierr)
    call check_ok('MPI_COMM_FREE_KEYVAL of a C keyval', ierr)
    call expect_freed('C comm keyval freed in Fortran (MPI_COMM_FREE_KEYVAL)', obj_comm, kv, old)

    call MPI_TYPE_CREATE_KEYVAL(f_copy, f_delete, kv, 0_ak, ierr)
    call check_ok('MPI_TYPE_CREATE_KEYVAL', ierr)
    old = kv
    call c_free_keyval(obj_type, 0, kv)
    call expect_freed('Fortran type keyval (MPI_TYPE_CREATE_KEYVAL) freed in C (MPI_Type_free_keyval)', &
        obj_type, kv, old)

    call c_create_keyval(obj_type, kv)
    old = kv
    call MPI_TYPE_FREE_KEYVAL(kv, ierr)
    call check_ok('MPI_TYPE_FREE_KEYVAL of a C keyval', ierr)
    call expect_freed('C type keyval freed in Fortran (MPI_TYPE_FREE_KEYVAL)', obj_type, kv, old)

    ! No callback ran for any of this.
    call check_int('Fortran copy callback calls (part 1)', ncopy, 0)
    call check_int('Fortran delete callback calls (part 1)', ndel, 0)
  end subroutine free_in_other_language

  ! An unused keyval `old` freed in the other language: the variable `kv` freed reads
  ! MPI_KEYVAL_INVALID, and the number is invalid in both languages.
  subroutine expect_freed(what, kind, kv, old)
    character(*), intent(in) :: what
    integer, intent(in) :: kind, kv, old
    call check_int(what // ': variable', kv, MPI_KEYVAL_INVALID)
    call expect_stale(what, kind, old, .true.)
    call c_expect_stale(kind, old, 1)
  end subroutine expect_freed

  ! 2/3. A Fortran address-kind comm keyval, freed by C while attached; C and Fortran
  ! duplicate, delete and free; the Fortran callbacks see Fortran handles.
  subroutine fortran_comm_keyval_freed_by_c_in_use()
    integer :: kv, saved, x, y, z, zh, freed, tmp, ierr
    integer(ak), parameter :: extra = 2_ak**40 + 1, v = 2_ak**40 + 2
    integer(ak) :: got
    logical :: flag
    character(*), parameter :: what = 'Fortran comm keyval freed by C'

    call MPI_COMM_CREATE_KEYVAL(f_copy, f_delete, kv, extra, ierr)
    call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
    saved = kv
    call MPI_COMM_DUP(MPI_COMM_WORLD, x, ierr)
    call check_ok('MPI_COMM_DUP', ierr)
    call MPI_COMM_SET_ATTR(x, kv, v, ierr)
    call check_ok('MPI_COMM_SET_ATTR', ierr)
    ncopy = 0
    ndel = 0

    call c_free_keyval(obj_comm, 0, kv)
    call check_int(what // ': variable', kv, MPI_KEYVAL_INVALID)
    ! Get still works, from both languages; set fails; freeing again succeeds.
    got = 0
    flag = .false.
    call MPI_COMM_GET_ATTR(x, saved, got, flag, ierr)
    call check_ok(what // ': MPI_COMM_GET_ATTR', ierr)
    call check_attr_addr(what // ': MPI_COMM_GET_ATTR', flag, got, v)
    call c_get_aint(obj_comm, x, saved, v)
    tmp = saved
    call c_free_keyval(obj_comm, 0, tmp)
    call check_int(what // ': variable after freeing again', tmp, MPI_KEYVAL_INVALID)
    call check_int(what // ': callbacks run by the frees', ncopy + ndel, 0)
    call expect_stale(what, obj_comm, saved, .false.)
    call c_expect_stale(obj_comm, saved, 0)

    ! C duplicates: the Fortran copy callback gets x's Fortran handle.
    call c_dup(obj_comm, x, y)
    call expect_copy(what // ', C dup', 1, x, saved, extra, v)
    ! Fortran duplicates too.
    call MPI_COMM_DUP(x, z, ierr)
    call check_ok('MPI_COMM_DUP', ierr)
    call expect_copy(what // ', Fortran dup', 2, x, saved, extra, v)
    ! C deletes y's copy: the Fortran delete callback gets y.
    call c_delete_attr(obj_comm, y, saved)
    call expect_delete(what // ', C delete_attr', 1, y, saved, v, extra)
    ! C frees x: the callback gets MPI_Comm_c2f of the communicator C freed.
    call c_free_obj(obj_comm, x, freed)
    call check_int(what // ': MPI_Comm_c2f of what C freed is x', freed, x)
    call expect_delete(what // ', C free', 2, freed, saved, v, extra)
    ! Fortran frees z: the callback gets the handle z had before the call.
    zh = z
    call MPI_COMM_FREE(z, ierr)
    call check_ok('MPI_COMM_FREE', ierr)
    call expect_delete(what // ', Fortran MPI_COMM_FREE', 3, zh, saved, v, extra)
    call check_int(what // ': MPI_COMM_FREE sets the handle to MPI_COMM_NULL', z, MPI_COMM_NULL)
    ! The last attribute is gone, and the keyval with it.
    call expect_stale(what // ' after its last attribute', obj_comm, saved, .true.)
    call c_expect_stale(obj_comm, saved, 1)
    call MPI_COMM_FREE(y, ierr)
    call check_ok('MPI_COMM_FREE', ierr)
    call check_int(what // ': delete callbacks in all', ndel, 3)
  end subroutine fortran_comm_keyval_freed_by_c_in_use

  ! 2/3 with MPI-1 callbacks: MPI_KEYVAL_CREATE, MPI_ATTR_PUT, freed by C MPI_Keyval_free.
  subroutine fortran_mpi1_keyval_freed_by_c_in_use()
    integer :: kv, saved, x, xh, y, freed, got, ierr
    logical :: flag
    character(*), parameter :: what = 'Fortran MPI-1 keyval freed by C'

    call MPI_KEYVAL_CREATE(f_copy1, f_delete1, kv, 33, ierr)
    call check_ok('MPI_KEYVAL_CREATE', ierr)
    saved = kv
    call MPI_COMM_DUP(MPI_COMM_WORLD, x, ierr)
    call check_ok('MPI_COMM_DUP', ierr)
    call MPI_ATTR_PUT(x, kv, -21, ierr)
    call check_ok('MPI_ATTR_PUT', ierr)
    ncopy = 0
    ndel = 0
    call c_free_keyval(obj_comm, 1, kv)
    call check_int(what // ': variable', kv, MPI_KEYVAL_INVALID)
    call expect_stale(what, obj_comm, saved, .false.)
    call c_expect_stale(obj_comm, saved, 0)

    call c_dup(obj_comm, x, y)
    call expect_copy(what // ', C dup', 1, x, saved, 33_ak, -21_ak)
    got = 0
    flag = .false.
    call MPI_ATTR_GET(y, saved, got, flag, ierr)
    call check_ok(what // ': MPI_ATTR_GET of the copy', ierr)
    call check_attr_int(what // ': MPI_ATTR_GET of the copy', flag, got, -21)
    call c_free_obj(obj_comm, y, freed)
    call check_int(what // ': MPI_Comm_c2f of what C freed is y', freed, y)
    call expect_delete(what // ', C free', 1, freed, saved, -21_ak, 33_ak)
    xh = x
    call MPI_COMM_FREE(x, ierr)
    call check_ok('MPI_COMM_FREE', ierr)
    call expect_delete(what // ', Fortran MPI_COMM_FREE', 2, xh, saved, -21_ak, 33_ak)
    call expect_stale(what // ' after its last attribute', obj_comm, saved, .true.)
    call c_expect_stale(obj_comm, saved, 1)
  end subroutine fortran_mpi1_keyval_freed_by_c_in_use

  ! 2/3 for datatypes: a Fortran type keyval freed by C MPI_Type_free_keyval while in use.
  subroutine fortran_type_keyval_freed_by_c_in_use()
    integer :: kv, saved, t, th, d1, d2, d2h, freed, ierr
    integer(ak), parameter :: extra = -(2_ak**40), v = 2_ak**40 + 3
    integer(ak) :: got
    logical :: flag
    character(*), parameter :: what = 'Fortran type keyval freed by C'

    call MPI_TYPE_CREATE_KEYVAL(f_copy, f_delete, kv, extra, ierr)
    call check_ok('MPI_TYPE_CREATE_KEYVAL', ierr)
    saved = kv
    call MPI_TYPE_CONTIGUOUS(3, MPI_INTEGER, t, ierr)
    call check_ok('MPI_TYPE_CONTIGUOUS', ierr)
    call MPI_TYPE_SET_ATTR(t, kv, v, ierr)
    call check_ok('MPI_TYPE_SET_ATTR', ierr)
    ncopy = 0
    ndel = 0
    call c_free_keyval(obj_type, 0, kv)
    call check_int(what // ': variable', kv, MPI_KEYVAL_INVALID)
    got = 0
    flag = .false.
    call MPI_TYPE_GET_ATTR(t, saved, got, flag, ierr)
    call check_ok(what // ': MPI_TYPE_GET_ATTR', ierr)
    call check_attr_addr(what // ': MPI_TYPE_GET_ATTR', flag, got, v)
    call c_get_aint(obj_type, t, saved, v)
    call expect_stale(what, obj_type, saved, .false.)
    call c_expect_stale(obj_type, saved, 0)

    call c_dup(obj_type, t, d1)
    call expect_copy(what // ', C MPI_Type_dup', 1, t, saved, extra, v)
    call MPI_TYPE_DUP(t, d2, ierr)
    call check_ok('MPI_TYPE_DUP', ierr)
    call expect_copy(what // ', Fortran MPI_TYPE_DUP', 2, t, saved, extra, v)
    call c_free_obj(obj_type, d1, freed)
    call check_int(what // ': MPI_Type_c2f of what C freed is d1', freed, d1)
    call expect_delete(what // ', C MPI_Type_free', 1, freed, saved, v, extra)
    d2h = d2
    call MPI_TYPE_FREE(d2, ierr)
    call check_ok('MPI_TYPE_FREE', ierr)
    call expect_delete(what // ', Fortran MPI_TYPE_FREE', 2, d2h, saved, v, extra)
    th = t
    call MPI_TYPE_DELETE_ATTR(t, saved, ierr)
    call check_ok('MPI_TYPE_DELETE_ATTR', ierr)
    call expect_delete(what // ', Fortran MPI_TYPE_DELETE_ATTR', 3, th, saved, v, extra)
    call expect_stale(what // ' after its last attribute', obj_type, saved, .true.)
    call c_expect_stale(obj_type, saved, 1)
    call MPI_TYPE_FREE(t, ierr)
    call check_ok('MPI_TYPE_FREE', ierr)
    call check_int(what // ': delete callbacks in all', ndel, 3)
  end subroutine fortran_type_keyval_freed_by_c_in_use

  ! 2/3 the other way: a C keyval with C callbacks, freed by Fortran while in use; Fortran
  ! duplicates, deletes and frees; the C callbacks get C handles of those objects.
  subroutine c_comm_keyval_freed_by_fortran_in_use()
    integer :: kv, saved, x, y, yh, ierr
    integer(ak) :: got
    logical :: flag
    character(*), parameter :: what = 'C comm keyval freed by Fortran'

    call c_create_keyval(obj_comm, kv)
    call c_reset_calls()
    saved = kv
    call MPI_COMM_DUP(MPI_COMM_WORLD, x, ierr)
    call check_ok('MPI_COMM_DUP', ierr)
    call c_set_int_pointer(obj_comm, x, kv, 1234_ak)
    call MPI_COMM_FREE_KEYVAL(kv, ierr)
    call check_ok(what // ': MPI_COMM_FREE_KEYVAL', ierr)
    call check_int(what // ': variable', kv, MPI_KEYVAL_INVALID)
    got = 0
    flag = .false.
    call MPI_COMM_GET_ATTR(x, saved, got, flag, ierr)
    call check_ok(what // ': MPI_COMM_GET_ATTR', ierr)
    call check_attr_addr(what // ': MPI_COMM_GET_ATTR of (void*)1234', flag, got, 1234_ak)
    kv = saved
    call MPI_COMM_FREE_KEYVAL(kv, ierr)
    call check_ok(what // ': MPI_COMM_FREE_KEYVAL again', ierr)
    call check_int(what // ': variable after freeing again', kv, MPI_KEYVAL_INVALID)

    call MPI_COMM_DUP(x, y, ierr)
    call check_ok('MPI_COMM_DUP', ierr)
    call c_expect_calls(what // ': Fortran dup', 1, 0)
    call c_expect_copy(x, saved, 1234_ak)
    yh = y
    call MPI_COMM_FREE(y, ierr)
    call check_ok('MPI_COMM_FREE', ierr)
    call c_expect_calls(what // ': Fortran free', 1, 1)
    call c_expect_delete(yh, saved, 1234_ak)
    call MPI_COMM_DELETE_ATTR(x, saved, ierr)
    call check_ok('MPI_COMM_DELETE_ATTR', ierr)
    call c_expect_calls(what // ': Fortran delete_attr', 1, 2)
    call c_expect_delete(x, saved, 1234_ak)
    call expect_stale(what // ' after its last attribute', obj_comm, saved, .true.)
    call c_expect_stale(obj_comm, saved, 1)
    call MPI_COMM_FREE(x, ierr)
    call check_ok('MPI_COMM_FREE', ierr)
    call c_expect_calls(what // ': after all', 1, 2)
  end subroutine c_comm_keyval_freed_by_fortran_in_use

  ! The same for a C datatype keyval.
  subroutine c_type_keyval_freed_by_fortran_in_use()
    integer :: kv, saved, t, th, d, dh, ierr
    character(*), parameter :: what = 'C type keyval freed by Fortran'

    call c_create_keyval(obj_type, kv)
    call c_reset_calls()
    saved = kv
    call MPI_TYPE_CONTIGUOUS(4, MPI_INTEGER, t, ierr)
    call check_ok('MPI_TYPE_CONTIGUOUS', ierr)
    call c_set_int_pointer(obj_type, t, kv, -99_ak)
    call MPI_TYPE_FREE_KEYVAL(kv, ierr)
    call check_ok(what // ': MPI_TYPE_FREE_KEYVAL', ierr)
    call check_int(what // ': variable', kv, MPI_KEYVAL_INVALID)
    call MPI_TYPE_DUP(t, d, ierr)
    call check_ok('MPI_TYPE_DUP', ierr)
    call c_expect_calls(what // ': Fortran MPI_TYPE_DUP', 1, 0)
    call c_expect_copy(t, saved, -99_ak)
    dh = d
    call MPI_TYPE_FREE(d, ierr)
    call check_ok('MPI_TYPE_FREE', ierr)
    call c_expect_calls(what // ': Fortran MPI_TYPE_FREE', 1, 1)
    call c_expect_delete(dh, saved, -99_ak)
    th = t
    call MPI_TYPE_FREE(t, ierr)
    call check_ok('MPI_TYPE_FREE', ierr)
    call c_expect_calls(what // ': Fortran MPI_TYPE_FREE of the source', 1, 2)
    call c_expect_delete(th, saved, -99_ak)
    call expect_stale(what // ' after its last attribute', obj_type, saved, .true.)
    call c_expect_stale(obj_type, saved, 1)
  end subroutine c_type_keyval_freed_by_fortran_in_use
end program mixed_keyvals
