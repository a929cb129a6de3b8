/*
 * A walk through MPI attribute caching: set, read, copy and delete attributes on a
 * communicator, and watch the callbacks run. Build with the installed wrapper:
 *     mpicc attributes_tour.c -o attributes_tour && ./attributes_tour
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a library might cache on a communicator. */
struct library_state {
    char name[32];
    int uses;
};

static int copy_state(MPI_Comm comm, int keyval, void *extra_state, void *value_in,
                      void *value_out, int *flag)
{
    const struct library_state *in = value_in;
    struct library_state *out = malloc(sizeof *out);
    (void)comm;
    (void)keyval;
    if (out == NULL) {
        return MPI_ERR_NO_MEM;
    }
    *out = *in;
    out->uses = 0;
    printf("  copy callback: copying \"%s\" (extra_state says \"%s\")\n", in->name,
           (const char *)extra_state);
    *(struct library_state **)value_out = out;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_state(MPI_Comm comm, int keyval, void *value, void *extra_state)
{
    struct library_state *state = value;
    (void)comm;
    (void)keyval;
    (void)extra_state;
    printf("  delete callback: releasing \"%s\" after %d uses\n", state->name, state->uses);
    free(state);
    return MPI_SUCCESS;
}

static void show(const char *what, MPI_Comm comm, int keyval)
{
    void *value;
    int flag;
    MPI_Comm_get_attr(comm, keyval, &value, &flag);
    if (flag) {
        struct library_state *state = value;
        state->uses++;
        printf("  %s: \"%s\", used %d times\n", what, state->name, state->uses);
    } else {
        printf("  %s: no attribute\n", what);
    }
}

int main(int argc, char **argv)
{
    int keyval, tag_keyval, flag;
    int *tag_ub;
    char library_version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length;
    MPI_Comm copy;
    struct library_state *state = malloc(sizeof *state);

    MPI_Init(&argc, &argv);
    MPI_Get_library_version(library_version, &length);
    printf("%s\n\n", library_version);

    printf("1. Predefined attribute MPI_TAG_UB on MPI_COMM_WORLD:\n");
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
    printf("  flag %d, value %d\n\n", flag, *tag_ub);

    printf("2. Create a keyval with copy and delete callbacks, set an attribute:\n");
    MPI_Comm_create_keyval(copy_state, delete_state, &keyval, "solver library");
    strcpy(state->name, "solver state");
    state->uses = 0;
    MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, state);
    show("read back", MPI_COMM_WORLD, keyval);
    printf("\n");

    printf("3. Duplicate MPI_COMM_WORLD: the copy callback runs:\n");
    MPI_Comm_dup(MPI_COMM_WORLD, &copy);
    show("on the copy", copy, keyval);
    MPI_Comm_get_attr(copy, MPI_TAG_UB, &tag_ub, &flag);
    printf("  MPI_TAG_UB on the copy: flag %d, value %d\n\n", flag, *tag_ub);

    printf("4. A keyval with MPI_COMM_NULL_COPY_FN is not copied:\n");
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &tag_keyval, NULL);
    MPI_Comm_set_attr(copy, tag_keyval, (void *)(MPI_Aint)42);
    {
        MPI_Comm second;
        void *value;
        MPI_Comm_dup(copy, &second);
        MPI_Comm_get_attr(second, tag_keyval, &value, &flag);
        printf("  on the original: 42; on its duplicate: flag %d\n", flag);
        MPI_Comm_free(&second);
        printf("\n");
    }

    printf("5. Delete the attribute from the copy, then free the copy:\n");
    MPI_Comm_delete_attr(copy, keyval);
    show("after delete", copy, keyval);
    MPI_Comm_free(&copy);
    printf("  copy is MPI_COMM_NULL: %s\n\n", copy == MPI_COMM_NULL ? "yes" : "no");

    printf("6. Free the keyval while MPI_COMM_WORLD still uses it, then finalize:\n");
    MPI_Comm_free_keyval(&keyval);
    printf("  keyval is now MPI_KEYVAL_INVALID: %s\n", keyval == MPI_KEYVAL_INVALID ? "yes" : "no");
    MPI_Comm_free_keyval(&tag_keyval);
    MPI_Finalize();
    printf("done\n");
    return 0;
}
