// The Stream-K planner (see planner.h and DESIGN section 4).
//
// Auto mode follows the hybrid of the Stream-K paper and CUTLASS 2.x: keep the full data-parallel
// waves and spread the quantized remainder over one wave of Stream-K blocks ("two-tile": the last
// full wave plus the partial wave, so each Stream-K block gets between one and two tiles of
// iterations; "one-tile": the partial wave alone, when fewer full waves than resident blocks per
// SM run anyway). The number of Stream-K blocks is the one with the lowest predicted time under the
// cost model; data-parallel and the best split-K are weighed against it, and data-parallel wins
// unless another candidate is predicted to be clearly faster.
#include "streamk/planner.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "work_mapping.h"

namespace streamk {
namespace {

// ---- heuristic constants ------------------------------------------------------------------------

// A Stream-K block with fewer iterations than this spends more on fixup than it saves (the same
// bound as CUTLASS 2.x's kMinItersPerSkBlock).
constexpr int kMinItersPerSkBlock = 2;
// Auto weighs split-K with 2..kMaxAutoSplits slices per tile; beyond that the fixup of a split-K
// tile costs more than the iterations it spreads.
constexpr int kMaxAutoSplits = 16;
// Auto leaves data-parallel only for a predicted gain of at least this fraction: the cost model's
// error is of this order, and losing to data-parallel is the failure users notice.
constexpr double kMinPredictedGain = 0.03;
// Band width of the tile raster, in tiles: a band of 8 tile rows (or columns) keeps the operand
// panels that the ~132 concurrently running tiles share resident in L2.
constexpr int kDefaultSwizzle = 8;
// Tile dimensions the planner accepts for what-if planning (the kernel runs 128x128x32 only).
constexpr int kMaxTileDim = 1024;

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t AlignUp(int64_t x, int64_t a) { return CeilDiv(x, a) * a; }

// The shape of one decomposition before the derived fields are filled in.
struct Decomposition {
  Mode mode = Mode::kDataParallel;
  int sk_tiles = 0;
  int sk_blocks = 0;
  Reduction reduction = Reduction::kDeterministic;
};

// Fills every field of `plan` that follows from the problem fields and `d`.
void Derive(const Decomposition& d, Plan& p) {
  p.mode = d.mode;
  p.reduction = d.reduction;
  p.sk_tiles = d.sk_tiles;
  p.dp_tiles = p.tiles - d.sk_tiles;
  const int sk_iters = d.sk_tiles * p.iters_per_tile;
  p.sk_blocks = std::min(d.sk_blocks, sk_iters);
  p.sk_regions = p.sk_blocks_per_region = p.sk_iters_per_region = 0;
  p.sk_iters_per_normal_block = p.sk_big_blocks_per_region = p.sk_waves = 0;
  if (p.sk_blocks > 0) {
    p.sk_waves = static_cast<int>(CeilDiv(p.sk_blocks, p.avail_sms));
    // Split-K is the special case where blocks divide evenly over tiles: one region per tile, so
    // every tile is cut into equal slices and no block straddles two tiles.
    p.sk_regions = (p.sk_blocks % p.sk_tiles == 0) ? p.sk_tiles : 1;
    p.sk_blocks_per_region = p.sk_blocks / p.sk_regions;
    p.sk_iters_per_region = sk_iters / p.sk_regions;
    p.sk_iters_per_normal_block = p.sk_iters_per_region / p.sk_blocks_per_region;
    p.sk_big_blocks_per_region =
        p.sk_iters_per_region - p.sk_iters_per_normal_block * p.sk_blocks_per_region;
  } else {
    p.sk_tiles = 0;
    p.dp_tiles = p.tiles;
  }

  p.dp_blocks = p.dp_tiles;
  p.dp_first_wave_tiles = 1;
  if (p.sk_waves > 0 && p.occupancy > 1) {
    // Give the first data-parallel wave extra tiles so that Stream-K waves plus data-parallel
    // waves make whole sets of `occupancy` waves (CUTLASS 2.x's "waveset" correction).
    const int dp_tile_waves = static_cast<int>(CeilDiv(p.dp_tiles, p.avail_sms));
    const int full_dp_tile_waves = p.dp_tiles / p.avail_sms;
    const int excess = (p.sk_waves + dp_tile_waves) % p.occupancy;
    if (1 + excess <= full_dp_tile_waves) {
      p.dp_first_wave_tiles += excess;
      p.dp_blocks -= excess * p.avail_sms;
    }
  }

  p.reduction_blocks = (p.sk_blocks > 0 && p.reduction == Reduction::kSeparate) ? p.sk_tiles : 0;
  p.work_blocks = p.sk_blocks + p.dp_blocks + p.reduction_blocks;
  p.grid_blocks = std::min(p.work_blocks, p.avail_sms * p.occupancy);

  p.partial_tile_bytes = p.partials_offset = p.partials_bytes = 0;
  p.flags_offset = p.flags_bytes = p.workspace_bytes = 0;
  if (p.sk_blocks > 0) {
    p.partial_tile_bytes = int64_t{p.tile_m} * p.tile_n * 4;  // fp32
    const int64_t slots =
        p.reduction == Reduction::kSeparate ? 2 * int64_t{p.sk_blocks} : int64_t{p.sk_tiles};
    p.partials_bytes = slots * p.partial_tile_bytes;
    p.flags_offset = AlignUp(p.partials_bytes, Plan::kWorkspaceAlignment);
    p.flags_bytes = int64_t{p.sk_tiles} * 4;
    p.workspace_bytes = AlignUp(p.flags_offset + p.flags_bytes, Plan::kWorkspaceAlignment);
  }
}

// Most blocks that share one Stream-K tile, in O(1): blocks of at least `normal` iterations
// laid over a tile of iters_per_tile iterations touch at most ceil((ipt - 1) / normal) + 1 of them.
int MaxPeers(const Plan& p) {
  if (p.sk_blocks == 0) return 0;
  if (p.sk_regions > 1) return p.sk_blocks_per_region;
  const int normal = p.sk_iters_per_normal_block;
  const int64_t bound = CeilDiv(p.iters_per_tile - 1, normal) + 1;
  return static_cast<int>(std::min<int64_t>(bound, p.sk_blocks));
}

Decomposition DataParallel() { return {Mode::kDataParallel, 0, 0, Reduction::kDeterministic}; }

// The best split-K over all tiles with `splits` in [lo, hi]; nullopt when the range is empty.
std::optional<Decomposition> BestSplitK(Plan& scratch, const CostModel& cost, int lo, int hi,
                                        Reduction reduction) {
  std::optional<Decomposition> best;
  double best_us = std::numeric_limits<double>::infinity();
  for (int s = lo; s <= hi; ++s) {
    const Decomposition d{Mode::kSplitK, scratch.tiles, scratch.tiles * s, reduction};
    Derive(d, scratch);
    const double us = PredictMicros(scratch, cost);
    if (us < best_us) best_us = us, best = d;
  }
  return best;
}

// The Stream-K block count in [lo, hi] with the lowest predicted time for `sk_tiles` Stream-K tiles.
std::optional<Decomposition> BestStreamK(Plan& scratch, const CostModel& cost, int sk_tiles,
                                         int lo, int hi, Reduction reduction) {
  std::optional<Decomposition> best;
  double best_us = std::numeric_limits<double>::infinity();
  for (int g = lo; g <= hi; ++g) {
    const Decomposition d{Mode::kStreamK, sk_tiles, g, reduction};
    Derive(d, scratch);
    const double us = PredictMicros(scratch, cost);
    if (us < best_us) best_us = us, best = d;
  }
  return best;
}

// The paper's hybrid: which tiles go Stream-K and the block-count range to search, or a note why
// there is no Stream-K candidate.
struct HybridShape {
  int sk_tiles = 0, min_blocks = 0, max_blocks = 0;
  std::string note;
};

HybridShape ShapeHybrid(const Plan& p) {
  HybridShape h;
  const int sms = p.avail_sms;
  const int full_waves = p.tiles / sms;
  const int partial = p.tiles % sms;
  if (partial == 0) {
    h.note = absl::StrFormat("%d tiles fill %d whole waves of %d SMs: no quantization to fix",
                             p.tiles, full_waves, sms);
    return h;
  }
  int max_occupancy;
  if (full_waves < p.occupancy) {
    // One-tile: the partial wave alone forms the Stream-K wave; it runs beside the full waves.
    h.sk_tiles = partial;
    max_occupancy = p.occupancy - full_waves;
    h.min_blocks = std::min(sms, partial + 1);
    h.note = absl::StrFormat("one-tile: the partial wave's %d tiles over the free resident slots",
                             partial);
  } else {
    // Two-tile: the last full wave plus the partial wave, so each block gets 1 to 2 tiles of work.
    h.sk_tiles = partial + sms;
    max_occupancy = p.occupancy - (full_waves - 1) % p.occupancy;
    h.min_blocks = sms;
    h.note = absl::StrFormat("two-tile: the last full wave plus the partial wave (%d tiles)",
                             h.sk_tiles);
  }
  const int64_t sk_iters = int64_t{h.sk_tiles} * p.iters_per_tile;
  h.max_blocks = static_cast<int>(
      std::min<int64_t>(int64_t{sms} * max_occupancy, sk_iters / kMinItersPerSkBlock));
  if (h.max_blocks < h.min_blocks) {
    h.note += absl::StrFormat("; too few iterations (%d) for %d blocks of at least %d", sk_iters,
                              h.min_blocks, kMinItersPerSkBlock);
    h.sk_tiles = 0;
  }
  return h;
}

Candidate Describe(const std::string& name, const Plan& p, const CostModel& cost,
                   std::string note) {
  Candidate c;
  c.name = name;
  c.mode = p.mode;
  c.dp_tiles = p.dp_tiles;
  c.sk_tiles = p.sk_tiles;
  c.sk_blocks = p.sk_blocks;
  c.splits = p.mode == Mode::kSplitK && p.sk_tiles > 0 ? p.sk_blocks / p.sk_tiles : 0;
  c.reduction = p.reduction;
  c.predicted_us = PredictMicros(p, cost);
  c.note = std::move(note);
  return c;
}

absl::Status Validate(const Problem& pr, const DeviceSpec& dev, const PlanOptions& o) {
  auto positive = [](const char* name, int64_t v) -> absl::Status {
    if (v < 1) return absl::InvalidArgumentError(absl::StrCat(name, " = ", v, ": must be >= 1"));
    if (v > std::numeric_limits<int32_t>::max())
      return absl::InvalidArgumentError(absl::StrCat(name, " = ", v, ": must fit in int32"));
    return absl::OkStatus();
  };
  for (auto [name, v] : {std::pair<const char*, int64_t>{"m", pr.m}, {"n", pr.n}, {"k", pr.k},
                         {"batch", pr.batch}}) {
    if (absl::Status s = positive(name, v); !s.ok()) return s;
  }
  if (pr.input == DType::kF32)
    return absl::InvalidArgumentError("input dtype = fp32: A and B must be fp16 or bf16");
  if (dev.sms < 1)
    return absl::InvalidArgumentError(
        absl::StrCat("device.sms = ", dev.sms, ": a device needs at least one SM"));
  if (dev.occupancy < 1)
    return absl::InvalidArgumentError(absl::StrCat(
        "device.occupancy = ", dev.occupancy,
        ": the kernel must fit at least one block per SM (0 means it cannot run on this device)"));
  for (auto [name, v] : {std::pair<const char*, int>{"tile.m", o.tile.m}, {"tile.n", o.tile.n},
                         {"tile.k", o.tile.k}}) {
    if (v < 1 || v > kMaxTileDim)
      return absl::InvalidArgumentError(
          absl::StrCat(name, " = ", v, ": must be in [1, ", kMaxTileDim, "]"));
  }
  if (o.avail_sms < 0 || o.avail_sms > dev.sms)
    return absl::InvalidArgumentError(absl::StrCat("avail_sms = ", o.avail_sms,
                                                   ": must be in [0, ", dev.sms,
                                                   "] (0: all SMs of ", dev.name, ")"));
  if (o.splits < 0) return absl::InvalidArgumentError("splits must be >= 0");
  if (o.blocks < 0) return absl::InvalidArgumentError("blocks must be >= 0");
  if (o.splits != 0 && o.mode != Mode::kSplitK)
    return absl::InvalidArgumentError(absl::StrCat("splits = ", o.splits, " with mode ",
                                                   ModeName(o.mode),
                                                   ": splits only applies to mode splitk"));
  if (o.blocks != 0 && o.mode != Mode::kStreamK)
    return absl::InvalidArgumentError(absl::StrCat("blocks = ", o.blocks, " with mode ",
                                                   ModeName(o.mode),
                                                   ": blocks only applies to mode streamk"));
  if (o.reduction.has_value() && o.mode == Mode::kDataParallel)
    return absl::InvalidArgumentError(
        "reduction set with mode dp: data-parallel tiles have no partial sums to reduce");
  return absl::OkStatus();
}

}  // namespace

double PredictMicros(const Plan& p, const CostModel& cost) {
  // Costs are per SM; the constants are for a 128x128x32 tile and scale with tile volume / area.
  const double volume = double{1.0} * p.tile_m * p.tile_n * p.tile_k / (128.0 * 128.0 * 32.0);
  const double area = double{1.0} * p.tile_m * p.tile_n / (128.0 * 128.0);
  const double iter = cost.iter_us * volume;
  const double b = cost.partial_us * area, d = cost.peer_us * area, e = cost.epilogue_us * area;
  const int sms = p.avail_sms;

  double us = cost.block_us;
  us += static_cast<double>(CeilDiv(p.dp_tiles, sms)) * (p.iters_per_tile * iter + e);
  if (p.sk_blocks == 0) return us;

  const int iters_per_block = p.sk_iters_per_normal_block + (p.sk_big_blocks_per_region > 0);
  const int64_t blocks_per_sm = CeilDiv(p.sk_blocks, sms);
  const int peers = MaxPeers(p);
  us += static_cast<double>(blocks_per_sm) * iters_per_block * iter;
  if (peers <= 1) return us + static_cast<double>(CeilDiv(p.sk_tiles, sms)) * e;

  switch (p.reduction) {
    case Reduction::kDeterministic:
      // Turnstile: the first peer stores, each later one reads, adds and stores in turn.
      us += (peers - 1) * (b + d);
      us += static_cast<double>(CeilDiv(p.sk_tiles, std::min(sms, p.sk_blocks))) * e;
      break;
    case Reduction::kAtomic:
      // The first peer stores, the middle ones add at once, the finisher reads.
      us += (peers > 2 ? 2 * b : b) + d;
      us += static_cast<double>(CeilDiv(p.sk_tiles, std::min(sms, p.sk_blocks))) * e;
      break;
    case Reduction::kSeparate:
      // Every peer stores at once; a reduction wave reads all peers of a tile and finishes it.
      us += b + static_cast<double>(CeilDiv(p.reduction_blocks, sms)) * (peers * d + e);
      break;
  }
  return us;
}

absl::StatusOr<Plan> MakePlan(const Problem& problem, const DeviceSpec& device,
                              const PlanOptions& options) {
  return MakePlan(problem, device, options, nullptr);
}

absl::StatusOr<Plan> MakePlan(const Problem& problem, const DeviceSpec& device,
                              const PlanOptions& o, PlanExplanation* why) {
  if (absl::Status s = Validate(problem, device, o); !s.ok()) return s;

  Plan p;
  p.m = static_cast<int>(problem.m);
  p.n = static_cast<int>(problem.n);
  p.k = static_cast<int>(problem.k);
  p.batch = static_cast<int>(problem.batch);
  p.tile_m = o.tile.m;
  p.tile_n = o.tile.n;
  p.tile_k = o.tile.k;
  p.tiles_m = static_cast<int>(CeilDiv(p.m, p.tile_m));
  p.tiles_n = static_cast<int>(CeilDiv(p.n, p.tile_n));
  p.iters_per_tile = static_cast<int>(CeilDiv(p.k, p.tile_k));
  const int64_t tiles = int64_t{p.tiles_m} * p.tiles_n * p.batch;
  // tiles < 2^62 (each factor < 2^31 / 1); test it alone first so the product cannot overflow.
  constexpr int64_t kMaxInt = std::numeric_limits<int32_t>::max();
  if (tiles > kMaxInt || tiles * p.iters_per_tile > kMaxInt)
    return absl::InvalidArgumentError(absl::StrCat(
        "m x n x k x batch = ", problem.m, "x", problem.n, "x", problem.k, "x", problem.batch,
        ": ", tiles, " tiles of ", p.iters_per_tile,
        " iterations exceed 2^31 - 1 iterations; split the batch"));
  p.tiles = static_cast<int>(tiles);
  p.avail_sms = o.avail_sms > 0 ? o.avail_sms : device.sms;
  p.occupancy = device.occupancy;
  p.raster = p.tiles_n >= p.tiles_m ? Raster::kAlongN : Raster::kAlongM;
  p.swizzle = std::min(kDefaultSwizzle, p.raster == Raster::kAlongN ? p.tiles_m : p.tiles_n);

  const CostModel& cost = device.cost;
  const Reduction reduction = o.reduction.value_or(Reduction::kDeterministic);
  const int capacity = p.avail_sms * p.occupancy;  // blocks resident at once
  const int64_t all_iters = int64_t{p.tiles} * p.iters_per_tile;
  PlanExplanation local;
  PlanExplanation& ex = why != nullptr ? *why : local;
  ex = PlanExplanation{};
  const bool explain = why != nullptr;

  Plan scratch = p;
  Decomposition chosen = DataParallel();
  std::string reason;

  switch (o.mode) {
    case Mode::kDataParallel:
      reason = "mode dp requested";
      break;
    case Mode::kSplitK: {
      if (o.splits > p.iters_per_tile)
        return absl::InvalidArgumentError(absl::StrCat(
            "splits = ", o.splits, ": must not exceed the k-iterations per tile (",
            p.iters_per_tile, " = ceil(k ", p.k, " / tile_k ", p.tile_k, "))"));
      const int lo = o.splits > 0 ? o.splits : 1;
      const int hi = o.splits > 0 ? o.splits : std::min(p.iters_per_tile, kMaxAutoSplits);
      chosen = *BestSplitK(scratch, cost, lo, hi, reduction);
      reason = o.splits > 0 ? absl::StrCat("mode splitk with ", o.splits, " splits requested")
                            : "mode splitk requested; split count with the lowest predicted time";
      break;
    }
    case Mode::kStreamK: {
      if (o.blocks > 0) {
        chosen = {Mode::kStreamK, p.tiles, o.blocks, reduction};
        reason = absl::StrCat("mode streamk with ", o.blocks, " blocks requested");
        if (o.blocks > all_iters)
          absl::StrAppend(&reason, "; clamped to ", all_iters,
                          " blocks, one per iteration at least");
      } else {
        const int hi = static_cast<int>(std::min<int64_t>(capacity, all_iters));
        chosen = *BestStreamK(scratch, cost, p.tiles, 1, hi, reduction);
        reason = "mode streamk requested; block count with the lowest predicted time";
      }
      break;
    }
    case Mode::kAuto: {
      // Candidate 1: data-parallel.
      Derive(DataParallel(), scratch);
      const double dp_us = PredictMicros(scratch, cost);
      if (explain) ex.candidates.push_back(Describe("dp", scratch, cost, "one block per tile"));
      double best_us = dp_us;
      std::string best_name = "dp";

      // Candidate 2: the best split-K over all tiles, at most one resident wave of blocks.
      const int max_splits = std::min({p.iters_per_tile, kMaxAutoSplits, capacity / p.tiles});
      if (max_splits >= 2) {
        const Decomposition d = *BestSplitK(scratch, cost, 2, max_splits, reduction);
        Derive(d, scratch);
        const double us = PredictMicros(scratch, cost);
        if (explain)
          ex.candidates.push_back(Describe("splitk", scratch, cost,
                                           absl::StrCat("best of 2..", max_splits, " splits")));
        if (us < best_us * (1 - kMinPredictedGain)) best_us = us, chosen = d, best_name = "splitk";
      } else if (explain) {
        Candidate c;
        c.name = "splitk";
        c.mode = Mode::kSplitK;
        c.feasible = false;
        c.note = p.iters_per_tile < 2 ? "one k-iteration per tile: nothing to split"
                                      : "2 splits per tile exceed one resident wave";
        ex.candidates.push_back(c);
      }

      // Candidate 3: the hybrid (DP waves + one Stream-K wave).
      const HybridShape h = ShapeHybrid(p);
      if (h.sk_tiles > 0) {
        Decomposition d =
            *BestStreamK(scratch, cost, h.sk_tiles, h.min_blocks, h.max_blocks, reduction);
        Derive(d, scratch);
        double us = PredictMicros(scratch, cost);
        std::string note = h.note;
        // Many peers per tile and spare resident slots: a separate reduction wave may pay.
        if (!o.reduction.has_value() && scratch.sk_blocks > 2 * scratch.sk_tiles &&
            scratch.sk_waves < p.occupancy) {
          Decomposition sep = d;
          sep.reduction = Reduction::kSeparate;
          Derive(sep, scratch);
          const double sep_us = PredictMicros(scratch, cost);
          if (sep_us < us) {
            d = sep, us = sep_us;
            absl::StrAppend(&note, "; separate reduction wave (", MaxPeers(scratch),
                            " peers per tile)");
          } else {
            Derive(d, scratch);
          }
        }
        if (explain) ex.candidates.push_back(Describe("streamk", scratch, cost, note));
        if (us < best_us * (1 - kMinPredictedGain) && us < best_us)
          best_us = us, chosen = d, best_name = "streamk";
      } else if (explain) {
        Candidate c;
        c.name = "streamk";
        c.mode = Mode::kStreamK;
        c.feasible = false;
        c.note = h.note;
        ex.candidates.push_back(c);
      }

      if (best_name == "dp") {
        reason = h.sk_tiles == 0 && p.tiles % p.avail_sms == 0
                     ? h.note
                     : absl::StrFormat(
                           "no candidate is predicted to beat data-parallel by %.0f%% or more",
                           kMinPredictedGain * 100);
      } else {
        reason = absl::StrFormat("%s is predicted %.2fx faster than data-parallel (%.1f vs %.1f us)",
                                 best_name, dp_us / best_us, best_us, dp_us);
      }
      break;
    }
  }

  Derive(chosen, p);
  if (explain) {
    ex.reason = reason;
    ex.predicted_us = PredictMicros(p, cost);
    if (o.mode != Mode::kAuto) {
      ex.candidates.push_back(Describe(std::string(ModeName(p.mode)), p, cost, "requested"));
    }
    for (size_t i = 0; i < ex.candidates.size(); ++i) {
      const Candidate& c = ex.candidates[i];
      if (c.feasible && c.mode == p.mode && c.sk_blocks == p.sk_blocks &&
          c.sk_tiles == p.sk_tiles && c.reduction == p.reduction)
        ex.chosen = static_cast<int>(i);
    }
  }
  return p;
}

}  // namespace streamk
