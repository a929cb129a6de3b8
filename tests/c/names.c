/*
 * Names are bytes (docs/semantics.md, "Names"): MPI_Comm_set_name keeps the bytes it is given
 * exactly, whatever they are (not UTF-8, control characters, 0xff), cut to
 * MPI_MAX_OBJECT_NAME - 1 bytes; MPI_Comm_get_name returns them with that length. Before this
 * was fixed, each byte that was not UTF-8 came back as EF BF BD and a 199-byte name of 0xff
 * bytes came back as 126 bytes.
 */
#include "check.h"

static void check_round_trip(MPI_Comm comm, const unsigned char *given, size_t given_len,
                             const char *what)
{
    char name[MPI_MAX_OBJECT_NAME + 1];
    char stored[4096];
    REQUIRE(given_len < sizeof stored);
    memcpy(stored, given, given_len);
    stored[given_len] = '\0';
    CHECK_OK(MPI_Comm_set_name(comm, stored));
    memset(name, 0x55, sizeof name);
    int len = -1;
    CHECK_OK(MPI_Comm_get_name(comm, name, &len));
    size_t expected = given_len < MPI_MAX_OBJECT_NAME - 1 ? given_len : MPI_MAX_OBJECT_NAME - 1;
    CHECK_MSG(len == (int)expected, "%s: resultlen %d, expected %zu", what, len, expected);
    CHECK_MSG(memcmp(name, given, expected) == 0, "%s: the bytes changed", what);
    CHECK_MSG(name[expected] == '\0', "%s: not terminated after %zu bytes", what, expected);
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    MPI_Comm dup;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));

    unsigned char bytes[256];
    /* every non-zero byte value once, in runs that are no valid UTF-8 */
    for (int i = 0; i < 127; i++)
        bytes[i] = (unsigned char)(0xff - i);
    check_round_trip(dup, bytes, 127, "bytes 0xff down to 0x81");
    for (int i = 0; i < 127; i++)
        bytes[i] = (unsigned char)(1 + i);
    check_round_trip(dup, bytes, 127, "bytes 0x01 to 0x7f");
    const unsigned char mixed[] = {'a', 0xc3, 0x28, 'b', 0xe2, 0x82, 'c', 0xf0, 0x9f, 0x98, 0x80,
                                   0x80, 0xbf, '\t', 0x1b};
    check_round_trip(dup, mixed, sizeof mixed, "invalid and valid UTF-8 mixed");
    check_round_trip(MPI_COMM_WORLD, mixed, sizeof mixed, "MPI_COMM_WORLD renamed");
    check_round_trip(MPI_COMM_SELF, mixed, 3, "MPI_COMM_SELF renamed");

    /* 199 bytes of 0xff: the first MPI_MAX_OBJECT_NAME - 1 are kept */
    unsigned char ff[199];
    memset(ff, 0xff, sizeof ff);
    check_round_trip(dup, ff, sizeof ff, "199 bytes of 0xff");
    /* a 4-byte character across the cut is cut inside it: bytes, not characters */
    unsigned char across[200];
    memset(across, 'x', sizeof across);
    memcpy(across + MPI_MAX_OBJECT_NAME - 3, "\xf0\x9f\x98\x80", 4);
    check_round_trip(dup, across, sizeof across, "a character across the limit");
    check_round_trip(dup, (const unsigned char *)"", 0, "the empty name");

    /* a duplicate does not inherit the name */
    check_round_trip(dup, mixed, sizeof mixed, "before dup");
    MPI_Comm dup2;
    REQUIRE_OK(MPI_Comm_dup(dup, &dup2));
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_OK(MPI_Comm_get_name(dup2, name, &len));
    CHECK_EQ_INT(len, 0);
    CHECK_OK(MPI_Comm_free(&dup2));
    CHECK_OK(MPI_Comm_free(&dup));
    CHECK_OK(MPI_Finalize());
    return test_finish("names");
}
