// streamk-bench's results and their renderings: the stdout table with per-set summaries
// (geometric mean, min, max of auto's speedup over dp and of its ratio to cuBLAS, worst shapes),
// CSV, JSON and an SVG chart. Host-only and GPU-free, so the CPU tests cover it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "shape_sets.h"
#include "streamk/plan.h"
#include "streamk/planner.h"
#include "streamk/streamk.h"

namespace streamk::tools {

struct ModeResult {
  std::string mode;    // "auto", "dp", "splitk", "splitk:4", "streamk", "cublas"
  std::string status;  // "ok", "WRONG" (not timed), "ERROR"
  // Median time per launch, microseconds: the GPU's time from CUDA graph replays where the run
  // timed them (--timing both or graph), else back-to-back launches' time.
  double us = 0;
  double spread = 0;   // (max - min) / median over the repetitions
  double tflops = 0;
  double error = 0;  // relative Frobenius error against cuBLAS
  std::string note;
  std::optional<Plan> plan;  // streamk modes
  // The planner's prediction for `plan` (PlanExplanation::predicted_us, operand copies
  // included); 0: none (cuBLAS, or a mode the planner refused).
  double predicted_us = 0;
  // Where the run timed both ways: the median per launch of back-to-back launches (the host's
  // launch pace included), microseconds; 0: not timed that way too.
  double launches_us = 0;
};

struct ShapeResult {
  BenchShape shape;
  std::optional<Plan> auto_plan;
  std::optional<PlanExplanation> auto_why;  // what the planner weighed for auto (JSON)
  std::vector<ModeResult> modes;
  std::string error;  // the shape could not run at all

