// The Plan: everything the persistent kernel needs to know about how one GEMM is decomposed, as one
// trivially copyable struct passed by value to the kernel. The planner (planner.h) makes it; the
// work mapping (kernels/work_mapping.h) turns a block index into work with it; the printers
// (plan_print.h) show it. No Abseil here: the CUDA side includes this header.
//
// Vocabulary. A *tile* is one tile_m x tile_n block of D in one batch entry; an *iteration* is one
// tile_k slice of a tile's k range (a tile has iters_per_tile of them). Tiles are numbered
// linearly across the batch; the first sk_tiles of them are Stream-K tiles, the rest data-parallel
// tiles. Blocks are numbered by *work block* index: the first dp_blocks_before_sk data-parallel
// blocks, then the Stream-K blocks, then the other data-parallel blocks, then reduction blocks. The
// kernel runs grid_blocks persistent blocks; block b executes work blocks b, b + grid_blocks,
// b + 2 * grid_blocks, ... in that order (Schedule::kStatic), or takes the lowest work block no
// block has taken yet from a counter (Schedule::kDynamic), so a work block only ever waits for
// lower-numbered work blocks, which are running or done (see kernels/persistent_kernel.cuh).
#pragma once

#include <cstdint>
#include <type_traits>

#include "streamk/types.h"

namespace streamk {

// K-major operand rows that start at a multiple of this many bytes take whole 128-byte lines
// (OperandLayout::rows_on_lines).
inline constexpr int kLineRowBytes = 128;

// K-major operand rows that start at a multiple of this many bytes load at full speed on the TMA
// kernel (OperandLayout::rows_misaligned).
inline constexpr int kFastRowBytes = 32;

// Rows that start at a multiple of this many bytes can be loaded at all (by the TMA unit or
// cp.async); others are copied first (OperandLayout::unaligned).
inline constexpr int kVectorBytes = 16;

// Which dimension of an operand is contiguous in memory, as the kernel loads it (A: m x k,
// B: k x n, after the transpose that makes D row-major): K-major (A row-major, B column-major)
// or M- / N-major (A column-major, B row-major).
enum class Major : uint8_t { kK, kMN };

// How the kernel finds one operand in memory: its major dimension and the alignment its rows
// start at. `row_align` is the largest power of two, up to kLineRowBytes, that divides the
// operand's base address, its leading dimension and its batch stride, in bytes (PlanGemm
// measures it; RowAlignOf). Every planner and cost-model question about an operand's layout is
// one of the predicates below.
struct OperandLayout {
  Major major = Major::kK;
  uint8_t row_align = kLineRowBytes;

