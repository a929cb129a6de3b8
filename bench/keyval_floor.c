/*
 * The floor under a keyval's create + free: bench/keyval_floor_lib.c's C model of the checks
 * MPI_Comm_create_keyval and MPI_Comm_free_keyval must make, timed in the loop bench/attrs.c
 * times mpiattr's pair in, with 10^4 live keyvals in the model's registry and its slots made
 * as mpiattr makes them (doubling from 64: 16,384). No MPI call is made; ci/bench prints the
 * figure beside mpiattr's keyval row.
 * Output, one line: "keyval_floor 0 ns".
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>

#include "keyval_floor.h"
#include "timing.h"

#define LIVE_KEYVALS 10000
#define SLOTS 16384

static void keyval_create_free(void *p, long count)
{
    (void)p;
    for (long i = 0; i < count; i++) {
        int k;
        mpiattr_floor_create_keyval(0, 0, &k, NULL);
        mpiattr_floor_free_keyval(&k);
    }
}

int main(void)
{
    static struct keyval_state state;
    static struct keyval_slot slots[SLOTS];
    static uint32_t ring[SLOTS];
    /* Generation 1 everywhere: the live keyvals' and the free slots' last numbers. */
    for (uint32_t i = 0; i < SLOTS; i++)
        slots[i] = (struct keyval_slot){1u << 21 | i, 0};
    for (uint32_t i = 0; i < LIVE_KEYVALS; i++)
        slots[i].key |= (uint64_t)1 << 32 | (uint64_t)1 << 34;
    for (uint32_t i = LIVE_KEYVALS; i < SLOTS; i++)
        ring[i - LIVE_KEYVALS] = i;
    state = (struct keyval_state){0, slots, SLOTS, ring, SLOTS - 1, 0, SLOTS - LIVE_KEYVALS,
                                  1u << 31};
    mpiattr_floor_keyvals = &state;
    mpiattr_floor_keyvals_own();
    int k = -1;
    if (mpiattr_floor_create_keyval(0, 0, &k, NULL) != 0 || k != (int)(2u << 21 | LIVE_KEYVALS)
        || mpiattr_floor_free_keyval(&k) != 0 || k != 0 || mpiattr_floor_free_keyval(&k) != 1) {
        fprintf(stderr, "keyval_floor: the model does not create and free its keyval\n");
        return 1;
    }
    printf("keyval_floor 0 %.2f\n", measure(keyval_create_free, NULL, 1));
    return 0;
}
