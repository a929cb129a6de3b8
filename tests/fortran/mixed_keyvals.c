/*
 * C half of mixed_keyvals (the program is mixed_keyvals.f90): frees keyvals Fortran created,
 * creates keyvals with C callbacks for Fortran to free, and duplicates, deletes from and frees
 * objects so that Fortran callbacks run from C calls. The C callbacks record the Fortran
 * handle (MPI_*_c2f of the C handle they get), keyval and value of their last call; they check
 * their extra_state themselves.
 */
#include "check.h"

enum { OBJ_COMM = 1, OBJ_TYPE = 2 };

static const char *obj_name(int kind) { return kind == OBJ_COMM ? "comm" : "datatype"; }

void c_failures_(MPI_Fint *n) { *n = (MPI_Fint)atomic_load(&check_failures); }

/* The C callbacks' record. */
static int c_extra; /* extra_state is &c_extra */
static int ncopy, ndel;
static MPI_Fint copy_old = -1, del_obj = -1;
static int copy_kv = -1, del_kv = -1;
static intptr_t copy_in = -1, del_val = -1;

static void record_copy(MPI_Fint old, int kv, void *extra, void *in)
{
    CHECK_MSG(extra == &c_extra, "C copy callback: extra_state %p, expected %p", extra,
              (void *)&c_extra);
    ncopy++;
    copy_old = old;
    copy_kv = kv;
    copy_in = PTRI(in);
}

static void record_delete(MPI_Fint obj, int kv, void *val, void *extra)
{
    CHECK_MSG(extra == &c_extra, "C delete callback: extra_state %p, expected %p", extra,
              (void *)&c_extra);
    ndel++;
    del_obj = obj;
    del_kv = kv;
    del_val = PTRI(val);
}

