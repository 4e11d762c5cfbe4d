// ComputeSync: the block-wide barrier of the code that runs on the compute threads (fixup,
// epilogue). The GEMM kernels have 256 compute threads; the warp-specialized one adds a producer
// warp after them (mainloop_sm90_tma.cuh) that never joins these barriers, so they are named
// barrier 1 over 256 threads rather than __syncthreads().
#pragma once

namespace streamk::kernels {

__device__ __forceinline__ void ComputeSync() { asm volatile("bar.sync 1, 256;\n" ::: "memory"); }

}  // namespace streamk::kernels