  // Neither the TMA unit nor cp.async can load its rows as they are: the launch always copies
  // the operand to K-major rows on 128-byte lines first (Plan::repack_a, a_unaligned).
  constexpr bool unaligned() const { return row_align < kVectorBytes; }
  // M- or N-major and loadable: each k-iteration loads a tile's slice as tile_k rows along m or
  // n, one TMA request per row (NarrowMn; CostModel::narrow_mn_iter_us).
  constexpr bool mn_major() const { return major == Major::kMN && !unaligned(); }
  // K-major rows starting at odd multiples of 16 bytes: the TMA unit loads them 1.2-1.7x slower
  // (CostModel::misaligned_load, misaligned_busy_load).
  constexpr bool rows_misaligned() const {
    return major == Major::kK && !unaligned() && row_align < kFastRowBytes;
  }
  // M- or N-major rows starting at odd multiples of 16 bytes: requests served as slowly as
  // misaligned K-major rows (CostModel::narrow_mn_misaligned_iter_us).
  constexpr bool mn_rows_misaligned() const {
    return mn_major() && row_align < kFastRowBytes;
  }
  // K-major rows on 128-byte lines: each 64-element row piece of a k-iteration is one whole
  // line. Rows that start kFastRowBytes- but not line-aligned (packed rows with K not a multiple
  // of 64) load 4-7% slower on the shared tiles and up to 12% slower under ping-pong, which the
  // launch then does not run (kernels::PingPongOf).
  constexpr bool rows_on_lines() const {
    return major == Major::kK && row_align >= kLineRowBytes;
  }
  // The same operand copied to K-major rows on lines (what the kernel loads after a copy).
  static constexpr OperandLayout Copied() { return OperandLayout{}; }
  // The same operand with its K-major rows' misalignment taken away (what-if pricing).
  constexpr OperandLayout RowsAligned() const {
    OperandLayout l = *this;
    if (rows_misaligned()) l.row_align = kFastRowBytes;
    return l;
  }
  friend constexpr bool operator==(const OperandLayout& x, const OperandLayout& y) {
    return x.major == y.major && x.row_align == y.row_align;
  }
  friend constexpr bool operator!=(const OperandLayout& x, const OperandLayout& y) {
    return !(x == y);
  }
};
// No padding: Plans are compared bytewise (the plan cache, reproducibility tests).
static_assert(sizeof(OperandLayout) == 2, "OperandLayout has no padding");

// A divisor d >= 1 with the multiplier and shift that divide by it with a multiply-high, an add
// and a shift (mapping::Divide, kernels/work_mapping.h). The block-to-work mapping divides by a
// few plan constants; a GPU has no integer divide, and each '/' compiles to ~20 instructions that
// every block fetches from the L2 cold (no instruction cache holds this once-per-unit code):
// on an H200, Nsight Compute put 43% of the warp stalls of 16 x 4096 x 4096 on instruction fetch.
struct FastDivisor {
  int32_t d = 1;
  uint32_t mul = 0;
  int32_t shift = 0;
};

// The plan constants the mapping divides by, set from the fields they name whenever those change
// (mapping::SetDivisors: the planner's Derive, and every launch and emulation on its own copy).
struct PlanDivisors {
  FastDivisor iters_per_tile;       // iters_per_tile
  FastDivisor tiles_per_batch;      // tiles_m * tiles_n
  FastDivisor band_tiles;           // swizzle * (the dimension walked within a band)
  FastDivisor swizzle;              // swizzle
  FastDivisor last_band;            // the last band's width (swizzle, or what is left of it)
  FastDivisor sk_blocks_per_region;
  FastDivisor sk_iters_per_region;
  FastDivisor sk_normal;            // sk_iters_per_normal_block
  FastDivisor sk_big;               // sk_iters_per_normal_block + 1
  FastDivisor reduction_slices;
};

struct Plan {
  // --- problem -------------------------------------------------------------------------------
  int m = 0, n = 0, k = 0;  // elements
  int batch = 1;
  int tile_m = 128, tile_n = 128, tile_k = 32;  // elements
  int tiles_m = 0, tiles_n = 0;                 // per batch entry
  int tiles = 0;                                // tiles_m * tiles_n * batch
  int iters_per_tile = 0;                       // ceil(k / tile_k)
  // A grouped GEMM (grouped_gemm; 0: an ordinary one): `groups` k x n matrices of B, each
  // multiplying its group's rows of A, whose m rows stack the groups' (D's the same). tiles_m
  // counts every group's own tile rows, ceil(rows / tile_m) each (no tile holds rows of two
  // groups), batch is 1, and the launch's group table (mapping::GroupRow, in the workspace at
  // group_rows_offset) gives each tile row its group and rows. groups_with_rows: the groups that
  // have rows, whose B the kernel reads. rows_bound: 1 where the rows are known only when the
  // kernel runs (group ends on the device): m bounds their sum, tiles_m is the most tile rows any
  // split of them makes, and tile rows past the groups' own have no rows.
  int groups = 0, groups_with_rows = 0, rows_bound = 0;
  // A's and B's layouts as the kernel loads them (Problem::a, b; an operand the launch copies:
  // OperandLayout::Copied()), for the cost model and the kernel's choices; the kernel takes the
  // layouts themselves from its arguments.
  OperandLayout a, b;
  // Whether the TMA kernel may store D as a tensor (Problem::d_tma_store, false where
  // PlanOptions::store_d names another path): the planner prices and picks the ping-pong variant
  // only then, and with both operands' rows on lines (kernels::PingPongOf, Plan::pingpong).
  bool d_tma_store = true;

