// The persistent Stream-K GEMM kernel: grid_blocks blocks, each executing work blocks
// blockIdx.x, blockIdx.x + gridDim.x, ... (work_mapping.h), each work block being
//   Stream-K:       for each unit, last tile first: mainloop over its k-slice -> fixup -> epilogue
//                   if the protocol says so;
//   data-parallel:  for each of its tiles: mainloop over all k -> epilogue;
//   reduction:      wait for the tile's peers -> sum its columns of their partials in k order ->
//                   epilogue on those columns.
// The mainloop, the fixup and the epilogue are separate components; only the mainloop changes
// per architecture. A warp-specialized mainloop (Mainloop::kProducerThreads > 0, the TMA one) adds
// a producer warp group after the kThreads compute threads; one lane of it walks the same
// mainloops in the same order (Produce below) and only loads operands; everything else, including
// every block-wide barrier of the fixup and the epilogue (ComputeSync), involves the compute
// threads alone.
//
// Clusters (Mainloop::kCluster = 2, Plan::cluster_m): the thread blocks of a cluster are one
// persistent block of the plan (cluster blockIdx.x / 2) and walk the same work blocks; rank r
// computes, fixes up and finishes rows [128 r, 128 r + 128) of each tile with its own flag and
// its own half of each partial slot (work_mapping.h), so the protocol below runs per rank
// unchanged. The ranks' mainloops share B's loads and so run in step (mainloop_sm90_tma.cuh).
//
// Why it cannot deadlock. (1) Every wait is for a value written only by lower-numbered work
// blocks (fixup_protocol.h; tested over a sweep in work_mapping_test.cc), and a work block never
// waits for anything before it starts, so the lowest-numbered unfinished work block never waits
// on unfinished work. (2) A persistent block executes its work blocks in increasing order, so the
// lowest-numbered unfinished work block is the one its persistent block is executing now (any
// earlier one on that block is finished). (3) All grid_blocks blocks are resident at once: the
// grid is at most avail_sms x the kernel's measured occupancy, and plans with waits are launched
// cooperatively, which makes the runtime guarantee co-residency or refuse the launch (launched
// programmatically, some blocks may start while the previous kernel still holds SMs, but no block
// waits on another before that kernel has ended: GridDependencyWait comes first). Hence the
// lowest unfinished work block always makes progress, by induction every work block finishes.
// With clusters, a rank's mainloop also waits for the other rank to release stages it read
// kStages iterations earlier. The rank behind never waits for the rank ahead (which released
// those stages already), and the rank of the lowest unfinished work block that is behind waits
// for nothing unfinished; so that work block still progresses.
//
// A dynamic schedule (Plan::schedule) needs no co-residency. Each persistent block claims its
// next work block from a counter (Claim) only once it has finished the one before, and claims
// are numbered in increasing order, so when work block w is claimed every lower one is claimed
// too, each by a block that is running (it made the claim) and executing its claims in order.
// The lowest-numbered unfinished claimed work block is therefore the one its block is executing
// now, and it waits only for lower ones, which are finished: it progresses. A block that starts
// late, or not until others have left, claims only what is left. The producer claims ahead of
// its compute threads (PostClaim), but only work blocks above the one they execute, so the
// argument is unchanged (after a reduction block, which it has nothing to load for, it claims the
// next once the compute threads have the block's partial sums); clusters and ping-pong run static
// schedules only. The CPU emulator (lib/emulator.cc) runs dynamic plans with blocks that start
// late or never.
#pragma once

#include <cuda_runtime.h>

#include "epilogue.cuh"
#include "fixup.cuh"
#include "fixup_protocol.h"
#include "grid_dependency.cuh"
#include "kernel_args.h"
#include "tma_operands.h"
#include "work_mapping.h"

namespace streamk::kernels {

// Records one trace event (trace.h) from thread 0 when the launch has a trace buffer. state[0]
// counts the events this persistent block recorded, state[1] is its index (blockIdx.x, or the
// cluster's where a cluster is one: only its rank 0 records, state == nullptr for the others).
// The state lives in shared memory, so tracing keeps no registers alive across the mainloop.
// With `groups` (ping-pong), thread 0 of each compute warp group records its own tiles' events,
// counted atomically.
__device__ __forceinline__ void TraceMark(const GemmKernelArgs& a, int* state, TraceKind kind,
                                          int work, int tile, int k_begin, int k_end,
                                          bool groups = false) {
  if (a.trace.events == nullptr || state == nullptr) return;
  if ((groups ? threadIdx.x & 127 : threadIdx.x) != 0) return;
  const int i = groups ? atomicAdd(state, 1) : state[0];
  if (i >= a.trace.events_per_block) return;
  if (!groups) state[0] = i + 1;
  TraceEvent e;
  e.cycles = static_cast<uint64_t>(clock64());
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(e.ns));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(e.sm));
  e.kind = kind;
  e.work = work, e.tile = tile, e.k_begin = k_begin, e.k_end = k_end;
  a.trace.events[static_cast<int64_t>(state[1]) * a.trace.events_per_block + i] = e;
}

