// The invariants of DESIGN section 6, checked on the work mapping and fixup protocol over a sweep
// of shapes, SM counts, occupancies, modes and reduction strategies. Every failure prints the plan.
#include "work_mapping.h"
#include "tma_operands.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fixup_protocol.h"
#include "streamk/plan_print.h"
#include "streamk/planner.h"

namespace streamk {
namespace {

using mapping::Role;

// Checks invariants 1-5 for one plan; returns the first violation or "".
// `count_visits`: also count every (tile, k-iteration) one by one (slower; the structural checks
// already imply it, this checks the structural checks).
std::string CheckPlan(const Plan& p, bool count_visits) {
  auto fail = [&p](const std::string& what) { return what + "\n  plan: " + PlanSummary(p); };
  if (p.dp_tiles + p.sk_tiles != p.tiles) return fail("dp_tiles + sk_tiles != tiles");
  if (p.work_blocks != p.sk_blocks + p.dp_blocks + p.reduction_blocks)
    return fail("work_blocks != sk + dp + reduction blocks");
  if (p.grid_blocks < 1 || p.grid_blocks > p.avail_sms * p.occupancy ||
      p.grid_blocks > p.work_blocks)
    return fail("grid_blocks outside [1, min(work_blocks, avail_sms * occupancy)]");

  if (p.sk_blocks > 0 &&
      (p.flags_offset != 0 || p.flags_bytes < Plan::kMinFlagsBytes ||
       p.flags_bytes < int64_t{p.sk_tiles} * 4 || p.partials_offset < p.flags_bytes ||
       p.partials_offset % Plan::kWorkspaceAlignment != 0 ||
       p.workspace_bytes < p.partials_offset + p.partials_bytes))
    return fail("workspace layout: flags must come first in a region of at least kMinFlagsBytes, "
                "partials after it");

  // Roles: the early DP blocks, SK, the other DP blocks, then reduction (waits go to lower
  // indices: SK blocks wait only for SK blocks, reduction blocks for SK blocks).
  const int early = p.dp_blocks_before_sk;
  if (early < 0 || early > p.dp_blocks) return fail("dp_blocks_before_sk outside [0, dp_blocks]");
  for (int b = 0; b < p.work_blocks; ++b) {
    const mapping::BlockRole expect =
        b < early                       ? mapping::BlockRole{Role::kDataParallel, b}
        : b < early + p.sk_blocks       ? mapping::BlockRole{Role::kStreamK, b - early}
        : b < p.sk_blocks + p.dp_blocks ? mapping::BlockRole{Role::kDataParallel, b - p.sk_blocks}
                                        : mapping::BlockRole{Role::kReduction,
                                                             b - p.sk_blocks - p.dp_blocks};
    const mapping::BlockRole r = mapping::RoleOf(p, b);
    if (r.role != expect.role || r.index != expect.index)
      return fail("role order broken at block " + std::to_string(b));
  }
  if (mapping::RoleOf(p, p.work_blocks).role != Role::kNone) return fail("role past the end");

  std::vector<int> epilogues(static_cast<size_t>(p.tiles), 0);
  std::vector<uint8_t> visits;
  if (count_visits) visits.assign(static_cast<size_t>(p.tiles) * p.iters_per_tile, 0);

  // Stream-K ranges tile [0, sk_iters) contiguously and in block order.
  const int sk_iters = p.sk_tiles * p.iters_per_tile;
  int expect_begin = 0;
  for (int b = 0; b < p.sk_blocks; ++b) {
    const mapping::IterRange r = mapping::SkBlockRange(p, b);
    if (r.begin != expect_begin || r.end <= r.begin)
      return fail("SK block " + std::to_string(b) + " range [" + std::to_string(r.begin) + ", " +
                  std::to_string(r.end) + ") does not continue at " + std::to_string(expect_begin));
    if (mapping::SkBlockOfIter(p, r.begin) != b || mapping::SkBlockOfIter(p, r.end - 1) != b)
      return fail("SkBlockOfIter disagrees with SkBlockRange for block " + std::to_string(b));
    expect_begin = r.end;
    // Backwards walk: units descend, each inside one tile, together exactly the range.
    int walked_end = r.end;
    int finals = 0;
    for (mapping::SkUnit u = mapping::SkFirstUnit(p, b); u.valid(); u = mapping::SkNextUnit(p, u)) {
      const int tile_begin = u.tile * p.iters_per_tile;
      if (tile_begin + u.k_end != walked_end || u.k_begin < 0 || u.k_end > p.iters_per_tile)
        return fail("unit walk of block " + std::to_string(b) + " is not contiguous");
      walked_end = tile_begin + u.k_begin;
      if (u.tile < 0 || u.tile >= p.sk_tiles) return fail("SK unit outside the SK tiles");
      if (b < u.peers.first || b > u.peers.last) return fail("block is not among its peers");
      if (u.is_first_slice() != (u.turn() == 0)) return fail("turn 0 is not the first slice");
      if (u.is_final_slice(p) != (b == u.peers.last)) return fail("finisher is not the last peer");
      const fixup::Step s = fixup::SkStep(p, u);
      if (s.wait != fixup::Wait::kNone && u.peers.first >= b)
        return fail("block " + std::to_string(b) + " waits without a lower-numbered peer");
      if (s.epilogue) ++epilogues[u.tile];
      finals += u.is_final_slice(p) && u.turn() > 0;
      // Invariant 4: slots and flags inside the workspace and aligned.
      if (s.publish != fixup::Publish::kNone || s.take) {
        const int64_t off = mapping::PartialSlotOffset(p, u);
        if (off < p.partials_offset || off % 16 != 0 ||
            off + p.partial_tile_bytes > p.partials_offset + p.partials_bytes)
          return fail("partial slot outside the partials area or misaligned");
        const int64_t flag = mapping::FlagOffset(p, u.tile);
        if (flag < p.flags_offset || flag + 4 > p.flags_offset + p.flags_bytes ||
            p.flags_offset + p.flags_bytes > p.workspace_bytes)
          return fail("flag outside the flags area");
      }
      if (count_visits)
        for (int kk = u.k_begin; kk < u.k_end; ++kk)
          ++visits[static_cast<size_t>(u.tile) * p.iters_per_tile + kk];
    }
    if (walked_end != r.begin) return fail("unit walk does not reach the range's start");
    // A block finishes (with waiting) at most one tile: its first.
    if (finals > 1) return fail("block finishes more than one shared tile");
  }
  if (expect_begin != sk_iters) return fail("SK ranges do not cover every SK iteration");

  // Each SK tile's peers are consecutive blocks whose ranges meet the tile.
  for (int t = 0; t < p.sk_tiles; ++t) {
    const mapping::Peers peers = mapping::TilePeers(p, t);
    if (peers.first > peers.last) return fail("empty peer set");
    if (mapping::SkBlockRange(p, peers.first).begin > t * p.iters_per_tile ||
        mapping::SkBlockRange(p, peers.last).end < (t + 1) * p.iters_per_tile)
      return fail("peers do not cover tile " + std::to_string(t));
  }

  // Reduction blocks: reduction_slices per SK tile, numbered after every SK block; a tile's
  // slices are consecutive and their column ranges tile [0, tile_n) in order, in multiples of 8.
  if (p.reduction_blocks != 0 && p.reduction_blocks != p.sk_tiles * p.reduction_slices)
    return fail("reduction blocks != SK tiles x reduction slices");
  std::vector<int> covered(static_cast<size_t>(p.sk_tiles), 0);  // columns finished so far
  for (int r = 0; r < p.reduction_blocks; ++r) {
    const mapping::ReductionWork w = mapping::ReductionWorkOf(p, r);
    if (w.tile < 0 || w.tile >= p.sk_tiles) return fail("reduction block outside the SK tiles");
    const mapping::Peers peers = mapping::TilePeers(p, w.tile);
    const fixup::Step s = fixup::ReductionStep(peers, p.reduction_slices);
    if (s.wait != fixup::Wait::kNone && early + peers.last >= p.sk_blocks + p.dp_blocks + r)
      return fail("reduction block waits for a higher block");
    if (w.col_begin != covered[w.tile] || w.col_end <= w.col_begin || w.col_end > p.tile_n ||
        (p.tile_n >= 8 && (w.col_begin % 8 != 0 || w.col_end % 8 != 0)))
      return fail("reduction block " + std::to_string(r) + " columns [" +
                  std::to_string(w.col_begin) + ", " + std::to_string(w.col_end) +
                  ") do not continue its tile's slices in multiples of 8");
    covered[w.tile] = w.col_end;
    if (w.slice == 0) {  // the reduction's O(1) slot of each peer is the peer's own slot
      for (int g = 0; g < peers.count(); ++g) {
        mapping::SkUnit u = mapping::SkFirstUnit(p, peers.first + g);
        while (u.valid() && u.tile != w.tile) u = mapping::SkNextUnit(p, u);
        if (mapping::PeerSlotOffset(p, w.tile, peers, g) != mapping::PartialSlotOffset(p, u))
          return fail("PeerSlotOffset differs from PartialSlotOffset for peer " +
                      std::to_string(g) + " of tile " + std::to_string(w.tile));
      }
    }
    if (s.epilogue && w.col_end == p.tile_n) ++epilogues[w.tile];
  }
  for (int t = 0; t < p.sk_tiles && p.reduction_blocks > 0; ++t)
    if (covered[t] != p.tile_n)
      return fail("reduction slices do not cover tile " + std::to_string(t));

  // DP tiles: each exactly once, all in [sk_tiles, tiles).
  for (int d = 0; d < p.dp_blocks; ++d) {
    const mapping::DpTiles dp = mapping::DpBlockTiles(p, d);
    for (int i = 0; i < dp.count; ++i) {
      const int t = dp.first_tile + i * dp.stride;
      if (t < p.sk_tiles || t >= p.tiles) return fail("DP tile out of range");
      ++epilogues[t];
      if (count_visits)
        for (int kk = 0; kk < p.iters_per_tile; ++kk)
          ++visits[static_cast<size_t>(t) * p.iters_per_tile + kk];
    }
  }
  // Invariant 2: every output tile written by exactly one epilogue.
  for (int t = 0; t < p.tiles; ++t)
    if (epilogues[t] != 1)
      return fail("tile " + std::to_string(t) + " has " + std::to_string(epilogues[t]) +
                  " epilogues");
  // Invariant 1, counted.
  for (size_t i = 0; i < visits.size(); ++i)
    if (visits[i] != 1)
      return fail("tile " + std::to_string(i / p.iters_per_tile) + " k-iteration " +
                  std::to_string(i % p.iters_per_tile) + " computed " +
                  std::to_string(visits[i]) + " times");
  // Tile coordinates: a bijection onto the batch's tile grid.
  std::vector<uint8_t> seen(static_cast<size_t>(p.tiles), 0);
  for (int t = 0; t < p.tiles; ++t) {
    const mapping::TileCoord c = mapping::TileCoordOf(p, t);
    if (c.batch < 0 || c.batch >= p.batch || c.tm < 0 || c.tm >= p.tiles_m || c.tn < 0 ||
        c.tn >= p.tiles_n)
      return fail("tile coordinate out of range for tile " + std::to_string(t));
    uint8_t& s = seen[(static_cast<size_t>(c.batch) * p.tiles_m + c.tm) * p.tiles_n + c.tn];
    if (s++) return fail("two tiles map to one coordinate");
  }
  return "";
}

struct SweepStats {
  int plans = 0, sk_plans = 0, counted = 0;
};

TEST(WorkMappingInvariants, Sweep) {
  const int sms_list[] = {1, 2, 7, 16, 64, 108, 132};
  const int iters_list[] = {1, 2, 7, 33, 300};
  SweepStats stats;
  uint32_t rng = 12345;
  auto next = [&rng]() { return rng = rng * 1664525u + 1013904223u; };
  for (int tm = 1; tm <= 24; ++tm) {
    for (int tn = 1; tn <= 24; ++tn) {
      for (int iters : iters_list) {
        for (int sms : sms_list) {
          for (int occupancy = 1; occupancy <= 4; ++occupancy) {
            // Keep the sweep fast: every shape sees every SM count and occupancy in auto mode;
            // the other modes and strategies take a pseudo-random third of the combinations.
            DeviceSpec dev = H200Spec();
            dev.sms = sms;
            dev.occupancy = occupancy;
            Problem pr;
            pr.m = tm * 128 - (next() % 100);
            pr.n = tn * 128 - (next() % 100);
            pr.k =
                iters * dev.main().tile.k - (next() % dev.main().tile.k);  // `iters` k-iterations
            struct Variant {
              Mode mode;
              int splits, blocks;
              std::optional<Reduction> reduction;
              TileShape tile = kNoTile;
            };
            std::vector<Variant> variants = {{Mode::kAuto, 0, 0, std::nullopt}};
            if (next() % 3 == 0) {
              const Reduction red = static_cast<Reduction>(next() % 3);
              variants.push_back({Mode::kAuto, 0, 0, red});
              variants.push_back({Mode::kDataParallel, 0, 0, std::nullopt});
              variants.push_back({Mode::kSplitK, 1 + static_cast<int>(next() % iters), 0, red});
              variants.push_back({Mode::kSplitK, 0, 0, red});
              const int g_choices[] = {1, sms, sms * occupancy, 3 * sms * occupancy + 1,
                                       1 + static_cast<int>(next() % (2 * sms * occupancy))};
              variants.push_back({Mode::kStreamK, 0, g_choices[next() % 5], red});
              variants.push_back({Mode::kStreamK, 0, 0, red});
              // The third configuration's tile (tile_n 192: reduction slices and partial slots of
              // 24 fragment columns).
              variants.push_back({Mode::kStreamK, 0, 0, red, dev.TileOf(KernelRole::kMid)});
              variants.push_back({Mode::kSplitK, 0, 0, red, dev.TileOf(KernelRole::kMid)});
              // The fourth's (192 x 192: three 64-row passes of a separate reduction).
              variants.push_back({Mode::kStreamK, 0, 0, red, dev.TileOf(KernelRole::kWide)});
              variants.push_back({Mode::kSplitK, 0, 0, red, dev.TileOf(KernelRole::kWide)});
              // The sixth's (128 x 320: 40 fragment columns, 32-row passes).
              variants.push_back({Mode::kStreamK, 0, 0, red, dev.TileOf(KernelRole::kBroad)});
              variants.push_back({Mode::kSplitK, 0, 0, red, dev.TileOf(KernelRole::kBroad)});
            }
            for (const Variant& v : variants) {
              PlanOptions o;
              o.mode = v.mode, o.splits = v.splits, o.blocks = v.blocks;
              o.reduction = v.reduction, o.tile = v.tile;
              absl::StatusOr<Plan> p = MakePlan(pr, dev, o);
              ASSERT_TRUE(p.ok()) << p.status() << " m=" << pr.m << " n=" << pr.n
                                  << " k=" << pr.k << " sms=" << sms;
              const bool count = (++stats.plans % 29) == 0;
              stats.counted += count;
              stats.sk_plans += p->sk_blocks > 0;
              const std::string err = CheckPlan(*p, count);
              ASSERT_EQ(err, "") << "mode " << ModeName(v.mode);
              // Any split of the DP blocks around the SK blocks keeps the invariants: the
              // planner's, none (SK first) and all (DP first).
              if (p->sk_blocks > 0 && p->dp_blocks > 0) {
                for (int early : {0, p->dp_blocks, static_cast<int>(next() % p->dp_blocks)}) {
                  Plan q = *p;
                  q.dp_blocks_before_sk = early;
                  ASSERT_EQ(CheckPlan(q, false), "") << "dp_blocks_before_sk " << early;
                }
              }
              // Invariant 3 for auto: the Stream-K blocks fit in one resident wave.
              if (v.mode == Mode::kAuto) {
                ASSERT_LE(p->sk_blocks, sms * occupancy) << *p;
                // Invariant 5: no quantization loss -> pure DP. No loss: whole waves of SMs that
                // also fill the resident waves (sms * occupancy blocks) they run in.
                const int capacity = sms * occupancy;
                if (p->tiles % sms == 0 && (p->tiles <= capacity || p->tiles % capacity == 0))
                  ASSERT_EQ(p->mode, Mode::kDataParallel) << *p;
              }
              if (v.mode == Mode::kDataParallel) ASSERT_EQ(p->sk_blocks, 0) << *p;
              if (v.mode == Mode::kSplitK && v.splits > 0) {
                ASSERT_EQ(p->sk_blocks, p->tiles * v.splits) << *p;
                ASSERT_EQ(p->sk_regions, p->tiles) << *p;
              }
              if (v.reduction.has_value() && p->sk_blocks > 0)
                ASSERT_EQ(p->reduction, *v.reduction) << *p;
            }
          }
        }
      }
    }
  }
  // The sweep must actually exercise Stream-K plans and the counted check.
  EXPECT_GT(stats.sk_plans, stats.plans / 4);
  EXPECT_GT(stats.counted, 1000);
}

TEST(WorkMapping, BigBlocksComeFirstAndDoOneMore) {
  PlanOptions o;
  o.mode = Mode::kStreamK;
  o.blocks = 7;
  Problem pr;
  pr.m = 128, pr.n = 256, pr.k = 32 * 10;  // 2 tiles x 10 iterations = 20 over 7 blocks
  o.tile = {128, 128, 32};
  absl::StatusOr<Plan> p = MakePlan(pr, H200Spec(), o);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->sk_iters_per_normal_block, 2);
  EXPECT_EQ(p->sk_big_blocks_per_region, 6);
  const int expect[][2] = {{0, 3}, {3, 6}, {6, 9}, {9, 12}, {12, 15}, {15, 18}, {18, 20}};
  for (int b = 0; b < 7; ++b) {
    const mapping::IterRange r = mapping::SkBlockRange(*p, b);
    EXPECT_EQ(r.begin, expect[b][0]) << b;
    EXPECT_EQ(r.end, expect[b][1]) << b;
  }
  // Block 3 owns [9, 12): iteration 9 of tile 0 (it finishes tile 0), 10..11 of tile 1.
  mapping::SkUnit u = mapping::SkFirstUnit(*p, 3);
  EXPECT_EQ(u.tile, 1);
  EXPECT_EQ(u.k_begin, 0);
  EXPECT_EQ(u.k_end, 2);
  EXPECT_EQ(u.turn(), 0);
  u = mapping::SkNextUnit(*p, u);
  EXPECT_EQ(u.tile, 0);
  EXPECT_EQ(u.k_begin, 9);
  EXPECT_EQ(u.k_end, 10);
  EXPECT_TRUE(u.is_final_slice(*p));
  EXPECT_EQ(u.peers.first, 0);
  EXPECT_EQ(u.peers.last, 3);
  EXPECT_EQ(u.turn(), 3);
  EXPECT_FALSE(mapping::SkNextUnit(*p, u).valid());
}

TEST(WorkMapping, RasterBandsFollowTheLongerDimension) {
  Problem pr;
  pr.m = 128 * 20, pr.n = 128 * 3, pr.k = 64;  // tall: raster along m in bands of 3 columns
  PlanOptions o;
  o.tile = {128, 128, 32};
  absl::StatusOr<Plan> p = MakePlan(pr, H200Spec(), o);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->raster, Raster::kAlongM);
  EXPECT_EQ(p->swizzle, 3);
  // Consecutive tiles step across the band (n) first, then down m.
  const mapping::TileCoord c0 = mapping::TileCoordOf(*p, 0), c1 = mapping::TileCoordOf(*p, 1),
                           c3 = mapping::TileCoordOf(*p, 3);
  EXPECT_EQ(c0.tm, 0);
  EXPECT_EQ(c0.tn, 0);
  EXPECT_EQ(c1.tm, 0);
  EXPECT_EQ(c1.tn, 1);
  EXPECT_EQ(c3.tm, 1);
  EXPECT_EQ(c3.tn, 0);
}

