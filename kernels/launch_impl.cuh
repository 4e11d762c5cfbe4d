// Launch plumbing shared by the per-dtype translation units (launch_f16.cu, launch_bf16.cu):
// the __global__ entry, its shared-memory attribute, occupancy, and the launch itself.
#pragma once

#include <cuda_runtime.h>

#include "launch.h"
#include "mainloop_sm80.cuh"
#include "persistent_kernel.cuh"

namespace streamk::kernels {

template <typename Element, bool kAColMajor, bool kBRowMajor>
using Sm80Gemm = StreamKGemm<MainloopSm80<Element, kAColMajor, kBRowMajor>, Element>;

// Two resident blocks per SM (128 registers per thread): measured on an H200, two co-resident
// blocks of the mma.sync mainloop give 1.22x the throughput of one per SM (264 tiles in 103.8 us
// against 132 tiles in 63.6 us; with one block per SM, 264 tiles took 122.8 us).
template <typename Element, bool kAColMajor, bool kBRowMajor>
__global__ void __launch_bounds__(kThreadsPerBlock, 2)
    StreamKGemmKernel(const Plan plan, const GemmKernelArgs args, char* workspace) {
  Sm80Gemm<Element, kAColMajor, kBRowMajor>::Run(plan, args, workspace);
}

template <typename Element, bool kAColMajor, bool kBRowMajor>
cudaError_t PrepareKernel(const void** fn, int* smem) {
  using G = Sm80Gemm<Element, kAColMajor, kBRowMajor>;
  static_assert(G::kThreads == kThreadsPerBlock, "launch geometry");
  auto kernel = StreamKGemmKernel<Element, kAColMajor, kBRowMajor>;
  *fn = reinterpret_cast<const void*>(kernel);
  *smem = G::kSmemBytes;
  // Cheap host call; needed once per device before the first launch (> 48 KiB dynamic smem).
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, G::kSmemBytes);
}

template <typename Element>
cudaError_t PrepareKernelFor(bool a_col_major, bool b_row_major, const void** fn, int* smem) {
  if (a_col_major) {
    return b_row_major ? PrepareKernel<Element, true, true>(fn, smem)
                       : PrepareKernel<Element, true, false>(fn, smem);
  }
  return b_row_major ? PrepareKernel<Element, false, true>(fn, smem)
                     : PrepareKernel<Element, false, false>(fn, smem);
}

}  // namespace streamk::kernels
