// cuBLAS as the baseline: the same GemmArgs (any layouts, batch, dtypes) run through
// cublasGemmStridedBatchedEx with fp32 compute. Used by streamk-demo and streamk-bench to check
// results and to compare speed. cuBLAS writes D in place of C, so when C is a different buffer
// and beta != 0, C is first copied into D.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "absl/status/status.h"
#include "streamk/streamk.h"

namespace streamk::tools {

// A cuBLAS handle owned for the life of the object; bound to `stream` on each call.
class Cublas {
 public:
  Cublas();
  ~Cublas();
  Cublas(const Cublas&) = delete;
  Cublas& operator=(const Cublas&) = delete;
  absl::Status status() const { return status_; }
  absl::Status Gemm(const GemmArgs& args, cudaStream_t stream);
  // The handle, for calls this class does not wrap (moe_bench.cc's grouped call).
  cublasHandle_t handle() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
  absl::Status status_;
};

}  // namespace streamk::tools
