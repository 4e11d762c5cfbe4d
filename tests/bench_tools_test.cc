// streamk-bench's host side on the CPU: shape files and sets, the summary statistics, and the
// table / CSV / JSON / SVG renderings.
#include <algorithm>
#include <sstream>
#include <fstream>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bench_report.h"
#include "cost_fit.h"
#include "decomposition_flags.h"
#include "flag_names.h"
#include "model_argmin.h"
#include "moe_bench.h"
#include "streamk/plan_print.h"
#include "streamk/planner.h"
#include "streamk/streamk.h"
#include "shape_sets.h"

namespace streamk::tools {
namespace {

using Json = nlohmann::json;

TEST(ShapeSets, ParsesShapesFilesAndNamesBadLines) {
  absl::StatusOr<std::vector<BenchShape>> ok = ParseShapesFile(
      "s.txt", "# comment\n128 256 512\n\nqkv 16 12288 4096  # trailing comment\n");
  ASSERT_TRUE(ok.ok()) << ok.status();
  ASSERT_EQ(ok->size(), 2u);
  EXPECT_EQ((*ok)[0].m, 128);
  EXPECT_EQ((*ok)[1].name, "qkv");
  EXPECT_EQ((*ok)[1].n, 12288);
  absl::StatusOr<std::vector<BenchShape>> bad = ParseShapesFile("s.txt", "1 2 3\n4 five 6\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("s.txt:2"), std::string::npos) << bad.status();
  EXPECT_FALSE(ParseShapesFile("s.txt", "1 2 0\n").ok());
  EXPECT_FALSE(ParseShapesFile("s.txt", "# nothing\n").ok());
  EXPECT_EQ(ParseShape("16x12288x4096")->n, 12288);
  EXPECT_FALSE(ParseShape("16x12288").ok());
}

TEST(ShapeSets, EveryShapeFlagCounts) {
  // --shape is repeatable: an Abseil list flag alone would keep only the last occurrence.
  std::vector<std::string> args = {"streamk-bench", "--shape",   "1x2x3", "--modes=auto",
                                   "--shape=4x5x6,7x8x9",     "-shape", "10x11x12",
                                   "--shapes=f.txt", "--",     "--shape=13x14x15"};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  EXPECT_EQ(RepeatedFlagValues(static_cast<int>(argv.size()), argv.data(), "shape"),
            (std::vector<std::string>{"1x2x3", "4x5x6", "7x8x9", "10x11x12"}));
  EXPECT_TRUE(RepeatedFlagValues(static_cast<int>(argv.size()), argv.data(), "set").empty());
}

TEST(ShapeSets, BuiltInSets) {
  const std::vector<BenchShape> paper = PaperSet(150, 1);
  ASSERT_EQ(paper.size(), 150u);
  for (const BenchShape& s : paper) {
    for (int64_t v : {s.m, s.n, s.k}) {
      EXPECT_GE(v, 128);
      EXPECT_LE(v, 8192);
      EXPECT_EQ(v % 8, 0);
    }
  }
  EXPECT_EQ(PaperSet(150, 1)[17].k, paper[17].k);  // reproducible from the seed
  // --align 1: any size, most of them not multiples of 8.
  const std::vector<BenchShape> any = PaperSet(300, 7, 1);
  ASSERT_EQ(any.size(), 300u);
  int odd = 0;
  for (const BenchShape& s : any) {
    for (int64_t v : {s.m, s.n, s.k}) {
      EXPECT_GE(v, 128);
      EXPECT_LE(v, 8192);
      odd += v % 8 != 0;
    }
  }
  EXPECT_GT(odd, 600) << "of 900 sizes";
  for (const int tile_n : {128, 256}) {
    const std::vector<BenchShape> waveq = WaveQuantizationSet(132, 128, tile_n);
    ASSERT_FALSE(waveq.empty());
    for (const BenchShape& s : waveq) {
      EXPECT_EQ(s.m % 128, 0);
      EXPECT_EQ(s.n % tile_n, 0);
      const int64_t tiles = (s.m / 128) * (s.n / tile_n);
      EXPECT_GT(tiles % 132, 0) << s.m << "x" << s.n;
      EXPECT_LE(tiles % 132, 12) << s.m << "x" << s.n;  // the last wave nearly empty
    }
  }
  for (const BenchShape& s : LlmSet()) EXPECT_LE(s.m, 4096);
}

BenchReport TwoShapeReport() {
  BenchReport r;
  r.gpu = "TestGPU";
  r.dtype = r.out_dtype = "fp16";
  r.layout = "tn";
  r.sms = 132;
  r.occupancy = 2;
  r.modes = {"auto", "dp", "cublas"};
  auto row = [](const char* set, int64_t m, double auto_us, double dp_us, double cublas_us) {
    ShapeResult s;
    s.shape.set = set;
    s.shape.m = m, s.shape.n = 128, s.shape.k = 128;
    s.modes = {{"auto", "ok", auto_us}, {"dp", "ok", dp_us}, {"cublas", "ok", cublas_us}};
    return s;
  };
  r.rows = {row("waveq", 128, 50, 100, 25), row("waveq", 256, 100, 100, 50),
            row("llm", 512, 10, 9, 5)};
  r.rows[2].modes.push_back({"splitk", "WRONG", 0, 0, 0, 0.5, "relative error 0.5"});
  // The planner's predictions: auto ran 1.25x and 0.8x its prediction on waveq; llm has none.
  r.rows[0].modes[0].predicted_us = 40;
  r.rows[1].modes[0].predicted_us = 125;
  r.rows[1].modes[1].predicted_us = 90;  // dp's, not summarized
  return r;
}

// Decode rows whose tokens are the kernel's N-major B (bench layout nn: D column-major, A the
// tokens, m-contiguous): PlanGemm marks the operand from the arguments, and auto copies it where
// its rows start at odd multiples of 16 bytes (1 token: lda 8) on a deep 70B row, not where they
// start on 32-byte boundaries (16 tokens) or are K-major (tn).
TEST(ShapeSets, NarrowTokensFromTheArgumentsAreCopiedWhereTheyPay) {
  alignas(256) static uint16_t a[16], b[16], d[16];
  const BenchLayout tn{true, false}, nn{false, false};
  struct Case {
    int64_t tokens;
    BenchLayout layout;
    bool mn_major, misaligned, copy;
  } cases[] = {{1, nn, true, true, true}, {24, nn, true, true, true},
               {16, nn, true, false, false}, {1, tn, false, false, false}};
  for (const Case& c : cases) {
    GemmArgs g = BenchGemmArgs({"cli", "", c.tokens, 8192, 28672}, DType::kF16, DType::kF16,
                               c.layout, 1);
    g.a = a, g.b = b, g.d = d;
    Options off;
    off.repack = RepackOperands::kNone;
    absl::StatusOr<Plan> p = PlanGemm(g, H200Spec(), off);
    ASSERT_TRUE(p.ok()) << p.status();
    SCOPED_TRACE(absl::StrCat(c.tokens, " tokens, ", c.layout.a_row ? "tn" : "nn"));
    EXPECT_EQ(p->b.mn_major(), c.mn_major) << *p;
    EXPECT_EQ(p->b.mn_rows_misaligned(), c.misaligned) << *p;
    EXPECT_FALSE(p->a.mn_major() || p->repack_b) << *p;
    p = PlanGemm(g, H200Spec());
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->repack_b, c.copy) << *p;
    EXPECT_FALSE(p->repack_a) << *p;
  }
}

// streamk-bench's operands: leading dimensions rounded up to 8 elements, or (--packed) exactly
// the rows' length, which gemm() accepts and plans with copies of the rows it cannot load.
TEST(ShapeSets, BenchArgsPadOrPackTheRows) {
  const BenchShape s{"cli", "", 100, 200, 4097};
  const BenchLayout tn{true, false}, nn{false, false};
  GemmArgs g = BenchGemmArgs(s, DType::kF16, DType::kF16, tn, 2);
  EXPECT_EQ(g.lda, 4104);
  EXPECT_EQ(g.ldb, 4104);
  EXPECT_EQ(g.ldd, 104);
  EXPECT_EQ(g.stride_a, 4104 * 100);
  g = BenchGemmArgs(s, DType::kF16, DType::kF16, tn, 2, /*packed=*/true);
  EXPECT_EQ(g.lda, 4097);
  EXPECT_EQ(g.ldb, 4097);
  EXPECT_EQ(g.ldd, 100);
  EXPECT_EQ(g.stride_a, 4097 * 100);
  EXPECT_EQ(g.stride_d, 100 * 200);
  g = BenchGemmArgs(s, DType::kF16, DType::kF16, nn, 1, /*packed=*/true);
  EXPECT_EQ(g.lda, 100);  // column-major A: m-long columns
  alignas(256) static uint16_t a[16], b[16], d[16];
  g.a = a, g.b = b, g.d = d;
  EXPECT_TRUE(ValidateGemmArgs(g).ok()) << ValidateGemmArgs(g);
  absl::StatusOr<Plan> p = PlanGemm(g, H200Spec());
  ASSERT_TRUE(p.ok()) << p.status();
  // D column-major: the kernel's A is B (K-major, 4097-element rows), its B is A (mn-major, 100
  // elements: 200-byte columns).
  EXPECT_TRUE(p->a_unaligned && p->b_unaligned);
  // What streamk-bench records beside each time: the planner's prediction for these arguments,
  // the copies of the unaligned operands included.
  PlanExplanation why;
  absl::StatusOr<Plan> explained = PlanGemm(g, H200Spec(), {}, &why);
  ASSERT_TRUE(explained.ok()) << explained.status();
  EXPECT_EQ(PlanSummary(*explained), PlanSummary(*p));
  ASSERT_GE(why.chosen, 0);
  EXPECT_GT(why.repack_us, 0);
  EXPECT_GT(why.predicted_us, why.repack_us);
  Options dp;
  dp.mode = Mode::kDataParallel;
  PlanExplanation dp_why;
  ASSERT_TRUE(PlanGemm(g, H200Spec(), dp, &dp_why).ok());
  EXPECT_EQ(dp_why.candidates[dp_why.chosen].mode, Mode::kDataParallel);
  // Bad arguments are named, and *why is left alone.
  g.ldd = 99;
  PlanExplanation untouched;
  absl::StatusOr<Plan> bad = PlanGemm(g, H200Spec(), {}, &untouched);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("ldd"), std::string::npos) << bad.status();
  EXPECT_TRUE(untouched.candidates.empty());
}

TEST(BenchReport, SummarizesThePlannersPredictions) {
  BenchReport r = TwoShapeReport();
  const RatioSummary s = SummarizePrediction(r, "waveq", "auto");
  EXPECT_EQ(s.count, 2);
  EXPECT_NEAR(s.geomean, 1.0, 1e-9);  // 1.25 and 0.8
  EXPECT_DOUBLE_EQ(s.min, 0.8);
  EXPECT_DOUBLE_EQ(s.max, 1.25);
  EXPECT_EQ(s.max_shape, "128x128x128");
  EXPECT_EQ(SummarizePrediction(r, "llm", "auto").count, 0);   // no prediction recorded
  EXPECT_EQ(SummarizePrediction(r, "waveq", "dp").count, 1);   // dp's own
  r.rows[0].modes[0].status = "WRONG";                        // never timed: not summarized
  EXPECT_EQ(SummarizePrediction(r, "waveq", "auto").count, 1);

  const std::string table = FormatTable(TwoShapeReport());
  const size_t at = table.find("# the planner's prediction for auto: time / predicted");
  ASSERT_NE(at, std::string::npos) << table;
  EXPECT_NE(table.find("waveq       2    1.000    0.800    1.250  256x128x128", at),
            std::string::npos)
      << table.substr(at);
  EXPECT_EQ(table.find("llm ", table.find('\n', table.find("min shape", at))), std::string::npos)
      << table.substr(at);
  // Without predictions (cuBLAS only, or an older CSV) there is no such section.
  BenchReport none = TwoShapeReport();
  for (ShapeResult& row : none.rows)
    for (ModeResult& m : row.modes) m.predicted_us = 0;
  EXPECT_EQ(FormatTable(none).find("prediction"), std::string::npos);
}

TEST(BenchReport, SummarizesSpeedupsPerSet) {
  const BenchReport r = TwoShapeReport();
  const RatioSummary s = Summarize(r, "waveq", "dp");
  EXPECT_EQ(s.count, 2);
  EXPECT_NEAR(s.geomean, std::sqrt(2.0), 1e-9);  // speedups 2 and 1
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 2.0);
  EXPECT_EQ(s.min_shape, "256x128x128");
  EXPECT_NEAR(Summarize(r, "", "cublas").geomean, std::cbrt(0.5 * 0.5 * 0.5), 1e-9);
  EXPECT_NEAR(*r.rows[2].AutoSpeedupOver("dp"), 0.9, 1e-9);
  EXPECT_FALSE(r.rows[2].AutoSpeedupOver("splitk").has_value());  // wrong results have no time
}

