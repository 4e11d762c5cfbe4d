// gemm() argument validation, on the CPU: every rejected call names the argument and the rule,
// nothing is launched and D is untouched. Also: without a GPU, gemm() fails with a status.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "absl/strings/str_format.h"

#include "streamk/plan_print.h"
#include "streamk/streamk.h"

namespace streamk {
namespace {

// Host buffers stand in for device memory: validation never dereferences the pointers.
struct Fixture {
  alignas(256) uint16_t a[64 * 64], b[64 * 64], c[64 * 64], d[64 * 64];
  GemmArgs Valid() {
    GemmArgs g;
    g.m = 64, g.n = 64, g.k = 64;
    g.a = a, g.lda = 64;
    g.b = b, g.ldb = 64;
    g.c = c, g.ldc = 64;
    g.d = d, g.ldd = 64;
    return g;
  }
};

// How planning refuses a valid call it cannot plan (a forced decomposition the problem cannot
// take, a workspace cap): InvalidArgument or ResourceExhausted, saying why.
testing::AssertionResult IsPlanningRefusal(const absl::Status& s) {
  if ((s.code() == absl::StatusCode::kInvalidArgument ||
       s.code() == absl::StatusCode::kResourceExhausted) &&
      !s.message().empty())
    return testing::AssertionSuccess();
  return testing::AssertionFailure() << "refused with " << s;
}

struct BadCase {
  const char* what;
  std::function<void(GemmArgs&, Options&)> edit;
  const char* expect;  // in the message
};

TEST(GemmValidation, RejectsBadArgumentsWithTheirNames) {
  Fixture f;
  const std::vector<BadCase> cases = {
      {"m zero", [](GemmArgs& g, Options&) { g.m = 0; }, "m = 0"},
      {"n negative", [](GemmArgs& g, Options&) { g.n = -3; }, "n = -3"},
      {"k too big", [](GemmArgs& g, Options&) { g.k = int64_t{1} << 31; }, "k = "},
      {"batch zero", [](GemmArgs& g, Options&) { g.batch = 0; }, "batch"},
      {"null a", [](GemmArgs& g, Options&) { g.a = nullptr; }, "a is null"},
      {"null b", [](GemmArgs& g, Options&) { g.b = nullptr; }, "b is null"},
      {"null d", [](GemmArgs& g, Options&) { g.d = nullptr; }, "d is null"},
      {"null c with beta",
       [](GemmArgs& g, Options&) {
         g.c = nullptr;
         g.beta = 1;
       },
       "c is null"},
      {"a between elements",
       [](GemmArgs& g, Options&) { g.a = static_cast<const char*>(g.a) + 1; },
       "must be 2-byte aligned"},
      {"fp32 d between elements",
       [](GemmArgs& g, Options&) {
         g.output = DType::kF32;
         g.beta = 0;
         g.d = static_cast<char*>(g.d) + 2;
       },
       "must be 4-byte aligned"},
      {"lda too small", [](GemmArgs& g, Options&) { g.lda = 63; }, "lda = 63"},
      {"lda col-major too small",
       [](GemmArgs& g, Options&) {
         g.a_layout = Layout::kColMajor;
         g.m = 100;
       },
       "lda = 64: must be >= m"},
      {"ldb too small",
       [](GemmArgs& g, Options&) {
         g.ldb = 61;
         g.k = 62;
       },
       "ldb = 61: must be >= k (62)"},
      {"ldd too small", [](GemmArgs& g, Options&) { g.n = 65; }, "ldd = 64"},
      {"ldc only with beta",
       [](GemmArgs& g, Options&) {
         g.beta = 2;
         g.ldc = 8;
       },
       "ldc = 8"},
      {"fp32 input", [](GemmArgs& g, Options&) { g.input = DType::kF32; }, "input = fp32"},
      {"overlapping batch",
       [](GemmArgs& g, Options&) {
         g.batch = 2;
         g.stride_d = 8;
       },
       "stride_d = 8"},
      {"negative batch stride",
       [](GemmArgs& g, Options&) {
         g.batch = 2;
         g.stride_a = -4;
         g.stride_d = 64 * 64;
       },
       "stride_a = -4: must be >= 0"},
      {"splits without splitk", [](GemmArgs&, Options& o) { o.splits = 2; }, "splits = 2"},
      {"blocks with dp",
       [](GemmArgs&, Options& o) {
         o.mode = Mode::kDataParallel;
         o.blocks = 2;
       },
       "blocks = 2"},
      {"negative avail_sms", [](GemmArgs&, Options& o) { o.avail_sms = -1; }, "avail_sms"},
      {"trace buffer with no room",
       [](GemmArgs&, Options& o) {
         static TraceEvent events[4];
         o.trace = {events, 0};
       },
       "trace.events_per_block = 0"},
  };
  for (const BadCase& c : cases) {
    std::memset(f.d, 0x5a, sizeof(f.d));
    GemmArgs g = f.Valid();
    Options o;
    c.edit(g, o);
    const absl::Status v = ValidateGemmArgs(g, o);
    EXPECT_EQ(v.code(), absl::StatusCode::kInvalidArgument) << c.what << ": " << v;
    EXPECT_NE(v.message().find(c.expect), std::string::npos)
        << c.what << ": message '" << v.message() << "' lacks '" << c.expect << "'";
    // gemm() refuses the same call before any CUDA work, with the same status.
    const absl::Status s = gemm(g, nullptr, o);
    EXPECT_EQ(s, v) << c.what;
    for (uint16_t x : f.d) ASSERT_EQ(x, 0x5a5a) << c.what << ": D was written";
  }
}

TEST(GemmValidation, AcceptsValidArguments) {
  Fixture f;
  GemmArgs g = f.Valid();
  EXPECT_TRUE(ValidateGemmArgs(g).ok());
  g.beta = 0;
  g.c = nullptr;  // C is not needed when beta == 0
  EXPECT_TRUE(ValidateGemmArgs(g).ok());
  g.cd_layout = Layout::kColMajor;
  g.output = DType::kF32;
  g.ldd = 64;
  EXPECT_TRUE(ValidateGemmArgs(g).ok());
  g.batch = 3;
  g.stride_a = 0;  // broadcast A
  g.stride_b = 64 * 64;
  g.stride_d = 64 * 64;
  EXPECT_TRUE(ValidateGemmArgs(g).ok()) << ValidateGemmArgs(g);
}

TEST(GemmValidation, PlanForAnyDeviceWithoutOne) {
  Fixture f;
  GemmArgs g = f.Valid();
  g.m = 2560, g.n = 5120, g.k = 8192, g.lda = 8192, g.ldb = 8192, g.ldd = 5120, g.ldc = 5120;
  absl::StatusOr<Plan> p = PlanGemm(g, H200Spec());  // 400 tiles of 128x256
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->mode, Mode::kStreamK);
  // Column-major D plans the transposed problem: m and n trade places.
  g.cd_layout = Layout::kColMajor;
  g.m = 1000, g.n = 3000, g.ldd = 1000, g.ldc = 1000;
  p = PlanGemm(g, H200Spec());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->m, 3000);
  EXPECT_EQ(p->n, 1000);
}

