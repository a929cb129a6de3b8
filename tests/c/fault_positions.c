/*
 * Fault injection through the C API (attributes.md §5), at every position: for communicators and
 * datatypes with n attributes (n around the attribute set's changes of layout) and every k,
 * - a copy callback failing at the k-th copy: MPI_Comm_dup / MPI_Type_dup fail with the
 *   callback's class (MPI_ERR_OTHER for a code that is no class), the new handle is the null
 *   handle, the k copies made were deleted (newest first, each once, on the new object), the
 *   source keeps every value, and a retry succeeds;
 * - a delete callback failing at the k-th deletion of MPI_Comm_free / MPI_Type_free: the
 *   class, every value tried once, exactly the failed one left (the handle unchanged and
 *   usable), and a retry frees it, running that callback once more.
 * Under ci/check-memory this also shows that nothing is leaked on any of these paths.
 */
#include "check.h"

#define MAX 40

static int copy_fail_at = -1, delete_fail_at = -1;
static int copies, deletes, ndeleted;
static int deleted_kv[MAX];
static intptr_t deleted_value[MAX];

static int fail_code(int at)
{
    return at % 2 ? 777 : MPI_ERR_ARG;
}
static int expected_class(int at)
{
    return at % 2 ? MPI_ERR_OTHER : MPI_ERR_ARG;
}

static int copy_common(void *in, void *out, int *flag)
{
    int at = copies++;
    if (at == copy_fail_at)
        return fail_code(at);
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}
static int delete_common(int kv, void *value)
{
    int at = deletes++;
    if (at == delete_fail_at)
        return fail_code(at);
    if (ndeleted < MAX) {
        deleted_kv[ndeleted] = kv;
        deleted_value[ndeleted] = PTRI(value);
    }
    ndeleted++;
    return MPI_SUCCESS;
}
static int comm_copy(MPI_Comm c, int kv, void *e, void *in, void *out, int *flag)
{
    (void)c, (void)kv, (void)e;
    return copy_common(in, out, flag);
}
static int comm_delete(MPI_Comm c, int kv, void *v, void *e)
{
    (void)c, (void)e;
    return delete_common(kv, v);
}
static int type_copy(MPI_Datatype t, int kv, void *e, void *in, void *out, int *flag)
{
    (void)t, (void)kv, (void)e;
    return copy_common(in, out, flag);
}
static int type_delete(MPI_Datatype t, int kv, void *v, void *e)
{
    (void)t, (void)e;
    return delete_common(kv, v);
}

static void reset(int copy_at, int delete_at)
{
    copy_fail_at = copy_at;
    delete_fail_at = delete_at;
    copies = deletes = ndeleted = 0;
}

/* One kind of object, through its own functions. */
struct kind {
    const char *name;
    int (*make)(void *out);
    int (*dup)(void *obj, void *out);
    int (*free)(void *obj);
    int (*create_keyval)(int *kv);
    int (*free_keyval)(int *kv);
    int (*set)(void *obj, int kv, void *v);
    int (*get)(void *obj, int kv, void *v, int *flag);
    int (*is_null)(void *obj);
};

static int comm_make(void *out) { return MPI_Comm_split(MPI_COMM_WORLD, 0, 0, out); }
static int comm_dup(void *obj, void *out) { return MPI_Comm_dup(*(MPI_Comm *)obj, out); }
static int comm_free(void *obj) { return MPI_Comm_free(obj); }
static int comm_create_keyval(int *kv)
{
    return MPI_Comm_create_keyval(comm_copy, comm_delete, kv, NULL);
}
static int comm_set(void *obj, int kv, void *v) { return MPI_Comm_set_attr(*(MPI_Comm *)obj, kv, v); }
static int comm_get(void *obj, int kv, void *v, int *flag)
{
    return MPI_Comm_get_attr(*(MPI_Comm *)obj, kv, v, flag);
}
static int comm_is_null(void *obj) { return *(MPI_Comm *)obj == MPI_COMM_NULL; }

static int type_make(void *out) { return MPI_Type_contiguous(2, MPI_INT, out); }
static int type_dup(void *obj, void *out) { return MPI_Type_dup(*(MPI_Datatype *)obj, out); }
static int type_free(void *obj) { return MPI_Type_free(obj); }
static int type_create_keyval(int *kv)
{
    return MPI_Type_create_keyval(type_copy, type_delete, kv, NULL);
}
static int type_set(void *obj, int kv, void *v)
{
    return MPI_Type_set_attr(*(MPI_Datatype *)obj, kv, v);
}
static int type_get(void *obj, int kv, void *v, int *flag)
{
    return MPI_Type_get_attr(*(MPI_Datatype *)obj, kv, v, flag);
}
static int type_is_null(void *obj) { return *(MPI_Datatype *)obj == MPI_DATATYPE_NULL; }