template <class Mainloop, class Element>
struct StreamKGemm {
  using Acc = typename Mainloop::Accumulators;
  using Pipeline = typename Mainloop::Pipeline;
  using Fix = Fixup<Mainloop>;
  static constexpr int kThreads = Mainloop::kThreads;  // compute threads
  static constexpr bool kSpecialized = Mainloop::kProducerThreads > 0;
  static constexpr int kBlockThreads = kThreads + Mainloop::kProducerThreads;
  static constexpr int kCluster = Mainloop::kCluster;  // thread blocks per persistent block
  // Ping-pong (Mainloop::kPingPong): each compute warp group finishes its own tiles
  // (PingPongBlocks), by RunTma only.
  static constexpr bool kPingPong = Mainloop::kPingPong;
  // A specialized mainloop's ring is being refilled while the epilogue runs: the epilogue gets
  // its own area after it. Otherwise the two share the same bytes.
  using Epi = Epilogue<Mainloop::kBN, Mainloop::kBM, Mainloop::kTileThreads>;
  static constexpr int kEpilogueOffset = kSpecialized ? Mainloop::kSmemBytes : 0;
  static constexpr int kAreaBytes = kPingPong ? Epi::kTmaSmemBytes : Epi::kSmemBytes;
  // And an mbarrier after the area, for the epilogue's TMA loads of C (Epilogue::RunTma).
  static constexpr int kEpilogueBarOffset = kEpilogueOffset + kAreaBytes;
  static_assert(kEpilogueBarOffset % 8 == 0, "mbarrier alignment");
  static_assert(kEpilogueOffset % 16 == 0, "Epilogue::RunRows' rows at 16-byte boundaries");
  // Then the hand-off of staged rows to the copying warp (tma->d_rows kRowsByCopyingWarp;
  // Epilogue::RunRows and CopyRows): an mbarrier every compute thread arrives on once it has
  // staged a tile ("full"), one the copying warp arrives on once the TMA unit has read them
  // ("empty"), the tile {tile_m0, tile_n0, batch, done} for that warp, and thread 0's {pending,
  // parity} of "empty".
  static constexpr int kRowsBarOffset = kEpilogueBarOffset + 8;  // full, then empty
  static constexpr int kRowsTileOffset = kRowsBarOffset + 16;
  static constexpr int kRowsWaitOffset = kRowsTileOffset + 16;
  // Ping-pong: each group's "turn" mbarrier, then the area's "read" one (PingPongBlocks).
  static constexpr int kTurnOffset = kRowsWaitOffset + 8;
  static constexpr int kAreaReadOffset = kTurnOffset + 16;
  // A dynamic schedule (Plan::schedule): the producer takes each work block from the counter and
  // posts it in a ring of kClaimSlots, each with a "full" mbarrier (the producer arrives) and an
  // "empty" one (every compute thread arrives once it has read the slot), then the slots' work
  // block numbers.
  static constexpr int kClaimSlots = 4;
  static constexpr int kClaimOffset = kTurnOffset + 24;
  static constexpr int kClaimWorkOffset = kClaimOffset + 16 * kClaimSlots;
  static constexpr int kSmemBytes =
      kSpecialized ? kClaimWorkOffset + 4 * kClaimSlots
                   : (Mainloop::kSmemBytes > Epi::kSmemBytes ? Mainloop::kSmemBytes
                                                             : Epi::kSmemBytes);

  // A specialized mainloop's epilogue area is idle while a Stream-K unit takes a partial: the
  // take stages that many fragments per round trip there (Fixup::Take).
  static constexpr int kTakeStageFragments = [] {
    int f = 1;
    while (2 * f * kThreads * 16 <= Epi::kSmemBytes && Fix::kFragments % (2 * f) == 0) f *= 2;
    return f;
  }();

  // This thread block's rank in its cluster (0 without clusters).
  __device__ static int Rank() {
    if constexpr (kCluster > 1) return static_cast<int>(sm90::ClusterRank());
    return 0;
  }
  // The persistent block this thread block is part of, and how many there are.
  __device__ static int FirstWork() { return static_cast<int>(blockIdx.x) / kCluster; }
  __device__ static int WorkStride() { return static_cast<int>(gridDim.x) / kCluster; }

  // A dynamic schedule's claim of the next work block (one thread of the persistent block). Every
  // persistent block claims until it gets a number past the last work block, so a launch makes
  // exactly work_blocks + WorkStride() claims; the block that makes the last one resets the
  // counter for the next launch (no other block touches it after its own last claim).
  __device__ static int Claim(const Plan& p, char* ws) {
    int* counter = reinterpret_cast<int*>(ws + p.counter_offset);
    const int work = atomicAdd(counter, 1);
    if (work == p.work_blocks + WorkStride() - 1) atomicExch(counter, 0);
    return work;
  }
  // The producer's claim number i (0, 1, ...) into the ring, once the compute threads have read
  // what claim i - kClaimSlots left in its slot.
  __device__ static int PostClaim(char* smem, const Plan& p, char* ws, int i) {
    const int slot = i % kClaimSlots;
    const uint32_t full = sm80::SmemAddr(smem + kClaimOffset + 8 * slot);
    const uint32_t empty = full + 8u * kClaimSlots;
    if (i >= kClaimSlots)
      sm90::MbarrierWait(empty, static_cast<uint32_t>(i / kClaimSlots - 1) & 1);
    const int work = Claim(p, ws);
    reinterpret_cast<volatile int*>(smem + kClaimWorkOffset)[slot] = work;
    sm90::MbarrierArrive(full);  // release: the compute threads' wait acquires the number
    return work;
  }
  // A compute thread's read of claim number i from the ring (PostClaim).
  __device__ static int TakeClaim(char* smem, int i) {
    const int slot = i % kClaimSlots;
    const uint32_t full = sm80::SmemAddr(smem + kClaimOffset + 8 * slot);
    sm90::MbarrierWait(full, static_cast<uint32_t>(i / kClaimSlots) & 1);
    const int work = reinterpret_cast<volatile int*>(smem + kClaimWorkOffset)[slot];
    sm90::MbarrierArrive(full + 8u * kClaimSlots);
    return work;
  }

