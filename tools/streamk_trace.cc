// streamk-trace: where one GEMM's time goes, measured inside the kernel (include/streamk/trace.h).
// Runs M x N x K (row-major A, column-major B, row-major D) with the given decomposition, untraced
// to time it, then traced; prints the plan, the time, and the traced launch's breakdown: per
// block, mainloop / wait / fixup / epilogue / gaps; per kind of work, the same per piece; and a
// fit of mainloop time to a start cost plus a per-iteration cost.
//
//   streamk-trace 1536 1536 4096
//   streamk-trace 1536 1536 4096 --mode dp --csv dp.csv
//   streamk-trace 1536 1536 4096 --out_dtype fp32
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "decomposition_flags.h"
#include "device_util.h"
#include "flag_names.h"
#include "gpu_timer.h"
#include "launch.h"
#include "streamk/plan_print.h"
#include "streamk/streamk.h"
#include "streamk/trace_summary.h"

ABSL_FLAG(std::string, mode, "auto", "auto, dp, splitk or streamk");
ABSL_FLAG(int, splits, 0, "splitk: k-slices per tile (0: the planner picks)");
ABSL_FLAG(int, blocks, 0, "streamk: Stream-K blocks (0: the planner picks)");
ABSL_FLAG(std::string, schedule, "auto",
          "auto | static | dynamic: how the persistent blocks get their work (auto: from a "
          "counter where they wait on each other, but not for a separate reduction; "
          "Options::schedule)");
ABSL_FLAG(int, avail_sms, 0,
          "SMs the plan may use, the others left to other kernels (Options::avail_sms; 0: every "
          "SM of the device)");
ABSL_FLAG(std::string, sk_tiles, "",
          "streamk: the tiles that go Stream-K, a count or 'tail' (the partial wave's); the rest "
          "run data-parallel (default: all)");
ABSL_FLAG(int, reduction_slices, 0, "separate: reduction blocks per tile (0: the planner picks)");
ABSL_FLAG(std::string, tile, "",
          "kernel configuration BMxBNxBK, one of the GPU's (default: the planner's pick)");
ABSL_FLAG(std::string, repack, "auto",
          "copy operands with misaligned K-major rows to aligned rows first: auto (the planner "
          "decides), on, off, a or b (A's or B's rows only)");
ABSL_FLAG(std::string, reduction, "", "deterministic, atomic or separate (empty: the planner's)");
ABSL_FLAG(std::string, dtype, "fp16", "fp16 or bf16 inputs (and output, by default)");
ABSL_FLAG(std::string, out_dtype, "", "output dtype: fp16 | bf16 | fp32 (default: the input's)");
ABSL_FLAG(double, beta, 0,
          "D = A B + beta C, with C the same buffer as D (random values before the checked run; "
          "the timed runs accumulate into it)");
ABSL_FLAG(int64_t, ldd, 0,
          "D's (and C's) leading dimension, row-major, at least N (0: N rounded up to 8); an "
          "odd one makes D's rows unaligned, as a packed M x N tensor's are");
ABSL_FLAG(int, traces, 5, "traced launches; the one with the median span is reported");
ABSL_FLAG(std::string, csv, "", "write the reported launch's pieces to this CSV file");