// The mapping divides by plan constants with a multiply and a shift (mapping::Divide): it must
// equal '/' for every divisor and dividend a plan can hold (both below 2^31).
TEST(WorkMapping, DivisionByMultiplicationIsExact) {
  std::vector<int> divisors, dividends;
  for (int d = 1; d <= 4096; ++d) divisors.push_back(d);
  for (int l = 12; l <= 30; ++l) {
    for (int e : {-1, 0, 1}) divisors.push_back((1 << l) + e);
  }
  divisors.push_back(2147483647);
  for (int x = 0; x <= 5000; ++x) dividends.push_back(x);
  for (int l = 13; l <= 30; ++l) {
    for (int e : {-2, -1, 0, 1, 2}) dividends.push_back((1 << l) + e);
  }
  dividends.push_back(2147483646);
  dividends.push_back(2147483647);
  uint32_t rng = 2024;
  for (int i = 0; i < 2000; ++i) {
    rng = rng * 1664525u + 1013904223u;
    divisors.push_back(1 + static_cast<int>(rng % 2147483647u));
    rng = rng * 1664525u + 1013904223u;
    dividends.push_back(static_cast<int>(rng & 0x7fffffffu));
  }
  int64_t checked = 0;
  for (int d : divisors) {
    const FastDivisor f = mapping::MakeDivisor(d);
    ASSERT_EQ(f.d, d);
    for (int x : dividends) {
      ASSERT_EQ(mapping::Divide(f, x), x / d) << x << " / " << d;
      // Quotients near every multiple of d: x = q d - 1, q d, q d + d - 1.
      const int64_t q = x / d;
      for (int64_t y : {q * d - 1, q * d, q * d + d - 1}) {
        if (y < 0 || y > 2147483647) continue;
        ASSERT_EQ(mapping::Divide(f, static_cast<int>(y)), static_cast<int>(y / d))
            << y << " / " << d;
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 20000000);
}

// A plan's divisors follow its fields: the planner sets them, and a plan edited after planning
// gets fresh ones from SetDivisors (as every launch and emulation does on its copy).
TEST(WorkMapping, PlansCarryTheirDivisors) {
  Problem pr;
  pr.m = 128 * 20, pr.n = 128 * 3, pr.k = 4096;
  PlanOptions o;
  o.tile = {128, 128, 64};
  o.mode = Mode::kSplitK, o.splits = 3, o.reduction = Reduction::kSeparate, o.reduction_slices = 4;
  absl::StatusOr<Plan> p = MakePlan(pr, H200Spec(), o);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->div.iters_per_tile.d, p->iters_per_tile);
  EXPECT_EQ(p->div.tiles_per_batch.d, p->tiles_m * p->tiles_n);
  EXPECT_EQ(p->div.swizzle.d, p->swizzle);
  EXPECT_EQ(p->div.sk_blocks_per_region.d, p->sk_blocks_per_region);
  EXPECT_EQ(p->div.sk_iters_per_region.d, p->sk_iters_per_region);
  EXPECT_EQ(p->div.sk_normal.d, p->sk_iters_per_normal_block);
  EXPECT_EQ(p->div.sk_big.d, p->sk_iters_per_normal_block + 1);
  EXPECT_EQ(p->div.reduction_slices.d, 4);
  // 20 tile rows in bands of 3 columns (raster along m): the one band is all 3 columns wide.
  EXPECT_EQ(p->div.band_tiles.d, 3 * 20);
  EXPECT_EQ(p->div.last_band.d, 3);
  Plan q = *p;
  q.reduction_slices = 2;
  mapping::SetDivisors(q);
  EXPECT_EQ(mapping::ReductionWorkOf(q, 5).tile, 2);
  EXPECT_EQ(mapping::ReductionWorkOf(q, 5).col_begin, 64);
}

}  // namespace
}  // namespace streamk

