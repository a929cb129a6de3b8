/*
 * Groups and new communicators of one process (issue 14 part 1, item 4), with
 * MPI_ERRORS_RETURN:
 * - Comm_group of WORLD and SELF (equal groups: MPI_IDENT), every Group_ function with exact
 *   results: size, rank, translate_ranks (MPI_PROC_NULL maps to itself, a rank missing from
 *   the other group to MPI_UNDEFINED), compare, union, intersection, difference, incl, excl,
 *   range_incl, range_excl, and MPI_GROUP_EMPTY (size 0, rank MPI_UNDEFINED);
 * - errors: ranks out of range or repeated (MPI_ERR_RANK), MPI_GROUP_NULL (MPI_ERR_GROUP);
 * - Comm_create and Comm_create_group with the whole group (a new communicator, MPI_CONGRUENT
 *   to WORLD) and with MPI_GROUP_EMPTY (MPI_COMM_NULL), Comm_split (MPI_UNDEFINED colour gives
 *   MPI_COMM_NULL), Comm_split_type MPI_COMM_TYPE_SHARED;
 * - attributes: copied by Comm_dup only, not by create/split;
 * - Comm_set_info/get_info, Comm_test_inter (false), Comm_get_parent (MPI_COMM_NULL);
 * - MPI-4 sessions: psets mpi://WORLD and mpi://SELF (in any case), Group_from_session_pset,
 *   Comm_create_from_group (skipped, with a SKIP line, where the header is MPI-3).
 */
#include "check.h"

static int kv = MPI_KEYVAL_INVALID;