TEST(BenchReport, RenderingsCarryEveryFigure) {
  const BenchReport r = TwoShapeReport();
  const std::string table = FormatTable(r);
  EXPECT_NE(table.find("WRONG 512x128x128 splitk"), std::string::npos) << table;
  EXPECT_NE(table.find("waveq  dp"), std::string::npos) << table;
  const std::string csv = ToCsv(r);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 3 + 3 + 4);  // header + mode rows
  const Json json = Json::parse(ToJson(r));
  ASSERT_EQ(json["shapes"].size(), 3u);
  EXPECT_EQ(json["shapes"][2]["results"][3]["status"], "WRONG");
  EXPECT_EQ(json["shapes"][1]["results"][0]["predicted_us"], 125.0) << json.dump();
  // auto's plan with what the planner weighed for it.
  BenchReport planned = TwoShapeReport();
  Problem pr;
  pr.m = pr.n = pr.k = 128;
  PlanExplanation why;
  planned.rows[0].auto_plan = *MakePlan(pr, H200Spec(), {}, &why);
  EXPECT_EQ(ToJson(planned).find("\"candidates\""), std::string::npos);
  planned.rows[0].auto_why = why;
  const std::string explained = ToJson(planned);
  const Json auto_plan = Json::parse(explained)["shapes"][0]["auto_plan"];
  EXPECT_EQ(auto_plan["candidates"].size(), why.candidates.size()) << explained;
  EXPECT_EQ(auto_plan["predicted_us"], std::round(why.predicted_us * 1e3) / 1e3);
  const std::string svg = ToSvg(r);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("set waveq (2 shapes): auto vs dp geomean 1.41x, vs cuBLAS geomean 0.50x<"),
            std::string::npos)
      << svg.substr(0, 600);
  // Without cuBLAS in the run the title has no cuBLAS mean (not a 0.00x).
  BenchReport no_cublas = TwoShapeReport();
  no_cublas.modes.pop_back();
  for (ShapeResult& row : no_cublas.rows)
    row.modes.erase(std::remove_if(row.modes.begin(), row.modes.end(),
                                   [](const ModeResult& m) { return m.mode == "cublas"; }),
                    row.modes.end());
  EXPECT_NE(ToSvg(no_cublas).find("set waveq (2 shapes): auto vs dp geomean 1.41x<"),
            std::string::npos)
      << ToSvg(no_cublas).substr(0, 800);
  EXPECT_EQ(std::count(svg.begin(), svg.end(), '<') - std::count(svg.begin(), svg.end(), '>'), 0);
}

// The plot's y range fits the ratios it draws (ticks on either side of them, at least 0.5x-2x),
// so that 1.03 and 1.10 are told apart; a 7x speedup gets room up to 8x.
TEST(BenchReport, PlotRangeFitsTheRatios) {
  auto has_tick = [](const std::string& svg, const char* tick) {
    return svg.find(absl::StrFormat("text-anchor=\"end\">%s</text>", tick)) != std::string::npos;
  };
  BenchReport r = TwoShapeReport();  // ratios 0.5 (cuBLAS) to 2 (dp)
  std::string svg = ToSvg(r);
  EXPECT_TRUE(has_tick(svg, "0.25x")) << svg;
  EXPECT_TRUE(has_tick(svg, "1x"));
  EXPECT_TRUE(has_tick(svg, "3x"));
  EXPECT_FALSE(has_tick(svg, "0.1x"));
  EXPECT_FALSE(has_tick(svg, "4x"));
  for (ShapeResult& row : r.rows) row.modes[2].us = row.modes[0].us;  // cuBLAS at parity
  r.rows[1].modes[1].us = 700;                                        // dp 7x auto's time
  svg = ToSvg(r);
  EXPECT_TRUE(has_tick(svg, "0.5x")) << svg;
  EXPECT_TRUE(has_tick(svg, "8x"));
  EXPECT_FALSE(has_tick(svg, "0.25x"));
  EXPECT_FALSE(has_tick(svg, "16x"));
}