  // Linear tile `tile`'s coordinates; a grouped plan's (Plan::groups) group, first row and end of
  // rows from its tile row's entry of the group table: one 16-byte load, kept in the
  // coordinates (loading the entry again where each is needed made ptxas outline the 128 x 320
  // configuration's work loop).
  __device__ static mapping::TileCoord CoordOf(const Plan& p, const GemmKernelArgs& a, int tile) {
    mapping::TileCoord c = mapping::TileCoordOf(p, tile);
    if (a.group_rows != nullptr) {
      const int4 g = __ldg(reinterpret_cast<const int4*>(a.group_rows) + c.tm);
      c.batch = g.x, c.row0 = g.y, c.row_end = g.z;
    }
    return c;
  }

  // The end of the k-iterations [k_begin, k_end) of tile c that its mainloop runs: none for a
  // grouped plan's tile row that no group owns (mapping::TailRow: past the groups' tile rows, as
  // device group ends leave over from the bound the plan was made for). A specialized mainloop's
  // producer and consumer both skip it, so the ring stays in step; the accumulators stay zero, the
  // fixup steps still run, and the epilogue stores beta * C (zero with beta 0) to its rows, if any.
  __device__ static int RunsTo(const mapping::TileCoord& c, int k_begin, int k_end) {
    return c.batch != mapping::kNoGroup ? k_end : k_begin;
  }

  // The operands of tile c (its batch entry or group; A's rows end at the tile's row_end).
  __device__ static MainloopOperands<Element> Operands(const Plan& p, const GemmKernelArgs& a,
                                                       const mapping::TileCoord& c) {
    MainloopOperands<Element> op;
    op.a = static_cast<const Element*>(a.a) + c.batch * a.stride_a;
    op.b = static_cast<const Element*>(a.b) + c.batch * a.stride_b;
    op.lda = a.lda;
    op.ldb = a.ldb;
    op.m = c.row_end, op.n = p.n, op.k = p.k;
    return op;
  }

  // Mainloop over k-iterations [k_begin, k_end) of linear tile `tile`; returns its coordinates.
  __device__ static mapping::TileCoord Compute(char* smem, Pipeline& pipe, const Plan& p,
                                               const GemmKernelArgs& a, const TmaOperands* tma,
                                               int tile, int k_begin, int k_end, Acc& acc) {
    const mapping::TileCoord c = CoordOf(p, a, tile);
    if constexpr (kSpecialized) {
      const int cols = tma->narrow ? ExtentOf(p, c).cols : Mainloop::kBN;
      Mainloop::Consume(pipe, k_begin, RunsTo(c, k_begin, k_end), acc, cols);
    } else {
      Mainloop::Run(smem, Operands(p, a, c), mapping::RankRow0(p, c, 0), c.tn * Mainloop::kBN,
                    k_begin, RunsTo(c, k_begin, k_end), acc);
    }
    return c;
  }

  // The epilogue. With the TMA store (tma->d_store: a specialized mainloop, D's rows 16-byte
  // multiples) or bulk copies of rows (tma->d_rows: otherwise, beta == 0; issued by the compute
  // warps, or for a 16-bit D by the copying warp, CopyRowsLoop) D is written asynchronously from
  // the stage, and every later use of the stage waits for the TMA unit's reads first
  // (AwaitStage).
  __device__ static void Finish(char* smem, const Plan& p, const GemmKernelArgs& a,
                                const TmaOperands* tma, const mapping::TileCoord& c,
                                const Acc& acc) {
    const int tile_m0 = mapping::RankRow0(p, c, Rank()), tile_n0 = c.tn * Mainloop::kBN;
    // A configuration too wide for them never has d_rows set (AsyncStoresOf), and d_store only
    // for a 16-bit D without C (TmaStoresOf).
    if constexpr (kSpecialized) {
      if (tma->d_store) {
        FinishByTma(smem, p, a, tma, c, acc);
        return;
      }
    }
    if constexpr (kSpecialized && Epi::kAsyncStores) {
      if (tma->d_rows) {
        const bool copies = tma->d_rows == kRowsByComputeWarps;
        if (copies) {
          Epi::AwaitStoreReads();
        } else {
          AwaitRowCopies(smem);
        }
        if (a.output == DType::kBF16) {
          Epi::template RunRows<Mainloop, __nv_bfloat16>(smem + kEpilogueOffset, acc, a.alpha, a,
                                                         c.row_end, p.n, c.batch, tile_m0, tile_n0,
                                                         copies);
        } else if (a.output == DType::kF32) {  // the launch never hands fp32 rows over
          Epi::template RunRows<Mainloop, float>(smem + kEpilogueOffset, acc, a.alpha, a, c.row_end,
                                                 p.n, c.batch, tile_m0, tile_n0, true);
        } else {
          Epi::template RunRows<Mainloop, __half>(smem + kEpilogueOffset, acc, a.alpha, a,
                                                  c.row_end, p.n, c.batch, tile_m0, tile_n0,
                                                  copies);
        }
        if (!copies) HandRows(smem, tile_m0, tile_n0, c.batch, c.row_end);
        return;
      }
    }
    Epi::template Run<Mainloop>(smem + kEpilogueOffset, acc, a, c.row_end, p.n, c.batch, tile_m0,
                                tile_n0);
  }

