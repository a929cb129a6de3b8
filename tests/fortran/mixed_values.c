/*
 * C half of mixed_values (the program is mixed_values.f90): stores C pointers for Fortran to
 * read, and reads Fortran-stored values through the C getters. A C reader of a Fortran value
 * gets a pointer to an MPI_Aint (address value) or an MPI_Fint (INTEGER value) holding it; the
 * pointer is the same on every get and its storage stays valid until the attribute is deleted
 * or replaced, which c_recheck_saved verifies after the object has changed around it.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <sys/mman.h>

#include "check.h"

struct payload {
    int a;
    double b;
    char text[16];
};

static struct payload static_payload = {17, 0.25, "static"};

/* Mapped where asked, far above 2**32 (malloc's addresses are low under valgrind). */
#define HEAP_BYTES (1 << 20)
#define HEAP_HINT ((void *)(uintptr_t)0x100000000000ull)
static struct payload *heap_payload;

enum { OBJ_COMM = 1, OBJ_TYPE = 2, OBJ_WIN = 3 };

static const char *obj_name(int kind)
{
    return kind == OBJ_COMM ? "comm" : kind == OBJ_TYPE ? "datatype" : "window";
}

/* The C getter of one object kind, on a Fortran handle. */
static int get_attr(int kind, MPI_Fint handle, int kv, void *val, int *flag)
{
    switch (kind) {
    case OBJ_COMM:
        return MPI_Comm_get_attr(MPI_Comm_f2c(handle), kv, val, flag);
    case OBJ_TYPE:
        return MPI_Type_get_attr(MPI_Type_f2c(handle), kv, val, flag);
    default:
        return MPI_Win_get_attr(MPI_Win_f2c(handle), kv, val, flag);
    }
}

/* Pointers C got for Fortran values, with what they must keep pointing at. */
#define NSLOTS 16
struct saved_ptr {
    int used, kind, kv, is_aint;
    MPI_Fint handle;
    void *ptr;
    MPI_Aint aval;
    MPI_Fint ival;
};
static struct saved_ptr saved[NSLOTS];

void c_failures_(MPI_Fint *n) { *n = (MPI_Fint)atomic_load(&check_failures); }

/* Stores three C pointers on comm: &static_payload (set_attr), a heap address above 2**32
 * (MPI_Attr_put), (void*)-7 (set_attr); gives their integer values back in addrs. */
