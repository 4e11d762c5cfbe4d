// The device side of the fixup protocol (fixup_protocol.h): waiting on and signalling a tile's
// flag, and moving a block's fp32 accumulators to and from a partial slot in the workspace.
//
// A partial slot holds one fp32 tile (128 x 128 to 192 x 192) in *fragment order*: float4 number
// f * kThreads + tid holds accumulators v[i][j][0..3] (f = i * kNI + j) of thread tid. Every
// access is a coalesced 16-byte vector, and since every block of the kernel uses the same
// fragment layout no block ever needs row/column coordinates to combine partials.
//
// A partial store (Publish kStore) and a separate reduction's reads move only the fragments that
// hold an element of D (inside m and n): an edge tile's partial is as many bytes as the tile has
// in the problem (a decode projection's 16 columns of 128 are an eighth). Every block of a tile
// skips the same fragments, since which ones a thread holds depends on the fragment layout and
// the tile's extent alone (Fixup::Live). The turnstile's and the atomic reduction's later steps
// move whole tiles: the stale bytes they read for fragments nobody stored land only in
// accumulator elements outside D, which no epilogue writes. (Predicated there too, turnstile
// plans of 128 x 128 tiles took ~0.5 us longer on an H200, full tiles or not.)
//
// Memory ordering: writers store their partials with L2 (.cg) stores, then ComputeSync() and
// thread 0 releases the flag at GPU scope (a release store/atomic). Waiters: thread 0
// acquires the flag at GPU scope, then ComputeSync(), then every thread reads with .cg loads,
// which bypass the (non-coherent) L1 so no stale line from an earlier tile is seen.
#pragma once

#include <cstdint>

#include "compute_sync.cuh"
#include "fixup_protocol.h"
#include "mainloop_sm80.cuh"  // sm80::CpAsync16 and friends
#include "tma_operands.h"     // StagedRowsOf

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

// The rows and columns of a block's part of a tile that lie inside the problem (either may exceed
// the tile's own; at most 0 where none does).
struct TileExtent {
  int rows, cols;
};

// A 16-byte L2 (.cg) store that happens only where `pred` holds, as a predicated instruction
// (with a branch per fragment the 128 x 256 kernel spilled 284 bytes of registers; so, 100, as
// with no check). Written as __stcg is (CUDA's sm_32_intrinsics.hpp).
__device__ __forceinline__ void StoreCgIf(bool pred, float4* p, const float4& v) {
  asm(
      "{\n .reg .pred q;\n setp.ne.b32 q, %0, 0;\n"
      " @q st.global.cg.v4.f32 [%1], {%2, %3, %4, %5};\n}\n" ::"r"(static_cast<int>(pred)),
      "l"(p), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w)
      : "memory");
}

template <class Mainloop>
struct Fixup {
  using Acc = typename Mainloop::Accumulators;
  static constexpr int kThreads = Mainloop::kThreads;
  static constexpr int kFragments = Mainloop::kMI * Mainloop::kNI;  // float4s per thread
  // SumToStage's rows per pass: one warp group's fragments, or half of them for the 320-wide tile
  // (the caller's stage holds as many: StagedRowsOf, Epilogue::kPassRows).
  static constexpr int kPassRows = StagedRowsOf(Mainloop::kBN);

