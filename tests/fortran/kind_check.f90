! expect-compile-error: passed INTEGER(4) to INTEGER(8)
!
! `use mpi` has explicit interfaces (attributes.md §1): an INTEGER(KIND=4) variable passed as the
! INTEGER(KIND=MPI_ADDRESS_KIND) attribute_val of MPI_COMM_SET_ATTR is rejected at compile
! time (gfortran: "Type mismatch in argument 'attribute_val' at (1); passed INTEGER(4) to
! INTEGER(8)"), in both INTEGER configurations. Everything else here is correct, so the
! mismatch is the only error. Never run.
program kind_check
  use mpi
  implicit none
  integer :: ierr, keyval
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  integer(kind=4) :: narrow

  call MPI_INIT(ierr)
  extra_state = 0
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, keyval, extra_state, ierr)
  narrow = 5
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, keyval, narrow, ierr)
  call MPI_COMM_FREE_KEYVAL(keyval, ierr)
  call MPI_FINALIZE(ierr)
  print '(A)', 'OK kind_check'
end program kind_check
