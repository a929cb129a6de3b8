/*
 * A C model of the checks MPI_Comm_create_keyval and MPI_Comm_free_keyval must make
 * (attributes.md §2, docs/semantics.md) for a keyval without callbacks, on the plainest layout
 * that holds them, in a shared library of its own so that it is called as a program calls MPI
 * (through the PLT): the floor under mpiattr's keyval create + free, which
 * bench/keyval_floor.c times and ci/bench prints beside mpiattr's row. It makes every check
 * mpiattr's fast paths make and keeps every promise they keep, and nothing else:
 *   - create: no callbacks (the copy function MPI_COMM_NULL_COPY_FN or MPI_COMM_DUP_FN, the
 *     delete function MPI_COMM_NULL_DELETE_FN), the output pointer non-NULL;
 *   - both: the library open (one pointer), the single-thread gate (the owner is the calling
 *     thread);
 *   - create: a slot freed at least 1,024 creates ago, oldest first (so that a freed keyval's
 *     number comes back only after 1,024 others, times its slot's generations: the stale
 *     keyval detection of docs/semantics.md), its next generation (wrapping at the limit);
 *   - free: the pointer non-NULL, the keyval's slot in the table, and in one comparison its
 *     number (slot and generation), its kind, no callback and no attribute holding it; the
 *     slot back on the free ring, MPI_KEYVAL_INVALID written back.
 * What C leaves unchecked and safe Rust checks (a ring position and a slot number the library
 * made itself, within their arrays) is left unchecked here. Every other case returns 1 ("go
 * the whole way"), which the benchmark never takes.
 */
#include "keyval_floor.h"

#define SLOT_BITS 21
#define SLOT_MASK ((1u << SLOT_BITS) - 1)
#define REUSE_DELAY 1024
#define KIND_COMM ((uint64_t)1 << 32)
#define NO_CALLBACK ((uint64_t)1 << 34)

struct keyval_state *mpiattr_floor_keyvals;

static uintptr_t this_thread(void)
{
    return (uintptr_t)__builtin_thread_pointer();
}

void mpiattr_floor_keyvals_own(void)
{
    mpiattr_floor_keyvals->owner = this_thread();
}

int mpiattr_floor_create_keyval(uintptr_t copy, uintptr_t delete, int *keyval, void *extra)
{
    (void)extra; /* without callbacks, nothing uses it */
    if ((copy >> 1 | delete) != 0 || keyval == NULL)
        return 1;
    struct keyval_state *s = mpiattr_floor_keyvals;
    if (s == NULL || s->owner != this_thread())
        return 1;
    if (__builtin_expect(s->tail - s->head <= REUSE_DELAY, 0))
        return 1;
    uint32_t slot = s->ring[s->head & s->mask];
    s->head++;
    struct keyval_slot *k = &s->slots[slot];
    uint32_t number = (uint32_t)k->key + (1u << SLOT_BITS);
    if (__builtin_expect(number >= s->limit, 0))
        number = (number & SLOT_MASK) | 1u << SLOT_BITS;
    k->copy = (uint32_t)(copy & 1);
    k->key = number | KIND_COMM | NO_CALLBACK;
    *keyval = (int)number;
    return 0;
}

int mpiattr_floor_free_keyval(int *keyval)
{
    if (keyval == NULL)
        return 1;
    struct keyval_state *s = mpiattr_floor_keyvals;
    if (s == NULL || s->owner != this_thread())
        return 1;
    uint32_t number = (uint32_t)*keyval;
    uint32_t slot = number & SLOT_MASK;
    if (__builtin_expect(slot >= s->nslots, 0))
        return 1;
    struct keyval_slot *k = &s->slots[slot];
    /* A held keyval has another bit set; a freed one kind 0. */
    if (__builtin_expect(k->key != (number | KIND_COMM | NO_CALLBACK), 0))
        return 1;
    s->ring[s->tail & s->mask] = slot;
    s->tail++;
    k->key = number;
    *keyval = 0; /* MPI_KEYVAL_INVALID */
    return 0;
}
