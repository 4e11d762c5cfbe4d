// The device side of the fixup protocol (fixup_protocol.h): waiting on and signalling a tile's
// flag, and moving a block's fp32 accumulators to and from a partial slot in the workspace.
//
// A partial slot holds one fp32 tile (128 x 128 or 128 x 256) in *fragment order*: float4 number
// f * kThreads + tid holds accumulators v[i][j][0..3] (f = i * kNI + j) of thread tid. Every
// access is a coalesced 16-byte vector, and since every block of the kernel uses the same
// fragment layout no block ever needs row/column coordinates to combine partials.
//
// Memory ordering: writers store their partials with L2 (.cg) stores, then ComputeSync() and
// thread 0 releases the flag at GPU scope (fence + release store/atomic). Waiters: thread 0
// acquires the flag at GPU scope, then ComputeSync(), then every thread reads with .cg loads,
// which bypass the (non-coherent) L1 so no stale line from an earlier tile is seen.
#pragma once

#include <cstdint>

#include "compute_sync.cuh"
#include "fixup_protocol.h"

namespace streamk::kernels {

__device__ __forceinline__ int LoadAcquire(const int* flag) {
  int v;
  asm volatile("ld.acquire.gpu.global.b32 %0, [%1];\n" : "=r"(v) : "l"(flag) : "memory");
  return v;
}
__device__ __forceinline__ void StoreRelease(int* flag, int v) {
  asm volatile("st.release.gpu.global.b32 [%0], %1;\n" ::"l"(flag), "r"(v) : "memory");
}
__device__ __forceinline__ void AddRelease(int* flag, int v) {
  asm volatile("red.release.gpu.global.add.s32 [%0], %1;\n" ::"l"(flag), "r"(v) : "memory");
}
__device__ __forceinline__ void StoreRelaxed(int* flag, int v) {
  asm volatile("st.relaxed.gpu.global.b32 [%0], %1;\n" ::"l"(flag), "r"(v) : "memory");
}

template <class Mainloop>
struct Fixup {
  using Acc = typename Mainloop::Accumulators;
  static constexpr int kThreads = Mainloop::kThreads;
  static constexpr int kFragments = Mainloop::kMI * Mainloop::kNI;  // float4s per thread

  // Blocks until the step's wait is satisfied (all threads return together). The block that
  // reads the flag last (a finisher or reduction block) resets it here, for the next launch.
  __device__ static void Wait(const fixup::Step& s, int* flag) {
    if (s.wait == fixup::Wait::kNone) return;
    if (threadIdx.x == 0) {
      // Spin: the peers being waited for are lower-numbered work blocks, which are resident
      // (co-resident grid) and never wait on this block, so they finish (persistent_kernel.cuh).
      while (!fixup::WaitSatisfied(s, LoadAcquire(flag))) {
        __nanosleep(64);
      }
      if (s.signal == fixup::Signal::kReset) StoreRelaxed(flag, 0);
    }
    ComputeSync();
  }

  __device__ static void Signal(const fixup::Step& s, int* flag) {
    if (s.signal == fixup::Signal::kNone || s.signal == fixup::Signal::kReset) return;
    ComputeSync();  // every thread's partial stores precede the release below
    if (threadIdx.x == 0) {
      __threadfence();
      if (s.signal == fixup::Signal::kSet) {
        StoreRelease(flag, s.signal_value);
      } else {
        AddRelease(flag, 1);
      }
    }
  }

  __device__ static void Publish(fixup::Publish op, float4* slot, Acc& acc) {
    const int tid = threadIdx.x;
#pragma unroll
    for (int f0 = 0; f0 < kFragments; f0 += kBatch) {
      if (op == fixup::Publish::kAdd) {
        // Load a batch of fragments before storing any: __stcg is a compiler memory barrier,
        // so a load placed after a store waits for the store's turn, and one L2 round trip per
        // fragment (16 in a row) made a turnstile step cost ~4.5 us (streamk-trace, H200).
        float4 old[kBatch];
#pragma unroll
        for (int b = 0; b < kBatch; ++b) old[b] = __ldcg(slot + (f0 + b) * kThreads + tid);
#pragma unroll
        for (int b = 0; b < kBatch; ++b) {
          float (&v)[4] = Fragment(acc, f0 + b);
          __stcg(slot + (f0 + b) * kThreads + tid,
                 make_float4(old[b].x + v[0], old[b].y + v[1], old[b].z + v[2], old[b].w + v[3]));
        }
        continue;
      }
#pragma unroll
      for (int b = 0; b < kBatch; ++b) {
        float4* p = slot + (f0 + b) * kThreads + tid;
        float (&v)[4] = Fragment(acc, f0 + b);
        if (op == fixup::Publish::kStore) {
          __stcg(p, make_float4(v[0], v[1], v[2], v[3]));
        } else if (op == fixup::Publish::kAtomicAdd) {
          float* q = reinterpret_cast<float*>(p);
#pragma unroll
          for (int e = 0; e < 4; ++e) atomicAdd(q + e, v[e]);
        }
      }
    }
  }

  // acc += slot
  __device__ static void Take(const float4* slot, Acc& acc) {
    const int tid = threadIdx.x;
#pragma unroll
    for (int f = 0; f < kFragments; ++f) {
      const float4 x = __ldcg(slot + f * kThreads + tid);
      float (&v)[4] = Fragment(acc, f);
      v[0] += x.x;
      v[1] += x.y;
      v[2] += x.z;
      v[3] += x.w;
    }
  }

 private:
  // Fragments are moved in batches of 4 (16 registers in flight per thread, whatever the
  // mainloop's accumulator shape).
  static constexpr int kBatch = 4;
  static_assert(kFragments % kBatch == 0, "fragment batches");

  // Accumulator fragment f in slot order: v[f / kNI][f % kNI].
  __device__ __forceinline__ static float (&Fragment(Acc& acc, int f))[4] {
    return acc.v[f / Mainloop::kNI][f % Mainloop::kNI];
  }
};

}  // namespace streamk::kernels
