/*
 * User error handlers (issue 14 item 6; docs/semantics.md "Errors"):
 * - MPI_Comm_create_errhandler: set on a duplicate, freed while in use (the communicator
 *   keeps it), MPI_Comm_call_errhandler calls it with the communicator and the code and
 *   returns MPI_SUCCESS; an error in a call on the communicator calls it and the call returns
 *   the code; MPI_Comm_dup inherits it; MPI_Comm_get_errhandler returns a new handle that
 *   must be freed; the freed handle itself is MPI_ERR_ERRHANDLER (set, free);
 * - a user handler on MPI_COMM_SELF gets errors on no object and on a freed communicator or
 *   window, with MPI_COMM_SELF as the object; one on MPI_COMM_WORLD only does not (errors on
 *   no object go to MPI_COMM_SELF's handler: the MPI-4.1 rule we keep);
 * - MPI_Win_create_errhandler on a window, MPI_Win_call_errhandler, a window error;
 * - MPI_Session_create_errhandler given to MPI_Session_init and MPI_Session_call_errhandler;
 * - files: MPI_FILE_NULL's handler (MPI_ERRORS_RETURN until set), a file handler set on it,
 *   MPI_File_call_errhandler, another handle MPI_ERR_FILE;
 * - wrong kind (a communicator handler set on a window and on a session, a window handler on
 *   a communicator): MPI_ERR_ARG, nothing changed; NULL function or output: MPI_ERR_ARG;
 * - a handler that longjmps out of the failing call: the library keeps working.
 */
#include "check.h"

#include <setjmp.h>

static int comm_calls, comm_code;
static MPI_Comm comm_seen;
static void comm_handler(MPI_Comm *comm, int *code, ...)
{
    comm_calls++;
    comm_seen = *comm;
    comm_code = *code;
    *code = MPI_SUCCESS; /* the failing call still returns its own code */
}

static int self_calls;
static MPI_Comm self_seen;
static void self_handler(MPI_Comm *comm, int *code, ...)
{
    (void)code;
    self_calls++;
    self_seen = *comm;
}

static int win_calls, win_code;
static MPI_Win win_seen;
static void win_handler(MPI_Win *win, int *code, ...)
{
    win_calls++;
    win_seen = *win;
    win_code = *code;
}

static int session_calls, session_code;
static void session_handler(MPI_Session *session, int *code, ...)
{
    (void)session;
    session_calls++;
    session_code = *code;
}

static int file_calls, file_code;
static void file_handler(MPI_File *file, int *code, ...)
{
    CHECK_EQ_HANDLE(*file, MPI_FILE_NULL);
    file_calls++;
    file_code = *code;
}