  // Finish's TMA store (tma->d_store), also ping-pong's (FinishGroup): once the TMA unit has read
  // the stage (the threads that finish the tile: Epi::AwaitStoreReads), with C loaded on a fresh
  // barrier where beta != 0, the tile through Epilogue::RunTma in D's output type.
  __device__ static void FinishByTma(char* smem, const Plan& p, const GemmKernelArgs& a,
                                     const TmaOperands* tma, const mapping::TileCoord& c,
                                     const Acc& acc) {
    const int tile_m0 = mapping::RankRow0(p, c, Rank()), tile_n0 = c.tn * Mainloop::kBN;
    char* const area = smem + kEpilogueOffset;
    const uint32_t bar = sm80::SmemAddr(smem + kEpilogueBarOffset);
    Epi::AwaitStoreReads(tma->c_load != 0, bar);
    const float beta = tma->c_load ? a.beta : 0.0f;
    if (a.output == DType::kBF16) {
      Epi::template RunTma<Mainloop, __nv_bfloat16>(area, acc, a.alpha, beta, &tma->d, &tma->c, bar,
                                                    a, c.row_end, p.n, tma->d_cols, c.batch,
                                                    tile_m0, tile_n0);
    } else if (a.output == DType::kF32) {
      if constexpr (Epi::kAsyncStores)  // never set for the 320-wide tile's fp32 D (TmaStoresOf)
        Epi::template RunTma<Mainloop, float>(area, acc, a.alpha, beta, &tma->d, &tma->c, bar, a,
                                              c.row_end, p.n, tma->d_cols, c.batch, tile_m0,
                                              tile_n0);
    } else {
      Epi::template RunTma<Mainloop, __half>(area, acc, a.alpha, beta, &tma->d, &tma->c, bar, a,
                                             c.row_end, p.n, tma->d_cols, c.batch, tile_m0,
                                             tile_n0);
    }
  }

  // Before the compute threads write the epilogue's area: where the epilogue stores D by TMA, the
  // TMA unit must have read the last tile's boxes or rows (block-wide); where the copying warp
  // copies the rows, it must have seen the TMA unit read the last ones handed to it. Otherwise
  // nothing to wait for.
  __device__ static void AwaitStage(char* smem, const TmaOperands* tma) {
    if constexpr (kSpecialized) {
      if (tma->d_rows == kRowsByCopyingWarp) {
        AwaitRowCopies(smem);
      } else if (tma->d_store || tma->d_rows) {
        Epi::AwaitStoreReads();
      }
    }
  }

  // The compute threads (kRowsByCopyingWarp), before they write the stage: thread 0, which handed
  // the last rows over, waits until the copying warp has seen the TMA unit read them, then the
  // block.
  __device__ static void AwaitRowCopies(char* smem) {
    if (threadIdx.x == 0) {
      volatile int* wait = reinterpret_cast<volatile int*>(smem + kRowsWaitOffset);
      if (wait[0] != 0) {
        sm90::MbarrierWait(sm80::SmemAddr(smem + kRowsBarOffset + 8), wait[1]);
        wait[0] = 0, wait[1] ^= 1;
      }
    }
    ComputeSync<kThreads>();
  }
  // Every compute thread, once it has staged a tile's rows (or, with row_end kRowsDone, after its
  // last): thread 0 posts the tile and the end of its rows, and every thread arrives on "full".
  static constexpr int kRowsDone = -1;
  __device__ static void HandRows(char* smem, int tile_m0, int tile_n0, int batch, int row_end) {
    if (threadIdx.x == 0) {
      volatile int* t = reinterpret_cast<volatile int*>(smem + kRowsTileOffset);
      t[0] = tile_m0, t[1] = tile_n0, t[2] = batch, t[3] = row_end;
      reinterpret_cast<volatile int*>(smem + kRowsWaitOffset)[0] = 1;
    }
    sm90::MbarrierArrive(sm80::SmemAddr(smem + kRowsBarOffset));
  }
  // The copying warp (the producer warp group's second warp, kRowsByCopyingWarp): each tile the
  // compute threads hand it, its rows' bulk copies (Epilogue::CopyRows), then, once the TMA unit
  // has read them, an arrival on "empty". It leaves at the hand-off marked done. Why and where
  // (RowCopiesOf, tma_operands.h): the compute warps issuing the copies themselves wait 3.6-3.9 us
  // per 128 x 256 tile on an H200 for the TMA unit to take them (streamk-trace). A copying warp
  // that also stored the rows' ends, one warp for the whole tile, lost up to 27% on shapes of a
  // tile per block (1023^3); the compute warps store them.
  __device__ static void CopyRowsLoop(char* smem, const Plan& p, const GemmKernelArgs& a) {
    const uint32_t bar = sm80::SmemAddr(smem + kRowsBarOffset);
    const volatile int* t = reinterpret_cast<const volatile int*>(smem + kRowsTileOffset);
    for (uint32_t parity = 0;; parity ^= 1) {
      sm90::MbarrierWait(bar, parity);
      const int tile_m0 = t[0], tile_n0 = t[1], batch = t[2], row_end = t[3];
      if (row_end == kRowsDone) return;
      Epi::CopyRows(smem + kEpilogueOffset, a, row_end, p.n, batch, tile_m0, tile_n0);
      sm90::BulkWaitRead();
      __syncwarp();
      if ((threadIdx.x & 31) == 0) sm90::MbarrierArrive(bar + 8);
    }
  }

  // The producer of a specialized mainloop (one lane): the operand loads of every mainloop
  // this persistent block's compute threads run, in their order (StreamKBlock,
  // DataParallelBlock; reduction blocks have none).
  // Under a dynamic schedule the producer claims the work blocks and posts them for the compute
  // threads (PostClaim): it is the thread that needs each one first.
  // `reductions_waited`: how many reduction blocks the compute threads have had the partial sums
  // of (ReductionBlock).
  __device__ static void Produce(char* smem, const Plan& p, const GemmKernelArgs& a,
                                 const TmaOperands& tma, Pipeline& pipe, char* ws,
                                 const volatile int* reductions_waited) {
    const bool dynamic = p.schedule == Schedule::kDynamic;
    for (int i = 0, work = 0, reductions = 0;; ++i) {
      // A reduction block has no loads, so the producer would claim the next at once, up to
      // kClaimSlots of them ahead of its compute threads, while the reduction block waits for
      // its tile's partial sums; blocks done sooner then find them taken (on an H100, split-K
      // plans of 72-128 reduction blocks ran 8-13 us slower dynamic than static). After one, it
      // claims the next once the compute threads have the partials, while they sum them.
      if (dynamic && i > 0 && mapping::RoleOf(p, work).role == mapping::Role::kReduction) {
        ++reductions;
        while (*reductions_waited < reductions) __nanosleep(32);
      }
      if (!dynamic)
        work = i == 0 ? FirstWork() : work + WorkStride();
      else
        work = PostClaim(smem, p, ws, i);
      if (work >= p.work_blocks) return;
      ProduceWork(p, a, tma, pipe, work);
    }
  }

