/*
 * A small parallel solver written for any MPI, the way scientific codes are: conjugate
 * gradients for -u'' = 1 on (0, 1) with u(0) = u(1) = 0, whose solution x(1 - x)/2 the
 * 3-point Laplacian reproduces exactly. The grid is split across the processes; with mpiattr it runs as one process,
 * unchanged. It uses the everyday calls (Bcast, Sendrecv with MPI_PROC_NULL neighbours,
 * Allreduce, Reduce, Gather, Barrier, a group, a vector datatype, Isend/Recv/Wait to oneself)
 * and keeps its workspace cached on its own duplicate of MPI_COMM_WORLD, freed by the
 * attribute's delete callback.
 *
 *     mpicc serial_solver.c -o serial_solver -lm && ./serial_solver
 *
 * It prints the iterations and the error and exits 0 when the error is below 1e-8.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* The solver's state, cached on its communicator. */
struct workspace {
    int n;          /* points owned by this process */
    int first;      /* global index of the first one */
    double h;       /* grid spacing */
    double *r, *p, *ap, *u;
};

static int workspaces_freed = 0;

static int free_workspace(MPI_Comm comm, int keyval, void *value, void *extra_state)
{
    struct workspace *w = value;
    (void)comm;
    (void)keyval;
    (void)extra_state;
    free(w->r);
    free(w->p);
    free(w->ap);
    free(w->u);
    free(w);
    workspaces_freed++;
    return MPI_SUCCESS;
}

/* y = A x for the 3-point Laplacian, exchanging one ghost value with each neighbour. */
static void apply(MPI_Comm comm, const struct workspace *w, const double *x, double *y)
{
    int rank, size;
    double left = 0.0, right = 0.0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int lower = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int upper = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    /* send my last value up, receive my left ghost from below; then the other way */
    MPI_Sendrecv(&x[w->n - 1], 1, MPI_DOUBLE, upper, 1, &left, 1, MPI_DOUBLE, lower, 1, comm,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&x[0], 1, MPI_DOUBLE, lower, 2, &right, 1, MPI_DOUBLE, upper, 2, comm,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < w->n; i++) {
        double l = i > 0 ? x[i - 1] : left;
        double r = i < w->n - 1 ? x[i + 1] : right;
        y[i] = (2.0 * x[i] - l - r) / (w->h * w->h);
    }
}

static double dot(MPI_Comm comm, int n, const double *a, const double *b)
{
    double local = 0.0, global;
    for (int i = 0; i < n; i++) {
        local += a[i] * b[i];
    }
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm);
    return global;
}

int main(int argc, char **argv)
{
    int rank, size, points = 0, keyval, flag, iterations = 0;
    MPI_Comm comm;
    MPI_Group group;
    struct workspace *w;

    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);

    /* The group of the solver's communicator has every process. */
    int group_size;
    MPI_Comm_group(comm, &group);
    MPI_Group_size(group, &group_size);
    MPI_Group_free(&group);
    if (group_size != size) {
        fprintf(stderr, "group of %d processes in a communicator of %d\n", group_size, size);
        return 1;
    }

    /* The root chooses the grid. */
    if (rank == 0) {
        points = argc > 1 ? atoi(argv[1]) : 1000;
    }
    MPI_Bcast(&points, 1, MPI_INT, 0, comm);

    /* Cache the workspace on the communicator: freeing the communicator frees it. */
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_workspace, &keyval, NULL);
    w = malloc(sizeof *w);
    w->n = points / size + (rank < points % size);
    w->first = rank * (points / size) + (rank < points % size ? rank : points % size);
    w->h = 1.0 / (points + 1);
    w->r = malloc(w->n * sizeof(double));
    w->p = malloc(w->n * sizeof(double));
    w->ap = malloc(w->n * sizeof(double));
    w->u = calloc(w->n, sizeof(double));
    MPI_Comm_set_attr(comm, keyval, w);

    /* Later, anywhere the communicator is known, the workspace is found again. */
    struct workspace *found;
    MPI_Comm_get_attr(comm, keyval, &found, &flag);
    if (!flag || found != w) {
        fprintf(stderr, "the cached workspace was not found\n");
        return 1;
    }

    /* Conjugate gradients from u = 0: r = p = f. */
    double start = MPI_Wtime();
    for (int i = 0; i < w->n; i++) {
        w->r[i] = w->p[i] = 1.0;
    }
    double rr = dot(comm, w->n, w->r, w->r);
    while (iterations < 10 * points && sqrt(rr) > 1e-9) {
        apply(comm, w, w->p, w->ap);
        double alpha = rr / dot(comm, w->n, w->p, w->ap);
        for (int i = 0; i < w->n; i++) {
            w->u[i] += alpha * w->p[i];
            w->r[i] -= alpha * w->ap[i];
        }
        double rr_new = dot(comm, w->n, w->r, w->r);
        for (int i = 0; i < w->n; i++) {
            w->p[i] = w->r[i] + rr_new / rr * w->p[i];
        }
        rr = rr_new;
        iterations++;
    }
    double elapsed = MPI_Wtime() - start;

    /* The largest error, at the root. */
    double error = 0.0, max_error = 0.0;
    for (int i = 0; i < w->n; i++) {
        double x = (w->first + i + 1) * w->h;
        error = fmax(error, fabs(w->u[i] - x * (1.0 - x) / 2.0));
    }
    MPI_Reduce(&error, &max_error, 1, MPI_DOUBLE, MPI_MAX, 0, comm);

    /* How many points each process owned, at the root. */
    int *owned = rank == 0 ? malloc(size * sizeof(int)) : NULL;
    MPI_Gather(&w->n, 1, MPI_INT, owned, 1, MPI_INT, 0, comm);

    /* Every tenth value of this process's part, sent to the root as one strided datatype. */
    MPI_Datatype every_tenth;
    int samples = (w->n + 9) / 10;
    MPI_Type_vector(samples, 1, 10, MPI_DOUBLE, &every_tenth);
    MPI_Type_commit(&every_tenth);
    MPI_Request request;
    MPI_Isend(w->u, 1, every_tenth, 0, 3, comm, &request);
    if (rank == 0) {
        for (int source = 0; source < size; source++) {
            double sample[1024];
            int count;
            MPI_Status status;
            MPI_Recv(sample, 1024, MPI_DOUBLE, source, 3, comm, &status);
            MPI_Get_count(&status, MPI_DOUBLE, &count);
            printf("process %d: %d points, %d samples, first %.6f\n", source, owned[source],
                   count, sample[0]);
        }
    }
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_Type_free(&every_tenth);
    free(owned);

    MPI_Barrier(comm);
    MPI_Comm_free(&comm); /* runs free_workspace */
    MPI_Comm_free_keyval(&keyval);

    int ok = workspaces_freed == 1;
    if (rank == 0) {
        printf("%d points, %d processes: %d iterations, max error %.2e, %.3f s\n", points, size,
               iterations, max_error, elapsed);
        ok = ok && max_error < 1e-8;
        printf(ok ? "OK serial_solver\n" : "FAILED serial_solver\n");
    }
    MPI_Finalize();
    return ok ? 0 : 1;
}
