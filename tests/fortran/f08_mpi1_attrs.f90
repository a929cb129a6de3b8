! The deprecated MPI-1 attribute routines through `use mpi_f08` with what real programs pass
! (MPICH's f08/attr/attrmpi1f08 among them): MPI_Keyval_create takes MPI_COMM_NULL_COPY_FN
! and MPI_COMM_NULL_DELETE_FN (address-kind interfaces), MPI_COMM_DUP_FN, and user callbacks
! written with INTEGER handles (mpif.h style); the callbacks are recognised or called as for
! MPI_KEYVAL_CREATE in mpif.h (every call passes ierror, so that the program also runs with
! MPICH, whose mpi_f08 has no interface for these routines):
! - MPI_COMM_NULL_COPY_FN: MPI_Comm_dup copies nothing; MPI_COMM_DUP_FN: it copies the value;
! - a user copy callback with INTEGER handles sees the old communicator's integer, the
!   keyval, the extra state and the value, and its output is stored; a user delete callback
!   runs on MPI_Attr_delete and on MPI_Comm_free;
! - MPI_Attr_put / MPI_Attr_get / MPI_Attr_delete / MPI_Keyval_free.

module f08_mpi1_attrs_cb
  implicit none
  integer :: ncopy = 0, ndelete = 0, seen_comm = 0, seen_keyval = 0, seen_extra = 0
contains
  ! An mpif.h-style MPI-1 copy callback: every argument a default INTEGER.
  subroutine int_copy(oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    integer :: oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, ierror
    logical :: flag
    ncopy = ncopy + 1
    seen_comm = oldcomm
    seen_keyval = keyval
    seen_extra = extra_state
    attribute_val_out = attribute_val_in + 1
    flag = .true.
    ierror = 0
  end subroutine int_copy

  subroutine int_delete(comm, keyval, attribute_val, extra_state, ierror)
    integer :: comm, keyval, attribute_val, extra_state, ierror
    ndelete = ndelete + 1
    seen_comm = comm + 0 * (keyval + attribute_val + extra_state)
    ierror = 0
  end subroutine int_delete
end module f08_mpi1_attrs_cb

program f08_mpi1_attrs
  use mpi_f08
  use checks
  use f08_mpi1_attrs_cb
  implicit none
  integer :: ierror, kv_null, kv_dup, kv_user, kv_mpi1, value
  logical :: flag
  type(MPI_Comm) :: dup

  test_name = 'f08_mpi1_attrs'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_Init(ierror)

  call MPI_Keyval_create(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kv_null, 0, ierror)
  call check_ok('MPI_Keyval_create(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN)', ierror)
  call MPI_Keyval_create(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kv_dup, 0, ierror)
  call check_ok('MPI_Keyval_create(MPI_COMM_DUP_FN)', ierror)
  call MPI_Keyval_create(int_copy, int_delete, kv_user, 77, ierror)
  call check_ok('MPI_Keyval_create(user callbacks with INTEGER handles)', ierror)
  call MPI_Keyval_create(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kv_mpi1, 0, ierror)
  call check_ok('MPI_Keyval_create, a second one', ierror)

  call MPI_Attr_put(MPI_COMM_WORLD, kv_null, 11, ierror)
  call check_ok('MPI_Attr_put', ierror)
  call MPI_Attr_put(MPI_COMM_WORLD, kv_dup, 22, ierror)
  call MPI_Attr_put(MPI_COMM_WORLD, kv_user, 33, ierror)
  call MPI_Attr_put(MPI_COMM_WORLD, kv_mpi1, 44, ierror)
  call MPI_Attr_get(MPI_COMM_WORLD, kv_dup, value, flag, ierror)
  call check_attr_int('MPI_Attr_get', flag, value, 22)

  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierror)
  call check_ok('MPI_Comm_dup', ierror)
  call MPI_Attr_get(dup, kv_null, value, flag, ierror)
  call check_logical('MPI_COMM_NULL_COPY_FN copies nothing', flag, .false.)
  call MPI_Attr_get(dup, kv_mpi1, value, flag, ierror)
  call check_logical('MPI_COMM_NULL_COPY_FN copies nothing (second keyval)', flag, .false.)
  call MPI_Attr_get(dup, kv_dup, value, flag, ierror)
  call check_attr_int('MPI_COMM_DUP_FN copies the value', flag, value, 22)
  call MPI_Attr_get(dup, kv_user, value, flag, ierror)
  call check_attr_int('the user copy callback''s value', flag, value, 34)
  call check_int('the user copy callback ran once', ncopy, 1)
  call check_int('it saw MPI_COMM_WORLD''s integer', seen_comm, MPI_COMM_WORLD%MPI_VAL)
  call check_int('it saw the keyval', seen_keyval, kv_user)
  call check_int('it saw the extra state', seen_extra, 77)

  call MPI_Attr_delete(MPI_COMM_WORLD, kv_user, ierror)
  call check_ok('MPI_Attr_delete', ierror)
  call check_int('the user delete callback ran', ndelete, 1)
  call MPI_Comm_free(dup, ierror)
  call check_int('MPI_Comm_free runs it for the copy', ndelete, 2)

  call MPI_Keyval_free(kv_null, ierror)
  call check_ok('MPI_Keyval_free', ierror)
  call check_int('MPI_Keyval_free sets MPI_KEYVAL_INVALID', kv_null, MPI_KEYVAL_INVALID)
  call MPI_Keyval_free(kv_dup, ierror)
  call MPI_Keyval_free(kv_user, ierror)
  call MPI_Keyval_free(kv_mpi1, ierror)
  call MPI_Finalize(ierror)
  call check_ok('MPI_Finalize', ierror)
  call finish()
end program f08_mpi1_attrs
