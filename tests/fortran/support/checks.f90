! Checks shared by the Fortran test programs (tests/fortran/README.md): each failed check
! prints one line, `NAME: FAIL: what: expected X, got Y`, on stderr and is counted; finish()
! prints `OK NAME` or stops with status 1.
!
! Independent of the MPI binding a program uses (mpif.h, use mpi, use mpi_f08), so every
! program can use it; the harness compiles it into every test. It includes no MPI header and
! calls MPI_ERROR_CLASS and MPI_ERROR_STRING through their implicit interfaces: the same
! symbols whatever binding the program uses. The two values it needs from the program's
! binding are set by the program: `test_name`, and `max_error_string` (MPI_MAX_ERROR_STRING)
! before the first check_class.
!
! Comparisons take what came, then what was expected: check_int(what, got, expected). Default
! INTEGERs and INTEGER(KIND=MPI_ADDRESS_KIND) have routines of their own (check_int and
! check_addr, istr and str): with -fdefault-integer-8 the two kinds are the same, so a
! generic name for both would be ambiguous there.
module checks
  use, intrinsic :: iso_c_binding, only: c_intptr_t
  use, intrinsic :: iso_fortran_env, only: error_unit
  implicit none
  private
  public :: failures, test_name, max_error_string
  public :: fail, check, check_int, check_addr, check_logical, check_attr_int, check_attr_addr
  public :: check_ok, check_class, check_error_string
  public :: str, istr, low_bits, finish
  public :: sentinel, addr_sentinel, check_untouched, check_untouched_addr, check_untouched_text

  !> Failed checks so far.
  integer :: failures = 0
  !> The program's name, for the failure lines and the OK line.
  character(len=64) :: test_name = 'test'
  !> MPI_MAX_ERROR_STRING of the program's binding, for check_error_string.
  integer :: max_error_string = 0
  !> INTEGER(KIND=MPI_ADDRESS_KIND): the C address integer, as in every supported MPI.
  integer, parameter :: ak = c_intptr_t
  !> MPI_SUCCESS, 0 in every MPI (the standard requires it).
  integer, parameter :: success = 0
  !> Values no library writes by chance: an output argument set to one before a call that
  !> must fail still holds it after (check_untouched, check_untouched_addr).
  integer, parameter :: sentinel = -424242
  integer(ak), parameter :: addr_sentinel = -4242424242_ak

  ! The Fortran bindings of MPI_ERROR_CLASS and MPI_ERROR_STRING, through their implicit
  ! interfaces: the same symbols whatever binding the program uses.
  external :: MPI_ERROR_CLASS, MPI_ERROR_STRING