  // The operand loads of work block `work`'s mainloops.
  __device__ static void ProduceWork(const Plan& p, const GemmKernelArgs& a, const TmaOperands& tma,
                                     Pipeline& pipe, int work) {
    const int rank = Rank();
    const mapping::BlockRole r = mapping::RoleOf(p, work);
    if (r.role == mapping::Role::kStreamK) {
      // Every Stream-K block starts at k-iteration 0 of its first unit (a tile's first slice),
      // so blocks in flight load the same k-slices, which the L2 then serves once. A whole tile
      // after it would start at k-iteration 0 at a different time in each block, and blocks
      // with several whole tiles then read 4-7x the DRAM bytes of data-parallel (Nsight
      // Compute on an H200, 5888 x 2944 x 8192 on 128 x 192: 2.80 GB against 0.43): it
      // is loaded rotated instead, from the k-iteration this block's clock is at.
      int loaded = 0;  // k-iterations this block has loaded so far
      for (mapping::SkUnit u = mapping::SkFirstUnit(p, r.index); u.valid();
           u = mapping::SkNextUnit(p, u)) {
        const mapping::TileCoord c = CoordOf(p, a, u.tile);
        const int rotation =
            u.is_whole_tile(p) ? loaded - mapping::Divide(p.div.iters_per_tile, loaded) *
                                              p.iters_per_tile
                               : 0;
        const int k_end = RunsTo(c, u.k_begin, u.k_end);
        Mainloop::Produce(pipe, tma, mapping::RankRow0(p, c, rank), c.tn * Mainloop::kBN, c.batch,
                          u.k_begin, k_end, rotation, p.iters_per_tile);
        loaded += k_end - u.k_begin;
      }
    } else if (r.role == mapping::Role::kDataParallel) {
      const mapping::DpTiles t = mapping::DpBlockTiles(p, r.index);
      for (int i = 0; i < t.count; ++i) {
        const mapping::TileCoord c = CoordOf(p, a, t.first_tile + i * t.stride);
        Mainloop::Produce(pipe, tma, mapping::RankRow0(p, c, rank), c.tn * Mainloop::kBN, c.batch,
                          0, RunsTo(c, 0, p.iters_per_tile));
      }
    }
  }

  // Whether a work block after `work` on this persistent block runs a mainloop (reduction blocks
  // have none).
  __device__ static bool LaterMainloop(const Plan& p, int work) {
    if (p.schedule == Schedule::kDynamic) return true;  // not known before the next claim
    for (int w = work + WorkStride(); w < p.work_blocks; w += WorkStride()) {
      const mapping::Role role = mapping::RoleOf(p, w).role;
      if (role == mapping::Role::kStreamK || role == mapping::Role::kDataParallel) return true;
    }
    return false;
  }

  // A specialized mainloop's ring as a take's landing area (a whole partial fits).
  __device__ static float4* RingArea(char* smem, const Pipeline& pipe) {
    static_assert(Fix::kFragments * kThreads * 16 <= Mainloop::kRingBytes,
                  "a partial fits the ring");
    return reinterpret_cast<float4*>(smem + (pipe.ring - sm80::SmemAddr(smem)));
  }

  // This rank's part of the unit's partial slot, and its flag of a tile.
  __device__ static float4* SlotOf(const Plan& p, char* workspace, const mapping::SkUnit& u) {
    return reinterpret_cast<float4*>(workspace + mapping::PartialSlotOffset(p, u) +
                                     mapping::RankPartOffset(p, Rank()));
  }
  __device__ static int* FlagOf(const Plan& p, char* workspace, int tile) {
    return reinterpret_cast<int*>(workspace + mapping::FlagOffset(p, tile, Rank()));
  }
  // This rank's part of tile c inside the problem: which fragments its partials carry.
  __device__ static TileExtent ExtentOf(const Plan& p, const mapping::TileCoord& c) {
    return {c.row_end - mapping::RankRow0(p, c, Rank()), p.n - c.tn * Mainloop::kBN};
  }

