// The plan printers: the text report names every decision, the JSON has the documented keys.
#include "streamk/plan_print.h"

#include <cmath>
#include <string>
#include <tuple>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "streamk/planner.h"
#include "tma_operands.h"

namespace streamk {
namespace {

using Json = nlohmann::ordered_json;

TEST(PlanPrint, TextReportShowsDecisionsAndCandidates) {
  Problem pr;
  pr.m = 2560, pr.n = 5120, pr.k = 8192;  // 400 tiles of 128x256: the two-tile hybrid
  PlanExplanation why;
  absl::StatusOr<Plan> p = MakePlan(pr, H200Spec(), {}, &why);
  ASSERT_TRUE(p.ok());
  const std::string text = FormatPlan(*p, &why, "H200");
  for (const char* word : {"tiles       400", "waves", "dp tiles", "sk tiles", "region",
                           "iterations", "peers", "reduction", "grid", "workspace", "candidates",
                           "dp ", "splitk", "streamk", "reason", "predicted"}) {
    EXPECT_NE(text.find(word), std::string::npos) << "missing '" << word << "' in\n" << text;
  }
  EXPECT_NE(text.find("* streamk"), std::string::npos) << text;  // the winner is marked
}

// The SVG's title reads the prediction the text report prints. Where its own timeline ends
// elsewhere (4096^3 data-parallel: the timeline runs every round at one rate, the prediction
// prices the last round's), a note under the axis gives both; where they agree, no note.
TEST(PlanPrint, SvgTitleIsThePlannersPrediction) {
  Problem pr;
  pr.m = pr.n = pr.k = 4096;
  PlanExplanation why;
  absl::StatusOr<Plan> p = MakePlan(pr, H200Spec(), {}, &why);
  ASSERT_TRUE(p.ok());
  const DeviceSpec h200 = H200Spec();
  const CostModel& cost = KernelCost(h200, *p);
  const std::string predicted = absl::StrFormat("predicted %.1f us", why.predicted_us);
  EXPECT_NE(FormatPlan(*p, &why, "H200").find(predicted), std::string::npos);
  const std::string svg = PlanToSvg(*p, cost, &why, "H200");
  EXPECT_NE(svg.find(absl::StrCat("plan, ", predicted, " on H200</text>")), std::string::npos)
      << svg.substr(0, 800);
  const size_t note = svg.find("Timeline: each piece at the cost model's rates");
  ASSERT_NE(note, std::string::npos);
  EXPECT_NE(svg.find(absl::StrFormat("The prediction (%.1f us)", why.predicted_us), note),
            std::string::npos);
  // Without the explanation: PredictMicros, the same number for this plan (no copies).
  EXPECT_NE(PlanToSvg(*p, cost).find(absl::StrCat("plan, ", predicted, "</text>")),
            std::string::npos);
  // One deep tile split over 16 blocks, reduced in 16 column slices: each slice waits for the
  // tile's partials, and the note is left out since the timeline ends at the prediction.
  pr.m = pr.n = 128, pr.k = 65536;
  PlanOptions sixteen;
  sixteen.mode = Mode::kSplitK;
  sixteen.splits = 16;
  sixteen.reduction = Reduction::kSeparate;
  sixteen.tile = H200Spec().TileOf(KernelRole::kAlt);
  p = MakePlan(pr, H200Spec(), sixteen, &why);
  ASSERT_TRUE(p.ok());
  ASSERT_EQ(p->reduction_slices, 16) << PlanSummary(*p);
  const std::string split = PlanToSvg(*p, KernelCost(H200Spec(), *p), &why);
  EXPECT_NE(split.find(absl::StrFormat("predicted %.1f us", why.predicted_us)), std::string::npos);
  EXPECT_EQ(split.find("Timeline:"), std::string::npos);
  EXPECT_NE(split.find("reduces 16 partials of tile 0, columns 120..127"), std::string::npos);
  EXPECT_EQ(split.find("of tile 1"), std::string::npos);  // slices are not tiles
}

// Under ping-pong the timeline hides each data-parallel tile's epilogue but a block's last, as the
// prediction does (CostModel::pingpong_hidden_us), so the two end together and the subtitle says
// ping-pong; priced without it, they end together too, later.
// A dynamic plan's drawing says that the blocks' order is decided at run time.
TEST(PlanPrint, SvgSaysADynamicPlanIsDrawnInStaticOrder) {
  const DeviceSpec dev = H200Spec();
  Problem pr;
  pr.m = 1536, pr.n = 1536, pr.k = 4096;
  PlanOptions o;
  o.schedule = Schedule::kDynamic;
  absl::StatusOr<Plan> p = MakePlan(pr, dev, o);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_NE(PlanToSvg(*p, KernelCost(dev, *p)).find("dynamic schedule, drawn in static order"),
            std::string::npos);
  o.schedule = Schedule::kStatic;
  p = MakePlan(pr, dev, o);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(PlanToSvg(*p, KernelCost(dev, *p)).find("dynamic schedule"), std::string::npos);
}

TEST(PlanPrint, SvgTimelineHidesPingPongEpilogues) {
  Problem pr;
  pr.m = 4224, pr.n = 3072, pr.k = 1024;  // 792 tiles of 128 x 128: six a block, every SM busy
  PlanOptions dp;
  dp.mode = Mode::kDataParallel;
  dp.tile = {128, 128, 64};
  absl::StatusOr<Plan> p = MakePlan(pr, H200Spec(), dp);
  ASSERT_TRUE(p.ok());
  CostModel cost = KernelCost(H200Spec(), *p);
  ASSERT_GT(cost.pingpong_hidden_us, 0);
  for (bool pingpong : {true, false}) {
    if (!pingpong) cost.pingpong_hidden_us = cost.pingpong_iter_loss = 0;
    const std::string svg = PlanToSvg(*p, cost);
    EXPECT_NE(svg.find(absl::StrFormat("predicted %.1f us</text>", PredictMicros(*p, cost))),
              std::string::npos)
        << svg.substr(0, 800);
    EXPECT_EQ(svg.find("Timeline:"), std::string::npos) << pingpong;
    EXPECT_EQ(svg.find("reduction deterministic, ping-pong</text>") != std::string::npos,
              pingpong);
  }
}

TEST(PlanPrint, JsonHasTheDocumentedKeys) {
  Problem pr;
  pr.m = 1536, pr.n = 1536, pr.k = 4096;
  PlanExplanation why;
  absl::StatusOr<Plan> p = MakePlan(pr, H200Spec(), {}, &why);
  ASSERT_TRUE(p.ok());
  const std::string json = PlanToJson(*p, &why, "H200");
  const Json j = Json::parse(json);
  for (const char* key : {"mode", "tiles", "dp_tiles", "sk_tiles", "sk_blocks", "sk_regions",
                          "reduction_blocks", "grid_blocks", "iters_per_tile", "workspace_bytes",
                          "a", "b", "predicted_us", "candidates"}) {
    EXPECT_TRUE(j.contains(key)) << "missing key " << key << " in " << json;
  }
  EXPECT_EQ(j["sk_blocks"], p->sk_blocks);
  EXPECT_EQ(j["mode"], ModeName(p->mode)) << json;
  ASSERT_EQ(j["candidates"].size(), why.candidates.size());
  EXPECT_EQ(j["candidates"][why.chosen]["chosen"], true);
  EXPECT_EQ(j["predicted_us"], std::round(why.predicted_us * 1e3) / 1e3);
  EXPECT_EQ(j["a"], Json::parse(R"({"major": "k", "row_align": 128, "repack": false,
                                    "unaligned": false})"));
}

TEST(PlanPrint, MisalignedOperandRowsAreShown) {
  Problem pr;
  pr.m = 424, pr.n = 360, pr.k = 3608;
  absl::StatusOr<Plan> aligned = MakePlan(pr, H200Spec());
  ASSERT_TRUE(aligned.ok());
  EXPECT_EQ(FormatPlan(*aligned, nullptr, "H200").find("operands"), std::string::npos);
  EXPECT_EQ(Json::parse(PlanToJson(*aligned, nullptr, "H200"))["b"]["row_align"], 128);
  pr.b.row_align = kVectorBytes;
  absl::StatusOr<Plan> p = MakePlan(pr, H200Spec());
  ASSERT_TRUE(p.ok());
  const std::string text = FormatPlan(*p, nullptr, "H200");
  EXPECT_NE(text.find("operands    K-major rows of B start at odd multiples of 16 bytes"),
            std::string::npos)
      << text;
  const Json b = Json::parse(PlanToJson(*p, nullptr, "H200"))["b"];
  EXPECT_EQ(b["major"], "k");
  EXPECT_EQ(b["row_align"], kVectorBytes);
}

// A narrow M- or N-major operand (decode tokens N-major): the operands line says so, the ways
// weighed are its loads as they are and its copy, and the JSON carries the flags.
TEST(PlanPrint, NarrowMnMajorOperandsAndTheirCopyAreShown) {
  Problem pr;
  pr.m = 8192, pr.n = 16, pr.k = 28672;
  pr.b.major = Major::kMN;
  PlanExplanation why;
  absl::StatusOr<Plan> p = MakePlan(pr, H200Spec(), {}, &why);
  ASSERT_TRUE(p.ok());
  ASSERT_FALSE(p->repack_b);  // 32-byte rows: not worth the copy
  std::string text = FormatPlan(*p, &why, "H200");
  EXPECT_NE(text.find("operands    B N-major with fewer than 64 elements along n (each "
                      "k-iteration loads 64 short rows)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("the ways weighed for a narrow M- or N-major operand"), std::string::npos);
  EXPECT_NE(text.find("(narrow loads per iteration)"), std::string::npos) << text;
  const Json j = Json::parse(PlanToJson(*p, &why, "H200"));
  EXPECT_EQ(j["b"]["major"], "mn");
  ASSERT_FALSE(j["rows_options"].empty());
  EXPECT_EQ(j["rows_options"][0]["narrow_loads"], true) << j.dump();
  // One token: rows 16 bytes apart, copied.
  pr.n = 1;
  pr.b.row_align = kVectorBytes;
  p = MakePlan(pr, H200Spec(), {}, &why);
  ASSERT_TRUE(p.ok());
  ASSERT_TRUE(p->repack_b);
  text = FormatPlan(*p, &why, "H200");
  EXPECT_NE(text.find("repack      B copied to K-major rows"), std::string::npos) << text;
  EXPECT_EQ(text.find("operands    B N-major"), std::string::npos) << text;  // the copy is not
  PlanOptions dp;
  dp.mode = Mode::kDataParallel;
  p = MakePlan(pr, H200Spec(), dp, &why);
  ASSERT_TRUE(p.ok());
  EXPECT_NE(FormatPlan(*p, &why, "H200").find("that start at odd multiples of 16 bytes)"),
            std::string::npos);
}

// A wide M-major A whose k-rows start at odd multiples of 16 bytes: named, and weighed as
// misaligned rows are.
TEST(PlanPrint, WideMisalignedMnRowsAreShown) {
  Problem pr;
  pr.m = 4104, pr.n = 4096, pr.k = 4096;
  pr.a.major = Major::kMN;
  pr.a.row_align = kVectorBytes;
  PlanExplanation why;
  absl::StatusOr<Plan> p = MakePlan(pr, H200Spec(), {}, &why);
  ASSERT_TRUE(p.ok());
  ASSERT_FALSE(p->repack_a);  // 128 x 256 tiles: not worth the copy
  const std::string text = FormatPlan(*p, &why, "H200");
  EXPECT_NE(text.find("operands    M-major rows of A start at odd multiples of 16 bytes"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("the ways weighed for misaligned rows"), std::string::npos) << text;
  EXPECT_NE(text.find("A repacked"), std::string::npos) << text;
  EXPECT_EQ(text.find("narrow"), std::string::npos) << text;
}

// Misaligned rows: the report lists the ways weighed (rows as they are, copies, clusters), the
// chosen one marked, each with its estimate, the L2's time for its loads and its copies; the
// JSON has them as "rows_options". Aligned rows print none and an empty list.
TEST(PlanPrint, MisalignedRowsListTheWaysWeighed) {
  Problem pr;
  pr.m = 864, pr.n = 2560, pr.k = 1800;
  pr.a.row_align = kVectorBytes;
  pr.b.row_align = kVectorBytes;
  PlanExplanation why;
  absl::StatusOr<Plan> p = MakePlan(pr, H200Spec(), {}, &why);
  ASSERT_TRUE(p.ok());
  ASSERT_EQ(why.rows_options.size(), 5u);
  const std::string text = FormatPlan(*p, &why, "H200");
  EXPECT_NE(text.find("candidates  (misaligned loads priced per iteration"), std::string::npos)
      << text;
  EXPECT_NE(text.find("rows        the ways weighed for misaligned rows"), std::string::npos)
      << text;
  EXPECT_NE(text.find(absl::StrFormat("  * rows as they are   %-16s %7.1f us  (L2 loads %.1f us)",
                                      why.rows_options[0].plan, why.rows_options[0].estimated_us,
                                      why.rows_options[0].load_floor_us)),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(absl::StrFormat("(every load aligned, copies %.1f us)",
                                      why.rows_options[1].copies_us)),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    2-SM clusters      dp 256x256x64"), std::string::npos) << text;
  EXPECT_NE(text.find(absl::StrFormat("predicted   %.1f us\n", why.rows_options[0].estimated_us)),
            std::string::npos)
      << text;
  const Json rows = Json::parse(PlanToJson(*p, &why, "H200"))["rows_options"];
  ASSERT_GE(rows.size(), 2u);
  EXPECT_EQ(rows[0],
            (Json{{"name", "rows as they are"},
                  {"plan", why.rows_options[0].plan},
                  {"estimated_us", std::round(why.rows_options[0].estimated_us * 1e3) / 1e3},
                  {"load_floor_us", std::round(why.rows_options[0].load_floor_us * 1e3) / 1e3},
                  {"copies_us", 0.0},
                  {"chosen", true},
                  {"narrow_loads", false}}))
      << rows.dump();
  EXPECT_EQ(rows[1]["name"], "A and B repacked");

  // The estimates stay in one column when plans' names differ in length: 4144 x 1488 x 5208
  // weighs Stream-K on the rows as they are against data-parallel plans.
  Problem wide_names = pr;
  wide_names.m = 4144, wide_names.n = 1488, wide_names.k = 5208;
  PlanExplanation sk;
  absl::StatusOr<Plan> sk_plan = MakePlan(wide_names, H200Spec(), {}, &sk);
  ASSERT_TRUE(sk_plan.ok()) << sk_plan.status();
  ASSERT_GE(sk.rows_options.size(), 2u);
  ASSERT_EQ(sk.rows_options[0].plan, "streamk 128x256x64");
  ASSERT_EQ(sk.rows_options[1].plan.rfind("dp ", 0), 0u) << sk.rows_options[1].plan;
  const std::string sk_text = FormatPlan(*sk_plan, &sk, "H200");
  const size_t first = sk_text.find("rows as they are"), second = sk_text.find("A and B repacked");
  ASSERT_NE(first, std::string::npos) << sk_text;
  ASSERT_NE(second, std::string::npos) << sk_text;
  EXPECT_EQ(sk_text.find(" us  (", first) - sk_text.rfind('\n', first),
            sk_text.find(" us  (", second) - sk_text.rfind('\n', second))
      << sk_text;

  pr.a = pr.a.RowsAligned();
  pr.b = pr.b.RowsAligned();
  pr.k = 1792;
  PlanExplanation aligned;
  ASSERT_TRUE(MakePlan(pr, H200Spec(), {}, &aligned).ok());
  const Plan a = MakePlan(pr, H200Spec()).value();
  EXPECT_EQ(FormatPlan(a, &aligned, "H200").find("rows        "), std::string::npos);
  EXPECT_EQ(FormatPlan(a, &aligned, "H200").find("priced per iteration"), std::string::npos);
  EXPECT_EQ(Json::parse(PlanToJson(a, &aligned, "H200"))["rows_options"], Json::array());
}

TEST(PlanPrint, WorkOrderIsShown) {
  // 540 tiles of 128 x 256: four data-parallel rounds and 12 Stream-K tiles. The report says
  // what each persistent block runs first; the JSON and the one-line summary carry the count.
  Problem pr;
  pr.m = 3456, pr.n = 5120, pr.k = 8192;
  PlanOptions o;
  o.mode = Mode::kStreamK;
  o.sk_tiles = kPartialWaveTiles;
  o.blocks = 36;
  o.tile = {128, 256, 32};
  absl::StatusOr<Plan> p = MakePlan(pr, H200Spec(), o);
  ASSERT_TRUE(p.ok()) << p.status();
  const std::string text = FormatPlan(*p, nullptr, "H200");
  EXPECT_NE(
      text.find("order       396 dp blocks (3 rounds), then 36 sk blocks, then 132 dp blocks\n"),
      std::string::npos)
      << text;
  EXPECT_EQ(Json::parse(PlanToJson(*p, nullptr, "H200"))["dp_blocks_before_sk"], 396);
  EXPECT_NE(PlanSummary(*p).find("dp_before_sk=396"), std::string::npos) << PlanSummary(*p);
  // With a separate reduction the reduction blocks come last.
  o.reduction = Reduction::kSeparate;
  p = MakePlan(pr, H200Spec(), o);
  ASSERT_TRUE(p.ok()) << p.status();
  const std::string separate = FormatPlan(*p, nullptr, "H200");
  EXPECT_NE(separate.find(", then 132 dp blocks, then 96 reduction blocks"), std::string::npos)
      << separate;
}

TEST(PlanPrint, StringifyIsOneLine) {
  Problem pr;
  pr.m = 100, pr.n = 100, pr.k = 100;
  absl::StatusOr<Plan> p = MakePlan(pr, H200Spec());
  ASSERT_TRUE(p.ok());
  const std::string line = PlanSummary(*p);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_NE(line.find("mode=dp"), std::string::npos) << line;
}

TEST(Types, NamesParseBack) {
  for (Mode m : {Mode::kAuto, Mode::kDataParallel, Mode::kSplitK, Mode::kStreamK})
    EXPECT_EQ(ParseMode(ModeName(m)), m);
  for (Reduction r : {Reduction::kDeterministic, Reduction::kAtomic, Reduction::kSeparate})
    EXPECT_EQ(ParseReduction(ReductionName(r)), r);
  for (DType t : {DType::kF16, DType::kBF16, DType::kF32}) EXPECT_EQ(ParseDType(DTypeName(t)), t);
  for (Layout l : {Layout::kRowMajor, Layout::kColMajor}) EXPECT_EQ(ParseLayout(LayoutName(l)), l);
  for (StoreD s : {StoreD::kThreads, StoreD::kTma, StoreD::kRows, StoreD::kRowsCopyWarp})
    EXPECT_EQ(ParseStoreD(StoreDName(s)), s);
  for (Mainloop m : {Mainloop::kSm80, Mainloop::kSm90, Mainloop::kSm90Tma})
    EXPECT_EQ(ParseMainloop(MainloopName(m)), m);
  EXPECT_FALSE(ParseMode("fast").has_value());
  EXPECT_FALSE(ParseDType("int8").has_value());
  EXPECT_FALSE(ParseStoreD("fast").has_value());
  EXPECT_FALSE(ParseMainloop("sm70").has_value());
}

TEST(DeviceSpec, PresetsAndUnknownNames) {
  EXPECT_EQ(DeviceSpecByName("h200")->sms, 132);
  EXPECT_EQ(DeviceSpecByName("H100")->sms, 132);
  EXPECT_EQ(DeviceSpecByName("a100")->sms, 108);
  // Each preset models one mainloop, and its plans say which.
  EXPECT_EQ(DeviceSpecByName("h200")->mainloop, Mainloop::kSm90Tma);
  EXPECT_EQ(DeviceSpecByName("h100")->mainloop, Mainloop::kSm90Tma);
  EXPECT_EQ(DeviceSpecByName("h200-cpasync")->mainloop, Mainloop::kSm90);
  EXPECT_EQ(DeviceSpecByName("a100")->mainloop, Mainloop::kSm80);
  absl::StatusOr<DeviceSpec> bad = DeviceSpecByName("v100");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("v100"), std::string::npos);
}

// streamk-plan's epilogue line names the path the plan takes for D (Plan::store_d, pingpong):
// GPT-2's logits (4096 x 50257 x 768 on the H200 model) packed, padded to rows of 50264 or 50260,
// with an aligned vocabulary, in fp32, with beta, and on the portable kernels.
TEST(PlanPrint, EpilogueLineNamesHowDIsWritten) {
  // The plan for D of `out`, beta and rows of ldd elements (as gemm() sets the problem for
  // 256-byte-aligned allocations), and the line for it.
  auto plan_for = [](Problem pr, DType out, float beta, int64_t ldd, PlanOptions o = {}) {
    pr.output = out;
    pr.reads_c = beta != 0.0f;
    pr.cd_rows_aligned = ldd * DTypeBytes(out) % 16 == 0;
    pr.d_tma_store =
        kernels::TensorColumnsOf(pr.n, DTypeBytes(out), beta, pr.cd_rows_aligned) > 0;
    absl::StatusOr<Plan> p = MakePlan(pr, H200Spec(), o);
    EXPECT_TRUE(p.ok()) << p.status();
    return p.value_or(Plan{});
  };
  auto line_for = [&](const Problem& pr, DType out, float beta, int64_t ldd, bool tma,
                      PlanOptions o = {}) {
    return DescribeOutputWrites(plan_for(pr, out, beta, ldd, o), out, beta, ldd, tma);
  };
  Problem pr;
  pr.m = 4096, pr.n = 50257, pr.k = 768;
  ASSERT_GE(plan_for(pr, DType::kF16, 0, 50257).tiles,
            2 * plan_for(pr, DType::kF16, 0, 50257).grid_blocks);
  auto says = [&](DType out, float beta, int64_t ldd, bool tma, const std::string& want) {
    const std::string line = line_for(pr, out, beta, ldd, tma);
    EXPECT_NE(line.find(want), std::string::npos) << line;
  };
  says(DType::kF16, 0, 50257, true, "a bulk copy per row, issued by the copying warp");
  says(DType::kF16, 0, 50257, true, "not 16-byte aligned; rows of a multiple of 8 would be");
  says(DType::kF16, 0, 50264, true,
       "TMA stores of columns 0-50255, the compute threads storing the last 1 of each row");
  says(DType::kF32, 0, 50260, true,
       "TMA stores of columns 0-50255, the compute threads storing the last 1 of each row");
  says(DType::kF32, 0, 50257, true, "a bulk copy per row in two rounds a tile, issued by the "
                                    "compute warps");
  says(DType::kF16, 0.5f, 50257, true, "the epilogue's own stores and read C, element by element");
  says(DType::kF16, 0.5f, 50264, true, "16 bytes at a time where the row allows");
  says(DType::kF16, 0, 50257, false, "the epilogue's own stores, element by element");
  // Who issues the copies, as the options say.
  PlanOptions compute;
  compute.store_d = StoreD::kRows;
  EXPECT_NE(line_for(pr, DType::kF16, 0, 50257, true, compute)
                .find("a bulk copy per row, issued by the compute warps"),
            std::string::npos);
  pr.n = 50304;
  says(DType::kF16, 0, 50304, true, "TMA stores from swizzled boxes (fp16 D in rows of 50304");
  says(DType::kBF16, 1, 50304, true, "TMA stores from swizzled boxes, C loaded by TMA");
  // On 128 x 256 tiles: no ping-pong. 5120 x 2560 x 1024's are 128 x 128, data-parallel, 800 of
  // them on 132 blocks: ping-pong, with or without C, but not through the rows' copies, when
  // turned off, or on another kernel.
  PlanOptions wide;
  wide.tile = {128, 256, 64};
  EXPECT_EQ(line_for(pr, DType::kF16, 0, 50304, true, wide).find("ping-pong"), std::string::npos);
  Problem shallow;
  shallow.m = 5120, shallow.n = 2560, shallow.k = 1024;
  EXPECT_NE(line_for(shallow, DType::kF16, 0, 2560, true)
                .find("; ping-pong: the compute warp groups take turns at the 800 tiles on 132 "
                      "blocks, each one's epilogue under the other's mainloop"),
            std::string::npos);
  EXPECT_NE(line_for(shallow, DType::kF32, 0.5f, 2560, true).find("ping-pong"),
            std::string::npos);
  EXPECT_EQ(line_for(shallow, DType::kF16, 0, 2561, true).find("ping-pong"), std::string::npos);
  PlanOptions off;
  off.pingpong = false;
  EXPECT_EQ(line_for(shallow, DType::kF16, 0, 2560, true, off).find("ping-pong"),
            std::string::npos);
  EXPECT_EQ(line_for(shallow, DType::kF16, 0, 2560, false).find("ping-pong"), std::string::npos);
  // The 320-wide tile: TMA stores in two rounds for a 16-bit D without C; other Ds, and rows the
  // TMA unit cannot store, by the epilogue's own stores (no bulk copies of rows).
  PlanOptions broad;
  broad.tile = {128, 320, 64};
  Problem one_round;
  one_round.m = 640, one_round.n = 8192, one_round.k = 4096;
  ASSERT_EQ(plan_for(one_round, DType::kF16, 0, 8192, broad).tile_n, 320);
  for (DType out : {DType::kF16, DType::kBF16}) {
    const std::string line = line_for(one_round, out, 0, 8192, true, broad);
    EXPECT_NE(line.find("TMA stores from swizzled boxes in two rounds a tile (three boxes, then "
                        "two) ("),
              std::string::npos)
        << line;
  }
  for (const auto& [out, beta, ldd] : {std::tuple{DType::kF32, 0.0f, int64_t{8192}},
                                       std::tuple{DType::kF16, 0.5f, int64_t{8192}},
                                       std::tuple{DType::kF16, 0.0f, int64_t{8193}}}) {
    const std::string own = line_for(one_round, out, beta, ldd, true, broad);
    EXPECT_EQ(own.rfind("the epilogue's own stores", 0), 0u) << own;
    EXPECT_NE(own.find("the 320-wide tile stores a 16-bit D without C alone by TMA"),
              std::string::npos)
        << own;
  }
  const absl::StatusOr<Plan> p = plan_for(pr, DType::kF16, 0, 50304);
  const std::string line = DescribeOutputWrites(*p, DType::kF16, 0, 50304, true);
  EXPECT_EQ(Json::parse(PlanToJson(*p, nullptr, "H200", line))["epilogue"], line);
  EXPECT_FALSE(Json::parse(PlanToJson(*p, nullptr, "H200")).contains("epilogue"));
}

}  // namespace
}  // namespace streamk
