// The decomposition flags streamk-plan and streamk-trace share (--mode, --splits, --blocks,
// --sk_tiles, --reduction, --reduction_slices, --tile, --repack, --schedule, --avail_sms), and
// the kernel flags they and streamk-bench share (--pingpong, --narrow_wgmma, --store_d), parsed
// into PlanOptions or Options, which name these fields alike.
#pragma once

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "streamk/planner.h"
#include "streamk/streamk.h"
#include "streamk/types.h"

namespace streamk::tools {

struct DecompositionFlags {
  std::string mode = "auto";
  int splits = 0;
  int blocks = 0;
  std::string sk_tiles;   // empty: all tiles
  std::string reduction;  // empty: the planner's
  int reduction_slices = 0;
  std::string tile;  // BMxBNxBK; empty: the planner's pick
  std::string repack = "auto";  // auto | on | off | a | b
  std::string schedule = "auto";    // auto | static | dynamic
  int avail_sms = 0;                // SMs to plan for (0: all of the device's)
};

// --repack: "auto" (the planner decides), "on", "off", "a" or "b" (PlanOptions::repack).
inline absl::Status ParseRepack(const std::string& s, std::optional<RepackOperands>* repack) {
  if (s == "auto") {
    repack->reset();
  } else if (const std::optional<RepackOperands> r = ParseRepackOperands(s)) {
    *repack = *r;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("--repack ", s, ": expected auto, on, off, a or b"));
  }
  return absl::OkStatus();
}

// Sets `o`'s decomposition fields from `f`; InvalidArgument naming the flag and what it expects.
// The values' own rules (e.g. blocks only with mode streamk) are checked later by the planner.
template <class Options>
absl::Status SetDecomposition(const DecompositionFlags& f, Options* o) {
  const std::optional<Mode> mode = ParseMode(f.mode);
  if (!mode)
    return absl::InvalidArgumentError(
        absl::StrCat("--mode ", f.mode, ": expected auto, dp, splitk or streamk"));
  o->mode = *mode;
  o->splits = f.splits;
  o->blocks = f.blocks;
  if (!f.sk_tiles.empty()) {
    const std::optional<int> sk_tiles = ParseSkTiles(f.sk_tiles);
    if (!sk_tiles)
      return absl::InvalidArgumentError(
          absl::StrCat("--sk_tiles ", f.sk_tiles, ": must be a positive count or 'tail'"));
    o->sk_tiles = *sk_tiles;
  }
  o->reduction_slices = f.reduction_slices;
  if (!f.reduction.empty()) {
    o->reduction = ParseReduction(f.reduction);
    if (!o->reduction)
      return absl::InvalidArgumentError(absl::StrCat(
          "--reduction ", f.reduction, ": expected deterministic, atomic or separate"));
  }
  if (!f.tile.empty()) {
    const std::optional<TileShape> tile = ParseTileShape(f.tile);
    if (!tile)
      return absl::InvalidArgumentError(absl::StrCat("--tile ", f.tile, ": expected BMxBNxBK"));
    o->tile = *tile;
  }
  if (f.schedule == "auto") {
    o->schedule.reset();
  } else {
    const std::optional<Schedule> schedule = ParseSchedule(f.schedule);
    if (!schedule)
      return absl::InvalidArgumentError(
          absl::StrCat("--schedule ", f.schedule, ": expected auto, static or dynamic"));
    o->schedule = *schedule;
  }
  if (f.avail_sms < 0)
    return absl::InvalidArgumentError(
        absl::StrCat("--avail_sms ", f.avail_sms, ": must be 0 (every SM) or a count of SMs"));
  o->avail_sms = f.avail_sms;
  return ParseRepack(f.repack, &o->repack);
}

// The kernel's own choices, which the planner makes unless told (--pingpong, --narrow_wgmma,
// --store_d, --mainloop; PlanOptions / Options fields of the same names).
struct KernelFlags {
  std::string pingpong = "auto";  // auto | on | off
  bool narrow_wgmma = true;
  std::string store_d = "auto";   // auto | tma | rows | rows-warp | threads
  std::string mainloop = "auto";  // auto | sm80 | sm90-cpasync | sm90-tma
};

// The flags as given on the command line (defined in streamk_kernel_flags.cc).
KernelFlags KernelFlagsFromCommandLine();

// --mainloop: unset for "auto", else the mainloop it names; InvalidArgument otherwise.
inline absl::StatusOr<std::optional<Mainloop>> ParseMainloopFlag(const std::string& s) {
  if (s == "auto") return std::optional<Mainloop>();
  if (const std::optional<Mainloop> m = ParseMainloop(s)) return m;
  return absl::InvalidArgumentError(
      absl::StrCat("--mainloop ", s, ": expected auto, sm80, sm90-cpasync or sm90-tma"));
}

// Sets `o`'s pingpong, narrow_wgmma and store_d from `f` (the fields PlanOptions and Options
// share); InvalidArgument naming the flag and what it expects.
template <class Options>
absl::Status SetKernelChoices(const KernelFlags& f, Options* o) {
  if (f.pingpong == "auto") {
    o->pingpong.reset();
  } else if (f.pingpong == "on" || f.pingpong == "off") {
    o->pingpong = f.pingpong == "on";
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("--pingpong ", f.pingpong, ": expected auto, on or off"));
  }
  o->narrow_wgmma = f.narrow_wgmma;
  if (f.store_d == "auto") {
    o->store_d.reset();
  } else if (const std::optional<StoreD> s = ParseStoreD(f.store_d)) {
    o->store_d = *s;
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "--store_d ", f.store_d, ": expected auto, tma, rows, rows-warp or threads"));
  }
  return absl::OkStatus();
}

// The same for gemm()'s Options, which also name the mainloop (PlanOptions take it from the
// DeviceSpec).
inline absl::Status SetKernelChoices(const KernelFlags& f, streamk::Options* o) {
  if (absl::Status s = SetKernelChoices<streamk::Options>(f, o); !s.ok()) return s;
  absl::StatusOr<std::optional<Mainloop>> m = ParseMainloopFlag(f.mainloop);
  if (!m.ok()) return m.status();
  o->mainloop = *m;
  return absl::OkStatus();
}

}  // namespace streamk::tools
