// Warp-specialized Hopper mainloop (sm_90a): the shared-memory layouts, accumulators and wgmma
// instructions of MainloopSm90 (mainloop_sm90.cuh) for a kBM x kBN tile over kBK-deep
// k-iterations (the library's tiles: 128 x 256, 128 x 192, 128 x 320, 128 x 128, 192 x 192 and
// 64 x 128, kBK = 64), fed by the TMA unit instead of cp.async.
//
//   - A producer (thread kThreads, the first of a warp group after the compute threads) walks the
//     same (tile, k-range) sequence as the compute threads and, for each k-iteration, waits for a
//     free stage of a kStages-deep ring, announces its bytes on the stage's "full" mbarrier and
//     issues the TMA copies of the A and B tiles (2-7 instructions, zero-filled past m, n and k;
//     a partial last tile along m or n loads only the rows it holds, TmaOperands).
//   - The compute warp groups (threads 0 .. kThreads - 1, 64 rows of the tile each) wait on
//     "full", issue their kBK / 16 wgmma.m64n{kBN}k16 per k-iteration (narrower where the tile
//     holds few of D's columns: NarrowWidthOf in tma_operands.h), keep one wgmma group in
//     flight, and release the stage of the previous k-iteration on its "empty" mbarrier (one
//     arrival per warp group).
//
// Neither side ever waits for the whole block: no __syncthreads in the mainloop, no address
// arithmetic or bounds checks in the compute warps, and the producer runs ahead across units, so
// the next tile's operands stream in while the compute warps run a fixup or an epilogue. The ring
// state (stage, phase) lives in each role's Pipeline and carries over from one unit to the next;
// both roles see the same k-iterations in the same order, so they stay in step.
//
// Clusters (kCluster = 2, Plan::cluster_m): the two blocks of a cluster compute the two 128-row
// halves of a 256 x kBN tile (the persistent kernel gives them the same units in the same order)
// and share B: each block's producer loads half of B's box and multicasts it into the same stage
// of both blocks, completing its bytes on both blocks' "full" barriers, so B is read from the L2
// once per cluster. A stage is then refilled only once both blocks' compute warps have released
// it: each warp group arrives on its own block's "empty" barrier and on the other's (four
// arrivals per phase), and each producer waits on its own. The blocks start only once both have
// initialized their barriers (a cluster barrier in Init) and exit together (one at the end of
// the kernel), so no copy or arrival reaches a block that has not started or has left.
//
// Shared memory: [pad to 1024][kStages x (A | B: 128 and kBN rows of kBK elements)][full bars]
// [empty bars];
// kSmemBytes covers all of it including the pad. The persistent kernel puts the epilogue's
// staging area after it (it must not overlap the ring the producer is filling).
// This header holds no host code; it only compiles to TMA and wgmma where
// __CUDA_ARCH_FEAT_SM90_ALL is defined (sm_90a), and kAvailable says whether it did.
#pragma once
#include <cstdint>

#include "mainloop_sm90.cuh"
#include "tma.cuh"
#include "tma_operands.h"

