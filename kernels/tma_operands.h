// The TMA descriptors of one GEMM's A and B operands (CUtensorMap, built on the host by
// EncodeTmaOperands in launch.h, passed to the kernel as a __grid_constant__ parameter) and how
// the kernel addresses them. Each operand is a 3-d tensor, innermost dimension first:
//   k-contiguous (A row-major, B column-major): {k, m or n, batch}, box {tile_k, tile side, 1}
//     (fewer rows for a partial tile: LoadsOf below), 128-byte swizzle at tile_k = 64 (64-byte at
//     32): one box is one k-iteration of the operand's tile in the layout MainloopSm90 documents;
//   m/n-contiguous (A column-major, B row-major): {m or n, k, batch}, box {64, tile_k, 1},
//     128-byte swizzle: one box is one 64-wide part of the tile; tile side / 64 boxes (fewer for
//     a partial tile) make the tile.
// Elements outside the tensor (m, n or k tails) are filled with zeros by the TMA unit.
// D, where the epilogue stores it by TMA (d_store: 16-byte aligned rows; launch.cu), is a {d_cols,
// m, batch} tensor, box {128 bytes of columns, a block's tile rows, 1}, 128-byte swizzle
// (Epilogue::RunTma); stores outside it are clipped. d_cols is n, or with beta == 0 n rounded down
// to 16 bytes (TensorColumnsOf), the rest of each row stored by the compute threads. With beta != 0
// the epilogue then loads C the same way (c_load), zero-filled outside. A D whose rows do not allow
// that is written, where beta == 0, by a bulk copy per row of its 16-byte chunks (d_rows;
// Epilogue::RunRows and CopyRows).
#pragma once

#include <cuda.h>

#include <cstdint>

#include "streamk/plan.h"