  // `work` and `trace` only label trace events (TraceMark).
  __device__ static void StreamKBlock(char* smem, Pipeline& pipe, const Plan& p,
                                      const GemmKernelArgs& a, const TmaOperands* tma, char* ws,
                                      int sk_block, int work, int* trace) {
    for (mapping::SkUnit u = mapping::SkFirstUnit(p, sk_block); u.valid();
         u = mapping::SkNextUnit(p, u)) {
      TraceMark(a, trace, TraceKind::kBegin, work, u.tile, u.k_begin, u.k_end);
      Acc acc;
      const mapping::TileCoord c =
          Compute(smem, pipe, p, a, tma, u.tile, u.k_begin, u.k_end, acc);
      TraceMark(a, trace, TraceKind::kMainloopEnd, work, u.tile, u.k_begin, u.k_end);
      const fixup::Step s = fixup::SkStep(p, u);
      if (s.wait != fixup::Wait::kNone || s.publish != fixup::Publish::kNone || s.take) {
        int* flag = FlagOf(p, ws, u.tile);
        float4* slot = SlotOf(p, ws, u);
        Fix::Wait(s, flag);
        TraceMark(a, trace, TraceKind::kWaitEnd, work, u.tile, u.k_begin, u.k_end);
        if (s.publish != fixup::Publish::kNone)
          Fix::Publish(s.publish, slot, acc, ExtentOf(p, c));
        if (s.take) {
          if constexpr (kSpecialized) {
            if (!mapping::SkNextUnit(p, u).valid() && !LaterMainloop(p, work)) {
              // The block's last mainloop is done, so its producer has stopped and the whole
              // ring is free: the partial lands there in one round trip instead of the
              // epilogue area's two. Nothing writes the ring after this.
              sm90::FenceProxyAsync();  // the ring was last written and read by async copies
              Fix::template Take<Fix::kFragments>(slot, acc, RingArea(smem, pipe));
            } else {
              AwaitStage(smem, tma);
              Fix::template Take<kTakeStageFragments>(
                  slot, acc, reinterpret_cast<float4*>(smem + kEpilogueOffset));
              ComputeSync<kThreads>();  // the epilogue reuses the area: all reads are done
            }
          } else {
            Fix::Take(slot, acc);
          }
        }
        Fix::Signal(s, flag);
        TraceMark(a, trace, TraceKind::kFixupEnd, work, u.tile, u.k_begin, u.k_end);
      }
      if (s.epilogue) Finish(smem, p, a, tma, c, acc);
      TraceMark(a, trace, TraceKind::kEpilogueEnd, work, u.tile, u.k_begin, u.k_end);
    }
  }

  __device__ static void DataParallelBlock(char* smem, Pipeline& pipe, const Plan& p,
                                           const GemmKernelArgs& a, const TmaOperands* tma,
                                           int dp_block, int work, int* trace) {
    const mapping::DpTiles t = mapping::DpBlockTiles(p, dp_block);
    for (int i = 0; i < t.count; ++i) {
      const int tile = t.first_tile + i * t.stride;
      TraceMark(a, trace, TraceKind::kBegin, work, tile, 0, p.iters_per_tile);
      Acc acc;
      const mapping::TileCoord c =
          Compute(smem, pipe, p, a, tma, tile, 0, p.iters_per_tile, acc);
      TraceMark(a, trace, TraceKind::kMainloopEnd, work, tile, 0, p.iters_per_tile);
      Finish(smem, p, a, tma, c, acc);
      TraceMark(a, trace, TraceKind::kEpilogueEnd, work, tile, 0, p.iters_per_tile);
    }
  }

  // The compute threads' work: this persistent block's work blocks of the plan (FirstWork, then
  // every WorkStride-th), each by its role.
  // Under a dynamic schedule, the work blocks it claims: from the producer's ring with a
  // specialized mainloop, else thread 0 claims and the block reads the number from `claimed`
  // (two slots, so that a slow thread still reading one is never overtaken by the next claim).
  __device__ static void WorkBlocks(char* smem, Pipeline& pipe, const Plan& p,
                                    const GemmKernelArgs& a, const TmaOperands* tma, char* ws,
                                    int* trace, volatile int* claimed,
                                    volatile int* reductions_waited) {
    // One loop and one call site for both schedules: a second copy of the work blocks' code
    // stopped ptxas inlining them, and each wgmma then waited for the one before it.
    const bool dynamic = p.schedule == Schedule::kDynamic;
    for (int i = 0, work = 0;; ++i) {
      if (!dynamic) {
        work = i == 0 ? FirstWork() : work + WorkStride();
      } else if constexpr (kSpecialized) {
        work = TakeClaim(smem, i);
      } else {
        if (threadIdx.x == 0) claimed[i & 1] = Claim(p, ws);
        ComputeSync<kThreads>();
        work = claimed[i & 1];
      }
      if (work >= p.work_blocks) return;
      RunWork(smem, pipe, p, a, tma, ws, trace, work, reductions_waited);
    }
  }

  // Work block `work`, by its role.
  __device__ static void RunWork(char* smem, Pipeline& pipe, const Plan& p, const GemmKernelArgs& a,
                                 const TmaOperands* tma, char* ws, int* trace, int work,
                                 volatile int* reductions_waited) {
    const mapping::BlockRole r = mapping::RoleOf(p, work);
    switch (r.role) {
      case mapping::Role::kStreamK:
        StreamKBlock(smem, pipe, p, a, tma, ws, r.index, work, trace);
        break;
      case mapping::Role::kDataParallel:
        DataParallelBlock(smem, pipe, p, a, tma, r.index, work, trace);
        break;
      case mapping::Role::kReduction:
        ReductionBlock(smem, p, a, tma, ws, r.index, work, trace, reductions_waited);
        break;
      case mapping::Role::kNone: break;
    }
  }

