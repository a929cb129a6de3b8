/*
 * Handle reuse (docs/layer.md): both MPICH and Open MPI give a freed communicator's or
 * datatype's handle to the next new one. A new object never shows the attributes of the
 * freed object that had its handle, whether or not the handle came back.
 */
#include "check.h"

static int deletes;

static int count_delete(MPI_Comm c, int k, void *v, void *e)
{
    (void)c, (void)k, (void)v, (void)e;
    deletes++;
    return MPI_SUCCESS;
}

static int count_type_delete(MPI_Datatype t, int k, void *v, void *e)
{
    (void)t, (void)k, (void)v, (void)e;
    deletes++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    int kc, kt;
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_delete, &kc, NULL));
    REQUIRE_OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, count_type_delete, &kt, NULL));
    MPI_Comm previous = MPI_COMM_NULL;
    int reused = 0;
    for (int i = 0; i < 40; i++) {
        MPI_Comm comm;
        REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
        reused += comm == previous;
        void *v = NULL;
        int flag = -1;
        CHECK_OK(MPI_Comm_get_attr(comm, kc, &v, &flag));
        CHECK_MSG(flag == 0, "round %d: a new communicator shows a value (%ld)", i,
                  (long)PTRI(v));
        if (i % 2 == 0)
            CHECK_OK(MPI_Comm_set_attr(comm, kc, IPTR(i)));
        previous = comm;
        CHECK_OK(MPI_Comm_free(&comm));

        MPI_Datatype type;
        REQUIRE_OK(MPI_Type_contiguous(i + 1, MPI_INT, &type));
        flag = -1;
        CHECK_OK(MPI_Type_get_attr(type, kt, &v, &flag));
        CHECK_MSG(flag == 0, "round %d: a new datatype shows a value", i);
        if (i % 2 == 1)
            CHECK_OK(MPI_Type_set_attr(type, kt, IPTR(i)));
        CHECK_OK(MPI_Type_free(&type));
    }
    CHECK_EQ_INT(deletes, 40);
    /* Both MPIs reuse the handle at once: the test saw what it is about. */
    CHECK_MSG(reused > 0, "no communicator handle was reused");
    CHECK_OK(MPI_Comm_free_keyval(&kc));
    CHECK_OK(MPI_Type_free_keyval(&kt));
    /* Not CHECK_OK: Open MPI 4.1.4 aborts an MPI_Error_class after MPI_Finalize. */
    REQUIRE(MPI_Finalize() == MPI_SUCCESS);
    return test_finish("layer_reuse");
}
