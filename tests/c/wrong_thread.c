/*
 * A thread other than the initializing one, under MPI_Init (MPI_THREAD_SINGLE), with
 * MPI_ERRORS_RETURN on MPI_COMM_WORLD and MPI_COMM_SELF (docs/semantics.md, "Initialisation
 * and threads"): every call that needs the library's state is refused with MPI_ERR_OTHER and
 * returns; nothing changes. The error is raised on MPI_COMM_WORLD's handler when the call names
 * MPI_COMM_WORLD, else on MPI_COMM_SELF's: the refused thread cannot look at other objects.
 * Before this was fixed, finding the handler went through the lock that had just refused the
 * thread, and the fallback was fatal: the first call printed a line and exited with 16.
 */
#include "check.h"

#include <pthread.h>

static MPI_Comm dup;
static MPI_Datatype type;
static int key;

static void *other_thread(void *arg)
{
    (void)arg;
    struct outs o;
    const char *what = "another thread under MPI_THREAD_SINGLE";
    CHECK_FAILS_NEW(what, o, MPI_Comm_dup(MPI_COMM_WORLD, &o.comm), MPI_ERR_OTHER);
    CHECK_FAILS_NEW(what, o, MPI_Comm_dup(dup, &o.comm), MPI_ERR_OTHER);
    CHECK_FAILS(what, o, MPI_Comm_set_attr(dup, key, IPTR(9)), MPI_ERR_OTHER);
    CHECK_FAILS(what, o, MPI_Comm_set_attr(MPI_COMM_WORLD, key, IPTR(9)), MPI_ERR_OTHER);
    CHECK_FAILS(what, o, MPI_Comm_get_attr(dup, key, &o.ptr, &o.i), MPI_ERR_OTHER);
    CHECK_FAILS(what, o, MPI_Comm_delete_attr(dup, key), MPI_ERR_OTHER);
    CHECK_FAILS(what, o, MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &o.i,
                                                NULL),
                MPI_ERR_OTHER);
    CHECK_FAILS_NEW(what, o, MPI_Type_dup(type, &o.type), MPI_ERR_OTHER);
    CHECK_FAILS(what, o, MPI_Type_set_attr(type, key, IPTR(9)), MPI_ERR_OTHER);
    MPI_Comm victim = dup;
    CHECK_FAILS_INOUT(what, o, victim, MPI_Comm_free(&victim), MPI_ERR_OTHER);
    return NULL;
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    /* The duplicate's own handler is fatal: a refused thread's error must not go there. */
    REQUIRE_OK(MPI_Comm_set_errhandler(dup, MPI_ERRORS_ARE_FATAL));
    REQUIRE_OK(MPI_Type_contiguous(2, MPI_INT, &type));
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, counting_comm_delete, &key, NULL));
    REQUIRE_OK(MPI_Comm_set_attr(dup, key, IPTR(5)));

    pthread_t th;
    REQUIRE(pthread_create(&th, NULL, other_thread, NULL) == 0);
    REQUIRE(pthread_join(th, NULL) == 0);

    /* Nothing changed: the value is still there, no callback ran, the objects still work. */
    void *v = NULL;
    int flag = 0;
    CHECK_OK(MPI_Comm_get_attr(dup, key, &v, &flag));
    CHECK(flag == 1 && PTRI(v) == 5);
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &v, &flag));
    CHECK_EQ_INT(flag, 0);
    CHECK_EQ_INT(callback_calls, 0);
    CHECK_OK(MPI_Comm_free(&dup));
    CHECK_EQ_INT(callback_calls, 1);
    CHECK_OK(MPI_Type_free(&type));
    CHECK_OK(MPI_Comm_free_keyval(&key));
    CHECK_OK(MPI_Finalize());
    return test_finish("wrong_thread");
}
