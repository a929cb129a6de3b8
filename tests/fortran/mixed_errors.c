/*
 * C half of mixed_errors (the program is mixed_errors.f90): frees and duplicates Fortran's
 * communicators from C, checking the error class of what Fortran callbacks returned, and
 * provides C callbacks that fail with a code Fortran chooses.
 */
#include "check.h"

void c_failures_(MPI_Fint *n) { *n = (MPI_Fint)atomic_load(&check_failures); }

/* rc's class, through MPI_Error_class, is `want`. */
static void expect_class(int rc, int want, const char *what)
{
    int cls = rc_class(rc);
    CHECK_MSG(cls == want, "%s: expected error class %d, got class %d (code %d)", what, want, cls,
              rc);
}

/*
 * C frees Fortran's communicator *fcomm: the call's class is *want. On failure the handle is
 * unchanged and still usable; on success it becomes MPI_COMM_NULL. *fcomm gets the C handle's
 * c2f after the call, *rc the code.
 */
void c_free_comm_(MPI_Fint *fcomm, MPI_Fint *want, MPI_Fint *rc)
{
    MPI_Comm c = MPI_Comm_f2c(*fcomm), before = c;
    int r = MPI_Comm_free(&c);
    expect_class(r, (int)*want, "C MPI_Comm_free of a communicator with a Fortran delete callback");
    if (*want != MPI_SUCCESS) {
        int size = -1, world = -2;
        CHECK_MSG(c == before, "C MPI_Comm_free failed but changed the handle");
        CHECK_OK(MPI_Comm_size(c, &size));
        CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &world));
        CHECK_EQ_INT(size, world);
    } else {
        CHECK_MSG(c == MPI_COMM_NULL,
                  "C MPI_Comm_free succeeded but the handle is not MPI_COMM_NULL");
    }
    *fcomm = MPI_Comm_c2f(c);
    *rc = r;
}

/*
 * C duplicates Fortran's communicator, whose Fortran copy callback fails: the class is *want
 * and the new handle MPI_COMM_NULL. *rc gets the code.
 */
void c_dup_comm_(MPI_Fint *fcomm, MPI_Fint *want, MPI_Fint *rc)
{
    MPI_Comm newc = MPI_COMM_WORLD; /* anything but MPI_COMM_NULL */
    int r = MPI_Comm_dup(MPI_Comm_f2c(*fcomm), &newc);
    expect_class(r, (int)*want, "C MPI_Comm_dup of a communicator with a Fortran copy callback");
    if (*want != MPI_SUCCESS)
        CHECK_MSG(newc == MPI_COMM_NULL, "C MPI_Comm_dup failed but newcomm is not MPI_COMM_NULL");
    else if (newc != MPI_COMM_NULL)
        CHECK_OK(MPI_Comm_free(&newc));
    *rc = r;
}

/* A keyval whose C copy callback returns the code held in extra_state. */
static int copy_calls;
static MPI_Fint copy_old = -1;

static int failing_copy(MPI_Comm old, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)kv, (void)in;
    copy_calls++;
    copy_old = MPI_Comm_c2f(old);
    *(void **)out = IPTR(-1); /* must not be stored: the copy fails */
    *flag = 1;
    return (int)PTRI(extra);
}

void c_create_failing_keyval_(MPI_Fint *code, MPI_Fint *fkv)
{
    int kv = MPI_KEYVAL_INVALID;
    CHECK_OK(MPI_Comm_create_keyval(failing_copy, MPI_COMM_NULL_DELETE_FN, &kv, IPTR(*code)));
    *fkv = kv;
}

void c_copy_calls_(MPI_Fint *n) { *n = copy_calls; }

/* The failing copy callback has run *n times in all, the last time on Fortran's *old. */
void c_expect_copy_call_(MPI_Fint *n, MPI_Fint *old)
{
    CHECK_MSG(copy_calls == *n, "C copy callback calls: expected %d, got %d", (int)*n, copy_calls);
    CHECK_MSG(copy_old == *old, "C copy callback: c2f(oldcomm) expected %lld, got %lld",
              (long long)*old, (long long)copy_old);
}

/* A keyval whose C delete callback returns delete_result. */
static int delete_result = MPI_SUCCESS, delete_calls;
static MPI_Fint delete_comm = -1;

static int failing_delete(MPI_Comm c, int kv, void *val, void *extra)
{
    (void)kv, (void)val, (void)extra;
    delete_calls++;
    delete_comm = MPI_Comm_c2f(c);
    return delete_result;
}

void c_create_deleting_keyval_(MPI_Fint *fkv)
{
    int kv = MPI_KEYVAL_INVALID;
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, failing_delete, &kv, NULL));
    *fkv = kv;
}

void c_set_delete_result_(MPI_Fint *code) { delete_result = (int)*code; }

void c_delete_calls_(MPI_Fint *n) { *n = delete_calls; }

/* The last C delete callback ran on Fortran's communicator *h. */
void c_expect_delete_comm_(MPI_Fint *h)
{
    CHECK_MSG(delete_comm == *h, "C delete callback: c2f(comm) expected %lld, got %lld",
              (long long)*h, (long long)delete_comm);
}
