// expect-leaks: a longjmp skips the library's frames between the callback and setjmp, and what they held (a reference to the callback) is never released
/*
 * A thread that longjmps out of a callback and then ends (docs/semantics.md, "Callbacks that
 * break the rules"). The library ends the interrupted call at the thread's next call, or, when
 * the thread ends first, as the thread ends: under MPI_THREAD_MULTIPLE a worker longjmps out
 * of the delete callback run by its MPI_Comm_free, and out of the one run by its
 * MPI_Comm_delete_attr, and returns; afterwards the main thread frees the communicator and
 * deletes the value, and each delete callback runs again.
 *
 * (Before: the communicator stayed "being freed" and the value "being deleted" for the rest
 * of the program: MPI_Comm_free failed and the delete did nothing.)
 */
#include "check.h"

#include <pthread.h>
#include <setjmp.h>

static _Thread_local jmp_buf escape;
static _Thread_local int jump_next;
static int delete_calls;
static MPI_Comm comm;
static int kv;

static int jumping_delete(MPI_Comm c, int k, void *value, void *e)
{
    (void)c, (void)k, (void)value, (void)e;
    if (jump_next) {
        jump_next = 0;
        longjmp(escape, 1);
    }
    delete_calls++;
    return MPI_SUCCESS;
}

static void *worker(void *arg)
{
    (void)arg;
    jump_next = 1;
    if (setjmp(escape) == 0) {
        MPI_Comm_free(&comm);
        CHECK_MSG(0, "MPI_Comm_free returned although its callback longjmped");
    }
    jump_next = 1;
    if (setjmp(escape) == 0) {
        MPI_Comm_delete_attr(MPI_COMM_SELF, kv);
        CHECK_MSG(0, "MPI_Comm_delete_attr returned although its callback longjmped");
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    REQUIRE_OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    errors_return();
    REQUIRE(provided == MPI_THREAD_MULTIPLE);
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, jumping_delete, &kv, NULL));
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    REQUIRE_OK(MPI_Comm_set_attr(comm, kv, IPTR(1)));
    REQUIRE_OK(MPI_Comm_set_attr(MPI_COMM_SELF, kv, IPTR(2)));

    pthread_t thread;
    REQUIRE(pthread_create(&thread, NULL, worker, NULL) == 0);
    REQUIRE(pthread_join(thread, NULL) == 0);
    CHECK_EQ_INT(delete_calls, 0);

    /* Both values stayed, and neither is stuck. */
    void *v = NULL;
    int flag = 0;
    CHECK_OK(MPI_Comm_get_attr(comm, kv, &v, &flag));
    CHECK_MSG(flag == 1 && PTRI(v) == 1, "the communicator's value stays: flag %d", flag);
    CHECK_OK(MPI_Comm_free(&comm));
    CHECK_EQ_HANDLE(comm, MPI_COMM_NULL);
    CHECK_EQ_INT(delete_calls, 1);
    CHECK_OK(MPI_Comm_delete_attr(MPI_COMM_SELF, kv));
    CHECK_EQ_INT(delete_calls, 2);
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_SELF, kv, &v, &flag));
    CHECK_EQ_INT(flag, 0);

    CHECK_OK(MPI_Comm_free_keyval(&kv));
    REQUIRE_OK(MPI_Finalize());
    return test_finish("longjmp_thread");
}
