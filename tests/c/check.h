/*
 * Shared checks for the C test programs of mpiattr (tests/c/NAME.c, run by tests/c_programs.rs).
 *
 * Every program uses only the standard MPI C API. A failed CHECK prints
 * "file:line: FAIL: what (expected ..., got ...)" to stderr and the program goes on, so one
 * run shows every broken rule; REQUIRE stops the program at once (for checks whose failure
 * would make the following code crash). test_finish() prints "OK <name>" and returns 0 when
 * nothing failed, else prints how many checks failed and returns 1.
 *
 * Every return code checked with CHECK_RC / CHECK_OK also goes through MPI_Error_class and
 * MPI_Error_string (the string must be non-empty and at most MPI_MAX_ERROR_STRING long).
 */
#ifndef MPIATTR_TEST_CHECK_H
#define MPIATTR_TEST_CHECK_H

#include <mpi.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Number of failed checks so far (atomic: the threaded programs check from many threads). */
static atomic_int check_failures;

static inline void check_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    char msg[1024];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int n = atomic_fetch_add(&check_failures, 1) + 1;
    if (n <= 200) {
        fprintf(stderr, "%s:%d: FAIL: %s\n", file, line, msg);
        fflush(stderr);
    } else if (n == 201) {
        fprintf(stderr, "(more failures not shown)\n");
        fflush(stderr);
    }
}

static inline const char *err_name(int cls)
{
    static const char *const names[] = {
        "MPI_SUCCESS", "MPI_ERR_BUFFER", "MPI_ERR_COUNT", "MPI_ERR_TYPE", "MPI_ERR_TAG",
        "MPI_ERR_COMM", "MPI_ERR_RANK", "MPI_ERR_REQUEST", "MPI_ERR_ROOT", "MPI_ERR_GROUP",
        "MPI_ERR_OP", "MPI_ERR_TOPOLOGY", "MPI_ERR_DIMS", "MPI_ERR_ARG", "MPI_ERR_UNKNOWN",
        "MPI_ERR_TRUNCATE", "MPI_ERR_OTHER", "MPI_ERR_INTERN", "MPI_ERR_PENDING",
        "MPI_ERR_IN_STATUS", "MPI_ERR_ACCESS", "MPI_ERR_AMODE", "MPI_ERR_ASSERT",
        "MPI_ERR_BAD_FILE", "MPI_ERR_BASE", "MPI_ERR_CONVERSION", "MPI_ERR_DISP",
        "MPI_ERR_DUP_DATAREP", "MPI_ERR_FILE_EXISTS", "MPI_ERR_FILE_IN_USE", "MPI_ERR_FILE",
        "MPI_ERR_INFO_KEY", "MPI_ERR_INFO_NOKEY", "MPI_ERR_INFO_VALUE", "MPI_ERR_INFO",
        "MPI_ERR_IO", "MPI_ERR_KEYVAL", "MPI_ERR_LOCKTYPE", "MPI_ERR_NAME", "MPI_ERR_NO_MEM",
        "MPI_ERR_NOT_SAME", "MPI_ERR_NO_SPACE", "MPI_ERR_NO_SUCH_FILE", "MPI_ERR_PORT",
        "MPI_ERR_QUOTA", "MPI_ERR_READ_ONLY", "MPI_ERR_RMA_ATTACH", "MPI_ERR_RMA_CONFLICT",
        "MPI_ERR_RMA_RANGE", "MPI_ERR_RMA_SHARED", "MPI_ERR_RMA_SYNC", "MPI_ERR_SERVICE",
        "MPI_ERR_SIZE", "MPI_ERR_SPAWN", "MPI_ERR_UNSUPPORTED_DATAREP",
        "MPI_ERR_UNSUPPORTED_OPERATION", "MPI_ERR_WIN", "MPI_ERR_RMA_FLAVOR",
        "MPI_ERR_PROC_ABORTED", "MPI_ERR_VALUE_TOO_LARGE", "MPI_ERR_SESSION",
        "MPI_ERR_ERRHANDLER", "MPI_ERR_ABI",
    };
    if (cls >= 0 && cls < (int)(sizeof names / sizeof names[0]))
        return names[cls];
    return "(not an error class)";
}

/*
 * The error class of a return code, through MPI_Error_class, and a check of its
 * MPI_Error_string. Returns -1 when MPI_Error_class itself fails.
 */
