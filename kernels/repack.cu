// Operand repacking (Plan::repack_a, repack_b): copies a K-major operand whose rows start at odd
// multiples of 16 bytes into rows a multiple of 128 bytes apart, so that the GEMM's TMA loads
// read aligned rows. A plain streaming copy, bound by memory bandwidth.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "launch.h"

namespace streamk::kernels {
namespace {

constexpr int kRepackThreads = 256;

// Row r of the copy (r = entry * rows + row) is row `row` of entry `entry`; each block copies
// rows blockIdx.x, blockIdx.x + gridDim.x, ... in 16-byte chunks, the last chunk element by
// element when k is not a multiple of 8 (the source row may end right there).
__global__ void __launch_bounds__(kRepackThreads)
    RepackRowsKernel(const uint16_t* __restrict__ src, int64_t src_ld, int64_t src_stride,
                     int64_t rows, int64_t k, int64_t total_rows, uint16_t* __restrict__ dst,
                     int64_t dst_ld) {
  const int64_t whole = k / 8;  // whole 16-byte chunks per row
  const int tail = static_cast<int>(k % 8);
  for (int64_t r = blockIdx.x; r < total_rows; r += gridDim.x) {
    const int64_t entry = r / rows, row = r - entry * rows;
    const uint16_t* in = src + entry * src_stride + row * src_ld;
    uint16_t* out = dst + r * dst_ld;
    const uint4* in4 = reinterpret_cast<const uint4*>(in);
    uint4* out4 = reinterpret_cast<uint4*>(out);
    for (int64_t c = threadIdx.x; c < whole; c += blockDim.x) out4[c] = __ldg(in4 + c);
    if (threadIdx.x < tail) out[whole * 8 + threadIdx.x] = in[whole * 8 + threadIdx.x];
  }
}

}  // namespace

cudaError_t LaunchRepackRows(const void* src, int64_t src_ld, int64_t src_stride, int64_t rows,
                             int64_t k, int64_t entries, void* dst, int64_t dst_ld, int sms,
                             cudaStream_t stream) {
  const int64_t total_rows = rows * entries;
  if (total_rows < 1 || k < 1) return cudaSuccess;
  // Enough rows in flight to cover the memory latency: 16 blocks per SM, or one per row.
  const int64_t blocks = std::min<int64_t>(total_rows, int64_t{std::max(sms, 1)} * 16);
  RepackRowsKernel<<<static_cast<unsigned>(blocks), kRepackThreads, 0, stream>>>(
      static_cast<const uint16_t*>(src), src_ld, src_stride, rows, k, total_rows,
      static_cast<uint16_t*>(dst), dst_ld);
  return cudaGetLastError();
}

}  // namespace streamk::kernels
