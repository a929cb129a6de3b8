! Checks shared by the Fortran test programs (tests/fortran/README.md): each failed check
! prints one line, `NAME: FAIL: what: expected X, got Y`, on stderr and is counted; finish()
! prints `OK NAME` or stops with status 1. Independent of the MPI binding a program uses
! (mpif.h, use mpi, use mpi_f08), so every program can use it; the harness compiles it into
! every test.
module checks
  use, intrinsic :: iso_c_binding, only: c_intptr_t
  use, intrinsic :: iso_fortran_env, only: error_unit
  implicit none
  private
  public :: failures, test_name, fail, check, check_int, check_addr, check_class, check_ok
  public :: finish, str

  !> Failed checks so far.
  integer :: failures = 0
  !> The program's name, for the failure lines and the OK line.
  character(len=64) :: test_name = 'test'
  integer, parameter :: ak = c_intptr_t

  ! The Fortran binding of MPI_ERROR_CLASS, through its implicit interface: the same symbol
  ! whatever binding the program uses.
  external :: MPI_ERROR_CLASS

contains

  !> Decimal text of an integer of any width up to an address.
  function str(value) result(text)
    integer(ak), intent(in) :: value
    character(len=:), allocatable :: text
    character(len=24) :: buffer
    write (buffer, '(I0)') value
    text = trim(buffer)
  end function str

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
    if (got /= expected) call fail(what // ': expected ' // str(int(expected, ak)) // &
        ', got ' // str(int(got, ak)))
  end subroutine check_int

  !> INTEGER(KIND=MPI_ADDRESS_KIND) values.
  subroutine check_addr(what, got, expected)
    character(len=*), intent(in) :: what
    integer(ak), intent(in) :: got, expected
    if (got /= expected) call fail(what // ': expected ' // str(expected) // ', got ' // str(got))
  end subroutine check_addr

  !> The error class of `ierror`, through MPI_ERROR_CLASS, is `class`.
  subroutine check_class(what, ierror, class)
    character(len=*), intent(in) :: what
    integer, intent(in) :: ierror, class
    integer :: got, status
    got = -1
    call MPI_ERROR_CLASS(ierror, got, status)
    if (status /= 0) then
      call fail(what // ': MPI_ERROR_CLASS(' // str(int(ierror, ak)) // ') failed')
    else if (got /= class) then
      call fail(what // ': expected error class ' // str(int(class, ak)) // ', got class ' // &
          str(int(got, ak)) // ' (code ' // str(int(ierror, ak)) // ')')
    end if
  end subroutine check_class

  !> `ierror` is MPI_SUCCESS.
  subroutine check_ok(what, ierror)
    character(len=*), intent(in) :: what
    integer, intent(in) :: ierror
    call check_class(what, ierror, 0)
  end subroutine check_ok

  !> Prints `OK NAME` if nothing failed (adding the failures of a C companion, if any), else
  !> the count, and stops with status 1.
  subroutine finish(others)
    integer, intent(in), optional :: others
    integer :: total
    total = failures
    if (present(others)) total = total + others
    if (total == 0) then
      print '(A)', 'OK ' // trim(test_name)
    else
      write (error_unit, '(A)') trim(test_name) // ': ' // str(int(total, ak)) // ' check(s) failed'
      stop 1
    end if
  end subroutine finish
end module checks