// The producer loads only the part of a tile that holds the operand (tma_operands.h): a partial
// last tile along m or n (or the only tile of a narrow operand) loads k-contiguous boxes of its
// rows rounded up to a swizzle atom, or as many m/n-contiguous 64-wide boxes as they need.
TEST(TmaLoads, PartialTilesLoadOnlyTheirRows) {
  using streamk::kernels::LoadOf;
  using streamk::kernels::LoadsOf;
  using streamk::kernels::OperandLoad;
  auto same = [](OperandLoad x, int rows, int boxes, uint32_t bytes) {
    return x.box_rows == rows && x.boxes == boxes && x.bytes == bytes;
  };
  // k-contiguous (row-major A, column-major B), 64-deep iterations of 2-byte elements.
  EXPECT_TRUE(same(LoadOf(false, 16, 128, 64), 16, 1, 16 * 128));
  EXPECT_TRUE(same(LoadOf(false, 1, 128, 64), 8, 1, 8 * 128));
  EXPECT_TRUE(same(LoadOf(false, 77, 256, 64), 80, 1, 80 * 128));
  EXPECT_TRUE(same(LoadOf(false, 128, 128, 64), 128, 1, 128 * 128));
  EXPECT_TRUE(same(LoadOf(false, 16, 128, 32), 16, 1, 16 * 64));
  // m/n-contiguous (column-major A, row-major B): 64-wide boxes of 64 k-rows.
  EXPECT_TRUE(same(LoadOf(true, 16, 256, 64), 64, 1, 64 * 128));
  EXPECT_TRUE(same(LoadOf(true, 65, 256, 64), 64, 2, 2 * 64 * 128));
  EXPECT_TRUE(same(LoadOf(true, 256, 256, 64), 64, 4, 4 * 64 * 128));

  // Whole tiles load the tile's side; the partial last one, from edge_from on, only its rows.
  auto loads = LoadsOf(false, 136, 128, 64);  // 5968 x 136: the second tile holds 8 rows
  EXPECT_TRUE(same(loads.whole, 128, 1, 128 * 128));
  EXPECT_EQ(loads.edge_from, 128);
  EXPECT_TRUE(same(loads.edge, 8, 1, 8 * 128));
  loads = LoadsOf(false, 16, 128, 64);  // decode: the only tile is partial
  EXPECT_EQ(loads.edge_from, 0);
  EXPECT_TRUE(same(loads.edge, 16, 1, 16 * 128));
  EXPECT_EQ(LoadsOf(false, 256, 128, 64).edge_from, INT64_MAX);  // whole tiles only
  EXPECT_EQ(LoadsOf(false, 250, 128, 64).edge_from, INT64_MAX);  // 122 rows: a whole box anyway
  EXPECT_EQ(LoadsOf(false, 248, 128, 64).edge_from, INT64_MAX);  // 120 rows: saves too little
  EXPECT_EQ(LoadsOf(false, 224, 128, 64).edge_from, 128);        // 96 rows: a quarter saved
  EXPECT_EQ(LoadsOf(true, 200, 256, 64).edge_from, INT64_MAX);   // needs all four boxes
  loads = LoadsOf(true, 300, 256, 64);
  EXPECT_EQ(loads.edge_from, 256);
  EXPECT_TRUE(same(loads.edge, 64, 1, 64 * 128));

  // A k-contiguous side of more than 256 rows (the TMA unit's largest box: the 128 x 320 tile's
  // B) loads as two boxes of half its rows, rounded up to 8; 256 rows or fewer as one.
  EXPECT_TRUE(same(LoadOf(false, 320, 320, 64), 160, 2, 320 * 128));
  EXPECT_TRUE(same(LoadOf(false, 257, 320, 64), 136, 2, 272 * 128));
  EXPECT_TRUE(same(LoadOf(false, 256, 320, 64), 256, 1, 256 * 128));
  EXPECT_TRUE(same(LoadOf(false, 136, 320, 64), 136, 1, 136 * 128));
  EXPECT_TRUE(same(LoadOf(true, 320, 320, 64), 64, 5, 5 * 64 * 128));
  loads = LoadsOf(false, 456, 320, 64);  // the second tile holds 136 rows: one box of its own
  EXPECT_TRUE(same(loads.whole, 160, 2, 320 * 128));
  EXPECT_EQ(loads.edge_from, 320);
  EXPECT_TRUE(same(loads.edge, 136, 1, 136 * 128));
}

