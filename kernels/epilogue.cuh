// Epilogue: D = alpha * acc + beta * C for one kTileM x kTileN tile (128 x 128, 128 x 192,
// 128 x 256, 128 x 320, 192 x 192 or 64 x 128; 2 kTileM compute threads), converted to fp16, bf16
// or fp32. The accumulators are staged through shared memory in 64-row passes (32 for 128 x 320)
// so that every thread then reads and writes 8 consecutive columns: 16-byte (fp16/bf16) or
// 2 x 16-byte (fp32) global accesses, coalesced along rows. Tiles at the matrix edge fall back to
// per-element accesses for the chunks that straddle n. Where C or D is not 16-byte aligned
// (GemmKernelArgs::cd_vectors), every access is per element (StoreElements). On sm_90a the TMA
// mainloop's tiles up to 256 columns wide (AsyncStoresOf, tma_operands.h) are written by TMA
// stores from swizzled boxes (RunTma) or, where D's rows do not allow them, by a bulk copy per row
// (RunRows; beta == 0; for a 16-bit D also CopyRows on the copying warp). beta == 0 never
// reads C; C may be the same buffer as D (each element is read before the tile's D is written).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "compute_sync.cuh"
#include "kernel_args.h"
#include "tma.cuh"
#include "tma_operands.h"

namespace streamk::kernels {

// Conversions between the output types and fp32.
__device__ inline float ToFloat(__half x) { return __half2float(x); }
__device__ inline float ToFloat(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ inline float ToFloat(float x) { return x; }
template <typename T>
__device__ T FromFloat(float x);
template <>
__device__ inline __half FromFloat<__half>(float x) { return __float2half_rn(x); }
template <>
__device__ inline __nv_bfloat16 FromFloat<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }
template <>
__device__ inline float FromFloat<float>(float x) { return x; }

// kGroupThreads: the threads that finish a tile together, 2 kTileM (every compute thread: their
// barrier is ComputeSync's), or one warp group of them (ping-pong: each group finishes its own
// tiles in its own area, with a barrier of its own, Sync; RunTma only).
template <int kTileN, int kTileM = 128, int kGroupThreads = 2 * kTileM>
struct Epilogue {
  // Rows of fp32 staged at a time by Run (and summed by the Stream-K fixup): 64, 32 for the
  // 320-wide tile (StagedRowsOf, tma_operands.h), whose area must fit beside its ring.
  static constexpr int kPassRows = StagedRowsOf(kTileN);
  // Whether RunTma for every output and RunRows exist for this width (AsyncStoresOf); otherwise
  // RunTma for a 16-bit D without C alone (TmaStoresOf), and the launch never asks for the others
  // (TmaOperands::d_store, d_rows).
  static constexpr bool kAsyncStores = AsyncStoresOf(kTileN);
  // Row pitch in floats: kTileN + 8 (= 8 banks mod 32) keeps the float2 stores of the mma
  // fragment layout (4 rows x 4 column pairs per half-warp phase) on distinct banks, and rows
  // 16-byte aligned.
  static constexpr int kPitch = kTileN + 8;
  static constexpr int kThreads = kGroupThreads;
  static constexpr bool kGroups = kGroupThreads != 2 * kTileM;
  static_assert(!kGroups || kGroupThreads == 128, "a group is a warp group");
  // This thread's index among the group's threads, and the group's barrier: named barriers 2 and
  // 3 for ping-pong's two groups (1 is ComputeSync's).
  __device__ static int Tid() {
    if constexpr (kGroups) return static_cast<int>(threadIdx.x) & (kThreads - 1);
    return static_cast<int>(threadIdx.x);
  }
  __device__ static void Sync() {
    if constexpr (kGroups) {
      asm volatile("bar.sync %0, %1;\n" ::"r"(2 + static_cast<int>(threadIdx.x) / kThreads),
                   "n"(kThreads)
                   : "memory");
    } else {
      ComputeSync<kThreads>();
    }
  }

 private:
  // RunTma's boxes: kTileM rows x 128 bytes of columns each (64 16-bit elements, 32 fp32), at a
  // 1024-byte boundary (the 128-byte swizzle repeats there) inside the stage area, kBoxes of them
  // per round: a 16-bit tile's columns in one round, an fp32 tile's in two. The 320-wide tile's
  // area holds three (its ring leaves no room for five): a 16-bit tile in two rounds, of three
  // boxes and of two (kRoundBoxes).
  static constexpr int kBoxBytes = kTileM * 128;
  static constexpr int kBoxes = kAsyncStores ? kTileN / 64 : 3;
  // A tile's boxes of T (one per 128 bytes of its columns), and those of round kRound: kBoxes,
  // or what is left of the tile's boxes after the rounds before it.
  template <typename T>
  static constexpr int kTileBoxes = kTileN * static_cast<int>(sizeof(T)) / 128;
  template <typename T, int kRound>
  static constexpr int kRoundBoxes = kTileBoxes<T> - kRound * kBoxes < kBoxes
                                         ? kTileBoxes<T> - kRound * kBoxes
                                         : kBoxes;
  template <typename T>
  static constexpr int kBoxElements = 128 / static_cast<int>(sizeof(T));
  template <typename T>
  static constexpr int kRoundCols = kBoxes * kBoxElements<T>;
  static constexpr int kStagedBytes = kPassRows * kPitch * 4;
  static constexpr int kBoxesBytes = kBoxes * kBoxBytes + 1024 - 16;
  // RunRows' stage: kTileM rows of 16-bit D, each 16 bytes longer than the tile's so that it can
  // start at any offset within its first 16 bytes; fp32 D takes two rounds of half the columns.
  static constexpr int kRowPitch = 2 * kTileN + 16;
  template <typename T>
  static constexpr int kRowRounds = static_cast<int>(sizeof(T)) / 2;
  template <typename T>
  static constexpr int kRowRoundCols = kTileN / kRowRounds<T>;
  static constexpr int kRowsBytes = kTileM * kRowPitch;
  static constexpr int Max(int a, int b) { return a > b ? a : b; }

