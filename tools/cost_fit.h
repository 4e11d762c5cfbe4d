// Fitting the planner's cost model to measured times (streamk-fit).
//
// streamk-bench --csv records, per shape and mode, the time and the plan that ran. Rebuilt with
// the planner (Replan), each row gives a (plan, time) pair; FitCosts then picks the cost
// constants that minimize the squared error of log(PredictMicros(plan)) against log(time), and
// ReplayAuto shows what auto would pick per shape under the fitted constants, and how fast that
// plan ran when it is among the measured ones.
//
//   streamk-fit --fit iter_us,epilogue_us,partial_us run1.csv run2.csv
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "streamk/device_spec.h"
#include "streamk/plan.h"

namespace streamk::tools {

// One row of a streamk-bench CSV: a shape (D rows x cols x k, as the bench names it), the mode
// asked for, the time, and the plan that ran.
struct Measurement {
  std::string set, name, layout, dtype, out_dtype, mode;
  int64_t m = 0, n = 0, k = 0;
  double time_us = 0;
  std::string plan_mode, reduction;
  int dp_tiles = 0, sk_tiles = 0, sk_blocks = 0, reduction_blocks = 0;
  int tile_m = 0, tile_n = 0;
  std::string repack;  // RepackName of the plan ("" also for CSVs from before the column)
};

// The rows of streamk-bench CSV `contents` that ran and passed (status "ok", not cuBLAS). Errors
// name `path` and the line.
absl::StatusOr<std::vector<Measurement>> ParseBenchCsv(const std::string& path,
                                                       const std::string& contents);

// The plan a measurement ran, rebuilt by the planner for `device` with the decomposition the row
// records. An error when the row's fields cannot be reproduced (a different planner or device).
// `predicted_us`, where given: the time PlanGemm predicts for it under `device` (copies included).
absl::StatusOr<Plan> Replan(const Measurement& row, const DeviceSpec& device,
                            double* predicted_us = nullptr);

// The cost constants FitCosts can vary, by their CostModel field names.
const std::vector<std::string>& CostFieldNames();
// The named field of `cost`; nullptr for an unknown name.
double* CostField(CostModel& cost, std::string_view name);

struct TimedPlan {
  Plan plan;
  double time_us = 0;
};

// Root mean square of log(predicted / measured) over `data`.
double LogRmsError(const std::vector<TimedPlan>& data, const CostModel& cost);

struct FitResult {
  CostModel cost;
  double rms_before = 0, rms_after = 0;
  int evaluations = 0;
};

// Least squares on log time over `fields` (each kept positive), by Nelder-Mead from `start`,
// restarted until it stops improving or `max_evaluations` objective evaluations are spent.
FitResult FitCosts(const std::vector<TimedPlan>& data, const CostModel& start,
                   const std::vector<std::string>& fields, int max_evaluations);

// What auto picks for one measured shape under a cost model, against the measured plans.
struct Replay {
  std::string set, name;
  int64_t m = 0, n = 0, k = 0;
  std::string pick;         // PlanName: "streamk 128x256 dp132+sk1/16 sep"
  double pick_us = 0;       // measured time of the picked plan (mean of its rows); 0: unmeasured
  double dp_us = 0;         // measured time of mode dp (0: none)
  double best_us = 0;       // fastest measured plan of the shape
  std::string best;         // and its description
  // The measured plan the model predicts fastest under the device's constants (the cost model's
  // argmin over the plans the run timed, without auto's rules), and its measured time.
  std::string argmin;
  double argmin_us = 0;
};

// The model of held SMs checked against streamk-bench --hold-sms: for each shape and streamk mode
// word ("auto", "auto+dynamic", ...) timed free and with X SMs held, the plan the mode makes under
// `device` (fp16, layout tn, as --hold-sms ran; skipped where it is not the plan the row records),
// its predicted time on sms - X running SMs over its time on all (PredictRunningMicros), and the
// measured ratio.
struct HeldCheck {
  std::string set, name, mode, plan;
  int64_t m = 0, n = 0, k = 0;
  int held = 0;
  double predicted = 0, measured = 0;  // held time over free time
};
struct ContentionReport;  // bench_report.h
std::vector<HeldCheck> CheckHeld(const ContentionReport& report, const DeviceSpec& device);

// One plan's DRAM reads as scripts/gpu_dram_bytes.sh measured them (Nsight Compute), against the
// bytes of A and B the cost model's memory floor counts for it (StreamKGemmBytes less D's) under
// the model of the plan's kernel configuration on `device` (streamk-fit --bytes).
struct BytesCheck {
  std::string shape, plan;  // as streamk-bench names them
  int sk_tiles = 0, sk_blocks = 0;
  double measured = 0, counted = 0;  // bytes
};
// Reads gpu_dram_bytes.sh's CSV (the columns by its header's names); a row whose numbers do not
// parse is an error naming its line.
absl::StatusOr<std::vector<BytesCheck>> CheckDramBytes(const std::string& csv,
                                                       const DeviceSpec& device);

// For every shape in `rows` (fp16 or bf16 as recorded, layout tn), auto's plan under `device`,
// and the measured plan the model under `device` predicts fastest.
std::vector<Replay> ReplayAuto(const std::vector<Measurement>& rows, const DeviceSpec& device);

// Whether row `r`'s shape is held out of a fit that holds out `share` (0-1) of the shapes: a fixed
// hash of M x N x K, so that the same shapes are held out on every machine and run.
bool HeldOut(const Measurement& r, double share);

// The constants FitDevice varies by default, where the start model has them (non-zero) and the
// rows can tell them apart (changing one changes some prediction): the time of an iteration alone
// and with every SM loading, the fixed costs of a launch, a tile and an epilogue, the Stream-K
// terms (partials written, peers read, reduction blocks) and the rate at which one SM streams a
// tile's bytes (a round of few tiles; its ring's depth sets it).
const std::vector<std::string>& PhysicalCostFields();

// One kernel configuration's fit (FitDevice): rms error of log time on the shapes fitted and on
// those held out, with the start's constants and with the fitted ones.
struct ConfigurationFit {
  std::string name;  // its role's name (KernelRoleName)
  TileShape tile;
  std::vector<std::string> fields;
  int fit_rows = 0, held_rows = 0;
  double fit_before = 0, fit_after = 0, held_before = 0, held_after = 0;
  // On the held-out shapes, the rms of each of this configuration's plans' log error less the
  // mean log error of all the shape's plans: how far the model misorders plans of one shape,
  // which is what the planner's argmin reads.
  double held_rank_before = 0, held_rank_after = 0;
};
struct DeviceFit {
  DeviceSpec device;  // the start, with every fitted configuration's constants
  std::vector<ConfigurationFit> configurations;
  // Rows given, rows whose plan did not rebuild, and rows left out as plans auto does not weigh
  // (split-K past one resident round of blocks, the 64 x 128 configuration past one round).
  int rows = 0, not_rebuilt = 0, outside_auto = 0;
  double holdout_share = 0;
  // Auto replayed on the held-out shapes (ReplayAuto) under the start's constants and the fitted
  // ones: on how many of held_shapes its pick was among the measured plans, and the geometric
  // mean of the measured time of its pick over the fastest measured plan, over the held_compared
  // shapes where both models' picks were measured.
  double held_regret_before = 0, held_regret_after = 0;
  int held_shapes = 0, held_measured_before = 0, held_measured_after = 0, held_compared = 0;
  // The same for the model's argmin over the measured plans (Replay::argmin), on the held-out
  // shapes where it was found under both.
  double held_argmin_before = 0, held_argmin_after = 0;
  int held_argmin_compared = 0;
};
// Fits each kernel configuration of `start` that has rows (rows of its tile) on the shapes not
// held out: `fields` (empty: PhysicalCostFields()) by least squares on log time (FitCosts), each
// configuration apart. (Fitting them together for the ranking within each shape instead, the
// error of each plan less its shape's mean error, left the held-out ranking error where this
// fit leaves it on an H100's calibration: 0.107-0.132 against 0.109-0.137 on the three
// configurations the planner splits and streams.) The calibration of a device profile (streamk-bench --calibrate,
// streamk-fit --fit_all).
DeviceFit FitDevice(const std::vector<Measurement>& rows, const DeviceSpec& start,
                    double holdout_share, int max_evaluations,
                    const std::vector<std::string>& fields = {});
// The fit as a table, and as the "calibration" object of a device profile (JSON).
std::string FormatDeviceFit(const DeviceFit& fit);
std::string DeviceFitJson(const DeviceFit& fit, const std::string& command);

}  // namespace streamk::tools