TEST(GemmValidation, OptionsTileRunsOneOfTheDevicesKernels) {
  Fixture f;
  GemmArgs g = f.Valid();
  g.m = 1536, g.n = 3072, g.k = 4096, g.lda = 4096, g.ldb = 4096, g.ldd = 3072, g.ldc = 3072;
  const DeviceSpec h200 = H200Spec();
  for (const TileShape& tile :
       {h200.main().tile, h200.TileOf(KernelRole::kAlt), h200.TileOf(KernelRole::kMid),
        h200.TileOf(KernelRole::kWide), h200.TileOf(KernelRole::kSmall),
        h200.TileOf(KernelRole::kBroad), h200.TileOf(KernelRole::kCluster)}) {
    Options o;
    o.tile = tile;
    absl::StatusOr<Plan> p = PlanGemm(g, h200, o);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->tile_m, tile.m);
    EXPECT_EQ(p->tile_n, tile.n);
    EXPECT_EQ(p->tile_k, tile.k);
    // The cluster configuration's plans run on 2-SM clusters, 66 of them.
    EXPECT_EQ(p->cluster_m, tile == h200.TileOf(KernelRole::kCluster) ? 2 : 1);
    EXPECT_EQ(p->avail_sms, tile == h200.TileOf(KernelRole::kCluster) ? 66 : 132);
  }
  // A tile no kernel computes is an error naming the field and the tiles there are.
  Options o;
  o.tile = TileShape{128, 64, 64};
  absl::StatusOr<Plan> p = PlanGemm(g, h200, o);
  ASSERT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument) << p.status();
  const std::string message(p.status().message());
  for (const char* part :
       {"tile = 128x64x64",
        "128x256x64, 128x128x64, 128x192x64, 192x192x64, 64x128x64, 128x320x64, "
        "256x256x64 (2-SM clusters)"})
    EXPECT_NE(message.find(part), std::string::npos) << message;
  // A device with one configuration runs only its tile.
  const DeviceSpec one = H200CpAsyncSpec();
  ASSERT_EQ(one.TileOf(KernelRole::kAlt), kNoTile);
  o.tile = one.main().tile;
  EXPECT_TRUE(PlanGemm(g, one, o).ok());
  o.tile = h200.main().tile;
  EXPECT_EQ(PlanGemm(g, one, o).status().code(), absl::StatusCode::kInvalidArgument);
}

// DeviceSpec::kernels, which CheckTile, the planner's costs per tile and streamk-fit walk, holds
// each of a device's configurations once, in the order of their roles, main first, each with its
// own tile and constants; Set keeps that order and Remove keeps the main one.
TEST(GemmValidation, KernelConfigurationsListEachOnce) {
  DeviceSpec h200 = H200Spec();
  const double iter[] = {5, 1, 2, 3, 6, 7, 4};  // by role
  for (KernelRole role : kKernelRoles) h200.Find(role)->cost.iter_us = iter[static_cast<int>(role)];
  std::vector<std::string> names;
  std::vector<double> iters;
  for (const KernelConfig& c : h200.kernels) {
    names.push_back(KernelRoleName(c.role));
    iters.push_back(c.cost.iter_us);
    EXPECT_NE(c.tile, kNoTile) << KernelRoleName(c.role);
    EXPECT_EQ(c.cluster_m > 1, c.role == KernelRole::kCluster) << KernelRoleName(c.role);
    EXPECT_EQ(ParseKernelRole(KernelRoleName(c.role)), c.role);
  }
  EXPECT_EQ(names,
            (std::vector<std::string>{"main", "alt", "mid", "wide", "small", "broad", "cluster"}));
  EXPECT_EQ(iters, (std::vector<double>{5, 1, 2, 3, 6, 7, 4}));
  EXPECT_EQ(&h200.main(), &h200.kernels.front());
  EXPECT_FALSE(ParseKernelRole("fifth").has_value());
  // Set replaces a role's entry in place or inserts it in order; Remove drops it, never main.
  DeviceSpec one = H200CpAsyncSpec();
  ASSERT_EQ(one.kernels.size(), 1u);
  one.Set({KernelRole::kSmall, TileShape{64, 128, 64}, {}});
  one.Set({KernelRole::kAlt, TileShape{128, 128, 64}, {}});
  one.Set({KernelRole::kAlt, TileShape{128, 128, 32}, {}});
  ASSERT_EQ(one.kernels.size(), 3u);
  EXPECT_EQ(one.kernels[1].role, KernelRole::kAlt);
  EXPECT_EQ(one.TileOf(KernelRole::kAlt), (TileShape{128, 128, 32}));
  EXPECT_EQ(one.kernels[2].role, KernelRole::kSmall);
  one.Remove(KernelRole::kAlt);
  one.Remove(KernelRole::kMain);
  one.Remove(KernelRole::kWide);
  EXPECT_EQ(one.kernels.size(), 2u);
  EXPECT_EQ(one.TileOf(KernelRole::kAlt), kNoTile);
  EXPECT_EQ(one.Find(KernelRole::kMid), nullptr);
}