 public:
  // One pass of fp32 rows, RunTma's boxes or RunRows' rows: 34,816, 51,200, 67,584 or
  // (192 x 192) 76,800 bytes, at a 16-byte boundary; 320 wide, three boxes: 50,160.
  static constexpr int kSmemBytes =
      kAsyncStores ? Max(Max(kStagedBytes, kBoxesBytes), kRowsBytes)
                   : Max(kStagedBytes, kBoxesBytes);
  // RunTma's boxes alone (ping-pong's area, which no other path uses): 33,776 bytes for 128 x 128.
  static constexpr int kTmaSmemBytes = kBoxesBytes;

  template <class Mainloop>
  __device__ static void Run(char* smem, const typename Mainloop::Accumulators& acc,
                             const GemmKernelArgs& args, int m, int n, int batch, int tile_m0,
                             int tile_n0) {
    float* stage = reinterpret_cast<float*>(smem);
    const int tid = threadIdx.x;
    // Loops over passes and chunks stay rolled and the output type is switched on once per pass:
    // the kernel inlines this at three call sites, and fully unrolled (every chunk of every pass
    // for every output type, 32k instructions of kernel) it ran out of the instruction cache and
    // took 5 us per tile on an H200 (ncu: stalls spread over thousands of epilogue instructions).
#pragma unroll 1
    for (int pass = 0; pass < kTileM / kPassRows; ++pass) {
      // Registers -> shared memory, rows [pass * 64, pass * 64 + 64) of the tile.
#pragma unroll
      for (int i = 0; i < Mainloop::kMI; ++i) {
#pragma unroll
        for (int j = 0; j < Mainloop::kNI; ++j) {
#pragma unroll
          for (int r = 0; r < 4; r += 2) {
            const int row = Mainloop::AccRow(tid, i, r) - pass * kPassRows;
            const int col = Mainloop::AccCol(tid, j, r);
            if (row >= 0 && row < kPassRows) {
              *reinterpret_cast<float2*>(stage + row * kPitch + col) =
                  make_float2(acc.v[i][j][r], acc.v[i][j][r + 1]);
            }
          }
        }
      }
      ComputeSync<kThreads>();
      StoreStaged(stage, kPitch, kPassRows, args, m, n, batch, tile_m0 + pass * kPassRows, tile_n0,
                  0, kTileN);
      ComputeSync<kThreads>();  // the stage is reused by the next pass or the next mainloop
    }
  }

