// Kernels behind device_util.h.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "device_util.h"

#include <algorithm>
#include <chrono>

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

// Rows go along the grid's y dimension (at most kMaxGridRows blocks; each takes every
// gridDim.y-th row), columns along x.
constexpr int kMaxGridRows = 65535;

__global__ void ReferenceGemmKernel(RefView a, RefView b, RefView c, float alpha, float beta,
                                    int m, int n, int k, float* ref) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int batch = blockIdx.z;
  if (j >= n) return;
  for (int i = blockIdx.y; i < m; i += gridDim.y) {
    double sum = 0;
    for (int kk = 0; kk < k; ++kk)
      sum += double(LoadAny(a, batch, i, kk)) * LoadAny(b, batch, kk, j);
    double v = alpha * sum;
    if (beta != 0.0f) v += double(beta) * LoadAny(c, batch, i, j);
    ref[(int64_t{batch} * m + i) * n + j] = static_cast<float>(v);
  }
}

__global__ void GatherKernel(RefView d, int m, int n, float* out) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int batch = blockIdx.z;
  if (j >= n) return;
  for (int i = blockIdx.y; i < m; i += gridDim.y)
    out[(int64_t{batch} * m + i) * n + j] = LoadAny(d, batch, i, j);
}

__global__ void HogKernel(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

// One block per SM (its shared memory leaves no room for another block of any kernel): marks
// itself started, then spins until the host releases it or `timeout_ns` of the GPU's clock pass.
// It polls `release` in device memory: polling mapped host memory from 16-66 SMs slowed every
// other kernel's launches to 580-1700 us a GEMM on an H200 (the host link is the launch path).
__global__ void HoldKernel(volatile int* state, const volatile int* release, long long timeout_ns) {
  extern __shared__ char hold_smem[];
  if (threadIdx.x != 0) return;
  hold_smem[0] = 0;
  state[3 + blockIdx.x] = 1;  // state[3 + b]: block b started (one store to host memory)
  __threadfence_system();
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  while (*release == 0) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (static_cast<long long>(now - start) > timeout_ns) {
      state[2] = 1;  // state[2]: a block gave up before its release
      break;
    }
    __nanosleep(1000);
  }
}

}  // namespace

SmHolder::~SmHolder() {
  Release();
  if (state_ != nullptr) cudaFreeHost(const_cast<int*>(state_));
  cudaFree(release_);
  if (release_stream_ != nullptr) cudaStreamDestroy(release_stream_);
}

cudaError_t SmHolder::Hold(int sms, double timeout_s, cudaStream_t stream) {
  if (cudaError_t err = Release(); err != cudaSuccess) return err;
  if (sms <= 0) return cudaSuccess;
  if (state_ == nullptr) {
    void* p = nullptr;
    if (cudaError_t err = cudaHostAlloc(&p, 4 * (3 + kMaxHeld), cudaHostAllocMapped);
        err != cudaSuccess)
      return err;
    state_ = static_cast<volatile int*>(p);
    if (cudaError_t err = cudaMalloc(&release_, 4); err != cudaSuccess) return err;
    if (cudaError_t err = cudaStreamCreateWithFlags(&release_stream_, cudaStreamNonBlocking);
        err != cudaSuccess)
      return err;
  }
  if (cudaError_t err = cudaMemset(release_, 0, 4); err != cudaSuccess) return err;
  if (sms > kMaxHeld) return cudaErrorInvalidValue;
  for (int i = 0; i < 3 + kMaxHeld; ++i) state_[i] = 0;
  int device = 0, smem = 0;
  if (cudaError_t err = cudaGetDevice(&device); err != cudaSuccess) return err;
  if (cudaError_t err =
          cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
      err != cudaSuccess)
    return err;
  if (cudaError_t err =
          cudaFuncSetAttribute(HoldKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
      err != cudaSuccess)
    return err;
  int* dev_state = nullptr;
  if (cudaError_t err = cudaHostGetDevicePointer(reinterpret_cast<void**>(&dev_state),
                                                 const_cast<int*>(state_), 0);
      err != cudaSuccess)
    return err;
  HoldKernel<<<sms, 32, static_cast<size_t>(smem), stream>>>(
      dev_state, release_, static_cast<long long>(timeout_s * 1e9));
  if (cudaError_t err = cudaGetLastError(); err != cudaSuccess) return err;
  stream_ = stream;
  held_ = sms;
  // Every block on its SM before anything is timed (5 s at most: SMs another kernel holds).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  for (int b = 0; b < sms; ++b) {
    while (state_[3 + b] == 0) {
      if (state_[2] != 0 || std::chrono::steady_clock::now() > deadline)
        return cudaErrorLaunchTimeout;
    }
  }
  return cudaSuccess;
}

cudaError_t SmHolder::Release() {
  if (held_ == 0) return cudaSuccess;
  held_ = 0;
  // A copy engine writes the flag: no SM is needed, and none may be free.
  static const int kOne = 1;
  if (cudaError_t err = cudaMemcpyAsync(release_, &kOne, 4, cudaMemcpyHostToDevice,
                                        release_stream_);
      err != cudaSuccess)
    return err;
  return cudaStreamSynchronize(stream_);
}

bool SmHolder::gave_up() const { return state_ != nullptr && state_[2] != 0; }

cudaError_t Fill(void* p, DType t, int64_t elems, uint64_t seed, bool nan, cudaStream_t stream) {
  if (elems == 0) return cudaSuccess;
  const int blocks = static_cast<int>(std::min<int64_t>((elems + 255) / 256, 4096));
  FillKernel<<<blocks, 256, 0, stream>>>(p, t, elems, seed, nan);
  return cudaGetLastError();
}

cudaError_t ReferenceGemm(RefView a, RefView b, RefView c, float alpha, float beta, int m, int n,
                          int k, int batch, float* ref) {
  ReferenceGemmKernel<<<dim3((n + 127) / 128, std::min(m, kMaxGridRows), batch), 128>>>(
      a, b, c, alpha, beta, m, n, k, ref);
  return cudaGetLastError();
}

cudaError_t Gather(RefView d, int m, int n, int batch, float* out) {
  GatherKernel<<<dim3((n + 127) / 128, std::min(m, kMaxGridRows), batch), 128>>>(d, m, n, out);
  return cudaGetLastError();
}

cudaError_t LaunchHog(int blocks, long long cycles, cudaStream_t stream) {
  HogKernel<<<blocks, 1024, 0, stream>>>(cycles);
  return cudaGetLastError();
}

}  // namespace streamk::tools
