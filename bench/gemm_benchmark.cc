// GEMM speed as a Google Benchmark: streamk::gemm() in each mode over a few shapes, timed with
// CUDA events (manual time), with a TFLOP/s counter. Skips every case, with the reason, when there
// is no GPU. streamk-bench (tools/) is the tool for comparisons against cuBLAS and result checks;
// this is the quick regression number.
//
//   build/bench/gemm_benchmark --benchmark_filter='GemmFp16/1536/1536/4096'
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <string>

#include "device_util.h"
#include "streamk/streamk.h"

namespace streamk {
namespace {

void BM_Gemm(benchmark::State& state, DType dtype) {
  const int64_t m = state.range(0), n = state.range(1), k = state.range(2);
  Options o;
  o.mode = static_cast<Mode>(state.range(3));
  absl::StatusOr<DeviceSpec> dev = QueryLocalDevice();
  if (!dev.ok()) {
    state.SkipWithError(("no GPU: " + std::string(dev.status().message())).c_str());
    return;
  }
  tools::DeviceBuffer a(m * k * 2), b(k * n * 2), d(m * n * 2);
  if (a.get() == nullptr || b.get() == nullptr || d.get() == nullptr) {
    state.SkipWithError("cudaMalloc failed");
    return;
  }
  tools::Fill(a.get(), dtype, m * k, 1);
  tools::Fill(b.get(), dtype, k * n, 2);
  GemmArgs g;
  g.m = m, g.n = n, g.k = k, g.input = g.output = dtype;
  g.a = a.get(), g.a_layout = Layout::kRowMajor, g.lda = k;
  g.b = b.get(), g.b_layout = Layout::kColMajor, g.ldb = k;
  g.d = d.get(), g.cd_layout = Layout::kRowMajor, g.ldd = n;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  constexpr int kInner = 5;  // launches per timed sample
  for (int i = 0; i < 3; ++i) (void)gemm(g, nullptr, o);  // warm-up: plan cache, workspace
  for (auto _ : state) {
    cudaEventRecord(start);
    absl::Status s;
    for (int i = 0; i < kInner && s.ok(); ++i) s = gemm(g, nullptr, o);
    cudaEventRecord(stop);
    if (!s.ok() || cudaEventSynchronize(stop) != cudaSuccess) {
      state.SkipWithError(s.ok() ? "kernel failed" : std::string(s.message()).c_str());
      break;
    }
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    state.SetIterationTime(ms / 1e3 / kInner);
  }
  // Shown as "TFLOP=<n>/s": a rate counter appends the "/s".
  state.counters["TFLOP"] = benchmark::Counter(2.0 * m * n * k / 1e12,
                                                 benchmark::Counter::kIsIterationInvariantRate);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
}

void Shapes(benchmark::internal::Benchmark* b) {
  for (int mode : {0, 1, 2, 3}) {  // auto, dp, splitk, streamk
    b->Args({1536, 1536, 4096, mode});  // 144 tiles: one wave and a bit
    b->Args({4096, 4096, 4096, mode});
    b->Args({128, 128, 65536, mode});   // one deep tile
    b->Args({64, 11008, 4096, mode});   // decode-time projection
  }
  b->ArgNames({"m", "n", "k", "mode"})->UseManualTime()->Unit(benchmark::kMicrosecond);
}

BENCHMARK_CAPTURE(BM_Gemm, Fp16, DType::kF16)->Apply(Shapes);
BENCHMARK_CAPTURE(BM_Gemm, Bf16, DType::kBF16)->Apply(Shapes);

}  // namespace
}  // namespace streamk