namespace streamk::kernels {

template <typename Element /* __half or __nv_bfloat16 */, bool kAColMajor, bool kBRowMajor,
          int kBN_ = 256, int kStages_ = 6, int kBK_ = 32, int kCluster_ = 1, int kBM_ = 128,
          bool kPingPong_ = false>
struct MainloopSm90Tma : sm90::WgmmaTile<kBN_, kBK_, kBM_> {
  using Tile = sm90::WgmmaTile<kBN_, kBK_, kBM_>;
  using Tile::kBM;
  using Tile::kBK;
  using Tile::kBN;
  using Tile::kNI;
  using Tile::kThreads;
  static constexpr bool kAvailable = sm90::kWgmmaCompiled;
  // Ping-pong (the 128 x 128 configuration's data-parallel plans, PingPongOf in tma_operands.h):
  // each compute warp group computes whole tiles, the block's tiles alternating between the two,
  // so that one group's epilogue runs while the other's mainloop keeps the tensor cores busy. A
  // group holds the whole tile: both 64-row halves, kMI = 2 (Accumulators::v[i] is rows
  // [64 i, 64 i + 64), AccRow of the thread's index within its group).
  static constexpr bool kPingPong = kPingPong_;
  static_assert(!kPingPong || (kBM == 128 && kCluster_ == 1), "two 64-row halves per group");
  static constexpr int kMI = kPingPong ? 2 : 1;
  struct Accumulators { float v[kMI][kNI][4]; };
  // The threads that run one tile's epilogue together (Epilogue's kGroupThreads).
  static constexpr int kTileThreads = kPingPong ? 128 : kThreads;
  __device__ static int AccRow(int tid, int i, int r) {
    if constexpr (kPingPong) return 64 * i + Tile::AccRow(tid & 127, 0, r);
    return Tile::AccRow(tid, i, r);
  }
  __device__ static void Zero(Accumulators& acc) {
#pragma unroll
    for (int i = 0; i < kMI; ++i)
#pragma unroll
      for (int j = 0; j < kNI; ++j)
#pragma unroll
        for (int r = 0; r < 4; ++r) acc.v[i][j][r] = 0.0f;
  }
  // The producer is a warp group after the kThreads compute threads (one lane of it works):
  // register maxima are set per warp group, and the producer gives most of its registers to the
  // compute warps (Rebalance). A lone producer warp left the block at 168 registers per thread
  // (nine warps, three of them on one of the SM's four register-file quarters), where the
  // 128 x 256 kernel spilled 96 bytes; with a warp group, each quarter holds one producer warp at
  // kProducerRegisters and one compute warp per compute warp group at kComputeRegisters (one:
  // 256, two: 232, three: 152).
  static constexpr int kProducerThreads = 128;
  static constexpr int kWarpGroups = kThreads / 128;
  // The cluster kernel's producer needs more of them (it spilled at 40 to 72, ptxas 13.0).
  static constexpr int kProducerRegisters = kCluster_ > 1 ? 88 : 40;
  // What is left of the quarter's 512 registers per lane, shared by the compute warps (a multiple
  // of 8), at most the 256 a thread can address (one compute warp group: the 64-row tile).
  static constexpr int kComputeShare = (16384 / 32 - kProducerRegisters) / kWarpGroups / 8 * 8;
  static constexpr int kComputeRegisters = kComputeShare < 256 ? kComputeShare : 256;
  static_assert((kProducerRegisters + kWarpGroups * kComputeRegisters) * 32 <= 16384,
                "a register-file quarter's 16,384 registers hold a producer warp and the compute "
                "warps beside it");
  static constexpr int kStages = kStages_;
  static constexpr int kCluster = kCluster_;  // blocks per cluster along m, sharing B
  static_assert(kCluster == 1 || kCluster == 2, "one block, or two sharing B");
  static_assert(kCluster == 1 || kBM == 128, "clusters of 128-row blocks");
  using Stages = sm90::WgmmaStages<Element, kAColMajor, kBRowMajor, kBN, kBK, kBM>;
  static constexpr uint32_t kHalf = Stages::kHalfBytes;  // one TMA box of an mn-contiguous half
  static constexpr int kStageBytes = Stages::kStageBytes;
  static constexpr int kRingBytes = kStages * kStageBytes;
  static constexpr int kSmemBytes = 1024 + kRingBytes + 2 * kStages * 8;
  static_assert(kStages >= 2, "one stage loading while another is read");

  // A role's position in the ring: the stage its next k-iteration uses and that stage's phase
  // parity. Each role (producer lane, compute thread) keeps its own copy.
  struct Pipeline {
    uint32_t ring;  // shared address of stage 0 (1024-aligned: the swizzle patterns repeat there)
    uint32_t bars;  // full[s] at bars + 8 s, empty[s] at bars + 8 (kStages + s)
    uint32_t peer_bars;  // kCluster 2: the other block's `bars` (a shared::cluster address)
    int stage = 0;
    uint32_t phase = 0;

