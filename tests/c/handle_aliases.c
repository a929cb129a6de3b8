/*
 * One handle per predefined object and language (docs/errors.md, "Handles"): a predefined
 * object is named by its ABI value and by nothing else. mpiattr encodes every other object's
 * C handle as generation << 36 | table index << 4 | kind tag, and its Fortran integer as
 * code << (B + 4) | index << 4 | tag, with B = 22 index bits for 4-byte INTEGERs and 32
 * for 8-byte ones. The predefined objects hold the first table indices (MPI_COMM_WORLD 0 and
 * MPI_COMM_SELF 1, the predefined datatypes 0 to N - 1), so those formulas also produce
 * numbers for them — 0x1000000001 for MPI_COMM_WORLD, 67108865 and 67108881 (4-byte) for
 * MPI_COMM_WORLD and MPI_COMM_SELF. Each such alias must be refused like any handle that
 * names nothing: MPI_ERR_COMM / MPI_ERR_TYPE, and the null handle from MPI_*_f2c.
 *
 * The numbers are mpiattr's encoding: with another mpi.h the program prints SKIP (accepted by
 * the harness only for an external compiler).
 */
#include "check.h"

#if defined(MPIATTR_MPI_H)

#define TAG_COMM 1
#define TAG_TYPE 2

/* The encoded C handle of table index `index`, generation 1, of a kind. */
static uintptr_t c_alias(uintptr_t index, uintptr_t tag)
{
    return ((uintptr_t)1 << 36) | (index << 4) | tag;
}

/* The Fortran integer of table index `index`, generation code 1, of a kind. */
static MPI_Fint f_alias(int64_t index, int64_t tag)
{
    const int index_bits = sizeof(MPI_Fint) == 8 ? 32 : 22;
    return (MPI_Fint)(((int64_t)1 << (index_bits + 4)) | (index << 4) | tag);
}

