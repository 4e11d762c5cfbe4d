// streamk from another project: plan a 4096 x 4096 x 4096 fp16 GEMM, print what the planner
// decided and why, and, where a GPU is present, run it in auto mode and in a forced Stream-K
// mode and check that both give the same D.
//
// Without a GPU it prints the plan for the built-in H200 model and says there is no GPU.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <vector>

#include "streamk/plan_print.h"
#include "streamk/streamk.h"
#include "streamk/version.h"

namespace {

// fp16 bits of small integers k / 8, exact in fp16 and in the fp32 accumulator.
uint16_t Half(int eighths) {
  if (eighths == 0) return 0;
  const uint16_t sign = eighths < 0 ? 0x8000 : 0;
  int v = eighths < 0 ? -eighths : eighths, exp = 15 - 3;  // v / 8 = v * 2^-3
  while (v >= 2048) v >>= 1, ++exp;
  while (v < 1024) v <<= 1, --exp;
  return static_cast<uint16_t>(sign | (exp << 10) | (v & 0x3ff));
}

}  // namespace

int main() {
  std::printf("streamk %s\n", streamk::kVersionString);
  const int64_t m = 4096, n = 4096, k = 4096;

  streamk::GemmArgs args;                // D = alpha * A * B + beta * C
  args.m = m, args.n = n, args.k = k;
  args.input = streamk::DType::kF16;     // A, B: fp16 or bf16
  args.output = streamk::DType::kF16;    // C, D: fp16, bf16 or fp32 (fp32 accumulation)
  args.a_layout = streamk::Layout::kRowMajor, args.lda = k;
  args.b_layout = streamk::Layout::kColMajor, args.ldb = k;
  args.cd_layout = streamk::Layout::kRowMajor, args.ldd = n;

  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();
    // Planning reads no memory: any aligned pointers do.
    args.a = args.b = args.d = reinterpret_cast<void*>(uintptr_t{1} << 16);
    absl::StatusOr<streamk::DeviceSpec> h200 = streamk::DeviceSpecByName("h200");
    streamk::PlanExplanation why;
    absl::StatusOr<streamk::Plan> plan = streamk::PlanGemm(args, *h200, {}, &why);
    if (!plan.ok()) {
      std::cerr << "plan: " << plan.status() << "\n";
      return 1;
    }
    std::cout << streamk::FormatPlan(*plan, &why, h200->name);
    std::cout << "no CUDA device: printed the plan for the built-in " << h200->name
              << " model; a GPU would also run it\n";
    return 0;
  }

  std::vector<uint16_t> a(m * k), b(k * n);
  for (int64_t i = 0; i < m * k; ++i) a[i] = Half(static_cast<int>(i % 7) - 3);
  for (int64_t i = 0; i < k * n; ++i) b[i] = Half(static_cast<int>(i % 5) - 2);
  void *dA = nullptr, *dB = nullptr, *dD = nullptr, *dD2 = nullptr;
  cudaMalloc(&dA, a.size() * 2), cudaMalloc(&dB, b.size() * 2);
  cudaMalloc(&dD, m * n * 2), cudaMalloc(&dD2, m * n * 2);
  cudaMemcpy(dA, a.data(), a.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, b.data(), b.size() * 2, cudaMemcpyHostToDevice);
  args.a = dA, args.b = dB, args.d = dD;

  cudaStream_t stream = nullptr;
  cudaStreamCreate(&stream);
  absl::Status s = streamk::gemm(args, stream);  // auto: the planner decides; no host sync
  if (!s.ok()) {
    std::cerr << "gemm: " << s << "\n";
    return 1;
  }
  streamk::PlanExplanation why;
  absl::StatusOr<streamk::Plan> plan = streamk::PlanGemm(args, {}, &why);  // what it ran
  std::cout << streamk::FormatPlan(*plan, &why);

  streamk::Options o;                    // or take control
  o.mode = streamk::Mode::kStreamK;      // kAuto | kDataParallel | kSplitK | kStreamK
  o.reduction = streamk::Reduction::kAtomic;
  args.d = dD2;
  s = streamk::gemm(args, stream, o);
  if (!s.ok()) {
    std::cerr << "gemm (stream-k): " << s << "\n";
    return 1;
  }
  std::vector<uint16_t> d(m * n), d2(m * n);
  cudaMemcpyAsync(d.data(), dD, d.size() * 2, cudaMemcpyDeviceToHost, stream);
  cudaMemcpyAsync(d2.data(), dD2, d2.size() * 2, cudaMemcpyDeviceToHost, stream);
  if (cudaStreamSynchronize(stream) != cudaSuccess) {
    std::cerr << "CUDA error: " << cudaGetErrorString(cudaGetLastError()) << "\n";
    return 1;
  }
  // Every product is a multiple of 1/64 and every sum (at most 384 in magnitude) is exact in
  // fp32, whatever the order: both decompositions round the same sums to the same fp16 bits.
  int64_t differ = 0;
  for (int64_t i = 0; i < m * n; ++i) differ += d[i] != d2[i];
  std::cout << "auto and stream-k (atomic) differ in " << differ << " of " << m * n
            << " elements\n";
  cudaFree(dA), cudaFree(dB), cudaFree(dD), cudaFree(dD2);
  cudaStreamDestroy(stream);
  return differ == 0 ? 0 : 1;
}
