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

// ComputeSync that also returns, to every compute thread, whether `pred` held in any of them
// (bar.red.or: the barrier reduces the predicate, no shared memory needed).
template <int kThreads>
__device__ __forceinline__ bool ComputeSyncOr(bool pred) {
  static_assert(kThreads % 128 == 0, "whole warp groups");
  int any;
  asm volatile(
      "{\n .reg .pred p, q;\n setp.ne.b32 p, %1, 0;\n"
      " bar.red.or.pred q, 1, %2, p;\n selp.b32 %0, 1, 0, q;\n}\n"
      : "=r"(any)
      : "r"(static_cast<int>(pred)), "n"(kThreads)
      : "memory");
  return any != 0;
}

}  // namespace streamk::kernels