static void groups(void)
{
    MPI_Group gw = MPI_GROUP_NULL, gs = MPI_GROUP_NULL, g;
    int n = -1, r = -1, res = -1;
    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &gw));
    CHECK_OK(MPI_Comm_group(MPI_COMM_SELF, &gs));
    CHECK_OK(MPI_Group_size(gw, &n));
    CHECK_EQ_INT(n, 1);
    CHECK_OK(MPI_Group_rank(gw, &r));
    CHECK_EQ_INT(r, 0);
    CHECK_OK(MPI_Group_compare(gw, gs, &res));
    CHECK_EQ_INT(res, MPI_IDENT);
    CHECK_OK(MPI_Group_compare(gw, MPI_GROUP_EMPTY, &res));
    CHECK_EQ_INT(res, MPI_UNEQUAL);
    CHECK_OK(MPI_Group_size(MPI_GROUP_EMPTY, &n));
    CHECK_EQ_INT(n, 0);
    CHECK_OK(MPI_Group_rank(MPI_GROUP_EMPTY, &r));
    CHECK_EQ_INT(r, MPI_UNDEFINED);

    int in[3] = {0, MPI_PROC_NULL, 0}, out[3] = {-9, -9, -9};
    CHECK_OK(MPI_Group_translate_ranks(gw, 3, in, gs, out));
    CHECK(out[0] == 0 && out[1] == MPI_PROC_NULL && out[2] == 0);
    CHECK_OK(MPI_Group_translate_ranks(gw, 1, in, MPI_GROUP_EMPTY, out));
    CHECK_EQ_INT(out[0], MPI_UNDEFINED);

    CHECK_OK(MPI_Group_union(gw, MPI_GROUP_EMPTY, &g));
    CHECK_OK(MPI_Group_compare(g, gw, &res));
    CHECK_EQ_INT(res, MPI_IDENT);
    CHECK_OK(MPI_Group_free(&g));
    CHECK_EQ_HANDLE(g, MPI_GROUP_NULL);
    CHECK_OK(MPI_Group_intersection(gw, MPI_GROUP_EMPTY, &g));
    CHECK_OK(MPI_Group_size(g, &n));
    CHECK_EQ_INT(n, 0);
    CHECK_OK(MPI_Group_compare(g, MPI_GROUP_EMPTY, &res));
    CHECK_EQ_INT(res, MPI_IDENT);
    if (g != MPI_GROUP_EMPTY)
        CHECK_OK(MPI_Group_free(&g));
    CHECK_OK(MPI_Group_difference(gw, gs, &g));
    CHECK_OK(MPI_Group_size(g, &n));
    CHECK_EQ_INT(n, 0);
    if (g != MPI_GROUP_EMPTY)
        CHECK_OK(MPI_Group_free(&g));
    CHECK_OK(MPI_Group_difference(gw, MPI_GROUP_EMPTY, &g));
    CHECK_OK(MPI_Group_size(g, &n));
    CHECK_EQ_INT(n, 1);
    CHECK_OK(MPI_Group_free(&g));

    int zero[1] = {0};
    CHECK_OK(MPI_Group_incl(gw, 1, zero, &g));
    CHECK_OK(MPI_Group_compare(g, gw, &res));
    CHECK_EQ_INT(res, MPI_IDENT);
    CHECK_OK(MPI_Group_free(&g));
    CHECK_OK(MPI_Group_incl(gw, 0, zero, &g));
    CHECK_OK(MPI_Group_size(g, &n));
    CHECK_EQ_INT(n, 0);
    if (g != MPI_GROUP_EMPTY)
        CHECK_OK(MPI_Group_free(&g));
    CHECK_OK(MPI_Group_excl(gw, 1, zero, &g));
    CHECK_OK(MPI_Group_size(g, &n));
    CHECK_EQ_INT(n, 0);
    if (g != MPI_GROUP_EMPTY)
        CHECK_OK(MPI_Group_free(&g));
    int range[1][3] = {{0, 0, 1}};
    CHECK_OK(MPI_Group_range_incl(gw, 1, range, &g));
    CHECK_OK(MPI_Group_size(g, &n));
    CHECK_EQ_INT(n, 1);
    CHECK_OK(MPI_Group_free(&g));
    CHECK_OK(MPI_Group_range_excl(gw, 1, range, &g));
    CHECK_OK(MPI_Group_size(g, &n));
    CHECK_EQ_INT(n, 0);
    if (g != MPI_GROUP_EMPTY)
        CHECK_OK(MPI_Group_free(&g));

    /* Errors: nothing is written. */
    MPI_Group keep = SENTINEL_HANDLE(MPI_Group);
    int one[1] = {1}, twice[2] = {0, 0};
    g = keep;
    CHECK_RC(MPI_Group_incl(gw, 1, one, &g), MPI_ERR_RANK);
    CHECK_RC(MPI_Group_incl(gw, 2, twice, &g), MPI_ERR_RANK);
    CHECK_RC(MPI_Group_excl(gw, 1, one, &g), MPI_ERR_RANK);
    int bad_range[1][3] = {{0, 1, 1}};
    CHECK_RC(MPI_Group_range_incl(gw, 1, bad_range, &g), MPI_ERR_RANK);
    CHECK_EQ_HANDLE(g, keep);
    in[0] = 1;
    out[0] = -9;
    CHECK_RC(MPI_Group_translate_ranks(gw, 1, in, gs, out), MPI_ERR_RANK);
    CHECK_EQ_INT(out[0], -9);
    n = SENTINEL_INT;
    CHECK_RC(MPI_Group_size(MPI_GROUP_NULL, &n), MPI_ERR_GROUP);
    CHECK_RC(MPI_Group_compare(MPI_GROUP_NULL, gw, &n), MPI_ERR_GROUP);
    CHECK_EQ_INT(n, SENTINEL_INT);
    g = MPI_GROUP_NULL;
    CHECK_RC(MPI_Group_free(&g), MPI_ERR_GROUP);

    CHECK_OK(MPI_Group_free(&gw));
    CHECK_OK(MPI_Group_free(&gs));
}

