/*
 * Window attributes (attributes.md §3, semantics.md "Predefined attributes"): on windows from
 * MPI_Win_create, MPI_Win_allocate and MPI_Win_create_dynamic, MPI_WIN_BASE is the base
 * pointer itself, MPI_WIN_SIZE an MPI_Aint*, MPI_WIN_DISP_UNIT / MPI_WIN_CREATE_FLAVOR /
 * MPI_WIN_MODEL int*; flavors CREATE / ALLOCATE / DYNAMIC, model MPI_WIN_UNIFIED; a dynamic
 * window has base MPI_BOTTOM, size 0, displacement unit 1. The returned pointers stay valid
 * and unchanged. User attributes on windows: windows have no dup, but their delete callbacks
 * run on MPI_Win_free (newest set first) with the window handle and extra state.
 */
#include "check.h"

struct winfo {
    void *base;
    MPI_Aint size;
    int disp_unit;
    int flavor;
    MPI_Aint *size_ptr;
    int *disp_ptr, *flavor_ptr, *model_ptr;
};

static void read_win(MPI_Win win, struct winfo *w)
{
    int flag = -1;
    void *base = SENTINEL_HANDLE(void *);
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag));
    CHECK_EQ_INT(flag, 1);
    w->base = base;

    MPI_Aint *sz = NULL;
    flag = -1;
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_SIZE, &sz, &flag));
    CHECK_EQ_INT(flag, 1);
    REQUIRE(sz != NULL);
    w->size_ptr = sz;
    w->size = *sz;

    int *p = NULL;
    flag = -1;
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &p, &flag));
    CHECK_EQ_INT(flag, 1);
    REQUIRE(p != NULL);
    w->disp_ptr = p;
    w->disp_unit = *p;

    p = NULL;
    flag = -1;
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &p, &flag));
    CHECK_EQ_INT(flag, 1);
    REQUIRE(p != NULL);
    w->flavor_ptr = p;
    w->flavor = *p;

    p = NULL;
    flag = -1;
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_MODEL, &p, &flag));
    CHECK_EQ_INT(flag, 1);
    REQUIRE(p != NULL);
    w->model_ptr = p;
    CHECK_EQ_INT(*p, MPI_WIN_UNIFIED);
}

/* Same pointers and values on a second read. */
static void reread_same(MPI_Win win, const struct winfo *w)
{
    struct winfo again;
    read_win(win, &again);
    CHECK_EQ_PTR(again.base, w->base);
    CHECK_EQ_PTR(again.size_ptr, w->size_ptr);
    CHECK_EQ_PTR(again.disp_ptr, w->disp_ptr);
    CHECK_EQ_PTR(again.flavor_ptr, w->flavor_ptr);
    CHECK_EQ_PTR(again.model_ptr, w->model_ptr);
    CHECK_EQ_INT(*w->size_ptr, w->size);
    CHECK_EQ_INT(*w->disp_ptr, w->disp_unit);
    CHECK_EQ_INT(*w->flavor_ptr, w->flavor);
    CHECK_EQ_INT(*w->model_ptr, MPI_WIN_UNIFIED);
}

/* Delete-callback log for user window attributes. */
#define LOGN 64
static struct {
    MPI_Win win;
    int keyval;
    intptr_t value;
    void *extra;
} wlog[LOGN];
static int nwlog;

static int win_delete(MPI_Win win, int keyval, void *attribute_val, void *extra_state)
{
    if (nwlog < LOGN) {
        wlog[nwlog].win = win;
        wlog[nwlog].keyval = keyval;
        wlog[nwlog].value = PTRI(attribute_val);
        wlog[nwlog].extra = extra_state;
    }
    nwlog++;
    return MPI_SUCCESS;
}

