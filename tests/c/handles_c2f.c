/*
 * Fortran integer handles (semantics.md "Objects and handles"): MPI_Comm_c2f /
 * MPI_Type_c2f / MPI_Win_c2f of predefined handles give the value of the C constant
 * (MPI_Comm_c2f(MPI_COMM_WORLD) == 257), other objects get integers above 4095; f2c gives the
 * same handle back, and the kind's null handle for integers that name nothing (unknown or
 * freed). Attributes set through the converted handle are the object's.
 *
 * The integers checked are mpiattr's numbering (semantics.md): MPICH's and Open MPI's mpi.h
 * declare MPI_Fint and the c2f/f2c functions but number Fortran handles their own way, and
 * another implementation's standard-ABI mpi.h may lack them (they are not part of the ABI's
 * C header: they depend on the Fortran configuration).
 * Compiled against any mpi.h but mpiattr's, this program prints "SKIP", which the harness
 * accepts only for an external compiler (MPIATTR_MPICC).
 */
#include "check.h"

#if defined(MPIATTR_MPI_H)

int main(int argc, char **argv)
{
    test_init(&argc, &argv);

    /* predefined */
    CHECK_EQ_INT(MPI_Comm_c2f(MPI_COMM_WORLD), 257);
    CHECK_EQ_INT(MPI_Comm_c2f(MPI_COMM_SELF), 258);
    CHECK_EQ_INT(MPI_Comm_c2f(MPI_COMM_NULL), 256);
    CHECK_EQ_HANDLE(MPI_Comm_f2c(257), MPI_COMM_WORLD);
    CHECK_EQ_HANDLE(MPI_Comm_f2c(258), MPI_COMM_SELF);
    CHECK_EQ_HANDLE(MPI_Comm_f2c(256), MPI_COMM_NULL);
    CHECK_EQ_INT(MPI_Type_c2f(MPI_INT), 0x209);
    CHECK_EQ_INT(MPI_Type_c2f(MPI_DOUBLE), 0x214);
    CHECK_EQ_INT(MPI_Type_c2f(MPI_DATATYPE_NULL), 0x200);
    CHECK_EQ_HANDLE(MPI_Type_f2c(0x209), MPI_INT);
    CHECK_EQ_HANDLE(MPI_Type_f2c(0x247), MPI_BYTE);
    CHECK_EQ_INT(MPI_Win_c2f(MPI_WIN_NULL), 0x110);
    CHECK_EQ_HANDLE(MPI_Win_f2c(0x110), MPI_WIN_NULL);

    /* user objects */
    MPI_Comm c;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    MPI_Fint cf = MPI_Comm_c2f(c);
    CHECK_MSG(cf > 4095, "MPI_Comm_c2f(dup) = %ld, expected > 4095", (long)cf);
    CHECK_EQ_HANDLE(MPI_Comm_f2c(cf), c);
    CHECK_EQ_INT(MPI_Comm_c2f(c), cf);

    MPI_Datatype t;
    REQUIRE_OK(MPI_Type_contiguous(2, MPI_INT, &t));
    MPI_Fint tf = MPI_Type_c2f(t);
    CHECK_MSG(tf > 4095, "MPI_Type_c2f(contiguous) = %ld, expected > 4095", (long)tf);
    CHECK_EQ_HANDLE(MPI_Type_f2c(tf), t);

    MPI_Win w;
    void *base;
    REQUIRE_OK(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w));
    MPI_Fint wf = MPI_Win_c2f(w);
    CHECK_MSG(wf > 4095, "MPI_Win_c2f(window) = %ld, expected > 4095", (long)wf);
    CHECK_EQ_HANDLE(MPI_Win_f2c(wf), w);

    /* distinct objects, distinct integers */
    MPI_Comm c2;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c2));
    MPI_Fint c2f = MPI_Comm_c2f(c2);
    CHECK(c2f != cf);
    CHECK(c2f > 4095);

    /* attributes through the converted handle */
    int kv;
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
    CHECK_OK(MPI_Comm_set_attr(MPI_Comm_f2c(cf), kv, IPTR(31)));
    {
        void *v = NULL;
        int flag = -1;
        CHECK_OK(MPI_Comm_get_attr(c, kv, &v, &flag));
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(PTRI(v), 31);
    }

    /* unknown and freed integers give the null handle */
    CHECK_EQ_HANDLE(MPI_Comm_f2c(123456789), MPI_COMM_NULL);
    CHECK_EQ_HANDLE(MPI_Type_f2c(123456789), MPI_DATATYPE_NULL);
    CHECK_EQ_HANDLE(MPI_Win_f2c(123456789), MPI_WIN_NULL);
    CHECK_EQ_HANDLE(MPI_Comm_f2c(-1), MPI_COMM_NULL);
    CHECK_OK(MPI_Comm_free(&c));
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Win_free(&w));
    CHECK_EQ_HANDLE(MPI_Comm_f2c(cf), MPI_COMM_NULL);
    CHECK_EQ_HANDLE(MPI_Type_f2c(tf), MPI_DATATYPE_NULL);
    CHECK_EQ_HANDLE(MPI_Win_f2c(wf), MPI_WIN_NULL);
    /* the other comm is unaffected */
    CHECK_EQ_HANDLE(MPI_Comm_f2c(c2f), c2);

    CHECK_OK(MPI_Comm_free(&c2));
    CHECK_OK(MPI_Comm_free_keyval(&kv));
    REQUIRE_OK(MPI_Finalize());
    return test_finish("handles_c2f");
}

#else

int main(void)
{
    printf("SKIP handles_c2f: checks mpiattr's Fortran handle numbering "
           "(MPI_Comm_c2f(MPI_COMM_WORLD) == 257 ...), and this is not mpiattr's mpi.h\n");
    return 0;
}

#endif
