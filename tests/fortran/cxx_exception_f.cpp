// The C++ half of cxx_exception_f.f90: main, and the routine the Fortran delete callback
// calls, which throws.
#include <mpi.h>

#include <cstdio>
#include <stdexcept>

extern "C" void cxx_throw_(void)
{
    throw std::runtime_error("thrown by C++ code a Fortran delete callback called");
}

extern "C" void cxx_exception_run_(void);

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    try {
        cxx_exception_run_();
    } catch (const std::exception &e) {
        std::printf("FAILED cxx_exception_f: the exception came through: %s\n", e.what());
        return 1;
    }
    std::printf("FAILED cxx_exception_f: the Fortran part returned\n");
    return 1;
}
