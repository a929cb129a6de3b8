! MPI_FINALIZE runs the Fortran delete callbacks of what is still attached (attributes.md §4,
! docs/semantics.md): first MPI_COMM_SELF's attributes newest first (a replaced value counts as
! newest, a keyval freed while in use still runs its callback), then MPI_COMM_WORLD's newest
! first (address-kind and MPI-1 callbacks mixed), then those on predefined datatypes; each
! callback exactly once, with the object's handle, its value and extra state, and
! MPI_FINALIZED still .false. inside it (MPI-4.1: .true. only once MPI_FINALIZE has
! completed). The callbacks record what they saw in module variables; everything is checked
! after MPI_FINALIZE, when MPI_FINALIZED says .true.

module finalize_f_cb
  use mpi
  implicit none
  integer, parameter :: LOGN = 32
  integer :: nlog = 0
  integer :: log_obj(LOGN), log_kv(LOGN), log_fin_err(LOGN)
  integer(kind=MPI_ADDRESS_KIND) :: log_val(LOGN), log_extra(LOGN)
  logical :: log_fin(LOGN)
contains
  subroutine record(obj, kv, val, extra)
    integer, intent(in) :: obj, kv
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: val, extra
    logical :: fin
    integer :: e
    fin = .true.
    call MPI_FINALIZED(fin, e)
    nlog = nlog + 1
    if (nlog > LOGN) stop 2
    log_obj(nlog) = obj
    log_kv(nlog) = kv
    log_val(nlog) = val
    log_extra(nlog) = extra
    log_fin(nlog) = fin
    log_fin_err(nlog) = e
  end subroutine record

  subroutine a_del(comm, comm_keyval, attribute_val, extra_state, ierror)
    integer :: comm, comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call record(comm, comm_keyval, attribute_val, extra_state)
    ierror = MPI_SUCCESS
  end subroutine a_del

  subroutine m1_del(comm, keyval, attribute_val, extra_state, ierr)
    integer :: comm, keyval, attribute_val, extra_state, ierr
    call record(comm, keyval, int(attribute_val, MPI_ADDRESS_KIND), int(extra_state, MPI_ADDRESS_KIND))
    ierr = MPI_SUCCESS
  end subroutine m1_del

  subroutine t_del(datatype, type_keyval, attribute_val, extra_state, ierror)
    integer :: datatype, type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call record(datatype, type_keyval, attribute_val, extra_state)
    ierror = MPI_SUCCESS
  end subroutine t_del
end module finalize_f_cb

