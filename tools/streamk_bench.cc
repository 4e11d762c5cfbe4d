// streamk-bench: Stream-K against data-parallel, split-K and cuBLAS on real shapes, in one run on
// one GPU. Every result is checked against cuBLAS before it is timed; a wrong result is reported
// as WRONG and never timed. Timing: CUDA events around back-to-back launches after a warm-up,
// median of repetitions (DESIGN section 7); with --graph, around replays of a CUDA graph of those
// launches (the GPU's time, without the host's cost of launching).
//
//   streamk-bench --set waveq --modes auto,dp,splitk,cublas
//   streamk-bench --shapes my_shapes.txt --dtype bf16 --csv out.csv --svg out.svg
//   streamk-bench --shape 1536x1536x4096 --shape 4096x4096x4096 --rotate
//
// Layouts follow BLAS: --layout tn means op(A) = A^T, op(B) = B with column-major storage, i.e.
// A is stored k-contiguous (row-major m x k) and B k-contiguous (column-major k x n); D is
// column-major.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/usage.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "bench_report.h"
#include "model_argmin.h"
#include "cost_fit.h"
#include "cublas_gemm.h"
#include "decomposition_flags.h"
#include "device_util.h"
#include "flag_names.h"
#include "gpu_timer.h"
#include "launch.h"
#include "moe_bench.h"
#include "shape_sets.h"
#include "streamk/plan_print.h"
#include "streamk/planner.h"
#include "streamk/streamk.h"

ABSL_FLAG(std::vector<std::string>, shape, {}, "a shape MxNxK (repeatable, or comma-separated)");
ABSL_FLAG(std::string, shapes, "", "file with one shape per line: 'M N K' or 'NAME M N K'");
ABSL_FLAG(std::vector<std::string>, set, {},
          "built-in sets (comma-separated): paper, waveq (counts of the GPU's main tile, 128x256 "
          "on an H200, a few past 1-4 whole waves), llm, calib (--calibrate's shapes)");
ABSL_FLAG(int, count, 150, "shapes drawn for --set paper");
ABSL_FLAG(uint64_t, seed, 1, "seed for --set paper");
ABSL_FLAG(int, align, 8,
          "--set paper: sizes are multiples of this (1: any size, 8: the set as published)");
ABSL_FLAG(std::vector<std::string>, modes,
          std::vector<std::string>({"auto", "dp", "splitk", "streamk", "cublas"}),
          "auto, argmin (the cost model's cheapest plan over every kernel configuration, "
          "decomposition and operand copy, without auto's rules: ModelArgmin), dp "
          "(data-parallel on whichever of the GPU's tiles the planner predicts fastest "
          "for it), splitk (best split) or splitk:S, streamk (all tiles Stream-K) or streamk:B "
          "(B blocks), streamk-tail (the partial wave's tiles Stream-K, the rest data-parallel) or "
          "streamk-tail:B, streamk-tiles:T or streamk-tiles:T:B (T tiles Stream-K, the rest "
          "data-parallel), cublas; append /BMxBNxBK to run one of the GPU's kernel "
          "configurations (e.g. dp/128x256x64: data-parallel on that tile alone), then "
          "@deterministic, @atomic, @separate or @separate:R (R reduction blocks per tile) to "
          "force the reduction, then +dynamic or +static for that schedule (Options::schedule; "
          "without, the planner's: off 2-SM clusters, Stream-K, split-K and data-parallel blocks "
          "of several rounds take their work from a counter), "
          "and last +sms:N to plan for N SMs (Options::avail_sms), e.g. auto+dynamic, "
          "auto+static or auto+sms:116");
ABSL_FLAG(std::string, dtype, "fp16", "input dtype: fp16 | bf16");
ABSL_FLAG(std::string, out_dtype, "", "output dtype: fp16 | bf16 | fp32 (default: the input's)");
ABSL_FLAG(std::string, layout, "tn", "BLAS-style op(A) op(B): tn | nn | nt | tt (D column-major)");
ABSL_FLAG(int, batch, 1, "batch count (strided batched GEMM)");
ABSL_FLAG(bool, cooperative, true,
          "launch plans whose blocks wait on each other cooperatively (false only to measure what "
          "the co-residency guarantee costs)");
ABSL_FLAG(bool, programmatic_launch, true,
          "on sm_90, start each kernel while the previous one on the stream finishes "
          "(programmatic dependent launch; false only to measure what it saves)");
ABSL_FLAG(std::string, repack, "auto",
          "copy operands with misaligned K-major rows, or narrow M-/N-major ones (under 64 "
          "elements along M or N), to aligned K-major rows before the kernel: auto (the planner "
          "decides for mode auto; other modes copy nothing), on, off, a or b (A's or B's rows "
          "only; every streamk mode)");
ABSL_FLAG(bool, packed, false,
          "leading dimensions exactly the rows' length, as a contiguous tensor stores them "
          "(default: rounded up to 8 elements); rows that are then not 16-byte aligned are "
          "copied by gemm() before its kernel");