// A tile with few columns inside D (a decode projection's tokens, the last tile along n) runs
// narrower wgmmas (tma_operands.h): on the 128-wide configurations, the narrowest of 16, 32 and
// 64 that holds them where B is k-contiguous, 64 where its swizzle atoms are 64 columns wide;
// the wider tiles keep their width.
TEST(TmaNarrow, FewColumnsRunNarrowerWgmmas) {
  using streamk::kernels::NarrowWidthOf;
  EXPECT_EQ(NarrowWidthOf(1, 128, false), 16);
  EXPECT_EQ(NarrowWidthOf(16, 128, false), 16);
  EXPECT_EQ(NarrowWidthOf(17, 128, false), 32);
  EXPECT_EQ(NarrowWidthOf(32, 128, false), 32);
  EXPECT_EQ(NarrowWidthOf(33, 128, false), 64);
  EXPECT_EQ(NarrowWidthOf(64, 128, false), 64);
  EXPECT_EQ(NarrowWidthOf(65, 128, false), 128);
  EXPECT_EQ(NarrowWidthOf(128, 128, false), 128);
  EXPECT_EQ(NarrowWidthOf(1, 128, true), 64);
  EXPECT_EQ(NarrowWidthOf(64, 128, true), 64);
  EXPECT_EQ(NarrowWidthOf(65, 128, true), 128);
  EXPECT_EQ(NarrowWidthOf(16, 256, false), 256);
  EXPECT_EQ(NarrowWidthOf(16, 192, false), 192);
  EXPECT_EQ(NarrowWidthOf(64, 256, true), 256);
}