program finalize_f
  use mpi
  use checks
  use finalize_f_cb
  implicit none
  integer :: ierr, s1, s2, s3, sfree, sfree_saved, w1, w2, wm, tk, mark, i, n, wm_extra
  integer(kind=MPI_ADDRESS_KIND) :: ex(8)
  logical :: flag
  integer :: e_obj(8), e_kv(8)
  integer(kind=MPI_ADDRESS_KIND) :: e_val(8), e_extra(8)
  character(len=16) :: e_where(8)

  test_name = 'finalize_f'
  ex = [(1000_MPI_ADDRESS_KIND * i, i = 1, 8)]
  call MPI_INIT(ierr)
  call check_ok('MPI_INIT', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD)', ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call check_ok('MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF)', ierr)

  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, a_del, s1, ex(1), ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, a_del, s2, ex(2), ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, a_del, s3, ex(3), ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, a_del, sfree, ex(4), ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, a_del, w1, ex(5), ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, a_del, w2, ex(6), ierr)
  call check_ok('MPI_COMM_CREATE_KEYVAL', ierr)
  wm_extra = 7000
  call MPI_KEYVAL_CREATE(MPI_NULL_COPY_FN, m1_del, wm, wm_extra, ierr)
  call check_ok('MPI_KEYVAL_CREATE', ierr)
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_NULL_COPY_FN, t_del, tk, ex(8), ierr)
  call check_ok('MPI_TYPE_CREATE_KEYVAL', ierr)

  ! MPI_COMM_SELF: set s1 s2 s3 sfree, free the keyval sfree, replace s1
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, s1, 101_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR(MPI_COMM_SELF)', ierr)
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, s2, 102_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR(MPI_COMM_SELF)', ierr)
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, s3, 103_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR(MPI_COMM_SELF)', ierr)
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, sfree, 104_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR(MPI_COMM_SELF)', ierr)
  sfree_saved = sfree
  call MPI_COMM_FREE_KEYVAL(sfree, ierr)
  call check_ok('MPI_COMM_FREE_KEYVAL (keyval still in use)', ierr)
  mark = nlog + 1
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, s1, 111_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR(MPI_COMM_SELF) over a value', ierr)
  call check_int('delete callbacks run by the replace on MPI_COMM_SELF', nlog - mark + 1, 1)
  if (nlog - mark + 1 == 1) then
    call check_addr('replaced value given to its delete callback', log_val(mark), 101_MPI_ADDRESS_KIND)
    call check_int('handle given to the delete callback of the replaced value', log_obj(mark), MPI_COMM_SELF)
  end if
  ! MPI_COMM_WORLD: set w1, wm (MPI-1), w2
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, w1, 201_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR(MPI_COMM_WORLD)', ierr)
  call MPI_ATTR_PUT(MPI_COMM_WORLD, wm, -202, ierr)
  call check_ok('MPI_ATTR_PUT(MPI_COMM_WORLD)', ierr)
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, w2, 203_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_COMM_SET_ATTR(MPI_COMM_WORLD)', ierr)
  ! a predefined datatype
  call MPI_TYPE_SET_ATTR(MPI_INTEGER, tk, 301_MPI_ADDRESS_KIND, ierr)
  call check_ok('MPI_TYPE_SET_ATTR(MPI_INTEGER)', ierr)

  call check_int('delete callbacks run before MPI_FINALIZE', nlog, 1)

  mark = nlog + 1
  call MPI_FINALIZE(ierr)
  ! no more MPI calls but MPI_FINALIZED from here on
  call check_ok('MPI_FINALIZE', ierr)
  flag = .false.
  call MPI_FINALIZED(flag, ierr)
  call check_ok('MPI_FINALIZED after MPI_FINALIZE', ierr)
  call check_logical('MPI_FINALIZED after MPI_FINALIZE', flag, .true.)

  e_obj = [MPI_COMM_SELF, MPI_COMM_SELF, MPI_COMM_SELF, MPI_COMM_SELF, &
           MPI_COMM_WORLD, MPI_COMM_WORLD, MPI_COMM_WORLD, MPI_INTEGER]
  e_kv = [s1, sfree_saved, s3, s2, w2, wm, w1, tk]
  e_val = [111_MPI_ADDRESS_KIND, 104_MPI_ADDRESS_KIND, 103_MPI_ADDRESS_KIND, 102_MPI_ADDRESS_KIND, &
           203_MPI_ADDRESS_KIND, -202_MPI_ADDRESS_KIND, 201_MPI_ADDRESS_KIND, 301_MPI_ADDRESS_KIND]
  e_extra = [ex(1), ex(4), ex(3), ex(2), ex(6), 7000_MPI_ADDRESS_KIND, ex(5), ex(8)]
  e_where = [character(len=16) :: 'MPI_COMM_SELF', 'MPI_COMM_SELF', 'MPI_COMM_SELF', 'MPI_COMM_SELF', &
             'MPI_COMM_WORLD', 'MPI_COMM_WORLD', 'MPI_COMM_WORLD', 'MPI_INTEGER']
  n = nlog - mark + 1
  call check_int('delete callbacks run by MPI_FINALIZE', n, 8)
  do i = 1, min(n, 8)
    call check_int('MPI_FINALIZE delete #' // istr(i) // ': keyval', log_kv(mark + i - 1), e_kv(i))
    call check_int('MPI_FINALIZE delete #' // istr(i) // ': handle (' // trim(e_where(i)) // ')', &
                   log_obj(mark + i - 1), e_obj(i))
    call check_addr('MPI_FINALIZE delete #' // istr(i) // ': value', log_val(mark + i - 1), e_val(i))
    call check_addr('MPI_FINALIZE delete #' // istr(i) // ': extra state', log_extra(mark + i - 1), e_extra(i))
    call check_int('MPI_FINALIZE delete #' // istr(i) // ' (' // trim(e_where(i)) // '): MPI_FINALIZED inside it', &
                   log_fin_err(mark + i - 1), MPI_SUCCESS)
    call check_logical('MPI_FINALIZE delete #' // istr(i) // ' (' // trim(e_where(i)) // &
                       '): MPI_FINALIZED flag inside it', log_fin(mark + i - 1), .false.)
  end do
  call finish()
end program finalize_f
