// expect-leaks: the inner longjmp skips the library's frames between the callback and the setjmp, and what they held (a reference to the callback) is never released
/*
 * A longjmp that stays inside a callback (docs/semantics.md, "Callbacks that break the
 * rules"): a delete callback run by MPI_Comm_free calls MPI_Comm_delete_attr, whose own delete
 * callback longjmps back into the first one, which then returns normally. The inner call is
 * interrupted and recovered later; the outer MPI_Comm_free goes on and must treat the
 * callbacks it still runs as running: each value's delete callback is called once.
 *
 * (Before: the library went on taking the interrupted inner call for the current one, so a
 * later callback of the same MPI_Comm_free was taken for gone when it called in, and its value
 * was deleted twice.)
 */
#include "check.h"

#include <setjmp.h>
#include <string.h>

static jmp_buf *escape;
static int inner_keyval, outer_keyval, plain_keyval;
static int inner_calls, outer_calls, plain_calls, jump_next;

static int inner_delete(MPI_Comm c, int kv, void *value, void *e)
{
    (void)c, (void)kv, (void)value, (void)e;
    if (jump_next) {
        jump_next = 0;
        longjmp(*escape, 1);
    }
    inner_calls++;
    return MPI_SUCCESS;
}

/* Lands the longjmp in its own frame, kept large so that the inner call enters deeper than
   the calls plain_delete makes. */
static int outer_delete(MPI_Comm c, int kv, void *value, void *e)
{
    (void)c, (void)kv, (void)value, (void)e;
    outer_calls++;
    volatile char pad[4096];
    memset((char *)pad, 1, sizeof pad);
    jmp_buf here;
    escape = &here;
    if (setjmp(here) == 0) {
        jump_next = 1;
        MPI_Comm_delete_attr(MPI_COMM_SELF, inner_keyval);
        CHECK_MSG(0, "MPI_Comm_delete_attr returned although its callback longjmped");
    }
    return pad[7] == 1 ? MPI_SUCCESS : MPI_ERR_OTHER;
}

/* Calls in while it runs (a call that takes the library's lock). */
static int plain_delete(MPI_Comm c, int kv, void *value, void *e)
{
    (void)c, (void)kv, (void)value, (void)e;
    plain_calls++;
    int scratch;
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &scratch, NULL));
    CHECK_OK(MPI_Comm_free_keyval(&scratch));
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, inner_delete, &inner_keyval, NULL));
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, outer_delete, &outer_keyval, NULL));
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, plain_delete, &plain_keyval, NULL));
    REQUIRE_OK(MPI_Comm_set_attr(MPI_COMM_SELF, inner_keyval, IPTR(1)));

    MPI_Comm comm;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    /* Deleted newest first: outer_delete, then plain_delete. */
    REQUIRE_OK(MPI_Comm_set_attr(comm, plain_keyval, IPTR(2)));
    REQUIRE_OK(MPI_Comm_set_attr(comm, outer_keyval, IPTR(3)));
    CHECK_OK(MPI_Comm_free(&comm));
    CHECK_EQ_HANDLE(comm, MPI_COMM_NULL);
    CHECK_EQ_INT(outer_calls, 1);
    CHECK_EQ_INT(plain_calls, 1);
    CHECK_EQ_INT(inner_calls, 0);

    /* The interrupted inner delete: its value stayed, and deleting it again works. */
    void *v = NULL;
    int flag = 0;
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_SELF, inner_keyval, &v, &flag));
    CHECK_MSG(flag == 1 && PTRI(v) == 1, "the interrupted value stays: flag %d", flag);
    CHECK_OK(MPI_Comm_delete_attr(MPI_COMM_SELF, inner_keyval));
    CHECK_EQ_INT(inner_calls, 1);
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_SELF, inner_keyval, &v, &flag));
    CHECK_EQ_INT(flag, 0);

    CHECK_OK(MPI_Comm_free_keyval(&inner_keyval));
    CHECK_OK(MPI_Comm_free_keyval(&outer_keyval));
    CHECK_OK(MPI_Comm_free_keyval(&plain_keyval));
    REQUIRE_OK(MPI_Finalize());
    return test_finish("longjmp_nested");
}