// Where auto ran dp's very plan, auto/dp times one launch twice: the table marks those rows, and
// the summary adds the ratio over the other rows alone (dp*), which the 3% rule is about. The
// marks survive a CSV round trip (--replot) and the plot draws those points hollow.
TEST(BenchReport, MarksTheShapesWhereAutoRanDpsPlan) {
  BenchReport r = TwoShapeReport();
  Problem pr;
  pr.m = pr.n = pr.k = 128;
  const Plan p = *MakePlan(pr, H200Spec());
  Plan other = p;
  other.tile_n = 2 * p.tile_n;
  EXPECT_TRUE(SamePlan(p, p));
  EXPECT_FALSE(SamePlan(p, other));
  Plan swizzled = p;
  swizzled.swizzle = p.swizzle + 1;
  EXPECT_FALSE(SamePlan(p, swizzled));
  // waveq: auto 2x faster than dp on another plan, 1.0 on dp's plan; llm: dp's plan, 0.9.
  r.rows[0].modes[0].plan = p, r.rows[0].modes[1].plan = other;
  r.rows[1].modes[0].plan = p, r.rows[1].modes[1].plan = p;
  r.rows[2].modes[0].plan = p, r.rows[2].modes[1].plan = p;
  EXPECT_FALSE(r.rows[0].AutoRanThePlanOf("dp"));
  EXPECT_TRUE(r.rows[1].AutoRanThePlanOf("dp"));
  EXPECT_FALSE(r.rows[1].AutoRanThePlanOf("cublas"));  // no plan
  const RatioSummary all = Summarize(r, "waveq", "dp");
  const RatioSummary differing = Summarize(r, "waveq", "dp", /*differing_plans=*/true);
  EXPECT_EQ(all.count, 2);
  EXPECT_EQ(differing.count, 1);
  EXPECT_DOUBLE_EQ(differing.geomean, 2.0);
  EXPECT_EQ(Summarize(r, "llm", "dp", true).count, 0);
  const std::string table = FormatTable(r);
  EXPECT_NE(table.find(" 1.000= "), std::string::npos) << table;
  EXPECT_NE(table.find(" 0.900= "), std::string::npos) << table;
  EXPECT_NE(table.find(" 2.000  "), std::string::npos) << table;  // aligned with the marks
  EXPECT_NE(table.find("auto's plan is dp's, the same launch timed twice"), std::string::npos);
  EXPECT_NE(table.find("waveq  dp*           1    2.000    2.000    2.000  128x128x128"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("llm    dp*           0        -        -        -  (auto ran dp's plan"),
            std::string::npos)
      << table;
  EXPECT_EQ(table.find("cublas*"), std::string::npos) << table;
  // Without plans (cuBLAS only, or all plans differing) neither the marks nor the lines appear.
  const std::string plain = FormatTable(TwoShapeReport());
  EXPECT_EQ(plain.find("dp*"), std::string::npos) << plain;
  EXPECT_EQ(plain.find("timed twice"), std::string::npos) << plain;

  absl::StatusOr<BenchReport> back = FromCsv(ToCsv(r));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_FALSE(back->rows[0].AutoRanThePlanOf("dp"));
  EXPECT_TRUE(back->rows[1].AutoRanThePlanOf("dp"));
  EXPECT_TRUE(back->rows[2].AutoRanThePlanOf("dp"));
  EXPECT_FALSE(back->rows[2].Find("cublas")->plan.has_value());
  EXPECT_EQ(back->rows[0].Find("auto")->plan->tile_n, p.tile_n);
  EXPECT_EQ(back->rows[0].Find("dp")->plan->tile_n, other.tile_n);
  EXPECT_NE(FormatTable(*back).find("waveq  dp*           1    2.000"), std::string::npos)
      << FormatTable(*back);
  // A plan column that does not parse names its line.
  std::string bad = ToCsv(r);
  const size_t at = bad.find(",deterministic,");
  ASSERT_NE(at, std::string::npos) << bad;
  bad.replace(at, 15, ",nonsense,");
  EXPECT_FALSE(FromCsv(bad).ok());

  const std::string svg = ToSvg(r);
  EXPECT_NE(svg.find("(dp's plan)"), std::string::npos);
  EXPECT_NE(svg.find("fill=\"none\" stroke=\"#1f6fd1\"><title>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("auto ran dp's plan</text>"), std::string::npos);
  EXPECT_EQ(ToSvg(TwoShapeReport()).find("fill=\"none\""), std::string::npos);
}

TEST(BenchReport, TableAndJsonSayHowTheTimesWereTaken) {
  BenchReport r = TwoShapeReport();
  EXPECT_EQ(FormatTable(r).find("# timed:"), std::string::npos);  // not recorded: no line
  r.timing = "CUDA graph replays of 10 launches";
  EXPECT_NE(FormatTable(r).find("# timed: CUDA graph replays of 10 launches\n"), std::string::npos)
      << FormatTable(r);
  EXPECT_EQ(Json::parse(ToJson(r))["timing"], "CUDA graph replays of 10 launches");
}

// A mode forced onto one tile (dp/128x256x64) is longer than the summary's default "vs" column:
// the column widens to the longest name and its '*', so every figure stays under its heading.
// The waveq set's tile is named above the table, for dp/TILE against it.
TEST(BenchReport, SummaryFitsLongModeNamesAndNamesTheWaveqTile) {
  BenchReport r = TwoShapeReport();
  r.modes.push_back("dp/128x256x64");
  for (ShapeResult& row : r.rows) row.modes.push_back({"dp/128x256x64", "ok", 150});
  const std::string table = FormatTable(r);
  const size_t at = table.find("# summary");
  ASSERT_NE(at, std::string::npos) << table;
  EXPECT_NE(table.find("set    vs             shapes  geomean", at), std::string::npos)
      << table.substr(at);
  EXPECT_NE(table.find("waveq  dp                  2    1.414", at), std::string::npos)
      << table.substr(at);
  EXPECT_NE(table.find("waveq  dp/128x256x64       2    2.121    1.500    3.000", at),
            std::string::npos)
      << table.substr(at);
  EXPECT_EQ(table.find("# waveq:"), std::string::npos);  // no tile recorded: no line
  r.waveq_tile = "128x256x64";
  EXPECT_NE(FormatTable(r).find("# waveq: counts of 128x256x64 tiles a few past whole waves of "
                                "the SMs (dp/128x256x64: data-parallel on that tile alone)\n"),
            std::string::npos)
      << FormatTable(r);
  EXPECT_EQ(Json::parse(ToJson(r))["waveq_tile"], "128x256x64");
  // The plot draws auto against the forced tile's data-parallel too, with its legend.
  const std::string svg = ToSvg(r);
  EXPECT_NE(svg.find("vs dp/128x256x64 geomean 2.12x"), std::string::npos) << svg;
  EXPECT_NE(svg.find(">auto vs dp/128x256x64</text>"), std::string::npos) << svg;
  size_t triangles = 0;
  for (size_t at = svg.find("<polygon"); at != std::string::npos; at = svg.find("<polygon", at + 1))
    ++triangles;
  EXPECT_EQ(triangles, 3u + 2u);  // one a shape, one in each panel's legend
  EXPECT_EQ(ToSvg(TwoShapeReport()).find("<polygon"), std::string::npos);
  // Short names keep the 8-wide column.
  EXPECT_NE(FormatTable(TwoShapeReport()).find("set    vs       shapes  geomean"),
            std::string::npos);
}

// Timed both ways (streamk-bench --timing both): the table and the first summary hold the graph
// replays' times, a second summary the back-to-back ones, and the CSV and JSON carry both.
TEST(BenchReport, BothTimingsSummarizedAndKept) {
  BenchReport r = TwoShapeReport();
  EXPECT_EQ(FormatTable(r).find("# back to back"), std::string::npos);  // timed one way only
  for (ShapeResult& row : r.rows)
    for (ModeResult& m : row.modes)
      if (m.status == "ok") m.launches_us = m.mode == "auto" ? 10 : m.mode == "dp" ? 12 : 8;
  const RatioSummary s = SummarizeLaunches(r, "waveq", "dp");
  EXPECT_EQ(s.count, 2);
  EXPECT_NEAR(s.geomean, 1.2, 1e-9);
  EXPECT_NEAR(SummarizeLaunches(r, "", "cublas").geomean, 0.8, 1e-9);
  EXPECT_EQ(SummarizeLaunches(r, "llm", "splitk").count, 0);  // WRONG: never timed
  const std::string table = FormatTable(r);
  const size_t at = table.find("# back to back");
  ASSERT_NE(at, std::string::npos) << table;
  EXPECT_GT(at, table.find("# summary"));  // the graph replays' summary leads
  EXPECT_NE(table.find("waveq  dp            2    1.200    1.200    1.200", at), std::string::npos)
      << table.substr(at);
  absl::StatusOr<BenchReport> back = FromCsv(ToCsv(r));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_DOUBLE_EQ(back->rows[0].Find("dp")->launches_us, 12);
  EXPECT_NEAR(SummarizeLaunches(*back, "waveq", "dp").geomean, 1.2, 1e-9);
  EXPECT_EQ(Json::parse(ToJson(r))["shapes"][0]["results"][1]["launches_us"], 12.0) << ToJson(r);
}

// The committed sample CSVs (tests/data), mutated at random thousands of times (characters
// dropped, repeated or replaced, numbers swapped for other tokens, lines repeated, the text cut
// short): every reader (--replot's FromCsv and ContentionFromCsv, streamk-fit's ParseBenchCsv)
// reads each one or refuses it with a status that says why, and what it reads formats as a
// table; none crashes.
TEST(BenchReport, MutatedCsvsAreReadOrRefused) {
  auto read = [](const std::string& name) {
    std::ifstream in(std::string(STREAMK_TEST_DATA_DIR) + "/" + name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  const std::string bench = read("fit_sample.csv"), hold = read("hold_sample.csv");
  ASSERT_TRUE(FromCsv(bench).ok()) << FromCsv(bench).status();
  ASSERT_TRUE(ContentionFromCsv(hold).ok()) << ContentionFromCsv(hold).status();
  std::mt19937_64 rng(20261208);
  auto below = [&rng](size_t n) { return static_cast<size_t>(rng() % n); };
  const char* const tokens[] = {"",  "-1", "0",  "1e999", "nan", "inf",
                                "x", ",",  "\n", "\"",    "-0",  "99999999999999999999"};
  auto mutate = [&](std::string s) {
    for (int edits = 1 + static_cast<int>(below(3)); edits > 0 && !s.empty(); --edits) {
      const size_t at = below(s.size());
      switch (below(6)) {
        case 0: s.erase(at, 1 + below(12)); break;
        case 1: s.insert(at, s.substr(at, 1 + below(12))); break;
        case 2: s[at] = static_cast<char>(32 + below(95)); break;
        case 3: {  // a field replaced by another token
          const size_t begin = s.rfind(',', at), end = s.find_first_of(",\n", at);
          if (begin == std::string::npos || end == std::string::npos || end <= begin) break;
          s.replace(begin + 1, end - begin - 1, tokens[below(std::size(tokens))]);
          break;
        }
        case 4: {  // a line repeated
          const size_t begin = s.rfind('\n', at), end = s.find('\n', at);
          if (begin == std::string::npos || end == std::string::npos) break;
          s.insert(end, s.substr(begin, end - begin));
          break;
        }
        default: s.resize(at); break;
      }
    }
    return s;
  };
  int read_back = 0, refused = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    const std::string b = mutate(bench), h = mutate(hold);
    absl::StatusOr<BenchReport> r = FromCsv(b);
    if (r.ok()) {
      ++read_back;
      EXPECT_FALSE(FormatTable(*r).empty());
    } else {
      ++refused;
      EXPECT_FALSE(r.status().message().empty()) << b;
    }
    absl::StatusOr<std::vector<Measurement>> m = ParseBenchCsv("mutated.csv", b);
    if (!m.ok()) EXPECT_FALSE(m.status().message().empty()) << b;
    absl::StatusOr<ContentionReport> c = ContentionFromCsv(h);
    if (c.ok()) {
      EXPECT_FALSE(FormatContention(*c).empty());
    } else {
      EXPECT_FALSE(c.status().message().empty()) << h;
    }
    if (HasFailure()) return;
  }
  EXPECT_GT(read_back, 50);
  EXPECT_GT(refused, 500);
  // A header whose name repeats (two empty ones, where "spread" was) has fewer distinct names
  // than fields: its rows, one field short of it, are refused, not read past their end
  // (streamk-fit crashed on such a file).
  std::string repeated = bench;
  const size_t spread = repeated.find(",spread,");
  ASSERT_NE(spread, std::string::npos);
  repeated.replace(spread, 8, ",,,");
  absl::StatusOr<std::vector<Measurement>> short_row = ParseBenchCsv("repeated.csv", repeated);
  ASSERT_FALSE(short_row.ok());
  EXPECT_NE(short_row.status().message().find("repeated.csv:2: 25 fields, the header has 26"),
            std::string::npos)
      << short_row.status();
}

// --hold-sms: times against the free GPU's and the ideal, a stalled mode marked, and the
// summaries' geometric means.
TEST(BenchReport, ContentionTableAndSummary) {
  ContentionReport r;
  r.gpu = "GPU", r.timing = "graph", r.sms = 132;
  r.held = {33};
  r.modes = {"auto", "cublas"};
  const BenchShape a{"llm", "", 4096, 4096, 4096}, b{"llm", "", 512, 4096, 4096};
  auto add = [&r](const BenchShape& s, const std::string& mode, int held, double us,
                  bool gave_up = false) {
    HeldTiming t;
    t.shape = s, t.mode = mode, t.held = held, t.us = us, t.gave_up = gave_up;
    r.rows.push_back(t);
  };
  // Ideal at 33 of 132 held: 132 / 99 = 1.3333.
  add(a, "auto", 0, 100), add(a, "cublas", 0, 100);
  add(a, "auto", 33, 160), add(a, "cublas", 33, 200);
  add(b, "auto", 0, 20), add(b, "cublas", 0, 25);
  add(b, "auto", 33, 30, /*gave_up=*/true), add(b, "cublas", 33, 40);
  const std::string t = FormatContention(r);
  // a/auto: 1.60x free, 1.20 of the ideal; b/auto stalled.
  EXPECT_NE(t.find("  160.0   1.60   1.20"), std::string::npos) << t;
  EXPECT_NE(t.find("stalled"), std::string::npos) << t;
  // Summary at X=33: auto over 1 shape (b stalled), 1.200 of the ideal (its own free time and
  // auto's), 1.25x cuBLAS's speed; cuBLAS over 2: (2.0 / 1.3333 * 1.6 / 1.3333)^(1/2) of its own
  // ideal; of auto's, a at 2.0 / 1.3333 = 1.5 and b at 2.0 / 1.3333 = 1.5. Every one past 1.15.
  EXPECT_NE(t.find("33    auto                  1      1.200      1.200      1.200      1.200      1"
                   "        1.250        1"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find(absl::StrFormat("33    cublas                2      %.3f      1.500      1.500"
                                   "      1.500      2",
                                   std::sqrt(2.0 / (132.0 / 99) * 1.6 / (132.0 / 99)))),
            std::string::npos)
      << t;
  const std::string csv = ContentionToCsv(r);
  EXPECT_NE(csv.find("llm,,4096,4096,4096,auto,33,160.000,100.000,1.3333,0,,"), std::string::npos)
      << csv;
  EXPECT_NE(csv.find("llm,,512,4096,4096,auto,33,30.000,20.000,1.3333,1,,"), std::string::npos)
      << csv;
  // Read back, it summarizes the same (the header's GPU and timing are not in the CSV).
  absl::StatusOr<ContentionReport> back = ContentionFromCsv(csv);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->sms, 132);
  EXPECT_EQ(back->held, r.held);
  EXPECT_EQ(back->modes, r.modes);
  const std::string again = FormatContention(*back);
  EXPECT_EQ(again.substr(again.find("\nset")), t.substr(t.find("\nset")));
  EXPECT_FALSE(ContentionFromCsv("gpu,set,name\n").ok());
  EXPECT_FALSE(ContentionFromCsv(csv + "llm,,1,2,x,auto,33,1,1,1.3333,0,,\n").ok());
}

// The planner's gates from a run's CSV: per set, auto's regret against the fastest plan timed,
// the predictions' argmin's regret, auto over dp, and how the predictions rank and err.
TEST(BenchReport, GatesFromARunOfEveryPlan) {
  const std::string header =
      "gpu,set,name,m,n,k,dtype,out_dtype,layout,mode,status,time_us,spread,tflops,rel_error,"
      "plan_mode,dp_tiles,sk_tiles,sk_blocks,sk_regions,reduction,reduction_blocks,grid_blocks,"
      "tile_m,tile_n,repack,predicted_us\n";
  // One row: mode, time, and the plan (dp tiles, sk tiles, sk blocks, tile_n) with a prediction.
  auto row = [](const char* set, int m, const char* mode, double us, const char* plan_mode,
                int dp, int sk, int blocks, int tile_n, double predicted) {
    if (std::string(mode) == "cublas")
      return absl::StrFormat("G,%s,,%d,512,4096,fp16,fp16,tn,cublas,ok,%g,0,1,0,,,,,,,,,,,,\n",
                             set, m, us);
    return absl::StrFormat(
        "G,%s,,%d,512,4096,fp16,fp16,tn,%s,ok,%g,0,1,0,%s,%d,%d,%d,%d,deterministic,0,132,128,%d,,"
        "%g\n",
        set, m, mode, us, plan_mode, dp, sk, blocks, sk > 0 ? 1 : 0, tile_n, predicted);
  };
  std::string csv = header;
  // Shape 1 (waveq): auto ran the 128x256 dp plan (12 us); split-K on 128x128 ran 10 us and is
  // predicted cheapest; the predictions rank the three plans as measured.
  csv += row("waveq", 1000, "auto", 12, "dp", 8, 0, 0, 256, 11);
  csv += row("waveq", 1000, "dp", 12, "dp", 8, 0, 0, 256, 11);
  csv += row("waveq", 1000, "dp/128x256x64", 12.2, "dp", 8, 0, 0, 256, 11);
  csv += row("waveq", 1000, "splitk/128x128x64", 10, "splitk", 0, 16, 64, 128, 9);
  csv += row("waveq", 1000, "dp/128x128x64", 14, "dp", 16, 0, 0, 128, 13);
  csv += row("waveq", 1000, "cublas", 9, "", 0, 0, 0, 0, 0);
  // Shape 2: auto ran the fastest plan (20 us); the predictions rank the three plans in reverse
  // (18 us predicted for the slowest, 25 measured): rank correlation -1.
  csv += row("waveq", 2000, "auto", 20, "dp", 16, 0, 0, 128, 22);
  csv += row("waveq", 2000, "dp", 21, "dp", 8, 0, 0, 256, 21);
  csv += row("waveq", 2000, "streamk/128x128x64", 25, "streamk", 0, 16, 132, 128, 18);
  csv += row("waveq", 2000, "argmin", 25, "streamk", 0, 16, 132, 128, 18);
  csv += row("waveq", 2000, "cublas", 20, "", 0, 0, 0, 0, 0);
  // A shape cuBLAS did not time is left out.
  csv += row("llm", 64, "auto", 5, "dp", 1, 0, 0, 256, 5);
  absl::StatusOr<BenchReport> r = FromCsv(csv);
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<GateSummary> gates = SummarizeGates(*r);
  ASSERT_EQ(gates.size(), 1u);
  const GateSummary& g = gates[0];
  EXPECT_EQ(g.set, "waveq");
  EXPECT_EQ(g.shapes, 2);
  EXPECT_NEAR(g.regret, std::sqrt(12.0 / 10 * 20.0 / 20), 1e-9);
  EXPECT_NEAR(g.worst_regret, 1.2, 1e-9);
  EXPECT_EQ(g.worst_regret_shape, "1000x512x4096");
  EXPECT_NEAR(g.argmin_regret, std::sqrt(10.0 / 10 * 25.0 / 20), 1e-9);
  EXPECT_NEAR(g.worst_argmin_regret, 1.25, 1e-9);
  EXPECT_EQ(g.worst_argmin_shape, "2000x512x4096");
  EXPECT_NEAR(g.auto_over_cublas, std::sqrt(9.0 / 12 * 20.0 / 20), 1e-9);
  EXPECT_NEAR(g.best_over_cublas, std::sqrt(9.0 / 10 * 20.0 / 20), 1e-9);
  EXPECT_NEAR(g.worst_auto_over_dp, 1.0, 1e-9);
  // Shape 1's plans: auto, dp and dp/128x256x64 ran one plan (12.07 us on average), ranked
  // second of three as predicted: correlation 1; shape 2's -1. The median of the two is 0.
  EXPECT_EQ(g.rank_shapes, 2);
  EXPECT_NEAR(g.rank_median, 0, 1e-9);
  // |predicted / measured - 1| over the six plans: 1 - 11 / 12.07, 0.1, 1 / 14, 0.1, 0, 0.28;
  // the median is the mean of the third and fourth.
  EXPECT_NEAR(g.abs_error_median, (1 - 11 / (36.2 / 3) + 0.1) / 2, 1e-9);
  EXPECT_EQ(g.plans, 6);
  // Mode argmin ran shape 2's Stream-K plan, 1.25x auto's time (one shape timed it).
  EXPECT_EQ(g.argmin_shapes, 1);
  EXPECT_NEAR(g.argmin_over_auto, 1.25, 1e-9);
  EXPECT_EQ(g.most_argmin_shape, "2000x512x4096");
  const std::string text = FormatGates(gates);
  EXPECT_NE(text.find("mode argmin's time over auto's 1.250 over 1 shapes"), std::string::npos)
      << text;
  EXPECT_NE(text.find("waveq"), std::string::npos) << text;
  EXPECT_NE(text.find("1000x512x4096"), std::string::npos) << text;
}

TEST(BenchReport, CsvRoundTripKeepsTheSummaries) {
  const BenchReport r = TwoShapeReport();
  absl::StatusOr<BenchReport> back = FromCsv(ToCsv(r));
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->rows.size(), r.rows.size());
  for (const char* other : {"dp", "cublas"}) {
    for (const char* set : {"waveq", "llm"}) {
      EXPECT_NEAR(Summarize(*back, set, other).geomean, Summarize(r, set, other).geomean, 1e-3)
          << set << " vs " << other;
    }
  }
  EXPECT_EQ(back->rows[2].Find("splitk")->status, "WRONG");
  EXPECT_DOUBLE_EQ(back->rows[1].Find("auto")->predicted_us, 125);
  EXPECT_DOUBLE_EQ(back->rows[1].Find("dp")->predicted_us, 90);
  EXPECT_EQ(back->rows[1].Find("cublas")->predicted_us, 0);
  EXPECT_NEAR(SummarizePrediction(*back, "waveq", "auto").geomean, 1.0, 1e-9);
  // A CSV from before the predicted_us and launches_us columns still reads, without them.
  std::string old_csv = ToCsv(r);
  for (int column = 0; column < 2; ++column) {
    for (size_t at = 0; (at = old_csv.find('\n', at)) != std::string::npos; ++at) {
      const size_t comma = old_csv.rfind(',', at);
      old_csv.erase(comma, at - comma);
      at = comma;
    }
  }
  ASSERT_EQ(old_csv.find("predicted_us"), std::string::npos) << old_csv.substr(0, 300);
  absl::StatusOr<BenchReport> old_back = FromCsv(old_csv);
  ASSERT_TRUE(old_back.ok()) << old_back.status();
  EXPECT_EQ(old_back->rows[1].Find("auto")->predicted_us, 0);
  EXPECT_NEAR(Summarize(*old_back, "waveq", "dp").geomean, Summarize(r, "waveq", "dp").geomean,
              1e-3);
  EXPECT_FALSE(FromCsv("m,n,k\n1,2,3\n").ok());
}

// --compare: two runs of the same shapes, each normalized by its own cuBLAS time; the shapes
// whose auto plan differs listed slowest first.
TEST(BenchReport, ComparesTwoRunsShapeByShape) {
  auto run = [](double auto_a, double cublas_a, double auto_b, double cublas_b, int tile_b) {
    BenchReport r;
    for (int i = 0; i < 2; ++i) {
      ShapeResult row;
      row.shape = BenchShape{"paper", "", 1000 + i, 2000, 3000};
      ModeResult a;
      a.mode = "auto", a.status = "ok", a.us = i == 0 ? auto_a : auto_b;
      Plan p;
      p.mode = Mode::kDataParallel, p.tile_m = 128, p.tile_n = i == 0 ? 128 : tile_b;
      a.plan = p;
      ModeResult c;
      c.mode = "cublas", c.status = "ok", c.us = i == 0 ? cublas_a : cublas_b;
      row.modes = {a, c};
      r.rows.push_back(row);
    }
    return r;
  };
  // The second run: the card 10% slower throughout (cuBLAS too), shape 0 on the same plan, shape
  // 1 on another plan and, against cuBLAS, 1.5x as fast.
  const BenchReport first = run(10, 8, 30, 20, 128);
  const BenchReport second = run(11, 8.8, 22, 22, 64);
  const std::string text = CompareRuns(first, second);
  EXPECT_NE(text.find("normalized by cuBLAS"), std::string::npos) << text;
  // Shape 0: 1.0; shape 1: (30 / 22) * (22 / 20) = 1.5; geomean sqrt(1.5) = 1.225.
  EXPECT_NE(text.find("paper         2     1.225   1.000   1.500   1, 1.500"), std::string::npos)
      << text;
  EXPECT_NE(text.find("1001x2000x3000         1.500      30.0      22.0  dp 128x128 -> dp 128x64"),
            std::string::npos)
      << text;
  // Without cuBLAS in both, raw times.
  BenchReport no_cublas = second;
  for (ShapeResult& r : no_cublas.rows) r.modes.pop_back();
  EXPECT_NE(CompareRuns(first, no_cublas).find("raw times"), std::string::npos);
}

// A streamk-bench CSV of `plans` on the H200, each "measured" at what `truth` predicts.
std::string SyntheticCsv(const std::vector<std::pair<std::string, PlanOptions>>& modes,
                         const std::vector<BenchShape>& shapes, const CostModel& truth) {
  std::string csv =
      "gpu,set,name,m,n,k,dtype,out_dtype,layout,mode,status,time_us,spread,tflops,rel_error,"
      "plan_mode,dp_tiles,sk_tiles,sk_blocks,sk_regions,reduction,reduction_blocks,grid_blocks,"
      "tile_m,tile_n\n";
  for (const BenchShape& s : shapes) {
    for (const auto& [mode, o] : modes) {
      Problem pr;
      pr.m = s.n, pr.n = s.m, pr.k = s.k;  // the kernel computes D^T of the column-major D
      const Plan p = *MakePlan(pr, H200Spec(), o);
      absl::StrAppend(&csv, "H200,", s.set, ",", s.name, ",", s.m, ",", s.n, ",", s.k,
                      ",fp16,fp16,tn,", mode, ",ok,", PredictMicros(p, truth), ",0,0,0,",
                      ModeName(p.mode), ",", p.dp_tiles, ",", p.sk_tiles, ",", p.sk_blocks, ",",
                      p.sk_regions, ",", ReductionName(p.reduction), ",", p.reduction_blocks, ",",
                      p.grid_blocks, ",", p.tile_m, ",", p.tile_n, "\n");
    }
  }
  return csv;
}

// streamk-fit --held: each streamk mode's plan, rebuilt, priced on the SMs left running against
// the measured slowdown; cuBLAS, stalled rows and rows whose recorded plan does not rebuild are
// left out.
// streamk-fit --bytes: each row of scripts/gpu_dram_bytes.sh's CSV counted as the model's memory
// floor counts it. Data-parallel: A and B once. Every tile Stream-K over 5888 x 2944 x 8192 (the
// planner's 2944 x 5888): B (96.5 MB) is over the h100 preset's L2, A (48.2 MB) is not, so each
// of B's panels is read again by up to the tiles a block takes (713 / 132) more tiles of its 23.
TEST(CostFit, DramBytesCheckCountsWhatTheFloorCounts) {
  const std::string header =
      "shape,plan,m,n,k,tile_m,tile_n,tiles_m,tiles_n,sk_tiles,sk_blocks,tiles_per_sk_block,us,"
      "dram_read_bytes\n";
  const std::string csv =
      header +
      "5888x2944x8192,dp/128x192x64,2944,5888,8192,128,192,23,31,0,0,0.00,398.3,429990000\n"
      "5888x2944x8192,streamk/128x192x64,2944,5888,8192,128,192,23,31,713,132,5.40,568.1,"
      "1390000000\n";
  absl::StatusOr<std::vector<BytesCheck>> checks = CheckDramBytes(csv, H100Spec());
  ASSERT_TRUE(checks.ok()) << checks.status();
  ASSERT_EQ(checks->size(), 2u);
  const double a = 2.0 * 2944 * 8192, b = 2.0 * 5888 * 8192;
  EXPECT_EQ((*checks)[0].plan, "dp/128x192x64");
  EXPECT_DOUBLE_EQ((*checks)[0].measured, 429990000);
  EXPECT_NEAR((*checks)[0].counted, a + b, 1.0);
  EXPECT_EQ((*checks)[1].sk_tiles, 713);
  EXPECT_NEAR((*checks)[1].counted, a + b + 2.0 * 192 * 8192 * 713 / 23 * (713.0 / 132), 1.0);

  absl::StatusOr<std::vector<BytesCheck>> bad = CheckDramBytes("shape,plan,m\n", H100Spec());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("no column 'n'"), std::string::npos) << bad.status();
  bad = CheckDramBytes(header + "5888x2944x8192,dp/128x192x64,2944\n", H100Spec());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("line 2"), std::string::npos) << bad.status();
  bad = CheckDramBytes(header + "s,p,x,5888,8192,128,192,23,31,0,0,0,1,1\n", H100Spec());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("column 'm' is not a number"), std::string::npos)
      << bad.status();
}

