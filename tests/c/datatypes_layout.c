/*
 * The type engine of one process (issue 14 part 1, item 1), with MPI_ERRORS_RETURN, exact
 * values throughout:
 * - size, extent, lb, true_lb, true_extent (and the _x forms) of contiguous, vector,
 *   hvector, indexed, hindexed, indexed_block, hindexed_block, struct, subarray (C and
 *   Fortran order), resized (lb/extent set, true extent kept) and dup;
 * - get_envelope/get_contents: the combiner and the counts of each constructor, the
 *   arguments given back, predefined children returned as themselves and derived children
 *   as new handles to free (a predefined type's combiner is MPI_COMBINER_NAMED, and
 *   get_contents on it fails with MPI_ERR_TYPE);
 * - Pack/Unpack/Pack_size with a strided type (position advances by the packed size),
 *   Pack_external("external32") writes big-endian bytes;
 * - Get_address, Aint_add, Aint_diff, MPI_BOTTOM with absolute addresses in a struct type;
 * - Type_match_size and Type_create_f90_integer;
 * - errors: negative counts (MPI_ERR_COUNT), MPI_DATATYPE_NULL (MPI_ERR_TYPE), a too-small
 *   pack buffer (MPI_ERR_TRUNCATE), outputs untouched.
 */
#include "check.h"

#include <stddef.h>

static void layout(MPI_Datatype t, MPI_Count size, MPI_Aint lb, MPI_Aint extent, MPI_Aint tlb,
                   MPI_Aint textent, const char *what)
{
    int s = -1;
    MPI_Aint l = -1, e = -1, tl = -1, te = -1;
    CHECK_OK(MPI_Type_size(t, &s));
    CHECK_OK(MPI_Type_get_extent(t, &l, &e));
    CHECK_OK(MPI_Type_get_true_extent(t, &tl, &te));
    CHECK_MSG(s == size && l == lb && e == extent && tl == tlb && te == textent,
              "%s: size %d lb %ld extent %ld true_lb %ld true_extent %ld, expected %lld %ld %ld "
              "%ld %ld",
              what, s, (long)l, (long)e, (long)tl, (long)te, (long long)size, (long)lb,
              (long)extent, (long)tlb, (long)textent);
    MPI_Count sx = -1, lx = -1, ex = -1, tlx = -1, tex = -1;
    CHECK_OK(MPI_Type_size_x(t, &sx));
    CHECK_OK(MPI_Type_get_extent_x(t, &lx, &ex));
    CHECK_OK(MPI_Type_get_true_extent_x(t, &tlx, &tex));
    CHECK_MSG(sx == size && lx == lb && ex == extent && tlx == tlb && tex == textent,
              "%s: _x forms differ", what);
}

static void envelope(MPI_Datatype t, int combiner, int ni, int na, int nd, const char *what)
{
    int i = -1, a = -1, d = -1, c = -1;
    CHECK_OK(MPI_Type_get_envelope(t, &i, &a, &d, &c));
    CHECK_MSG(c == combiner && i == ni && a == na && d == nd,
              "%s: envelope %d/%d/%d combiner %d, expected %d/%d/%d combiner %d", what, i, a, d, c,
              ni, na, nd, combiner);
}

