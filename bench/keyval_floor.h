/*
 * The layout of bench/keyval_floor_lib.c's C model of a keyval's create and free (see there),
 * shared with bench/keyval_floor.c, which fills it and times the model.
 */
#ifndef MPIATTR_BENCH_KEYVAL_FLOOR_H
#define MPIATTR_BENCH_KEYVAL_FLOOR_H

#include <stddef.h>
#include <stdint.h>

/* A keyval's slot. */
struct keyval_slot {
    /* Low 32 bits: the number last given (slot in the low 21 bits, generation above; it
     * stays when the keyval goes). Bits 32-33: the kind (0: no keyval, 1: communicator). Bit
     * 34: no callback. Bit 35: an attribute holds it. */
    uint64_t key;
    /* 1 if the copy action is MPI_COMM_DUP_FN. */
    uint32_t copy;
};

struct keyval_state {
    uintptr_t owner;
    struct keyval_slot *slots;
    size_t nslots;
    /* The free slots, oldest first: positions head..tail of a ring of mask + 1 entries. */
    uint32_t *ring;
    size_t mask;
    size_t head;
    size_t tail;
    /* Numbers stay below this (generations wrap to 1). */
    uint32_t limit;
};

extern struct keyval_state *mpiattr_floor_keyvals;
/* Makes the calling thread the owner of the model's state. */
void mpiattr_floor_keyvals_own(void);
/* The model's MPI_Comm_create_keyval and MPI_Comm_free_keyval: 0 when it answers, 1 for "go
 * the whole way". The copy and delete functions are given as the C ABI's addresses: 0 is
 * MPI_COMM_NULL_COPY_FN and MPI_COMM_NULL_DELETE_FN, 1 MPI_COMM_DUP_FN. */
int mpiattr_floor_create_keyval(uintptr_t copy, uintptr_t delete, int *keyval, void *extra);
int mpiattr_floor_free_keyval(int *keyval);

#endif
