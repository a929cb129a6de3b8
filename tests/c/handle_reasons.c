/*
 * Messages about bad handles say why the handle names nothing, when the library knows
 * (docs/errors.md, "Messages"): the null handle, a freed object, a predefined handle of
 * another kind (by name), a handle of another kind of object, or nothing the library handed
 * out. Each case runs in a child process (fork) under MPI_ERRORS_ARE_FATAL; the parent reads
 * the child's one line on stderr and its exit status (the error class).
 *
 * The reasons are mpiattr's wording: with another mpi.h the program prints SKIP (accepted by
 * the harness only for an external compiler).
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#if defined(MPIATTR_MPI_H)

#include <sys/wait.h>
#include <unistd.h>

static MPI_Comm freed_comm, dup_comm;
static MPI_Datatype freed_type, derived_type;
static MPI_Win win;
static int comm_kv, type_kv;

/* Runs `run` in a child with fatal errors; checks its exit status and that its stderr is one
   line holding `reason`. */
static void expect_fatal_at(int line, const char *text, int status, const char *reason,
                            void (*run)(void))
{
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 2);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
        MPI_Comm_set_errhandler(dup_comm, MPI_ERRORS_ARE_FATAL);
        MPI_Win_set_errhandler(win, MPI_ERRORS_ARE_FATAL);
        run();
        fprintf(stderr, "the call returned\n");
        _exit(99);
    }
    close(fds[1]);
    char out[2048];
    size_t used = 0;
    ssize_t got;
    while (used < sizeof out - 1 && (got = read(fds[0], out + used, sizeof out - 1 - used)) > 0)
        used += (size_t)got;
    out[used] = '\0';
    close(fds[0]);
    int wstatus = 0;
    REQUIRE(waitpid(pid, &wstatus, 0) == pid);
    const int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
    if (code != status)
        check_fail(__FILE__, line, "%s: exit status %d, expected %d; stderr: %s", text, code,
                   status, out);
    const char *newline = strchr(out, '\n');
    if (newline == NULL || newline[1] != '\0')
        check_fail(__FILE__, line, "%s: stderr is not one line: %s", text, out);
    if (strstr(out, reason) == NULL)
        check_fail(__FILE__, line, "%s: stderr lacks \"%s\": %s", text, reason, out);
}

#define CASE(name, body)                                                                       \
    static void name(void)                                                                     \
    {                                                                                          \
        void *v;                                                                               \
        int flag, size;                                                                        \
        (void)v, (void)flag, (void)size;                                                       \
        body;                                                                                  \
    }

CASE(comm_null, MPI_Comm_get_attr(MPI_COMM_NULL, comm_kv, &v, &flag))
CASE(comm_freed, MPI_Comm_get_attr(freed_comm, comm_kv, &v, &flag))
CASE(comm_freed_size, MPI_Comm_size(freed_comm, &size))
CASE(comm_predefined_type, MPI_Comm_get_attr((MPI_Comm)(void *)MPI_INT, comm_kv, &v, &flag))
CASE(comm_derived_type, MPI_Comm_get_attr((MPI_Comm)(void *)derived_type, comm_kv, &v, &flag))
CASE(comm_window, MPI_Comm_set_attr((MPI_Comm)(void *)win, comm_kv, NULL))
CASE(comm_made_up, MPI_Comm_get_attr((MPI_Comm)(uintptr_t)0x7ffff00001, comm_kv, &v, &flag))
CASE(comm_world_alias, MPI_Comm_get_attr((MPI_Comm)(uintptr_t)0x1000000001, comm_kv, &v, &flag))
CASE(type_freed, MPI_Type_size(freed_type, &size))
CASE(type_null, MPI_Type_get_attr(MPI_DATATYPE_NULL, type_kv, &v, &flag))
CASE(type_comm, MPI_Type_set_attr((MPI_Datatype)(void *)dup_comm, type_kv, NULL))
CASE(type_world, MPI_Type_size((MPI_Datatype)(void *)MPI_COMM_WORLD, &size))
CASE(win_null, MPI_Win_get_attr(MPI_WIN_NULL, MPI_WIN_BASE, &v, &flag))
CASE(comm_fortran_freed, MPI_Comm_get_attr(MPI_Comm_f2c(MPI_Comm_c2f(freed_comm)), comm_kv, &v,
                                           &flag))

#define EXPECT(run, status, reason) expect_fatal_at(__LINE__, #run, status, reason, run)

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &comm_kv,
                                      NULL));
    REQUIRE_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &type_kv,
                                      NULL));
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &freed_comm));
    MPI_Comm gone = freed_comm;
    REQUIRE_OK(MPI_Comm_free(&gone));
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup_comm));
    REQUIRE_OK(MPI_Type_contiguous(2, MPI_INT, &freed_type));
    MPI_Datatype tgone = freed_type;
    REQUIRE_OK(MPI_Type_free(&tgone));
    REQUIRE_OK(MPI_Type_contiguous(3, MPI_INT, &derived_type));
    void *base;
    REQUIRE_OK(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));

    EXPECT(comm_null, MPI_ERR_COMM, "invalid communicator handle (the null handle)");
    EXPECT(comm_freed, MPI_ERR_COMM, "invalid communicator handle (freed)");
    EXPECT(comm_freed_size, MPI_ERR_COMM, "invalid communicator handle (freed)");
    EXPECT(comm_predefined_type, MPI_ERR_COMM,
           "invalid communicator handle (MPI_INT, of another kind)");
    EXPECT(comm_derived_type, MPI_ERR_COMM, "invalid communicator handle (a datatype handle)");
    EXPECT(comm_window, MPI_ERR_COMM, "invalid communicator handle (a window handle)");
    EXPECT(comm_made_up, MPI_ERR_COMM,
           "invalid communicator handle (not a handle mpiattr handed out)");
    EXPECT(comm_world_alias, MPI_ERR_COMM,
           "invalid communicator handle (not a handle mpiattr handed out)");
    EXPECT(type_freed, MPI_ERR_TYPE, "invalid datatype handle (freed)");
    EXPECT(type_null, MPI_ERR_TYPE, "invalid datatype handle (the null handle)");
    EXPECT(type_comm, MPI_ERR_TYPE, "invalid datatype handle (a communicator handle)");
    EXPECT(type_world, MPI_ERR_TYPE, "invalid datatype handle (MPI_COMM_WORLD, of another kind)");
    EXPECT(win_null, MPI_ERR_WIN, "invalid window handle (the null handle)");
    /* MPI_Comm_f2c of a freed communicator's integer is MPI_COMM_NULL. */
    EXPECT(comm_fortran_freed, MPI_ERR_COMM, "invalid communicator handle (the null handle)");

    CHECK_OK(MPI_Win_free(&win));
    CHECK_OK(MPI_Type_free(&derived_type));
    CHECK_OK(MPI_Comm_free(&dup_comm));
    CHECK_OK(MPI_Type_free_keyval(&type_kv));
    CHECK_OK(MPI_Comm_free_keyval(&comm_kv));
    REQUIRE_OK(MPI_Finalize());
    return test_finish("handle_reasons");
}

#else

int main(void)
{
    printf("SKIP handle_reasons: checks mpiattr's messages, and this is not mpiattr's mpi.h\n");
    return 0;
}

#endif
