// The CPU emulator runs the kernel's work mapping and fixup protocol on the host: it must match a
// reference GEMM for every mode and reduction strategy, never deadlock, leave the flags at zero,
// and give bitwise-identical results across schedules for the deterministic strategies.
#include "emulator.h"

#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "streamk/plan_print.h"
#include "streamk/planner.h"

namespace streamk {
namespace {

struct Operands {
  std::vector<float> a, b, c;
  EmulatorInputs in;
};

Operands RandomOperands(const Plan& p, uint32_t seed, float beta) {
  Operands o;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  o.a.resize(static_cast<size_t>(p.batch) * p.m * p.k);
  o.b.resize(static_cast<size_t>(p.batch) * p.k * p.n);
  o.c.resize(static_cast<size_t>(p.batch) * p.m * p.n);
  for (float& x : o.a) x = u(rng);
  for (float& x : o.b) x = u(rng);
  for (float& x : o.c) x = u(rng);
  o.in = {o.a.data(), o.b.data(), o.c.data(), 1.5f, beta};
  return o;
}

double RelativeError(const std::vector<float>& got, const std::vector<float>& want) {
  double num = 0, den = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double d = double{got[i]} - want[i];
    num += d * d;
    den += double{want[i]} * want[i];
  }
  return std::sqrt(num / std::max(den, 1e-30));
}

struct Case {
  int m, n, k, batch;
  int sms, occupancy;
  Mode mode;
  int splits, blocks;
  int sk_tiles = 0;  // PlanOptions::sk_tiles (mode streamk)
};

// Small tiles (16x16x4) give many tiles and iterations on problems the CPU multiplies quickly.
// cluster: plan a 32x16x4 tile on 2-SM clusters (Plan::cluster_m), each SM 16 rows of it.
Plan MustPlan(const Case& c, std::optional<Reduction> reduction, bool cluster = false,
              Schedule schedule = Schedule::kStatic) {
  DeviceSpec dev = H200Spec();
  dev.sms = c.sms;
  dev.occupancy = c.occupancy;
  dev.Find(KernelRole::kCluster)->tile = {32, 16, 4};
  dev.Find(KernelRole::kCluster)->cluster_slots = c.sms / 2;
  Problem pr;
  pr.m = c.m, pr.n = c.n, pr.k = c.k, pr.batch = c.batch;
  PlanOptions o;
  o.mode = c.mode, o.splits = c.splits, o.blocks = c.blocks, o.reduction = reduction;
  o.sk_tiles = c.sk_tiles;
  o.tile = cluster ? dev.TileOf(KernelRole::kCluster) : TileShape{16, 16, 4};
  o.schedule = schedule;
  absl::StatusOr<Plan> p = MakePlan(pr, dev, o);
  EXPECT_TRUE(p.ok()) << p.status();
  return *p;
}

const Case kCases[] = {
    {1, 1, 1, 1, 7, 1, Mode::kAuto, 0, 0},
    {70, 50, 37, 1, 7, 1, Mode::kAuto, 0, 0},       // 5 x 4 = 20 tiles on 7 SMs
    {70, 50, 37, 1, 7, 2, Mode::kAuto, 0, 0},
    {70, 50, 37, 1, 7, 1, Mode::kDataParallel, 0, 0},
    {70, 50, 37, 1, 7, 1, Mode::kSplitK, 3, 0},
    {70, 50, 37, 1, 7, 2, Mode::kSplitK, 10, 0},    // every iteration its own block
    {70, 50, 37, 1, 7, 1, Mode::kStreamK, 0, 0},
    {70, 50, 37, 1, 7, 1, Mode::kStreamK, 0, 13},
    {70, 50, 37, 1, 7, 2, Mode::kStreamK, 0, 61},   // more blocks than resident: persistent loop
    {16, 16, 400, 1, 16, 1, Mode::kAuto, 0, 0},     // one tile, 100 iterations
    {16, 16, 400, 1, 16, 4, Mode::kStreamK, 0, 64},
    {33, 47, 61, 3, 5, 2, Mode::kAuto, 0, 0},       // batched
    {33, 47, 61, 3, 5, 2, Mode::kStreamK, 0, 17},
    {100, 20, 9, 2, 2, 3, Mode::kStreamK, 0, 0},
    {128, 128, 64, 1, 1, 1, Mode::kStreamK, 0, 5},  // one SM: everything through one block
    // The partial wave's tiles Stream-K, the rest data-parallel after them on the same blocks.
    {70, 50, 37, 1, 7, 1, Mode::kStreamK, 0, 0, kPartialWaveTiles},   // 20 tiles: 6 Stream-K
    {70, 50, 37, 1, 7, 1, Mode::kStreamK, 0, 7, kPartialWaveTiles},
    {70, 50, 37, 1, 7, 2, Mode::kStreamK, 0, 13, kPartialWaveTiles},
    {70, 50, 37, 1, 6, 1, Mode::kStreamK, 0, 6, 3},
    {33, 47, 61, 3, 5, 1, Mode::kStreamK, 0, 5, kPartialWaveTiles},  // batched: 27 tiles, 2
};

// Unset (the planner picks), then each strategy.
const std::optional<Reduction> kEveryReduction[] = {std::nullopt, Reduction::kDeterministic,
                                                    Reduction::kAtomic, Reduction::kSeparate};

// Every (tile, k-iteration) of the emulation computed once, every output element written once.
void ExpectEachOnce(const EmulatorResult& r, const Plan& p) {
  for (size_t i = 0; i < r.iteration_visits.size(); ++i)
    ASSERT_EQ(r.iteration_visits[i], 1) << "iteration " << i << "\n" << PlanSummary(p);
  for (size_t e = 0; e < r.element_writes.size(); ++e)
    ASSERT_EQ(r.element_writes[e], 1) << "element " << e << "\n" << PlanSummary(p);
}

// Emulates `p` on fresh random operands and checks it against the reference GEMM: the result,
// every (tile, k-iteration) computed once, every output element written once.
// `claimed_ahead`, when given, is raised to the most work blocks a producer claimed ahead;
// `past_reduction`, when given, counts its claims past an unfinished reduction block.
void ExpectMatchesReference(const Plan& p, uint32_t seed, float beta,
                            const std::vector<int>* starts = nullptr, int* claimed_ahead = nullptr,
                            int* past_reduction = nullptr) {
  Operands ops = RandomOperands(p, seed, beta);
  std::vector<uint8_t> workspace;
  absl::StatusOr<EmulatorResult> r = Emulate(p, ops.in, seed, &workspace, starts);
  ASSERT_TRUE(r.ok()) << r.status();
  if (claimed_ahead != nullptr) *claimed_ahead = std::max(*claimed_ahead, r->max_claimed_ahead);
  if (past_reduction != nullptr) *past_reduction += r->claims_past_reduction;
  const std::vector<float> want = ReferenceGemm(p, ops.in);
  EXPECT_LT(RelativeError(r->d, want), 1e-5) << PlanSummary(p);
  ExpectEachOnce(*r, p);
}

TEST(Emulator, MatchesReferenceForEveryModeAndStrategy) {
  uint32_t seed = 1;
  for (const Case& c : kCases) {
    for (std::optional<Reduction> red : kEveryReduction) {
      if (c.mode == Mode::kDataParallel && red.has_value()) continue;
      const Plan p = MustPlan(c, red);
      for (float beta : {0.0f, 0.5f}) {
        ExpectMatchesReference(p, ++seed, beta);
        if (HasFatalFailure()) return;
      }
    }
  }
}

// Clusters: each rank of a cluster computes its rows of every tile of its persistent block and
// runs the protocol on them with its own flags and partial halves; together they must still
// compute every element once, with every mode and strategy, and leave every rank's flags zero.
TEST(Emulator, ClusterPlansMatchReferenceForEveryModeAndStrategy) {
  uint32_t seed = 100;
  int planned = 0;
  for (const Case& c : kCases) {
    if (c.sms < 2) continue;
    for (std::optional<Reduction> red : kEveryReduction) {
      if (c.mode == Mode::kDataParallel && red.has_value()) continue;
      const Plan p = MustPlan(c, red, /*cluster=*/true);
      ASSERT_EQ(p.cluster_m, 2) << PlanSummary(p);
      ASSERT_EQ(p.avail_sms, c.sms / 2) << PlanSummary(p);
      ASSERT_GE(p.flags_bytes, int64_t{p.sk_tiles} * 2 * 4);
      ++planned;
      ExpectMatchesReference(p, ++seed, 0.5f);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(planned, 40);
}

// The planner puts whole data-parallel rounds before the Stream-K blocks (Plan::
// dp_blocks_before_sk); the protocol must hold wherever the split falls: SK first, DP first, or
// in between, with every reduction strategy and more work blocks than resident blocks.
TEST(Emulator, AnySplitOfDataParallelBlocksAroundStreamKMatchesReference) {
  const Case cases[] = {
      {70, 50, 37, 1, 7, 1, Mode::kStreamK, 0, 0, kPartialWaveTiles},  // 6 SK + 14 DP tiles
      {70, 50, 37, 1, 7, 2, Mode::kStreamK, 0, 13, kPartialWaveTiles},
      {70, 50, 37, 1, 6, 1, Mode::kStreamK, 0, 6, 3},
      {33, 47, 61, 3, 5, 1, Mode::kStreamK, 0, 5, kPartialWaveTiles},
  };
  uint32_t seed = 100;
  int splits_run = 0;
  for (const Case& c : cases) {
    for (Reduction red : {Reduction::kDeterministic, Reduction::kAtomic, Reduction::kSeparate}) {
      const Plan planned = MustPlan(c, red);
      ASSERT_GT(planned.sk_blocks, 0) << PlanSummary(planned);
      for (int early = 0; early <= planned.dp_blocks; ++early) {
        Plan p = planned;
        p.dp_blocks_before_sk = early;
        ExpectMatchesReference(p, ++seed, 0.5f);
        if (HasFatalFailure()) return;
        ++splits_run;
      }
    }
  }
  EXPECT_GT(splits_run, 100);
}

TEST(Emulator, StrategiesThatShareTilesActuallyWait) {
  // 20 tiles of 10 iterations over 13 blocks: tiles are shared, so some block must have yielded
  // under some schedule; otherwise the protocol's waits are not being exercised.
  int64_t yields = 0;
  for (Reduction red : {Reduction::kDeterministic, Reduction::kAtomic, Reduction::kSeparate}) {
    const Plan p = MustPlan({70, 50, 37, 1, 7, 1, Mode::kStreamK, 0, 13}, red);
    Operands ops = RandomOperands(p, 7, 0);
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      absl::StatusOr<EmulatorResult> r = Emulate(p, ops.in, seed);
      ASSERT_TRUE(r.ok()) << r.status();
      yields += r->yields;
    }
  }
  EXPECT_GT(yields, 0);
}

TEST(Emulator, DeterministicStrategiesAreBitwiseReproducibleAcrossSchedules) {
  for (Reduction red : {Reduction::kDeterministic, Reduction::kSeparate}) {
    for (const Case& c : kCases) {
      if (c.mode == Mode::kDataParallel) continue;
      const Plan p = MustPlan(c, red);
      Operands ops = RandomOperands(p, 99, 0.25f);
      absl::StatusOr<EmulatorResult> first = Emulate(p, ops.in, 1);
      ASSERT_TRUE(first.ok()) << first.status();
      for (uint64_t seed = 2; seed <= 6; ++seed) {
        absl::StatusOr<EmulatorResult> again = Emulate(p, ops.in, seed);
        ASSERT_TRUE(again.ok()) << again.status();
        ASSERT_EQ(0, std::memcmp(first->d.data(), again->d.data(), first->d.size() * 4))
            << ReductionName(red) << " seed " << seed << "\n" << PlanSummary(p);
      }
    }
  }
}

TEST(Emulator, PlansCanShareOneWorkspace) {
  // gemm() reuses one workspace for every shape on a stream. A plan's partials must never land on
  // the flags of a later plan (flags must be zero between launches): run plans with different
  // layouts back to back on one workspace; a dirty flag shows up as a deadlock or a wrong sum.
  std::vector<uint8_t> workspace;
  uint32_t seed = 40;
  for (int round = 0; round < 3; ++round) {
    for (const Case& c : kCases) {
      for (Reduction red : {Reduction::kSeparate, Reduction::kDeterministic, Reduction::kAtomic}) {
        if (c.mode == Mode::kDataParallel) continue;
        const Plan p = MustPlan(c, red);
        Operands ops = RandomOperands(p, ++seed, 0);
        absl::StatusOr<EmulatorResult> r = Emulate(p, ops.in, seed, &workspace);
        ASSERT_TRUE(r.ok()) << r.status();
        EXPECT_LT(RelativeError(r->d, ReferenceGemm(p, ops.in)), 1e-5) << PlanSummary(p);
      }
    }
  }
}

TEST(Emulator, SlicedSeparateReductionMatchesReference) {
  // Tiles 64 columns wide: a separate reduction in 1, 2, 4 or 8 slices of 64 to 8 columns, for all
  // tiles Stream-K and for the partial wave's; every element of D written exactly once.
  DeviceSpec dev = H200Spec();
  dev.sms = 5;
  dev.occupancy = 1;
  Problem pr;
  pr.m = 90, pr.n = 250, pr.k = 45;  // 6 x 4 = 24 tiles of 16x64, 12 iterations
  uint32_t seed = 70;
  for (int sk_tiles : {0, kPartialWaveTiles}) {
    for (int blocks : {0, 3, 5, 9}) {
      for (int slices : {1, 2, 4, 8}) {
        PlanOptions o;
        o.mode = Mode::kStreamK, o.blocks = blocks, o.sk_tiles = sk_tiles;
        o.reduction = Reduction::kSeparate, o.reduction_slices = slices;
        o.tile = {16, 64, 4};
        absl::StatusOr<Plan> p = MakePlan(pr, dev, o);
        ASSERT_TRUE(p.ok()) << p.status();
        ASSERT_EQ(p->reduction_slices, slices) << PlanSummary(*p);
        ASSERT_EQ(p->reduction_blocks, p->sk_tiles * slices) << PlanSummary(*p);
        for (float beta : {0.0f, 0.75f}) {
          Operands ops = RandomOperands(*p, ++seed, beta);
          absl::StatusOr<EmulatorResult> r = Emulate(*p, ops.in, seed);
          ASSERT_TRUE(r.ok()) << r.status();
          EXPECT_LT(RelativeError(r->d, ReferenceGemm(*p, ops.in)), 1e-5) << PlanSummary(*p);
          for (size_t e = 0; e < r->element_writes.size(); ++e)
            ASSERT_EQ(r->element_writes[e], 1) << "element " << e << "\n" << PlanSummary(*p);
        }
      }
    }
  }
}

TEST(Emulator, RealTileShapeMatchesReference) {
  DeviceSpec dev = H200Spec();
  dev.sms = 3;
  Problem pr;
  pr.m = 260, pr.n = 130, pr.k = 200;  // 3 x 2 tiles of 128x128, 7 iterations
  for (Mode mode : {Mode::kAuto, Mode::kStreamK, Mode::kSplitK}) {
    PlanOptions o;
    o.mode = mode;
    absl::StatusOr<Plan> p = MakePlan(pr, dev, o);
    ASSERT_TRUE(p.ok()) << p.status();
    Operands ops = RandomOperands(*p, 5, 1.0f);
    absl::StatusOr<EmulatorResult> r = Emulate(*p, ops.in, 3);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_LT(RelativeError(r->d, ReferenceGemm(*p, ops.in)), 1e-5) << PlanSummary(*p);
  }
}

}  // namespace
}  // namespace streamk