ABSL_FLAG(bool, rotate, false, "cycle input buffers totalling more than 2x L2 (cold-cache times)");
ABSL_FLAG(int, warmup, 5, "launches before timing");
ABSL_FLAG(int, reps, 15, "timed repetitions (the median is reported)");
ABSL_FLAG(int, inner, 10, "back-to-back launches per timed repetition");
ABSL_FLAG(std::string, timing, "both",
          "both | graph | launches: time CUDA graph replays of each repetition's launches (the "
          "GPU's time, without the host's cost of launching, which sets the pace of GEMMs under "
          "about 9 us), back-to-back launches, or both (the table and first summary show graph "
          "replays, a second summary the back-to-back times)");
ABSL_FLAG(bool, graph, false, "--timing graph (graph replays only)");
ABSL_FLAG(std::vector<std::string>, hold_sms, {},
          "also time every mode while another kernel holds X SMs (one block per SM, spinning on "
          "another stream), for each X given (comma-separated), as a collective or a concurrent "
          "stream's kernel does; prints each time against the free GPU's and the ideal "
          "sms / (sms - X)");
ABSL_FLAG(double, hold_timeout, 3,
          "--hold-sms: seconds after which the holding blocks give up (a mode that waits for "
          "every SM then reads as stalled instead of hanging)");
ABSL_FLAG(std::string, hold_csv, "", "--hold-sms: write the contention figures to this CSV");
ABSL_FLAG(std::string, csv, "",
          "write every figure to this CSV file (rewritten after each shape, so a run cut short "
          "keeps the shapes it measured)");
ABSL_FLAG(std::string, json, "", "write every figure to this JSON file");
ABSL_FLAG(std::string, svg, "", "draw auto vs dp and vs cublas per shape into this SVG file");
ABSL_FLAG(std::string, profile, "",
          "plan with this device profile (streamk-bench --calibrate, streamk-plan "
          "--write_profile) instead of the built-in model: gemm() uses it (UseDeviceProfile)");
ABSL_FLAG(std::string, calibrate, "",
          "measure this GPU's cost constants and write them as a device profile to this file: "
          "times every kernel configuration's data-parallel, split-K and Stream-K plans (graph "
          "replay) on the calibration shapes (set calib, unless shapes are given), fits each "
          "configuration's constants (streamk-fit --fit_all does the same from a CSV) and reports "
          "their error on the shapes held out of the fit");
ABSL_FLAG(double, holdout, 0.25, "--calibrate: the share of the shapes held out of the fit");
ABSL_FLAG(std::vector<std::string>, compare, {},
          "no GPU work: FIRST.csv,SECOND.csv, two runs of the same shapes (--csv): per set, the "
          "second run's speed over the first's for --compare_mode, each normalized by cuBLAS in "
          "its own run, and the shapes whose plan differs (a change against the build before "
          "it, or --profile against the built-in model)");
ABSL_FLAG(std::string, compare_mode, "auto", "--compare: the mode compared");
ABSL_FLAG(std::vector<std::string>, gates, {},
          "instead of running (no GPU): the planner's gates over these CSV files, each a run of "
          "auto, dp, cublas and every kernel configuration's dp/, splitk/, streamk/ and "
          "streamk-tail/ modes: auto's regret against the fastest plan timed, the predictions' "
          "argmin's, rank correlation and error of the predictions, per set");
ABSL_FLAG(bool, moe, false,
          "instead of GEMMs: grouped GEMMs of mixture-of-experts layers (grouped_gemm) against a "
          "loop of per-expert cuBLAS GEMMs and cublasGemmGroupedBatchedEx, graph replay, each "
          "result checked first (--moe_projections, --moe_tokens, --moe_skews, --dtype, --reps, "
          "--seed, --csv)");
ABSL_FLAG(std::vector<std::string>, moe_projections, {},
          "--moe: mixtral-gate-up, mixtral-down, deepseek-v3-gate-up, deepseek-v3-down, "
          "qwen3-gate-up, qwen3-down (default: all)");
ABSL_FLAG(std::vector<std::string>, moe_tokens,
          (std::vector<std::string>{"64", "512", "4096", "16384"}),
          "--moe: tokens per step (each routed to the projection's top-k experts)");
ABSL_FLAG(std::vector<std::string>, moe_skews, (std::vector<std::string>{"0", "1.2"}),
          "--moe: routings, expert r of a random ranking taking a share 1 / (r + 1)^SKEW (0: "
          "uniform)");
ABSL_FLAG(std::string, replot, "",
          "no GPU work: read a CSV this tool wrote (--csv, or --hold-csv) and print its table (and "
          "--svg) again");

