// The Stream-K planner: a pure function from (problem, device model, options) to a Plan. Same
// inputs, same plan, on any machine. The decision for a shape can be printed (plan_print.h) with
// the candidates the planner weighed and why the winner won.
//
//   streamk::Problem problem{1536, 1536, 4096};  // m, n, k
//   absl::StatusOr<streamk::Plan> plan =
//       streamk::MakePlan(problem, streamk::H200Spec(), streamk::PlanOptions{});
//   // plan->mode == Mode::kStreamK, plan->sk_tiles == 144, ...
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "streamk/device_spec.h"
#include "streamk/plan.h"
#include "streamk/types.h"

namespace streamk {

// What is being multiplied: D[batch] (m x n) = A[batch] (m x k) * B[batch] (k x n).
struct Problem {
  int64_t m = 0, n = 0, k = 0;
  int64_t batch = 1;
  DType input = DType::kF16;   // A and B
  DType output = DType::kF16;  // C and D
  // How the kernel finds A (m x k) and B (k x n) in memory, after the transpose that makes D
  // row-major: major dimension and the alignment of their rows (OperandLayout). An operand whose
  // rows start at odd multiples of 16 bytes loads slowly, one under 16 bytes is always copied,
  // and M- or N-major ones narrower than a line pace their loads by requests; the cost model
  // prices each, and auto weighs copying an operand to K-major rows where that pays. PlanGemm
  // sets these from the arguments.
  OperandLayout a, b;
  // Whether the TMA kernel's epilogue can store D as a tensor (kernels::TensorColumnsOf > 0:
  // D's rows, and C's with beta != 0, start 16-byte aligned, and with beta != 0 hold whole
  // 16-byte chunks). Its ping-pong variant needs it (kernels::PingPongOf), and the cost model
  // prices ping-pong only then (CostModel::pingpong_hidden_us). PlanGemm sets it.
  bool d_tma_store = true;
  // Whether the epilogue reads C (beta != 0). The 128 x 320 configuration stores D by TMA only
  // for a 16-bit D without C (kernels::TmaStoresOf); otherwise its own threads store it, whose
  // cost auto weighs by that tile's depth (PlanFourTiles). PlanGemm sets it.
  bool reads_c = false;
  // Whether D's rows, and C's where it is read, start 16-byte aligned (address, leading dimension
  // and batch stride): the epilogue then stores whole 16-byte vectors (kernels::StoreDOf).
  // PlanGemm sets it.
  bool cd_rows_aligned = true;
  // A grouped GEMM (grouped_gemm; 0: an ordinary one): `groups` groups, group g owning
  // group_rows[g] of the m rows of A and D (stacked in group order; they sum to m), each with its
  // own k x n matrix of B; batch is 1. The planner prices the groups' own tile rows
  // (Plan::groups). group_rows is read during MakePlan only; null: the rows are not known when
  // planning (group ends on the device), m is a bound on their sum, and the plan holds the most
  // tile rows any split of m rows over the groups makes (TileRows).
  int64_t groups = 0;
  const int64_t* group_rows = nullptr;
};

// Whether an M- or N-major operand (OperandLayout::mn_major) with `extent` 16-bit elements along m
// or n (A's m, B's n) is narrow: rows of fewer than kLineRowBytes bytes, whose loads pace a
// k-iteration.
constexpr bool NarrowMnExtent(int64_t extent) { return extent * 2 < kLineRowBytes; }

// Whether a Problem's or a Plan's A ('a') or B ('b') is a narrow M- or N-major operand.
template <typename ProblemOrPlan>
bool NarrowMn(const ProblemOrPlan& p, char operand) {
  return operand == 'a' ? p.a.mn_major() && NarrowMnExtent(p.m)
                        : p.b.mn_major() && NarrowMnExtent(p.n);
}

// Whether a Problem's or a Plan's A ('a') or B ('b') is an M- or N-major operand that is not narrow
// and whose k-rows start at odd multiples of 16 bytes (OperandLayout::mn_rows_misaligned): the L2
// serves its loads as slowly as misaligned K-major rows.
template <typename ProblemOrPlan>
bool WideMnMisaligned(const ProblemOrPlan& p, char operand) {
  return (operand == 'a' ? p.a.mn_rows_misaligned() : p.b.mn_rows_misaligned()) &&
         !NarrowMn(p, operand);
}

// The most groups a grouped GEMM may have (Problem::groups, GroupedGemmArgs::groups): the launch
// hands their row ends to the kernel that writes the group table by value.
inline constexpr int64_t kMaxGroups = 1024;

inline constexpr int kPartialWaveTiles = -1;  // PlanOptions::sk_tiles

// PlanOptions::sk_tiles from its command-line spelling: a positive count, or "tail" for
// kPartialWaveTiles; nullopt for anything else.
std::optional<int> ParseSkTiles(std::string_view s);

// A tile from its spelling BMxBNxBK ("128x256x64"); nullopt for anything else. TileShapeName is
// the inverse.
std::optional<TileShape> ParseTileShape(std::string_view s);
std::string TileShapeName(const TileShape& tile);

struct PlanOptions {
  Mode mode = Mode::kAuto;
  int splits = 0;  // kSplitK: k-slices per tile (0: the planner picks); other modes: must be 0
  int blocks = 0;  // kStreamK: Stream-K blocks (0: the planner picks); other modes: must be 0
  // kStreamK: the tiles Stream-K blocks compute (the first ones; the rest run data-parallel after
  // them on the same persistent blocks). 0: all tiles; kPartialWaveTiles: the partial wave's,
  // tiles % SMs (none, so data-parallel, when the tiles fill whole waves). Other modes: must be 0.
  int sk_tiles = 0;
  // Unset: deterministic, by the finishing block or, where the planner predicts it pays, by a
  // separate reduction wave. Set: exactly that strategy.
  std::optional<Reduction> reduction;
  // Separate reduction only: reduction blocks per Stream-K tile, each summing and finishing
  // tile_n / reduction_slices columns (0: the planner picks; else must leave slices of a multiple
  // of 8 columns). Other strategies: must be 0.
  int reduction_slices = 0;
  int avail_sms = 0;  // SMs to balance over; 0: all of the device's
  // kNoTile: the planner's pick among the device's kernel configurations (DeviceSpec::kernels):
  // the main one's, or, where the device has more, the 128 x 128 (KernelRole::kAlt) one's where
  // predicted faster for the shape, and for data-parallel plans the 128 x 192, 192 x 192 or
  // 128 x 320 ones' (kMid, kWide, kBroad; the last where one round of its tiles holds the
  // problem) where predicted clearly faster still: the fastest of those that clear their margins
  // (docs/planner.md); the 64 x 128 one's (kSmall) where one round of it holds the problem.
  // The cluster configuration is weighed by auto for misaligned rows only.
  TileShape tile = kNoTile;
  // Operands with misaligned rows (OperandLayout::rows_misaligned) or narrow
  // M- or N-major ones (NarrowMnExtent), copied to aligned K-major rows before the kernel
  // (Plan::repack_a, repack_b). Unset: with mode kAuto, the one or both whose copies the planner
  // estimates pay for themselves most (RepackMicros, LoadFloorMicros,
  // CostModel::narrow_mn_iter_us); with a forced mode, none. Set: those named (kAll: every such
  // operand), however small the gain. Unaligned operands (OperandLayout::unaligned) are copied
  // whatever this says: the kernel cannot load them otherwise.
  std::optional<RepackOperands> repack;
  // Bytes of workspace (Plan::workspace_bytes) the plan may use; 0: no cap. With mode kAuto and
  // repack unset, a pick that needs more gives way to data-parallel's pick without optional
  // copies (which needs none beyond copies of unaligned operands); anything else that needs
  // more is refused with ResourceExhausted naming the cap.
  int64_t max_workspace_bytes = 0;
  // How the persistent blocks get their work blocks (Plan::schedule). Unset: the plan priced for
  // every SM, claimed from a counter (kDynamic), off 2-SM clusters, where its blocks wait on one
  // another (Stream-K and split-K partial sums), so that the launch needs no co-residency and no
  // block waits for one that has not started, and where its blocks run more than one work block
  // (data-parallel rounds), so that a block that starts late leaves its share to the others,
  // unless the static plan is priced faster (ping-pong runs static plans only) or the counter's
  // flags region does not fit max_workspace_bytes; static elsewhere (one round of data-parallel
  // tiles needs no workspace). kStatic: always static. kDynamic weighs the same candidates without
  // the cluster configuration (a forced cluster tile is refused), each as it runs with some SMs
  // held (kHeldShares), and gives every plan a workspace for its counter.
  std::optional<Schedule> schedule;
  // The TMA kernel's 128 x 128 ping-pong variant (Plan::pingpong). Unset: where the cost model
  // prices it (kernels::PingPongOf's rule: data-parallel blocks of 2 tiles or more, 8-24
  // k-iterations, K-major rows on 128-byte lines, D stored by TMA); true: every plan that can
  // run it; false: never.
  std::optional<bool> pingpong;
  // Narrow wgmmas for tiles with few of D's columns (Plan::narrow_wgmma); false runs every tile
  // the whole width, and the cost model prices it so.
  bool narrow_wgmma = true;
  // How the TMA kernel's epilogue writes D (Plan::store_d). Unset: kernels::StoreDOf's pick. A
  // path the plan cannot take (TMA stores of a D whose rows are not 16-byte aligned, row copies
  // with C, the copying warp with an fp32 D, the 128x320 tile's rows, anything but kThreads on
  // another mainloop) is refused with InvalidArgument.
  std::optional<StoreD> store_d;
};

// One decomposition the planner weighed.
struct Candidate {
  std::string name;  // "dp", "splitk", "streamk"
  Mode mode = Mode::kDataParallel;
  int dp_tiles = 0, sk_tiles = 0, sk_blocks = 0;
  int splits = 0;  // split-K only
  Reduction reduction = Reduction::kDeterministic;
  int reduction_slices = 0;  // kSeparate: reduction blocks per tile
  double predicted_us = 0;
  bool feasible = true;
  std::string note;  // why it is shaped so, or why infeasible
};

// One way to run operands whose K-major rows are misaligned (OperandLayout::rows_misaligned) that
// the planner weighed: the rows as they are, one or both operands copied to aligned rows first, or
// the cluster configuration. Each is estimated the same way: its plan's prediction for aligned rows
// against the L2's time for the loads it leaves misaligned (LoadBoundMicros of PredictMicros and
// LoadFloorMicros), plus its copies (RepackMicros).
struct RowsOption {
  std::string name;          // "rows as they are", "A and B repacked", "B repacked", "clusters"
  std::string plan;          // its decomposition and tile: "dp 128x256x64"
  double estimated_us = 0;   // copies included
  double load_floor_us = 0;  // the L2's time for the loads left misaligned (0: none left)
  double copies_us = 0;
  bool chosen = false;
  // Whether it leaves a narrow M- or N-major operand as it is (NarrowMnExtent), whose loads its
  // estimate prices per iteration (CostModel::narrow_mn_iter_us).
  bool narrow_loads = false;
};

struct PlanExplanation {
  std::vector<Candidate> candidates;
  int chosen = -1;     // index into candidates
  std::string reason;  // one sentence: why the winner won
  // The plan's, operand copies included. For rows left misaligned, the estimate of RowsOption
  // (the candidates' predictions price misaligned loads per iteration, which ranks
  // decompositions but reads 1.4-1.6x high: 4096 x 4096 x 4104 predicted 430 us, ran 307 on an
  // H200).
  double predicted_us = 0;
  double repack_us = 0;     // of which the operand copies (Plan::repack_a, repack_b)
  // Misaligned rows: the ways the planner weighed, in the order it weighed them. Auto weighs
  // copies, and with the tile free clusters; otherwise the rows as they are are the one entry,
  // or they and the copies PlanOptions::repack forces.
  std::vector<RowsOption> rows_options;
  // false: MakePlan formats no notes or reasons (they are left empty or partial; the plan, the
  // candidates' names, modes, counts and predictions, `chosen` and the predictions are filled in
  // as with text), which plans faster. The planner's own layers plan so where none was asked for.
  bool text = true;
};

// The device-independent checks of MakePlan on options alone: mode / splits / blocks /
// reduction contradictions and negative counts.
absl::Status ValidatePlanOptions(const PlanOptions& options);

// Validates and plans. InvalidArgument names the argument and the rule it broke.
absl::StatusOr<Plan> MakePlan(const Problem& problem, const DeviceSpec& device,
                              const PlanOptions& options = {});

// As MakePlan, and records the candidates and the reason in *why (when not null).
absl::StatusOr<Plan> MakePlan(const Problem& problem, const DeviceSpec& device,
                              const PlanOptions& options, PlanExplanation* why);

// The cost model's predicted time of a plan on `device`, microseconds.
double PredictMicros(const Plan& plan, const CostModel& cost);

// A dynamic plan's predicted time when only `running_sms` of its avail_sms SMs run it (the others
// held by other kernels): the same work blocks handed out in the same order over that many
// blocks, priced by the same model (PredictMicros), their iterations at the L2 and memory
// contention of that share of the SMs busy. running_sms >= avail_sms: PredictMicros. Checked
// against streamk-bench --hold-sms measurements by streamk-fit --held.
double PredictRunningMicros(const Plan& plan, const CostModel& cost, int running_sms);

// The shares of the SMs a dynamic plan is chosen to run well without: 0, 1/8, 1/4 and 1/2 (on 132
// SMs, 0, 16, 33 and 66 held). Among its candidates (MakePlan), a dynamic schedule in auto mode
// takes the one whose worst time over these, each against the ideal avail_sms / (avail_sms -
// held) times the free pick's time, is least, where it beats the free pick's by the model's
// margin (docs/planner.md, "Schedule").
inline constexpr double kHeldShares[] = {0.0, 0.125, 0.25, 0.5};

// Whether `plan` claims its work from the counter only because `schedule` (PlanOptions::schedule
// or Options::schedule) was left to the default, with no Stream-K blocks: its static plan runs
// the same kind of tiles without the counter's workspace. Where that workspace cannot be had (over
// max_workspace_bytes; gemm() captured on a stream whose library workspace would have to grow),
// the static plan runs instead.
inline bool StaticWouldDo(const Plan& plan, const std::optional<Schedule>& schedule) {
  return !schedule.has_value() && plan.schedule == Schedule::kDynamic && plan.sk_blocks == 0;
}

// The cost model of the kernel configuration that runs `plan` on `device`: the constants of the
// configuration (DeviceSpec::kernels) whose tile the plan runs, the main one's otherwise.
const CostModel& KernelCost(const DeviceSpec& device, const Plan& plan);

// Bytes of the copy of the plan's A ('a') or B ('b') with rows Plan::repack_ld apart, every batch
// entry (Plan::repack_a).
int64_t RepackedBytes(const Plan& plan, char operand);

// The time the L2 needs to serve the plan's operand loads (every iteration's tile_m x tile_k of
// A and tile_n x tile_k of B) when every SM loads, at CostModel::l2_load_bytes_per_us, or at
// misaligned_l2_load_bytes_per_us for an operand whose rows are misaligned (0 where the model
// has neither rate). Loads of misaligned rows are bound by it: they run at 5.4 TB/s on an H200.
double LoadFloorMicros(const Plan& plan, bool a_misaligned, bool b_misaligned,
                       const CostModel& cost);

// A misaligned plan's estimate from its aligned prediction and its L2 floor (LoadFloorMicros): a
// little over the longer of the two where they are close, the longer where they are not.
double LoadBoundMicros(double compute_us, double load_us);

// Predicted microseconds of copying A (a), B (b) or both to aligned rows before the kernel:
// CostModel::repack_us plus the bytes read and written at repack_bytes_per_us (infinite where
// that is 0; 0 for neither), whether the copy transposes an M- or N-major operand or not.
double RepackMicros(const Problem& problem, bool a, bool b, const CostModel& cost);

}  // namespace streamk