namespace streamk {
namespace {

// When each persistent block starts, as another kernel holding some SMs makes it: `late` of them
// start after a random number of scheduler rounds (0-40), `never` of them never (their SMs stay
// held for the whole launch). Block 0 always starts at once.
std::vector<int> HeldStarts(int blocks, int late, int never, std::mt19937& rng) {
  std::vector<int> starts(static_cast<size_t>(blocks), 0);
  std::vector<int> ids(static_cast<size_t>(blocks > 0 ? blocks - 1 : 0));
  std::iota(ids.begin(), ids.end(), 1);
  std::shuffle(ids.begin(), ids.end(), rng);
  for (size_t i = 0; i < ids.size(); ++i) {
    if (static_cast<int>(i) < never) {
      starts[ids[i]] = -1;
    } else if (static_cast<int>(i) < never + late) {
      starts[ids[i]] = 1 + static_cast<int>(rng() % 40);
    }
  }
  return starts;
}

// Schedule::kDynamic: blocks take work blocks from the counter. With blocks starting late or
// never (their SMs held), every mode and strategy still computes every (tile, k-iteration) once,
// writes every element once, matches the reference, and never deadlocks; with every block
// started the counter is zero again.
TEST(EmulatorDynamic, MatchesReferenceWithBlocksThatStartLateOrNever) {
  std::mt19937 rng(7);
  uint32_t seed = 500;
  int claimed_ahead = 0;  // on the TMA kernel the producer claims up to 4 work blocks ahead
  int past_reduction = 0, reduction_plans = 0;
  for (const Case& c : kCases) {
    for (std::optional<Reduction> red : kEveryReduction) {
      if (c.mode == Mode::kDataParallel && red.has_value()) continue;
      const Plan p = MustPlan(c, red, false, Schedule::kDynamic);
      ASSERT_EQ(p.schedule, Schedule::kDynamic);
      ASSERT_EQ(p.dp_first_wave_tiles, 1) << PlanSummary(p);
      ASSERT_GT(p.workspace_bytes, p.counter_offset) << PlanSummary(p);
      if (p.reduction_blocks > 0) ++reduction_plans;
      for (int trial = 0; trial < 4; ++trial) {
        const int g = p.grid_blocks;
        const int never = trial == 0 ? 0 : static_cast<int>(rng() % g);
        const int late = static_cast<int>(rng() % (g - never));
        const std::vector<int> starts = HeldStarts(g, late, never, rng);
        ExpectMatchesReference(p, ++seed, trial % 2 ? 0.5f : 0.0f, &starts, &claimed_ahead,
                               &past_reduction);
        if (HasFatalFailure()) return;
      }
    }
  }
  EXPECT_EQ(claimed_ahead, 4) << "no producer claimed as far ahead as the kernel's may";
  // After a reduction block the producer claims nothing until the block has its partial sums, so
  // no block holds work that blocks done sooner could have taken while it waits for them.
  EXPECT_GT(reduction_plans, 5);
  EXPECT_EQ(past_reduction, 0);
}

// Random plans: problems of 1-120 x 1-120 x 1-160 (batch 1-3) on 16x16x4 tiles or 2-SM clusters
// of 32x16x4, on 1-40 SMs with 1-4 blocks each, every mode with random splits, blocks, Stream-K
// tiles, reductions, slices and schedules (dynamic ones with blocks that start late or never).
// Whatever the planner makes of them, the kernel's mapping and protocol compute every
// (tile, k-iteration) once, write every element once, match the reference and leave the flags
// zero. The cases above pin the shapes the protocol was designed around; these look for the ones
// nobody thought of.
TEST(EmulatorProperties, RandomPlansMatchReference) {
  std::mt19937 rng(20261207);
  auto below = [&rng](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  int emulated = 0, shared = 0, refused = 0, claimed_by_default = 0;
  for (int i = 0; i < 2000; ++i) {
    const bool cluster = below(6) == 0;
    DeviceSpec dev = H200Spec();
    dev.sms = cluster ? 2 + 2 * below(20) : 1 + below(40);
    dev.occupancy = cluster ? 1 : 1 + below(4);
    dev.Find(KernelRole::kCluster)->tile = {32, 16, 4};
    dev.Find(KernelRole::kCluster)->cluster_slots = dev.sms / 2;
    Problem pr;
    pr.m = 1 + below(120), pr.n = 1 + below(120), pr.k = 1 + below(160);
    pr.batch = below(4) == 0 ? 2 + below(2) : 1;
    PlanOptions o;
    o.tile = cluster ? dev.TileOf(KernelRole::kCluster) : TileShape{16, 16, 4};
    o.mode = static_cast<Mode>(below(4));
    const int iters = (static_cast<int>(pr.k) + 3) / 4;
    if (o.mode == Mode::kSplitK && below(2)) o.splits = 1 + below(std::min(iters, 12));
    if (o.mode == Mode::kStreamK) {
      if (below(2)) o.blocks = 1 + below(3 * dev.sms * dev.occupancy);
      const int pick = below(3);
      o.sk_tiles = pick == 0 ? 0 : pick == 1 ? kPartialWaveTiles : 1 + below(8);
    }
    if (o.mode != Mode::kDataParallel && below(4)) o.reduction = static_cast<Reduction>(below(3));
    if (o.reduction == Reduction::kSeparate && below(2)) o.reduction_slices = below(2) ? 1 : 2;
    // Unset, Stream-K and split-K plans off clusters take their work from a counter too.
    if (!cluster && below(3) == 0) o.schedule = below(2) ? Schedule::kDynamic : Schedule::kStatic;
    if (below(5) == 0) o.avail_sms = 1 + below(dev.sms);
    absl::StatusOr<Plan> p = MakePlan(pr, dev, o);
    if (!p.ok()) {
      // What a random option may ask for that the problem cannot take, named.
      ASSERT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument) << p.status();
      ++refused;
      continue;
    }
    std::vector<int> starts;
    if (p->schedule == Schedule::kDynamic && below(2)) {
      const int g = p->grid_blocks;
      const int never = below(g), late = below(g - never);  // block 0 always starts
      starts = HeldStarts(g, late, never, rng);
      claimed_by_default += !o.schedule.has_value();
    }
    shared += p->sk_blocks > p->sk_tiles;
    ExpectMatchesReference(*p, 1000 + i, below(2) ? 0.5f : 0.0f,
                           starts.empty() ? nullptr : &starts);
    if (HasFatalFailure()) {
      ADD_FAILURE() << "case " << i << ": " << pr.m << "x" << pr.n << "x" << pr.k << " batch "
                    << pr.batch << " on " << dev.sms << " SMs x " << dev.occupancy << "\n"
                    << PlanSummary(*p);
      return;
    }
    ++emulated;
  }
  EXPECT_GT(emulated, 1900) << refused << " refused";
  EXPECT_GT(shared, 500) << "too few plans whose tiles are shared by several blocks";
  EXPECT_GT(claimed_by_default, 150) << "too few plans dynamic by default run with held blocks";
}

// The same plans scheduled statically deadlock or leave work undone when a block that others
// wait for never starts: what the dynamic schedule is for (and what makes the test above bite).
TEST(EmulatorDynamic, StaticPlansNeedEveryBlock) {
  int failed = 0, tried = 0;
  uint32_t seed = 900;
  for (const Case& c : kCases) {
    if (c.mode == Mode::kDataParallel) continue;
    const Plan p = MustPlan(c, Reduction::kDeterministic);
    if (p.grid_blocks < 2) continue;
    std::vector<int> starts(static_cast<size_t>(p.grid_blocks), 0);
    starts[0] = -1;  // the lowest block, which every other one may wait for
    Operands ops = RandomOperands(p, ++seed, 0);
    std::vector<uint8_t> workspace;
    absl::StatusOr<EmulatorResult> r = Emulate(p, ops.in, seed, &workspace, &starts);
    ++tried;
    if (!r.ok()) {
      EXPECT_NE(r.status().message().find("deadlock"), std::string::npos) << r.status();
      ++failed;
      continue;
    }
    bool all = true;
    for (int v : r->iteration_visits) all &= v == 1;
    failed += all ? 0 : 1;
  }
  ASSERT_GT(tried, 0);
  EXPECT_EQ(failed, tried);
}

// A dynamic plan's counter returns to zero, so one workspace serves launch after launch (and other
// plans: the counter sits in the flags area, past the plan's own flags).
TEST(EmulatorDynamic, CounterIsZeroAfterEveryLaunchOnASharedWorkspace) {
  std::vector<uint8_t> workspace;
  uint32_t seed = 1200;
  for (int round = 0; round < 2; ++round) {
    for (const Case& c : kCases) {
      for (Schedule schedule : {Schedule::kDynamic, Schedule::kStatic}) {
        const Plan p = MustPlan(c, std::nullopt, false, schedule);
        Operands ops = RandomOperands(p, ++seed, 0);
        absl::StatusOr<EmulatorResult> r = Emulate(p, ops.in, seed, &workspace);
        ASSERT_TRUE(r.ok()) << r.status();
        EXPECT_LT(RelativeError(r->d, ReferenceGemm(p, ops.in)), 1e-5) << PlanSummary(p);
        if (p.schedule == Schedule::kDynamic) {
          int32_t counter = 0;
          std::memcpy(&counter, workspace.data() + p.counter_offset, 4);
          EXPECT_EQ(counter, 0) << PlanSummary(p);
        }
      }
    }
  }
}

// Grouped plans (Plan::groups): random groupings, empty groups among them, in every mode and
// schedule. Every row of every group is written exactly once, by a tile of its own group (the
// group table the launch writes, GroupTableOf), every (tile, k-iteration) runs once, and D is
// each group's rows times its own B.
TEST(EmulatorGrouped, EveryGroupsRowsOnceWithItsOwnB) {
  std::mt19937 rng(20261208);
  auto below = [&rng](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  int emulated = 0, shared = 0, mixed = 0;
  for (int i = 0; i < 600; ++i) {
    const bool cluster = below(6) == 0;
    DeviceSpec dev = H200Spec();
    dev.sms = cluster ? 2 + 2 * below(12) : 1 + below(30);
    dev.occupancy = cluster ? 1 : 1 + below(3);
    dev.Find(KernelRole::kCluster)->tile = {32, 16, 4};
    dev.Find(KernelRole::kCluster)->cluster_slots = dev.sms / 2;
    const int groups = 1 + below(below(4) == 0 ? 40 : 8);
    std::vector<int64_t> rows(static_cast<size_t>(groups)), ends(static_cast<size_t>(groups));
    int64_t total = 0;
    for (int g = 0; g < groups; ++g) {
      rows[static_cast<size_t>(g)] = below(4) == 0 ? 0 : below(70);
      total += rows[static_cast<size_t>(g)];
      ends[static_cast<size_t>(g)] = total;
    }
    if (total == 0) continue;  // grouped_gemm plans nothing then
    Problem pr;
    pr.m = total, pr.n = 1 + below(60), pr.k = 1 + below(90);
    pr.groups = groups, pr.group_rows = rows.data();
    pr.d_tma_store = false;
    PlanOptions o;
    o.tile = cluster ? dev.TileOf(KernelRole::kCluster) : TileShape{16, 16, 4};
    o.mode = static_cast<Mode>(below(4));
    if (o.mode != Mode::kDataParallel && below(3)) o.reduction = static_cast<Reduction>(below(3));
    if (!cluster && below(3) == 0) o.schedule = below(2) ? Schedule::kDynamic : Schedule::kStatic;
    absl::StatusOr<Plan> p = MakePlan(pr, dev, o);
    ASSERT_TRUE(p.ok()) << p.status();
    int64_t tile_rows = 0;
    for (int64_t r : rows) tile_rows += (r + p->tile_m - 1) / p->tile_m;
    ASSERT_EQ(p->tiles_m, tile_rows);
    ASSERT_EQ(p->groups, groups);
    ASSERT_GE(p->group_rows_offset, Plan::kMinFlagsBytes);
    ASSERT_GE(p->workspace_bytes, p->group_rows_offset + 16 * int64_t{p->tiles_m});
    const std::vector<mapping::GroupRow> table = GroupTableOf(*p, ends.data(), groups);
    for (const mapping::GroupRow& e : table) {
      ASSERT_LT(e.row0, e.row_end);
      ASSERT_EQ(e.row_end, ends[static_cast<size_t>(e.group)]);
    }
    std::vector<float> a(static_cast<size_t>(total * pr.k));
    std::vector<float> b(static_cast<size_t>(groups * pr.k * pr.n));
    std::vector<float> c(static_cast<size_t>(total * pr.n));
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    for (float& x : a) x = u(rng);
    for (float& x : b) x = u(rng);
    for (float& x : c) x = u(rng);
    EmulatorInputs in{a.data(), b.data(), c.data(), 1.5f, below(2) ? 0.5f : 0.0f, table.data()};
    absl::StatusOr<EmulatorResult> r = Emulate(*p, in, 1000 + i);
    ASSERT_TRUE(r.ok()) << r.status() << "\n" << PlanSummary(*p);
    EXPECT_LT(RelativeError(r->d, ReferenceGemm(*p, in, ends.data())), 1e-5) << PlanSummary(*p);
    ASSERT_NO_FATAL_FAILURE(ExpectEachOnce(*r, *p));
    // Stream-K blocks whose range holds tiles of two groups.
    if (p->sk_tiles > 0) ++shared;
    for (int blk = 0; blk < p->sk_blocks; ++blk) {
      int last_group = -1;
      bool two = false;
      for (mapping::SkUnit unit = mapping::SkFirstUnit(*p, blk); unit.valid();
           unit = mapping::SkNextUnit(*p, unit)) {
        const int g = table[static_cast<size_t>(mapping::TileCoordOf(*p, unit.tile).tm)].group;
        two |= last_group >= 0 && g != last_group;
        last_group = g;
      }
      if (two) {
        ++mixed;
        break;
      }
    }
    ++emulated;
  }
  EXPECT_GT(emulated, 500);
  EXPECT_GT(shared, 100) << "too few grouped plans with Stream-K tiles";
  EXPECT_GT(mixed, 30) << "too few plans with a Stream-K block whose range spans two groups";
}

// The table holds the groups' tile rows, in group order, empty groups none; entries past them
// (a plan for more rows: device group ends) hold the rows past the last end, a tile row each,
// then none.
TEST(EmulatorGrouped, GroupTableHoldsEachGroupsTileRowsInOrder) {
  Plan p;
  p.tile_m = 64;
  p.tiles_m = 2 + 1 + 1 + 4;
  p.m = 300;
  const int64_t ends[] = {0, 100, 100, 164, 165, 165};
  const std::vector<mapping::GroupRow> t = GroupTableOf(p, ends, 6);
  ASSERT_EQ(t.size(), 8u);
  const int none = mapping::kNoGroup;
  const mapping::GroupRow want[] = {{1, 0, 100, 0},      {1, 64, 100, 0},     {3, 100, 164, 0},
                                    {4, 164, 165, 0},    {none, 165, 229, 0}, {none, 229, 293, 0},
                                    {none, 293, 300, 0}, {none, 0, 0, 0}};
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(t[i].group, want[i].group) << i;
    EXPECT_EQ(t[i].row0, want[i].row0) << i;
    EXPECT_EQ(t[i].row_end, want[i].row_end) << i;
  }
}

// Group ends on the device (Problem::group_rows null): the plan holds the most tile rows any
// split of m rows over the groups makes, and one more, and any routing of at most m rows then
// runs on it, the table's entries past its groups' tile rows holding the rows past the routing's
// end: every routed row once with its group's B, every other row once with beta * C.
TEST(EmulatorGrouped, DeviceEndsRunAnyRoutingWithinTheBound) {
  std::mt19937 rng(20261209);
  auto below = [&rng](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  int emulated = 0;
  for (int i = 0; i < 150; ++i) {
    DeviceSpec dev = H200Spec();
    dev.sms = 1 + below(24);
    dev.occupancy = 1 + below(2);
    const int groups = 1 + below(12);
    Problem pr;
    pr.m = 1 + below(200), pr.n = 1 + below(40), pr.k = 1 + below(60);
    pr.groups = groups;
    pr.d_tma_store = false;
    PlanOptions o;
    o.tile = TileShape{16, 16, 4};
    o.mode = static_cast<Mode>(below(4));
    if (below(3) == 0) o.schedule = below(2) ? Schedule::kDynamic : Schedule::kStatic;
    absl::StatusOr<Plan> p = MakePlan(pr, dev, o);
    ASSERT_TRUE(p.ok()) << p.status();
    ASSERT_EQ(p->rows_bound, 1);
    ASSERT_EQ(p->tiles_m, std::min<int64_t>(pr.m, (pr.m + groups * 15) / 16 + 1));
    for (int routing = 0; routing < 3; ++routing) {
      // Any split of at most m rows, the costliest (every group 16 r + 1 rows) among them.
      std::vector<int64_t> ends(static_cast<size_t>(groups));
      int64_t total = 0;
      for (int g = 0; g < groups; ++g) {
        const int64_t want = routing == 0 ? 1 : below(4) == 0 ? 0 : below(40);
        total = std::min<int64_t>(pr.m, total + want);
        ends[static_cast<size_t>(g)] = total;
      }
      const std::vector<mapping::GroupRow> table = GroupTableOf(*p, ends.data(), groups);
      int64_t real = 0;
      for (const mapping::GroupRow& e : table) real += e.group != mapping::kNoGroup ? 1 : 0;
      int64_t want_rows = 0;
      for (int g = 0; g < groups; ++g) want_rows += (ends[g] - (g > 0 ? ends[g - 1] : 0) + 15) / 16;
      ASSERT_EQ(real, want_rows) << "the bound holds every routing's tile rows";
      std::vector<float> a(static_cast<size_t>(pr.m * pr.k)),
          b(static_cast<size_t>(groups * pr.k * pr.n));
      std::uniform_real_distribution<float> u(-1.f, 1.f);
      for (float& x : a) x = u(rng);
      for (float& x : b) x = u(rng);
      std::vector<float> c(static_cast<size_t>(pr.m * pr.n));
      for (float& x : c) x = u(rng);
      const float beta = below(2) ? 0.5f : 0.0f;
      EmulatorInputs in{a.data(), b.data(), beta != 0 ? c.data() : nullptr,
                        1.0f,     beta,     table.data()};
      absl::StatusOr<EmulatorResult> r = Emulate(*p, in, 7000 + i);
      ASSERT_TRUE(r.ok()) << r.status() << "\n" << PlanSummary(*p);
      EXPECT_LT(RelativeError(r->d, ReferenceGemm(*p, in, ends.data())), 1e-5) << PlanSummary(*p);
      // Every row once: the routing's, and those past its end (beta * C there).
      ASSERT_NO_FATAL_FAILURE(ExpectEachOnce(*r, *p)) << total << " rows routed";
      ++emulated;
    }
  }
  EXPECT_EQ(emulated, 450);
}

}  // namespace
}  // namespace streamk