static void check_new_comm(MPI_Comm c, const char *what)
{
    REQUIRE(c != MPI_COMM_NULL);
    int n = -1, r = -1, res = -1, flag = -1;
    CHECK_OK(MPI_Comm_size(c, &n));
    CHECK_OK(MPI_Comm_rank(c, &r));
    CHECK_MSG(n == 1 && r == 0, "%s: size %d rank %d", what, n, r);
    CHECK_OK(MPI_Comm_compare(c, MPI_COMM_WORLD, &res));
    CHECK_MSG(res == MPI_CONGRUENT, "%s: compare with WORLD gave %d", what, res);
    CHECK_OK(MPI_Comm_test_inter(c, &flag));
    CHECK_EQ_INT(flag, 0);
    void *v = NULL;
    flag = -1;
    CHECK_OK(MPI_Comm_get_attr(c, kv, &v, &flag));
    CHECK_MSG(flag == 0, "%s: WORLD's attribute was copied", what);
    /* It communicates. */
    int x = 17, y = 0;
    CHECK_OK(MPI_Sendrecv(&x, 1, MPI_INT, 0, 1, &y, 1, MPI_INT, 0, 1, c, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(y, 17);
}

static void communicators(void)
{
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kv, IPTR(5)));
    MPI_Group gw;
    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &gw));
    MPI_Comm c = MPI_COMM_NULL;

    CHECK_OK(MPI_Comm_create(MPI_COMM_WORLD, gw, &c));
    check_new_comm(c, "Comm_create");
    CHECK_OK(MPI_Comm_free(&c));
    CHECK_OK(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &c));
    CHECK_EQ_HANDLE(c, MPI_COMM_NULL);
    CHECK_OK(MPI_Comm_create_group(MPI_COMM_WORLD, gw, 5, &c));
    check_new_comm(c, "Comm_create_group");
    CHECK_OK(MPI_Comm_free(&c));
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, 3, 0, &c));
    check_new_comm(c, "Comm_split");
    CHECK_OK(MPI_Comm_free(&c));
    c = SENTINEL_HANDLE(MPI_Comm);
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, 0, &c));
    CHECK_EQ_HANDLE(c, MPI_COMM_NULL);
    CHECK_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c));
    check_new_comm(c, "Comm_split_type SHARED");
    CHECK_OK(MPI_Comm_free(&c));
    c = SENTINEL_HANDLE(MPI_Comm);
    CHECK_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &c));
    CHECK_EQ_HANDLE(c, MPI_COMM_NULL);

    /* Comm_dup copies the attribute. */
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    void *v = NULL;
    int flag = -1;
    CHECK_OK(MPI_Comm_get_attr(c, kv, &v, &flag));
    CHECK(flag == 1 && PTRI(v) == 5);

    /* Info hints round-trip through set_info/get_info as far as the implementation keeps
       them; get_info always gives a new info object to free. */
    MPI_Info info, got = MPI_INFO_NULL;
    CHECK_OK(MPI_Info_create(&info));
    CHECK_OK(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    CHECK_OK(MPI_Comm_set_info(c, info));
    CHECK_OK(MPI_Comm_get_info(c, &got));
    CHECK_NE_HANDLE(got, MPI_INFO_NULL);
    CHECK_NE_HANDLE(got, info);
    int nkeys = -1;
    CHECK_OK(MPI_Info_get_nkeys(got, &nkeys));
    CHECK(nkeys >= 0);
    CHECK_OK(MPI_Info_free(&got));
    CHECK_OK(MPI_Info_free(&info));
    CHECK_OK(MPI_Comm_free(&c));

    MPI_Comm parent = SENTINEL_HANDLE(MPI_Comm);
    CHECK_OK(MPI_Comm_get_parent(&parent));
    CHECK_EQ_HANDLE(parent, MPI_COMM_NULL);
    flag = -1;
    CHECK_OK(MPI_Comm_test_inter(MPI_COMM_SELF, &flag));
    CHECK_EQ_INT(flag, 0);

    /* Errors. */
    c = SENTINEL_HANDLE(MPI_Comm);
    CHECK_RC(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &c), MPI_ERR_GROUP);
    CHECK_RC(MPI_Comm_create(MPI_COMM_NULL, gw, &c), MPI_ERR_COMM);
    CHECK_RC(MPI_Comm_split(MPI_COMM_NULL, 0, 0, &c), MPI_ERR_COMM);
    CHECK_EQ_HANDLE(c, SENTINEL_HANDLE(MPI_Comm));
    CHECK_OK(MPI_Group_free(&gw));
    CHECK_OK(MPI_Comm_delete_attr(MPI_COMM_WORLD, kv));
    CHECK_OK(MPI_Comm_free_keyval(&kv));
}

