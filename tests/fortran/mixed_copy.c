/*
 * C half of mixed_copy (the program is mixed_copy.f90): creates C keyvals (the DUP_FN, or a
 * copy callback that returns the very pointer it was given), duplicates objects from C, and
 * reads Fortran-tagged values and their copies through the C getters. Pointers C got are kept
 * in numbered slots so the Fortran side can ask whether two are distinct (copies own their
 * storage) and whether one still holds its value later.
 */
#include "check.h"

enum { OBJ_COMM = 1, OBJ_TYPE = 2 };
enum { C_DUP_FN = 1, C_COPY_SAME = 2 };

static const char *obj_name(int kind) { return kind == OBJ_COMM ? "comm" : "datatype"; }

struct payload {
    int a;
    char text[16];
};
static struct payload payload = {4711, "payload"};

#define NSLOTS 8
struct slot {
    int used, kind, kv, is_aint;
    MPI_Fint handle;
    void *ptr;
    MPI_Aint aval;
    MPI_Fint ival;
};
static struct slot slots[NSLOTS + 1];

void c_failures_(MPI_Fint *n) { *n = (MPI_Fint)atomic_load(&check_failures); }

static int get_attr(int kind, MPI_Fint h, int kv, void *val, int *flag)
{
    if (kind == OBJ_COMM)
        return MPI_Comm_get_attr(MPI_Comm_f2c(h), kv, val, flag);
    return MPI_Type_get_attr(MPI_Type_f2c(h), kv, val, flag);
}

/*
 * The copy callback that hands back its input. extra_state is the number of the slot where
 * the Fortran side saved the source's C view: the input must be a pointer holding that value
 * (attributes.md §4: a C callback gets the C view), and the same pointer *_get_attr gave
 * (docs/semantics.md).
 */
static int copy_same_calls;

static void check_copy_input(int kv, void *extra, void *in)
{
    copy_same_calls++;
    int s = (int)PTRI(extra);
    REQUIRE(s >= 1 && s <= NSLOTS);
    if (!slots[s].used || slots[s].kv != kv) {
        CHECK_MSG(0, "copy callback, keyval %d: slot %d does not hold its source's view", kv, s);
        return;
    }
    CHECK_MSG(in != NULL, "copy callback, keyval %d: input pointer is NULL", kv);
    if (in == NULL)
        return;
    if (slots[s].is_aint)
        CHECK_MSG(*(MPI_Aint *)in == slots[s].aval,
                  "copy callback, keyval %d: input points at %lld, expected the MPI_Aint %lld", kv,
                  (long long)*(MPI_Aint *)in, (long long)slots[s].aval);
    else
        CHECK_MSG(*(MPI_Fint *)in == slots[s].ival,
                  "copy callback, keyval %d: input points at %lld, expected the MPI_Fint %lld", kv,
                  (long long)*(MPI_Fint *)in, (long long)slots[s].ival);
    CHECK_MSG(in == slots[s].ptr,
              "copy callback, keyval %d: input %p is not the pointer MPI_*_get_attr gives (%p)",
              kv, in, slots[s].ptr);
}

static int comm_copy_same(MPI_Comm old, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)old;
    check_copy_input(kv, extra, in);
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int type_copy_same(MPI_Datatype old, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)old;
    check_copy_input(kv, extra, in);
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

void c_copy_same_calls_(MPI_Fint *n) { *n = copy_same_calls; }

/* A keyval created in C: copy C_DUP_FN or C_COPY_SAME (extra_state: slot), no delete. */
void c_create_keyval_(MPI_Fint *kind, MPI_Fint *copy, MPI_Fint *slot, MPI_Fint *fkv)
{
    int kv = MPI_KEYVAL_INVALID;
    void *extra = IPTR(*slot);
    if (*kind == OBJ_COMM)
        CHECK_OK(MPI_Comm_create_keyval(*copy == C_DUP_FN ? MPI_COMM_DUP_FN : comm_copy_same,
                                        MPI_COMM_NULL_DELETE_FN, &kv, extra));
    else
        CHECK_OK(MPI_Type_create_keyval(*copy == C_DUP_FN ? MPI_TYPE_DUP_FN : type_copy_same,
                                        MPI_TYPE_NULL_DELETE_FN, &kv, extra));
    *fkv = kv;
}

/* Duplicates an object from C. */
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

/* C gets a Fortran-tagged value: flag true, the same pointer on a second get (and from
 * MPI_Attr_get on a communicator). */
static void *view(int kind, MPI_Fint h, int kv)
{
    void *p = SENTINEL_HANDLE(void *), *again = SENTINEL_HANDLE(void *);
    int flag = -1;
    CHECK_OK(get_attr(kind, h, kv, &p, &flag));
    if (flag != 1 || p == NULL || p == SENTINEL_HANDLE(void *)) {
        CHECK_MSG(0, "%s keyval %d: C get expected flag 1 and a pointer, got flag %d, %p",
                  obj_name(kind), kv, flag, p);
        return NULL;
    }
    CHECK_OK(get_attr(kind, h, kv, &again, &flag));
    CHECK_MSG(again == p, "%s keyval %d: second C get expected the same pointer %p, got %p",
              obj_name(kind), kv, p, again);
    if (kind == OBJ_COMM) {
        again = SENTINEL_HANDLE(void *);
        CHECK_OK(MPI_Attr_get(MPI_Comm_f2c(h), kv, &again, &flag));
        CHECK_MSG(again == p, "comm keyval %d: MPI_Attr_get expected the same pointer %p, got %p",
                  kv, p, again);
    }
    return p;
}