  // Whether thread tid's fragment f (v[f / kNI][f % kNI]) holds an element of D: its first row
  // and column are inside the extent (its others are the next column and 8 rows down). The one
  // definition; a reduction block asks it for the fragments of other threads' slots.
  __device__ __forceinline__ static bool Holds(int tid, int f, const TileExtent& e) {
    return Mainloop::AccRow(tid, f / Mainloop::kNI, 0) < e.rows &&
           Mainloop::AccCol(tid, f % Mainloop::kNI, 0) < e.cols;
  }
  // Holds for this thread's own fragments, counted once: i < i_end and j < j_end, since a
  // thread's rows grow with i and its columns with j in every mainloop's layout. With one
  // fragment row (the wgmma layouts) that is f < j_end, one register beside the accumulators
  // (the 128 x 256 kernel has none to spare).
  struct Live {
    int i_end, j_end;
    __device__ __forceinline__ bool Has(int f) const {
      if constexpr (Mainloop::kMI == 1) return f < j_end;
      return f / Mainloop::kNI < i_end && f % Mainloop::kNI < j_end;
    }
  };
  __device__ __forceinline__ static Live LiveOf(int tid, const TileExtent& e) {
    Live l{0, 0};
    if constexpr (Mainloop::kColumnBlocks && Mainloop::kMI == 1) {
      // Fragment j's first column is AccCol(tid, 0, 0) + 8 j: a few instructions, not kNI (the
      // block reaches this code cold, and every instruction line is an L2 round trip away).
      const int first = Mainloop::AccCol(tid, 0, 0);
      l.i_end = Mainloop::AccRow(tid, 0, 0) < e.rows;
      l.j_end = l.i_end ? min(Mainloop::kNI, max(0, (e.cols - first + 7) >> 3)) : 0;
    } else {
#pragma unroll
      for (int i = 0; i < Mainloop::kMI; ++i) l.i_end += Mainloop::AccRow(tid, i, 0) < e.rows;
#pragma unroll
      for (int j = 0; j < Mainloop::kNI; ++j) l.j_end += Mainloop::AccCol(tid, j, 0) < e.cols;
    }
    return l;
  }

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
      // Every other reader has passed its wait when the last one leaves; none reads the flag again.
      if (s.signal == fixup::Signal::kDepart && atomicAdd(flag, 1) + 1 == s.signal_value)
        StoreRelaxed(flag, 0);
    }
    ComputeSync<kThreads>();
  }

  __device__ static void Signal(const fixup::Step& s, int* flag) {
    if (s.signal == fixup::Signal::kNone || s.signal == fixup::Signal::kReset ||
        s.signal == fixup::Signal::kDepart)
      return;
    // Every thread's partial stores precede the release below (the barrier orders them before
    // thread 0's, and a release is cumulative). No separate __threadfence(): its fence.sc is a
    // second, stronger fence in front of the release's own.
    ComputeSync<kThreads>();
    if (threadIdx.x == 0) {
      if (s.signal == fixup::Signal::kSet) {
        StoreRelease(flag, s.signal_value);
      } else {
        AddRelease(flag, 1);
      }
    }
  }

  // One loop per operation, so that the kernel fetches only the instructions of the one it runs
  // (a block reaches this code cold, and under load every instruction-cache miss waits an L2
  // round trip).
  __device__ static void Publish(fixup::Publish op, float4* slot, Acc& acc, const TileExtent& e) {
    const int tid = threadIdx.x;
    if (op == fixup::Publish::kStore) {
      const Live live = LiveOf(tid, e);
#pragma unroll
      for (int f = 0; f < kFragments; ++f) {
        const float(&v)[4] = Fragment(acc, f);
        StoreCgIf(live.Has(f), slot + f * kThreads + tid, make_float4(v[0], v[1], v[2], v[3]));
      }
    } else if (op == fixup::Publish::kAdd) {
      // Load a batch of fragments before storing any: __stcg is a compiler memory barrier, so a
      // load placed after a store waits for the store's turn, and one L2 round trip per fragment
      // (16 in a row) made a turnstile step cost ~4.5 us (streamk-trace, H200).
#pragma unroll
      for (int f0 = 0; f0 < kFragments; f0 += kBatch) {
        float4 old[kBatch];
#pragma unroll
        for (int b = 0; b < kBatch; ++b) old[b] = __ldcg(slot + (f0 + b) * kThreads + tid);
#pragma unroll
        for (int b = 0; b < kBatch; ++b) {
          const float(&v)[4] = Fragment(acc, f0 + b);
          __stcg(slot + (f0 + b) * kThreads + tid,
                 make_float4(old[b].x + v[0], old[b].y + v[1], old[b].z + v[2], old[b].w + v[3]));
        }
      }
    } else if (op == fixup::Publish::kAtomicAdd) {
#pragma unroll
      for (int f = 0; f < kFragments; ++f) {
        const float(&v)[4] = Fragment(acc, f);
        float* q = reinterpret_cast<float*>(slot + f * kThreads + tid);
#pragma unroll
        for (int r = 0; r < 4; ++r) atomicAdd(q + r, v[r]);
      }
    }
  }

  // acc += slot. Under load an L2 round trip takes ~1 us, and the registers beside the
  // accumulators hold 4 fragments' loads: a 128 KiB take waited 8 round trips (~7 us, H200).
  // With `stage` (shared memory the block does not use now, kStageFragments * kThreads * 16
  // bytes), the loads go there by cp.async instead, that many fragments per round trip. Each
  // thread reads back only what it copied itself, so no barrier is needed before the reads; the
  // caller synchronizes before anything else writes the area.
  template <int kStageFragments = 0>
  __device__ static void Take(const float4* slot, Acc& acc, float4* stage = nullptr) {
    const int tid = threadIdx.x;
    if constexpr (kStageFragments > 0) {
      static_assert(kFragments % kStageFragments == 0, "whole rounds");
#pragma unroll
      for (int f0 = 0; f0 < kFragments; f0 += kStageFragments) {
#pragma unroll
        for (int b = 0; b < kStageFragments; ++b)
          sm80::CpAsync16(sm80::SmemAddr(stage + b * kThreads + tid),
                          slot + (f0 + b) * kThreads + tid, 16);
        sm80::CpAsyncWaitAll();
#pragma unroll
        for (int b = 0; b < kStageFragments; ++b) Add(acc, f0 + b, stage[b * kThreads + tid]);
      }
    } else {
#pragma unroll
      for (int f = 0; f < kFragments; ++f) Add(acc, f, __ldcg(slot + f * kThreads + tid));
    }
  }

  // A slice of a separate reduction, all 128 rows in one round of loads, for a mainloop whose
  // fragment j lies in tile columns [8 j, 8 j + 8) for every thread (Mainloop::kColumnBlocks):
  // stage[row * pitch + col - col_begin] = the sum over slots slot_of(0), ..., slot_of(count - 1),
  // added in that order, for columns [col_begin, col_end). Thread tid sums its own fragments of
  // the slice, so every thread keeps 16 loads in flight (16 peers of one fragment, 8 of 2 or 4 of
  // 4). Under load an L2 round trip costs 1-3 us (H200), and SumToStage's two passes of 64 rows
  // each waited one or more of them.
  template <class SlotOf>
  __device__ static void SumSliceToStage(const SlotOf& slot_of, int count, int col_begin,
                                         int col_end, const TileExtent& e, float* stage,
                                         int pitch) {
    static_assert(Mainloop::kColumnBlocks && Mainloop::kMI == 1, "fragment j = columns 8j..8j+7");
    if (count >= 16) {
      SumSliceBy<1, 16>(slot_of, count, col_begin, col_end, e, stage, pitch);
    } else if (count >= 8) {
      SumSliceBy<2, 8>(slot_of, count, col_begin, col_end, e, stage, pitch);
    } else {
      SumSliceBy<4, 4>(slot_of, count, col_begin, col_end, e, stage, pitch);
    }
  }

  // A slice of a separate reduction: for tile rows [64 * pass, 64 * pass + 64) (the fragments of
  // source threads 128 * pass .. + 128, one warp group, in either mainloop's layout) and columns
  // [col_begin, col_end), stage[(row - 64 * pass) * pitch + col] = the sum over slots
  // slot_of(0), ..., slot_of(count - 1), added in that order. The compute threads share the
  // slice's fragments and keep 16 loads each in flight: 16 peers of one fragment, or with fewer
  // peers 4 peers of 4 fragments. One peer at a time into the accumulators, a narrow slice of many
  // peers waited an L2 round trip per peer (33 peers of an 8-column slice: 28 us; H200).
  template <class SlotOf>
  __device__ static void SumToStage(const SlotOf& slot_of, int count, int pass, int col_begin,
                                    int col_end, const TileExtent& e, float* stage, int pitch) {
    if (count >= 16) {
      SumToStageBy<1, 16>(slot_of, count, pass, col_begin, col_end, e, stage, pitch);
    } else {
      SumToStageBy<4, 4>(slot_of, count, pass, col_begin, col_end, e, stage, pitch);
    }
  }

 private:
  // SumSliceToStage with kJ fragments per thread at a time, kGroup peers at a time.
  template <int kJ, int kGroup, class SlotOf>
  __device__ static void SumSliceBy(const SlotOf& slot_of, int count, int col_begin, int col_end,
                                    const TileExtent& e, float* stage, int pitch) {
    const int tid = threadIdx.x;
    const int j_begin = col_begin / 8, blocks = (col_end - col_begin) / 8;
    const int row0 = Mainloop::AccRow(tid, 0, 0), row1 = Mainloop::AccRow(tid, 0, 2);
    const int col_in_block = Mainloop::AccCol(tid, 0, 0);
    const Live live = LiveOf(tid, e);
#pragma unroll 1
    for (int j0 = 0; j0 < blocks; j0 += kJ) {
      int at[kJ];
      bool use[kJ];
      float4 sum[kJ];
#pragma unroll
      for (int q = 0; q < kJ; ++q) {
        at[q] = (j_begin + j0 + q) * kThreads + tid;
        use[q] = j0 + q < blocks && live.Has(j_begin + j0 + q);
      }
      SumPeers<kJ, kGroup>(slot_of, count, at, use, sum);
#pragma unroll
      for (int q = 0; q < kJ; ++q) {
        if (j0 + q >= blocks) break;
        const int col = (j0 + q) * 8 + col_in_block;
        *reinterpret_cast<float2*>(stage + row0 * pitch + col) = make_float2(sum[q].x, sum[q].y);
        *reinterpret_cast<float2*>(stage + row1 * pitch + col) = make_float2(sum[q].z, sum[q].w);
      }
    }
  }

  // SumToStage with kItems fragments per thread at a time, kGroup peers at a time.
  template <int kItems, int kGroup, class SlotOf>
  __device__ static void SumToStageBy(const SlotOf& slot_of, int count, int pass, int col_begin,
                                      int col_end, const TileExtent& e, float* stage, int pitch) {
    // Source threads whose rows are in one pass: one warp group (its first or second half in
    // 32-row passes).
    constexpr int kSources = kThreads * kPassRows / Mainloop::kBM;
    constexpr int kItemsPerPass = kSources * kFragments;
#pragma unroll 1
    for (int base = threadIdx.x; base < kItemsPerPass; base += kItems * kThreads) {
      int src[kItems], f[kItems], col[kItems];
      bool valid[kItems];
      float4 sum[kItems];
#pragma unroll
      for (int q = 0; q < kItems; ++q) {
        const int idx = base + q * kThreads;
        src[q] = pass * kSources + idx % kSources;
        f[q] = idx / kSources;
        col[q] = Mainloop::AccCol(src[q], f[q] % Mainloop::kNI, 0);
        valid[q] = idx < kItemsPerPass && col[q] >= col_begin && col[q] < col_end &&
                   Holds(src[q], f[q], e);
      }
      bool any = false;
#pragma unroll
      for (int q = 0; q < kItems; ++q) any |= valid[q];
      if (!any) continue;  // outside the slice: a narrow slice skips most fragments
      int at[kItems];
#pragma unroll
      for (int q = 0; q < kItems; ++q) at[q] = f[q] * kThreads + src[q];
      SumPeers<kItems, kGroup>(slot_of, count, at, valid, sum);
#pragma unroll
      for (int q = 0; q < kItems; ++q) {
        if (!valid[q]) continue;
        const int i = f[q] / Mainloop::kNI;
        const int row0 = Mainloop::AccRow(src[q], i, 0) - pass * kPassRows;
        const int row1 = Mainloop::AccRow(src[q], i, 2) - pass * kPassRows;
        *reinterpret_cast<float2*>(stage + row0 * pitch + col[q]) = make_float2(sum[q].x, sum[q].y);
        *reinterpret_cast<float2*>(stage + row1 * pitch + col[q]) = make_float2(sum[q].z, sum[q].w);
      }
    }
  }

  // sum[q] = the float4 at[q] of slots slot_of(0), ..., slot_of(count - 1), added in that order,
  // for the items with use[q] (0 for the others). The loads of kGroup peers are all issued before
  // any is added, so each group of peers waits one L2 round trip.
  template <int kItems, int kGroup, class SlotOf>
  __device__ static void SumPeers(const SlotOf& slot_of, int count, const int (&at)[kItems],
                                  const bool (&use)[kItems], float4 (&sum)[kItems]) {
#pragma unroll
    for (int q = 0; q < kItems; ++q) sum[q] = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll 1
    for (int first = 0; first < count; first += kGroup) {
      float4 x[kItems][kGroup];
#pragma unroll
      for (int g = 0; g < kGroup; ++g) {
        const bool peer = first + g < count;
        const float4* slot = slot_of(peer ? first + g : count - 1);
#pragma unroll
        for (int q = 0; q < kItems; ++q)
          x[q][g] = peer && use[q] ? __ldcg(slot + at[q]) : make_float4(0.f, 0.f, 0.f, 0.f);
      }
#pragma unroll
      for (int q = 0; q < kItems; ++q) {
#pragma unroll
        for (int g = 0; g < kGroup; ++g) {  // k order: peer first + g
          sum[q].x += x[q][g].x;
          sum[q].y += x[q][g].y;
          sum[q].z += x[q][g].z;
          sum[q].w += x[q][g].w;
        }
      }
    }
  }

  // Fragments are moved in batches of 4 (16 registers in flight per thread, whatever the
  // mainloop's accumulator shape).
  static constexpr int kBatch = 4;
  static_assert(kFragments % kBatch == 0, "fragment batches");

  __device__ __forceinline__ static void Add(Acc& acc, int f, const float4& x) {
    float(&v)[4] = Fragment(acc, f);
    v[0] += x.x;
    v[1] += x.y;
    v[2] += x.z;
    v[3] += x.w;
  }

  // Accumulator fragment f in slot order: v[f / kNI][f % kNI].
  __device__ __forceinline__ static float (&Fragment(Acc& acc, int f))[4] {
    return acc.v[f / Mainloop::kNI][f % Mainloop::kNI];
  }
};

}  // namespace streamk::kernels
