// Arguments of one GEMM launch as the kernel sees them: device pointers, leading dimensions and
// batch strides (elements), scalars and element types. The host (lib/gemm.cc) has already
// validated them and transposed the problem so that D is row-major: A is m x k (row- or
// column-major), B is k x n (row- or column-major), C and D are m x n row-major.
#pragma once

#include <cstdint>

#include "streamk/trace.h"
#include "streamk/types.h"
#include "work_mapping.h"

namespace streamk::kernels {

struct GemmKernelArgs {
  DType input = DType::kF16;   // A and B
  DType output = DType::kF16;  // C and D
  bool a_col_major = false;
  bool b_row_major = false;
  const void* a = nullptr;
  const void* b = nullptr;
  const void* c = nullptr;  // unread when beta == 0
  void* d = nullptr;
  int64_t lda = 0, ldb = 0, ldc = 0, ldd = 0;
  int64_t stride_a = 0, stride_b = 0, stride_c = 0, stride_d = 0;  // between batch entries
  float alpha = 1, beta = 0;
  // C's and D's addresses, leading dimensions and batch strides are multiples of 16 bytes: the
  // epilogue reads and writes them in 16-byte vectors (else element by element).
  bool cd_vectors = true;
  // A grouped plan (Plan::groups): the group table, one entry per tile row (mapping::GroupRow),
  // and B's matrices, `groups` of them stride_b apart. A, C and D stack the groups' rows (their
  // batch strides 0). nullptr: not grouped.
  const mapping::GroupRow* group_rows = nullptr;
  int groups = 0;
  TraceBuffer trace;  // events == nullptr: no trace (trace.h)
};

}  // namespace streamk::kernels