#if MPI_VERSION >= 4
static void sessions(void)
{
    MPI_Session s = MPI_SESSION_NULL;
    CHECK_OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    REQUIRE(s != MPI_SESSION_NULL);
    int n = -1;
    CHECK_OK(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
    CHECK(n >= 2);
    int have_world = 0, have_self = 0;
    for (int i = 0; i < n; i++) {
        char name[256];
        int len = (int)sizeof name;
        CHECK_OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
        if (strcmp(name, "mpi://WORLD") == 0)
            have_world = 1;
        if (strcmp(name, "mpi://SELF") == 0)
            have_self = 1;
    }
    CHECK(have_world && have_self);
    /* len 0 asks for the length (including the terminating zero). */
    int len = 0;
    CHECK_OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, NULL));
    CHECK(len >= (int)sizeof "mpi://SELF");
    MPI_Group g = MPI_GROUP_NULL, gw;
    CHECK_OK(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &gw));
    int res = -1;
    CHECK_OK(MPI_Group_compare(g, gw, &res));
    CHECK_EQ_INT(res, MPI_IDENT);
    MPI_Comm c = MPI_COMM_NULL;
    CHECK_OK(MPI_Comm_create_from_group(g, "org.mpiattr.test", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                        &c));
    REQUIRE(c != MPI_COMM_NULL);
    CHECK_OK(MPI_Comm_size(c, &n));
    CHECK_EQ_INT(n, 1);
    CHECK_OK(MPI_Comm_compare(c, MPI_COMM_WORLD, &res));
    CHECK_EQ_INT(res, MPI_CONGRUENT);
    CHECK_OK(MPI_Comm_free(&c));
    CHECK_OK(MPI_Group_free(&g));
    CHECK_OK(MPI_Group_from_session_pset(s, "mpi://SELF", &g));
    CHECK_OK(MPI_Group_size(g, &n));
    CHECK_EQ_INT(n, 1);
    CHECK_OK(MPI_Group_free(&g));
    /* Process set names are URIs, whose scheme and authority ignore case (as in MPICH). */
    CHECK_OK(MPI_Group_from_session_pset(s, "mpi://self", &g));
    CHECK_OK(MPI_Group_size(g, &n));
    CHECK_EQ_INT(n, 1);
    CHECK_OK(MPI_Group_free(&g));
    CHECK_OK(MPI_Group_from_session_pset(s, "MPI://World", &g));
    CHECK_OK(MPI_Group_free(&g));
    g = SENTINEL_HANDLE(MPI_Group);
    CHECK(MPI_Group_from_session_pset(s, "mpi://SELF/", &g) != MPI_SUCCESS);
    CHECK(g == SENTINEL_HANDLE(MPI_Group) || g == MPI_GROUP_NULL);
    g = SENTINEL_HANDLE(MPI_Group);
    int rc = MPI_Group_from_session_pset(s, "mpi://NO-SUCH-PSET", &g);
    CHECK(rc != MPI_SUCCESS);
    /* A failed constructor leaves its output alone or sets the null handle. */
    CHECK(g == SENTINEL_HANDLE(MPI_Group) || g == MPI_GROUP_NULL);
    CHECK_OK(MPI_Group_free(&gw));
    CHECK_OK(MPI_Session_finalize(&s));
    CHECK_EQ_HANDLE(s, MPI_SESSION_NULL);
}
#endif

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    groups();
    communicators();
#if MPI_VERSION >= 4
    sessions();
#endif
    CHECK_OK(MPI_Finalize());
#if MPI_VERSION < 4
    if (atomic_load(&check_failures) == 0) {
        printf("SKIP groups_comms: no sessions in this MPI-%d header; everything else "
               "passed\n",
               MPI_VERSION);
        return 0;
    }
#endif
    return test_finish("groups_comms");
}