static inline int rc_class_at(const char *file, int line, int rc)
{
    int cls = -1;
    int crc = MPI_Error_class(rc, &cls);
    if (crc != MPI_SUCCESS) {
        check_fail(file, line, "MPI_Error_class(%d) failed with %d", rc, crc);
        return -1;
    }
    char text[MPI_MAX_ERROR_STRING + 1];
    memset(text, 0x55, sizeof text);
    int len = -1;
    int src = MPI_Error_string(rc, text, &len);
    if (src != MPI_SUCCESS) {
        check_fail(file, line, "MPI_Error_string(%d) failed with %d", rc, src);
    } else if (len <= 0 || len > MPI_MAX_ERROR_STRING) {
        check_fail(file, line, "MPI_Error_string(%d): resultlen %d not in 1..%d", rc, len,
                   MPI_MAX_ERROR_STRING);
    } else if (memchr(text, '\0', (size_t)len + 1) == NULL || text[0] == '\0') {
        check_fail(file, line, "MPI_Error_string(%d): empty or unterminated string", rc);
    } else if ((int)strlen(text) != len) {
        check_fail(file, line, "MPI_Error_string(%d): resultlen %d but strlen %d", rc, len,
                   (int)strlen(text));
    }
    return cls;
}

#define rc_class(rc) rc_class_at(__FILE__, __LINE__, (rc))

/* CHECK_RC(call, class): the call returns a code whose error class is `class`. */
#define CHECK_RC(call, expected_class)                                                         \
    do {                                                                                       \
        int rc_ = (call);                                                                      \
        int want_ = (expected_class);                                                          \
        int got_ = rc_class_at(__FILE__, __LINE__, rc_);                                       \
        if (got_ != want_)                                                                     \
            check_fail(__FILE__, __LINE__, "%s: expected %s (%d), got %s (%d; code %d)", #call, \
                       err_name(want_), want_, err_name(got_), got_, rc_);                     \
    } while (0)

#define CHECK_OK(call) CHECK_RC(call, MPI_SUCCESS)