TEST(CostFit, HeldCheckPricesTheRecordedPlansOnTheSmsLeft) {
  const DeviceSpec dev = H200Spec();
  const BenchShape shape{"llm", "", 512, 12288, 4096};
  // The plan --hold-sms ran for auto+dynamic (fp16, layout tn), and its predicted slowdown.
  Options dynamic;
  dynamic.schedule = Schedule::kDynamic;
  GemmArgs g = BenchGemmArgs(shape, DType::kF16, DType::kF16, *ParseBenchLayout("tn"), 1);
  g.a = g.b = g.d = reinterpret_cast<void*>(uintptr_t{256});
  absl::StatusOr<Plan> plan = PlanGemm(g, dev, dynamic);
  ASSERT_TRUE(plan.ok()) << plan.status();
  const CostModel& cost = KernelCost(dev, *plan);
  const double predicted =
      PredictRunningMicros(*plan, cost, 116) / PredictRunningMicros(*plan, cost, 132);
  ContentionReport r;
  r.sms = 132, r.held = {16}, r.modes = {"auto+dynamic", "cublas"};
  auto add = [&](const std::string& mode, int held, double us, const std::string& name,
                 bool gave_up = false) {
    HeldTiming t;
    t.shape = shape, t.mode = mode, t.held = held, t.us = us, t.plan = name, t.gave_up = gave_up;
    r.rows.push_back(t);
  };
  add("auto+dynamic", 0, 80, PlanName(*plan));
  add("auto+dynamic", 16, 80 * 1.25 * predicted, PlanName(*plan));
  add("cublas", 0, 80, "");
  add("cublas", 16, 120, "");
  std::vector<HeldCheck> checks = CheckHeld(r, dev);
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].mode, "auto+dynamic");
  EXPECT_EQ(checks[0].plan, PlanName(*plan));
  EXPECT_NEAR(checks[0].predicted, predicted, 1e-12);
  EXPECT_NEAR(checks[0].measured / checks[0].predicted, 1.25, 1e-9);
  // With 16 of 132 SMs held, 384 tiles take four rounds of claims instead of three.
  EXPECT_GT(predicted, 1.14);
  // A plan the planner no longer makes, and a stalled timing, are left out.
  r.rows[1].plan = "dp 64x64";
  EXPECT_TRUE(CheckHeld(r, dev).empty());
  r.rows[1].plan = PlanName(*plan), r.rows[1].gave_up = true;
  EXPECT_TRUE(CheckHeld(r, dev).empty());
}

