// DeviceSpec: the planner's model of a GPU (SM count, resident blocks per SM for the kernel
// configuration, L2 size, cost constants). The planner only ever sees a DeviceSpec, never the
// device, so every decision can be reproduced on a CPU for any GPU: take a preset
// (DeviceSpecByName("h200")) or query the local GPU (QueryLocalDevice()).
//
//   absl::StatusOr<streamk::DeviceSpec> dev = streamk::QueryLocalDevice();
//   if (!dev.ok()) dev = streamk::DeviceSpecByName("h200");  // no GPU: plan for an H200
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "streamk/types.h"

namespace streamk {

// The Stream-K paper's per-block time model, in microseconds, for the library's 128x128x32 tile:
//   time(block) = block_us + unit_us * (tiles or k-slices started) + iter_us * iterations
//                 + partial_us * [publishes] + peer_us * (peers waited for)
//                 + epilogue_us * (tiles finished) [+ streamk_us when the plan has Stream-K blocks]
// summed over the work blocks a persistent block runs; the plan takes as long as its most
// loaded persistent block.
// Values depend on GPU, tile and dtype. Each preset says where its numbers come from.
struct CostModel {
  double block_us = 0;     // a: fixed cost of a launch (per plan)
  double unit_us = 0;      // fixed cost of each tile or k-slice a block starts (pipeline fill)
  double streamk_us = 0;   // fixed extra cost of a plan with Stream-K blocks (co-operative launch,
                           // the whole grid's partials in flight at once)
  double partial_us = 0;   // b: write one fp32 partial tile to the workspace and signal
  double iter_us = 0;      // c: one MAC-iteration (128x128x32) of a block alone on its SM
  // c when `occupancy` blocks share each SM: per block, so throughput per SM is
  // occupancy / iter_shared_us (0: same as iter_us)
  double iter_shared_us = 0;
  double peer_us = 0;      // d: wait for, read and add one peer's fp32 partial tile
  double epilogue_us = 0;  // e: convert and write one output tile (and read C when beta != 0)
  // A reduction block (separate reduction wave) reading and adding one peer's partial tile: the
  // reads stream back to back, with no hand-over between peers (0: same as peer_us).
  double reduce_peer_us = 0;
  // c for one block per SM when every SM runs one: the operand traffic then saturates the
  // memory system. A round in which a of the s SMs run a block costs
  // iter_us + (iter_busy_us - iter_us) * a / s per iteration (0: iter_us at any load).
  double iter_busy_us = 0;
  // Iterations cost 1 + misaligned_load * f times as much when a fraction f of their operand bytes
  // comes from K-major rows that start at odd multiples of 16 bytes (Plan::a, b:
  // OperandLayout::rows_misaligned; f = 1 when both operands' rows are). 0: not measured, no
  // effect. It scales iter_us and iter_shared_us; misaligned_busy_load (below) scales iter_busy_us.
  double misaligned_load = 0;
  // A reduction block's floor per peer for one slice (PlanOptions::reduction_slices): a narrow
  // slice of many peers is bound by L2 round trips, not bytes. A slice of `peers` partials costs
  // unit_us + peers * max(reduce_latency_us, reduce_peer_us x area / slices) + its share of an
  // epilogue. 0: bytes alone.
  double reduce_latency_us = 0;
  // Whether auto weighs the one-tile hybrid on persistent blocks (the partial wave's tiles Stream-K
  // ahead of the full data-parallel waves): only where it was measured to pay.
  bool partial_wave_streamk = false;
  // misaligned_load for iter_busy_us, i.e. with every SM loading (< 0: misaligned_load). Measured
  // on the TMA kernel: misaligned rows cost more the more SMs load them at once (1.2-1.3x on a few
  // tiles, up to 1.7x on a full wave; the cause is not traced).
  double misaligned_busy_load = -1;
  // Whether auto weighs a separate reduction wave where the Stream-K blocks take every resident
  // slot (one block per SM): the reduction blocks then queue behind them on the same persistent
  // blocks. Only where it was measured to pay, and only with more than three peers per tile.
  bool separate_after_streamk = false;
  // The rate at which the GPU's memory delivers a GEMM's own bytes (A, B and D, 2 bytes each),
  // in bytes per microsecond (0: no floor). A plan takes at least its fixed costs plus those
  // bytes at this rate, however many SMs share them: decode projections, whose tiles stream
  // weights no other tile reads, run at the memory's speed, and Stream-K's extra SMs cannot make
  // them faster.
  double hbm_bytes_per_us = 0;
  // The rate at which one SM streams its tile's bytes from the memory, bytes per microsecond (0:
  // not modelled). A data-parallel round of few tiles takes at least one tile's bytes at this
  // rate: its SMs cannot use the whole memory's bandwidth. Decode rows whose 128 x 128 tiles
  // spill a partial round onto 12-60 SMs ran 5-24% slower on an H200 than one round of 128 x 256
  // tiles, which the floor over the whole GEMM alone priced the same.
  double sm_bytes_per_us = 0;
  // Repacking operands before the kernel (Plan::repack_a, repack_b): a fixed cost (one more
  // kernel launch and its tail) plus the bytes read and written at repack_bytes_per_us (0: no
  // rate, repacking is never predicted to pay).
  double repack_us = 0;
  double repack_bytes_per_us = 0;
  // The rate at which the L2 serves the kernel's operand loads with every SM loading, bytes per
  // microsecond: rows that start 128-byte aligned, and rows that start at odd multiples of 16
  // bytes (each such row takes the L2 two or more requests, none of which it merges across SMs).
  // Measured on an H200 with the loads alone (a probe issuing the 128 x 256 kernel's loads with no
  // math): 13.9 and 5.4 TB/s; LoadFloorMicros. 0: unknown.
  double l2_load_bytes_per_us = 0;
  double misaligned_l2_load_bytes_per_us = 0;
  // Microseconds one k-iteration (tile_k = 64) of a block costs more for each narrow M- or N-major
  // operand it loads (OperandLayout::mn_major with fewer than kLineRowBytes bytes along m or n:
  // NarrowMnExtent) when every SM loads: each SM fetches the same few lines of it as 64 short rows,
  // and those requests, not the bytes, pace the iteration, the more the more SMs load.
  // narrow_mn_misaligned_iter_us where those rows start at odd multiples of 16 bytes
  // (OperandLayout::mn_rows_misaligned). Added to iter_busy_us and iter_shared_us; a round on a of
  // the s SMs pays a / s of it (RoundIter). 0: not modelled.
  double narrow_mn_iter_us = 0;
  double narrow_mn_misaligned_iter_us = 0;
  // What the same loads add, per 64-deep iteration of a block when every SM loads, to the memory's
  // floor (hbm_bytes_per_us) of a plan that runs at it: where each iteration streams few of its
  // own bytes (a short tile along M), the narrow rows' requests stall it beyond what the memory
  // takes. A round on a of the s SMs pays a / s of it. 0: the floor hides them.
  double narrow_mn_floor_iter_us = 0;
  // The configuration's ping-pong variant (kernels::PingPongOf: data-parallel plans of two or
  // more tiles a block of 8-24 k-iterations, K-major rows on 128-byte lines, D stored by TMA),
  // where it has one: each tile's epilogue runs under the other warp group's mainloop, so every
  // tile of a block but its last costs pingpong_hidden_us less, and its iterations
  // 1 + pingpong_iter_loss times as much (one warp group issues a tile's wgmmas alone). 0: no
  // ping-pong variant.
  double pingpong_hidden_us = 0;
  double pingpong_iter_loss = 0;
  // Where D (2 bytes an element) outgrows pingpong_stream_bytes, ping-pong's iterations cost up to
  // pingpong_stream_gain less: a share of it from 0 at pingpong_stream_bytes to all of it at
  // twice that. Measured against the other configurations: where D is several times the L2,
  // ping-pong gains 1.06-1.10x more over them than the terms above give it, where it is about the
  // L2's size 1.02x (the cause is not traced). 0: none.
  double pingpong_stream_gain = 0;
  double pingpong_stream_bytes = 0;
  // The panels of an operand larger than this (bytes; the L2's size) that Stream-K tiles share are
  // read from the memory again: data-parallel tiles that share a panel (those along m that read
  // one of B's, those along n one of A's) run side by side in one round, but a Stream-K block
  // reaches its tiles one after another, after the L2 has dropped the panel. The memory floor
  // counts those reads (StreamKGemmBytes). 0: not modelled.
  double streamk_reread_bytes = 0;
  // The least predicted gain over data-parallel at which auto takes every tile Stream-K over
  // fewer tiles than its blocks, against data-parallel's one partial round on fewer SMs, where
  // more than the planner's margin (0: the planner's margin). Only where measured so.
  double few_tiles_streamk_gain = 0;
  // Whether auto takes another configuration's data-parallel plan on tiles of the same rows over
  // this configuration's every-tile Stream-K pick wherever it is predicted no slower, rather than
  // on that configuration's margin over Stream-K (Hopper: 128 x 192 over every tile Stream-K on
  // 128 x 128). Only where measured so.
  bool every_tile_streamk_yields = false;
  // Where auto weighs data-parallel's pick against this configuration's plan for misaligned rows
  // (the cluster configuration: DataParallelOverClusters), the latter's estimate (the aligned
  // prediction against the L2's time for the loads) runs 1 + padded_columns_load * w times as
  // long, w the share of its tiles' columns past N; split-K plans' does not. Only where measured
  // so: the H200's 2-SM clusters ran the slower, against 128 x 256 tiles on single SMs, the
  // emptier their last column of tiles (the cause is not traced). 0: none.
  double padded_columns_load = 0;
  // The least predicted gain over data-parallel's pick (what mode dp runs) at which auto's pick on
  // aligned K-major rows at least one tile each way that splits or streams them on this
  // configuration stands, where that pick's tiles fill a quarter of the resident slots or more;
  // split_yield_gain_on_lines where both operands' rows are on 128-byte lines
  // (OperandLayout::rows_on_lines). Only where measured so: the H200's 64 x 128 tile split or
  // streamed over every SM ran slower against its data-parallel round on a quarter of them or more
  // than the model prices (DataParallelOverSplitPick). 0: no such rule.
  double split_yield_gain = 0;
  double split_yield_gain_on_lines = 0;
  // The least predicted gain over data-parallel's pick at which auto's Stream-K pick on aligned
  // K-major rows on this configuration stands where it streams more tiles than resident slots in
  // more than a few rows of tiles (the sibling of few_tiles_streamk_gain; a few rows keep their
  // own rule). Only where measured so: the H200's 128 x 128 tile (DataParallelOverSplitPick).
  // 0: no such rule.
  double many_tiles_streamk_gain = 0;
  // The least predicted gain over data-parallel's pick at which auto's every-tile Stream-K pick on
  // K-major rows, aligned or not, on this configuration stands where it streams more tiles than
  // resident slots in more than a few rows of tiles. Only where measured so: the H200's
  // 128 x 256 tile (DataParallelOverSplitPick). 0: no such rule.
  double every_tile_streamk_gain = 0;
  // The same for its one-tile hybrid behind one round of data-parallel tiles (the partial round's
  // tiles Stream-K, Plan::dp_tiles filling the resident slots once) on aligned K-major rows. Only
  // where measured so: the H200's 128 x 256 tile. 0: no such rule.
  double one_round_tail_streamk_gain = 0;
};

// A tile of D computed by one block, and the depth of one k-iteration, in elements.
struct TileShape {
  int m = 128, n = 128, k = 32;
};
constexpr bool operator==(const TileShape& a, const TileShape& b) {
  return a.m == b.m && a.n == b.n && a.k == b.k;
}
constexpr bool operator!=(const TileShape& a, const TileShape& b) { return !(a == b); }
// "No tile": PlanOptions::tile for the device's choice; DeviceSpec::TileOf a role it has none of.
inline constexpr TileShape kNoTile{0, 0, 0};

// What each of a device's kernel configurations is for, and its name in device profiles and in
// the tools' flags (streamk-fit --model main|alt|...). A device runs at most one configuration of
// each role. On Hopper (the TMA wgmma kernel):
//   kMain     128 x 256, two compute warp groups: the most of D per tile, for large GEMMs;
//   kAlt      128 x 128: shapes whose 128 x 256 tiles would be mostly empty or too few;
//   kMid      128 x 192, whose waves fall between those two tiles';
//   kWide     192 x 192 on three compute warp groups, 12% fewer tiles than 128 x 256 (shapes a few
//             tiles past one round of those fit in one; cuBLAS's Hopper kernels pick such tiles);
//   kSmall    64 x 128 on one compute warp group, twice the 128 x 128 tile's count, for shapes
//             whose 128 x 128 tiles leave most SMs idle (small GEMMs, decode projections);
//   kBroad    128 x 320, 25% more of D per tile than 128 x 256 (shapes whose 128 x 256 tiles
//             spill a few past one round fill one round of it);
//   kCluster  256 x 256 on clusters of two SMs, each computing 128 x 256 of it, the two sharing
//             B's loads by TMA multicast (KernelConfig::cluster_m).
enum class KernelRole : uint8_t { kMain, kAlt, kMid, kWide, kSmall, kBroad, kCluster };
inline constexpr KernelRole kKernelRoles[] = {
    KernelRole::kMain,  KernelRole::kAlt,   KernelRole::kMid,    KernelRole::kWide,
    KernelRole::kSmall, KernelRole::kBroad, KernelRole::kCluster};
// "main", "alt", "mid", "wide", "small", "broad", "cluster".
const char* KernelRoleName(KernelRole role);
std::optional<KernelRole> ParseKernelRole(std::string_view name);

// One kernel configuration a device runs: the tile one block (or cluster) computes, the constants
// of the cost model for it, and how it is launched.
struct KernelConfig {
  KernelRole role = KernelRole::kMain;
  TileShape tile;
  CostModel cost;
  // SMs per cluster: 2 runs the tile on clusters of two SMs (Plan::cluster_m). Its costs are then
  // per cluster, and cluster_slots clusters are resident at once (they stand in for the SMs in
  // its plans: Plan::avail_sms).
  int cluster_m = 1;
  int cluster_slots = 0;
};

struct DeviceSpec {
  std::string name;
  int sms = 0;            // streaming multiprocessors
  int occupancy = 0;      // resident blocks per SM of the GEMM kernel configurations
  int64_t l2_bytes = 0;
  // The kernel configurations the planner weighs, in the order of their roles (kKernelRoles), the
  // main one first; each runs at `occupancy` blocks per SM (clusters: their own slots). The main
  // one's cost also holds the device's own terms (memory rates, operand copies).
  std::vector<KernelConfig> kernels = {KernelConfig{}};
  bool queried = false;  // true when read off a real device rather than a preset
  // The kernel's mainloop these configurations and costs describe (Plan::mainloop).
  Mainloop mainloop = Mainloop::kSm90Tma;