/* REQUIRE_OK: like CHECK_OK, but stop the program when the call fails. */
#define REQUIRE_OK(call)                                                                       \
    do {                                                                                       \
        int rc_ = (call);                                                                      \
        if (rc_ != MPI_SUCCESS) {                                                              \
            int got_ = rc_class_at(__FILE__, __LINE__, rc_);                                   \
            check_fail(__FILE__, __LINE__, "%s: expected MPI_SUCCESS, got %s (%d; code %d)",   \
                       #call, err_name(got_), got_, rc_);                                      \
            fprintf(stderr, "stopping: a required call failed\n");                             \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

#define CHECK(cond)                                                                            \
    do {                                                                                       \
        if (!(cond))                                                                           \
            check_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);                                \
    } while (0)

#define CHECK_MSG(cond, ...)                                                                   \
    do {                                                                                       \
        if (!(cond))                                                                           \
            check_fail(__FILE__, __LINE__, __VA_ARGS__);                                       \
    } while (0)

#define REQUIRE(cond)                                                                          \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            check_fail(__FILE__, __LINE__, "REQUIRE(%s)", #cond);                              \
            fprintf(stderr, "stopping: a required condition failed\n");                        \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

#define CHECK_EQ_INT(got, expected)                                                            \
    do {                                                                                       \
        long long g_ = (long long)(got);                                                       \
        long long e_ = (long long)(expected);                                                  \
        if (g_ != e_)                                                                          \
            check_fail(__FILE__, __LINE__, "%s == %s: expected %lld, got %lld", #got,          \
                       #expected, e_, g_);                                                     \
    } while (0)

#define CHECK_EQ_PTR(got, expected)                                                            \
    do {                                                                                       \
        void *g_ = (void *)(got);                                                  \
        void *e_ = (void *)(expected);                                             \
        if (g_ != e_)                                                                          \
            check_fail(__FILE__, __LINE__, "%s == %s: expected %p, got %p", #got, #expected,   \
                       e_, g_);                                                                \
    } while (0)

#define CHECK_EQ_STR(got, expected)                                                            \
    do {                                                                                       \
        const char *g_ = (got);                                                                \
        const char *e_ = (expected);                                                           \
        if (strcmp(g_, e_) != 0)                                                               \
            check_fail(__FILE__, __LINE__, "%s == %s: expected \"%s\", got \"%s\"", #got,      \
                       #expected, e_, g_);                                                     \
    } while (0)

/* Handles are pointers in the standard ABI (and integers in some other MPIs): compare and
   print them through intptr_t, which holds either exactly and converts from both without a
   warning. */
#define CHECK_EQ_HANDLE(got, expected)                                                         \
    do {                                                                                       \
        intptr_t g_ = (intptr_t)(got);                                                         \
        intptr_t e_ = (intptr_t)(expected);                                                    \
        if (g_ != e_)                                                                          \
            check_fail(__FILE__, __LINE__, "%s == %s: expected %#" PRIxPTR ", got %#" PRIxPTR, \
                       #got, #expected, (uintptr_t)e_, (uintptr_t)g_);                         \
    } while (0)
#define CHECK_NE_HANDLE(got, other)                                                            \
    do {                                                                                       \
        intptr_t g_ = (intptr_t)(got);                                                         \
        intptr_t o_ = (intptr_t)(other);                                                       \
        if (g_ == o_)                                                                          \
            check_fail(__FILE__, __LINE__, "%s != %s: both are %#" PRIxPTR, #got, #other,      \
                       (uintptr_t)g_);                                                         \
    } while (0)

/* Integers stored as attribute values ("integers cast to pointers"). */
#define IPTR(i) ((void *)(intptr_t)(i))
#define PTRI(p) ((intptr_t)(p))

/* A value no library writes by chance, to see that output arguments stay untouched. */
#define SENTINEL_INT (-424242)
#define SENTINEL_HANDLE(type) ((type)(intptr_t)0x5e5e5e5)

/*
 * Output arguments of every type, for calls that must fail without writing anything (attributes.md §5
 * "Bad input never ... changes state"). CHECK_FAILS(what, o, call, class) fills every field
 * of `o` with the byte 0x5e, makes the call (which passes pointers to fields of `o`), checks
 * its error class and that no field changed. CHECK_FAILS_NEW is for the calls that make a new
 * handle: a failed dup may also set it to the kind's null handle (attributes.md §5 "A failed dup").
 */
struct outs {
    MPI_Comm comm;
    MPI_Datatype type;
    MPI_Win win;
    MPI_Request request;
    MPI_Errhandler errhandler;
    MPI_Group group;
    MPI_Info info;
#if MPI_VERSION >= 4 /* sessions are MPI-4.0: an MPI-3.1 header (Open MPI 4.1) lacks the type */
    MPI_Session session;
#endif
    void *ptr;   /* attribute values, baseptr */
    MPI_Aint aint;
    int i, j;    /* rank, size, flag, result, keyval, resultlen, provided, ... */
    char text[MPI_MAX_LIBRARY_VERSION_STRING > MPI_MAX_ERROR_STRING ? MPI_MAX_LIBRARY_VERSION_STRING
                                                                    : MPI_MAX_ERROR_STRING];
    MPI_Status status;
};

#define OUTS_BYTE 0x5e

static inline int outs_bytes_untouched(const void *field, size_t size)
{
    const unsigned char *bytes = (const unsigned char *)field;
    for (size_t i = 0; i < size; i++)
        if (bytes[i] != OUTS_BYTE)
            return 0;
    return 1;
}

/* The name of the first field of `o` that a call wrote, or NULL. */
static inline const char *outs_changed(const struct outs *o, int new_handle_may_be_null)
{
#define OUTS_FIELD(f, null_ok)                                                                 \
    if (!(null_ok) && !outs_bytes_untouched(&o->f, sizeof o->f))                               \
        return #f;
    OUTS_FIELD(comm, new_handle_may_be_null && o->comm == MPI_COMM_NULL)
    OUTS_FIELD(type, new_handle_may_be_null && o->type == MPI_DATATYPE_NULL)
    OUTS_FIELD(win, 0)
    OUTS_FIELD(request, 0)
    OUTS_FIELD(errhandler, 0)
    OUTS_FIELD(ptr, 0)
    OUTS_FIELD(aint, 0)
    OUTS_FIELD(i, 0)
    OUTS_FIELD(j, 0)
    OUTS_FIELD(text, 0)
    OUTS_FIELD(status, 0)
#undef OUTS_FIELD
    return NULL;
}

static inline void check_fails_at(const char *file, int line, const char *what, const char *call,
                                  int rc, int want, const struct outs *o, int new_handle)
{
    int got = rc_class_at(file, line, rc);
    if (got != want)
        check_fail(file, line, "%s: %s: expected %s (%d), got %s (%d; code %d)", what, call,
                   err_name(want), want, err_name(got), got, rc);
    const char *changed = outs_changed(o, new_handle);
    if (changed != NULL)
        check_fail(file, line, "%s: %s failed but wrote its output `%s`", what, call, changed);
}

#define CHECK_FAILS_(what, o, call, expected_class, new_handle)                                \
    do {                                                                                       \
        memset(&(o), OUTS_BYTE, sizeof(o));                                                    \
        int rc_ = (call);                                                                      \
        check_fails_at(__FILE__, __LINE__, (what), #call, rc_, (expected_class), &(o),         \
                       (new_handle));                                                          \
    } while (0)
#define CHECK_FAILS(what, o, call, expected_class) CHECK_FAILS_(what, o, call, expected_class, 0)
#define CHECK_FAILS_NEW(what, o, call, expected_class)                                         \
    CHECK_FAILS_(what, o, call, expected_class, 1)

/* CHECK_FAILS for a call with an in-out argument `var` (MPI_Comm_free(&var) ...): it must
   also keep the value of `var`. */
#define CHECK_FAILS_INOUT(what, o, var, call, expected_class)                                  \
    do {                                                                                       \
        unsigned char saved_[sizeof(var)];                                                     \
        memcpy(saved_, &(var), sizeof(var));                                                   \
        CHECK_FAILS(what, o, call, expected_class);                                            \
        if (memcmp(saved_, &(var), sizeof(var)) != 0)                                          \
            check_fail(__FILE__, __LINE__, "%s: %s failed but changed `%s`", (what), #call,     \
                       #var);                                                                  \
    } while (0)

/* MPI_Init (or MPI_Init_thread) done elsewhere; make errors return on both predefined comms. */
static inline void errors_return(void)
{
    REQUIRE_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    REQUIRE_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
}

/* MPI_Init and errors_return. */
static inline void test_init(int *argc, char ***argv)
{
    int rc = MPI_Init(argc, argv);
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "MPI_Init failed with %d\n", rc);
        exit(1);
    }
    errors_return();
}

/* The handle the next MPI_Comm_dup should return, from two probe duplicates made and freed:
   mpiattr's next handle continues their pattern. Another MPI's may not, so callers compare
   it with what they get and print SKIP if it was not predicted. */
static inline MPI_Comm predict_next_comm(void)
{
    MPI_Comm probe1, probe2;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &probe1));
    uintptr_t h1 = (uintptr_t)probe1;
    REQUIRE_OK(MPI_Comm_free(&probe1));
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &probe2));
    uintptr_t h2 = (uintptr_t)probe2;
    REQUIRE_OK(MPI_Comm_free(&probe2));
    return (MPI_Comm)(h2 + (h2 - h1));
}

