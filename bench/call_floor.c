/*
 * The floor of any MPI call on this machine: calls of an empty function in a shared library
 * (bench/call_floor_lib.c, built by ci/bench as libcallfloor.so), through the PLT as a program
 * calls MPI_Barrier. No MPI call is made; ci/bench prints the figure beside the rows of the
 * calls that do little more (MPI_Barrier, MPI_Bcast on one process).
 *
 * Figure, one line: "call_floor 0 ns".
 */
#define _POSIX_C_SOURCE 200809L
#include "timing.h"

int mpiattr_bench_empty(long handle);

static void calls(void *state, long count)
{
    long handle = *(long *)state;
    for (long i = 0; i < count; i++) {
        int rc = mpiattr_bench_empty(handle);
        __asm__ volatile("" : : "r"(rc) : "memory");
    }
}

int main(void)
{
    long handle = 0x101;
    printf("call_floor 0 %.2f\n", measure(calls, &handle, 1));
    return 0;
}
