/*
 * The layout of bench/get_floor_lib.c's C model of a get (see there), shared with
 * bench/get_floor.c, which fills it and times the model.
 */
#ifndef MPIATTR_BENCH_GET_FLOOR_H
#define MPIATTR_BENCH_GET_FLOOR_H

#include <stddef.h>
#include <stdint.h>

struct entry {
    uint64_t word;
    uint32_t keyval;
    uint32_t meta; /* low 2 bits: the value's tag, 0 = C */
};

struct object {
    uint32_t generation;
    uint32_t alive;
    struct entry *attrs;
    size_t count;
};

struct keyval {
    uint16_t generation;
    uint8_t alive;
    uint8_t kind; /* 0 = communicator */
};

struct state {
    uintptr_t owner;
    struct object *objects;
    size_t nobjects;
    struct keyval *keyvals;
    size_t nkeyvals;
};

extern struct state *mpiattr_floor_state;
/* Makes the calling thread the owner of the model's state. */
void mpiattr_floor_own(void);
/* The model's MPI_Comm_get_attr: 0 when it answers, 1 for "go the whole way". */
int mpiattr_floor_get(uintptr_t comm, int keyval, void *value, int *flag);

#endif
