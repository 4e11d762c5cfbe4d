// Planner tests: the named cases from the design, validation, determinism, and that auto never
// predicts worse than data-parallel.
#include "streamk/planner.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "cost_terms.h"
#include "streamk/device_spec.h"
#include "streamk/plan_print.h"
#include "tma_operands.h"
#include "work_mapping.h"

namespace streamk {
namespace {

Problem Shape(int64_t m, int64_t n, int64_t k, int64_t batch = 1) {
  Problem p;
  p.m = m, p.n = n, p.k = k, p.batch = batch;
  return p;
}

// A shape as gemm()'s default layouts pack it in fp16: K-major rows of A and B on 128-byte lines
// where K is a multiple of 64 (OperandLayout::rows_on_lines).
Problem PackedShape(int64_t m, int64_t n, int64_t k) {
  Problem p = Shape(m, n, k);
  p.a.row_align = (k % 64 == 0) ? kLineRowBytes : kFastRowBytes;
  p.b.row_align = (k % 64 == 0) ? kLineRowBytes : kFastRowBytes;
  return p;
}

// A shape whose K-major rows of A and B both start misaligned (OperandLayout::rows_misaligned).
Problem MisalignedShape(int64_t m, int64_t n, int64_t k) {
  Problem p = Shape(m, n, k);
  p.a.row_align = kVectorBytes;
  p.b.row_align = kVectorBytes;
  return p;
}

// `dev` without its fourth tile (192 x 192): for the cases that pin the other tiles' rules on
// shapes that tile now takes.
DeviceSpec WithoutWideTile(DeviceSpec dev) {
  dev.Remove(KernelRole::kWide);
  return dev;
}

// `dev` without the 128 x 256 tile's yields to data-parallel's pick (CostModel::
// every_tile_streamk_gain, one_round_tail_streamk_gain), measured with all six tiles: for the
// cases that pin the rules before them where fewer tiles leave data-parallel's pick close.
DeviceSpec WithoutStreamKYields(DeviceSpec dev) {
  dev.main().cost.every_tile_streamk_gain = dev.main().cost.one_round_tail_streamk_gain = 0;
  return dev;
}

// `dev` without its third tile (128 x 192): the pick of the others, which it is weighed against.
DeviceSpec WithoutMidTile(DeviceSpec dev) {
  dev.Remove(KernelRole::kMid);
  return dev;
}

// `dev` without its fifth tile (64 x 128): for the cases that pin the other tiles' rules on
// shapes one round of that tile holds.
DeviceSpec WithoutSmallTile(DeviceSpec dev) {
  dev.Remove(KernelRole::kSmall);
  return dev;
}

// `dev` without its sixth tile (128 x 320): for the cases that pin the other tiles' rules on
// shapes one round of that tile holds.
DeviceSpec WithoutBroadTile(DeviceSpec dev) {
  dev.Remove(KernelRole::kBroad);
  return dev;
}

Plan MustPlan(const Problem& problem, const DeviceSpec& dev, const PlanOptions& o = {}) {
  absl::StatusOr<Plan> plan = MakePlan(problem, dev, o);
  EXPECT_TRUE(plan.ok()) << plan.status();
  return plan.ok() ? *plan : Plan{};
}

// Expects `p`, auto's plan for `q`, to be the very plan mode dp runs, and where `why` is given, its
// explanation handed over to that plan: the reason opens with data-parallel's pick and the rows'
// options list it last, chosen. Call it under ASSERT_NO_FATAL_FAILURE where `why` is read after.
void ExpectDataParallelsPick(const Problem& q, const DeviceSpec& dev, const Plan& p,
                             const PlanExplanation* why) {
  PlanOptions dp;
  dp.mode = Mode::kDataParallel;
  const Plan own = MustPlan(q, dev, dp);
  EXPECT_EQ(own.tile_m, p.tile_m);
  EXPECT_EQ(own.tile_n, p.tile_n);
  EXPECT_EQ(own.grid_blocks, p.grid_blocks);
  if (why == nullptr) return;
  EXPECT_EQ(why->reason.rfind("data-parallel's pick on the rows as they are", 0), 0u)
      << why->reason;
  ASSERT_GE(why->rows_options.size(), 2u);
  EXPECT_TRUE(why->rows_options.back().chosen);
  EXPECT_EQ(why->rows_options.back().name, "data-parallel's pick");
}

// Auto on aligned rows `q` runs data-parallel's very plan over its `old_mode` pick on `old_tile`
// (DataParallelOverSplitPick), says so, and that tile forced keeps the old mode. Returns the plan.
Plan ExpectSplitYielded(const Problem& q, const DeviceSpec& dev, Mode old_mode,
                        const TileShape& old_tile) {
  PlanExplanation why;
  const absl::StatusOr<Plan> p = MakePlan(q, dev, {}, &why);
  EXPECT_TRUE(p.ok()) << p.status();
  if (!p.ok()) return Plan{};
  EXPECT_EQ(p->mode, Mode::kDataParallel) << q.m << "x" << q.n << "x" << q.k << "\n"
                                          << FormatPlan(*p, &why);
  ExpectDataParallelsPick(q, dev, *p, nullptr);
  EXPECT_EQ(why.reason.rfind("data-parallel's pick (predicted", 0), 0u) << why.reason;
  EXPECT_NE(why.reason.find(absl::StrCat("auto's ", ModeName(old_mode), " pick on ",
                                         TileShapeName(old_tile))),
            std::string::npos)
      << why.reason;
  EXPECT_TRUE(why.rows_options.empty());  // aligned rows: nothing else was weighed for them
  PlanOptions tile;
  tile.tile = old_tile;
  EXPECT_EQ(MustPlan(q, dev, tile).mode, old_mode);
  return *p;
}

TEST(PlannerNamedCases, WholeWaveIsPureDataParallel) {
  // 1408 x 3072 with the H200's 128x256 tiles: 11 x 12 = 132 tiles, one whole wave on 132 SMs.
  PlanOptions o;
  o.tile = H200Spec().main().tile;
  for (int64_t k : {32, 128, 4096, 16384}) {
    for (int occupancy : {1, 2, 4}) {
      DeviceSpec dev = H200Spec();
      dev.occupancy = occupancy;
      const Plan p = MustPlan(Shape(1408, 3072, k), dev, o);
      EXPECT_EQ(p.tiles, 132);
      EXPECT_EQ(p.mode, Mode::kDataParallel) << p;
      EXPECT_EQ(p.sk_blocks, 0) << p;
      EXPECT_EQ(p.dp_tiles, 132) << p;
      EXPECT_EQ(p.workspace_bytes, 0) << p;
    }
  }
}

TEST(PlannerNamedCases, WholeSmWavesWithAPartResidentWaveUseStreamK) {
  // 2304 x 2816: 18 x 22 = 396 tiles, three whole waves of 132 SMs, but with two blocks per SM
  // the resident waves are 264 + 132: data-parallel runs the second round shared too (measured
  // on an H200: 176 us against 141 us for Stream-K over every tile).
  DeviceSpec dev = H200CpAsyncSpec();
  ASSERT_EQ(dev.occupancy, 2);
  PlanExplanation why;
  absl::StatusOr<Plan> p = MakePlan(Shape(2304, 2816, 4096), dev, {}, &why);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->tiles, 396);
  EXPECT_EQ(p->mode, Mode::kStreamK) << FormatPlan(*p, &why);
  EXPECT_EQ(p->sk_tiles, 396) << *p;
  EXPECT_LE(p->sk_blocks, dev.sms * dev.occupancy) << *p;
  // One block per SM: 396 tiles are three whole resident waves, nothing to fix.
  dev.occupancy = 1;
  EXPECT_EQ(MustPlan(Shape(2304, 2816, 4096), dev).mode, Mode::kDataParallel);
  // 528 tiles fill two resident waves of 264 exactly.
  dev.occupancy = 2;
  EXPECT_EQ(MustPlan(Shape(2816, 3072, 4096), dev).mode, Mode::kDataParallel);
}

TEST(PlannerNamedCases, OneTileOverAWaveUsesStreamK) {
  // 144 tiles = one wave of 132 + 12: the last wave would leave 120 SMs idle. The TMA kernel (one
  // block per SM, 128x256 tiles: 1536 x 3072) and the cp.async one (two per SM, 128x128 tiles:
  // 1536 x 1536). (With its fourth tile the H200 takes 1536 x 3072 as one round of 128 tiles of
  // 192 x 192 instead, TheFourthTileTakesShapesOneRoundOfItFills; with its sixth alone, as 120 of
  // 128 x 320, TheSixthTileTakesShapesOneRoundOfItHolds.)
  for (const auto& [dev, n] :
       {std::pair{WithoutStreamKYields(WithoutBroadTile(WithoutWideTile(H200Spec()))), 3072},
        {H200CpAsyncSpec(), 1536}}) {
    PlanExplanation why;
    absl::StatusOr<Plan> p = MakePlan(Shape(1536, n, 4096), dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->tiles, 144);
    EXPECT_EQ(p->mode, Mode::kStreamK) << FormatPlan(*p, &why);
    EXPECT_GT(p->sk_tiles, 0) << *p;
    // Two-tile (occupancy 1): 144 tiles over 132 blocks; one-tile (occupancy 2): the 12 extra
    // tiles over more blocks than tiles.
    EXPECT_GE(p->sk_blocks, std::min(p->sk_tiles + 1, dev.sms)) << *p;
    EXPECT_LE(p->sk_iters_per_normal_block, 2 * p->iters_per_tile) << *p;
    EXPECT_LE(p->sk_blocks, dev.sms * dev.occupancy) << *p;
    EXPECT_EQ(p->dp_tiles + p->sk_tiles, 144) << *p;
    EXPECT_GT(p->workspace_bytes, 0) << *p;
    EXPECT_LT(why.predicted_us, why.candidates[0].predicted_us) << FormatPlan(*p, &why);
  }
}

TEST(PlannerNamedCases, HopperPicksTheTileShapePerShape) {
  // The H200 preset has two kernel configurations. Large shapes take 128x256 tiles (a third
  // less operand traffic per FLOP); a skinny one, whose 256-wide tiles would be 94% empty, takes
  // 128x128 (measured on an H200: 12288 x 16 x 4096 in 56 us with 128x128, 92 us with 128x256).
  const DeviceSpec dev = H200Spec();
  ASSERT_EQ(dev.main().tile.n, 256);
  ASSERT_EQ(dev.TileOf(KernelRole::kAlt).n, 128);
  EXPECT_EQ(MustPlan(Shape(8192, 8192, 8192), dev).tile_n, 256);
  EXPECT_EQ(MustPlan(Shape(12288, 16, 4096), dev).tile_n, 128);
  // So does a prefill projection whose 128 x 128 tiles nearly fill 3 waves (384 tiles) where 192 of
  // 128 x 256 leave the second wave half empty (on an H200: 78.2 us against 96.3).
  const Plan prefill = MustPlan(Shape(12288, 512, 4096), dev);
  EXPECT_EQ(prefill.tile_n, 128) << prefill;
  EXPECT_EQ(prefill.mode, Mode::kDataParallel) << prefill;
  // An explicit tile is kept.
  PlanOptions o;
  o.tile = dev.TileOf(KernelRole::kAlt);
  EXPECT_EQ(MustPlan(Shape(8192, 8192, 8192), dev, o).tile_n, 128);
  // A device with one configuration plans its tile.
  EXPECT_EQ(MustPlan(Shape(12288, 16, 4096), H200CpAsyncSpec()).tile_n, 128);
  // Auto weighs Stream-K against the faster data-parallel plan of either tile: 135 128x256 tiles
  // as Stream-K (predicted 86.6 us) are not 8% under 255 128x128 tiles data-parallel (87.8 us);
  // measured on an H200, they ran 90.7 us against 82.1 us.
  const Plan q = MustPlan(Shape(1824, 2176, 4960), dev);
  EXPECT_EQ(q.mode, Mode::kDataParallel) << q;
  EXPECT_EQ(q.tile_n, 128) << q;
  // The explanation names both and its chosen candidate is the plan.
  PlanExplanation why;
  absl::StatusOr<Plan> p = MakePlan(Shape(12288, 16, 4096), dev, {}, &why);
  ASSERT_TRUE(p.ok());
  EXPECT_NE(why.reason.find("tile 128x128x64"), std::string::npos) << why.reason;
  EXPECT_NE(why.reason.find("128x256x64"), std::string::npos) << why.reason;
  ASSERT_GE(why.chosen, 0);
  EXPECT_EQ(why.candidates[why.chosen].sk_tiles, p->sk_tiles);
  EXPECT_DOUBLE_EQ(why.predicted_us, PredictMicros(*p, KernelCost(dev, *p)));
}

TEST(PlannerNamedCases, AForcedTileIsPricedWithItsOwnConstants) {
  // PlanOptions::tile = the 128 x 128 configuration must plan and predict as a device whose only
  // kernel is that configuration: its constants, not the 128 x 256 kernel's. So must the third
  // and fourth configurations with theirs. (The sixth is priced by the main one's.)
  const DeviceSpec dev = H200Spec();
  EXPECT_EQ(dev.Find(KernelRole::kBroad)->cost.iter_us, dev.main().cost.iter_us);
  for (const auto& [tile, cost] :
       {std::pair{dev.TileOf(KernelRole::kAlt), dev.Find(KernelRole::kAlt)->cost},
        std::pair{dev.TileOf(KernelRole::kMid), dev.Find(KernelRole::kMid)->cost},
        std::pair{dev.TileOf(KernelRole::kWide), dev.Find(KernelRole::kWide)->cost}}) {
    DeviceSpec only = dev;
    only.main().tile = tile, only.main().cost = cost;
    for (KernelRole role :
         {KernelRole::kAlt, KernelRole::kMid, KernelRole::kWide, KernelRole::kBroad})
      only.Remove(role);
    for (const Mode mode : {Mode::kAuto, Mode::kDataParallel, Mode::kStreamK}) {
      PlanOptions o;
      o.mode = mode;
      PlanExplanation expected, forced;
      const Plan want = MustPlan(Shape(2432, 1792, 1024), only, o);
      ASSERT_TRUE(MakePlan(Shape(2432, 1792, 1024), only, o, &expected).ok());
      o.tile = tile;
      absl::StatusOr<Plan> p = MakePlan(Shape(2432, 1792, 1024), dev, o, &forced);
      ASSERT_TRUE(p.ok()) << p.status();
      EXPECT_EQ(p->tile_n, tile.n);
      EXPECT_EQ(p->mode, want.mode) << *p;
      EXPECT_EQ(p->sk_blocks, want.sk_blocks) << *p;
      EXPECT_DOUBLE_EQ(forced.predicted_us, expected.predicted_us) << ModeName(mode);
      EXPECT_NE(forced.predicted_us, PredictMicros(*p, dev.main().cost)) << ModeName(mode);
    }
  }
}

TEST(PlannerNamedCases, TheThirdTileTakesDataParallelShapesItFillsBetter) {
  // Measured on an H200 (fp16; bench M x N x K, the planner's problem N x M x K), us data-parallel
  // on 128x192 tiles against auto's pick on the other two: 576 x 3984 x 1152 13.4 / 17.1 (128x128),
  // 888 x 3200 x 3200 30.0 / 36.1 (128x256), 5120 x 3456 x 4096 240.1 / 268.5 (128x256),
  // 2840 x 704 x 1248 14.2 / 17.5 (128x256). The fourth tile, which takes some of these shapes, has
  // its own test.
  const DeviceSpec dev = WithoutStreamKYields(WithoutWideTile(H200Spec()));
  ASSERT_EQ(dev.TileOf(KernelRole::kMid).n, 192);
  for (const Problem& q : {Shape(3984, 576, 1152), Shape(3200, 888, 3200),
                           Shape(3456, 5120, 4096), Shape(704, 2840, 1248)}) {
    PlanExplanation why;
    absl::StatusOr<Plan> p = MakePlan(q, dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->tile_n, 192) << FormatPlan(*p, &why);
    EXPECT_EQ(p->mode, Mode::kDataParallel) << *p;
    EXPECT_EQ(why.reason.rfind("tile 128x192x64, data-parallel", 0), 0u) << why.reason;
    EXPECT_DOUBLE_EQ(why.predicted_us, PredictMicros(*p, dev.Find(KernelRole::kMid)->cost));
    ASSERT_GE(why.chosen, 0);
    EXPECT_EQ(why.candidates[why.chosen].mode, Mode::kDataParallel);
    // The other tiles' candidates stay in the explanation, named by their tile.
    int others = 0;
    for (const Candidate& c : why.candidates) others += c.name.find(" [128x") != std::string::npos;
    EXPECT_GE(others, 2) << FormatPlan(*p, &why);
    // Forced data-parallel weighs it too.
    PlanOptions dp;
    dp.mode = Mode::kDataParallel;
    EXPECT_EQ(MustPlan(q, dev, dp).tile_n, 192);
  }
  // A Stream-K pick on another tile stands: 5120 x 2560 x 8192 ran 332.1 us as the 128x256 hybrid,
  // 392.8 data-parallel on 128x192. So does a close call on the many waves of large shapes, where
  // 128x256 tiles run about 3% faster per FLOP: 4096 x 8192 x 28672 2973 us against 3080.
  const Plan hybrid = MustPlan(Shape(2560, 5120, 8192), dev);
  EXPECT_EQ(hybrid.tile_n, 256) << hybrid;
  EXPECT_EQ(hybrid.mode, Mode::kStreamK) << hybrid;
  EXPECT_EQ(MustPlan(Shape(8192, 4096, 28672), dev).tile_n, 256);
  // Where it is not taken, auto's explanation still lists its plan and names its prediction.
  PlanExplanation square;
  ASSERT_TRUE(MakePlan(Shape(4096, 4096, 4096), dev, {}, &square).ok());
  int listed = 0;
  for (const Candidate& c : square.candidates) {
    if (c.name != "dp [128x192x64]") continue;
    ++listed;
    EXPECT_EQ(c.note.find("requested"), std::string::npos) << c.note;  // auto asked for nothing
  }
  EXPECT_EQ(listed, 1);
  EXPECT_NE(square.reason.find("data-parallel on 128x192x64"), std::string::npos) << square.reason;
  // Over a Stream-K pick it needs a 5% predicted margin (on an H200, fp16, us Stream-K on
  // 128x256 / data-parallel on 128x192): 3072 x 2944 x 4096 117.9 / 109.9 (predicted 1.068x as
  // fast) takes it; 5888 x 2944 x 4096 219.6 / 239.2 (predicted even) and 3072 x 1536 x 8192
  // 118.1 / 140.3 (predicted 0.93x) do not.
  PlanExplanation why;
  absl::StatusOr<Plan> over_sk = MakePlan(Shape(2944, 3072, 4096), dev, {}, &why);
  ASSERT_TRUE(over_sk.ok()) << over_sk.status();
  EXPECT_EQ(over_sk->tile_n, 192) << FormatPlan(*over_sk, &why);
  EXPECT_EQ(over_sk->mode, Mode::kDataParallel) << *over_sk;
  EXPECT_NE(why.reason.find("under their streamk plan"), std::string::npos) << why.reason;
  for (const Problem& q : {Shape(2944, 5888, 4096), Shape(1536, 3072, 8192)}) {
    const Plan p = MustPlan(q, dev);
    EXPECT_EQ(p.tile_n, 256) << p;
    EXPECT_EQ(p.mode, Mode::kStreamK) << p;
  }
  // Its Stream-K and split-K plans are planned only where the tile is asked for.
  for (const Mode mode : {Mode::kStreamK, Mode::kSplitK}) {
    PlanOptions o;
    o.mode = mode;
    EXPECT_NE(MustPlan(Shape(3200, 888, 3200), dev, o).tile_n, 192) << ModeName(mode);
    o.tile = dev.TileOf(KernelRole::kMid);
    EXPECT_EQ(MustPlan(Shape(3200, 888, 3200), dev, o).tile_n, 192) << ModeName(mode);
  }
}

TEST(PlannerNamedCases, TheFifthTileTakesShapesOneRoundOfItHolds) {
  // Measured on an H200 (fp16; bench M x N x K, the planner's problem N x M x K), us on 64 x 128
  // tiles against auto's pick on the others, back to back: 1024 x 1024 x 2048 data-parallel
  // 8.3 / 13.1 (64 tiles of 128 x 128), 384 x 1536 x 3072 10.5 / 17.4, 2920 x 192 x 2400
  // 10.0 / 14.8, and 128 x 4096 x 4096 13.1 / 16.0 (split-K four ways with a separate reduction on
  // 128 x 128).
  const DeviceSpec dev = H200Spec();
  ASSERT_EQ(dev.TileOf(KernelRole::kSmall).m, 64);
  for (const Problem& q : {Shape(1024, 1024, 2048), Shape(1536, 384, 3072), Shape(192, 2920, 2400),
                           Shape(4096, 128, 4096)}) {
    PlanExplanation why;
    absl::StatusOr<Plan> p = MakePlan(q, dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->tile_m, 64) << FormatPlan(*p, &why);
    EXPECT_EQ(why.reason.rfind("tile 64x128x64, ", 0), 0u) << why.reason;
    EXPECT_DOUBLE_EQ(why.predicted_us, PredictMicros(*p, dev.Find(KernelRole::kSmall)->cost));
    // The other tiles' candidates stay in the explanation, named by their tile.
    int others = 0;
    for (const Candidate& c : why.candidates) others += c.name.find(" [128x") != std::string::npos;
    EXPECT_GE(others, 2) << FormatPlan(*p, &why);
    // Forced data-parallel weighs it too.
    PlanOptions dp;
    dp.mode = Mode::kDataParallel;
    EXPECT_EQ(MustPlan(q, dev, dp).tile_m, 64) << q.m << "x" << q.n << "x" << q.k;
  }
  // Not past one round of its tiles: 1040 x 992 x 600 (144 of them) ran 10.5 us data-parallel on
  // them against 7.8 on 128 x 128 tiles, 4816 x 248 x 3496 49.3 against 30.5.
  for (const Problem& q : {Shape(992, 1040, 600), Shape(248, 4816, 3496)}) {
    PlanExplanation why;
    const absl::StatusOr<Plan> p = MakePlan(q, dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_NE(p->tile_m, 64) << *p;
    for (const Candidate& c : why.candidates)
      EXPECT_EQ(c.name.find("64x128x64"), std::string::npos) << c.name;
  }
  // Small GEMMs too, whatever their predicted time: in graph replay on an H100, 128 x 128 x 512
  // ran 4.2 us on two 64 x 128 tiles against 6.9 on one 128 x 192, and 224 x 216 x 832 (the
  // planner's order) 5.1 against 7.0 on 128 x 128 tiles.
  EXPECT_EQ(MustPlan(Shape(128, 128, 512), dev).tile_m, 64);
  EXPECT_EQ(MustPlan(Shape(224, 216, 832), dev).tile_m, 64);
  // Where it is weighed and not taken, the explanation lists its plan: 360 x 424 x 3608 (K an odd
  // multiple of 8: rows misaligned) ran split-K on 128 x 128 tiles in 14.1 us, split-K on 64 x 128
  // in 14.2 at best (three ways).
  PlanExplanation why;
  const absl::StatusOr<Plan> kept = MakePlan(MisalignedShape(424, 360, 3608), dev, {}, &why);
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_EQ(kept->tile_m, 128) << FormatPlan(*kept, &why);
  EXPECT_NE(why.reason.find(" on 64x128x64: "), std::string::npos) << why.reason;
  int listed = 0;
  for (const Candidate& c : why.candidates)
    listed += c.name.find("[64x128x64]") != std::string::npos;
  EXPECT_GE(listed, 1) << FormatPlan(*kept, &why);
  // A Stream-K pick of the other tiles must beat data-parallel's pick by kMinPredictedGain, and
  // that may be this tile's (fp16, on an H200): 64 x 8192 x 28672 ran 123.4 us split two ways on
  // 128 x 128 tiles, predicted 2% over data-parallel on 128 of 64 x 128, which ran 118.0.
  PlanOptions dp;
  dp.mode = Mode::kDataParallel;
  PlanExplanation down_why;
  const absl::StatusOr<Plan> down = MakePlan(Shape(8192, 64, 28672), dev, {}, &down_why);
  ASSERT_TRUE(down.ok()) << down.status();
  EXPECT_EQ(down->tile_m, 64) << FormatPlan(*down, &down_why);
  EXPECT_EQ(down->mode, Mode::kDataParallel) << *down;
  EXPECT_NE(down_why.reason.find("which is data-parallel's pick"), std::string::npos)
      << down_why.reason;
  EXPECT_EQ(MustPlan(Shape(8192, 64, 28672), dev, dp).tile_m, 64);
  EXPECT_EQ(MustPlan(Shape(8192, 64, 28672), WithoutSmallTile(dev)).mode, Mode::kSplitK);
  // Misaligned rows run as they are on it (392 x 808 x 1768, K an odd multiple of 8, ran 12.3 us on
  // it with B copied first, 11.9 as it is).
  for (const bool a : {false, true}) {
    Problem odd = Shape(808, 392, 1768);
    if (a) odd.a.row_align = kVectorBytes;
    if (!a) odd.b.row_align = kVectorBytes;
    const Plan as_is = MustPlan(odd, dev);
    EXPECT_EQ(as_is.tile_m, 64) << as_is;
    EXPECT_FALSE(as_is.repack_a || as_is.repack_b) << as_is;
  }
  // A device without the tile plans as before.
  DeviceSpec four = dev;
  four.Remove(KernelRole::kSmall);
  EXPECT_EQ(MustPlan(Shape(1024, 1024, 2048), four).tile_m, 128);
}

// Decode rows whose tokens are the kernel's A, as gemm() runs them with a row-major D
// (16 x 11008 x 4096 here is bench 11008 x 16 x 4096 in layout tn): 64 x 128 tiles hold all the
// tokens, and 128 x 128 tiles compute an empty 64-row half beside them. Measured on an H200 (fp16,
// us data-parallel on 128 x 128 / 64 x 128, layouts tn and nn): 16 x 11008 x 4096 28.5 / 26.0 and
// 27.1 / 26.1, 64 x 11008 x 4096 29.0 / 27.0 and 27.5 / 26.9, 16 x 12288 x 4096 30.6 / 29.2 and
// 29.2 / 28.8; the model predicts the last 3.6% slower on 64 x 128, so the tile is taken there
// unless predicted 5% slower.
TEST(PlannerNamedCases, TheFifthTileTakesDecodeRowsWhoseTokensItHolds) {
  const DeviceSpec dev = H200Spec();
  for (const Problem& q : {Shape(16, 11008, 4096), Shape(64, 11008, 4096), Shape(16, 12288, 4096),
                           Shape(32, 11008, 4096)}) {
    PlanExplanation why;
    const absl::StatusOr<Plan> p = MakePlan(q, dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->tile_m, 64) << FormatPlan(*p, &why);
    EXPECT_EQ(p->mode, Mode::kDataParallel) << *p;
    EXPECT_NE(why.reason.find("rows of A"), std::string::npos) << why.reason;
    EXPECT_EQ(MustPlan(q, WithoutSmallTile(dev)).tile_m, 128) << q.m << "x" << q.n;
  }
  // On the 29 shapes this moves among 1-64 tokens, 11008-16384 weights and 1024-14336 deep, auto
  // ran 1.081x as fast as on 128 x 128 (worst 0.998). With B's rows M/N-major (layout nn) 1.045x,
  // but 0.958-0.965x on three 14336-deep shapes: there the 5% margin stays.
  Problem mn_major_b = Shape(16, 14336, 14336);
  EXPECT_EQ(MustPlan(mn_major_b, dev).tile_m, 64);
  mn_major_b.b.row_align = kFastRowBytes;
  EXPECT_EQ(MustPlan(mn_major_b, dev).tile_m, 128);
  // 128 tokens make twice its tiles: 128 x 11008 x 4096 ran 30.0 us on 128 x 128, 36.0 on it.
  EXPECT_EQ(MustPlan(Shape(128, 11008, 4096), dev).tile_m, 128);
  // Past one round of its tiles it is not weighed (16 x 28672 x 8192: 224 tiles).
  EXPECT_EQ(MustPlan(Shape(16, 28672, 8192), dev).tile_m, 128);
  // Where the other tiles split over every SM, its own split must still be 15% faster:
  // 16 x 4096 x 11008 ran 31.2 us split-K on 128 x 128 tiles, 34.9 data-parallel on it.
  const Plan split = MustPlan(Shape(16, 4096, 11008), dev);
  EXPECT_EQ(split.tile_m, 128) << split;
  EXPECT_EQ(split.mode, Mode::kSplitK) << split;
}

TEST(PlannerNamedCases, DeepAlignedProjectionsTakeStreamKOnASmallerMargin) {
  // Measured on an H200 (bench M x N x K, the planner's problem N x M x K): Llama projections whose
  // Stream-K hybrid on 128 x 256 tiles is predicted 2.7-5% faster than data-parallel on them ran
  // 4-14% faster (kMinDeepAlignedGain).
  const DeviceSpec dev = H200Spec();
  for (const auto& [m, n, k] : {std::tuple{2048, 11008, 4096}, {6144, 5120, 13824},
                                {3072, 10240, 8192}, {4096, 13824, 5120}}) {
    PlanExplanation why;
    const absl::StatusOr<Plan> p = MakePlan(Shape(n, m, k), dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->mode, Mode::kStreamK) << FormatPlan(*p, &why);
    EXPECT_EQ(p->tile_n, 256) << *p;
    EXPECT_GT(p->dp_tiles, 0) << *p;  // the hybrid: full rounds data-parallel, then Stream-K
    EXPECT_GT(why.predicted_us, 0.92 * why.candidates[0].predicted_us) << FormatPlan(*p, &why);
  }
  // Predicted 2.1% faster (1024 x 11008 x 4096, whose all-tiles Stream-K ran 0.92x): dp.
  PlanExplanation why;
  Plan p = *MakePlan(Shape(11008, 1024, 4096), dev, {}, &why);
  EXPECT_EQ(p.mode, Mode::kDataParallel) << FormatPlan(p, &why);
  EXPECT_NE(why.reason.find("by 2.5% or more"), std::string::npos) << why.reason;
  // Under 64 iterations per tile the 8% margin holds: 2048 x 11008 x 2048 stays data-parallel.
  EXPECT_EQ(MustPlan(Shape(11008, 2048, 2048), dev).mode, Mode::kDataParallel);
  // Misaligned rows keep the 8% margin: the first shape on its 128 x 256 tile, rows as they are.
  PlanOptions as_is;
  as_is.tile = dev.main().tile;
  as_is.repack = RepackOperands::kNone;
  Problem rows = Shape(11008, 2048, 4096);
  EXPECT_EQ(MustPlan(rows, dev, as_is).mode, Mode::kStreamK);
  rows.a.row_align = kVectorBytes;
  rows.b.row_align = kVectorBytes;
  EXPECT_EQ(MustPlan(rows, dev, as_is).mode, Mode::kDataParallel);
  // Across tiles the 8% margin holds: 512 x 28672 x 8192's hybrid on 128 x 256 is predicted 4.8%
  // faster than data-parallel on 128 x 128 (and ran 1-3% slower).
  p = MustPlan(Shape(28672, 512, 8192), dev);
  EXPECT_EQ(p.mode, Mode::kDataParallel) << p;
  EXPECT_EQ(p.tile_n, 128) << p;
  // A Stream-K pick on that margin keeps none over the third tile: 2360 x 7168 x 4112 runs
  // data-parallel on 128 x 192 (predicted 4.9% under the hybrid on 128 x 128, which ran 7-9%
  // slower).
  p = MustPlan(Shape(7168, 2360, 4112), dev);
  EXPECT_EQ(p.mode, Mode::kDataParallel) << p;
  EXPECT_EQ(p.tile_n, 192) << p;
}

TEST(PlannerNamedCases, TheSixthTileTakesShapesOneRoundOfItHolds) {
  // Planner M x N x K (tokens as A, weights, depth): one round of 116-132 tiles of 128 x 320,
  // data-parallel, predicted 2.4-8.4% faster than auto's pick on the other tiles, ran 1.01-1.16x as
  // fast on an H200 (where cuBLAS ran 320 x 128 tiles).
  const DeviceSpec dev = H200Spec();
  ASSERT_EQ(dev.TileOf(KernelRole::kBroad), (TileShape{128, 320, 64}));
  struct Case {
    int64_t m, n, k;
    int tiles;
  };
  for (const Case& c : {Case{640, 8192, 8192, 130}, Case{256, 20480, 8192, 128},
                        Case{384, 13824, 8192, 132}, Case{1024, 5120, 14336, 128}}) {
    PlanExplanation why;
    absl::StatusOr<Plan> p = MakePlan(Shape(c.m, c.n, c.k), dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->mode, Mode::kDataParallel) << FormatPlan(*p, &why);
    EXPECT_EQ(p->tile_n, 320) << FormatPlan(*p, &why);
    EXPECT_EQ(p->tiles, c.tiles) << *p;
    EXPECT_NE(why.reason.find("tile 128x320x64, data-parallel"), std::string::npos)
        << why.reason;
    // Without it: Stream-K on 128 x 256, or data-parallel on 128 x 192.
    const Plan before = MustPlan(Shape(c.m, c.n, c.k), WithoutBroadTile(dev));
    EXPECT_NE(before.tile_n, 320) << before;
    EXPECT_GT(PredictMicros(before, KernelCost(dev, before)),
              PredictMicros(*p, dev.Find(KernelRole::kBroad)->cost) * (1 + 0.02))
        << before;
  }
  // Over more than one round its plans ran 0.88-0.99x the time of the other tiles': at 1024 tokens
  // on 14336 weights 4096 deep, 360 tiles of it are predicted 2.5% faster than 896 of 128 x 128,
  // and auto keeps those.
  PlanOptions broad;
  broad.mode = Mode::kDataParallel, broad.tile = dev.TileOf(KernelRole::kBroad);
  const Plan many = MustPlan(Shape(1024, 14336, 4096), dev, broad);
  EXPECT_EQ(many.tiles, 360);
  const Plan pick = MustPlan(Shape(1024, 14336, 4096), dev);
  EXPECT_NE(pick.tile_n, 320) << pick;
  EXPECT_LT(PredictMicros(many, dev.Find(KernelRole::kBroad)->cost),
            PredictMicros(pick, KernelCost(dev, pick)));
  // `dp` takes it too: the fastest data-parallel plan over the device's tiles.
  PlanOptions dp;
  dp.mode = Mode::kDataParallel;
  EXPECT_EQ(MustPlan(Shape(640, 8192, 8192), dev, dp).tile_n, 320);
  // Shallow shapes take it where its epilogue stores D by TMA (a 16-bit D without C, rows the TMA
  // unit can store: kernels::TmaStoresOf): at 2928 x 1424 x 128, 115 tiles of it predicted 12%
  // faster than 128 x 128 ran 0.87x as fast with its threads storing D and 1.16x as fast as auto's
  // pick with the TMA store. Where its threads store D (fp32 D, C read, rows the TMA unit cannot
  // store), not under 16 k-iterations a tile (kMinBroadTileIters).
  for (const PlanOptions& o : {PlanOptions{}, dp}) {
    Problem shallow = Shape(2928, 1424, 128);
    EXPECT_EQ(MustPlan(shallow, dev, o).tile_n, 320) << MustPlan(shallow, dev, o);
    for (int variant = 0; variant < 3; ++variant) {
      Problem own = shallow;
      if (variant == 0) own.output = DType::kF32;
      if (variant == 1) own.reads_c = true;
      if (variant == 2) own.d_tma_store = false;
      const Plan p = MustPlan(own, dev, o);
      EXPECT_NE(p.tile_n, 320) << variant << " " << p;
      EXPECT_GT(PredictMicros(p, KernelCost(dev, p)),
                1.1 * PredictMicros(MustPlan(own, dev, broad), dev.Find(KernelRole::kBroad)->cost))
          << variant;
    }
    // bf16 is a 16-bit D too.
    shallow.input = shallow.output = DType::kBF16;
    EXPECT_EQ(MustPlan(shallow, dev, o).tile_n, 320);
  }
  // 17 iterations: 2696 x 1632 x 1040 ran 1.033x as fast on it as on the other tiles' pick.
  EXPECT_EQ(MustPlan(Shape(2696, 1632, 1040), dev).tile_n, 320);
  // On misaligned K-major rows (starting at odd multiples of 16 bytes) too: 2816 x 1560 x 824 ran
  // data-parallel on 154 tiles of 128 x 256 (two rounds), and 1.28x as fast on 110 of it; `dp`
  // takes it there as well.
  for (const PlanOptions& o : {PlanOptions{}, dp}) {
    const Plan odd = MustPlan(MisalignedShape(2816, 1560, 824), dev, o);
    EXPECT_EQ(odd.tile_n, 320) << odd;
    EXPECT_EQ(odd.tiles, 110) << odd;
    EXPECT_EQ(odd.mode, Mode::kDataParallel) << odd;
    EXPECT_NE(MustPlan(MisalignedShape(2816, 1560, 824), WithoutBroadTile(dev), o).tile_n, 320);
  }
  // Where auto would run misaligned rows on clusters, data-parallel's pick is weighed against them
  // (PlannerClusters.DataParallelsPickWhereEstimatedWellUnderClusters): 5584 x 960 x 1816 takes
  // the tile so.
  EXPECT_EQ(MustPlan(MisalignedShape(5584, 960, 1816), dev).tile_n, 320);
}

TEST(PlannerNamedCases, TheFourthTileTakesShapesOneRoundOfItFills) {
  // Measured on an H200 (fp16; bench M x N x K, the planner's problem N x M x K), us data-parallel
  // on 192 x 192 tiles against auto's pick on the other tiles: 1792 x 2432 x 1024 17.7 / 20.9 (dp,
  // 128x128), 3072 x 1536 x 4096 54.1 / 61.4 (Stream-K, 128x256), 2456 x 1768 x 944 17.6 / 20.3
  // (dp, 128x128). 2048 x 2176 x 1024 is 144 tiles of 128 x 256 (two rounds on 132 SMs) and 132 of
  // 192 x 192 (one).
  const DeviceSpec dev = H200Spec();
  ASSERT_EQ(dev.TileOf(KernelRole::kWide), (TileShape{192, 192, 64}));
  for (const Problem& q : {Shape(2432, 1792, 1024), Shape(1536, 3072, 4096),
                           Shape(1768, 2456, 944), Shape(2176, 2048, 1024)}) {
    PlanExplanation why;
    absl::StatusOr<Plan> p = MakePlan(q, dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->tile_m, 192) << FormatPlan(*p, &why);
    EXPECT_EQ(p->tile_n, 192) << *p;
    EXPECT_EQ(p->mode, Mode::kDataParallel) << *p;
    EXPECT_EQ(why.reason.rfind("tile 192x192x64, data-parallel", 0), 0u) << why.reason;
    EXPECT_DOUBLE_EQ(why.predicted_us, PredictMicros(*p, dev.Find(KernelRole::kWide)->cost));
    EXPECT_EQ(&KernelCost(dev, *p), &dev.Find(KernelRole::kWide)->cost);
    // Forced data-parallel weighs it too.
    PlanOptions dp;
    dp.mode = Mode::kDataParallel;
    EXPECT_EQ(MustPlan(q, dev, dp).tile_m, 192);
  }
  // It takes Stream-K picks of the other tiles it is predicted within kMinWideOverStreamKGain of:
  // 2048 x 2176 x 8192 ran 102.1 us on it against 104.7 as all-tiles Stream-K on 128 x 256
  // (predicted 135.5 against 134.4; picked, that Stream-K plan read 0.938 of `dp` in
  // `streamk-bench --set waveq --modes auto,dp,splitk,cublas`), and 3072 x 2944 x 8192 204.8
  // against 227.0 (predicted 268.4 against 260.6): there the third tile, predicted faster still
  // (252.1), misses its own margin (kMinMidOverStreamKGain; it ran 229.3), and the fourth is
  // weighed against its own.
  for (const Problem& q : {Shape(2176, 2048, 8192), Shape(2944, 3072, 8192)}) {
    PlanExplanation why;
    absl::StatusOr<Plan> p = MakePlan(q, dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->tile_m, 192) << FormatPlan(*p, &why);
    EXPECT_EQ(p->mode, Mode::kDataParallel) << *p;
    EXPECT_NE(why.reason.find("within 3% of their streamk plan"), std::string::npos)
        << why.reason;
    // The other tiles' Stream-K pick was predicted faster.
    PlanOptions two;
    two.tile = dev.main().tile;
    EXPECT_LT(PredictMicros(MustPlan(q, dev, two), dev.main().cost), why.predicted_us);
  }
  // Stream-K picks it does not beat by the margins stand: 4352 x 3072 x 8192 ran 300.9 us as the
  // 128x256 hybrid, 302.7 data-parallel on 192 x 192.
  const Plan hybrid = MustPlan(Shape(3072, 4352, 8192), dev);
  EXPECT_EQ(hybrid.tile_m, 128) << hybrid;
  EXPECT_EQ(hybrid.mode, Mode::kStreamK) << hybrid;
  // Nor is it weighed where the other tiles' data-parallel pick is predicted under
  // kMinWideTileMicros: 5144 x 592 x 144 and 384 x 6768 x 168, predicted 12-27% faster on it, ran
  // 3-7% slower (8.5 against 7.9 us, 8.8 against 8.3), at the host's pace.
  for (const Problem& q : {Shape(592, 5144, 144), Shape(6768, 384, 168)}) {
    const Plan p = MustPlan(q, dev);
    EXPECT_NE(p.tile_m, 192) << p;
    PlanExplanation why;
    ASSERT_TRUE(MakePlan(q, dev, {}, &why).ok());
    EXPECT_EQ(why.reason.find("192x192x64"), std::string::npos) << why.reason;
  }
  // Its Stream-K and split-K plans are planned only where the tile is named, with its constants.
  for (const Mode mode : {Mode::kStreamK, Mode::kSplitK}) {
    PlanOptions o;
    o.mode = mode;
    EXPECT_NE(MustPlan(Shape(2176, 2048, 1024), dev, o).tile_m, 192) << ModeName(mode);
    o.tile = dev.TileOf(KernelRole::kWide);
    PlanExplanation why;
    absl::StatusOr<Plan> p = MakePlan(Shape(2176, 2048, 1024), dev, o, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->tile_m, 192) << *p;
    EXPECT_EQ(p->tiles, 132) << *p;
    EXPECT_EQ(p->mode, mode) << *p;
    EXPECT_DOUBLE_EQ(why.predicted_us, PredictMicros(*p, dev.Find(KernelRole::kWide)->cost))
        << ModeName(mode);
  }
  // Where it is not taken, auto's explanation lists its plan beside the third tile's.
  PlanExplanation square;
  ASSERT_TRUE(MakePlan(Shape(4096, 4096, 4096), dev, {}, &square).ok());
  int listed = 0;
  for (const Candidate& c : square.candidates) listed += c.name == "dp [192x192x64]";
  EXPECT_EQ(listed, 1);
  EXPECT_NE(square.reason.find("data-parallel on 192x192x64"), std::string::npos)
      << square.reason;
}

TEST(PlannerBehaviour, AutoRunsTheThirdTileDataParallelOnly) {
  // Over a grid of shapes from decode to large, auto picks 128x192 tiles only for data-parallel
  // plans, and picks them somewhere (else this test would pass with the tile switched off).
  const DeviceSpec dev = H200Spec();
  int mid = 0;
  for (int64_t m = 16; m <= 8192; m *= 2)
    for (int64_t n = 136; n <= 8192; n = n * 3 / 2)
      for (int64_t k : {256, 1152, 4096}) {
        const Plan p = MustPlan(Shape(m, n, k), dev);
        if (p.tile_n != 192) continue;
        ++mid;
        EXPECT_EQ(p.mode, Mode::kDataParallel) << p;
      }
  EXPECT_GT(mid, 0);
}

// A data-parallel round of few tiles streams on few SMs, each at most CostModel::sm_bytes_per_us:
// the floor prices each round at least one tile's bytes at that rate. Measured on an H200 (fp16,
// medians of two passes, us in layouts tn / nn): 16 tokens as A x 24576 weights x 8192 ran
// 114.5 / 115.3 on 192 tiles of 128 x 128 (a second round of 60) against 108.3 / 103.3 on one round
// of 96 tiles of 128 x 256; with the tokens as B (where 128 x 256 tiles do not cut the count)
// 130.7 / 123.6 against 113.2 / 111.3 for Stream-K over 132 blocks. The floor over the whole GEMM
// priced them the same.
TEST(PlannerNamedCases, PartialDataParallelRoundsStreamOnFewSms) {
  const DeviceSpec dev = H200Spec();
  ASSERT_GT(dev.Find(KernelRole::kAlt)->cost.sm_bytes_per_us, 0);
  ASSERT_GT(dev.main().cost.sm_bytes_per_us, 0);
  // Tokens as A: one round of 128 x 192 tiles (DecodeRowsTakeTheThirdTileOnASmallMargin).
  const Plan a = MustPlan(Shape(16, 24576, 8192), dev);
  EXPECT_EQ(a.mode, Mode::kDataParallel) << a;
  EXPECT_EQ(a.tile_n, 192) << a;
  EXPECT_EQ(a.grid_blocks, 128) << a;
  // Tokens as B: Stream-K on 128 x 128 tiles over every SM.
  const Plan b = MustPlan(Shape(24576, 16, 8192), dev);
  EXPECT_EQ(b.mode, Mode::kStreamK) << b;
  EXPECT_GE(b.sk_blocks, 128) << b;
  // The floor itself: data-parallel on 128 x 128 tiles, one round of 132 tiles at the memory's
  // rate, then 60 tiles, each 2 MiB of weights at one SM's rate (their narrow wgmmas keep the
  // iterations under it).
  PlanOptions dp;
  dp.mode = Mode::kDataParallel;
  dp.tile = dev.TileOf(KernelRole::kAlt);
  const Plan two_rounds = MustPlan(Shape(24576, 16, 8192), dev, dp);
  ASSERT_EQ(two_rounds.tiles, 192);
  ASSERT_EQ(two_rounds.grid_blocks, 132);
  const double fixed =
      dev.Find(KernelRole::kAlt)->cost.block_us + dev.Find(KernelRole::kAlt)->cost.epilogue_us;
  const double tile_bytes = 2.0 * (24576.0 * 8192 + 16.0 * 8192 + 24576.0 * 16) / 192;
  EXPECT_NEAR(PredictMicros(two_rounds, dev.Find(KernelRole::kAlt)->cost),
              132 * tile_bytes / dev.Find(KernelRole::kAlt)->cost.hbm_bytes_per_us +
                  tile_bytes / dev.Find(KernelRole::kAlt)->cost.sm_bytes_per_us + fixed,
              1e-9);
  // A last round of 92 tiles streams at the memory's rate: the floor over the whole GEMM.
  const Plan many = MustPlan(Shape(28672, 16, 8192), dev, dp);
  EXPECT_NEAR(PredictMicros(many, dev.Find(KernelRole::kAlt)->cost),
              2.0 * (28672.0 * 8192 + 16.0 * 8192 + 28672.0 * 16) /
                      dev.Find(KernelRole::kAlt)->cost.hbm_bytes_per_us +
                  fixed,
              1e-9);
  // One round of 80 tiles (70b.qkv.m16) on 80 SMs at one SM's rate each, under the memory's:
  // 47.2 us measured cold on an H200 (layout tn).
  const Plan qkv = MustPlan(Shape(10240, 16, 8192), dev, dp);
  EXPECT_NEAR(PredictMicros(qkv, dev.Find(KernelRole::kAlt)->cost) / 47.2, 1.0, 0.03);
}

TEST(PlannerNamedCases, DecodeProjectionsBoundByTheMemoryRunDataParallel) {
  // 70b.qkv.m64 (10240 x 64 x 8192 in the kernel's orientation): 80 tiles of 128 x 128 stream
  // 168 MB of weights. Measured on an H200, data-parallel on 80 SMs ran 52.3 us and every tile
  // Stream-K over 132 SMs 54.5: the memory, not the SMs, sets the pace. Without the memory floor
  // the model predicts Stream-K 10% faster.
  const DeviceSpec dev = H200Spec();
  ASSERT_GT(dev.Find(KernelRole::kAlt)->cost.hbm_bytes_per_us, 0);
  for (const int64_t n : {16, 64, 128}) {
    const Plan p = MustPlan(Shape(10240, n, 8192), dev);
    EXPECT_EQ(p.mode, Mode::kDataParallel) << p;
    EXPECT_EQ(p.tile_n, 128) << p;
    DeviceSpec no_floor = dev;
    no_floor.main().cost.hbm_bytes_per_us = no_floor.Find(KernelRole::kAlt)->cost.hbm_bytes_per_us =
        0;
    // (nor the margin every tile Stream-K over fewer tiles than blocks needs on 128 x 128)
    no_floor.Find(KernelRole::kAlt)->cost.few_tiles_streamk_gain = 0;
    EXPECT_EQ(MustPlan(Shape(10240, n, 8192), no_floor).mode, Mode::kStreamK);
  }
  // No plan is predicted faster than its bytes at the memory's rate.
  PlanOptions sk;
  sk.mode = Mode::kStreamK;
  const Plan s = MustPlan(Shape(10240, 64, 8192), dev, sk);
  const double bytes = 2.0 * (10240.0 * 8192 + 64.0 * 8192 + 10240.0 * 64);
  EXPECT_GE(PredictMicros(s, dev.Find(KernelRole::kAlt)->cost),
            bytes / dev.Find(KernelRole::kAlt)->cost.hbm_bytes_per_us);
  // A down projection, whose few tiles are deep (32 tiles over 11008), still splits k: the
  // floor (26 us) is under its split plan (measured 37.9 us against 64.0 data-parallel).
  const Plan down = MustPlan(Shape(4096, 16, 11008), dev);
  EXPECT_NE(down.mode, Mode::kDataParallel) << down;
  EXPECT_GT(down.sk_blocks, 0) << down;
}

// Decode rows stream at 4.1 TB/s where one round keeps 96 or more SMs loading, and 128-wide tiles
// with few of D's columns issue narrower wgmmas (measured on an H200: fp16, cold caches, us, layout
// tn). Priced at 3.5 TB/s with every wgmma the whole width, auto would run the slower plans: with
// the tokens as A, 128 x 256 tiles for 16 x 18432 x 4096 (49.8, against 41.9 on one round of
// 128 x 192), and 128 x 128 tiles for 16 x 28672 x 8192 (136.2, against 117.9 on 128 x 256).
TEST(PlannerNamedCases, DecodeRowsStreamAtTheMemorysMeasuredRate) {
  const DeviceSpec dev = H200Spec();
  EXPECT_DOUBLE_EQ(dev.Find(KernelRole::kAlt)->cost.hbm_bytes_per_us, 4.1e6);
  for (const int64_t k : {4096, 8192}) {
    const Plan p = MustPlan(Shape(16, 18432, k), dev);
    EXPECT_EQ(p.mode, Mode::kDataParallel) << p;
    EXPECT_EQ(p.tile_n, 192) << p;
  }
  const Plan wide = MustPlan(Shape(16, 28672, 8192), dev);
  EXPECT_EQ(wide.mode, Mode::kDataParallel) << wide;
  EXPECT_EQ(wide.tile_n, 256) << wide;
  // The narrow width's share of the tensor work: 16 tokens K-major, 64 N-major (the swizzle
  // atom); the 128 x 256 tile has no narrow arms.
  PlanOptions dp;
  dp.mode = Mode::kDataParallel;
  dp.tile = dev.TileOf(KernelRole::kAlt);
  Plan qkv = MustPlan(Shape(10240, 16, 8192), dev, dp);
  EXPECT_DOUBLE_EQ(NarrowWidthTensorShare(qkv, dev.Find(KernelRole::kAlt)->cost), 16.0 / 128);
  qkv.b.major = Major::kMN;
  EXPECT_DOUBLE_EQ(NarrowWidthTensorShare(qkv, dev.Find(KernelRole::kAlt)->cost), 64.0 / 128);
  dp.tile = dev.main().tile;
  EXPECT_DOUBLE_EQ(
      NarrowWidthTensorShare(MustPlan(Shape(10240, 16, 8192), dev, dp), dev.main().cost), 1);
  // Split tiles are finished after their bytes: a memory-bound Stream-K plan pays its exchange
  // above the floor (without it auto would pick Stream-K for 70b.qkv.m128, which ran about 9%
  // slower than data-parallel).
  PlanOptions sk;
  sk.mode = Mode::kStreamK;
  sk.tile = dev.TileOf(KernelRole::kAlt);
  const Plan s = MustPlan(Shape(10240, 128, 8192), dev, sk);
  ASSERT_GT(s.sk_blocks, 0);
  const double bytes = 2.0 * (10240.0 * 8192 + 128.0 * 8192 + 10240.0 * 128);
  EXPECT_GE(
      PredictMicros(s, dev.Find(KernelRole::kAlt)->cost),
      bytes / dev.Find(KernelRole::kAlt)->cost.hbm_bytes_per_us +
          dev.Find(KernelRole::kAlt)->cost.block_us + dev.Find(KernelRole::kAlt)->cost.streamk_us +
          dev.Find(KernelRole::kAlt)->cost.partial_us + dev.Find(KernelRole::kAlt)->cost.peer_us +
          dev.Find(KernelRole::kAlt)->cost.epilogue_us);
  EXPECT_EQ(MustPlan(Shape(10240, 128, 8192), dev).mode, Mode::kDataParallel);
}

TEST(PlannerNamedCases, DecodeRowsTakeTheThirdTileOnASmallMargin) {
  // Tokens as the kernel's A, every tile's 128 rows holding all of them: the 128 x 192 tile is
  // taken predicted 2% faster. Measured on an H200 (fp16, layout tn, cold caches), the other tiles'
  // pick against 128 x 192 data-parallel, us: 57.6 / 52.9, 189.6 / 171.9, 95.7 / 87.7,
  // 137.0 / 134.8.
  struct Case {
    Problem shape;
    Mode was;  // the other tiles' pick, which the 8% and 5% margins kept
  };
  const Case cases[] = {{Shape(1, 24576, 4096), Mode::kDataParallel},
                        {Shape(64, 24576, 14336), Mode::kDataParallel},
                        {Shape(64, 20480, 8192), Mode::kStreamK},
                        {Shape(16, 18432, 14336), Mode::kStreamK}};
  const DeviceSpec dev = H200Spec();
  for (const Case& c : cases) {
    PlanExplanation why;
    absl::StatusOr<Plan> p = MakePlan(c.shape, dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->mode, Mode::kDataParallel) << FormatPlan(*p, &why);
    EXPECT_EQ(p->tile_n, 192) << FormatPlan(*p, &why);
    EXPECT_EQ(why.reason.rfind("tile 128x192x64, data-parallel (predicted", 0), 0u) << why.reason;
    EXPECT_NE(why.reason.find("2% or more under"), std::string::npos) << why.reason;
    // The other tiles' pick, and the margin it held on: predicted within 8% (and 5% of a
    // Stream-K pick).
    const absl::StatusOr<Plan> other = MakePlan(c.shape, WithoutMidTile(dev));
    ASSERT_TRUE(other.ok()) << other.status();
    EXPECT_EQ(other->mode, c.was) << *other;
    const double ratio = PredictMicros(*p, dev.Find(KernelRole::kMid)->cost) /
                         PredictMicros(*other, KernelCost(dev, *other));
    EXPECT_LT(ratio, 0.98) << *p;
    EXPECT_GT(ratio, c.was == Mode::kStreamK ? 0.95 : 0.92) << *p;
  }
  // Two rows of tiles keep the 8% margin: 128 x 192 predicted 7.7% under 128 x 128.
  const absl::StatusOr<Plan> two_rows = MakePlan(Shape(256, 24576, 4096), dev);
  ASSERT_TRUE(two_rows.ok()) << two_rows.status();
  EXPECT_EQ(two_rows->tile_n, 128) << *two_rows;
  PlanOptions mid;
  mid.mode = Mode::kDataParallel;
  mid.tile = dev.TileOf(KernelRole::kMid);
  const Plan forced = MustPlan(Shape(256, 24576, 4096), dev, mid);
  EXPECT_LT(PredictMicros(forced, dev.Find(KernelRole::kMid)->cost),
            PredictMicros(*two_rows, KernelCost(dev, *two_rows)) * 0.98);
}

TEST(PlannerNamedCases, StreamKTilesReadOperandsLargerThanTheL2Again) {
  // 256 tokens as A, 28672 weights 8192 deep (470 MB of B; two 128 x 256 tiles along m): every tile
  // Stream-K ran 246.8 us, data-parallel 211.5 (on an H200, cold caches); priced as if B were read
  // once, Stream-K would be picked.
  const DeviceSpec dev = H200Spec();
  EXPECT_DOUBLE_EQ(dev.main().cost.streamk_reread_bytes, static_cast<double>(dev.l2_bytes));
  PlanOptions sk;
  sk.mode = Mode::kStreamK;
  sk.tile = dev.main().tile;
  const Plan all = MustPlan(Shape(256, 28672, 8192), dev, sk);
  ASSERT_EQ(all.sk_tiles, 224);
  ASSERT_EQ(all.tiles_m, 2);
  // Each of B's panels once more, for the second tile along m; A (4 MB) stays in the L2.
  EXPECT_NEAR(StreamKGemmBytes(all, dev.main().cost) - GemmBytes(all), 2.0 * 28672 * 8192, 1.0);
  EXPECT_GE(PredictMicros(all, dev.main().cost),
            StreamKGemmBytes(all, dev.main().cost) / dev.main().cost.hbm_bytes_per_us);
  // Four tiles along m (512 tokens): once per tile where each block takes three or more (28672
  // weights: 461.5 us every tile Stream-K, four reads 458), fewer where each takes fewer (11008
  // weights 14336 deep, 1.3 a block: 256.8 us, compute-bound).
  const Plan many = MustPlan(Shape(512, 28672, 8192), dev, sk);
  ASSERT_EQ(many.tiles_m, 4);
  ASSERT_GE(many.sk_tiles, 3 * many.sk_blocks);
  EXPECT_NEAR(StreamKGemmBytes(many, dev.main().cost) - GemmBytes(many), 3 * 2.0 * 28672 * 8192,
              1.0);
  const Plan few = MustPlan(Shape(512, 11008, 14336), dev, sk);
  ASSERT_EQ(few.tiles_m, 4);
  EXPECT_NEAR(StreamKGemmBytes(few, dev.main().cost) - GemmBytes(few),
              2.0 * 11008 * 14336 * few.sk_tiles / few.sk_blocks, 1.0);
  // Stream-K's block count where the floor binds for every count: one block per SM, as the blocks'
  // schedule alone prefers (102-106 blocks ran 1.16-1.40x the time).
  EXPECT_EQ(all.sk_blocks, 132) << all;
  // Auto keeps the full round's tiles data-parallel: with the turnstile's chain priced as the
  // blocks walk it (TurnstilesFirstPeersPublishOffTheChain), the partial round's tiles go Stream-K
  // (212.6 us, data-parallel 217.2).
  const Plan pick = MustPlan(Shape(256, 28672, 8192), dev);
  EXPECT_EQ(pick.tile_n, 256) << pick;
  EXPECT_EQ(pick.dp_tiles, 132) << pick;
  // Data-parallel tiles, and operands the L2 holds, are read once.
  PlanOptions dp;
  dp.mode = Mode::kDataParallel;
  dp.tile = dev.main().tile;
  const Plan whole = MustPlan(Shape(256, 28672, 8192), dev, dp);
  EXPECT_DOUBLE_EQ(StreamKGemmBytes(whole, dev.main().cost), GemmBytes(whole));
  const Plan held = MustPlan(Shape(5120, 3456, 4096), dev, sk);  // 42 and 28 MB
  ASSERT_GT(held.sk_tiles, 0);
  EXPECT_DOUBLE_EQ(StreamKGemmBytes(held, dev.main().cost), GemmBytes(held));
}

TEST(PlannerNamedCases, TurnstilesFirstPeersPublishOffTheChain) {
  // The partial round's 84 tiles of 128 x 256 Stream-K over 132 blocks of 81-82 iterations, 128 to
  // a tile (384 tokens as A, 18432 weights 8192 deep): 2-3 peers per tile. Blocks walk their tiles
  // backwards, so a tile's first peer publishes its slice at the start of its run, and the
  // finishing block stores the start of its next tile while the middle peer hands over: the chain
  // is one store shorter than peers - 1 hand-overs. Measured on an H200 (fp16, cold, tn, two
  // passes): turnstile 194.0 and 192.1 us, separate 213.8 and 210.6, every tile Stream-K 211.0 and
  // 210.6, data-parallel 213.1 and 210.4; priced with peers - 1 hand-overs on the chain, the model
  // ranks them the other way round (213.5, 211.1, 209.6, 220.2).
  const DeviceSpec dev = H200Spec();
  PlanOptions tail;
  tail.mode = Mode::kStreamK;
  tail.sk_tiles = kPartialWaveTiles;
  tail.tile = dev.main().tile;
  tail.reduction = Reduction::kDeterministic;
  const Plan det = MustPlan(Shape(384, 18432, 8192), dev, tail);
  ASSERT_EQ(det.sk_tiles, 84) << det;
  ASSERT_EQ(det.sk_blocks, 132) << det;
  ASSERT_EQ(det.dp_tiles, 132) << det;
  tail.reduction = Reduction::kSeparate;
  const Plan sep = MustPlan(Shape(384, 18432, 8192), dev, tail);
  EXPECT_LT(PredictMicros(det, dev.main().cost), PredictMicros(sep, dev.main().cost));
  const Plan pick = MustPlan(Shape(384, 18432, 8192), dev);
  EXPECT_EQ(pick.tile_n, 256) << pick;
  EXPECT_EQ(pick.sk_tiles, 84) << pick;
  EXPECT_EQ(pick.reduction, Reduction::kDeterministic) << pick;
  // What one more partial store adds to a plan's time, in stores of a 128 x 128 tile.
  auto per_store = [&dev](const Plan& p) {
    CostModel more = dev.main().cost;
    more.partial_us += 1.0;
    const double area = p.tile_m * p.tile_n / (128.0 * 128.0);
    return (PredictMicros(p, more) - PredictMicros(p, dev.main().cost)) / area;
  };
  EXPECT_NEAR(per_store(det), 1.0, 1e-6);
  // Every tile Stream-K over fewer tiles than blocks keeps the whole chain, as measured: 86 tiles
  // over 132 blocks (256 tokens, 11008 weights, 14336 deep) ran 158.9 us against 147.3 predicted
  // with it, and data-parallel 128 x 192 129.5.
  PlanOptions all;
  all.mode = Mode::kStreamK;
  all.tile = dev.main().tile;
  const Plan few = MustPlan(Shape(256, 11008, 14336), dev, all);
  ASSERT_EQ(few.dp_tiles, 0) << few;
  ASSERT_LT(few.sk_tiles, few.sk_blocks) << few;
  int peers = 0;
  for (int tile = 0; tile < few.sk_tiles; ++tile)
    peers = std::max(peers, mapping::TilePeers(few, tile).count());
  ASSERT_EQ(peers, 3) << few;
  EXPECT_NEAR(per_store(few), 2.0, 1e-6);
  EXPECT_EQ(MustPlan(Shape(256, 11008, 14336), dev).mode, Mode::kDataParallel);
  // Split-K's blocks hold one slice of one tile each: the first peer's store is on the chain.
  PlanOptions split;
  split.mode = Mode::kSplitK;
  split.splits = 3;
  split.tile = dev.main().tile;
  const Plan three = MustPlan(Shape(1024, 1024, 8192), dev, split);
  ASSERT_EQ(three.sk_blocks, 3 * three.sk_tiles) << three;
  EXPECT_NEAR(per_store(three), 2.0, 1e-6);
}

TEST(PlannerNamedCases, OneTileHybridOverATiedTwoTile) {
  // 336 tiles of 128 x 256 (384 tokens as A, 28672 weights 4096 deep): the two-tile hybrid (the
  // last full round's 132 tiles and the partial round's 72 Stream-K) and the one-tile (the 72
  // alone, two full rounds data-parallel) are predicted within 0.2%; the one-tile ran 148.0 us
  // against 160.4 on an H200, its blocks reading fewer panels one after another.
  const DeviceSpec dev = H200Spec();
  PlanOptions two;
  two.mode = Mode::kStreamK;
  two.tile = dev.main().tile;
  two.sk_tiles = 204;
  two.reduction = Reduction::kDeterministic;
  PlanOptions one = two;
  one.sk_tiles = kPartialWaveTiles;
  const Plan two_tile = MustPlan(Shape(384, 28672, 4096), dev, two);
  const Plan one_tile = MustPlan(Shape(384, 28672, 4096), dev, one);
  ASSERT_EQ(one_tile.sk_tiles, 72) << one_tile;
  const double two_us = PredictMicros(two_tile, dev.main().cost);
  const double one_us = PredictMicros(one_tile, dev.main().cost);
  EXPECT_LT(two_us, one_us);
  EXPECT_GT(two_us, one_us * 0.998);
  const Plan pick = MustPlan(Shape(384, 28672, 4096), dev);
  EXPECT_EQ(pick.tile_n, 256) << pick;
  EXPECT_EQ(pick.sk_tiles, 72) << pick;
  EXPECT_EQ(pick.dp_tiles, 264) << pick;
  EXPECT_EQ(pick.reduction, Reduction::kDeterministic) << pick;
  // Where the two-tile is predicted 2% faster it keeps the pick, as measured (2048 tokens, 11008
  // weights: 286.0 us against 298.2 on the one-tile).
  const Plan wide = MustPlan(Shape(2048, 11008, 4096), dev);
  EXPECT_EQ(wide.sk_tiles, 160) << wide;
  // A one-tile hybrid with a separate reduction gets no edge: those ran 0.94-1.01x as fast as the
  // two-tile where predicted within 1.4%. At 4096 tokens, 13824 weights 5120 deep it is predicted
  // 0.3% slower than the two-tile, which auto keeps (875 us against dp's 928).
  const Plan many = MustPlan(Shape(4096, 13824, 5120), dev);
  EXPECT_EQ(many.sk_tiles, 144) << many;
  EXPECT_EQ(many.dp_tiles, 1584) << many;
}

TEST(PlannerNamedCases, ThirdTileOverAFewRowsOfStreamKWhereNoSlower) {
  // (Without the sixth tile, which takes 256 x 20480 x 8192 and 256 x 18432 x 4096 now:
  // TheSixthTileTakesShapesOneRoundOfItHolds.)
  const DeviceSpec dev = WithoutBroadTile(H200Spec());
  auto expect_pick = [&dev](int m, int n, int k, Mode mode, int tile_n) {
    const Plan p = MustPlan(Shape(m, n, k), dev);
    EXPECT_EQ(p.mode, mode) << m << "x" << n << "x" << k << ": " << p;
    EXPECT_EQ(p.tile_n, tile_n) << m << "x" << n << "x" << k << ": " << p;
    return p;
  };
  // 256 tokens as A, 20480 weights 8192 deep: two rows of 128 x 256 tiles, whose 160 tiles auto
  // would run as the partial round's 28 Stream-K (1.23x data-parallel's prediction on that tile),
  // and 128 x 192 tiles data-parallel, predicted 0.01% faster. Measured over several passes on lent
  // H200s, the 128 x 192 plan ran 0.953-1.028x the Stream-K plan's time; with 512 tokens, 18432
  // weights 14336 deep (predicted 4% faster) 0.974-0.996x.
  expect_pick(256, 20480, 8192, Mode::kDataParallel, 192);
  expect_pick(512, 18432, 14336, Mode::kDataParallel, 192);
  // Predicted slower than the Stream-K pick, the third tile stays out: 512 tokens, 11008 weights
  // 14336 deep (1.3% slower predicted, 4.6% measured), and 256 tokens, 18432 weights 4096 deep
  // against Stream-K on 128 x 128 tiles (0.03% slower predicted, 4-8% measured).
  expect_pick(512, 11008, 14336, Mode::kStreamK, 256);
  expect_pick(256, 18432, 4096, Mode::kStreamK, 128);
  // Where its tiles leave SMs idle too: 108 of 128 x 192 (512 tokens, 5120 weights 14336 deep,
  // predicted 1.3% faster) ran 1.04x the time of every tile Stream-K on 128 x 128 on one lent H200
  // and 0.93x on a faster one.
  expect_pick(512, 5120, 14336, Mode::kDataParallel, 192);
  // Past four rows the margin over Stream-K stays, as measured on the waveq shapes (data-parallel
  // on 128 x 192 ran 0.92-1.01x Stream-K's speed where predicted up to 3.4% faster): 640 tokens,
  // 14336 weights 8192 deep keeps Stream-K over 128 x 192 predicted 3.8% faster.
  const Plan five_rows = expect_pick(640, 14336, 8192, Mode::kStreamK, 256);
  PlanOptions mid;
  mid.mode = Mode::kDataParallel;
  mid.tile = dev.TileOf(KernelRole::kMid);
  EXPECT_LT(
      PredictMicros(MustPlan(Shape(640, 14336, 8192), dev, mid), dev.Find(KernelRole::kMid)->cost),
      PredictMicros(five_rows, dev.main().cost));
}

TEST(PlannerNamedCases, EveryTileStreamKOverFewerTilesThanBlocksOn128x128NeedsItsMargin) {
  // 384 tokens as A, 4096 weights 14336 deep: 96 tiles of 128 x 128, every tile Stream-K over 132
  // blocks predicted 1.095x as fast as data-parallel on 96 SMs. It ran 0.885-0.954x as fast on
  // three lent H200s, where the model prices the data-parallel round 19-28% over its time; auto
  // runs it data-parallel, 0.92x the time.
  const DeviceSpec dev = H200Spec();
  EXPECT_DOUBLE_EQ(dev.Find(KernelRole::kAlt)->cost.few_tiles_streamk_gain, 0.19);
  EXPECT_DOUBLE_EQ(dev.main().cost.few_tiles_streamk_gain, 0);  // 128 x 256: such plans ran faster
  PlanOptions sk;
  sk.mode = Mode::kStreamK;
  sk.tile = dev.TileOf(KernelRole::kAlt);
  PlanOptions dp;
  dp.mode = Mode::kDataParallel;
  dp.tile = dev.TileOf(KernelRole::kAlt);
  const Plan all = MustPlan(Shape(384, 4096, 14336), dev, sk);
  ASSERT_EQ(all.dp_tiles, 0) << all;
  ASSERT_LT(all.sk_tiles, all.sk_blocks) << all;
  const double gain =
      PredictMicros(MustPlan(Shape(384, 4096, 14336), dev, dp), dev.Find(KernelRole::kAlt)->cost) /
      PredictMicros(all, dev.Find(KernelRole::kAlt)->cost);
  EXPECT_GT(gain, 1.08);  // clears the planner's own margin
  EXPECT_LT(gain, 1.0 / (1 - 0.19));
  const Plan pick = MustPlan(Shape(384, 4096, 14336), dev);
  EXPECT_EQ(pick.mode, Mode::kDataParallel) << pick;
  EXPECT_EQ(pick.tile_n, 128) << pick;
  // The margin holds against data-parallel, not against the other tiles: at 256 tokens, 5120
  // weights 14336 deep, the 128 x 256 tiles split three ways win instead (0.91-0.95x the time of
  // the pick without the margin).
  const Plan other = MustPlan(Shape(256, 5120, 14336), dev);
  EXPECT_EQ(other.mode, Mode::kSplitK) << other;
  EXPECT_EQ(other.tile_n, 256) << other;
}

TEST(PlannerNamedCases, EveryTileStreamKOn128x128YieldsToTheThirdTileWhereNoSlower) {
  // 640 tokens as A, 4096 weights 8192 deep: 160 tiles of 128 x 128 every one Stream-K over 132
  // blocks (85.7 us predicted) against 110 tiles of 128 x 192 data-parallel (82.3 us), five rows of
  // tiles, past kMaxFewRowsOfTiles. The Stream-K plan ran 0.90-0.96 of `dp` on three lent H200s,
  // and the 128 x 192 plan 1.03-1.08x as fast as it; over 26 such moves, 1.057-1.105x per pass.
  DeviceSpec dev = H200Spec();
  EXPECT_TRUE(dev.Find(KernelRole::kAlt)->cost.every_tile_streamk_yields);
  EXPECT_FALSE(
      dev.main().cost.every_tile_streamk_yields);  // 128 x 256 keeps the margin, as measured
  for (const Problem& shape : {Shape(640, 4096, 8192), Shape(1120, 2176, 6416)}) {
    const Plan p = MustPlan(shape, dev);
    EXPECT_EQ(p.mode, Mode::kDataParallel) << p;
    EXPECT_EQ(p.tile_n, 192) << p;
  }
  // 640 tokens, 13824 weights 8192 deep: Stream-K on 128 x 256 (the last full round's tiles and the
  // partial round's) keeps its margin over 128 x 192, which ran 1-10% slower.
  const Plan wide = MustPlan(Shape(640, 13824, 8192), dev);
  EXPECT_EQ(wide.mode, Mode::kStreamK) << wide;
  EXPECT_EQ(wide.tile_n, 256) << wide;
  // Without the rule the margin holds the 128 x 128 Stream-K pick among the tiles, and only
  // data-parallel's pick taking over Stream-K on 128 x 128 (CostModel::many_tiles_streamk_gain)
  // runs the same 128 x 192 plan.
  PlanExplanation yields_why;
  ASSERT_TRUE(MakePlan(Shape(640, 4096, 8192), dev, {}, &yields_why).ok());
  EXPECT_EQ(yields_why.reason.rfind("tile 128x192x64, data-parallel", 0), 0u) << yields_why.reason;
  dev.Find(KernelRole::kAlt)->cost.every_tile_streamk_yields = false;
  PlanExplanation why;
  const absl::StatusOr<Plan> before = MakePlan(Shape(640, 4096, 8192), dev, {}, &why);
  ASSERT_TRUE(before.ok()) << before.status();
  EXPECT_EQ(before->mode, Mode::kDataParallel) << *before;
  EXPECT_EQ(before->tile_n, 192) << *before;
  EXPECT_NE(why.reason.find("auto's streamk pick on 128x128x64"), std::string::npos) << why.reason;
}

TEST(PlannerNamedCases, TileShapesParseAndPrint) {
  const std::optional<TileShape> t = ParseTileShape("128x256x64");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(*t, (TileShape{128, 256, 64}));
  EXPECT_EQ(TileShapeName(*t), "128x256x64");
  for (const char* bad : {"", "128x256", "128x256x64x1", "128xx64", "ax256x64", "0x-1"})
    EXPECT_FALSE(ParseTileShape(bad).has_value()) << bad;
}

TEST(PlannerNamedCases, DeepOneWaveShapesRunEveryTileStreamK) {
  // 17 x 8 = 136 and 12 x 12 = 144 tiles of 128 x 256 with k = 8192 on an H200 (measured: every
  // tile Stream-K 123.1 and 126.5 us, the partial wave's tiles Stream-K ahead of the full wave
  // 148.2 and 146.2, data-parallel 183.3 and 181.6). (1536 x 3072 x 8192 is one round of 192 x 192
  // tiles, which the H200 takes, 101.9 against 110.7 us:
  // TheFourthTileTakesShapesOneRoundOfItFills.)
  for (const Problem& shape : {Shape(2176, 2048, 8192), Shape(1536, 3072, 8192)}) {
    PlanExplanation why;
    absl::StatusOr<Plan> p = MakePlan(shape, WithoutStreamKYields(WithoutWideTile(H200Spec())), {},
                                      &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->tile_n, 256) << *p;
    EXPECT_EQ(p->mode, Mode::kStreamK) << FormatPlan(*p, &why);
    EXPECT_EQ(p->sk_tiles, p->tiles) << FormatPlan(*p, &why);
    EXPECT_EQ(p->dp_tiles, 0) << *p;
  }
}

TEST(PlannerNamedCases, DeepManyWaveShapesRunTheTwoTileHybrid) {
  // 23 x 12 = 276 and 20 x 20 = 400 tiles of 128 x 256 with k = 8192 on an H200 (measured: the last
  // full wave and the partial wave Stream-K 232.8 and 327.5 us, the partial wave's tiles alone
  // 255.4 and 365.2, data-parallel 306.7 and 423.8). The first runs faster still on one round of
  // 192 x 192 tiles (TheFourthTileTakesShapesOneRoundOfItFills); without them:
  for (const Problem& shape : {Shape(2944, 3072, 8192), Shape(2560, 5120, 8192)}) {
    PlanExplanation why;
    absl::StatusOr<Plan> p = MakePlan(shape, WithoutWideTile(H200Spec()), {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->tile_n, 256) << *p;
    EXPECT_EQ(p->mode, Mode::kStreamK) << FormatPlan(*p, &why);
    EXPECT_EQ(p->sk_tiles, p->tiles % 132 + 132) << FormatPlan(*p, &why);
    EXPECT_EQ(p->sk_blocks, 132) << *p;
  }
}

TEST(PlannerNamedCases, SingleLongTileSpreadsOverManyBlocks) {
  // 128 x 128 x 131072: one tile of 2048 64-deep iterations; data-parallel would use one SM of
  // 132. (Pinned on the other tiles: the 64 x 128 one is left out.)
  PlanExplanation why;
  absl::StatusOr<Plan> p =
      MakePlan(Shape(128, 128, 131072), WithoutSmallTile(H200Spec()), {}, &why);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->tiles, 1);
  EXPECT_EQ(p->iters_per_tile, 2048);
  // Measured on an H200 for 128 x 128 x 65536: 66 us over 10-11 k-slices against 352 us
  // data-parallel.
  EXPECT_NE(p->mode, Mode::kDataParallel) << FormatPlan(*p, &why);
  EXPECT_GE(p->sk_blocks, 10) << FormatPlan(*p, &why);
  EXPECT_LE(p->sk_blocks, 132 * H200Spec().occupancy) << *p;
  EXPECT_LT(why.predicted_us * 5, why.candidates[0].predicted_us) << FormatPlan(*p, &why);
}

TEST(PlannerNamedCases, SplitKWithFourSplits) {
  for (auto [m, n, k] : {std::tuple{1536, 1536, 4096}, {128, 128, 256}, {300, 7000, 999}}) {
    PlanOptions o;
    o.mode = Mode::kSplitK;
    o.splits = 4;
    const Plan p = MustPlan(Shape(m, n, k), H200Spec(), o);
    EXPECT_EQ(p.mode, Mode::kSplitK);
    EXPECT_EQ(p.sk_blocks, 4 * p.tiles) << p;
    EXPECT_EQ(p.sk_regions, p.tiles) << p;
    EXPECT_EQ(p.sk_tiles, p.tiles) << p;
    EXPECT_EQ(p.dp_tiles, 0) << p;
    EXPECT_EQ(p.sk_blocks_per_region, 4) << p;
  }
}

TEST(PlannerNamedCases, DataParallelModeNeverCreatesStreamKWork) {
  PlanOptions o;
  o.mode = Mode::kDataParallel;
  const Plan p = MustPlan(Shape(1536, 3072, 4096), H200Spec(), o);
  EXPECT_EQ(p.sk_blocks, 0);
  EXPECT_EQ(p.sk_tiles, 0);
  // 288 of 128 x 128 (measured 74 us against 90 on 144 of 128 x 256).
  EXPECT_EQ(p.dp_tiles, p.tiles);
  EXPECT_EQ(p.workspace_bytes, 0);
}

TEST(PlannerValidation, ZeroOccupancyOrSmsIsAnError) {
  DeviceSpec dev = H200Spec();
  dev.occupancy = 0;
  absl::StatusOr<Plan> p = MakePlan(Shape(1024, 1024, 1024), dev);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(p.status().message().find("occupancy"), std::string::npos) << p.status();

  dev = H200Spec();
  dev.sms = 0;
  p = MakePlan(Shape(1024, 1024, 1024), dev);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("sms"), std::string::npos) << p.status();
}

TEST(PlannerValidation, BadSizesNameTheArgument) {
  struct Case {
    Problem problem;
    const char* word;
  } cases[] = {
      {Shape(0, 10, 10), "m"},         {Shape(10, -1, 10), "n"},
      {Shape(10, 10, 0), "k"},         {Shape(10, 10, 10, 0), "batch"},
      {Shape(int64_t{1} << 32, 8, 8), "int32"},
      {Shape(1 << 30, 1 << 30, 1 << 30), "2^31"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<Plan> p = MakePlan(c.problem, H200Spec());
    ASSERT_FALSE(p.ok()) << c.word;
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(p.status().message().find(c.word), std::string::npos) << p.status();
  }
}

TEST(PlannerValidation, ModeAndFlagContradictions) {
  PlanOptions o;
  o.mode = Mode::kDataParallel;
  o.splits = 4;
  EXPECT_FALSE(MakePlan(Shape(512, 512, 512), H200Spec(), o).ok());
  o = {};
  o.mode = Mode::kSplitK;
  o.blocks = 100;
  EXPECT_FALSE(MakePlan(Shape(512, 512, 512), H200Spec(), o).ok());
  o = {};
  o.mode = Mode::kDataParallel;
  o.reduction = Reduction::kAtomic;
  EXPECT_FALSE(MakePlan(Shape(512, 512, 512), H200Spec(), o).ok());
  o = {};
  o.mode = Mode::kSplitK;
  o.splits = 5;  // k = 128: only 4 iterations per tile
  absl::StatusOr<Plan> p = MakePlan(Shape(512, 512, 128), H200Spec(), o);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("splits"), std::string::npos) << p.status();
  o = {};
  o.avail_sms = 133;
  EXPECT_FALSE(MakePlan(Shape(512, 512, 512), H200Spec(), o).ok());
  Problem fp32_in = Shape(64, 64, 64);
  fp32_in.input = DType::kF32;
  EXPECT_FALSE(MakePlan(fp32_in, H200Spec()).ok());
}

TEST(PlannerValidation, StreamKTilesAndReductionSlicesNameTheRule) {
  auto message = [](const PlanOptions& o, const Problem& pr) {
    absl::StatusOr<Plan> p = MakePlan(pr, H200Spec(), o);
    EXPECT_FALSE(p.ok());
    return std::string(p.status().message());
  };
  PlanOptions o;
  o.mode = Mode::kSplitK;
  o.sk_tiles = 3;
  EXPECT_NE(message(o, Shape(512, 512, 512)).find("sk_tiles only applies to mode streamk"),
            std::string::npos);
  o = {};
  o.mode = Mode::kStreamK;
  o.sk_tiles = -2;
  EXPECT_NE(message(o, Shape(512, 512, 512)).find("sk_tiles = -2"), std::string::npos);
  o.sk_tiles = 17;  // 512 x 512 has 16 tiles of 128 x 128
  o.tile = {128, 128, 32};
  EXPECT_NE(message(o, Shape(512, 512, 512)).find("more than the problem's 16 tiles"),
            std::string::npos);
  o = {};
  o.mode = Mode::kStreamK;
  o.reduction_slices = 4;  // no reduction chosen
  EXPECT_NE(message(o, Shape(512, 512, 512)).find("only a separate reduction is sliced"),
            std::string::npos);
  o.reduction = Reduction::kAtomic;
  EXPECT_NE(message(o, Shape(512, 512, 512)).find("only a separate reduction is sliced"),
            std::string::npos);
  o.reduction = Reduction::kSeparate;
  o.reduction_slices = 3;  // 128 columns do not split into 3 slices of a multiple of 8
  o.tile = {128, 128, 32};
  EXPECT_NE(message(o, Shape(512, 512, 512)).find("reduction_slices = 3"), std::string::npos);
  o.reduction_slices = -1;
  EXPECT_NE(message(o, Shape(512, 512, 512)).find("reduction_slices = -1: must be >= 0"),
            std::string::npos);
}

TEST(PlannerValidation, SkTilesSpellings) {
  EXPECT_EQ(ParseSkTiles("tail"), kPartialWaveTiles);
  EXPECT_EQ(ParseSkTiles("12"), 12);
  for (const char* bad : {"", "0", "-1", "tails", "3x"}) EXPECT_FALSE(ParseSkTiles(bad)) << bad;
}

TEST(PlannerBehaviour, PartialWaveStreamKKeepsFullWavesDataParallel) {
  // 19 x 7 = 133 tiles of 128 x 256 on 132 SMs: one tile Stream-K, 132 data-parallel after it.
  PlanOptions o;
  o.mode = Mode::kStreamK;
  o.sk_tiles = kPartialWaveTiles;
  o.tile = {128, 256, 32};
  o.reduction = Reduction::kSeparate;
  Plan p = MustPlan(Shape(2432, 1792, 4096), H200Spec(), o);
  EXPECT_EQ(p.mode, Mode::kStreamK);
  EXPECT_EQ(p.tiles, 133);
  EXPECT_EQ(p.sk_tiles, 1) << p;
  EXPECT_EQ(p.dp_tiles, 132) << p;
  EXPECT_GT(p.sk_blocks, 1) << p;
  EXPECT_LE(p.sk_blocks, 132) << p;
  EXPECT_EQ(p.reduction_slices, 32) << p;  // 256 columns in slices of 8
  EXPECT_EQ(p.reduction_blocks, 32) << p;
  EXPECT_EQ(p.work_blocks, p.sk_blocks + 132 + 32) << p;
  EXPECT_EQ(p.grid_blocks, 132) << p;
  // A requested count and slicing are kept.
  o.blocks = 66;
  o.reduction_slices = 4;
  p = MustPlan(Shape(2432, 1792, 4096), H200Spec(), o);
  EXPECT_EQ(p.sk_blocks, 66) << p;
  EXPECT_EQ(p.reduction_blocks, 4) << p;
  // Whole waves have no partial wave: data-parallel.
  o.blocks = 0;
  o.reduction_slices = 0;
  p = MustPlan(Shape(4224, 1024, 4096), H200Spec(), o);  // 33 x 4 = 132 tiles: one whole wave
  EXPECT_EQ(p.tiles, 132) << p;
  EXPECT_EQ(p.sk_blocks, 0) << p;
  EXPECT_EQ(p.dp_tiles, 132) << p;
}

TEST(PlannerBehaviour, FullDataParallelRoundsButTheLastRunBeforeStreamK) {
  PlanOptions o;
  o.mode = Mode::kStreamK;
  o.sk_tiles = kPartialWaveTiles;
  o.tile = {128, 256, 32};
  // 27 x 20 = 540 tiles on 132 SMs: 528 data-parallel in four rounds, 12 Stream-K. Three rounds
  // start the launch, the Stream-K blocks come next, the fourth round last.
  Plan p = MustPlan(Shape(3456, 5120, 8192), H200Spec(), o);
  ASSERT_EQ(p.dp_blocks, 528) << p;
  ASSERT_EQ(p.grid_blocks, 132) << p;
  EXPECT_EQ(p.dp_blocks_before_sk, 396) << p;
  EXPECT_EQ(mapping::RoleOf(p, 395).role, mapping::Role::kDataParallel);
  EXPECT_EQ(mapping::RoleOf(p, 396).role, mapping::Role::kStreamK);
  EXPECT_EQ(mapping::RoleOf(p, 396).index, 0);
  EXPECT_EQ(mapping::RoleOf(p, 396 + p.sk_blocks).role, mapping::Role::kDataParallel);
  EXPECT_EQ(mapping::RoleOf(p, 396 + p.sk_blocks).index, 396);
  // One data-parallel round (133 tiles): nothing before the Stream-K blocks.
  p = MustPlan(Shape(2432, 1792, 4096), H200Spec(), o);
  EXPECT_EQ(p.dp_blocks, 132) << p;
  EXPECT_EQ(p.dp_blocks_before_sk, 0) << p;
  // Every tile Stream-K, or no Stream-K at all: nothing to order.
  o.sk_tiles = 0;
  EXPECT_EQ(MustPlan(Shape(3456, 5120, 8192), H200Spec(), o).dp_blocks_before_sk, 0);
  o.mode = Mode::kDataParallel;
  o.sk_tiles = 0;
  EXPECT_EQ(MustPlan(Shape(3456, 5120, 8192), H200Spec(), o).dp_blocks_before_sk, 0);
}

TEST(PlannerBehaviour, StreamKBlocksAreClampedToIterations) {
  PlanOptions o;
  o.mode = Mode::kStreamK;
  o.blocks = 1000;
  const Plan p = MustPlan(Shape(1, 1, 1), H200Spec(), o);  // one tile, one iteration
  EXPECT_EQ(p.sk_blocks, 1) << p;
  EXPECT_EQ(p.sk_iters_per_normal_block, 1) << p;
}

TEST(PlannerBehaviour, SamePlanForSameInputs) {
  for (auto [m, n, k] : {std::tuple{1536, 1536, 4096}, {4000, 333, 5000}, {128, 128, 131072}}) {
    const Plan a = MustPlan(Shape(m, n, k), H200Spec());
    const Plan b = MustPlan(Shape(m, n, k), H200Spec());
    EXPECT_EQ(PlanSummary(a), PlanSummary(b));
    EXPECT_EQ(0, std::memcmp(&a, &b, sizeof(Plan)));
  }
}

TEST(PlannerBehaviour, BatchCountsTilesAcrossTheBatch) {
  const Plan p = MustPlan(Shape(256, 512, 4096, 33), H200Spec());
  EXPECT_EQ(p.tiles, 4 * 33);  // 132 tiles of 128x256: a whole wave
  EXPECT_EQ(p.mode, Mode::kDataParallel) << p;
  const Plan q = MustPlan(Shape(256, 512, 4096, 36), H200Spec());
  EXPECT_EQ(q.tiles, 144);
  EXPECT_EQ(q.mode, Mode::kStreamK) << q;
}

TEST(PlannerRepack, LargeMisalignedShapesCopyTheirOperandsToAlignedRows) {
  // 4096 x 4096 x 4104 (tn: both operands' rows start at odd multiples of 16 bytes): measured on an
  // H200, data-parallel 298 us with the rows as they are, 187 with K = 4096; copying both operands
  // (135 MB read and written) costs about 40 us. Forced, the planner copies both, puts the copies
  // in the workspace past the flags and the partials, and plans the kernel for aligned rows. (On a
  // device without the cluster configuration: the H200's runs this shape on clusters instead,
  // PlannerClusters below.)
  DeviceSpec dev = H200Spec();
  dev.Remove(KernelRole::kCluster);
  Problem q = Shape(4096, 4096, 4104);
  q.a.row_align = kVectorBytes;
  q.b.row_align = kVectorBytes;
  PlanOptions all;
  all.repack = RepackOperands::kAll;
  PlanExplanation why;
  const absl::StatusOr<Plan> p = MakePlan(q, dev, all, &why);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->repack_a && p->repack_b) << *p;
  EXPECT_FALSE(p->a.rows_misaligned() || p->b.rows_misaligned()) << *p;
  EXPECT_EQ(p->repack_ld, 4160);
  EXPECT_GE(p->repack_a_offset,
            std::max(Plan::kMinFlagsBytes, p->partials_offset + p->partials_bytes));
  EXPECT_EQ(p->repack_a_offset % Plan::kWorkspaceAlignment, 0);
  EXPECT_GE(p->repack_b_offset, p->repack_a_offset + RepackedBytes(*p, 'a'));
  EXPECT_EQ(p->repack_b_offset % Plan::kWorkspaceAlignment, 0);
  EXPECT_GE(p->workspace_bytes, p->repack_b_offset + RepackedBytes(*p, 'b'));
  EXPECT_EQ(RepackedBytes(*p, 'a'), 4096 * 4160 * 2);
  // The prediction includes the copies.
  const double copy_us = RepackMicros(q, true, true, dev.main().cost);
  EXPECT_DOUBLE_EQ(why.repack_us, copy_us);
  EXPECT_NEAR(why.predicted_us, PredictMicros(*p, KernelCost(dev, *p)) + copy_us, 1e-9);
  PlanOptions off;
  off.repack = RepackOperands::kNone;
  PlanExplanation why_off;
  const absl::StatusOr<Plan> as_is = MakePlan(q, dev, off, &why_off);
  ASSERT_TRUE(as_is.ok());
  EXPECT_FALSE(as_is->repack_a || as_is->repack_b);
  EXPECT_TRUE(as_is->a.rows_misaligned() && as_is->b.rows_misaligned());
  EXPECT_EQ(why_off.repack_us, 0);