TEST(GemmValidation, PlanKnowsWhichOperandRowsAreMisaligned) {
  // K-major rows at odd multiples of 16 bytes (OperandLayout::rows_misaligned): from the leading
  // dimension, the base address or the batch stride, and only for K-major operands.
  Fixture f;
  GemmArgs g = f.Valid();
  g.m = 360, g.n = 424, g.k = 3608, g.lda = 3608, g.ldb = 3608, g.ldc = 424, g.ldd = 424;
  absl::StatusOr<Plan> p = PlanGemm(g, H200Spec());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->a.rows_misaligned());
  EXPECT_TRUE(p->b.rows_misaligned());
  g.lda = g.ldb = 3616;  // padded rows: 7232 bytes, a multiple of 32
  p = PlanGemm(g, H200Spec());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_FALSE(p->a.rows_misaligned());
  EXPECT_FALSE(p->b.rows_misaligned());
  g.a = f.a + 8;  // 16 bytes past a 256-byte boundary
  p = PlanGemm(g, H200Spec());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->a.rows_misaligned());
  EXPECT_FALSE(p->b.rows_misaligned());
  // A row-major B is N-major: its 848-byte rows do not count.
  g.a = f.a;
  g.b_layout = Layout::kRowMajor, g.ldb = 424;
  p = PlanGemm(g, H200Spec());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_FALSE(p->a.rows_misaligned());
  EXPECT_FALSE(p->b.rows_misaligned());
  // A batch stride of an odd multiple of 8 elements misaligns every other entry.
  g.batch = 2, g.stride_a = 360 * 3616 + 8, g.stride_d = 360 * 424;
  p = PlanGemm(g, H200Spec());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->a.rows_misaligned());
}

// Whether the TMA kernel can store D as a tensor (Plan::d_tma_store, which the cost model needs to
// price ping-pong): as the launch decides it, from D's and C's rows and beta.
TEST(GemmValidation, PlanKnowsWhetherTheTmaUnitStoresD) {
  Fixture f;
  GemmArgs g = f.Valid();
  g.m = 60, g.n = 60, g.ldc = g.ldd = 60;  // 120-byte rows: not 16-byte aligned
  absl::StatusOr<Plan> p = PlanGemm(g, H200Spec());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_FALSE(p->d_tma_store);
  g.ldc = g.ldd = 64;  // aligned rows; n = 60 ends inside a 16-byte chunk, fine with beta 0
  p = PlanGemm(g, H200Spec());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->d_tma_store);
  g.beta = 1.0f;  // C is then read whole: no tensor short of n
  p = PlanGemm(g, H200Spec());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_FALSE(p->d_tma_store);
  g.n = 64;
  p = PlanGemm(g, H200Spec());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->d_tma_store);
  g.c = f.c + 4;  // C 8 bytes off: the launch writes D by the epilogue's own stores
  p = PlanGemm(g, H200Spec());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_FALSE(p->d_tma_store);
}

// Any leading dimension, batch stride and element-aligned address is a valid call: operands the
// kernel cannot load as they are (not 16-byte aligned) are copied first, whatever the options,
// and only those; C and D are then written element by element (not a plan's business).
TEST(GemmValidation, AnyLeadingDimensionIsPlannedWithCopies) {
  Fixture f;
  GemmArgs g = f.Valid();
  g.m = 48, g.n = 56, g.k = 61;  // K-major A and B of 61 elements: 122-byte rows
  g.lda = g.ldb = 61;
  g.ldc = g.ldd = 57;
  g.beta = 1;
  ASSERT_TRUE(ValidateGemmArgs(g).ok()) << ValidateGemmArgs(g);
  Options dp;
  dp.mode = Mode::kDataParallel;
  dp.repack = RepackOperands::kNone;
  for (const Options& o : {Options{}, dp}) {
    absl::StatusOr<Plan> p = PlanGemm(g, H200Spec(), o);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_TRUE(p->a_unaligned && p->b_unaligned) << PlanSummary(*p);
    EXPECT_TRUE(p->repack_a && p->repack_b) << PlanSummary(*p);
    EXPECT_FALSE(p->a.rows_misaligned() || p->b.rows_misaligned()) << PlanSummary(*p);
    EXPECT_EQ(p->repack_ld, 64);
    absl::StatusOr<size_t> ws = GetWorkspaceSize(g, o);
    // Without a GPU GetWorkspaceSize cannot plan; with one it counts the copies.
    if (ws.ok()) EXPECT_GE(*ws, static_cast<size_t>(p->repack_b_offset));
  }
  // Padded rows: nothing to copy.
  g.lda = g.ldb = 64;
  absl::StatusOr<Plan> p = PlanGemm(g, H200Spec());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_FALSE(p->a_unaligned || p->b_unaligned || p->repack_a || p->repack_b)
      << PlanSummary(*p);
  // An address 2 bytes off: that operand only.
  g.b = f.b + 1;
  p = PlanGemm(g, H200Spec());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_FALSE(p->a_unaligned);
  EXPECT_TRUE(p->b_unaligned && p->repack_b) << PlanSummary(*p);
  // An mn-major operand counts too: a column-major A with 49-element columns.
  g.b = f.b;
  g.a_layout = Layout::kColMajor, g.lda = 49;
  p = PlanGemm(g, H200Spec());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->a_unaligned && p->repack_a) << PlanSummary(*p);
  EXPECT_FALSE(p->b_unaligned || p->repack_b) << PlanSummary(*p);
  // So does a batch stride; with a column-major D the kernel's B is the call's A.
  g.a_layout = Layout::kRowMajor, g.lda = 64;
  g.batch = 2, g.stride_a = 48 * 64 + 3, g.stride_b = 0, g.stride_c = g.stride_d = 64 * 64;
  g.cd_layout = Layout::kColMajor, g.ldc = g.ldd = 48;
  p = PlanGemm(g, H200Spec());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_FALSE(p->a_unaligned);
  EXPECT_TRUE(p->b_unaligned && p->repack_b) << PlanSummary(*p);
}