namespace streamk::tools {
namespace {

int Fail(const std::string& what) {
  std::fprintf(stderr, "streamk-bench: %s\n", what.c_str());
  return 2;
}

// The whole of the file at `path`; nullopt where it cannot be opened.
std::optional<std::string> ReadText(const std::string& path) {
  std::ifstream f(path);
  if (!f) return std::nullopt;
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Device buffers for one shape: `copies` sets of A and B (rotated), D and the cuBLAS reference.
// The inputs are filled on `stream`, the stream every GEMM of the shape runs on: on another (the
// legacy default stream, which a non-blocking stream does not wait for) the cuBLAS reference read
// B of 512 x 8192 x 28672 half filled, and every mode's result read as WRONG against it.
struct ShapeBuffers {
  std::vector<DeviceBuffer> a, b;
  DeviceBuffer d, ref;
  GemmArgs args;  // pointing at copy 0
};

absl::StatusOr<ShapeBuffers> Allocate(const BenchShape& s, DType in, DType out, BenchLayout layout,
                                      int batch, int64_t l2_bytes, bool rotate, uint64_t seed,
                                      cudaStream_t stream) {
  ShapeBuffers buf;
  buf.args = BenchGemmArgs(s, in, out, layout, batch, absl::GetFlag(FLAGS_packed));
  GemmArgs& g = buf.args;
  const int ib = DTypeBytes(in), ob = DTypeBytes(out);
  const int64_t ab_bytes = (g.stride_a + g.stride_b) * batch * ib;
  const int copies = rotate ? static_cast<int>(std::min<int64_t>(
                                  16, std::max<int64_t>(2, 2 * l2_bytes / ab_bytes + 1)))
                            : 1;
  for (int i = 0; i < copies; ++i) {
    buf.a.emplace_back(g.stride_a * batch * ib);
    buf.b.emplace_back(g.stride_b * batch * ib);
    if (buf.a.back().get() == nullptr || buf.b.back().get() == nullptr)
      return absl::ResourceExhaustedError(absl::StrCat("cudaMalloc of A/B copy ", i, " failed"));
    STREAMK_CUDA_RETURN_IF_ERROR(
        Fill(buf.a.back().get(), in, g.stride_a * batch, seed * 7 + i, false, stream));
    STREAMK_CUDA_RETURN_IF_ERROR(
        Fill(buf.b.back().get(), in, g.stride_b * batch, seed * 13 + i, false, stream));
  }
  buf.d = DeviceBuffer(g.stride_d * batch * ob);
  buf.ref = DeviceBuffer(g.stride_d * batch * ob);
  if (buf.d.get() == nullptr || buf.ref.get() == nullptr)
    return absl::ResourceExhaustedError("cudaMalloc of D failed");
  g.a = buf.a[0].get(), g.b = buf.b[0].get(), g.d = buf.d.get();
  return buf;
}

absl::StatusOr<std::vector<float>> ReadBack(const GemmArgs& g, const void* d) {
  DeviceBuffer out(g.m * g.n * g.batch * 4);
  RefView v{d, g.output, false, g.ldd, g.stride_d};
  STREAMK_CUDA_RETURN_IF_ERROR(Gather(v, static_cast<int>(g.m), static_cast<int>(g.n),
                                      static_cast<int>(g.batch), static_cast<float*>(out.get())));
  std::vector<float> host(g.m * g.n * g.batch);
  STREAMK_CUDA_RETURN_IF_ERROR(
      cudaMemcpy(host.data(), out.get(), host.size() * 4, cudaMemcpyDeviceToHost));
  return host;
}

}  // namespace
}  // namespace streamk::tools

int main(int argc, char** argv) {
  using namespace streamk;
  using namespace streamk::tools;
  absl::SetProgramUsageMessage(
      "streamk-bench: Stream-K vs data-parallel, split-K and cuBLAS on a GPU (see --help)");
  streamk::tools::ParseToolCommandLine(argc, argv);

  if (absl::GetFlag(FLAGS_moe)) {
    MoeBenchFlags m;
    m.projections = absl::GetFlag(FLAGS_moe_projections);
    const std::vector<MoeProjection> known = MoeProjections();
    for (const std::string& name : m.projections) {
      if (std::none_of(known.begin(), known.end(),
                       [&](const MoeProjection& p) { return p.name == name; }))
        return Fail(absl::StrCat("--moe_projections ", name, ": not one of the MoE projections"));
    }
    m.tokens.clear();
    for (const std::string& t : absl::GetFlag(FLAGS_moe_tokens)) {
      int64_t v = 0;
      if (!absl::SimpleAtoi(t, &v) || v < 1)
        return Fail(absl::StrCat("--moe_tokens ", t, ": not a count >= 1"));
      m.tokens.push_back(v);
    }
    m.skews.clear();
    for (const std::string& t : absl::GetFlag(FLAGS_moe_skews)) {
      double v = 0;
      if (!absl::SimpleAtod(t, &v) || !std::isfinite(v) || v < 0)  // nan passes v < 0
        return Fail(absl::StrCat("--moe_skews ", t, ": not a finite number >= 0"));
      m.skews.push_back(v);
    }
    const std::optional<DType> dtype = ParseDType(absl::GetFlag(FLAGS_dtype));
    if (!dtype || *dtype == DType::kF32) return Fail("--dtype: fp16 or bf16");
    m.dtype = *dtype;
    m.reps = absl::GetFlag(FLAGS_reps);
    m.seed = absl::GetFlag(FLAGS_seed);
    m.csv = absl::GetFlag(FLAGS_csv);
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
      return Fail("--moe: no CUDA device to run on");
    return RunMoeBench(m);
  }

  if (const std::vector<std::string> files = absl::GetFlag(FLAGS_compare); !files.empty()) {
    if (files.size() != 2) return Fail("--compare: expected FIRST.csv,SECOND.csv");
    std::vector<BenchReport> runs;
    for (const std::string& path : files) {
      const std::optional<std::string> text = ReadText(path);
      if (!text) return Fail(absl::StrCat("--compare ", path, ": cannot read"));
      absl::StatusOr<BenchReport> report = FromCsv(*text);
      if (!report.ok()) return Fail(absl::StrCat(path, ": ", report.status().message()));
      runs.push_back(*std::move(report));
    }
    std::printf("%s", CompareRuns(runs[0], runs[1], absl::GetFlag(FLAGS_compare_mode)).c_str());
    return 0;
  }
  if (const std::vector<std::string> files = absl::GetFlag(FLAGS_gates); !files.empty()) {
    for (const std::string& path : files) {
      const std::optional<std::string> text = ReadText(path);
      if (!text) return Fail(absl::StrCat("--gates ", path, ": cannot read"));
      absl::StatusOr<BenchReport> report = FromCsv(*text);
      if (!report.ok()) return Fail(absl::StrCat(path, ": ", report.status().message()));
      std::printf("# %s (%s, %s)\n%s", path.c_str(), report->gpu.c_str(), report->dtype.c_str(),
                  FormatGates(SummarizeGates(*report)).c_str());
    }
    return 0;
  }
  if (const std::string path = absl::GetFlag(FLAGS_replot); !path.empty()) {
    const std::optional<std::string> text = ReadText(path);
    if (!text) return Fail(absl::StrCat("--replot ", path, ": cannot read"));
    if (absl::StartsWith(*text, "set,name,")) {  // a --hold-csv file
      absl::StatusOr<ContentionReport> held = ContentionFromCsv(*text);
      if (!held.ok()) return Fail(absl::StrCat(path, ": ", held.status().message()));
      std::printf("%s", FormatContention(*held).c_str());
      return 0;
    }
    absl::StatusOr<BenchReport> report = FromCsv(*text);
    if (!report.ok()) return Fail(absl::StrCat(path, ": ", report.status().message()));
    std::printf("%s", FormatTable(*report).c_str());
    if (const std::string svg = absl::GetFlag(FLAGS_svg); !svg.empty())
      std::ofstream(svg) << ToSvg(*report);
    return 0;
  }

  const std::string calibrate = absl::GetFlag(FLAGS_calibrate);
  // --calibrate times its own modes (CalibrationModes, once the device is known); otherwise
  // --modes, checked before anything needs a GPU.
  absl::StatusOr<std::vector<ModeSpec>> modes = ParseModes(absl::GetFlag(FLAGS_modes));
  if (calibrate.empty() && !modes.ok()) return Fail(std::string(modes.status().message()));
  if (const double h = absl::GetFlag(FLAGS_holdout); !(h >= 0 && h < 1))
    return Fail(absl::StrCat("--holdout ", h, ": expected a share in [0, 1)"));
  const std::string timing = absl::GetFlag(FLAGS_graph) || !calibrate.empty()
                                 ? "graph"
                                 : absl::GetFlag(FLAGS_timing);
  if (timing != "both" && timing != "graph" && timing != "launches")
    return Fail(absl::StrCat("--timing ", timing, ": expected both, graph or launches"));
  std::vector<int> held_counts;
  for (const std::string& x : absl::GetFlag(FLAGS_hold_sms)) {
    int v = 0;
    if (!absl::SimpleAtoi(x, &v) || v < 1)
      return Fail(absl::StrCat("--hold-sms ", x, ": expected a positive count of SMs"));
    held_counts.push_back(v);
  }
  // (nan and inf fail too: the holding kernel counts the timeout in int64 nanoseconds.)
  if (const double t = absl::GetFlag(FLAGS_hold_timeout); !(t > 0 && t <= 3600))
    return Fail(absl::StrCat("--hold-timeout ", t, ": must be in (0, 3600] seconds"));
  if (absl::GetFlag(FLAGS_align) < 1)
    return Fail(absl::StrCat("--align ", absl::GetFlag(FLAGS_align), ": must be >= 1"));
  std::optional<RepackOperands> repack;
  if (absl::Status s = ParseRepack(absl::GetFlag(FLAGS_repack), &repack); !s.ok())
    return Fail(std::string(s.message()));
  // The launch flags every mode runs with, auto's plan in the table and the JSON among them.
  Options kernel_choices;
  if (absl::Status s = streamk::tools::SetKernelChoices(
          streamk::tools::KernelFlagsFromCommandLine(), &kernel_choices);
      !s.ok())
    return Fail(std::string(s.message()));
  auto with_flags = [&repack, &kernel_choices](Options o) {
    o.cooperative = absl::GetFlag(FLAGS_cooperative);
    o.programmatic_launch = absl::GetFlag(FLAGS_programmatic_launch);
    o.repack = repack;
    o.pingpong = kernel_choices.pingpong;
    o.narrow_wgmma = kernel_choices.narrow_wgmma;
    o.store_d = kernel_choices.store_d;
    o.mainloop = kernel_choices.mainloop;
    return o;
  };
  const Options auto_options = with_flags(Options{});
  absl::StatusOr<DeviceSpec> device = QueryLocalDevice(-1, kernel_choices.mainloop);
  if (!device.ok())
    return Fail(absl::StrCat("needs a GPU: ", device.status().message()));
  if (const std::string path = absl::GetFlag(FLAGS_profile); !path.empty()) {
    absl::StatusOr<DeviceSpec> profile = LoadDeviceProfile(path);
    if (profile.ok()) profile = AdaptDeviceProfile(*profile, *device);
    if (!profile.ok()) return Fail(absl::StrCat("--profile: ", profile.status().message()));
    if (absl::Status st = UseDeviceProfile(*profile); !st.ok())
      return Fail(absl::StrCat("--profile: ", st.message()));
    *device = *profile;
  }
  if (!calibrate.empty()) {
    modes = ParseModes(CalibrationModes(*device));
    if (!modes.ok()) return Fail(std::string(modes.status().message()));
  }
  for (ModeSpec& m : *modes) m.options = with_flags(m.options);

  // Shapes.
  std::vector<BenchShape> shapes;
  std::string waveq_tile;
  // Every --shape, not only the last (RepeatedFlagValues).
  for (const std::string& s : RepeatedFlagValues(argc, argv, "shape")) {
    absl::StatusOr<BenchShape> p = ParseShape(s);
    if (!p.ok()) return Fail(std::string(p.status().message()));
    shapes.push_back(*p);
  }
  if (const std::string path = absl::GetFlag(FLAGS_shapes); !path.empty()) {
    const std::optional<std::string> text = ReadText(path);
    if (!text) return Fail(absl::StrCat("--shapes ", path, ": cannot open"));
    absl::StatusOr<std::vector<BenchShape>> p = ParseShapesFile(path, *text);
    if (!p.ok()) return Fail(std::string(p.status().message()));
    shapes.insert(shapes.end(), p->begin(), p->end());
  }
  for (const std::string& set : absl::GetFlag(FLAGS_set)) {
    std::vector<BenchShape> add;
    if (set == "paper") {
      add = PaperSet(absl::GetFlag(FLAGS_count), absl::GetFlag(FLAGS_seed),
                     absl::GetFlag(FLAGS_align));
    } else if (set == "waveq") {
      // D is column-major: the kernel computes D^T, whose rows are D's columns, so a tile spans
      // tile.n of D's rows and tile.m of its columns.
      add = WaveQuantizationSet(device->sms, device->main().tile.n, device->main().tile.m);
      waveq_tile = absl::StrCat(device->main().tile.m, "x", device->main().tile.n, "x",
                                device->main().tile.k);
    } else if (set == "llm") {
      add = LlmSet();
    } else if (set == "calib") {
      add = CalibrationSet();
    } else {
      return Fail(absl::StrCat("--set ", set, ": expected paper, waveq, llm or calib"));
    }
    shapes.insert(shapes.end(), add.begin(), add.end());
  }
  if (shapes.empty() && !calibrate.empty()) shapes = CalibrationSet();
  if (shapes.empty()) return Fail("no shapes: give --shape, --shapes or --set");

  const std::optional<DType> in = ParseDType(absl::GetFlag(FLAGS_dtype));
  if (!in || *in == DType::kF32) return Fail("--dtype: expected fp16 or bf16");
  std::optional<DType> out = in;
  if (!absl::GetFlag(FLAGS_out_dtype).empty()) out = ParseDType(absl::GetFlag(FLAGS_out_dtype));
  if (!out) return Fail("--out-dtype: expected fp16, bf16 or fp32");
  const std::string layout = absl::GetFlag(FLAGS_layout);
  const std::optional<BenchLayout> bench_layout = ParseBenchLayout(layout);
  if (!bench_layout) return Fail("--layout: expected tn, nn, nt or tt");
  const int batch = absl::GetFlag(FLAGS_batch);
  if (batch < 1) return Fail("--batch: must be >= 1");
  const double tolerance = *out == DType::kBF16 ? 1e-2 : *out == DType::kF16 ? 2e-3 : 5e-4;

  Cublas cublas;
  if (!cublas.status().ok()) return Fail(std::string(cublas.status().message()));
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);