static void constructors(void)
{
    MPI_Datatype t, u;
    const MPI_Aint I = (MPI_Aint)sizeof(int), D = (MPI_Aint)sizeof(double);

    CHECK_OK(MPI_Type_contiguous(3, MPI_INT, &t));
    layout(t, 3 * I, 0, 3 * I, 0, 3 * I, "contiguous");
    envelope(t, MPI_COMBINER_CONTIGUOUS, 1, 0, 1, "contiguous");
    int ints[8];
    MPI_Aint aints[8];
    MPI_Datatype types[4];
    CHECK_OK(MPI_Type_get_contents(t, 1, 0, 1, ints, aints, types));
    CHECK_EQ_INT(ints[0], 3);
    CHECK_EQ_HANDLE(types[0], MPI_INT);
    CHECK_OK(MPI_Type_free(&t));

    CHECK_OK(MPI_Type_vector(3, 2, 4, MPI_INT, &t));
    layout(t, 6 * I, 0, 10 * I, 0, 10 * I, "vector");
    envelope(t, MPI_COMBINER_VECTOR, 3, 0, 1, "vector");
    CHECK_OK(MPI_Type_get_contents(t, 3, 0, 1, ints, aints, types));
    CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 4);
    /* A derived child comes back as a new handle (to free); its layout is the child's. */
    CHECK_OK(MPI_Type_contiguous(2, t, &u));
    CHECK_OK(MPI_Type_get_contents(u, 1, 0, 1, ints, aints, types));
    CHECK_EQ_INT(ints[0], 2);
    layout(types[0], 6 * I, 0, 10 * I, 0, 10 * I, "vector from get_contents");
    envelope(types[0], MPI_COMBINER_VECTOR, 3, 0, 1, "vector from get_contents");
    CHECK_OK(MPI_Type_free(&types[0]));
    layout(u, 12 * I, 0, 20 * I, 0, 20 * I, "contiguous of vector");
    CHECK_OK(MPI_Type_free(&u));
    CHECK_OK(MPI_Type_free(&t));

    CHECK_OK(MPI_Type_vector(2, 1, -3, MPI_DOUBLE, &t));
    layout(t, 2 * D, -3 * D, 4 * D, -3 * D, 4 * D, "vector with negative stride");
    CHECK_OK(MPI_Type_free(&t));

    CHECK_OK(MPI_Type_create_hvector(2, 1, 3 * D, MPI_DOUBLE, &t));
    layout(t, 2 * D, 0, 4 * D, 0, 4 * D, "hvector");
    envelope(t, MPI_COMBINER_HVECTOR, 2, 1, 1, "hvector");
    CHECK_OK(MPI_Type_get_contents(t, 2, 1, 1, ints, aints, types));
    CHECK(ints[0] == 2 && ints[1] == 1 && aints[0] == 3 * D);
    CHECK_OK(MPI_Type_free(&t));

    int bl[3] = {1, 2, 1}, dp[3] = {4, 0, 7};
    CHECK_OK(MPI_Type_indexed(3, bl, dp, MPI_INT, &t));
    layout(t, 4 * I, 0, 8 * I, 0, 8 * I, "indexed");
    envelope(t, MPI_COMBINER_INDEXED, 7, 0, 1, "indexed");
    CHECK_OK(MPI_Type_get_contents(t, 7, 0, 1, ints, aints, types));
    CHECK(ints[0] == 3 && ints[1] == 1 && ints[2] == 2 && ints[3] == 1 && ints[4] == 4 &&
          ints[5] == 0 && ints[6] == 7);
    CHECK_OK(MPI_Type_free(&t));

    MPI_Aint hd[2] = {8, 40};
    int hbl[2] = {2, 1};
    CHECK_OK(MPI_Type_create_hindexed(2, hbl, hd, MPI_INT, &t));
    layout(t, 3 * I, 8, 32 + I, 8, 32 + I, "hindexed");
    envelope(t, MPI_COMBINER_HINDEXED, 3, 2, 1, "hindexed");
    CHECK_OK(MPI_Type_free(&t));

    int bd[2] = {5, 1};
    CHECK_OK(MPI_Type_create_indexed_block(2, 2, bd, MPI_INT, &t));
    layout(t, 4 * I, I, 6 * I, I, 6 * I, "indexed_block");
    envelope(t, MPI_COMBINER_INDEXED_BLOCK, 4, 0, 1, "indexed_block");
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Type_create_hindexed_block(2, 1, hd, MPI_DOUBLE, &t));
    layout(t, 2 * D, 8, 32 + D, 8, 32 + D, "hindexed_block");
    envelope(t, MPI_COMBINER_HINDEXED_BLOCK, 2, 2, 1, "hindexed_block");
    CHECK_OK(MPI_Type_free(&t));

    /* struct {char c; double d;}: the extent is padded to double's alignment. */
    struct cd {
        char c;
        double d;
    };
    int sbl[2] = {1, 1};
    MPI_Aint sd[2] = {offsetof(struct cd, c), offsetof(struct cd, d)};
    MPI_Datatype st[2] = {MPI_CHAR, MPI_DOUBLE};
    CHECK_OK(MPI_Type_create_struct(2, sbl, sd, st, &t));
    layout(t, 1 + D, 0, (MPI_Aint)sizeof(struct cd), 0, (MPI_Aint)sizeof(struct cd),
           "struct char+double");
    envelope(t, MPI_COMBINER_STRUCT, 3, 2, 2, "struct");
    CHECK_OK(MPI_Type_get_contents(t, 3, 2, 2, ints, aints, types));
    CHECK(ints[0] == 2 && ints[1] == 1 && ints[2] == 1);
    CHECK(aints[0] == 0 && aints[1] == (MPI_Aint)offsetof(struct cd, d));
    CHECK_EQ_HANDLE(types[0], MPI_CHAR);
    CHECK_EQ_HANDLE(types[1], MPI_DOUBLE);
    CHECK_OK(MPI_Type_free(&t));

    /* subarray 4x5 of ints, 2x3 starting at (1,2), C order: true lb (1*5+2) ints. */
    int sizes[2] = {4, 5}, subs[2] = {2, 3}, starts[2] = {1, 2};
    CHECK_OK(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t));
    layout(t, 6 * I, 0, 20 * I, 7 * I, 8 * I, "subarray C");
    envelope(t, MPI_COMBINER_SUBARRAY, 8, 0, 1, "subarray");
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_FORTRAN, MPI_INT, &t));
    /* Fortran order: the first index varies fastest; (1,2) is offset 1 + 2*4 = 9 ints; the
       last element (2,4) is 2 + 4*4 = 18. */
    layout(t, 6 * I, 0, 20 * I, 9 * I, 10 * I, "subarray Fortran");
    CHECK_OK(MPI_Type_free(&t));

    CHECK_OK(MPI_Type_create_resized(MPI_INT, -4, 16, &t));
    layout(t, I, -4, 16, 0, I, "resized");
    envelope(t, MPI_COMBINER_RESIZED, 0, 2, 1, "resized");
    CHECK_OK(MPI_Type_get_contents(t, 0, 2, 1, ints, aints, types));
    CHECK(aints[0] == -4 && aints[1] == 16);
    CHECK_OK(MPI_Type_dup(t, &u));
    layout(u, I, -4, 16, 0, I, "dup of resized");
    envelope(u, MPI_COMBINER_DUP, 0, 0, 1, "dup");
    CHECK_OK(MPI_Type_free(&u));
    CHECK_OK(MPI_Type_free(&t));

    /* Predefined types. */
    layout(MPI_DOUBLE, D, 0, D, 0, D, "MPI_DOUBLE");
    envelope(MPI_DOUBLE, MPI_COMBINER_NAMED, 0, 0, 0, "MPI_DOUBLE");
    /* get_contents of a named type is erroneous (MPI-4.1 chapter 5); we expect MPI_ERR_TYPE. */
    CHECK_RC(MPI_Type_get_contents(MPI_DOUBLE, 0, 0, 0, ints, aints, types), MPI_ERR_TYPE);
    layout(MPI_2INT, 2 * I, 0, 2 * I, 0, 2 * I, "MPI_2INT");
}