contains

  !> Decimal text of an INTEGER(KIND=MPI_ADDRESS_KIND).
  function str(value) result(text)
    integer(ak), intent(in) :: value
    character(len=:), allocatable :: text
    character(len=24) :: buffer
    write (buffer, '(I0)') value
    text = trim(buffer)
  end function str

  !> Decimal text of a default INTEGER.
  function istr(value) result(text)
    integer, intent(in) :: value
    character(len=:), allocatable :: text
    text = str(int(value, ak))
  end function istr

  function logical_text(value) result(text)
    logical, intent(in) :: value
    character(len=:), allocatable :: text
    if (value) then
      text = '.true.'
    else
      text = '.false.'
    end if
  end function logical_text

  !> The INTEGER view of an address-kind value (what MPI_ATTR_GET reads of it): its least
  !> significant bit_size(0) bits, as a two's complement default INTEGER.
  integer function low_bits(value)
    integer(ak), intent(in) :: value
    integer(ak) :: magnitude
    magnitude = ibits(value, 0, bit_size(0) - 1)
    if (btest(value, bit_size(0) - 1)) then
      low_bits = int(magnitude) - huge(0) - 1
    else
      low_bits = int(magnitude)
    end if
  end function low_bits

  !> Counts a failure and says what broke.
  subroutine fail(what)
    character(len=*), intent(in) :: what
    failures = failures + 1
    write (error_unit, '(A)') trim(test_name) // ': FAIL: ' // what
  end subroutine fail

  subroutine check(condition, what)
    logical, intent(in) :: condition
    character(len=*), intent(in) :: what
    if (.not. condition) call fail(what)
  end subroutine check

  !> Default INTEGERs (4 or 8 bytes by configuration).
  subroutine check_int(what, got, expected)
    character(len=*), intent(in) :: what
    integer, intent(in) :: got, expected
    if (got /= expected) call fail(what // ': expected ' // istr(expected) // ', got ' // istr(got))
  end subroutine check_int

  !> INTEGER(KIND=MPI_ADDRESS_KIND) values.
  subroutine check_addr(what, got, expected)
    character(len=*), intent(in) :: what
    integer(ak), intent(in) :: got, expected
    if (got /= expected) call fail(what // ': expected ' // str(expected) // ', got ' // str(got))
  end subroutine check_addr

  subroutine check_logical(what, got, expected)
    character(len=*), intent(in) :: what
    logical, intent(in) :: got, expected
    if (got .neqv. expected) &
      call fail(what // ': expected ' // logical_text(expected) // ', got ' // logical_text(got))
  end subroutine check_logical

  !> An attribute read that must find a value (`flag`), and then the value `expected`.
  subroutine check_attr_addr(what, flag, got, expected)
    character(len=*), intent(in) :: what
    logical, intent(in) :: flag
    integer(ak), intent(in) :: got, expected
    call check_logical(what // ': flag', flag, .true.)
    if (flag) call check_addr(what // ': value', got, expected)
  end subroutine check_attr_addr

  !> The same for an INTEGER read (MPI_ATTR_GET).
  subroutine check_attr_int(what, flag, got, expected)
    character(len=*), intent(in) :: what
    logical, intent(in) :: flag
    integer, intent(in) :: got, expected
    call check_logical(what // ': flag', flag, .true.)
    if (flag) call check_int(what // ': value', got, expected)
  end subroutine check_attr_int

  !> A default INTEGER output of a call that failed still holds `sentinel`.
  subroutine check_untouched(what, got)
    character(len=*), intent(in) :: what
    integer, intent(in) :: got
    if (got /= sentinel) call fail(what // ': the failed call wrote ' // istr(got) // ' to an output')
  end subroutine check_untouched

  !> An INTEGER(KIND=MPI_ADDRESS_KIND) output of a call that failed still holds `addr_sentinel`.
  subroutine check_untouched_addr(what, got)
    character(len=*), intent(in) :: what
    integer(ak), intent(in) :: got
    if (got /= addr_sentinel) call fail(what // ': the failed call wrote ' // str(got) // ' to an output')
  end subroutine check_untouched_addr

  !> A CHARACTER output of a call that failed still holds what it held before (`before`).
  subroutine check_untouched_text(what, got, before)
    character(len=*), intent(in) :: what, got, before
    if (got /= before) call fail(what // ': the failed call wrote ''' // trim(got) // ''' to a string output')
  end subroutine check_untouched_text

  !> `ierror` is MPI_SUCCESS. Calls no MPI routine when it is, so it also serves before
  !> MPI_INIT and after MPI_FINALIZE.
  subroutine check_ok(what, ierror)
    character(len=*), intent(in) :: what
    integer, intent(in) :: ierror
    integer :: class, status
    character(len=:), allocatable :: class_text
    if (ierror == success) return
    class = -1
    status = -1
    call MPI_ERROR_CLASS(ierror, class, status)
    if (status == success) then
      class_text = 'class ' // istr(class)
    else
      class_text = 'MPI_ERROR_CLASS failed with ' // istr(status)
    end if
    call fail(what // ': expected MPI_SUCCESS, got error code ' // istr(ierror) // ' (' // class_text // ')')
  end subroutine check_ok

  !> The error class of `ierror`, through MPI_ERROR_CLASS, is `class` (`name` names it in the
  !> message); an error code also has a text (check_error_string).
  subroutine check_class(what, ierror, class, name)
    character(len=*), intent(in) :: what
    integer, intent(in) :: ierror, class
    character(len=*), intent(in), optional :: name
    integer :: got, status
    character(len=:), allocatable :: expected_text
    got = -1
    status = -1
    call MPI_ERROR_CLASS(ierror, got, status)
    if (status /= success) then
      call fail(what // ': MPI_ERROR_CLASS(' // istr(ierror) // ') failed with ' // istr(status))
    else if (got /= class) then
      if (present(name)) then
        expected_text = name // ' (' // istr(class) // ')'
      else
        expected_text = 'error class ' // istr(class)
      end if
      call fail(what // ': expected ' // expected_text // ', got class ' // istr(got) // &
                ' (code ' // istr(ierror) // ')')
    end if
    if (ierror /= success) call check_error_string(what, ierror)
  end subroutine check_class

  !> MPI_ERROR_STRING gives a non-blank text for `code`, with resultlen in
  !> 1..MPI_MAX_ERROR_STRING (`max_error_string`, which the program sets).
  subroutine check_error_string(what, code)
    character(len=*), intent(in) :: what
    integer, intent(in) :: code
    character(len=:), allocatable :: text, text_kind
    integer :: resultlen, status
    if (max_error_string < 1) then
      call fail(what // ': MPI_ERROR_STRING(' // istr(code) // ') not checked: the program did not set ' // &
                'max_error_string = MPI_MAX_ERROR_STRING')
      return
    end if
    allocate (character(len=max_error_string) :: text)
    text(:) = ' '
    resultlen = -1
    status = -1
    call MPI_ERROR_STRING(code, text, resultlen, status)
    if (status /= success) then
      call fail(what // ': MPI_ERROR_STRING(' // istr(code) // ') failed with ' // istr(status))
    else if (resultlen < 1 .or. resultlen > max_error_string .or. len_trim(text) == 0) then
      if (len_trim(text) == 0) then
        text_kind = 'a blank text'
      else
        text_kind = 'a text'
      end if
      call fail(what // ': MPI_ERROR_STRING(' // istr(code) // '): expected a non-blank text with resultlen in 1..' // &
                istr(max_error_string) // ', got ' // text_kind // ' with resultlen ' // istr(resultlen))
    end if
  end subroutine check_error_string

  !> Prints `OK NAME` if nothing failed, counting the failures of a C companion (`c_failures`)
  !> too; else says how many checks failed and stops with status 1.
  subroutine finish(c_failures)
    integer, intent(in), optional :: c_failures
    integer :: total
    total = failures
    if (present(c_failures)) total = total + c_failures
    if (total == 0) then
      print '(A)', 'OK ' // trim(test_name)
    else if (present(c_failures)) then
      write (error_unit, '(A)') trim(test_name) // ': ' // istr(total) // ' check(s) failed (' // &
          istr(failures) // ' in Fortran, ' // istr(c_failures) // ' in C)'
      stop 1
    else
      write (error_unit, '(A)') trim(test_name) // ': ' // istr(total) // ' check(s) failed'
      stop 1
    end if
  end subroutine finish
end module checks
