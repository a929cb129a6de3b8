/*
 * Environment and communicator basics: MPI_Get_version == 5.0 (before and after MPI_Init),
 * MPI_Get_library_version, MPI_Initialized / MPI_Finalized, MPI_Query_thread after MPI_Init
 * (MPI_THREAD_SINGLE) and MPI_Is_thread_main (true on the main thread, false on another),
 * MPI_Wtime / MPI_Wtick; MPI_Comm_rank 0 and MPI_Comm_size 1 on every communicator;
 * MPI_Comm_compare (MPI_IDENT for the same handle, MPI_CONGRUENT for a dup, a split and
 * WORLD vs SELF); MPI_Comm_set_name / MPI_Comm_get_name (predefined names, empty name of a new
 * communicator, names not copied by dup); MPI_Comm_split; MPI_Alloc_mem / MPI_Free_mem.
 */
#include "check.h"

#include <pthread.h>

static int thread_main_flag = -1;
static int thread_main_rc = -1;

static void *other_thread(void *arg)
{
    (void)arg;
    thread_main_rc = MPI_Is_thread_main(&thread_main_flag);
    return NULL;
}

static void check_name(MPI_Comm c, const char *expected)
{
    char name[MPI_MAX_OBJECT_NAME];
    memset(name, 'x', sizeof name);
    int len = -1;
    CHECK_OK(MPI_Comm_get_name(c, name, &len));
    CHECK_EQ_STR(name, expected);
    CHECK_EQ_INT(len, (int)strlen(expected));
}