  // --- decomposition -------------------------------------------------------------------------
  Mode mode = Mode::kDataParallel;  // resolved: never kAuto
  Reduction reduction = Reduction::kDeterministic;
  int dp_tiles = 0;  // tiles [sk_tiles, tiles) are computed whole by data-parallel blocks
  int sk_tiles = 0;  // tiles [0, sk_tiles) are computed by Stream-K blocks
  int sk_blocks = 0;
  int sk_regions = 0;                 // sk iteration space in equal regions (split-K: tiles)
  int sk_blocks_per_region = 0;
  int sk_iters_per_region = 0;
  int sk_iters_per_normal_block = 0;  // big blocks do one more
  int sk_big_blocks_per_region = 0;   // the first ones of each region
  int sk_waves = 0;                   // ceil(sk_blocks / avail_sms)
  int dp_blocks = 0;
  int dp_first_wave_tiles = 1;  // tiles each of the first avail_sms DP blocks computes
  // Data-parallel blocks that come before the Stream-K blocks in work order (whole rounds of
  // grid_blocks; the planner keeps every full data-parallel round but the last one there). They
  // start at the launch, all at once, the way a data-parallel launch does: measured on an H200,
  // data-parallel rounds that followed the Stream-K blocks ran up to 10% slower per tile (their
  // tiles lost the L2 reuse of blocks running in step). The last round stays after the Stream-K
  // blocks, so that the partials are published while it runs and a separate reduction finds them
  // ready. 0: Stream-K blocks first (the paper's order).
  int dp_blocks_before_sk = 0;
  // kSeparate: each Stream-K tile is summed and finished by reduction_slices reduction blocks,
  // each owning tile_n / reduction_slices columns (a multiple of 8), so a tile's reduction reads
  // its peers' partials in parallel. reduction_blocks = sk_tiles * reduction_slices.
  int reduction_slices = 1;
  int reduction_blocks = 0;

  // --- grid ----------------------------------------------------------------------------------
  int work_blocks = 0;  // dp_blocks + sk_blocks + reduction_blocks
  int grid_blocks = 0;  // min(work_blocks, avail_sms * occupancy): every block resident at once
  // SMs the plan balances over; with clusters (cluster_m > 1), clusters of cluster_m SMs.
  int avail_sms = 0;
  int occupancy = 0;  // resident blocks (clusters) per SM (cluster slot) for the configuration
  // Blocks per cluster (1 or 2). With 2, every "block" above is a cluster of two thread blocks on
  // two SMs, launched as 2 * grid_blocks thread blocks: rank r of a cluster computes rows
  // [r * tile_m / 2, (r + 1) * tile_m / 2) of each of its tiles, with its own flag and its own
  // half of each partial slot (work_mapping.h), and the two load B's tile_n rows once for both
  // (TMA multicast: each loads half and writes it to both), which halves B's reads from the L2.
  // The ranks of a cluster walk the same work blocks and units in step.
  int cluster_m = 1;
  Raster raster = Raster::kAlongN;
  int swizzle = 1;  // band width of the raster, in tiles
  // Static: block b runs work blocks b, b + grid_blocks, ...; dynamic: each block takes the next
  // work block from the counter at counter_offset (Schedule). Dynamic plans run no clusters and no
  // ping-pong, and each data-parallel work block is one tile (dp_first_wave_tiles == 1), so work
  // is handed out one tile or one Stream-K range at a time.
  Schedule schedule = Schedule::kStatic;