/* Callbacks that only count their calls in callback_calls; the copy keeps the value. */
static int callback_calls;
static inline int counting_comm_copy(MPI_Comm c, int kv, void *e, void *in, void *out, int *flag)
{
    (void)c, (void)kv, (void)e;
    callback_calls++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}
static inline int counting_comm_delete(MPI_Comm c, int kv, void *v, void *e)
{
    (void)c, (void)kv, (void)v, (void)e;
    callback_calls++;
    return MPI_SUCCESS;
}
static inline int counting_type_delete(MPI_Datatype t, int kv, void *v, void *e)
{
    (void)t, (void)kv, (void)v, (void)e;
    callback_calls++;
    return MPI_SUCCESS;
}
static inline int counting_win_delete(MPI_Win w, int kv, void *v, void *e)
{
    (void)w, (void)kv, (void)v, (void)e;
    callback_calls++;
    return MPI_SUCCESS;
}

/* A delete callback that must not run (MPI_Abort runs none): if it does, it says so on
   stderr, which makes a fatal program's one-line check fail. */
static inline int delete_must_not_run(MPI_Comm c, int kv, void *v, void *e)
{
    (void)c, (void)kv, (void)v, (void)e;
    fprintf(stderr, "delete callback ran during MPI_Abort\n");
    return MPI_SUCCESS;
}

/* Prints the result line; use as `return test_finish("name");` (after MPI_Finalize or not). */
static inline int test_finish(const char *name)
{
    int n = atomic_load(&check_failures);
    if (n == 0) {
        printf("OK %s\n", name);
        fflush(stdout);
        return 0;
    }
    printf("FAILED %s: %d check(s) failed\n", name, n);
    fflush(stdout);
    return 1;
}

#endif /* MPIATTR_TEST_CHECK_H */
