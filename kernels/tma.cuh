// PTX wrappers for the TMA unit and mbarriers (sm_90a): the loads the TMA mainloop's producer and
// the epilogue issue (TmaLoad, completing on an mbarrier), and the stores the epilogue issues
// (TmaStore: shared memory -> a tensor in global memory, issued by one thread and completed
// asynchronously), and the epilogue's stores of fragments to shared memory (StoreMatrices).
//
// Store protocol (TmaStore and BulkStore), for each issuing thread:
//   1. every thread that wrote the shared-memory box runs FenceProxyAsync() (its generic
//      writes become visible to the TMA unit), then those threads and the issuing one synchronize
//      (the block; RunRows: the warp, or the compute threads and the copying warp, an mbarrier);
//   2. the issuing thread calls TmaStore() (BulkStore()) for each box (row), then BulkCommit();
//   3. before anything writes those bytes again, the issuing thread calls BulkWaitRead() (the TMA
//      unit has read the boxes), then the block synchronizes; and before the block exits.
// Every wrapper compiles to nothing where __CUDA_ARCH_FEAT_SM90_ALL is not defined; only the
// sm_90a TMA kernel calls them.
#pragma once

#include <cuda.h>

#include <cstdint>

namespace streamk::kernels::sm90 {

// Sets the executing warp group's per-thread register maximum to kRegisters (a multiple of 8 in
// [24, 256]): kIncrease takes registers from the block's pool (waiting until another warp group
// has released enough), otherwise they are released to it. Every warp of the warp group executes
// the same call.
template <int kRegisters, bool kIncrease>
__device__ __forceinline__ void SetMaxRegisters() {
  static_assert(kRegisters % 8 == 0 && kRegisters >= 24 && kRegisters <= 256, "setmaxnreg");
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  if constexpr (kIncrease) {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kRegisters) : "memory");
  } else {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kRegisters) : "memory");
  }
#endif
}

// Four 8 x 8 blocks of 16-bit values from a warp into shared memory (stmatrix .x4): lane l
// gives the address of row l % 8 of block l / 8 (16 bytes), and register i of lane t holds
// block i's row t / 4, columns 2 (t % 4) and the next. Every lane of the warp executes it.
__device__ __forceinline__ void StoreMatrices(uint32_t at, uint32_t b0, uint32_t b1, uint32_t b2,
                                              uint32_t b3) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(at),
               "r"(b0), "r"(b1), "r"(b2), "r"(b3)
               : "memory");
#endif
}

__device__ __forceinline__ void MbarrierInit(uint32_t bar, uint32_t count) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
#endif
}
// Makes the initialized barriers visible to the other threads and to the TMA unit.
__device__ __forceinline__ void FenceBarrierInit() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void MbarrierArrive(uint32_t bar) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
#endif
}
// `count` arrivals at once.
__device__ __forceinline__ void MbarrierArrive(uint32_t bar, uint32_t count) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(count)
               : "memory");
#endif
}
// One arrival plus `bytes` of expected TMA transactions for the current phase.
__device__ __forceinline__ void MbarrierArriveExpectTx(uint32_t bar, uint32_t bytes) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes)
               : "memory");
#endif
}
// Returns once the phase of parity `parity` has completed. A fresh barrier is in phase 0, and a
// wait for parity 1 on it returns at once (the phase before the first counts as complete).
__device__ __forceinline__ void MbarrierWait(uint32_t bar, uint32_t parity) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  uint32_t done = 0;
  do {
    asm volatile(
        "{\n.reg .pred p;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
#endif
}
// TMA: the box of `map` at coordinates (c0, c1, c2) into shared memory at dst, completing
// its bytes on mbarrier bar.
__device__ __forceinline__ void TmaLoad(uint32_t dst, const CUtensorMap* map, uint32_t bar,
                                        int c0, int c1, int c2) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4, %5}], [%2];\n" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(c0), "r"(c1), "r"(c2)
      : "memory");
#endif
}
// The same box, written to the shared memory at dst (and its bytes completed on the mbarrier at
// bar) of every block of the cluster whose rank's bit is set in cta_mask: one read of the L2 for
// all of them. dst and bar are this block's addresses; each receiver uses the same offsets.
__device__ __forceinline__ void TmaLoadMulticast(uint32_t dst, const CUtensorMap* map,
                                                 uint32_t bar, int c0, int c1, int c2,
                                                 uint16_t cta_mask) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      ".multicast::cluster [%0], [%1, {%3, %4, %5}], [%2], %6;\n" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(c0), "r"(c1), "r"(c2), "h"(cta_mask)
      : "memory");
#endif
}

// ---- clusters ---------------------------------------------------------------------------------

// This block's rank within its cluster (0 without clusters).
__device__ __forceinline__ uint32_t ClusterRank() {
  uint32_t r = 0;
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
#endif
  return r;
}
// Every thread of every block of the cluster: returns once all have arrived. Orders each block's
// earlier shared-memory writes (mbarrier initialization included) before the others' later
// accesses to them.
__device__ __forceinline__ void ClusterSync() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
#endif
}
// The address of the same shared-memory offset in the block of rank `rank` of this cluster.
__device__ __forceinline__ uint32_t PeerSmemAddr(uint32_t addr, uint32_t rank) {
  uint32_t r = addr;
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(r) : "r"(addr), "r"(rank));
#endif
  return r;
}
// One arrival on an mbarrier of any block of the cluster (an address from PeerSmemAddr). Its
// release is at the scope of this block (what the arrival says, "this block is done reading a
// stage", concerns this block's accesses only): at cluster scope the arrival waits for this
// thread's accesses to become visible to the whole cluster, which took 0.4 us per arrival on an
// H200 and halved a probe's load rate.
__device__ __forceinline__ void MbarrierArriveCluster(uint32_t cluster_bar) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];\n" ::"r"(cluster_bar) : "memory");
#endif
}

__device__ __forceinline__ void PrefetchTensorMap(const CUtensorMap* map) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
#endif
}

// Orders this thread's generic-proxy accesses to shared memory before later async-proxy ones
// (TMA stores, wgmma operand reads) and the other way round.
__device__ __forceinline__ void FenceProxyAsync() {
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

// `bytes` (a multiple of 16) from shared memory at src to global memory at dst, both 16-byte
// aligned: a plain bulk copy, no tensor map (Epilogue::CopyRows). Completes as TmaStore does.
__device__ __forceinline__ void BulkStore(void* dst, uint32_t src, uint32_t bytes) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n" ::"l"(
                   reinterpret_cast<uint64_t>(dst)),
               "r"(src), "r"(bytes)
               : "memory");
#endif
}

__device__ __forceinline__ void BulkCommit() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
#endif
}

// Returns once at most kPending of the bulk groups this thread committed last are still reading
// shared memory (groups finish in the order they were committed).
template <int kPending>
__device__ __forceinline__ void BulkWaitReadAllBut() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(kPending) : "memory");
#endif
}

// Returns once every bulk group this thread committed has finished reading shared memory.
__device__ __forceinline__ void BulkWaitRead() { BulkWaitReadAllBut<0>(); }

}  // namespace streamk::kernels::sm90
