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
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "cost_terms.h"
#include "streamk/plan_print.h"
#include "tma_operands.h"
#include "work_mapping.h"

namespace streamk {
namespace {

// ---- heuristic constants ------------------------------------------------------------------------

// A Stream-K block with fewer iterations than this spends more on fixup than it saves (the same
// bound as CUTLASS 2.x's kMinItersPerSkBlock).
constexpr int kMinItersPerSkBlock = 2;
// Auto weighs split-K with 2..kMaxAutoSplits slices per tile reduced by the turnstile: beyond
// that its chain of fixups costs more than the iterations it spreads. With a separate reduction
// (SeparateReductionFits) it weighs every split count up to one wave of blocks: few very deep
// tiles need most of the SMs to stream their operands (on an H200, 128 x 128 x 131072 ran 48.1 us
// split 16 ways with a separate reduction, 31.5 split 64 ways; cuBLAS 24.5).
constexpr int kMaxAutoSplits = 16;
// Auto leaves data-parallel only for a predicted gain of at least this fraction: the cost model's
// error on the H200 runs is up to ~10% on short-k shapes, and losing to data-parallel is the
// failure users notice.
constexpr double kMinPredictedGain = 0.08;
// Where the model errs least, it leaves data-parallel for a predicted gain of this fraction: a
// full round of tiles or more, each at least kMinDeepIters iterations deep, on K-major rows that
// start aligned (no OperandLayout::rows_misaligned), and not on clusters (whose
// misaligned shapes are planned as if aligned, then estimated by their loads): times the model
// builds from whole rounds of iterations rather than from per-tile, per-launch or memory costs.
// Measured on an H200:
// eight aligned LLM projections 4096-13824 deep whose Stream-K hybrid was predicted 1.027-1.050x
// as fast as data-parallel ran 1.035-1.09x (medians of three passes, fp16 and bf16); the one
// predicted 1.021x (1024 x 11008 x 4096) ran all-tiles Stream-K at 0.92x, and stays
// data-parallel.
constexpr double kMinDeepAlignedGain = 0.025;
constexpr int kMinDeepIters = 64;
// Auto takes the one-tile hybrid on persistent blocks ("streamk-tail": the partial round's tiles
// Stream-K, every full round data-parallel) with the turnstile over the two-tile hybrid (the last
// full round's tiles Stream-K too) unless the two-tile is predicted this much faster, where both
// clear data-parallel's margin. The two-tile's blocks read more panels one after another, after
// the L2 has dropped them (StreamKGemmBytes), and the model prices those reads only in its floor
// over the whole plan. Measured on an H200: on the nine shapes of 384-1024 tokens as A, 4096-14336
// deep, where the two were predicted within 0.2% (ties since
// TurnstilesFirstPeersPublishOffTheChain), the one-tile ran 1.027x as fast (0.985-1.089x);
// where the two-tile was predicted 1.1-2.0% faster it ran 2.7-3.4% faster; one-tile hybrids with
// a separate reduction predicted within 1.4% ran 0.94-1.01x. Bounding the Stream-K round by its
// bytes ranked the 60 measured pairs with 1 wrong by 1% or more, against 16, but took the hybrids
// further from data-parallel than measured, so only the ranking is taken from it.
constexpr double kMinTwoTileOverTailGain = 0.005;
// Auto takes the third (or fourth) tile's data-parallel plan over the other tiles' data-parallel
// pick only where predicted this much faster, the margin kMinPredictedGain gives for the model's
// error.
// Measured on an H200: at 5%, 36 shapes moved; the 23 predicted 1.08x as fast or more ran
// 1.01-1.25x, the 13 predicted 1.05-1.08x ran 0.91-1.10x.
constexpr double kMinMidTileGain = 0.08;
// And over a Stream-K pick of the other tiles' only where predicted this much faster. Measured on
// an H200: on 13 waveq shapes that auto ran as Stream-K on 128x256 tiles, the third tile's
// data-parallel plan ran 0-9% slower against the Stream-K plan than predicted; the one predicted
// 1.068x as fast ran 1.072x (3072 x 2944 x 4096), those predicted up to 1.034x ran 0.92-1.01x.
constexpr double kMinMidOverStreamKGain = 0.05;
// Where the third tile and the other tiles' pick have the same rows and those hold all of m
// (decode's 1-64 tokens as the kernel's A), the two differ only in their width along n: both are
// bound by the memory, which the model prices in bytes the same for both, and the third tile's
// data-parallel plan is taken on this margin, over a data-parallel or a Stream-K pick. Measured
// on an H200 (fp16, cold caches, layouts tn and nn): over the 54 rows of 18432-24576 weights and
// 4096-14336 deep where it was predicted 0.906-0.976 of the other tiles' fastest plan, it ran
// 0.866-0.999 of it; the 38 those margins kept from it ran 0.906-0.999 (geomean 0.953) of auto's
// pick.
constexpr double kMinMidTileGainOneRowOfTiles = 0.02;
// Where their rows hold all of m in two to this many rows (129-512 tokens as the kernel's A on
// 128-row tiles), the third tile's data-parallel plan is taken over a Stream-K pick of the same
// rows where predicted no slower: the pick's blocks read B's panels one after another
// (StreamKGemmBytes), which the model prices only in its floor, while the third tile's rows read
// each panel at once. Measured on an H200: the four such Stream-K picks predicted 0.01-4% slower
// ran 0.6-4.5% slower (11008, 14336, 18432 and 20480 weights, 256-512 tokens, 8192-14336 deep);
// those predicted 0.03-9% faster ran 4-25% faster. Where the third tile's tiles leave SMs idle too:
// 108 tiles of 128 x 192 (512 tokens, 5120 weights, 8192-14336 deep) ran 0.98-1.05x the time of
// every tile Stream-K on 128 x 128 over all 132 SMs on one H200 and 0.87-0.93x on another whose SMs
// ran faster: a close call either way, in which `dp`'s own plan is the one that cannot break the 3%
// rule.
constexpr int kMaxFewRowsOfTiles = 4;
// Auto weighs the fourth tile (192 x 192) only where the other tiles' data-parallel pick is
// predicted to take at least this long (us). Below it, launches back to back run at the host's
// pace: on an H200, four shapes predicted 7-9 us there and 12-27% faster on 192 x 192 tiles ran
// 3-7% slower on them; the least that gained was predicted 24.7 us (2456 x 1768 x 944, 1.15x).
constexpr double kMinWideTileMicros = 12.0;
// The fourth tile takes a Stream-K pick of the other tiles where predicted up to 3% slower than it
// (kMinMidOverStreamKGain for the third): against seven Stream-K picks on an H200 predicted up to
// 1.05x faster than it, its data-parallel plan ran 2-12% better than predicted (geomean 4.4%):
// predicted 0.8, 2.0, 2.7 and 3.0% slower, it ran 2.5% faster, 1.6% faster, 0.3% slower and 9.8%
// faster (2048 x 2176 x 8192, 4352 x 3072 x 4096, 1792 x 2432 x 8192, 3072 x 2944 x 8192);
// predicted 3.4-4.8% slower, 1.3% faster to 2% slower. Auto's Stream-K pick on the first ran
// 0.938-0.986 of dp's speed over seven passes.
constexpr double kMinWideOverStreamKGain = -0.03;
// Auto weighs the sixth tile (128 x 320) data-parallel only where one round of its tiles holds the
// problem, and takes it where predicted this much faster than the other tiles' pick, data-parallel
// or Stream-K. Measured on an H200: on the 11 prefill shapes of 256-1024 tokens as A (4096-14336
// deep) where its 116-132 tiles were predicted 1.024-1.084x as fast as auto's pick, they ran
// 1.013-1.164x as fast (four passes, tn and nn fp16, tn bf16), and cuBLAS ran 0.96 of their time
// (0.87-0.99); over more rounds (256-385 tiles) its plans ran 0.88-0.99x as fast as the pick, whose
// narrower tiles keep the TMA store's epilogue.
// On misaligned rows too: over 60 one-round shapes whose K-major rows start at odd multiples of 16
// bytes, where the model put it 2-42% under auto's pick, it ran 1.183x as fast (0.955-1.327x per
// shape); the 38 of them it takes ran 1.056-1.327x, but for two where auto copied B first (1.014x,
// 0.975x). The other 22 were on auto's clusters, which are weighed first (MakePlan) and yield only
// to data-parallel's pick (DataParallelOverClusters).
constexpr double kMinBroadTileGain = 0.02;
// And, where its epilogue stores D by its own threads from 32 rows at a time (an fp32 D, a D read
// with C or one the TMA unit cannot store: kernels::TmaStoresOf), only with this many k-iterations
// a tile or more, since the main configuration's constants do not price that epilogue. Over 48
// shapes it took on an H200, against the other tiles' pick forced in the same passes, the 32
// of 17-224 iterations ran 1.106x as fast (0.999-1.479x per shape), the 5 of 10-14 iterations
// 1.000x (0.955-1.028x), and the 11 of 2-9 iterations (128-544 deep, 8-20 us) 0.913x
// (0.869-1.005x). Its TMA store ran data-parallel 128 x 320 1.270x as fast as that epilogue on the
// one-round shapes of 2-14 iterations, 1.059x on deeper ones: no gate there.
constexpr int kMinBroadTileIters = 16;
// Auto weighs the fifth tile (64 x 128) only where one round of its tiles holds the problem (at
// most one per resident slot: the 128 x 128 tiles leave half the SMs idle or more), in every mode
// its own planning picks, and takes it where predicted this much faster than the other tiles'
// pick. Measured on an H200: on 1024 x 1024 x 1024 its 128 data-parallel tiles ran 6.5 us from CUDA
// graphs against 8.7 on 64 of 128 x 128 (cuBLAS 6.4), and 16 x 4096 x 4096 split two ways over its
// 64 tiles 10.5 us against 12.4 split four ways over 32 of 128 x 128; past one round (72-80 tiles
// of 128 x 128) it lost by 20-40%.
constexpr double kMinSmallTileGain = 0.05;
// Where its 64 rows hold every row of A (m <= 64: decode's tokens, as gemm()'s row-major D puts
// them), both tiles run the same tiles along n, and the 128-row ones compute a second 64-row half
// that holds nothing. With B's rows K-major on 128-byte lines it is taken there unless predicted
// this much slower (H200, fp16): over decode rows within one round, data-parallel on it ran
// 1.005-1.20x as fast as on 128 x 128, where the model predicted 0.96-1.10x (7b.qkv at 16 tokens:
// 3.6% slower predicted, 4.8% faster measured); on the 29 of 36 shapes of 1-64 tokens, 11008-16384
// weights and 1024-14336 deep that it moves, auto ran 1.081x (0.998-1.31) as fast as without it.
// With B M/N-major (layout nn) they ran 1.045x but 0.958-0.965x on three 14336-deep shapes, so
// there the margin stays.
constexpr double kMinSmallTileGainOneRowOfTiles = -0.05;
// Where the other tiles' pick is split-K or Stream-K over nearly every SM (kFullWaveShare of the
// resident slots) with at most kMaxAutoSplits peers per tile, a split-K or Stream-K pick of this
// tile gains only in the exchange, which the model prices least well, and must be predicted this
// much faster. Measured on an H200 (128 blocks on each side): predicted 11-13% faster, 512 x 512 x
// 8192, 512 x 256 x 16384 and 1024 x 128 x 16384 (8-16 tiles of 128 x 128 split 8-16 ways) ran
// 0.88-0.99x as fast on it; predicted 18-23%, 16 x 1024 x 8192 and 16 x 4096 x 4096 ran 1.06-1.16x;
// 136 x 544 x 5664, predicted 12.5%, ran 1.06x and is given up. With more peers per tile the other
// pick's own exchange grows, and the tile halves it: 256 x 256 x 32768 (4 tiles of 128 x 128 split
// 32 ways, predicted 10.5% slower) ran 21.6 us on it against 23.9.
constexpr double kMinSmallOverFullWaveGain = 0.15;
constexpr double kFullWaveShare = 0.9;
// Auto repacks operands (Plan::repack_a) for an estimated gain of at least this fraction. The
// estimate's parts: the L2 floor (LoadFloorMicros) within 8% of five measured shapes, the aligned
// plan's prediction 10-30% above its measurement (a bias against repacking).
constexpr double kMinRepackGain = 0.03;
// Where auto would run misaligned rows on clusters, it runs data-parallel's own pick instead
// where that is estimated this much under them (DataParallelOverClusters). Measured on an H200: of
// 91 shapes whose clusters a 2% margin moved to data-parallel's pick, the 44 it was estimated 8% or
// more under ran 1.19x as fast on it (1.011-1.42x per shape); a 5% margin moves 61 (1.15x, two 3%
// slower or more), 2% 73 (1.12x, seven, down to 0.885x). The other 47 ran 1.007x, from 0.83x (1216
// x 728 x 7608: split-K on clusters against data-parallel 128 x 128) to 1.51x.
constexpr double kMinDpOverClustersGain = 0.08;
// Where misaligned K-major rows stay as they are and auto's pick splits or streams the
// k-iterations on single-SM tiles, auto runs data-parallel's own pick instead (what mode dp runs)
// where that pick's tiles fill kMinBandShare to kMaxBandShare of one round, unless its own is
// predicted this much faster (DataParallelOverSplitPick): there the per-iteration
// misaligned terms price data-parallel's loads too high against the split's. Fitted on an H200: of
// 152 such picks predicted under 1.25x as fast as data-parallel's, the 70 whose data-parallel tiles
// filled 34-89 of 132 SMs ran 0.92-0.98x as fast as it (44 of them 3% or more behind, down to
// 0.81x), data-parallel at 0.60-0.65 of its prediction against the picks' 0.73-0.80; on fewer SMs
// or more, 1.05-1.10x.
// Checked on fresh random shapes (fp16 and bf16 each counted): with a bound of two thirds, the
// moves whose data-parallel tiles filled 33-79 SMs ran 1.05-1.15x as fast (14 of 502 3% or more
// slower), those on 80-88 SMs 0.96x on 128 x 128 tiles and 1.00x on 64 x 128 (44 of 86 slower),
// hence three fifths.
constexpr double kMinMisalignedSplitGain = 0.2;
constexpr double kMinBandShare = 0.25;
constexpr double kMaxBandShare = 0.6;
// Misaligned rows' time estimates combine the aligned plan's prediction c and the L2 floor f as
// (c^p + f^p)^(1/p) with this p (LoadBoundMicros): the loads and the math overlap imperfectly where
// they take about as long. Chosen on an H200 (the paper set's 74 misaligned shapes, each timed on
// blocks and on clusters): as they are, short-K shapes whose two terms are within 10% of each other
// ran 7-14% over the larger (3312 x 6176 x 520: 53.0 predicted, 52.2 floor, 60.3 measured), which
// max() missed; 8 sends 16 shapes to clusters, all faster there (the max: 11), and 6-12 agree.
constexpr double kLoadOverlapExponent = 8;
// Band width of the tile raster, in tiles: a band of 8 tile rows (or columns) keeps the operand
// panels that the ~132 concurrently running tiles share resident in L2.
constexpr int kDefaultSwizzle = 8;
// Tile dimensions the planner accepts for what-if planning (the kernels run the tiles of
// kernels/launch.h only).
constexpr int kMaxTileDim = 1024;

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t AlignUp(int64_t x, int64_t a) { return CeilDiv(x, a) * a; }

// Rows of tile_m-row tiles a problem has: a grouped one's groups' own (Problem::groups).
int64_t TileRows(const Problem& problem, int tile_m) {
  if (problem.groups <= 0) return CeilDiv(problem.m, tile_m);
  // Rows not known: each group's ceil(r / t) is at most (r + t - 1) / t, and each tile row holds
  // a row at least. One tile row more than the groups fill, so that the rows left over past the
  // last group's end (m - total) have tile rows of their own, which store zeros there
  // (mapping::TailRow): floor((m + G (t - 1)) / t) - floor((total + G (t - 1)) / t) + 1 >=
  // ceil((m - total) / t).
  if (problem.group_rows == nullptr)
    return std::min(problem.m, (problem.m + problem.groups * (tile_m - 1)) / tile_m + 1);
  int64_t rows = 0;
  for (int64_t g = 0; g < problem.groups; ++g) rows += CeilDiv(problem.group_rows[g], tile_m);
  return rows;
}

// The shape of one decomposition before the derived fields are filled in.
struct Decomposition {
  Mode mode = Mode::kDataParallel;
  int sk_tiles = 0;
  int sk_blocks = 0;
  Reduction reduction = Reduction::kDeterministic;
  int slices = 0;  // kSeparate: reduction slices per tile (0: DefaultSlices)
};

// The predicted gain auto needs to leave data-parallel for plan p's shape and tile.
double MinPredictedGain(const Plan& p) {
  const bool deep_aligned = !p.a.rows_misaligned() && !p.b.rows_misaligned() && p.cluster_m == 1 &&
                            p.iters_per_tile >= kMinDeepIters && p.tiles >= p.avail_sms;
  return deep_aligned ? kMinDeepAlignedGain : kMinPredictedGain;
}

// Reduction slices per Stream-K tile for a separate reduction: as many as keep one round of
// reduction blocks within the SMs (sk_tiles x slices <= avail_sms), each at least 8 columns wide
// and a power of two dividing tile_n / 8. A tile's reduction then reads its peers' partials over
// that many SMs at once (a reduction block alone streamed them at ~1.2 us per 64 KiB).
int DefaultSlices(const Plan& p) {
  int slices = 1;
  while (p.tile_n % (16 * slices) == 0 && int64_t{p.sk_tiles} * 2 * slices <= p.avail_sms)
    slices *= 2;
  return slices;
}

// A grouped plan's group table's place in the workspace: after the flags and partial sums, at
// or past kMinFlagsBytes (Plan::group_rows_offset). Every candidate holds it (Derive), so that
// the workspace cap weighs it (PlanWithinCap); a grouped plan copies no operand.
void AddGroupTable(Plan& p) {
  p.group_rows_offset =
      AlignUp(std::max(p.workspace_bytes, Plan::kMinFlagsBytes), Plan::kWorkspaceAlignment);
  p.group_rows_bytes = int64_t{p.tiles_m} * static_cast<int64_t>(sizeof(mapping::GroupRow));
  p.workspace_bytes = AlignUp(p.group_rows_offset + p.group_rows_bytes, Plan::kWorkspaceAlignment);
}

// Fills every field of `plan` that follows from the problem fields and `d`, but the divisors.
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
  // (A dynamic plan hands out one tile per data-parallel work block: blocks that start late take
  // fewer of them.)
  if (p.sk_waves > 0 && p.occupancy > 1 && p.schedule == Schedule::kStatic) {
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

  p.reduction_slices = 1;
  if (p.sk_blocks > 0 && p.reduction == Reduction::kSeparate)
    p.reduction_slices = d.slices > 0 ? d.slices : DefaultSlices(p);
  p.reduction_blocks = (p.sk_blocks > 0 && p.reduction == Reduction::kSeparate)
                           ? p.sk_tiles * p.reduction_slices
                           : 0;
  p.work_blocks = p.sk_blocks + p.dp_blocks + p.reduction_blocks;
  p.grid_blocks = std::min(p.work_blocks, p.avail_sms * p.occupancy);
  // Every full data-parallel round but the last runs before the Stream-K blocks, in step as in a
  // data-parallel launch (Plan::dp_blocks_before_sk).
  p.dp_blocks_before_sk = 0;
  if (p.sk_blocks > 0 && p.dp_first_wave_tiles == 1 && p.dp_blocks >= 2 * p.grid_blocks)
    p.dp_blocks_before_sk = (p.dp_blocks / p.grid_blocks - 1) * p.grid_blocks;

  p.partial_tile_bytes = p.partials_offset = p.partials_bytes = 0;
  p.flags_offset = p.flags_bytes = p.workspace_bytes = p.counter_offset = 0;
  const bool dynamic = p.schedule == Schedule::kDynamic;
  if (p.sk_blocks > 0 || dynamic) {
    p.partial_tile_bytes = p.sk_blocks > 0 ? int64_t{p.tile_m} * p.tile_n * 4 : 0;  // fp32
    const int64_t slots =
        p.reduction == Reduction::kSeparate ? 2 * int64_t{p.sk_blocks} : int64_t{p.sk_tiles};
    p.partials_bytes = slots * p.partial_tile_bytes;
    // Flags first, in a region of a fixed minimum size: a workspace reused by another plan then
    // never sees that plan's partials land on its flags (which must be zero between launches).
    // A dynamic plan's counter follows its own flags.
    const int64_t flag_words = int64_t{p.sk_tiles} * p.cluster_m + (dynamic ? 1 : 0);
    p.flags_offset = 0;
    p.counter_offset = dynamic ? p.flags_offset + 4 * (flag_words - 1) : 0;
    p.flags_bytes =
        std::max(Plan::kMinFlagsBytes, AlignUp(flag_words * 4, Plan::kWorkspaceAlignment));
    p.partials_offset = p.flags_offset + p.flags_bytes;
    p.workspace_bytes = p.partials_offset + p.partials_bytes;
  }
  p.group_rows_offset = p.group_rows_bytes = 0;
  if (p.groups > 0) AddGroupTable(p);
  // (The divisors, Plan::div, are set once on MakePlan's pick: the cost model reads none of them,
  // and the search derives a few hundred candidates.)
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

// Whether Stream-K blocks straddle tile boundaries: a region of more than one tile whose blocks
// do not each hold whole tiles or an equal share of one (blocks of a multiple or a divisor of a
// tile's iterations, none of them big). Split-K's regions are one tile each.
bool Straddles(const Plan& p) {
  if (p.sk_blocks == 0 || p.sk_iters_per_region <= p.iters_per_tile) return false;
  const int normal = p.sk_iters_per_normal_block, ipt = p.iters_per_tile;
  return p.sk_big_blocks_per_region > 0 || (normal % ipt != 0 && ipt % normal != 0);
}

Decomposition DataParallel() { return {Mode::kDataParallel, 0, 0, Reduction::kDeterministic}; }

// Whether a separate reduction wave is worth weighing for the plan derived in `p`: more than two
// peers per tile on average where the Stream-K blocks leave resident slots for reduction blocks;
// where they fill every slot, more than three peers and only on a kernel configuration where that
// was measured to pay (CostModel::separate_after_streamk).
bool SeparateReductionFits(const Plan& p, const CostModel& cost) {
  if (p.sk_waves < p.occupancy) return p.sk_blocks > 2 * p.sk_tiles;
  return cost.separate_after_streamk && p.sk_blocks > 3 * p.sk_tiles;
}

// The least an iteration of the configuration costs, alone, shared or with every SM busy: what
// the searches' lower bounds charge before a count's rounds are known.
double CheapestIter(const CostTerms& terms) {
  const double cheapest = std::min(terms.iter_alone, terms.iter_shared);
  return terms.iter_busy > 0 ? std::min(cheapest, terms.iter_busy) : cheapest;
}

// A plan's rounds (RoundsOf, with Predict below).
struct Rounds {
  int full_end, tail;           // work blocks in full rounds; in the last, partial one
  double full_iter, tail_iter;  // an iteration in each
};
Rounds RoundsOf(const Plan& p, const CostTerms& terms, int busy_of = 0);

// A plan's predicted time (PredictMicros) and the blocks' schedule within it, without the memory's
// floor.
struct Prediction {
  double us, schedule;
};
// `busy_of`: the SMs whose share kept busy sets an iteration's contention (RoundIter), 0 for the
// plan's avail_sms. `terms`: ScaleCosts(p, cost) where the caller has it (a search whose
// candidates all have Stream-K blocks on one tile: the same terms for each).
Prediction Predict(const Plan& p, const CostModel& cost, int busy_of = 0,
                   const CostTerms* terms = nullptr);

// Whether a candidate whose prediction is at least `bound` cannot beat (nor tie) `best_us`: the
// bound sums the prediction's terms in another order, so it may round a few ulps over an equal
// prediction.
inline bool Beaten(double bound, double best_us) { return bound > best_us * (1 + 1e-12); }

// What a Stream-K block of a tile with `peers` blocks pays to hand over and finish its partial
// sums, as the memory floor counts it (Predict's sk_fixed; the block has Stream-K work).
double SkExchange(const CostTerms& t, Reduction reduction, int64_t peers) {
  const double b = t.partial, d = t.peer, e = t.epilogue;
  if (peers <= 1) return e;
  switch (reduction) {
    case Reduction::kDeterministic:  // turnstile: each later peer reads, adds, stores in turn
      return (peers - 1) * (b + d) + e;
    case Reduction::kAtomic:  // the first stores, the middle ones add at once, the last reads
      return (peers > 2 ? 2 * b : b) + d + e;
    case Reduction::kSeparate:  // every peer stores once; a reduction block finishes the tile
      return b;
  }
  return 0;
}

// The best split-K over all tiles with `splits` in [lo, hi]; nullopt when the range is empty.
// With weigh_separate, every split where SeparateReductionFits is also weighed with a separate
// reduction wave, and `reduction` only up to kMaxAutoSplits splits.
std::optional<Decomposition> BestSplitK(Plan& scratch, const CostModel& cost, int lo, int hi,
                                        Reduction reduction, int slices,
                                        bool weigh_separate = false) {
  if (hi < lo) return std::nullopt;
  // Every count is weighed in effect, with ties to the fewest splits (and, at one count, to
  // `reduction` over the separate wave), but a count is priced only where its lower bound does
  // not exceed the best prediction so far: a split-K block runs iters_per_tile / s iterations or
  // more, each at no less than the configuration's cheapest iteration, after the plan's fixed
  // cost and a pipeline fill (Predict); with a separate reduction, it stores its partial, and a
  // reduction block then starts and reads its s peers' partials at reduce_latency each at least
  // (ReductionBlockCost). The first count priced is the one whose bound is least, so that the
  // bound prunes from both ends.
  std::optional<Decomposition> best;
  double best_us = std::numeric_limits<double>::infinity();
  int best_s = 0;
  bool best_separate = false;
  // The same for every count: the configuration's, no ping-pong (split-K blocks).
  Derive({Mode::kSplitK, scratch.tiles, scratch.tiles * hi, reduction, slices}, scratch);
  const CostTerms terms = ScaleCosts(scratch, cost);
  const double cheapest_iter = CheapestIter(terms);
  const int iters = scratch.iters_per_tile;
  // Every block starts a k-slice (unit) and runs its iterations at `iter` each; with a separate
  // reduction and more than one split, each also stores a partial, and a reduction block starts
  // and reads its s peers' partials.
  // Without, it hands its partial sums to its s - 1 peers as Predict's sk_fixed prices the
  // reduction (each of a tile's s blocks is its peer where s <= iters: every count's blocks then
  // divide the tiles evenly, one region a tile).
  auto bound = [&](int s, bool separate, double iter) {
    double exchange = 0;
    if (separate && s > 1) {
      exchange = terms.partial + terms.unit + s * terms.reduce_latency;
    } else if (!separate && s <= iters) {
      exchange = SkExchange(terms, reduction, s);
    }
    return terms.fixed + (iters / s) * iter + terms.unit + exchange;
  };
  const bool forced_separate = reduction == Reduction::kSeparate;
  // Prices count s (its separate-reduction variant first, as the ties prefer `reduction`).
  auto weigh = [&](int s) {
    const Decomposition d{Mode::kSplitK, scratch.tiles, scratch.tiles * s, reduction, slices};
    const bool plain = !weigh_separate || forced_separate || s <= kMaxAutoSplits;
    const bool plain_live = plain && !Beaten(bound(s, forced_separate, cheapest_iter), best_us);
    const bool sep_live =
        weigh_separate && !forced_separate && !Beaten(bound(s, true, cheapest_iter), best_us);
    if (!plain_live && !sep_live) return;
    // `scratch` holds d's plan, derived for SeparateReductionFits, until a separate variant's.
    Derive(d, scratch);
    bool holds_d = true;
    auto take = [&](const Decomposition& c, bool separate) {
      if (separate || !holds_d) Derive(c, scratch);
      holds_d = !separate;
      // Derived, the bound takes the iteration cost of the rounds the blocks run in.
      const Rounds rounds = RoundsOf(scratch, terms);
      const double iter = std::min(
          rounds.full_end > 0 ? rounds.full_iter : std::numeric_limits<double>::infinity(),
          rounds.tail > 0 ? rounds.tail_iter : std::numeric_limits<double>::infinity());
      if (Beaten(bound(s, separate || forced_separate, iter), best_us)) return;
      const double us = Predict(scratch, cost, 0, scratch.sk_blocks > 0 ? &terms : nullptr).us;
      const bool better = us < best_us ||
                          (us == best_us && (s < best_s || (s == best_s && best_separate)));
      if (better) best_us = us, best = c, best_s = s, best_separate = separate;
    };
    if (sep_live && SeparateReductionFits(scratch, cost)) {
      Decomposition sep = d;
      sep.reduction = Reduction::kSeparate;
      take(sep, true);
    }
    if (plain_live) take(d, false);
  };
  // The count whose bound is least, the separate reduction's where counts past kMaxAutoSplits are
  // weighed with it.
  const bool separate_past = weigh_separate || forced_separate;
  int first = hi;
  for (int s = hi; s >= lo; --s)
    if (bound(s, separate_past, cheapest_iter) < bound(first, separate_past, cheapest_iter))
      first = s;
  weigh(first);
  for (int s = hi; s >= lo; --s)
    if (s != first) weigh(s);
  return best;
}

// The Stream-K block count in [lo, hi] with the lowest predicted time for `sk_tiles` Stream-K
// tiles. Coarse to fine, so the cost is bounded whatever the range: about kSearchPoints counts
// spread over the range, plus the ends, one wave of SMs and the split-K-aligned counts (multiples
// of sk_tiles), then every count around the best coarse one.
constexpr int kSearchPoints = 16;
constexpr int kMaxAlignedPoints = 8;

std::optional<Decomposition> BestStreamK(Plan& scratch, const CostModel& cost, int sk_tiles,
                                         int lo, int hi, Reduction reduction, int slices) {
  std::optional<Decomposition> best;
  double best_us = std::numeric_limits<double>::infinity(), best_schedule = best_us;
  // The counts already priced (the coarse, aligned and fine points overlap): pricing one again
  // changes nothing, the ties going to the count priced first.
  int seen[2 * kSearchPoints + kMaxAlignedPoints + 8];
  int seen_count = 0;
  // A lower bound on a count's prediction, to skip counts that cannot beat the best so far: its
  // blocks run sk_tiles x iters_per_tile / g iterations or more, each at no less than the
  // configuration's cheapest iteration, after the plan's fixed cost and a pipeline fill
  // (Predict). The best (us, schedule, count) is the least in that order whatever order the
  // counts are priced in, so skipping counts it is known to beat changes nothing.
  Derive({Mode::kStreamK, sk_tiles, std::max(lo, 1), reduction, slices}, scratch);
  const CostTerms terms = ScaleCosts(scratch, cost);
  const double cheapest_iter = CheapestIter(terms);
  const int64_t sk_iters = int64_t{sk_tiles} * scratch.iters_per_tile;
  // And each block hands over its partial sums as Predict's sk_chain prices it, for the peers a
  // tile has at g blocks (MaxPeers of the plan Derive makes), less the early first peer's store.
  auto exchange = [&](int g) {
    const int64_t blocks = std::min<int64_t>(g, sk_iters);
    if (blocks <= 0) return 0.0;
    const int64_t regions = blocks % sk_tiles == 0 ? sk_tiles : 1;
    int64_t peers = blocks / regions;
    if (regions == 1)
      peers = std::min(blocks, CeilDiv(scratch.iters_per_tile - 1, sk_iters / blocks) + 1);
    const bool early_first_peer = reduction == Reduction::kDeterministic && peers > 2;
    return SkExchange(terms, reduction, peers) - (early_first_peer ? terms.partial : 0);
  };
  auto weigh = [&](int g) {
    if (g < lo || g > hi) return;
    for (int i = 0; i < seen_count; ++i)
      if (seen[i] == g) return;
    if (Beaten(terms.fixed + static_cast<double>(sk_iters / g) * cheapest_iter + terms.unit +
                   exchange(g),
               best_us))
      return;
    if (seen_count < static_cast<int>(std::size(seen))) seen[seen_count++] = g;
    const Decomposition d{Mode::kStreamK, sk_tiles, g, reduction, slices};
    Derive(d, scratch);
    const auto [us, schedule] = Predict(scratch, cost, 0, scratch.sk_blocks > 0 ? &terms : nullptr);
    // Ties go to the shorter schedule (where the memory's floor binds for every count, the counts
    // tie on it, and fewer blocks than SMs then run each block's share slower; on an H200, every
    // tile Stream-K on 102-106 of 132 SMs took 1.16-1.40x the time on 132), then to fewer blocks:
    // fewer peers per tile, less partial traffic.
    if (us < best_us ||
        (us == best_us && best &&
         (schedule < best_schedule || (schedule == best_schedule && g < best->sk_blocks))))
      best_us = us, best_schedule = schedule, best = d;
  };
  // The coarse points, the most blocks first (their bound is the least).
  const int step = std::max(1, (hi - lo) / kSearchPoints);
  weigh(hi);
  weigh(scratch.avail_sms);
  const int aligned = std::min(kMaxAlignedPoints, hi / std::max(1, sk_tiles));
  for (int i = aligned; i >= 1; --i) weigh(i * sk_tiles);
  for (int g = lo + (hi - lo) / step * step; g >= lo; g -= step) weigh(g);
  if (best && step > 1) {
    const int center = best->sk_blocks;
    for (int g = center - step + 1; g < center + step; ++g) weigh(g);
  }
  return best;
}

// The paper's hybrid: which tiles go Stream-K and the block-count range to search, or a note why
// there is no Stream-K candidate.
struct HybridShape {
  int sk_tiles = 0, min_blocks = 0, max_blocks = 0;
  std::string note;
};

// Without `text`, the note is left empty.
HybridShape ShapeHybrid(const Plan& p, bool text) {
  HybridShape h;
  const int sms = p.avail_sms;
  const int full_waves = p.tiles / sms;
  const int partial = p.tiles % sms;
  if (partial == 0) {
    if (text)
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
    if (text)
      h.note = absl::StrFormat(
          "one-tile: the partial wave's %d tiles over the free resident slots", partial);
  } else {
    // Two-tile: the last full wave plus the partial wave, so each block gets 1 to 2 tiles of work.
    h.sk_tiles = partial + sms;
    max_occupancy = p.occupancy - (full_waves - 1) % p.occupancy;
    h.min_blocks = sms;
    if (text)
      h.note = absl::StrFormat("two-tile: the last full wave plus the partial wave (%d tiles)",
                               h.sk_tiles);
  }
  const int64_t sk_iters = int64_t{h.sk_tiles} * p.iters_per_tile;
  h.max_blocks = static_cast<int>(
      std::min<int64_t>(int64_t{sms} * max_occupancy, sk_iters / kMinItersPerSkBlock));
  if (h.max_blocks < h.min_blocks) {
    if (text)
      h.note += absl::StrFormat("; too few iterations (%d) for %d blocks of at least %d",
                                sk_iters, h.min_blocks, kMinItersPerSkBlock);
    h.sk_tiles = 0;
  }
  return h;
}

// Whether `why` asks for the explanation's text (PlanExplanation::text).
bool Wants(const PlanExplanation* why) { return why != nullptr && why->text; }

// An explanation for a layer below to fill in, with text where `why` (the caller's) wants it.
PlanExplanation Inner(const PlanExplanation* why) {
  PlanExplanation inner;
  inner.text = Wants(why);
  return inner;
}

// `us`: the plan's PredictMicros, which the caller has.
// Without `text`, no note is added to the caller's (empty) one.
Candidate Describe(const std::string& name, const Plan& p, const CostModel& cost, double us,
                   std::string note, bool text = true) {
  Candidate c;
  c.name = name;
  c.mode = p.mode;
  c.dp_tiles = p.dp_tiles;
  c.sk_tiles = p.sk_tiles;
  c.sk_blocks = p.sk_blocks;
  c.splits = p.mode == Mode::kSplitK && p.sk_tiles > 0 ? p.sk_blocks / p.sk_tiles : 0;
  c.reduction = p.reduction;
  c.reduction_slices = p.reduction_blocks > 0 ? p.reduction_slices : 0;
  c.predicted_us = us;
  c.note = std::move(note);
  // Priced as the launch runs it: the two warp groups' epilogues under each other's mainloops.
  if (text && PricedPingPong(p, cost))
    absl::StrAppend(&c.note, c.note.empty() ? "" : "; ", "ping-pong");
  return c;
}

// The options' tile, or the device's when the options leave it kNoTile.
TileShape TileOf(const PlanOptions& o, const DeviceSpec& dev) {
  return o.tile == kNoTile ? dev.main().tile : o.tile;
}

// The constants of the kernel configuration that computes `tile`: the second, third, fourth or
// cluster one's for their tiles, else the main one's (also for a tile the device has no kernel
// for, planned to ask "what if").
const CostModel& CostOfTile(const DeviceSpec& dev, const TileShape& tile) {
  for (const KernelConfig& c : dev.kernels)
    if (c.tile != kNoTile && tile == c.tile) return c.cost;
  return dev.main().cost;
}

// Whether `tile` is the device's cluster configuration (KernelRole::kCluster).
bool IsClusterTile(const DeviceSpec& dev, const TileShape& tile) {
  const KernelConfig* c = dev.Find(KernelRole::kCluster);
  return c != nullptr && c->tile != kNoTile && tile == c->tile && tile != dev.main().tile;
}

// The constants of the device's configuration of `role` (the main one's where it has none).
const CostModel& RoleCost(const DeviceSpec& dev, KernelRole role) {
  const KernelConfig* c = dev.Find(role);
  return c != nullptr ? c->cost : dev.main().cost;
}

// Clusters of the device's cluster configuration resident at once (0: none).
int ClusterSlots(const DeviceSpec& dev) {
  const KernelConfig* c = dev.Find(KernelRole::kCluster);
  return c != nullptr ? c->cluster_slots : 0;
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
  if (pr.groups < 0 || pr.groups > kMaxGroups)
    return absl::InvalidArgumentError(
        absl::StrCat("groups = ", pr.groups, ": must be in [0, ", kMaxGroups, "]"));
  if (pr.groups > 0) {
    if (pr.batch != 1)
      return absl::InvalidArgumentError(
          absl::StrCat("batch = ", pr.batch, ": a grouped problem has batch 1"));
    if (pr.group_rows != nullptr) {  // else m bounds rows known when the kernel runs
      int64_t sum = 0;
      for (int64_t g = 0; g < pr.groups; ++g) {
        if (pr.group_rows[g] < 0)
          return absl::InvalidArgumentError(
              absl::StrCat("group_rows[", g, "] = ", pr.group_rows[g], ": must be >= 0"));
        sum += pr.group_rows[g];
      }
      if (sum != pr.m)
        return absl::InvalidArgumentError(absl::StrCat(
            "group_rows sum to ", sum, ": must sum to m = ", pr.m, " (the groups' rows stacked)"));
    }
    if (o.repack.value_or(RepackOperands::kNone) != RepackOperands::kNone)
      return absl::InvalidArgumentError(absl::StrCat(
          "repack = ", RepackOperandsName(*o.repack),
          ": a grouped problem's operands are read as they are (their rows 16-byte aligned)"));
    for (auto [name, l] : {std::pair<const char*, OperandLayout>{"a", pr.a}, {"b", pr.b}}) {
      if (l.unaligned())
        return absl::InvalidArgumentError(absl::StrCat(
            name, ".row_align = ", static_cast<int>(l.row_align),
            ": a grouped problem's operands are read as they are, so their rows must start "
            "16-byte aligned"));
    }
  }
  if (dev.sms < 1)
    return absl::InvalidArgumentError(
        absl::StrCat("device.sms = ", dev.sms, ": a device needs at least one SM"));
  if (dev.occupancy < 1)
    return absl::InvalidArgumentError(absl::StrCat(
        "device.occupancy = ", dev.occupancy,
        ": the kernel must fit at least one block per SM (0 means it cannot run on this device)"));
  const TileShape tile = TileOf(o, dev);
  for (auto [name, v] : {std::pair<const char*, int>{"tile.m", tile.m}, {"tile.n", tile.n},
                         {"tile.k", tile.k}}) {
    if (v < 1 || v > kMaxTileDim)
      return absl::InvalidArgumentError(
          absl::StrCat(name, " = ", v, ": must be in [1, ", kMaxTileDim, "]"));
  }
  if (o.avail_sms < 0 || o.avail_sms > dev.sms)
    return absl::InvalidArgumentError(absl::StrCat("avail_sms = ", o.avail_sms,
                                                   ": must be in [0, ", dev.sms,
                                                   "] (0: all SMs of ", dev.name, ")"));
  if (IsClusterTile(dev, tile) && o.schedule == Schedule::kDynamic)
    return absl::InvalidArgumentError(absl::StrCat(
        "tile = ", TileShapeName(tile), " with schedule dynamic: the tile runs on clusters of 2 "
        "SMs, whose blocks take their work together; a dynamic schedule runs without clusters"));
  if (IsClusterTile(dev, tile)) {
    const int sms = o.avail_sms > 0 ? o.avail_sms : dev.sms;
    if (sms < 2 || ClusterSlots(dev) < 1)
      return absl::InvalidArgumentError(absl::StrCat(
          "avail_sms = ", sms, ": tile ", TileShapeName(tile), " runs on clusters of 2 SMs (",
          dev.name, " holds ", ClusterSlots(dev), " at once); it needs at least 2 SMs"));
  }
  return ValidatePlanOptions(o);
}

}  // namespace

std::optional<int> ParseSkTiles(std::string_view s) {
  if (s == "tail") return kPartialWaveTiles;
  int tiles = 0;
  if (!absl::SimpleAtoi(absl::string_view(s.data(), s.size()), &tiles) || tiles < 1)
    return std::nullopt;
  return tiles;
}

std::optional<TileShape> ParseTileShape(std::string_view s) {
  const std::vector<absl::string_view> parts =
      absl::StrSplit(absl::string_view(s.data(), s.size()), 'x');
  TileShape t;
  if (parts.size() != 3 || !absl::SimpleAtoi(parts[0], &t.m) ||
      !absl::SimpleAtoi(parts[1], &t.n) || !absl::SimpleAtoi(parts[2], &t.k))
    return std::nullopt;
  return t;
}

std::string TileShapeName(const TileShape& t) { return absl::StrCat(t.m, "x", t.n, "x", t.k); }

absl::Status ValidatePlanOptions(const PlanOptions& o) {
  if (o.max_workspace_bytes < 0)
    return absl::InvalidArgumentError(absl::StrCat(
        "max_workspace_bytes = ", o.max_workspace_bytes, ": must be >= 0 (0: no cap)"));
  if (o.splits < 0)
    return absl::InvalidArgumentError(
        absl::StrCat("splits = ", o.splits, ": must be >= 0 (0: the planner picks)"));
  if (o.blocks < 0)
    return absl::InvalidArgumentError(
        absl::StrCat("blocks = ", o.blocks, ": must be >= 0 (0: the planner picks)"));
  if (o.sk_tiles < kPartialWaveTiles)
    return absl::InvalidArgumentError(absl::StrCat(
        "sk_tiles = ", o.sk_tiles, ": must be >= 0, or kPartialWaveTiles (-1)"));
  if (o.sk_tiles != 0 && o.mode != Mode::kStreamK)
    return absl::InvalidArgumentError(absl::StrCat("sk_tiles = ", o.sk_tiles, " with mode ",
                                                   ModeName(o.mode),
                                                   ": sk_tiles only applies to mode streamk"));
  if (o.splits != 0 && o.mode != Mode::kSplitK)
    return absl::InvalidArgumentError(absl::StrCat("splits = ", o.splits, " with mode ",
                                                   ModeName(o.mode),
                                                   ": splits only applies to mode splitk"));
  if (o.blocks != 0 && o.mode != Mode::kStreamK)
    return absl::InvalidArgumentError(absl::StrCat("blocks = ", o.blocks, " with mode ",
                                                   ModeName(o.mode),
                                                   ": blocks only applies to mode streamk"));
  if (o.reduction_slices < 0)
    return absl::InvalidArgumentError(absl::StrCat("reduction_slices = ", o.reduction_slices,
                                                   ": must be >= 0 (0: the planner picks)"));
  if (o.reduction_slices != 0 && o.reduction != Reduction::kSeparate)
    return absl::InvalidArgumentError(absl::StrCat(
        "reduction_slices = ", o.reduction_slices,
        ": only a separate reduction is sliced (set reduction to separate)"));
  if (o.reduction.has_value() && o.mode == Mode::kDataParallel)
    return absl::InvalidArgumentError(
        absl::StrCat("reduction = ", ReductionName(*o.reduction),
                     " with mode dp: data-parallel tiles have no partial sums to reduce"));
  return absl::OkStatus();
}

double PredictMicros(const Plan& p, const CostModel& cost) { return Predict(p, cost).us; }

double PredictRunningMicros(const Plan& plan, const CostModel& cost, int running_sms) {
  if (running_sms >= plan.avail_sms || running_sms < 1) return PredictMicros(plan, cost);
  // Claimed in order by the blocks that run, the work blocks fall to them round by round as a
  // static plan's do over that many blocks (blocks of one role take about the same time).
  // Their iterations contend for the L2 and memory as that share of the GPU's SMs does, not as a
  // whole GPU busy (RoundIter over the plan's own SMs).
  Plan p = plan;
  p.avail_sms = running_sms;
  p.grid_blocks = std::min(p.work_blocks, running_sms * p.occupancy);
  return Predict(p, cost, plan.avail_sms).us;
}

namespace {

// A plan's rounds of `grid_blocks` work blocks: the work blocks in full rounds, the last, partial
// round's, and what an iteration costs in each (Predict).
inline Rounds RoundsOf(const Plan& p, const CostTerms& terms, int busy_of) {
  const int grid = std::max(1, p.grid_blocks);
  Rounds r;
  r.full_end = p.work_blocks / grid * grid;
  r.tail = p.work_blocks - r.full_end;
  const int busy_sms = std::max(p.avail_sms, busy_of);
  // A last, partial round: its blocks run alone when they are few, but a tail of more than half
  // the SMs' worth shares SMs like a full round (measured on an H200, two blocks per SM: 396
  // data-parallel tiles on 264 blocks take 176 us, two shared rounds of 88 rather than 88 + 54;
  // 276 and 540 tiles, tails of 12, run their tails alone).
  // With one block per SM, a round's iterations cost more the more SMs it keeps busy
  // (RoundIter, iter_busy_us): 12 data-parallel tail tiles of 128 iterations on an H200 take
  // 19 us, a full round of 132 34 us.
  r.tail_iter = grid > p.avail_sms && 2 * r.tail > p.avail_sms
                    ? terms.iter_shared
                    : RoundIter(terms, std::min(r.tail, p.avail_sms), busy_sms);
  r.full_iter = RoundIter(terms, grid, busy_sms);
  return r;
}

Prediction Predict(const Plan& p, const CostModel& cost, int busy_of, const CostTerms* scaled) {
  // The kernel is persistent: block r of `grid` runs work blocks r, r + grid, ... in rounds of
  // `grid` work blocks. The plan takes as long as its most loaded block. A round with more blocks
  // than SMs runs them two (occupancy) to an SM at iter_shared_us per iteration each; which blocks
  // share an SM is up to the hardware, so the model assumes they all do (and so for a last,
  // partial round, see tail_iter). A launch of at most one block per SM runs at iter_us.
  const CostTerms terms = scaled != nullptr ? *scaled : ScaleCosts(p, cost);
  const double b = terms.partial, e = terms.epilogue;

  // Each role's cost: iterations (scaled by the round's sharing) plus fixed costs.
  const int peers = MaxPeers(p);
  const int sk_iters = p.sk_iters_per_normal_block + (p.sk_big_blocks_per_region > 0 ? 1 : 0);
  // A Stream-K block's exchange, as the memory floor counts it (all of its bytes).
  const double sk_fixed = p.sk_blocks > 0 ? SkExchange(terms, p.reduction, peers) : 0;
  // The part of it that delays the block (the schedule's). The turnstile's chain is one store
  // shorter where blocks straddle tiles and have middle peers: a tile's first peer publishes its
  // slice early (blocks walk their tiles backwards) while the others still run, so only the middle
  // peers' hand-overs wait on one another, and the finishing block's own store of its next tile
  // runs beside them. Priced so only where data-parallel tiles follow on the same blocks (the
  // partial round's tiles Stream-K, ahead of a full round), where it was measured so; every tile
  // Stream-K over fewer tiles than blocks ran at or over the whole chain's price (on an H200).
  const bool early_first_peer = p.reduction == Reduction::kDeterministic && peers > 2 &&
                                Straddles(p) && p.dp_blocks > p.dp_blocks_before_sk;
  const double sk_chain = sk_fixed - (early_first_peer ? b : 0);
  struct RoleCost {
    double iters, fixed;
  };
  // A Stream-K block touches about sk_iters / iters_per_tile + 1 tiles, each a pipeline fill.
  const double sk_units = std::min<double>(sk_iters, 1.0 + static_cast<double>(sk_iters - 1) /
                                                              std::max(1, p.iters_per_tile));
  const double u = terms.unit;
  // Ping-pong (terms.hidden > 0, data-parallel plans only): a tile's epilogue runs under the next
  // tile's mainloop, so each tile costs `hidden` less, and each block's last, whose epilogue
  // nothing hides, gives it back (below, on the most loaded block).
  const double dp_fixed = e + u - terms.hidden;
  const RoleCost sk{static_cast<double>(sk_iters), sk_chain + sk_units * u};
  const RoleCost dp_first{static_cast<double>(p.dp_first_wave_tiles) * p.iters_per_tile,
                          p.dp_first_wave_tiles * dp_fixed};
  const RoleCost dp{static_cast<double>(p.iters_per_tile), dp_fixed};
  const RoleCost red{0, ReductionBlockCost(terms, peers, std::max(1, p.reduction_slices))};

  const int grid = std::max(1, p.grid_blocks);
  // Divisions by grid as multiplies (mapping::Divide: exact below 2^31): the search prices a few
  // hundred candidates, and integer divides were a fifth of their time.
  const FastDivisor by_grid = mapping::MakeDivisor(grid);
  auto mod_grid = [&](int x) { return x - mapping::Divide(by_grid, x) * grid; };
  const Rounds rounds = RoundsOf(p, terms, busy_of);
  const int full_end = rounds.full_end, tail = rounds.tail;
  const double tail_iter = rounds.tail_iter, full_iter = rounds.full_iter;
  // #{w in [0, x) : w % grid == r}: block r's work blocks before x.
  auto before = [&by_grid](int x, int r) -> int64_t {
    return x <= r ? 0 : mapping::Divide(by_grid, x - 1 - r) + 1;
  };
  // Work order (work_mapping.h RoleOf): early DP blocks, SK blocks, the other DP blocks (the
  // first avail_sms of them with dp_first_wave_tiles each; Derive never sets both
  // dp_first_wave_tiles > 1 and early DP blocks), reduction blocks.
  const int early_end = p.dp_blocks_before_sk;
  const int sk_end = early_end + p.sk_blocks, dp_end = p.sk_blocks + p.dp_blocks;
  const int first_wave_end = sk_end + std::min(p.dp_blocks - early_end, p.avail_sms);
  const bool first_wave = p.dp_first_wave_tiles > 1;
  // Each role's work blocks end where the next role's begin.
  struct Role {
    int end;
    const RoleCost* cost;
  };
  const Role roles[] = {{early_end, &dp},
                        {sk_end, &sk},
                        {first_wave_end, first_wave ? &dp_first : &dp},
                        {dp_end, &dp},
                        {p.work_blocks, &red}};
  // Block r's load from its work blocks before `upto`: per role, its work blocks in full rounds
  // and in the partial one (the roles' ends do not decrease). The search prices a few hundred
  // candidates a plan, and this was a third of their time, so each count is taken once and
  // empty roles are skipped.
  auto load_before = [&](int r, int upto) {
    const int split = std::min(full_end, upto);
    const int64_t before_split = before(split, r);
    double l = 0;
    int lo = 0;
    int64_t before_lo = 0;
    for (const Role& role : roles) {
      const int hi = std::min(role.end, upto);
      if (hi > lo) {
        const int64_t before_hi = hi == split ? before_split : before(hi, r);
        const int64_t in_full = lo < split ? (hi <= split ? before_hi : before_split) - before_lo : 0;
        const int64_t in_tail = hi > split ? before_hi - (lo >= split ? before_lo : before_split) : 0;
        l += in_full * (role.cost->iters * full_iter + role.cost->fixed) +
             in_tail * (role.cost->iters * tail_iter + role.cost->fixed);
        lo = hi, before_lo = before_hi;
      }
      if (role.end >= upto) break;
    }
    return l;
  };
  auto role_at = [&](int w) -> const RoleCost& {
    for (const Role& role : roles)
      if (w < role.end) return *role.cost;
    return red;
  };
  // The searches' commonest candidates in closed form (the walk below finds the same): one round,
  // in which each block runs one work block at the full round's rate, so the most loaded runs the
  // costliest role; and data-parallel tiles alone (no Stream-K, reduction or first-round blocks of
  // several tiles), where block 0 is the most loaded, with a tile in every full round and the
  // partial round's.
  double worst = 0;
  if (tail == 0 && full_end == grid) {
    int lo = 0;
    for (const Role& role : roles) {
      if (role.end > lo) worst = std::max(worst, role.cost->iters * full_iter + role.cost->fixed);
      lo = std::max(lo, role.end);
    }
  } else if (p.sk_blocks == 0 && p.reduction_blocks == 0 && !first_wave) {
    const int64_t full_rounds = full_end / grid;
    worst = full_rounds * (dp.iters * full_iter + dp.fixed);
    if (tail > 0) {
      double last = dp.iters * tail_iter + dp.fixed;
      if (grid <= p.avail_sms && full_iter > tail_iter)
        last += std::clamp(-dp.fixed / full_iter, 0.0, dp.iters) * (full_iter - tail_iter);
      worst = std::max(worst, worst + last);
    }
  } else {
    // The most loaded block is one at a boundary between roles, or the first or the last.
    const int boundaries[] = {0,          grid - 1, early_end - 1,      early_end,
                              sk_end - 1, sk_end,   first_wave_end - 1, first_wave_end,
                              dp_end - 1, dp_end,   p.work_blocks - 1,  tail - 1,
                              tail};
    // Each boundary's block, and its load (boundaries often fall on the same block).
    int block_of[std::size(boundaries)];
    double loads[std::size(boundaries)];
    for (size_t i = 0; i < std::size(boundaries); ++i) {
      block_of[i] = boundaries[i] >= 0 ? mod_grid(boundaries[i]) : -1;
      loads[i] = 0;
      if (block_of[i] < 0) continue;
      size_t same = 0;
      while (same < i && block_of[same] != block_of[i]) ++same;
      loads[i] = same < i ? loads[same] : load_before(block_of[i], p.work_blocks);
    }
    // With one block per SM, a block's work block in the last, partial round starts when the
    // block's earlier work ends. After a short Stream-K share that is while the other blocks still
    // run their full round, so until they finish (`busy_until`: the most loaded block with no
    // partial-round work) it runs at the full round's rate, not alone. (Traced on an H200: a tile
    // after Stream-K work took 105-109 us of mainloop beside full-round tiles of 95-97,
    // 5120x3456x8192. Measured on an H200: costed so, auto moves the one-wave 8192-deep shapes to
    // every tile Stream-K and the deep many-wave shapes to the two-tile hybrid, 3-17% faster.)
    const bool overlap = tail > 0 && grid <= p.avail_sms && full_iter > tail_iter;
    double busy_until = 0;
    for (size_t i = 0; i < std::size(boundaries); ++i)
      if (block_of[i] >= tail) busy_until = std::max(busy_until, loads[i]);
    for (size_t i = 0; i < std::size(boundaries); ++i) {
      if (block_of[i] < 0) continue;
      const int r = block_of[i];
      double l = loads[i];
      if (overlap && r < tail) {
        const RoleCost& c = role_at(full_end + r);
        const double busy_iters =
            std::clamp((busy_until - load_before(r, full_end) - c.fixed) / full_iter, 0.0, c.iters);
        l += busy_iters * (full_iter - tail_iter);
      }
      worst = std::max(worst, l);
    }
  }
  worst += terms.hidden;
  // Reduction blocks cannot finish before the Stream-K blocks whose partials they sum: their
  // work starts where a Stream-K block's ends (measured on an H200: 46 tiles over 132 blocks
  // with a separate reduction took 34 us, modelled without this as 28 us; the turnstile 25 us).
  if (p.reduction_blocks > 0) {
    for (int w : {early_end, sk_end - 1})
      worst = std::max(worst, load_before(mod_grid(w), sk_end) + red.fixed);
  }
  // The memory floor (CostModel::hbm_bytes_per_us): every byte of A, B and D once (and the panels
  // Stream-K tiles read again, StreamKGemmBytes), then one epilogue; where blocks split tiles, a
  // tile is finished after its bytes, so its peers' partials exchanged too (a Stream-K block's
  // fixed costs, sk_fixed, which hold the epilogue).
  double floor = 0;
  if (cost.hbm_bytes_per_us > 0) {
    floor = StreamKGemmBytes(p, cost) / cost.hbm_bytes_per_us +
            (p.sk_blocks > 0 ? std::max(sk_fixed, e) : e);
    // Narrow M- or N-major loads the floor does not hide (CostModel::narrow_mn_floor_iter_us):
    // each block's share of the iterations, paid as the SMs the grid keeps busy share it.
    if (cost.narrow_mn_floor_iter_us > 0 && (NarrowMn(p, 'a') || NarrowMn(p, 'b')) &&
        p.grid_blocks > 0) {
      const int busy = std::min(p.grid_blocks, p.avail_sms);
      const double iters = std::ceil(static_cast<double>(p.tiles) * p.iters_per_tile / busy);
      floor += iters * cost.narrow_mn_floor_iter_us * p.tile_k / 64.0 * busy / p.avail_sms;
    }
    // Data-parallel rounds, each at least one tile's bytes at one SM's rate
    // (CostModel::sm_bytes_per_us): a last round of few tiles streams on few SMs.
    if (cost.sm_bytes_per_us > 0 && p.sk_blocks == 0 && p.reduction_blocks == 0 &&
        p.cluster_m == 1 && p.occupancy <= 1 && p.tiles > 0 && p.grid_blocks > 0) {
      const double tile_bytes = GemmBytes(p) / p.tiles;
      auto round_us = [&](int64_t tiles) {
        return std::max(tiles * tile_bytes / cost.hbm_bytes_per_us,
                        tile_bytes / cost.sm_bytes_per_us);
      };
      const int64_t full = p.tiles / p.grid_blocks, last = p.tiles % p.grid_blocks;
      floor = std::max(floor, full * round_us(p.grid_blocks) + (last ? round_us(last) : 0) + e);
    }
  }
  return {terms.fixed + std::max(worst, floor), terms.fixed + worst};
}

}  // namespace

absl::StatusOr<Plan> MakePlan(const Problem& problem, const DeviceSpec& device,
                              const PlanOptions& options) {
  return MakePlan(problem, device, options, nullptr);
}

namespace {

// MakePlan for one kernel configuration: `tile` with `cost` (the options' tile is ignored).
absl::StatusOr<Plan> PlanForKernel(const Problem& problem, const DeviceSpec& device,
                                   const PlanOptions& o, const TileShape& tile,
                                   const CostModel& cost, PlanExplanation* why) {
  Plan p;
  p.m = static_cast<int>(problem.m);
  p.n = static_cast<int>(problem.n);
  p.k = static_cast<int>(problem.k);
  p.batch = static_cast<int>(problem.batch);
  p.tile_m = tile.m;
  p.tile_n = tile.n;
  p.tile_k = tile.k;
  const int64_t tile_rows = TileRows(problem, p.tile_m);
  if (tile_rows > std::numeric_limits<int32_t>::max())
    return absl::InvalidArgumentError(absl::StrCat("m = ", problem.m, ": ", tile_rows, " rows of ",
                                                   p.tile_m, "-row tiles exceed 2^31 - 1"));
  p.tiles_m = static_cast<int>(tile_rows);
  p.tiles_n = static_cast<int>(CeilDiv(p.n, p.tile_n));
  if (problem.groups > 0) {
    p.groups = static_cast<int>(problem.groups);
    p.rows_bound = problem.group_rows == nullptr ? 1 : 0;
    p.groups_with_rows = p.rows_bound ? static_cast<int>(std::min(problem.groups, problem.m))
                                      : static_cast<int>(std::count_if(
                                            problem.group_rows, problem.group_rows + problem.groups,
                                            [](int64_t r) { return r > 0; }));
  }
  p.iters_per_tile = static_cast<int>(CeilDiv(p.k, p.tile_k));
  // As the kernel loads them: MakePlan and PlanRows mark the rows of operands they copy.
  p.a = problem.a, p.b = problem.b;
  // A D stored another way than TMA (PlanOptions::store_d) runs no ping-pong, and is priced so.
  p.d_tma_store = problem.d_tma_store && (!o.store_d || *o.store_d == StoreD::kTma);
  p.narrow_wgmma = o.narrow_wgmma;
  p.mainloop = device.mainloop;
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
  p.schedule = o.schedule.value_or(Schedule::kStatic);
  if (IsClusterTile(device, tile)) {
    // Clusters of two SMs stand in for the SMs, one resident per pair of them.
    p.cluster_m = 2;
    p.avail_sms = std::max(1, std::min(p.avail_sms / p.cluster_m, ClusterSlots(device)));
    p.occupancy = 1;
  }
  p.raster = p.tiles_n >= p.tiles_m ? Raster::kAlongN : Raster::kAlongM;
  p.swizzle = std::min(kDefaultSwizzle, p.raster == Raster::kAlongN ? p.tiles_m : p.tiles_n);

  const Reduction reduction = o.reduction.value_or(Reduction::kDeterministic);
  const int slices = o.reduction_slices;  // 0: DefaultSlices
  if (slices > 0 && p.tile_n % (8 * slices) != 0 && slices != 1)
    return absl::InvalidArgumentError(absl::StrCat(
        "reduction_slices = ", slices, ": must divide the tile's ", p.tile_n,
        " columns into slices of a multiple of 8 columns"));
  const int capacity = p.avail_sms * p.occupancy;  // blocks resident at once
  const int64_t all_iters = int64_t{p.tiles} * p.iters_per_tile;
  PlanExplanation local;
  PlanExplanation& ex = why != nullptr ? *why : local;
  ex = Inner(why);
  const bool explain = why != nullptr;
  const bool text = Wants(why);

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
      // Its best count splits each tile at least in two where a tile has two iterations: one
      // split is data-parallel run through the Stream-K path, not what was asked for.
      const int lo = o.splits > 0 ? o.splits : std::min(2, p.iters_per_tile);
      const int hi = o.splits > 0 ? o.splits : std::min(p.iters_per_tile, kMaxAutoSplits);
      chosen = *BestSplitK(scratch, cost, lo, hi, reduction, slices);
      reason = o.splits > 0 ? absl::StrCat("mode splitk with ", o.splits, " splits requested")
                            : "mode splitk requested; split count with the lowest predicted time";
      break;
    }
    case Mode::kStreamK: {
      const int sk_tiles = o.sk_tiles == kPartialWaveTiles ? p.tiles % p.avail_sms
                           : o.sk_tiles > 0               ? o.sk_tiles
                                                          : p.tiles;
      if (sk_tiles > p.tiles)
        return absl::InvalidArgumentError(absl::StrCat(
            "sk_tiles = ", o.sk_tiles, ": more than the problem's ", p.tiles, " tiles"));
      if (sk_tiles == 0) {
        reason = absl::StrCat("mode streamk on the partial wave requested, but ", p.tiles,
                              " tiles fill whole waves of ", p.avail_sms,
                              " SMs: data-parallel");
        break;
      }
      const std::string what =
          sk_tiles == p.tiles ? std::string("mode streamk")
                              : absl::StrCat("mode streamk on ", sk_tiles, " tiles (",
                                             p.tiles - sk_tiles, " data-parallel)");
      const int64_t sk_iters = int64_t{sk_tiles} * p.iters_per_tile;
      if (o.blocks > 0) {
        chosen = {Mode::kStreamK, sk_tiles, o.blocks, reduction, slices};
        reason = absl::StrCat(what, " with ", o.blocks, " blocks requested");
        if (o.blocks > sk_iters)
          absl::StrAppend(&reason, "; clamped to ", sk_iters,
                          " blocks, one per iteration at least");
      } else {
        const int hi = static_cast<int>(std::min<int64_t>(capacity, sk_iters));
        chosen = *BestStreamK(scratch, cost, sk_tiles, 1, hi, reduction, slices);
        reason = absl::StrCat(what, " requested; block count with the lowest predicted time");
      }
      break;
    }
    case Mode::kAuto: {
      // Candidate 1: data-parallel.
      Derive(DataParallel(), scratch);
      const double dp_us = PredictMicros(scratch, cost);
      if (explain)
        ex.candidates.push_back(
            Describe("dp", scratch, cost, dp_us, text ? "one block per tile" : "", text));
      double best_us = std::numeric_limits<double>::infinity();  // best non-DP candidate
      std::string best_name;
      Decomposition best_d;

      // Weighs a non-DP decomposition, and the separate reduction wave for it where many peers
      // share a tile and resident slots are free for reduction blocks.
      // `edge`: the candidate is taken over the two-tile hybrid unless that is predicted this
      // much faster (kMinTwoTileOverTailGain), where it clears data-parallel's margin too.
      const double min_gain = MinPredictedGain(p);
      const double dp_bar = dp_us * (1 - min_gain);
      auto consider = [&](const std::string& name, Decomposition d, std::string note,
                          double edge = 0) {
        Derive(d, scratch);
        double us = PredictMicros(scratch, cost);
        if (!o.reduction.has_value() && SeparateReductionFits(scratch, cost)) {
          Decomposition sep = d;
          sep.reduction = Reduction::kSeparate;
          Derive(sep, scratch);
          const double sep_us = PredictMicros(scratch, cost);
          if (sep_us < us) {
            d = sep, us = sep_us;
            if (text)
              absl::StrAppend(&note, "; separate reduction wave (", MaxPeers(scratch),
                              " peers per tile, ", scratch.reduction_slices, " slices)");
          }
          Derive(d, scratch);
        }
        if (explain)
          ex.candidates.push_back(Describe(name, scratch, cost, us, std::move(note), text));
        const double bar =
            best_name == "streamk" && us < dp_bar ? best_us * (1 + edge) : best_us;
        if (us < bar) best_us = us, best_d = d, best_name = name;
      };
      auto infeasible = [&](const std::string& name, Mode mode, std::string note) {
        if (!explain) return;
        Candidate c;
        c.name = name;
        c.mode = mode;
        c.feasible = false;
        if (text) c.note = std::move(note);
        ex.candidates.push_back(c);
      };

      // Candidate 2: the best split-K over all tiles, at most one resident wave of blocks. Not for
      // whole waves: there is no quantization to fix, and DP has no fixup to pay.
      const bool whole_waves = p.tiles % p.avail_sms == 0;
      // Past kMaxAutoSplits only with a separate reduction (BestSplitK), where one can follow
      // the split-K blocks (SeparateReductionFits).
      const bool weigh_separate = !o.reduction.has_value();
      const bool past_cap = weigh_separate && (cost.separate_after_streamk || p.occupancy > 1);
      const int max_splits = std::min(
          {p.iters_per_tile, past_cap ? capacity : kMaxAutoSplits, capacity / p.tiles});
      if (whole_waves) {
        infeasible("splitk", Mode::kSplitK, "whole waves: nothing to balance");
      } else if (max_splits >= 2) {
        consider("splitk",
                 *BestSplitK(scratch, cost, 2, max_splits, reduction, slices, weigh_separate),
                 !text ? std::string()
                 : max_splits > kMaxAutoSplits
                     ? absl::StrCat("best of 2..", max_splits, " splits (past ", kMaxAutoSplits,
                                    " with a separate reduction)")
                     : absl::StrCat("best of 2..", max_splits, " splits"));
      } else {
        infeasible("splitk", Mode::kSplitK,
                   p.iters_per_tile < 2 ? "one k-iteration per tile: nothing to split"
                                        : "2 splits per tile exceed one resident wave");
      }

      // Candidate 3: the hybrid (DP waves + one Stream-K wave).
      const HybridShape h = ShapeHybrid(p, text);
      if (h.sk_tiles > 0) {
        consider("streamk",
                 *BestStreamK(scratch, cost, h.sk_tiles, h.min_blocks, h.max_blocks, reduction,
                              slices),
                 h.note);
      } else {
        infeasible("streamk", Mode::kStreamK, h.note);
      }

      // Candidate 3b, the one-tile hybrid on persistent blocks ("streamk-tail"): where the
      // two-tile hybrid applies (full waves fill the resident slots), keep every full wave
      // data-parallel and spread only the partial wave's tiles over up to one wave of Stream-K
      // blocks. Each persistent block runs its k-slice, then its data-parallel tiles; with a
      // separate reduction the reduction blocks come last, sliced over the SMs, and find their
      // partials long published. Its Stream-K blocks are short, so where the two-tile hybrid pays
      // a whole tile of fixups per block this pays one partial store.
      const int partial_tiles = p.tiles % p.avail_sms;
      if (!cost.partial_wave_streamk) {
        infeasible("streamk-tail", Mode::kStreamK,
                   "not measured to pay on this kernel configuration (CostModel)");
      } else if (partial_tiles > 0 && p.tiles / p.avail_sms >= p.occupancy) {
        const int64_t tail_iters = int64_t{partial_tiles} * p.iters_per_tile;
        const int hi =
            static_cast<int>(std::min<int64_t>(capacity, tail_iters / kMinItersPerSkBlock));
        const int lo = std::min(hi, partial_tiles + 1);
        if (lo >= 1 && hi > partial_tiles) {
          std::string note =
              text ? absl::StrFormat("one-tile on persistent blocks: the partial wave's %d tiles, "
                                     "best of %d..%d blocks",
                                     partial_tiles, lo, hi)
                   : std::string();
          if (o.reduction.has_value()) {
            consider("streamk-tail",
                     *BestStreamK(scratch, cost, partial_tiles, lo, hi, reduction, slices), note,
                     reduction == Reduction::kDeterministic ? kMinTwoTileOverTailGain : 0);
          } else {
            // The reduction wave runs after the data-parallel tiles here, so it needs no free
            // resident slots: weigh it whatever SeparateReductionFits says.
            Decomposition det =
                *BestStreamK(scratch, cost, partial_tiles, lo, hi, Reduction::kDeterministic, 0);
            Derive(det, scratch);
            const double det_us = PredictMicros(scratch, cost);
            Decomposition sep =
                *BestStreamK(scratch, cost, partial_tiles, lo, hi, Reduction::kSeparate, 0);
            Derive(sep, scratch);
            const double sep_us = PredictMicros(scratch, cost);
            if (sep_us < det_us) {
              if (text)
                absl::StrAppend(&note, "; separate reduction in ", scratch.reduction_slices,
                                " slices per tile");
              consider("streamk-tail", sep, note);
            } else {
              consider("streamk-tail", det, note, kMinTwoTileOverTailGain);
            }
          }
        } else {
          infeasible("streamk-tail", Mode::kStreamK,
                     text ? absl::StrFormat("too few iterations (%d) to spread %d tiles",
                                            tail_iters, partial_tiles)
                          : std::string());
        }
      }

      // Candidate 4: every tile Stream-K over one to `occupancy` waves of blocks. With more than
      // one resident block per SM this balances where the hybrid cannot: every persistent block
      // gets the same work wherever the hardware places it. Only up to two tiles per block: longer
      // ranges scatter the tiles running at once over the matrix and lose L2 reuse (measured:
      // 8192^3 all Stream-K 3810 us against 3435 us data-parallel).
      // Whole waves of SMs can still end in a part-empty resident wave: 396 tiles on 132 SMs with
      // two blocks per SM run as a round of 264 and a round of 132, and the second runs shared
      // too (see PredictMicros), so DP takes two full rounds.
      const bool resident_loss =
          p.tiles % p.avail_sms == 0 && p.tiles > capacity && p.tiles % capacity != 0;
      if ((h.sk_tiles > 0 || resident_loss) && p.occupancy > 1 && p.tiles <= 2 * capacity) {
        const int hi =
            static_cast<int>(std::min<int64_t>(capacity, all_iters / kMinItersPerSkBlock));
        const int lo = std::min(p.avail_sms, hi);
        if (lo >= 1) {
          consider("streamk-all", *BestStreamK(scratch, cost, p.tiles, lo, hi, reduction, slices),
                   text ? absl::StrCat("every tile Stream-K, best of ", lo, "..", hi, " blocks")
                        : std::string());
        }
      }

      // Data-parallel unless another candidate is predicted clearly faster.
      // Every tile Stream-K over fewer tiles than blocks, against data-parallel's one partial
      // round, on its configuration's margin where that is larger (few_tiles_streamk_gain).
      const bool few_tiles = best_d.mode == Mode::kStreamK && best_d.sk_tiles == p.tiles &&
                             best_d.sk_tiles < best_d.sk_blocks &&
                             cost.few_tiles_streamk_gain > min_gain;
      const double bar = few_tiles ? dp_us * (1 - cost.few_tiles_streamk_gain) : dp_bar;
      const double candidate_us = best_us;
      if (best_us < bar) {
        chosen = best_d;
      } else {
        best_name = "dp";
        best_us = dp_us;
      }
      if (!text) {
        // No reason to give.
      } else if (best_name == "dp" && few_tiles && candidate_us < dp_bar) {
        reason = absl::StrFormat(
            "every tile Stream-K over fewer tiles than blocks is predicted %.2fx as fast as "
            "data-parallel (%.1f vs %.1f us), under the %g%% gain this configuration needs for "
            "it (CostModel::few_tiles_streamk_gain)",
            dp_us / candidate_us, candidate_us, dp_us, cost.few_tiles_streamk_gain * 100);
      } else if (best_name == "dp") {
        reason = h.sk_tiles == 0 && p.tiles % p.avail_sms == 0 && !resident_loss
                     ? h.note
                     : absl::StrFormat(
                           "no candidate is predicted to beat data-parallel by %g%% or more",
                           min_gain * 100);
      } else {
        reason =
            absl::StrFormat("%s is predicted %.2fx faster than data-parallel (%.1f vs %.1f us)",
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
      ex.candidates.push_back(Describe(std::string(ModeName(p.mode)), p, cost, ex.predicted_us,
                                       text ? "requested" : "", text));
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

// The predicted time of the data-parallel candidate of an auto explanation.
double DataParallelMicros(const PlanExplanation& why) {
  for (const Candidate& c : why.candidates)
    if (c.mode == Mode::kDataParallel && c.feasible) return c.predicted_us;
  return std::numeric_limits<double>::infinity();
}

// The plan on the options' tile, else on the device's tile or the faster of its two. `dp_us`,
// where given, receives the faster of the two tiles' data-parallel predictions where both were
// planned (else it is left as it is).
absl::StatusOr<Plan> PlanTwoTiles(const Problem& problem, const DeviceSpec& device,
                                  const PlanOptions& o, PlanExplanation* why,
                                  double* dp_us = nullptr) {
  const KernelConfig* alt_config = device.Find(KernelRole::kAlt);
  if (o.tile != kNoTile || alt_config == nullptr || alt_config->tile == kNoTile) {
    const TileShape tile = TileOf(o, device);
    return PlanForKernel(problem, device, o, tile, CostOfTile(device, tile), why);
  }

  // Two kernel configurations: plan both, keep the one predicted faster (the main one on a tie).
  const KernelConfig& main_config = device.main();
  // The tile and constants of the main configuration, or of the alt one.
  auto config = [&](bool alt) -> const KernelConfig& { return alt ? *alt_config : main_config; };
  PlanExplanation main_why = Inner(why), alt_why = Inner(why);
  absl::StatusOr<Plan> main =
      PlanForKernel(problem, device, o, main_config.tile, main_config.cost, &main_why);
  absl::StatusOr<Plan> alt =
      PlanForKernel(problem, device, o, alt_config->tile, alt_config->cost, &alt_why);
  // A forced decomposition one tile cannot take (e.g. more splits than its k-iterations per tile)
  // runs on the other; where neither can, the main tile's rule is the error.
  if (!main.ok() || !alt.ok()) {
    const bool use_main = main.ok() || !alt.ok();
    if (why != nullptr) *why = std::move(use_main ? main_why : alt_why);
    return use_main ? main : alt;
  }
  if (dp_us != nullptr)
    *dp_us = std::min(DataParallelMicros(main_why), DataParallelMicros(alt_why));
  bool use_alt = alt_why.predicted_us < main_why.predicted_us;
  absl::StatusOr<Plan> plan = use_alt ? alt : main;
  std::string reason;

  // Auto keeps a decomposition other than data-parallel only where it is predicted to beat the
  // faster data-parallel plan of either tile by kMinPredictedGain, as within one tile (measured:
  // 1824 x 2176 x 4960 as Stream-K over 135 128x256 tiles, predicted 4% under data-parallel on
  // 128x128 tiles, ran 10% over it).
  if (o.mode == Mode::kAuto && plan->sk_blocks > 0) {
    const double dp_main = DataParallelMicros(main_why), dp_alt = DataParallelMicros(alt_why);
    const double best_dp = std::min(dp_main, dp_alt);
    // Across tiles the model errs more (each tile's constants were fitted on their own): the
    // lower margin holds only against the Stream-K pick's own tile's data-parallel plan.
    const bool own_tile_dp = use_alt ? dp_alt <= dp_main : dp_main <= dp_alt;
    const double min_gain = own_tile_dp ? MinPredictedGain(*plan) : kMinPredictedGain;
    const double pick_us = (use_alt ? alt_why : main_why).predicted_us;
    if (pick_us > best_dp * (1 - min_gain)) {
      const TileShape& pick_tile = config(use_alt).tile;
      const Mode pick_mode = plan->mode;
      use_alt = dp_alt < dp_main;
      PlanOptions dp = o;
      dp.mode = Mode::kDataParallel;
      PlanExplanation& w = use_alt ? alt_why : main_why;
      plan =
          PlanForKernel(problem, device, dp, config(use_alt).tile, config(use_alt).cost, nullptr);
      w.chosen = 0;  // auto's first candidate is data-parallel
      w.predicted_us = best_dp;
      // The pick that lost, and why the data-parallel tile's own candidates did not win there (a
      // candidate of it may be faster yet held back by its own margin).
      if (why != nullptr && why->text)
        reason = absl::StrFormat(
            "%s on %s (%.1f us) is not predicted to beat data-parallel on %s (%.1f us) by %g%% or "
            "more; on %s: %s",
            ModeName(pick_mode), TileShapeName(pick_tile), pick_us,
            TileShapeName(config(use_alt).tile), best_dp, min_gain * 100,
            TileShapeName(config(use_alt).tile), w.reason);
    }
  }
  if (why != nullptr) {
    const PlanExplanation& chosen = use_alt ? alt_why : main_why;
    const PlanExplanation& other = use_alt ? main_why : alt_why;
    const TileShape& chosen_tile = config(use_alt).tile;
    const TileShape& other_tile = config(!use_alt).tile;
    *why = chosen;
    for (Candidate c : other.candidates) {
      absl::StrAppend(&c.name, " [", TileShapeName(other_tile), "]");
      why->candidates.push_back(std::move(c));
    }
    why->reason =
        absl::StrFormat("tile %s (predicted %.1f us; %s: %.1f us); %s", TileShapeName(chosen_tile),
                        chosen.predicted_us, TileShapeName(other_tile), other.predicted_us,
                        reason.empty() ? chosen.reason : reason);
  }
  return plan;
}

// The blocks resident at once on the SMs the options balance over, and the problem's tiles of
// `tile`: the fifth and sixth tiles are weighed only where one round of them holds the problem
// (tiles <= slots).
int64_t ResidentSlots(const DeviceSpec& device, const PlanOptions& o) {
  return int64_t{o.avail_sms > 0 ? o.avail_sms : device.sms} * std::max(device.occupancy, 1);
}
int64_t TilesOf(const Problem& problem, const TileShape& tile) {
  return TileRows(problem, tile.m) * CeilDiv(problem.n, tile.n) * problem.batch;
}

// Whether the sixth tile (KernelRole::kBroad) is weighed: only where one round of its tiles
// holds the problem and, where its threads store D (an fp32 D, a D read with C, or rows the TMA
// unit cannot store: kernels::TmaStoresOf), kMinBroadTileIters deep or more, so that its
// epilogue does not show.
bool BroadTileWeighed(const Problem& problem, const DeviceSpec& device, const PlanOptions& o) {
  const TileShape& tile = device.TileOf(KernelRole::kBroad);
  if (tile == kNoTile || TilesOf(problem, tile) > ResidentSlots(device, o)) return false;
  const bool tma_store =
      problem.d_tma_store &&
      kernels::TmaStoresOf(tile.n, DTypeBytes(problem.output), problem.reads_c);
  return tma_store || problem.k >= int64_t{kMinBroadTileIters} * tile.k;
}

// PlanKernel without the fifth tile: the options' tile, or the faster of the device's two, then
// its third or fourth (the faster of those that clear their margins) where its data-parallel plan
// is predicted kMinMidTileGain under the two's data-parallel pick (and, against auto's Stream-K
// pick of theirs, kMinMidOverStreamKGain or kMinWideOverStreamKGain under that too; the latter is
// negative); both margins are kMinMidTileGainOneRowOfTiles at most where the tiles' rows are the
// same and hold all of m. The sixth tile likewise, where one round of its tiles holds the problem,
// kMinBroadTileGain under both picks.
absl::StatusOr<Plan> PlanFourTiles(const Problem& problem, const DeviceSpec& device,
                                   const PlanOptions& o, PlanExplanation* why) {
  double two_dp_us = std::numeric_limits<double>::quiet_NaN();
  absl::StatusOr<Plan> plan = PlanTwoTiles(problem, device, o, why, &two_dp_us);
  if (!plan.ok() || o.tile != kNoTile ||
      (device.TileOf(KernelRole::kMid) == kNoTile && device.TileOf(KernelRole::kWide) == kNoTile &&
       device.TileOf(KernelRole::kBroad) == kNoTile) ||
      (o.mode != Mode::kAuto && o.mode != Mode::kDataParallel))
    return plan;

  // The third and fourth tiles, data-parallel only: their constants were fitted on data-parallel
  // plans and on Stream-K plans of at most two tiles per block (the third: with Stream-K blocks
  // loading whole tiles unrotated), and their split-K was barely measured. Fitted relative to the
  // other tiles' models, their constants favour them in close calls that they then lost by up to 3%
  // (kMinMidTileGain).
  PlanOptions dp = o;
  dp.mode = Mode::kDataParallel;
  const CostModel& pick_cost = KernelCost(device, *plan);
  const double pick_us = PredictMicros(*plan, pick_cost);
  const bool stream_k = plan->sk_blocks > 0;
  double dp_us = pick_us;  // the two tiles' data-parallel pick
  if (stream_k) {
    if (std::isfinite(two_dp_us)) {
      dp_us = two_dp_us;  // both tiles' data-parallel candidates, priced while planning them
    } else {
      absl::StatusOr<Plan> d = PlanTwoTiles(problem, device, dp, nullptr);
      dp_us = d.ok() ? PredictMicros(*d, KernelCost(device, *d)) : pick_us;
    }
  }
  // A Stream-K pick that only kMinDeepAlignedGain let in keeps no margin over the third and
  // fourth tiles: where one of those clears its own margin over the data-parallel pick and is
  // predicted faster than the Stream-K plan at all, it is taken (on an H200, 2360 x 7168 x 4112
  // and 3944 x 1224 x 4528 ran Stream-K on 128 x 128 tiles 7-19% slower than data-parallel on
  // 128 x 192, which was predicted 4.9% and 2.2% faster).
  const bool narrow_streamk = stream_k && pick_us > dp_us * (1 - kMinPredictedGain);
  // Every tile Stream-K on a configuration that yields to the others' rows where no slower
  // (CostModel::every_tile_streamk_yields).
  const bool yields = stream_k && plan->dp_tiles == 0 && pick_cost.every_tile_streamk_yields;
  auto over_streamk = [&](double margin) {
    return narrow_streamk ? std::min(margin, 0.0) : margin;
  };
  struct Extra {
    Extra(TileShape t, const CostModel* c, double over, double min_us,
          double over_dp_margin = kMinMidTileGain, bool round = false)
        : tile(t),
          cost(c),
          over_streamk(over),
          min_dp_us(min_us),
          over_dp(over_dp_margin),
          one_round(round) {}
    TileShape tile;
    const CostModel* cost;
    double over_streamk;  // the margin over a Stream-K pick
    double min_dp_us;     // weighed only where the other tiles' dp pick is predicted this long
    double over_dp;   // the margin over a data-parallel pick
    bool one_round;   // weighed only where one round of its tiles holds the problem
    absl::StatusOr<Plan> plan = absl::UnknownError("not planned");
    double us = 0;
    PlanExplanation why;
  };
  Extra extras[] = {{device.TileOf(KernelRole::kMid), &RoleCost(device, KernelRole::kMid),
                     over_streamk(kMinMidOverStreamKGain), 0.0},
                    {device.TileOf(KernelRole::kWide), &RoleCost(device, KernelRole::kWide),
                     over_streamk(kMinWideOverStreamKGain), kMinWideTileMicros},
                    {device.TileOf(KernelRole::kBroad), &RoleCost(device, KernelRole::kBroad),
                     kMinBroadTileGain, 0.0, kMinBroadTileGain,
                     /*round=*/true}};
  Extra* best = nullptr;
  for (Extra& e : extras) {
    if (e.tile == kNoTile || dp_us < e.min_dp_us) continue;
    if (e.one_round && !BroadTileWeighed(problem, device, o)) continue;
    e.why = Inner(why);
    e.plan = PlanForKernel(problem, device, dp, e.tile, *e.cost, why != nullptr ? &e.why : nullptr);
    if (!e.plan.ok()) continue;
    e.us = PredictMicros(*e.plan, *e.cost);
    // Planned as a forced data-parallel plan, its candidate reads "requested"; auto asked nothing.
    if (o.mode == Mode::kAuto)
      for (Candidate& c : e.why.candidates) c.note = "one block per tile; data-parallel only here";
    // Each against its own margin: where the faster of the two misses its margin over a
    // Stream-K pick, the other may still clear its own (3072 x 2944 x 8192).
    // The sixth tile keeps its own margins: the other tiles' rows do not relax them.
    if (!e.one_round && problem.m <= e.tile.m && e.tile.m == plan->tile_m) {  // m in one row
      e.over_streamk = std::min(e.over_streamk, kMinMidTileGainOneRowOfTiles);
      e.over_dp = kMinMidTileGainOneRowOfTiles;
    } else if (!e.one_round && e.tile.m == plan->tile_m &&
               (problem.m <= kMaxFewRowsOfTiles * e.tile.m || yields)) {
      e.over_streamk = std::min(e.over_streamk, 0.0);  // a few rows, or yields: no slower
    }
    const bool clears = e.us < dp_us * (1 - e.over_dp) &&
                        (!stream_k || e.us < pick_us * (1 - e.over_streamk));
    if (clears && (best == nullptr || e.us < best->us)) best = &e;
  }
  if (why != nullptr) {
    const std::string pick_name =
        TileShapeName(TileShape{plan->tile_m, plan->tile_n, plan->tile_k});
    PlanExplanation others = std::move(*why);
    if (best != nullptr) {
      *why = std::move(best->why);
      for (Candidate c : others.candidates) {
        if (c.name.find(" [") == std::string::npos) absl::StrAppend(&c.name, " [", pick_name, "]");
        why->candidates.push_back(std::move(c));
      }
      why->reason = absl::StrFormat(
          "tile %s, data-parallel (predicted %.1f us): %.0f%% or more under the other tiles' "
          "data-parallel pick (%.1f us)%s; %s",
          TileShapeName(best->tile), best->us, best->over_dp * 100, dp_us,
          !stream_k                ? ""
          : best->over_streamk > 0
              ? absl::StrFormat(" and %.0f%% under their %s plan (%.1f us)",
                                best->over_streamk * 100, ModeName(plan->mode), pick_us)
          : best->over_streamk < 0
              ? absl::StrFormat(" and within %.0f%% of their %s plan (%.1f us; this tile's "
                                "data-parallel plans ran faster against it than predicted)",
                                -best->over_streamk * 100, ModeName(plan->mode), pick_us)
              : absl::StrFormat(" and under their %s plan (%.1f us)", ModeName(plan->mode),
                                pick_us),
          others.reason);
    } else {
      *why = std::move(others);
    }
    for (Extra& e : extras) {
      if (!e.plan.ok() || &e == best) continue;
      const std::string name = TileShapeName(e.tile);
      for (Candidate c : e.why.candidates) {
        absl::StrAppend(&c.name, " [", name, "]");
        why->candidates.push_back(std::move(c));
      }
      absl::StrAppendFormat(&why->reason, "; data-parallel on %s: %.1f us", name, e.us);
    }
  }
  return best != nullptr ? std::move(best->plan) : plan;
}

// MakePlan for the problem's rows as they are (no repacking): PlanFourTiles's pick, or the fifth
// tile's (KernelRole::kSmall) where one round of its tiles holds the problem and its own
// pick (any mode auto plans; data-parallel in dp mode) is predicted kMinSmallTileGain faster
// (kMinSmallOverFullWaveGain where both split over nearly every SM; where its 64 rows hold all of
// m and B's rows are K-major on lines, no more than kMinSmallTileGainOneRowOfTiles slower).
absl::StatusOr<Plan> PlanKernel(const Problem& problem, const DeviceSpec& device,
                                const PlanOptions& o, PlanExplanation* why) {
  absl::StatusOr<Plan> plan = PlanFourTiles(problem, device, o, why);
  const TileShape small = device.TileOf(KernelRole::kSmall);
  const CostModel& small_cost = RoleCost(device, KernelRole::kSmall);
  if (!plan.ok() || o.tile != kNoTile || small == kNoTile ||
      (o.mode != Mode::kAuto && o.mode != Mode::kDataParallel))
    return plan;
  const int64_t slots = ResidentSlots(device, o);
  const int64_t tiles = TilesOf(problem, small);
  if (tiles > slots) return plan;
  const CostModel& pick_cost = KernelCost(device, *plan);
  const double pick_us = PredictMicros(*plan, pick_cost);
  PlanExplanation small_why = Inner(why);
  absl::StatusOr<Plan> alt = PlanForKernel(problem, device, o, small, small_cost,
                                           why != nullptr ? &small_why : nullptr);
  if (!alt.ok()) return plan;
  const double small_us = PredictMicros(*alt, small_cost);
  const bool full_wave = plan->sk_blocks > 0 && alt->sk_blocks > 0 &&
                         plan->sk_blocks >= kFullWaveShare * static_cast<double>(slots) &&
                         plan->sk_blocks <= kMaxAutoSplits * plan->sk_tiles;
  const bool one_row_of_tiles = !full_wave && problem.m <= small.m && problem.b.rows_on_lines();
  const double min_gain = full_wave          ? kMinSmallOverFullWaveGain
                          : one_row_of_tiles ? kMinSmallTileGainOneRowOfTiles
                                             : kMinSmallTileGain;
  bool take = small_us < pick_us * (1 - min_gain);
  // A Stream-K pick of the other tiles stands only where it beats data-parallel's pick by
  // kMinPredictedGain, as within them: where that is this tile's data-parallel plan, the pick
  // must beat it too (on an H200, 64 x 8192 x 28672 ran 123.4 us split two ways on 128 x 128
  // tiles, predicted 2% over data-parallel on 64 x 128, which ran 118.0).
  std::string over_dp;
  if (!take && o.mode == Mode::kAuto && plan->sk_blocks > 0) {
    PlanOptions dp = o;
    dp.mode = Mode::kDataParallel;
    // The tile's own pick is its data-parallel plan unless it predicted something faster.
    const absl::StatusOr<Plan> small_dp =
        alt->mode == Mode::kDataParallel
            ? alt
            : PlanForKernel(problem, device, dp, small, small_cost, nullptr);
    const absl::StatusOr<Plan> other_dp = PlanFourTiles(problem, device, dp, nullptr);
    if (small_dp.ok() && other_dp.ok()) {
      const double small_dp_us = PredictMicros(*small_dp, small_cost);
      const double other_dp_us = PredictMicros(*other_dp, KernelCost(device, *other_dp));
      take = small_dp_us < other_dp_us * (1 - kMinSmallTileGain) &&
             pick_us > small_dp_us * (1 - kMinPredictedGain);
      if (take)
        over_dp = absl::StrFormat(
            "; the other tiles' %s pick (%.1f us) is not predicted %.0f%% under data-parallel "
            "on it (%.1f us), which is data-parallel's pick",
            ModeName(plan->mode), pick_us, kMinPredictedGain * 100, small_dp_us);
    }
  }
  if (why != nullptr) {
    const std::string small_name = TileShapeName(small);
    const std::string pick_name =
        TileShapeName(TileShape{plan->tile_m, plan->tile_n, plan->tile_k});
    PlanExplanation& chosen = take ? small_why : *why;
    PlanExplanation& other = take ? *why : small_why;
    const std::string& other_name = take ? pick_name : small_name;
    std::string reason;
    if (!take) {
      reason = absl::StrFormat("%s; %s on %s: %.1f us", why->reason, ModeName(alt->mode),
                               small_name, small_us);
    } else if (over_dp.empty()) {
      const std::string holds =
          one_row_of_tiles ? absl::StrFormat("its %d-row tiles hold all %d rows of A (128-row "
                                             "tiles compute an empty half beside them); ",
                                             small.m, problem.m)
                           : std::string();
      const std::string margin =
          min_gain < 0 ? absl::StrFormat("at most %.0f%% over", -min_gain * 100)
                       : absl::StrFormat("%.0f%% or more under", min_gain * 100);
      reason = absl::StrFormat(
          "tile %s, %s (predicted %.1f us): %s%s the other tiles' %s pick (%.1f us; %d of its "
          "tiles fill one round); %s",
          small_name, ModeName(alt->mode), small_us, holds, margin, ModeName(plan->mode),
          pick_us, tiles, small_why.reason);
    } else {
      reason = absl::StrFormat(
          "tile %s, %s (predicted %.1f us; %d of its tiles fill one round)%s; %s", small_name,
          ModeName(alt->mode), small_us, tiles, over_dp, small_why.reason);
    }
    for (Candidate c : other.candidates) {
      if (c.name.find(" [") == std::string::npos) absl::StrAppend(&c.name, " [", other_name, "]");
      chosen.candidates.push_back(std::move(c));
    }
    chosen.reason = std::move(reason);
    if (take) *why = std::move(small_why);
  }
  return take ? alt : plan;
}

// The operand copies' place in the workspace: after [flags | partials], at or past
// kMinFlagsBytes (Plan::repack_a).
void AddRepack(bool a, bool b, Plan& p) {
  // A plan that copies already: the copies are laid out again from where they began.
  int64_t base = p.workspace_bytes;
  if (p.repack_a) base = std::min(base, p.repack_a_offset);
  if (p.repack_b) base = std::min(base, p.repack_b_offset);
  p.repack_a = a, p.repack_b = b;
  p.repack_ld = AlignUp(p.k, Plan::kRepackRowElements);
  int64_t end = AlignUp(std::max(base, Plan::kMinFlagsBytes), Plan::kWorkspaceAlignment);
  if (a) {
    p.repack_a_offset = end;
    end = AlignUp(end + RepackedBytes(p, 'a'), Plan::kWorkspaceAlignment);
  }
  if (b) {
    p.repack_b_offset = end;
    end = AlignUp(end + RepackedBytes(p, 'b'), Plan::kWorkspaceAlignment);
  }
  p.workspace_bytes = end;
}

}  // namespace

int64_t RepackedBytes(const Plan& p, char operand) {
  const int64_t rows = operand == 'a' ? p.m : p.n;
  return int64_t{p.batch} * rows * AlignUp(p.k, Plan::kRepackRowElements) * 2;
}

double LoadFloorMicros(const Plan& p, bool a_misaligned, bool b_misaligned,
                       const CostModel& cost) {
  if (cost.l2_load_bytes_per_us <= 0 || cost.misaligned_l2_load_bytes_per_us <= 0) return 0;
  const double iterations = static_cast<double>(p.tiles) * p.iters_per_tile;
  const double a_bytes = iterations * p.tile_m * p.tile_k * 2;
  const double b_bytes = iterations * p.tile_n * p.tile_k * 2;
  auto rate = [&cost](bool misaligned) {
    return misaligned ? cost.misaligned_l2_load_bytes_per_us : cost.l2_load_bytes_per_us;
  };
  return a_bytes / rate(a_misaligned) + b_bytes / rate(b_misaligned);
}

double LoadBoundMicros(double compute_us, double load_us) {
  const double hi = std::max(compute_us, load_us), lo = std::min(compute_us, load_us);
  if (hi <= 0) return 0;
  return hi * std::pow(1 + std::pow(lo / hi, kLoadOverlapExponent), 1 / kLoadOverlapExponent);
}

namespace {

// The share of a plan's tile columns past N (0 where tile_n divides N).
double PaddedColumnsShare(const Plan& p) {
  const double columns = static_cast<double>(p.tiles_n) * p.tile_n;
  return columns > 0 ? 1 - p.n / columns : 0;
}

// How MakePlan estimates a plan for rows that are misaligned (a, b): its prediction for aligned
// rows combined with the L2's time for its loads at the misaligned rate (*floor).
double MisalignedEstimate(Plan p, bool a, bool b, const CostModel& cost, double* floor) {
  *floor = LoadFloorMicros(p, a, b, cost);
  p.a = p.a.RowsAligned(), p.b = p.b.RowsAligned();
  return LoadBoundMicros(PredictMicros(p, cost), *floor);
}

}  // namespace

double RepackMicros(const Problem& problem, bool a, bool b, const CostModel& cost) {
  if (!a && !b) return 0;
  if (cost.repack_bytes_per_us <= 0) return std::numeric_limits<double>::infinity();
  const double row_bytes = 2.0 * (problem.k + AlignUp(problem.k, Plan::kRepackRowElements));
  const double rows = static_cast<double>(problem.batch) *
                      ((a ? problem.m : 0) + (b ? problem.n : 0));
  return cost.repack_us + rows * row_bytes / cost.repack_bytes_per_us;
}

namespace {

// Whether `o` asks for copies (PlanOptions::repack set to any operand).
bool CopiesForced(const PlanOptions& o) {
  return o.repack.has_value() && *o.repack != RepackOperands::kNone;
}

// Narrow M- or N-major operands, for the explanation: "the narrow N-major B".
std::string NarrowName(bool a, bool b) {
  return absl::StrCat("the narrow ",
                      a && b ? "M-major A and N-major B" : a ? "M-major A" : "N-major B");
}

// Whether the L2 serves the operand's loads at the misaligned rate: K-major rows that start at odd
// multiples of 16 bytes, or a wide M- or N-major operand's k-rows that do (WideMnMisaligned; on an
// H200 the same data-parallel plans ran 1.0-1.4x slower than on aligned rows, in step with
// LoadFloorMicros at the misaligned rate).
bool LoadsMisaligned(const Problem& problem, char operand) {
  return (operand == 'a' ? problem.a.rows_misaligned() : problem.b.rows_misaligned()) ||
         WideMnMisaligned(problem, operand);
}

// Hands `why` over to data-parallel's pick `dp`, planned as forced data-parallel (dp_why): the ways
// weighed for the rows so far (where any were) listed before it and it chosen, at its estimate
// `us` (the L2 serving its loads in `floor`); its candidates' note "requested" becomes `note`
// (auto asked nothing), and its reason follows `verdict`.
void HandOverToDataParallelsPick(PlanExplanation dp_why, const Plan& dp, double us, double floor,
                                 const std::string& note, const std::string& verdict,
                                 PlanExplanation* why) {
  std::vector<RowsOption> weighed = std::move(why->rows_options);
  for (RowsOption& r : weighed) r.chosen = false;
  *why = std::move(dp_why);
  if (!weighed.empty())
    weighed.push_back({"data-parallel's pick",
                       absl::StrCat("dp ", TileShapeName({dp.tile_m, dp.tile_n, dp.tile_k})),
                       us, floor, 0, /*chosen=*/true});
  why->rows_options = std::move(weighed);
  why->predicted_us = us;
  for (Candidate& c : why->candidates)
    if (c.note == "requested") c.note = note;
  why->reason = absl::StrCat(verdict, "; ",
                             absl::StrReplaceAll(why->reason, {{"; mode dp requested", ""}}));
}

// Where auto's split or streamed pick yields to data-parallel's pick (DataParallelOverSplitPick):
// the share of the resident slots data-parallel's tiles fill, the gain the pick needs over it, and
// why (the end of the explanation's verdict).
struct SplitYield {
  double min_share, max_share;
  double min_gain;
  const char* why;
};

// The case of DataParallelOverSplitPick that `pick` falls in, if any.
std::optional<SplitYield> SplitYieldOf(const Problem& problem, const DeviceSpec& device,
                                       const Plan& pick, double slots) {
  const CostModel& cost = KernelCost(device, pick);
  const bool misaligned = problem.a.rows_misaligned() || problem.b.rows_misaligned();
  // Stream-K over more tiles than a round in more than a few rows of them (a few rows keep their
  // own rule: kMaxFewRowsOfTiles), K-major rows at least one tile each way.
  if (pick.mode == Mode::kStreamK && !problem.a.mn_major() && !problem.b.mn_major() &&
      pick.tiles > slots && problem.m > kMaxFewRowsOfTiles * pick.tile_m &&
      problem.n >= pick.tile_n) {
    constexpr double kAny = std::numeric_limits<double>::infinity();
    if (pick.dp_tiles == 0 && cost.every_tile_streamk_gain > 0)
      return SplitYield{0.0, kAny, cost.every_tile_streamk_gain,
                        "and the model prices this tile's every-tile Stream-K plans over more "
                        "tiles than a round too low against data-parallel's"};
    if (!misaligned && cost.many_tiles_streamk_gain > 0)
      return SplitYield{0.0, kAny, cost.many_tiles_streamk_gain,
                        "and the model prices this tile's Stream-K plans over more tiles than a "
                        "round too low against data-parallel's"};
    if (!misaligned && pick.dp_tiles > 0 && pick.dp_tiles <= slots && pick.tiles < 2 * slots &&
        cost.one_round_tail_streamk_gain > 0)
      return SplitYield{0.0, kAny, cost.one_round_tail_streamk_gain,
                        "and this tile's Stream-K tails behind one data-parallel round ran no "
                        "faster than data-parallel's, whatever the model predicted"};
  }
  if (misaligned)
    return SplitYield{kMinBandShare, kMaxBandShare, kMinMisalignedSplitGain,
                      "which is where the model ranks misaligned rows least well"};
  // Aligned K-major rows at least one tile each way (decode's few tokens were not measured so).
  if (problem.a.mn_major() || problem.b.mn_major() || problem.m < pick.tile_m ||
      problem.n < pick.tile_n)
    return std::nullopt;
  if (cost.split_yield_gain > 0) {
    const bool lines = problem.a.rows_on_lines() && problem.b.rows_on_lines();
    return SplitYield{kMinBandShare, 1.0,
                      lines ? cost.split_yield_gain_on_lines : cost.split_yield_gain,
                      "and the model prices this tile's split and streamed plans over every SM "
                      "too low against its data-parallel rounds on a quarter of them or more"};
  }
  return std::nullopt;
}

// Where auto, free to pick the tile, leaves the rows as they are (PlanRows's pick neither copies
// nor runs on clusters) and its pick splits or streams the k-iterations on single-SM tiles, it
// runs data-parallel's own pick (what mode dp runs) where the model ranks the two least well,
// unless the pick is predicted clearly faster, both by the candidates' predictions
// (SplitYieldOf):
//  - misaligned K-major rows (the per-iteration misaligned terms rank the two), where
//    data-parallel's tiles fill kMinBandShare to kMaxBandShare of the resident slots:
//    kMinMisalignedSplitGain;
//  - aligned K-major rows, at least one tile each way, split or streamed on a configuration with
//    CostModel::split_yield_gain (the H200's 64 x 128) where data-parallel's tiles fill
//    kMinBandShare of them or more: that gain, or split_yield_gain_on_lines where both operands'
//    rows are on 128-byte lines (OperandLayout::rows_on_lines);
//  - the same rows streamed on a configuration with CostModel::many_tiles_streamk_gain (the
//    H200's 128 x 128) over more tiles than resident slots, in more than kMaxFewRowsOfTiles rows
//    of tiles: that gain;
//  - K-major rows, aligned or not, every tile streamed so on a configuration with
//    CostModel::every_tile_streamk_gain (the H200's 128 x 256): that gain;
//  - aligned K-major rows streamed so on it as the one-tile hybrid behind one round of
//    data-parallel tiles: CostModel::one_round_tail_streamk_gain.
// On entry `why` holds the pick's explanation (for misaligned rows, their options listed); where
// data-parallel's pick is taken it becomes that plan's, those options listed before it.
std::optional<Plan> DataParallelOverSplitPick(const Problem& problem, const DeviceSpec& device,
                                              const PlanOptions& o, const Plan& pick,
                                              PlanExplanation* why) {
  if (o.mode != Mode::kAuto || o.tile != kNoTile || pick.sk_blocks == 0 || pick.cluster_m > 1 ||
      pick.repack_a || pick.repack_b)
    return std::nullopt;
  const double slots = static_cast<double>(ResidentSlots(device, o));
  const std::optional<SplitYield> yield = SplitYieldOf(problem, device, pick, slots);
  if (!yield) return std::nullopt;
  PlanOptions dp = o;
  dp.mode = Mode::kDataParallel;
  PlanExplanation dp_why = Inner(why);
  absl::StatusOr<Plan> plan = PlanKernel(problem, device, dp, why != nullptr ? &dp_why : nullptr);
  if (!plan.ok() || plan->tiles < yield->min_share * slots ||
      plan->tiles > yield->max_share * slots)
    return std::nullopt;
  const double pick_us = PredictMicros(pick, KernelCost(device, pick));
  const double dp_us = PredictMicros(*plan, KernelCost(device, *plan));
  if (pick_us <= dp_us * (1 - yield->min_gain)) return std::nullopt;
  if (why != nullptr) {
    const std::string verdict = absl::StrFormat(
        "auto's %s pick on %s (predicted %.1f us) is not %.0f%% under it, %s",
        ModeName(pick.mode), TileShapeName({pick.tile_m, pick.tile_n, pick.tile_k}), pick_us,
        100 * yield->min_gain, yield->why);
    const std::string note = "data-parallel, weighed against a split pick";
    const std::string share =
        absl::StrFormat("its %d tiles filling %.0f%% of one round", plan->tiles,
                        100 * plan->tiles / slots);
    if (problem.a.rows_misaligned() || problem.b.rows_misaligned()) {
      const bool ma = LoadsMisaligned(problem, 'a'), mb = LoadsMisaligned(problem, 'b');
      double floor = 0;
      const double us = MisalignedEstimate(*plan, ma, mb, KernelCost(device, *plan), &floor);
      HandOverToDataParallelsPick(
          std::move(dp_why), *plan, us, floor, note,
          absl::StrFormat("data-parallel's pick on the rows as they are (predicted %.1f us, %s), "
                          "estimated %.1f us (the L2 serves their loads in %.1f us): %s",
                          dp_us, share, us, floor, verdict),
          why);
    } else {
      HandOverToDataParallelsPick(
          std::move(dp_why), *plan, dp_us, 0, note,
          absl::StrFormat("data-parallel's pick (predicted %.1f us, %s): %s", dp_us,
                          plan->tiles > slots ? absl::StrFormat("%d tiles", plan->tiles) : share,
                          verdict),
          why);
    }
  }
  return *plan;
}

// MakePlan after validation: the plan for the rows as they are, repacked or on clusters.
absl::StatusOr<Plan> PlanRows(const Problem& problem, const DeviceSpec& device,
                              const PlanOptions& o, PlanExplanation* why) {
  absl::StatusOr<Plan> plan = PlanKernel(problem, device, o, why);
  const bool a = problem.a.rows_misaligned(), b = problem.b.rows_misaligned();
  // Narrow M- or N-major operands: their plan prices their loads (CostModel::narrow_mn_iter_us);
  // a copy makes them K-major.
  const bool na = NarrowMn(problem, 'a'), nb = NarrowMn(problem, 'b');
  // ma, mb: the rows the L2 serves at the misaligned rate (LoadsMisaligned); a copy makes them
  // aligned K-major rows.
  const bool ma = LoadsMisaligned(problem, 'a'), mb = LoadsMisaligned(problem, 'b');
  // Unset, repacking is auto mode's to decide: a forced decomposition runs on the rows as they
  // are unless repacking is forced too.
  const bool forced = CopiesForced(o);
  // A grouped problem's operands are read as they are (the copies know no groups).
  const bool may_repack =
      problem.groups == 0 && (forced || (!o.repack.has_value() && o.mode == Mode::kAuto));
  // Auto, free to pick the tile, may also run misaligned rows on the cluster configuration,
  // whose B the L2 serves once per pair of SMs.
  const bool may_cluster = !forced && o.mode == Mode::kAuto && o.tile == kNoTile &&
                           device.TileOf(KernelRole::kCluster) != kNoTile && (a || b);
  if (!plan.ok() || (!ma && !mb && !na && !nb)) return plan;
  // Every option is estimated the same way: its plan for the rows it leaves misaligned
  // (predicted as if aligned) combined with the time the L2 needs for its operand loads at the
  // misaligned rate for those rows (LoadFloorMicros) by LoadBoundMicros, a little over the longer
  // of the two, plus the copies where it repacks. (The per-iteration misaligned terms, which
  // steer the decomposition, predict misaligned shapes 1.4-1.6x slower than they run on an H200.)
  // Auto takes copying every such operand, then clusters, then copying one of two, where each
  // beats the best so far by kMinRepackGain.
  Problem aligned = problem;
  aligned.a = problem.a.RowsAligned(), aligned.b = problem.b.RowsAligned();
  double floor = 0;
  const double as_is = ma || mb
                           ? MisalignedEstimate(*plan, ma, mb, KernelCost(device, *plan), &floor)
                           : PredictMicros(*plan, KernelCost(device, *plan));
  double best_us = as_is;
  // Every option weighed, for the explanation; the one returned is marked at the end.
  std::vector<RowsOption> options;
  auto note_option = [&](std::string name, const Plan& p, double us, double floor_us,
                         double copies_us) {
    if (why == nullptr) return;
    const std::string plan_name =
        absl::StrCat(ModeName(p.mode), " ", TileShapeName({p.tile_m, p.tile_n, p.tile_k}));
    options.push_back({std::move(name), plan_name, us, floor_us, copies_us, false,
                       NarrowMn(p, 'a') || NarrowMn(p, 'b')});
  };
  note_option("rows as they are", *plan, as_is, floor, 0);
  int chosen_option = 0;  // into options, where why is given
  // The options weighed go with the explanation of whichever is returned, that one marked.
  auto hand_over_options = [&] {
    options[chosen_option].chosen = true;
    why->rows_options = std::move(options);
  };
  // Where the rows stay as they are: the estimate is the prediction.
  auto as_they_are = [&](const std::string& verdict) {
    if (why != nullptr) {
      why->predicted_us = as_is;
      hand_over_options();
      if (ma || mb) {
        absl::StrAppendFormat(&why->reason,
                              "; %s rows as they are estimated %.1f us (the L2 serves their "
                              "loads in %.1f us)%s",
                              OperandsName(ma, mb), as_is, floor, verdict);
      } else {
        absl::StrAppendFormat(&why->reason, "; %s as %s estimated %.1f us%s",
                              NarrowName(na, nb), na && nb ? "they are" : "it is", as_is,
                              verdict);
      }
    }
    return plan;
  };
  if (!may_repack && !may_cluster) return as_they_are("");

  // The option taken so far beyond the rows as they are (at most one of the two).
  PlanExplanation repack_why = Inner(why);
  std::optional<Plan> repacked;
  double copy_us = 0;
  // Weighs copying A's rows (ca), B's or both's: taken where forced, or where predicted
  // kMinRepackGain under the best option so far.
  auto weigh_copies = [&](bool ca, bool cb) {
    Problem rest = problem;  // the rows left as they are; the copies' are K-major on 128-byte lines
    if (ca) rest.a = OperandLayout::Copied();
    if (cb) rest.b = OperandLayout::Copied();
    PlanExplanation w = Inner(why);
    absl::StatusOr<Plan> r = PlanKernel(rest, device, o, why != nullptr ? &w : nullptr);
    if (!r.ok()) return;
    const CostModel& cost = KernelCost(device, *r);
    const double copies_us = RepackMicros(problem, ca, cb, device.main().cost);
    double rest_floor = 0;  // the L2's time for the rows left misaligned (0: none)
    const bool ra = ma && !ca, rb = mb && !cb;
    const double kernel_us = ra || rb ? MisalignedEstimate(*r, ra, rb, cost, &rest_floor)
                                      : PredictMicros(*r, cost);
    note_option(absl::StrCat(OperandsName(ca, cb), " repacked"), *r, kernel_us + copies_us,
                rest_floor, copies_us);
    if (!forced && kernel_us + copies_us >= best_us * (1 - kMinRepackGain)) return;
    best_us = kernel_us + copies_us;
    copy_us = copies_us;
    chosen_option = static_cast<int>(options.size()) - 1;
    AddRepack(ca, cb, *r);
    repacked = *r;
    w.predicted_us = kernel_us;
    repack_why = std::move(w);
  };
  // The operands a copy would help: misaligned rows, narrow M- or N-major ones.
  const bool sa = ma || na, sb = mb || nb;
  if (forced) {
    const RepackOperands asked = *o.repack;
    const bool ca = sa && asked != RepackOperands::kB, cb = sb && asked != RepackOperands::kA;
    if (ca || cb) weigh_copies(ca, cb);
  } else if (may_repack) {
    weigh_copies(sa, sb);
  }

  PlanExplanation cluster_why = Inner(why);
  std::optional<Plan> clustered;
  double cluster_floor = 0;
  if (may_cluster) {
    PlanOptions oc = o;
    oc.tile = device.TileOf(KernelRole::kCluster);
    absl::StatusOr<Plan> c =
        PlanKernel(aligned, device, oc, why != nullptr ? &cluster_why : nullptr);
    if (c.ok()) {
      c->a = problem.a, c->b = problem.b;  // as loaded: the clusters leave the rows as they are
      const double cluster_us =
          MisalignedEstimate(*c, ma, mb, RoleCost(device, KernelRole::kCluster), &cluster_floor);
      note_option(absl::StrCat(c->cluster_m, "-SM clusters"), *c, cluster_us, cluster_floor, 0);
      if (cluster_us < best_us * (1 - kMinRepackGain)) {
        best_us = cluster_us;
        chosen_option = static_cast<int>(options.size()) - 1;
        clustered = *c;
        repacked.reset();
      }
    }
  }
  // Where clusters are not taken and both operands' rows are misaligned, copying one of them:
  // the operand whose rows every tile row or column re-reads, small beside the other, saves
  // most of the loads' time for little of the copies'.
  if (!forced && may_repack && !clustered && sa && sb) {
    weigh_copies(true, false);
    weigh_copies(false, true);
  }

  if (clustered) {
    if (why != nullptr) {
      *why = std::move(cluster_why);
      hand_over_options();
      why->predicted_us = best_us;
      why->reason = absl::StrFormat(
          "%s; on 2-SM clusters that read B once (tile %s): estimated %.1f us against %.1f as "
          "the rows are (the L2 serves those loads in %.1f us, %.1f with clusters)",
          why->reason, TileShapeName(device.TileOf(KernelRole::kCluster)), best_us, as_is, floor,
          cluster_floor);
    }
    return *clustered;
  }
  if (repacked) {
    if (why != nullptr) {
      *why = std::move(repack_why);
      hand_over_options();
      why->repack_us = copy_us;
      why->predicted_us += copy_us;
      why->reason = absl::StrFormat(
          "%s; %s repacked to 128-byte rows first (%.1f us of copies): estimated %.1f us "
          "against %.1f as %s",
          why->reason, OperandsName(repacked->repack_a, repacked->repack_b), copy_us, best_us,
          as_is,
          ma || mb ? absl::StrFormat("the rows are (the L2 serves those loads in %.1f us)", floor)
                 : absl::StrCat(NarrowName(na, nb), na && nb ? " are" : " is"));
    }
    return *repacked;
  }
  return as_they_are(options.size() > 1
                         ? absl::StrFormat(": no other way weighed is estimated %.0f%% faster",
                                           100 * kMinRepackGain)
                         : std::string());
}

// Misaligned rows that auto would run on clusters: data-parallel's own pick (every tile, the sixth
// included, on the rows as they are) where estimated kMinDpOverClustersGain under the clusters,
// both by the estimate PlanRows gives every way of running misaligned rows (MisalignedEstimate),
// the clusters' with the columns their tiles pad priced (CostModel::padded_columns_load: against
// the single-SM tiles of data-parallel's pick; PlanRows weighs clusters against 128 x 256 tiles,
// and there the clusters' estimate already reads 12% over their time where they pad few columns
// on an H200). On entry `why` holds the clusters' explanation; where data-parallel's pick is taken
// it becomes that plan's, the ways weighed for the clusters listed before it; where not, that
// pick is listed among them too.
std::optional<Plan> DataParallelOverClusters(const Problem& problem, const DeviceSpec& device,
                                             const PlanOptions& o, const Plan& clusters,
                                             PlanExplanation* why) {
  const bool ma = LoadsMisaligned(problem, 'a'), mb = LoadsMisaligned(problem, 'b');
  double cluster_floor = 0, floor = 0;
  // The clusters' estimate, with the columns their tiles pad priced (padded_columns_load) but for
  // split-K's.
  const CostModel& cluster_cost = KernelCost(device, clusters);
  const double padded = PaddedColumnsShare(clusters);
  const double padded_scale =
      clusters.mode == Mode::kSplitK ? 1 : 1 + cluster_cost.padded_columns_load * padded;
  const double cluster_us =
      MisalignedEstimate(clusters, ma, mb, cluster_cost, &cluster_floor) * padded_scale;
  PlanOptions dp = o;
  dp.mode = Mode::kDataParallel;
  PlanExplanation dp_why = Inner(why);
  absl::StatusOr<Plan> plan = PlanRows(problem, device, dp, why != nullptr ? &dp_why : nullptr);
  if (!plan.ok()) return std::nullopt;
  const double us = MisalignedEstimate(*plan, ma, mb, KernelCost(device, *plan), &floor);
  const std::string dp_name =
      absl::StrCat("dp ", TileShapeName({plan->tile_m, plan->tile_n, plan->tile_k}));
  // The clusters' estimate as weighed here, for the explanation: "57.4 us, their tiles' columns
  // 47% past N priced 1.47x; their loads 28.4".
  const std::string cluster_text = absl::StrCat(
      absl::StrFormat("%.1f us", cluster_us),
      padded_scale > 1 ? absl::StrFormat(", their tiles' columns %.0f%% past N priced %.2fx",
                                         100 * padded, padded_scale)
                       : "",
      absl::StrFormat("; their loads %.1f", cluster_floor));
  if (us >= cluster_us * (1 - kMinDpOverClustersGain)) {
    if (why != nullptr) {
      why->rows_options.push_back({"data-parallel's pick", dp_name, us, floor, 0, false});
      absl::StrAppendFormat(&why->reason,
                            "; data-parallel's pick (%s) estimated %.1f us, not %.0f%% under "
                            "the clusters (%s)",
                            dp_name, us, 100 * kMinDpOverClustersGain, cluster_text);
    }
    return std::nullopt;
  }
  if (why != nullptr) {
    HandOverToDataParallelsPick(
        std::move(dp_why), *plan, us, floor, "data-parallel, weighed against clusters",
        absl::StrFormat("data-parallel's pick on the rows as they are, estimated %.1f us (the L2 "
                        "serves their loads in %.1f us): %.0f%% or more under 2-SM clusters (%s)",
                        us, floor, 100 * kMinDpOverClustersGain, cluster_text),
        why);
  }
  return *plan;
}

}  // namespace

absl::StatusOr<Plan> PlanOneSchedule(const Problem& problem, const DeviceSpec& device,
                                     const PlanOptions& o, PlanExplanation* why);

// A dynamic plan's worst time over the held shares (kHeldShares), each against the ideal
// avail_sms / (avail_sms - held) times `free_us`.
double WorstOverIdeal(const Plan& p, const DeviceSpec& device, double free_us) {
  const CostModel& cost = KernelCost(device, p);
  double worst = 0;
  for (double share : kHeldShares) {
    const int held = static_cast<int>(std::lround(share * p.avail_sms));
    const int running = std::max(1, p.avail_sms - held);
    const double ideal = static_cast<double>(p.avail_sms) / running;
    worst = std::max(worst, PredictRunningMicros(p, cost, running) / (ideal * free_us));
  }
  return worst;
}

// Auto's dynamic plan: the planner's pick for the free GPU, the data-parallel plan of every
// configuration (smaller tiles leave less work to a round that some SMs miss), and the Stream-K
// plans of the pick's tile and of the second configuration's with one to four blocks per SM
// (finer ranges that blocks which start late can share), each priced as it runs on the SMs left
// when a share of them is held (PredictRunningMicros). The least worst against the ideal wins
// where it beats the free pick's worst by kMinPredictedGain.
absl::StatusOr<Plan> PlanDynamic(const Problem& problem, const DeviceSpec& device,
                                 const PlanOptions& o, PlanExplanation* why) {
  absl::StatusOr<Plan> free = PlanOneSchedule(problem, device, o, why);
  if (!free.ok() || o.mode != Mode::kAuto || o.tile != kNoTile) return free;
  std::vector<Plan> options = {*free};
  std::vector<std::string> names = {"auto's pick for the free GPU"};
  std::vector<TileShape> tiles = {TileShape{free->tile_m, free->tile_n, free->tile_k}};
  if (const TileShape alt = device.TileOf(KernelRole::kAlt); alt != kNoTile && alt != tiles[0])
    tiles.push_back(alt);
  const int sms = free->avail_sms;
  for (const KernelConfig& c : device.kernels) {
    const TileShape tile = c.tile;
    if (tile == kNoTile || c.cluster_m > 1) continue;
    PlanOptions f = o;
    f.tile = tile;
    f.mode = Mode::kDataParallel;
    if (absl::StatusOr<Plan> dp = PlanOneSchedule(problem, device, f, nullptr); dp.ok())
      options.push_back(*dp), names.push_back(absl::StrCat("dp ", TileShapeName(tile)));
  }
  for (const TileShape& tile : tiles) {
    PlanOptions f = o;
    f.tile = tile;
    f.reduction.reset();
    f.mode = Mode::kStreamK;
    for (int per_sm = 1; per_sm <= 4; ++per_sm) {
      for (int sk_tiles : {0, kPartialWaveTiles}) {
        f.blocks = per_sm * sms;
        f.sk_tiles = sk_tiles;
        absl::StatusOr<Plan> sk = PlanOneSchedule(problem, device, f, nullptr);
        if (!sk.ok() || sk->sk_blocks == 0) continue;
        options.push_back(*sk);
        names.push_back(absl::StrCat(sk_tiles == 0 ? "streamk " : "streamk-tail ", sk->sk_blocks,
                                     " blocks ", TileShapeName(tile)));
      }
    }
  }
  // Against the free pick's time, and by the margin auto needs to leave data-parallel (the
  // model's error): another plan must be predicted that much better in its worst case.
  const double free_us = PredictMicros(*free, KernelCost(device, *free));
  const double free_worst = WorstOverIdeal(*free, device, free_us);
  size_t pick = 0;
  double pick_worst = free_worst;
  for (size_t i = 1; i < options.size(); ++i) {
    const double w = WorstOverIdeal(options[i], device, free_us);
    if (w * (1 + kMinPredictedGain) < free_worst && w < pick_worst) pick = i, pick_worst = w;
  }
  if (why != nullptr) {
    absl::StrAppendFormat(
        &why->reason,
        "; dynamic schedule: %s, whose worst predicted time with 0, 1/8, 1/4 or 1/2 of the SMs "
        "held is %.2fx the ideal times the free pick's time (the free pick: %.2fx; %d plans "
        "weighed, another taken where %.0f%% better)",
        names[pick], pick_worst, free_worst, static_cast<int>(options.size()),
        100 * kMinPredictedGain);
    const Plan& chosen = options[pick];
    if (pick != 0) {
      const bool copies = chosen.repack_a || chosen.repack_b;
      why->predicted_us = PredictMicros(chosen, KernelCost(device, chosen)) +
                          (copies ? why->repack_us : 0);
      if (!copies) why->repack_us = 0;
    }
  }
  return options[pick];
}

// MakePlan without the workspace cap (PlanOptions::max_workspace_bytes).
absl::StatusOr<Plan> PlanAnyWorkspace(const Problem& problem, const DeviceSpec& device,
                                      const PlanOptions& o, PlanExplanation* why) {
  if (absl::Status s = Validate(problem, device, o); !s.ok()) return s;
  // A dynamic schedule weighs every configuration but the cluster one (its two blocks would have
  // to take their work together).
  if (o.schedule == Schedule::kDynamic && device.TileOf(KernelRole::kCluster) != kNoTile) {
    DeviceSpec no_clusters = device;
    no_clusters.Remove(KernelRole::kCluster);
    return PlanAnyWorkspace(problem, no_clusters, o, why);
  }
  if (o.schedule == Schedule::kDynamic) return PlanDynamic(problem, device, o, why);
  absl::StatusOr<Plan> plan = PlanOneSchedule(problem, device, o, why);
  // Unset, the schedule is dynamic where a block may take work another would otherwise wait
  // for, and the blocks can take their work from a counter (no clusters: a cluster's two blocks
  // take theirs together):
  // - where the plan's blocks wait on one another (Stream-K and split-K partial sums). Static,
  //   such a launch needs every block resident at once (cooperative), so beside a kernel that
  //   holds some SMs it waits for that kernel to end; claimed in order, a block only waits for
  //   work blocks that running blocks have taken (kernels/persistent_kernel.cuh). The counter is
  //   one more word in the flags region, so no workspace grows;
  // - where the blocks run more than one work block each (data-parallel rounds). Static, a block
  //   whose SM another kernel holds starts when a block of this GEMM has run its whole share, and
  //   then runs its own: twice the time. Claimed, the blocks that run take its share. The counter
  //   takes a flags region (Plan::kMinFlagsBytes) where the static plan takes no workspace, and
  //   the dynamic plan runs without ping-pong (kernels::PingPongOf), so it is taken where
  //   predicted no slower on the free GPU (and not where PlanOptions::pingpong asks for it).
  // Data-parallel plans of one round keep their static schedule: each block has one tile, and a
  // block on a held SM starts on the first SM free either way.
  if (plan.ok() && !o.schedule.has_value() && plan->cluster_m == 1 &&
      (plan->sk_blocks > 0 || plan->work_blocks > plan->grid_blocks)) {
    Plan dynamic = *plan;
    dynamic.schedule = Schedule::kDynamic;
    Derive({plan->mode, plan->sk_tiles, plan->sk_blocks, plan->reduction, plan->reduction_slices},
           dynamic);
    if (plan->repack_a || plan->repack_b) AddRepack(plan->repack_a, plan->repack_b, dynamic);
    // The two are priced alike but for ping-pong (PricedPingPong), which only static plans run.
    const bool waits = plan->sk_blocks > 0;
    const CostModel& cost = KernelCost(device, *plan);
    const bool pingpong_faster =
        !waits &&
        (o.pingpong == true || (PricedPingPong(*plan, cost) &&
                                PredictMicros(*plan, cost) < PredictMicros(dynamic, cost)));
    if (!pingpong_faster) {
      *plan = dynamic;
      if (Wants(why))
        absl::StrAppend(&why->reason,
                        waits ? "; schedule dynamic: its blocks wait on one another's partial "
                                "sums, so they take their work from a counter and never wait for "
                                "a block that has not started"
                              : "; schedule dynamic: its blocks run more than one tile each, so "
                                "they take them from a counter, and a block that starts late "
                                "(its SM held by another kernel) leaves its tiles to the others");
    }
  }
  return plan;
}

// PlanAnyWorkspace for one schedule (a dynamic one's candidates as they run on every SM).
absl::StatusOr<Plan> PlanOneSchedule(const Problem& problem, const DeviceSpec& device,
                                     const PlanOptions& o, PlanExplanation* why) {
  // Operands the kernel cannot load as they are: the plan is the one for their copies (K-major
  // rows, 128-byte aligned), whatever else it decides, with the copies added.
  const bool ua = problem.a.unaligned(), ub = problem.b.unaligned();
  if (ua || ub) {
    Problem copied = problem;
    if (ua) copied.a = OperandLayout::Copied();
    if (ub) copied.b = OperandLayout::Copied();
    absl::StatusOr<Plan> p = PlanOneSchedule(copied, device, o, why);
    if (!p.ok()) return p;
    AddRepack(p->repack_a || ua, p->repack_b || ub, *p);
    p->a_unaligned = ua, p->b_unaligned = ub;
    if (why != nullptr) {
      const double copy_us = RepackMicros(problem, ua, ub, device.main().cost);
      why->repack_us += copy_us;
      why->predicted_us += copy_us;
      absl::StrAppendFormat(&why->reason,
                            "; %s cannot be loaded as %s (address, leading dimension or batch "
                            "stride not a multiple of 16 bytes): copied to 128-byte rows first "
                            "(%.1f us)",
                            OperandsName(ua, ub), ua && ub ? "they are" : "it is",
                            copy_us);
    }
    return p;
  }
  // Misaligned rows: clusters are weighed against the plan of the two other tiles first, as they
  // were measured, and the third, fourth and sixth tiles only where they are not taken, or where
  // data-parallel's pick over every tile is estimated kMinDpOverClustersGain under them
  // (DataParallelOverClusters). The third tile's estimate there rests on the L2's misaligned rate
  // measured with 128x256 loads, and on a 3% margin took 960 x 5584 x 1816 off clusters onto
  // 128x192 tiles, which ran it 10% slower on an H200; the sixth tile runs it 1.10x as fast as
  // clusters.
  if ((problem.a.rows_misaligned() || problem.b.rows_misaligned()) && o.mode == Mode::kAuto &&
      o.tile == kNoTile && !CopiesForced(o) && device.TileOf(KernelRole::kCluster) != kNoTile &&
      (device.TileOf(KernelRole::kMid) != kNoTile || device.TileOf(KernelRole::kWide) != kNoTile ||
       device.TileOf(KernelRole::kBroad) != kNoTile)) {
    DeviceSpec two = device;
    for (KernelRole role :
         {KernelRole::kMid, KernelRole::kWide, KernelRole::kSmall, KernelRole::kBroad})
      two.Remove(role);
    PlanExplanation two_why = Inner(why);
    absl::StatusOr<Plan> p = PlanRows(problem, two, o, why != nullptr ? &two_why : nullptr);
    if (p.ok() && p->cluster_m > 1) {
      std::optional<Plan> dp =
          DataParallelOverClusters(problem, device, o, *p, why != nullptr ? &two_why : nullptr);
      if (why != nullptr) *why = std::move(two_why);
      if (dp) return *dp;
      return p;
    }
  }
  // Where the rows stay as they are, a split or streamed pick may give way to data-parallel's
  // (DataParallelOverSplitPick), the copies and clusters weighed against it first.
  absl::StatusOr<Plan> plan = PlanRows(problem, device, o, why);
  if (!plan.ok()) return plan;
  if (std::optional<Plan> dp = DataParallelOverSplitPick(problem, device, o, *plan, why))
    return *dp;
  return plan;
}

absl::StatusOr<Plan> PlanWithinCap(const Problem& problem, const DeviceSpec& device,
                                   const PlanOptions& o, PlanExplanation* why);

// The kernel's choices for the plan MakePlan picked (Plan's "kernel" fields): ping-pong and D's
// store path as the options say, else as the rules the cost model priced (PricedPingPong,
// kernels::StoreDOf).
absl::Status DecideKernel(const Problem& problem, const DeviceSpec& device, const PlanOptions& o,
                          Plan& p) {
  const bool tma = device.mainloop == Mainloop::kSm90Tma;
  const int out_bytes = DTypeBytes(problem.output);
  p.store_d = tma ? kernels::StoreDOf(p, out_bytes, problem.reads_c, problem.cd_rows_aligned,
                                      problem.d_tma_store)
                  : StoreD::kThreads;
  if (o.store_d) {
    if (!(tma ? kernels::CanStoreD(*o.store_d, p, out_bytes, problem.reads_c,
                                   problem.d_tma_store)
              : *o.store_d == StoreD::kThreads))
      return absl::InvalidArgumentError(absl::StrCat(
          "store_d = ", StoreDName(*o.store_d), ": the plan (", p.tile_m, "x", p.tile_n,
          " tiles on the ", MainloopName(device.mainloop), " mainloop, ", DTypeName(problem.output),
          " D", problem.reads_c ? " with C" : "",
          problem.d_tma_store ? "" : " whose rows the TMA unit cannot store as a tensor",
          ") cannot store D that way: tma needs D's (and C's) rows 16-byte aligned, rows and "
          "rows-warp need no C and tiles at most 256 wide, rows-warp a 16-bit D, and the other "
          "mainloops store with their threads"));
    p.store_d = *o.store_d;
  }
  const bool d_store = p.store_d == StoreD::kTma;
  p.pingpong = tma && (o.pingpong == true ? kernels::PingPongOf(p, d_store, 1)
                                          : PricedPingPong(p, KernelCost(device, p)));
  return absl::OkStatus();
}

absl::StatusOr<Plan> MakePlan(const Problem& problem, const DeviceSpec& device,
                              const PlanOptions& o, PlanExplanation* why) {
  // Ping-pong turned off is priced nowhere, and so never picked (DecideKernel: PricedPingPong).
  if (o.pingpong == false) {
    DeviceSpec off = device;
    for (KernelConfig& c : off.kernels) c.cost.pingpong_hidden_us = 0;
    PlanOptions rest = o;
    rest.pingpong.reset();
    return MakePlan(problem, off, rest, why);
  }
  absl::StatusOr<Plan> plan = PlanWithinCap(problem, device, o, why);
  if (!plan.ok()) return plan;
  if (absl::Status s = DecideKernel(problem, device, o, *plan); !s.ok()) return s;
  mapping::SetDivisors(*plan);
  return plan;
}

// MakePlan's pick, under PlanOptions::max_workspace_bytes.
absl::StatusOr<Plan> PlanWithinCap(const Problem& problem, const DeviceSpec& device,
                                   const PlanOptions& o, PlanExplanation* why) {
  absl::StatusOr<Plan> plan = PlanAnyWorkspace(problem, device, o, why);
  const int64_t cap = o.max_workspace_bytes;
  if (!plan.ok() || cap == 0 || plan->workspace_bytes <= cap) return plan;
  // The default schedule's counter is all a data-parallel plan's workspace but its copies: over
  // the cap, the plan runs static instead (PlanAnyWorkspace).
  auto static_within_cap = [&](absl::StatusOr<Plan>& p, const PlanOptions& options,
                               PlanExplanation* w) {
    if (!p.ok() || p->workspace_bytes <= cap || !StaticWouldDo(*p, options.schedule)) return;
    PlanOptions fixed = options;
    fixed.schedule = Schedule::kStatic;
    PlanExplanation again = Inner(w);
    absl::StatusOr<Plan> s =
        PlanAnyWorkspace(problem, device, fixed, w != nullptr ? &again : nullptr);
    if (!s.ok() || s->workspace_bytes > cap) return;
    p = std::move(s);
    if (w != nullptr) {
      *w = std::move(again);
      w->reason = absl::StrCat(
          "the dynamic schedule's counter needs a workspace over max_workspace_bytes = ", cap,
          ": static; ", w->reason);
    }
  };
  static_within_cap(plan, o, why);
  if (plan->workspace_bytes <= cap) return plan;
  auto refuse = [cap](const Plan& p, absl::string_view what) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "max_workspace_bytes = ", cap, ": ", what, " needs ", p.workspace_bytes,
        " bytes of workspace (flags, partial sums, operand copies and a grouped GEMM's group "
        "table)"));
  };
  if (o.mode != Mode::kAuto || o.repack.has_value()) return refuse(*plan, "the forced plan");
  // The cap takes every plan that needs more out of the candidates; of those left, data-parallel
  // needs none but the copies of operands the kernel cannot load as they are. The reduction the
  // caller asked for applies to the partial sums data-parallel tiles do not have.
  PlanOptions dp = o;
  dp.mode = Mode::kDataParallel;
  dp.reduction.reset();
  dp.reduction_slices = 0;
  dp.repack = RepackOperands::kNone;
  dp.max_workspace_bytes = 0;
  PlanExplanation dp_why = Inner(why);
  absl::StatusOr<Plan> fallback =
      PlanAnyWorkspace(problem, device, dp, why != nullptr ? &dp_why : nullptr);
  static_within_cap(fallback, dp, why != nullptr ? &dp_why : nullptr);
  if (!fallback.ok()) return fallback;
  if (fallback->workspace_bytes > cap) return refuse(*fallback, "data-parallel's plan");
  if (why != nullptr) {
    const std::string over = absl::StrFormat(
        "auto's pick (%s, predicted %.1f us) needs %d bytes of workspace, over "
        "max_workspace_bytes = %d: data-parallel's pick instead",
        ModeName(plan->mode), why->predicted_us, plan->workspace_bytes, cap);
    *why = std::move(dp_why);
    why->reason = absl::StrCat(over, "; ", why->reason);
  }
  return fallback;
}

const CostModel& KernelCost(const DeviceSpec& device, const Plan& plan) {
  return CostOfTile(device, TileShape{plan.tile_m, plan.tile_n, plan.tile_k});
}

}  // namespace streamk
