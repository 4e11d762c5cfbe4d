// CPU emulator of the persistent kernel: runs a Plan on the host for small float problems with the
// kernel's own work mapping (kernels/work_mapping.h) and fixup protocol (kernels/fixup_protocol.h).
// grid_blocks persistent blocks each walk their work blocks; the mainloop is a plain float loop
// over a unit's k-slice; partials and flags live in a host workspace laid out as the Plan says;
// blocks are interleaved in a seeded random order, a block whose wait is not yet satisfied yields.
// A schedule in which every unfinished block waits is a deadlock and comes back as an error.
// Under a dynamic schedule on the TMA mainloop, each block's producer claims up to four work
// blocks ahead of its compute threads at random steps, as the kernel's may (after a reduction
// block, none until the compute threads have the block's partial sums).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "streamk/plan.h"
#include "work_mapping.h"

namespace streamk {

// Row-major float operands for every batch entry: A is batch x m x k, B batch x k x n, C and D
// batch x m x n. A grouped plan (Plan::groups): A is m x k, C and D m x n (the groups' rows
// stacked), B groups x k x n, and `group_rows` the launch's group table (GroupTableOf).
struct EmulatorInputs {
  const float* a = nullptr;
  const float* b = nullptr;
  const float* c = nullptr;  // may be null when beta == 0
  float alpha = 1, beta = 0;
  const mapping::GroupRow* group_rows = nullptr;
};

// The group table the launch writes for `plan` (kernels/group_table.cu, with the same
// mapping::WriteGroupRows and mapping::TailRow): plan.tiles_m entries for the groups ending at
// group_ends[0..groups), then the rows past the last end, up to plan.m.
std::vector<mapping::GroupRow> GroupTableOf(const Plan& plan, const int64_t* group_ends,
                                            int64_t groups);

struct EmulatorResult {
  std::vector<float> d;                  // batch x m x n
  std::vector<int> iteration_visits;     // tiles x iters_per_tile: mainloop runs of each
  std::vector<int> element_writes;       // batch x m x n: epilogue writes of each element of D
  int64_t steps = 0;                     // scheduler steps, including yields
  int64_t yields = 0;                    // steps in which a block waited
  // A dynamic plan on the TMA kernel: the most work blocks a block's producer had claimed ahead
  // of its compute threads (0 elsewhere).
  int max_claimed_ahead = 0;
  // Claims a producer made past a reduction block whose partial sums were not yet in (the
  // kernel makes none: Produce waits for them).
  int claims_past_reduction = 0;
};

// Runs the plan; errors on deadlock, on a wait for a higher-numbered block, on a workspace access
// outside the plan's workspace or misaligned, or on flags left non-zero.
// `workspace`, when given, is used (grown to plan.workspace_bytes, contents kept) instead of a
// fresh zeroed one, to run several plans on one workspace as gemm() does.
// `starts`, when given, holds for each persistent block the scheduler round it starts in (its SM
// held by another kernel until then; each round steps every started block once or a few times),
// or a negative number for a block that never starts. A static plan may then never finish its
// work or deadlock; a dynamic one (Plan::schedule) must not. Blocks past the vector start at once.
// The work counter of a dynamic plan must be zero afterwards when every block started.
absl::StatusOr<EmulatorResult> Emulate(const Plan& plan, const EmulatorInputs& in,
                                       uint64_t seed = 1,
                                       std::vector<uint8_t>* workspace = nullptr,
                                       const std::vector<int>* starts = nullptr);

// D = alpha * A * B + beta * C in double precision, rounded to float (same layout as above; a
// grouped plan's groups from `group_ends`, GroupTableOf's, and beta * C in the rows past the last
// group's end).
std::vector<float> ReferenceGemm(const Plan& plan, const EmulatorInputs& in,
                                 const int64_t* group_ends = nullptr);

}  // namespace streamk
