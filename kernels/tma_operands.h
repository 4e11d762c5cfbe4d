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

namespace streamk::kernels {

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
};

}  // namespace streamk::kernels
