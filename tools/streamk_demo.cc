// streamk-demo: the README's main job on a GPU. Runs one M x N x K fp16 GEMM (row-major A,
// column-major B, row-major D) through streamk::gemm() in auto mode, checks it against cuBLAS,
// and prints the plan, the time, TFLOP/s and the error next to data-parallel and cuBLAS.
//
//   streamk-demo 4096 4096 4096
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "cublas_gemm.h"
#include "flag_names.h"
#include "gpu_timer.h"
#include "streamk/plan_print.h"
#include "streamk/planner.h"
#include "streamk/streamk.h"

ABSL_FLAG(double, tolerance, 2e-3, "largest relative Frobenius error against cuBLAS that passes");

namespace {

int Fail(const std::string& what) {
  std::fprintf(stderr, "streamk-demo: %s\n", what.c_str());
  return 1;
}

double RelativeError(const std::vector<__half>& got, const std::vector<__half>& want) {
  double num = 0, den = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double g = __half2float(got[i]), w = __half2float(want[i]);
    num += (g - w) * (g - w);
    den += w * w;
  }
  return std::sqrt(num / std::max(den, 1e-30));
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "streamk-demo [M N K | MxNxK]: run and check one fp16 GEMM on the GPU (default 4096^3)");
  std::vector<char*> args = streamk::tools::ParseToolCommandLine(argc, argv);
  const std::vector<std::string> sizes = streamk::tools::SizeArguments(args);
  int64_t m = 4096, n = 4096, k = 4096;
  if (!sizes.empty() && !(sizes.size() == 3 && absl::SimpleAtoi(sizes[0], &m) &&
                          absl::SimpleAtoi(sizes[1], &n) && absl::SimpleAtoi(sizes[2], &k)))
    return Fail("expected M N K (or MxNxK) as integers, or nothing for 4096 4096 4096");
  if (m < 1 || n < 1 || k < 1) return Fail("M, N and K must be >= 1");
  absl::StatusOr<streamk::DeviceSpec> device = streamk::QueryLocalDevice();
  if (!device.ok()) {
    // scripts/run.sh prints the plan on the built-in H200 model before this.
    std::printf("streamk-demo: %s; nothing to run (streamk-plan M N K prints the plan)\n",
                std::string(device.status().message()).c_str());
    return 0;
  }

  streamk::GemmArgs g;
  g.m = m, g.n = n, g.k = k;
  g.a_layout = streamk::Layout::kRowMajor, g.lda = (k + 7) / 8 * 8;
  g.b_layout = streamk::Layout::kColMajor, g.ldb = (k + 7) / 8 * 8;
  g.cd_layout = streamk::Layout::kRowMajor, g.ldd = g.ldc = (n + 7) / 8 * 8;

  // Inputs: uniform [-1, 1) fp16 from a fixed seed.
  std::mt19937 rng(2026);
  std::uniform_real_distribution<float> uni(-1.f, 1.f);
  std::vector<__half> ha(g.lda * m), hb(g.ldb * n);
  for (auto& x : ha) x = __float2half(uni(rng));
  for (auto& x : hb) x = __float2half(uni(rng));
  const size_t d_bytes = g.ldd * m * sizeof(__half);
  void *da = nullptr, *db = nullptr, *dd = nullptr, *dref = nullptr;
  if (cudaMalloc(&da, ha.size() * 2) != cudaSuccess ||
      cudaMalloc(&db, hb.size() * 2) != cudaSuccess || cudaMalloc(&dd, d_bytes) != cudaSuccess ||
      cudaMalloc(&dref, d_bytes) != cudaSuccess)
    return Fail("cudaMalloc failed");
  cudaMemcpy(da, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice);
  cudaMemset(dd, 0xff, d_bytes);  // NaN: every element must be written
  g.a = da, g.b = db, g.d = dd, g.c = nullptr;

  // The plan gemm() will run for these arguments (their layouts, leading dimensions and
  // addresses included), with the planner's reasoning.
  streamk::PlanExplanation why;
  absl::StatusOr<streamk::Plan> plan = streamk::PlanGemm(g, *device, {}, &why);
  if (!plan.ok()) return Fail(std::string(plan.status().message()));
  std::printf("\n== plan on this GPU ==\n%s",
              streamk::FormatPlan(*plan, &why, device->name).c_str());

  // Correctness: streamk auto against cuBLAS.
  streamk::tools::Cublas cublas;
  if (!cublas.status().ok()) return Fail(std::string(cublas.status().message()));
  if (absl::Status s = streamk::gemm(g); !s.ok()) return Fail(std::string(s.message()));
  streamk::GemmArgs ref = g;
  ref.d = dref;
  if (absl::Status s = cublas.Gemm(ref, nullptr); !s.ok()) return Fail(std::string(s.message()));
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess)
    return Fail(absl::StrCat("GEMM failed: ", cudaGetErrorName(e)));
  std::vector<__half> got(g.ldd * m), want(g.ldd * m);
  cudaMemcpy(got.data(), dd, d_bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(want.data(), dref, d_bytes, cudaMemcpyDeviceToHost);
  const double err = RelativeError(got, want);

  // Speed: auto, data-parallel and cuBLAS in the same run.
  const double flop = 2.0 * m * n * k;
  std::printf("\n== %lld x %lld x %lld fp16, row-major A, column-major B, row-major D ==\n",
              static_cast<long long>(m), static_cast<long long>(n), static_cast<long long>(k));
  std::printf("%-10s %10s %10s %10s\n", "run", "time_us", "TFLOP/s", "vs_cublas");
  streamk::Options dp;
  dp.mode = streamk::Mode::kDataParallel;
  const char* names[] = {"cublas", "auto", "dp"};
  const std::vector<std::function<absl::Status(int)>> runs = {
      [&](int) { return cublas.Gemm(ref, nullptr); },
      [&](int) { return streamk::gemm(g); },
      [&](int) { return streamk::gemm(g, nullptr, dp); },
  };
  absl::StatusOr<std::vector<streamk::tools::Timing>> t =
      streamk::tools::TimeInterleaved(runs, nullptr);
  if (!t.ok()) return Fail(std::string(t.status().message()));
  for (size_t i = 0; i < runs.size(); ++i) {
    const double ms = (*t)[i].median_ms;
    std::printf("%-10s %10.1f %10.1f %10.3f\n", names[i], ms * 1e3, flop / (ms * 1e-3) / 1e12,
                (*t)[0].median_ms / ms);
  }
  const double auto_us = (*t)[1].median_ms * 1e3;
  std::printf("\nauto ran in %.1f us; the planner predicted %.1f us (measured / predicted %.2f)\n",
              auto_us, why.predicted_us, auto_us / why.predicted_us);
  std::printf("relative Frobenius error of auto vs cuBLAS: %.3g (%s, tolerance %.1g)\n", err,
              err < absl::GetFlag(FLAGS_tolerance) ? "ok" : "FAILED",
              absl::GetFlag(FLAGS_tolerance));
  cudaFree(da), cudaFree(db), cudaFree(dd), cudaFree(dref);
  return err < absl::GetFlag(FLAGS_tolerance) ? 0 : 1;
}