// Who issues a 16-bit D's row copies where the TMA unit cannot store D as a tensor
// (tma_operands.h): the copying warp where every block finishes at least two tiles, so that the
// compute warps go on to the next tile's mainloop; the compute warps where a block finishes about
// one, whose epilogue the hand-off would lengthen. Checked on the planner's own H200 plans.
TEST(TmaRowCopies, CopyingWarpWhereBlocksFinishSeveralTiles) {
  using streamk::kernels::kRowsByComputeWarps;
  using streamk::kernels::kRowsByCopyingWarp;
  using streamk::kernels::RowCopiesOf;
  EXPECT_EQ(RowCopiesOf(264, 132), kRowsByCopyingWarp);
  EXPECT_EQ(RowCopiesOf(263, 132), kRowsByComputeWarps);
  struct Case {
    int m, n, k, copies;
  };
  // Kernel shapes (row-major D, m x n): GPT-2's logits at 512 and 4096 tokens (n = 50257 words),
  // 1023^3 (a tile per block), a 7-token decode step of 11008 outputs (rows of 7 elements).
  for (const Case& c : {Case{512, 50257, 768, kRowsByCopyingWarp},
                        Case{4096, 50257, 768, kRowsByCopyingWarp},
                        Case{1023, 1023, 1023, kRowsByComputeWarps},
                        Case{11008, 7, 4096, kRowsByComputeWarps}}) {
    streamk::Problem pr;
    pr.m = c.m, pr.n = c.n, pr.k = c.k;
    absl::StatusOr<streamk::Plan> p =
        streamk::MakePlan(pr, streamk::H200Spec(), streamk::PlanOptions{});
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(RowCopiesOf(p->tiles, p->grid_blocks), c.copies)
        << c.m << " x " << c.n << " x " << c.k << ": " << p->tiles << " tiles, "
        << p->grid_blocks << " blocks";
  }
}