static int comm_copy(MPI_Comm old, int kv, void *extra, void *in, void *out, int *flag)
{
    record_copy(MPI_Comm_c2f(old), kv, extra, in);
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int comm_delete(MPI_Comm c, int kv, void *val, void *extra)
{
    record_delete(MPI_Comm_c2f(c), kv, val, extra);
    return MPI_SUCCESS;
}

static int type_copy(MPI_Datatype old, int kv, void *extra, void *in, void *out, int *flag)
{
    record_copy(MPI_Type_c2f(old), kv, extra, in);
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype t, int kv, void *val, void *extra)
{
    record_delete(MPI_Type_c2f(t), kv, val, extra);
    return MPI_SUCCESS;
}

/* A keyval with the C callbacks above. */
void c_create_keyval_(MPI_Fint *kind, MPI_Fint *fkv)
{
    int kv = MPI_KEYVAL_INVALID;
    if (*kind == OBJ_COMM)
        CHECK_OK(MPI_Comm_create_keyval(comm_copy, comm_delete, &kv, &c_extra));
    else
        CHECK_OK(MPI_Type_create_keyval(type_copy, type_delete, &kv, &c_extra));
    CHECK_MSG(kv != MPI_KEYVAL_INVALID, "C create keyval: still MPI_KEYVAL_INVALID");
    *fkv = kv;
}

/* Frees a keyval from C (mpi1: with MPI_Keyval_free); the C variable must become
 * MPI_KEYVAL_INVALID, and the Fortran variable is given the C variable's new value. */
void c_free_keyval_(MPI_Fint *kind, MPI_Fint *mpi1, MPI_Fint *fkv)
{
    int kv = (int)*fkv;
    const char *fn = *kind == OBJ_TYPE ? "MPI_Type_free_keyval"
                     : *mpi1           ? "MPI_Keyval_free"
                                       : "MPI_Comm_free_keyval";
    int rc = *kind == OBJ_TYPE ? MPI_Type_free_keyval(&kv)
             : *mpi1           ? MPI_Keyval_free(&kv)
                               : MPI_Comm_free_keyval(&kv);
    int cls = rc_class(rc);
    CHECK_MSG(cls == MPI_SUCCESS, "%s(keyval %d): expected MPI_SUCCESS, got %s (%d)", fn,
              (int)*fkv, err_name(cls), rc);
    CHECK_MSG(kv == MPI_KEYVAL_INVALID,
              "%s(keyval %d): variable expected MPI_KEYVAL_INVALID (%d), got %d", fn, (int)*fkv,
              MPI_KEYVAL_INVALID, kv);
    *fkv = kv;
}

/* rc's class is MPI_ERR_KEYVAL. */
static void expect_keyval_error(int rc, const char *fn, int kv, int gone)
{
    int cls = rc_class(rc);
    CHECK_MSG(cls == MPI_ERR_KEYVAL, "%s through keyval %d (%s): expected MPI_ERR_KEYVAL (%d), "
              "got class %d (code %d)", fn, kv, gone ? "freed, no attribute left" : "freed, in use",
              MPI_ERR_KEYVAL, cls, rc);
}

/*
 * Setting through a freed keyval fails with MPI_ERR_KEYVAL in C; when *gone (its last attribute
 * is gone too) getting fails as well. Tried on a scratch object, left alone if a library
 * wrongly accepted the set (see expect_stale in mixed_keyvals.f90).
 */
void c_expect_stale_(MPI_Fint *kind, MPI_Fint *fkv, MPI_Fint *gone)
{
    int kv = (int)*fkv, flag = -1, rc;
    void *v = NULL;
    if (*kind == OBJ_COMM) {
        MPI_Comm c = MPI_COMM_NULL;
        CHECK_OK(MPI_Comm_dup(MPI_COMM_SELF, &c));
        if (*gone)
            expect_keyval_error(MPI_Comm_get_attr(c, kv, &v, &flag), "C MPI_Comm_get_attr", kv, 1);
        rc = MPI_Comm_set_attr(c, kv, IPTR(1));
        expect_keyval_error(rc, "C MPI_Comm_set_attr", kv, (int)*gone);
        if (rc != MPI_SUCCESS)
            CHECK_OK(MPI_Comm_free(&c));
    } else {
        MPI_Datatype t = MPI_DATATYPE_NULL;
        CHECK_OK(MPI_Type_contiguous(5, MPI_INT, &t));
        if (*gone)
            expect_keyval_error(MPI_Type_get_attr(t, kv, &v, &flag), "C MPI_Type_get_attr", kv, 1);
        rc = MPI_Type_set_attr(t, kv, IPTR(1));
        expect_keyval_error(rc, "C MPI_Type_set_attr", kv, (int)*gone);
        if (rc != MPI_SUCCESS)
            CHECK_OK(MPI_Type_free(&t));
    }
}

/* C reads a Fortran address value: a pointer to an MPI_Aint holding *want. */
void c_get_aint_(MPI_Fint *kind, MPI_Fint *h, MPI_Fint *kv, MPI_Aint *want)
{
    void *p = NULL;
    int flag = -1;
    if (*kind == OBJ_COMM)
        CHECK_OK(MPI_Comm_get_attr(MPI_Comm_f2c(*h), (int)*kv, &p, &flag));
    else
        CHECK_OK(MPI_Type_get_attr(MPI_Type_f2c(*h), (int)*kv, &p, &flag));
    CHECK_MSG(flag == 1 && p != NULL, "%s keyval %d: C get expected a value, got flag %d, %p",
              obj_name((int)*kind), (int)*kv, flag, p);
    if (flag == 1 && p != NULL)
        CHECK_MSG(*(MPI_Aint *)p == *want, "%s keyval %d: C reads %lld, expected %lld",
                  obj_name((int)*kind), (int)*kv, (long long)*(MPI_Aint *)p, (long long)*want);
}

/* Stores the integer *v as a C pointer. */
void c_set_int_pointer_(MPI_Fint *kind, MPI_Fint *h, MPI_Fint *kv, MPI_Aint *v)
{
    if (*kind == OBJ_COMM)
        CHECK_OK(MPI_Comm_set_attr(MPI_Comm_f2c(*h), (int)*kv, IPTR(*v)));
    else
        CHECK_OK(MPI_Type_set_attr(MPI_Type_f2c(*h), (int)*kv, IPTR(*v)));
}

/* C duplicates an object; the new one's Fortran handle goes back. */
void c_dup_(MPI_Fint *kind, MPI_Fint *h, MPI_Fint *newh)
{
    if (*kind == OBJ_COMM) {
        MPI_Comm c = MPI_COMM_NULL;
        CHECK_OK(MPI_Comm_dup(MPI_Comm_f2c(*h), &c));
        *newh = MPI_Comm_c2f(c);
    } else {
        MPI_Datatype t = MPI_DATATYPE_NULL;
        CHECK_OK(MPI_Type_dup(MPI_Type_f2c(*h), &t));
        *newh = MPI_Type_c2f(t);
    }
}

void c_delete_attr_(MPI_Fint *kind, MPI_Fint *h, MPI_Fint *kv)
{
    if (*kind == OBJ_COMM)
        CHECK_OK(MPI_Comm_delete_attr(MPI_Comm_f2c(*h), (int)*kv));
    else
        CHECK_OK(MPI_Type_delete_attr(MPI_Type_f2c(*h), (int)*kv));
}

/* C frees an object; *freed is MPI_*_c2f of the C handle it freed, taken before the call. */
void c_free_obj_(MPI_Fint *kind, MPI_Fint *h, MPI_Fint *freed)
{
    if (*kind == OBJ_COMM) {
        MPI_Comm c = MPI_Comm_f2c(*h);
        *freed = MPI_Comm_c2f(c);
        CHECK_OK(MPI_Comm_free(&c));
        CHECK_MSG(c == MPI_COMM_NULL, "MPI_Comm_free: handle not set to MPI_COMM_NULL");
    } else {
        MPI_Datatype t = MPI_Type_f2c(*h);
        *freed = MPI_Type_c2f(t);
        CHECK_OK(MPI_Type_free(&t));
        CHECK_MSG(t == MPI_DATATYPE_NULL, "MPI_Type_free: handle not set to MPI_DATATYPE_NULL");
    }
}

void c_reset_calls_(void) { ncopy = ndel = 0; }

/* The C callbacks ran nc copies and nd deletes in all. `what` comes from Fortran (gfortran
 * passes its length last). */
void c_expect_calls_(const char *what, MPI_Fint *nc, MPI_Fint *nd, size_t len)
{
    CHECK_MSG(ncopy == *nc && ndel == *nd,
              "%.*s: C callbacks ran %d copies and %d deletes, expected %d and %d", (int)len,
              what, ncopy, ndel, (int)*nc, (int)*nd);
}

/* The last C copy callback got the C handle of Fortran's *old, keyval *kv, value *val. */
void c_expect_copy_(MPI_Fint *old, MPI_Fint *kv, MPI_Aint *val)
{
    CHECK_MSG(copy_old == *old, "C copy callback: c2f(oldcomm/oldtype) %lld, expected %lld",
              (long long)copy_old, (long long)*old);
    CHECK_MSG(copy_kv == *kv, "C copy callback: keyval %d, expected %d", copy_kv, (int)*kv);
    CHECK_MSG(copy_in == *val, "C copy callback: attribute_val_in %lld, expected %lld",
              (long long)copy_in, (long long)*val);
}

/* The last C delete callback got the C handle of Fortran's *obj, keyval *kv, value *val. */
void c_expect_delete_(MPI_Fint *obj, MPI_Fint *kv, MPI_Aint *val)
{
    CHECK_MSG(del_obj == *obj, "C delete callback: c2f(comm/datatype) %lld, expected %lld",
              (long long)del_obj, (long long)*obj);
    CHECK_MSG(del_kv == *kv, "C delete callback: keyval %d, expected %d", del_kv, (int)*kv);
    CHECK_MSG(del_val == *val, "C delete callback: attribute_val %lld, expected %lld",
              (long long)del_val, (long long)*val);
}