TEST(CostFit, RecoversTheConstantsThatMadeTheTimes) {
  // Times made by the H200's 128 x 256 model with two constants changed; fitting those two from
  // the preset brings the error to ~0, and auto replayed finds its pick among the measured plans.
  const DeviceSpec dev = H200Spec();
  CostModel truth = dev.main().cost;
  truth.iter_busy_us *= 1.3;
  truth.partial_us *= 0.5;
  std::vector<std::pair<std::string, PlanOptions>> modes;
  PlanOptions o;
  o.tile = dev.main().tile;
  o.mode = Mode::kDataParallel;
  modes.push_back({"dp", o});
  o.mode = Mode::kStreamK;
  modes.push_back({"streamk", o});
  o.sk_tiles = kPartialWaveTiles;
  o.blocks = 16;
  o.reduction = Reduction::kSeparate;
  modes.push_back({"streamk-tail:16@separate", o});
  const std::vector<BenchShape> shapes = WaveQuantizationSet(132, 128, 256);
  absl::StatusOr<std::vector<Measurement>> rows =
      ParseBenchCsv("synthetic.csv", SyntheticCsv(modes, shapes, truth));
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), shapes.size() * modes.size());

  std::vector<TimedPlan> data;
  for (const Measurement& r : *rows) {
    absl::StatusOr<Plan> p = Replan(r, dev);
    ASSERT_TRUE(p.ok()) << p.status();
    data.push_back({*p, r.time_us});
  }
  const FitResult fit = FitCosts(data, dev.main().cost, {"iter_busy_us", "partial_us"}, 5000);
  EXPECT_GT(fit.rms_before, 0.05);
  EXPECT_LT(fit.rms_after, 1e-3);
  EXPECT_NEAR(fit.cost.iter_busy_us, truth.iter_busy_us, 0.01 * truth.iter_busy_us);
  EXPECT_NEAR(fit.cost.partial_us, truth.partial_us, 0.02 * truth.partial_us);

  const std::vector<Replay> replay = ReplayAuto(*rows, dev);
  ASSERT_EQ(replay.size(), shapes.size());
  for (const Replay& r : replay) {
    EXPECT_GT(r.dp_us, 0) << r.m << "x" << r.n << "x" << r.k;
    EXPECT_GT(r.best_us, 0);
    EXPECT_LE(r.best_us, r.dp_us);
    EXPECT_GE(r.argmin_us, r.best_us);
  }
  // Under the constants that made the times, the model's fastest measured plan is the fastest.
  DeviceSpec made = dev;
  made.main().cost = truth;
  for (const Replay& r : ReplayAuto(*rows, made)) {
    EXPECT_EQ(r.argmin_us, r.best_us) << r.m << "x" << r.n << "x" << r.k << ": " << r.argmin
                                      << " predicted fastest, " << r.best << " measured so";
  }
}

