// Kernels behind device_util.h.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "device_util.h"

namespace streamk::tools {
namespace {

__device__ float HashUniform(uint64_t seed, uint64_t i) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + i * 0xBF58476D1CE4E5B9ull + 0x94D049BB133111EBull;
  x ^= x >> 31;
  x *= 0xD6E8CD5A6F54A7E9ull;
  x ^= x >> 29;
  return static_cast<float>(x >> 40) / static_cast<float>(1ull << 24) * 2.0f - 1.0f;  // [-1, 1)
}

__device__ void StoreAs(DType t, void* p, int64_t i, float v) {
  switch (t) {
    case DType::kF16: static_cast<__half*>(p)[i] = __float2half_rn(v); break;
    case DType::kBF16: static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v); break;
    case DType::kF32: static_cast<float*>(p)[i] = v; break;
  }
}

__global__ void FillKernel(void* p, DType t, int64_t n, uint64_t seed, bool nan) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x)
    StoreAs(t, p, i, nan ? __int_as_float(0x7fc00000) : HashUniform(seed, i));
}

__device__ float LoadAny(const RefView& v, int64_t b, int64_t r, int64_t c) {
  const int64_t i = b * v.stride + (v.row_major ? r * v.ld + c : r + c * v.ld);
  switch (v.t) {
    case DType::kF16: return __half2float(static_cast<const __half*>(v.p)[i]);
    case DType::kBF16: return __bfloat162float(static_cast<const __nv_bfloat16*>(v.p)[i]);
    default: return static_cast<const float*>(v.p)[i];
  }
}

__global__ void ReferenceGemmKernel(RefView a, RefView b, RefView c, float alpha, float beta,
                                    int m, int n, int k, float* ref) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y, batch = blockIdx.z;
  if (j >= n) return;
  double sum = 0;
  for (int kk = 0; kk < k; ++kk) sum += double(LoadAny(a, batch, i, kk)) * LoadAny(b, batch, kk, j);
  double v = alpha * sum;
  if (beta != 0.0f) v += double(beta) * LoadAny(c, batch, i, j);
  ref[(int64_t{batch} * m + i) * n + j] = static_cast<float>(v);
}

__global__ void GatherKernel(RefView d, int m, int n, float* out) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y, batch = blockIdx.z;
  if (j < n) out[(int64_t{batch} * m + i) * n + j] = LoadAny(d, batch, i, j);
}

__global__ void HogKernel(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

}  // namespace

cudaError_t Fill(void* p, DType t, int64_t elems, uint64_t seed, bool nan, cudaStream_t stream) {
  if (elems == 0) return cudaSuccess;
  const int blocks = static_cast<int>(std::min<int64_t>((elems + 255) / 256, 4096));
  FillKernel<<<blocks, 256, 0, stream>>>(p, t, elems, seed, nan);
  return cudaGetLastError();
}

cudaError_t ReferenceGemm(RefView a, RefView b, RefView c, float alpha, float beta, int m, int n,
                          int k, int batch, float* ref) {
  ReferenceGemmKernel<<<dim3((n + 127) / 128, m, batch), 128>>>(a, b, c, alpha, beta, m, n, k,
                                                                 ref);
  return cudaGetLastError();
}

cudaError_t Gather(RefView d, int m, int n, int batch, float* out) {
  GatherKernel<<<dim3((n + 127) / 128, m, batch), 128>>>(d, m, n, out);
  return cudaGetLastError();
}

cudaError_t LaunchHog(int blocks, long long cycles, cudaStream_t stream) {
  HogKernel<<<blocks, 1024, 0, stream>>>(cycles);
  return cudaGetLastError();
}

}  // namespace streamk::tools