    __device__ uint32_t Full(int s) const { return bars + 8u * static_cast<uint32_t>(s); }
    __device__ uint32_t Empty(int s) const {
      return bars + 8u * static_cast<uint32_t>(kStages + s);
    }
    __device__ uint32_t PeerEmpty(int s) const {
      return peer_bars + 8u * static_cast<uint32_t>(kStages + s);
    }
    __device__ void Advance() {
      if (++stage == kStages) stage = 0, phase ^= 1;
    }
    // Past `iterations` k-iterations another warp group reads (ping-pong).
    __device__ void Skip(int iterations) {
      const int at = stage + iterations, wraps = at / kStages;
      stage = at - wraps * kStages;
      phase ^= static_cast<uint32_t>(wraps & 1);
    }
  };

  // Every thread of the block, once, before the roles split: thread 0 initializes the barriers
  // (full: the producer's one arrival plus the TMA bytes; empty: one arrival per compute warp
  // group of each block of the cluster), then the whole block (cluster) synchronizes.
  __device__ static Pipeline Init(char* smem) {
    Pipeline p;
    p.ring = (sm80::SmemAddr(smem) + 1023u) & ~1023u;
    p.bars = p.ring + kRingBytes;
    p.peer_bars = p.bars;
    if (threadIdx.x == 0) {
      for (int s = 0; s < kStages; ++s) {
        sm90::MbarrierInit(p.Full(s), 1);
        sm90::MbarrierInit(p.Empty(s), kCluster * (kThreads / 128));
      }
      sm90::FenceBarrierInit();
    }
    __syncthreads();
    if constexpr (kCluster > 1) {
      p.peer_bars = sm90::PeerSmemAddr(p.bars, sm90::ClusterRank() ^ 1u);
      sm90::ClusterSync();
    }
    return p;
  }

  // Producer (one lane), before its first load: fetches the operands' tensor maps into the TMA
  // unit's descriptor cache (they are kernel parameters; this reads no global memory).
  __device__ static void PrefetchMaps(const TmaOperands& tma) {
    sm90::PrefetchTensorMap(&tma.a);
    sm90::PrefetchTensorMap(&tma.b);
  }

  // Right after the roles split, every thread of its warp group: the producer releases registers
  // (first, so that the compute warps' request can be met), the compute warps take them.
  __device__ static void RebalanceProducer() {
    sm90::SetMaxRegisters<kProducerRegisters, false>();
  }
  __device__ static void RebalanceCompute() { sm90::SetMaxRegisters<kComputeRegisters, true>(); }

