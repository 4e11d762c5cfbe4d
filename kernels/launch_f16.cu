// The four fp16 GEMM kernels (A row/column-major x B row/column-major).
#include "launch_impl.cuh"

namespace streamk::kernels {
cudaError_t PrepareF16Kernel(bool a_col_major, bool b_row_major, const void** fn, int* smem) {
  return PrepareKernelFor<__half>(a_col_major, b_row_major, fn, smem);
}
}  // namespace streamk::kernels