int main(int argc, char **argv)
{
    int version = -1, subversion = -1;
    CHECK_OK(MPI_Get_version(&version, &subversion));
    CHECK_EQ_INT(version, 5);
    CHECK_EQ_INT(subversion, 0);
    CHECK_EQ_INT(MPI_VERSION, 5);
    CHECK_EQ_INT(MPI_SUBVERSION, 0);
    int flag = -1;
    CHECK_OK(MPI_Initialized(&flag));
    CHECK_EQ_INT(flag, 0);
    flag = -1;
    CHECK_OK(MPI_Finalized(&flag));
    CHECK_EQ_INT(flag, 0);

    test_init(&argc, &argv);

    flag = -1;
    CHECK_OK(MPI_Initialized(&flag));
    CHECK_EQ_INT(flag, 1);
    flag = -1;
    CHECK_OK(MPI_Finalized(&flag));
    CHECK_EQ_INT(flag, 0);
    version = subversion = -1;
    CHECK_OK(MPI_Get_version(&version, &subversion));
    CHECK_EQ_INT(version, 5);
    CHECK_EQ_INT(subversion, 0);

    {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = -1;
        CHECK_OK(MPI_Get_library_version(lib, &len));
        CHECK_MSG(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING, "library version length %d", len);
        if (len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING)
            CHECK_EQ_INT((int)strlen(lib), len);
    }

    int provided = -1;
    CHECK_OK(MPI_Query_thread(&provided));
    CHECK_EQ_INT(provided, MPI_THREAD_SINGLE);
    flag = -1;
    CHECK_OK(MPI_Is_thread_main(&flag));
    CHECK_EQ_INT(flag, 1);
    {
        pthread_t th;
        REQUIRE(pthread_create(&th, NULL, other_thread, NULL) == 0);
        REQUIRE(pthread_join(th, NULL) == 0);
        CHECK_EQ_INT(thread_main_rc, MPI_SUCCESS);
        CHECK_EQ_INT(thread_main_flag, 0);
    }

    {
        double t0 = MPI_Wtime();
        double tick = MPI_Wtick();
        CHECK_MSG(tick > 0.0 && tick < 1.0, "MPI_Wtick() = %g", tick);
        volatile double x = 0;
        for (int i = 0; i < 1000000; i++)
            x += i;
        double t1 = MPI_Wtime();
        CHECK_MSG(t1 >= t0, "MPI_Wtime went backwards: %f then %f", t0, t1);
    }

    /* rank and size */
    MPI_Comm dup, split, selfdup;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    REQUIRE_OK(MPI_Comm_split(MPI_COMM_WORLD, 5, 0, &split));
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_SELF, &selfdup));
    {
        MPI_Comm all[5] = {MPI_COMM_WORLD, MPI_COMM_SELF, dup, split, selfdup};
        for (int i = 0; i < 5; i++) {
            int rank = -1, size = -1;
            CHECK_OK(MPI_Comm_rank(all[i], &rank));
            CHECK_OK(MPI_Comm_size(all[i], &size));
            CHECK_MSG(rank == 0 && size == 1, "communicator #%d: rank %d size %d", i, rank, size);
        }
    }

    /* compare */
    {
        int r = -1;
        CHECK_OK(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &r));
        CHECK_EQ_INT(r, MPI_IDENT);
        CHECK_OK(MPI_Comm_compare(dup, dup, &r));
        CHECK_EQ_INT(r, MPI_IDENT);
        CHECK_OK(MPI_Comm_compare(MPI_COMM_WORLD, dup, &r));
        CHECK_EQ_INT(r, MPI_CONGRUENT);
        CHECK_OK(MPI_Comm_compare(dup, MPI_COMM_WORLD, &r));
        CHECK_EQ_INT(r, MPI_CONGRUENT);
        CHECK_OK(MPI_Comm_compare(split, dup, &r));
        CHECK_EQ_INT(r, MPI_CONGRUENT);
        CHECK_OK(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, &r));
        CHECK_EQ_INT(r, MPI_CONGRUENT);
        CHECK_OK(MPI_Comm_compare(MPI_COMM_SELF, selfdup, &r));
        CHECK_EQ_INT(r, MPI_CONGRUENT);
    }

    /* names */
    check_name(MPI_COMM_WORLD, "MPI_COMM_WORLD");
    check_name(MPI_COMM_SELF, "MPI_COMM_SELF");
    check_name(dup, "");
    check_name(split, "");
    CHECK_OK(MPI_Comm_set_name(dup, "my communicator"));
    check_name(dup, "my communicator");
    CHECK_OK(MPI_Comm_set_name(dup, "renamed"));
    check_name(dup, "renamed");
    {
        MPI_Comm d2;
        CHECK_OK(MPI_Comm_dup(dup, &d2));
        check_name(d2, "");
        CHECK_OK(MPI_Comm_free(&d2));
    }
    CHECK_OK(MPI_Comm_set_name(MPI_COMM_WORLD, "world renamed"));
    check_name(MPI_COMM_WORLD, "world renamed");
    CHECK_OK(MPI_Comm_set_name(MPI_COMM_WORLD, "MPI_COMM_WORLD"));
    {
        /* a name of MPI_MAX_OBJECT_NAME - 1 characters fits exactly */
        char longname[MPI_MAX_OBJECT_NAME];
        memset(longname, 'n', sizeof longname);
        longname[MPI_MAX_OBJECT_NAME - 1] = '\0';
        CHECK_OK(MPI_Comm_set_name(split, longname));
        check_name(split, longname);
    }

    /* split */
    {
        MPI_Comm none = SENTINEL_HANDLE(MPI_Comm);
        CHECK_OK(MPI_Comm_split(dup, MPI_UNDEFINED, 0, &none));
        CHECK_EQ_HANDLE(none, MPI_COMM_NULL);
        MPI_Comm s2;
        CHECK_OK(MPI_Comm_split(MPI_COMM_SELF, 0, 7, &s2));
        CHECK_NE_HANDLE(s2, MPI_COMM_NULL);
        CHECK_NE_HANDLE(s2, MPI_COMM_SELF);
        CHECK_OK(MPI_Comm_free(&s2));
        CHECK_EQ_HANDLE(s2, MPI_COMM_NULL);
    }

    /* memory */
    {
        void *a = NULL, *b = NULL, *z1 = NULL, *z2 = NULL;
        CHECK_OK(MPI_Alloc_mem(1000, MPI_INFO_NULL, &a));
        CHECK_OK(MPI_Alloc_mem(8, MPI_INFO_NULL, &b));
        REQUIRE(a != NULL && b != NULL);
        CHECK(a != b);
        memset(a, 0xab, 1000);
        memset(b, 0xcd, 8);
        CHECK_EQ_INT(((unsigned char *)a)[999], 0xab);
        CHECK_EQ_INT(((unsigned char *)b)[7], 0xcd);
        CHECK_OK(MPI_Alloc_mem(0, MPI_INFO_NULL, &z1));
        CHECK_OK(MPI_Alloc_mem(0, MPI_INFO_NULL, &z2));
        CHECK(z1 != NULL && z2 != NULL);
        CHECK(z1 != z2);
        CHECK_OK(MPI_Free_mem(a));
        CHECK_OK(MPI_Free_mem(b));
        CHECK_OK(MPI_Free_mem(z1));
        CHECK_OK(MPI_Free_mem(z2));
        CHECK_OK(MPI_Free_mem(NULL));
    }

    CHECK_OK(MPI_Comm_free(&dup));
    CHECK_OK(MPI_Comm_free(&split));
    CHECK_OK(MPI_Comm_free(&selfdup));
    CHECK_EQ_HANDLE(selfdup, MPI_COMM_NULL);

    REQUIRE_OK(MPI_Finalize());
    flag = -1;
    CHECK_OK(MPI_Finalized(&flag));
    CHECK_EQ_INT(flag, 1);
    flag = -1;
    CHECK_OK(MPI_Initialized(&flag));
    CHECK_EQ_INT(flag, 1);
    version = -1;
    CHECK_OK(MPI_Get_version(&version, &subversion));
    CHECK_EQ_INT(version, 5);
    return test_finish("env_basics");
}