static void pack(void)
{
    MPI_Datatype v;
    CHECK_OK(MPI_Type_vector(3, 1, 2, MPI_INT, &v));
    CHECK_OK(MPI_Type_commit(&v));
    int src[6] = {1, -1, 2, -1, 3, -1}, dst[6] = {0, 0, 0, 0, 0, 0};
    int psize = -1;
    CHECK_OK(MPI_Pack_size(2, v, MPI_COMM_WORLD, &psize));
    CHECK(psize >= 6 * (int)sizeof(int));
    char buf[256];
    int pos = 0;
    CHECK_OK(MPI_Pack(src, 1, v, buf, (int)sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK(pos >= 3 * (int)sizeof(int) && pos <= psize);
    int first = pos;
    CHECK_OK(MPI_Pack(src, 2, MPI_INT, buf, (int)sizeof buf, &pos, MPI_COMM_WORLD));
    int end = pos;
    pos = 0;
    CHECK_OK(MPI_Unpack(buf, end, &pos, dst, 3, MPI_INT, MPI_COMM_WORLD));
    CHECK(dst[0] == 1 && dst[1] == 2 && dst[2] == 3);
    CHECK_EQ_INT(pos, first);
    int two[2] = {0, 0};
    CHECK_OK(MPI_Unpack(buf, end, &pos, two, 2, MPI_INT, MPI_COMM_WORLD));
    CHECK(two[0] == 1 && two[1] == -1);
    CHECK_EQ_INT(pos, end);
    /* Too small a buffer: MPI_ERR_TRUNCATE, position unchanged. */
    pos = 0;
    CHECK_RC(MPI_Pack(src, 1, v, buf, 4, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    CHECK_EQ_INT(pos, 0);

    /* external32: big-endian, 4-byte ints, whatever the machine. */
    unsigned char ext[16];
    MPI_Aint epos = 0, esize = -1;
    CHECK_OK(MPI_Pack_external_size("external32", 1, v, &esize));
    CHECK_EQ_INT(esize, 12);
    int vals[3] = {0x01020304, -1, 0x0a0b0c0d};
    CHECK_OK(MPI_Pack_external("external32", vals, 3, MPI_INT, ext, (MPI_Aint)sizeof ext,
                               &epos));
    CHECK_EQ_INT(epos, 12);
    CHECK(ext[0] == 1 && ext[1] == 2 && ext[2] == 3 && ext[3] == 4);
    CHECK(ext[4] == 0xff && ext[7] == 0xff);
    CHECK(ext[8] == 0x0a && ext[11] == 0x0d);
    int back[3] = {0, 0, 0};
    epos = 0;
    CHECK_OK(MPI_Unpack_external("external32", ext, 12, &epos, back, 3, MPI_INT));
    CHECK(back[0] == vals[0] && back[1] == -1 && back[2] == vals[2]);
    double dv = 1.0;
    epos = 0;
    CHECK_OK(MPI_Pack_external("external32", &dv, 1, MPI_DOUBLE, ext, 16, &epos));
    CHECK(epos == 8 && ext[0] == 0x3f && ext[1] == 0xf0 && ext[7] == 0);
    CHECK_OK(MPI_Type_free(&v));
}

static void addresses(void)
{
    int a[4] = {10, 20, 30, 40};
    double d = 2.5;
    MPI_Aint pa = 0, pa2 = 0, pd = 0;
    CHECK_OK(MPI_Get_address(&a[0], &pa));
    CHECK_OK(MPI_Get_address(&a[2], &pa2));
    CHECK_OK(MPI_Get_address(&d, &pd));
    CHECK_EQ_INT(MPI_Aint_diff(pa2, pa), 2 * (MPI_Aint)sizeof(int));
    CHECK_EQ_INT(MPI_Aint_add(pa, 2 * (MPI_Aint)sizeof(int)), pa2);
    /* A struct of absolute addresses used with MPI_BOTTOM. */
    int bl[2] = {2, 1};
    MPI_Aint disp[2] = {pa2, pd};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE}, abs_t;
    CHECK_OK(MPI_Type_create_struct(2, bl, disp, ty, &abs_t));
    CHECK_OK(MPI_Type_commit(&abs_t));
    struct {
        int i[2];
        double d;
    } out = {{0, 0}, 0.0};
    MPI_Aint o0 = 0, o1 = 0;
    CHECK_OK(MPI_Get_address(&out.i[0], &o0));
    CHECK_OK(MPI_Get_address(&out.d, &o1));
    MPI_Aint disp2[2] = {o0, o1};
    MPI_Datatype abs_out;
    CHECK_OK(MPI_Type_create_struct(2, bl, disp2, ty, &abs_out));
    CHECK_OK(MPI_Type_commit(&abs_out));
    CHECK_OK(MPI_Sendrecv(MPI_BOTTOM, 1, abs_t, 0, 1, MPI_BOTTOM, 1, abs_out, 0, 1,
                          MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(out.i[0] == 30 && out.i[1] == 40 && out.d == 2.5);
    CHECK_OK(MPI_Type_free(&abs_t));
    CHECK_OK(MPI_Type_free(&abs_out));
}

static void sizes_and_errors(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK_OK(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &t));
    int s = -1;
    CHECK_OK(MPI_Type_size(t, &s));
    CHECK_EQ_INT(s, 4);
    CHECK_OK(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &t));
    CHECK_OK(MPI_Type_size(t, &s));
    CHECK_EQ_INT(s, 8);
    t = SENTINEL_HANDLE(MPI_Datatype);
    CHECK_RC(MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &t), MPI_ERR_ARG);
    CHECK_OK(MPI_Type_create_f90_integer(9, &t));
    CHECK_OK(MPI_Type_size(t, &s));
    CHECK(s >= 4);
    int i = -1, a = -1, d = -1, c = -1;
    CHECK_OK(MPI_Type_get_envelope(t, &i, &a, &d, &c));
    CHECK_EQ_INT(c, MPI_COMBINER_F90_INTEGER);
    CHECK_EQ_INT(i, 1);

    struct outs o;
    int bl[1] = {1}, dp[1] = {0};
    CHECK_FAILS("contiguous -1", o, MPI_Type_contiguous(-1, MPI_INT, &o.type), MPI_ERR_COUNT);
    CHECK_FAILS("vector -1", o, MPI_Type_vector(-1, 1, 1, MPI_INT, &o.type), MPI_ERR_COUNT);
    CHECK_FAILS("contiguous of NULL", o, MPI_Type_contiguous(1, MPI_DATATYPE_NULL, &o.type),
                MPI_ERR_TYPE);
    CHECK_FAILS("indexed of NULL", o, MPI_Type_indexed(1, bl, dp, MPI_DATATYPE_NULL, &o.type),
                MPI_ERR_TYPE);
    CHECK_FAILS("size of NULL", o, MPI_Type_size(MPI_DATATYPE_NULL, &o.i), MPI_ERR_TYPE);
    CHECK_FAILS("pack_size -1", o, MPI_Pack_size(-1, MPI_INT, MPI_COMM_WORLD, &o.i),
                MPI_ERR_COUNT);
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    constructors();
    pack();
    addresses();
    sizes_and_errors();
    CHECK_OK(MPI_Finalize());
    return test_finish("datatypes_layout");
}