// The columns of a D that the TMA unit stores as a tensor: none unless its rows are aligned; all
// of them where n elements end on a 16-byte boundary; else, with beta == 0, those up to the last
// boundary before n (the threads store the rest), and none with beta != 0.
TEST(TmaRowCopies, TensorStopsAtTheLastSixteenByteBoundaryBeforeN) {
  using streamk::kernels::TensorColumnsOf;
  EXPECT_EQ(TensorColumnsOf(50304, 2, 0.0f, true), 50304);
  EXPECT_EQ(TensorColumnsOf(50304, 2, 1.0f, true), 50304);
  EXPECT_EQ(TensorColumnsOf(50257, 2, 0.0f, true), 50256);
  EXPECT_EQ(TensorColumnsOf(50257, 4, 0.0f, true), 50256);
  EXPECT_EQ(TensorColumnsOf(50259, 4, 0.0f, true), 50256);
  EXPECT_EQ(TensorColumnsOf(50260, 4, 0.0f, true), 50260);
  EXPECT_EQ(TensorColumnsOf(50257, 2, 0.5f, true), 0);
  EXPECT_EQ(TensorColumnsOf(7, 2, 0.0f, true), 0);  // no whole chunk: the rows' copies
  EXPECT_EQ(TensorColumnsOf(9, 2, 0.0f, true), 8);
  EXPECT_EQ(TensorColumnsOf(3, 4, 0.0f, true), 0);
  EXPECT_EQ(TensorColumnsOf(50304, 2, 0.0f, false), 0);  // unaligned rows: the rows' copies
}

