! Attribute reads from Fortran, written against `use mpi` only, so the same source builds
! against mpiattr and any other MPI (ci/bench builds it against each). With N = 1, 16, 256 and
! 1024 attributes on a communicator (a duplicate of MPI_COMM_WORLD), it measures in
! nanoseconds per call, the best of several timed runs:
!   f_comm_get_attr  MPI_COMM_GET_ATTR of an attribute set with MPI_COMM_SET_ATTR
!   f_attr_get       MPI_ATTR_GET of an attribute set with MPI_ATTR_PUT
! Output: one line per figure, "op N ns".
program attrs_f
  use mpi
  implicit none
  integer, parameter :: sizes(4) = [1, 16, 256, 1024]
  integer, parameter :: repeats = 7
  integer :: keyvals(1024), comm, ierr, s, n, k
  call MPI_INIT(ierr)
  do k = 1, 1024
    call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, keyvals(k), &
        0_MPI_ADDRESS_KIND, ierr)
  end do
  do s = 1, size(sizes)
    n = sizes(s)
    call MPI_COMM_DUP(MPI_COMM_WORLD, comm, ierr)
    do k = 1, n
      call MPI_COMM_SET_ATTR(comm, keyvals(k), int(k, MPI_ADDRESS_KIND), ierr)
    end do
    call report('f_comm_get_attr', n, best(comm, n, .true.))
    do k = 1, n
      call MPI_COMM_DELETE_ATTR(comm, keyvals(k), ierr)
      call MPI_ATTR_PUT(comm, keyvals(k), k, ierr)
    end do
    call report('f_attr_get', n, best(comm, n, .false.))
    call MPI_COMM_FREE(comm, ierr)
  end do
  call MPI_FINALIZE(ierr)

contains

  subroutine report(name, n, ns)
    character(len=*), intent(in) :: name
    integer, intent(in) :: n
    double precision, intent(in) :: ns
    print '(A,1X,I0,1X,F0.2)', name, n, ns
  end subroutine report

  ! Best nanoseconds per call over `repeats` runs of about 30 ms.
  double precision function best(comm, n, address_kind)
    integer, intent(in) :: comm, n
    logical, intent(in) :: address_kind
    integer(kind=8) :: t0, t1, rate, rounds, r
    integer :: i, k, ierr, small
    integer(kind=MPI_ADDRESS_KIND) :: value, total
    logical :: flag
    double precision :: ns
    rounds = max(1, 4000000 / n) ! about 30 ms a run, as in attrs.c
    best = huge(1d0)
    total = 0
    do i = 1, repeats
      call system_clock(t0, rate)
      do r = 1, rounds
        do k = 1, n
          if (address_kind) then
            call MPI_COMM_GET_ATTR(comm, keyvals(k), value, flag, ierr)
            total = total + value
          else
            call MPI_ATTR_GET(comm, keyvals(k), small, flag, ierr)
            total = total + small
          end if
        end do
      end do
      call system_clock(t1)
      ns = dble(t1 - t0) / dble(rate) * 1d9 / dble(rounds * n)
      best = min(best, ns)
    end do
    if (total == -1) print *, total
  end function best
end program attrs_f
