// The cost model's own pick, without the planner's rules (streamk-bench mode word "argmin").
//
// Auto decides through margins and rules on top of the cost model (docs/planner.md, "Decision
// rules"). ModelArgmin prices what auto weighs, on every kernel configuration, and returns the
// cheapest as forced options, so that a run can time the model's pick beside auto's:
//
//   absl::StatusOr<ArgminPick> pick = ModelArgmin(args, device, {});
//   gemm(args, stream, pick->options);
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "streamk/device_spec.h"
#include "streamk/streamk.h"

namespace streamk::tools {

struct ArgminPick {
  Options options;          // forced: mode, tile, splits or Stream-K tiles and blocks, reduction
  double predicted_us = 0;  // PlanGemm's prediction for them (copies included)
  std::string name;         // PlanName: "splitk 128x192 dp0+sk50/150 repack-b"
  int weighed = 0;          // the forced plans priced
};

// Every kernel configuration of `device` (the cluster one only where K-major rows are misaligned,
// as auto weighs it) x each decomposition auto prices on that configuration alone (the candidates
// of PlanGemm with Options::tile set) x the operand copies (none; where rows load slowly or
// operands are narrow, A's, B's or both), each planned as forced options and predicted as gemm()
// would run it; the cheapest. `base` carries what the caller set besides (schedule, avail_sms,
// kernel choices). An error where no forced plan could be made (the first one's).
absl::StatusOr<ArgminPick> ModelArgmin(const GemmArgs& args, const DeviceSpec& device,
                                       const Options& base = {});

}  // namespace streamk::tools
