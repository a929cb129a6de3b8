/*
 * Copying datatype attributes (attributes.md §4): MPI_Type_dup copies with MPI_TYPE_DUP_FN, not with
 * MPI_TYPE_NULL_COPY_FN; user copy callbacks get (old type, keyval, extra_state, value) and
 * decide with their flag; they run in the order in which the attributes were set; dups of
 * predefined datatypes copy too; MPI_Type_contiguous copies nothing; MPI_Type_commit keeps
 * attributes; delete callbacks on MPI_Type_free run newest set first with the type's handle.
 */
#include "check.h"

#define NK 5
#define LOGN 128

struct rec {
    MPI_Datatype type;
    int keyval;
    void *extra;
    intptr_t value;
};
static struct rec copylog[LOGN], dellog[LOGN];
static int ncopy, ndel;
static int extras[NK];
static int kv[NK];

static int copy_times2(MPI_Datatype t, int keyval, void *extra, void *in, void *out, int *flag)
{
    if (ncopy < LOGN)
        copylog[ncopy] = (struct rec){t, keyval, extra, PTRI(in)};
    ncopy++;
    *(void **)out = IPTR(PTRI(in) * 2);
    *flag = 1;
    return MPI_SUCCESS;
}

static int copy_no(MPI_Datatype t, int keyval, void *extra, void *in, void *out, int *flag)
{
    if (ncopy < LOGN)
        copylog[ncopy] = (struct rec){t, keyval, extra, PTRI(in)};
    ncopy++;
    (void)out;
    *flag = 0;
    return MPI_SUCCESS;
}

static int del_log(MPI_Datatype t, int keyval, void *value, void *extra)
{
    if (ndel < LOGN)
        dellog[ndel] = (struct rec){t, keyval, extra, PTRI(value)};
    ndel++;
    return MPI_SUCCESS;
}