  // The configuration of `role`; nullptr where the device has none.
  const KernelConfig* Find(KernelRole role) const;
  KernelConfig* Find(KernelRole role);
  // Its tile; kNoTile where the device has none.
  TileShape TileOf(KernelRole role) const;
  // The main configuration (kernels.front(); a DeviceSpec without one is not a device).
  const KernelConfig& main() const { return kernels.front(); }
  KernelConfig& main() { return kernels.front(); }
  // Adds (or replaces) the configuration of config.role, keeping the roles' order; returns it.
  KernelConfig& Set(KernelConfig config);
  // Drops the configuration of `role` (none: nothing to do); the main one stays.
  void Remove(KernelRole role);
};

// Every field of CostModel by name, in declaration order: a number (`number` set) or a switch
// (`flag` set). A device profile's keys, and the names streamk-fit's --fit and --set take.
struct CostModelField {
  const char* name;
  double CostModel::*number;
  bool CostModel::*flag;
};
extern const CostModelField kCostModelFields[37];
// The field named `name`; nullptr for none.
const CostModelField* FindCostModelField(std::string_view name);

// Presets: "a100" (A100 SXM, 108 SMs), "h100" (H100 SXM, 132 SMs), "h200" (H200, 132 SMs), each
// for the kernel the library runs there by default (Hopper: the TMA wgmma kernel, one block per
// SM), and "h200-cpasync" (the H200 running the cp.async wgmma kernel, two blocks per SM:
// Options::mainloop = kSm90). Operands that are not 16-byte aligned are copied for the TMA
// kernel first (Plan::repack_a, repack_b), not run on the cp.async kernel.
DeviceSpec A100Spec();
DeviceSpec H100Spec();
DeviceSpec H200Spec();
DeviceSpec H200CpAsyncSpec();

// A preset by name ("a100", "h100", "h200", "h200-cpasync"); NotFound naming the known ones
// otherwise.
absl::StatusOr<DeviceSpec> DeviceSpecByName(std::string_view name);

// The local GPU's properties through the CUDA runtime (SM count, L2, name) and the kernel's real
// occupancy; cost constants from the closest preset, for `mainloop` (unset: the best the device
// runs, kernels::KernelArch). FailedPrecondition when there is no usable CUDA device, with the
// CUDA error name; InvalidArgument naming the mainloop when the device cannot run it.
absl::StatusOr<DeviceSpec> QueryLocalDevice(int device_ordinal = -1,
                                            std::optional<Mainloop> mainloop = std::nullopt);

// Device profiles: a DeviceSpec as a JSON document, so that a model fitted on one GPU
// (streamk-bench --calibrate, streamk-fit --fit_all --profile_out) can be read back by gemm()
// (UseDeviceProfile, streamk.h), streamk-plan --profile and streamk-bench --profile. The built-in
// presets are such profiles: `streamk-plan --device h200 --write_profile h200.json` writes one.
//
//   {"format": "streamk-device-profile", "version": 1, "name": "NVIDIA H100 80GB HBM3",
//    "sms": 132, "occupancy": 1, "l2_bytes": 52428800, "mainloop": "sm90-tma",
//    "configurations": {"main": {"tile": [128, 256, 64], "cost": {"iter_us": 0.33, ...}}, ...,
//                       "cluster": {"tile": [256, 256, 64], "slots": 66, "cost": {...}}},
//    "calibration": {...}}
//
// "configurations" holds the device's kernel configurations by their roles' names
// (KernelRoleName; one missing: the device has none such); each cost lists CostModel's fields by
// name (kCostModelFields; one missing: 0 or false). "calibration" is free-form provenance that
// reading ignores (streamk-bench --calibrate records its command and the fit's errors there).
// Reading is strict: an unknown key, a value of the wrong type or out of range, or a missing
// "sms", "occupancy" or "configurations.main" is InvalidArgument naming the key.
std::string DeviceSpecToJson(const DeviceSpec& spec, std::string_view calibration_json = {});
absl::StatusOr<DeviceSpec> DeviceSpecFromJson(std::string_view json);
absl::StatusOr<DeviceSpec> LoadDeviceProfile(const std::string& path);
absl::Status SaveDeviceProfile(const DeviceSpec& spec, const std::string& path,
                               std::string_view calibration_json = {});

// `profile` as the model of `device` (a preset, or QueryLocalDevice's): its kernel configurations
// and constants, with the device's own facts (occupancy, cluster slots, whether queried).
// InvalidArgument where the profile cannot describe the device: another SM count or mainloop, or
// a configuration whose tile the device's kernels do not compute (its cluster configuration is
// dropped where the device has none).
absl::StatusOr<DeviceSpec> AdaptDeviceProfile(const DeviceSpec& profile, const DeviceSpec& device);

}  // namespace streamk
