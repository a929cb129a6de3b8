/*
 * Callback arguments that are not functions (docs/semantics.md, "Predefined callbacks"):
 * MPI_*_DUP_FN (the value 1) given as a delete callback, and any other value below 4096 given
 * as a copy or delete callback, fail with MPI_ERR_ARG in every create call (the three kinds
 * and MPI_Keyval_create), write no keyval and create nothing. Before this check the library
 * accepted 1 as a delete callback and called it when the attribute went: SIGSEGV.
 * MPI_*_DUP_FN and the null functions in their own slots still work.
 */
#include "check.h"

/* The callback arguments as numbers: what a cast of a predefined value (or of garbage) to
   a callback type passes. */
static int created(int kind_index, uintptr_t copy, uintptr_t del, int *key)
{
    switch (kind_index) {
    case 0:
        return MPI_Comm_create_keyval((MPI_Comm_copy_attr_function *)copy,
                                      (MPI_Comm_delete_attr_function *)del, key, NULL);
    case 1:
        return MPI_Type_create_keyval((MPI_Type_copy_attr_function *)copy,
                                      (MPI_Type_delete_attr_function *)del, key, NULL);
    case 2:
        return MPI_Win_create_keyval((MPI_Win_copy_attr_function *)copy,
                                     (MPI_Win_delete_attr_function *)del, key, NULL);
    default:
        return MPI_Keyval_create((MPI_Copy_function *)copy, (MPI_Delete_function *)del, key,
                                 NULL);
    }
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    static const char *const kinds[] = {"MPI_Comm_create_keyval", "MPI_Type_create_keyval",
                                        "MPI_Win_create_keyval", "MPI_Keyval_create"};
    /* MPI_*_DUP_FN and the null functions, as the header defines them for each kind. */
    const uintptr_t dup_fn[] = {(uintptr_t)MPI_COMM_DUP_FN, (uintptr_t)MPI_TYPE_DUP_FN,
                                (uintptr_t)MPI_WIN_DUP_FN, (uintptr_t)MPI_DUP_FN};
    const uintptr_t null_copy[] = {(uintptr_t)MPI_COMM_NULL_COPY_FN,
                                   (uintptr_t)MPI_TYPE_NULL_COPY_FN,
                                   (uintptr_t)MPI_WIN_NULL_COPY_FN, (uintptr_t)MPI_NULL_COPY_FN};
    const uintptr_t null_delete[] = {
        (uintptr_t)MPI_COMM_NULL_DELETE_FN, (uintptr_t)MPI_TYPE_NULL_DELETE_FN,
        (uintptr_t)MPI_WIN_NULL_DELETE_FN, (uintptr_t)MPI_NULL_DELETE_FN};
    for (int k = 0; k < 4; k++) {
        struct outs o;
        CHECK_FAILS(kinds[k], o, created(k, dup_fn[k], dup_fn[k], &o.i), MPI_ERR_ARG);
        CHECK_FAILS(kinds[k], o, created(k, null_copy[k], dup_fn[k], &o.i), MPI_ERR_ARG);
        const uintptr_t bad[] = {2, 3, 0x10, 0xfff};
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
            CHECK_FAILS(kinds[k], o, created(k, bad[b], null_delete[k], &o.i), MPI_ERR_ARG);
            CHECK_FAILS(kinds[k], o, created(k, dup_fn[k], bad[b], &o.i), MPI_ERR_ARG);
        }
        /* The predefined values in their own slots are accepted and never called. */
        int key = MPI_KEYVAL_INVALID;
        CHECK_OK(created(k, dup_fn[k], null_delete[k], &key));
        CHECK(key != MPI_KEYVAL_INVALID);
        int freed = key;
        if (k == 1)
            CHECK_OK(MPI_Type_free_keyval(&freed));
        else if (k == 2)
            CHECK_OK(MPI_Win_free_keyval(&freed));
        else
            CHECK_OK(MPI_Comm_free_keyval(&freed));
    }

    /* The refused delete callback was never stored: a keyval made right after works, and a
       communicator carrying a DUP_FN value is duplicated and freed without calling 1. */
    int key;
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, counting_comm_delete, &key, NULL));
    MPI_Comm dup;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_OK(MPI_Comm_set_attr(dup, key, IPTR(5)));
    MPI_Comm dup2;
    CHECK_OK(MPI_Comm_dup(dup, &dup2));
    CHECK_OK(MPI_Comm_free(&dup2));
    CHECK_OK(MPI_Comm_free(&dup));
    CHECK_EQ_INT(callback_calls, 2);
    CHECK_OK(MPI_Comm_free_keyval(&key));
    CHECK_OK(MPI_Finalize());
    return test_finish("callback_values");
}
