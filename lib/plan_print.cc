// Text, JSON and one-line renderings of a Plan (see plan_print.h).
#include "streamk/plan_print.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include <nlohmann/json.hpp>
#include "tma_operands.h"
#include "work_mapping.h"

namespace streamk {
namespace {

struct PeerStats {
  int min = 0, max = 0;
  int shared_tiles = 0;  // Stream-K tiles with more than one peer
};

PeerStats ComputePeerStats(const Plan& p) {
  PeerStats s;
  if (p.sk_blocks == 0) return s;
  s.min = p.sk_blocks;
  for (int t = 0; t < p.sk_tiles; ++t) {
    const int c = mapping::TilePeers(p, t).count();
    s.min = std::min(s.min, c);
    s.max = std::max(s.max, c);
    s.shared_tiles += c > 1;
  }
  return s;
}

std::string Bytes(int64_t b) {
  if (b >= (int64_t{1} << 20)) return absl::StrFormat("%d (%.1f MiB)", b, b / 1048576.0);
  if (b >= 1024) return absl::StrFormat("%d (%.1f KiB)", b, b / 1024.0);
  return absl::StrCat(b);
}

}  // namespace

std::string DescribeOutputWrites(const Plan& plan, DType output, float beta, int64_t ldd,
                                 bool tma_kernel) {
  const int bytes = DTypeBytes(output);
  const int64_t chunk = 16 / bytes;  // elements in 16 bytes
  const bool aligned = ldd * bytes % 16 == 0;
  const int64_t cols = kernels::TensorColumnsOf(plan.n, bytes, beta, aligned);
  std::string rows = absl::StrFormat("%s D in rows of %d elements", DTypeName(output), ldd);
  if (!aligned) {
    absl::StrAppendFormat(&rows, ", not 16-byte aligned; rows of a multiple of %d would be",
                          chunk);
  } else if (plan.n < chunk) {
    absl::StrAppendFormat(&rows, ": n = %d holds no whole 16 bytes", plan.n);
  }
  const char* const c_too = beta != 0.0f ? " and read C" : "";
  if (!tma_kernel) {
    return absl::StrFormat("the epilogue's own stores%s, %s (%s)", c_too,
                           aligned ? "16 bytes at a time" : "element by element", rows);
  }
  // The 320-wide tile's area holds three of its five boxes: TMA stores for a 16-bit D without C
  // alone, in two rounds; no bulk copies of rows.
  const bool narrow_area = !kernels::AsyncStoresOf(plan.tile_n);
  const char* const rounds = narrow_area ? " in two rounds a tile (three boxes, then two)" : "";
  // Ping-pong: the two compute warp groups take turns at the tiles (Plan::pingpong).
  const std::string turns =
      plan.pingpong
          ? absl::StrFormat("; ping-pong: the compute warp groups take turns at the %d tiles on "
                            "%d blocks, each one's epilogue under the other's mainloop",
                            plan.tiles, plan.grid_blocks)
          : "";
  switch (plan.store_d) {
    case StoreD::kTma:
      if (cols == plan.n || cols == 0) {
        return absl::StrFormat("TMA stores from swizzled boxes%s%s (%s)%s", rounds,
                               beta != 0.0f ? ", C loaded by TMA" : "", rows, turns);
      }
      return absl::StrFormat(
          "TMA stores of columns 0-%d%s, the compute threads storing the last %d of each row (%s: "
          "n ends inside a 16-byte chunk)%s",
          cols - 1, rounds, plan.n - cols, rows, turns);
    case StoreD::kRowsCopyWarp:
      return absl::StrFormat(
          "a bulk copy per row, issued by the copying warp (%d tiles on %d blocks), the rows' "
          "ends by the compute warps (%s)",
          plan.tiles, plan.grid_blocks, rows);
    case StoreD::kRows:
      return absl::StrFormat("a bulk copy per row%s, issued by the compute warps, and the rows' "
                             "ends (%s)",
                             output == DType::kF32 ? " in two rounds a tile" : "", rows);
    case StoreD::kThreads:
      break;
  }
  if (narrow_area) {
    return absl::StrFormat(
        "the epilogue's own stores%s, %s (%s; the %d-wide tile stores a 16-bit D without C "
        "alone by TMA)",
        c_too, aligned ? "16 bytes at a time where the row allows" : "element by element", rows,
        plan.tile_n);
  }
  return absl::StrFormat(
      "the epilogue's own stores%s, %s (%s%s)", c_too,
      aligned ? "16 bytes at a time where the row allows" : "element by element", rows,
      beta != 0.0f ? "; the rows' bulk copies and a TMA store short of n take beta 0 only" : "");
}

std::ostream& operator<<(std::ostream& os, const Plan& plan) { return os << PlanSummary(plan); }

std::string RepackName(const Plan& p) {
  return absl::StrCat(p.repack_a ? "a" : "", p.repack_b ? "b" : "");
}

const char* OperandsName(bool a, bool b) { return a && b ? "A and B" : a ? "A" : "B"; }

std::string PlanSummary(const Plan& p) {
  std::string s = absl::StrFormat(
      "mode=%s m=%d n=%d k=%d batch=%d tile=%dx%dx%d tiles=%d iters_per_tile=%d dp_tiles=%d "
      "sk_tiles=%d sk_blocks=%d sk_regions=%d iters_per_block=%d+%d big=%d dp_blocks=%d "
      "dp_first_wave_tiles=%d dp_before_sk=%d reduction=%s reduction_blocks=%d/%d grid=%d/%d "
      "sms=%d occupancy=%d workspace=%d repack=%s",
      ModeName(p.mode), p.m, p.n, p.k, p.batch, p.tile_m, p.tile_n, p.tile_k, p.tiles,
      p.iters_per_tile, p.dp_tiles, p.sk_tiles, p.sk_blocks, p.sk_regions,
      p.sk_iters_per_normal_block, p.sk_big_blocks_per_region > 0 ? 1 : 0,
      p.sk_big_blocks_per_region, p.dp_blocks, p.dp_first_wave_tiles, p.dp_blocks_before_sk,
      ReductionName(p.reduction), p.reduction_blocks, p.reduction_slices, p.grid_blocks,
      p.work_blocks, p.avail_sms, p.occupancy, p.workspace_bytes, RepackName(p));
  if (p.cluster_m > 1) absl::StrAppend(&s, " cluster=", p.cluster_m);
  if (p.groups > 0) absl::StrAppend(&s, " groups=", p.groups, "/", p.groups_with_rows);
  if (p.schedule == Schedule::kDynamic) absl::StrAppend(&s, " schedule=dynamic");
  if (p.pingpong) absl::StrAppend(&s, " pingpong");
  return s;
}

std::string FormatPlan(const Plan& p, const PlanExplanation* why, const std::string& device) {
  const PeerStats peers = ComputePeerStats(p);
  const int waves_full = p.tiles / p.avail_sms;
  const int waves_partial = p.tiles % p.avail_sms;
  std::string s;
  absl::StrAppendFormat(&s, "problem     %d x %d x %d, batch %d, tile %dx%dx%d\n", p.m, p.n, p.k,
                        p.batch, p.tile_m, p.tile_n, p.tile_k);
  if (p.groups > 0 && p.rows_bound) {
    absl::StrAppendFormat(&s,
                          "groups      %d, stacked in the %d rows of A and D, each with its own "
                          "B, group ends read on the device: %d tile rows, as many as any "
                          "routing of the rows fills and one more\n",
                          p.groups, p.m, p.tiles_m);
  } else if (p.groups > 0) {
    absl::StrAppendFormat(&s,
                          "groups      %d (%d with rows), stacked in the %d rows of A and D, "
                          "each with its own B; %d tile rows of the groups' own\n",
                          p.groups, p.groups_with_rows, p.m, p.tiles_m);
  }
  if (p.cluster_m > 1) {
    absl::StrAppendFormat(&s,
                          "device      %s%s%d clusters of %d SMs (avail), each block a cluster "
                          "sharing B's loads; %d rows of each tile per SM\n",
                          device, device.empty() ? "" : ", ", p.avail_sms, p.cluster_m,
                          p.tile_m / p.cluster_m);
  } else {
    absl::StrAppendFormat(&s, "device      %s%s%d SMs (avail), occupancy %d blocks/SM\n", device,
                          device.empty() ? "" : ", ", p.avail_sms, p.occupancy);
  }
  absl::StrAppendFormat(&s, "tiles       %d (%d x %d x %d), %d iterations each\n", p.tiles,
                        p.tiles_m, p.tiles_n, p.batch, p.iters_per_tile);
  if (p.a.rows_misaligned() || p.b.rows_misaligned()) {
    absl::StrAppendFormat(
        &s, "operands    K-major rows of %s start at odd multiples of 16 bytes (slower loads)\n",
        OperandsName(p.a.rows_misaligned(), p.b.rows_misaligned()));
  }
  // "M", "N" or "M- and N", for "...-major".
  auto majors = [](bool a, bool b) { return a && b ? "M- and N" : a ? "M" : "N"; };
  const bool narrow_a = NarrowMn(p, 'a'), narrow_b = NarrowMn(p, 'b');
  const bool wide_a = WideMnMisaligned(p, 'a'), wide_b = WideMnMisaligned(p, 'b');
  if (wide_a || wide_b) {
    absl::StrAppendFormat(&s,
                          "operands    %s-major rows of %s start at odd multiples of 16 bytes "
                          "(slower loads)\n",
                          majors(wide_a, wide_b), OperandsName(wide_a, wide_b));
  }
  if (narrow_a || narrow_b) {
    const bool misaligned = (narrow_a && p.a.mn_rows_misaligned()) ||
                            (narrow_b && p.b.mn_rows_misaligned());
    absl::StrAppendFormat(&s,
                          "operands    %s %s-major with fewer than %d elements along %s (each "
                          "k-iteration loads %d short rows%s)\n",
                          OperandsName(narrow_a, narrow_b), majors(narrow_a, narrow_b),
                          kLineRowBytes / 2,
                          narrow_a && narrow_b ? "m and n" : narrow_a ? "m" : "n", p.tile_k,
                          misaligned ? " that start at odd multiples of 16 bytes" : "");
  }
  if (p.a_unaligned || p.b_unaligned) {
    absl::StrAppendFormat(&s,
                          "operands    %s: address, leading dimension or batch stride not a "
                          "multiple of 16 bytes (the kernel cannot load %s as %s)\n",
                          OperandsName(p.a_unaligned, p.b_unaligned),
                          p.a_unaligned && p.b_unaligned ? "them" : "it",
                          p.a_unaligned && p.b_unaligned ? "they are" : "it is");
  }
  if (p.repack_a || p.repack_b) {
    absl::StrAppendFormat(
        &s, "repack      %s copied to K-major rows %d elements apart (%s bytes) before the "
        "kernel\n",
        OperandsName(p.repack_a, p.repack_b), p.repack_ld,
        Bytes((p.repack_a ? RepackedBytes(p, 'a') : 0) +
              (p.repack_b ? RepackedBytes(p, 'b') : 0)));
  }
  absl::StrAppendFormat(&s,
                        "waves       %d full + %d tiles (%.1f%% of the last wave) on %d %s\n",
                        waves_full, waves_partial, 100.0 * waves_partial / p.avail_sms,
                        p.avail_sms, p.cluster_m > 1 ? "clusters" : "SMs");
  absl::StrAppendFormat(&s, "mode        %s\n", ModeName(p.mode));
  absl::StrAppendFormat(&s, "dp tiles    %d in %d blocks (first wave: %d tiles per block)\n",
                        p.dp_tiles, p.dp_blocks, p.dp_first_wave_tiles);
  if (p.sk_blocks > 0) {
    absl::StrAppendFormat(&s, "sk tiles    %d in %d blocks, %d region%s, %d wave%s\n", p.sk_tiles,
                          p.sk_blocks, p.sk_regions, p.sk_regions == 1 ? "" : "s", p.sk_waves,
                          p.sk_waves == 1 ? "" : "s");
    absl::StrAppendFormat(&s,
                          "iterations  %d per block (%d big blocks per region do %d), %d per "
                          "region\n",
                          p.sk_iters_per_normal_block, p.sk_big_blocks_per_region,
                          p.sk_iters_per_normal_block + 1, p.sk_iters_per_region);
    absl::StrAppendFormat(&s, "peers       %d to %d blocks per tile; %d of %d tiles shared\n",
                          peers.min, peers.max, peers.shared_tiles, p.sk_tiles);
    if (p.reduction_blocks > 0) {
      absl::StrAppendFormat(&s,
                            "reduction   %s, %d reduction blocks (%d per tile, %d columns each)\n",
                            ReductionName(p.reduction), p.reduction_blocks, p.reduction_slices,
                            p.tile_n / p.reduction_slices);
    } else {
      absl::StrAppendFormat(&s, "reduction   %s\n", ReductionName(p.reduction));
    }
    // Work order (Plan::dp_blocks_before_sk): what each persistent block runs first.
    std::string order = p.dp_blocks_before_sk > 0
                            ? absl::StrFormat("%d dp blocks (%d round%s), then ",
                                              p.dp_blocks_before_sk,
                                              p.dp_blocks_before_sk / p.grid_blocks,
                                              p.dp_blocks_before_sk > p.grid_blocks ? "s" : "")
                            : std::string();
    absl::StrAppendFormat(&order, "%d sk blocks", p.sk_blocks);
    if (p.dp_blocks > p.dp_blocks_before_sk)
      absl::StrAppendFormat(&order, ", then %d dp blocks", p.dp_blocks - p.dp_blocks_before_sk);
    if (p.reduction_blocks > 0)
      absl::StrAppendFormat(&order, ", then %d reduction blocks", p.reduction_blocks);
    absl::StrAppendFormat(&s, "order       %s\n", order);
  } else {
    absl::StrAppendFormat(&s, "sk tiles    0\n");
  }
  absl::StrAppendFormat(&s, "grid        %d persistent blocks for %d work blocks, raster %s, "
                        "swizzle %d\n",
                        p.grid_blocks, p.work_blocks, RasterName(p.raster), p.swizzle);
  if (p.schedule == Schedule::kDynamic) {
    absl::StrAppendFormat(&s,
                          "schedule    dynamic: each block takes the next of the %d work blocks "
                          "from a counter (workspace byte %d) until none is left; no "
                          "co-residency needed\n",
                          p.work_blocks, p.counter_offset);
  } else {
    absl::StrAppendFormat(&s, "schedule    static: block b runs work blocks b, b + %d, ...\n",
                          p.grid_blocks);
  }
  absl::StrAppendFormat(&s, "kernel      %s mainloop%s; D stored by %s%s\n",
                        MainloopName(p.mainloop), p.pingpong ? ", ping-pong variant" : "",
                        StoreDName(p.store_d),
                        p.narrow_wgmma ? "" : "; every tile's wgmmas the whole width");
  absl::StrAppendFormat(
      &s, "workspace   %s bytes (partials %s, flags %s%s%s)\n", Bytes(p.workspace_bytes),
      Bytes(p.partials_bytes), Bytes(p.flags_bytes),
      p.repack_a || p.repack_b ? ", repacked operands" : "",
      p.group_rows_bytes > 0 ? absl::StrCat(", group table ", Bytes(p.group_rows_bytes)) : "");
  if (why != nullptr) {
    if (why->repack_us > 0) {
      absl::StrAppendFormat(&s, "predicted   %.1f us (%.1f us of it repacking)\n",
                            why->predicted_us, why->repack_us);
    } else {
      absl::StrAppendFormat(&s, "predicted   %.1f us\n", why->predicted_us);
    }
    // Rows left misaligned: the candidates' loads are priced per iteration, which ranks
    // decompositions but reads high; the prediction above is the rows' estimate.
    absl::StrAppendFormat(&s, "candidates%s\n",
                          p.a.rows_misaligned() || p.b.rows_misaligned()
                              ? "  (misaligned loads priced per iteration: these rank the "
                                "decompositions; the rows' estimate below is the prediction)"
                              : "");
    // One column for the names (the other tiles' read "streamk-tail [128x128x64]"), so the
    // predictions line up.
    size_t name_width = 12;
    for (const Candidate& c : why->candidates) name_width = std::max(name_width, c.name.size());
    const int width = static_cast<int>(name_width);
    for (size_t i = 0; i < why->candidates.size(); ++i) {
      const Candidate& c = why->candidates[i];
      const char* mark = static_cast<int>(i) == why->chosen ? "*" : " ";
      if (!c.feasible) {
        absl::StrAppendFormat(&s, "  %s %-*s  -- not considered: %s\n", mark, width, c.name,
                              c.note);
        continue;
      }
      absl::StrAppendFormat(&s, "  %s %-*s %9.1f us  dp_tiles=%d sk_tiles=%d sk_blocks=%d", mark,
                            width, c.name, c.predicted_us, c.dp_tiles, c.sk_tiles, c.sk_blocks);
      if (c.splits > 0) absl::StrAppendFormat(&s, " splits=%d", c.splits);
      if (c.sk_blocks > 0) absl::StrAppendFormat(&s, " reduction=%s", ReductionName(c.reduction));
      if (c.reduction_slices > 1) absl::StrAppendFormat(&s, "/%d", c.reduction_slices);
      absl::StrAppendFormat(&s, "  (%s)\n", c.note);
    }
    if (!why->rows_options.empty()) {
      // The misaligned rows' ways, each estimated as its plan for aligned rows against the
      // L2's time for the loads it leaves misaligned, plus its copies.
      // Narrow M- or N-major operands alone (no misaligned rows): their loads are priced per
      // iteration.
      const bool narrow_only = !p.a.rows_misaligned() && !p.b.rows_misaligned() &&
                               why->rows_options.front().narrow_loads &&
                               why->rows_options.front().load_floor_us == 0;
      absl::StrAppendFormat(
          &s, "rows        %s\n",
          narrow_only ? "the ways weighed for a narrow M- or N-major operand (its loads priced per "
                        "iteration, or copied to K-major rows)"
          : why->rows_options.size() > 1
              ? "the ways weighed for misaligned rows (the aligned prediction against the L2's "
                "time for the misaligned loads, plus copies)"
              : "misaligned rows: the aligned prediction against the L2's time for the "
                "misaligned loads");
      size_t rows_width = 18, plan_width = 16;
      for (const RowsOption& r : why->rows_options) {
        rows_width = std::max(rows_width, r.name.size() + 2);
        plan_width = std::max(plan_width, r.plan.size());
      }
      for (const RowsOption& r : why->rows_options) {
        std::string terms = r.load_floor_us > 0 ? absl::StrFormat("L2 loads %.1f us",
                                                                  r.load_floor_us)
                            : r.narrow_loads ? std::string("narrow loads per iteration")
                                             : std::string("every load aligned");
        if (r.copies_us > 0) absl::StrAppendFormat(&terms, ", copies %.1f us", r.copies_us);
        absl::StrAppendFormat(&s, "  %s %-*s %-*s %7.1f us  (%s)\n", r.chosen ? "*" : " ",
                              static_cast<int>(rows_width), r.name, static_cast<int>(plan_width),
                              r.plan, r.estimated_us, terms);
      }
    }
    absl::StrAppendFormat(&s, "reason      %s\n", why->reason);
  }
  return s;
}

std::string PlanToJson(const Plan& p, const PlanExplanation* why, const std::string& device,
                       const std::string& epilogue) {
  using Json = nlohmann::ordered_json;
  // Microseconds to three decimals; nlohmann/json writes an infinite prediction (a plan the
  // model cannot price, e.g. a copy on a preset without a copy rate) as null.
  auto micros = [](double us) { return std::round(us * 1e3) / 1e3; };
  // An operand as the kernel loads it (after any copy), and whether the launch copies it first.
  auto operand = [](const OperandLayout& l, bool repack, bool unaligned) {
    return Json{{"major", l.major == Major::kK ? "k" : "mn"},
                {"row_align", l.row_align},
                {"repack", repack},
                {"unaligned", unaligned}};
  };
  const PeerStats peers = ComputePeerStats(p);
  Json j;
  j["device"] = device;
  j["mode"] = ModeName(p.mode);
  j["m"] = p.m, j["n"] = p.n, j["k"] = p.k, j["batch"] = p.batch;
  if (p.groups > 0) {
    j["groups"] = p.groups, j["groups_with_rows"] = p.groups_with_rows;
    j["rows_bound"] = p.rows_bound;
    j["group_rows_offset"] = p.group_rows_offset;
  }
  j["tile"] = {p.tile_m, p.tile_n, p.tile_k};
  j["tiles_m"] = p.tiles_m, j["tiles_n"] = p.tiles_n, j["tiles"] = p.tiles;
  j["iters_per_tile"] = p.iters_per_tile;
  j["a"] = operand(p.a, p.repack_a, p.a_unaligned);
  j["b"] = operand(p.b, p.repack_b, p.b_unaligned);
  j["repack_ld"] = p.repack_ld;
  j["repack_a_offset"] = p.repack_a_offset, j["repack_b_offset"] = p.repack_b_offset;
  j["d_tma_store"] = p.d_tma_store;
  j["dp_tiles"] = p.dp_tiles, j["sk_tiles"] = p.sk_tiles, j["sk_blocks"] = p.sk_blocks;
  j["sk_regions"] = p.sk_regions, j["sk_blocks_per_region"] = p.sk_blocks_per_region;
  j["sk_iters_per_region"] = p.sk_iters_per_region;
  j["sk_iters_per_normal_block"] = p.sk_iters_per_normal_block;
  j["sk_big_blocks_per_region"] = p.sk_big_blocks_per_region;
  j["sk_waves"] = p.sk_waves, j["peers_min"] = peers.min, j["peers_max"] = peers.max;
  j["dp_blocks"] = p.dp_blocks, j["dp_first_wave_tiles"] = p.dp_first_wave_tiles;
  j["dp_blocks_before_sk"] = p.dp_blocks_before_sk;
  j["reduction"] = ReductionName(p.reduction);
  j["reduction_slices"] = p.reduction_slices, j["reduction_blocks"] = p.reduction_blocks;
  j["work_blocks"] = p.work_blocks, j["grid_blocks"] = p.grid_blocks;
  j["avail_sms"] = p.avail_sms, j["occupancy"] = p.occupancy, j["cluster_m"] = p.cluster_m;
  j["raster"] = RasterName(p.raster), j["swizzle"] = p.swizzle;
  j["partials_offset"] = p.partials_offset, j["partials_bytes"] = p.partials_bytes;
  j["flags_offset"] = p.flags_offset, j["flags_bytes"] = p.flags_bytes;
  j["schedule"] = ScheduleName(p.schedule);
  j["counter_offset"] = p.counter_offset;
  j["mainloop"] = MainloopName(p.mainloop);
  j["pingpong"] = p.pingpong;
  j["narrow_wgmma"] = p.narrow_wgmma;
  j["store_d"] = StoreDName(p.store_d);
  j["workspace_bytes"] = p.workspace_bytes;
  if (why != nullptr) {
    j["predicted_us"] = micros(why->predicted_us);
    j["repack_us"] = micros(why->repack_us);
    j["reason"] = why->reason;
    Json candidates = Json::array();
    for (size_t i = 0; i < why->candidates.size(); ++i) {
      const Candidate& c = why->candidates[i];
      candidates.push_back({{"name", c.name},
                            {"mode", ModeName(c.mode)},
                            {"dp_tiles", c.dp_tiles},
                            {"sk_tiles", c.sk_tiles},
                            {"sk_blocks", c.sk_blocks},
                            {"splits", c.splits},
                            {"reduction", ReductionName(c.reduction)},
                            {"reduction_slices", c.reduction_slices},
                            {"predicted_us", micros(c.predicted_us)},
                            {"feasible", c.feasible},
                            {"chosen", static_cast<int>(i) == why->chosen},
                            {"note", c.note}});
    }
    j["candidates"] = std::move(candidates);
    Json rows = Json::array();
    for (const RowsOption& r : why->rows_options) {
      rows.push_back({{"name", r.name},
                      {"plan", r.plan},
                      {"estimated_us", micros(r.estimated_us)},
                      {"load_floor_us", micros(r.load_floor_us)},
                      {"copies_us", micros(r.copies_us)},
                      {"chosen", r.chosen},
                      {"narrow_loads", r.narrow_loads}});
    }
    j["rows_options"] = std::move(rows);
  }
  if (!epilogue.empty()) j["epilogue"] = epilogue;
  return j.dump();
}

}  // namespace streamk