static void get_expect(MPI_Datatype t, int k, int present, intptr_t value, const char *what)
{
    void *v = SENTINEL_HANDLE(void *);
    int flag = -1;
    CHECK_OK(MPI_Type_get_attr(t, kv[k], &v, &flag));
    CHECK_MSG(flag == present, "%s: keyval #%d flag %d, expected %d", what, k, flag, present);
    if (present && flag)
        CHECK_MSG(PTRI(v) == value, "%s: keyval #%d value %ld, expected %ld", what, k,
                  (long)PTRI(v), (long)value);
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);

    /* 0 DUP_FN, 1 NULL_COPY_FN, 2 copy_times2, 3 copy_no, 4 copy_times2 */
    MPI_Type_copy_attr_function *fns[NK] = {MPI_TYPE_DUP_FN, MPI_TYPE_NULL_COPY_FN, copy_times2,
                                            copy_no, copy_times2};
    for (int k = 0; k < NK; k++)
        REQUIRE_OK(MPI_Type_create_keyval(fns[k], del_log, &kv[k], &extras[k]));

    MPI_Datatype base;
    REQUIRE_OK(MPI_Type_contiguous(4, MPI_INT, &base));
    REQUIRE_OK(MPI_Type_commit(&base));
    static const int order[NK] = {3, 4, 0, 2, 1};
    for (int i = 0; i < NK; i++)
        REQUIRE_OK(MPI_Type_set_attr(base, kv[order[i]], IPTR(order[i] + 1)));

    /* Commit again keeps them. */
    REQUIRE_OK(MPI_Type_commit(&base));
    for (int k = 0; k < NK; k++)
        get_expect(base, k, 1, k + 1, "after commit");

    MPI_Datatype d = SENTINEL_HANDLE(MPI_Datatype);
    ncopy = ndel = 0;
    CHECK_OK(MPI_Type_dup(base, &d));
    REQUIRE(d != MPI_DATATYPE_NULL && d != SENTINEL_HANDLE(MPI_Datatype));
    CHECK_NE_HANDLE(d, base);
    /* user callbacks ran in set order: 3, 4, 2 */
    CHECK_EQ_INT(ncopy, 3);
    static const int exp_order[3] = {3, 4, 2};
    for (int i = 0; i < 3 && i < ncopy; i++) {
        int k = exp_order[i];
        CHECK_MSG(copylog[i].keyval == kv[k], "copy #%d for keyval %d, expected #%d (%d)", i,
                  copylog[i].keyval, k, kv[k]);
        CHECK_EQ_HANDLE(copylog[i].type, base);
        CHECK_MSG(copylog[i].extra == &extras[k], "copy #%d extra_state %p, expected %p", i,
                  copylog[i].extra, (void *)&extras[k]);
        CHECK_EQ_INT(copylog[i].value, k + 1);
    }
    get_expect(d, 0, 1, 1, "MPI_Type_dup");
    get_expect(d, 1, 0, 0, "MPI_Type_dup");
    get_expect(d, 2, 1, 6, "MPI_Type_dup");
    get_expect(d, 3, 0, 0, "MPI_Type_dup");
    get_expect(d, 4, 1, 10, "MPI_Type_dup");
    for (int k = 0; k < NK; k++)
        get_expect(base, k, 1, k + 1, "source after MPI_Type_dup");
    CHECK_EQ_INT(ndel, 0);
    {
        int size = -1;
        CHECK_OK(MPI_Type_size(d, &size));
        CHECK_EQ_INT(size, 4 * (int)sizeof(int));
    }

    /* Independence. */
    CHECK_OK(MPI_Type_set_attr(d, kv[1], IPTR(-5)));
    get_expect(base, 1, 1, 2, "source after setting on the dup");
    CHECK_OK(MPI_Type_delete_attr(base, kv[0]));
    CHECK_EQ_INT(ndel, 1);
    get_expect(d, 0, 1, 1, "dup after deleting on the source");
    CHECK_OK(MPI_Type_set_attr(base, kv[0], IPTR(1)));

    /* No copy on MPI_Type_contiguous. */
    MPI_Datatype cont;
    ncopy = 0;
    CHECK_OK(MPI_Type_contiguous(2, base, &cont));
    CHECK_EQ_INT(ncopy, 0);
    for (int k = 0; k < NK; k++)
        get_expect(cont, k, 0, 0, "MPI_Type_contiguous");
    ndel = 0;
    CHECK_OK(MPI_Type_free(&cont));
    CHECK_EQ_HANDLE(cont, MPI_DATATYPE_NULL);
    CHECK_EQ_INT(ndel, 0);

    /* Dup of a predefined datatype copies its attributes. */
    CHECK_OK(MPI_Type_set_attr(MPI_DOUBLE, kv[0], IPTR(123)));
    CHECK_OK(MPI_Type_set_attr(MPI_DOUBLE, kv[2], IPTR(7)));
    MPI_Datatype dd;
    ncopy = 0;
    CHECK_OK(MPI_Type_dup(MPI_DOUBLE, &dd));
    CHECK_EQ_INT(ncopy, 1);
    if (ncopy >= 1)
        CHECK_EQ_HANDLE(copylog[0].type, MPI_DOUBLE);
    get_expect(dd, 0, 1, 123, "dup of MPI_DOUBLE");
    get_expect(dd, 2, 1, 14, "dup of MPI_DOUBLE");
    {
        int size = -1;
        CHECK_OK(MPI_Type_size(dd, &size));
        CHECK_EQ_INT(size, (int)sizeof(double));
    }
    ndel = 0;
    CHECK_OK(MPI_Type_delete_attr(MPI_DOUBLE, kv[0]));
    CHECK_OK(MPI_Type_delete_attr(MPI_DOUBLE, kv[2]));
    CHECK_EQ_INT(ndel, 2);
    if (ndel == 2) {
        CHECK_EQ_HANDLE(dellog[0].type, MPI_DOUBLE);
        CHECK_EQ_INT(dellog[0].value, 123);
        CHECK_EQ_INT(dellog[1].value, 7);
    }

    /* Free of the dup: newest set first. The dup's attributes were set by the copy in the
       source's order 3(declined), 4, 0, 2 and then kv[1] was set: so 1, 2, 0, 4. */
    MPI_Datatype dsaved = d;
    ndel = 0;
    CHECK_OK(MPI_Type_free(&d));
    CHECK_EQ_HANDLE(d, MPI_DATATYPE_NULL);
    CHECK_EQ_INT(ndel, 4);
    {
        static const int exp_del[4] = {1, 2, 0, 4};
        static const intptr_t exp_val[4] = {-5, 6, 1, 10};
        for (int i = 0; i < 4 && i < ndel; i++) {
            CHECK_MSG(dellog[i].keyval == kv[exp_del[i]],
                      "delete #%d on free of the dup: keyval %d, expected #%d (%d)", i,
                      dellog[i].keyval, exp_del[i], kv[exp_del[i]]);
            CHECK_EQ_INT(dellog[i].value, exp_val[i]);
            CHECK_EQ_HANDLE(dellog[i].type, dsaved);
            CHECK_EQ_PTR(dellog[i].extra, &extras[exp_del[i]]);
        }
    }

    ndel = 0;
    CHECK_OK(MPI_Type_free(&dd));
    CHECK_EQ_INT(ndel, 2);
    ndel = 0;
    CHECK_OK(MPI_Type_free(&base));
    CHECK_EQ_INT(ndel, NK);
    for (int k = 0; k < NK; k++)
        CHECK_OK(MPI_Type_free_keyval(&kv[k]));

    REQUIRE_OK(MPI_Finalize());
    return test_finish("type_copy");
}