static int win_copy_never(MPI_Win win, int keyval, void *extra_state, void *in, void *out,
                          int *flag)
{
    (void)win, (void)keyval, (void)extra_state, (void)in, (void)out, (void)flag;
    CHECK_MSG(0, "a window copy callback was called, but windows are never duplicated");
    return MPI_ERR_OTHER;
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);

    /* MPI_Win_create. */
    double buf[25];
    for (int i = 0; i < 25; i++)
        buf[i] = i;
    MPI_Win wc;
    REQUIRE_OK(MPI_Win_create(buf, (MPI_Aint)sizeof buf, (int)sizeof(double), MPI_INFO_NULL,
                              MPI_COMM_WORLD, &wc));
    REQUIRE_OK(MPI_Win_set_errhandler(wc, MPI_ERRORS_RETURN));
    struct winfo c;
    read_win(wc, &c);
    CHECK_EQ_PTR(c.base, buf);
    MPI_Aint address = 0;
    CHECK_OK(MPI_Get_address(&buf[3], &address));
    CHECK_EQ_INT(address, (MPI_Aint)(intptr_t)c.base + 3 * (MPI_Aint)sizeof(double));
    CHECK_EQ_INT(c.size, (MPI_Aint)sizeof buf);
    CHECK_EQ_INT(c.disp_unit, (int)sizeof(double));
    CHECK_EQ_INT(c.flavor, MPI_WIN_FLAVOR_CREATE);
    reread_same(wc, &c);

    /* MPI_Win_create over an MPI_Alloc_mem buffer, from a dup'd communicator, size 0. */
    void *mem = NULL;
    REQUIRE_OK(MPI_Alloc_mem(64, MPI_INFO_NULL, &mem));
    REQUIRE(mem != NULL);
    MPI_Comm dup;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_Win wm, wz;
    REQUIRE_OK(MPI_Win_create(mem, 64, 1, MPI_INFO_NULL, dup, &wm));
    REQUIRE_OK(MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_SELF, &wz));
    REQUIRE_OK(MPI_Win_set_errhandler(wm, MPI_ERRORS_RETURN));
    REQUIRE_OK(MPI_Win_set_errhandler(wz, MPI_ERRORS_RETURN));
    struct winfo m, z;
    read_win(wm, &m);
    CHECK_EQ_PTR(m.base, mem);
    CHECK_EQ_INT(m.size, 64);
    CHECK_EQ_INT(m.disp_unit, 1);
    CHECK_EQ_INT(m.flavor, MPI_WIN_FLAVOR_CREATE);
    read_win(wz, &z);
    CHECK_EQ_PTR(z.base, NULL);
    CHECK_EQ_INT(z.size, 0);
    CHECK_EQ_INT(z.flavor, MPI_WIN_FLAVOR_CREATE);

    /* MPI_Win_allocate: MPI_WIN_BASE is the pointer it returned, and the memory is usable. */
    int *abase = NULL;
    MPI_Win wa;
    REQUIRE_OK(MPI_Win_allocate(100 * (MPI_Aint)sizeof(int), (int)sizeof(int), MPI_INFO_NULL,
                                MPI_COMM_WORLD, &abase, &wa));
    REQUIRE(abase != NULL);
    REQUIRE_OK(MPI_Win_set_errhandler(wa, MPI_ERRORS_RETURN));
    for (int i = 0; i < 100; i++)
        abase[i] = i * 3;
    struct winfo a;
    read_win(wa, &a);
    CHECK_EQ_PTR(a.base, abase);
    CHECK_EQ_INT(a.size, 100 * (MPI_Aint)sizeof(int));
    CHECK_EQ_INT(a.disp_unit, (int)sizeof(int));
    CHECK_EQ_INT(a.flavor, MPI_WIN_FLAVOR_ALLOCATE);
    CHECK_EQ_INT(abase[99], 297);

    /* MPI_Win_create_dynamic. */
    MPI_Win wd;
    REQUIRE_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &wd));
    REQUIRE_OK(MPI_Win_set_errhandler(wd, MPI_ERRORS_RETURN));
    struct winfo d;
    read_win(wd, &d);
    CHECK_EQ_PTR(d.base, MPI_BOTTOM);
    CHECK_EQ_INT(d.size, 0);
    CHECK_EQ_INT(d.disp_unit, 1);
    CHECK_EQ_INT(d.flavor, MPI_WIN_FLAVOR_DYNAMIC);

    /* Windows are independent objects: distinct handles. */
    CHECK_NE_HANDLE(wc, wm);
    CHECK_NE_HANDLE(wc, wa);
    CHECK_NE_HANDLE(wa, wd);

    /* User attributes with delete callbacks; free order newest first; replaced = newest. */
    int extra_a = 1, extra_b = 2;
    int k1, k2, k3, knull;
    REQUIRE_OK(MPI_Win_create_keyval(win_copy_never, win_delete, &k1, &extra_a));
    REQUIRE_OK(MPI_Win_create_keyval(MPI_WIN_DUP_FN, win_delete, &k2, &extra_b));
    REQUIRE_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, &k3, NULL));
    REQUIRE_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &knull, NULL));
    CHECK_OK(MPI_Win_set_attr(wa, k1, IPTR(11)));
    CHECK_OK(MPI_Win_set_attr(wa, k2, IPTR(12)));
    CHECK_OK(MPI_Win_set_attr(wa, k3, IPTR(13)));
    CHECK_OK(MPI_Win_set_attr(wa, knull, IPTR(14)));
    CHECK_EQ_INT(nwlog, 0);
    CHECK_OK(MPI_Win_set_attr(wa, k1, IPTR(21))); /* replaces 11: its delete runs now */
    REQUIRE(nwlog == 1);
    CHECK_EQ_HANDLE(wlog[0].win, wa);
    CHECK_EQ_INT(wlog[0].keyval, k1);
    CHECK_EQ_INT(wlog[0].value, 11);
    CHECK_EQ_PTR(wlog[0].extra, &extra_a);
    CHECK_OK(MPI_Win_set_attr(wd, k2, IPTR(-99)));
    CHECK_OK(MPI_Win_delete_attr(wd, k2));
    REQUIRE(nwlog == 2);
    CHECK_EQ_HANDLE(wlog[1].win, wd);
    CHECK_EQ_INT(wlog[1].keyval, k2);
    CHECK_EQ_INT(wlog[1].value, -99);
    CHECK_EQ_PTR(wlog[1].extra, &extra_b);

    /* Predefined attributes unchanged by user attribute traffic. */
    reread_same(wa, &a);

    nwlog = 0;
    MPI_Win wa_saved = wa;
    CHECK_OK(MPI_Win_free(&wa));
    CHECK_EQ_HANDLE(wa, MPI_WIN_NULL);
    CHECK_EQ_INT(nwlog, 3);
    if (nwlog == 3) {
        /* Newest set first: k1 (replaced last), k3, k2. */
        CHECK_EQ_INT(wlog[0].keyval, k1);
        CHECK_EQ_INT(wlog[0].value, 21);
        CHECK_EQ_INT(wlog[1].keyval, k3);
        CHECK_EQ_INT(wlog[1].value, 13);
        CHECK_EQ_INT(wlog[2].keyval, k2);
        CHECK_EQ_INT(wlog[2].value, 12);
        CHECK_EQ_PTR(wlog[2].extra, &extra_b);
        for (int i = 0; i < 3; i++)
            CHECK_EQ_HANDLE(wlog[i].win, wa_saved);
    }

    /* The other windows still hold their attributes. */
    reread_same(wc, &c);
    reread_same(wm, &m);
    reread_same(wd, &d);

    nwlog = 0;
    CHECK_OK(MPI_Win_set_attr(wc, k3, IPTR(5)));
    CHECK_OK(MPI_Win_free(&wc));
    CHECK_EQ_INT(nwlog, 1);
    CHECK_OK(MPI_Win_free(&wm));
    CHECK_OK(MPI_Win_free(&wz));
    CHECK_OK(MPI_Win_free(&wd));
    CHECK_EQ_HANDLE(wd, MPI_WIN_NULL);
    CHECK_EQ_INT(buf[24], 24.0);
    CHECK_OK(MPI_Free_mem(mem));
    CHECK_OK(MPI_Comm_free(&dup));
    CHECK_OK(MPI_Win_free_keyval(&k1));
    CHECK_OK(MPI_Win_free_keyval(&k2));
    CHECK_OK(MPI_Win_free_keyval(&k3));
    CHECK_OK(MPI_Win_free_keyval(&knull));
    CHECK_EQ_INT(nwlog, 1);

    REQUIRE_OK(MPI_Finalize());
    return test_finish("win_attrs");
}
