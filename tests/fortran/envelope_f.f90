! MPI_TYPE_GET_ENVELOPE and MPI_TYPE_GET_CONTENTS through `use mpi` and `use mpi_f08`: the
! counts and combiner of a named type, a vector, an hvector and a struct, and the arrays
! that rebuild them (integers, INTEGER(KIND=MPI_ADDRESS_KIND) addresses, datatype handles
! that name the same types: MPI_INTEGER itself for a named one, a new handle for a derived
! one, which is freed); MPI_TYPE_GET_CONTENTS of a named type fails with MPI_ERR_TYPE and
! writes nothing.

subroutine envelope_mpi08()
  use mpi_f08
  use checks, only: check, check_int, check_addr, check_ok
  implicit none
  integer :: ierror, ni, na, nd, combiner, size
  integer :: ints(3)
  integer(kind=MPI_ADDRESS_KIND) :: addrs(2)
  type(MPI_Datatype) :: htype, types(2)

  call MPI_Type_create_hvector(2, 1, 24_MPI_ADDRESS_KIND, MPI_DOUBLE_PRECISION, htype, ierror)
  call check_ok('f08 MPI_Type_create_hvector', ierror)
  call MPI_Type_get_envelope(htype, ni, na, nd, combiner, ierror)
  call check_ok('f08 MPI_Type_get_envelope of an hvector', ierror)
  call check_int('f08 hvector: num_integers', ni, 2)
  call check_int('f08 hvector: num_addresses', na, 1)
  call check_int('f08 hvector: num_datatypes', nd, 1)
  call check_int('f08 hvector: combiner', combiner, MPI_COMBINER_HVECTOR)
  ints = -1
  addrs = -1
  call MPI_Type_get_contents(htype, 3, 2, 2, ints, addrs, types, ierror)
  call check_ok('f08 MPI_Type_get_contents of an hvector', ierror)
  call check_int('f08 hvector: count', ints(1), 2)
  call check_int('f08 hvector: blocklength', ints(2), 1)
  call check_int('f08 hvector: the third integer is not written', ints(3), -1)
  call check_addr('f08 hvector: stride', addrs(1), 24_MPI_ADDRESS_KIND)
  call check_addr('f08 hvector: the second address is not written', addrs(2), -1_MPI_ADDRESS_KIND)
  call check(types(1) == MPI_DOUBLE_PRECISION, 'f08 hvector: the old type is MPI_DOUBLE_PRECISION')
  call MPI_Type_size(types(1), size, ierror)
  call check_int('f08 hvector: the size of the old type', size, 8)
  call MPI_Type_free(htype, ierror)
  call check_ok('f08 MPI_Type_free', ierror)
end subroutine envelope_mpi08

program envelope_f
  use mpi
  use checks
  implicit none
  integer :: ierror, ni, na, nd, combiner, vtype, stype, inner, size
  integer :: ints(4), types(3)
  integer(kind=MPI_ADDRESS_KIND) :: addrs(3)

  test_name = 'envelope_f'
  max_error_string = MPI_MAX_ERROR_STRING
  call MPI_Init(ierror)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierror)

  ! A named type.
  call MPI_Type_get_envelope(MPI_INTEGER, ni, na, nd, combiner, ierror)
  call check_ok('MPI_Type_get_envelope of MPI_INTEGER', ierror)
  call check_int('MPI_INTEGER: combiner', combiner, MPI_COMBINER_NAMED)
  call check_int('MPI_INTEGER: num_integers', ni, 0)
  call check_int('MPI_INTEGER: num_addresses', na, 0)
  call check_int('MPI_INTEGER: num_datatypes', nd, 0)
  ints = sentinel
  types = sentinel
  call MPI_Type_get_contents(MPI_INTEGER, 4, 3, 3, ints, addrs, types, ierror)
  call check_class('MPI_Type_get_contents of a named type', ierror, MPI_ERR_TYPE, 'MPI_ERR_TYPE')
  call check_int('MPI_Type_get_contents of a named type: ints untouched', ints(1), sentinel)
  call check_int('MPI_Type_get_contents of a named type: types untouched', types(1), sentinel)

  ! A vector of MPI_INTEGER.
  call MPI_Type_vector(3, 2, 5, MPI_INTEGER, vtype, ierror)
  call check_ok('MPI_Type_vector', ierror)
  call MPI_Type_get_envelope(vtype, ni, na, nd, combiner, ierror)
  call check_ok('MPI_Type_get_envelope of a vector', ierror)
  call check_int('vector: combiner', combiner, MPI_COMBINER_VECTOR)
  call check_int('vector: num_integers', ni, 3)
  call check_int('vector: num_addresses', na, 0)
  call check_int('vector: num_datatypes', nd, 1)
  call MPI_Type_get_contents(vtype, 4, 3, 3, ints, addrs, types, ierror)
  call check_ok('MPI_Type_get_contents of a vector', ierror)
  call check_int('vector: count', ints(1), 3)
  call check_int('vector: blocklength', ints(2), 2)
  call check_int('vector: stride', ints(3), 5)
  call check_int('vector: the old type is MPI_INTEGER', types(1), MPI_INTEGER)

  ! A struct of the vector and MPI_DOUBLE_PRECISION: the vector comes back as a new handle.
  call MPI_Type_create_struct(2, [1, 2], [0_MPI_ADDRESS_KIND, 64_MPI_ADDRESS_KIND], &
                              [vtype, MPI_DOUBLE_PRECISION], stype, ierror)
  call check_ok('MPI_Type_create_struct', ierror)
  call MPI_Type_get_envelope(stype, ni, na, nd, combiner, ierror)
  call check_ok('MPI_Type_get_envelope of a struct', ierror)
  call check_int('struct: combiner', combiner, MPI_COMBINER_STRUCT)
  call check_int('struct: num_integers', ni, 3)
  call check_int('struct: num_addresses', na, 2)
  call check_int('struct: num_datatypes', nd, 2)
  call MPI_Type_get_contents(stype, 4, 3, 3, ints, addrs, types, ierror)
  call check_ok('MPI_Type_get_contents of a struct', ierror)
  call check_int('struct: count', ints(1), 2)
  call check_int('struct: blocklength 1', ints(2), 1)
  call check_int('struct: blocklength 2', ints(3), 2)
  call check_addr('struct: displacement 1', addrs(1), 0_MPI_ADDRESS_KIND)
  call check_addr('struct: displacement 2', addrs(2), 64_MPI_ADDRESS_KIND)
  call check_int('struct: the second type is MPI_DOUBLE_PRECISION', types(2), MPI_DOUBLE_PRECISION)
  inner = types(1)
  call MPI_Type_get_envelope(inner, ni, na, nd, combiner, ierror)
  call check_ok('MPI_Type_get_envelope of the returned vector', ierror)
  call check_int('the returned vector: combiner', combiner, MPI_COMBINER_VECTOR)
  call MPI_Type_size(inner, size, ierror)
  call check_int('the returned vector: size', size, 6 * (bit_size(0) / 8))
  call MPI_Type_free(inner, ierror)
  call check_ok('MPI_Type_free of the returned vector', ierror)
  call MPI_Type_free(stype, ierror)
  call MPI_Type_free(vtype, ierror)
  call check_ok('MPI_Type_free', ierror)

  call envelope_mpi08()
  call MPI_Finalize(ierror)
  call finish()
end program envelope_f