  // --- kernel: decided by the planner, run by the launch as they say -------------------------
  // The mainloop the plan was made for (DeviceSpec::mainloop); the launch refuses a plan for
  // another one than the device runs.
  Mainloop mainloop = Mainloop::kSm90Tma;
  // The TMA kernel's 128 x 128 configuration runs its ping-pong variant (kernels::PingPongOf):
  // the two compute warp groups take turns at a block's tiles. PlanOptions::pingpong.
  bool pingpong = false;
  // The TMA kernel's tiles that hold fewer of D's columns than the configuration's width issue
  // wgmmas only as wide as those columns (kernels::NarrowWidthOf); false: every tile the whole
  // width. PlanOptions::narrow_wgmma.
  bool narrow_wgmma = true;
  // How the TMA kernel's epilogue writes D (and reads C): kernels::StoreDOf. The other mainloops
  // always store with their threads (kThreads). PlanOptions::store_d.
  StoreD store_d = StoreD::kThreads;

  // --- workspace (bytes) ---------------------------------------------------------------------
  // [flags | partials]. Flags: one int32 per Stream-K tile and cluster rank (and the work counter
  // of a dynamic plan, which has a workspace even without Stream-K blocks), zero between launches
  // (every launch leaves them zero), in a region of at least kMinFlagsBytes, so any plan with at
  // most kMinFlagsBytes / 4 Stream-K tiles can reuse a workspace another plan used: partials always
  // start past every such plan's flags. Partials: fp32 tiles, tile_m * tile_n * 4 bytes each;
  // kDeterministic and kAtomic keep one per Stream-K tile, kSeparate two per Stream-K block (a
  // block publishes for at most its first and its last tile).
  int64_t partial_tile_bytes = 0;
  int64_t partials_offset = 0;
  int64_t partials_bytes = 0;
  int64_t flags_offset = 0;
  int64_t flags_bytes = 0;
  // Schedule::kDynamic: the int32 work counter, in the flags region right after the plan's flags
  // (zero between launches like them: the block that takes the launch's last claim resets it).
  int64_t counter_offset = 0;
  int64_t workspace_bytes = 0;
  static constexpr int64_t kWorkspaceAlignment = 256;
  static constexpr int64_t kMinFlagsBytes = int64_t{1} << 20;  // 262,144 Stream-K tiles

  // --- operand repacking (the launch, before the kernel) ------------------------------------
  // A K-major operand whose rows start at odd multiples of 16 bytes
  // (OperandLayout::rows_misaligned) loads up to 2.5x slower when every SM loads it: the L2 serves
  // each such row as two or more requests and cannot merge the SMs' requests for it (on an H200 the
  // loads alone ran 13.9 TB/s aligned, 5.4 misaligned). Where the planner predicts it pays
  // (PlanOptions::repack), the launch first copies that operand into the workspace with rows
  // repack_ld elements apart (a multiple of kRepackRowElements: 128-byte rows), one entry per batch
  // entry (one for an operand the batch shares), and the kernel reads the copy. The copies follow
  // [flags | partials], at or past kMinFlagsBytes, so the flags of any plan that reuses the
  // workspace stay zero. An operand the kernel cannot load as it is (OperandLayout::unaligned: its
  // address, leading dimension or batch stride not a multiple of 16 bytes, K-major or not) is
  // always copied, to K-major rows like the above (an mn-major one transposed on the way);
  // a_unaligned says so.
  bool repack_a = false, repack_b = false;
  bool a_unaligned = false, b_unaligned = false;
  int64_t repack_ld = 0;  // elements between the copies' rows: k rounded up to kRepackRowElements
  int64_t repack_a_offset = 0, repack_b_offset = 0;  // bytes into the workspace
  static constexpr int64_t kRepackRowElements = 64;

  // --- grouped GEMM's group table (the launch writes it, before the kernel) ------------------
  // tiles_m mapping::GroupRow entries of 16 bytes, after everything above and at or past
  // kMinFlagsBytes like the copies (0 bytes: not grouped).
  int64_t group_rows_offset = 0, group_rows_bytes = 0;

  // --- derived ------------------------------------------------------------------------------
  PlanDivisors div;  // the divisors above, ready for the kernel (mapping::SetDivisors)
};

static_assert(std::is_trivially_copyable_v<Plan>, "Plan is passed by value to the kernel");

}  // namespace streamk