  // D = alpha * acc + beta * C through TMA copies: `d` (and `c` where beta != 0) map D (C) as a
  // {d_cols, m, batch} tensor, box kTileM rows x 128 bytes of columns (64 16-bit elements, 32
  // fp32), 128-byte swizzle (launch.cu). d_cols is n, or with beta == 0 n rounded down to 16 bytes,
  // and then each thread of the first kTileM stores its row's rest, columns [d_cols, n), from the
  // staged boxes (StoreRest). The stage holds kTileN / 64 boxes: a 16-bit tile in one round,
  // an fp32 tile in two of half its columns each. Per round, with beta != 0, thread 0 first loads
  // the round's boxes of C on mbarrier `bar` (shared address, freshly initialized for one arrival
  // per round by the caller; round r waits for parity r), zero-filled outside C. Every thread then
  // replaces its fragments' elements of the boxes with D's, scaled and converted, and thread 0
  // hands the boxes to the TMA unit, which writes D clipped at m and n; between rounds each box is
  // restaged once the unit has read it (with C: once it has read them all). The block returns
  // without waiting for the last round's writes. The old path's two passes with a block barrier
  // each, and its stores from every thread, kept the tensor cores idle for 3.7-4.7 us per
  // 128 x 256 tile (streamk-trace, H200), 5-7 us with C. The caller has made the stage free
  // (AwaitStoreReads) and waits again before its next use of the area and before the block
  // exits. A round whose columns all lie at or past n (a narrow D: decode shapes) is skipped.
  // The 320-wide tile (kAsyncStores false) runs this for a 16-bit D without C alone
  // (TmaStoresOf): its second round restages each box once the unit has read it from the first,
  // as fp32 D's does.
  template <class Mainloop, typename T>
  __device__ static void RunTma(char* smem, const typename Mainloop::Accumulators& acc, float alpha,
                                float beta, const CUtensorMap* d, const CUtensorMap* c,
                                uint32_t bar, const GemmKernelArgs& args, int m, int n,
                                int d_cols, int batch, int tile_m0, int tile_n0) {
    static_assert(Mainloop::kColumnBlocks && Mainloop::kBN == kTileN &&
                      Mainloop::kMI * 64 * kThreads / 128 == kTileM,
                  "wgmma fragments: fragment j = columns 8 j .. 8 j + 7 of two rows per 64");
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "16-bit or fp32 D");
    static_assert(kAsyncStores || sizeof(T) == 2, "a staging area for the tile's boxes");
    char* boxes = AlignedBoxes(smem);
    const Rest rest{args, m, n, d_cols, batch, tile_m0, tile_n0};
    if constexpr (!kAsyncStores) {  // beta == 0 (TmaStoresOf)
      StageTile<Mainloop, T, false, 0>(boxes, acc, alpha, 0.0f);
      IssueStores<T, 0>(boxes, d, batch, tile_m0, tile_n0);
      StoreRest<T, 0>(boxes, rest);
      if (tile_n0 + kRoundCols<T> >= n) return;
      StageBoxesAsRead<Mainloop, T, 0>(boxes, acc, alpha);
      IssueStores<T, 1>(boxes, d, batch, tile_m0, tile_n0);
      StoreRest<T, 1>(boxes, rest);
      return;
    }
    TmaRound<Mainloop, T, 0>(boxes, acc, alpha, beta, d, c, bar, batch, tile_m0, tile_n0);
    StoreRest<T, 0>(boxes, rest);
    if constexpr (sizeof(T) == 4) {
      if (tile_n0 + kRoundCols<T> >= n) return;
      if (beta != 0.0f) {
        if (Tid() == 0) sm90::BulkWaitRead();  // C's loads overwrite every box
        Sync();
        TmaRound<Mainloop, T, 1>(boxes, acc, alpha, beta, d, c, bar, batch, tile_m0, tile_n0);
      } else {
        // Each box is restaged as soon as the TMA unit has read it, while it still reads the
        // next: the first round's boxes were committed one group each. Waiting for all of them
        // at once left the tensor cores idle about 1 us per 128 x 128 of tile more than a
        // 16-bit D on an H200.
        StageBoxesAsRead<Mainloop, T, 0>(boxes, acc, alpha);
        IssueStores<T, 1>(boxes, d, batch, tile_m0, tile_n0);
      }
      StoreRest<T, 1>(boxes, rest);
    }
  }