TEST(GemmValidation, RepackNamesTheCallsOperands) {
  // Options::repack names this call's A or B; with a column-major D the kernel computes
  // B^T * A^T, so the plan copies its own B for the call's A.
  Fixture f;
  GemmArgs g = f.Valid();
  g.m = 360, g.n = 424, g.k = 3608, g.lda = 3608, g.ldb = 3608, g.ldc = 424, g.ldd = 424;
  Options o;
  o.mode = Mode::kDataParallel;
  for (const Layout cd : {Layout::kRowMajor, Layout::kColMajor}) {
    g.cd_layout = cd;
    g.ldc = g.ldd = cd == Layout::kRowMajor ? 424 : 360;
    const bool swapped = cd == Layout::kColMajor;
    o.repack = RepackOperands::kA;
    absl::StatusOr<Plan> p = PlanGemm(g, H200Spec(), o);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->repack_a, !swapped) << PlanSummary(*p);
    EXPECT_EQ(p->repack_b, swapped) << PlanSummary(*p);
    o.repack = RepackOperands::kB;
    p = PlanGemm(g, H200Spec(), o);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->repack_a, swapped) << PlanSummary(*p);
    EXPECT_EQ(p->repack_b, !swapped) << PlanSummary(*p);
    o.repack = RepackOperands::kAll;
    p = PlanGemm(g, H200Spec(), o);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_TRUE(p->repack_a && p->repack_b) << PlanSummary(*p);
    o.repack = RepackOperands::kNone;
    p = PlanGemm(g, H200Spec(), o);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_FALSE(p->repack_a || p->repack_b) << PlanSummary(*p);
  }
  // Naming an operand whose rows are aligned copies nothing.
  g.cd_layout = Layout::kRowMajor, g.ldc = g.ldd = 424;
  g.lda = 3616;
  o.repack = RepackOperands::kA;
  absl::StatusOr<Plan> p = PlanGemm(g, H200Spec(), o);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_FALSE(p->repack_a || p->repack_b) << PlanSummary(*p);
  EXPECT_TRUE(p->b.rows_misaligned()) << PlanSummary(*p);
}

TEST(GemmValidation, RepackOperandsNamesParseBack) {
  for (const RepackOperands r : {RepackOperands::kNone, RepackOperands::kA, RepackOperands::kB,
                                 RepackOperands::kAll})
    EXPECT_EQ(ParseRepackOperands(RepackOperandsName(r)), r);
  EXPECT_EQ(ParseRepackOperands("both"), RepackOperands::kAll);
  EXPECT_EQ(ParseRepackOperands("B"), RepackOperands::kB);
  EXPECT_EQ(ParseRepackOperands("ab"), RepackOperands::kAll);  // RepackName(plan)'s spelling
  EXPECT_EQ(ParseRepackOperands("auto"), std::nullopt);  // unset is the caller's to spell
  EXPECT_EQ(SwapOperands(RepackOperands::kA), RepackOperands::kB);
  EXPECT_EQ(SwapOperands(RepackOperands::kB), RepackOperands::kA);
  EXPECT_EQ(SwapOperands(RepackOperands::kAll), RepackOperands::kAll);
  EXPECT_EQ(SwapOperands(RepackOperands::kNone), RepackOperands::kNone);
}

// Random options for the random-call tests: each field plausible for the mode, or (where
// `wrong` says) anything at all. `copies`: operand copies (repack) are a plausible choice, as
// for gemm(); a grouped GEMM reads its operands as they are, so there any copy is a mistake.
Options RandomOptions(std::mt19937_64& rng, const std::function<bool()>& wrong, bool copies) {
  auto pick = [&rng](std::initializer_list<int64_t> v) { return *(v.begin() + rng() % v.size()); };
  static const TileShape tiles[] = {kNoTile,         {128, 256, 64}, {128, 128, 64}, {64, 128, 64},
                                    {256, 256, 64},  {128, 100, 64}, {16, 16, 4},    {0, 128, 64},
                                    {-128, 256, 64}, {128, 256, 0}};
  Options o;
  o.mode = static_cast<Mode>(rng() % 4);
  const bool splitk = o.mode == Mode::kSplitK, streamk = o.mode == Mode::kStreamK;
  if ((splitk && rng() % 2) || wrong())
    o.splits = static_cast<int>(pick({-1, 1, 2, 4, 64, 100000}));
  if ((streamk && rng() % 2) || wrong()) o.blocks = static_cast<int>(pick({-1, 1, 7, 132, 1000}));
  if ((streamk && rng() % 3 == 0) || wrong())
    o.sk_tiles = static_cast<int>(pick({-2, kPartialWaveTiles, 1, 5, 1 << 20}));
  if ((o.mode != Mode::kDataParallel && rng() % 3 == 0) || wrong())
    o.reduction = static_cast<Reduction>(rng() % 3);
  if ((o.reduction == Reduction::kSeparate && rng() % 2) || wrong())
    o.reduction_slices = static_cast<int>(pick({-1, 1, 2, 3, 4, 16, 64}));
  if (rng() % 4 == 0) o.avail_sms = static_cast<int>(wrong() ? -1 : pick({1, 100, 132, 1000}));
  o.tile = tiles[rng() % std::size(tiles)];
  if (copies ? rng() % 4 == 0 : wrong()) o.repack = static_cast<RepackOperands>(rng() % 4);
  if (rng() % 4 == 0) o.max_workspace_bytes = wrong() ? -1 : pick({1024, int64_t{1} << 30});
  if (rng() % 4 == 0) o.schedule = rng() % 2 == 0 ? Schedule::kDynamic : Schedule::kStatic;
  if (rng() % 6 == 0) o.pingpong = rng() % 2 == 0;
  if (rng() % 6 == 0) o.narrow_wgmma = false;
  if (rng() % 6 == 0) o.store_d = static_cast<StoreD>(rng() % 4);
  return o;
}

// The options of a random call, for its failure messages.
std::string DescribeOptions(const Options& o) {
  return absl::StrFormat(
      "mode %s, splits %d, blocks %d, sk_tiles %d, reduction %s/%d, avail_sms %d, tile %s, "
      "repack %d, cap %d, schedule %s",
      ModeName(o.mode), o.splits, o.blocks, o.sk_tiles,
      o.reduction ? ReductionName(*o.reduction) : "unset", o.reduction_slices, o.avail_sms,
      TileShapeName(o.tile), o.repack ? static_cast<int>(*o.repack) : -1, o.max_workspace_bytes,
      o.schedule ? ScheduleName(*o.schedule) : "(planner)");
}