  // Auto copies B's rows alone: the 256-row side of the 128 x 256 tile, two thirds of the loads,
  // for half the copies. Measured on an H200 (auto with the copies forced): 210.4 us with B's rows
  // copied, 224.5 with both, 258.2 with A's.
  PlanExplanation why_auto;
  const absl::StatusOr<Plan> b = MakePlan(q, dev, {}, &why_auto);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_TRUE(b->repack_b && !b->repack_a) << *b;
  EXPECT_TRUE(b->a.rows_misaligned() && !b->b.rows_misaligned()) << *b;
  EXPECT_EQ(b->repack_a_offset, 0);
  EXPECT_GE(b->repack_b_offset,
            std::max(Plan::kMinFlagsBytes, b->partials_offset + b->partials_bytes));
  EXPECT_DOUBLE_EQ(why_auto.repack_us, RepackMicros(q, false, true, dev.main().cost));
  // Its estimate: the kernel for A's rows as they are (the aligned prediction against the L2's
  // time for A's loads at the misaligned rate), plus B's copy; under both the others'.
  Plan aligned = *b;
  aligned.a = aligned.a.RowsAligned();
  EXPECT_NEAR(why_auto.predicted_us,
              LoadBoundMicros(PredictMicros(aligned, KernelCost(dev, *b)),
                              LoadFloorMicros(*b, true, false, KernelCost(dev, *b))) +
                  why_auto.repack_us,
              1e-9);
  EXPECT_LT(why_auto.predicted_us, why.predicted_us);
  EXPECT_NE(why_auto.reason.find("B repacked to 128-byte rows first"), std::string::npos)
      << why_auto.reason;
  // The explanation: the rows as they are, both copied, then each alone (no clusters on this
  // device); B's copy marked, at the prediction.
  std::vector<std::string> names;
  for (const RowsOption& r : why_auto.rows_options) {
    names.push_back(r.name);
    EXPECT_EQ(r.chosen, r.name == "B repacked") << r.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"rows as they are", "A and B repacked",
                                             "A repacked", "B repacked"}));
  ASSERT_EQ(why_auto.rows_options.size(), 4u);
  EXPECT_DOUBLE_EQ(why_auto.rows_options[3].estimated_us, why_auto.predicted_us);
  EXPECT_DOUBLE_EQ(why_auto.rows_options[3].copies_us, why_auto.repack_us);
  // A forced decomposition runs on the rows as they are, unless repacking is forced too: every
  // misaligned operand, or the one named.
  PlanOptions dp;
  dp.mode = Mode::kDataParallel;
  EXPECT_FALSE(MustPlan(q, dev, dp).repack_a);
  dp.repack = RepackOperands::kAll;
  EXPECT_TRUE(MustPlan(q, dev, dp).repack_a && MustPlan(q, dev, dp).repack_b);
  dp.repack = RepackOperands::kA;
  const Plan only_a = MustPlan(q, dev, dp);
  EXPECT_TRUE(only_a.repack_a && !only_a.repack_b && only_a.b.rows_misaligned()) << only_a;
  dp.repack = RepackOperands::kB;
  const Plan only_b = MustPlan(q, dev, dp);
  EXPECT_TRUE(!only_b.repack_a && only_b.repack_b && only_b.a.rows_misaligned()) << only_b;
}