  // Producer (one lane): loads k-iterations [k_iter_begin, k_iter_end) of the tile at
  // (tile_m0, tile_n0) of batch entry `batch` into the ring (kCluster 2: this block's 128 rows of
  // A, and its half of B's into both blocks' rings). With k_rotation > 0 the range is a whole
  // tile's k_iters iterations ([0, k_iters), k_rotation < k_iters), loaded from k-iteration
  // k_rotation on, wrapping at k_iters (the sum over k does not depend on the order; Stream-K
  // blocks rotate whole tiles to load the same k-slices as the blocks beside them).
  __device__ static void Produce(Pipeline& p, const TmaOperands& tma, int tile_m0, int tile_n0,
                                 int batch, int k_iter_begin, int k_iter_end, int k_rotation = 0,
                                 int k_iters = 0) {
    const int a_batch = tma.a_broadcast ? 0 : batch;
    const int b_batch = tma.b_broadcast ? 0 : batch;
    // A partial last tile along m or n loads only the rows it holds (TmaOperands).
    const bool a_edge = tile_m0 >= tma.a_load.edge_from;
    const bool b_edge = tile_n0 >= tma.b_load.edge_from;
    const OperandLoad& a_load = a_edge ? tma.a_load.edge : tma.a_load.whole;
    const OperandLoad& b_load = b_edge ? tma.b_load.edge : tma.b_load.whole;
    const CUtensorMap* a_map = a_edge && !kAColMajor ? &tma.a_edge : &tma.a;
    const CUtensorMap* b_map = b_edge && !kBRowMajor ? &tma.b_edge : &tma.b;
    const uint32_t bytes = a_load.bytes + b_load.bytes;
    int k_iter = k_iter_begin + k_rotation;  // the k-iteration loaded, kt rotated
    for (int kt = k_iter_begin; kt < k_iter_end; ++kt) {
      sm90::MbarrierWait(p.Empty(p.stage), p.phase ^ 1);
      const uint32_t full = p.Full(p.stage);
      sm90::MbarrierArriveExpectTx(full, bytes);
      const uint32_t a = p.ring + static_cast<uint32_t>(p.stage * kStageBytes);
      const uint32_t b = a + Stages::kABytes;
      const int k0 = k_iter * kBK;
      if (++k_iter == k_iters) k_iter = 0;
      if constexpr (kAColMajor) {
        sm90::TmaLoad(a, a_map, full, tile_m0, k0, a_batch);
#pragma unroll
        for (int h = 1; h < kBM / 64; ++h)
          if (h < a_load.boxes)
            sm90::TmaLoad(a + kHalf * h, a_map, full, tile_m0 + 64 * h, k0, a_batch);
      } else {
        sm90::TmaLoad(a, a_map, full, k0, tile_m0, a_batch);
      }
      if constexpr (kCluster > 1) {
        // This block's half of B (the host's map has a box of kBN / 2 rows for a k-contiguous
        // B), written to both blocks. The other block loads the other half into both.
        constexpr int kShare = kBN / kCluster;
        const uint32_t rank = sm90::ClusterRank();
        if constexpr (kBRowMajor) {
#pragma unroll
          for (int h = 0; h < kShare / 64; ++h) {
            const int box = static_cast<int>(rank) * (kShare / 64) + h;
            if (box < b_load.boxes)
              sm90::TmaLoadMulticast(b + kHalf * box, b_map, full, tile_n0 + 64 * box, k0, b_batch,
                                     0x3);
          }
        } else {
          sm90::TmaLoadMulticast(b + rank * (kShare * kBK * 2), b_map, full, k0,
                                 tile_n0 + static_cast<int>(rank) * kShare, b_batch, 0x3);
        }
      } else if constexpr (kBRowMajor) {
#pragma unroll
        for (int h = 0; h < kBN / 64; ++h)
          if (h < b_load.boxes)
            sm90::TmaLoad(b + kHalf * h, b_map, full, tile_n0 + 64 * h, k0, b_batch);
      } else if constexpr (kBN > kMaxBoxRows) {
        // Two boxes of b_load.box_rows rows (LoadOf), the second where the first ends.
        sm90::TmaLoad(b, b_map, full, k0, tile_n0, b_batch);
        if (b_load.boxes > 1)
          sm90::TmaLoad(b + static_cast<uint32_t>(b_load.box_rows * kBK * 2), b_map, full, k0,
                        tile_n0 + b_load.box_rows, b_batch);
      } else {
        sm90::TmaLoad(b, b_map, full, k0, tile_n0, b_batch);
      }
      p.Advance();
    }
  }

  // One warp group is done reading stage s: its arrival on the stage's "empty" barrier, and on the
  // other block's where B is shared (that block's producer writes this block's stage too).
  __device__ static void Release(const Pipeline& p, int s) {
    sm90::MbarrierArrive(p.Empty(s));
    if constexpr (kCluster > 1) sm90::MbarrierArriveCluster(p.PeerEmpty(s));
  }