namespace {

constexpr int kEventsPerBlock = 128;

int Fail(const std::string& what) {
  std::fprintf(stderr, "streamk-trace: %s\n", what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "streamk-trace M N K (or MxNxK) [--mode ...]: where one GEMM's time goes, measured in "
      "the kernel");
  std::vector<char*> args = streamk::tools::ParseToolCommandLine(argc, argv);
  const std::vector<std::string> sizes = streamk::tools::SizeArguments(args);
  int64_t m = 0, n = 0, k = 0;
  if (sizes.size() != 3 || !absl::SimpleAtoi(sizes[0], &m) || !absl::SimpleAtoi(sizes[1], &n) ||
      !absl::SimpleAtoi(sizes[2], &k))
    return Fail("expected M N K (or MxNxK) as integers");

  streamk::Options options;
  if (absl::Status s = streamk::tools::SetDecomposition(
          {absl::GetFlag(FLAGS_mode), absl::GetFlag(FLAGS_splits), absl::GetFlag(FLAGS_blocks),
           absl::GetFlag(FLAGS_sk_tiles), absl::GetFlag(FLAGS_reduction),
           absl::GetFlag(FLAGS_reduction_slices), absl::GetFlag(FLAGS_tile),
           absl::GetFlag(FLAGS_repack), absl::GetFlag(FLAGS_schedule),
           absl::GetFlag(FLAGS_avail_sms)},
          &options);
      !s.ok())
    return Fail(std::string(s.message()));
  if (absl::Status s = streamk::tools::SetKernelChoices(
          streamk::tools::KernelFlagsFromCommandLine(), &options);
      !s.ok())
    return Fail(std::string(s.message()));
  const std::optional<streamk::DType> dtype = streamk::ParseDType(absl::GetFlag(FLAGS_dtype));
  if (!dtype || *dtype == streamk::DType::kF32) return Fail("--dtype: expected fp16 or bf16");
  const std::string out_name = absl::GetFlag(FLAGS_out_dtype);
  const std::optional<streamk::DType> out_dtype =
      out_name.empty() ? dtype : streamk::ParseDType(out_name);
  if (!out_dtype) return Fail("--out_dtype: expected fp16, bf16 or fp32");

  streamk::GemmArgs g;
  g.m = m, g.n = n, g.k = k;
  g.input = *dtype;
  g.output = *out_dtype;
  g.a_layout = streamk::Layout::kRowMajor, g.lda = (k + 7) / 8 * 8;
  g.b_layout = streamk::Layout::kColMajor, g.ldb = (k + 7) / 8 * 8;
  g.cd_layout = streamk::Layout::kRowMajor, g.ldd = (n + 7) / 8 * 8;
  if (m < 1 || n < 1 || k < 1) return Fail("M, N and K must be >= 1");
  if (const int64_t ldd = absl::GetFlag(FLAGS_ldd); ldd != 0) {
    if (ldd < n) return Fail("--ldd: must be at least N");
    g.ldd = ldd;
  }
  if (absl::StatusOr<streamk::DeviceSpec> dev = streamk::QueryLocalDevice(-1, options.mainloop);
      !dev.ok()) {
    std::fprintf(stderr, "streamk-trace: needs a GPU: %s\n",
                 std::string(dev.status().message()).c_str());
    return 2;
  }

  namespace tools = streamk::tools;
  const int64_t out_bytes = streamk::DTypeBytes(g.output);
  tools::DeviceBuffer a(g.lda * m * 2), b(g.ldb * n * 2), d(g.ldd * m * out_bytes),
      c(g.ldd * m * out_bytes);
  if (!a.get() || !b.get() || !d.get() || !c.get())
    return Fail("cudaMalloc of A, B, C or D failed");
  if (tools::Fill(a.get(), g.input, g.lda * m, 1) != cudaSuccess ||
      tools::Fill(b.get(), g.input, g.ldb * n, 2) != cudaSuccess ||
      tools::Fill(c.get(), g.output, g.ldd * m, 3) != cudaSuccess ||
      cudaMemcpy(d.get(), c.get(), c.bytes(), cudaMemcpyDeviceToDevice) != cudaSuccess)
    return Fail("filling the inputs failed");
  g.a = a.get(), g.b = b.get(), g.d = d.get();
  g.beta = static_cast<float>(absl::GetFlag(FLAGS_beta));
  g.c = g.d, g.ldc = g.ldd;  // C is D: read before it is written
  absl::StatusOr<streamk::Plan> plan = streamk::PlanGemm(g, options);
  if (!plan.ok()) return Fail(std::string(plan.status().message()));
  const size_t trace_count = static_cast<size_t>(plan->grid_blocks) * kEventsPerBlock;
  tools::DeviceBuffer trace(trace_count * sizeof(streamk::TraceEvent));
  if (!trace.get()) return Fail("cudaMalloc of the trace buffer failed");
  auto launch = [&](const streamk::TraceBuffer& buffer) {
    streamk::Options o = options;
    o.trace = buffer;
    return streamk::gemm(g, nullptr, o);
  };

  // Correct before timed: the plan's result against a plain reference GEMM.
  {
    if (absl::Status s = launch({}); !s.ok()) return Fail(std::string(s.message()));
    const size_t elems = static_cast<size_t>(m) * n;
    tools::DeviceBuffer ref(elems * 4), got(elems * 4);
    const tools::RefView av{g.a, g.input, true, g.lda, 0}, bv{g.b, g.input, false, g.ldb, 0};
    const tools::RefView cv{c.get(), g.output, true, g.ldd, 0}, dv{g.d, g.output, true, g.ldd, 0};
    if (!ref.get() || !got.get() ||
        tools::ReferenceGemm(av, bv, cv, 1, g.beta, m, n, k, 1, static_cast<float*>(ref.get())) !=
            cudaSuccess ||
        tools::Gather(dv, m, n, 1, static_cast<float*>(got.get())) != cudaSuccess)
      return Fail("reference GEMM failed");
    std::vector<float> want(elems), have(elems);
    cudaMemcpy(want.data(), ref.get(), elems * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(have.data(), got.get(), elems * 4, cudaMemcpyDeviceToHost);
    const double err = tools::RelativeFrobenius(have, want);
    if (!(err < 2e-3)) return Fail(absl::StrCat("wrong result: relative error ", err));
    std::printf("checked: relative error %.2e against a reference GEMM\n", err);
  }

  cudaStream_t stream = nullptr;
  absl::StatusOr<std::vector<tools::Timing>> t = tools::TimeInterleaved(
      {[&](int) { return launch({}); }}, stream, 5, 9, 5);
  if (!t.ok()) return Fail(std::string(t.status().message()));

  const streamk::TraceBuffer traced{static_cast<streamk::TraceEvent*>(trace.get()),
                                    kEventsPerBlock};
  struct Run {
    streamk::TraceSummary summary;
    std::vector<streamk::TraceEvent> events;
  };
  std::vector<Run> runs;
  for (int i = 0; i < std::max(1, absl::GetFlag(FLAGS_traces)); ++i) {
    Run r;
    r.events.resize(trace_count);
    if (cudaMemsetAsync(trace.get(), 0, trace.bytes(), stream) != cudaSuccess)
      return Fail("cudaMemset failed");
    if (absl::Status s = launch(traced); !s.ok())
      return Fail(std::string(s.message()));
    if (cudaMemcpy(r.events.data(), trace.get(), trace.bytes(), cudaMemcpyDeviceToHost) !=
        cudaSuccess)
      return Fail(absl::StrCat("traced launch failed: ", cudaGetErrorString(cudaGetLastError())));
    r.summary = streamk::SummarizeTrace(*plan, r.events, kEventsPerBlock);
    runs.push_back(std::move(r));
  }
  std::sort(runs.begin(), runs.end(),
            [](const Run& x, const Run& y) { return x.summary.span_us < y.summary.span_us; });
  const Run& median = runs[runs.size() / 2];

  std::printf("%s\n", streamk::PlanSummary(*plan).c_str());
  std::printf("mainloop: %s\n", streamk::kernels::ArchName(plan->mainloop));
  std::printf("untraced: %.1f us per launch (median of 9 x 5)\n", t->front().median_ms * 1000);
  // The same launches without the host in the way: gemm()'s own cost per call on the CPU, and the
  // launches replayed from a CUDA graph (what a kernel costs when the host keeps ahead of it).
  {
    // Host microseconds per call of `call` over kCalls calls, the GPU idle before and after.
    constexpr int kCalls = 200;
    auto per_call = [&](auto&& call) {
      cudaDeviceSynchronize();
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < kCalls; ++i) call();
      const double us =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0)
              .count() / kCalls;
      cudaDeviceSynchronize();
      return us;
    };
    absl::Status launched = absl::OkStatus();
    const double host_us = per_call([&] {
      if (launched.ok()) launched = launch({});
    });
    if (!launched.ok()) return Fail(std::string(launched.message()));
    absl::StatusOr<double> graph_us = tools::TimeGraph(
        [&](cudaStream_t s) { return streamk::gemm(g, s, options); }, 5, 9);
    if (!graph_us.ok()) return Fail(std::string(graph_us.status().message()));
    // cublasGemmEx's host cost per call on the same GEMM (D^T = B^T A^T in cuBLAS's column-major
    // terms, fp32 compute), timed the same way after one call that lets cuBLAS choose its kernel.
    cublasHandle_t handle = nullptr;
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return Fail("cublasCreate failed");
    const cudaDataType_t in = g.input == streamk::DType::kBF16 ? CUDA_R_16BF : CUDA_R_16F;
    const cudaDataType_t out = g.output == streamk::DType::kF32    ? CUDA_R_32F
                               : g.output == streamk::DType::kBF16 ? CUDA_R_16BF
                                                                   : CUDA_R_16F;
    const float alpha = 1, beta = g.beta;
    auto cublas = [&] {
      return cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(n),
                          static_cast<int>(m), static_cast<int>(k), &alpha, g.b, in,
                          static_cast<int>(g.ldb), g.a, in, static_cast<int>(g.lda), &beta, g.d,
                          out, static_cast<int>(g.ldd), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    };
    cublasStatus_t st = cublas();
    const double cublas_us = per_call([&] {
      if (st == CUBLAS_STATUS_SUCCESS) st = cublas();
    });
    cublasDestroy(handle);
    if (st != CUBLAS_STATUS_SUCCESS)
      return Fail(absl::StrCat("cublasGemmEx: ", cublasGetStatusName(st)));
    // Where gemm()'s host time goes: validation, the device's model and the plan cache's hit
    // (GetWorkspaceSize takes the same path as gemm() up to the launch), and the launch of a plain
    // one-block kernel, the driver's floor for any launch.
    bool planned = true;
    const double plan_us =
        per_call([&] { planned = streamk::GetWorkspaceSize(g, options).ok() && planned; });
    const double plain_us = per_call([] { tools::LaunchHog(1, 0, nullptr); });
    if (!planned) return Fail("GetWorkspaceSize failed");
    std::printf(
        "host: %.1f us per gemm() call (to its plan: %.1f us; a plain kernel's launch: %.1f us; "
        "cublasGemmEx: %.1f us per call); in a CUDA graph: %.1f us per launch\n",
        host_us, plan_us, plain_us, cublas_us, *graph_us);
  }
  std::printf("traced (median span of %zu):\n%s", runs.size(),
              streamk::FormatTraceSummary(median.summary).c_str());
  const std::string csv = absl::GetFlag(FLAGS_csv);
  if (!csv.empty()) {
    FILE* f = std::fopen(csv.c_str(), "w");
    if (f == nullptr) return Fail(absl::StrCat("cannot write ", csv));
    const std::string text = streamk::TraceToCsv(*plan, median.events, kEventsPerBlock);
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
  return 0;
}
