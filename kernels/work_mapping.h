// Block-to-work mapping: from a work block index and a Plan to the work that block does. This one
// header is compiled into the persistent kernel, the planner's tests and the CPU emulator, so all
// three agree by construction. Pure arithmetic on the Plan; no blockIdx, no memory.
//
// Stream-K blocks own contiguous ranges of the global Stream-K iteration space
// [0, sk_tiles * iters_per_tile), tile-major (iteration g is k-iteration g % iters_per_tile of
// Stream-K tile g / iters_per_tile). The space is cut into sk_regions equal regions of
// sk_blocks_per_region blocks each; within a region the first sk_big_blocks_per_region blocks do
// sk_iters_per_normal_block + 1 iterations and the rest sk_iters_per_normal_block. Because ranges
// increase with the block index, the peers of a tile are consecutive blocks, earlier k-slices
// belong to lower-numbered blocks, and the block that runs a tile's final k-iteration (the
// finishing block) has the highest number of its peers.
#pragma once

#include "streamk/plan.h"

#if defined(__CUDACC__)
#define STREAMK_HD __host__ __device__ __forceinline__
#else
#define STREAMK_HD inline
#endif

namespace streamk::mapping {

// ---- division by plan constants ---------------------------------------------------------------

// x / f.d for 0 <= x < 2^31: with l = ceil(log2 d) and mul = floor(2^32 (2^l - d) / d) + 1, the
// quotient is floor(x (2^32 + mul) / 2^(32 + l)) (Granlund and Montgomery, "Division by invariant
// integers using multiplication", 1994, Theorem 4.2: exact for every 32-bit x), computed as
// (mulhi(x, mul) + x) >> l, which stays below 2^32 since mulhi(x, mul) <= x < 2^31.
STREAMK_HD int Divide(const FastDivisor& f, int x) {
  const uint32_t ux = static_cast<uint32_t>(x);
#if defined(__CUDA_ARCH__)
  const uint32_t hi = __umulhi(ux, f.mul);
#else
  const uint32_t hi = static_cast<uint32_t>((uint64_t{ux} * f.mul) >> 32);
#endif
  return static_cast<int>((hi + ux) >> f.shift);
}

// The multiplier and shift for d (host only; d < 1 stands for a field the plan does not use).
inline FastDivisor MakeDivisor(int d) {
  FastDivisor f;
  f.d = d < 1 ? 1 : d;
  while ((int64_t{1} << f.shift) < f.d) ++f.shift;
  const uint64_t two_l = uint64_t{1} << f.shift;
  f.mul = static_cast<uint32_t>((uint64_t{1} << 32) * (two_l - f.d) / f.d + 1);
  return f;
}

// Plan::div from the fields it names (host only): call after any of them changes.
inline void SetDivisors(Plan& p) {
  const bool along_n = p.raster == Raster::kAlongN;
  const int major = along_n ? p.tiles_m : p.tiles_n;  // TileCoordOf's names
  const int minor = along_n ? p.tiles_n : p.tiles_m;
  const int swizzle = p.swizzle < 1 ? 1 : p.swizzle;
  PlanDivisors& d = p.div;
  d.iters_per_tile = MakeDivisor(p.iters_per_tile);
  d.tiles_per_batch = MakeDivisor(p.tiles_m * p.tiles_n);
  d.band_tiles = MakeDivisor(swizzle * minor);
  d.swizzle = MakeDivisor(swizzle);
  d.last_band = MakeDivisor(major % swizzle == 0 ? swizzle : major % swizzle);
  d.sk_blocks_per_region = MakeDivisor(p.sk_blocks_per_region);
  d.sk_iters_per_region = MakeDivisor(p.sk_iters_per_region);
  d.sk_normal = MakeDivisor(p.sk_iters_per_normal_block);
  d.sk_big = MakeDivisor(p.sk_iters_per_normal_block + 1);
  d.reduction_slices = MakeDivisor(p.reduction_slices);
}

enum class Role : int { kStreamK, kDataParallel, kReduction, kNone };

struct BlockRole {
  Role role;
  int index;  // index within the role: Stream-K block, DP block or reduction block number
};

// Work order: DP blocks [0, dp_blocks_before_sk), SK blocks, the other DP blocks, reduction blocks.
STREAMK_HD BlockRole RoleOf(const Plan& p, int work_block) {
  const int early_dp = p.dp_blocks_before_sk;
  if (work_block < early_dp) return {Role::kDataParallel, work_block};
  if (work_block < early_dp + p.sk_blocks) return {Role::kStreamK, work_block - early_dp};
  work_block -= p.sk_blocks;
  if (work_block < p.dp_blocks) return {Role::kDataParallel, work_block};
  work_block -= p.dp_blocks;
  if (work_block < p.reduction_blocks) return {Role::kReduction, work_block};
  return {Role::kNone, 0};
}

// ---- Stream-K ranges -------------------------------------------------------------------------

struct IterRange {
  int begin, end;  // global Stream-K iterations [begin, end)
};

// First global iteration of block `local` (0..sk_blocks_per_region) within its region.
STREAMK_HD int RegionBlockBegin(const Plan& p, int local) {
  const int big = p.sk_big_blocks_per_region;
  const int normal = p.sk_iters_per_normal_block;
  return local <= big ? local * (normal + 1) : big * (normal + 1) + (local - big) * normal;
}

STREAMK_HD IterRange SkBlockRange(const Plan& p, int sk_block) {
  const int region = Divide(p.div.sk_blocks_per_region, sk_block);
  const int local = sk_block - region * p.sk_blocks_per_region;
  const int base = region * p.sk_iters_per_region;
  return {base + RegionBlockBegin(p, local), base + RegionBlockBegin(p, local + 1)};
}

// The Stream-K block whose range holds global iteration `iter`.
STREAMK_HD int SkBlockOfIter(const Plan& p, int iter) {
  const int region = Divide(p.div.sk_iters_per_region, iter);
  const int local_iter = iter - region * p.sk_iters_per_region;
  const int big_span = p.sk_big_blocks_per_region * (p.sk_iters_per_normal_block + 1);
  const int local =
      local_iter < big_span
          ? Divide(p.div.sk_big, local_iter)
          : p.sk_big_blocks_per_region + Divide(p.div.sk_normal, local_iter - big_span);
  return region * p.sk_blocks_per_region + local;
}

// The peers of a Stream-K tile: blocks first..last (consecutive), in k order.
struct Peers {
  int first, last;
  STREAMK_HD int count() const { return last - first + 1; }
};

STREAMK_HD Peers TilePeers(const Plan& p, int sk_tile) {
  const int begin = sk_tile * p.iters_per_tile;
  return {SkBlockOfIter(p, begin), SkBlockOfIter(p, begin + p.iters_per_tile - 1)};
}

// One tile's share of a Stream-K block: k-iterations [k_begin, k_end) of `tile`.
struct SkUnit {
  int tile;            // Stream-K tile index (== linear tile index)
  int k_begin, k_end;  // tile-local k-iterations
  int block;           // the Stream-K block doing it
  Peers peers;
  STREAMK_HD bool valid() const { return k_end > k_begin; }
  STREAMK_HD int turn() const { return block - peers.first; }  // 0 for the first k-slice
  STREAMK_HD bool is_first_slice() const { return k_begin == 0; }
  // Ran the tile's final k-iteration: this block finishes the tile.
  STREAMK_HD bool is_final_slice(const Plan& p) const { return k_end == p.iters_per_tile; }
  STREAMK_HD bool is_whole_tile(const Plan& p) const {
    return is_first_slice() && is_final_slice(p);
  }
};

// The unit covering the last iteration below `iter_end` of block `sk_block`'s range. Blocks walk
// their tiles backwards (last tile first): a block's last tile is one it starts, so its partials
// are published before it turns to the tile it finishes, and waiting happens as late as possible.
STREAMK_HD SkUnit SkUnitEndingAt(const Plan& p, int sk_block, int range_begin, int iter_end) {
  SkUnit u;
  u.block = sk_block;
  if (iter_end <= range_begin) {
    u.tile = -1;
    u.k_begin = u.k_end = 0;
    u.peers = {0, -1};
    return u;
  }
  u.tile = Divide(p.div.iters_per_tile, iter_end - 1);
  const int tile_begin = u.tile * p.iters_per_tile;
  u.k_begin = (range_begin > tile_begin ? range_begin : tile_begin) - tile_begin;
  u.k_end = iter_end - tile_begin;
  u.peers = TilePeers(p, u.tile);
  return u;
}

STREAMK_HD SkUnit SkFirstUnit(const Plan& p, int sk_block) {
  const IterRange r = SkBlockRange(p, sk_block);
  return SkUnitEndingAt(p, sk_block, r.begin, r.end);
}

STREAMK_HD SkUnit SkNextUnit(const Plan& p, const SkUnit& u) {
  const IterRange r = SkBlockRange(p, u.block);
  return SkUnitEndingAt(p, u.block, r.begin, u.tile * p.iters_per_tile + u.k_begin);
}

// ---- reduction blocks (kSeparate) -----------------------------------------------------------

// Reduction block r sums columns [col_begin, col_end) of Stream-K tile `tile` over the tile's peers
// and finishes them; the reduction_slices blocks of a tile are consecutive.
struct ReductionWork {
  int tile, slice;
  int col_begin, col_end;  // tile-local columns
};

STREAMK_HD ReductionWork ReductionWorkOf(const Plan& p, int reduction_block) {
  const int slices = p.div.reduction_slices.d;  // reduction_slices, at least 1
  ReductionWork w;
  w.tile = Divide(p.div.reduction_slices, reduction_block);
  w.slice = reduction_block - w.tile * slices;
  const int width = Divide(p.div.reduction_slices, p.tile_n);
  w.col_begin = w.slice * width;
  w.col_end = w.col_begin + width;
  return w;
}

// ---- data-parallel tiles ---------------------------------------------------------------------

// DP block d computes `count` whole tiles: first_tile, first_tile + stride, ...
struct DpTiles {
  int first_tile, count, stride;
};

STREAMK_HD DpTiles DpBlockTiles(const Plan& p, int dp_block) {
  if (dp_block < p.avail_sms && p.dp_first_wave_tiles > 1) {
    return {p.sk_tiles + dp_block, p.dp_first_wave_tiles, p.avail_sms};
  }
  return {p.sk_tiles + dp_block + (p.dp_first_wave_tiles - 1) * p.avail_sms, 1, 0};
}

// ---- tile coordinates ------------------------------------------------------------------------

struct TileCoord {
  int batch, tm, tn;  // batch entry and tile row / column (in tiles)
  // The tile's first row of D within its batch entry, and the end of the rows it may store
  // (tm * tile_m and m; a grouped GEMM's from its GroupRow).
  int row0, row_end;
};

// Linear tile index -> coordinates, banded ("swizzled") so that blocks running at the same time
// share rows of A and columns of B in L2.
STREAMK_HD TileCoord TileCoordOf(const Plan& p, int tile) {
  TileCoord c;
  c.batch = Divide(p.div.tiles_per_batch, tile);
  const int t = tile - c.batch * p.div.tiles_per_batch.d;
  const bool along_n = p.raster == Raster::kAlongN;
  const int major = along_n ? p.tiles_m : p.tiles_n;  // dimension cut into bands
  // (the dimension walked within a band is the other one: band_tiles = swizzle * its tiles)
  const int band = Divide(p.div.band_tiles, t);
  const int within = t - band * p.div.band_tiles.d;
  const int band_start = band * p.swizzle;
  // Every band is swizzle tiles wide but the last, which is what is left of `major`.
  const bool last = (major - band_start) < p.swizzle;
  const int b = last ? Divide(p.div.last_band, within) : Divide(p.div.swizzle, within);
  const int a = band_start + (within - b * (last ? p.div.last_band.d : p.swizzle));
  c.tm = along_n ? a : b;
  c.tn = along_n ? b : a;
  c.row0 = c.tm * p.tile_m;
  c.row_end = p.m;
  return c;
}

// ---- grouped GEMM ----------------------------------------------------------------------------

// A grouped GEMM (Plan::groups) stacks the groups' rows of A and D: group g owns rows
// [row_begin_g, row_end_g). Its tile rows are the groups' own, ceil(rows_g / tile_m) of each, in
// group order, so that no tile holds rows of two groups; tile row tm of the plan (TileCoordOf)
// is entry tm of the launch's group table: the group (B's matrix), the tile's first row and the
// group's end, which bounds the rows the tile stores (the kernel's CoordOf). Rows of A past that
// end (the next group's) may be loaded, and only reach accumulator rows that are never stored. A
// table entry past the groups' tile rows belongs to no group (TailRow).
struct GroupRow {
  int group, row0, row_end, unused;
};

// The group of a table entry past the groups' tile rows (TailRow).
constexpr int kNoGroup = -1;

// Tile rows of a group of `rows` rows.
STREAMK_HD TileCoord GroupedCoord(TileCoord c, const GroupRow& g) {
  c.batch = g.group;
  c.row0 = g.row0;
  c.row_end = g.row_end;
  return c;
}

STREAMK_HD int GroupTileRows(int rows, int tile_m) { return (rows + tile_m - 1) / tile_m; }

// Group `group`'s entries of the table: its rows [row_begin, row_end) from tile row `first`.
STREAMK_HD void WriteGroupRows(GroupRow* table, int group, int first, int row_begin, int row_end,
                               int tile_m) {
  const int count = GroupTileRows(row_end - row_begin, tile_m);
  for (int r = 0; r < count; ++r)
    table[first + r] = GroupRow{group, row_begin + r * tile_m, row_end, 0};
}

// Entry `index` past the groups' tile rows (device group ends leave some over from the bound the
// plan was made for): the rows of D past the last group's end, [rows_begin, rows_end), a tile row
// of them each, then none (row0 == row_end). No group owns them: the mainloop loads and computes
// nothing for them (the kernel's RunsTo), so the epilogue stores alpha * 0 + beta * C there, zero
// with beta 0. The bound has a tile row more than any routing's groups fill, so the entries left
// over cover every such row (TileRows, lib/planner.cc).
STREAMK_HD GroupRow TailRow(int index, int rows_begin, int rows_end, int tile_m) {
  const int64_t row0 = rows_begin + static_cast<int64_t>(index) * tile_m;
  if (row0 >= rows_end) return GroupRow{kNoGroup, 0, 0, 0};
  const int64_t row_end = row0 + tile_m < rows_end ? row0 + tile_m : rows_end;
  return GroupRow{kNoGroup, static_cast<int>(row0), static_cast<int>(row_end), 0};
}

// ---- workspace -------------------------------------------------------------------------------

// Byte offset of the partial slot a Stream-K block uses for `unit`. kDeterministic / kAtomic: one
// shared slot per tile. kSeparate: two per block (0: its last tile, which it starts; 1: its first
// tile, which it finishes).
STREAMK_HD int64_t PartialSlotOffset(const Plan& p, const SkUnit& u) {
  if (p.reduction != Reduction::kSeparate) {
    return p.partials_offset + static_cast<int64_t>(u.tile) * p.partial_tile_bytes;
  }
  const IterRange r = SkBlockRange(p, u.block);
  const bool last_tile = u.tile == Divide(p.div.iters_per_tile, r.end - 1);
  return p.partials_offset + (2 * static_cast<int64_t>(u.block) + (last_tile ? 0 : 1)) *
                                 p.partial_tile_bytes;
}

// kSeparate: the slot of peer `g` (0-based, k order) of Stream-K tile `tile`, equal to
// PartialSlotOffset of that peer's unit of the tile. Every peer but the last has the tile as its
// last tile (slot 0, 2 * block); the last peer's may be its first of two (slot 1).
STREAMK_HD int64_t PeerSlotOffset(const Plan& p, int tile, const Peers& peers, int g) {
  const int block = peers.first + g;
  int slot = 2 * block;
  if (block == peers.last) {
    const IterRange r = SkBlockRange(p, block);
    slot += Divide(p.div.iters_per_tile, r.end - 1) == tile ? 0 : 1;
  }
  return p.partials_offset + static_cast<int64_t>(slot) * p.partial_tile_bytes;
}

// The flag of Stream-K tile `sk_tile` for cluster rank `rank` (Plan::cluster_m): the ranks of a
// cluster run the protocol on their rows of the tile independently.
STREAMK_HD int64_t FlagOffset(const Plan& p, int sk_tile, int rank = 0) {
  return p.flags_offset + (static_cast<int64_t>(sk_tile) * p.cluster_m + rank) * 4;
}

// Cluster rank `rank`'s part of a partial slot (the slot offsets above are the cluster's): the
// partial of its tile_m / cluster_m rows, partial_tile_bytes / cluster_m bytes from this offset.
STREAMK_HD int64_t RankPartOffset(const Plan& p, int rank) {
  return rank * (p.partial_tile_bytes / p.cluster_m);
}

// The first row of D (within its batch entry) that cluster rank `rank` computes of tile `c`.
STREAMK_HD int RankRow0(const Plan& p, const TileCoord& c, int rank) {
  return c.row0 + rank * (p.tile_m / p.cluster_m);
}

}  // namespace streamk::mapping