TEST(CostFit, ClusterRowsAreRebuiltFittedAndReplayed) {
  // Rows of the 2-SM cluster configuration (tile 256 x 256) rebuild as cluster plans, their own
  // constants fit, and auto's replay finds them among the measured plans.
  const DeviceSpec dev = H200Spec();
  CostModel truth = dev.Find(KernelRole::kCluster)->cost;
  truth.iter_busy_us *= 0.8;
  std::vector<std::pair<std::string, PlanOptions>> modes = {{"auto", PlanOptions{}}};
  PlanOptions o;
  o.tile = dev.main().tile;
  o.mode = Mode::kDataParallel;
  modes.push_back({"dp", o});
  o.tile = dev.TileOf(KernelRole::kCluster);
  modes.push_back({"dp/256x256x64", o});
  o.mode = Mode::kStreamK;
  modes.push_back({"streamk/256x256x64", o});
  const std::vector<BenchShape> shapes = WaveQuantizationSet(132, 128, 256);
  absl::StatusOr<std::vector<Measurement>> rows =
      ParseBenchCsv("synthetic.csv", SyntheticCsv(modes, shapes, truth));
  ASSERT_TRUE(rows.ok()) << rows.status();

  std::vector<TimedPlan> data;
  for (const Measurement& r : *rows) {
    absl::StatusOr<Plan> p = Replan(r, dev);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->cluster_m, r.tile_m == 256 ? 2 : 1) << r.m << "x" << r.n << "x" << r.k;
    if (p->cluster_m == 2) data.push_back({*p, r.time_us});
  }
  ASSERT_EQ(data.size(), 2 * shapes.size());  // auto keeps aligned rows off clusters
  const FitResult fit =
      FitCosts(data, dev.Find(KernelRole::kCluster)->cost, {"iter_busy_us"}, 2000);
  EXPECT_LT(fit.rms_after, 1e-3);
  EXPECT_NEAR(fit.cost.iter_busy_us, truth.iter_busy_us, 0.01 * truth.iter_busy_us);

  // Cluster plans come out faster here (their iterations are cheaper than the truth of the
  // 128 x 256 rows): the fastest measured plan of a shape may be one.
  int cluster_best = 0;
  for (const Replay& r : ReplayAuto(*rows, dev)) {
    EXPECT_GT(r.pick_us, 0) << r.m << "x" << r.n << "x" << r.k << " " << r.pick;
    cluster_best += r.best.find("/2sm") != std::string::npos;
  }
  EXPECT_GT(cluster_best, 0);
}

// --calibrate's fit: times made by a "true" device model whose configurations differ from the
// H200 preset's, on the calibration shapes and modes; FitDevice, started from the preset, brings
// each configuration's error on the held-out shapes down to the noise, and auto replayed on them
// picks at least as well as with the preset's constants.
TEST(CostFit, FitDeviceRecoversEveryConfigurationOnHeldOutShapes) {
  const DeviceSpec start = H200Spec();
  DeviceSpec truth = start;
  for (KernelConfig& c : truth.kernels) {
    CostModel& t = c.cost;
    t.iter_busy_us *= 1.25;
    t.epilogue_us *= 0.6;
    t.unit_us *= 1.4;
  }
  truth.main().cost.partial_us *= 0.5;
  absl::StatusOr<std::vector<ModeSpec>> modes = ParseModes(CalibrationModes(start));
  ASSERT_TRUE(modes.ok()) << modes.status();
  // dp on seven configurations and Stream-K on the cluster one; six kinds on three, three on
  // three more.
  EXPECT_EQ(modes->size(), 7u + 1u + 3u * 6u + 3u * 3u);
  const std::vector<BenchShape> shapes = CalibrationSet();
  ASSERT_EQ(shapes.size(), 48u);
  std::string csv =
      "gpu,set,name,m,n,k,dtype,out_dtype,layout,mode,status,time_us,spread,tflops,rel_error,"
      "plan_mode,dp_tiles,sk_tiles,sk_blocks,sk_regions,reduction,reduction_blocks,grid_blocks,"
      "tile_m,tile_n\n";
  int row = 0;
  for (const BenchShape& s : shapes) {
    GemmArgs g = BenchGemmArgs(s, DType::kF16, DType::kF16, *ParseBenchLayout("tn"), 1);
    g.a = g.b = g.d = reinterpret_cast<void*>(uintptr_t{256});
    for (const ModeSpec& m : *modes) {
      absl::StatusOr<Plan> p = PlanGemm(g, start, m.options);
      if (!p.ok()) continue;  // e.g. no partial wave to stream
      const double noise = 1 + 0.02 * ((row++ * 7919) % 11 - 5) / 5.0;  // within +-2%
      absl::StrAppend(&csv, "H200,", s.set, ",", s.name, ",", s.m, ",", s.n, ",", s.k,
                      ",fp16,fp16,tn,", m.name, ",ok,",
                      PredictMicros(*p, KernelCost(truth, *p)) * noise, ",0,0,0,",
                      ModeName(p->mode), ",", p->dp_tiles, ",", p->sk_tiles, ",", p->sk_blocks,
                      ",", p->sk_regions, ",", ReductionName(p->reduction), ",",
                      p->reduction_blocks, ",", p->grid_blocks, ",", p->tile_m, ",", p->tile_n,
                      "\n");
    }
  }
  absl::StatusOr<std::vector<Measurement>> rows = ParseBenchCsv("calib.csv", csv);
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_GT(rows->size(), 500u);
  int held = 0;
  for (const BenchShape& s : shapes) {
    Measurement r;
    r.m = s.m, r.n = s.n, r.k = s.k;
    held += HeldOut(r, 0.25);
  }
  EXPECT_GE(held, 6);
  EXPECT_LE(held, 18);

  const DeviceFit fit = FitDevice(*rows, start, 0.25, 4000);
  EXPECT_EQ(fit.not_rebuilt, 0);
  // 8-way splits of more tiles than a round holds, and 64 x 128 plans of more than a round of
  // tiles: plans auto does not weigh, left out of the fit.
  EXPECT_GT(fit.outside_auto, 0);
  EXPECT_LT(fit.outside_auto, static_cast<int>(rows->size()) / 2);
  ASSERT_EQ(fit.configurations.size(), 7u);
  for (const ConfigurationFit& c : fit.configurations) {
    EXPECT_GT(c.held_rows, 0) << c.name;
    EXPECT_GT(c.held_before, 0.05) << c.name;
    EXPECT_LT(c.held_after, 0.04) << c.name << ": " << FormatDeviceFit(fit);
    EXPECT_LT(c.fit_after, 0.04) << c.name;
    EXPECT_LT(c.held_rank_after, 0.04) << c.name;
    EXPECT_LT(c.held_rank_after, c.held_rank_before) << c.name;
    EXPECT_NE(std::find(c.fields.begin(), c.fields.end(), "iter_busy_us"), c.fields.end())
        << c.name;
    // Every configuration's partial sums are fitted: each has split or streamed rows.
    EXPECT_NE(std::find(c.fields.begin(), c.fields.end(), "partial_us"), c.fields.end())
        << c.name << ": " << absl::StrJoin(c.fields, ",");
  }
  EXPECT_GT(fit.held_compared, 0);
  EXPECT_LE(fit.held_regret_after, fit.held_regret_before + 1e-9);
  // The argmin over the measured plans under the fitted constants: within the noise (2%) of
  // the fastest measured plan.
  EXPECT_GT(fit.held_argmin_compared, 0);
  EXPECT_LE(fit.held_argmin_after, 1.02) << FormatDeviceFit(fit);
  EXPECT_GE(fit.held_argmin_after, 1.0);
  const std::string table = FormatDeviceFit(fit);
  EXPECT_NE(table.find("held:now"), std::string::npos) << table;
  // The fitted model is a device profile.
  absl::StatusOr<DeviceSpec> back =
      DeviceSpecFromJson(DeviceSpecToJson(fit.device, DeviceFitJson(fit, "streamk-fit \"x\"")));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->main().cost.iter_busy_us, fit.device.main().cost.iter_busy_us);
  EXPECT_NE(DeviceSpecToJson(fit.device, DeviceFitJson(fit, "cmd")).find("\"held_rms\""),
            std::string::npos);
}

