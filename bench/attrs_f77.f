! Attribute reads from fixed-form Fortran with include 'mpif.h' only, so the same source
! builds against mpiattr and any other MPI (ci/bench builds it against each): the rows of
! bench/attrs_f.f90 (use mpi) through the other Fortran binding. With N = 1, 16, 256 and
! 1024 attributes on a communicator (a duplicate of MPI_COMM_WORLD), in nanoseconds per
! call, the best of several timed runs:
!   f77_comm_get_attr  MPI_COMM_GET_ATTR of an attribute set with MPI_COMM_SET_ATTR
!   f77_attr_get       MPI_ATTR_GET of an attribute set with MPI_ATTR_PUT
! Output: one line per figure, "op N ns".
      program attrs_f77
      implicit none
      include 'mpif.h'
      integer sizes(4), keyvals(1024), comm, ierr, s, n, k
      double precision best
      integer(kind=MPI_ADDRESS_KIND) zero
      data sizes /1, 16, 256, 1024/
      zero = 0
      call MPI_INIT(ierr)
      do k = 1, 1024
        call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN,
     &      MPI_COMM_NULL_DELETE_FN, keyvals(k), zero, ierr)
      end do
      do s = 1, 4
        n = sizes(s)
        call MPI_COMM_DUP(MPI_COMM_WORLD, comm, ierr)
        do k = 1, n
          call MPI_COMM_SET_ATTR(comm, keyvals(k),
     &        int(k, MPI_ADDRESS_KIND), ierr)
        end do
        print '(A,1X,I0,1X,F0.2)', 'f77_comm_get_attr', n,
     &      best(comm, keyvals, n, .true.)
        do k = 1, n
          call MPI_COMM_DELETE_ATTR(comm, keyvals(k), ierr)
          call MPI_ATTR_PUT(comm, keyvals(k), k, ierr)
        end do
        print '(A,1X,I0,1X,F0.2)', 'f77_attr_get', n,
     &      best(comm, keyvals, n, .false.)
        call MPI_COMM_FREE(comm, ierr)
      end do
      call MPI_FINALIZE(ierr)
      end

! Best nanoseconds per call over 7 runs of about 30 ms (as in attrs_f.f90 and attrs.c).
      double precision function best(comm, keyvals, n, address_kind)
      implicit none
      include 'mpif.h'
      integer comm, n, keyvals(n)
      logical address_kind
      integer(kind=8) t0, t1, rate, rounds, r
      integer i, k, ierr, small
      integer(kind=MPI_ADDRESS_KIND) value, total
      logical flag
      double precision ns
      rounds = max(1, 4000000 / n)
      best = huge(1d0)
      total = 0
      do i = 1, 7
        call system_clock(t0, rate)
        do r = 1, rounds
          do k = 1, n
            if (address_kind) then
              call MPI_COMM_GET_ATTR(comm, keyvals(k), value, flag,
     &            ierr)
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
      if (total .eq. -1) print *, total
      end