static void comm_alias_refused(MPI_Comm alias, const char *what, int kv)
{
    struct outs o;
    CHECK_FAILS(what, o, MPI_Comm_compare(alias, MPI_COMM_WORLD, &o.i), MPI_ERR_COMM);
    CHECK_FAILS(what, o, MPI_Comm_compare(MPI_COMM_SELF, alias, &o.i), MPI_ERR_COMM);
    CHECK_FAILS(what, o, MPI_Comm_size(alias, &o.i), MPI_ERR_COMM);
    CHECK_FAILS(what, o, MPI_Comm_rank(alias, &o.i), MPI_ERR_COMM);
    CHECK_FAILS(what, o, MPI_Comm_get_attr(alias, kv, &o.ptr, &o.j), MPI_ERR_COMM);
    CHECK_FAILS(what, o, MPI_Comm_get_attr(alias, MPI_TAG_UB, &o.ptr, &o.j), MPI_ERR_COMM);
    CHECK_RC(MPI_Comm_set_attr(alias, kv, IPTR(5)), MPI_ERR_COMM);
    CHECK_RC(MPI_Comm_delete_attr(alias, kv), MPI_ERR_COMM);
    CHECK_FAILS_NEW(what, o, MPI_Comm_dup(alias, &o.comm), MPI_ERR_COMM);
    CHECK_FAILS(what, o, MPI_Comm_get_errhandler(alias, &o.errhandler), MPI_ERR_COMM);
    CHECK_RC(MPI_Comm_set_errhandler(alias, MPI_ERRORS_ARE_FATAL), MPI_ERR_COMM);
    MPI_Comm freed = alias;
    CHECK_FAILS_INOUT(what, o, freed, MPI_Comm_free(&freed), MPI_ERR_COMM);
    CHECK_EQ_INT(MPI_Comm_c2f(alias), MPI_Comm_c2f(MPI_COMM_NULL));
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    int kv;
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
    REQUIRE_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kv, IPTR(11)));
    REQUIRE_OK(MPI_Comm_set_attr(MPI_COMM_SELF, kv, IPTR(12)));

    /* A real duplicate shows the encoding is the one assumed: tag 1, generation 1, index 2. */
    MPI_Comm dup;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    REQUIRE((uintptr_t)dup == c_alias(2, TAG_COMM));
    REQUIRE(MPI_Comm_c2f(dup) == f_alias(2, TAG_COMM));

    /* C: the encodings of MPI_COMM_WORLD's and MPI_COMM_SELF's slots. */
    comm_alias_refused((MPI_Comm)c_alias(0, TAG_COMM), "MPI_COMM_WORLD's slot as a C handle", kv);
    comm_alias_refused((MPI_Comm)c_alias(1, TAG_COMM), "MPI_COMM_SELF's slot as a C handle", kv);
    /* Fortran: the integers of those slots name nothing. */
    CHECK_EQ_HANDLE(MPI_Comm_f2c(f_alias(0, TAG_COMM)), MPI_COMM_NULL);
    CHECK_EQ_HANDLE(MPI_Comm_f2c(f_alias(1, TAG_COMM)), MPI_COMM_NULL);
    if (sizeof(MPI_Fint) == 4) {
        CHECK_EQ_HANDLE(MPI_Comm_f2c(67108865), MPI_COMM_NULL);
        CHECK_EQ_HANDLE(MPI_Comm_f2c(67108881), MPI_COMM_NULL);
    }
    /* The predefined objects keep their one handle, and their attributes. */
    {
        int result = -1;
        void *v = NULL;
        int flag = 0;
        CHECK_OK(MPI_Comm_compare(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)), MPI_COMM_WORLD,
                                  &result));
        CHECK_EQ_INT(result, MPI_IDENT);
        CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, kv, &v, &flag));
        CHECK(flag == 1 && PTRI(v) == 11);
        CHECK_OK(MPI_Comm_get_attr(MPI_COMM_SELF, kv, &v, &flag));
        CHECK(flag == 1 && PTRI(v) == 12);
    }

    /* Datatypes: the first user datatype takes the first index after the predefined ones. */
    MPI_Datatype pair;
    REQUIRE_OK(MPI_Type_contiguous(2, MPI_INT, &pair));
    const uintptr_t first_user = ((uintptr_t)pair >> 4) & 0xffffffffu;
    REQUIRE((uintptr_t)pair == c_alias(first_user, TAG_TYPE));
    CHECK_MSG(first_user >= 40, "only %lu predefined datatypes?", (unsigned long)first_user);
    int tkv;
    REQUIRE_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tkv, NULL));
    for (uintptr_t index = 0; index < first_user; index++) {
        MPI_Datatype alias = (MPI_Datatype)c_alias(index, TAG_TYPE);
        struct outs o;
        char what[64];
        snprintf(what, sizeof what, "predefined datatype slot %lu", (unsigned long)index);
        CHECK_FAILS(what, o, MPI_Type_size(alias, &o.i), MPI_ERR_TYPE);
        CHECK_FAILS(what, o, MPI_Type_get_attr(alias, tkv, &o.ptr, &o.j), MPI_ERR_TYPE);
        CHECK_RC(MPI_Type_set_attr(alias, tkv, IPTR(1)), MPI_ERR_TYPE);
        CHECK_FAILS_NEW(what, o, MPI_Type_dup(alias, &o.type), MPI_ERR_TYPE);
        CHECK_EQ_INT(MPI_Type_c2f(alias), MPI_Type_c2f(MPI_DATATYPE_NULL));
        CHECK_EQ_HANDLE(MPI_Type_f2c(f_alias((int64_t)index, TAG_TYPE)), MPI_DATATYPE_NULL);
    }
    /* ... while the user datatype's own handle and integer work. */
    CHECK_EQ_HANDLE(MPI_Type_f2c(f_alias((int64_t)first_user, TAG_TYPE)), pair);
    CHECK_OK(MPI_Type_set_attr(pair, tkv, IPTR(3)));

    CHECK_OK(MPI_Type_free(&pair));
    CHECK_OK(MPI_Type_free_keyval(&tkv));
    CHECK_OK(MPI_Comm_free(&dup));
    CHECK_OK(MPI_Comm_free_keyval(&kv));
    REQUIRE_OK(MPI_Finalize());
    return test_finish("handle_aliases");
}

#else

int main(void)
{
    printf("SKIP handle_aliases: checks mpiattr's handle encoding, and this is not mpiattr's "
           "mpi.h\n");
    return 0;
}

#endif