TEST(CostFit, EveryTermOfTheNarrowLoadsCanBeFitted) {
  // The narrow M- or N-major loads' terms, as they are priced per kernel configuration
  // (cost_terms.h, PredictMicros): each by its CostModel name, and nothing else by that name.
  CostModel c;
  EXPECT_EQ(CostField(c, "narrow_mn_iter_us"), &c.narrow_mn_iter_us);
  EXPECT_EQ(CostField(c, "narrow_mn_misaligned_iter_us"), &c.narrow_mn_misaligned_iter_us);
  EXPECT_EQ(CostField(c, "narrow_mn_floor_iter_us"), &c.narrow_mn_floor_iter_us);
  EXPECT_EQ(CostField(c, "narrow_mn_nothing"), nullptr);
  const std::vector<std::string>& names = CostFieldNames();
  for (const char* name : {"narrow_mn_iter_us", "narrow_mn_misaligned_iter_us"})
    EXPECT_EQ(std::count(names.begin(), names.end(), name), 1) << name;
}

TEST(CostFit, BadCsvNamesTheLine) {
  absl::StatusOr<std::vector<Measurement>> r = ParseBenchCsv("x.csv", "gpu,set\nH200,paper\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("x.csv:1"), std::string::npos) << r.status();
  const std::string header =
      "set,name,m,n,k,dtype,layout,mode,status,time_us,plan_mode,dp_tiles,sk_tiles,sk_blocks,"
      "reduction,reduction_blocks,tile_m,tile_n\n";
  r = ParseBenchCsv("x.csv",
                    header + "paper,,1,2,3,fp16,tn,dp,ok,fast,dp,1,0,0,deterministic,0,128,128\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("x.csv:2"), std::string::npos) << r.status();
  // cuBLAS rows and rows that did not pass are not measurements of a plan.
  r = ParseBenchCsv("x.csv",
                    header + "paper,,1,2,3,fp16,tn,cublas,ok,5,,0,0,0,,0,0,0\n" +
                        "paper,,1,2,3,fp16,tn,dp,WRONG,5,dp,1,0,0,deterministic,0,128,128\n");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->empty());
}

// streamk-bench --moe's routings: every token to top-k distinct experts; skew concentrates
// them on a few experts, a uniform routing spreads them.
TEST(MoeBench, RoutingsGiveEveryTokenTopKDistinctExperts) {
  for (const tools::MoeProjection& p : tools::MoeProjections()) {
    EXPECT_GE(p.experts, 8) << p.name;
    EXPECT_LE(p.experts, kMaxGroups) << p.name;
    for (double skew : {0.0, 1.2}) {
      const std::vector<int64_t> rows = tools::RouteTokens(p.experts, p.topk, 512, skew, 3);
      ASSERT_EQ(rows.size(), static_cast<size_t>(p.experts));
      int64_t total = 0;
      for (int64_t r : rows) {
        EXPECT_GE(r, 0);
        EXPECT_LE(r, 512) << "an expert took a token twice";
        total += r;
      }
      EXPECT_EQ(total, 512 * p.topk) << p.name;
    }
  }
  // 64 experts, top 1: uniform leaves the largest expert near 4096 / 64 = 64 rows; a skew of 1.2
  // gives the largest well over a fifth of them.
  const std::vector<int64_t> even = tools::RouteTokens(64, 1, 4096, 0.0, 5);
  const std::vector<int64_t> skewed = tools::RouteTokens(64, 1, 4096, 1.2, 5);
  EXPECT_LT(*std::max_element(even.begin(), even.end()), 120);
  EXPECT_GT(*std::max_element(skewed.begin(), skewed.end()), 4096 / 5);
  EXPECT_EQ(tools::RouteTokens(64, 1, 4096, 1.2, 5), skewed) << "a seed gives one routing";
}

// The grouped GEMM streamk-bench --moe times is a valid call for every projection and routing
// (pointers of 256-byte-aligned buffers; nothing runs).
TEST(MoeBench, GroupedArgumentsAreValidForEveryProjection) {
  alignas(256) static char buffer[256];
  for (const tools::MoeProjection& p : tools::MoeProjections()) {
    for (double skew : {0.0, 1.2}) {
      const std::vector<int64_t> rows = tools::RouteTokens(p.experts, p.topk, 64, skew, 7);
      std::vector<int64_t> ends(rows.size());
      std::partial_sum(rows.begin(), rows.end(), ends.begin());
      for (DType t : {DType::kF16, DType::kBF16}) {
        const GroupedGemmArgs g = tools::MoeGroupedArgs(p, ends, t, buffer, buffer, buffer);
        EXPECT_TRUE(ValidateGroupedGemmArgs(g).ok())
            << p.name << " skew " << skew << ": " << ValidateGroupedGemmArgs(g);
        EXPECT_EQ(g.group_ends, ends.data());
        EXPECT_EQ(g.groups, p.experts);
      }
    }
  }
}

}  // namespace
}  // namespace streamk::tools

TEST(DecompositionFlags, SetsPlanOptionsAndOptionsAlike) {
  const streamk::tools::DecompositionFlags f{"streamk", 0, 12, "tail", "separate", 4};
  streamk::PlanOptions p;
  streamk::Options o;
  ASSERT_TRUE(streamk::tools::SetDecomposition(f, &p).ok());
  ASSERT_TRUE(streamk::tools::SetDecomposition(f, &o).ok());
  for (auto [mode, blocks, sk_tiles, reduction, slices] :
       {std::tuple{p.mode, p.blocks, p.sk_tiles, p.reduction, p.reduction_slices},
        {o.mode, o.blocks, o.sk_tiles, o.reduction, o.reduction_slices}}) {
    EXPECT_EQ(mode, streamk::Mode::kStreamK);
    EXPECT_EQ(blocks, 12);
    EXPECT_EQ(sk_tiles, streamk::kPartialWaveTiles);
    EXPECT_EQ(reduction, streamk::Reduction::kSeparate);
    EXPECT_EQ(slices, 4);
  }
  streamk::PlanOptions defaults;
  ASSERT_TRUE(streamk::tools::SetDecomposition({}, &defaults).ok());
  EXPECT_EQ(defaults.mode, streamk::Mode::kAuto);
  EXPECT_EQ(defaults.sk_tiles, 0);
  EXPECT_FALSE(defaults.reduction.has_value());
}

TEST(BenchModes, ScheduleAndSmsSuffixes) {
  absl::StatusOr<std::vector<streamk::tools::ModeSpec>> modes =
      streamk::tools::ParseModes({"auto+sms:116", "auto+dynamic+sms:100", "dp/128x128x64+dynamic",
                                  "cublas", "streamk+static"});
  ASSERT_TRUE(modes.ok()) << modes.status();
  ASSERT_EQ(modes->size(), 5u);
  EXPECT_EQ((*modes)[0].options.avail_sms, 116);
  EXPECT_FALSE((*modes)[0].options.schedule.has_value());  // the planner's
  EXPECT_EQ((*modes)[4].options.schedule, streamk::Schedule::kStatic);
  EXPECT_EQ((*modes)[4].options.mode, streamk::Mode::kStreamK);
  EXPECT_EQ((*modes)[1].options.avail_sms, 100);
  EXPECT_EQ((*modes)[1].options.schedule, streamk::Schedule::kDynamic);
  EXPECT_EQ((*modes)[1].options.mode, streamk::Mode::kAuto);
  EXPECT_EQ((*modes)[2].options.avail_sms, 0);
  EXPECT_EQ((*modes)[2].options.schedule, streamk::Schedule::kDynamic);
  EXPECT_EQ((*modes)[2].options.tile, (streamk::TileShape{128, 128, 64}));
  EXPECT_EQ((*modes)[1].name, "auto+dynamic+sms:100");
  for (auto [word, want] : {std::pair<const char*, const char*>{"auto+sms:0", "+sms:N takes a"},
                            {"auto+sms:x", "+sms:N takes a"},
                            {"cublas+sms:100", "no +sms:N"},
                            {"auto+sms:100+dynamic", "+sms:N takes a"}}) {
    const absl::Status s = streamk::tools::ParseModes({word}).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << word;
    EXPECT_NE(s.message().find(want), std::string::npos) << s.message();
  }
}