// Random calls, most of them wrong in one or more ways (sizes from -3 to 2^40, leading
// dimensions and strides anywhere, pointers null or between elements, every option), through
// the public entry points: ValidateGemmArgs accepts a call or names what it rejects
// (InvalidArgument, "NAME = VALUE: RULE" or "NAME is null ..."); a rejected gemm() returns the same
// status and leaves D untouched; an accepted call plans on the H200 model or is refused with a
// status (a forced decomposition the problem cannot take, a workspace cap), and a plan covers
// the problem it was given.
TEST(GemmValidation, RandomCallsAreAcceptedOrNamed) {
  Fixture f;
  std::mt19937_64 rng(20261207);
  auto pick = [&rng](std::initializer_list<int64_t> v) { return *(v.begin() + rng() % v.size()); };
  auto size = [&]() -> int64_t {
    switch (rng() % 6) {
      case 0: return pick({-3, -1, 0, 1, 2, 7, 8, 15, 16, 17});
      case 1: return pick({int64_t{1} << 31, (int64_t{1} << 31) - 1, int64_t{1} << 40});
      default: return 1 + static_cast<int64_t>(rng() % 5000);
    }
  };
  auto pointer = [&](void* base) -> void* {
    switch (rng() % 8) {
      case 0: return nullptr;
      case 1: return static_cast<char*>(base) + 1;  // between 16-bit elements
      case 2: return static_cast<char*>(base) + 2;  // a 16-bit element, not a 32-bit one
      case 3: return static_cast<char*>(base) + 16;
      default: return base;
    }
  };
  int accepted = 0, planned = 0, rejected = 0;
  for (int i = 0; i < 20000; ++i) {
    // Half the calls anything at all; the other half plausible, each argument wrong 1 time in 40.
    const bool any = i % 2 == 0;
    auto wrong = [&]() { return any ? rng() % 3 == 0 : rng() % 40 == 0; };
    GemmArgs g;
    auto dim = [&]() { return wrong() ? size() : 1 + static_cast<int64_t>(rng() % 5000); };
    g.m = dim(), g.n = dim(), g.k = dim();
    g.batch = wrong() ? pick({-1, 0, 1000}) : rng() % 4 == 0 ? pick({2, 3}) : 1;
    g.input = wrong() ? DType::kF32 : static_cast<DType>(rng() % 2);
    g.output = static_cast<DType>(rng() % 3);
    g.a_layout = rng() % 2 ? Layout::kRowMajor : Layout::kColMajor;
    g.b_layout = rng() % 2 ? Layout::kRowMajor : Layout::kColMajor;
    g.cd_layout = rng() % 2 ? Layout::kRowMajor : Layout::kColMajor;
    auto ptr = [&](void* base) { return wrong() ? pointer(base) : base; };
    g.a = ptr(f.a), g.b = ptr(f.b), g.c = ptr(f.c), g.d = ptr(f.d);
    // A leading dimension at least what the layout needs (any count of elements), or anything.
    auto ld = [&](int64_t rows, int64_t cols, bool row_major) -> int64_t {
      const int64_t need = row_major ? cols : rows;
      return wrong() ? need + pick({-1, -61}) : need + pick({0, 0, 1, 8, 61});
    };
    g.lda = ld(g.m, g.k, g.a_layout == Layout::kRowMajor);
    g.ldb = ld(g.k, g.n, g.b_layout == Layout::kRowMajor);
    g.ldd = ld(g.m, g.n, g.cd_layout == Layout::kRowMajor);
    g.ldc = rng() % 2 ? g.ldd : ld(g.m, g.n, g.cd_layout == Layout::kRowMajor);
    if (g.batch > 1) {
      auto stride = [&](int64_t extent) { return wrong() ? size() : extent + pick({0, 8, 100}); };
      g.stride_a =
          rng() % 4 == 0 ? 0 : stride(g.lda * (g.a_layout == Layout::kRowMajor ? g.m : g.k));
      g.stride_b =
          rng() % 4 == 0 ? 0 : stride(g.ldb * (g.b_layout == Layout::kRowMajor ? g.k : g.n));
      g.stride_d = stride(g.ldd * (g.cd_layout == Layout::kRowMajor ? g.m : g.n));
      g.stride_c =
          rng() % 2 ? g.stride_d : stride(g.ldc * (g.cd_layout == Layout::kRowMajor ? g.m : g.n));
    }
    g.alpha = rng() % 8 ? 1.0f : 0.5f;
    g.beta = rng() % 3 ? 0.0f : 1.0f;
    const Options o = RandomOptions(rng, wrong, /*copies=*/true);
    const std::string call = absl::StrFormat(
        "call %d: %dx%dx%d batch %d, layouts %d%d%d, in %d out %d, beta %g, ld %d/%d/%d/%d, %s", i,
        g.m, g.n, g.k, g.batch, static_cast<int>(g.a_layout), static_cast<int>(g.b_layout),
        static_cast<int>(g.cd_layout), static_cast<int>(g.input), static_cast<int>(g.output),
        g.beta, g.lda, g.ldb, g.ldc, g.ldd, DescribeOptions(o));

    const absl::Status v = ValidateGemmArgs(g, o);
    if (!v.ok()) {
      ++rejected;
      ASSERT_EQ(v.code(), absl::StatusCode::kInvalidArgument) << call << ": " << v;
      const std::string m(v.message());
      const size_t name_end = m.find_first_not_of("abcdefghijklmnopqrstuvwxyz_.");
      ASSERT_GT(name_end, 0u) << call << ": '" << m << "' does not start with a name";
      ASSERT_TRUE(m.substr(name_end, 3) == " = " || m.substr(name_end, 4) == " is ")
          << call << ": '" << m << "'";
      if (i % 10 == 0) {  // gemm() refuses it before any CUDA work
        std::memset(f.d, 0x5a, sizeof(f.d));
        ASSERT_EQ(gemm(g, nullptr, o), v) << call;
        for (uint16_t x : f.d) ASSERT_EQ(x, 0x5a5a) << call << ": D was written";
      }
      continue;
    }
    ++accepted;
    absl::StatusOr<Plan> p = PlanGemm(g, H200Spec(), o);
    if (!p.ok()) {
      ASSERT_TRUE(IsPlanningRefusal(p.status())) << call;
      // Auto's own fallbacks plan what the call allows (a reduction asked for once made the
      // workspace cap's data-parallel fallback an invalid call).
      if (o.mode == Mode::kAuto)
        ASSERT_EQ(p.status().message().find("with mode dp"), std::string::npos) << call;
      continue;
    }
    ++planned;
    // D row-major as planned: m and n trade places for a column-major D.
    const bool transposed = g.cd_layout == Layout::kColMajor;
    ASSERT_EQ(p->m, transposed ? g.n : g.m) << call;
    ASSERT_EQ(p->n, transposed ? g.m : g.n) << call;
    ASSERT_EQ(p->k, g.k) << call;
    ASSERT_EQ(p->batch, g.batch) << call;
    ASSERT_GE(int64_t{p->tiles_m} * p->tile_m, p->m) << call;
    ASSERT_GE(int64_t{p->tiles_n} * p->tile_n, p->n) << call;
    ASSERT_GE(int64_t{p->iters_per_tile} * p->tile_k, p->k) << call;
    ASSERT_EQ(p->dp_tiles + p->sk_tiles, p->tiles) << call;
    ASSERT_GE(p->workspace_bytes, 0) << call;
    if (o.max_workspace_bytes > 0) ASSERT_LE(p->workspace_bytes, o.max_workspace_bytes) << call;
  }
  // Most random calls are wrong; enough are right to plan thousands.
  EXPECT_GT(rejected, 5000);
  EXPECT_GT(planned, 2000) << accepted << " accepted";
}

