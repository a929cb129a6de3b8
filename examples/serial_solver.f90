! A small parallel solver written for any MPI, the way scientific codes are: conjugate
! gradients for -u'' = 1 on (0, 1) with u(0) = u(1) = 0, whose solution x(1 - x)/2 the
! 3-point Laplacian reproduces exactly. The grid is split across the processes; with mpiattr
! it runs as one process, unchanged. It uses the everyday calls (Bcast, Sendrecv with
! MPI_PROC_NULL neighbours, Allreduce, Reduce, Gather, Barrier, a group, a vector datatype,
! Isend/Recv/Wait to oneself, MPI_IN_PLACE) and caches the number of its workspace on its own
! duplicate of MPI_COMM_WORLD, released by the attribute's delete callback.
!
!     mpifort serial_solver.f90 -o serial_solver_f && ./serial_solver_f
!
! It prints the iterations and the error and exits 0 when the error is below 1e-8.
module workspaces
  implicit none
  type workspace
    integer :: n = 0, first = 0
    double precision :: h = 0
    double precision, allocatable :: r(:), p(:), ap(:), u(:)
  end type workspace
  type(workspace), target :: slots(4)
  integer :: freed = 0
contains
  ! The delete callback: the attribute's value is the workspace's slot number.
  subroutine free_workspace(comm, keyval, value, extra_state, ierror)
    use mpi
    integer :: comm, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: value, extra_state
    deallocate(slots(value)%r, slots(value)%p, slots(value)%ap, slots(value)%u)
    freed = freed + 1
    ierror = MPI_SUCCESS
  end subroutine free_workspace
end module workspaces