/* An address value: a pointer to an MPI_Aint holding *want; saved in *slot. */
void c_view_aint_(MPI_Fint *kind, MPI_Fint *h, MPI_Fint *kv, MPI_Aint *want, MPI_Fint *slot)
{
    REQUIRE(*slot >= 1 && *slot <= NSLOTS);
    void *p = view((int)*kind, *h, (int)*kv);
    if (p != NULL)
        CHECK_MSG(*(MPI_Aint *)p == *want,
                  "%s keyval %d (slot %d): C reads *(MPI_Aint*)p = %lld, expected %lld",
                  obj_name((int)*kind), (int)*kv, (int)*slot, (long long)*(MPI_Aint *)p,
                  (long long)*want);
    slots[*slot] = (struct slot){p != NULL, (int)*kind, (int)*kv, 1, *h, p, *want, 0};
}

/* An INTEGER value: a pointer to an MPI_Fint holding *want; saved in *slot. */
void c_view_fint_(MPI_Fint *kind, MPI_Fint *h, MPI_Fint *kv, MPI_Fint *want, MPI_Fint *slot)
{
    REQUIRE(*slot >= 1 && *slot <= NSLOTS);
    void *p = view((int)*kind, *h, (int)*kv);
    if (p != NULL)
        CHECK_MSG(*(MPI_Fint *)p == *want,
                  "%s keyval %d (slot %d): C reads *(MPI_Fint*)p = %lld, expected %lld",
                  obj_name((int)*kind), (int)*kv, (int)*slot, (long long)*(MPI_Fint *)p,
                  (long long)*want);
    slots[*slot] = (struct slot){p != NULL, (int)*kind, (int)*kv, 0, *h, p, 0, *want};
}

/* Two attributes' C views do not share storage. */
void c_distinct_(MPI_Fint *s1, MPI_Fint *s2)
{
    struct slot *a = &slots[*s1], *b = &slots[*s2];
    if (!a->used || !b->used)
        return; /* view() already reported the missing pointer */
    CHECK_MSG(a->ptr != b->ptr,
              "%s keyval %d, handles %lld and %lld: C views share the pointer %p (slots %d, %d)",
              obj_name(a->kind), a->kv, (long long)a->handle, (long long)b->handle, a->ptr,
              (int)*s1, (int)*s2);
}

/* A saved view still holds its value, and a fresh get gives the same pointer. */
void c_recheck_(MPI_Fint *s)
{
    struct slot *a = &slots[*s];
    if (!a->used)
        return;
    if (a->is_aint)
        CHECK_MSG(*(MPI_Aint *)a->ptr == a->aval,
                  "slot %d: saved pointer now reads %lld, expected %lld", (int)*s,
                  (long long)*(MPI_Aint *)a->ptr, (long long)a->aval);
    else
        CHECK_MSG(*(MPI_Fint *)a->ptr == a->ival,
                  "slot %d: saved pointer now reads %lld, expected %lld", (int)*s,
                  (long long)*(MPI_Fint *)a->ptr, (long long)a->ival);
    void *again = SENTINEL_HANDLE(void *);
    int flag = -1;
    CHECK_OK(get_attr(a->kind, a->handle, a->kv, &again, &flag));
    CHECK_MSG(flag == 1 && again == a->ptr,
              "slot %d: C get now gives %p (flag %d), expected the saved pointer %p", (int)*s,
              again, flag, a->ptr);
}

void c_forget_all_(void) { memset(slots, 0, sizeof slots); }

/* Stores &payload (a C pointer) and gives its integer value to Fortran. */
void c_set_struct_(MPI_Fint *kind, MPI_Fint *h, MPI_Fint *kv, MPI_Aint *addr)
{
    if (*kind == OBJ_COMM)
        CHECK_OK(MPI_Comm_set_attr(MPI_Comm_f2c(*h), (int)*kv, &payload));
    else
        CHECK_OK(MPI_Type_set_attr(MPI_Type_f2c(*h), (int)*kv, &payload));
    *addr = (MPI_Aint)(intptr_t)&payload;
}

/* A copy of &payload: C gets the pointer itself and reads the struct through it. */
void c_view_struct_(MPI_Fint *kind, MPI_Fint *h, MPI_Fint *kv)
{
    struct payload *p = SENTINEL_HANDLE(struct payload *);
    int flag = -1;
    CHECK_OK(get_attr((int)*kind, *h, (int)*kv, &p, &flag));
    CHECK_MSG(flag == 1 && p == &payload,
              "%s keyval %d: copied C pointer reads %p (flag %d), expected %p",
              obj_name((int)*kind), (int)*kv, (void *)p, flag, (void *)&payload);
    if (flag == 1 && p == &payload) {
        CHECK_EQ_INT(p->a, 4711);
        CHECK_EQ_STR(p->text, "payload");
    }
}
