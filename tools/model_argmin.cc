#include "model_argmin.h"

#include <optional>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "bench_report.h"
#include "streamk/planner.h"

namespace streamk::tools {
absl::StatusOr<ArgminPick> ModelArgmin(const GemmArgs& args, const DeviceSpec& device,
                                       const Options& base) {
  Options plain = base;
  plain.mode = Mode::kAuto;
  plain.tile = kNoTile;
  // The operands as the kernel would load them without copies (but those it cannot load at all).
  Options as_given = plain;
  as_given.repack = RepackOperands::kNone;
  absl::StatusOr<Plan> as_is = PlanGemm(args, device, as_given);
  if (!as_is.ok()) return as_is.status();
  const bool misaligned = as_is->a.rows_misaligned() || as_is->b.rows_misaligned();
  // Copies help where rows load slowly or operands are narrow: weigh each where auto might.
  const bool copies_help = misaligned || NarrowMn(*as_is, 'a') || NarrowMn(*as_is, 'b') ||
                           WideMnMisaligned(*as_is, 'a') || WideMnMisaligned(*as_is, 'b');
  std::vector<RepackOperands> ways = {RepackOperands::kNone};
  if (copies_help)
    ways.insert(ways.end(), {RepackOperands::kA, RepackOperands::kB, RepackOperands::kAll});

  std::optional<ArgminPick> best;
  absl::Status first_error = absl::OkStatus();
  int weighed = 0;
  for (const KernelConfig& config : device.kernels) {
    if (config.tile == kNoTile || (config.cluster_m > 1 && !misaligned)) continue;
    Options one = plain;
    one.tile = config.tile;
    PlanExplanation why;
    why.text = false;
    if (absl::StatusOr<Plan> p = PlanGemm(args, device, one, &why); !p.ok()) {
      if (first_error.ok()) first_error = p.status();
      continue;
    }
    for (const Candidate& c : why.candidates) {
      if (!c.feasible) continue;
      Options forced = base;
      forced.tile = config.tile;
      forced.mode = c.sk_blocks == 0 ? Mode::kDataParallel : c.mode;
      if (forced.mode == Mode::kSplitK) forced.splits = c.splits;
      if (forced.mode == Mode::kStreamK) forced.sk_tiles = c.sk_tiles, forced.blocks = c.sk_blocks;
      if (forced.mode != Mode::kDataParallel) {
        forced.reduction = c.reduction;
        if (c.reduction == Reduction::kSeparate) forced.reduction_slices = c.reduction_slices;
      }
      for (RepackOperands way : ways) {
        forced.repack = way;
        PlanExplanation w;
        w.text = false;
        absl::StatusOr<Plan> p = PlanGemm(args, device, forced, &w);
        if (!p.ok()) {
          if (first_error.ok()) first_error = p.status();
          continue;
        }
        ++weighed;
        if (best && w.predicted_us >= best->predicted_us) continue;
        best = ArgminPick{forced, w.predicted_us, PlanName(*p), 0};
      }
    }
  }
  if (!best)
    return first_error.ok() ? absl::InternalError("no forced plan was made") : first_error;
  best->weighed = weighed;
  return *std::move(best);
}

}  // namespace streamk::tools