// Which D the epilogue writes by its rows' bulk copies, and who issues them (RowsOf): never with
// beta != 0; an fp32 D only where its rows are not 16-byte aligned, by the compute warps; a
// 16-bit D always, by whom RowCopiesOf or PlanOptions::store_d says.
TEST(TmaRowCopies, Fp32RowsOnlyWhereUnalignedAndSixteenBitAlways) {
  using streamk::kernels::kRowsByComputeWarps;
  using streamk::kernels::kRowsByCopyingWarp;
  using streamk::kernels::RowsOf;
  for (bool fp32 : {false, true}) {
    for (bool aligned : {false, true}) EXPECT_EQ(RowsOf(fp32, 0.5f, aligned, 264, 132), 0);
  }
  EXPECT_EQ(RowsOf(true, 0.0f, false, 264, 132), kRowsByComputeWarps);
  EXPECT_EQ(RowsOf(true, 0.0f, false, 264, 132, kRowsByCopyingWarp), kRowsByComputeWarps);
  EXPECT_EQ(RowsOf(true, 0.0f, true, 264, 132), 0);
  for (bool aligned : {false, true}) {
    EXPECT_EQ(RowsOf(false, 0.0f, aligned, 264, 132), kRowsByCopyingWarp);
    EXPECT_EQ(RowsOf(false, 0.0f, aligned, 263, 132), kRowsByComputeWarps);
    EXPECT_EQ(RowsOf(false, 0.0f, aligned, 264, 132, kRowsByComputeWarps), kRowsByComputeWarps);
    EXPECT_EQ(RowsOf(false, 0.0f, aligned, 263, 132, kRowsByCopyingWarp), kRowsByCopyingWarp);
  }
}

