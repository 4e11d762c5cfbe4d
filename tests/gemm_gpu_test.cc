// streamk::gemm() on the GPU against a reference, with fresh random inputs and D poisoned with NaN
// before each run: every mode x reduction strategy x dtype x A/B layout over shapes with tails,
// tiny and huge k, thousands of tiles, batches and forced block counts; determinism; CUDA graph
// replay; concurrency. Skips cleanly without a GPU.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gpu_test_util.h"
#include "streamk/plan_print.h"
#include "streamk/streamk.h"
#include "streamk/trace_summary.h"
#include "launch.h"
#include "work_mapping.h"

namespace streamk {
namespace {

using testing::DeviceBuffer;
using testing::RefView;

// The mainloop the suite runs (Options::mainloop): the environment variable STREAMK_TEST_MAINLOOP
// (sm80, sm90-cpasync or sm90-tma; scripts/gpu_check.sh runs chunks of the suite on each), unset:
// the device's best. The tests plan and run with TestOptions() and ask TestDevice() for the
// kernel configurations.
std::optional<Mainloop> TestMainloop() {
  static const std::optional<Mainloop> m = [] {
    const char* name = std::getenv("STREAMK_TEST_MAINLOOP");
    if (name == nullptr || *name == '\0') return std::optional<Mainloop>();
    const std::optional<Mainloop> parsed = ParseMainloop(name);
    if (!parsed) {
      std::fprintf(stderr, "STREAMK_TEST_MAINLOOP=%s: expected sm80, sm90-cpasync or sm90-tma\n",
                   name);
      std::exit(2);
    }
    return parsed;
  }();
  return m;
}
Options TestOptions() {
  Options o;
  o.mainloop = TestMainloop();
  return o;
}
absl::StatusOr<DeviceSpec> TestDevice() { return QueryLocalDevice(-1, TestMainloop()); }

struct Shape {
  int64_t m, n, k, batch;
};

struct Config {
  Shape s;
  DType in = DType::kF16, out = DType::kF16;
  Layout a = Layout::kRowMajor, b = Layout::kColMajor, cd = Layout::kRowMajor;
  float alpha = 1.0f, beta = 0.0f;
  bool c_is_d = false;
  // Batch strides of A and B in elements; -1: the matrix size (rounded up), 0: every batch entry
  // reads the same matrix, smaller than the matrix: entries overlap.
  int64_t stride_a = -1, stride_b = -1;
  // Elements of D (and C) past each stored row's end and past each batch entry's end.
  int64_t ldd_extra = 0, stride_d_extra = 0;
  // lda, ldb and their batch strides odd multiples of 8 elements: K-major rows then start at odd
  // multiples of 16 bytes (the rows the planner may repack).
  bool odd_rows = false;
  // lda without the 8 elements of padding past the row (A's rows then lie on 128-byte lines
  // where they hold a multiple of 64 elements: OperandLayout::rows_on_lines).
  bool packed_a = false;
  // Operands not 16-byte aligned (kUnalignedA, kUnalignedB, kUnalignedCD): leading dimensions
  // and batch strides one element past the minimum, and addresses one element into their
  // buffers.
  int unaligned = 0;
};
constexpr int kUnalignedA = 1, kUnalignedB = 2, kUnalignedCD = 4;

int64_t Align(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

double Tolerance(DType out) {
  return out == DType::kBF16 ? 1e-2 : out == DType::kF16 ? 2e-3 : 5e-4;
}

// Relative Frobenius error of D, measured against at least the smallest normal magnitude of the
// output type per element: fp16 spaces its subnormals 6e-8 apart, so a correctly rounded 1x1x1
// product of magnitude 4e-6 is off by up to 0.7% of itself (seen on an H200, a fresh random draw).
double OutputError(const std::vector<float>& got, const std::vector<float>& want, DType out) {
  return testing::RelativeFrobenius(got, want, out == DType::kF16 ? 6.103515625e-5 : 0.0);
}

std::string Describe(const Config& c, const Options& o) {
  return absl::StrCat(c.s.m, "x", c.s.n, "x", c.s.k, " batch ", c.s.batch, " in ", DTypeName(c.in),
                      " out ", DTypeName(c.out), " A ", LayoutName(c.a), " B ", LayoutName(c.b),
                      " CD ", LayoutName(c.cd), " beta ", c.beta, " mode ", ModeName(o.mode),
                      " splits ", o.splits, " blocks ", o.blocks, " reduction ",
                      o.reduction ? ReductionName(*o.reduction) : "(planner)", " tile ",
                      o.tile == kNoTile ? "(planner)" : TileShapeName(o.tile), " repack ",
                      o.repack ? RepackOperandsName(*o.repack) : "(planner)", " schedule ",
                      (o.schedule ? ScheduleName(*o.schedule) : "(planner)"));
}

// One problem's buffers: A, B, C, D with leading dimensions a little above the minimum.
struct Buffers {
  GemmArgs args;
  DeviceBuffer a, b, c, d, c_copy;
  int64_t d_elems = 0;
  // Elements from A's (B's) first batch entry to its last's end.
  int64_t a_extent = 0, b_extent = 0;

  explicit Buffers(const Config& cfg) {
    GemmArgs& g = args;
    g.m = cfg.s.m, g.n = cfg.s.n, g.k = cfg.s.k, g.batch = cfg.s.batch;
    g.input = cfg.in, g.output = cfg.out;
    g.a_layout = cfg.a, g.b_layout = cfg.b, g.cd_layout = cfg.cd;
    g.alpha = cfg.alpha, g.beta = cfg.beta;
    const int in_align = 8, out_align = 16 / DTypeBytes(cfg.out);
    g.lda = Align(cfg.a == Layout::kRowMajor ? g.k : g.m, in_align) +
            (cfg.packed_a ? 0 : in_align);
    g.ldb = Align(cfg.b == Layout::kRowMajor ? g.n : g.k, in_align);
    auto odd = [](int64_t x) { return x % 16 == 0 ? x + 8 : x; };
    if (cfg.odd_rows) g.lda = odd(g.lda), g.ldb = odd(g.ldb);
    g.ldd = Align(cfg.cd == Layout::kRowMajor ? g.n : g.m, out_align) + cfg.ldd_extra;
    const bool ua = cfg.unaligned & kUnalignedA, ub = cfg.unaligned & kUnalignedB;
    const bool ucd = cfg.unaligned & kUnalignedCD;
    if (ua) g.lda = (cfg.a == Layout::kRowMajor ? g.k : g.m) + 1;
    if (ub) g.ldb = (cfg.b == Layout::kRowMajor ? g.n : g.k) + 1;
    if (ucd) g.ldd = (cfg.cd == Layout::kRowMajor ? g.n : g.m) + 1 + cfg.ldd_extra;
    g.ldc = g.ldd;
    const int64_t a_elems = g.lda * (cfg.a == Layout::kRowMajor ? g.m : g.k);
    const int64_t b_elems = g.ldb * (cfg.b == Layout::kRowMajor ? g.k : g.n);
    d_elems = g.ldd * (cfg.cd == Layout::kRowMajor ? g.m : g.n);
    g.stride_a = cfg.stride_a >= 0 ? cfg.stride_a : ua ? a_elems + 1 : Align(a_elems, in_align);
    g.stride_b = cfg.stride_b >= 0 ? cfg.stride_b : ub ? b_elems + 1 : Align(b_elems, in_align);
    if (cfg.odd_rows && cfg.stride_a < 0) g.stride_a = odd(g.stride_a);
    if (cfg.odd_rows && cfg.stride_b < 0) g.stride_b = odd(g.stride_b);
    g.stride_c = g.stride_d =
        (ucd ? d_elems + 1 : Align(d_elems, out_align)) + cfg.stride_d_extra;
    a_extent = Align(g.stride_a * (g.batch - 1) + a_elems, in_align);
    b_extent = Align(g.stride_b * (g.batch - 1) + b_elems, in_align);
    const int ib = DTypeBytes(cfg.in), ob = DTypeBytes(cfg.out);
    // One element more in each buffer, for an address one element in.
    a = DeviceBuffer((a_extent + 1) * ib);
    b = DeviceBuffer((b_extent + 1) * ib);
    d = DeviceBuffer((g.stride_d * g.batch + 1) * ob);
    c = DeviceBuffer(cfg.c_is_d ? 0 : (g.stride_c * g.batch + 1) * ob);
    c_copy = DeviceBuffer(g.stride_c * g.batch * ob);
    g.a = static_cast<char*>(a.get()) + (ua ? ib : 0);
    g.b = static_cast<char*>(b.get()) + (ub ? ib : 0);
    g.d = static_cast<char*>(d.get()) + (ucd ? ob : 0);
    g.c = cfg.c_is_d ? g.d : static_cast<char*>(c.get()) + (ucd ? ob : 0);
  }

  // Fresh inputs; D poisoned (or, when C is D, set to fresh C values).
  cudaError_t Refresh(const Config& cfg, uint64_t seed) {
    const GemmArgs& g = args;
    cudaError_t e = testing::Fill(a.get(), cfg.in, a_extent + 1, seed * 4 + 1);
    if (e == cudaSuccess) e = testing::Fill(b.get(), cfg.in, b_extent + 1, seed * 4 + 2);
    void* c_ptr = const_cast<void*>(g.c);
    if (e == cudaSuccess) e = testing::Fill(c_ptr, cfg.out, g.stride_c * g.batch, seed * 4 + 3);
    if (e == cudaSuccess)
      e = cudaMemcpy(c_copy.get(), c_ptr, c_copy.bytes(), cudaMemcpyDeviceToDevice);
    if (e == cudaSuccess && !cfg.c_is_d)
      e = testing::Fill(g.d, cfg.out, g.stride_d * g.batch, 0, /*nan=*/true);
    return e;
  }

  std::vector<float> Reference(const Config& cfg) {
    const GemmArgs& g = args;
    DeviceBuffer ref(g.m * g.n * g.batch * 4);
    RefView av{g.a, cfg.in, cfg.a == Layout::kRowMajor, g.lda, g.stride_a};
    RefView bv{g.b, cfg.in, cfg.b == Layout::kRowMajor, g.ldb, g.stride_b};
    RefView cv{c_copy.get(), cfg.out, cfg.cd == Layout::kRowMajor, g.ldc, g.stride_c};
    testing::ReferenceGemm(av, bv, cv, g.alpha, g.beta, g.m, g.n, g.k, g.batch,
                           static_cast<float*>(ref.get()));
    std::vector<float> out(g.m * g.n * g.batch);
    cudaMemcpy(out.data(), ref.get(), out.size() * 4, cudaMemcpyDeviceToHost);
    return out;
  }

  // Elements of D's buffer outside the m x n entries that no longer hold the NaN poison
  // (Refresh; only when C is not D).
  int64_t WrittenOutsideD(const Config& cfg) {
    const GemmArgs& g = args;
    const int bytes = DTypeBytes(cfg.out);
    std::vector<unsigned char> raw(g.stride_d * g.batch * bytes);
    if (cudaMemcpy(raw.data(), g.d, raw.size(), cudaMemcpyDeviceToHost) != cudaSuccess) return -1;
    const bool row = cfg.cd == Layout::kRowMajor;
    const int64_t rows = row ? g.m : g.n, cols = row ? g.n : g.m;
    int64_t written = 0;
    for (int64_t i = 0; i < g.stride_d * g.batch; ++i) {
      const int64_t in_entry = i % g.stride_d, r = in_entry / g.ldd, c = in_entry % g.ldd;
      if (r < rows && c < cols) continue;
      bool nan;
      if (bytes == 4) {
        float f;
        std::memcpy(&f, &raw[i * 4], 4);
        nan = std::isnan(f);
      } else {
        uint16_t h;
        std::memcpy(&h, &raw[i * 2], 2);
        const uint16_t exponent = cfg.out == DType::kBF16 ? 0x7F80 : 0x7C00;
        nan = (h & exponent) == exponent && (h & ~exponent & 0x7FFF) != 0;
      }
      written += nan ? 0 : 1;
    }
    return written;
  }

  std::vector<float> Result(const Config& cfg) {
    const GemmArgs& g = args;
    DeviceBuffer out(g.m * g.n * g.batch * 4);
    RefView dv{g.d, cfg.out, cfg.cd == Layout::kRowMajor, g.ldd, g.stride_d};
    testing::Gather(dv, g.m, g.n, g.batch, static_cast<float*>(out.get()));
    std::vector<float> host(g.m * g.n * g.batch);
    cudaMemcpy(host.data(), out.get(), host.size() * 4, cudaMemcpyDeviceToHost);
    return host;
  }
};

// Waits for `stream` up to `seconds`; false on timeout.
bool WaitWithTimeout(cudaStream_t stream, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (cudaStreamQuery(stream) == cudaErrorNotReady) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

// A GEMM that does not finish in time has hung the device: report what it was and stop the
// process (nothing else can run on the GPU), rather than hang the test run.
void FinishOrDie(cudaStream_t stream, const std::string& what) {
  if (WaitWithTimeout(stream, 20)) return;
  std::fprintf(stderr, "\nFATAL: GEMM did not finish in 20 s (deadlock?): %s\n", what.c_str());
  std::fflush(stderr);
  std::_Exit(3);
}

// One call captured into a CUDA graph on a stream of its own, the graph instantiated for replays
// (cudaGraphLaunch(exec(), stream())); the stream, graph and instance are destroyed with it.
class CapturedCall {
 public:
  CapturedCall() = default;
  CapturedCall(const CapturedCall&) = delete;
  CapturedCall& operator=(const CapturedCall&) = delete;
  ~CapturedCall() {
    if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
    if (graph_ != nullptr) cudaGraphDestroy(graph_);
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
  }

  // Captures call(stream()): the CUDA error of capturing or instantiating, else the call's status.
  template <typename Call>
  absl::Status Capture(Call call) {
    if (cudaError_t e = cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
        e != cudaSuccess)
      return Failed("cudaStreamCreateWithFlags", e);
    if (cudaError_t e = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal);
        e != cudaSuccess)
      return Failed("cudaStreamBeginCapture", e);
    const absl::Status s = call(stream_);
    if (cudaError_t e = cudaStreamEndCapture(stream_, &graph_); e != cudaSuccess)
      return Failed("cudaStreamEndCapture", e);
    if (!s.ok()) return s;
    if (cudaError_t e = cudaGraphInstantiate(&exec_, graph_, 0); e != cudaSuccess)
      return Failed("cudaGraphInstantiate", e);
    return absl::OkStatus();
  }

  cudaStream_t stream() const { return stream_; }
  cudaGraphExec_t exec() const { return exec_; }

 private:
  static absl::Status Failed(const char* what, cudaError_t e) {
    return absl::InternalError(absl::StrCat(what, ": ", cudaGetErrorString(e)));
  }

  cudaStream_t stream_ = nullptr;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

// Runs gemm() once on fresh inputs and checks it; returns the relative error (or +inf).
// `outside`, if given: elements written outside D's entries (Buffers::WrittenOutsideD).
double RunOnce(const Config& cfg, const Options& o, uint64_t seed, std::string* failure,
               std::string* plan_text, int64_t* outside = nullptr) {
  Buffers buf(cfg);
  if (absl::StatusOr<Plan> plan = PlanGemm(buf.args, o); plan.ok()) *plan_text = PlanSummary(*plan);
  if (cudaError_t e = buf.Refresh(cfg, seed); e != cudaSuccess) {
    *failure = cudaGetErrorName(e);
    return INFINITY;
  }
  const std::vector<float> want = buf.Reference(cfg);
  absl::Status s = gemm(buf.args, nullptr, o);
  if (!s.ok()) {
    *failure = std::string(s.message());
    return INFINITY;
  }
  FinishOrDie(nullptr, absl::StrCat(Describe(cfg, o), "\n", *plan_text));
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    *failure = absl::StrCat("kernel failed: ", cudaGetErrorName(e));
    return INFINITY;
  }
  if (outside != nullptr) *outside = buf.WrittenOutsideD(cfg);
  return OutputError(buf.Result(cfg), want, cfg.out);
}

// With `only_d` (C not D), also that no element of D's buffer outside its entries was written.
void ExpectCorrect(const Config& cfg, const Options& o, uint64_t seed, bool only_d = false) {
  std::string failure, plan;
  int64_t outside = -1;
  const double err = RunOnce(cfg, o, seed, &failure, &plan, only_d ? &outside : nullptr);
  EXPECT_TRUE(failure.empty()) << failure << "\n" << Describe(cfg, o);
  EXPECT_LT(err, Tolerance(cfg.out)) << Describe(cfg, o) << "\n" << plan;
  if (only_d)
    EXPECT_EQ(outside, 0) << "elements written outside D: " << Describe(cfg, o) << "\n" << plan;
}

std::vector<Options> EveryModeAndReduction() {
  std::vector<Options> out;
  Options o = TestOptions();
  o.mode = Mode::kAuto;
  out.push_back(o);
  o.mode = Mode::kDataParallel;
  out.push_back(o);
  for (Reduction r : {Reduction::kDeterministic, Reduction::kAtomic, Reduction::kSeparate}) {
    Options s = TestOptions();
    s.reduction = r;
    s.mode = Mode::kAuto;
    out.push_back(s);
    s.mode = Mode::kStreamK;
    out.push_back(s);
    s.mode = Mode::kSplitK;
    out.push_back(s);
    s.mode = Mode::kStreamK;  // the partial wave's tiles Stream-K, the rest data-parallel
    s.sk_tiles = kPartialWaveTiles;
    out.push_back(s);
  }
  return out;
}

uint64_t NextSeed() {
  static uint64_t seed = static_cast<uint64_t>(
      std::chrono::steady_clock::now().time_since_epoch().count());
  return ++seed;
}

// Every shape in fp16 and bf16, every A/B layout, every mode and reduction, on `tile` (kNoTile:
// the planner's pick), with `schedule` (unset: the planner's, dynamic for Stream-K and split-K).
void ExpectCorrectEverywhere(const std::vector<Shape>& shapes, TileShape tile = kNoTile,
                             std::optional<Schedule> schedule = std::nullopt) {
  for (const Shape& s : shapes) {
    for (DType in : {DType::kF16, DType::kBF16}) {
      for (Layout a : {Layout::kRowMajor, Layout::kColMajor}) {
        for (Layout b : {Layout::kRowMajor, Layout::kColMajor}) {
          for (Options o : EveryModeAndReduction()) {
            o.tile = tile;
            o.schedule = schedule;
            Config c;
            c.s = s, c.in = c.out = in, c.a = a, c.b = b;
            // Half the layouts scale by alpha: the epilogue stages unscaled where alpha == 1.
            c.alpha = a == b ? 1.0f : 0.75f;
            ExpectCorrect(c, o, NextSeed());
          }
        }
      }
    }
  }
}

TEST(GemmGpu, EveryModeReductionDtypeAndLayoutOnTailShapes) {
  STREAMK_SKIP_WITHOUT_GPU();
  ExpectCorrectEverywhere({{1, 1, 1, 1}, {7, 9, 5, 1}, {100, 77, 45, 1}, {129, 257, 33, 1},
                           {300, 260, 200, 1}, {1536, 1536, 512, 1}});
}

// The same with the static schedule forced: Stream-K and split-K plans then launch cooperatively,
// block b running work blocks b, b + grid, ... (the default takes them from a counter).
TEST(GemmGpu, EveryModeReductionDtypeAndLayoutStatic) {
  STREAMK_SKIP_WITHOUT_GPU();
  ExpectCorrectEverywhere(
      {{7, 9, 5, 1}, {129, 257, 33, 1}, {300, 260, 200, 1}, {1536, 1536, 512, 1}}, kNoTile,
      Schedule::kStatic);
}

// 333 x 517: rows of 333 or 517 elements, whose C and D the epilogue reads and writes itself;
// 336 x 520: on sm_90a C and D go through TMA loads and stores (fp32 in two rounds of half the
// tile's columns), also when C is D; 336 x 40 with D row-major: fp32 rows that end in the first
// round, which the second skips.
TEST(GemmGpu, OutputTypesLayoutsAndBeta) {
  STREAMK_SKIP_WITHOUT_GPU();
  for (const Shape& shape :
       {Shape{333, 517, 700, 1}, Shape{336, 520, 700, 1}, Shape{336, 40, 700, 1}}) {
    for (DType out : {DType::kF16, DType::kBF16, DType::kF32}) {
      for (Layout cd : {Layout::kRowMajor, Layout::kColMajor}) {
        for (bool c_is_d : {false, true}) {
          for (const Options& o : EveryModeAndReduction()) {
            Config c;
            c.s = shape;
            c.out = out, c.cd = cd, c.alpha = 0.75f, c.beta = -1.25f, c.c_is_d = c_is_d;
            ExpectCorrect(c, o, NextSeed());
          }
        }
      }
    }
  }
}

// The epilogue writes D's m x n entries and nothing else: rows padded past n (or m), batch entries
// apart by more than a matrix, alpha scaling, and every output type with beta 0 and beta != 0.
// On sm_90a, D with stored rows a multiple of 16 bytes long is stored by TMA (and C loaded by
// TMA), clipped at partial tiles (here 520 and 136 wide); the rest by the block's own stores.
// TMA stores of rows 517 or 257 elements long wrote up to the next 16-byte boundary.
TEST(GemmGpu, EpilogueWritesOnlyDsEntries) {
  STREAMK_SKIP_WITHOUT_GPU();
  const Shape shapes[] = {{333, 520, 700, 2}, {136, 264, 64, 1}, {129, 257, 64, 1}, {1, 1, 1, 1}};
  for (const Shape& shape : shapes) {
    for (DType out : {DType::kF16, DType::kBF16, DType::kF32}) {
      for (Layout cd : {Layout::kRowMajor, Layout::kColMajor}) {
        for (float beta : {0.0f, 0.5f}) {
          for (const Options& o : EveryModeAndReduction()) {
            Config c;
            c.s = shape, c.out = out, c.cd = cd, c.alpha = 0.75f, c.beta = beta;
            c.ldd_extra = 8, c.stride_d_extra = 24;
            ExpectCorrect(c, o, NextSeed(), /*only_d=*/true);
          }
        }
      }
    }
  }
}

TEST(GemmGpu, SingleTileWithHugeK) {
  STREAMK_SKIP_WITHOUT_GPU();
  for (const Options& o : EveryModeAndReduction()) {
    Config c;
    c.s = {128, 128, 131072, 1};
    c.out = DType::kF32;
    ExpectCorrect(c, o, NextSeed());
  }
}

TEST(GemmGpu, ThousandsOfTiles) {
  STREAMK_SKIP_WITHOUT_GPU();
  for (const Options& o : EveryModeAndReduction()) {
    Config c;
    c.s = {6144, 5120 - 8, 264, 1};  // 48 x 40 = 1920 tiles
    ExpectCorrect(c, o, NextSeed());
  }
}

TEST(GemmGpu, Batched) {
  STREAMK_SKIP_WITHOUT_GPU();
  for (const Options& o : EveryModeAndReduction()) {
    for (Layout cd : {Layout::kRowMajor, Layout::kColMajor}) {
      for (float beta : {0.0f, 0.5f}) {
        Config c;
        c.s = {200, 300, 456, 7};
        c.cd = cd, c.a = Layout::kColMajor, c.b = Layout::kRowMajor, c.beta = beta;
        ExpectCorrect(c, o, NextSeed());
      }
    }
  }
}

// Batch strides the TMA descriptors handle specially: A shared by every entry (stride 0, read as
// one matrix) and B's entries overlapping (stride of 8 columns; the kernel falls back to the
// cp.async loads where the driver refuses to describe it).
TEST(GemmGpu, BatchedWithSharedAndOverlappingOperands) {
  STREAMK_SKIP_WITHOUT_GPU();
  for (const Options& o : EveryModeAndReduction()) {
    for (Layout a : {Layout::kRowMajor, Layout::kColMajor}) {
      Config c;
      c.s = {200, 300, 456, 5};
      c.a = a, c.stride_a = 0;
      c.stride_b = 8 * 456;  // B column-major, ldb = 456: entries 8 columns apart
      ExpectCorrect(c, o, NextSeed());
    }
  }
}

TEST(GemmGpu, ForcedBlockCounts) {
  STREAMK_SKIP_WITHOUT_GPU();
  for (int blocks : {1, 2, 7, 131, 132, 133, 264, 265, 500, 1000}) {
    for (Reduction r : {Reduction::kDeterministic, Reduction::kAtomic, Reduction::kSeparate}) {
      Options o = TestOptions();
      o.mode = Mode::kStreamK, o.blocks = blocks, o.reduction = r;
      Config c;
      c.s = {1536, 1536, 1024, 1};
      ExpectCorrect(c, o, NextSeed());
    }
  }
  for (int splits : {1, 2, 3, 8, 16}) {  // 16: every 64-deep k-iteration its own split
    Options o = TestOptions();
    o.mode = Mode::kSplitK, o.splits = splits;
    Config c;
    c.s = {1000, 1000, 1024, 1};
    ExpectCorrect(c, o, NextSeed());
  }
}

// The partial wave's tiles Stream-K ahead of data-parallel tiles, reduced by a separate wave in
// every slicing from whole tiles to 8 columns, on shapes with edge tiles, beta and fp32 output.
// Slices of up to 2 per tile are summed in two passes of 64 rows, narrower ones in one round of
// loads (Fixup::SumSliceToStage); 0 is the planner's slicing (8-column slices of 1 tail tile).
TEST(GemmGpu, PartialWaveStreamKWithEveryReductionSlicing) {
  STREAMK_SKIP_WITHOUT_GPU();
  const Shape shapes[] = {{2432, 1792, 1024, 1},   // 133 tiles of 128 x 256 (or 266 of 128 x 128)
                          {2440, 1790, 1000, 1},   // the same with edge tiles
                          {3000, 2900, 520, 1}};   // 276 / 552 tiles: two full waves and a tail
  for (const Shape& shape : shapes) {
    for (int blocks : {0, 2, 7, 66, 132}) {
      for (int slices : {0, 1, 2, 4, 8, 16}) {
        Options o = TestOptions();
        o.mode = Mode::kStreamK, o.sk_tiles = kPartialWaveTiles, o.blocks = blocks;
        o.reduction = Reduction::kSeparate, o.reduction_slices = slices;
        Config c;
        c.s = shape;
        if (slices == 1 || slices == 4) c.out = DType::kF32, c.alpha = 0.5f, c.beta = 2.0f;
        ExpectCorrect(c, o, NextSeed());
      }
    }
    for (Reduction r : {Reduction::kDeterministic, Reduction::kAtomic}) {
      Options o = TestOptions();
      o.mode = Mode::kStreamK, o.sk_tiles = kPartialWaveTiles, o.reduction = r;
      Config c;
      c.s = shape;
      ExpectCorrect(c, o, NextSeed());
    }
  }
}

// Every kernel configuration's tile (DeviceSpec::kernels), the cluster one's included.
std::vector<TileShape> KernelTiles(const DeviceSpec& dev) {
  std::vector<TileShape> tiles;
  for (const KernelConfig& c : dev.kernels)
    if (c.tile != kNoTile) tiles.push_back(c.tile);
  return tiles;
}

// A Stream-K block loads each whole tile of its range from the k-iteration its clock is at, not
// from the first (persistent_kernel.cuh): few blocks over many tiles, K with a tail (1000 =
// 15 x 64 + 40, the partial k-iteration loaded mid-tile), every layout and kernel tile, both
// 16-bit dtypes, each reduction.
TEST(GemmGpu, StreamKBlocksLoadWholeTilesRotated) {
  STREAMK_SKIP_WITHOUT_GPU();
  absl::StatusOr<DeviceSpec> dev = TestDevice();
  ASSERT_TRUE(dev.ok()) << dev.status();
  for (const TileShape& tile : KernelTiles(*dev)) {
    for (Layout a : {Layout::kRowMajor, Layout::kColMajor}) {
      for (Layout b : {Layout::kRowMajor, Layout::kColMajor}) {
        for (int blocks : {3, 29}) {
          for (Reduction r :
               {Reduction::kDeterministic, Reduction::kAtomic, Reduction::kSeparate}) {
            Options o = TestOptions();
            o.mode = Mode::kStreamK, o.blocks = blocks, o.reduction = r, o.tile = tile;
            Config c;
            c.s = {1000, 1100, 1000, 1};
            c.a = a, c.b = b;
            c.in = c.out = blocks == 3 ? DType::kF16 : DType::kBF16;
            ExpectCorrect(c, o, NextSeed());
          }
        }
      }
    }
  }
}

// Options::tile runs that kernel configuration in every decomposition; a tile the device has no
// kernel for is an InvalidArgument that leaves D alone.
TEST(GemmGpu, ForcedTileRunsThatKernel) {
  STREAMK_SKIP_WITHOUT_GPU();
  absl::StatusOr<DeviceSpec> dev = TestDevice();
  ASSERT_TRUE(dev.ok()) << dev.status();
  const std::vector<TileShape> tiles = KernelTiles(*dev);
  const Shape shapes[] = {{2432, 1792, 1024, 1}, {2440, 1790, 1000, 1}};
  for (const TileShape& tile : tiles) {
    for (const Shape& shape : shapes) {
      for (Options o : EveryModeAndReduction()) {
        o.tile = tile;
        Config c;
        c.s = shape;
        Buffers buf(c);
        absl::StatusOr<Plan> plan = PlanGemm(buf.args, o);
        ASSERT_TRUE(plan.ok()) << plan.status() << "\n" << Describe(c, o);
        EXPECT_EQ(TileShapeName({plan->tile_m, plan->tile_n, plan->tile_k}), TileShapeName(tile));
        ExpectCorrect(c, o, NextSeed());
      }
    }
  }
  Config c;
  c.s = {256, 256, 256, 1};
  Buffers buf(c);
  ASSERT_EQ(buf.Refresh(c, NextSeed()), cudaSuccess);
  Options o = TestOptions();
  o.tile = TileShape{64, 64, 16};
  absl::Status s = gemm(buf.args, nullptr, o);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(s.message().find("tile = 64x64x16"), std::string::npos) << s;
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<float> d = buf.Result(c);  // still the NaN poison of Refresh
  EXPECT_TRUE(std::all_of(d.begin(), d.end(), [](float x) { return std::isnan(x); }));
  EXPECT_EQ(buf.WrittenOutsideD(c), 0);
}

// Split-K partial stores of edge tiles carry only the fragments that hold elements of D: a
// workspace whose partial slots start as NaN still gives the right D with every kernel
// configuration and reduction (the turnstile's and atomics' later steps read the unstored
// fragments' NaN into elements outside D), and where every tile has 16 rows (or columns) in D a
// separate reduction's blocks write only that share of the slots' bytes. 40 x 1000: edges that
// are not multiples of a fragment's rows or columns.
TEST(GemmGpu, EdgeTilePartialsMoveOnlyTheirElements) {
  STREAMK_SKIP_WITHOUT_GPU();
  absl::StatusOr<DeviceSpec> dev = TestDevice();
  ASSERT_TRUE(dev.ok()) << dev.status();
  const std::vector<TileShape> tiles = KernelTiles(*dev);
  const Shape shapes[] = {{16, 1024, 4096, 1}, {1024, 16, 4096, 1}, {40, 1000, 2048, 1}};
  for (const TileShape& tile : tiles) {
    for (const Shape& shape : shapes) {
      for (Reduction r : {Reduction::kDeterministic, Reduction::kAtomic, Reduction::kSeparate}) {
        for (int splits : {3, 8}) {
          Config c;
          c.s = shape;
          Options o = TestOptions();
          o.mode = Mode::kSplitK, o.splits = splits, o.reduction = r, o.tile = tile;
          Buffers buf(c);
          CUDA_ASSERT(buf.Refresh(c, NextSeed()));
          const std::vector<float> want = buf.Reference(c);
          absl::StatusOr<Plan> plan = PlanGemm(buf.args, o);
          absl::StatusOr<size_t> bytes = GetWorkspaceSize(buf.args, o);
          ASSERT_TRUE(plan.ok() && bytes.ok()) << Describe(c, o);
          ASSERT_GT(plan->partials_bytes, 0) << Describe(c, o);
          DeviceBuffer ws(*bytes);
          char* partials = static_cast<char*>(ws.get()) + plan->partials_offset;
          CUDA_ASSERT(cudaMemset(ws.get(), 0, *bytes));
          CUDA_ASSERT(cudaMemset(partials, 0xFF, plan->partials_bytes));  // NaN in every float
          absl::Status st = gemm(buf.args, ws.get(), *bytes, nullptr, o);
          ASSERT_TRUE(st.ok()) << st << "\n" << Describe(c, o);
          FinishOrDie(nullptr, Describe(c, o));
          CUDA_ASSERT(cudaDeviceSynchronize());
          EXPECT_LT(OutputError(buf.Result(c), want, c.out), Tolerance(c.out))
              << Describe(c, o) << "\n" << PlanSummary(*plan);
          if ((shape.m != 16 && shape.n != 16) || r != Reduction::kSeparate) continue;
          std::vector<uint32_t> words(plan->partials_bytes / 4);
          CUDA_ASSERT(cudaMemcpy(words.data(), partials, plan->partials_bytes,
                                 cudaMemcpyDeviceToHost));
          const int64_t written =
              std::count_if(words.begin(), words.end(), [](uint32_t w) { return w != ~0u; });
          // The kernel's 16-wide side is its rows or its columns, whichever the plan shows.
          const int block_m = plan->tile_m / plan->cluster_m;
          const double share = plan->m == 16 ? 16.0 / block_m : 16.0 / plan->tile_n;
          EXPECT_GT(written, 0) << Describe(c, o);
          EXPECT_LE(written, static_cast<int64_t>(share * words.size()))
              << Describe(c, o) << "\n" << PlanSummary(*plan);
        }
      }
    }
  }
}

// The cluster configuration (2-SM clusters sharing B by TMA multicast, Plan::cluster_m) in every
// layout, dtype, mode and reduction: tails in m (a cluster's second block entirely past m), n (an
// n-contiguous B's last tile loading fewer boxes, split between the blocks) and k, a batch,
// beta with C = D, and operands whose rows start at odd multiples of 16 bytes.
TEST(GemmGpu, ClusterTileEveryLayoutModeAndTail) {
  STREAMK_SKIP_WITHOUT_GPU();
  absl::StatusOr<DeviceSpec> dev = TestDevice();
  ASSERT_TRUE(dev.ok()) << dev.status();
  if (dev->TileOf(KernelRole::kCluster) == kNoTile)
    GTEST_SKIP() << dev->name << " has no cluster configuration";
  ExpectCorrectEverywhere({{100, 77, 45, 1},
                           {300, 260, 200, 1},
                           {129, 257, 1000, 1},
                           {1536, 1536, 512, 1},
                           {600, 1000, 700, 2}},
                          dev->TileOf(KernelRole::kCluster));
  for (Options o : EveryModeAndReduction()) {
    o.tile = dev->TileOf(KernelRole::kCluster);
    Config c;
    c.s = {700, 900, 1000, 1};
    c.alpha = 0.75f, c.beta = -1.25f, c.c_is_d = true;
    ExpectCorrect(c, o, NextSeed());
    Config odd;
    odd.s = {1000, 700, 1096, 1};
    odd.odd_rows = true;
    o.repack = RepackOperands::kNone;
    ExpectCorrect(odd, o, NextSeed());
  }
}

// The test device's kernel configuration of `role` on its own (skipped where it has none) in
// every layout, dtype, mode and reduction on `shapes`; then, in every mode and reduction, every
// output type with beta and C = D, and a batch of `padded` shapes whose padded rows of D past n
// may not be written; and operands whose rows start at odd multiples of 16 bytes.
void ExpectTileCorrectEverywhere(KernelRole role, const std::vector<Shape>& shapes,
                                 const Shape& padded_shape) {
  absl::StatusOr<DeviceSpec> dev = TestDevice();
  ASSERT_TRUE(dev.ok()) << dev.status();
  const TileShape tile = dev->TileOf(role);
  if (tile == kNoTile)
    GTEST_SKIP() << dev->name << " has no " << KernelRoleName(role) << " configuration";
  ExpectCorrectEverywhere(shapes, tile);
  for (Options o : EveryModeAndReduction()) {
    o.tile = tile;
    for (DType out : {DType::kF16, DType::kBF16, DType::kF32}) {
      Config c;
      c.s = {700, 1000, 1000, 1};
      c.in = out == DType::kBF16 ? DType::kBF16 : DType::kF16, c.out = out;
      c.alpha = 0.75f, c.beta = -1.25f, c.c_is_d = true;
      ExpectCorrect(c, o, NextSeed());
      Config padded;
      padded.s = padded_shape;
      padded.in = c.in, padded.out = out;
      padded.alpha = out == DType::kBF16 ? 0.75f : 1.0f;  // both of the epilogue's stagings
      padded.ldd_extra = 8, padded.stride_d_extra = 24;
      ExpectCorrect(padded, o, NextSeed(), /*only_d=*/true);
    }
    Config odd;
    odd.s = {1000, 700, 1096, 1};
    odd.odd_rows = true;
    o.repack = RepackOperands::kNone;
    ExpectCorrect(odd, o, NextSeed());
  }
}

// The third configuration (Hopper: 128 x 192, wgmma.m64n192k16): tails in n of 8, 136 and 191
// columns past a multiple of 192 (an n-contiguous B's last tile loading one or three of its 64-wide
// boxes), in m and in k, a batch (ExpectTileCorrectEverywhere).
TEST(GemmGpu, MidTileEveryLayoutModeAndEpilogue) {
  STREAMK_SKIP_WITHOUT_GPU();
  ExpectTileCorrectEverywhere(KernelRole::kMid,
                              {{100, 200, 45, 1},
                               {300, 520, 700, 1},
                               {129, 383, 1000, 1},
                               {1536, 1536, 512, 1},
                               {600, 1000, 700, 2}},
                              {300, 584, 2000, 2});
}

// The fourth configuration (Hopper: 192 x 192, three compute warp groups): tails in m and n of 1,
// 8, 64, 136 and 191 rows or columns past a multiple of 192 (an m- or n-contiguous operand's last
// tile loading one, two or three of its 64-wide boxes), and in k, a batch
// (ExpectTileCorrectEverywhere).
TEST(GemmGpu, WideTileEveryLayoutModeAndEpilogue) {
  STREAMK_SKIP_WITHOUT_GPU();
  ExpectTileCorrectEverywhere(KernelRole::kWide,
                              {{100, 200, 45, 1},
                               {200, 520, 700, 1},
                               {520, 193, 1000, 1},
                               {327, 383, 1000, 1},
                               {1536, 1536, 512, 1},
                               {600, 1000, 700, 2}},
                              {456, 584, 2000, 2});
}

// The fifth configuration (Hopper: 64 x 128, one compute warp group): tails of 1, 8 and 63 rows
// past a multiple of 64 along the tile's 64-row side (an m-contiguous operand's last tile loading
// its one 64-wide box, a k-contiguous one's fewer rows), 8 and 72 columns past a multiple of 128
// along the other, in k, a batch, and a decode shape of 16 rows split over many blocks
// (ExpectTileCorrectEverywhere; the kernel's rows are D's columns where D is row-major).
TEST(GemmGpu, FifthTileEveryLayoutModeAndEpilogue) {
  STREAMK_SKIP_WITHOUT_GPU();
  ExpectTileCorrectEverywhere(KernelRole::kSmall,
                              {{100, 65, 45, 1},
                               {200, 520, 700, 1},
                               {136, 127, 1000, 1},
                               {16, 4096, 2048, 1},
                               {1024, 1024, 512, 1},
                               {600, 1000, 700, 2}},
                              {456, 584, 2000, 2});
}

// The sixth configuration (Hopper: 128 x 320, a wgmma of n 256 and one of n 64 per k step, B's
// k-contiguous tile loaded as two boxes of 160 rows, D stored by the epilogue's own threads from
// 32 rows at a time): tails of 8, 136 and 319 columns past a multiple of 320 along the tile's
// 320-wide side (an n-contiguous B's last tile loading one, three or five of its 64-wide boxes, a
// k-contiguous one's own box of 136 rows), of 1 and 72 rows past a multiple of 128, in k, a batch
// (ExpectTileCorrectEverywhere), in both orientations of the call's m and n.
TEST(GemmGpu, BroadTileEveryLayoutModeAndEpilogue) {
  STREAMK_SKIP_WITHOUT_GPU();
  ExpectTileCorrectEverywhere(KernelRole::kBroad,
                              {{100, 328, 45, 1},
                               {328, 100, 45, 1},
                               {200, 456, 700, 1},
                               {456, 200, 700, 1},
                               {129, 639, 1000, 1},
                               {639, 129, 1000, 1},
                               {1536, 1536, 512, 1},
                               {600, 1000, 700, 2}},
                              {456, 584, 2000, 2});
}

// Tiles with few columns inside D run narrower wgmmas on the 128-wide configurations
// (kernels::NarrowWidthOf): 16, 32 or 64 columns where B is k-contiguous, 64 where it is
// n-contiguous. Every width and its edges, as the only tile along n (decode) and as the last of
// two, on the 128 x 128 and 64 x 128 tiles, every layout, dtype, mode and reduction (Stream-K
// peers sum partials of the narrow width), k deep enough to split, a batch.
TEST(GemmGpu, NarrowTilesEveryWidthLayoutAndMode) {
  STREAMK_SKIP_WITHOUT_GPU();
  absl::StatusOr<DeviceSpec> dev = TestDevice();
  ASSERT_TRUE(dev.ok()) << dev.status();
  std::vector<Shape> shapes;
  for (int64_t n : {1, 16, 17, 32, 33, 64, 65, 128 + 8, 128 + 24, 128 + 40})
    shapes.push_back({300, n, 1000, 1});
  shapes.push_back({200, 24, 700, 2});
  for (const TileShape& tile : {dev->TileOf(KernelRole::kAlt), dev->TileOf(KernelRole::kSmall)}) {
    if (tile == kNoTile) continue;
    SCOPED_TRACE(absl::StrCat("tile ", tile.m, "x", tile.n));
    ExpectCorrectEverywhere(shapes, tile);
  }
}

// A tile that holds fewer of an operand's rows than its side (the last tile along m or n, or
// the only one of a decode operand: 16 or 64 rows of a 128-wide side) loads only those
// (kernels::LoadsOf); the rest of each ring stage keeps whatever an earlier launch left there.
// Before each such GEMM, a GEMM of NaN inputs on every SM (each tile) fills the rings with NaN:
// none of it may reach D's entries.
TEST(GemmGpu, PartialTilesIgnoreStaleStageRows) {
  STREAMK_SKIP_WITHOUT_GPU();
  absl::StatusOr<DeviceSpec> dev = TestDevice();
  ASSERT_TRUE(dev.ok()) << dev.status();
  Config poison;
  poison.s = {4096, 2048, 512, 1};
  Buffers nan_buf(poison);
  ASSERT_EQ(testing::Fill(nan_buf.a.get(), poison.in, nan_buf.a_extent, 0, /*nan=*/true),
            cudaSuccess);
  ASSERT_EQ(testing::Fill(nan_buf.b.get(), poison.in, nan_buf.b_extent, 0, /*nan=*/true),
            cudaSuccess);
  auto fill_rings_with_nan = [&] {
    for (const TileShape& tile : {dev->main().tile, dev->TileOf(KernelRole::kAlt)}) {
      if (tile == kNoTile) continue;
      Options o = TestOptions();
      o.tile = tile;
      ASSERT_TRUE(gemm(nan_buf.args, nullptr, o).ok());
    }
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  };
  const Shape shapes[] = {{16, 3000, 1024, 1}, {3000, 40, 1024, 1}, {64, 1000, 512, 2},
                          {1000, 64, 2048, 1}, {8, 8, 4096, 1},       {300, 136, 1024, 1},
                          {136, 700, 512, 1},  {1000, 200, 256, 1},   {2000, 17, 1024, 1}};
  for (const Shape& shape : shapes) {
    for (Layout a : {Layout::kRowMajor, Layout::kColMajor}) {
      for (Layout b : {Layout::kRowMajor, Layout::kColMajor}) {
        for (Mode mode : {Mode::kAuto, Mode::kDataParallel, Mode::kStreamK, Mode::kSplitK}) {
          Config c;
          c.s = shape;
          c.a = a, c.b = b;
          Options o = TestOptions();
          o.mode = mode;
          fill_rings_with_nan();
          ExpectCorrect(c, o, NextSeed());
        }
      }
    }
  }
}

// Operands whose rows (K-major or M-/N-major) start at odd multiples of 16 bytes, copied to
// aligned K-major rows before the kernel (Options::repack): every layout (with both K-major, also
// each alone) and mode, k with a tail of fewer than 8
// elements, batches with their own and with one shared A; the plan copies
// what it says, into a caller-owned workspace of GetWorkspaceSize() bytes, which a Stream-K plan
// then reuses with its flags still zero.
TEST(GemmGpu, RepackedOperandsMatchTheReference) {
  STREAMK_SKIP_WITHOUT_GPU();
  absl::StatusOr<DeviceSpec> dev = TestDevice();
  ASSERT_TRUE(dev.ok()) << dev.status();
  const Shape shapes[] = {{1000, 700, 1000, 1}, {300, 260, 997, 1}, {136, 264, 520, 3},
                          {2, 3000, 4100, 1}};
  for (const Shape& shape : shapes) {
    for (Layout a : {Layout::kRowMajor, Layout::kColMajor}) {
      for (Layout b : {Layout::kRowMajor, Layout::kColMajor}) {
        for (Mode mode : {Mode::kAuto, Mode::kDataParallel, Mode::kStreamK, Mode::kSplitK}) {
          for (int64_t stride_a : {int64_t{-1}, int64_t{0}}) {
            // Every misaligned operand, and with both K-major (tn), each alone.
            for (RepackOperands r :
                 {RepackOperands::kAll, RepackOperands::kA, RepackOperands::kB}) {
              if (stride_a == 0 && shape.batch == 1) continue;
              const bool tn = a == Layout::kRowMajor && b == Layout::kColMajor;
              if (r != RepackOperands::kAll && !tn) continue;
              Config c;
              c.s = shape;
              c.a = a, c.b = b, c.stride_a = stride_a, c.odd_rows = true;
              Options o = TestOptions();
              o.mode = mode, o.repack = r;
              Buffers buf(c);
              absl::StatusOr<Plan> plan = PlanGemm(buf.args, o);
              ASSERT_TRUE(plan.ok()) << plan.status();
              // The kernel's A is the user's A here (D row-major). Every operand's rows, K-major
              // or M-/N-major, start at odd multiples of 16 bytes: each is copied where asked.
              EXPECT_EQ(plan->repack_a, r != RepackOperands::kB) << Describe(c, o);
              EXPECT_EQ(plan->repack_b, r != RepackOperands::kA) << Describe(c, o);
              ExpectCorrect(c, o, NextSeed());
            }
          }
        }
      }
    }
  }
  // A caller-owned workspace: the copies land past the flags, which stay zero for a Stream-K
  // plan run on the same workspace afterwards.
  Config c;
  c.s = {1000, 700, 1000, 1};
  c.odd_rows = true;
  Buffers buf(c);
  CUDA_ASSERT(buf.Refresh(c, NextSeed()));
  const std::vector<float> want = buf.Reference(c);
  Options repack, sk;
  repack.repack = RepackOperands::kAll, repack.mode = Mode::kDataParallel;
  sk.repack = RepackOperands::kNone, sk.mode = Mode::kStreamK;
  absl::StatusOr<size_t> repack_bytes = GetWorkspaceSize(buf.args, repack);
  absl::StatusOr<size_t> sk_bytes = GetWorkspaceSize(buf.args, sk);
  ASSERT_TRUE(repack_bytes.ok() && sk_bytes.ok());
  absl::StatusOr<Plan> plan = PlanGemm(buf.args, repack);
  ASSERT_TRUE(plan.ok());
  EXPECT_GE(*repack_bytes, static_cast<size_t>(plan->repack_b_offset + RepackedBytes(*plan, 'b')));
  const size_t bytes = std::max(*repack_bytes, *sk_bytes);
  DeviceBuffer ws(bytes);
  CUDA_ASSERT(cudaMemset(ws.get(), 0, bytes));
  for (const Options& o : {repack, sk, repack, sk}) {
    CUDA_ASSERT(testing::Fill(buf.d.get(), c.out, buf.d_elems, 0, /*nan=*/true));
    absl::Status s = gemm(buf.args, ws.get(), bytes, nullptr, o);
    ASSERT_TRUE(s.ok()) << s;
    FinishOrDie(nullptr, Describe(c, o));
    CUDA_ASSERT(cudaDeviceSynchronize());
    EXPECT_LT(OutputError(buf.Result(c), want, c.out), Tolerance(c.out)) << Describe(c, o);
  }
  // Too small a workspace for the copies is refused before anything runs.
  absl::Status s = gemm(buf.args, ws.get(), static_cast<size_t>(plan->repack_b_offset), nullptr,
                        repack);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
}

// M- or N-major operands with fewer than 64 elements along m or n (a decode projection's tokens
// stored token-contiguous: NarrowMnExtent) are copied to K-major rows through the transposing
// copy, where auto predicts it pays or Options::repack asks: the user's A (column-major, m of
// 1-63) or B (row-major, n of 1-63), as the kernel's A or B (D row- or column-major), alone and
// in batches with its own or a shared entry, in auto and every forced mode with the copy forced;
// 64 elements is not narrow, and nothing copies it.
TEST(GemmGpu, NarrowMnMajorOperandsCopiedToKMajorRows) {
  STREAMK_SKIP_WITHOUT_GPU();
  struct Batch {
    int64_t count, stride;  // stride of the narrow operand: -1 its own entries, 0 shared
  };
  for (int64_t narrow : {1, 8, 17, 63, 64}) {
    for (bool as_a : {false, true}) {
      for (Layout cd : {Layout::kRowMajor, Layout::kColMajor}) {
        for (const Batch& batch : {Batch{1, -1}, Batch{3, -1}, Batch{3, 0}}) {
          for (Mode mode : {Mode::kAuto, Mode::kDataParallel, Mode::kStreamK, Mode::kSplitK}) {
            Config c;
            // K-major operands on 32-byte rows (k = 4112, packed A): nothing else to copy.
            c.s = as_a ? Shape{narrow, 700, 4112, batch.count}
                       : Shape{700, narrow, 4112, batch.count};
            c.a = as_a ? Layout::kColMajor : Layout::kRowMajor;
            c.b = as_a ? Layout::kColMajor : Layout::kRowMajor;
            c.cd = cd;
            c.packed_a = true;
            (as_a ? c.stride_a : c.stride_b) = batch.stride;
            Options o = TestOptions();
            o.mode = mode;
            if (mode != Mode::kAuto) o.repack = RepackOperands::kAll;
            Buffers buf(c);
            absl::StatusOr<Plan> plan = PlanGemm(buf.args, o);
            ASSERT_TRUE(plan.ok()) << plan.status();
            // The user's narrow operand is the kernel's A where D is row-major and it is A, or
            // D is column-major and it is B.
            const bool kernel_a = as_a == (cd == Layout::kRowMajor);
            const bool copied = kernel_a ? plan->repack_a : plan->repack_b;
            const bool other = kernel_a ? plan->repack_b : plan->repack_a;
            EXPECT_FALSE(other) << Describe(c, o) << "\n" << *plan;
            if (mode != Mode::kAuto) EXPECT_EQ(copied, narrow < 64) << Describe(c, o);
            if (narrow == 64) EXPECT_FALSE(copied) << Describe(c, o);
            ExpectCorrect(c, o, NextSeed());
          }
        }
      }
    }
  }
}

// Leading dimensions, batch strides and addresses that are not 16-byte aligned (K = 61 or 1001,
// rows one element longer than the matrix, pointers one element into their buffers): unaligned
// A and B are copied to aligned K-major rows (transposed where mn-major), unaligned C and D read
// and written element by element. Every A/B/D layout, modes and reductions, fp16 and fp32 D,
// C = D, batches; nothing outside D's entries is written. Then a caller-owned workspace of
// GetWorkspaceSize() bytes.
TEST(GemmGpu, AnyLeadingDimensionAndAddressMatchesTheReference) {
  STREAMK_SKIP_WITHOUT_GPU();
  std::vector<Options> modes = {TestOptions()};
  modes[0].mode = Mode::kAuto;
  Options dp = TestOptions();
  dp.mode = Mode::kDataParallel;
  modes.push_back(dp);
  for (Reduction r : {Reduction::kDeterministic, Reduction::kAtomic, Reduction::kSeparate}) {
    for (Mode m : {Mode::kStreamK, Mode::kSplitK}) {
      Options o = TestOptions();
      o.mode = m, o.reduction = r;
      modes.push_back(o);
    }
  }
  const Shape shapes[] = {{37, 45, 61, 1}, {333, 517, 1001, 2}, {4, 1500, 515, 1}};
  int variant = 0;
  for (const Shape& shape : shapes) {
    for (Layout a : {Layout::kRowMajor, Layout::kColMajor}) {
      for (Layout b : {Layout::kRowMajor, Layout::kColMajor}) {
        for (Layout cd : {Layout::kRowMajor, Layout::kColMajor}) {
          for (int unaligned : {kUnalignedA | kUnalignedB | kUnalignedCD,
                                kUnalignedA | kUnalignedB, kUnalignedCD}) {
            for (const Options& o : modes) {
              ++variant;
              Config c;
              c.s = shape;
              c.a = a, c.b = b, c.cd = cd, c.unaligned = unaligned;
              c.in = variant % 3 == 0 ? DType::kBF16 : DType::kF16;
              c.out = variant % 4 == 0 ? DType::kF32 : c.in;
              c.alpha = 0.75f, c.beta = variant % 2 == 0 ? -1.25f : 0.0f;
              c.c_is_d = variant % 5 == 0 && c.beta != 0;
              Buffers buf(c);
              absl::StatusOr<Plan> plan = PlanGemm(buf.args, o);
              ASSERT_TRUE(plan.ok()) << plan.status() << "\n" << Describe(c, o);
              const bool want_copies = unaligned & kUnalignedA;  // A and B both, or neither
              EXPECT_EQ(plan->a_unaligned && plan->b_unaligned, want_copies) << Describe(c, o);
              EXPECT_EQ(plan->repack_a && plan->repack_b, want_copies) << Describe(c, o);
              ExpectCorrect(c, o, NextSeed(), /*only_d=*/!c.c_is_d);
            }
          }
        }
      }
    }
  }
  // A caller-owned workspace: GetWorkspaceSize counts the copies, and a smaller one is refused.
  Config c;
  c.s = {300, 200, 777, 1};
  c.unaligned = kUnalignedA | kUnalignedB | kUnalignedCD;
  Buffers buf(c);
  CUDA_ASSERT(buf.Refresh(c, NextSeed()));
  const std::vector<float> want = buf.Reference(c);
  absl::StatusOr<size_t> bytes = GetWorkspaceSize(buf.args);
  absl::StatusOr<Plan> plan = PlanGemm(buf.args);
  ASSERT_TRUE(bytes.ok() && plan.ok());
  EXPECT_GE(*bytes, static_cast<size_t>(plan->repack_b_offset + RepackedBytes(*plan, 'b')));
  DeviceBuffer ws(*bytes);
  CUDA_ASSERT(cudaMemset(ws.get(), 0, *bytes));
  absl::Status s = gemm(buf.args, ws.get(), *bytes, nullptr);
  ASSERT_TRUE(s.ok()) << s;
  FinishOrDie(nullptr, Describe(c, TestOptions()));
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_LT(OutputError(buf.Result(c), want, c.out), Tolerance(c.out));
  s = gemm(buf.args, ws.get(), static_cast<size_t>(plan->repack_b_offset), nullptr);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
}

// A D the TMA unit cannot store as a tensor, with beta 0, is written on sm_90a by a bulk copy of
// each row's 16-byte chunks and element stores at the row's ends (Epilogue::RunRows): rows one
// element longer than n and D one element into its buffer (each row at another offset within 16
// bytes). Aligned rows of n elements not a multiple of 16 bytes go through the TMA store up to
// the last 16-byte boundary, the rest by the threads' stores (Epilogue::StoreRest). fp16, bf16
// and fp32 D (its unaligned rows in two rounds of half a tile's columns; RowsOf), every kernel
// configuration, mode and reduction, D's layouts, a batch, and nothing written outside D; a
// 16-bit D's copies issued by the compute warps and by the copying warp (Options::store_d; the
// planner picks one per plan, kernels::StoreDOf; fp32 D's always by the compute warps), on
// every SM and on 5, where each block finishes several tiles and hands the copying warp one
// tile's rows after another.
TEST(GemmGpu, RowCopiesWriteOnlyDsEntriesOnEveryTile) {
  STREAMK_SKIP_WITHOUT_GPU();
  absl::StatusOr<DeviceSpec> dev = TestDevice();
  ASSERT_TRUE(dev.ok()) << dev.status();
  int variant = 0;
  for (StoreD copies : {StoreD::kRows, StoreD::kRowsCopyWarp}) {
    for (int sms : {0, 5}) {
      SCOPED_TRACE(absl::StrCat(StoreDName(copies), ", SMs ", sms));
      for (const TileShape& tile : KernelTiles(*dev)) {
        for (const Shape& shape : {Shape{300, 517, 700, 2}, Shape{517, 1000, 300, 1}}) {
          for (Layout cd : {Layout::kRowMajor, Layout::kColMajor}) {
            for (int unaligned : {0, kUnalignedCD}) {
              for (Options o : EveryModeAndReduction()) {
                o.tile = tile, o.avail_sms = sms;
                Config c;
                c.s = shape, c.cd = cd, c.unaligned = unaligned, c.alpha = 0.75f;
                c.in = ++variant % 2 == 0 ? DType::kBF16 : DType::kF16;
                c.out = variant % 3 == 0 ? DType::kF32 : c.in;  // fp32: the compute warps
                c.ldd_extra = 8, c.stride_d_extra = 24;
                // Rows of n + 8 16-bit elements are never 16-byte aligned, so the planner picks
                // the rows' copies itself on the TMA kernel; the 320-wide tile stores such a D
                // with its threads, and so do the other mainloops.
                o.store_d.reset();
                if (dev->mainloop == Mainloop::kSm90Tma && c.out != DType::kF32 && tile.n <= 256)
                  o.store_d = copies;
                ExpectCorrect(c, o, NextSeed(), /*only_d=*/true);
              }
            }
          }
        }
      }
    }
  }
}

std::vector<uint8_t> Bytes(const Buffers& b, const Config& cfg) {
  std::vector<uint8_t> out(b.args.stride_d * b.args.batch * DTypeBytes(cfg.out));
  cudaMemcpy(out.data(), b.d.get(), out.size(), cudaMemcpyDeviceToHost);
  return out;
}

// Ping-pong (kernels::PingPongOf): data-parallel plans of 128 x 128 tiles, D stored by TMA, where a
// block computes several tiles, run the configuration whose two compute warp groups take the
// block's tiles in turn. On 5 SMs (so that blocks run up to 16 tiles, odd and even counts) and on
// all, forced on (Options::pingpong = true; the planner's own rule takes K-major rows on 128-byte
// lines alone, and several tiles a block of 8-24 k-iterations): every layout, both input types,
// every output type, alpha 1 (the unscaled staging) and 0.75, C = D with beta, tails in m, n (a row
// ending inside a 16-byte chunk) and k (k 64: one k-iteration per tile, fewer than the ring's
// stages), a batch, and nothing written outside D. Each shape's result is also bitwise the shared
// tiles' (Options::pingpong = false): both sum every element's k-iterations in the same order. A
// traced launch records each tile's mainloop and epilogue, the two groups' events interleaved.
TEST(GemmGpu, PingPongEveryLayoutEpilogueAndTileCount) {
  STREAMK_SKIP_WITHOUT_GPU();
  absl::StatusOr<DeviceSpec> dev = TestDevice();
  ASSERT_TRUE(dev.ok()) << dev.status();
  if (dev->mainloop != Mainloop::kSm90Tma)
    GTEST_SKIP() << "ping-pong is a configuration of the TMA kernel (sm_90a)";
  Options o = TestOptions();
  o.mode = Mode::kDataParallel;
  o.tile = {128, 128, 64};
  int variant = 0;
  for (int sms : {5, 0}) {
    o.avail_sms = sms;
    for (const Shape& shape : {Shape{700, 1000, 1000, 1}, Shape{1000, 517, 64, 2},
                               Shape{1920, 2048, 320, 1}, Shape{129, 383, 200, 1}}) {
      Config probe;
      probe.s = shape;
      absl::StatusOr<Plan> plan = PlanGemm(Buffers(probe).args, o);
      ASSERT_TRUE(plan.ok()) << plan.status();
      // Forced on where the planner's rule does not run it.
      const bool by_rule = plan->pingpong;
      SCOPED_TRACE(absl::StrCat("SMs ", sms, by_rule ? "" : ", pingpong forced on", ", ",
                                PlanSummary(*plan)));
      for (Layout a : {Layout::kRowMajor, Layout::kColMajor}) {
        for (Layout b : {Layout::kRowMajor, Layout::kColMajor}) {
          // Forced: the planner runs M- or N-major operands on the shared tiles by default.
          Options on = o;
          on.pingpong = true;
          Config c;
          c.s = shape, c.a = a, c.b = b;
          c.in = ++variant % 2 == 0 ? DType::kBF16 : DType::kF16;
          c.out = variant % 3 == 0 ? DType::kF32 : c.in;
          c.alpha = variant % 4 < 2 ? 1.0f : 0.75f;
          c.ldd_extra = 8, c.stride_d_extra = 24;
          ExpectCorrect(c, on, NextSeed(), /*only_d=*/true);
          Config with_c = c;
          with_c.beta = -1.25f, with_c.c_is_d = true;
          with_c.ldd_extra = with_c.stride_d_extra = 0;
          ExpectCorrect(with_c, on, NextSeed());
        }
      }
      Config c;
      c.s = shape, c.alpha = 0.75f;
      Buffers buf(c);
      CUDA_ASSERT(buf.Refresh(c, NextSeed()));
      std::vector<uint8_t> ran[2];
      for (int shared = 0; shared < 2; ++shared) {
        Options run = o;
        run.pingpong = !shared;
        absl::StatusOr<Plan> ran_plan = PlanGemm(buf.args, run);
        ASSERT_TRUE(ran_plan.ok()) << ran_plan.status();
        EXPECT_EQ(ran_plan->pingpong, !shared) << PlanSummary(*ran_plan);
        CUDA_ASSERT(testing::Fill(buf.d.get(), c.out, buf.args.stride_d * c.s.batch, 0, true));
        ASSERT_TRUE(gemm(buf.args, nullptr, run).ok());
        CUDA_ASSERT(cudaDeviceSynchronize());
        ran[shared] = Bytes(buf, c);
      }
      EXPECT_EQ(ran[0], ran[1]) << "ping-pong and shared tiles differ: " << Describe(c, o);
    }
  }
  // The trace, of a launch that runs ping-pong by its own rule (K-major rows on 128-byte lines):
  // every tile's begin, mainloop end and epilogue end, in the right tile's piece.
  Config c;
  c.s = {1920, 2048, 640, 1};
  c.packed_a = true;
  o.avail_sms = 5;
  Buffers buf(c);
  absl::StatusOr<Plan> plan = PlanGemm(buf.args, o);
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_TRUE(plan->pingpong) << PlanSummary(*plan);
  c.packed_a = false;  // rows 16 bytes past a line: the shared tiles
  absl::StatusOr<Plan> padded = PlanGemm(Buffers(c).args, o);
  ASSERT_TRUE(padded.ok()) << padded.status();
  EXPECT_FALSE(padded->pingpong) << PlanSummary(*padded);
  c.packed_a = true;
  const int per_block = 3 * (plan->tiles / plan->grid_blocks + 1);
  const size_t count = static_cast<size_t>(plan->grid_blocks) * per_block;
  DeviceBuffer events(count * sizeof(TraceEvent));
  CUDA_ASSERT(cudaMemset(events.get(), 0, events.bytes()));
  o.trace = {static_cast<TraceEvent*>(events.get()), per_block};
  ExpectCorrect(c, o, NextSeed());
  std::vector<TraceEvent> host(count);
  CUDA_ASSERT(cudaMemcpy(host.data(), events.get(), events.bytes(), cudaMemcpyDeviceToHost));
  const TraceSummary s = SummarizeTrace(*plan, host, per_block);
  EXPECT_EQ(s.data_parallel.pieces, plan->tiles);
  EXPECT_EQ(s.truncated_blocks, 0);
  EXPECT_GT(s.data_parallel.mainloop_us, 0);
  EXPECT_GT(s.data_parallel.epilogue_us, 0);
}

// A traced launch records every piece of work of its plan, in order, and still computes D right.
TEST(GemmGpu, TraceRecordsEveryPieceOfThePlan) {
  STREAMK_SKIP_WITHOUT_GPU();
  Config cfg;
  cfg.s = {1536, 1536, 1024, 1};
  Buffers buf(cfg);
  Options o = TestOptions();
  o.mode = Mode::kStreamK, o.blocks = 200;
  absl::StatusOr<Plan> plan = PlanGemm(buf.args, o);
  ASSERT_TRUE(plan.ok()) << plan.status();
  const int per_block = 32;
  const size_t count = static_cast<size_t>(plan->grid_blocks) * per_block;
  DeviceBuffer events(count * sizeof(TraceEvent));
  CUDA_ASSERT(cudaMemset(events.get(), 0, events.bytes()));
  o.trace = {static_cast<TraceEvent*>(events.get()), per_block};
  ExpectCorrect(cfg, o, NextSeed());
  std::vector<TraceEvent> host(count);
  CUDA_ASSERT(cudaMemcpy(host.data(), events.get(), events.bytes(), cudaMemcpyDeviceToHost));

  int units = 0;
  for (int b = 0; b < plan->sk_blocks; ++b)
    for (mapping::SkUnit u = mapping::SkFirstUnit(*plan, b); u.valid();
         u = mapping::SkNextUnit(*plan, u))
      ++units;
  int begins = 0;
  for (int b = 0; b < plan->grid_blocks; ++b) {
    const TraceEvent* e = host.data() + static_cast<size_t>(b) * per_block;
    ASSERT_EQ(e[0].kind, TraceKind::kBegin) << "block " << b;
    for (int i = 0; i < per_block && e[i].kind != TraceKind::kEmpty; ++i) {
      begins += e[i].kind == TraceKind::kBegin;
      if (i > 0) {
        ASSERT_GE(e[i].cycles, e[i - 1].cycles) << "block " << b << " event " << i;
        ASSERT_TRUE(e[i].kind == TraceKind::kBegin || e[i].kind > e[i - 1].kind)
            << "block " << b << " event " << i;
      }
    }
  }
  EXPECT_EQ(begins, units);
  const TraceSummary s = SummarizeTrace(*plan, host, per_block);
  EXPECT_EQ(s.blocks, plan->grid_blocks);
  EXPECT_EQ(s.truncated_blocks, 0);
  EXPECT_EQ(s.streamk.pieces, units);
  EXPECT_GT(s.span_us, 0);
  EXPECT_GT(s.iteration_us, 0);
}

// Sanitizer target: small shapes, every mode (run under compute-sanitizer by the GPU script).
TEST(GemmGpu, SmallShapesEveryMode) {
  STREAMK_SKIP_WITHOUT_GPU();
  for (const Shape& s : {Shape{100, 77, 300, 1}, Shape{256, 384, 640, 2}}) {
    for (const Options& o : EveryModeAndReduction()) {
      for (float beta : {1.0f, 0.0f}) {  // 256 x 384: C and D through TMA on sm_90a
        Config c;
        c.s = s;
        c.beta = beta;
        ExpectCorrect(c, o, NextSeed());
      }
    }
  }
}

TEST(GemmGpu, DeterministicIsBitwiseReproducible) {
  STREAMK_SKIP_WITHOUT_GPU();
  for (Reduction r : {Reduction::kDeterministic, Reduction::kSeparate}) {
    Config cfg;
    cfg.s = {1536, 1536, 8192, 1};
    Buffers buf(cfg);
    CUDA_ASSERT(buf.Refresh(cfg, NextSeed()));
    Options o = TestOptions();
    o.mode = Mode::kStreamK, o.reduction = r, o.blocks = 264;  // ~4 peers per tile
    ASSERT_TRUE(gemm(buf.args, nullptr, o).ok());
    CUDA_ASSERT(cudaDeviceSynchronize());
    const std::vector<uint8_t> first = Bytes(buf, cfg);
    for (int run = 1; run < 20; ++run) {
      CUDA_ASSERT(testing::Fill(buf.d.get(), cfg.out, buf.args.stride_d, 0, true));
      ASSERT_TRUE(gemm(buf.args, nullptr, o).ok());
      CUDA_ASSERT(cudaDeviceSynchronize());
      ASSERT_EQ(first, Bytes(buf, cfg)) << "run " << run << " differs, " << ReductionName(r);
    }
  }
}

// Every int of the plan's flags area in `ws` (the flags, and a dynamic plan's counter) is zero, as
// every launch must leave it.
void ExpectFlagsZero(const Plan& plan, const void* ws) {
  std::vector<int> flags(plan.flags_bytes / 4, -1);
  CUDA_ASSERT(cudaMemcpy(flags.data(), static_cast<const char*>(ws) + plan.flags_offset,
                         plan.flags_bytes, cudaMemcpyDeviceToHost));
  EXPECT_EQ(std::count(flags.begin(), flags.end(), 0), static_cast<long>(flags.size()))
      << PlanSummary(plan);
}

TEST(GemmGpu, CudaGraphReplayLeavesFlagsZero) {
  STREAMK_SKIP_WITHOUT_GPU();
  Config cfg;
  cfg.s = {1536, 1536, 4096, 1};
  cfg.beta = 0.5f;
  Buffers buf(cfg);
  CUDA_ASSERT(buf.Refresh(cfg, NextSeed()));
  const std::vector<float> want = buf.Reference(cfg);
  for (Reduction r : {Reduction::kDeterministic, Reduction::kAtomic, Reduction::kSeparate}) {
    Options o = TestOptions();
    o.mode = Mode::kStreamK, o.reduction = r;
    absl::StatusOr<size_t> ws_bytes = GetWorkspaceSize(buf.args, o);
    ASSERT_TRUE(ws_bytes.ok()) << ws_bytes.status();
    ASSERT_GT(*ws_bytes, 0u);
    DeviceBuffer ws(*ws_bytes);
    CUDA_ASSERT(cudaMemset(ws.get(), 0, *ws_bytes));
    CapturedCall captured;
    const absl::Status s = captured.Capture(
        [&](cudaStream_t st) { return gemm(buf.args, ws.get(), *ws_bytes, st, o); });
    ASSERT_TRUE(s.ok()) << s;
    const cudaStream_t stream = captured.stream();
    const cudaGraphExec_t exec = captured.exec();
    std::vector<uint8_t> first;
    for (int replay = 0; replay < 50; ++replay) {
      CUDA_ASSERT(cudaGraphLaunch(exec, stream));
      CUDA_ASSERT(cudaStreamSynchronize(stream));
      const std::vector<uint8_t> now = Bytes(buf, cfg);
      if (replay == 0) {
        first = now;
        EXPECT_LT(OutputError(buf.Result(cfg), want, cfg.out), Tolerance(cfg.out));
      } else if (r != Reduction::kAtomic) {
        ASSERT_EQ(now, first) << "replay " << replay << " " << ReductionName(r);
      }
    }
    if (r == Reduction::kAtomic)
      EXPECT_LT(OutputError(buf.Result(cfg), want, cfg.out), Tolerance(cfg.out));
    absl::StatusOr<Plan> plan = PlanGemm(buf.args, o);
    ASSERT_TRUE(plan.ok());
    ExpectFlagsZero(*plan, ws.get());
  }
}

// By default a data-parallel plan of several rounds claims its tiles from a counter in the
// workspace. gemm() with the library's workspace, captured on a stream whose workspace has not
// been grown, runs the static schedule's plan instead (no workspace), and the graph's replays
// are right; on the same stream outside a capture the dynamic plan runs and is right too.
TEST(GemmGpu, DataParallelRoundsClaimByDefaultAndRunStaticWhenCapturedCold) {
  STREAMK_SKIP_WITHOUT_GPU();
  Config cfg;
  cfg.s = {3072, 3072, 2048, 1};
  Buffers buf(cfg);
  CUDA_ASSERT(buf.Refresh(cfg, NextSeed()));
  const std::vector<float> want = buf.Reference(cfg);
  auto poison = [&] {
    return testing::Fill(buf.args.d, cfg.out, buf.args.stride_d * buf.args.batch, 0, true);
  };
  const Options o = TestOptions();
  absl::StatusOr<Plan> plan = PlanGemm(buf.args, o);
  ASSERT_TRUE(plan.ok()) << plan.status();
  if (plan->mode != Mode::kDataParallel || plan->schedule != Schedule::kDynamic)
    GTEST_SKIP() << "this device's default plan is not a claimed data-parallel one:\n"
                 << PlanSummary(*plan);
  ASSERT_GT(plan->work_blocks, plan->grid_blocks) << PlanSummary(*plan);
  Options fixed = o;
  fixed.schedule = Schedule::kStatic;
  absl::StatusOr<size_t> static_bytes = GetWorkspaceSize(buf.args, fixed);
  ASSERT_TRUE(static_bytes.ok());
  ASSERT_EQ(*static_bytes, 0u);
  CapturedCall captured;
  const absl::Status s = captured.Capture([&](cudaStream_t st) { return gemm(buf.args, st, o); });
  ASSERT_TRUE(s.ok()) << s;
  const cudaStream_t stream = captured.stream();
  const cudaGraphExec_t exec = captured.exec();
  for (int replay = 0; replay < 3; ++replay) {
    CUDA_ASSERT(poison());
    CUDA_ASSERT(cudaGraphLaunch(exec, stream));
    CUDA_ASSERT(cudaStreamSynchronize(stream));
    EXPECT_LT(OutputError(buf.Result(cfg), want, cfg.out), Tolerance(cfg.out)) << replay;
  }
  for (int run = 0; run < 3; ++run) {
    CUDA_ASSERT(poison());
    ASSERT_TRUE(gemm(buf.args, stream, o).ok());
    CUDA_ASSERT(cudaStreamSynchronize(stream));
    EXPECT_LT(OutputError(buf.Result(cfg), want, cfg.out), Tolerance(cfg.out)) << run;
  }
}

// A chain of GEMMs on one stream with no host synchronization, each reading the D the GEMM
// before it wrote (m x k row-major with k = n), in a different mode each: with programmatic
// launch (Options::programmatic_launch, the default) every kernel may start before the one before
// it ends, and must still read only finished results. Then two GEMMs where the second writes the
// A the first reads. D buffers start as NaN, so a read too early shows. Twice: on rows k apart,
// and on rows k + 8 apart (odd multiples of 16 bytes) with every other GEMM copying its operands
// to aligned rows first (Options::repack), so that the copy kernel, launched programmatically
// too, reads the D the GEMM before it wrote and the GEMM after it reads only the finished copy.
TEST(GemmGpu, ChainedGemmsOnOneStreamSeeEachOthersResults) {
  STREAMK_SKIP_WITHOUT_GPU();
  const int64_t m = 1536, k = 2048;
  const int kSteps = 8;
  const float alpha = 3.0f / std::sqrt(static_cast<float>(k));  // keeps each D near unit scale
  for (const bool copies : {false, true}) {
    SCOPED_TRACE(copies ? "rows k + 8 apart, copied on every other step" : "rows k apart");
    const int64_t ld = copies ? k + 8 : k;
    std::vector<DeviceBuffer> x;  // x[i]: A of step i, D of step i - 1
    for (int i = 0; i <= kSteps; ++i) x.emplace_back(m * ld * 2);
    DeviceBuffer b(k * ld * 2);
    CUDA_ASSERT(testing::Fill(x[0].get(), DType::kF16, m * ld, NextSeed()));
    CUDA_ASSERT(testing::Fill(b.get(), DType::kF16, k * ld, NextSeed()));
    for (int i = 1; i <= kSteps; ++i)
      CUDA_ASSERT(testing::Fill(x[i].get(), DType::kF16, m * ld, 0, /*nan=*/true));
    CUDA_ASSERT(cudaDeviceSynchronize());
    auto args_of = [&](const void* a, void* d) {
      GemmArgs g;
      g.m = m, g.n = k, g.k = k;
      g.a = a, g.lda = ld;
      g.b = b.get(), g.ldb = ld;  // column-major k x k
      g.d = d, g.ldd = ld;
      g.alpha = alpha;
      return g;
    };
    std::vector<Options> modes = EveryModeAndReduction();
    auto options_of = [&](int i) {
      Options o = modes[(i * 5) % modes.size()];
      if (copies) o.repack = i % 2 == 0 ? RepackOperands::kAll : RepackOperands::kNone;
      return o;
    };
    if (copies) {  // the test's premise: the even steps copy, the odd ones do not
      for (int i = 0; i < 2; ++i) {
        absl::StatusOr<Plan> plan = PlanGemm(args_of(x[0].get(), x[1].get()), options_of(i));
        ASSERT_TRUE(plan.ok()) << plan.status();
        EXPECT_EQ(plan->repack_a && plan->repack_b, i == 0) << PlanSummary(*plan);
      }
    }
    cudaStream_t stream;
    CUDA_ASSERT(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (int i = 0; i < kSteps; ++i) {
      absl::Status s = gemm(args_of(x[i].get(), x[i + 1].get()), stream, options_of(i));
      ASSERT_TRUE(s.ok()) << s;
    }
    ASSERT_TRUE(WaitWithTimeout(stream, 30)) << "the chain did not finish in 30 s";
    CUDA_ASSERT(cudaGetLastError());
    auto check = [&](const void* a, const void* d, const std::string& what) {
      DeviceBuffer ref(m * k * 4), got(m * k * 4);
      RefView av{a, DType::kF16, true, ld, 0}, bv{b.get(), DType::kF16, false, ld, 0};
      RefView dv{d, DType::kF16, true, ld, 0};
      ASSERT_EQ(testing::ReferenceGemm(av, bv, dv, alpha, 0.0f, m, k, k, 1,
                                       static_cast<float*>(ref.get())),
                cudaSuccess);
      ASSERT_EQ(testing::Gather(dv, m, k, 1, static_cast<float*>(got.get())), cudaSuccess);
      std::vector<float> want(m * k), have(m * k);
      CUDA_ASSERT(cudaMemcpy(want.data(), ref.get(), want.size() * 4, cudaMemcpyDeviceToHost));
      CUDA_ASSERT(cudaMemcpy(have.data(), got.get(), have.size() * 4, cudaMemcpyDeviceToHost));
      EXPECT_LT(OutputError(have, want, DType::kF16), Tolerance(DType::kF16)) << what;
    };
    for (int i = 0; i < kSteps; ++i)
      check(x[i].get(), x[i + 1].get(),
            absl::StrCat("step ", i, ", mode ", ModeName(options_of(i).mode)));

    // Write after read: the second GEMM overwrites the first one's A.
    for (int pair = 0; pair < 4; ++pair) {
      DeviceBuffer a(m * ld * 2), a_copy(m * ld * 2), d(m * ld * 2), other(m * ld * 2);
      CUDA_ASSERT(testing::Fill(a.get(), DType::kF16, m * ld, NextSeed()));
      CUDA_ASSERT(testing::Fill(other.get(), DType::kF16, m * ld, NextSeed()));
      CUDA_ASSERT(testing::Fill(d.get(), DType::kF16, m * ld, 0, /*nan=*/true));
      CUDA_ASSERT(cudaMemcpy(a_copy.get(), a.get(), a.bytes(), cudaMemcpyDeviceToDevice));
      CUDA_ASSERT(cudaDeviceSynchronize());
      ASSERT_TRUE(gemm(args_of(a.get(), d.get()), stream, options_of(pair * 3)).ok());
      ASSERT_TRUE(gemm(args_of(other.get(), a.get()), stream, options_of(pair * 3 + 1)).ok());
      ASSERT_TRUE(WaitWithTimeout(stream, 30));
      CUDA_ASSERT(cudaGetLastError());
      check(a_copy.get(), d.get(), absl::StrCat("read before overwrite, pair ", pair));
      check(other.get(), a.get(), absl::StrCat("the overwrite, pair ", pair));
    }
    cudaStreamDestroy(stream);
  }
}

TEST(GemmGpu, TwoStreamsAtOnce) {
  STREAMK_SKIP_WITHOUT_GPU();
  Config c1, c2;
  c1.s = {1536, 1536, 4096, 1};
  c2.s = {2000, 700, 3000, 1};
  c2.in = c2.out = DType::kBF16;
  Buffers b1(c1), b2(c2);
  CUDA_ASSERT(b1.Refresh(c1, NextSeed()));
  CUDA_ASSERT(b2.Refresh(c2, NextSeed()));
  const std::vector<float> w1 = b1.Reference(c1), w2 = b2.Reference(c2);
  cudaStream_t s1, s2;
  CUDA_ASSERT(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CUDA_ASSERT(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  Options o = TestOptions();
  o.mode = Mode::kStreamK;
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(gemm(b1.args, s1, o).ok());
    ASSERT_TRUE(gemm(b2.args, s2, o).ok());
  }
  ASSERT_TRUE(WaitWithTimeout(s1, 30)) << "stream 1 did not finish in 30 s";
  ASSERT_TRUE(WaitWithTimeout(s2, 30)) << "stream 2 did not finish in 30 s";
  EXPECT_LT(OutputError(b1.Result(c1), w1, c1.out), Tolerance(c1.out));
  EXPECT_LT(OutputError(b2.Result(c2), w2, c2.out), Tolerance(c2.out));
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}

TEST(GemmGpu, RunsWhileAnotherKernelHoldsMostSms) {
  STREAMK_SKIP_WITHOUT_GPU();
  int device = 0, sms = 0, clock_khz = 0;
  CUDA_ASSERT(cudaGetDevice(&device));
  CUDA_ASSERT(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CUDA_ASSERT(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
  Config c;
  c.s = {1536, 1536, 8192, 1};
  Buffers buf(c);
  CUDA_ASSERT(buf.Refresh(c, NextSeed()));
  const std::vector<float> want = buf.Reference(c);
  cudaStream_t hog, work;
  CUDA_ASSERT(cudaStreamCreateWithFlags(&hog, cudaStreamNonBlocking));
  CUDA_ASSERT(cudaStreamCreateWithFlags(&work, cudaStreamNonBlocking));
  // Blocks of 1024 threads: at most two per SM; sms * 2 - 8 of them leave a few SMs free.
  CUDA_ASSERT(testing::LaunchHog(sms * 2 - 8, static_cast<long long>(clock_khz) * 200, hog));
  for (Reduction r : {Reduction::kDeterministic, Reduction::kSeparate}) {
    Options o = TestOptions();
    o.mode = Mode::kStreamK, o.reduction = r;
    ASSERT_TRUE(gemm(buf.args, work, o).ok());
  }
  ASSERT_TRUE(WaitWithTimeout(work, 30)) << "GEMM did not finish in 30 s beside the hog";
  ASSERT_TRUE(WaitWithTimeout(hog, 30));
  EXPECT_LT(OutputError(buf.Result(c), want, c.out), Tolerance(c.out));
  cudaStreamDestroy(hog);
  cudaStreamDestroy(work);
}

// Schedule::kDynamic: blocks take their work from the counter. Every mode and reduction, both
// input types and every A/B layout, on shapes of one tile to several waves.
TEST(GemmGpu, DynamicScheduleEveryModeReductionDtypeAndLayout) {
  STREAMK_SKIP_WITHOUT_GPU();
  ExpectCorrectEverywhere({{7, 9, 5, 1}, {129, 257, 33, 1}, {300, 260, 200, 1},
                           {1536, 1536, 512, 1}, {2048, 4096, 1024, 1}},
                          kNoTile, Schedule::kDynamic);
}

// Graph replays of dynamic plans: the counter (and every flag) is zero after each launch, so the
// next replay hands out every work block again; the deterministic strategies repeat bit for bit.
TEST(GemmGpu, DynamicScheduleGraphReplayLeavesCounterZero) {
  STREAMK_SKIP_WITHOUT_GPU();
  Config cfg;
  cfg.s = {1536, 1536, 4096, 1};
  Buffers buf(cfg);
  const uint64_t seed = NextSeed();
  CUDA_ASSERT(buf.Refresh(cfg, seed));
  const std::vector<float> want = buf.Reference(cfg);
  std::vector<Options> options;
  for (Mode m : {Mode::kAuto, Mode::kDataParallel, Mode::kStreamK}) {
    Options o = TestOptions();
    o.mode = m, o.schedule = Schedule::kDynamic;
    options.push_back(o);
  }
  options.back().reduction = Reduction::kSeparate;
  for (const Options& o : options) {
    absl::StatusOr<Plan> plan = PlanGemm(buf.args, o);
    ASSERT_TRUE(plan.ok()) << plan.status();
    ASSERT_EQ(plan->schedule, Schedule::kDynamic);
    const size_t bytes = static_cast<size_t>(plan->workspace_bytes);
    ASSERT_GT(bytes, 0u);
    DeviceBuffer ws(bytes);
    CUDA_ASSERT(cudaMemset(ws.get(), 0, bytes));
    CapturedCall captured;
    const absl::Status s =
        captured.Capture([&](cudaStream_t st) { return gemm(buf.args, ws.get(), bytes, st, o); });
    ASSERT_TRUE(s.ok()) << s;
    const cudaStream_t stream = captured.stream();
    const cudaGraphExec_t exec = captured.exec();
    std::vector<uint8_t> first;
    for (int replay = 0; replay < 20; ++replay) {
      CUDA_ASSERT(buf.Refresh(cfg, seed));  // the same inputs, D poisoned
      CUDA_ASSERT(cudaDeviceSynchronize());
      CUDA_ASSERT(cudaGraphLaunch(exec, stream));
      FinishOrDie(stream, Describe(cfg, o));
      const std::vector<uint8_t> now = Bytes(buf, cfg);
      if (replay == 0) first = now;
      ASSERT_EQ(now, first) << "replay " << replay << "\n" << PlanSummary(*plan);
    }
    EXPECT_LT(OutputError(buf.Result(cfg), want, cfg.out), Tolerance(cfg.out))
        << PlanSummary(*plan);
    ExpectFlagsZero(*plan, ws.get());
  }
}

// While another kernel holds all but 8 SMs for longer than the GEMM may take, dynamic plans
// finish on the free SMs (their blocks wait only for work running blocks have claimed) and are
// right; the hold must still be in place when they finish, or they did not run beside it.
TEST(GemmGpu, DynamicScheduleFinishesWhileOtherKernelsHoldSms) {
  STREAMK_SKIP_WITHOUT_GPU();
  int device = 0, sms = 0;
  CUDA_ASSERT(cudaGetDevice(&device));
  CUDA_ASSERT(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  Config c;
  c.s = {1536, 1536, 8192, 1};
  Buffers buf(c);
  const uint64_t seed = NextSeed();
  CUDA_ASSERT(buf.Refresh(c, seed));
  const std::vector<float> want = buf.Reference(c);
  cudaStream_t hold, work;
  CUDA_ASSERT(cudaStreamCreateWithFlags(&hold, cudaStreamNonBlocking));
  CUDA_ASSERT(cudaStreamCreateWithFlags(&work, cudaStreamNonBlocking));
  std::vector<Options> options;
  for (Mode m : {Mode::kAuto, Mode::kDataParallel, Mode::kSplitK, Mode::kStreamK}) {
    for (Reduction r : {Reduction::kDeterministic, Reduction::kAtomic, Reduction::kSeparate}) {
      Options o = TestOptions();
      o.mode = m, o.schedule = Schedule::kDynamic;
      if (m != Mode::kDataParallel) o.reduction = r;
      options.push_back(o);
      if (m == Mode::kDataParallel) break;
    }
  }
  for (const Options& o : options) {
    // Warm up (workspace, kernel attributes) before the SMs are held.
    ASSERT_TRUE(gemm(buf.args, work, o).ok());
    CUDA_ASSERT(cudaStreamSynchronize(work));
    CUDA_ASSERT(buf.Refresh(c, seed));  // the same inputs, D poisoned
    CUDA_ASSERT(cudaDeviceSynchronize());
    tools::SmHolder holder;
    CUDA_ASSERT(holder.Hold(sms - 8, 60, hold));
    ASSERT_TRUE(gemm(buf.args, work, o).ok());
    const bool finished = WaitWithTimeout(work, 30);
    const bool held = !holder.gave_up();
    CUDA_ASSERT(holder.Release());
    ASSERT_TRUE(finished) << "did not finish in 30 s on 8 free SMs: " << Describe(c, o);
    EXPECT_TRUE(held) << Describe(c, o);
    EXPECT_LT(OutputError(buf.Result(c), want, c.out), Tolerance(c.out)) << Describe(c, o);
  }
  cudaStreamDestroy(hold);
  cudaStreamDestroy(work);
}

TEST(GemmGpu, KernelOccupancyFeedsTheDeviceSpec) {
  STREAMK_SKIP_WITHOUT_GPU();
  absl::StatusOr<DeviceSpec> dev = TestDevice();
  ASSERT_TRUE(dev.ok()) << dev.status();
  EXPECT_TRUE(dev->queried);
  EXPECT_GE(dev->occupancy, 1);
  EXPECT_GT(dev->sms, 0);
  // On Hopper both kernel configurations keep the memory's terms (the floor and repacking),
  // whichever kernel constants replaced the preset's.
  cudaDeviceProp prop;
  CUDA_ASSERT(cudaGetDeviceProperties(&prop, 0));
  if (prop.major == 9) {
    for (const KernelConfig& k : dev->kernels) {
      const CostModel* c = &k.cost;
      EXPECT_GT(c->hbm_bytes_per_us, 0);
      EXPECT_GT(c->repack_bytes_per_us, 0);
      EXPECT_GT(c->repack_us, 0);
    }
  }
  // The TMA kernel's cluster configuration: a 2-SM cluster resident on every pair of SMs.
  if (dev->mainloop == Mainloop::kSm90Tma) {
    EXPECT_NE(dev->TileOf(KernelRole::kCluster), kNoTile);
    EXPECT_EQ(dev->Find(KernelRole::kCluster)->cluster_slots, dev->sms / 2);
  } else {
    EXPECT_EQ(dev->TileOf(KernelRole::kCluster), kNoTile);
  }
  const KernelConfig* clusters = dev->Find(KernelRole::kCluster);
  std::printf("device %s: %d SMs, kernel occupancy %d blocks/SM, %d 2-SM clusters, L2 %lld bytes\n",
              dev->name.c_str(), dev->sms, dev->occupancy,
              clusters != nullptr ? clusters->cluster_slots : 0,
              static_cast<long long>(dev->l2_bytes));
}

// UseDeviceProfile: gemm() plans with the profile's configurations and constants from the next
// call on (here a profile of the device's first configuration alone), runs those plans
// correctly, refuses a profile the device cannot be, and UseBuiltInDeviceModel restores the
// built-in plans.
TEST(GemmGpu, DeviceProfileReplacesTheModel) {
  STREAMK_SKIP_WITHOUT_GPU();
  absl::StatusOr<DeviceSpec> dev = QueryLocalDevice();
  ASSERT_TRUE(dev.ok()) << dev.status();
  DeviceSpec profile = *dev;
  profile.name = "profile-test";
  profile.kernels.resize(1);  // the main configuration alone
  const std::string path = ::testing::TempDir() + "/streamk_gpu_profile.json";
  ASSERT_TRUE(SaveDeviceProfile(profile, path).ok());

  Config c;
  c.s = {200, 120, 1000, 1};
  Buffers buf(c);
  CUDA_ASSERT(buf.Refresh(c, NextSeed()));
  absl::StatusOr<Plan> built_in = PlanGemm(buf.args);
  ASSERT_TRUE(built_in.ok()) << built_in.status();
  ASSERT_TRUE(UseDeviceProfile(path).ok());
  absl::StatusOr<Plan> profiled = PlanGemm(buf.args);
  ASSERT_TRUE(profiled.ok()) << profiled.status();
  EXPECT_EQ(profiled->tile_m * profiled->tile_n, dev->main().tile.m * dev->main().tile.n);
  for (const Options& o : EveryModeAndReduction()) ExpectCorrect(c, o, NextSeed());

  DeviceSpec other = profile;
  other.sms += 1;
  const absl::Status refused = UseDeviceProfile(other);
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(refused.message().find("sms"), std::string::npos) << refused;
  EXPECT_EQ(UseDeviceProfile(path + ".missing").code(), absl::StatusCode::kNotFound);

  ASSERT_TRUE(UseBuiltInDeviceModel().ok());
  absl::StatusOr<Plan> again = PlanGemm(buf.args);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(FormatPlan(*again), FormatPlan(*built_in));
  std::remove(path.c_str());
}

// Random problems, drawn afresh on every run (STREAMK_TEST_SEED=S replays a run's draws and
// inputs, STREAMK_TEST_DRAWS=N sets how many): sizes log-uniform in 1-3000 (a fifth moved next to
// a multiple of 64, a third of the rest rounded up to a multiple of 8), a batch of 2 or 3 one
// time in five, and one draw in ten with M and N of 1500-6000, 8-24 k-iterations and K-major
// rows on 128-byte lines (ping-pong's plans); both 16-bit dtypes, 16-bit or fp32 D, every
// layout, alpha and beta, C in place of D, batch entries that share an operand, rows past D's
// end, K-major rows at odd multiples of 16 bytes and operands not 16-byte aligned; auto in half
// the draws, otherwise any mode, reduction and its slices, split and block count, Stream-K tile
// count, SM count and kernel configuration. Each runs on random inputs with D poisoned, against
// the reference, and writes nothing outside D's entries. A draw of forced options the planner
// refuses comes back InvalidArgument from gemm() with D untouched; auto on its own is never
// refused.
TEST(GemmGpu, RandomProblemsMatchTheReference) {
  STREAMK_SKIP_WITHOUT_GPU();
  absl::StatusOr<DeviceSpec> dev = TestDevice();
  ASSERT_TRUE(dev.ok()) << dev.status();
  const std::vector<TileShape> tiles = KernelTiles(*dev);
  const char* seed_env = std::getenv("STREAMK_TEST_SEED");
  const char* draws_env = std::getenv("STREAMK_TEST_DRAWS");
  const uint64_t seed = seed_env != nullptr ? std::strtoull(seed_env, nullptr, 10) : NextSeed();
  const int draws = draws_env != nullptr ? std::atoi(draws_env) : 1500;
  std::printf("%d random problems of seed %llu (STREAMK_TEST_SEED=%llu replays them)\n", draws,
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  auto chance = [&rng](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
  auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto size = [&](double hi) {
    const double x = std::exp(std::uniform_real_distribution<double>(0, std::log(hi))(rng));
    const int64_t v = std::max<int64_t>(1, std::llround(x));
    if (chance(0.2)) {  // next to a multiple of 64: a tile's or a k-iteration's edge
      const int64_t offsets[] = {-1, 0, 1, 8};
      return std::max<int64_t>(1, Align(v, 64) + offsets[pick(0, 3)]);
    }
    return chance(1.0 / 3) ? Align(v, 8) : v;
  };
  int ran = 0, refused = 0;
  // Plans run: mode, tile, reduction, copies, ping-pong (on the TMA mainloop).
  std::map<std::string, int> kinds;
  for (int i = 0; i < draws; ++i) {
    Config c;
    c.s = {size(3000), size(3000), size(3000), chance(0.2) ? pick(2, 3) : 1};
    c.in = chance(0.5) ? DType::kF16 : DType::kBF16;
    c.out = chance(0.25) ? DType::kF32 : c.in;
    c.a = chance(0.5) ? Layout::kRowMajor : Layout::kColMajor;
    c.b = chance(0.5) ? Layout::kRowMajor : Layout::kColMajor;
    c.cd = chance(0.8) ? Layout::kRowMajor : Layout::kColMajor;
    const float alphas[] = {1.0f, 0.75f, -1.5f}, betas[] = {1.0f, -1.25f, 0.5f};
    c.alpha = alphas[pick(0, 2)];
    c.beta = chance(0.5) ? 0.0f : betas[pick(0, 2)];
    c.c_is_d = c.beta != 0 && chance(0.25);
    if (c.s.batch > 1 && chance(0.2)) (chance(0.5) ? c.stride_a : c.stride_b) = 0;
    const int64_t ldd_extras[] = {8, 3, 1};
    if (chance(0.2)) c.ldd_extra = ldd_extras[pick(0, 2)];
    if (chance(0.1)) c.stride_d_extra = 5;
    c.odd_rows = chance(0.25);
    c.packed_a = chance(0.25);
    if (chance(0.1)) {  // many tiles, 8-24 k-iterations, A's rows on 128-byte lines: ping-pong's
      c.s.m = pick(1500, 6000), c.s.n = pick(1500, 6000), c.s.k = 64 * pick(8, 24);
      c.s.batch = 1, c.odd_rows = false, c.packed_a = true;
      c.a = Layout::kRowMajor, c.b = Layout::kColMajor;  // K-major, both on 128-byte lines
    }
    if (chance(0.15)) c.unaligned = pick(1, 7);
    Options o = TestOptions();
    o.mode = Mode::kAuto;
    const bool forced = chance(0.5);
    if (forced) {
      const Mode modes[] = {Mode::kAuto, Mode::kDataParallel, Mode::kSplitK, Mode::kStreamK};
      o.mode = modes[pick(0, 3)];
      if (o.mode != Mode::kDataParallel && chance(0.6)) {
        const Reduction reductions[] = {Reduction::kDeterministic, Reduction::kAtomic,
                                        Reduction::kSeparate};
        o.reduction = reductions[pick(0, 2)];
        if (o.reduction == Reduction::kSeparate && chance(0.5))
          o.reduction_slices = 1 << pick(0, 2);
      }
      if (o.mode == Mode::kSplitK && chance(0.5)) o.splits = pick(1, 16);
      if (o.mode == Mode::kStreamK && chance(0.4)) o.blocks = pick(1, 2 * dev->sms);
      if (o.mode == Mode::kStreamK && chance(0.3))
        o.sk_tiles = chance(0.5) ? kPartialWaveTiles : pick(1, 40);
      if (chance(0.5)) o.tile = tiles[pick(0, static_cast<int>(tiles.size()) - 1)];
      if (chance(0.1)) o.avail_sms = pick(1, dev->sms);
      if (c.odd_rows && chance(0.5)) {
        const RepackOperands repacks[] = {RepackOperands::kNone, RepackOperands::kA,
                                          RepackOperands::kB, RepackOperands::kAll};
        o.repack = repacks[pick(0, 3)];
      }
    }
    SCOPED_TRACE(absl::StrCat("draw ", i, " of seed ", seed, ": ", Describe(c, o), " alpha ",
                              c.alpha, " C is D ", c.c_is_d, " strides A B ", c.stride_a, " ",
                              c.stride_b, " ldd + ", c.ldd_extra, " stride D + ",
                              c.stride_d_extra, " odd rows ", c.odd_rows, " packed A ",
                              c.packed_a, " unaligned ", c.unaligned, " sk_tiles ", o.sk_tiles,
                              " slices ", o.reduction_slices, " SMs ", o.avail_sms));
    Buffers buf(c);
    absl::StatusOr<Plan> plan = PlanGemm(buf.args, o);
    if (!plan.ok()) {
      ASSERT_TRUE(forced) << plan.status();
      EXPECT_EQ(plan.status().code(), absl::StatusCode::kInvalidArgument) << plan.status();
      CUDA_ASSERT(buf.Refresh(c, rng()));
      const absl::Status s = gemm(buf.args, nullptr, o);
      EXPECT_EQ(s, plan.status());
      CUDA_ASSERT(cudaDeviceSynchronize());
      if (!c.c_is_d) {
        const std::vector<float> d = buf.Result(c);  // still the NaN poison of Refresh
        EXPECT_TRUE(std::all_of(d.begin(), d.end(), [](float x) { return std::isnan(x); }));
        EXPECT_EQ(buf.WrittenOutsideD(c), 0);
      }
      std::printf("  refused: %s\n", std::string(plan.status().message()).c_str());
      ++refused;
      continue;
    }
    ++kinds[absl::StrCat(ModeName(plan->mode), " ", plan->tile_m, "x", plan->tile_n,
                         plan->cluster_m > 1 ? " clusters" : "",
                         plan->sk_blocks > 0 || plan->mode == Mode::kSplitK
                             ? absl::StrCat(" ", ReductionName(plan->reduction))
                             : "",
                         plan->repack_a || plan->repack_b ? " copies" : "",
                         plan->pingpong ? " ping-pong" : "")];
    ExpectCorrect(c, o, rng(), /*only_d=*/!c.c_is_d);
    ++ran;
    if (::testing::Test::HasFatalFailure()) return;
  }
  std::printf("%d ran, %d refused by the planner (forced options it does not take); plans run:\n",
              ran, refused);
  for (const auto& [kind, count] : kinds) std::printf("  %4d %s\n", count, kind.c_str());
  // Most draws run: a draw that is mostly refused would test little.
  EXPECT_GE(ran, draws * 3 / 4);
}

// An sm_90a build on a Hopper GPU runs the TMA wgmma mainloop by default (so the GemmGpu tests
// above test it), and the suite's mainloop where STREAMK_TEST_MAINLOOP names one; the plans say
// so. Asking for a mainloop the device cannot run is InvalidArgument naming it, and every mainloop
// it can run computes a GEMM right.
TEST(GemmGpu, HopperRunsTheWgmmaMainloop) {
  STREAMK_SKIP_WITHOUT_GPU();
  int device = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  cudaDeviceProp prop;
  ASSERT_EQ(cudaGetDeviceProperties(&prop, device), cudaSuccess);
  const kernels::Arch best = kernels::KernelArch(device);
  std::printf("device %s (sm_%d%d): best mainloop %s\n", prop.name, prop.major, prop.minor,
              kernels::ArchName(best));
#if defined(STREAMK_TEST_BUILT_FOR_SM90A)
  EXPECT_EQ(best, prop.major == 9 ? kernels::Arch::kSm90Tma : kernels::Arch::kSm80);
#else
  EXPECT_EQ(best, kernels::Arch::kSm80);
#endif
  absl::StatusOr<DeviceSpec> dev = TestDevice();
  ASSERT_TRUE(dev.ok()) << dev.status();
  EXPECT_EQ(dev->mainloop, TestMainloop().value_or(best));
  Config c;
  c.s = {300, 500, 700, 1};
  absl::StatusOr<Plan> plan = PlanGemm(Buffers(c).args, TestOptions());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->mainloop, dev->mainloop);
  for (Mainloop m : {Mainloop::kSm80, Mainloop::kSm90, Mainloop::kSm90Tma}) {
    SCOPED_TRACE(MainloopName(m));
    Options o;
    o.mainloop = m;
    if (!kernels::RunsMainloop(device, m)) {
      absl::StatusOr<Plan> refused = PlanGemm(Buffers(c).args, o);
      ASSERT_FALSE(refused.ok());
      EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_NE(refused.status().message().find("mainloop = "), std::string::npos)
          << refused.status();
      continue;
    }
    ExpectCorrect(c, o, NextSeed());
    absl::StatusOr<Plan> p = PlanGemm(Buffers(c).args, o);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->mainloop, m);
  }
}

// Options::max_workspace_bytes: auto keeps within the cap (data-parallel's pick, no workspace)
// and gives the right D; a forced split-K over the cap is refused with ResourceExhausted naming
// the cap, and D keeps its poison.
TEST(GemmGpu, WorkspaceCap) {
  STREAMK_SKIP_WITHOUT_GPU();
  Config c;
  c.s = {1536, 3072, 4096, 1};  // 144 tiles of 128 x 256: auto streams them, with a workspace
  Buffers buf(c);
  CUDA_ASSERT(buf.Refresh(c, NextSeed()));
  const std::vector<float> want = buf.Reference(c);
  Options capped = TestOptions();
  capped.max_workspace_bytes = 1024;
  absl::StatusOr<Plan> plan = PlanGemm(buf.args, capped);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_LE(plan->workspace_bytes, 1024) << *plan;
  absl::StatusOr<size_t> bytes = GetWorkspaceSize(buf.args, capped);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_LE(*bytes, 1024u);
  ASSERT_TRUE(gemm(buf.args, nullptr, capped).ok());
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_LT(OutputError(buf.Result(c), want, c.out), Tolerance(c.out));

  CUDA_ASSERT(buf.Refresh(c, NextSeed()));
  Options forced = capped;
  forced.mode = Mode::kSplitK, forced.splits = 4;
  const absl::Status s = gemm(buf.args, nullptr, forced);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  EXPECT_NE(s.message().find("max_workspace_bytes = 1024"), std::string::npos) << s;
  CUDA_ASSERT(cudaDeviceSynchronize());
  const std::vector<float> d = buf.Result(c);  // still the NaN poison of Refresh
  EXPECT_TRUE(std::all_of(d.begin(), d.end(), [](float x) { return std::isnan(x); }));
}

// Streams that come and go: each gets a library workspace for a Stream-K plan, the pool keeps
// kMaxPooledWorkspaces of them and frees the least recently used; every result stays right, and
// ReleaseWorkspaces() frees the rest, after which gemm() allocates again.
TEST(GemmGpu, ShortLivedStreamsAndReleaseWorkspaces) {
  STREAMK_SKIP_WITHOUT_GPU();
  Config c;
  c.s = {1536, 3072, 1024, 1};
  Buffers buf(c);
  const auto seed = NextSeed();  // Refresh with it again: the same inputs, D poisoned again
  CUDA_ASSERT(buf.Refresh(c, seed));
  const std::vector<float> want = buf.Reference(c);
  Options o = TestOptions();
  o.mode = Mode::kStreamK;
  for (int i = 0; i < 2 * kMaxPooledWorkspaces + 3; ++i) {
    cudaStream_t s;
    CUDA_ASSERT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CUDA_ASSERT(buf.Refresh(c, seed));
    const absl::Status st = gemm(buf.args, s, o);
    ASSERT_TRUE(st.ok()) << "stream " << i << ": " << st;
    ASSERT_TRUE(WaitWithTimeout(s, 30)) << "stream " << i;
    CUDA_ASSERT(cudaStreamDestroy(s));
    ASSERT_LT(OutputError(buf.Result(c), want, c.out), Tolerance(c.out)) << "stream " << i;
  }
  const absl::Status released = ReleaseWorkspaces();
  ASSERT_TRUE(released.ok()) << released;
  CUDA_ASSERT(buf.Refresh(c, seed));
  ASSERT_TRUE(gemm(buf.args, nullptr, o).ok());
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_LT(OutputError(buf.Result(c), want, c.out), Tolerance(c.out));
  EXPECT_TRUE(ReleaseWorkspaces().ok());
}

// ---- grouped GEMM (grouped_gemm) ----------------------------------------------------------------

struct GroupedCase {
  std::vector<int64_t> rows;  // per group
  int64_t n, k;
  DType in = DType::kF16, out = DType::kF16;
  Layout b = Layout::kColMajor;
  float beta = 0;
};

std::string DescribeGrouped(const GroupedCase& g, const Options& o) {
  std::string rows;
  for (size_t i = 0; i < g.rows.size() && i < 12; ++i) absl::StrAppend(&rows, g.rows[i], " ");
  if (g.rows.size() > 12) absl::StrAppend(&rows, "...");
  return absl::StrCat(
      g.rows.size(), " groups [", rows, "] n ", g.n, " k ", g.k, " in ", DTypeName(g.in), " out ",
      DTypeName(g.out), " B ", LayoutName(g.b), " beta ", g.beta, " mode ", ModeName(o.mode),
      " reduction ", o.reduction ? ReductionName(*o.reduction) : "(planner)", " sk_tiles ",
      o.sk_tiles, " schedule ", o.schedule ? ScheduleName(*o.schedule) : "(planner)");
}

// Device buffers of one grouped GEMM, fresh random A, B and C, D poisoned with NaN, and the
// reference: each group's rows times its own B, by the reference GEMM.
struct GroupedBuffers {
  GroupedGemmArgs args;
  std::vector<int64_t> ends;
  int64_t total = 0;
  DeviceBuffer a, b, c, d, ref;

  cudaError_t Make(const GroupedCase& g, uint64_t seed) {
    const int64_t groups = static_cast<int64_t>(g.rows.size());
    ends.resize(g.rows.size());
    total = 0;
    for (size_t i = 0; i < g.rows.size(); ++i) ends[i] = total += g.rows[i];
    const int64_t in = DTypeBytes(g.in), out = DTypeBytes(g.out);
    const bool b_row = g.b == Layout::kRowMajor;
    args.groups = groups, args.group_ends = ends.data();
    args.n = g.n, args.k = g.k, args.input = g.in, args.output = g.out;
    args.lda = Align(g.k, 8);
    args.ldb = Align(b_row ? g.n : g.k, 8);
    args.stride_b = args.ldb * (b_row ? g.k : g.n);
    args.b_layout = g.b;
    args.ldc = args.ldd = g.n;  // rows of any alignment: the epilogue's element stores then
    args.beta = g.beta, args.alpha = 0.75f;
    const int64_t rows = std::max<int64_t>(total, 1);
    a = DeviceBuffer(static_cast<size_t>(rows * args.lda * in));
    b = DeviceBuffer(static_cast<size_t>(groups * args.stride_b * in));
    c = DeviceBuffer(static_cast<size_t>(rows * g.n * out));
    d = DeviceBuffer(static_cast<size_t>(rows * g.n * out));
    ref = DeviceBuffer(static_cast<size_t>(rows * g.n * 4));
    args.a = a.get(), args.b = b.get(), args.c = c.get(), args.d = d.get();
    for (auto [p, t, n, s] :
         {std::tuple<void*, DType, int64_t, uint64_t>{a.get(), g.in, rows * args.lda, seed},
          {b.get(), g.in, groups * args.stride_b, seed + 1},
          {c.get(), g.out, rows * g.n, seed + 2}}) {
      if (cudaError_t e = testing::Fill(p, t, n, s); e != cudaSuccess) return e;
    }
    if (cudaError_t e = testing::Fill(d.get(), g.out, rows * g.n, seed, true); e != cudaSuccess)
      return e;
    for (int64_t i = 0; i < groups; ++i) {
      const int64_t begin = i > 0 ? ends[i - 1] : 0, m = g.rows[i];
      if (m == 0) continue;
      const char* ab = static_cast<const char*>(a.get()) + begin * args.lda * in;
      const char* bb = static_cast<const char*>(b.get()) + i * args.stride_b * in;
      const char* cb = static_cast<const char*>(c.get()) + begin * g.n * out;
      float* rb = static_cast<float*>(ref.get()) + begin * g.n;
      if (cudaError_t e = testing::ReferenceGemm(
              RefView{ab, g.in, true, args.lda, 0}, RefView{bb, g.in, b_row, args.ldb, 0},
              RefView{cb, g.out, true, g.n, 0}, args.alpha, g.beta, static_cast<int>(m),
              static_cast<int>(g.n), static_cast<int>(g.k), 1, rb);
          e != cudaSuccess)
        return e;
    }
    return cudaDeviceSynchronize();
  }

  // D and the reference, as floats on the host.
  std::pair<std::vector<float>, std::vector<float>> Results(const GroupedCase& g) {
    std::vector<float> got(static_cast<size_t>(total * g.n)), want(got.size());
    DeviceBuffer out(got.size() * 4 + 4);
    testing::Gather(RefView{d.get(), g.out, true, g.n, 0}, static_cast<int>(total),
                    static_cast<int>(g.n), 1, static_cast<float*>(out.get()));
    cudaMemcpy(got.data(), out.get(), got.size() * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(want.data(), ref.get(), want.size() * 4, cudaMemcpyDeviceToHost);
    return {got, want};
  }
};

void ExpectGroupedCorrect(const GroupedCase& g, const Options& o, uint64_t seed) {
  GroupedBuffers buf;
  ASSERT_EQ(buf.Make(g, seed), cudaSuccess) << DescribeGrouped(g, o);
  std::string plan;
  if (absl::StatusOr<Plan> p = PlanGroupedGemm(buf.args, o); p.ok()) plan = PlanSummary(*p);
  const absl::Status s = grouped_gemm(buf.args, nullptr, o);
  ASSERT_TRUE(s.ok()) << s << "\n" << DescribeGrouped(g, o);
  FinishOrDie(nullptr, absl::StrCat(DescribeGrouped(g, o), "\n", plan));
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << DescribeGrouped(g, o) << "\n" << plan;
  if (buf.total == 0) return;
  auto [got, want] = buf.Results(g);
  EXPECT_LT(OutputError(got, want, g.out), Tolerance(g.out)) << DescribeGrouped(g, o) << "\n"
                                                             << plan;
}

// Random groupings (empty groups among them, rows of any count) in every mode and reduction,
// both B layouts and both input types.
TEST(GroupedGemmGpu, RandomGroupingsEveryModeLayoutAndDtype) {
  STREAMK_SKIP_WITHOUT_GPU();
  std::mt19937 rng(static_cast<uint32_t>(NextSeed()));
  auto below = [&rng](int n) { return static_cast<int64_t>(rng() % static_cast<uint32_t>(n)); };
  const std::vector<Options> modes = EveryModeAndReduction();
  for (int i = 0; i < 48; ++i) {
    GroupedCase g;
    const int groups = i % 6 == 0 ? 1 : 2 + static_cast<int>(below(i % 3 == 0 ? 40 : 8));
    for (int j = 0; j < groups; ++j) g.rows.push_back(below(5) == 0 ? 0 : 1 + below(400));
    g.n = 8 * (1 + below(80)) + (i % 4 == 1 ? 8 * 60 : 0);
    g.k = 8 * (1 + below(i % 5 == 0 ? 400 : 60));
    g.in = i % 2 ? DType::kBF16 : DType::kF16;
    g.out = i % 7 == 3 ? DType::kF32 : g.in;
    g.b = (i / 2) % 2 ? Layout::kRowMajor : Layout::kColMajor;
    g.beta = i % 3 == 2 ? 0.5f : 0.0f;
    Options o = modes[static_cast<size_t>(i) % modes.size()];
    ExpectGroupedCorrect(g, o, NextSeed());
    if (HasFatalFailure()) return;
  }
}

// Edge groupings: one group, every group empty but one, 1024 groups of a few rows each, groups
// of exactly a tile's rows, and every group empty (nothing to do, D untouched).
TEST(GroupedGemmGpu, OneGroupEmptyGroupsAndAThousandGroups) {
  STREAMK_SKIP_WITHOUT_GPU();
  std::vector<GroupedCase> cases;
  cases.push_back({{777}, 512, 1024});
  cases.push_back({{0, 0, 300, 0}, 256, 512, DType::kBF16, DType::kBF16, Layout::kRowMajor});
  GroupedCase many{{}, 128, 256};
  std::mt19937 rng(7);
  for (int j = 0; j < 1024; ++j) many.rows.push_back(rng() % 9);
  cases.push_back(many);
  cases.push_back(
      {{128, 256, 64, 192}, 384, 4096, DType::kF16, DType::kF16, Layout::kRowMajor, 0.5f});
  for (const GroupedCase& g : cases) {
    for (Mode mode : {Mode::kAuto, Mode::kDataParallel, Mode::kSplitK, Mode::kStreamK}) {
      Options o = TestOptions();
      o.mode = mode;
      ExpectGroupedCorrect(g, o, NextSeed());
      if (HasFatalFailure()) return;
    }
  }
  // Every group empty: OK, nothing launched, D untouched.
  GroupedBuffers buf;
  GroupedCase none{{0, 0, 0}, 64, 64};
  ASSERT_EQ(buf.Make(none, 1), cudaSuccess);
  EXPECT_TRUE(grouped_gemm(buf.args, nullptr, TestOptions()).ok());
}

// Small groups in every mode and reduction (what scripts/gpu_check.sh runs under memcheck: the
// group table kernel and every store bounded by its group's rows).
TEST(GroupedGemmGpu, SmallGroupsEveryModeAndReduction) {
  STREAMK_SKIP_WITHOUT_GPU();
  for (const Options& o : EveryModeAndReduction()) {
    for (Layout b : {Layout::kColMajor, Layout::kRowMajor}) {
      ExpectGroupedCorrect({{3, 0, 17, 130, 1}, 72, 40, DType::kF16, DType::kF16, b, 0.5f}, o,
                           NextSeed());
      if (HasFatalFailure()) return;
    }
  }
}

// Captured in a CUDA graph with a caller-owned workspace and replayed: the result of each replay
// is right and the flags are zero after it.
TEST(GroupedGemmGpu, CudaGraphReplayWithCallersWorkspace) {
  STREAMK_SKIP_WITHOUT_GPU();
  GroupedCase g{{100, 0, 2000, 37, 512, 3000}, 2048, 1024};
  for (Mode mode : {Mode::kAuto, Mode::kStreamK, Mode::kSplitK}) {
    Options o = TestOptions();
    o.mode = mode;
    GroupedBuffers buf;
    ASSERT_EQ(buf.Make(g, NextSeed()), cudaSuccess);
    absl::StatusOr<size_t> bytes = GetWorkspaceSize(buf.args, o);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    absl::StatusOr<Plan> plan = PlanGroupedGemm(buf.args, o);
    ASSERT_TRUE(plan.ok()) << plan.status();
    DeviceBuffer ws(*bytes);
    CUDA_ASSERT(cudaMemset(ws.get(), 0, *bytes));
    CapturedCall captured;
    const absl::Status s = captured.Capture(
        [&](cudaStream_t st) { return grouped_gemm(buf.args, ws.get(), *bytes, st, o); });
    ASSERT_TRUE(s.ok()) << s;
    const cudaStream_t stream = captured.stream();
    const cudaGraphExec_t exec = captured.exec();
    for (int r = 0; r < 3; ++r) {
      CUDA_ASSERT(testing::Fill(buf.d.get(), g.out, buf.total * g.n, 1, true));
      CUDA_ASSERT(cudaGraphLaunch(exec, stream));
      FinishOrDie(stream, DescribeGrouped(g, o));
      CUDA_ASSERT(cudaStreamSynchronize(stream));
      auto [got, want] = buf.Results(g);
      EXPECT_LT(OutputError(got, want, g.out), Tolerance(g.out)) << DescribeGrouped(g, o);
      ExpectFlagsZero(*plan, ws.get());
    }
  }
}

// Group ends on the device, captured once in a CUDA graph and replayed with three routings
// written into the ends between replays (as MoE routing does each step): each replay's D is
// each group's rows times its own B, rows past the routing's last end untouched.
TEST(GroupedGemmGpu, DeviceEndsGraphReplayedWithNewRoutings) {
  STREAMK_SKIP_WITHOUT_GPU();
  const int64_t max_rows = 3000, n = 512, k = 768;
  const std::vector<std::vector<int64_t>> routings = {
      {100, 0, 1200, 37, 500, 1163}, {3000, 0, 0, 0, 0, 0}, {1, 1, 1, 1, 1, 995}};
  for (Mode mode : {Mode::kAuto, Mode::kStreamK, Mode::kDataParallel, Mode::kSplitK}) {
    Options o = TestOptions();
    o.mode = mode;
    GroupedCase full{{max_rows, 0, 0, 0, 0, 0}, n, k};
    GroupedBuffers buf;  // buffers of max_rows rows; the routing's rows are set per replay
    ASSERT_EQ(buf.Make(full, NextSeed()), cudaSuccess);
    DeviceBuffer ends(6 * sizeof(int32_t));
    GroupedGemmArgs args = buf.args;
    args.group_ends = nullptr;
    args.device_group_ends = static_cast<const int32_t*>(ends.get());
    args.max_rows = max_rows;
    absl::StatusOr<size_t> bytes = GetWorkspaceSize(args, o);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    DeviceBuffer ws(*bytes);
    CUDA_ASSERT(cudaMemset(ws.get(), 0, *bytes));
    CapturedCall captured;
    const absl::Status s = captured.Capture(
        [&](cudaStream_t st) { return grouped_gemm(args, ws.get(), *bytes, st, o); });
    ASSERT_TRUE(s.ok()) << s;
    const cudaStream_t stream = captured.stream();
    const cudaGraphExec_t exec = captured.exec();
    for (const std::vector<int64_t>& rows : routings) {
      GroupedCase g{rows, n, k};
      GroupedBuffers want;  // the same A and B, this routing's reference
      ASSERT_EQ(want.Make(g, 0), cudaSuccess);
      std::vector<int32_t> host_ends;
      for (int64_t e : want.ends) host_ends.push_back(static_cast<int32_t>(e));
      CUDA_ASSERT(
          cudaMemcpy(ends.get(), host_ends.data(), 6 * sizeof(int32_t), cudaMemcpyHostToDevice));
      // The reference from this case's own A and B: copy them into the captured buffers.
      CUDA_ASSERT(cudaMemcpy(buf.a.get(), want.a.get(), want.a.bytes(), cudaMemcpyDeviceToDevice));
      CUDA_ASSERT(cudaMemcpy(buf.b.get(), want.b.get(), want.b.bytes(), cudaMemcpyDeviceToDevice));
      CUDA_ASSERT(testing::Fill(buf.d.get(), DType::kF16, max_rows * n, 1, true));
      CUDA_ASSERT(cudaGraphLaunch(exec, stream));
      FinishOrDie(stream, "device ends replay");
      CUDA_ASSERT(cudaStreamSynchronize(stream));
      std::vector<float> got(static_cast<size_t>(max_rows * n));
      DeviceBuffer out(got.size() * 4);
      CUDA_ASSERT(testing::Gather(RefView{buf.d.get(), DType::kF16, true, n, 0},
                                  static_cast<int>(max_rows), static_cast<int>(n), 1,
                                  static_cast<float*>(out.get())));
      CUDA_ASSERT(cudaMemcpy(got.data(), out.get(), got.size() * 4, cudaMemcpyDeviceToHost));
      const int64_t total = want.total;
      auto [ignored, ref] = want.Results(g);
      std::vector<float> head(got.begin(), got.begin() + total * n);
      EXPECT_LT(OutputError(head, ref, DType::kF16), Tolerance(DType::kF16))
          << ModeName(mode) << ", routing ending at " << total;
      // D was poisoned (NaN) before the replay: the rows past the routing's end are no group's,
      // alpha * 0 + beta * C = 0 there.
      for (int64_t i = total * n; i < max_rows * n; ++i)
        ASSERT_EQ(got[static_cast<size_t>(i)], 0.0f)
            << "row " << i / n << " past the routing's " << total << " rows, " << ModeName(mode);
    }
  }
}

// Plans for device group ends depend on the bound, not the routing, so grouped_gemm() caches
// them; a plain GEMM of the bound's shape, planned first, is not the grouped call's plan.
TEST(GroupedGemmGpu, DeviceEndsPlansAreCachedApartFromPlainGemms) {
  STREAMK_SKIP_WITHOUT_GPU();
  const int64_t max_rows = 1000, n = 384, k = 512;
  GroupedBuffers buf;
  ASSERT_EQ(buf.Make(GroupedCase{{max_rows, 0, 0, 0}, n, k}, NextSeed()), cudaSuccess);
  GemmArgs plain;
  plain.m = max_rows, plain.n = n, plain.k = k;
  plain.a = buf.args.a, plain.lda = buf.args.lda;
  plain.b = buf.args.b, plain.b_layout = buf.args.b_layout, plain.ldb = buf.args.ldb;
  plain.d = buf.args.d, plain.ldd = buf.args.ldd;
  const Options o = TestOptions();
  absl::StatusOr<Plan> first = PlanGemm(plain, o);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->groups, 0);
  DeviceBuffer ends(4 * sizeof(int32_t));
  GroupedGemmArgs args = buf.args;
  args.group_ends = nullptr;
  args.device_group_ends = static_cast<const int32_t*>(ends.get());
  args.max_rows = max_rows;
  PlanExplanation why;
  absl::StatusOr<Plan> made = PlanGroupedGemm(args, o, &why);  // planned afresh
  ASSERT_TRUE(made.ok()) << made.status();
  EXPECT_EQ(made->groups, 4);
  EXPECT_EQ(made->rows_bound, 1);
  for (int call = 0; call < 2; ++call) {  // the first fills the cache, the second reads it
    absl::StatusOr<Plan> cached = PlanGroupedGemm(args, o);
    ASSERT_TRUE(cached.ok()) << cached.status();
    EXPECT_EQ(FormatPlan(*cached), FormatPlan(*made)) << "call " << call;
    EXPECT_EQ(cached->groups, 4);
  }
  // Host ends: the last grouping's plan is kept, and a new grouping of the same rows is planned
  // for its own tile rows.
  const std::vector<std::vector<int64_t>> groupings = {
      {1000, 1000, 1000, 1000}, {1, 1, 1, 997}, {1, 1, 1, 997}, {250, 250, 250, 250}};
  for (const std::vector<int64_t>& ends : groupings) {
    GroupedGemmArgs host = buf.args;
    host.group_ends = ends.data();
    absl::StatusOr<Plan> fresh = PlanGroupedGemm(host, o, &why);
    absl::StatusOr<Plan> kept = PlanGroupedGemm(host, o);
    ASSERT_TRUE(fresh.ok() && kept.ok()) << fresh.status() << kept.status();
    EXPECT_EQ(FormatPlan(*kept), FormatPlan(*fresh)) << "ends " << ends.back();
    EXPECT_EQ(kept->rows_bound, 0);
  }
}

}  // namespace
}  // namespace streamk