// Random --modes words, pieced together from the grammar's parts and mutated: each parses, or is
// refused with InvalidArgument naming the word; a word that parses gives options the planner
// takes or refuses with a status (never a crash).
TEST(BenchModes, RandomWordsParseOrAreNamed) {
  std::mt19937_64 rng(20261208);
  auto below = [&rng](size_t n) { return static_cast<size_t>(rng() % n); };
  const char* const heads[] = {"auto",   "dp",     "splitk", "streamk", "streamk-tail",
                               "cublas", "argmin", "sk",     ""};
  const char* const parts[] = {"/128x128x64",
                               "/128x256x64",
                               "/64x128x64",
                               "/1x1x1",
                               "/x",
                               ":4",
                               ":0",
                               ":-1",
                               ":99999999999",
                               "@atomic",
                               "@separate",
                               "@separate:4",
                               "@deterministic",
                               "@nope",
                               "+dynamic",
                               "+static",
                               "+sms:100",
                               "+sms:0",
                               "+sms:",
                               "+",
                               "/",
                               ":",
                               "@"};
  const char* const words_ok[] = {"auto", "dp", "cublas", "streamk"};
  int parsed = 0, refused = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    std::string word = heads[below(std::size(heads))];
    for (size_t n = below(4); n > 0; --n) word += parts[below(std::size(parts))];
    if (below(4) == 0 && !word.empty())
      word[below(word.size())] = static_cast<char>(32 + below(95));
    absl::StatusOr<std::vector<streamk::tools::ModeSpec>> modes =
        streamk::tools::ParseModes({words_ok[below(std::size(words_ok))], word});
    if (!modes.ok()) {
      ++refused;
      ASSERT_EQ(modes.status().code(), absl::StatusCode::kInvalidArgument) << word;
      ASSERT_NE(modes.status().message().find(word), std::string::npos)
          << modes.status() << " does not name '" << word << "'";
      continue;
    }
    ++parsed;
    ASSERT_EQ(modes->size(), 2u) << word;
    const streamk::tools::ModeSpec& m = (*modes)[1];
    if (m.cublas || m.argmin) continue;
    streamk::GemmArgs g;
    static uint16_t buf[4][64];
    g.m = 1000, g.n = 1000, g.k = 1000;
    g.a = buf[0], g.b = buf[1], g.c = buf[2], g.d = buf[3];
    g.lda = g.ldb = g.ldc = g.ldd = 1000;
    absl::StatusOr<streamk::Plan> p = streamk::PlanGemm(g, streamk::H200Spec(), m.options);
    if (!p.ok()) ASSERT_FALSE(p.status().message().empty()) << word;
  }
  EXPECT_GT(parsed, 300);
  EXPECT_GT(refused, 1000);
}

TEST(BenchModes, ArgminTakesScheduleAndSmsButNoTileOrReduction) {
  absl::StatusOr<std::vector<streamk::tools::ModeSpec>> modes =
      streamk::tools::ParseModes({"argmin", "argmin+dynamic+sms:100"});
  ASSERT_TRUE(modes.ok()) << modes.status();
  EXPECT_TRUE((*modes)[0].argmin);
  EXPECT_FALSE((*modes)[0].cublas);
  EXPECT_TRUE((*modes)[1].argmin);
  EXPECT_EQ((*modes)[1].options.schedule, streamk::Schedule::kDynamic);
  EXPECT_EQ((*modes)[1].options.avail_sms, 100);
  for (const char* word : {"argmin/128x128x64", "argmin@atomic"}) {
    const absl::Status s = streamk::tools::ParseModes({word}).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << word;
    EXPECT_NE(s.message().find("argmin picks its own tile and reduction"), std::string::npos)
        << s.message();
  }
}

// ModelArgmin weighs every configuration, decomposition and copy auto weighs, without its rules:
// over random problems (layouts tn and nn, rows padded or packed), its pick is never predicted
// slower than auto's, its forced options plan to the prediction it reports, and on some problems
// it is predicted faster (where a rule held auto back).
TEST(ModelArgmin, NeverPredictedSlowerThanAutoAndPlansAsReported) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> log_size(std::log(16.0), std::log(16384.0));
  const streamk::DeviceSpec devices[] = {streamk::H200Spec(), streamk::H100Spec(),
                                         streamk::A100Spec()};
  int faster = 0, checked = 0;
  std::vector<double> gains;  // auto's prediction over argmin's, where argmin is faster
  for (int i = 0; i < 3000; ++i) {
    const streamk::DeviceSpec& dev = devices[i % 3];
    streamk::tools::BenchShape shape{"t", "", static_cast<int64_t>(std::exp(log_size(rng))),
                                     static_cast<int64_t>(std::exp(log_size(rng))),
                                     static_cast<int64_t>(std::exp(log_size(rng)))};
    const bool packed = i % 4 == 0;  // rows of any length: misaligned, or copied first
    streamk::GemmArgs g =
        streamk::tools::BenchGemmArgs(shape, streamk::DType::kF16, streamk::DType::kF16,
                                      *streamk::tools::ParseBenchLayout(i % 5 == 0 ? "nn" : "tn"),
                                      1, packed);
    void* const aligned = reinterpret_cast<void*>(uintptr_t{256});
    g.a = g.b = g.d = aligned;
    const std::string what = absl::StrCat(dev.name, " ", shape.m, "x", shape.n, "x", shape.k);
    streamk::PlanExplanation auto_why;
    absl::StatusOr<streamk::Plan> pick = streamk::PlanGemm(g, dev, {}, &auto_why);
    ASSERT_TRUE(pick.ok()) << what << ": " << pick.status();
    absl::StatusOr<streamk::tools::ArgminPick> argmin = streamk::tools::ModelArgmin(g, dev);
    ASSERT_TRUE(argmin.ok()) << what << ": " << argmin.status();
    EXPECT_GT(argmin->weighed, 0) << what;
    EXPECT_LE(argmin->predicted_us, auto_why.predicted_us * (1 + 1e-9))
        << what << ": argmin " << argmin->name << "\n"
        << streamk::FormatPlan(*pick, &auto_why);
    streamk::PlanExplanation why;
    absl::StatusOr<streamk::Plan> p = streamk::PlanGemm(g, dev, argmin->options, &why);
    ASSERT_TRUE(p.ok()) << what << ": " << p.status();
    EXPECT_DOUBLE_EQ(why.predicted_us, argmin->predicted_us) << what;
    EXPECT_NE(argmin->options.tile, streamk::kNoTile) << what;
    EXPECT_NE(argmin->options.mode, streamk::Mode::kAuto) << what;
    if (argmin->predicted_us < auto_why.predicted_us * (1 - 1e-9)) {
      ++faster;
      gains.push_back(auto_why.predicted_us / argmin->predicted_us);
    }
    ++checked;
  }
  EXPECT_EQ(checked, 3000);
  // The rules hold auto back on some of them (docs/planner.md, "Decision rules").
  ASSERT_GT(faster, 0);
  std::sort(gains.begin(), gains.end());
  std::printf("argmin predicted faster than auto on %d of %d problems: by %.3fx (median), %.3fx "
              "(9 in 10), %.3fx at most\n",
              faster, checked, gains[gains.size() / 2], gains[gains.size() * 9 / 10],
              gains.back());
}

TEST(DecompositionFlags, ScheduleAndAvailableSms) {
  streamk::tools::DecompositionFlags f;
  f.schedule = "dynamic", f.avail_sms = 100;
  streamk::PlanOptions p;
  streamk::Options o;
  ASSERT_TRUE(streamk::tools::SetDecomposition(f, &p).ok());
  ASSERT_TRUE(streamk::tools::SetDecomposition(f, &o).ok());
  EXPECT_EQ(p.schedule, streamk::Schedule::kDynamic);
  EXPECT_EQ(o.schedule, streamk::Schedule::kDynamic);
  EXPECT_EQ(p.avail_sms, 100);
  EXPECT_EQ(o.avail_sms, 100);
  f.schedule = "fast";
  EXPECT_NE(streamk::tools::SetDecomposition(f, &p).message().find("--schedule fast: expected"),
            std::string::npos);
  f.schedule = "static", f.avail_sms = -1;
  EXPECT_NE(streamk::tools::SetDecomposition(f, &p).message().find("--avail_sms -1: must be"),
            std::string::npos);
}

TEST(DecompositionFlags, BadValuesNameTheFlag) {
  streamk::PlanOptions p;
  for (auto [flags, want] : {std::pair<streamk::tools::DecompositionFlags, const char*>{
                                 {"fast", 0, 0, "", "", 0}, "--mode fast: expected auto"},
                             {{"streamk", 0, 0, "none", "", 0}, "--sk_tiles none: must be"},
                             {{"streamk", 0, 0, "", "tree", 0}, "--reduction tree: expected"}}) {
    const absl::Status s = streamk::tools::SetDecomposition(flags, &p);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find(want), std::string::npos) << s.message();
  }
}

TEST(FlagNames, DashesInNamesReadAsUnderscores) {
  std::vector<std::string> in = {"streamk-bench", "--out-dtype", "fp32",   "--sk-tiles=tail",
                                 "--set=wide.iter-us=1",  "-1",  "my-shapes.txt", "--x",
                                 "--",              "--not-a-flag"};
  std::vector<char*> argv;
  for (std::string& a : in) argv.push_back(a.data());
  streamk::tools::AcceptDashedFlagNames(static_cast<int>(argv.size()), argv.data());
  const std::vector<std::string> want = {
      "streamk-bench", "--out_dtype", "fp32", "--sk_tiles=tail", "--set=wide.iter-us=1",
      "-1",            "my-shapes.txt", "--x", "--",           "--not-a-flag"};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(argv[i], want[i]) << "argument " << i;
}

TEST(FlagNames, SizesAsThreeArgumentsOrOneShape) {
  std::string prog = "streamk-plan", m = "4096", n = "50257", k = "768", shape = "4096x50257x768";
  using streamk::tools::SizeArguments;
  const std::vector<std::string> want = {"4096", "50257", "768"};
  EXPECT_EQ(SizeArguments({prog.data(), m.data(), n.data(), k.data()}), want);
  EXPECT_EQ(SizeArguments({prog.data(), shape.data()}), want);
  EXPECT_TRUE(SizeArguments({prog.data()}).empty());
  // Left for the caller to reject: two sizes, a one-size "shape", a shape beside sizes.
  EXPECT_EQ(SizeArguments({prog.data(), m.data(), n.data()}).size(), 2u);
  EXPECT_EQ(SizeArguments({prog.data(), m.data()}).size(), 1u);
  EXPECT_EQ(SizeArguments({prog.data(), shape.data(), k.data()}).size(), 2u);
}

TEST(FlagNames, HelpListsTheToolsOwnFlags) {
  for (const char* file : {"/work/main/tools/streamk_plan.cc", "tools/streamk_bench.cc",
                           "C:\\src\\tools\\streamk_fit.cc"})
    EXPECT_TRUE(streamk::tools::IsToolFlagFile(file)) << file;
  for (const char* file : {"/usr/include/absl/flags/parse.cc", "/work/main/tools/bench_report.cc",
                           "/work/main/bench/streamk_gemm.cc", "streamk_plan.cc",
                           "/work/main/mytools/streamk_plan.cc"})
    EXPECT_FALSE(streamk::tools::IsToolFlagFile(file)) << file;
}
