// The TMA descriptors of one GEMM's A and B operands (CUtensorMap, built on the host by
// EncodeTmaOperands in launch.h, passed to the kernel as a __grid_constant__ parameter) and how
// the kernel addresses them. Each operand is a 3-d tensor, innermost dimension first:
//   k-contiguous (A row-major, B column-major): {k, m or n, batch}, box {32, 128, 1}, 64-byte
//     swizzle: one box is one 128 x 32 operand tile in the layout MainloopSm90 documents;
//   m/n-contiguous (A column-major, B row-major): {m or n, k, batch}, box {64, 32, 1}, 128-byte
//     swizzle: one box is one 64-wide half of the tile; two boxes 4096 bytes apart make the tile.
// Elements outside the tensor (m, n or k tails) are filled with zeros by the TMA unit.
// D, where the epilogue stores it by TMA (d_store: 16-bit D with rows of n elements a multiple of
// 16 bytes; launch.cu), is a {n, m, batch} tensor, box {64, 128, 1}, 128-byte swizzle
// (Epilogue::RunTma); stores outside it are clipped. With beta != 0 the epilogue then loads C the
// same way (c_load), zero-filled outside.
#pragma once

#include <cuda.h>

#include <cstdint>

namespace streamk::kernels {

// What the producer loads of one operand per k-iteration. Where the operand's m (or n) extent is
// smaller than the tile's side, it loads only the part that holds the extent: a k-contiguous box
// of as many rows as the extent (rounded up to the 8 rows of one swizzle atom), or as many 64-wide
// boxes of an m/n-contiguous operand as the extent needs. The TMA unit fills the rows of a box
// past the tensor with zeros at about the cost of loading them: decode projections (n = 16 of a
// 128-wide tile) spent most of each k-iteration writing zeros. The stage's remaining rows keep
// stale values, which only reach accumulator rows or columns past m or n: the epilogue never
// stores those, and no other entry depends on them.
struct OperandLoad {
  int box_rows;  // k-contiguous: rows per box (<= tile_mn); m/n-contiguous: 64 (one box's width)
  int boxes;     // boxes per k-iteration: 1 (k-contiguous) or 1 .. tile_mn / 64
  uint32_t bytes;  // bytes per k-iteration (2-byte elements)
};
constexpr OperandLoad LoadOf(bool mn_contiguous, int64_t mn, int tile_mn, int tile_k) {
  if (mn_contiguous) {
    const int64_t needed = (mn + 63) / 64;
    const int boxes = needed < tile_mn / 64 ? static_cast<int>(needed) : tile_mn / 64;
    return {64, boxes, static_cast<uint32_t>(boxes * 64 * tile_k * 2)};
  }
  const int64_t rounded = (mn + 7) / 8 * 8;
  const int rows = rounded < tile_mn ? static_cast<int>(rounded) : tile_mn;
  return {rows, 1, static_cast<uint32_t>(rows * tile_k * 2)};
}

struct TmaOperands {
  CUtensorMap a;  // 64-byte aligned (CUtensorMap's own alignment)
  CUtensorMap b;
  // 1 when the operand's batch stride is 0 (every batch entry reads the same matrix): its tensor
  // has one batch entry and the kernel reads entry 0.
  int a_broadcast = 0;
  int b_broadcast = 0;
  CUtensorMap d;    // valid where d_store
  CUtensorMap c;    // valid where c_load
  int d_store = 0;  // 1: the epilogue writes D through `d`
  int c_load = 0;   // 1: ... and reads C through `c` (beta != 0)
  // The operand loads of one k-iteration (LoadOf): the m/n-contiguous boxes of A and B (1 for a
  // k-contiguous operand) and the bytes the stage's "full" barrier expects.
  int a_boxes = 1;
  int b_boxes = 1;
  uint32_t stage_bytes = 0;
};

}  // namespace streamk::kernels
