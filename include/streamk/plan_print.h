// One way to print a Plan, used by streamk-plan, logs and test failures alike: a multi-line text
// report (FormatPlan), a JSON object (PlanToJson), and one line (PlanSummary) behind operator<<
// (gtest messages, logs) and AbslStringify (absl::StrCat with Abseil 2023 and newer).
//
//   streamk::PlanExplanation why;
//   auto plan = streamk::MakePlan(problem, streamk::H200Spec(), {}, &why);
//   std::cout << streamk::FormatPlan(*plan, &why);
#pragma once

#include <ostream>
#include <string>

#include "streamk/device_spec.h"
#include "streamk/plan.h"
#include "streamk/planner.h"

namespace streamk {

// Human-readable report: problem, tiles and waves, the decomposition, grid, workspace and (when
// `why` is given) the candidates with predicted times, the ways weighed for misaligned rows and
// the reason.
std::string FormatPlan(const Plan& plan, const PlanExplanation* why = nullptr,
                       const std::string& device_name = "");

// One JSON object with every Plan field plus, when `why` is given, "predicted_us", "reason" and
// "candidates": [{"name", "mode", "dp_tiles", "sk_tiles", "sk_blocks", "splits", "reduction",
// "predicted_us", "feasible", "note"}] and "rows_options": [{"name", "plan", "estimated_us",
// "load_floor_us", "copies_us", "chosen"}] (misaligned rows; empty otherwise), and when
// `epilogue` is not empty, "epilogue" (streamk-plan: DescribeOutputWrites' line).
std::string PlanToJson(const Plan& plan, const PlanExplanation* why = nullptr,
                       const std::string& device_name = "", const std::string& epilogue = "");

// The plan as an SVG timeline: persistent blocks down, the cost model's predicted time across;
// DP tiles, Stream-K k-slices coloured by tile (peers of a tile share a colour), waits for peers,
// partial-sum traffic and reduction blocks. The title gives the planner's prediction, as
// FormatPlan prints it (`why`'s, operand copies included; without `why`, PredictMicros). The
// timeline places each piece at the same per-piece costs, with waits for peers but without each
// round's rate, the memory floor or copies; where it ends elsewhere, a note under the axis says
// where.
std::string PlanToSvg(const Plan& plan, const CostModel& cost, const PlanExplanation* why = nullptr,
                      const std::string& device_name = "");

// How a launch of `plan` writes D, one line for streamk-plan's report: D row-major in rows of
// `ldd` elements of `output` on a 16-byte aligned allocation (C alike where beta != 0), on the
// sm_90a TMA kernel (`tma_kernel`) or the portable ones. It names the path gemm()'s launch takes
// (TensorColumnsOf and RowsOf in kernels/tma_operands.h) and why; where D's layout costs speed, it
// says what would not.
std::string DescribeOutputWrites(const Plan& plan, DType output, float beta, int64_t ldd,
                                 bool tma_kernel);

// One line: "mode=streamk m=1536 n=1536 k=4096 tiles=144 dp_tiles=0 sk_tiles=144 ...".
std::string PlanSummary(const Plan& plan);

// The operands the plan repacks (Plan::repack_a, repack_b): "", "a", "b" or "ab" (PlanSummary's
// repack=, streamk-bench's CSV column and plan names).
std::string RepackName(const Plan& plan);

// How the plan printout and the planner's reason name a set of operands: "A and B", "A" or "B"
// (at least one of a, b).
const char* OperandsName(bool a, bool b);

std::ostream& operator<<(std::ostream& os, const Plan& plan);

template <typename Sink>
void AbslStringify(Sink& sink, const Plan& plan) {
  sink.Append(PlanSummary(plan));
}

}  // namespace streamk