TEST(GemmValidation, NoGpuIsAStatusNotACrash) {
  int n = 0;
  if (cudaGetDeviceCount(&n) == cudaSuccess && n > 0) GTEST_SKIP() << "a GPU is present";
  cudaGetLastError();
  Fixture f;
  const absl::Status s = gemm(f.Valid());
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_NE(s.message().find("no CUDA device"), std::string::npos) << s;
}

// grouped_gemm(): the same promise. Groups of the contiguous layout: 3 groups over 64 rows.
struct GroupedFixture {
  alignas(256) uint16_t a[64 * 64], b[3 * 64 * 64], c[64 * 64], d[64 * 64];
  int64_t ends[3] = {20, 20, 64};
  GroupedGemmArgs Valid() {
    GroupedGemmArgs g;
    g.groups = 3, g.group_ends = ends;
    g.n = 64, g.k = 64;
    g.a = a, g.lda = 64;
    g.b = b, g.ldb = 64, g.stride_b = 64 * 64;
    g.c = c, g.ldc = 64;
    g.d = d, g.ldd = 64;
    return g;
  }
};

TEST(GroupedGemmValidation, RejectsBadArgumentsWithTheirNames) {
  GroupedFixture f;
  struct Bad {
    const char* what;
    std::function<void(GroupedGemmArgs&, Options&)> edit;
    const char* expect;
  };
  static int64_t decreasing[3] = {20, 10, 64};
  static int64_t negative[3] = {-1, 10, 64};
  static int64_t huge[3] = {0, 0, int64_t{1} << 31};
  const std::vector<Bad> cases = {
      {"no groups", [](GroupedGemmArgs& g, Options&) { g.groups = 0; }, "groups = 0"},
      {"too many groups", [](GroupedGemmArgs& g, Options&) { g.groups = kMaxGroups + 1; },
       "groups = 1025"},
      {"null ends", [](GroupedGemmArgs& g, Options&) { g.group_ends = nullptr; },
       "group_ends and device_group_ends are null"},
      {"ends decrease", [](GroupedGemmArgs& g, Options&) { g.group_ends = decreasing; },
       "group_ends[1] = 10"},
      {"negative end", [](GroupedGemmArgs& g, Options&) { g.group_ends = negative; },
       "group_ends[0] = -1"},
      {"rows past int32", [](GroupedGemmArgs& g, Options&) { g.group_ends = huge; },
       "group_ends[2]"},
      {"n zero", [](GroupedGemmArgs& g, Options&) { g.n = 0; }, "n = 0"},
      {"k negative", [](GroupedGemmArgs& g, Options&) { g.k = -2; }, "k = -2"},
      {"fp32 input", [](GroupedGemmArgs& g, Options&) { g.input = DType::kF32; }, "input = fp32"},
      {"null a", [](GroupedGemmArgs& g, Options&) { g.a = nullptr; }, "a is null"},
      {"null b", [](GroupedGemmArgs& g, Options&) { g.b = nullptr; }, "b is null"},
      {"null d", [](GroupedGemmArgs& g, Options&) { g.d = nullptr; }, "d is null"},
      {"lda short", [](GroupedGemmArgs& g, Options&) { g.lda = 32; }, "lda = 32"},
      {"lda off 16 bytes", [](GroupedGemmArgs& g, Options&) { g.lda = 68; }, "lda = 68"},
      {"b off 16 bytes",
       [](GroupedGemmArgs& g, Options&) { g.b = static_cast<const char*>(g.b) + 2; },
       "a grouped GEMM reads B as it is"},
      {"stride_b off 16 bytes", [](GroupedGemmArgs& g, Options&) { g.stride_b = 64 * 64 + 4; },
       "stride_b = 4100"},
      {"negative stride_b", [](GroupedGemmArgs& g, Options&) { g.stride_b = -64; },
       "stride_b = -64"},
      {"ldb short for row-major b",
       [](GroupedGemmArgs& g, Options&) {
         g.b_layout = Layout::kRowMajor;
         g.n = 128;
         g.ldd = 128;
       },
       "ldb = 64"},
      {"null c with beta",
       [](GroupedGemmArgs& g, Options&) {
         g.c = nullptr;
         g.beta = 1;
       },
       "c is null"},
      {"ldd short", [](GroupedGemmArgs& g, Options&) { g.ldd = 16; }, "ldd = 16"},
      {"repack asked for", [](GroupedGemmArgs&, Options& o) { o.repack = RepackOperands::kA; },
       "repack = a"},
      {"negative avail_sms", [](GroupedGemmArgs&, Options& o) { o.avail_sms = -1; }, "avail_sms"},
      {"both ends",
       [](GroupedGemmArgs& g, Options&) {
         static int32_t ends[3];
         g.device_group_ends = ends;
       },
       "both set"},
      {"device ends without a bound",
       [](GroupedGemmArgs& g, Options&) {
         static int32_t ends[3];
         g.group_ends = nullptr;
         g.device_group_ends = ends;
         g.max_rows = -5;
       },
       "max_rows = -5"},
  };
  for (const Bad& c : cases) {
    std::memset(f.d, 0x5a, sizeof(f.d));
    GroupedGemmArgs g = f.Valid();
    Options o;
    c.edit(g, o);
    const absl::Status v = ValidateGroupedGemmArgs(g, o);
    EXPECT_EQ(v.code(), absl::StatusCode::kInvalidArgument) << c.what << ": " << v;
    EXPECT_NE(v.message().find(c.expect), std::string::npos)
        << c.what << ": message '" << v.message() << "' lacks '" << c.expect << "'";
    EXPECT_EQ(grouped_gemm(g, nullptr, o), v) << c.what;
    EXPECT_EQ(PlanGroupedGemm(g, H200Spec(), o).status(), v) << c.what;
    for (uint16_t x : f.d) ASSERT_EQ(x, 0x5a5a) << c.what << ": D was written";
  }
}