program serial_solver
  use mpi
  use workspaces
  implicit none
  integer :: ierr, comm, rank, nprocs, points, keyval, group, group_size, iterations
  integer :: lower, upper, i, source, count, every_tenth, samples, request
  integer :: status(MPI_STATUS_SIZE)
  integer(kind=MPI_ADDRESS_KIND) :: slot, found, no_state = 0
  logical :: flag, ok
  double precision :: rr, rr_new, alpha, error, max_error, x, start, elapsed
  double precision :: sample(1024)
  integer, allocatable :: owned(:)
  type(workspace), pointer :: w

  call MPI_Init(ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, comm, ierr)
  call MPI_Comm_rank(comm, rank, ierr)
  call MPI_Comm_size(comm, nprocs, ierr)

  ! The group of the solver's communicator has every process.
  call MPI_Comm_group(comm, group, ierr)
  call MPI_Group_size(group, group_size, ierr)
  call MPI_Group_free(group, ierr)
  if (group_size /= nprocs) stop 1

  ! The root chooses the grid.
  points = 1000
  call MPI_Bcast(points, 1, MPI_INTEGER, 0, comm, ierr)

  ! Cache the workspace's number on the communicator: freeing the communicator releases it.
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_workspace, keyval, no_state, ierr)
  slot = 1
  w => slots(slot)
  w%n = points / nprocs
  if (rank < mod(points, nprocs)) w%n = w%n + 1
  w%first = rank * (points / nprocs) + min(rank, mod(points, nprocs))
  w%h = 1d0 / (points + 1)
  allocate(w%r(w%n), w%p(w%n), w%ap(w%n), w%u(w%n))
  w%u = 0
  call MPI_Comm_set_attr(comm, keyval, slot, ierr)

  call MPI_Comm_get_attr(comm, keyval, found, flag, ierr)
  if (.not. flag .or. found /= slot) stop 2

  ! Conjugate gradients from u = 0: r = p = f.
  lower = rank - 1
  if (rank == 0) lower = MPI_PROC_NULL
  upper = rank + 1
  if (rank == nprocs - 1) upper = MPI_PROC_NULL
  start = MPI_Wtime()
  w%r = 1
  w%p = 1
  rr = dot(w%r, w%r)
  iterations = 0
  do while (iterations < 10 * points .and. sqrt(rr) > 1d-9)
    call apply(w%p, w%ap)
    alpha = rr / dot(w%p, w%ap)
    w%u = w%u + alpha * w%p
    w%r = w%r - alpha * w%ap
    rr_new = dot(w%r, w%r)
    w%p = w%r + rr_new / rr * w%p
    rr = rr_new
    iterations = iterations + 1
  end do
  elapsed = MPI_Wtime() - start

  ! The largest error, at the root (in place there).
  error = 0
  do i = 1, w%n
    x = (w%first + i) * w%h
    error = max(error, abs(w%u(i) - x * (1 - x) / 2))
  end do
  if (rank == 0) then
    max_error = error
    call MPI_Reduce(MPI_IN_PLACE, max_error, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0, comm, ierr)
  else
    call MPI_Reduce(error, max_error, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0, comm, ierr)
  end if

  ! How many points each process owned, at the root.
  allocate(owned(nprocs))
  call MPI_Gather(w%n, 1, MPI_INTEGER, owned, 1, MPI_INTEGER, 0, comm, ierr)

  ! Every tenth value of this process's part, sent to the root as one strided datatype.
  samples = (w%n + 9) / 10
  call MPI_Type_vector(samples, 1, 10, MPI_DOUBLE_PRECISION, every_tenth, ierr)
  call MPI_Type_commit(every_tenth, ierr)
  call MPI_Isend(w%u, 1, every_tenth, 0, 3, comm, request, ierr)
  if (rank == 0) then
    do source = 0, nprocs - 1
      call MPI_Recv(sample, 1024, MPI_DOUBLE_PRECISION, source, 3, comm, status, ierr)
      call MPI_Get_count(status, MPI_DOUBLE_PRECISION, count, ierr)
      print '(a,i0,a,i0,a,i0,a,f8.6)', 'process ', source, ': ', owned(source + 1), &
        ' points, ', count, ' samples, first ', sample(1)
    end do
  end if
  call MPI_Wait(request, MPI_STATUS_IGNORE, ierr)
  call MPI_Type_free(every_tenth, ierr)

  call MPI_Barrier(comm, ierr)
  call MPI_Comm_free(comm, ierr)  ! runs free_workspace
  call MPI_Comm_free_keyval(keyval, ierr)

  ok = freed == 1
  if (rank == 0) then
    print '(i0,a,i0,a,i0,a,es9.2,a,f6.3,a)', points, ' points, ', nprocs, ' processes: ', &
      iterations, ' iterations, max error ', max_error, ', ', elapsed, ' s'
    ok = ok .and. max_error < 1d-8
    if (ok) then
      print '(a)', 'OK serial_solver_f'
    else
      print '(a)', 'FAILED serial_solver_f'
    end if
  end if
  call MPI_Finalize(ierr)
  if (.not. ok) stop 3

contains

  ! The global dot product.
  double precision function dot(a, b)
    double precision, intent(in) :: a(:), b(:)
    double precision :: local
    local = sum(a * b)
    call MPI_Allreduce(local, dot, 1, MPI_DOUBLE_PRECISION, MPI_SUM, comm, ierr)
  end function dot

  ! y = A x for the 3-point Laplacian, exchanging one ghost value with each neighbour.
  subroutine apply(xv, y)
    double precision, intent(in) :: xv(:)
    double precision, intent(out) :: y(:)
    double precision :: left, right
    integer :: j, n
    n = size(xv)
    left = 0
    right = 0
    call MPI_Sendrecv(xv(n), 1, MPI_DOUBLE_PRECISION, upper, 1, left, 1, &
      MPI_DOUBLE_PRECISION, lower, 1, comm, MPI_STATUS_IGNORE, ierr)
    call MPI_Sendrecv(xv(1), 1, MPI_DOUBLE_PRECISION, lower, 2, right, 1, &
      MPI_DOUBLE_PRECISION, upper, 2, comm, MPI_STATUS_IGNORE, ierr)
    do j = 1, n
      y(j) = 2 * xv(j)
      if (j > 1) then
        y(j) = y(j) - xv(j - 1)
      else
        y(j) = y(j) - left
      end if
      if (j < n) then
        y(j) = y(j) - xv(j + 1)
      else
        y(j) = y(j) - right
      end if
      y(j) = y(j) / (w%h * w%h)
    end do
  end subroutine apply

end program serial_solver
