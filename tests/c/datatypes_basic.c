/*
 * Datatype basics: MPI_Type_size of predefined datatypes (C types against sizeof, pair types
 * as the sum of their parts), of contiguous types (nested, zero count, and beyond INT_MAX:
 * MPI_UNDEFINED), of dups; MPI_Type_commit of predefined and derived types; MPI_Type_dup of
 * predefined types gives a new, freeable datatype of the same size.
 */
#include "check.h"

#include <stdbool.h>
#include <stddef.h>

static void size_is(MPI_Datatype t, int expected, const char *name)
{
    int size = SENTINEL_INT;
    CHECK_OK(MPI_Type_size(t, &size));
    CHECK_MSG(size == expected, "MPI_Type_size(%s) = %d, expected %d", name, size, expected);
}

#define SIZE_IS(t, expected) size_is(t, (int)(expected), #t)

int main(int argc, char **argv)
{
    test_init(&argc, &argv);

    SIZE_IS(MPI_CHAR, sizeof(char));
    SIZE_IS(MPI_SIGNED_CHAR, sizeof(signed char));
    SIZE_IS(MPI_UNSIGNED_CHAR, sizeof(unsigned char));
    SIZE_IS(MPI_BYTE, 1);
    SIZE_IS(MPI_SHORT, sizeof(short));
    SIZE_IS(MPI_UNSIGNED_SHORT, sizeof(unsigned short));
    SIZE_IS(MPI_INT, sizeof(int));
    SIZE_IS(MPI_UNSIGNED, sizeof(unsigned));
    SIZE_IS(MPI_LONG, sizeof(long));
    SIZE_IS(MPI_UNSIGNED_LONG, sizeof(unsigned long));
    SIZE_IS(MPI_LONG_LONG, sizeof(long long));
    SIZE_IS(MPI_LONG_LONG_INT, sizeof(long long));
    SIZE_IS(MPI_UNSIGNED_LONG_LONG, sizeof(unsigned long long));
    SIZE_IS(MPI_FLOAT, sizeof(float));
    SIZE_IS(MPI_DOUBLE, sizeof(double));
    SIZE_IS(MPI_LONG_DOUBLE, sizeof(long double));
    SIZE_IS(MPI_WCHAR, sizeof(wchar_t));
    SIZE_IS(MPI_C_BOOL, sizeof(bool));
    SIZE_IS(MPI_INT8_T, 1);
    SIZE_IS(MPI_UINT8_T, 1);
    SIZE_IS(MPI_INT16_T, 2);
    SIZE_IS(MPI_UINT16_T, 2);
    SIZE_IS(MPI_INT32_T, 4);
    SIZE_IS(MPI_UINT32_T, 4);
    SIZE_IS(MPI_INT64_T, 8);
    SIZE_IS(MPI_UINT64_T, 8);
    SIZE_IS(MPI_AINT, sizeof(MPI_Aint));
    SIZE_IS(MPI_OFFSET, sizeof(MPI_Offset));
    SIZE_IS(MPI_COUNT, sizeof(MPI_Count));
    SIZE_IS(MPI_C_FLOAT_COMPLEX, 2 * sizeof(float));
    SIZE_IS(MPI_C_DOUBLE_COMPLEX, 2 * sizeof(double));
    SIZE_IS(MPI_C_LONG_DOUBLE_COMPLEX, 2 * sizeof(long double));
    SIZE_IS(MPI_2INT, 2 * sizeof(int));
    SIZE_IS(MPI_FLOAT_INT, sizeof(float) + sizeof(int));
    SIZE_IS(MPI_DOUBLE_INT, sizeof(double) + sizeof(int));
    SIZE_IS(MPI_LONG_INT, sizeof(long) + sizeof(int));
    SIZE_IS(MPI_SHORT_INT, sizeof(short) + sizeof(int));
    SIZE_IS(MPI_LONG_DOUBLE_INT, sizeof(long double) + sizeof(int));

    /* commit of predefined types */
    {
        MPI_Datatype t = MPI_INT;
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_EQ_HANDLE(t, MPI_INT);
    }

    /* contiguous */
    MPI_Datatype c10, c30, c0, huge_inner, huge;
    CHECK_OK(MPI_Type_contiguous(10, MPI_INT, &c10));
    SIZE_IS(c10, 10 * sizeof(int));
    CHECK_OK(MPI_Type_commit(&c10));
    SIZE_IS(c10, 10 * sizeof(int));
    CHECK_OK(MPI_Type_contiguous(3, c10, &c30));
    SIZE_IS(c30, 30 * sizeof(int));
    CHECK_OK(MPI_Type_contiguous(0, MPI_DOUBLE, &c0));
    SIZE_IS(c0, 0);
    CHECK_OK(MPI_Type_contiguous(1 << 12, MPI_DOUBLE, &huge_inner));
    SIZE_IS(huge_inner, (1 << 12) * sizeof(double));
    CHECK_OK(MPI_Type_contiguous(1 << 20, huge_inner, &huge)); /* 2^35 bytes */
    {
        int size = SENTINEL_INT;
        CHECK_OK(MPI_Type_size(huge, &size));
        CHECK_EQ_INT(size, MPI_UNDEFINED);
    }
    CHECK_NE_HANDLE(c10, c30);

    /* dup of predefined and derived types */
    MPI_Datatype di, dc;
    CHECK_OK(MPI_Type_dup(MPI_INT, &di));
    CHECK_NE_HANDLE(di, MPI_INT);
    SIZE_IS(di, sizeof(int));
    CHECK_OK(MPI_Type_commit(&di));
    CHECK_OK(MPI_Type_dup(c30, &dc));
    SIZE_IS(dc, 30 * sizeof(int));
    /* freeing the original leaves the dup and the derived types intact */
    CHECK_OK(MPI_Type_free(&c10));
    CHECK_EQ_HANDLE(c10, MPI_DATATYPE_NULL);
    SIZE_IS(c30, 30 * sizeof(int));
    SIZE_IS(dc, 30 * sizeof(int));

    CHECK_OK(MPI_Type_free(&di));
    CHECK_OK(MPI_Type_free(&dc));
    CHECK_OK(MPI_Type_free(&c30));
    CHECK_OK(MPI_Type_free(&c0));
    CHECK_OK(MPI_Type_free(&huge));
    CHECK_OK(MPI_Type_free(&huge_inner));
    CHECK_EQ_HANDLE(huge_inner, MPI_DATATYPE_NULL);

    REQUIRE_OK(MPI_Finalize());
    return test_finish("datatypes_basic");
}