  // D = alpha * acc (beta == 0) for a D that the TMA unit cannot store as a tensor: rows not
  // 16-byte aligned (GemmKernelArgs::cd_vectors false: any leading dimension or address, GPT-2's
  // 50257 logits per token in packed rows), or aligned rows of fewer than 16 bytes (aligned rows of
  // more go through RunTma, TensorColumnsOf). Each of the tile's rows is staged at the offset its
  // first element has within 16 bytes of global memory, so that all of the row but at most 15 bytes
  // at either end lies in whole 16-byte chunks; one bulk copy per row (sm90::BulkStore) writes
  // those asynchronously, as RunTma's stores do, and the warp stores the ends (StoreEnd). A warp
  // stages and writes only its own 16 rows (the wgmma fragments' rows), so nothing waits on another
  // warp. An fp32 row (where RowsOf picks this: its rows are not aligned) is twice a 16-bit one, so
  // it goes in two rounds of half the tile's columns (kRowRounds), each warp waiting for its own
  // copies of the first before it stages the second. With `copies` the warp issues the bulk copies
  // itself (lanes 0-15, a row each); without (16-bit D only), the caller hands them to the copying
  // warp (CopyRows). On an H200, Run's synchronous stores, 8 columns per thread where rows
  // allowed, took 568.5 us for GPT-2's logits of 4096 tokens, and per element (unaligned rows)
  // 833.6; this, with the copies, 586.8. With beta != 0 the caller runs Run: C read per element
  // into the staged rows made the 128 x 256 and 192 x 192 kernels spill registers (ptxas,
  // sm_90a). The caller has made the stage free and waits again before its next use and before
  // the block exits.
  template <class Mainloop, typename T>
  __device__ static void RunRows(char* smem, const typename Mainloop::Accumulators& acc,
                                 float alpha, const GemmKernelArgs& args, int m, int n, int batch,
                                 int tile_m0, int tile_n0, bool copies) {
    static_assert(Mainloop::kMI == 1 && Mainloop::kColumnBlocks && Mainloop::kBN == kTileN &&
                      !kGroups,
                  "wgmma fragments: fragment j = columns 8 j .. 8 j + 7 of two rows");
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "16-bit or fp32 D");
    static_assert(kAsyncStores, "a staging area for the tile's rows");
    T* const d = static_cast<T*>(args.d) + batch * args.stride_d + tile_n0;
    RowsRound<Mainloop, T, 0>(smem, acc, alpha, args, m, n - tile_n0, d, tile_m0, copies);
    if constexpr (kRowRounds<T> > 1) {
      if (kRowRoundCols<T> >= n - tile_n0) return;  // a narrow D's tile: no columns left
      if ((threadIdx.x & 31) < 16) sm90::BulkWaitRead();  // the TMA unit has read this warp's rows
      __syncwarp();
      RowsRound<Mainloop, T, 1>(smem, acc, alpha, args, m, n - tile_n0, d, tile_m0, copies);
    }
  }

  // The copying warp's half of RunRows without `copies`, once every compute thread has run it:
  // lane l hands rows l, l + 32, ... (those below m) to the TMA unit, then commits them as one
  // bulk group; the caller waits for its reads (BulkWaitRead) before the stage is written again.
  __device__ static void CopyRows(const char* smem, const GemmKernelArgs& args, int m, int n,
                                  int batch, int tile_m0, int tile_n0) {
    const uint16_t* const d =
        static_cast<const uint16_t*>(args.d) + batch * args.stride_d + tile_n0;
    const int cols = min(kTileN, n - tile_n0);
#pragma unroll 1
    for (int row = threadIdx.x & 31; row < kTileM && tile_m0 + row < m; row += 32)
      SpanOf(smem, d, args.ldd, tile_m0, row, cols).Copy();
    sm90::BulkCommit();
  }

  // Makes the stage free after RunTma: the TMA unit has read every box (block-wide). With
  // `c_bar` (a shared address), also initializes that mbarrier afresh for RunTma's load of C: every
  // compute thread is past its previous wait, and the barrier orders the init before the next.
  // Every thread waits for its own bulk groups: RunTma's thread 0, RunRows' lanes 0-15.
  __device__ static void AwaitStoreReads(bool init_c_bar = false, uint32_t c_bar = 0) {
    sm90::BulkWaitRead();
    if (Tid() == 0) {
      if (init_c_bar) {
        sm90::MbarrierInit(c_bar, 1);
        sm90::FenceBarrierInit();
      }
    }
    Sync();
  }

  // Shared memory -> global: tile columns [col_begin, col_end) (multiples of 8) of `rows` staged
  // rows starting at global row row0; stage[r * pitch + c] holds row r, tile column col_begin + c
  // (pitch: a multiple of 4 floats).
  __device__ static void StoreStaged(const float* stage, int pitch, int rows,
                                     const GemmKernelArgs& args, int m, int n, int batch, int row0,
                                     int tile_n0, int col_begin, int col_end) {
    const StagedRows s{stage, pitch, rows, row0, tile_n0, col_begin, col_end};
    switch (args.output) {
      case DType::kF16: StorePass<__half>(s, args, m, n, batch); break;
      case DType::kBF16: StorePass<__nv_bfloat16>(s, args, m, n, batch); break;
      case DType::kF32: StorePass<float>(s, args, m, n, batch); break;
    }
  }

 private:
  __device__ static char* AlignedBoxes(char* smem) {
    const uint32_t at = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
    return smem + ((1024u - (at & 1023u)) & 1023u);
  }
  // Where 16-byte chunk `chunk` of row `row` lies within a box: the 128-byte swizzle (the tensor
  // maps', launch.cu) puts chunk c of row r at chunk c ^ (r % 8), so a warp's 8 rows of one
  // chunk cover all 32 banks.
  __device__ static int BoxOffset(int row, int chunk) {
    return row * 128 + ((chunk ^ (row & 7)) << 4);
  }

  // RunTma's round kRound: tile columns [kRound, kRound + 1) x kRoundCols<T>.
  template <class Mainloop, typename T, int kRound>
  __device__ static void TmaRound(char* boxes, const typename Mainloop::Accumulators& acc,
                                  float alpha, float beta, const CUtensorMap* d,
                                  const CUtensorMap* c, uint32_t bar, int batch, int tile_m0,
                                  int tile_n0) {
    const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(boxes));
    const int col0 = tile_n0 + kRound * kRoundCols<T>;
    if (beta != 0.0f) {
      if (Tid() == 0) {
        sm90::MbarrierArriveExpectTx(bar, kBoxes * kBoxBytes);
#pragma unroll
        for (int b = 0; b < kBoxes; ++b)
          sm90::TmaLoad(base + b * kBoxBytes, c, bar, col0 + b * kBoxElements<T>, tile_m0,
                        batch);
      }
      sm90::MbarrierWait(bar, kRound & 1);
      StageTile<Mainloop, T, true, kRound>(boxes, acc, alpha, beta);
    } else {
      StageTile<Mainloop, T, false, kRound>(boxes, acc, alpha, 0.0f);
    }
    IssueStores<T, kRound>(boxes, d, batch, tile_m0, tile_n0);
  }

  struct Rest {  // RunTma's arguments for StoreRest
    const GemmKernelArgs& args;
    int m, n, d_cols, batch, tile_m0, tile_n0;
  };
  // The columns [d_cols, n) of round kRound's rows that the tensor d does not hold (fewer than 16
  // bytes a row: TensorColumnsOf, tma_operands.h), from the staged boxes: thread r stores row r.
  // Every thread has staged the round (IssueStores' barrier), and each reads its row before it
  // next synchronizes, so before the boxes are written again.
  template <typename T, int kRound>
  __device__ static void StoreRest(const char* boxes, const Rest& r) {
    const int col = r.d_cols - r.tile_n0 - kRound * kRoundCols<T>;  // within the round
    const int row = Tid();
    // The round's columns: the 320-wide tile's second round holds two boxes, not three.
    constexpr int kCols = kRoundBoxes<T, kRound> * kBoxElements<T>;
    if (r.d_cols >= r.n || col < 0 || col >= kCols || row >= kTileM ||
        r.tile_m0 + row >= r.m)
      return;
    const int chunk = (col % kBoxElements<T>) * static_cast<int>(sizeof(T)) / 16;
    const char* staged = boxes + (col / kBoxElements<T>) * kBoxBytes + BoxOffset(row, chunk);
    T* const to = static_cast<T*>(r.args.d) + r.batch * r.args.stride_d +
                  static_cast<int64_t>(r.tile_m0 + row) * r.args.ldd + r.d_cols;
    StoreEnd(reinterpret_cast<char*>(to), staged, 0,
             (r.n - r.d_cols) * static_cast<int>(sizeof(T)));
  }

  // Hands round kRound's staged boxes to the TMA unit (after every thread's writes). Where a
  // second round follows (fp32, or the 320-wide tile), boxes are committed one bulk group each, so
  // that it can wait for them one at a time.
  template <typename T, int kRound>
  __device__ static void IssueStores(char* boxes, const CUtensorMap* d, int batch, int tile_m0,
                                     int tile_n0) {
    constexpr bool kEachBox = sizeof(T) == 4 || !kAsyncStores;
    sm90::FenceProxyAsync();
    Sync();
    if (Tid() == 0) {
      const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(boxes));
      const int col0 = tile_n0 + kRound * kRoundCols<T>;
#pragma unroll
      for (int b = 0; b < kRoundBoxes<T, kRound>; ++b) {
        sm90::TmaStore(d, base + b * kBoxBytes, col0 + b * kBoxElements<T>, tile_m0, batch);
        if constexpr (kEachBox) sm90::BulkCommit();
      }
      if constexpr (!kEachBox) sm90::BulkCommit();
    }
  }

  // The second round without C (fp32 D, or the 320-wide tile's 16-bit D): box kBox of it once
  // the TMA unit has read the first round's box kBox (kBoxes - 1 - kBox groups may still be
  // reading), then the boxes after it.
  template <class Mainloop, typename T, int kBox>
  __device__ static void StageBoxesAsRead(char* boxes, const typename Mainloop::Accumulators& acc,
                                          float alpha) {
    if constexpr (kBox < kRoundBoxes<T, 1>) {
      if (Tid() == 0) sm90::BulkWaitReadAllBut<kBoxes - 1 - kBox>();
      Sync();
      StageTile<Mainloop, T, false, 1, kBox>(boxes, acc, alpha, 0.0f);
      StageBoxesAsRead<Mainloop, T, kBox + 1>(boxes, acc, alpha);
    }
  }

  // RunTma's pass through the boxes: every thread's fragments of round kRound (all of them for
  // 16-bit T, half for fp32), scaled (with kBeta, plus beta times the boxes' C), converted, in
  // place. Two instantiations, so that the pass without C keeps the plain stores the compiler
  // schedules freely (with the C reads' volatile accesses it ran 3-4% slower over the waveq set).
  // With kBox >= 0, only the fragments of that box.
  template <class Mainloop, typename T, bool kBeta, int kRound, int kBox = -1>
  __device__ static void StageTile(char* boxes, const typename Mainloop::Accumulators& acc,
                                   float alpha, float beta) {
    if constexpr (!kBeta && sizeof(T) == 2 && kBox < 0) {
      static_assert(kRound == 0, "the first round of a 16-bit tile");
      if (alpha == 1.0f) {
        StageMatrices<Mainloop, T, false>(boxes, acc, alpha);
      } else {
        StageMatrices<Mainloop, T, true>(boxes, acc, alpha);
      }
      return;
    }
    constexpr int kRoundFragments = kRoundCols<T> / 8;
    constexpr int kBoxFragments = kBoxElements<T> / 8;
    constexpr int kFirst = kBox < 0 ? 0 : kBox * kBoxFragments;
    constexpr int kEnd = kBox < 0 ? kRoundFragments : kFirst + kBoxFragments;
    const int tid = Tid();
#pragma unroll
    for (int i = 0; i < Mainloop::kMI; ++i) {
      const int rows[2] = {Mainloop::AccRow(tid, i, 0), Mainloop::AccRow(tid, i, 2)};
#pragma unroll
      for (int jr = kFirst; jr < kEnd; ++jr) {
        const int j = kRound * kRoundFragments + jr;
        const int col = Mainloop::AccCol(tid, jr, 0);  // within the round's columns
        char* box = boxes + (col / kBoxElements<T>) * kBoxBytes;
        const int chunk = (col % kBoxElements<T>) * static_cast<int>(sizeof(T)) / 16;
        const int within = col * static_cast<int>(sizeof(T)) % 16;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          char* at = box + BoxOffset(rows[h], chunk) + within;
          float v0 = alpha * acc.v[i][j][2 * h], v1 = alpha * acc.v[i][j][2 * h + 1];
          if constexpr (kBeta) {
            // One element pair at a time, read and written by volatile accesses: with plain ones
            // this kernel spilled more (188 against 112 bytes of stores, ptxas for sm_90a).
            const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(at));
            if constexpr (sizeof(T) == 2) {
              uint32_t word;
              asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(word) : "r"(addr) : "memory");
              T in[2];
              memcpy(in, &word, 4);
              v0 += beta * ToFloat(in[0]);
              v1 += beta * ToFloat(in[1]);
              asm volatile("st.shared.b32 [%0], %1;\n" ::"r"(addr), "r"(Pack<T>(v0, v1))
                           : "memory");
            } else {
              float c0, c1;
              asm volatile("ld.shared.f32 %0, [%1];\n" : "=f"(c0) : "r"(addr) : "memory");
              asm volatile("ld.shared.f32 %0, [%1+4];\n" : "=f"(c1) : "r"(addr) : "memory");
              v0 += beta * c0;
              v1 += beta * c1;
              asm volatile("st.shared.f32 [%0], %1;\n" ::"r"(addr), "f"(v0) : "memory");
              asm volatile("st.shared.f32 [%0+4], %1;\n" ::"r"(addr), "f"(v1) : "memory");
            }
          } else if constexpr (sizeof(T) == 2) {
            *reinterpret_cast<uint32_t*>(at) = Pack<T>(v0, v1);
          } else {
            *reinterpret_cast<float2*>(at) = make_float2(v0, v1);
          }
        }
      }
    }
  }

  // StageTile for a 16-bit D without C: a warp's fragments go to the boxes four 8 x 8 blocks
  // at a time (stmatrix), and with alpha == 1 (kScale false: most GEMMs) unscaled. The fragment
  // layout is stmatrix's: thread t holds row t / 4, columns 2 (t % 4) and the next of each
  // block. Block i of a store is fragment j + i / 2, rows +8 (i % 2); lane l gives the address
  // of row l % 8 of block l / 8. One store per four element pairs, and one paired conversion
  // and, unless alpha == 1, two multiplications per pair (StageTile's loop: a store per pair).
  // Measured on an H200: 1.4-1.5% faster on 512 x 50304 x 768.
  template <class Mainloop, typename T, bool kScale>
  __device__ static void StageMatrices(char* boxes, const typename Mainloop::Accumulators& acc,
                                       float alpha) {
    constexpr int kFragments = kRoundCols<T> / 8;
    static_assert(kFragments % 8 == 0 && kBoxElements<T> == 64, "8 fragments per box");
    const int tid = Tid(), lane = tid & 31;
    const int block = lane >> 3;  // the 8 x 8 block whose row this lane addresses
    const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(boxes));
    const int half = block >> 1;
