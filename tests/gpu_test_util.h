// Helpers for the GPU tests: skipping without a GPU, asserting CUDA calls, and the device
// helpers of tools/device_util.h (buffers, random fill, reference GEMM, ...) under testing::.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "device_util.h"
#include "streamk/types.h"

namespace streamk::testing {

inline bool HaveGpu(std::string* why) {
  int n = 0;
  const cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess || n == 0) {
    *why = err != cudaSuccess ? cudaGetErrorName(err) : "0 devices";
    cudaGetLastError();
    return false;
  }
  return true;
}

#define STREAMK_SKIP_WITHOUT_GPU()                                          \
  do {                                                                      \
    std::string _why;                                                       \
    if (!::streamk::testing::HaveGpu(&_why))                                \
      GTEST_SKIP() << "no CUDA device (" << _why << "): GPU test skipped";  \
  } while (0)

#define CUDA_ASSERT(expr)                                          \
  do {                                                             \
    const cudaError_t _e = (expr);                                 \
    ASSERT_EQ(_e, cudaSuccess) << #expr << ": " << cudaGetErrorName(_e); \
  } while (0)

using tools::DeviceBuffer;
using tools::Fill;
using tools::Gather;
using tools::LaunchHog;
using tools::ReferenceGemm;
using tools::RefView;
using tools::RelativeFrobenius;

}  // namespace streamk::testing
