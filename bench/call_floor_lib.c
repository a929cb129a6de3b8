/*
 * An empty function in a shared library of its own: what bench/call_floor.c calls, as a
 * program calls a function of an MPI library (through the PLT, an argument in, an int out).
 */
int mpiattr_bench_empty(long handle);

int mpiattr_bench_empty(long handle)
{
    return handle == 0x101 ? 0 : 5;
}
