// TMA stores (sm_90a): shared memory -> a tensor in global memory, issued by one thread and
// completed asynchronously. The epilogue uses them to write D (epilogue.cuh).
//
// Protocol, for one issuing thread:
//   1. every thread that wrote the shared-memory box runs FenceProxyAsyncShared() (its generic
//      writes become visible to the TMA unit), then the block synchronizes;
//   2. the issuing thread calls TmaStore() for each box, then BulkCommit();
//   3. before anything writes those bytes again, the issuing thread calls BulkWaitRead() (the TMA
//      unit has read the boxes), then the block synchronizes; and before the block exits.
// Every wrapper compiles to nothing where __CUDA_ARCH_FEAT_SM90_ALL is not defined; only the
// sm_90a TMA kernel calls them.
#pragma once

#include <cuda.h>

#include <cstdint>

namespace streamk::kernels::sm90 {

__device__ __forceinline__ void FenceProxyAsyncShared() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

// The box of `map` at coordinates (c0, c1, c2) from shared memory at src (the box's layout and
// swizzle are the map's).
__device__ __forceinline__ void TmaStore(const CUtensorMap* map, uint32_t src, int c0, int c1,
                                         int c2) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile(
      "cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%2, %3, %4}], [%1];\n" ::
          "l"(reinterpret_cast<uint64_t>(map)),
      "r"(src), "r"(c0), "r"(c1), "r"(c2)
      : "memory");
#endif
}

__device__ __forceinline__ void BulkCommit() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
#endif
}

// Returns once every bulk group this thread committed has finished reading shared memory.
__device__ __forceinline__ void BulkWaitRead() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
#endif
}

}  // namespace streamk::kernels::sm90
