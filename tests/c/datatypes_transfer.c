/*
 * Derived datatypes moving data to oneself (issue 14 item 1), with MPI_ERRORS_RETURN:
 * - Send/Recv, Isend/Irecv and Sendrecv of vector, indexed, resized, subarray and struct
 *   types (the struct of absolute addresses with MPI_BOTTOM), received with another type map
 *   of the same type signature;
 * - Gather, Allgather and Bcast with a strided receive or broadcast type;
 * - a message longer than the receive buffer: MPI_ERR_TRUNCATE; an uncommitted datatype:
 *   MPI_ERR_TYPE, nothing sent;
 * - Get_count/Get_elements (and the _c/_x forms) after a receive that ends inside an item,
 *   and Status_set_elements;
 * - Pack/Unpack byte for byte, positions, the _c forms; Pack_external into the big-endian
 *   external32 form byte for byte (a C long takes 4 bytes there);
 * - names (predefined, set, dup), get_envelope_c/get_contents_c of _c-made types;
 * - bad input to every function: the standard's class, outputs untouched.
 */
#include "check.h"

#include <stddef.h>

static MPI_Datatype committed(MPI_Datatype t)
{
    CHECK_OK(MPI_Type_commit(&t));
    return t;
}

static void point_to_point(void)
{
    double src[8] = {0, 1, 2, 3, 4, 5, 6, 7}, dst[8];
    MPI_Status st;

    /* vector(4, 1, 2): every other double; received as 4 contiguous doubles. */
    MPI_Datatype every_other;
    CHECK_OK(MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &every_other));
    every_other = committed(every_other);
    memset(dst, 0, sizeof dst);
    /* (a send to oneself before the receive is posted is nonblocking: a blocking one need
       not return before the receive starts, MPI-4.1 §3.5) */
    MPI_Request r;
    CHECK_OK(MPI_Isend(src, 1, every_other, 0, 1, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Recv(dst, 4, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, &st));
    CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(dst[0] == 0 && dst[1] == 2 && dst[2] == 4 && dst[3] == 6 && dst[4] == 0);

    /* contiguous send, indexed receive of the same signature: blocks {1 at 6, 2 at 0, 1 at 4}. */
    MPI_Datatype scattered;
    int bl[3] = {1, 2, 1}, dp[3] = {6, 0, 4};
    CHECK_OK(MPI_Type_indexed(3, bl, dp, MPI_DOUBLE, &scattered));
    scattered = committed(scattered);
    for (int i = 0; i < 8; i++)
        dst[i] = -1;
    CHECK_OK(MPI_Irecv(dst, 1, scattered, 0, 2, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Send(src + 1, 4, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD));
    CHECK_OK(MPI_Wait(&r, &st));
    CHECK(dst[6] == 1 && dst[0] == 2 && dst[1] == 3 && dst[4] == 4);
    CHECK(dst[2] == -1 && dst[3] == -1 && dst[5] == -1 && dst[7] == -1);
    int n = -1;
    CHECK_OK(MPI_Get_count(&st, scattered, &n));
    CHECK_EQ_INT(n, 1);

    /* resized: a double with extent 16 takes every other double, like the vector. */
    MPI_Datatype wide;
    CHECK_OK(MPI_Type_create_resized(MPI_DOUBLE, 0, 2 * (MPI_Aint)sizeof(double), &wide));
    wide = committed(wide);
    memset(dst, 0, sizeof dst);
    CHECK_OK(MPI_Sendrecv(src, 3, wide, 0, 3, dst, 1, every_other, 0, 3, MPI_COMM_WORLD, &st));
    CHECK(dst[0] == 0 && dst[2] == 2 && dst[4] == 4 && dst[6] == 0);
    CHECK(dst[1] == 0 && dst[3] == 0);
    CHECK_OK(MPI_Get_count(&st, MPI_DOUBLE, &n));
    CHECK_EQ_INT(n, 3);

    /* subarray: the 2x3 block at (1,2) of a 4x5 int array, in C order. */
    int grid[20], block[6] = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 20; i++)
        grid[i] = i;
    int sizes[2] = {4, 5}, subs[2] = {2, 3}, starts[2] = {1, 2};
    MPI_Datatype sub;
    CHECK_OK(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &sub));
    sub = committed(sub);
    CHECK_OK(MPI_Sendrecv(grid, 1, sub, 0, 4, block, 6, MPI_INT, 0, 4, MPI_COMM_WORLD, &st));
    CHECK(block[0] == 7 && block[1] == 8 && block[2] == 9 && block[3] == 12 && block[4] == 13 &&
          block[5] == 14);
    /* and back into a zeroed grid: only the block is written */
    int back[20];
    memset(back, 0, sizeof back);
    CHECK_OK(MPI_Sendrecv(block, 6, MPI_INT, 0, 5, back, 1, sub, 0, 5, MPI_COMM_WORLD, &st));
    CHECK(back[7] == 7 && back[14] == 14 && back[6] == 0 && back[15] == 0 && back[0] == 0);

    /* struct of absolute addresses with MPI_BOTTOM, into a struct of relative ones. */
    struct rec {
        int id;
        double value;
        short tag;
    } out = {42, 2.5, 7}, in = {0, 0.0, 0};
    MPI_Aint base, a[3];
    CHECK_OK(MPI_Get_address(&out.id, &a[0]));
    CHECK_OK(MPI_Get_address(&out.value, &a[1]));
    CHECK_OK(MPI_Get_address(&out.tag, &a[2]));
    int ones[3] = {1, 1, 1};
    MPI_Datatype kinds[3] = {MPI_INT, MPI_DOUBLE, MPI_SHORT}, absolute, relative;
    CHECK_OK(MPI_Type_create_struct(3, ones, a, kinds, &absolute));
    absolute = committed(absolute);
    CHECK_OK(MPI_Get_address(&in, &base));
    MPI_Aint rel[3] = {offsetof(struct rec, id), offsetof(struct rec, value),
                       offsetof(struct rec, tag)};
    CHECK_OK(MPI_Type_create_struct(3, ones, rel, kinds, &relative));
    relative = committed(relative);
    MPI_Aint lb = -1, extent = -1;
    CHECK_OK(MPI_Type_get_extent(relative, &lb, &extent));
    CHECK_EQ_INT(lb, 0);
    CHECK_EQ_INT(extent, sizeof(struct rec));
    CHECK_OK(MPI_Isend(MPI_BOTTOM, 1, absolute, 0, 6, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Recv(&in, 1, relative, 0, 6, MPI_COMM_WORLD, &st));
    CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(in.id == 42 && in.value == 2.5 && in.tag == 7);
    /* and from the relative struct into absolute addresses */
    in.id = 9, in.value = -1.0, in.tag = 3;
    CHECK_OK(MPI_Sendrecv(&in, 1, relative, 0, 7, MPI_BOTTOM, 1, absolute, 0, 7, MPI_COMM_WORLD,
                          &st));
    CHECK(out.id == 9 && out.value == -1.0 && out.tag == 3);

    /* truncation: 4 doubles into a vector holding 3 */
    MPI_Datatype three;
    CHECK_OK(MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &three));
    three = committed(three);
    CHECK_OK(MPI_Isend(src, 4, MPI_DOUBLE, 0, 8, MPI_COMM_WORLD, &r));
    CHECK_RC(MPI_Recv(dst, 1, three, 0, 8, MPI_COMM_WORLD, &st), MPI_ERR_TRUNCATE);
    CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));

    /* uncommitted: MPI_ERR_TYPE, nothing sent */
    MPI_Datatype raw;
    CHECK_OK(MPI_Type_vector(2, 1, 2, MPI_INT, &raw));
    CHECK_RC(MPI_Send(grid, 1, raw, 0, 9, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK_RC(MPI_Recv(grid, 1, raw, 0, 9, MPI_COMM_WORLD, &st), MPI_ERR_TYPE);
    int flag = 1;
    CHECK_OK(MPI_Iprobe(0, 9, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(flag, 0);
    CHECK_OK(MPI_Type_free(&raw));

    /* a receive ending inside an item: 3 doubles into pairs of doubles */
    MPI_Datatype pair;
    CHECK_OK(MPI_Type_contiguous(2, MPI_DOUBLE, &pair));
    pair = committed(pair);
    CHECK_OK(MPI_Isend(src, 3, MPI_DOUBLE, 0, 10, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Recv(dst, 2, pair, 0, 10, MPI_COMM_WORLD, &st));
    CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Get_count(&st, pair, &n));
    CHECK_EQ_INT(n, MPI_UNDEFINED);
    CHECK_OK(MPI_Get_elements(&st, pair, &n));
    CHECK_EQ_INT(n, 3);
    MPI_Count nc = -1;
    CHECK_OK(MPI_Get_elements_x(&st, pair, &nc));
    CHECK_EQ_INT(nc, 3);
    CHECK_OK(MPI_Get_elements_c(&st, MPI_DOUBLE, &nc));
    CHECK_EQ_INT(nc, 3);
    CHECK_OK(MPI_Get_count_c(&st, MPI_DOUBLE, &nc));
    CHECK_EQ_INT(nc, 3);
    /* elements that end inside a basic element */
    CHECK_OK(MPI_Get_elements(&st, MPI_2INT, &n));
    CHECK_EQ_INT(n, 6);
    CHECK_OK(MPI_Get_elements(&st, MPI_LONG_DOUBLE, &n));
    CHECK_EQ_INT(n, MPI_UNDEFINED);

    /* Status_set_elements: 5 doubles of pairs are 2 whole items and one more element */
    CHECK_OK(MPI_Status_set_elements(&st, pair, 5));
    CHECK_OK(MPI_Get_elements(&st, pair, &n));
    CHECK_EQ_INT(n, 5);
    CHECK_OK(MPI_Get_count(&st, pair, &n));
    CHECK_EQ_INT(n, MPI_UNDEFINED);
    CHECK_OK(MPI_Get_count(&st, MPI_DOUBLE, &n));
    CHECK_EQ_INT(n, 5);
    CHECK_OK(MPI_Status_set_elements_x(&st, pair, 4));
    CHECK_OK(MPI_Get_count(&st, pair, &n));
    CHECK_EQ_INT(n, 2);
    CHECK_OK(MPI_Status_set_elements_c(&st, MPI_INT, 7));
    CHECK_OK(MPI_Get_elements(&st, MPI_INT, &n));
    CHECK_EQ_INT(n, 7);

    MPI_Datatype all[] = {every_other, scattered, wide, sub, absolute, relative, three, pair};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        CHECK_OK(MPI_Type_free(&all[i]));
}

static void collectives(void)
{
    double mine[3] = {1.5, 2.5, 3.5}, got[6];
    MPI_Datatype strided;
    CHECK_OK(MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &strided));
    strided = committed(strided);
    for (int i = 0; i < 6; i++)
        got[i] = 0;
    CHECK_OK(MPI_Gather(mine, 3, MPI_DOUBLE, got, 1, strided, 0, MPI_COMM_WORLD));
    CHECK(got[0] == 1.5 && got[2] == 2.5 && got[4] == 3.5 && got[1] == 0 && got[3] == 0);
    for (int i = 0; i < 6; i++)
        got[i] = 0;
    CHECK_OK(MPI_Allgather(mine, 3, MPI_DOUBLE, got, 1, strided, MPI_COMM_SELF));
    CHECK(got[0] == 1.5 && got[2] == 2.5 && got[4] == 3.5 && got[5] == 0);
    /* a gather whose receive side is too small */
    CHECK_RC(MPI_Gather(mine, 3, MPI_DOUBLE, got, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD),
             MPI_ERR_TRUNCATE);
    CHECK_OK(MPI_Bcast(got, 1, strided, 0, MPI_COMM_WORLD));
    CHECK_OK(MPI_Type_free(&strided));

    /* MPI_BOTTOM with structs of absolute addresses on both sides of a collective */
    int a = 5, ra = 0;
    double b = 6.5, rb = 0;
    int ones[2] = {1, 1};
    MPI_Aint d[2];
    MPI_Datatype kinds[2] = {MPI_INT, MPI_DOUBLE}, from, to;
    CHECK_OK(MPI_Get_address(&a, &d[0]));
    CHECK_OK(MPI_Get_address(&b, &d[1]));
    CHECK_OK(MPI_Type_create_struct(2, ones, d, kinds, &from));
    from = committed(from);
    CHECK_OK(MPI_Get_address(&ra, &d[0]));
    CHECK_OK(MPI_Get_address(&rb, &d[1]));
    CHECK_OK(MPI_Type_create_struct(2, ones, d, kinds, &to));
    to = committed(to);
    CHECK_OK(MPI_Gather(MPI_BOTTOM, 1, from, MPI_BOTTOM, 1, to, 0, MPI_COMM_WORLD));
    CHECK(ra == 5 && rb == 6.5);
    ra = 0, rb = 0;
    CHECK_OK(MPI_Allgather(MPI_BOTTOM, 1, from, MPI_BOTTOM, 1, to, MPI_COMM_WORLD));
    CHECK(ra == 5 && rb == 6.5);
    ra = 0, rb = 0;
    CHECK_OK(MPI_Alltoall(MPI_BOTTOM, 1, from, MPI_BOTTOM, 1, to, MPI_COMM_SELF));
    CHECK(ra == 5 && rb == 6.5);
    CHECK_OK(MPI_Bcast(MPI_BOTTOM, 1, from, 0, MPI_COMM_WORLD));
    CHECK(a == 5 && b == 6.5);
    CHECK_OK(MPI_Type_free(&from));
    CHECK_OK(MPI_Type_free(&to));
}

static void packing(void)
{
    /* Pack of a vector of ints is exactly the chosen ints, back to back. */
    int src[6] = {10, -1, 20, -1, 30, -1};
    MPI_Datatype v;
    CHECK_OK(MPI_Type_vector(3, 1, 2, MPI_INT, &v));
    v = committed(v);
    unsigned char buf[64], want[64];
    int expect[3] = {10, 20, 30};
    memcpy(want, expect, sizeof expect);
    int size = -1, pos = 0;
    CHECK_OK(MPI_Pack_size(1, v, MPI_COMM_WORLD, &size));
    CHECK_EQ_INT(size, 3 * sizeof(int));
    CHECK_OK(MPI_Pack(src, 1, v, buf, (int)sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK_EQ_INT(pos, 3 * sizeof(int));
    CHECK(memcmp(buf, want, 3 * sizeof(int)) == 0);
    /* unpack with another map of the same signature: into every other int, from position 0 */
    int dst[6] = {0, 0, 0, 0, 0, 0};
    pos = 0;
    CHECK_OK(MPI_Unpack(buf, 3 * (int)sizeof(int), &pos, dst, 1, v, MPI_COMM_WORLD));
    CHECK(dst[0] == 10 && dst[2] == 20 && dst[4] == 30 && dst[1] == 0 && dst[5] == 0);
    CHECK_EQ_INT(pos, 3 * sizeof(int));
    /* too few packed bytes for the items: MPI_ERR_TRUNCATE, position kept */
    pos = 4;
    CHECK_RC(MPI_Unpack(buf, 3 * (int)sizeof(int), &pos, dst, 1, v, MPI_COMM_WORLD),
             MPI_ERR_TRUNCATE);
    CHECK_EQ_INT(pos, 4);
    /* the _c forms */
    MPI_Count cpos = 0, csize = -1;
    CHECK_OK(MPI_Pack_size_c(2, v, MPI_COMM_WORLD, &csize));
    CHECK_EQ_INT(csize, 6 * sizeof(int));
    CHECK_OK(MPI_Pack_c(src, 1, v, buf, (MPI_Count)sizeof buf, &cpos, MPI_COMM_WORLD));
    CHECK_EQ_INT(cpos, 3 * sizeof(int));
    int three[3] = {0, 0, 0};
    cpos = 0;
    CHECK_OK(MPI_Unpack_c(buf, 12, &cpos, three, 3, MPI_INT, MPI_COMM_WORLD));
    CHECK(three[0] == 10 && three[1] == 20 && three[2] == 30);

    /* external32 of struct {int, double, short, long}: big-endian, long in 4 bytes */
    struct mixed {
        int i;
        double d;
        short s;
        long l;
    } m = {0x01020304, -2.0, (short)0xa0b0, -2};
    int ones[4] = {1, 1, 1, 1};
    MPI_Aint disp[4] = {offsetof(struct mixed, i), offsetof(struct mixed, d),
                        offsetof(struct mixed, s), offsetof(struct mixed, l)};
    MPI_Datatype kinds[4] = {MPI_INT, MPI_DOUBLE, MPI_SHORT, MPI_LONG}, mt;
    CHECK_OK(MPI_Type_create_struct(4, ones, disp, kinds, &mt));
    mt = committed(mt);
    MPI_Aint esize = -1, epos = 0;
    CHECK_OK(MPI_Pack_external_size("external32", 1, mt, &esize));
    CHECK_EQ_INT(esize, 4 + 8 + 2 + 4);
    CHECK_OK(MPI_Pack_external("external32", &m, 1, mt, buf, (MPI_Aint)sizeof buf, &epos));
    CHECK_EQ_INT(epos, 18);
    const unsigned char bytes[18] = {0x01, 0x02, 0x03, 0x04, 0xc0, 0x00, 0x00, 0x00, 0x00,
                                     0x00, 0x00, 0x00, 0xa0, 0xb0, 0xff, 0xff, 0xff, 0xfe};
    CHECK(memcmp(buf, bytes, sizeof bytes) == 0);
    struct mixed m2 = {0, 0, 0, 0};
    epos = 0;
    CHECK_OK(MPI_Unpack_external("external32", buf, 18, &epos, &m2, 1, mt));
    CHECK(m2.i == m.i && m2.d == m.d && m2.s == m.s && m2.l == -2);
    CHECK_EQ_INT(epos, 18);
    MPI_Count cesize = -1, cepos = 0;
    CHECK_OK(MPI_Pack_external_size_c("external32", 2, mt, &cesize));
    CHECK_EQ_INT(cesize, 36);
    CHECK_OK(MPI_Pack_external_c("external32", &m, 1, mt, buf, 18, &cepos));
    CHECK_EQ_INT(cepos, 18);
    cepos = 0;
    CHECK_OK(MPI_Unpack_external_c("external32", buf, 18, &cepos, &m2, 1, mt));
    CHECK_EQ_INT(cepos, 18);
    /* too small: MPI_ERR_TRUNCATE, position kept */
    epos = 0;
    CHECK_RC(MPI_Pack_external("external32", &m, 1, mt, buf, 17, &epos), MPI_ERR_TRUNCATE);
    CHECK_EQ_INT(epos, 0);
    CHECK_RC(MPI_Pack_external("native", &m, 1, mt, buf, 64, &epos), MPI_ERR_ARG);
    CHECK_EQ_INT(epos, 0);
    CHECK_OK(MPI_Type_free(&mt));
    CHECK_OK(MPI_Type_free(&v));
}

static void names_and_contents(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_OK(MPI_Type_get_name(MPI_INT, name, &len));
    CHECK_EQ_STR(name, "MPI_INT");
    CHECK_EQ_INT(len, 7);
    CHECK_OK(MPI_Type_get_name(MPI_2DOUBLE_PRECISION, name, &len));
    CHECK_EQ_STR(name, "MPI_2DOUBLE_PRECISION");
    MPI_Datatype t, d;
    CHECK_OK(MPI_Type_vector_c(3, 2, 4, MPI_INT, &t));
    CHECK_OK(MPI_Type_get_name(t, name, &len));
    CHECK_EQ_STR(name, "");
    CHECK_EQ_INT(len, 0);
    CHECK_OK(MPI_Type_set_name(t, "columns"));
    CHECK_OK(MPI_Type_get_name(t, name, &len));
    CHECK_EQ_STR(name, "columns");
    CHECK_OK(MPI_Type_dup(t, &d));
    CHECK_OK(MPI_Type_get_name(d, name, &len));
    CHECK_EQ_STR(name, "");

    /* a _c-made vector: its three counts are large counts */
    MPI_Count ni = -1, na = -1, nl = -1, nd = -1;
    int combiner = -1, i = -1, a = -1, dt = -1;
    CHECK_OK(MPI_Type_get_envelope_c(t, &ni, &na, &nl, &nd, &combiner));
    CHECK(ni == 0 && na == 0 && nl == 3 && nd == 1 && combiner == MPI_COMBINER_VECTOR);
    CHECK_RC(MPI_Type_get_envelope(t, &i, &a, &dt, &combiner), MPI_ERR_TYPE);
    int ints[4];
    MPI_Aint aints[4];
    MPI_Count large[4] = {0, 0, 0, 0};
    MPI_Datatype types[2];
    CHECK_OK(MPI_Type_get_contents_c(t, 0, 0, 4, 2, ints, aints, large, types));
    CHECK(large[0] == 3 && large[1] == 2 && large[2] == 4);
    CHECK_EQ_HANDLE(types[0], MPI_INT);
    CHECK_RC(MPI_Type_get_contents(t, 4, 4, 2, ints, aints, types), MPI_ERR_TYPE);
    /* too little room: MPI_ERR_ARG, nothing made */
    CHECK_RC(MPI_Type_get_contents_c(t, 0, 0, 2, 2, ints, aints, large, types), MPI_ERR_ARG);
    /* a non-_c type through the _c form: its ints stay ints */
    MPI_Datatype h;
    CHECK_OK(MPI_Type_create_hvector(2, 1, 16, MPI_DOUBLE, &h));
    CHECK_OK(MPI_Type_get_envelope_c(h, &ni, &na, &nl, &nd, &combiner));
    CHECK(ni == 2 && na == 1 && nl == 0 && nd == 1 && combiner == MPI_COMBINER_HVECTOR);
    CHECK_OK(MPI_Type_get_contents_c(h, 2, 1, 0, 1, ints, aints, large, types));
    CHECK(ints[0] == 2 && ints[1] == 1 && aints[0] == 16);
    /* subarray_c: ndims and order are ints, sizes, subsizes and starts large counts
       (MPI-4.1 §5.1.13); struct_c: count, block lengths and displacements all large */
    {
        MPI_Count sz[2] = {4, 5}, sb[2] = {2, 3}, st[2] = {1, 2}, got[8];
        MPI_Datatype s, parts[2] = {MPI_INT, MPI_DOUBLE};
        CHECK_OK(MPI_Type_create_subarray_c(2, sz, sb, st, MPI_ORDER_FORTRAN, MPI_INT, &s));
        CHECK_OK(MPI_Type_get_envelope_c(s, &ni, &na, &nl, &nd, &combiner));
        CHECK(ni == 2 && na == 0 && nl == 6 && nd == 1 && combiner == MPI_COMBINER_SUBARRAY);
        CHECK_OK(MPI_Type_get_contents_c(s, 2, 0, 8, 1, ints, aints, got, types));
        CHECK(ints[0] == 2 && ints[1] == MPI_ORDER_FORTRAN);
        CHECK(got[0] == 4 && got[1] == 5 && got[2] == 2 && got[3] == 3 && got[4] == 1 &&
              got[5] == 2);
        MPI_Count lbc = -1, extc = -1;
        CHECK_OK(MPI_Type_get_true_extent_c(s, &lbc, &extc));
        CHECK(lbc == 9 * (MPI_Count)sizeof(int) && extc == 10 * (MPI_Count)sizeof(int));
        CHECK_OK(MPI_Type_free(&s));
        MPI_Count cbl[2] = {1, 2}, cdisp[2] = {0, 8};
        CHECK_OK(MPI_Type_create_struct_c(2, cbl, cdisp, parts, &s));
        CHECK_OK(MPI_Type_get_envelope_c(s, &ni, &na, &nl, &nd, &combiner));
        CHECK(ni == 0 && na == 0 && nl == 5 && nd == 2 && combiner == MPI_COMBINER_STRUCT);
        CHECK_OK(MPI_Type_get_contents_c(s, 0, 0, 8, 2, ints, aints, got, types));
        CHECK(got[0] == 2 && got[1] == 1 && got[2] == 2 && got[3] == 0 && got[4] == 8);
        CHECK_EQ_HANDLE(types[1], MPI_DOUBLE);
        MPI_Count sc = -1;
        CHECK_OK(MPI_Type_size_c(s, &sc));
        CHECK_EQ_INT(sc, sizeof(int) + 2 * sizeof(double));
        CHECK_OK(MPI_Type_free(&s));
    }

    /* the f90 types' contents are the arguments as given */
    MPI_Datatype f;
    CHECK_OK(MPI_Type_create_f90_real(10, MPI_UNDEFINED, &f));
    CHECK_OK(MPI_Type_get_envelope(f, &i, &a, &dt, &combiner));
    CHECK(i == 2 && a == 0 && dt == 0 && combiner == MPI_COMBINER_F90_REAL);
    CHECK_OK(MPI_Type_get_contents(f, 2, 0, 0, ints, aints, types));
    CHECK(ints[0] == 10 && ints[1] == MPI_UNDEFINED);
    int size = -1;
    CHECK_OK(MPI_Type_size(f, &size));
    CHECK_EQ_INT(size, 8);
    CHECK_OK(MPI_Type_create_f90_complex(MPI_UNDEFINED, 30, &f));
    CHECK_OK(MPI_Type_size(f, &size));
    CHECK_EQ_INT(size, 8);
    CHECK_OK(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &f));
    CHECK_EQ_HANDLE(f, MPI_COMPLEX16);
    CHECK_OK(MPI_Type_free(&h));
    CHECK_OK(MPI_Type_free(&d));
    CHECK_OK(MPI_Type_free(&t));
}

static void bad_input(void)
{
    struct outs o;
    int bl[2] = {1, 1}, dp[2] = {0, 2};
    MPI_Aint ad[2] = {0, 16};
    MPI_Count cbl[2] = {1, 1}, cdp[2] = {0, 2};
    MPI_Datatype types[2] = {MPI_INT, MPI_DATATYPE_NULL};
    int sizes[1] = {4}, subs[1] = {2}, starts[1] = {1};
    int gs[1] = {8}, dist[1] = {MPI_DISTRIBUTE_BLOCK}, darg[1] = {MPI_DISTRIBUTE_DFLT_DARG},
        ps[1] = {1};
    MPI_Datatype freed;
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &freed));
    CHECK_OK(MPI_Type_free(&freed));
    MPI_Datatype bad[2] = {MPI_DATATYPE_NULL, freed};

    for (int k = 0; k < 2; k++) {
        MPI_Datatype b = bad[k];
        CHECK_FAILS("vector", o, MPI_Type_vector(1, 1, 1, b, &o.type), MPI_ERR_TYPE);
        CHECK_FAILS("vector_c", o, MPI_Type_vector_c(1, 1, 1, b, &o.type), MPI_ERR_TYPE);
        CHECK_FAILS("hvector", o, MPI_Type_create_hvector(1, 1, 8, b, &o.type), MPI_ERR_TYPE);
        CHECK_FAILS("indexed", o, MPI_Type_indexed(2, bl, dp, b, &o.type), MPI_ERR_TYPE);
        CHECK_FAILS("hindexed", o, MPI_Type_create_hindexed(2, bl, ad, b, &o.type),
                    MPI_ERR_TYPE);
        CHECK_FAILS("indexed_block", o, MPI_Type_create_indexed_block(2, 1, dp, b, &o.type),
                    MPI_ERR_TYPE);
        CHECK_FAILS("hindexed_block", o, MPI_Type_create_hindexed_block(2, 1, ad, b, &o.type),
                    MPI_ERR_TYPE);
        CHECK_FAILS("subarray", o,
                    MPI_Type_create_subarray(1, sizes, subs, starts, MPI_ORDER_C, b, &o.type),
                    MPI_ERR_TYPE);
        CHECK_FAILS("darray", o,
                    MPI_Type_create_darray(1, 0, 1, gs, dist, darg, ps, MPI_ORDER_C, b, &o.type),
                    MPI_ERR_TYPE);
        CHECK_FAILS("resized", o, MPI_Type_create_resized(b, 0, 8, &o.type), MPI_ERR_TYPE);
        CHECK_FAILS("get_extent", o, MPI_Type_get_extent(b, &o.aint, &o.aint), MPI_ERR_TYPE);
        CHECK_FAILS("get_true_extent", o, MPI_Type_get_true_extent(b, &o.aint, &o.aint),
                    MPI_ERR_TYPE);
        CHECK_FAILS("get_envelope", o, MPI_Type_get_envelope(b, &o.i, &o.i, &o.i, &o.j),
                    MPI_ERR_TYPE);
        CHECK_FAILS("get_name", o, MPI_Type_get_name(b, o.text, &o.i), MPI_ERR_TYPE);
        CHECK_FAILS("set_name", o, MPI_Type_set_name(b, "x"), MPI_ERR_TYPE);
        CHECK_FAILS("get_elements", o, MPI_Get_elements(&o.status, b, &o.i), MPI_ERR_TYPE);
        CHECK_FAILS("pack_size", o, MPI_Pack_size(1, b, MPI_COMM_WORLD, &o.i), MPI_ERR_TYPE);
        CHECK_FAILS("pack_external_size", o, MPI_Pack_external_size("external32", 1, b, &o.aint),
                    MPI_ERR_TYPE);
        CHECK_FAILS("pack", o, MPI_Pack(sizes, 1, b, o.text, 64, &o.i, MPI_COMM_WORLD),
                    MPI_ERR_TYPE);
    }
    CHECK_FAILS("struct with a null type", o, MPI_Type_create_struct(2, bl, ad, types, &o.type),
                MPI_ERR_TYPE);
    CHECK_FAILS("contents of a predefined type", o,
                MPI_Type_get_contents(MPI_INT, 4, 4, 4, &o.i, &o.aint, &o.type), MPI_ERR_TYPE);

    /* negative counts */
    CHECK_FAILS("vector", o, MPI_Type_vector(-1, 1, 1, MPI_INT, &o.type), MPI_ERR_COUNT);
    CHECK_FAILS("vector blocklength", o, MPI_Type_vector(1, -1, 1, MPI_INT, &o.type),
                MPI_ERR_COUNT);
    CHECK_FAILS("contiguous_c", o, MPI_Type_contiguous_c(-1, MPI_INT, &o.type), MPI_ERR_COUNT);
    CHECK_FAILS("indexed", o, MPI_Type_indexed(-1, bl, dp, MPI_INT, &o.type), MPI_ERR_COUNT);
    CHECK_FAILS("indexed_c", o, MPI_Type_indexed_c(-2, cbl, cdp, MPI_INT, &o.type),
                MPI_ERR_COUNT);
    CHECK_FAILS("struct", o, MPI_Type_create_struct(-1, bl, ad, types, &o.type), MPI_ERR_COUNT);
    CHECK_FAILS("pack", o, MPI_Pack(sizes, -1, MPI_INT, o.text, 64, &o.i, MPI_COMM_WORLD),
                MPI_ERR_COUNT);
    CHECK_FAILS("pack_external_size", o,
                MPI_Pack_external_size("external32", -1, MPI_INT, &o.aint), MPI_ERR_COUNT);
    CHECK_FAILS("status_set_elements", o, MPI_Status_set_elements(&o.status, MPI_INT, -1),
                MPI_ERR_COUNT);

    /* NULL outputs and arrays */
    CHECK_FAILS("vector", o, MPI_Type_vector(1, 1, 1, MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_FAILS("indexed", o, MPI_Type_indexed(2, NULL, dp, MPI_INT, &o.type), MPI_ERR_ARG);
    CHECK_FAILS("struct", o, MPI_Type_create_struct(2, bl, ad, NULL, &o.type), MPI_ERR_ARG);
    CHECK_FAILS("get_extent", o, MPI_Type_get_extent(MPI_INT, NULL, &o.aint), MPI_ERR_ARG);
    CHECK_FAILS("size_x", o, MPI_Type_size_x(MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_FAILS("get_envelope", o, MPI_Type_get_envelope(MPI_INT, &o.i, &o.i, NULL, &o.j),
                MPI_ERR_ARG);
    CHECK_FAILS("get_name", o, MPI_Type_get_name(MPI_INT, o.text, NULL), MPI_ERR_ARG);
    CHECK_FAILS("get_name", o, MPI_Type_get_name(MPI_INT, NULL, &o.i), MPI_ERR_ARG);
    CHECK_FAILS("set_name", o, MPI_Type_set_name(MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_FAILS("get_elements", o, MPI_Get_elements(NULL, MPI_INT, &o.i), MPI_ERR_ARG);
    CHECK_FAILS("status_set_elements", o, MPI_Status_set_elements(NULL, MPI_INT, 1),
                MPI_ERR_ARG);
    CHECK_FAILS("pack_size", o, MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_FAILS("pack position", o,
                MPI_Pack(sizes, 1, MPI_INT, o.text, 64, NULL, MPI_COMM_WORLD), MPI_ERR_ARG);
    CHECK_FAILS("match_size", o, MPI_Type_match_size(MPI_TYPECLASS_REAL, 4, NULL), MPI_ERR_ARG);

    /* other arguments out of range */
    CHECK_FAILS("subarray order", o,
                MPI_Type_create_subarray(1, sizes, subs, starts, 99, MPI_INT, &o.type),
                MPI_ERR_ARG);
    CHECK_FAILS("subarray ndims", o,
                MPI_Type_create_subarray(0, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &o.type),
                MPI_ERR_ARG);
    CHECK_FAILS("subarray start", o,
                MPI_Type_create_subarray(1, sizes, sizes, starts, MPI_ORDER_C, MPI_INT, &o.type),
                MPI_ERR_ARG);
    CHECK_FAILS("darray rank", o,
                MPI_Type_create_darray(1, 1, 1, gs, dist, darg, ps, MPI_ORDER_C, MPI_INT,
                                       &o.type),
                MPI_ERR_ARG);
    CHECK_FAILS("match_size class", o, MPI_Type_match_size(12345, 4, &o.type), MPI_ERR_ARG);
    CHECK_FAILS("f90_integer", o, MPI_Type_create_f90_integer(40, &o.type), MPI_ERR_ARG);
    CHECK_FAILS("f90_real undefined", o,
                MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &o.type), MPI_ERR_ARG);
    CHECK_FAILS("pack_size comm", o, MPI_Pack_size(1, MPI_INT, MPI_COMM_NULL, &o.i),
                MPI_ERR_COMM);
    CHECK_FAILS("pack_external datarep", o,
                MPI_Pack_external_size("big-endian", 1, MPI_INT, &o.aint), MPI_ERR_ARG);
    CHECK_FAILS("pack position", o,
                MPI_Pack(sizes, 1, MPI_INT, o.text, 4, &o.i, MPI_COMM_WORLD), MPI_ERR_ARG);
    {
        int pos = 2;
        CHECK_FAILS_INOUT("pack into too little room", o, pos,
                          MPI_Pack(sizes, 1, MPI_INT, o.text, 5, &pos, MPI_COMM_WORLD),
                          MPI_ERR_TRUNCATE);
    }
    /* uncommitted types for packing */
    MPI_Datatype raw;
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &raw));
    {
        int pos = 0;
        CHECK_FAILS_INOUT("pack uncommitted", o, pos,
                          MPI_Pack(sizes, 1, raw, o.text, 64, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE);
    }
    /* the size functions only ask */
    int s = -1;
    CHECK_OK(MPI_Pack_size(3, raw, MPI_COMM_WORLD, &s));
    CHECK_EQ_INT(s, 6 * sizeof(int));
    CHECK_OK(MPI_Type_free(&raw));

    /* the _c forms refuse the same */
    {
        MPI_Count c = 77, cdist_g[1] = {8};
        int baddist[1] = {12345};
        CHECK_FAILS("get_extent_c", o, MPI_Type_get_extent_c(MPI_INT, NULL, &c), MPI_ERR_ARG);
        CHECK_EQ_INT(c, 77);
        CHECK_FAILS("darray_c distribution", o,
                    MPI_Type_create_darray_c(1, 0, 1, cdist_g, baddist, darg, ps, MPI_ORDER_C,
                                             MPI_INT, &o.type),
                    MPI_ERR_ARG);
        CHECK_FAILS("pack_c outsize", o,
                    MPI_Pack_c(sizes, 1, MPI_INT, o.text, -1, &c, MPI_COMM_WORLD), MPI_ERR_ARG);
        CHECK_EQ_INT(c, 77);
        CHECK_FAILS("unpack_c count", o,
                    MPI_Unpack_c(o.text, 64, &c, sizes, -1, MPI_INT, MPI_COMM_WORLD),
                    MPI_ERR_COUNT);
        CHECK_FAILS("unpack_external datarep", o,
                    MPI_Unpack_external("native", o.text, 64, &o.aint, sizes, 1, MPI_INT),
                    MPI_ERR_ARG);
        CHECK_FAILS("unpack position", o,
                    MPI_Unpack(o.text, 64, NULL, sizes, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_ARG);
        CHECK_FAILS("unpack comm", o,
                    MPI_Unpack(o.text, 64, &o.i, sizes, 1, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM);
        CHECK_FAILS("contents arrays", o,
                    MPI_Type_get_contents_c(MPI_INT, 0, 0, 0, 0, NULL, NULL, NULL, NULL),
                    MPI_ERR_TYPE);
        MPI_Datatype v;
        CHECK_OK(MPI_Type_vector(2, 1, 2, MPI_INT, &v));
        CHECK_FAILS("contents NULL array", o,
                    MPI_Type_get_contents(v, 3, 0, 1, NULL, &o.aint, &o.type), MPI_ERR_ARG);
        CHECK_FAILS("contents_c short", o,
                    MPI_Type_get_contents_c(v, 2, 0, 0, 1, &o.i, &o.aint, &c, &o.type),
                    MPI_ERR_ARG);
        CHECK_FAILS("envelope_c NULL", o,
                    MPI_Type_get_envelope_c(v, &c, &c, NULL, &c, &o.i), MPI_ERR_ARG);
        CHECK_FAILS("get_elements_c NULL", o, MPI_Get_elements_c(&o.status, v, NULL),
                    MPI_ERR_ARG);
        CHECK_OK(MPI_Type_free(&v));
    }

    /* the address arithmetic */
    CHECK_EQ_INT(MPI_Aint_add(1000, -24), 976);
    CHECK_EQ_INT(MPI_Aint_diff(1000, 1024), -24);
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    point_to_point();
    collectives();
    packing();
    names_and_contents();
    bad_input();
    CHECK_OK(MPI_Finalize());
    return test_finish("datatypes_transfer");
}