TEST(PlannerRepack, ASmallOperandReadByEveryTileRowIsCopiedAlone) {
  // Tall-skinny shapes with both operands' rows misaligned: the small operand (A here, a few
  // hundred rows) is re-read by every tile row of the large one, so half the loads are its rows,
  // and its copy is cheap. Measured on an H200 (bench M x N x K, the kernel's problem N x M x K;
  // auto, us): as the rows are / A's rows copied / both copied.
  const DeviceSpec dev = H200Spec();
  struct Case {
    int64_t m, n, k;
    double as_is_us, a_us, both_us;
  } cases[] = {{376, 5520, 2200, 30.8, 24.6, 36.6},
               {248, 7136, 2744, 31.5, 25.9, 46.8},
               {496, 4104, 1960, 25.4, 21.4, 27.4}};
  for (const Case& c : cases) {
    PlanExplanation why;
    const absl::StatusOr<Plan> p = MakePlan(MisalignedShape(c.m, c.n, c.k), dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_TRUE(p->repack_a && !p->repack_b) << *p << "\n" << why.reason;
    EXPECT_EQ(p->cluster_m, 1) << *p;
    EXPECT_TRUE(p->b.rows_misaligned()) << *p;
    EXPECT_NE(why.reason.find("A repacked to 128-byte rows first"), std::string::npos)
        << why.reason;
  }
  // A short GEMM's time is the host's (two launches instead of one): 904 x 168 x 1368 ran
  // 10.8 us as the rows are and 13.3 with A's rows copied. Auto leaves it.
  const Plan small = MustPlan(MisalignedShape(168, 904, 1368), dev);
  EXPECT_FALSE(small.repack_a || small.repack_b) << small;
  // A forced decomposition copies nothing unless asked to.
  PlanOptions dp;
  dp.mode = Mode::kDataParallel;
  const Plan forced = MustPlan(MisalignedShape(376, 5520, 2200), dev, dp);
  EXPECT_FALSE(forced.repack_a || forced.repack_b) << forced;
}

TEST(PlannerRepack, TheL2FloorMatchesMeasuredMisalignedShapes) {
  // Data-parallel on 128 x 256 tiles with both operands' rows misaligned, measured on an H200
  // (bench M x N x K; the kernel's problem is N x M x K): the operand loads alone set the time.
  DeviceSpec dev = H200Spec();
  dev.Remove(KernelRole::kCluster);  // repacking alone
  PlanOptions dp;
  dp.mode = Mode::kDataParallel, dp.tile = TileShape{128, 256, 64};
  dp.repack = RepackOperands::kNone;
  struct Case {
    int64_t m, n, k;
    double measured_us;
  } cases[] = {{4096, 4096, 4104, 306.7}, {8192, 8192, 8200, 2561.6}, {2648, 1000, 3288, 43.0},
               {1488, 4144, 5208, 153.9}, {2048, 2048, 2056, 39.8}};
  for (const Case& c : cases) {
    Problem q = Shape(c.m, c.n, c.k);
    q.a.row_align = kVectorBytes;
    q.b.row_align = kVectorBytes;
    const Plan p = MustPlan(q, dev, dp);
    const double floor = LoadFloorMicros(p, true, true, dev.main().cost);
    EXPECT_NEAR(floor / c.measured_us, 1.0, 0.08) << c.m << "x" << c.n << "x" << c.k;
    // With aligned rows the loads are not what limits (4096^3: 216 us measured).
    EXPECT_LT(LoadFloorMicros(p, false, false, dev.main().cost), 0.5 * floor);
  }
  // Forced copies of 1000 x 2648 x 3288's operands made it slower (43.0 -> 57.8 us): auto keeps the
  // rows as they are. Of 4096 x 4096 x 4104's they made it faster (306.7 -> 261.4 us; B's alone,
  // 210.4 us, faster still).
  Problem small = Shape(2648, 1000, 3288), big = Shape(4096, 4096, 4104);
  small.a.row_align = kVectorBytes;
  small.b.row_align = kVectorBytes;
  big.a.row_align = kVectorBytes;
  big.b.row_align = kVectorBytes;
  EXPECT_FALSE(MustPlan(small, dev).repack_a || MustPlan(small, dev).repack_b);
  EXPECT_TRUE(MustPlan(big, dev).repack_b);
}

// A decode row whose tokens are the kernel's N-major B (n tokens, NarrowMnExtent): its rows along
// n are 2 x ldb bytes apart, at odd multiples of 16 bytes for 1-8 and 17-24 tokens (ldb of 8 or
// 24 elements).
Problem NarrowTokens(int64_t weights, int64_t tokens, int64_t k, bool misaligned) {
  Problem p = Shape(weights, tokens, k);
  p.b.major = Major::kMN;
  p.b.row_align = (misaligned) ? kVectorBytes : kLineRowBytes;
  return p;
}

TEST(PlannerNarrowMn, NarrowLoadsCostMoreTheMoreSmsLoadThem) {
  // Measured on an H200 (data-parallel rows against the same plans on K-major tokens): per 64-deep
  // iteration, 0.065 us more with 32 SMs loading misaligned narrow rows, 0.08-0.13 with 64,
  // 0.19-0.28 with 128-132; 0.01-0.05 with rows on 32-byte boundaries.
  const DeviceSpec dev = H200Spec();
  const CostModel& c = dev.Find(KernelRole::kAlt)->cost;  // 128 x 128
  EXPECT_DOUBLE_EQ(c.narrow_mn_misaligned_iter_us, 0.22);
  EXPECT_DOUBLE_EQ(c.narrow_mn_iter_us, 0.045);
  PlanOptions dp;
  dp.mode = Mode::kDataParallel, dp.tile = dev.TileOf(KernelRole::kAlt);
  const Plan plain = MustPlan(Shape(12288, 1, 4096), dev, dp);
  const CostTerms base = ScaleCosts(plain, c);
  Plan p = plain;
  p.b.major = Major::kMN;
  p.b.row_align = kVectorBytes;
  CostTerms t = ScaleCosts(p, c);
  EXPECT_DOUBLE_EQ(t.iter_alone, base.iter_alone);  // one SM alone: nothing
  EXPECT_NEAR(t.iter_busy - base.iter_busy, 0.22, 1e-12);
  EXPECT_NEAR(t.iter_shared - base.iter_shared, 0.22, 1e-12);
  // In between, by the share of SMs a round keeps busy.
  EXPECT_NEAR(RoundIter(t, 66, 132) - RoundIter(base, 66, 132), 0.11, 1e-12);
  p.b.row_align = kLineRowBytes;
  EXPECT_NEAR(ScaleCosts(p, c).iter_busy - base.iter_busy, 0.045, 1e-12);
  // Both operands narrow: both priced. A 64-element side is not narrow, nor a K-major one.
  p.a.major = Major::kMN;
  p.m = 63;
  EXPECT_NEAR(ScaleCosts(p, c).iter_busy - base.iter_busy, 0.09, 1e-12);
  p.m = 64;
  EXPECT_NEAR(ScaleCosts(p, c).iter_busy - base.iter_busy, 0.045, 1e-12);
  p.n = 64;
  EXPECT_DOUBLE_EQ(ScaleCosts(p, c).iter_busy, base.iter_busy);
  EXPECT_TRUE(NarrowMnExtent(63) && !NarrowMnExtent(64));
  // The misaligned 7b.qkv.m1 row, data-parallel on 96 tiles of 64 iterations: 47.9 us measured as
  // it is, 30.1 on K-major tokens; predicted slower by what 96 of 132 SMs pay per iteration. (The
  // term was fitted over iterations priced at the whole width; over the narrow wgmmas' cheaper
  // iterations the prediction reads low, 0.74 of the time; the copy still pays by far.)
  const double as_is = PredictMicros(MustPlan(NarrowTokens(12288, 1, 4096, true), dev, dp), c);
  EXPECT_GT(as_is, PredictMicros(plain, c) + 0.5 * 64 * 0.22 * 96 / 132);
  EXPECT_NEAR(as_is / 47.9, 1.0, 0.3);
}

TEST(PlannerNarrowMn, AutoCopiesNarrowTokensWhereTheCopyPays) {
  // Decode rows in bench layout nn (the tokens the kernel's N-major B), measured on an H200, us:
  // auto's data-parallel plan as the tokens are / the same plan with them copied to K-major rows
  // first. The copy costs about 3.3 us; where the tokens' rows start at odd multiples of 16 bytes
  // the loads cost far more than that. On 64 x 128 tiles at the memory's floor, rows on 32-byte
  // boundaries too (the next test).
  const DeviceSpec dev = H200Spec();
  struct Case {
    int64_t weights, tokens, k;
    double as_is_us, copied_us;
    bool copy;
  } cases[] = {{8192, 1, 28672, 203.3, 122.0, true},   {8192, 8, 28672, 203.2, 119.7, true},
               {8192, 24, 28672, 189.6, 121.0, true},  {28672, 1, 8192, 173.6, 124.6, true},
               {28672, 24, 8192, 154.4, 123.7, true},  {12288, 1, 4096, 47.9, 34.2, true},
               {12288, 24, 4096, 40.6, 34.3, true},
               // Not worth the copy (or not by the 3% auto asks). 70b.down's 32 and 48 tokens split
               // k on 128 x 128 tiles as they are (split-K as they are / data-parallel on 64 x 128
               // copied).
               {8192, 32, 28672, 118.9, 120.7, false}, {8192, 48, 28672, 121.1, 122.8, false},
               {28672, 32, 8192, 124.2, 124.2, false}, {12288, 16, 4096, 32.3, 33.4, false},
               {12288, 48, 4096, 32.4, 34.3, false}};
  for (const Case& c : cases) {
    const bool misaligned = ((c.tokens + 7) / 8) % 2 == 1;
    PlanExplanation why;
    const absl::StatusOr<Plan> p =
        MakePlan(NarrowTokens(c.weights, c.tokens, c.k, misaligned), dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    SCOPED_TRACE(absl::StrCat(c.weights, " x ", c.tokens, " x ", c.k, "\n", why.reason));
    EXPECT_EQ(p->repack_b, c.copy) << *p;
    EXPECT_FALSE(p->repack_a);
    ASSERT_EQ(why.rows_options.size(), 2u);
    EXPECT_EQ(why.rows_options[0].name, "rows as they are");
    EXPECT_TRUE(why.rows_options[0].narrow_loads);
    EXPECT_EQ(why.rows_options[1].name, "B repacked");
    EXPECT_FALSE(why.rows_options[1].narrow_loads);
    EXPECT_EQ(why.rows_options[1].chosen, c.copy);
    EXPECT_DOUBLE_EQ(why.rows_options[1].copies_us,
                     RepackMicros(NarrowTokens(c.weights, c.tokens, c.k, misaligned), false, true,
                                  dev.main().cost));
    if (c.copy) {
      // The copy is K-major: nothing narrow is left, and the prediction holds the copy.
      EXPECT_FALSE(p->b.mn_major() || p->b.mn_rows_misaligned()) << *p;
      EXPECT_DOUBLE_EQ(why.repack_us, why.rows_options[1].copies_us);
      EXPECT_NE(why.reason.find("as the narrow N-major B is"), std::string::npos);
    } else {
      EXPECT_TRUE(p->b.mn_major()) << *p;
      EXPECT_EQ(why.repack_us, 0);
      EXPECT_NE(why.reason.find("the narrow N-major B as it is estimated"), std::string::npos);
    }
  }
  // 64 tokens are not narrow: nothing to weigh.
  PlanExplanation why;
  const Plan wide = MustPlan(NarrowTokens(8192, 64, 28672, false), dev);
  ASSERT_TRUE(MakePlan(NarrowTokens(8192, 64, 28672, false), dev, {}, &why).ok());
  EXPECT_FALSE(wide.repack_b);
  EXPECT_TRUE(why.rows_options.empty());
  // A narrow M-major A (the tokens as D's rows) is weighed the same way (unmeasured there).
  Problem a = Shape(1, 8192, 28672);
  a.a.major = Major::kMN;
  a.a.row_align = kVectorBytes;
  ASSERT_TRUE(MakePlan(a, dev, {}, &why).ok());
  ASSERT_EQ(why.rows_options.size(), 2u);
  EXPECT_TRUE(why.rows_options[0].narrow_loads);
  EXPECT_EQ(why.rows_options[1].name, "A repacked");
}

TEST(PlannerNarrowMn, ShortTilesPayNarrowLoadsAboveTheMemoryFloor) {
  // 70b.down's rows whose tokens sit on 32-byte boundaries (8192 x 12-48 x 28672, the tokens
  // N-major), measured on an H200 (us): data-parallel on 64 x 128 tiles (128 tiles on 128 SMs, 448
  // iterations, at the memory's floor) as the tokens are / with them copied first / split-K on
  // 128 x 128 as they are. The short tile's narrow loads are not hidden by the floor; the 128 x 128
  // tile's are.
  const DeviceSpec dev = H200Spec();
  EXPECT_DOUBLE_EQ(dev.Find(KernelRole::kSmall)->cost.narrow_mn_floor_iter_us, 0.035);
  EXPECT_EQ(dev.Find(KernelRole::kAlt)->cost.narrow_mn_floor_iter_us, 0);
  EXPECT_EQ(dev.main().cost.narrow_mn_floor_iter_us, 0);
  struct Case {
    int64_t tokens;
    double dp_as_is_us, dp_copied_us, splitk_as_is_us;
  } cases[] = {{12, 131.6, 119.9, 120.5}, {16, 131.4, 120.0, 120.2},
               {32, 125.7, 121.1, 118.9}, {48, 138.4, 123.2, 121.1}};
  PlanOptions dp;
  dp.mode = Mode::kDataParallel, dp.tile = dev.TileOf(KernelRole::kSmall);
  for (const Case& c : cases) {
    SCOPED_TRACE(absl::StrCat("8192 x ", c.tokens, " x 28672"));
    const Problem q = NarrowTokens(8192, c.tokens, 28672, false);
    // The 64 x 128 plan as the tokens are: the floor plus what 128 of 132 SMs pay per iteration.
    const Plan as_is = MustPlan(q, dev, dp);
    ASSERT_EQ(as_is.tiles, 128);
    ASSERT_EQ(as_is.iters_per_tile, 448);
    Plan k_major = as_is;
    k_major.b.major = Major::kK;
    EXPECT_GE(PredictMicros(as_is, dev.Find(KernelRole::kSmall)->cost) -
                  PredictMicros(k_major, dev.Find(KernelRole::kSmall)->cost),
              448 * 0.035 * 128 / 132 - 1e-9);
    // Auto does not run it: it copies the tokens or takes 128 x 128 tiles, 1.04-1.13x faster.
    PlanExplanation why;
    const absl::StatusOr<Plan> p = MakePlan(q, dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_TRUE(p->repack_b || p->tile_m == dev.TileOf(KernelRole::kAlt).m) << FormatPlan(*p, &why);
    const double picked = p->repack_b ? c.dp_copied_us : c.splitk_as_is_us;
    EXPECT_LT(picked * 1.03, c.dp_as_is_us) << FormatPlan(*p, &why);
  }
  // Without the term the floor hides the narrow loads: at a floor of 3.5 TB/s auto would run them
  // as they are on the short tile. At 4.1 TB/s (the floor's rate) split-K on 128 x 128 wins there
  // by itself, so the term is checked on the plan alone: at the floor, without it, the two layouts
  // read the same.
  DeviceSpec hidden = dev;
  hidden.Find(KernelRole::kSmall)->cost.narrow_mn_floor_iter_us = 0;
  hidden.Find(KernelRole::kSmall)->cost.narrow_mn_iter_us = 0;
  const Plan hidden_as_is = MustPlan(NarrowTokens(8192, 16, 28672, false), hidden, dp);
  Plan hidden_k_major = hidden_as_is;
  hidden_k_major.b.major = Major::kK;
  EXPECT_DOUBLE_EQ(PredictMicros(hidden_as_is, hidden.Find(KernelRole::kSmall)->cost),
                   PredictMicros(hidden_k_major, hidden.Find(KernelRole::kSmall)->cost));
  // K-major tokens and 64 of them are not narrow: no term.
  const Plan wide = MustPlan(NarrowTokens(8192, 64, 28672, false), dev, dp);
  Plan k_major = wide;
  k_major.b.major = Major::kK;
  EXPECT_DOUBLE_EQ(PredictMicros(wide, dev.Find(KernelRole::kSmall)->cost),
                   PredictMicros(k_major, dev.Find(KernelRole::kSmall)->cost));
}

TEST(PlannerNarrowMn, CopiesAreForcedOrForbiddenLikeMisalignedRows) {
  const DeviceSpec dev = H200Spec();
  const Problem q = NarrowTokens(8192, 1, 28672, true);
  // A forced decomposition copies nothing unless asked to; asked, it copies the narrow operand
  // (and never an aligned K-major one).
  PlanOptions dp;
  dp.mode = Mode::kDataParallel;
  EXPECT_FALSE(MustPlan(q, dev, dp).repack_b);
  for (RepackOperands r : {RepackOperands::kAll, RepackOperands::kB}) {
    dp.repack = r;
    const Plan p = MustPlan(q, dev, dp);
    EXPECT_TRUE(p.repack_b && !p.repack_a) << p;
    EXPECT_EQ(p.mode, Mode::kDataParallel);
  }
  dp.repack = RepackOperands::kA;  // A has nothing to copy
  EXPECT_FALSE(MustPlan(q, dev, dp).repack_a || MustPlan(q, dev, dp).repack_b);
  // A narrow M-major A is copied when asked for as A.
  Problem a = Shape(1, 8192, 28672);
  a.a.major = Major::kMN;
  const Plan pa = MustPlan(a, dev, dp);
  EXPECT_TRUE(pa.repack_a && !pa.repack_b && !pa.a.mn_major()) << pa;
  // kNone keeps auto off it however much the copy would save.
  PlanOptions off;
  off.repack = RepackOperands::kNone;
  EXPECT_FALSE(MustPlan(q, dev, off).repack_b);
  EXPECT_TRUE(MustPlan(q, dev).repack_b);
  // A batch of them copies each entry's tokens; the transposing copy costs what a row copy of the
  // same bytes does (as measured).
  Problem batch = q;
  batch.batch = 4;
  const Plan b = MustPlan(batch, dev);
  EXPECT_TRUE(b.repack_b) << b;
  EXPECT_EQ(RepackedBytes(b, 'b'), 4 * 1 * 28672 * 2);
  EXPECT_DOUBLE_EQ(RepackMicros(q, false, true, dev.main().cost),
                   RepackMicros(Shape(8192, 1, 28672), false, true, dev.main().cost));
  // An unaligned operand is copied whatever; it is not also priced as narrow.
  Problem unaligned = q;
  unaligned.b.row_align = kVectorBytes / 2;
  const Plan u = MustPlan(unaligned, dev);
  EXPECT_TRUE(u.repack_b && u.b_unaligned && !u.b.mn_major()) << u;
}

TEST(OperandLayoutTest, PredicatesPartitionTheLayouts) {
  // Every (major, alignment) an operand can have answers the planner's questions one way: an
  // unaligned operand is nothing else; K-major rows are misaligned (16), fast (32, 64) or on
  // lines (128); M- or N-major rows are misaligned (16) or not.
  for (Major major : {Major::kK, Major::kMN}) {
    for (int align : {1, 2, 4, 8, 16, 32, 64, 128}) {
      const OperandLayout l{major, static_cast<uint8_t>(align)};
      const bool k = major == Major::kK;
      SCOPED_TRACE(testing::Message() << (k ? "K-major" : "MN-major") << ", rows at " << align);
      EXPECT_EQ(l.unaligned(), align < 16);
      EXPECT_EQ(l.rows_misaligned(), k && align == 16);
      EXPECT_EQ(l.rows_on_lines(), k && align == 128);
      EXPECT_EQ(l.mn_major(), !k && align >= 16);
      EXPECT_EQ(l.mn_rows_misaligned(), !k && align == 16);
      // Taking the misalignment away touches K-major rows at 16 bytes alone.
      const OperandLayout fixed = l.RowsAligned();
      EXPECT_FALSE(fixed.rows_misaligned());
      const OperandLayout want = k && align == 16 ? OperandLayout{major, kFastRowBytes} : l;
      EXPECT_TRUE(fixed == want);
    }
  }
  // A copy is K-major on lines, and the default layout is that.
  EXPECT_TRUE(OperandLayout::Copied() == OperandLayout{});
  EXPECT_TRUE(OperandLayout{}.rows_on_lines());
}

TEST(PlannerWideMn, MisalignedMnRowsArePricedLikeMisalignedKMajorRows) {
  // Wide M- or N-major operands whose k-rows start at odd multiples of 16 bytes, measured on an
  // H200 (layouts nn and tt, us): the L2 serves them slowly, as it does misaligned K-major rows,
  // and a copy to K-major rows pays where LoadFloorMicros at the misaligned rate says so.
  const DeviceSpec dev = H200Spec();
  auto wide = [](int64_t m, int64_t n, int64_t k, char operand) {
    Problem p = Shape(m, n, k);
    (operand == 'a' ? p.a : p.b) = OperandLayout{Major::kMN, kVectorBytes};
    return p;
  };
  // nn 4104 x 4096 x 4096: the kernel's B N-major, rows 4104 elements apart. Data-parallel on
  // 128 x 128: 270.0 as is, 238.6 with B copied first (cuBLAS 194.0).
  PlanExplanation why;
  const Problem nn = wide(4096, 4104, 4096, 'b');
  absl::StatusOr<Plan> p = MakePlan(nn, dev, {}, &why);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->repack_b && !p->repack_a) << *p;
  EXPECT_FALSE(p->b.mn_major() || p->b.mn_rows_misaligned()) << *p;
  ASSERT_GE(why.rows_options.size(), 2u);
  EXPECT_EQ(why.rows_options[0].name, "rows as they are");
  EXPECT_GT(why.rows_options[0].load_floor_us, PredictMicros(*p, KernelCost(dev, *p)));
  EXPECT_FALSE(why.rows_options[0].narrow_loads);
  EXPECT_EQ(why.rows_options[1].name, "B repacked");
  EXPECT_TRUE(why.rows_options[1].chosen);
  EXPECT_NE(why.reason.find("as the rows are (the L2 serves those loads in"), std::string::npos)
      << why.reason;
  // The same rows 4096 elements apart: nothing to weigh.
  Problem aligned = nn;
  aligned.b.row_align = kLineRowBytes;
  ASSERT_TRUE(MakePlan(aligned, dev, {}, &why).ok());
  EXPECT_TRUE(why.rows_options.empty());
  EXPECT_FALSE(MustPlan(aligned, dev).repack_b);
  // Small: nn 1032 x 1024 x 4096 ran 26.8 as is, 34.9 copied (128 x 128): left as it is.
  EXPECT_FALSE(MustPlan(wide(1024, 1032, 4096, 'b'), dev).repack_b);
  // tt 4096 x 4104 x 4096: the kernel's A M-major, rows 4104 apart, 128 x 256 tiles read it
  // 128 rows a tile: 190.4 as is, 219.5 copied (cuBLAS 195.4): left as it is.
  const Plan tt = MustPlan(wide(4104, 4096, 4096, 'a'), dev);
  EXPECT_FALSE(tt.repack_a || tt.repack_b) << tt;
  EXPECT_TRUE(tt.a.mn_rows_misaligned());
  // Forced copies include them; kNone keeps auto off them.
  PlanOptions dp;
  dp.mode = Mode::kDataParallel;
  EXPECT_FALSE(MustPlan(nn, dev, dp).repack_b);
  dp.repack = RepackOperands::kAll;
  EXPECT_TRUE(MustPlan(nn, dev, dp).repack_b);
  PlanOptions off;
  off.repack = RepackOperands::kNone;
  EXPECT_FALSE(MustPlan(nn, dev, off).repack_b);
}

TEST(PlannerClusters, TheClusterTileRunsOnPairsOfSmsThatReadBOnce) {
  // PlanOptions::tile = the cluster configuration: tiles of 256 x 256, one per 2-SM cluster, 66
  // clusters on an H200 (or half the SMs asked for).
  const DeviceSpec dev = H200Spec();
  ASSERT_EQ(dev.TileOf(KernelRole::kCluster), (TileShape{256, 256, 64}));
  ASSERT_EQ(dev.Find(KernelRole::kCluster)->cluster_slots, 66);
  PlanOptions o;
  o.tile = dev.TileOf(KernelRole::kCluster);
  const Plan p = MustPlan(Shape(4096, 4096, 4104), dev, o);
  EXPECT_EQ(p.cluster_m, 2);
  EXPECT_EQ(p.tile_m, 256);
  EXPECT_EQ(p.tiles, 16 * 16);
  EXPECT_EQ(p.avail_sms, 66);
  EXPECT_LE(p.grid_blocks, 66);
  o.avail_sms = 100;
  EXPECT_EQ(MustPlan(Shape(4096, 4096, 4104), dev, o).avail_sms, 50);
  // Every other tile plans one block per SM, and auto plans no clusters.
  EXPECT_EQ(MustPlan(Shape(4096, 4096, 4104), dev).cluster_m, 1);
  o.tile = dev.main().tile;
  EXPECT_EQ(MustPlan(Shape(4096, 4096, 4104), dev, o).cluster_m, 1);
  // A cluster needs two SMs.
  o.tile = dev.TileOf(KernelRole::kCluster);
  o.avail_sms = 1;
  absl::StatusOr<Plan> one = MakePlan(Shape(4096, 4096, 4104), dev, o);
  ASSERT_EQ(one.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(one.status().message().find("avail_sms = 1"), absl::string_view::npos);
  EXPECT_NE(one.status().message().find("clusters of 2 SMs"), absl::string_view::npos);
  // The L2 serves a cluster's B once: with misaligned rows (B the larger part of a 128 x 256
  // block's loads), the loads take two thirds of the time they take without clusters.
  // (Measured on an H200, 4096 x 4096 x 4104's loads alone: 187 against 295 us.)
  PlanOptions blocks, clusters;
  blocks.mode = clusters.mode = Mode::kDataParallel;
  blocks.tile = dev.main().tile, clusters.tile = dev.TileOf(KernelRole::kCluster);
  blocks.repack = clusters.repack = RepackOperands::kNone;
  Problem q = Shape(4096, 4096, 4104);
  q.a.row_align = kVectorBytes;
  q.b.row_align = kVectorBytes;
  const double without = LoadFloorMicros(MustPlan(q, dev, blocks), true, true, dev.main().cost);
  const double with =
      LoadFloorMicros(MustPlan(q, dev, clusters), true, true, dev.Find(KernelRole::kCluster)->cost);
  EXPECT_NEAR(with / without, 2.0 / 3.0, 0.01);
  EXPECT_NEAR(with / 187.0, 1.0, 0.1);
}

TEST(PlannerClusters, AutoRunsLargeMisalignedShapesOnClusters) {
  // Measured on an H200 (bench M x N x K; the kernel's problem is N x M x K), us: rows as they are
  // on 128 x 256 blocks / repacked / on 256 x 256 clusters: 4096 x 4096 x 4104
  // 305.6 / 252.7 / 227.3; 8192 x 8192 x 8200 2697 / 1817 / 1783; 2048 x 2048 x 2056
  // 39.5 / - / 30.0; 4144 x 1488 x 5208 154.3 / - / 128.0 (121.4 Stream-K); 2880 x 3064 x 7752
  // 306.0 (auto, Stream-K) / - / 250.1 (Stream-K). Auto takes the clusters there, and keeps the
  // rows of small misaligned shapes and of aligned ones on blocks.
  const DeviceSpec dev = H200Spec();
  for (const Problem& q : {MisalignedShape(4096, 4096, 4104), MisalignedShape(8192, 8192, 8200),
                           MisalignedShape(2048, 2048, 2056), MisalignedShape(1488, 4144, 5208),
                           MisalignedShape(3064, 2880, 7752)}) {
    PlanExplanation why;
    const absl::StatusOr<Plan> p = MakePlan(q, dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->cluster_m, 2) << *p << "\n" << why.reason;
    EXPECT_FALSE(p->repack_a || p->repack_b) << *p;
    EXPECT_TRUE(p->a.rows_misaligned() && p->b.rows_misaligned()) << *p;
    EXPECT_NE(why.reason.find("2-SM clusters"), std::string::npos) << why.reason;
    // The estimate: the plan for aligned rows combined with the L2's time for the loads at the
    // misaligned rate with B read once per cluster.
    Plan as_aligned = *p;
    as_aligned.a = as_aligned.a.RowsAligned();
    as_aligned.b = as_aligned.b.RowsAligned();
    EXPECT_DOUBLE_EQ(
        why.predicted_us,
        LoadBoundMicros(PredictMicros(as_aligned, dev.Find(KernelRole::kCluster)->cost),
                        LoadFloorMicros(*p, true, true, dev.Find(KernelRole::kCluster)->cost)));
    // The explanation marks the clusters, and the rows as they are it beat by 3% or more.
    int chosen = 0;
    for (const RowsOption& r : why.rows_options) {
      if (!r.chosen) continue;
      ++chosen;
      EXPECT_EQ(r.name, "2-SM clusters");
      EXPECT_DOUBLE_EQ(r.estimated_us, why.predicted_us);
    }
    EXPECT_EQ(chosen, 1) << FormatPlan(*p, &why);
    ASSERT_FALSE(why.rows_options.empty());
    EXPECT_EQ(why.rows_options[0].name, "rows as they are");
    EXPECT_LT(why.predicted_us, 0.97 * why.rows_options[0].estimated_us);
  }
  EXPECT_EQ(MustPlan(MisalignedShape(3064, 2880, 7752), dev).mode, Mode::kStreamK);
  // Small misaligned shapes (1024 x 1024 x 1032: 11.5 us on 128 x 128 blocks, 17.3 on clusters)
  // and aligned ones (4096 x 4096 x 4096: 210.2 against 215.1 us) stay on blocks.
  EXPECT_EQ(MustPlan(MisalignedShape(1024, 1024, 1032), dev).cluster_m, 1);
  EXPECT_EQ(MustPlan(Shape(4096, 4096, 4096), dev).cluster_m, 1);
  EXPECT_EQ(MustPlan(Shape(8192, 8192, 8192), dev).cluster_m, 1);
  // Only auto picks them: a forced decomposition, a forced tile or forced copies run as asked;
  // refusing copies leaves clusters open.
  PlanOptions o;
  o.mode = Mode::kDataParallel;
  EXPECT_EQ(MustPlan(MisalignedShape(4096, 4096, 4104), dev, o).cluster_m, 1);
  o = {};
  o.tile = dev.main().tile;
  EXPECT_EQ(MustPlan(MisalignedShape(4096, 4096, 4104), dev, o).cluster_m, 1);
  o = {};
  o.repack = RepackOperands::kAll;
  const Plan copied = MustPlan(MisalignedShape(4096, 4096, 4104), dev, o);
  EXPECT_EQ(copied.cluster_m, 1);
  EXPECT_TRUE(copied.repack_a && copied.repack_b);
  o.repack = RepackOperands::kNone;
  EXPECT_EQ(MustPlan(MisalignedShape(4096, 4096, 4104), dev, o).cluster_m, 2);
}

TEST(PlannerClusters, ShortKShapesWhoseLoadsAndMathTieRunOnClusters) {
  // Measured on an H200 (fp16, bench M x N x K; the kernel's problem is N x M x K), us on blocks as
  // auto planned them / on clusters: the loads and the math of these shapes take about as long as
  // each other, and neither the aligned prediction nor the L2 floor alone sees how much clusters
  // gain: 3312 x 6176 x 520 60.3 / 47.5, 5200 x 3320 x 1160 101.4 / 81.8, 1952 x 7848 x 600
  // 50.4 / 41.4, 960 x 5584 x 1816 56.4 / 49.0, 7520 x 688 x 2264 67.6 / 60.9. Clusters are weighed
  // against the two other tiles first: 960 x 5584 x 1816 ran 46.6 us on clusters, 51.4
  // data-parallel on 128x192 tiles, predicted 3% under them. (One round of 128 x 320 tiles runs it
  // faster still: TheSixthTileTakesShapesOneRoundOfItHolds.)
  const DeviceSpec dev = H200Spec();
  for (const Problem& q : {MisalignedShape(6176, 3312, 520), MisalignedShape(3320, 5200, 1160),
                           MisalignedShape(7848, 1952, 600), MisalignedShape(5584, 960, 1816),
                           MisalignedShape(688, 7520, 2264)}) {
    EXPECT_EQ(MustPlan(q, WithoutBroadTile(dev)).cluster_m, 2) << q.m << "x" << q.n << "x" << q.k;
  }
  // And where clusters lost in the same run they stay on blocks: 328 x 5656 x 1400 20.7 / 26.1,
  // 5704 x 392 x 840 16.2 / 17.2, 1000 x 1264 x 2648 24.8 / 29.8, 3408 x 320 x 728 10.6 / 15.2.
  for (const Problem& q : {MisalignedShape(5656, 328, 1400), MisalignedShape(392, 5704, 840),
                           MisalignedShape(1264, 1000, 2648), MisalignedShape(320, 3408, 728)}) {
    EXPECT_EQ(MustPlan(q, dev).cluster_m, 1) << q.m << "x" << q.n << "x" << q.k;
  }
}

TEST(PlannerClusters, DataParallelsPickWhereEstimatedWellUnderClusters) {
  // Where auto would run misaligned rows on clusters (weighed against the two other tiles first),
  // it runs data-parallel's own pick over every tile instead where that is estimated 8% under them
  // (kMinDpOverClustersGain). Measured on an H200 (planner M x N x K), us on clusters / on
  // data-parallel's pick: 5584 x 960 x 1816 49.1 / 44.0 (128 x 320), 7296 x 568 x 5928 145 / 106
  // (192 x 192), 7784 x 296 x 1752 39.2 / 29.5 (128 x 192); the 44 shapes of a random set that
  // moved so ran 1.011-1.42x as fast.
  const DeviceSpec dev = H200Spec();
  struct Case {
    int64_t m, n, k;
    int tile_m, tile_n;
  };
  for (const Case& c : {Case{5584, 960, 1816, 128, 320}, Case{7296, 568, 5928, 192, 192},
                        Case{7784, 296, 1752, 128, 192}}) {
    const Problem q = MisalignedShape(c.m, c.n, c.k);
    EXPECT_EQ(MustPlan(q, WithoutBroadTile(WithoutWideTile(WithoutMidTile(dev)))).cluster_m, 2)
        << c.m << "x" << c.n << "x" << c.k;
    PlanExplanation why;
    const absl::StatusOr<Plan> p = MakePlan(q, dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->cluster_m, 1) << FormatPlan(*p, &why);
    EXPECT_EQ(p->mode, Mode::kDataParallel) << *p;
    EXPECT_EQ(p->tile_m, c.tile_m) << *p;
    EXPECT_EQ(p->tile_n, c.tile_n) << *p;
    ASSERT_NO_FATAL_FAILURE(ExpectDataParallelsPick(q, dev, *p, &why));
    int clusters = 0;
    for (const RowsOption& r : why.rows_options) clusters += r.name == "2-SM clusters" && !r.chosen;
    EXPECT_EQ(clusters, 1) << FormatPlan(*p, &why);
  }
  // Clusters keep the shapes it is not estimated 8% under: 1240 x 3944 x 3656 ran 70.6 us on them,
  // 75.3 on data-parallel 128 x 320; 5272 x 952 x 7464 134.6, 150.1 on 128 x 320 (with that tile's
  // threads storing D); 728 x 1216 x 7608 (split-K on clusters, estimated 1.2% faster than
  // data-parallel 128 x 128) 1.21x as fast as it, and where that pick was estimated 2-8% faster,
  // 2416 x 1704 x 4056 (Stream-K on clusters) 1.13x as fast as data-parallel 192 x 192,
  // 1864 x 7144 x 1784 1.09x.
  for (const Problem& q : {MisalignedShape(1240, 3944, 3656), MisalignedShape(5272, 952, 7464),
                           MisalignedShape(728, 1216, 7608), MisalignedShape(2416, 1704, 4056),
                           MisalignedShape(1864, 7144, 1784)})
    EXPECT_EQ(MustPlan(q, dev).cluster_m, 2) << q.m << "x" << q.n << "x" << q.k;
}

TEST(PlannerClusters, TheColumnsClustersPadArePricedAgainstDataParallelsPick) {
  // Against data-parallel's pick, the clusters' estimate runs 1 + 0.8 w times as long, w the share
  // of their tiles' columns past N (CostModel::padded_columns_load). Measured on an H200 (planner
  // M x N x K), us on clusters / on data-parallel's pick, 128 x 192: 7672 x 264 x 4520 89.7 / 63.5
  // (w 0.48), 6632 x 288 x 7000 119.5 / 85.1, 7568 x 272 x 2280 45.7 / 34.3, 8128 x 368 x 2424
  // 48.0 / 40.2 (w 0.28).
  const DeviceSpec dev = H200Spec();
  EXPECT_DOUBLE_EQ(dev.Find(KernelRole::kCluster)->cost.padded_columns_load, 0.8);
  EXPECT_DOUBLE_EQ(dev.main().cost.padded_columns_load, 0);  // the single-SM tiles: not measured so
  DeviceSpec unpriced = dev;
  unpriced.Find(KernelRole::kCluster)->cost.padded_columns_load = 0;
  for (const Problem& q : {MisalignedShape(7672, 264, 4520), MisalignedShape(6632, 288, 7000),
                           MisalignedShape(7568, 272, 2280), MisalignedShape(8128, 368, 2424)}) {
    EXPECT_EQ(MustPlan(q, unpriced).cluster_m, 2) << q.m << "x" << q.n << "x" << q.k;
    PlanExplanation why;
    const absl::StatusOr<Plan> p = MakePlan(q, dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->cluster_m, 1) << FormatPlan(*p, &why);
    EXPECT_EQ(p->tile_n, 192) << *p;
    ExpectDataParallelsPick(q, dev, *p, nullptr);
    EXPECT_NE(why.reason.find("past N priced"), std::string::npos) << why.reason;
  }
  // 7672 x 264 x 4520: 2 tiles of 256 columns hold 264, w = 248 / 512.
  PlanExplanation why;
  ASSERT_TRUE(MakePlan(MisalignedShape(7672, 264, 4520), dev, {}, &why).ok());
  EXPECT_NE(why.reason.find("their tiles' columns 48% past N priced 1.39x"), std::string::npos)
      << why.reason;
  // Clusters keep the shapes they pad where data-parallel's pick is not estimated 8% under them
  // even so: 8040 x 448 x 5528 (w 0.125, priced 1.10x) ran 1.21x as fast as data-parallel's pick.
  // Split-K's plans are not priced so (on the 12 random shapes the term would move off them, its
  // pick ran 0.97x as fast): 1720 x 416 x 7992 (w 0.19), which priced so would move, ran 1.24x as
  // fast as data-parallel's pick 128 x 128. The pick not taken is listed, and the reason says why.
  for (const Problem& q : {MisalignedShape(8040, 448, 5528), MisalignedShape(1720, 416, 7992)}) {
    PlanExplanation kept;
    const absl::StatusOr<Plan> p = MakePlan(q, dev, {}, &kept);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->cluster_m, 2) << FormatPlan(*p, &kept);
    ASSERT_FALSE(kept.rows_options.empty());
    EXPECT_EQ(kept.rows_options.back().name, "data-parallel's pick");
    EXPECT_FALSE(kept.rows_options.back().chosen);
    int chosen = 0;
    for (const RowsOption& r : kept.rows_options) chosen += r.chosen && r.name == "2-SM clusters";
    EXPECT_EQ(chosen, 1) << FormatPlan(*p, &kept);
    EXPECT_NE(kept.reason.find("not 8% under the clusters"), std::string::npos) << kept.reason;
    EXPECT_EQ(kept.reason.find("past N priced") != std::string::npos,
              p->mode != Mode::kSplitK)
        << kept.reason;
  }
  EXPECT_EQ(MustPlan(MisalignedShape(1720, 416, 7992), dev).mode, Mode::kSplitK);
}

TEST(PlannerMisalignedSplit, DataParallelsPickWhereItsTilesFillAQuarterToThreeFifthsOfARound) {
  // Misaligned rows left as they are, auto's split-K pick not predicted 1.25x as fast as
  // data-parallel's, whose tiles fill 33-79 of 132 SMs: auto runs data-parallel's very plan
  // (measured on an H200; planner M x N x K, us split / data-parallel): 744 x 616 x 2072 split-K
  // 128 x 128 15.6 / 12.9 (60 tiles of 64 x 128); 248 x 4032 x 2584 split-K 128 x 128 1.19x
  // data-parallel's time (64 tiles of 128 x 128); 272 x 1520 x 2120 split-K 64 x 128 1.12x as long
  // (60 tiles).
  const DeviceSpec dev = H200Spec();
  struct Case {
    int64_t m, n, k;
    int old_tile_m, dp_tile_m;
  };
  for (const Case& c : {Case{744, 616, 2072, 128, 64}, Case{248, 4032, 2584, 128, 128},
                        Case{272, 1520, 2120, 64, 64}}) {
    const Problem q = MisalignedShape(c.m, c.n, c.k);
    PlanExplanation why;
    const absl::StatusOr<Plan> p = MakePlan(q, dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->mode, Mode::kDataParallel) << FormatPlan(*p, &why);
    EXPECT_EQ(p->tile_m, c.dp_tile_m) << *p;
    EXPECT_FALSE(p->repack_a || p->repack_b || p->cluster_m > 1) << *p;
    ASSERT_NO_FATAL_FAILURE(ExpectDataParallelsPick(q, dev, *p, &why));
    EXPECT_NE(why.reason.find("splitk pick on " + std::to_string(c.old_tile_m) + "x128"),
              std::string::npos)
        << why.reason;
    EXPECT_EQ(why.rows_options.front().name, "rows as they are");
    EXPECT_FALSE(why.rows_options.front().chosen);
    EXPECT_EQ(why.rows_options.front().plan.rfind("splitk", 0), 0u);
    EXPECT_DOUBLE_EQ(why.predicted_us, why.rows_options.back().estimated_us);
    // With the tile forced, auto's pick on it stands.
    PlanOptions tile;
    tile.tile = TileShape{c.old_tile_m, 128, 64};
    EXPECT_EQ(MustPlan(q, dev, tile).mode, Mode::kSplitK);
  }
  // The split stands outside the band: 416 x 336 x 2344 (data-parallel on 21 tiles; split-K
  // 128 x 128 ran 1.15x as fast), 1640 x 1176 x 6920 (130 tiles; split-K 128 x 256 1.17x),
  // 624 x 2176 x 5480 (85 tiles of 128 x 128; split-K 128 x 256 1.14x); and where predicted 1.25x
  // as fast or more: 616 x 472 x 2536 (40 tiles; predicted 1.28x, ran 1.13x), 1176 x 152 x 2968 (38
  // tiles; 1.38x, ran 1.14x).
  for (const Problem& q : {MisalignedShape(416, 336, 2344), MisalignedShape(1640, 1176, 6920),
                           MisalignedShape(624, 2176, 5480), MisalignedShape(616, 472, 2536),
                           MisalignedShape(1176, 152, 2968)}) {
    PlanExplanation why;
    const absl::StatusOr<Plan> p = MakePlan(q, dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->mode, Mode::kSplitK) << q.m << "x" << q.n << "x" << q.k << "\n"
                                      << FormatPlan(*p, &why);
    EXPECT_EQ(why.reason.find("data-parallel's pick on the rows"), std::string::npos);
  }
}

TEST(PlannerSplitYield, SmallTileSplitsYieldWhereDataParallelFillsAQuarterOfARound) {
  // Aligned K-major rows whose auto pick split or streamed every tile on 64 x 128 over more blocks
  // than tiles, not predicted 1.3x as fast as data-parallel on 60-80 of them: auto runs
  // data-parallel's very plan (measured on an H200; planner M x N x K, data-parallel's speed over
  // the split or streamed pick's, fp16 / bf16): 1024 x 640 x 8032 Stream-K 0.79 / 0.76,
  // 928 x 640 x 7296 Stream-K 0.76 / 0.78, 152 x 3080 x 7632 Stream-K 0.95 / 0.83,
  // 776 x 560 x 4064 split-K 0.82 / 0.82, 144 x 2544 x 4240 split-K 0.94 / 0.91.
  const DeviceSpec dev = H200Spec();
  struct Case {
    int64_t m, n, k;
    Mode old_mode;
  };
  for (const Case& c : {Case{1024, 640, 8032, Mode::kStreamK}, Case{928, 640, 7296, Mode::kStreamK},
                        Case{152, 3080, 7632, Mode::kStreamK}, Case{776, 560, 4064, Mode::kSplitK},
                        Case{144, 2544, 4240, Mode::kSplitK}}) {
    const Plan p = ExpectSplitYielded(PackedShape(c.m, c.n, c.k), dev, c.old_mode,
                                      dev.TileOf(KernelRole::kSmall));
    EXPECT_EQ(p.tile_m, 64) << p;
  }
  // The split stands where predicted 1.3x as fast or more: 648 x 424 x 7632 (44 tiles, predicted
  // 1.45x, ran 1.16x), 304 x 976 x 7504 (40 tiles, 1.43x, ran 1.17x); below a quarter of a round:
  // 192 x 352 x 6072 (9 tiles, ran 2.4x); on 128 x 128 tiles: 872 x 360 x 6768 (split-K over 21
  // tiles against data-parallel on 42 of 64 x 128, ran 1.41x); and with M-major A (layout nn, not
  // measured so), 1024 x 640 x 8032 keeps its split or streamed pick.
  Problem nn = PackedShape(1024, 640, 8032);
  nn.a.major = Major::kMN;
  // Rows on 128-byte lines (K a multiple of 64, packed) keep a split predicted 1.2x as fast or
  // more (CostModel::split_yield_gain_on_lines): 216 x 1872 x 6976 split-K, predicted 1.26x, ran
  // 1.15x. Off lines the same prediction moves (below): 136 x 2496 x 7072 split-K, predicted
  // 1.26x, ran 0.94-0.95x as fast as data-parallel; on lines it would stay.
  const Problem on_lines = Shape(136, 2496, 7072);  // Shape: rows on lines
  for (const Problem& q :
       {PackedShape(648, 424, 7632), PackedShape(304, 976, 7504), PackedShape(192, 352, 6072),
        PackedShape(872, 360, 6768), nn, PackedShape(216, 1872, 6976), on_lines}) {
    PlanExplanation why;
    const absl::StatusOr<Plan> p = MakePlan(q, dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_GT(p->sk_blocks, 0) << q.m << "x" << q.n << "x" << q.k << "\n" << FormatPlan(*p, &why);
    EXPECT_EQ(why.reason.find("data-parallel's pick ("), std::string::npos) << why.reason;
  }
  ExpectSplitYielded(PackedShape(136, 2496, 7072), dev, Mode::kSplitK,
                     dev.TileOf(KernelRole::kSmall));
  // The margins are the tile's measured constants: without them the pick stands.
  DeviceSpec unmeasured = dev;
  unmeasured.Find(KernelRole::kSmall)->cost.split_yield_gain =
      unmeasured.Find(KernelRole::kSmall)->cost.split_yield_gain_on_lines = 0;
  EXPECT_EQ(MustPlan(PackedShape(1024, 640, 8032), unmeasured).mode, Mode::kStreamK);
}

TEST(PlannerSplitYield, StreamKOn128x128OverMoreThanARoundYieldsToDataParallelsPick) {
  // Aligned rows (off 128-byte lines) streamed on 128 x 128 over more tiles than SMs, predicted
  // under 1.11x as fast as data-parallel's pick: auto runs that pick (measured on an H200;
  // data-parallel's speed over the Stream-K pick's): 2176 x 1352 x 6736 every tile Stream-K, 0.81
  // (its pick 128 x 256); 5256 x 880 x 7632 the hybrid, 0.75 (128 x 320); 2168 x 2400 x 7584 the
  // hybrid, 0.88 (128 x 192).
  const DeviceSpec dev = H200Spec();
  struct Case {
    int64_t m, n, k;
    int dp_tile_n;
  };
  for (const Case& c : {Case{2176, 1352, 6736, 256}, Case{5256, 880, 7632, 320},
                        Case{2168, 2400, 7584, 192}}) {
    const Plan p = ExpectSplitYielded(PackedShape(c.m, c.n, c.k), dev, Mode::kStreamK,
                                      dev.TileOf(KernelRole::kAlt));
    EXPECT_EQ(p.tile_n, c.dp_tile_n) << p;
  }
  // Predicted 1.11x or more it stands: 4256 x 624 x 6208 (1.18x, ran 1.06x). In four rows of
  // tiles or fewer the few rows' rule holds (kMaxFewRowsOfTiles): 280 x 5696 x 7264 (ran 1.10x).
  for (const Problem& q : {PackedShape(4256, 624, 6208), PackedShape(280, 5696, 7264)}) {
    const Plan p = MustPlan(q, dev);
    EXPECT_EQ(p.mode, Mode::kStreamK) << p;
    EXPECT_EQ(p.tile_n, 128) << p;
  }
  // The margin is the tile's measured constant: without it the pick stands.
  DeviceSpec unmeasured = dev;
  unmeasured.Find(KernelRole::kAlt)->cost.many_tiles_streamk_gain = 0;
  EXPECT_EQ(MustPlan(PackedShape(2176, 1352, 6736), unmeasured).mode, Mode::kStreamK);
}

TEST(PlannerSplitYield, StreamKOn128x256OverOneToTwoRoundsYieldsToDataParallelsPick) {
  // Every tile streamed on 128 x 256 over more tiles than SMs, predicted under 1.03x as fast as
  // data-parallel's pick: auto runs that pick (measured on an H200; data-parallel's speed over the
  // Stream-K pick's, fp16 / bf16): 1784 x 2960 x 7216, 0.90 / 0.87
  // (its pick 128 x 192); 1536 x 3304 x 7664, 0.93 / 0.92 (128 x 320); 1080 x 6288 x 5616,
  // 0.93 / 0.91 (128 x 256, predicted 1.026x). And the one-tile hybrid behind one round of
  // data-parallel tiles, whatever predicted: 2176 x 3240 x 5424 (predicted 1.03x), 0.91 / 0.88;
  // 5440 x 1280 x 4848 (1.04x), 0.91 / 0.89.
  const DeviceSpec dev = H200Spec();
  struct Case {
    int64_t m, n, k;
    int dp_tile_n;
  };
  for (const Case& c : {Case{1784, 2960, 7216, 192}, Case{1536, 3304, 7664, 320},
                        Case{1080, 6288, 5616, 256}, Case{2176, 3240, 5424, 256},
                        Case{5440, 1280, 4848, 256}}) {
    const Plan p =
        ExpectSplitYielded(PackedShape(c.m, c.n, c.k), dev, Mode::kStreamK, dev.main().tile);
    EXPECT_EQ(p.tile_n, c.dp_tile_n) << p;
  }
  // Misaligned rows, every tile streamed, predicted under 1.03x as fast by the per-iteration
  // terms: 896 x 5056 x 3704 ran 0.85x as fast as data-parallel on 128 x 320, which auto runs.
  PlanExplanation why;
  const Problem mis = MisalignedShape(896, 5056, 3704);
  const absl::StatusOr<Plan> m = MakePlan(mis, dev, {}, &why);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->mode, Mode::kDataParallel) << FormatPlan(*m, &why);
  EXPECT_EQ(m->tile_n, 320) << *m;
  ASSERT_NO_FATAL_FAILURE(ExpectDataParallelsPick(mis, dev, *m, &why));
  // Predicted 1.03x or more, every tile Stream-K stands: 6392 x 736 x 6528 (1.042x, ran 1.07x),
  // 4464 x 968 x 3360 (1.12x, ran 1.10x); misaligned, 2112 x 2368 x 2024 (1.088x, ran 1.05x). The
  // hybrids behind two rounds or more (1568 x 6624 x 5584, ran 1.02x), or on misaligned rows
  // (832 x 7144 x 7528, ran 1.22x), stand.
  for (const Problem& q : {PackedShape(6392, 736, 6528), PackedShape(4464, 968, 3360),
                           MisalignedShape(2112, 2368, 2024), PackedShape(1568, 6624, 5584),
                           MisalignedShape(832, 7144, 7528)}) {
    PlanExplanation kept;
    const absl::StatusOr<Plan> p = MakePlan(q, dev, {}, &kept);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->mode, Mode::kStreamK) << q.m << "x" << q.n << "x" << q.k << "\n"
                                       << FormatPlan(*p, &kept);
    EXPECT_EQ(p->tile_n, 256) << *p;
  }
  // The margins are the tile's measured constants: without them the picks stand.
  DeviceSpec unmeasured = dev;
  unmeasured.main().cost.every_tile_streamk_gain =
      unmeasured.main().cost.one_round_tail_streamk_gain = 0;
  for (const Problem& q : {PackedShape(1784, 2960, 7216), PackedShape(2176, 3240, 5424), mis})
    EXPECT_EQ(MustPlan(q, unmeasured).mode, Mode::kStreamK) << q.m << "x" << q.n << "x" << q.k;
}

TEST(PlannerClusters, LoadBoundIsALittleOverTheLongerTermWhereTheyTie) {
  EXPECT_DOUBLE_EQ(LoadBoundMicros(50, 50), 50 * std::pow(2.0, 1.0 / 8));  // +9%
  EXPECT_DOUBLE_EQ(LoadBoundMicros(30, 50), LoadBoundMicros(50, 30));
  EXPECT_GT(LoadBoundMicros(45, 50), 50 * 1.04);
  EXPECT_LT(LoadBoundMicros(25, 50), 50 * 1.001);  // half as long: the longer, nearly
  EXPECT_DOUBLE_EQ(LoadBoundMicros(50, 0), 50);     // no floor (a model without L2 rates)
  EXPECT_DOUBLE_EQ(LoadBoundMicros(0, 0), 0);
}

TEST(PlannerRepack, SmallShapesAndAlignedRowsAreNotCopied) {
  const DeviceSpec dev = H200Spec();
  // A copy of a small operand costs about as much as the misaligned loads it saves.
  Problem small = Shape(424, 360, 3608);
  small.a.row_align = kVectorBytes;
  small.b.row_align = kVectorBytes;
  const Plan p = MustPlan(small, dev);
  EXPECT_FALSE(p.repack_a || p.repack_b) << p;
  // Forced: every misaligned operand, however small.
  PlanOptions on;
  on.repack = RepackOperands::kAll;
  const Plan forced = MustPlan(small, dev, on);
  EXPECT_TRUE(forced.repack_a && forced.repack_b) << forced;
  Problem only_b = small;
  only_b.a = only_b.a.RowsAligned();
  const Plan b = MustPlan(only_b, dev, on);
  EXPECT_FALSE(b.repack_a);
  EXPECT_TRUE(b.repack_b);
  EXPECT_EQ(b.repack_a_offset, 0);
  // Aligned rows: nothing to copy, forced or not.
  const Plan aligned = MustPlan(Shape(4096, 4096, 4096), dev, on);
  EXPECT_FALSE(aligned.repack_a || aligned.repack_b) << aligned;
  // A device model with no memory rate never predicts a copy pays (but a forced one is made).
  Problem big = Shape(4096, 4096, 4104);
  big.a.row_align = kVectorBytes;
  big.b.row_align = kVectorBytes;
  DeviceSpec no_rate = dev;
  no_rate.main().cost.repack_bytes_per_us =
      no_rate.Find(KernelRole::kAlt)->cost.repack_bytes_per_us = 0;
  const Plan none = MustPlan(big, no_rate);
  EXPECT_FALSE(none.repack_a || none.repack_b) << none;
  EXPECT_TRUE(MustPlan(big, no_rate, on).repack_a);
}

TEST(PlannerRepack, CopiesOfABatchAreCountedPerEntry) {
  const DeviceSpec dev = H200Spec();
  Problem q = Shape(1000, 3000, 1000, 3);
  q.a.row_align = kVectorBytes;
  q.b.row_align = kVectorBytes;
  PlanOptions on;
  on.repack = RepackOperands::kAll;
  const Plan p = MustPlan(q, dev, on);
  ASSERT_TRUE(p.repack_a && p.repack_b);
  EXPECT_EQ(p.repack_ld, 1024);
  EXPECT_EQ(RepackedBytes(p, 'a'), 3 * 1000 * 1024 * 2);
  EXPECT_EQ(RepackedBytes(p, 'b'), 3 * 3000 * 1024 * 2);
  EXPECT_DOUBLE_EQ(RepackMicros(q, true, false, dev.main().cost),
                   dev.main().cost.repack_us +
                       3 * 1000 * (1000 + 1024) * 2.0 / dev.main().cost.repack_bytes_per_us);
  EXPECT_EQ(RepackMicros(q, false, false, dev.main().cost), 0);
}

// Operands the kernel cannot load as they are (OperandLayout::unaligned: K not a multiple of 8
// elements, say) are copied whatever the mode and the repack option, and the copies are priced.
TEST(PlannerRepack, UnalignedOperandsAreAlwaysCopied) {
  const DeviceSpec dev = H200Spec();
  Problem q = Shape(4096, 4096, 4097);
  q.a.row_align = kVectorBytes / 2;
  q.b.row_align = kVectorBytes / 2;
  PlanOptions off;
  off.repack = RepackOperands::kNone;
  PlanOptions dp, streamk;
  dp.mode = Mode::kDataParallel;
  streamk.mode = Mode::kStreamK;
  for (const PlanOptions& o : {PlanOptions{}, off, dp, streamk}) {
    PlanExplanation why;
    const absl::StatusOr<Plan> p = MakePlan(q, dev, o, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_TRUE(p->repack_a && p->repack_b) << *p;
    EXPECT_TRUE(p->a_unaligned && p->b_unaligned) << *p;
    EXPECT_FALSE(p->a.rows_misaligned() || p->b.rows_misaligned()) << *p;  // the copies' rows
    EXPECT_EQ(p->repack_ld, 4160);
    // The copies follow the flags and partials and end the workspace.
    EXPECT_GE(p->repack_a_offset, std::max(Plan::kMinFlagsBytes,
                                           p->partials_offset + p->partials_bytes));
    EXPECT_GE(p->repack_b_offset, p->repack_a_offset + RepackedBytes(*p, 'a'));
    EXPECT_EQ(p->workspace_bytes, p->repack_b_offset + RepackedBytes(*p, 'b'));
    EXPECT_EQ(p->repack_a_offset % Plan::kWorkspaceAlignment, 0);
    EXPECT_EQ(p->repack_b_offset % Plan::kWorkspaceAlignment, 0);
    // Priced: the prediction holds the copies, and the reason says why they are made.
    EXPECT_DOUBLE_EQ(why.repack_us, RepackMicros(q, true, true, dev.main().cost));
    EXPECT_GT(why.predicted_us, why.repack_us);
    EXPECT_NE(why.reason.find("A and B cannot be loaded as they are"), std::string::npos)
        << why.reason;
  }
  EXPECT_EQ(MustPlan(q, dev, streamk).mode, Mode::kStreamK);
  // One unaligned operand beside one with misaligned rows: auto treats the other as it would
  // beside A's aligned copy (copied, or here on clusters).
  Problem mixed = Shape(8192, 8192, 8200);
  mixed.a.row_align = kVectorBytes / 2;
  mixed.b.row_align = kVectorBytes;
  Problem a_copied = mixed;
  a_copied.a.row_align = kLineRowBytes;
  const Plan both = MustPlan(mixed, dev), without = MustPlan(a_copied, dev);
  EXPECT_TRUE(both.repack_a && both.a_unaligned) << both;
  EXPECT_FALSE(both.b_unaligned);
  EXPECT_EQ(both.repack_b, without.repack_b) << both << "\n" << without;
  EXPECT_EQ(both.cluster_m, without.cluster_m) << both << "\n" << without;
  EXPECT_EQ(both.mode, without.mode);
  EXPECT_EQ(both.workspace_bytes,
            (both.repack_b ? both.repack_b_offset + RepackedBytes(both, 'b')
                           : both.repack_a_offset + RepackedBytes(both, 'a')));
  // Where auto copies the other one too, both copies are laid out once.
  Problem more = Shape(8192, 8192, 8200);
  more.a.row_align = kVectorBytes / 2;
  more.b.row_align = kVectorBytes;
  PlanOptions tile;
  tile.tile = dev.main().tile;  // no clusters
  const Plan copies = MustPlan(more, dev, tile);
  ASSERT_TRUE(copies.repack_a && copies.repack_b) << copies;
  EXPECT_EQ(copies.repack_b_offset, copies.repack_a_offset + RepackedBytes(copies, 'a'));
  EXPECT_EQ(copies.workspace_bytes, copies.repack_b_offset + RepackedBytes(copies, 'b'));
  const Plan b_kept = MustPlan(mixed, dev, off);  // forced off: only the unaligned one
  EXPECT_TRUE(b_kept.repack_a);
  EXPECT_FALSE(b_kept.repack_b);
  EXPECT_TRUE(b_kept.b.rows_misaligned());
  // Small shapes too, however little the kernel takes.
  Problem small = Shape(100, 200, 37);
  small.b.row_align = kVectorBytes / 2;
  const Plan s = MustPlan(small, dev);
  EXPECT_FALSE(s.repack_a);
  EXPECT_TRUE(s.repack_b);
  EXPECT_EQ(s.repack_ld, 64);
  EXPECT_EQ(s.repack_b_offset, Plan::kMinFlagsBytes);
}

TEST(PlannerBehaviour, MisalignedOperandRowsMakeIterationsSlower) {
  // The TMA unit loads K-major rows that start at odd multiples of 16 bytes at about half speed
  // (measured on an H200, tn, data-parallel: 360 x 424 x 3608 41.6 us, with K = 3616 27.9 us;
  // split-K ran the misaligned shape in 23.3 us). The model charges it per misaligned operand.
  const DeviceSpec dev = H200Spec();
  PlanOptions dp;
  dp.mode = Mode::kDataParallel;
  const Plan aligned = MustPlan(Shape(424, 360, 3608), dev, dp);
  const CostModel& cost = KernelCost(dev, aligned);
  ASSERT_GT(cost.misaligned_load, 0.0);
  Plan only_a = aligned, both = aligned;
  only_a.a.row_align = kVectorBytes;
  both.a.row_align = kVectorBytes;
  both.b.row_align = kVectorBytes;
  const double t = PredictMicros(aligned, cost);
  EXPECT_GT(PredictMicros(only_a, cost), 1.2 * t);
  EXPECT_GT(PredictMicros(both, cost), 1.5 * PredictMicros(only_a, cost) - 0.5 * t);
  EXPECT_GT(PredictMicros(both, cost), 1.6 * t);
  // Auto splits K on this deep, 12-tile shape either way (64-deep iterations, measured on an H200:
  // split-K 18.7 us against 27.1 data-parallel with the rows misaligned, 17.0 against 21.7 with
  // K = 3616), because the per-iteration terms price the misaligned candidates slower.
  Problem misaligned = Shape(424, 360, 3608);
  misaligned.a.row_align = kVectorBytes;
  misaligned.b.row_align = kVectorBytes;
  PlanExplanation why_aligned, why_misaligned;
  const absl::StatusOr<Plan> p = MakePlan(misaligned, dev, {}, &why_misaligned);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_NE(p->mode, Mode::kDataParallel) << *p;
  EXPECT_TRUE(p->a.rows_misaligned() && p->b.rows_misaligned());
  ASSERT_TRUE(MakePlan(Shape(424, 360, 3608), dev, {}, &why_aligned).ok());
  ASSERT_GE(why_misaligned.chosen, 0);
  EXPECT_GT(why_misaligned.candidates[why_misaligned.chosen].predicted_us,
            1.2 * why_aligned.predicted_us);
}

// Misaligned rows: the explanation lists every way the planner weighed (the rows as they are,
// copies, clusters), each with the estimate it compared, and the plan's prediction is the chosen
// way's estimate, not the candidates' per-iteration pricing. Measured on an H200 (bench
// 2560 x 864 x 1800, auto data-parallel on 128 x 256 tiles with the rows as they are): 23.5 us; the
// estimate reads 25.5, the candidate's per-iteration price 39.8. Over 167 misaligned shapes auto
// ran as they are, the estimate's mean error is 7% at 20 us or more and the per-iteration price's
// 47% (docs/planner.md).
TEST(PlannerBehaviour, MisalignedRowsExplainEveryWayWeighed) {
  const DeviceSpec dev = H200Spec();
  const Problem q = MisalignedShape(864, 2560, 1800);
  PlanExplanation why;
  const absl::StatusOr<Plan> p = MakePlan(q, dev, {}, &why);
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_TRUE(p->a.rows_misaligned() && p->b.rows_misaligned() && p->cluster_m == 1) << *p;
  EXPECT_FALSE(p->repack_a || p->repack_b) << *p;
  std::vector<std::string> names;
  for (const RowsOption& r : why.rows_options) names.push_back(r.name);
  EXPECT_EQ(names, (std::vector<std::string>{"rows as they are", "A and B repacked",
                                             "2-SM clusters", "A repacked", "B repacked"}))
      << FormatPlan(*p, &why);
  ASSERT_EQ(why.rows_options.size(), 5u);
  const RowsOption& kept = why.rows_options[0];
  EXPECT_TRUE(kept.chosen);
  EXPECT_EQ(kept.plan, absl::StrCat(ModeName(p->mode), " 128x256x64"));
  for (size_t i = 1; i < why.rows_options.size(); ++i) {
    const RowsOption& r = why.rows_options[i];
    EXPECT_FALSE(r.chosen) << r.name;
    // Not taken: none beat the rows as they are by kMinRepackGain (3%).
    EXPECT_GT(r.estimated_us, 0.97 * kept.estimated_us) << r.name;
    EXPECT_EQ(r.copies_us > 0, r.name != "2-SM clusters") << r.name;
  }
  EXPECT_EQ(why.rows_options[1].load_floor_us, 0);  // both copied: no misaligned loads left
  EXPECT_DOUBLE_EQ(why.rows_options[1].copies_us, RepackMicros(q, true, true, dev.main().cost));
  // The estimate, and the prediction: the aligned prediction against the L2's time.
  Plan as_aligned = *p;
  as_aligned.a = as_aligned.a.RowsAligned();
  as_aligned.b = as_aligned.b.RowsAligned();
  const CostModel& cost = KernelCost(dev, *p);
  EXPECT_DOUBLE_EQ(kept.load_floor_us, LoadFloorMicros(*p, true, true, cost));
  EXPECT_DOUBLE_EQ(kept.estimated_us,
                   LoadBoundMicros(PredictMicros(as_aligned, cost), kept.load_floor_us));
  EXPECT_DOUBLE_EQ(why.predicted_us, kept.estimated_us);
  EXPECT_NEAR(why.predicted_us / 23.5, 1.0, 0.15);
  ASSERT_GE(why.chosen, 0);
  EXPECT_GT(why.candidates[why.chosen].predicted_us / 23.5, 1.4);
  EXPECT_NE(why.reason.find("rows as they are estimated"), std::string::npos) << why.reason;

  // A forced mode runs the rows as they are: the one way, its estimate the prediction.
  PlanOptions dp;
  dp.mode = Mode::kDataParallel;
  PlanExplanation forced;
  const absl::StatusOr<Plan> f = MakePlan(q, dev, dp, &forced);
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_EQ(forced.rows_options.size(), 1u);
  EXPECT_TRUE(forced.rows_options[0].chosen);
  EXPECT_EQ(forced.rows_options[0].name, "rows as they are");
  EXPECT_DOUBLE_EQ(forced.predicted_us, forced.rows_options[0].estimated_us);

  // Aligned rows weigh none of this.
  PlanExplanation aligned;
  ASSERT_TRUE(MakePlan(Shape(864, 2560, 1792), dev, {}, &aligned).ok());
  EXPECT_TRUE(aligned.rows_options.empty());
}

// The 128 x 128 configuration's ping-pong variant (kernels::PingPongOf: data-parallel, two or
// more tiles a block, 8-24 k-iterations, D stored by TMA) hides each tile's epilogue
// but a block's last under the next tile's mainloop, whose iterations cost a little more (one
// warp group issues them): CostModel::pingpong_hidden_us, pingpong_iter_loss.
TEST(PlannerBehaviour, PingPongHidesEveryEpilogueButEachBlocksLast) {
  const DeviceSpec dev = H200Spec();
  PlanOptions dp;
  dp.mode = Mode::kDataParallel;
  dp.tile = {128, 128, 64};
  // 792 tiles on 132 blocks: six a block, 16 k-iterations each, every SM busy.
  const Plan p = MustPlan(Shape(4224, 3072, 1024), dev, dp);
  ASSERT_EQ(p.tiles, 6 * p.grid_blocks);
  ASSERT_EQ(p.grid_blocks, 132);
  ASSERT_TRUE(p.d_tma_store);
  const CostModel& cost = KernelCost(dev, p);
  ASSERT_GT(cost.pingpong_hidden_us, 0.0);
  CostModel shared = cost;
  shared.pingpong_hidden_us = shared.pingpong_iter_loss = 0;
  // Five of each block's six epilogues hidden; 96 iterations of a 64-deep tile (twice the model's
  // 32-deep one) at the busy rate, each pingpong_iter_loss dearer.
  const double iters = 6.0 * 16 * 2 * cost.iter_busy_us;
  EXPECT_NEAR(PredictMicros(p, shared) - PredictMicros(p, cost),
              5 * cost.pingpong_hidden_us - iters * cost.pingpong_iter_loss, 1e-9);
  // A D the TMA unit cannot store runs the shared tiles, and is priced so.
  Plan rows = p;
  rows.d_tma_store = false;
  EXPECT_EQ(PredictMicros(rows, cost), PredictMicros(rows, shared));
  Problem unaligned = Shape(4224, 3072, 1024);
  unaligned.d_tma_store = false;
  EXPECT_FALSE(MustPlan(unaligned, dev, dp).d_tma_store);
  // Plans the launch runs on the shared tiles: under two tiles a block, shallow or deep tiles,
  // rows off 128-byte lines, Stream-K.
  Problem off_lines = Shape(4224, 3072, 1008);
  off_lines.a.row_align = kFastRowBytes;
  for (const Problem& pr : {Shape(2048, 2048, 1024), Shape(3616, 2776, 240),
                            Shape(4224, 3072, 2048), off_lines}) {
    const Plan q = MustPlan(pr, dev, dp);
    EXPECT_FALSE(kernels::PingPongOf(q, true)) << q;
    EXPECT_EQ(PredictMicros(q, cost), PredictMicros(q, shared)) << q;
  }
  PlanOptions sk = dp;
  sk.mode = Mode::kStreamK;
  const Plan s = MustPlan(Shape(4224, 3072, 1024), dev, sk);
  EXPECT_EQ(PredictMicros(s, cost), PredictMicros(s, shared)) << s;
  // An operand the launch copies (unaligned: always) is loaded from rows on 128-byte lines.
  Problem copied = Shape(4224, 3072, 1024);
  copied.a.row_align = kVectorBytes / 2;
  const Plan c = MustPlan(copied, dev, dp);
  EXPECT_TRUE(c.repack_a && c.a.rows_on_lines()) << c;
  EXPECT_TRUE(kernels::PingPongOf(c, true)) << c;
  EXPECT_LT(PredictMicros(c, cost), PredictMicros(c, shared)) << c;
  // Only the 128 x 128 configuration has the variant.
  for (const KernelConfig& c : dev.kernels)
    EXPECT_EQ(c.cost.pingpong_hidden_us > 0, c.role == KernelRole::kAlt) << KernelRoleName(c.role);
}

// Priced (above), ping-pong takes shapes to 128 x 128 tiles from the 128 x 192 and 128 x 256 ones
// (measured on an H200, fp16 and bf16, as streamk-bench runs them: tn, so the kernel's m is the
// call's n): 5888 x 2944 x 1024 ran 1.04-1.05x as fast as on 128 x 192 tiles, 4864 x 3584 x 1024
// 1.035x, 5520 x 4912 x 768 1.03-1.04x as on 128 x 256. The same shapes on rows off 128-byte lines
// run the shared tiles, priced so, and keep their tiles.
TEST(PlannerBehaviour, AutoRunsPingPongWhereItBeatsTheWiderTiles) {
  const DeviceSpec dev = H200Spec();
  for (const Problem& shape :
       {Shape(2944, 5888, 1024), Shape(3584, 4864, 1024), Shape(4912, 5520, 768)}) {
    PlanExplanation why;
    const absl::StatusOr<Plan> p = MakePlan(shape, dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->mode, Mode::kDataParallel) << *p;
    EXPECT_EQ(TileShape({p->tile_m, p->tile_n, p->tile_k}), TileShape({128, 128, 64})) << *p;
    EXPECT_TRUE(kernels::PingPongOf(*p, true)) << *p;
    ASSERT_FALSE(why.candidates.empty());
    EXPECT_EQ(why.candidates[0].note, "one block per tile; ping-pong") << *p;
    Problem off = shape;
    off.a.row_align = kFastRowBytes;
    const absl::StatusOr<Plan> q = MakePlan(off, dev);
    ASSERT_TRUE(q.ok()) << q.status();
    EXPECT_NE(q->tile_n, 128) << *q;
  }
}

// Where D outgrows the L2, ping-pong's iterations cost up to CostModel::pingpong_stream_gain less
// (none up to pingpong_stream_bytes of D, all of it from twice that), and auto takes such shapes
// from 128 x 256 tiles: on an H200 (tn, so the kernel's m is the call's n) 8192 x 8192 x 768 ran
// 1.05-1.06x and GPT-2's logits at 4096 tokens (4096 x 50304 x 768) 1.075-1.08x as fast on
// ping-pong 128 x 128 tiles as on 128 x 256 ones, which the other terms priced 2-3% slower. GPT-2's
// logits at 512 tokens (51 MB of D) ran 4% slower so and keep their tiles.
TEST(PlannerBehaviour, PingPongGainsMoreWhereDOutgrowsTheL2) {
  const DeviceSpec dev = H200Spec();
  const CostModel& cost = dev.Find(KernelRole::kAlt)->cost;
  ASSERT_GT(cost.pingpong_stream_gain, 0.0);
  EXPECT_NEAR(cost.pingpong_stream_bytes, dev.l2_bytes, 1.0);
  PlanOptions dp;
  dp.mode = Mode::kDataParallel;
  dp.tile = {128, 128, 64};
  // 4224 tiles on 132 blocks: 32 a block, 12 k-iterations each, every SM busy; 138 MB of D.
  const Plan p = MustPlan(Shape(8448, 8192, 768), dev, dp);
  ASSERT_EQ(p.tiles, 32 * p.grid_blocks);
  ASSERT_EQ(p.grid_blocks, 132);
  ASSERT_TRUE(kernels::PingPongOf(p, p.d_tma_store)) << p;
  EXPECT_EQ(PingPongStreamShare(p, cost), 1.0);
  CostModel near = cost;
  near.pingpong_stream_gain = 0;
  // 384 iterations of a 64-deep tile (twice the model's 32-deep one) at the busy rate.
  EXPECT_NEAR(PredictMicros(p, near) - PredictMicros(p, cost),
              32 * 12 * 2 * cost.iter_busy_us * cost.pingpong_stream_gain, 1e-9);
  // The share rises linearly from pingpong_stream_bytes of D to twice that.
  Plan q = p;
  const double rows = cost.pingpong_stream_bytes / (2.0 * q.n);
  for (double share : {0.0, 0.25, 0.5, 1.0}) {
    q.m = static_cast<int>((1 + share) * rows);
    EXPECT_NEAR(PingPongStreamShare(q, cost), share, 1e-4) << q.m;
  }
  q.m = static_cast<int>(0.5 * rows);
  EXPECT_EQ(PingPongStreamShare(q, cost), 0.0);
  // Auto's picks: the large D's on ping-pong, the logits at 512 tokens on 128 x 256 tiles; without
  // the term, the large ones on 128 x 256 tiles too.
  DeviceSpec without = dev;
  without.Find(KernelRole::kAlt)->cost.pingpong_stream_gain = 0;
  for (const Problem& shape : {Shape(8192, 8192, 768), Shape(50304, 4096, 768)}) {
    const Plan a = MustPlan(shape, dev);
    EXPECT_EQ(a.mode, Mode::kDataParallel) << a;
    EXPECT_EQ(TileShape({a.tile_m, a.tile_n, a.tile_k}), TileShape({128, 128, 64})) << a;
    EXPECT_TRUE(kernels::PingPongOf(a, a.d_tma_store)) << a;
    EXPECT_EQ(MustPlan(shape, without).tile_n, 256) << shape.m << "x" << shape.n;
  }
  EXPECT_EQ(MustPlan(Shape(50304, 512, 768), dev).tile_n, 256);
}

TEST(PlannerBehaviour, MisalignedRowsKeepAFastPartialRoundDataParallel) {
  // With K an odd multiple of 8 (tn: both operands' rows start at odd multiples of 16 bytes) a
  // data-parallel plan's partial round runs much faster than a busy one, so Stream-K gains less
  // than on aligned rows. Measured on an H200 (time(dp) / time(plan)): all 204 tiles of
  // 4144 x 1488 x 5208 Stream-K over 132 blocks 0.95-0.96, 76 tiles of 4816 x 248 x 3496 over 131
  // blocks 0.96-0.98; priced with a single misaligned term, auto would pick both Stream-K plans
  // (streamk-bench's M x N x K; the kernel's problem is N x M x K, as in Shape below). These shapes
  // stay data-parallel...
  const DeviceSpec dev = H200Spec();
  for (const Problem& shape : {Shape(1488, 4144, 5208), Shape(248, 4816, 3496)}) {
    Problem misaligned = shape;
    misaligned.a.row_align = kVectorBytes;
    misaligned.b.row_align = kVectorBytes;
    const Plan p = MustPlan(misaligned, dev);
    EXPECT_EQ(p.mode, Mode::kDataParallel) << p;
  }
  // ... while the misaligned shapes where Stream-K measured 1.24-1.31x keep it: 159 tiles of
  // 696 x 6688 x 5096 and 168 of 952 x 5272 x 7464, all Stream-K over 132 blocks.
  for (const Problem& shape : {Shape(6688, 696, 5096), Shape(5272, 952, 7464)}) {
    Problem misaligned = shape;
    misaligned.a.row_align = kVectorBytes;
    misaligned.b.row_align = kVectorBytes;
    const Plan p = MustPlan(misaligned, dev);
    EXPECT_EQ(p.mode, Mode::kStreamK) << p;
    EXPECT_EQ(p.dp_tiles, 0) << p;
  }
  // The busy rate carries more of the penalty than the lone one on the 128 x 256 kernel.
  EXPECT_GT(dev.main().cost.misaligned_busy_load, dev.main().cost.misaligned_load);
}

TEST(PlannerBehaviour, PartialRoundBlockAfterAStreamKShareRunsBesideTheFullRound) {
  // 133 tiles of 128 x 256 x 8192, the partial wave's tile over 4 Stream-K blocks: each of those
  // blocks runs a quarter of its iterations, then a data-parallel tile while the other 128 blocks
  // still run theirs. That tile is in the last, partial round by work index, but it runs beside
  // the full round, at the full round's rate: the plan costs at least 1.25 tiles of busy
  // iterations.
  const DeviceSpec dev = H200Spec();
  PlanOptions o;
  o.mode = Mode::kStreamK;
  o.sk_tiles = kPartialWaveTiles;
  o.blocks = 4;
  o.reduction = Reduction::kDeterministic;
  o.tile = dev.main().tile;
  const Plan p = MustPlan(Shape(2432, 1792, 8192), dev, o);
  ASSERT_EQ(p.sk_blocks, 4);
  ASSERT_EQ(p.dp_tiles, 132);
  const double volume = 1.0 * p.tile_m * p.tile_n * p.tile_k / (128.0 * 128.0 * 32.0);
  const double busy_iteration = dev.main().cost.iter_busy_us * volume;
  const int iters = p.iters_per_tile;
  EXPECT_GE(PredictMicros(p, dev.main().cost), (iters / 4 + iters) * busy_iteration) << p;
  // Data-parallel blocks alone in a last round still run at the lone rate: 133 tiles
  // data-parallel cost less than two full rounds.
  o = PlanOptions{};
  o.mode = Mode::kDataParallel;
  o.tile = dev.main().tile;
  const Plan dp = MustPlan(Shape(2432, 1792, 8192), dev, o);
  EXPECT_LT(PredictMicros(dp, dev.main().cost), 2 * iters * busy_iteration) << dp;
}

TEST(PlannerBehaviour, AForcedDecompositionOneTileCannotTakeRunsOnTheOther) {
  // 1536 x 1536 is 72 tiles of 128 x 256 and 144 of 128 x 128: 100 Stream-K tiles fit only the
  // smaller tile, 200 fit neither and the error is the main tile's rule.
  const DeviceSpec dev = H200Spec();
  PlanOptions o;
  o.mode = Mode::kStreamK;
  o.sk_tiles = 100;
  PlanExplanation why;
  const absl::StatusOr<Plan> p = MakePlan(Shape(1536, 1536, 4096), dev, o, &why);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->tile_n, dev.TileOf(KernelRole::kAlt).n) << *p;
  EXPECT_EQ(p->sk_tiles, 100) << *p;
  ASSERT_GE(why.chosen, 0);
  EXPECT_EQ(why.candidates[why.chosen].sk_tiles, 100);
  o.sk_tiles = 200;
  const absl::StatusOr<Plan> q = MakePlan(Shape(1536, 1536, 4096), dev, o);
  ASSERT_FALSE(q.ok());
  EXPECT_NE(q.status().message().find("more than the problem's 72 tiles"), std::string::npos)
      << q.status();
}

// A data-parallel plan's prediction, without the memory's floor, is the fixed cost plus the most
// loaded block's work, walked here block by block and tile by tile as the model defines it: a
// tile in a full round at the full round's rate, one in the partial round at its rate, plus, for
// a block whose partial-round tile starts while the full round still runs, that overlap at the
// full round's rate (Predict prices the commonest plans in closed form; this walks every block).
TEST(PlannerModel, DataParallelPredictionIsTheMostLoadedBlocksWork) {
  std::mt19937_64 rng(20261207);
  std::uniform_real_distribution<double> log_size(0.0, std::log(20000.0));
  auto size = [&] { return std::max<int64_t>(1, static_cast<int64_t>(std::exp(log_size(rng)))); };
  int walked = 0;
  for (const DeviceSpec& device : {H200Spec(), H100Spec(), H200CpAsyncSpec()}) {
    for (int i = 0; i < 1500; ++i) {
      Problem problem;
      problem.m = size(), problem.n = size(), problem.k = size();
      PlanOptions o;
      o.mode = Mode::kDataParallel;
      o.schedule = Schedule::kStatic;
      if (rng() % 2) o.avail_sms = 1 + static_cast<int>(rng() % device.sms);
      absl::StatusOr<Plan> plan = MakePlan(problem, device, o);
      ASSERT_TRUE(plan.ok()) << plan.status();
      const Plan& p = *plan;
      if (p.dp_first_wave_tiles > 1) continue;  // several tiles a block: another role
      CostModel cost = KernelCost(device, p);
      cost.hbm_bytes_per_us = 0;  // no memory floor: the blocks' schedule alone
      const CostTerms t = ScaleCosts(p, cost);
      const int grid = p.grid_blocks;
      const int full_end = p.work_blocks / grid * grid, tail = p.work_blocks - full_end;
      const double full_iter = RoundIter(t, grid, p.avail_sms);
      const double tail_iter = grid > p.avail_sms && 2 * tail > p.avail_sms
                                   ? t.iter_shared
                                   : RoundIter(t, std::min(tail, p.avail_sms), p.avail_sms);
      const double tile_fixed = t.epilogue + t.unit - t.hidden;
      std::vector<double> full(grid, 0.0), load(grid, 0.0);
      for (int w = 0; w < p.work_blocks; ++w) {
        const double tile = p.iters_per_tile * (w < full_end ? full_iter : tail_iter) + tile_fixed;
        load[w % grid] += tile;
        if (w < full_end) full[w % grid] += tile;
      }
      double busy_until = 0;
      for (int r = tail; r < grid; ++r) busy_until = std::max(busy_until, load[r]);
      double worst = 0;
      for (int r = 0; r < grid; ++r) {
        double l = load[r];
        if (r < tail && grid <= p.avail_sms && full_iter > tail_iter)
          l += std::clamp((busy_until - full[r] - tile_fixed) / full_iter, 0.0,
                          static_cast<double>(p.iters_per_tile)) *
               (full_iter - tail_iter);
        worst = std::max(worst, l);
      }
      const double expected = t.fixed + worst + t.hidden;
      ASSERT_NEAR(PredictMicros(p, cost), expected, 1e-9 * expected)
          << device.name << " " << problem.m << "x" << problem.n << "x" << problem.k
          << " avail_sms " << p.avail_sms << ": " << PlanSummary(p);
      ++walked;
    }
  }
  EXPECT_GT(walked, 4000);
}

TEST(PlannerBehaviour, AutoNeverPredictsWorseThanDataParallel) {
  for (int64_t m : {128, 640, 1000, 2048, 5000}) {
    for (int64_t n : {128, 896, 3000, 8192}) {
      for (int64_t k : {32, 256, 2048, 16384}) {
        PlanExplanation why;
        absl::StatusOr<Plan> p = MakePlan(Shape(m, n, k), H200Spec(), {}, &why);
        ASSERT_TRUE(p.ok()) << p.status();
        ASSERT_FALSE(why.candidates.empty());
        ASSERT_EQ(why.candidates[0].name, "dp");
        EXPECT_LE(why.predicted_us, why.candidates[0].predicted_us + 1e-9)
            << FormatPlan(*p, &why);
        EXPECT_GE(why.chosen, 0) << FormatPlan(*p, &why);
        EXPECT_FALSE(why.reason.empty());
        // Against data-parallel on either of the H200's two tiles: anything else only with the
        // planner's 8% predicted margin, or 2.5% on a full round or more of tiles 64 or more
        // iterations deep (against its own tile's data-parallel plan, the best of the two then).
        PlanOptions dp;
        dp.mode = Mode::kDataParallel;
        double best_dp = std::numeric_limits<double>::infinity();
        for (const TileShape& tile :
             {H200Spec().main().tile, H200Spec().TileOf(KernelRole::kAlt)}) {
          dp.tile = tile;
          const Plan d = MustPlan(Shape(m, n, k), H200Spec(), dp);
          best_dp = std::min(best_dp, PredictMicros(d, KernelCost(H200Spec(), d)));
        }
        EXPECT_LE(why.predicted_us, best_dp + 1e-9) << FormatPlan(*p, &why);
        const bool deep = p->iters_per_tile >= 64 && p->tiles >= p->avail_sms;
        if (p->sk_blocks > 0)
          EXPECT_LE(why.predicted_us, (deep ? 0.975 : 0.92) * best_dp + 1e-9) << *p;
        // Forced data-parallel may run the third tile; auto keeps a Stream-K plan predicted up to
        // 5% over that (such plans ran faster against it than predicted).
        dp.tile = kNoTile;
        const Plan d = MustPlan(Shape(m, n, k), H200Spec(), dp);
        EXPECT_LE(why.predicted_us, PredictMicros(d, KernelCost(H200Spec(), d)) / 0.95 + 1e-9)
            << FormatPlan(*p, &why);
      }
    }
  }
}

TEST(PlannerBehaviour, SeparateReductionOnlyWhenManyPeersAndSpareSlots) {
  PlanOptions o;
  o.mode = Mode::kStreamK;
  o.reduction = Reduction::kSeparate;
  const Plan p = MustPlan(Shape(256, 256, 8192), H200Spec(), o);
  EXPECT_EQ(p.reduction, Reduction::kSeparate);
  // 4 tiles of 128 columns over 132 SMs: 16 slices of 8 columns per tile, 64 reduction blocks.
  EXPECT_EQ(p.reduction_slices, 16) << p;
  EXPECT_EQ(p.reduction_blocks, p.sk_tiles * p.reduction_slices) << p;
  EXPECT_EQ(p.partials_bytes, 2 * int64_t{p.sk_blocks} * p.partial_tile_bytes) << p;
  // Auto picks separate only with more than two blocks per Stream-K tile and resident slots to
  // spare, or more than three where its kernel configuration was measured to gain from it anyway.
  for (int64_t k : {256, 4096, 65536}) {
    const Plan a = MustPlan(Shape(1536, 1536, k), H200Spec());
    if (a.reduction == Reduction::kSeparate) {
      if (a.sk_waves < a.occupancy) {
        EXPECT_GT(a.sk_blocks, 2 * a.sk_tiles) << a;
      } else {
        EXPECT_TRUE(KernelCost(H200Spec(), a).separate_after_streamk) << a;
        EXPECT_GT(a.sk_blocks, 3 * a.sk_tiles) << a;
      }
    }
  }
}

TEST(PlannerBehaviour, FewDeepTilesSplitWithASeparateReductionBehindTheStreamKBlocks) {
  // A few 128 x 128 tiles of many iterations: split-K over up to one block per SM, each block
  // storing its partial once, and reduction blocks queued behind the split-K blocks sum them. The
  // turnstile's chain of hand-overs grows with the splits instead. Measured on an H200, back to
  // back (streamk-bench's M x N x K, the kernel's problem is N x M x K as in Shape below):
  // 392 x 224 x 3184 (8 tiles of 50 iterations) as 13 splits 13.8 us against 19.0 data-parallel and
  // 16.6 the best turnstile split-K; 136 x 544 x 5664 15.1 against 30.0 and 20.4; the decode
  // projection 16 x 4096 x 11008 (32 tiles) as 4 splits 35.0 against 54.9 and 36.7. Of these, the
  // fifth tile (64 x 128) takes the first and the fourth below
  // (TheFifthTileTakesShapesOneRoundOfItHolds): the rule is pinned on the other tiles.
  const DeviceSpec dev = WithoutSmallTile(H200Spec());
  for (const Problem& shape :
       {Shape(224, 392, 3184), Shape(544, 136, 5664), Shape(4096, 16, 11008)}) {
    const Plan p = MustPlan(shape, dev);
    EXPECT_EQ(p.mode, Mode::kSplitK) << p;
    EXPECT_EQ(p.reduction, Reduction::kSeparate) << p;
    EXPECT_EQ(p.tile_n, dev.TileOf(KernelRole::kAlt).n) << p;
    EXPECT_LE(p.sk_blocks, p.avail_sms) << p;
    EXPECT_GE(p.sk_blocks, 4 * p.sk_tiles) << p;
    EXPECT_EQ(p.grid_blocks, p.avail_sms) << p;  // the reduction blocks queue behind
    // Where the configuration was not measured to gain from it, the turnstile reduces.
    DeviceSpec unmeasured = dev;
    unmeasured.Find(KernelRole::kAlt)->cost.separate_after_streamk = false;
    EXPECT_NE(MustPlan(shape, unmeasured).reduction, Reduction::kSeparate);
  }
  // With three peers per tile the turnstile's chain is short and won: 488 x 1152 x 6016 (36
  // tiles) as 3 splits 22.6 us turnstile, 23.8 separate.
  const Plan three = MustPlan(Shape(1152, 488, 6016), dev);
  EXPECT_EQ(three.mode, Mode::kSplitK) << three;
  EXPECT_EQ(three.sk_blocks, 3 * three.sk_tiles) << three;
  EXPECT_EQ(three.reduction, Reduction::kDeterministic) << three;
  // On the 128 x 256 configuration (128 KiB partials) it lost: 4816 x 248 x 3496 as 3 splits
  // 39.6 us against 34.0 turnstile.
  EXPECT_FALSE(dev.main().cost.separate_after_streamk);
}

TEST(PlannerBehaviour, VeryFewDeepTilesSplitPastSixteenWaysWithASeparateReduction) {
  // One 128 x 128 tile thousands of iterations deep streams its operands from memory: split 16 ways
  // (kMaxAutoSplits) it uses 16 SMs' share of the bandwidth. Measured on an H200, back to back,
  // split-K with a separate reduction on 128 x 128 tiles: 128 x 128 x 131072 48.1 us 16 ways, 33.5
  // 32 ways, 31.5 64 ways (cuBLAS 24.5); 128 x 128 x 65536 28.0, 20.8 and 19.5.
  const DeviceSpec dev = H200Spec();
  for (const int k : {65536, 131072}) {
    PlanExplanation why;
    const absl::StatusOr<Plan> p = MakePlan(Shape(128, 128, k), dev, {}, &why);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->mode, Mode::kSplitK) << FormatPlan(*p, &why);
    EXPECT_EQ(p->reduction, Reduction::kSeparate) << *p;
    EXPECT_GT(p->sk_blocks, 16 * p->sk_tiles) << *p;
    EXPECT_LE(p->sk_blocks, p->avail_sms) << *p;
    // The turnstile's chain of hand-overs grows with its peers: it stays at 16 splits at most.
    PlanOptions turnstile;
    turnstile.reduction = Reduction::kDeterministic;
    const Plan t = MustPlan(Shape(128, 128, k), dev, turnstile);
    EXPECT_NE(t.mode, Mode::kDataParallel) << t;
    EXPECT_LE(t.sk_blocks, 16 * t.sk_tiles) << t;
  }
  // The 64 x 128 tile reduces separately too (kHopperTmaSmallCost): 392 x 224 x 3184 split 8 ways
  // with a separate reduction on 16 of it ran 10.2 us, 11.4 with four splits, against 12.7
  // data-parallel on it and 11.5 split 8 ways on 128 x 128.
  PlanExplanation why;
  const absl::StatusOr<Plan> p = MakePlan(Shape(224, 392, 3184), dev, {}, &why);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->tile_m, dev.TileOf(KernelRole::kSmall).m) << FormatPlan(*p, &why);
  EXPECT_EQ(p->mode, Mode::kSplitK) << *p;
  EXPECT_EQ(p->reduction, Reduction::kSeparate) << *p;
  EXPECT_GE(p->sk_blocks, 4 * p->sk_tiles) << *p;
  EXPECT_TRUE(dev.Find(KernelRole::kSmall)->cost.separate_after_streamk);
  // Where the other tiles' split-K fills the SMs with at most 16 peers per tile, the tile needs a
  // 15% predicted gain (kMinSmallOverFullWaveGain): 512 x 512 x 8192, 512 x 256 x 16384 and
  // 1024 x 128 x 16384 (8-16 tiles of 128 x 128 split 8-16 ways, 128 blocks) ran 0.88-0.99x as fast
  // split over 128 blocks of it. Predicted 18% faster, 16 x 4096 x 4096 split two ways on it ran
  // 10.5 us against 12.2 data-parallel on it (from CUDA graphs).
  for (const Problem& q :
       {Shape(512, 512, 8192), Shape(256, 512, 16384), Shape(128, 1024, 16384)}) {
    PlanExplanation full_why;
    const absl::StatusOr<Plan> full = MakePlan(q, dev, {}, &full_why);
    ASSERT_TRUE(full.ok()) << full.status();
    EXPECT_EQ(full->tile_m, 128) << FormatPlan(*full, &full_why);
    EXPECT_EQ(full->mode, Mode::kSplitK) << *full;
    EXPECT_GE(full->sk_blocks, 0.9 * full->avail_sms) << *full;
    EXPECT_NE(full_why.reason.find("splitk on 64x128x64: "), std::string::npos) << full_why.reason;
  }
  const Plan decode = MustPlan(Shape(4096, 16, 4096), dev);
  EXPECT_EQ(decode.tile_m, dev.TileOf(KernelRole::kSmall).m) << decode;
  EXPECT_EQ(decode.mode, Mode::kSplitK) << decode;
  EXPECT_EQ(decode.sk_blocks, 2 * decode.sk_tiles) << decode;
}

}  // namespace
}  // namespace streamk