// Which launches run the 128 x 128 configuration's ping-pong variant (PingPongOf): data-parallel
// plans of that tile alone, with D stored by TMA, on K-major operand rows on 128-byte lines (or
// copied to such rows), where blocks compute two tiles or more of 8-24 k-iterations (as measured
// on an H200); never a plan with Stream-K or reduction blocks (their fixups use the shared tiles'
// stages), another tile, or a D stored another way, even where PlanOptions::pingpong asks for it.
// Checked on the planner's own H200 plans, of packed K-major operands (rows of K elements).
TEST(TmaPingPong, DataParallelPlansOf128x128TilesStoredByTma) {
  using streamk::kernels::PingPongOf;
  auto plan = [](int m, int n, int k, streamk::PlanOptions o) {
    streamk::Problem pr;
    pr.m = m, pr.n = n, pr.k = k;
    const bool lines = 2 * k % streamk::kLineRowBytes == 0;
    pr.a.row_align = pr.b.row_align = lines ? streamk::kLineRowBytes : streamk::kFastRowBytes;
    absl::StatusOr<streamk::Plan> p = streamk::MakePlan(pr, streamk::H200Spec(), o);
    EXPECT_TRUE(p.ok()) << p.status();
    return p.value_or(streamk::Plan{});
  };
  streamk::PlanOptions dp;
  dp.mode = streamk::Mode::kDataParallel;
  dp.tile = {128, 128, 64};
  // Ping-pong runs static plans only; unset, a plan of several rounds whose ping-pong is not
  // priced claims its tiles from a counter (dynamic).
  dp.schedule = streamk::Schedule::kStatic;
  // 800 tiles on 132 blocks: ping-pong by default, not without a TMA store or when forced off.
  const streamk::Plan many = plan(5120, 2560, 1024, dp);
  ASSERT_EQ(many.tiles, 800);
  ASSERT_EQ(many.grid_blocks, 132);
  EXPECT_TRUE(PingPongOf(many, true));
  EXPECT_FALSE(PingPongOf(many, false));
  EXPECT_FALSE(PingPongOf(many, false, 1));
  EXPECT_FALSE(PingPongOf(many, true, -1));
  EXPECT_TRUE(PingPongOf(many, true, 1));
  // Auto's own pick for this shape is that plan (data-parallel, 128 x 128).
  EXPECT_TRUE(PingPongOf(plan(5120, 2560, 1024, {}), true));
  // 64 tiles on 64 blocks: each block one tile, so shared tiles unless forced on.
  const streamk::Plan one = plan(1024, 1024, 1024, dp);
  ASSERT_EQ(one.tiles, one.grid_blocks);
  EXPECT_FALSE(PingPongOf(one, true));
  EXPECT_TRUE(PingPongOf(one, true, 1));
  // Two tiles a block and more, 8-24 k-iterations: 272 tiles on 132 blocks (1.05x as fast with
  // ping-pong on an H200), 16 and 24 deep; not 32 deep (0.99x), nor 4 (1.00x at 4 tiles a block).
  EXPECT_TRUE(PingPongOf(plan(2048, 2176, 1024, dp), true));
  EXPECT_TRUE(PingPongOf(plan(2048, 2176, 1536, dp), true));
  EXPECT_FALSE(PingPongOf(plan(2048, 2176, 2048, dp), true));
  EXPECT_FALSE(PingPongOf(plan(3072, 3072, 256, dp), true));
  EXPECT_TRUE(PingPongOf(plan(3072, 3072, 512, dp), true));
  EXPECT_FALSE(PingPongOf(plan(2048, 2048, 1024, dp), true));  // 256 tiles: 1.94 a block
  // Rows off 128-byte lines (K = 1008: 2016-byte rows, 0.88x), unless copied.
  streamk::Plan off_lines = plan(4096, 8192, 1008, dp);
  ASSERT_FALSE(off_lines.a.rows_on_lines());
  EXPECT_FALSE(PingPongOf(off_lines, true));
  EXPECT_TRUE(PingPongOf(off_lines, true, 1));
  off_lines.b.row_align = streamk::kLineRowBytes;
  EXPECT_FALSE(PingPongOf(off_lines, true));
  off_lines.repack_a = true;
  EXPECT_TRUE(PingPongOf(off_lines, true));
  EXPECT_TRUE(PingPongOf(plan(4096, 8192, 1024, dp), true));
  // Stream-K and split-K plans, and other tiles: never.
  streamk::PlanOptions sk = dp;
  sk.mode = streamk::Mode::kStreamK;
  const streamk::Plan stream = plan(5120, 2560, 1024, sk);
  ASSERT_GT(stream.sk_blocks, 0);
  EXPECT_FALSE(PingPongOf(stream, true, 1));
  streamk::PlanOptions split = dp;
  split.mode = streamk::Mode::kSplitK;
  split.splits = 2;
  const streamk::Plan splitk = plan(1024, 1024, 4096, split);
  ASSERT_GT(splitk.sk_blocks, 0);
  EXPECT_FALSE(PingPongOf(splitk, true, 1));
  streamk::PlanOptions wide = dp;
  wide.tile = {128, 256, 64};
  EXPECT_FALSE(PingPongOf(plan(5120, 2560, 1024, wide), true, 1));
}