// The plan covers the groups' own tile rows, reads each group's B (groups with rows only, in
// the bytes the model counts) and never stores D by TMA (a tile ends at its group's rows).
TEST(GroupedGemmValidation, PlansTheGroupsOwnTileRows) {
  GroupedFixture f;
  GroupedGemmArgs g = f.Valid();
  EXPECT_TRUE(ValidateGroupedGemmArgs(g).ok()) << ValidateGroupedGemmArgs(g);
  int64_t ends[8] = {300, 300, 301, 1000, 1000, 1000, 1900, 4096};
  g.groups = 8, g.group_ends = ends;
  g.n = 2048, g.k = 7168, g.lda = 7168, g.ldb = 7168, g.stride_b = int64_t{2048} * 7168;
  g.ldd = g.ldc = 2048;
  for (Mode mode : {Mode::kAuto, Mode::kDataParallel, Mode::kSplitK, Mode::kStreamK}) {
    Options o;
    o.mode = mode;
    PlanExplanation why;
    absl::StatusOr<Plan> p = PlanGroupedGemm(g, H200Spec(), o, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    int64_t tile_rows = 0;
    for (int i = 0; i < 8; ++i)
      tile_rows += (ends[i] - (i > 0 ? ends[i - 1] : 0) + p->tile_m - 1) / p->tile_m;
    EXPECT_EQ(p->tiles_m, tile_rows) << PlanSummary(*p);
    EXPECT_EQ(p->m, 4096);
    EXPECT_EQ(p->groups, 8);
    EXPECT_EQ(p->groups_with_rows, 5);
    EXPECT_NE(p->store_d, StoreD::kTma);
    EXPECT_FALSE(p->pingpong);
    EXPECT_FALSE(p->repack_a || p->repack_b);
    EXPECT_GE(p->workspace_bytes, p->group_rows_offset + 16 * int64_t{p->tiles_m});
    EXPECT_NE(FormatPlan(*p, &why, "H200").find("groups      8 (5 with rows)"), std::string::npos)
        << FormatPlan(*p, &why, "H200");
  }
  // The workspace cap weighs the group table: a cap of the plan's own workspace takes the same
  // plan; one that leaves no room for the table past the flags' region is refused, naming it.
  {
    absl::StatusOr<Plan> free = PlanGroupedGemm(g, H200Spec());
    ASSERT_TRUE(free.ok()) << free.status();
    Options capped;
    capped.max_workspace_bytes = free->workspace_bytes;
    absl::StatusOr<Plan> same = PlanGroupedGemm(g, H200Spec(), capped);
    ASSERT_TRUE(same.ok()) << same.status();
    EXPECT_EQ(PlanSummary(*same), PlanSummary(*free));
    capped.max_workspace_bytes = Plan::kMinFlagsBytes;
    absl::StatusOr<Plan> none = PlanGroupedGemm(g, H200Spec(), capped);
    EXPECT_EQ(none.status().code(), absl::StatusCode::kResourceExhausted) << none.status();
    EXPECT_NE(none.status().message().find("group table"), std::string::npos) << none.status();
  }
  // Group ends on the device: planned for max_rows spread the costliest way.
  static int32_t device_ends[8];
  g.group_ends = nullptr, g.device_group_ends = device_ends, g.max_rows = 4096;
  absl::StatusOr<Plan> bound = PlanGroupedGemm(g, H200Spec());
  ASSERT_TRUE(bound.ok()) << bound.status();
  EXPECT_EQ(bound->rows_bound, 1);
  EXPECT_EQ(bound->tiles_m, (4096 + 8 * (bound->tile_m - 1)) / bound->tile_m + 1);
  EXPECT_EQ(bound->groups_with_rows, 8);
  EXPECT_NE(FormatPlan(*bound).find("group ends read on the device"), std::string::npos)
      << FormatPlan(*bound);
  g.device_group_ends = nullptr, g.group_ends = ends;
  // No rows at all: nothing to plan, nothing to run.
  int64_t none[2] = {0, 0};
  g.groups = 2, g.group_ends = none;
  EXPECT_TRUE(ValidateGroupedGemmArgs(g).ok());
  EXPECT_EQ(PlanGroupedGemm(g, H200Spec()).status().code(), absl::StatusCode::kInvalidArgument);
}

// Thousands of random grouped_gemm() calls (group counts and ends of any kind, host or device
// ends, sizes, pointers null or between elements, leading dimensions and strides anywhere, every
// option), through the public entry points: ValidateGroupedGemmArgs accepts a call or names the
// argument and the rule it broke (InvalidArgument, "NAME ...: RULE"); a rejected grouped_gemm()
// returns the same status and leaves D untouched; an accepted call plans on the H200 model or is
// refused with a status, and a plan covers the groups' own tile rows (or, for device ends, the
// bound's) with its group table inside the workspace.
TEST(GroupedGemmValidation, RandomCallsAreAcceptedOrNamed) {
  std::mt19937_64 rng(20261208);
  auto pick = [&rng](std::initializer_list<int64_t> v) { return *(v.begin() + rng() % v.size()); };
  auto below = [&rng](int64_t n) { return static_cast<int64_t>(rng() % static_cast<uint64_t>(n)); };
  // Host buffers stand in for device memory: validation and planning never dereference them.
  alignas(256) static uint16_t buf[4][1024];
  static int32_t device_ends[kMaxGroups + 1];
  std::vector<int64_t> ends;
  const char* const names[] = {"groups",
                               "group_ends",
                               "device_group_ends",
                               "max_rows",
                               "n",
                               "k",
                               "input",
                               "output",
                               "a",
                               "lda",
                               "b",
                               "ldb",
                               "stride_b",
                               "c",
                               "ldc",
                               "d",
                               "ldd",
                               "beta",
                               "repack",
                               "avail_sms",
                               "mode",
                               "splits",
                               "blocks",
                               "sk_tiles",
                               "reduction",
                               "reduction_slices",
                               "tile",
                               "max_workspace_bytes",
                               "schedule",
                               "store_d",
                               "pingpong"};
  int rejected = 0, planned = 0;
  for (int i = 0; i < 20000; ++i) {
    // Half the calls anything at all; the other half plausible, each argument wrong 1 time in 40.
    const bool any = i % 2 == 0;
    auto wrong = [&]() { return any ? below(3) == 0 : below(40) == 0; };
    GroupedGemmArgs g;
    g.groups = wrong() ? pick({-1, 0, kMaxGroups + 1})
                       : 1 + (below(4) == 0 ? below(kMaxGroups) : below(16));
    const int64_t groups = std::clamp<int64_t>(g.groups, 1, kMaxGroups);
    ends.assign(static_cast<size_t>(groups), 0);
    int64_t end = 0;
    for (int64_t& e : ends) e = end += below(3) == 0 ? 0 : below(600);
    if (wrong()) ends[static_cast<size_t>(below(groups))] = pick({-1, 0, int64_t{1} << 31, 5});
    const bool on_device = below(4) == 0;
    g.group_ends = on_device && !wrong() ? nullptr : ends.data();
    if (on_device) {
      g.device_group_ends =
          wrong() ? reinterpret_cast<const int32_t*>(reinterpret_cast<const char*>(device_ends) + 2)
                  : device_ends;
      g.max_rows = wrong() ? pick({-5, 0, int64_t{1} << 31}) : 1 + below(20000);
    }
    auto dim = [&]() {
      return wrong() ? pick({-3, 0, 1, 7, int64_t{1} << 31}) : 8 * (1 + below(600));
    };
    g.n = dim(), g.k = dim();
    g.input = wrong() ? DType::kF32 : static_cast<DType>(below(2));
    g.output = static_cast<DType>(below(3));
    auto pointer = [&](int which) -> void* {
      char* base = reinterpret_cast<char*>(buf[which]);
      if (!wrong()) return base;
      switch (below(4)) {
        case 0: return nullptr;
        case 1: return base + 1;  // between 16-bit elements
        case 2: return base + 2;  // off 16 bytes
        default: return base + 16;
      }
    };
    g.a = pointer(0), g.b = pointer(1), g.c = pointer(2), g.d = pointer(3);
    g.b_layout = below(2) ? Layout::kRowMajor : Layout::kColMajor;
    const bool b_row = g.b_layout == Layout::kRowMajor;
    auto ld = [&](int64_t need) {
      return wrong() ? need + pick({-1, -8, 3}) : need + pick({0, 0, 8, 64});
    };
    g.lda = ld(g.k);
    g.ldb = ld(b_row ? g.n : g.k);
    g.ldd = ld(g.n);
    g.ldc = below(2) ? g.ldd : ld(g.n);
    g.stride_b = below(6) == 0 ? 0
                 : wrong()     ? pick({-64, 4, int64_t{1} << 40})
                               : g.ldb * (b_row ? g.k : g.n) + pick({0, 64});
    g.alpha = below(8) ? 1.0f : 0.5f;
    g.beta = below(3) ? 0.0f : 1.0f;
    const Options o = RandomOptions(rng, wrong, /*copies=*/false);
    const std::string call = absl::StrFormat(
        "call %d: %d groups (ends %s, last %d, max_rows %d), n %d k %d, in %d out %d, B %s, "
        "beta %g, ld %d/%d/%d/%d, stride_b %d, %s",
        i, g.groups, g.group_ends != nullptr ? "host" : "device",
        g.group_ends != nullptr ? ends.back() : 0, g.max_rows, g.n, g.k, static_cast<int>(g.input),
        static_cast<int>(g.output), LayoutName(g.b_layout), g.beta, g.lda, g.ldb, g.ldc, g.ldd,
        g.stride_b, DescribeOptions(o));

    const absl::Status v = ValidateGroupedGemmArgs(g, o);
    if (!v.ok()) {
      ++rejected;
      ASSERT_EQ(v.code(), absl::StatusCode::kInvalidArgument) << call << ": " << v;
      const std::string m(v.message());
      const size_t name_end = m.find_first_not_of("abcdefghijklmnopqrstuvwxyz_");
      ASSERT_NE(std::find(std::begin(names), std::end(names), m.substr(0, name_end)),
                std::end(names))
          << call << ": '" << m << "' does not start with an argument's name";
      ASSERT_TRUE(m.find(": ") != std::string::npos || m.find(" is null") != std::string::npos)
          << call << ": '" << m << "' states no rule";
      if (i % 10 == 0) {  // grouped_gemm() refuses it before any CUDA work
        std::memset(buf[3], 0x5a, sizeof(buf[3]));
        ASSERT_EQ(grouped_gemm(g, nullptr, o), v) << call;
        for (uint16_t x : buf[3]) ASSERT_EQ(x, 0x5a5a) << call << ": D was written";
      }
      continue;
    }
    absl::StatusOr<Plan> p = PlanGroupedGemm(g, H200Spec(), o);
    if (!p.ok()) {
      ASSERT_TRUE(IsPlanningRefusal(p.status())) << call;
      continue;
    }
    ++planned;
    ASSERT_EQ(p->groups, g.groups) << call;
    ASSERT_EQ(p->n, g.n) << call;
    ASSERT_EQ(p->k, g.k) << call;
    ASSERT_EQ(p->batch, 1) << call;
    ASSERT_EQ(p->m, g.group_ends != nullptr ? ends.back() : g.max_rows) << call;
    int64_t tile_rows = 0;
    for (size_t j = 0; g.group_ends != nullptr && j < ends.size(); ++j)
      tile_rows += (ends[j] - (j > 0 ? ends[j - 1] : 0) + p->tile_m - 1) / p->tile_m;
    if (g.group_ends != nullptr) {
      ASSERT_EQ(p->tiles_m, tile_rows) << call;
    } else {  // the most tile rows any split of max_rows over the groups makes, and one more
      ASSERT_GE(int64_t{p->tiles_m} * p->tile_m, g.max_rows) << call;
    }
    ASSERT_GE(int64_t{p->tiles_n} * p->tile_n, p->n) << call;
    ASSERT_GE(int64_t{p->iters_per_tile} * p->tile_k, p->k) << call;
    ASSERT_EQ(p->dp_tiles + p->sk_tiles, p->tiles) << call;
    ASSERT_FALSE(p->pingpong || p->repack_a || p->repack_b) << call;
    ASSERT_LE(p->group_rows_offset + 16 * int64_t{p->tiles_m}, p->workspace_bytes) << call;
    if (o.max_workspace_bytes > 0) ASSERT_LE(p->workspace_bytes, o.max_workspace_bytes) << call;
  }
  EXPECT_GT(rejected, 5000);
  EXPECT_GT(planned, 2000);
}

}  // namespace
}  // namespace streamk