namespace streamk::kernels {

// Whether the epilogue of a tile_n-wide configuration may store D asynchronously, by TMA
// (TmaOperands::d_store, Epilogue::RunTma) or by bulk copies of rows (d_rows, RunRows), whatever D
// and C are: up to 256 columns. Their staging areas (a 16-bit tile's boxes or rows at once) do
// not fit beside the 128 x 320 configuration's ring (launch.h), whose epilogue stores D by its own
// threads from StagedRowsOf rows of fp32 at a time (Epilogue::Run; the Stream-K fixup sums as
// many), except as TmaStoresOf says.
#if defined(__CUDACC__)
__host__ __device__
#endif
constexpr bool AsyncStoresOf(int tile_n) { return tile_n <= 256; }
// Whether the epilogue of a tile_n-wide configuration may store a D of `out_bytes` per element by
// TMA (Epilogue::RunTma), with C (beta != 0) or not: every one AsyncStoresOf allows, and the
// 128 x 320 tile's 16-bit D without C, in two rounds through an area of three boxes.
#if defined(__CUDACC__)
__host__ __device__
#endif
constexpr bool TmaStoresOf(int tile_n, int out_bytes, bool with_c) {
  return AsyncStoresOf(tile_n) || (out_bytes == 2 && !with_c);
}
#if defined(__CUDACC__)
__host__ __device__
#endif
constexpr int StagedRowsOf(int tile_n) { return AsyncStoresOf(tile_n) ? 64 : 32; }

// Who issues the bulk copies of a 16-bit D's rows (TmaOperands::d_rows; Epilogue::RunRows). The
// TMA unit takes a 128 x 256 tile's rows in 3.6-3.9 us, against 1.0 for the TMA store's boxes
// (H200, streamk-trace), and the warps that issue them wait that long. The compute warps issuing
// them lose that from the next tile's mainloop; the copying warp, one of the producer's warp
// group's idle warps, frees them (GPT-2's logits of 4096 tokens, 50257 words: 593 -> 550 us
// packed, 555 -> 503 with aligned rows), but adds a hand-off to the epilogue of the
// block's last tile (1023^3, a tile per block: 8.1 -> 10.2 us). So the copying warp issues them
// where every block finishes at least two tiles: `tiles` of the plan over `blocks` resident blocks
// (clusters).
enum RowCopies { kRowsByComputeWarps = 1, kRowsByCopyingWarp = 2 };
constexpr int RowCopiesOf(int64_t tiles, int64_t blocks) {
  return tiles >= 2 * blocks ? kRowsByCopyingWarp : kRowsByComputeWarps;
}

// The columns of a D (n of them, `bytes` each) that the TMA unit stores as a tensor
// (TmaOperands::d_cols), 0 for none: none unless its rows are 16-byte aligned (`rows_aligned`:
// address, leading dimension and batch stride; GemmKernelArgs::cd_vectors). Where n elements end
// inside a 16-byte chunk, the tensor stops at the chunk before (the TMA unit writes whole chunks: a
// box that crossed n overwrote the elements up to the next 16-byte boundary,
// GemmGpu.EpilogueWritesOnlyDsEntries), and the compute threads store the rest, fewer than 16 bytes
// a row, from the staged boxes; only with beta == 0, since C's rest would be missing from the
// boxes. On an H200, GPT-2's logits for 512 tokens, n = 50257 in rows of 50264, took 74.9 us
// with the rows' bulk copies (d_rows) against 63.5 at n = 50304 through the tensor.
constexpr int64_t TensorColumnsOf(int64_t n, int bytes, float beta, bool rows_aligned) {
  if (!rows_aligned) return 0;
  if (n * bytes % 16 == 0) return n;
  return beta == 0.0f ? n * bytes / 16 * 16 / bytes : 0;
}

// TmaOperands::d_rows for a D the TMA unit cannot store as a tensor: 0 where the epilogue's own
// stores write it (Epilogue::Run), else who issues its rows' bulk copies. Only with beta == 0.
// A 16-bit D: as RowCopiesOf says, or `forced` (a RowCopies, 0: none; PlanOptions::store_d). An
// fp32 D: the compute warps, in two rounds a tile, where its rows are not 16-byte aligned
// (`rows_aligned`: GemmKernelArgs::cd_vectors); packed GPT-2 logits in fp32 for 4096 tokens (ldd
// 50257) took 811 us element by element against 722 on an H200. Aligned fp32 rows get here only
// with beta != 0 or fewer than 4 elements (TensorColumnsOf), and keep Run's stores: with the
// copies, whose second round waits for the TMA unit to read the first, the same 4096 tokens in
// rows of 50260 took 721 us against Run's 671.
constexpr int RowsOf(bool fp32, float beta, bool rows_aligned, int64_t tiles, int64_t blocks,
                     int forced = 0) {
  if (beta != 0.0f) return 0;
  if (fp32) return rows_aligned ? 0 : kRowsByComputeWarps;
  return forced != 0 ? forced : RowCopiesOf(tiles, blocks);
}

// Whether a launch of `plan` on the TMA kernel runs the 128 x 128 configuration's ping-pong
// variant (MainloopSm90Tma::kPingPong): each compute warp group computes whole tiles, the two
// taking a block's tiles in turn, so that one group's epilogue runs under the other's mainloop
// instead of idling the tensor cores (0.6-0.7 us of a 1024-deep tile's 5.5, 16-bit D). Only for
// plans of data-parallel blocks alone (no Stream-K or reduction blocks: the fixup protocol's
// stages and barriers are the shared tiles'), whose D the epilogue stores by TMA (`d_store`; the
// rows' bulk copies and the element stores keep their warps' rows). Measured on an H200 against
// the shared tiles:
//   - both operands K-major with rows on 128-byte lines (OperandLayout::rows_on_lines of
//     Plan::a, b, or copied to such rows), 8-24 k-iterations a tile, two tiles or more a block:
//     1.01-1.09x, 1.10-1.23x at 512 deep and 1.16x on GPT-2's logits for 4096 tokens;
//   - K-major rows off those lines (K = 912, 976, 1008, 2096: rows 32 or 96 bytes past one):
//     0.88-0.97x; such rows also account for the losses at 1.5-3 tiles a block (K = 560-3344);
//   - M- or N-major operands (layout nt): 0.99-1.03x;
//   - 32-64 k-iterations: 0.92-1.02x (the epilogue a smaller share, one warp group's mainloop
//     a little slower); 4-7 mixed: 1.07-1.11x at 15 tiles a block, 1.00 at 4.
// So only there. `forced`: -1 never, 1 wherever it can (PlanOptions::pingpong false / true), 0 as
// above. The planner decides (Plan::pingpong); the launch runs what the plan says.
inline constexpr int kPingPongMinIters = 8, kPingPongMaxIters = 24;
constexpr bool PingPongOf(const Plan& plan, bool d_store, int forced = 0) {
  const bool can = plan.tile_m == 128 && plan.tile_n == 128 && plan.cluster_m == 1 &&
                   plan.sk_blocks == 0 && plan.reduction_blocks == 0 && d_store &&
                   plan.schedule == Schedule::kStatic;
  if (!can || forced < 0) return false;
  const bool lines = (plan.a.rows_on_lines() || plan.repack_a) &&
                     (plan.b.rows_on_lines() || plan.repack_b);
  return forced > 0 || (lines && plan.tiles >= 2 * plan.grid_blocks &&
                        plan.iters_per_tile >= kPingPongMinIters &&
                        plan.iters_per_tile <= kPingPongMaxIters);
}

// How the epilogue of `plan` on the TMA kernel writes a D of `out_bytes` an element
// (Plan::store_d), read with C or not: by TMA stores where the configuration may (TmaStoresOf) and
// D (and C) can be described as a tensor (`tensor`: TensorColumnsOf > 0, Problem::d_tma_store);
// else, where the configuration stores asynchronously, by the rows' bulk copies where RowsOf says
// (`rows_aligned`: GemmKernelArgs::cd_vectors); else by its threads.
constexpr StoreD StoreDOf(const Plan& plan, int out_bytes, bool with_c, bool rows_aligned,
                          bool tensor) {
  if (!TmaStoresOf(plan.tile_n, out_bytes, with_c)) return StoreD::kThreads;
  if (tensor) return StoreD::kTma;
  if (!AsyncStoresOf(plan.tile_n)) return StoreD::kThreads;
  const int rows = RowsOf(out_bytes == 4, with_c ? 1.0f : 0.0f, rows_aligned, plan.tiles,
                          plan.grid_blocks);
  return rows == kRowsByCopyingWarp    ? StoreD::kRowsCopyWarp
         : rows == kRowsByComputeWarps ? StoreD::kRows
                                       : StoreD::kThreads;
}

// Whether the TMA kernel's epilogue can write D as `store` says for `plan` (StoreDOf's arguments):
// its threads always; TMA stores as StoreDOf would pick them; the rows' bulk copies without C on
// the configurations that store asynchronously, the copying warp's for a 16-bit D only.
constexpr bool CanStoreD(StoreD store, const Plan& plan, int out_bytes, bool with_c,
                         bool tensor) {
  switch (store) {
    case StoreD::kThreads: return true;
    case StoreD::kTma: return tensor && TmaStoresOf(plan.tile_n, out_bytes, with_c);
    case StoreD::kRows: return !with_c && AsyncStoresOf(plan.tile_n);
    case StoreD::kRowsCopyWarp: return !with_c && AsyncStoresOf(plan.tile_n) && out_bytes == 2;
  }
  return false;
}

// What the producer loads of one operand per k-iteration of one tile. Where the tile holds fewer
// of the operand's rows (or columns) than its side, the last tile along m or n or the only one of
// a narrow operand, it loads only the part that holds them: a k-contiguous box of those rows
// (rounded up to the 8 rows of one swizzle atom), or as many 64-wide boxes of an m/n-contiguous
// operand as they need. The TMA unit fills the rows of a box past the tensor with zeros at about
// the cost of loading them: decode projections (n = 16 of a 128-wide tile) spent most of each
// k-iteration writing zeros. The stage's remaining rows keep stale values, which only reach
// accumulator rows or columns past m or n: the epilogue never stores those, and no other entry
// depends on them.
// A box spans at most 256 rows (the TMA unit's limit per dimension): a k-contiguous operand's
// tile of more (the 128 x 320 configuration's B) loads as two boxes of half its rows each,
// rounded up to the swizzle atom's 8, one after the other in the stage.
inline constexpr int kMaxBoxRows = 256;
struct OperandLoad {
  // k-contiguous: rows per box (<= tile_mn, <= kMaxBoxRows); m/n-contiguous: 64 (a box's width)
  int box_rows;
  int boxes;  // boxes per k-iteration: 1 .. tile_mn / 64 (m/n-contiguous), 1 or 2 (k-contiguous)
  uint32_t bytes;  // bytes per k-iteration (2-byte elements)
};
// `rows`: the operand's rows (or columns) in the tile, at most tile_mn.
constexpr OperandLoad LoadOf(bool mn_contiguous, int64_t rows, int tile_mn, int tile_k) {
  if (mn_contiguous) {
    const int64_t needed = (rows + 63) / 64;
    const int boxes = needed < tile_mn / 64 ? static_cast<int>(needed) : tile_mn / 64;
    return {64, boxes, static_cast<uint32_t>(boxes * 64 * tile_k * 2)};
  }
  const int64_t rounded = (rows + 7) / 8 * 8;
  const int held = rounded < tile_mn ? static_cast<int>(rounded) : tile_mn;
  const int boxes = held > kMaxBoxRows ? 2 : 1;
  const int box_rows = (held / boxes + 7) / 8 * 8;
  return {box_rows, boxes, static_cast<uint32_t>(boxes * box_rows * tile_k * 2)};
}

// One operand's loads: whole tiles, and the partial last tile along its m or n (from `edge_from`
// on) where that loads at most three quarters of a whole one. A k-contiguous operand's partial
// tile has a tensor map of its own (TmaOperands::a_edge, b_edge: the same tensor, a smaller
// box). Below a quarter saved it keeps the whole box: 4816 x 248 x 3496, whose partial tiles
// hold 120 of 128 rows, read 3-4% slower on an H200 with its own map.
struct OperandLoads {
  int64_t edge_from = INT64_MAX;  // the partial tile's first row or column (INT64_MAX: none)
  OperandLoad whole{}, edge{};
};
constexpr OperandLoads LoadsOf(bool mn_contiguous, int64_t mn, int tile_mn, int tile_k) {
  OperandLoads l;
  l.whole = LoadOf(mn_contiguous, tile_mn, tile_mn, tile_k);
  const int64_t last = mn % tile_mn;
  if (last != 0) {
    l.edge = LoadOf(mn_contiguous, last, tile_mn, tile_k);
    if (4 * l.edge.bytes <= 3 * l.whole.bytes) l.edge_from = mn - last;
  }
  return l;
}

// The wgmma width the compute warps issue over a tile of which `cols` columns lie inside D (at
// most tile_n, the tile's width; MainloopSm90Tma::Consume): on the 128-wide configurations
// (128 x 128, 64 x 128) the narrowest of 16, 32 and 64 that holds them, else the tile's own. The
// columns past them would only reach accumulator columns past n, which the epilogue never
// stores. 16 and 32 only where B is k-contiguous (its rows each a 128-byte swizzled line, so any
// 8 of them are a wgmma operand); an n-contiguous B's swizzle atom is 64 columns wide. At the
// tile's width, a decode projection's 16 tokens on a 128-wide tile issue eight times the tensor
// work their columns need; the narrow widths ran data-parallel plans of 128 x 128 tiles 3-5%
// faster on an H200 on decode rows of 1-64 tokens, 14-25% on down projections of at most one
// tile per SM, auto 2.4-2.8%. The wider tiles keep their width: their extra arms made nvcc
// outline the work loop of those kernels, which serialized every wgmma.
inline constexpr int kNarrowTilesUpTo = 128;
#if defined(__CUDACC__)
__host__ __device__
#endif
constexpr int NarrowWidthOf(int64_t cols, int tile_n, bool b_mn_contiguous) {
  if (tile_n > kNarrowTilesUpTo) return tile_n;
  if (!b_mn_contiguous && cols <= 16) return 16;
  if (!b_mn_contiguous && cols <= 32) return 32;
  return cols <= 64 ? 64 : tile_n;
}

struct TmaOperands {
  CUtensorMap a;  // 64-byte aligned (CUtensorMap's own alignment)
  CUtensorMap b;
  CUtensorMap a_edge;  // k-contiguous A's partial last tile (a_load.edge_from), else unused
  CUtensorMap b_edge;
  // 1 when the operand's batch stride is 0 (every batch entry reads the same matrix): its tensor
  // has one batch entry and the kernel reads entry 0.
  int a_broadcast = 0;
  int b_broadcast = 0;
  CUtensorMap d;    // valid where d_store
  CUtensorMap c;    // valid where c_load
  int d_store = 0;  // 1: the epilogue writes D through `d`
  int d_cols = 0;   // d's columns (TensorColumnsOf): n, or fewer with a rest the threads store
  int c_load = 0;   // 1: ... and reads C through `c` (beta != 0)
  // No d_store, beta 0: the epilogue writes D by row bulk copies, issued by the compute warps
  // (kRowsByComputeWarps) or, for a 16-bit D only, by the copying warp (kRowsByCopyingWarp).
  int d_rows = 0;
  OperandLoads a_load, b_load;  // what one k-iteration of a tile loads (LoadsOf)
  // 1: a tile narrower inside D than the configuration's side runs narrower wgmmas
  // (NarrowWidthOf); 0: every tile the whole width (Plan::narrow_wgmma).
  int narrow = 1;
};

}  // namespace streamk::kernels
