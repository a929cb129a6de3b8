/*
 * MPI_Finalize's order under the layer (docs/layer.md), on every process: the delete
 * callbacks of MPI_COMM_SELF's attributes first, newest first, then MPI_COMM_WORLD's, while
 * MPI_Finalized still says false; a live user communicator's attributes are not deleted.
 * After MPI_Finalize the program only reads what the callbacks recorded.
 */
#include "check.h"

static int order[16], finalized_inside[16], nlog;

static int record(MPI_Comm c, int k, void *value, void *e)
{
    (void)c, (void)k, (void)e;
    if (nlog < 16) {
        order[nlog] = (int)PTRI(value);
        MPI_Finalized(&finalized_inside[nlog]);
    }
    nlog++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    int rank;
    REQUIRE_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    int k[5];
    for (int i = 0; i < 5; i++)
        REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, record, &k[i], NULL));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, k[0], IPTR(201)));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_SELF, k[1], IPTR(101)));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, k[2], IPTR(202)));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_SELF, k[3], IPTR(102 + rank)));
    MPI_Comm alive;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &alive));
    CHECK_OK(MPI_Comm_set_attr(alive, k[4], IPTR(901)));
    REQUIRE(MPI_Finalize() == MPI_SUCCESS);

    const int expected[] = {102 + rank, 101, 202, 201};
    CHECK_MSG(nlog == 4, "%d delete callbacks ran during MPI_Finalize, expected 4", nlog);
    for (int i = 0; i < nlog && i < 4; i++) {
        CHECK_MSG(order[i] == expected[i], "finalize delete #%d: got %d, expected %d", i,
                  order[i], expected[i]);
        CHECK_MSG(finalized_inside[i] == 0, "MPI_Finalized said %d inside delete #%d",
                  finalized_inside[i], i);
    }
    return test_finish("layer_finalize");
}