#pragma unroll
    for (int i = 0; i < Mainloop::kMI; ++i) {
      const int row =
          Mainloop::AccRow(tid, i, 0) - (lane >> 2) + ((block & 1) << 3) + (lane & 7);
#pragma unroll
      for (int j = 0; j < kFragments; j += 2) {
        const uint32_t at = base + (j / 8) * kBoxBytes + BoxOffset(row, j % 8 + half);
        float v[2][4];
#pragma unroll
        for (int f = 0; f < 2; ++f)
#pragma unroll
          for (int e = 0; e < 4; ++e)
            v[f][e] = kScale ? alpha * acc.v[i][j + f][e] : acc.v[i][j + f][e];
        sm90::StoreMatrices(at, Pack<T>(v[0][0], v[0][1]), Pack<T>(v[0][2], v[0][3]),
                            Pack<T>(v[1][0], v[1][1]), Pack<T>(v[1][2], v[1][3]));
      }
    }
  }

  // Where RunRows stages D's row `global_row` (d: the tile's column 0 of D's row 0), past the
  // start of its row of the stage: at the offset within 16 bytes the row has in global memory,
  // from the low 32 bits of its address.
  template <typename T>
  __device__ static uint32_t RowOffset(const T* d, int64_t ldd, int global_row) {
    const uint32_t d_low = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(d));
    const uint32_t row_bytes = static_cast<uint32_t>(ldd) * sizeof(T);
    return (d_low + static_cast<uint32_t>(global_row) * row_bytes) & 15;
  }

  // A staged row of D in global memory (RunRows, CopyRows): its bytes [0, head) and [tail, bytes)
  // are the ends (StoreEnd); [head, tail) is whole 16-byte chunks.
  struct RowSpan {
    char* d_row;
    const char* staged;  // the row's first byte in the stage
    int head, tail, bytes;
    // The chunks, as one bulk copy (none where the row has none).
    __device__ void Copy() const {
      if (tail > head) {
        sm90::BulkStore(d_row + head,
                        static_cast<uint32_t>(__cvta_generic_to_shared(staged + head)),
                        static_cast<uint32_t>(tail - head));
      }
    }
  };
  // Tile row `row` (below m) of the `cols` columns whose first of row 0 is at d. The row starts
  // `offset` bytes into a 16-byte chunk of global memory (and of the stage): its first chunk
  // boundary is (16 - offset) % 16 bytes in, its last (offset + bytes) rounded down, less offset.
  template <typename T>
  __device__ static RowSpan SpanOf(const char* smem, const T* d, int64_t ldd, int tile_m0,
                                   int row, int cols) {
    const uint32_t offset = RowOffset(d, ldd, tile_m0 + row);
    const int bytes = cols * static_cast<int>(sizeof(T));
    const int head = min(static_cast<int>((16 - offset) & 15), bytes);
    const int last = static_cast<int>((offset + bytes) & ~15u) - static_cast<int>(offset);
    const int tail = max(head, last);
    return {reinterpret_cast<char*>(const_cast<T*>(d + static_cast<int64_t>(tile_m0 + row) * ldd)),
            smem + row * kRowPitch + offset, head, tail, bytes};
  }

  // Staged bytes [begin, end) of a row to global memory: one of its ends, fewer than 16 bytes
  // within one 16-byte chunk. The stage holds the row at its offset within 16 bytes, so both
  // sides allow the same widths. Straight-line code, the same for every lane: 2-, 4- and 8-byte
  // stores up to the first 8-byte boundary, then 8-, 4- and 2-byte ones to the end, each where it
  // fits (at most 4 of the 6). An element loop (up to 7 stores) and a loop of the widest stores
  // both diverged across the lanes' rows.
  __device__ static void StoreEnd(char* d_row, const char* staged, int begin, int end) {
    char* dst = d_row + begin;
    const char* src = staged + begin;
    int at = static_cast<int>(reinterpret_cast<uintptr_t>(dst) & 15);  // bytes into the chunk
    const int stop = at + (end - begin);
    auto store = [&](int bytes) {
      if (bytes == 8) *reinterpret_cast<uint2*>(dst) = *reinterpret_cast<const uint2*>(src);
      if (bytes == 4) *reinterpret_cast<uint32_t*>(dst) = *reinterpret_cast<const uint32_t*>(src);
      if (bytes == 2) *reinterpret_cast<uint16_t*>(dst) = *reinterpret_cast<const uint16_t*>(src);
      dst += bytes, src += bytes, at += bytes;
    };
    if ((at & 2) && at + 2 <= stop) store(2);
    if ((at & 4) && at + 4 <= stop) store(4);
    if ((at & 8) && at + 8 <= stop) store(8);
    if (at + 8 <= stop) store(8);
    if (at + 4 <= stop) store(4);
    if (at + 2 <= stop) store(2);
  }

  // RunRows' round kRound: its columns of the tile's rows (tile columns from kRound *
  // kRowRoundCols<T>, of `cols` in D from the tile's first; d: D's row 0 there) staged, then
  // copied and their ends stored. Lane l: row 16 warp + l % 16; lanes 0-15 copy its chunks (with
  // `copies`) and store its first elements, lanes 16-31 its last.
  template <class Mainloop, typename T, int kRound>
  __device__ static void RowsRound(char* smem, const typename Mainloop::Accumulators& acc,
                                   float alpha, const GemmKernelArgs& args, int m, int cols,
                                   T* d, int tile_m0, bool copies) {
    constexpr int kCol0 = kRound * kRowRoundCols<T>;
    StageRows<Mainloop, T, kRound>(smem, acc, alpha, d + kCol0, args.ldd, tile_m0);
    sm90::FenceProxyAsync();
    __syncwarp();
    const int lane = threadIdx.x & 31;
    const int row = (threadIdx.x >> 5) * 16 + (lane & 15);
    if (tile_m0 + row < m) {
      const RowSpan s =
          SpanOf(smem, d + kCol0, args.ldd, tile_m0, row, min(kRowRoundCols<T>, cols - kCol0));
      if (lane < 16) {
        if (copies) s.Copy();
        StoreEnd(s.d_row, s.staged, 0, s.head);
      } else {
        StoreEnd(s.d_row, s.staged, s.tail, s.bytes);
      }
    }
    if (copies && lane < 16) sm90::BulkCommit();
  }

  // RunRows' staging: every thread's fragments of round kRound (kRowRoundCols<T> columns from
  // d), scaled and converted, into the rows of the stage at their offsets within 16 bytes (d: the
  // round's first column of D's row 0).
  template <class Mainloop, typename T, int kRound>
  __device__ static void StageRows(char* smem, const typename Mainloop::Accumulators& acc,
                                   float alpha, const T* d, int64_t ldd, int tile_m0) {
    constexpr int kFragments = kRowRoundCols<T> / 8;
    const int tid = threadIdx.x;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int row = Mainloop::AccRow(tid, 0, 2 * h);  // rows past m are staged, never stored
      const uint32_t offset = RowOffset(d, ldd, tile_m0 + row);
      char* staged = smem + row * kRowPitch + offset;
#pragma unroll
      for (int jr = 0; jr < kFragments; ++jr) {
        const int j = kRound * kFragments + jr;
        const int col = Mainloop::AccCol(tid, jr, 0);  // within the round's columns
        const float v0 = alpha * acc.v[0][j][2 * h], v1 = alpha * acc.v[0][j][2 * h + 1];
        if (offset & sizeof(T)) {  // an odd element offset: the pair straddles its alignment
          T* at = reinterpret_cast<T*>(staged) + col;
          at[0] = FromFloat<T>(v0);
          at[1] = FromFloat<T>(v1);
        } else if constexpr (sizeof(T) == 2) {
          *reinterpret_cast<uint32_t*>(staged + col * 2) = Pack<T>(v0, v1);
        } else {
          *reinterpret_cast<float2*>(staged + col * 4) = make_float2(v0, v1);
        }
      }
    }
  }

  // Two 16-bit values in one word, lo first, by one paired conversion.
  template <typename T>
  __device__ static uint32_t Pack(float lo, float hi) {
    static_assert(std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>, "16-bit T");
    uint32_t u;
    if constexpr (std::is_same_v<T, __half>) {
      const __half2 pair = __floats2half2_rn(lo, hi);
      memcpy(&u, &pair, 4);
    } else {
      const __nv_bfloat162 pair = __floats2bfloat162_rn(lo, hi);
      memcpy(&u, &pair, 4);
    }
    return u;
  }

  template <typename T>
  __device__ static void StoreTyped(const GemmKernelArgs& args, int batch, int row, int col,
                                    int valid, float (&v)[8]) {
    T* d = static_cast<T*>(args.d) + batch * args.stride_d + row * args.ldd + col;
    const T* c = static_cast<const T*>(args.c) + batch * args.stride_c + row * args.ldc + col;
    constexpr int kVec = 16 / sizeof(T);  // elements per 16-byte access
    if (valid >= 8) {
      if (args.beta != 0.0f) {
#pragma unroll
        for (int h = 0; h < 8; h += kVec) {
          T in[kVec];
          *reinterpret_cast<uint4*>(in) = *reinterpret_cast<const uint4*>(c + h);
#pragma unroll
          for (int e = 0; e < kVec; ++e)
            v[h + e] = args.alpha * v[h + e] + args.beta * ToFloat(in[e]);
        }
      } else {
#pragma unroll
        for (int e = 0; e < 8; ++e) v[e] *= args.alpha;
      }
#pragma unroll
      for (int h = 0; h < 8; h += kVec) {
        T out[kVec];
#pragma unroll
        for (int e = 0; e < kVec; ++e) out[e] = FromFloat<T>(v[h + e]);
        *reinterpret_cast<uint4*>(d + h) = *reinterpret_cast<const uint4*>(out);
      }
    } else {
#pragma unroll
      for (int e = 0; e < 8; ++e) {  // constant indices: v stays in registers
        if (e < valid) {
          float x = args.alpha * v[e];
          if (args.beta != 0.0f) x += args.beta * ToFloat(c[e]);
          d[e] = FromFloat<T>(x);
        }
      }
    }
  }

  struct StagedRows {  // StoreStaged's arguments
    const float* stage;
    int pitch, rows, row0, tile_n0, col_begin, col_end;
  };

  // StoreStaged for output type T: 8 columns per thread and step.
  template <typename T>
  __device__ static void StorePass(const StagedRows& s, const GemmKernelArgs& args, int m, int n,
                                   int batch) {
    if (!args.cd_vectors) {
      StoreElements<T>(s, args, m, n, batch);
      return;
    }
    const int row_chunks = (s.col_end - s.col_begin) / 8;
#pragma unroll 1
    for (int chunk = threadIdx.x; chunk < s.rows * row_chunks; chunk += kThreads) {
      const int row = chunk / row_chunks;
      const int c = (chunk % row_chunks) * 8;  // staged column
      const int gr = s.row0 + row;
      const int gc = s.tile_n0 + s.col_begin + c;
      if (gr < m && gc < n) {
        const float4 lo = *reinterpret_cast<const float4*>(s.stage + row * s.pitch + c);
        const float4 hi = *reinterpret_cast<const float4*>(s.stage + row * s.pitch + c + 4);
        float v[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
        StoreTyped<T>(args, batch, gr, gc, n - gc, v);
      }
    }
  }

  // StorePass where C or D is not 16-byte aligned (GemmKernelArgs::cd_vectors false): element by
  // element, a warp per row and its lanes on consecutive columns, so that each load of C and
  // store of D covers 32 consecutive elements (8 columns per thread, as StorePass does, made
  // each instruction touch 16 sectors and ran a 412 MB D at half the aligned speed).
  template <typename T>
  __device__ static void StoreElements(const StagedRows& s, const GemmKernelArgs& args, int m,
                                       int n, int batch) {
    const int lane = threadIdx.x % 32;
    const int col0 = s.tile_n0 + s.col_begin;
    const int cols = min(s.col_end - s.col_begin, n - col0);
    T* d = static_cast<T*>(args.d) + batch * args.stride_d + col0;
    const T* c = static_cast<const T*>(args.c) + batch * args.stride_c + col0;
#pragma unroll 1
    for (int row = threadIdx.x / 32; row < s.rows && s.row0 + row < m; row += kThreads / 32) {
      const float* staged = s.stage + row * s.pitch;
      T* d_row = d + (s.row0 + row) * args.ldd;
      const T* c_row = c + (s.row0 + row) * args.ldc;
#pragma unroll 1
      for (int col = lane; col < cols; col += 32) {
        float x = args.alpha * staged[col];
        if (args.beta != 0.0f) x += args.beta * ToFloat(c_row[col]);
        d_row[col] = FromFloat<T>(x);
      }
    }
  }
};

}  // namespace streamk::kernels