  const ModeResult* Find(const std::string& mode) const;
  // t(other) / t(auto) when both timed (> 1: auto is faster).
  std::optional<double> AutoSpeedupOver(const std::string& other) const;
  // Whether auto and `other` ran the same plan (SamePlan), so that their ratio is the timing's
  // noise, not the planner's choice; false where either has no plan (cuBLAS).
  bool AutoRanThePlanOf(const std::string& other) const;
};

struct BenchReport {
  std::string gpu, dtype, out_dtype, layout;
  std::string versions;  // driver, runtime and cuBLAS versions
  int sms = 0, occupancy = 0;
  std::string mainloop;  // the kernels' mainloop, e.g. "sm90a (wgmma)"; empty: not recorded
  std::string timing;    // how the times were taken (e.g. "CUDA graph replays"); empty: unknown
  // The tile (kernel orientation, "128x256x64") whose counts the waveq set's shapes are a few
  // past whole waves of; `dp/` with it runs them data-parallel on that tile alone. Empty: no
  // waveq set.
  std::string waveq_tile;
  std::vector<std::string> modes;
  std::vector<ShapeResult> rows;
};

struct RatioSummary {
  int count = 0;
  double geomean = 0, min = 0, max = 0;
  std::string min_shape, max_shape;
};

// Summary of AutoSpeedupOver(other) over the rows of `set` ("" for all rows); with
// `differing_plans`, only over the rows where auto ran another plan than `other`
// (!AutoRanThePlanOf): the rows where the planner's choice, not noise, sets the ratio.
RatioSummary Summarize(const BenchReport& r, const std::string& set, const std::string& other,
                       bool differing_plans = false);

// Summary of t(other) / t(auto) over back-to-back launches (ModeResult::launches_us) where the
// run timed both ways.
RatioSummary SummarizeLaunches(const BenchReport& r, const std::string& set,
                               const std::string& other);

// Summary of measured / predicted time of `mode` (ModeResult::predicted_us) over the rows of
// `set` ("" for all rows) whose `mode` was timed and predicted: > 1, slower than predicted.
RatioSummary SummarizePrediction(const BenchReport& r, const std::string& set,
                                 const std::string& mode);

// "dp 128x256", "streamk 128x128 dp0+sk144/132", "streamk 128x256 dp132+sk1/16 sep": mode, tile
// and the Stream-K shape, as the table's plan column names it; " repack-" and RepackName
// (plan_print.h) end the name of a plan that repacks.
std::string PlanName(const Plan& p);

// Whether two plans launch the same work: every field PlanSummary prints, the raster and the
// swizzle. Plans read back from a CSV (FromCsv) hold only its columns and compare on those.
bool SamePlan(const Plan& a, const Plan& b);

// A streamk-bench --modes word: cuBLAS, or the options of a streamk mode (ParseModes).
struct ModeSpec {
  std::string name;
  bool cublas = false;
  // "argmin": the cost model's own pick per shape (ModelArgmin, model_argmin.h), run as forced
  // options; `options` carries the schedule and SMs the word set.
  bool argmin = false;
  Options options;
};

// The --modes words, each parsed (the grammar is in the definition); InvalidArgument naming the
// word and what it expects.
absl::StatusOr<std::vector<ModeSpec>> ParseModes(const std::vector<std::string>& words);

// --hold-sms: each mode's time on each shape with `held` of the GPU's SMs held by another kernel
// (SmHolder, device_util.h), held == 0 being the free GPU's.
struct HeldTiming {
  BenchShape shape;
  std::string mode;
  int held = 0;
  double us = 0;         // median per launch; 0: not timed (note says why)
  bool gave_up = false;  // the hold ended before the timing did: us is not under contention
  std::string plan;      // PlanName of the mode's plan (empty for cuBLAS)
  std::string note;
};

struct ContentionReport {
  std::string gpu, timing;
  int sms = 0;
  std::vector<int> held;  // the held counts measured besides 0, in order
  std::vector<std::string> modes;
  std::vector<HeldTiming> rows;
};

// Per shape and mode: the free time, then for each held count the time, its ratio to the free
// time and that ratio over the ideal sms / (sms - held); then per held count and mode the
// geometric mean and the worst of that last ratio, and each mode's speed against cuBLAS under the
// same contention (cuBLAS time / the mode's; > 1: faster than cuBLAS).
std::string FormatContention(const ContentionReport& r);
// The timing of (shape, mode, held) in `r`, or nullptr.
const HeldTiming* FindHeld(const ContentionReport& r, const BenchShape& shape,
                           const std::string& mode, int held);
// One line per (shape, mode, held): set,name,m,n,k,mode,held,us,free_us,ideal,gave_up,plan,note.
std::string ContentionToCsv(const ContentionReport& r);
// Reads ContentionToCsv's output back, to re-summarize a run without a GPU (streamk-bench --replot
// hold.csv); the SM count comes from the ideal column, the GPU and timing are not in the CSV.
absl::StatusOr<ContentionReport> ContentionFromCsv(const std::string& csv);

std::string FormatTable(const BenchReport& r);
std::string ToCsv(const BenchReport& r);
// Reads ToCsv's output back (times, statuses, errors, predictions and the plans' CSV columns), to
// redraw or re-summarize a run without a GPU: streamk-bench --replot FILE.csv --svg out.svg.
absl::StatusOr<BenchReport> FromCsv(const std::string& csv);

// Two runs of the same shapes compared (streamk-bench --compare BEFORE.csv,AFTER.csv): for
// `mode`, per set, the geometric mean of after's speed over before's, where both runs timed cuBLAS
// each normalized by it (cuBLAS's time over the mode's, which takes out the card's drift between
// runs), else raw; the same over the shapes whose plan differs; and those shapes, slowest first.
// A build against the build before it, or auto with a device profile against the built-in model.
std::string CompareRuns(const BenchReport& before, const BenchReport& after,
                        const std::string& mode = "auto");
// The planner's gates over a run that timed, per shape, auto, cuBLAS and every streamk plan auto
// may pick (each kernel configuration's dp/, splitk/, streamk/ and streamk-tail/ modes): per set,
// over the shapes where auto and cuBLAS were timed (streamk-bench --gates FILE.csv).
struct GateSummary {
  std::string set;
  int shapes = 0;
  double auto_over_cublas = 0;  // geometric mean of cuBLAS's time over auto's
  double best_over_cublas = 0;  // the same for the fastest streamk plan per shape
  // Auto's regret: its time over the fastest measured streamk plan's (geometric mean, worst).
  double regret = 0, worst_regret = 0;
  std::string worst_regret_shape;
  // The same for the plan the run's own predictions rank first among the measured ones: what
  // the model's argmin over these candidates would have run.
  double argmin_regret = 0, worst_argmin_regret = 0;
  std::string worst_argmin_shape;
  double worst_auto_over_dp = 0;  // auto's time over mode dp's, the worst shape (0: no dp)
  std::string worst_dp_shape;
  // Where the run timed mode argmin (the model's own pick): its time over auto's, geometric mean
  // and range over those shapes (argmin_shapes of them; 0: none timed).
  int argmin_shapes = 0;
  double argmin_over_auto = 0, least_argmin_over_auto = 0, most_argmin_over_auto = 0;
  std::string least_argmin_shape, most_argmin_shape;
  // Predicted against measured time over the distinct plans of a shape: Spearman's rank
  // correlation (median over the shapes with three or more plans; rank_shapes of them), and the
  // median of |predicted / measured - 1| over every plan.
  double rank_median = 0, abs_error_median = 0;
  int rank_shapes = 0, plans = 0;
};
std::vector<GateSummary> SummarizeGates(const BenchReport& r);
std::string FormatGates(const std::vector<GateSummary>& gates);

std::string ToJson(const BenchReport& r);
// `x` rounded to `decimals` places, as the tools write figures into JSON (nlohmann/json writes a
// value that is not finite as null).
double RoundedTo(double x, int decimals);
std::string ToSvg(const BenchReport& r);

}  // namespace streamk::tools
