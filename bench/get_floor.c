/*
 * The floor under a get: bench/get_floor_lib.c's C model of the checks MPI_Comm_get_attr must
 * make, timed in the loop bench/attrs.c times mpiattr's get in (1 attribute set, its value
 * read), 10^4 live keyvals in the model's registry. No MPI call is made; ci/bench prints the
 * figure beside mpiattr's get row.
 * Output, one line: "get_floor 1 ns".
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>

#include "get_floor.h"
#include "timing.h"

#define LIVE_KEYVALS 10000

struct loop {
    uintptr_t comm;
    int keyval;
};

static volatile intptr_t sink;

static void get_set(void *p, long count)
{
    struct loop *l = p;
    for (long i = 0; i < count; i++) {
        void *v;
        int flag;
        mpiattr_floor_get(l->comm, l->keyval, &v, &flag);
        sink += (intptr_t)v;
    }
}

int main(void)
{
    static struct state state;
    static struct object objects[4];
    static struct keyval keyvals[LIVE_KEYVALS];
    static struct entry attrs[1];
    for (int i = 0; i < LIVE_KEYVALS; i++)
        keyvals[i] = (struct keyval){1, 1, 0};
    int keyval = 1 << 21 | 0; /* generation 1, slot 0 */
    attrs[0] = (struct entry){1, (uint32_t)keyval, 0};
    objects[2] = (struct object){3, 1, attrs, 1};
    state = (struct state){0, objects, 4, keyvals, LIVE_KEYVALS};
    mpiattr_floor_state = &state;
    mpiattr_floor_own();
    struct loop l = {(uintptr_t)3 << 36 | 2 << 4 | 1, keyval};
    void *v = NULL;
    int flag = 0;
    if (mpiattr_floor_get(l.comm, l.keyval, &v, &flag) != 0 || flag != 1 || v != (void *)1) {
        fprintf(stderr, "get_floor: the model does not find its attribute\n");
        return 1;
    }
    printf("get_floor 1 %.2f\n", measure(get_set, &l, 1));
    return 0;
}
