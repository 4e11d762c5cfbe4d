// Device helpers shared by the GPU tests and tools: a device buffer, random fill (and NaN
// poisoning), a simple reference GEMM for any layout, reading any D back as float, a kernel that
// holds SMs busy, and the relative Frobenius error. Plain C++ interface (kernels in
// device_util.cu), so callers that use Abseil stay host-only.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "streamk/types.h"

namespace streamk::tools {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes) : bytes_(bytes) {
    if (bytes > 0 && cudaMalloc(&ptr_, bytes) != cudaSuccess) ptr_ = nullptr, bytes_ = 0;
  }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), bytes_(o.bytes_) { o.ptr_ = nullptr; }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  void* get() const { return ptr_; }
  size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

// Fills `elems` elements of type `t` with uniform [-1, 1) values from `seed` (or NaN).
cudaError_t Fill(void* p, DType t, int64_t elems, uint64_t seed, bool nan = false,
                 cudaStream_t stream = nullptr);

// A matrix as the reference reads it: element (b, r, c).
struct RefView {
  const void* p;
  DType t;
  bool row_major;
  int64_t ld, stride;
};

// ref (batch x m x n, row-major float) = alpha * A * B + beta * C, summed in double.
cudaError_t ReferenceGemm(RefView a, RefView b, RefView c, float alpha, float beta, int m, int n,
                          int k, int batch, float* ref);

// out (batch x m x n, row-major float) = D.
cudaError_t Gather(RefView d, int m, int n, int batch, float* out);

// Keeps `blocks` blocks of 1024 threads spinning for `cycles` SM clock cycles on `stream`.
cudaError_t LaunchHog(int blocks, long long cycles, cudaStream_t stream);

// Holds SMs busy for as long as the caller measures something else, as a collective or another
// stream's kernel does: Hold(X) launches X blocks on `stream`, each on an SM of its own (each takes
// all the shared memory a block may have, so no block of any other kernel shares its SM), and
// returns once all X are running; they spin until Release() or until `timeout_s` pass on the GPU,
// after which gave_up() says the hold ended early (whatever ran then ran on a freer GPU, and a
// GEMM that waits for every SM does not hang). The blocks report their start in mapped host
// memory and poll their release in device memory.
class SmHolder {
 public:
  SmHolder() = default;
  ~SmHolder();
  SmHolder(const SmHolder&) = delete;
  SmHolder& operator=(const SmHolder&) = delete;
  static constexpr int kMaxHeld = 1024;  // SMs one holder can hold
  cudaError_t Hold(int sms, double timeout_s, cudaStream_t stream);
  cudaError_t Release();  // and waits for the blocks to leave
  bool gave_up() const;

 private:
  volatile int* state_ = nullptr;  // mapped: -, -, gave up, then each block's "started"
  int* release_ = nullptr;          // device memory: set to release the blocks
  cudaStream_t release_stream_ = nullptr;
  cudaStream_t stream_ = nullptr;
  int held_ = 0;
};

// ||got - want|| / ||want|| (Frobenius). `floor`: the smallest magnitude per element the
// denominator counts with (a floor on ||want||^2 of floor^2 * elements), for outputs whose type
// cannot hold tiny values to full relative precision.
inline double RelativeFrobenius(const std::vector<float>& got, const std::vector<float>& want,
                                double floor = 0) {
  double num = 0, den = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double d = double(got[i]) - want[i];
    num += d * d;  // NaN propagates: a NaN anywhere fails the comparison
    den += double(want[i]) * want[i];
  }
  return std::sqrt(num / std::max({den, floor * floor * static_cast<double>(got.size()), 1e-30}));
}

}  // namespace streamk::tools
