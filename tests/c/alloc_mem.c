/*
 * Memory the library allocates (docs/semantics.md, "Memory"): MPI_Alloc_mem and
 * MPI_Win_allocate return zeroed memory that costs nothing until it is touched, as malloc's
 * does: a gigabyte adds less than 32 MiB to the resident set. Before this was fixed the library
 * wrote every byte: 1 GB took 2.2 s and 978 MB of resident memory at once. A size the system
 * refuses fails with MPI_ERR_NO_MEM and writes no output.
 *
 * Under valgrind (MPIATTR_CHECK_MEMORY set by ci/check-memory), whose allocator writes what it
 * hands out, the sizes are smaller and the resident-set checks are skipped.
 */
#include "check.h"

#include <unistd.h>

/* The resident set in bytes, from /proc/self/statm. */
static long long resident(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long long pages_total = 0, pages_resident = -1;
    if (f != NULL) {
        if (fscanf(f, "%lld %lld", &pages_total, &pages_resident) != 2)
            pages_resident = -1;
        fclose(f);
    }
    REQUIRE(pages_resident >= 0);
    return pages_resident * (long long)sysconf(_SC_PAGESIZE);
}

/* Zeroed where looked at (a few pages spread over the block), and writable. */
static void check_zeroed(unsigned char *base, size_t size, const char *what)
{
    const size_t step = size / 8 > 0 ? size / 8 : 1;
    for (size_t at = 0; at < size; at += step) {
        CHECK_MSG(base[at] == 0, "%s: byte %zu is %d", what, at, base[at]);
        base[at] = 0xab;
    }
    CHECK_MSG(base[size - 1] == 0, "%s: the last byte is %d", what, base[size - 1]);
    CHECK_MSG(((uintptr_t)base & 15) == 0, "%s: %p is not 16-byte aligned", what, (void *)base);
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    const int under_valgrind = getenv("MPIATTR_CHECK_MEMORY") != NULL;
    const MPI_Aint size = under_valgrind ? (MPI_Aint)1 << 24 : (MPI_Aint)1 << 30;
    const long long slack = 32LL << 20;

    long long before = resident();
    unsigned char *mem = NULL;
    CHECK_OK(MPI_Alloc_mem(size, MPI_INFO_NULL, &mem));
    REQUIRE(mem != NULL);
    long long after = resident();
    if (!under_valgrind)
        CHECK_MSG(after - before < slack, "MPI_Alloc_mem(%lld): resident set grew by %lld bytes",
                  (long long)size, after - before);
    check_zeroed(mem, (size_t)size, "MPI_Alloc_mem");

    before = resident();
    unsigned char *base = NULL;
    MPI_Win win;
    CHECK_OK(MPI_Win_allocate(size, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    REQUIRE(base != NULL);
    after = resident();
    if (!under_valgrind)
        CHECK_MSG(after - before < slack,
                  "MPI_Win_allocate(%lld): resident set grew by %lld bytes", (long long)size,
                  after - before);
    check_zeroed(base, (size_t)size, "MPI_Win_allocate");
    CHECK_OK(MPI_Win_free(&win));
    CHECK_OK(MPI_Free_mem(mem));

    /* Sizes no system grants: 2^60 bytes (more than any address space) and the largest
       MPI_Aint. */
    if (!under_valgrind) {
        const MPI_Aint huge[] = {(MPI_Aint)1 << 60, PTRDIFF_MAX};
        for (int i = 0; i < 2; i++) {
            struct outs o;
            CHECK_FAILS("a size no system grants", o,
                        MPI_Alloc_mem(huge[i], MPI_INFO_NULL, &o.ptr), MPI_ERR_NO_MEM);
            CHECK_FAILS_NEW("a size no system grants", o,
                            MPI_Win_allocate(huge[i], 1, MPI_INFO_NULL, MPI_COMM_WORLD, &o.ptr,
                                             &o.win),
                            MPI_ERR_NO_MEM);
        }
    }
    /* Zero bytes: a valid, distinct address each time. */
    void *z1 = NULL, *z2 = NULL;
    CHECK_OK(MPI_Alloc_mem(0, MPI_INFO_NULL, &z1));
    CHECK_OK(MPI_Alloc_mem(0, MPI_INFO_NULL, &z2));
    CHECK(z1 != NULL && z2 != NULL && z1 != z2);
    CHECK_OK(MPI_Free_mem(z1));
    CHECK_OK(MPI_Free_mem(z2));
    CHECK_OK(MPI_Finalize());
    return test_finish("alloc_mem");
}
