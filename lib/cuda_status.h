// CUDA errors as absl::Status: the CUDA error name, what was being done, file and line.
#pragma once

#include <cuda_runtime.h>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace streamk {

inline absl::Status CudaStatus(cudaError_t err, const char* what, const char* file, int line) {
  if (err == cudaSuccess) return absl::OkStatus();
  return absl::InternalError(absl::StrCat(what, ": ", cudaGetErrorName(err), " (",
                                          cudaGetErrorString(err), ") at ", file, ":", line));
}

}  // namespace streamk

#define STREAMK_CUDA_RETURN_IF_ERROR(expr)                                              \
  do {                                                                                 \
    if (absl::Status _s = ::streamk::CudaStatus((expr), #expr, __FILE__, __LINE__);    \
        !_s.ok())                                                                      \
      return _s;                                                                       \
  } while (0)