  // Ping-pong: the compute warp groups take this persistent block's data-parallel tiles in turn
  // (every work block of the plan is data-parallel: PingPongOf, tma_operands.h), tile s of the
  // block by group s % 2, in the order the producer loads them. A group waits for its turn, the
  // other group's last wgmma of the tile before (Mainloop::ConsumeTile), runs its tile's mainloop,
  // hands the turn back and runs the tile's epilogue while the other group's mainloop runs: the
  // epilogue's 0.6-0.9 us per 128 x 128 tile (16-bit D), when the tensor cores idled, now
  // overlaps the next tile's. Its ring position skips the other group's tiles. The two share one
  // epilogue area (FinishGroup), so that the ring keeps six stages: with two areas it had four,
  // and deep shapes ran 8-14% slower on an H200 than on the shared tiles' five.
  __device__ static void PingPongBlocks(char* smem, Pipeline& pipe, const Plan& p,
                                        const GemmKernelArgs& a, const TmaOperands* tma,
                                        int* trace) {
    const int group = static_cast<int>(threadIdx.x) / 128;
    const uint32_t turn = sm80::SmemAddr(smem + kTurnOffset);
    const uint32_t mine = turn + 8u * static_cast<uint32_t>(group);
    const uint32_t next = turn + 8u * static_cast<uint32_t>(group ^ 1);
    uint32_t parity = 0;
    int s = 0;  // the block's data-parallel tiles so far
    for (int work = FirstWork(); work < p.work_blocks; work += WorkStride()) {
      const mapping::BlockRole r = mapping::RoleOf(p, work);
      if (r.role != mapping::Role::kDataParallel) continue;
      const mapping::DpTiles t = mapping::DpBlockTiles(p, r.index);
      for (int i = 0; i < t.count; ++i, ++s) {
        if ((s & 1) != group) {
          pipe.Skip(p.iters_per_tile);
          continue;
        }
        const int tile = t.first_tile + i * t.stride;
        if (s > 0) {
          sm90::MbarrierWait(mine, parity);
          parity ^= 1;
        }
        TraceMark(a, trace, TraceKind::kBegin, work, tile, 0, p.iters_per_tile, true);
        Acc acc;
        Mainloop::ConsumeTile(pipe, p.iters_per_tile, acc, next);
        TraceMark(a, trace, TraceKind::kMainloopEnd, work, tile, 0, p.iters_per_tile, true);
        FinishGroup(smem, p, a, tma, CoordOf(p, a, tile), acc, s);
        TraceMark(a, trace, TraceKind::kEpilogueEnd, work, tile, 0, p.iters_per_tile, true);
      }
    }
  }

  // Ping-pong's epilogue: one group's tile, the block's tile s, through the TMA store
  // (PingPongOf: tma->d_store; FinishByTma, whose wait for the stage is then the group's). The
  // groups take turns at the area too: tile s stages its boxes once the TMA unit has read tile
  // s - 1's, which the other group's first thread waits for right after issuing them and
  // announces on the area's "read" mbarrier (phase s - 1). That tile's epilogue ran under this
  // tile's mainloop, so the wait is rarely a wait.
  __device__ static void FinishGroup(char* smem, const Plan& p, const GemmKernelArgs& a,
                                     const TmaOperands* tma, const mapping::TileCoord& c,
                                     const Acc& acc, int s) {
    const uint32_t read = sm80::SmemAddr(smem + kAreaReadOffset);
    if (s > 0 && Epi::Tid() == 0) sm90::MbarrierWait(read, static_cast<uint32_t>(s - 1) & 1);
    FinishByTma(smem, p, a, tma, c, acc);
    if (Epi::Tid() == 0) {  // the thread that issued the stores
      sm90::BulkWaitRead();
      sm90::MbarrierArrive(read);
    }
  }

  // Sums and finishes one slice (a range of columns) of a Stream-K tile, 64 rows at a time
  // through the epilogue's staging area. Its trace counts the epilogue's stores as fixup.
  // Once the partial sums are in, thread 0 counts the block in `reductions_waited` (the producer
  // then claims the next work block, Produce).
  __device__ static void ReductionBlock(char* smem, const Plan& p, const GemmKernelArgs& a,
                                        const TmaOperands* tma, char* ws, int reduction_block,
                                        int work, int* trace, volatile int* reductions_waited) {
    const mapping::ReductionWork rw = mapping::ReductionWorkOf(p, reduction_block);
    const int tile = rw.tile;
    const mapping::Peers peers = mapping::TilePeers(p, tile);
    const fixup::Step s = fixup::ReductionStep(peers, p.reduction_slices);
    auto waited = [&] {
      if (threadIdx.x == 0) *reductions_waited = *reductions_waited + 1;
    };
    if (!s.epilogue) return waited();  // one peer: it finished the tile itself
    TraceMark(a, trace, TraceKind::kBegin, work, tile, 0, 0);
    Fix::Wait(s, FlagOf(p, ws, tile));
    waited();
    TraceMark(a, trace, TraceKind::kWaitEnd, work, tile, 0, 0);
    // The last peer's slot takes its block range; the others' are arithmetic (PeerSlotOffset).
    const int count = peers.count();
    const int64_t part = mapping::RankPartOffset(p, Rank());
    const int64_t last_slot = mapping::PeerSlotOffset(p, tile, peers, count - 1) + part;
    auto slot_of = [&](int g) {
      const int64_t at =
          g == count - 1 ? last_slot : mapping::PeerSlotOffset(p, tile, peers, g) + part;
      return reinterpret_cast<const float4*>(ws + at);
    };
    const mapping::TileCoord c = CoordOf(p, a, tile);
    float* stage = reinterpret_cast<float*>(smem + kEpilogueOffset);
    AwaitStage(smem, tma);
    const int tile_m0 = mapping::RankRow0(p, c, Rank()), tile_n0 = c.tn * Mainloop::kBN;
    const TileExtent e = ExtentOf(p, c);
    // A slice narrow enough for all its rows to fit the stage is summed in one round of loads.
    const int pitch = rw.col_end - rw.col_begin + 8;
    bool one_round = false;
    if constexpr (Mainloop::kColumnBlocks) {
      one_round = Mainloop::kBM * pitch * 4 <= Epi::kSmemBytes;
      if (one_round) {
        Fix::SumSliceToStage(slot_of, count, rw.col_begin, rw.col_end, e, stage, pitch);
        ComputeSync<kThreads>();
        Epi::StoreStaged(stage, pitch, Mainloop::kBM, a, c.row_end, p.n, c.batch, tile_m0, tile_n0,
                         rw.col_begin, rw.col_end);
        ComputeSync<kThreads>();  // the stage is reused by the next mainloop
      }
    }
    static_assert(Mainloop::kBM % Epi::kPassRows == 0, "one pass per warp group of rows");
    static_assert(Fix::kPassRows == Epi::kPassRows, "the fixup sums the rows the stage holds");
#pragma unroll 1
    for (int pass = 0; pass < Mainloop::kBM / Epi::kPassRows && !one_round; ++pass) {
      Fix::SumToStage(slot_of, count, pass, rw.col_begin, rw.col_end, e, stage,
                      Epi::kPitch);
      ComputeSync<kThreads>();
      Epi::StoreStaged(stage + rw.col_begin, Epi::kPitch, Epi::kPassRows, a, c.row_end, p.n,
                       c.batch, tile_m0 + pass * Epi::kPassRows, tile_n0, rw.col_begin, rw.col_end);
      ComputeSync<kThreads>();  // the stage is reused by the next pass or the next mainloop
    }
    TraceMark(a, trace, TraceKind::kFixupEnd, work, tile, 0, 0);
    TraceMark(a, trace, TraceKind::kEpilogueEnd, work, tile, 0, 0);
  }