void c_set_pointers_(MPI_Fint *fcomm, MPI_Fint *kvs, MPI_Aint *addrs)
{
    MPI_Comm comm = MPI_Comm_f2c(*fcomm);
    heap_payload =
        mmap(HEAP_HINT, HEAP_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(heap_payload != MAP_FAILED);
    *heap_payload = (struct payload){23, -1.5, "heap"};
    void *vals[3] = {&static_payload, heap_payload, IPTR(-7)};
    CHECK_MSG((uintptr_t)vals[1] > (uintptr_t)0xffffffffu,
              "heap address %p is not above 2**32: the test cannot see truncation", vals[1]);

    CHECK_OK(MPI_Comm_set_attr(comm, (int)kvs[0], vals[0]));
    CHECK_OK(MPI_Attr_put(comm, (int)kvs[1], vals[1]));
    CHECK_OK(MPI_Comm_set_attr(comm, (int)kvs[2], vals[2]));
    for (int i = 0; i < 3; i++) {
        addrs[i] = (MPI_Aint)(intptr_t)vals[i];
        void *got = SENTINEL_HANDLE(void *);
        int flag = -1;
        CHECK_OK(MPI_Comm_get_attr(comm, (int)kvs[i], &got, &flag));
        CHECK_MSG(flag == 1, "C pointer %d: MPI_Comm_get_attr flag expected 1, got %d", i + 1,
                  flag);
        CHECK_MSG(got == vals[i], "C pointer %d: MPI_Comm_get_attr expected %p, got %p", i + 1,
                  vals[i], got);
        got = SENTINEL_HANDLE(void *);
        flag = -1;
        CHECK_OK(MPI_Attr_get(comm, (int)kvs[i], &got, &flag));
        CHECK_MSG(flag == 1, "C pointer %d: MPI_Attr_get flag expected 1, got %d", i + 1, flag);
        CHECK_MSG(got == vals[i], "C pointer %d: MPI_Attr_get expected %p, got %p", i + 1, vals[i],
                  got);
    }
    /* The structs, read through the pointers C gets back. */
    for (int i = 0; i < 2; i++) {
        struct payload *p = NULL;
        int flag = 0;
        CHECK_OK(MPI_Comm_get_attr(comm, (int)kvs[i], &p, &flag));
        if (flag && p == vals[i]) {
            const struct payload *want = i == 0 ? &static_payload : heap_payload;
            CHECK_EQ_INT(p->a, want->a);
            CHECK_MSG(p->b == want->b, "struct %d: b expected %g, got %g", i + 1, want->b, p->b);
            CHECK_EQ_STR(p->text, want->text);
        }
    }
}

/* Replaces an attribute from C with the integer v cast to a pointer; C reads that pointer. */
void c_set_int_pointer_(MPI_Fint *fcomm, MPI_Fint *kv, MPI_Aint *v)
{
    void *got = SENTINEL_HANDLE(void *);
    int flag = -1;
    CHECK_OK(MPI_Comm_set_attr(MPI_Comm_f2c(*fcomm), (int)*kv, IPTR(*v)));
    CHECK_OK(MPI_Comm_get_attr(MPI_Comm_f2c(*fcomm), (int)*kv, &got, &flag));
    CHECK_MSG(flag == 1 && got == IPTR(*v),
              "C pointer over a Fortran value, keyval %d: C get expected %p, got %p (flag %d)",
              (int)*kv, IPTR(*v), got, flag);
}

/* Gets a Fortran-stored value from C (MPI_*_get_attr twice, and MPI_Attr_get for comms):
 * flag true, always the same pointer, pointing at `want`. Returns the pointer or NULL. */
static void *read_fortran_value(int kind, MPI_Fint handle, int kv, const char *what)
{
    void *p = SENTINEL_HANDLE(void *), *again = SENTINEL_HANDLE(void *);
    int flag = -1;
    CHECK_OK(get_attr(kind, handle, kv, &p, &flag));
    CHECK_MSG(flag == 1, "%s on a %s, keyval %d: C get flag expected 1, got %d", what,
              obj_name(kind), kv, flag);
    if (flag != 1 || p == NULL || p == SENTINEL_HANDLE(void *)) {
        CHECK_MSG(0, "%s on a %s, keyval %d: C got no usable pointer (%p)", what, obj_name(kind),
                  kv, p);
        return NULL;
    }
    flag = -1;
    CHECK_OK(get_attr(kind, handle, kv, &again, &flag));
    CHECK_MSG(flag == 1 && again == p,
              "%s on a %s, keyval %d: second C get expected the same pointer %p, got %p (flag %d)",
              what, obj_name(kind), kv, p, again, flag);
    if (kind == OBJ_COMM) {
        again = SENTINEL_HANDLE(void *);
        flag = -1;
        CHECK_OK(MPI_Attr_get(MPI_Comm_f2c(handle), kv, &again, &flag));
        CHECK_MSG(flag == 1 && again == p,
                  "%s, keyval %d: MPI_Attr_get expected the same pointer %p, got %p (flag %d)",
                  what, kv, p, again, flag);
    }
    return p;
}

/* An address value: C reads a pointer to an MPI_Aint holding *want. */
void c_read_aint_(MPI_Fint *kind, MPI_Fint *handle, MPI_Fint *kv, MPI_Aint *want, MPI_Fint *slot)
{
    REQUIRE(*slot >= 0 && *slot < NSLOTS);
    void *p = read_fortran_value((int)*kind, *handle, (int)*kv, "Fortran address value");
    if (p != NULL)
        CHECK_MSG(*(MPI_Aint *)p == *want,
                  "Fortran address value on a %s, keyval %d: C reads *(MPI_Aint*)p = %lld, "
                  "expected %lld",
                  obj_name((int)*kind), (int)*kv, (long long)*(MPI_Aint *)p, (long long)*want);
    saved[*slot] = (struct saved_ptr){p != NULL, (int)*kind, (int)*kv, 1, *handle, p, *want, 0};
}

/* An INTEGER value: C reads a pointer to an MPI_Fint holding *want. */
void c_read_fint_(MPI_Fint *kind, MPI_Fint *handle, MPI_Fint *kv, MPI_Fint *want, MPI_Fint *slot)
{
    REQUIRE(*slot >= 0 && *slot < NSLOTS);
    void *p = read_fortran_value((int)*kind, *handle, (int)*kv, "Fortran INTEGER value");
    if (p != NULL)
        CHECK_MSG(*(MPI_Fint *)p == *want,
                  "Fortran INTEGER value on a %s, keyval %d: C reads *(MPI_Fint*)p = %lld, "
                  "expected %lld",
                  obj_name((int)*kind), (int)*kv, (long long)*(MPI_Fint *)p, (long long)*want);
    saved[*slot] = (struct saved_ptr){p != NULL, (int)*kind, (int)*kv, 0, *handle, p, 0, *want};
}

void c_forget_(MPI_Fint *slot) { saved[*slot].used = 0; }

void c_forget_all_(void)
{
    memset(saved, 0, sizeof saved);
    munmap(heap_payload, HEAP_BYTES); /* only its address is still stored, never read again */
    heap_payload = NULL;
}

/* Every saved pointer still holds its value, and a new get still gives the same pointer. */
void c_recheck_saved_(void)
{
    for (int i = 0; i < NSLOTS; i++) {
        if (!saved[i].used)
            continue;
        void *p = saved[i].ptr, *again = SENTINEL_HANDLE(void *);
        int flag = -1;
        if (saved[i].is_aint)
            CHECK_MSG(*(MPI_Aint *)p == saved[i].aval,
                      "slot %d (keyval %d): saved pointer now reads %lld, expected %lld", i,
                      saved[i].kv, (long long)*(MPI_Aint *)p, (long long)saved[i].aval);
        else
            CHECK_MSG(*(MPI_Fint *)p == saved[i].ival,
                      "slot %d (keyval %d): saved pointer now reads %lld, expected %lld", i,
                      saved[i].kv, (long long)*(MPI_Fint *)p, (long long)saved[i].ival);
        CHECK_OK(get_attr(saved[i].kind, saved[i].handle, saved[i].kv, &again, &flag));
        CHECK_MSG(flag == 1 && again == p,
                  "slot %d (keyval %d): C get now gives %p (flag %d), expected the same pointer %p",
                  i, saved[i].kv, again, flag, p);
    }
}
