// The four bf16 GEMM kernels (A row/column-major x B row/column-major), for each mainloop.
#include "launch_impl.cuh"

namespace streamk::kernels {
cudaError_t PrepareBF16Kernel(Arch arch, int tile_m, int tile_n, int cluster_m, bool pingpong,
                              bool a_col_major, bool b_row_major, KernelConfig* config) {
  return PrepareKernelFor<__nv_bfloat16>(arch, tile_m, tile_n, cluster_m, pingpong, a_col_major,
                                         b_row_major, config);
}
}  // namespace streamk::kernels