  for (int x : held_counts) {
    if (x >= device->sms)
      return Fail(absl::StrCat("--hold-sms ", x, ": the GPU has ", device->sms,
                               " SMs; hold fewer than that"));
  }
  cudaStream_t hold_stream = nullptr;
  if (!held_counts.empty()) cudaStreamCreateWithFlags(&hold_stream, cudaStreamNonBlocking);
  SmHolder holder;
  ContentionReport contention;

  BenchReport report;
  report.gpu = device->name;
  int driver = 0, runtime = 0, cublas_major = 0, cublas_minor = 0, cublas_patch = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  cublasGetProperty(MAJOR_VERSION, &cublas_major);
  cublasGetProperty(MINOR_VERSION, &cublas_minor);
  cublasGetProperty(PATCH_LEVEL, &cublas_patch);
  report.versions = absl::StrFormat("CUDA driver API %d, runtime %d, cuBLAS %d.%d.%d", driver,
                                    runtime, cublas_major, cublas_minor, cublas_patch);
  report.dtype = DTypeName(*in);
  report.out_dtype = DTypeName(*out);
  report.layout = layout;
  report.sms = device->sms;
  report.occupancy = device->occupancy;
  report.mainloop = streamk::kernels::ArchName(device->mainloop);
  report.timing = absl::StrFormat(
      "%s of %d launches, median of %d repetitions after %d warm-up runs%s",
      timing == "launches" ? "back-to-back runs" : "CUDA graph replays",
      absl::GetFlag(FLAGS_inner), absl::GetFlag(FLAGS_reps), absl::GetFlag(FLAGS_warmup),
      timing == "both" ? " (and back to back: the second summary)" : "");
  report.waveq_tile = waveq_tile;
  for (const ModeSpec& m : *modes) report.modes.push_back(m.name);
  contention.gpu = report.gpu, contention.timing = report.timing, contention.sms = device->sms;
  contention.held = held_counts, contention.modes = report.modes;

