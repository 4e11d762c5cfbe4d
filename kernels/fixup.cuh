// The device side of the fixup protocol (fixup_protocol.h): waiting on and signalling a tile's
// flag, and moving a block's fp32 accumulators to and from a partial slot in the workspace.
//
// A partial slot holds one 128 x 128 fp32 tile in *fragment order*: float4 number
// f * kThreads + tid holds accumulators v[i][j][0..3] (f = i * kNI + j) of thread tid. Every
// access is a coalesced 16-byte vector, and since every block of the kernel uses the same
// fragment layout no block ever needs row/column coordinates to combine partials.
//
// Memory ordering: writers store their partials with L2 (.cg) stores, then __syncthreads() and
// thread 0 releases the flag at GPU scope (fence + release store/atomic). Waiters: thread 0
// acquires the flag at GPU scope, then __syncthreads(), then every thread reads with .cg loads,
// which bypass the (non-coherent) L1 so no stale line from an earlier tile is seen.
#pragma once

#include <cstdint>

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
    __syncthreads();
  }

  __device__ static void Signal(const fixup::Step& s, int* flag) {
    if (s.signal == fixup::Signal::kNone || s.signal == fixup::Signal::kReset) return;
    __syncthreads();  // every thread's partial stores precede the release below
    if (threadIdx.x == 0) {
      __threadfence();
      if (s.signal == fixup::Signal::kSet) {
        StoreRelease(flag, s.signal_value);
      } else {
        AddRelease(flag, 1);
      }
    }
  }

  __device__ static void Publish(fixup::Publish op, float4* slot, const Acc& acc) {
    const int tid = threadIdx.x;
#pragma unroll
    for (int i = 0; i < Mainloop::kMI; ++i) {
      float4* row = slot + i * Mainloop::kNI * kThreads + tid;
      if (op == fixup::Publish::kAdd) {
        // Load a whole row of fragments before storing any: __stcg is a compiler memory barrier,
        // so a load placed after a store waits for the store's turn, and one L2 round trip per
        // fragment (16 in a row) made a turnstile step cost ~4.5 us (streamk-trace, H200).
        float4 old[Mainloop::kNI];
#pragma unroll
        for (int j = 0; j < Mainloop::kNI; ++j) old[j] = __ldcg(row + j * kThreads);
#pragma unroll
        for (int j = 0; j < Mainloop::kNI; ++j)
          __stcg(row + j * kThreads,
                 make_float4(old[j].x + acc.v[i][j][0], old[j].y + acc.v[i][j][1],
                             old[j].z + acc.v[i][j][2], old[j].w + acc.v[i][j][3]));
        continue;
      }
#pragma unroll
      for (int j = 0; j < Mainloop::kNI; ++j) {
        float4* p = row + j * kThreads;
        const float4 v =
            make_float4(acc.v[i][j][0], acc.v[i][j][1], acc.v[i][j][2], acc.v[i][j][3]);
        if (op == fixup::Publish::kStore) {
          __stcg(p, v);
        } else if (op == fixup::Publish::kAtomicAdd) {
          float* f = reinterpret_cast<float*>(p);
          atomicAdd(f + 0, v.x);
          atomicAdd(f + 1, v.y);
          atomicAdd(f + 2, v.z);
          atomicAdd(f + 3, v.w);
        }
      }
    }
  }

  // acc += slot
  __device__ static void Take(const float4* slot, Acc& acc) {
    const int tid = threadIdx.x;
#pragma unroll
    for (int i = 0; i < Mainloop::kMI; ++i) {
#pragma unroll
      for (int j = 0; j < Mainloop::kNI; ++j) {
        const float4 v = __ldcg(slot + (i * Mainloop::kNI + j) * kThreads + tid);
        acc.v[i][j][0] += v.x;
        acc.v[i][j][1] += v.y;
        acc.v[i][j][2] += v.z;
        acc.v[i][j][3] += v.w;
      }
    }
  }
};

}  // namespace streamk::kernels