static jmp_buf escape;
static int jumps;
static void jumping_handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm, (void)code;
    jumps++;
    longjmp(escape, 1);
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    struct outs o;

    /* Lifetime on a communicator. */
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL, got = MPI_ERRHANDLER_NULL;
    MPI_Comm c, d;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_OK(MPI_Comm_create_errhandler(comm_handler, &eh));
    CHECK_NE_HANDLE(eh, MPI_ERRHANDLER_NULL);
    /* A user handler's Fortran integer crosses back to the same handle. */
    MPI_Fint f_eh = MPI_Errhandler_c2f(eh);
    CHECK(f_eh != MPI_Errhandler_c2f(MPI_ERRHANDLER_NULL));
    CHECK(f_eh != MPI_Errhandler_c2f(MPI_ERRORS_RETURN));
    CHECK_EQ_HANDLE(MPI_Errhandler_f2c(f_eh), eh);
    CHECK_EQ_HANDLE(MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRORS_RETURN)), MPI_ERRORS_RETURN);
    CHECK_EQ_HANDLE(MPI_Errhandler_f2c(f_eh + 16), MPI_ERRHANDLER_NULL);
    CHECK_OK(MPI_Comm_set_errhandler(c, eh));
    MPI_Errhandler stale = eh;
    CHECK_OK(MPI_Errhandler_free(&eh));
    CHECK_EQ_HANDLE(eh, MPI_ERRHANDLER_NULL);
    CHECK_FAILS_INOUT("freed handler", o, stale, MPI_Errhandler_free(&stale), MPI_ERR_ERRHANDLER);
    CHECK_RC(MPI_Comm_set_errhandler(MPI_COMM_SELF, stale), MPI_ERR_ERRHANDLER);
    CHECK_OK(MPI_Comm_call_errhandler(c, MPI_ERR_OTHER));
    CHECK_EQ_INT(comm_calls, 1);
    CHECK_EQ_INT(comm_code, MPI_ERR_OTHER);
    CHECK_EQ_HANDLE(comm_seen, c);
    int rank = -1;
    int rc = MPI_Comm_rank(c, NULL);
    CHECK_EQ_INT(rc_class(rc), MPI_ERR_ARG);
    CHECK_EQ_INT(comm_calls, 2);
    CHECK_EQ_INT(comm_code, rc);
    /* Inherited by a duplicate; get gives a handle to release, usable to set. */
    REQUIRE_OK(MPI_Comm_dup(c, &d));
    CHECK_OK(MPI_Comm_get_errhandler(d, &got));
    CHECK_OK(MPI_Comm_call_errhandler(d, MPI_ERR_TAG));
    CHECK_EQ_INT(comm_calls, 3);
    CHECK_EQ_HANDLE(comm_seen, d);
    CHECK_OK(MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Comm_set_errhandler(d, got));
    CHECK_OK(MPI_Errhandler_free(&got));
    CHECK_OK(MPI_Comm_call_errhandler(d, MPI_ERR_TAG));
    CHECK_EQ_INT(comm_calls, 4);
    CHECK_OK(MPI_Comm_rank(c, &rank));
    CHECK_EQ_INT(comm_calls, 4);

    /* Errors on no object and on freed handles go to MPI_COMM_SELF's handler. */
    MPI_Errhandler self_eh;
    CHECK_OK(MPI_Comm_create_errhandler(self_handler, &self_eh));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, self_eh));
    int size = -1;
    CHECK_RC(MPI_Type_size(MPI_DATATYPE_NULL, &size), MPI_ERR_TYPE);
    CHECK_EQ_INT(self_calls, 0); /* WORLD's handler is not SELF's */
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, self_eh));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Errhandler_free(&self_eh));
    CHECK_RC(MPI_Type_size(MPI_DATATYPE_NULL, &size), MPI_ERR_TYPE);
    CHECK_EQ_INT(self_calls, 1);
    CHECK_EQ_HANDLE(self_seen, MPI_COMM_SELF);
    MPI_Comm freed = d;
    CHECK_OK(MPI_Comm_free(&d));
    CHECK_RC(MPI_Comm_rank(freed, &rank), MPI_ERR_COMM);
    CHECK_EQ_INT(self_calls, 2);
    CHECK_EQ_HANDLE(self_seen, MPI_COMM_SELF);
    CHECK_EQ_INT(comm_calls, 4);

    /* Windows. */
    int buf[4];
    MPI_Win w;
    MPI_Errhandler weh, ceh;
    REQUIRE_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    CHECK_OK(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN)); /* a new window's is fatal */
    CHECK_OK(MPI_Win_create_errhandler(win_handler, &weh));
    CHECK_OK(MPI_Comm_create_errhandler(comm_handler, &ceh));
    CHECK_RC(MPI_Win_set_errhandler(w, ceh), MPI_ERR_ARG);
    CHECK_RC(MPI_Comm_set_errhandler(c, weh), MPI_ERR_ARG);
    CHECK_OK(MPI_Comm_get_errhandler(c, &got));
    CHECK_NE_HANDLE(got, weh);
    CHECK_OK(MPI_Errhandler_free(&got));
    CHECK_OK(MPI_Win_set_errhandler(w, weh));
    CHECK_OK(MPI_Win_call_errhandler(w, MPI_ERR_WIN));
    CHECK_EQ_INT(win_calls, 1);
    CHECK_EQ_INT(win_code, MPI_ERR_WIN);
    CHECK_EQ_HANDLE(win_seen, w);
    CHECK_OK(MPI_Win_get_errhandler(w, &got));
    CHECK_EQ_HANDLE(got, weh);
    CHECK_OK(MPI_Errhandler_free(&got));
    int flag = 0;
    void *value;
    rc = MPI_Win_get_attr(w, -5, &value, &flag);
    CHECK_EQ_INT(rc_class(rc), MPI_ERR_KEYVAL);
    CHECK_EQ_INT(win_calls, 2);
    CHECK_EQ_INT(win_code, rc);
    MPI_Win freed_win = w;
    CHECK_OK(MPI_Win_free(&w));
    CHECK_RC(MPI_Win_get_attr(freed_win, MPI_WIN_BASE, &value, &flag), MPI_ERR_WIN);
    CHECK_EQ_INT(win_calls, 2);
    CHECK_EQ_INT(self_calls, 3);
    CHECK_OK(MPI_Errhandler_free(&weh));

    /* Sessions. */
    MPI_Errhandler seh;
    MPI_Session s;
    CHECK_OK(MPI_Session_create_errhandler(session_handler, &seh));
    CHECK_RC(MPI_Session_init(MPI_INFO_NULL, ceh, &s), MPI_ERR_ARG);
    REQUIRE_OK(MPI_Session_init(MPI_INFO_NULL, seh, &s));
    CHECK_OK(MPI_Session_call_errhandler(s, MPI_ERR_SESSION));
    CHECK_EQ_INT(session_calls, 1);
    CHECK_EQ_INT(session_code, MPI_ERR_SESSION);
    /* The wrong kind is an error on the session: its own handler sees it. */
    CHECK_RC(MPI_Session_set_errhandler(s, ceh), MPI_ERR_ARG);
    CHECK_EQ_INT(session_calls, 2);
    CHECK_EQ_INT(session_code, MPI_ERR_ARG);
    CHECK_OK(MPI_Errhandler_free(&seh));
    CHECK_OK(MPI_Session_call_errhandler(s, MPI_ERR_ARG));
    CHECK_EQ_INT(session_calls, 3);
    CHECK_OK(MPI_Session_finalize(&s));
    CHECK_OK(MPI_Errhandler_free(&ceh));

    /* Files: MPI_FILE_NULL's handler, MPI_ERRORS_RETURN until set. */
    MPI_Errhandler feh = MPI_ERRHANDLER_NULL;
    CHECK_OK(MPI_File_get_errhandler(MPI_FILE_NULL, &got));
    CHECK_EQ_HANDLE(got, MPI_ERRORS_RETURN);
    CHECK_OK(MPI_Errhandler_free(&got));
    CHECK_OK(MPI_File_call_errhandler(MPI_FILE_NULL, MPI_ERR_IO));
    CHECK_OK(MPI_File_create_errhandler(file_handler, &feh));
    CHECK_NE_HANDLE(feh, MPI_ERRHANDLER_NULL);
    CHECK_RC(MPI_Comm_set_errhandler(c, feh), MPI_ERR_ARG);
    CHECK_OK(MPI_File_set_errhandler(MPI_FILE_NULL, feh));
    CHECK_OK(MPI_Errhandler_free(&feh));
    CHECK_EQ_HANDLE(feh, MPI_ERRHANDLER_NULL);
    CHECK_OK(MPI_File_call_errhandler(MPI_FILE_NULL, MPI_ERR_IO));
    CHECK_EQ_INT(file_calls, 1);
    CHECK_EQ_INT(file_code, MPI_ERR_IO);
    CHECK_OK(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_File_call_errhandler(MPI_FILE_NULL, MPI_ERR_IO));
    CHECK_EQ_INT(file_calls, 1);
    CHECK_RC(MPI_File_set_errhandler((MPI_File)MPI_COMM_WORLD, MPI_ERRORS_RETURN), MPI_ERR_FILE);
    CHECK_FAILS("not a file", o, MPI_File_get_errhandler((MPI_File)MPI_COMM_WORLD, &o.errhandler),
                MPI_ERR_FILE);

    /* Bad input. */
    CHECK_FAILS("NULL function", o, MPI_Comm_create_errhandler(NULL, &o.errhandler), MPI_ERR_ARG);
    CHECK_FAILS("NULL function", o, MPI_Win_create_errhandler(NULL, &o.errhandler), MPI_ERR_ARG);
    CHECK_FAILS("NULL function", o, MPI_Session_create_errhandler(NULL, &o.errhandler),
                MPI_ERR_ARG);
    CHECK_FAILS("NULL function", o, MPI_File_create_errhandler(NULL, &o.errhandler), MPI_ERR_ARG);
    CHECK_FAILS("NULL output", o, MPI_Comm_create_errhandler(comm_handler, NULL), MPI_ERR_ARG);

    /* A handler that longjmps out of the failing call. */
    MPI_Errhandler jeh;
    CHECK_OK(MPI_Comm_create_errhandler(jumping_handler, &jeh));
    CHECK_OK(MPI_Comm_set_errhandler(c, jeh));
    CHECK_OK(MPI_Errhandler_free(&jeh));
    if (setjmp(escape) == 0) {
        MPI_Comm_rank(c, NULL);
        CHECK_MSG(0, "the handler did not jump");
    }
    CHECK_EQ_INT(jumps, 1);
    CHECK_OK(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Comm_rank(c, &rank));
    CHECK_EQ_INT(rank, 0);
    CHECK_OK(MPI_Comm_free(&c));

    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Finalize());
    return test_finish("errhandlers_user");
}