  // --calibrate: mode-shape pairs whose forced options the shape cannot take (8 splits of a
  // tile of 4 k-iterations), left out of the run.
  int inapplicable = 0;
  // Each shape's results, and the CSV rewritten with them: a run a time limit stops keeps the
  // shapes it measured.
  const std::string csv = absl::GetFlag(FLAGS_csv);
  auto add_row = [&report, &csv](ShapeResult row) {
    report.rows.push_back(std::move(row));
    if (!csv.empty()) std::ofstream(csv) << ToCsv(report);
  };
  for (size_t si = 0; si < shapes.size(); ++si) {
    const BenchShape& s = shapes[si];
    std::fprintf(stderr, "[%zu/%zu] %s %lldx%lldx%lld\n", si + 1, shapes.size(), s.set.c_str(),
                 static_cast<long long>(s.m), static_cast<long long>(s.n),
                 static_cast<long long>(s.k));
    ShapeResult row;
    row.shape = s;
    absl::StatusOr<ShapeBuffers> buf =
        Allocate(s, *in, *out, *bench_layout, batch, device->l2_bytes, absl::GetFlag(FLAGS_rotate),
                 si + 1, stream);
    if (!buf.ok()) {
      row.error = std::string(buf.status().message());
      add_row(std::move(row));
      continue;
    }
    GemmArgs ref_args = buf->args;
    ref_args.d = buf->ref.get();
    absl::Status ref_status = cublas.Gemm(ref_args, stream);
    if (ref_status.ok())
      ref_status = CudaStatus(cudaStreamSynchronize(stream), "cuBLAS", __FILE__, __LINE__);
    absl::StatusOr<std::vector<float>> want = ref_status.ok()
                                                  ? ReadBack(ref_args, ref_args.d)
                                                  : absl::StatusOr<std::vector<float>>(ref_status);
    if (!want.ok()) {
      row.error = absl::StrCat("cuBLAS reference failed: ", want.status().message());
      add_row(std::move(row));
      continue;
    }
    PlanExplanation auto_why;
    if (absl::StatusOr<Plan> plan = PlanGemm(buf->args, *device, auto_options, &auto_why);
        plan.ok())
      row.auto_plan = *plan, row.auto_why = auto_why;
    const size_t copies = buf->a.size();
    // Check every mode first (poison D, run once, compare with cuBLAS); time the correct ones
    // together, interleaved.
    std::vector<std::function<absl::Status(int)>> timed;
    std::vector<size_t> timed_index;
    for (const ModeSpec& m : *modes) {
      ModeResult r;
      r.mode = m.name;
      // The options this mode runs: argmin's are the model's pick for the shape.
      Options options = m.options;
      absl::Status st = absl::OkStatus();
      if (m.argmin) {
        absl::StatusOr<ArgminPick> pick = ModelArgmin(buf->args, *device, m.options);
        if (pick.ok()) options = pick->options;
        else st = pick.status();
      }
      auto launch = [&buf, &m, options, &cublas, stream, copies](int i) -> absl::Status {
        GemmArgs g = buf->args;
        g.a = buf->a[i % copies].get();
        g.b = buf->b[i % copies].get();
        return m.cublas ? cublas.Gemm(g, stream) : gemm(g, stream, options);
      };
      const GemmArgs& g = buf->args;
      if (m.name == "auto" && row.auto_plan) {  // planned above with the same options
        r.plan = *row.auto_plan, r.predicted_us = row.auto_why->predicted_us;
      } else if (!m.cublas && st.ok()) {
        PlanExplanation why;
        absl::StatusOr<Plan> plan = PlanGemm(g, *device, options, &why);
        if (plan.ok()) {
          r.plan = *plan, r.predicted_us = why.predicted_us;
        } else if (!calibrate.empty() && absl::IsInvalidArgument(plan.status())) {
          ++inapplicable;
          continue;
        }
      }
      if (st.ok())
        st = CudaStatus(Fill(buf->d.get(), *out, g.stride_d * batch, 0, /*nan=*/true, stream),
                        "poison", __FILE__, __LINE__);
      if (st.ok()) st = launch(0);
      if (st.ok()) st = CudaStatus(cudaStreamSynchronize(stream), "kernel", __FILE__, __LINE__);
      if (!st.ok()) {
        r.status = "ERROR";
        r.note = std::string(st.message());
      } else {
        absl::StatusOr<std::vector<float>> got = ReadBack(g, buf->d.get());
        r.error = got.ok() ? RelativeFrobenius(*got, *want) : INFINITY;
        if (!(r.error < tolerance)) {
          r.status = "WRONG";
          r.note = absl::StrFormat("relative error %.3g > %.1g: not timed", r.error, tolerance);
        } else {
          timed.push_back(launch);
          timed_index.push_back(row.modes.size());
        }
      }
      row.modes.push_back(r);
    }
    // Graph replays: each repetition replays one CUDA graph of `inner` launches per mode,
    // captured after the check above made every workspace (no allocation may happen while
    // capturing). Back to back: `inner` launches a repetition. Both: each way over every mode.
    const int inner = absl::GetFlag(FLAGS_inner);
    std::vector<std::unique_ptr<CapturedLaunches>> graphs;  // kept alive for the timing
    // `only`: time that one of `timed` alone (--hold-sms), else all of them.
    auto time_modes = [&](bool graph, std::vector<std::string>* mode_error, size_t only = SIZE_MAX)
        -> absl::StatusOr<std::vector<std::optional<Timing>>> {
      std::vector<std::function<absl::Status(int)>> runs;
      std::vector<size_t> run_of(timed.size(), SIZE_MAX);
      for (size_t t = 0; t < timed.size(); ++t) {
        if (!(*mode_error)[t].empty() || (only != SIZE_MAX && t != only)) continue;
        if (graph) {
          absl::StatusOr<std::unique_ptr<CapturedLaunches>> g =
              CapturedLaunches::Capture(timed[t], 1, inner, stream);
          if (!g.ok()) {
            (*mode_error)[t] = absl::StrCat("capture failed: ", g.status().message());
            cudaGetLastError();
            continue;
          }
          graphs.push_back(std::move(*g));
          const CapturedLaunches* replay = graphs.back().get();
          run_of[t] = runs.size();
          runs.push_back([replay, stream](int) { return replay->Launch(stream); });
        } else {
          run_of[t] = runs.size();
          runs.push_back(timed[t]);
        }
      }
      absl::StatusOr<std::vector<Timing>> times =
          TimeInterleaved(runs, stream, absl::GetFlag(FLAGS_warmup), absl::GetFlag(FLAGS_reps),
                          graph ? 1 : inner);  // graph: one replay (of `inner` launches) a sample
      if (!times.ok()) return times.status();
      std::vector<std::optional<Timing>> out(timed.size());
      for (size_t t = 0; t < timed.size(); ++t) {
        if (run_of[t] == SIZE_MAX) continue;
        Timing tm = (*times)[run_of[t]];
        if (graph) tm.median_ms /= inner, tm.min_ms /= inner, tm.max_ms /= inner;
        out[t] = tm;
      }
      return out;
    };
    std::vector<std::string> mode_error(timed.size());
    absl::StatusOr<std::vector<std::optional<Timing>>> headline =
        time_modes(timing != "launches", &mode_error);
    absl::StatusOr<std::vector<std::optional<Timing>>> launches =
        timing == "both" ? time_modes(false, &mode_error)
                         : absl::StatusOr<std::vector<std::optional<Timing>>>();
    for (size_t t = 0; t < timed_index.size(); ++t) {
      ModeResult& r = row.modes[timed_index[t]];
      if (!mode_error[t].empty() || !headline.ok() || !(*headline)[t]) {
        r.status = "ERROR";
        r.note = !mode_error[t].empty() ? mode_error[t]
                 : !headline.ok()       ? std::string(headline.status().message())
                                        : "not timed";
        continue;
      }
      const Timing& tm = *(*headline)[t];
      r.status = "ok";
      r.us = tm.median_ms * 1e3;
      r.spread = (tm.max_ms - tm.min_ms) / tm.median_ms;
      r.tflops = 2.0 * s.m * s.n * s.k * batch / (r.us * 1e-6) / 1e12;
      if (timing == "both") {
        if (!launches.ok()) {
          r.status = "ERROR";
          r.note = std::string(launches.status().message());
        } else if ((*launches)[t]) {
          r.launches_us = (*launches)[t]->median_ms * 1e3;
        }
      }
    }
    // --hold-sms: the free GPU's times above, then each mode alone under each held count, so
    // that a mode that stalls until the hold gives up taints only its own figure.
    if (!held_counts.empty()) {
      for (const ModeResult& r : row.modes) {
        HeldTiming h;
        h.shape = s, h.mode = r.mode, h.held = 0;
        h.us = r.status == "ok" ? r.us : 0;
        h.plan = r.plan ? PlanName(*r.plan) : "";
        h.note = r.status == "ok" ? "" : r.status + ": " + r.note;
        contention.rows.push_back(h);
      }
      for (int x : held_counts) {
        for (size_t mi = 0; mi < row.modes.size(); ++mi) {
          HeldTiming h;
          h.shape = s, h.mode = row.modes[mi].mode, h.held = x;
          h.plan = row.modes[mi].plan ? PlanName(*row.modes[mi].plan) : "";
          const auto it = std::find(timed_index.begin(), timed_index.end(), mi);
          if (it == timed_index.end()) {
            h.note = "not timed free";
            contention.rows.push_back(h);
            continue;
          }
          const size_t t = static_cast<size_t>(it - timed_index.begin());
          if (cudaError_t err = holder.Hold(x, absl::GetFlag(FLAGS_hold_timeout), hold_stream);
              err != cudaSuccess) {
            h.note = absl::StrCat("could not hold ", x, " SMs: ", cudaGetErrorString(err));
            holder.Release();
            cudaGetLastError();
            contention.rows.push_back(h);
            continue;
          }
          std::vector<std::string> err(timed.size());
          absl::StatusOr<std::vector<std::optional<Timing>>> held =
              time_modes(timing != "launches", &err, t);
          h.gave_up = holder.gave_up();
          if (cudaError_t e = holder.Release(); e != cudaSuccess)
            h.note = absl::StrCat("release: ", cudaGetErrorString(e));
          if (held.ok() && (*held)[t] && err[t].empty()) {
            h.us = (*held)[t]->median_ms * 1e3;
          } else {
            h.note = !err[t].empty() ? err[t]
                     : !held.ok()    ? std::string(held.status().message())
                                     : "not timed";
          }
          if (h.gave_up) h.note = "the hold gave up before the timing ended (stalled)";
          contention.rows.push_back(h);
        }
      }
    }
    add_row(std::move(row));
  }

