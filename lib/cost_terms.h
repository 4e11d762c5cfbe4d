// The cost model's constants scaled to one plan: the one place that turns a CostModel (given for
// a 128x128x32 tile) into per-iteration, per-tile and fixed costs for the plan's tile shape. The
// planner's prediction (PredictMicros) and the plan timeline (PlanToSvg) both use it, so the
// picture always shows what the planner predicted.
#pragma once

#include <algorithm>

#include "streamk/device_spec.h"
#include "streamk/plan.h"
#include "streamk/planner.h"
#include "tma_operands.h"

namespace streamk {

struct CostTerms {
  double iter_alone;   // one iteration of a block alone on its SM
  double iter_shared;  // one iteration of a block when blocks share SMs
  double iter_busy;    // one iteration of a block alone on its SM when every SM is busy (0: none)
  double unit;         // starting a tile or k-slice (pipeline fill)
  double partial;      // writing one partial tile
  double peer;         // reading and adding one peer's partial tile
  double reduce_peer;  // the same in a reduction block (a whole tile; a slice reads its share)
  double reduce_latency;  // a reduction block's floor per peer for one slice
  double epilogue;     // finishing one output tile
  double fixed;        // once per plan: launch, plus the Stream-K extra when there are SK blocks
  // What ping-pong hides of each data-parallel tile but a block's last (0: the plan does not run
  // ping-pong; CostModel::pingpong_hidden_us).
  double hidden;
};

// Whether the launch runs `p` on its configuration's ping-pong variant, as the cost model
// prices it: the configuration has one (CostModel::pingpong_hidden_us) and the plan is one the
// launch gives it (kernels::PingPongOf, D stored by TMA as Plan::d_tma_store says).
inline bool PricedPingPong(const Plan& p, const CostModel& c) {
  return c.pingpong_hidden_us > 0 && kernels::PingPongOf(p, p.d_tma_store);
}

// A GEMM's own bytes: A, B and D once each, 2 bytes an element (CostModel::hbm_bytes_per_us).
// A grouped GEMM reads the B of every group that has rows (Plan::groups_with_rows).
inline double BMatrices(const Plan& p) { return p.groups > 0 ? p.groups_with_rows : 1.0; }
inline double GemmBytes(const Plan& p) {
  return 2.0 * p.batch *
         (static_cast<double>(p.m) * p.k + BMatrices(p) * p.n * p.k +
          static_cast<double>(p.m) * p.n);
}

// GemmBytes plus what a plan's Stream-K tiles read again (CostModel::streamk_reread_bytes): each
// panel of an operand larger than that which Stream-K tiles share with other tiles (B's along m,
// A's along n) is read once for every tile that shares it, up to one more than the tiles a
// Stream-K block takes: a block's tiles follow one another along m (those of other blocks run
// beside them and share what they read at about the same time).
inline double StreamKGemmBytes(const Plan& p, const CostModel& c) {
  double bytes = GemmBytes(p);
  if (c.streamk_reread_bytes <= 0 || p.sk_tiles <= 0) return bytes;
  const double a = 2.0 * p.batch * static_cast<double>(p.m) * p.k;
  const double b = 2.0 * p.batch * BMatrices(p) * p.n * p.k;
  const double per_block = p.sk_blocks > 0 ? static_cast<double>(p.sk_tiles) / p.sk_blocks : 1;
  if (b > c.streamk_reread_bytes && p.tiles_m > 1)
    bytes += 2.0 * p.tile_n * static_cast<double>(p.k) * p.sk_tiles / p.tiles_m *
             std::min<double>(p.tiles_m - 1, per_block);
  if (a > c.streamk_reread_bytes && p.tiles_n > 1)
    bytes += 2.0 * p.tile_m * static_cast<double>(p.k) * p.sk_tiles / p.tiles_n *
             std::min<double>(p.tiles_n - 1, per_block);
  return bytes;
}

// What the narrow M- or N-major operands a plan's iterations load (NarrowMnExtent) add to each
// 64-deep iteration (CostModel::narrow_mn_iter_us, narrow_mn_misaligned_iter_us).
inline double NarrowMnIterMicros(const Plan& p, const CostModel& c) {
  auto one = [&c](bool narrow, bool misaligned) {
    if (!narrow) return 0.0;
    return misaligned ? c.narrow_mn_misaligned_iter_us : c.narrow_mn_iter_us;
  };
  return one(NarrowMn(p, 'a'), p.a.mn_rows_misaligned()) +
         one(NarrowMn(p, 'b'), p.b.mn_rows_misaligned());
}

// The share of a full-width iteration's tensor work that a plan's iterations issue: where every
// tile holds at most 64 of D's columns (one tile along n), the 128-wide configurations issue
// wgmmas only as wide as those (kernels::NarrowWidthOf). Priced only where the configuration's
// model bounds an iteration by its loads (CostModel::sm_bytes_per_us); 1 elsewhere.
inline double NarrowWidthTensorShare(const Plan& p, const CostModel& c) {
  if (c.sm_bytes_per_us <= 0 || p.tiles_n != 1 || !p.narrow_wgmma) return 1.0;
  const int width = kernels::NarrowWidthOf(p.n, p.tile_n, p.b.mn_major());
  return width < p.tile_n ? static_cast<double>(width) / p.tile_n : 1.0;
}

// The share of CostModel::pingpong_stream_gain a plan's ping-pong iterations take: 0 up to
// pingpong_stream_bytes of D (2 bytes an element), rising to 1 at twice that.
inline double PingPongStreamShare(const Plan& p, const CostModel& c) {
  if (c.pingpong_stream_gain <= 0 || c.pingpong_stream_bytes <= 0) return 0;
  const double d_bytes = 2.0 * p.batch * static_cast<double>(p.m) * p.n;
  return std::clamp(d_bytes / c.pingpong_stream_bytes - 1.0, 0.0, 1.0);
}

inline CostTerms ScaleCosts(const Plan& p, const CostModel& c) {
  // Iterations scale with a block's tile volume, per-tile traffic with its area. With clusters
  // (Plan::cluster_m) each of a cluster's SMs computes and exchanges its own tile_m / cluster_m
  // rows at the same time as the others, so a cluster's iteration takes one SM's.
  const double block_m = 1.0 * p.tile_m / p.cluster_m;
  const double volume = block_m * p.tile_n * p.tile_k / (128.0 * 128.0 * 32.0);
  const double area = block_m * p.tile_n / (128.0 * 128.0);
  // An iteration loads tile_m rows of A and tile_n rows of B, tile_k deep (per block: its rows
  // of A and its share of B's).
  const double misaligned = ((p.a.rows_misaligned() ? p.tile_m : 0) +
                             (p.b.rows_misaligned() ? p.tile_n : 0)) /
                            static_cast<double>(p.tile_m + p.tile_n);
  const bool pingpong = PricedPingPong(p, c);
  const double turns =
      pingpong ? 1.0 + c.pingpong_iter_loss - c.pingpong_stream_gain * PingPongStreamShare(p, c)
               : 1.0;
  const double iter = turns * volume * (1.0 + c.misaligned_load * misaligned);
  const double busy_load = c.misaligned_busy_load < 0 ? c.misaligned_load : c.misaligned_busy_load;
  const double iter_busy = turns * volume * (1.0 + busy_load * misaligned);
  // Narrow M- or N-major loads: every SM reads the same few lines, so their cost per 64-deep
  // iteration, whatever the tile, grows with the SMs loading them: all of it when every SM does
  // (busy and shared rounds), none on one SM alone (RoundIter interpolates).
  const double narrow = NarrowMnIterMicros(p, c) * p.tile_k / 64.0;
  // Tiles with few of D's columns issue narrower wgmmas (NarrowWidthTensorShare), and their
  // iterations then take at least what one SM streams their rows of A in (sm_bytes_per_us).
  const double share = NarrowWidthTensorShare(p, c);
  const double stream = share < 1 ? 2.0 * block_m * p.tile_k / c.sm_bytes_per_us : 0.0;
  auto narrowed = [share, stream](double us) { return std::max(us * share, stream); };
  CostTerms t;
  t.iter_alone = narrowed(c.iter_us * iter);
  t.iter_shared = narrowed((c.iter_shared_us > 0 ? c.iter_shared_us : c.iter_us) * iter) + narrow;
  t.iter_busy = c.iter_busy_us > 0 ? narrowed(c.iter_busy_us * iter_busy) + narrow
                : narrow > 0       ? t.iter_alone + narrow
                                   : 0;
  t.unit = c.unit_us;
  t.partial = c.partial_us * area;
  t.peer = c.peer_us * area;
  t.reduce_peer = (c.reduce_peer_us > 0 ? c.reduce_peer_us : c.peer_us) * area;
  t.reduce_latency = c.reduce_latency_us;
  t.epilogue = c.epilogue_us * area;
  t.fixed = c.block_us + (p.sk_blocks > 0 ? c.streamk_us : 0.0);
  t.hidden = pingpong ? c.pingpong_hidden_us : 0.0;
  return t;
}

// One iteration of a block in a round of `blocks` blocks on `sms` SMs: shared when there are more
// blocks than SMs, else between alone and busy by the fraction of SMs the round keeps busy.
inline double RoundIter(const CostTerms& t, int blocks, int sms) {
  if (blocks > sms) return t.iter_shared;
  if (t.iter_busy <= 0) return t.iter_alone;
  return t.iter_alone + (t.iter_busy - t.iter_alone) * blocks / sms;
}

// One reduction block (Reduction::kSeparate): its slice of `peers` partial tiles streamed (bound
// by bytes, or for narrow slices by L2 round trips), then its share of the tile's epilogue.
inline double ReductionBlockCost(const CostTerms& t, int peers, int slices) {
  return t.unit + peers * std::max(t.reduce_latency, t.reduce_peer / slices) + t.epilogue / slices;
}

}  // namespace streamk
