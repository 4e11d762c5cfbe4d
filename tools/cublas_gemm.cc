// cuBLAS baseline (see cublas_gemm.h).
#include "cublas_gemm.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "cuda_status.h"

namespace streamk::tools {
namespace {

cudaDataType_t CudaType(DType t) {
  switch (t) {
    case DType::kF16: return CUDA_R_16F;
    case DType::kBF16: return CUDA_R_16BF;
    case DType::kF32: return CUDA_R_32F;
  }
  return CUDA_R_32F;
}

absl::Status CublasStatus(cublasStatus_t s, const char* what) {
  if (s == CUBLAS_STATUS_SUCCESS) return absl::OkStatus();
  return absl::InternalError(absl::StrCat(what, ": ", cublasGetStatusName(s), " (",
                                          cublasGetStatusString(s), ")"));
}

}  // namespace

Cublas::Cublas() { status_ = CublasStatus(cublasCreate(&handle_), "cublasCreate"); }
Cublas::~Cublas() {
  if (handle_ != nullptr) cublasDestroy(handle_);
}

absl::Status Cublas::Gemm(const GemmArgs& g, cudaStream_t stream) {
  if (!status_.ok()) return status_;
  if (absl::Status s = ValidateGemmArgs(g); !s.ok()) return s;
  if (absl::Status s = CublasStatus(cublasSetStream(handle_, stream), "cublasSetStream"); !s.ok())
    return s;
  const int out_bytes = DTypeBytes(g.output);
  const bool cd_row = g.cd_layout == Layout::kRowMajor;
  if (g.beta != 0.0f && g.c != g.d) {
    // cuBLAS reads C from D's buffer: copy C there first (each batch entry, rows of `width`).
    const int64_t rows = cd_row ? g.m : g.n, width = cd_row ? g.n : g.m;
    for (int64_t b = 0; b < g.batch; ++b) {
      STREAMK_CUDA_RETURN_IF_ERROR(cudaMemcpy2DAsync(
          static_cast<char*>(g.d) + b * g.stride_d * out_bytes, g.ldd * out_bytes,
          static_cast<const char*>(g.c) + b * g.stride_c * out_bytes, g.ldc * out_bytes,
          width * out_bytes, rows, cudaMemcpyDeviceToDevice, stream));
    }
  }
  // cuBLAS is column-major. Column-major D: D = op(A) op(B) directly. Row-major D: compute the
  // column-major D^T = op(B)^T op(A)^T, i.e. swap the operands and the roles of m and n.
  const bool a_row = g.a_layout == Layout::kRowMajor, b_row = g.b_layout == Layout::kRowMajor;
  const void *first = g.a, *second = g.b;
  int64_t ld_first = g.lda, ld_second = g.ldb, stride_first = g.stride_a,
          stride_second = g.stride_b;
  cublasOperation_t op_first = a_row ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t op_second = b_row ? CUBLAS_OP_T : CUBLAS_OP_N;
  int64_t rows = g.m, cols = g.n;
  if (cd_row) {
    std::swap(first, second);
    std::swap(ld_first, ld_second);
    std::swap(stride_first, stride_second);
    op_first = b_row ? CUBLAS_OP_N : CUBLAS_OP_T;
    op_second = a_row ? CUBLAS_OP_N : CUBLAS_OP_T;
    std::swap(rows, cols);
  }
  const float beta = g.beta;
  return CublasStatus(
      cublasGemmStridedBatchedEx(
          handle_, op_first, op_second, static_cast<int>(rows), static_cast<int>(cols),
          static_cast<int>(g.k), &g.alpha, first, CudaType(g.input), static_cast<int>(ld_first),
          g.batch > 1 ? stride_first : 0, second, CudaType(g.input), static_cast<int>(ld_second),
          g.batch > 1 ? stride_second : 0, &beta, g.d, CudaType(g.output),
          static_cast<int>(g.ldd), g.batch > 1 ? g.stride_d : 0, static_cast<int>(g.batch),
          CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
      "cublasGemmStridedBatchedEx");
}

}  // namespace streamk::tools