  // Compute threads: acc = the tile's product over k-iterations [k_iter_begin, k_iter_end),
  // whose operands the producer loads in the same order. Returns with no wgmma in flight and
  // every stage it read released. `cols`: the tile's columns inside D; where they fit a narrower
  // wgmma (NarrowWidthOf) only those are computed, and acc's other columns stay zero.
  __device__ __forceinline__ static void Consume(Pipeline& p, int k_iter_begin, int k_iter_end,
                                                 Accumulators& acc, int cols = kBN) {
    static_assert(!kPingPong, "ConsumeTile");
    const int width = NarrowWidthOf(cols, kBN, kBRowMajor);
    const int tid = sm80::OpaqueThreadIdx();
    Zero(acc);
    const Stages stages(p.ring, tid);
    const bool signals = (tid & 127) == 0;  // one arrival per warp group on "empty"

    int previous = -1;  // the stage of the previous k-iteration, still being read
    for (int kt = k_iter_begin; kt < k_iter_end; ++kt) {
      sm90::MbarrierWait(p.Full(p.stage), p.phase);
      IssueAt(stages, acc, p.stage, width);
      // The previous k-iteration's wgmmas are done once at most this one is in flight.
      sm90::WgmmaWait<1>();
      if (previous >= 0 && signals) Release(p, previous);
      previous = p.stage;
      p.Advance();
    }
    sm90::WgmmaWait<0>();
    if (previous >= 0 && signals) Release(p, previous);
    sm90::FenceAccumulators(acc.v[0]);
  }

  // Stages::Issue at `width` (NarrowWidthOf): one arm per width, each with its own fence and
  // commit (a branch between the fence and the wgmmas made ptxas serialize every wgmma).
  __device__ __forceinline__ static void IssueAt(const Stages& stages, Accumulators& acc,
                                                 int stage, int width) {
    if constexpr (kBN <= kNarrowTilesUpTo) {
      if constexpr (!kBRowMajor) {
        if (width == 16) return stages.template Issue<16>(acc.v[0], stage);
        if (width == 32) return stages.template Issue<32>(acc.v[0], stage);
      }
      if (width == 64) return stages.template Issue<64>(acc.v[0], stage);
    }
    stages.Issue(acc.v[0], stage);
  }

  // Ping-pong, one compute warp group: acc = a whole tile's product over its k_iters
  // k-iterations, both halves of A (its stages' two 64-row halves) against B, in the next k_iters
  // stages of the ring. The two groups' tiles alternate in the ring (the producer loads the
  // block's tiles in order), so a group starts only once the other has issued its last wgmma of
  // the tile before (the caller waits on `turn`): by then that group has waited for each of those
  // stages, so every stage this one waits for is at most one phase ahead of its barrier, and the
  // two groups' wgmmas do not interleave. Once it has issued its own last wgmma it arrives on
  // `next` (the other group's turn), then waits for its wgmmas and releases its stages (both
  // arrivals of each stage's "empty": no other group reads them). Each half's four wgmmas of a
  // k-iteration go as one group; the halves' wgmmas interleaved step by step ran the same on an
  // H200.
  __device__ static void ConsumeTile(Pipeline& p, int k_iters, Accumulators& acc, uint32_t next) {
    static_assert(kPingPong, "Consume");
    const int tid = sm80::OpaqueThreadIdx() & 127;
    Zero(acc);
    const Stages top(p.ring, 0), bottom(p.ring, 128);  // A's rows 0-63 and 64-127
    const bool signals = tid == 0;
    int previous = -1;
    for (int kt = 0; kt < k_iters; ++kt) {
      sm90::MbarrierWait(p.Full(p.stage), p.phase);
      top.Issue(acc.v[0], p.stage);
      bottom.Issue(acc.v[1], p.stage);
      sm90::WgmmaWait<2>();  // the previous k-iteration's two groups are done
      if (previous >= 0 && signals) sm90::MbarrierArrive(p.Empty(previous), kWarpGroups);
      previous = p.stage;
      p.Advance();
    }
    if (signals) sm90::MbarrierArrive(next);
    sm90::WgmmaWait<0>();
    if (previous >= 0 && signals) sm90::MbarrierArrive(p.Empty(previous), kWarpGroups);
    sm90::FenceAccumulators(acc.v[0]);
    sm90::FenceAccumulators(acc.v[1]);
  }
};

}  // namespace streamk::kernels
