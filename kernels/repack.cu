// Operand copies before the GEMM (Plan::repack_a, repack_b), into K-major rows a multiple of 128
// bytes apart, so that the GEMM's TMA loads read aligned rows:
//   - a K-major operand row by row: one whose rows start at odd multiples of 16 bytes (16-byte
//     loads), or one not 16-byte aligned at all (2-byte loads);
//   - an mn-major operand that is not 16-byte aligned, transposed through shared memory.
// Plain streaming copies, bound by memory bandwidth, both operands' in one launch.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "grid_dependency.cuh"
#include "launch.h"

namespace streamk::kernels {
namespace {

constexpr int kRepackThreads = 256;

// What a block of CopyKernel does for one OperandCopy.
enum class CopyKind { kRowsVectors, kRowsElements, kTranspose };

struct CopyJob {
  OperandCopy copy;
  CopyKind kind;
  unsigned blocks;  // of the grid's, this job's
};

// Row r of the copy (r = entry * rows + row) is row `row` of entry `entry`; each of the job's
// blocks copies rows block, block + blocks, ... in 16-byte chunks of the copy, the last chunk
// element by element when k is not a multiple of 8 (the source row may end right there).
// kVectors: the source rows are 16-byte aligned too, and read in 16-byte vectors.
template <bool kVectors>
__device__ void CopyRows(const OperandCopy& j, unsigned block, unsigned blocks) {
  const uint16_t* src = static_cast<const uint16_t*>(j.src);
  uint16_t* dst = static_cast<uint16_t*>(j.dst);
  const int64_t whole = j.k / 8;  // whole 16-byte chunks per row
  const int tail = static_cast<int>(j.k % 8);
  const int64_t total_rows = j.rows * j.entries;
  for (int64_t r = block; r < total_rows; r += blocks) {
    const int64_t entry = r / j.rows, row = r - entry * j.rows;
    const uint16_t* in = src + entry * j.src_stride + row * j.src_ld;
    uint16_t* out = dst + r * j.dst_ld;
    uint4* out4 = reinterpret_cast<uint4*>(out);
    for (int64_t c = threadIdx.x; c < whole; c += blockDim.x) {
      if constexpr (kVectors) {
        out4[c] = __ldg(reinterpret_cast<const uint4*>(in) + c);
      } else {
        alignas(16) uint16_t v[8];
#pragma unroll
        for (int e = 0; e < 8; ++e) v[e] = __ldg(in + c * 8 + e);
        out4[c] = *reinterpret_cast<const uint4*>(v);
      }
    }
    if (threadIdx.x < tail) out[whole * 8 + threadIdx.x] = in[whole * 8 + threadIdx.x];
  }
}

// The transposing copy's square of kSquare x kSquare elements: a block reads kSquare k-rows of
// an mn-major source along mn (coalesced), and writes kSquare mn-rows of the copy along k.
constexpr int kSquare = 64;

__host__ __device__ int64_t Squares(const OperandCopy& j) {
  return ((j.rows + kSquare - 1) / kSquare) * ((j.k + kSquare - 1) / kSquare) * j.entries;
}

// Entry e's element (kk, i) of an mn-major source (k rows of `rows` elements, kk * src_ld + i)
// becomes element (i, kk) of the copy. Each of the job's blocks walks squares block,
// block + blocks, ... of squares_k x squares_i per entry. A thread issues all of its square's
// loads before it stores any of them: a loop that stored each load before it issued the next
// one waited out the memory's latency once per load, 16 times a square (a narrow operand's copy
// of a few KB took 10-13 us on an H200).
__device__ void Transpose(const OperandCopy& j, unsigned block, unsigned blocks,
                          uint16_t (*square)[kSquare + 2]) {
  constexpr int kPerThread = kSquare * kSquare / kRepackThreads;
  static_assert(kSquare * kSquare % kRepackThreads == 0 && kRepackThreads % kSquare == 0);
  const uint16_t* src = static_cast<const uint16_t*>(j.src);
  uint16_t* dst = static_cast<uint16_t*>(j.dst);
  const int64_t squares_i = (j.rows + kSquare - 1) / kSquare;
  const int64_t squares_k = (j.k + kSquare - 1) / kSquare;
  const int64_t total = Squares(j);
  // Thread t covers column t % kSquare of rows t / kSquare + n * kRows of the square, n <
  // kPerThread: along mn when it reads, along k when it writes.
  constexpr int kRows = kRepackThreads / kSquare;
  const int col = static_cast<int>(threadIdx.x) % kSquare;
  const int row0 = static_cast<int>(threadIdx.x) / kSquare;
  for (int64_t sq = block; sq < total; sq += blocks) {
    const int64_t entry = sq / (squares_i * squares_k);
    const int64_t rest = sq - entry * squares_i * squares_k;
    const int64_t k0 = (rest / squares_i) * kSquare, i0 = (rest % squares_i) * kSquare;
    const uint16_t* in = src + entry * j.src_stride;
    uint16_t v[kPerThread];
    const bool col_in = i0 + col < j.rows;  // element col along mn
#pragma unroll
    for (int n = 0; n < kPerThread; ++n) {
      const int r = row0 + n * kRows;  // k-row r of the square
      v[n] = col_in && k0 + r < j.k ? __ldg(in + (k0 + r) * j.src_ld + i0 + col) : uint16_t{0};
    }
#pragma unroll
    for (int n = 0; n < kPerThread; ++n) square[row0 + n * kRows][col] = v[n];
    __syncthreads();
    uint16_t* out = dst + entry * j.rows * j.dst_ld;
    const bool k_in = k0 + col < j.k;  // element col along k
#pragma unroll
    for (int n = 0; n < kPerThread; ++n) {
      const int r = row0 + n * kRows;  // mn-row r of the copy
      if (k_in && i0 + r < j.rows) out[(i0 + r) * j.dst_ld + k0 + col] = square[col][r];
    }
    __syncthreads();
  }
}

// Both operands' copies in one launch (a launch costs the host 4-5 us):
// blocks [0, a.blocks) copy a, the rest b. Every thread of a block takes the same branch.
// Launched programmatically (LaunchOperandCopies), it may start before the kernel before it on the
// stream ends, and it lets the GEMM after it start at once: that GEMM's blocks set up while the
// copy runs, and wait for it to end before they read anything (grid_dependency.cuh).
__global__ void __launch_bounds__(kRepackThreads) CopyKernel(CopyJob a, CopyJob b) {
  LaunchDependents();
  GridDependencyWait();  // the operand may be the previous kernel's output
  // One more column than the square (an odd count of 2-byte words per row) keeps the column
  // reads of the transpose's second phase on different banks.
  __shared__ uint16_t square[kSquare][kSquare + 2];
  const bool first = blockIdx.x < a.blocks;
  // Field by field: a reference to either parameter made the compiler copy both to the stack
  // and reload every field from there in the loops (the copies ran 1.2-3.6x slower on an H200).
  OperandCopy j;
  j.src = first ? a.copy.src : b.copy.src;
  j.src_ld = first ? a.copy.src_ld : b.copy.src_ld;
  j.src_stride = first ? a.copy.src_stride : b.copy.src_stride;
  j.rows = first ? a.copy.rows : b.copy.rows;
  j.k = first ? a.copy.k : b.copy.k;
  j.entries = first ? a.copy.entries : b.copy.entries;
  j.dst = first ? a.copy.dst : b.copy.dst;
  j.dst_ld = first ? a.copy.dst_ld : b.copy.dst_ld;
  const CopyKind kind = first ? a.kind : b.kind;
  const unsigned blocks = first ? a.blocks : b.blocks;
  const unsigned block = first ? blockIdx.x : blockIdx.x - a.blocks;
  switch (kind) {
    case CopyKind::kRowsVectors: CopyRows<true>(j, block, blocks); break;
    case CopyKind::kRowsElements: CopyRows<false>(j, block, blocks); break;
    case CopyKind::kTranspose: Transpose(j, block, blocks, square); break;
  }
}

CopyJob JobOf(const OperandCopy& c, int sms) {
  CopyJob j{c, CopyKind::kTranspose, 0};
  int64_t work = 0;  // rows or squares
  if (c.mn_major) {
    work = Squares(c);
  } else {
    const bool vectors = reinterpret_cast<uintptr_t>(c.src) % 16 == 0 && c.src_ld % 8 == 0 &&
                         c.src_stride % 8 == 0;
    j.kind = vectors ? CopyKind::kRowsVectors : CopyKind::kRowsElements;
    work = c.rows * c.entries;
  }
  if (c.rows < 1 || c.k < 1 || c.entries < 1) work = 0;
  // Enough blocks in flight to cover the memory latency: 16 per SM, or one per piece of work.
  j.blocks = static_cast<unsigned>(std::min<int64_t>(work, int64_t{std::max(sms, 1)} * 16));
  return j;
}

}  // namespace

cudaError_t LaunchOperandCopies(const OperandCopy* copies, int count, int sms, bool programmatic,
                                cudaStream_t stream) {
  if (count < 1) return cudaSuccess;
  const CopyJob a = JobOf(copies[0], sms);
  CopyJob b{};
  if (count > 1) b = JobOf(copies[1], sms);
  const unsigned blocks = a.blocks + b.blocks;
  if (blocks == 0) return cudaSuccess;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(kRepackThreads);
  config.stream = stream;
  cudaLaunchAttribute attr[1];
  if (programmatic) {
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    config.attrs = attr;
    config.numAttrs = 1;
  }
  return cudaLaunchKernelEx(&config, CopyKernel, a, b);
}

}  // namespace streamk::kernels