  if (inapplicable > 0)
    std::fprintf(stderr,
                 "--calibrate: %d mode-shape pairs left out, their forced options not applying to "
                 "the shape (e.g. more splits than a tile's k-iterations)\n",
                 inapplicable);
  std::printf("%s", FormatTable(report).c_str());
  if (!held_counts.empty()) {
    std::printf("\n%s", FormatContention(contention).c_str());
    if (const std::string f = absl::GetFlag(FLAGS_hold_csv); !f.empty()) {
      std::ofstream(f) << ContentionToCsv(contention);
      std::fprintf(stderr, "wrote %s\n", f.c_str());
    }
    cudaStreamDestroy(hold_stream);
  }
  if (!csv.empty()) std::fprintf(stderr, "wrote %s\n", csv.c_str());
  if (const std::string f = absl::GetFlag(FLAGS_json); !f.empty()) {
    std::ofstream(f) << ToJson(report);
    std::fprintf(stderr, "wrote %s\n", f.c_str());
  }
  if (const std::string f = absl::GetFlag(FLAGS_svg); !f.empty()) {
    std::ofstream(f) << ToSvg(report);
    std::fprintf(stderr, "wrote %s\n", f.c_str());
  }
  cudaStreamDestroy(stream);
  if (!calibrate.empty()) {
    absl::StatusOr<std::vector<Measurement>> rows = ParseBenchCsv("(this run)", ToCsv(report));
    if (!rows.ok()) return Fail(std::string(rows.status().message()));
    const DeviceFit fit = FitDevice(*rows, *device, absl::GetFlag(FLAGS_holdout), 20000);
    std::printf("\n%s", FormatDeviceFit(fit).c_str());
    std::vector<std::string> words(argv, argv + argc);
    if (absl::Status st = SaveDeviceProfile(
            fit.device, calibrate, DeviceFitJson(fit, absl::StrJoin(words, " ")));
        !st.ok())
      return Fail(std::string(st.message()));
    std::fprintf(stderr, "wrote %s\n", calibrate.c_str());
  }
  return 0;
}