static const struct kind kinds[] = {
    {"communicator", comm_make, comm_dup, comm_free, comm_create_keyval, MPI_Comm_free_keyval,
     comm_set, comm_get, comm_is_null},
    {"datatype", type_make, type_dup, type_free, type_create_keyval, MPI_Type_free_keyval,
     type_set, type_get, type_is_null},
};

/* Handles are pointers in the standard ABI: one union holds either kind. */
union object {
    MPI_Comm comm;
    MPI_Datatype type;
};

static int kv[MAX];

static void fill(const struct kind *K, union object *o, int n)
{
    for (int i = 0; i < n; i++)
        CHECK_OK(K->set(o, kv[i], IPTR(1000 + i)));
}

/* The values of kv[0..n) present on o, except `missing` (-1: none); exactly `only` if >= 0. */
static void check_values(const struct kind *K, union object *o, int n, int only, const char *what,
                         int k)
{
    for (int i = 0; i < n; i++) {
        void *v = NULL;
        int flag = -1;
        CHECK_OK(K->get(o, kv[i], &v, &flag));
        int want = only < 0 || only == i;
        CHECK_MSG(flag == want && (!flag || PTRI(v) == 1000 + i),
                  "%s %s, n=%d, k=%d: value %d: flag %d, value %ld", K->name, what, n, k, i, flag,
                  (long)PTRI(v));
    }
}

static void copy_failing(const struct kind *K, int n, int k)
{
    union object src, dup;
    REQUIRE_OK(K->make(&src));
    fill(K, &src, n);
    reset(k, -1);
    memset(&dup, 0x5e, sizeof dup);
    CHECK_RC(K->dup(&src, &dup), expected_class(k));
    CHECK_MSG(K->is_null(&dup), "%s dup failing at %d of %d: the new handle is not null", K->name,
              k, n);
    CHECK_MSG(copies == k + 1 && ndeleted == k && deletes == k,
              "%s dup failing at %d of %d: %d copies, %d deletions", K->name, k, n, copies,
              ndeleted);
    for (int j = 0; j < k && j < MAX; j++)
        CHECK_MSG(deleted_kv[j] == kv[k - 1 - j] && deleted_value[j] == 1000 + (k - 1 - j),
                  "%s dup failing at %d of %d: deletion %d", K->name, k, n, j);
    check_values(K, &src, n, -1, "source after a failed dup", k);
    reset(-1, -1);
    REQUIRE_OK(K->dup(&src, &dup));
    check_values(K, &dup, n, -1, "retried dup", k);
    CHECK_OK(K->free(&dup));
    CHECK_OK(K->free(&src));
}

static void delete_failing(const struct kind *K, int n, int k)
{
    union object o, before;
    REQUIRE_OK(K->make(&o));
    fill(K, &o, n);
    before = o;
    reset(-1, k);
    CHECK_RC(K->free(&o), expected_class(k));
    CHECK_MSG(memcmp(&o, &before, sizeof o) == 0, "%s free failing at %d of %d: handle changed",
              K->name, k, n);
    int failed = n - 1 - k; /* newest first */
    CHECK_MSG(deletes == n && ndeleted == n - 1, "%s free failing at %d of %d: %d tried, %d done",
              K->name, k, n, deletes, ndeleted);
    check_values(K, &o, n, failed, "after a failed free", k);
    reset(-1, -1);
    CHECK_OK(K->free(&o));
    CHECK_MSG(K->is_null(&o), "%s retried free: the handle is not null", K->name);
    CHECK_MSG(ndeleted == 1 && deleted_kv[0] == kv[failed],
              "%s retried free: %d deletions, first keyval %d", K->name, ndeleted, deleted_kv[0]);
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    static const int sizes[] = {1, 2, 3, 8, 9, 17, 33};
    for (size_t t = 0; t < sizeof kinds / sizeof kinds[0]; t++) {
        const struct kind *K = &kinds[t];
        for (int i = 0; i < MAX; i++)
            REQUIRE_OK(K->create_keyval(&kv[i]));
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            int n = sizes[s];
            for (int k = 0; k < n; k++) {
                copy_failing(K, n, k);
                delete_failing(K, n, k);
            }
        }
        for (int i = 0; i < MAX; i++)
            CHECK_OK(K->free_keyval(&kv[i]));
    }
    CHECK_OK(MPI_Finalize());
    return test_finish("fault_positions");
}
