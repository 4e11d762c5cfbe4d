// ComputeSync: the block-wide barrier of the code that runs on the compute threads (fixup,
// epilogue). The GEMM kernels have kThreads compute threads (256, or 384 for the 192-row TMA
// tile); the warp-specialized one adds a producer warp group after them (mainloop_sm90_tma.cuh)
// that never joins these barriers, so they are named barrier 1 over the compute threads rather
// than __syncthreads().
#pragma once

namespace streamk::kernels {

template <int kThreads>
__device__ __forceinline__ void ComputeSync() {
  static_assert(kThreads % 128 == 0, "whole warp groups");
  asm volatile("bar.sync 1, %0;\n" ::"n"(kThreads) : "memory");
}

}  // namespace streamk::kernels
