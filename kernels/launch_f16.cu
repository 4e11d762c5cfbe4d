// The four fp16 GEMM kernels (A row/column-major x B row/column-major), each for sm_80 and sm_90a.
#include "launch_impl.cuh"

namespace streamk::kernels {
cudaError_t PrepareF16Kernel(Arch arch, bool a_col_major, bool b_row_major, const void** fn,
                             int* smem) {
  return PrepareKernelFor<__half>(arch, a_col_major, b_row_major, fn, smem);
}
}  // namespace streamk::kernels