  // tma: the TMA descriptors of the operands (and of C and D for the epilogue), read only with a
  // specialized mainloop (else nullptr).
  __device__ static void Run(const Plan& p, const GemmKernelArgs& a, char* ws,
                             const TmaOperands* tma) {
    extern __shared__ __align__(128) char smem[];
    __shared__ int trace_state[2];  // TraceMark's (thread 0 only)
    __shared__ int claimed[2];      // WorkBlocks' (dynamic schedule, no producer)
    __shared__ int reductions_waited;  // ReductionBlock's, for Produce
    if (threadIdx.x == 0) trace_state[0] = 0, trace_state[1] = FirstWork(), reductions_waited = 0;
    int* const trace = Rank() == 0 ? trace_state : nullptr;
    Pipeline pipe = Mainloop::Init(smem);
    // Launched programmatically (launch.cu), this grid may have started before the previous
    // kernel on the stream ended: everything above touches shared memory only, everything below
    // may read what that kernel wrote or write what it reads. One thread waits, the block waits
    // for it.
    if constexpr (kSpecialized) {
      if (threadIdx.x == kThreads) Mainloop::PrefetchMaps(*tma);
      if constexpr (kPingPong) {
        if (threadIdx.x == 0) {
          sm90::MbarrierInit(sm80::SmemAddr(smem + kTurnOffset), 1);
          sm90::MbarrierInit(sm80::SmemAddr(smem + kTurnOffset + 8), 1);
          sm90::MbarrierInit(sm80::SmemAddr(smem + kAreaReadOffset), 1);
          sm90::FenceBarrierInit();
        }
      }
      if (threadIdx.x == 0 && p.schedule == Schedule::kDynamic) {
        for (int slot = 0; slot < kClaimSlots; ++slot) {
          sm90::MbarrierInit(sm80::SmemAddr(smem + kClaimOffset + 8 * slot), 1);
          sm90::MbarrierInit(sm80::SmemAddr(smem + kClaimOffset + 8 * (kClaimSlots + slot)),
                             kThreads);
        }
        sm90::FenceBarrierInit();
      }
      if (threadIdx.x == 0 && tma->d_rows == kRowsByCopyingWarp) {
        sm90::MbarrierInit(sm80::SmemAddr(smem + kRowsBarOffset), kThreads);
        sm90::MbarrierInit(sm80::SmemAddr(smem + kRowsBarOffset + 8), 1);
        int* wait = reinterpret_cast<int*>(smem + kRowsWaitOffset);
        wait[0] = wait[1] = 0;
        sm90::FenceBarrierInit();
      }
    }
    if (threadIdx.x == 0) GridDependencyWait();
    __syncthreads();
    if constexpr (kSpecialized) {
      if (threadIdx.x >= kThreads) {
        Mainloop::RebalanceProducer();
        if (threadIdx.x == kThreads) Produce(smem, p, a, *tma, pipe, ws, &reductions_waited);
        if (tma->d_rows == kRowsByCopyingWarp && threadIdx.x / 32 == kThreads / 32 + 1)
          CopyRowsLoop(smem, p, a);
        if constexpr (kCluster > 1) sm90::ClusterSync();  // see the end
        return;
      }
    }
    if constexpr (kSpecialized) Mainloop::RebalanceCompute();
    if constexpr (kPingPong) {
      PingPongBlocks(smem, pipe, p, a, tma, trace);
    } else {
      WorkBlocks(smem, pipe, p, a, tma, ws, trace, claimed, &reductions_waited);
    }
    // This block's work is done: the next kernel on the stream may start setting up once every
    // block is here (not earlier: its blocks would sit on the SMs this grid leaves idle).
    LaunchDependents();
    // The shared memory the last TMA stores or bulk copies read must outlive them: each issuing
    // thread waits for its own, and the copying warp leaves at the last hand-off, once it has.
    if constexpr (kSpecialized) {
      if (tma->d_rows == kRowsByCopyingWarp) {
        AwaitRowCopies(smem);
        HandRows(smem, 0, 0, 0, kRowsDone);
      } else if (tma->d_store || tma->d_rows) {
        sm90::BulkWaitRead();  // each issuing thread waits for its own
      }
    }
    // The ranks of a cluster leave together: the other rank's producer may still be writing this
    // rank's ring and its compute warps arriving on this rank's barriers until it is done.
    if constexpr (kCluster > 1) sm90::ClusterSync();
  }
};

}  // namespace streamk::kernels
