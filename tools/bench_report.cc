// Renderings of streamk-bench results (see bench_report.h).
#include "bench_report.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include <nlohmann/json.hpp>
#include "streamk/plan_print.h"

namespace streamk::tools {
namespace {

std::string ShapeText(const BenchShape& s) {
  return absl::StrCat(s.name.empty() ? "" : s.name + " ", s.m, "x", s.n, "x", s.k);
}

std::vector<std::string> Sets(const BenchReport& r) {
  std::vector<std::string> sets;
  for (const ShapeResult& row : r.rows)
    if (std::find(sets.begin(), sets.end(), row.shape.set) == sets.end())
      sets.push_back(row.shape.set);
  return sets;
}

std::string Xml(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

}  // namespace

std::string PlanName(const Plan& p) {
  const std::string tile = absl::StrCat(p.tile_m, "x", p.tile_n, p.cluster_m > 1 ? "/2sm" : "");
  const std::string repack = RepackName(p);
  const std::string suffix = repack.empty() ? "" : absl::StrCat(" repack-", repack);
  if (p.sk_blocks == 0) return absl::StrCat("dp ", tile, suffix);
  return absl::StrCat(ModeName(p.mode), " ", tile, " dp", p.dp_tiles, "+sk", p.sk_tiles, "/",
                      p.sk_blocks,
                      p.reduction == Reduction::kSeparate ? " sep"
                      : p.reduction == Reduction::kAtomic ? " atom"
                                                          : "",
                      suffix);
}

const ModeResult* ShapeResult::Find(const std::string& mode) const {
  for (const ModeResult& m : modes)
    if (m.mode == mode) return &m;
  return nullptr;
}

std::optional<double> ShapeResult::AutoSpeedupOver(const std::string& other) const {
  const ModeResult* a = Find("auto");
  const ModeResult* o = Find(other);
  if (a == nullptr || o == nullptr || a->status != "ok" || o->status != "ok" || a->us <= 0)
    return std::nullopt;
  return o->us / a->us;
}

bool SamePlan(const Plan& a, const Plan& b) {
  return PlanSummary(a) == PlanSummary(b) && a.raster == b.raster && a.swizzle == b.swizzle;
}

bool ShapeResult::AutoRanThePlanOf(const std::string& other) const {
  const ModeResult* a = Find("auto");
  const ModeResult* o = Find(other);
  return a != nullptr && o != nullptr && a->plan && o->plan && SamePlan(*a->plan, *o->plan);
}

namespace {

// Geometric mean, min and max of ratio(row) over the rows of `set` that have one.
template <typename Ratio>
RatioSummary SummarizeRows(const BenchReport& r, const std::string& set, Ratio ratio) {
  RatioSummary s;
  double log_sum = 0;
  for (const ShapeResult& row : r.rows) {
    if (!set.empty() && row.shape.set != set) continue;
    const std::optional<double> x = ratio(row);
    if (!x) continue;
    if (s.count == 0 || *x < s.min) s.min = *x, s.min_shape = ShapeText(row.shape);
    if (s.count == 0 || *x > s.max) s.max = *x, s.max_shape = ShapeText(row.shape);
    log_sum += std::log(*x);
    ++s.count;
  }
  if (s.count > 0) s.geomean = std::exp(log_sum / s.count);
  return s;
}

}  // namespace

RatioSummary Summarize(const BenchReport& r, const std::string& set, const std::string& other,
                       bool differing_plans) {
  return SummarizeRows(r, set, [&](const ShapeResult& row) -> std::optional<double> {
    if (differing_plans && row.AutoRanThePlanOf(other)) return std::nullopt;
    return row.AutoSpeedupOver(other);
  });
}

RatioSummary SummarizeLaunches(const BenchReport& r, const std::string& set,
                               const std::string& other) {
  return SummarizeRows(r, set, [&other](const ShapeResult& row) -> std::optional<double> {
    const ModeResult* a = row.Find("auto");
    const ModeResult* o = row.Find(other);
    if (a == nullptr || o == nullptr || a->status != "ok" || o->status != "ok" ||
        a->launches_us <= 0 || o->launches_us <= 0)
      return std::nullopt;
    return o->launches_us / a->launches_us;
  });
}

RatioSummary SummarizePrediction(const BenchReport& r, const std::string& set,
                                 const std::string& mode) {
  return SummarizeRows(r, set, [&mode](const ShapeResult& row) -> std::optional<double> {
    const ModeResult* m = row.Find(mode);
    if (m == nullptr || m->status != "ok" || m->us <= 0 || m->predicted_us <= 0)
      return std::nullopt;
    return m->us / m->predicted_us;
  });
}

std::string FormatTable(const BenchReport& r) {
  std::string t = absl::StrFormat(
      "# %s%s%s; %s in, %s out, layout %s\n", r.gpu,
      r.sms > 0 ? absl::StrFormat(", %d SMs, kernel occupancy %d", r.sms, r.occupancy) : "",
      r.mainloop.empty() ? "" : absl::StrCat(", mainloop ", r.mainloop), r.dtype, r.out_dtype,
      r.layout);
  if (!r.versions.empty()) absl::StrAppendFormat(&t, "# %s\n", r.versions);
  if (!r.timing.empty()) absl::StrAppendFormat(&t, "# timed: %s\n", r.timing);
  if (!r.waveq_tile.empty())
    absl::StrAppendFormat(&t,
                          "# waveq: counts of %s tiles a few past whole waves of the SMs "
                          "(dp/%s: data-parallel on that tile alone)\n",
                          r.waveq_tile, r.waveq_tile);
  absl::StrAppendFormat(&t, "%-6s %-26s %-24s", "set", "shape", "auto plan");
  for (const std::string& m : r.modes) absl::StrAppendFormat(&t, " %10s", m + "_us");
  absl::StrAppendFormat(&t, " %9s %9s %9s\n", "auto_TF/s", "auto/dp", "auto/cublas");
  bool any_same = false;
  for (const ShapeResult& row : r.rows) {
    absl::StrAppendFormat(&t, "%-6s %-26s %-24s", row.shape.set, ShapeText(row.shape),
                          row.auto_plan ? PlanName(*row.auto_plan) : std::string("-"));
    if (!row.error.empty()) {
      absl::StrAppendFormat(&t, " ERROR: %s\n", row.error);
      continue;
    }
    for (const std::string& m : r.modes) {
      const ModeResult* x = row.Find(m);
      if (x == nullptr || x->status == "ok") {
        absl::StrAppendFormat(&t, " %10.1f", x ? x->us : 0.0);
      } else {
        absl::StrAppendFormat(&t, " %10s", x->status);
      }
    }
    const ModeResult* a = row.Find("auto");
    const std::optional<double> dp = row.AutoSpeedupOver("dp");
    const std::optional<double> cu = row.AutoSpeedupOver("cublas");
    const bool same = row.AutoRanThePlanOf("dp");
    any_same |= same && dp.has_value();
    absl::StrAppendFormat(&t, " %9.1f %9s %9s\n", a && a->status == "ok" ? a->tflops : 0.0,
                          dp ? absl::StrFormat("%.3f%s", *dp, same ? "=" : " ") : "- ",
                          cu ? absl::StrFormat("%.3f", *cu) : "-");
  }
  if (any_same)
    t += "(auto/dp ending in '=': auto's plan is dp's, the same launch timed twice;\n"
         " the ratio is the timing's noise)\n";
  for (const ShapeResult& row : r.rows)
    for (const ModeResult& m : row.modes)
      if (m.status != "ok")
        absl::StrAppendFormat(&t, "%s %s %s: %s\n", m.status, ShapeText(row.shape), m.mode, m.note);
  t += "\n# summary: time(other) / time(auto); > 1 means auto is faster\n";
  // The "vs" column fits the longest mode name and its '*' (dp/128x256x64*), 8 at least.
  int vs = 8;
  for (const std::string& m : r.modes) vs = std::max(vs, static_cast<int>(m.size()) + 1);
  auto summary_header = [&t, vs] {
    absl::StrAppendFormat(&t, "%-6s %-*s %6s %8s %8s %8s  %s\n", "set", vs, "vs", "shapes",
                          "geomean", "min", "max", "worst shape");
  };
  auto summary_row = [&t, vs](const std::string& set, const std::string& vs_name,
                              const RatioSummary& s) {
    absl::StrAppendFormat(&t, "%-6s %-*s %6d %8.3f %8.3f %8.3f  %s\n", set, vs, vs_name, s.count,
                          s.geomean, s.min, s.max, s.min_shape);
  };
  summary_header();
  bool differing = false;
  for (const std::string& set : Sets(r)) {
    for (const std::string& other : r.modes) {
      if (other == "auto") continue;
      const RatioSummary s = Summarize(r, set, other);
      if (s.count == 0) continue;
      summary_row(set, other, s);
      // The same over the shapes where auto chose another plan than `other`'s: the planner's
      // choices alone, without the shapes that time one launch twice.
      const RatioSummary d = Summarize(r, set, other, /*differing_plans=*/true);
      if (d.count == s.count) continue;
      differing = true;
      if (d.count == 0) {
        absl::StrAppendFormat(&t, "%-6s %-*s %6d %8s %8s %8s  (auto ran %s's plan on every "
                              "shape)\n", set, vs, other + "*", 0, "-", "-", "-", other);
      } else {
        summary_row(set, other + "*", d);
      }
    }
  }
  if (differing)
    t += "(a mode with '*': only the shapes where auto ran another plan than that mode's;\n"
         " on the others the two timed the same launch)\n";
  // The same modes timed back to back, where the run timed both ways: what a program that
  // launches GEMMs one by one sees, the host's launch pace included.
  bool launches_header = false;
  for (const std::string& set : Sets(r)) {
    for (const std::string& other : r.modes) {
      if (other == "auto") continue;
      const RatioSummary s = SummarizeLaunches(r, set, other);
      if (s.count == 0) continue;
      if (!launches_header) {
        t += "\n# back to back (launches one after another, the host's pace included): "
             "time(other) / time(auto)\n";
        summary_header();
        launches_header = true;
      }
      summary_row(set, other, s);
    }
  }
  // How far the planner's model was off, per set: what a user checks before trusting
  // streamk-plan on shapes of their own.
  bool header = false;
  for (const std::string& set : Sets(r)) {
    const RatioSummary s = SummarizePrediction(r, set, "auto");
    if (s.count == 0) continue;
    if (!header) {
      t += "\n# the planner's prediction for auto: time / predicted; > 1 means slower than "
           "predicted\n# (below about 9 us back to back, the host's launch pace sets the time; "
           "no prediction models it)\n";
      absl::StrAppendFormat(&t, "%-6s %6s %8s %8s %8s  %-26s %s\n", "set", "shapes", "geomean",
                            "min", "max", "min shape", "max shape");
      header = true;
    }
    absl::StrAppendFormat(&t, "%-6s %6d %8.3f %8.3f %8.3f  %-26s %s\n", set, s.count, s.geomean,
                          s.min, s.max, s.min_shape, s.max_shape);
  }
  return t;
}

std::string ToCsv(const BenchReport& r) {
  std::string c =
      "gpu,set,name,m,n,k,dtype,out_dtype,layout,mode,status,time_us,spread,tflops,rel_error,"
      "plan_mode,dp_tiles,sk_tiles,sk_blocks,sk_regions,reduction,reduction_blocks,grid_blocks,"
      "tile_m,tile_n,repack,predicted_us,launches_us\n";
  for (const ShapeResult& row : r.rows) {
    for (const ModeResult& m : row.modes) {
      absl::StrAppendFormat(&c, "%s,%s,%s,%d,%d,%d,%s,%s,%s,%s,%s,%.3f,%.4f,%.2f,%.3g,", r.gpu,
                            row.shape.set, row.shape.name, row.shape.m, row.shape.n, row.shape.k,
                            r.dtype, r.out_dtype, r.layout, m.mode, m.status, m.us, m.spread,
                            m.tflops, m.error);
      if (m.plan) {
        absl::StrAppendFormat(&c, "%s,%d,%d,%d,%d,%s,%d,%d,%d,%d,%s,", ModeName(m.plan->mode),
                              m.plan->dp_tiles, m.plan->sk_tiles, m.plan->sk_blocks,
                              m.plan->sk_regions, ReductionName(m.plan->reduction),
                              m.plan->reduction_blocks, m.plan->grid_blocks, m.plan->tile_m,
                              m.plan->tile_n, RepackName(*m.plan));
      } else {
        c += ",,,,,,,,,,,";
      }
      c += m.predicted_us > 0 ? absl::StrFormat("%.3f,", m.predicted_us) : ",";
      c += m.launches_us > 0 ? absl::StrFormat("%.3f\n", m.launches_us) : "\n";
    }
  }
  return c;
}

absl::StatusOr<BenchReport> FromCsv(const std::string& csv) {
  BenchReport r;
  std::vector<std::string> lines = absl::StrSplit(csv, '\n', absl::SkipEmpty());
  if (lines.empty() || !absl::StartsWith(lines[0], "gpu,set,name,m,n,k,"))
    return absl::InvalidArgumentError("not a streamk-bench CSV (header 'gpu,set,name,m,n,k,...')");
  for (size_t i = 1; i < lines.size(); ++i) {
    std::vector<std::string> f = absl::StrSplit(lines[i], ',');
    BenchShape shape;
    ModeResult m;
    if (f.size() < 15 || !absl::SimpleAtoi(f[3], &shape.m) || !absl::SimpleAtoi(f[4], &shape.n) ||
        !absl::SimpleAtoi(f[5], &shape.k) || !absl::SimpleAtod(f[11], &m.us) ||
        !absl::SimpleAtod(f[12], &m.spread) || !absl::SimpleAtod(f[13], &m.tflops))
      return absl::InvalidArgumentError(absl::StrCat("CSV line ", i + 1, ": malformed"));
    absl::SimpleAtod(f[14], &m.error);
    // predicted_us (older CSVs end at repack): empty where the planner predicted nothing.
    if (f.size() > 26 && !f[26].empty() && !absl::SimpleAtod(f[26], &m.predicted_us))
      return absl::InvalidArgumentError(absl::StrCat("CSV line ", i + 1, ": malformed"));
    // launches_us (older CSVs end at predicted_us): empty where timed one way only.
    if (f.size() > 27 && !f[27].empty() && !absl::SimpleAtod(f[27], &m.launches_us))
      return absl::InvalidArgumentError(absl::StrCat("CSV line ", i + 1, ": malformed"));
    // The plan's columns (empty for cuBLAS): enough for SamePlan to tell auto's plan from the
    // other modes' as it did when the run wrote them.
    if (f.size() > 24 && !f[15].empty()) {
      Plan p;
      const std::optional<Mode> mode = ParseMode(f[15]);
      const std::optional<Reduction> reduction = ParseReduction(f[20]);
      if (!mode || !reduction || !absl::SimpleAtoi(f[16], &p.dp_tiles) ||
          !absl::SimpleAtoi(f[17], &p.sk_tiles) || !absl::SimpleAtoi(f[18], &p.sk_blocks) ||
          !absl::SimpleAtoi(f[19], &p.sk_regions) ||
          !absl::SimpleAtoi(f[21], &p.reduction_blocks) ||
          !absl::SimpleAtoi(f[22], &p.grid_blocks) || !absl::SimpleAtoi(f[23], &p.tile_m) ||
          !absl::SimpleAtoi(f[24], &p.tile_n))
        return absl::InvalidArgumentError(absl::StrCat("CSV line ", i + 1, ": malformed plan"));
      p.mode = *mode, p.reduction = *reduction;
      if (f.size() > 25) {
        p.repack_a = absl::StrContains(f[25], 'a');
        p.repack_b = absl::StrContains(f[25], 'b');
      }
      m.plan = p;
    }
    shape.set = f[1], shape.name = f[2];
    m.mode = f[9], m.status = f[10];
    r.gpu = f[0], r.dtype = f[6], r.out_dtype = f[7], r.layout = f[8];
    if (r.rows.empty() || r.rows.back().shape.set != shape.set ||
        r.rows.back().shape.name != shape.name || r.rows.back().shape.m != shape.m ||
        r.rows.back().shape.n != shape.n || r.rows.back().shape.k != shape.k) {
      r.rows.push_back(ShapeResult{});
      r.rows.back().shape = shape;
    }
    r.rows.back().modes.push_back(m);
    if (std::find(r.modes.begin(), r.modes.end(), m.mode) == r.modes.end())
      r.modes.push_back(m.mode);
  }
  return r;
}

double RoundedTo(double x, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(x * scale) / scale;
}

std::string ToJson(const BenchReport& r) {
  using Json = nlohmann::ordered_json;
  Json j{{"gpu", r.gpu},
         {"versions", r.versions},
         {"sms", r.sms},
         {"occupancy", r.occupancy},
         {"mainloop", r.mainloop},
         {"timing", r.timing},
         {"waveq_tile", r.waveq_tile},
         {"dtype", r.dtype},
         {"out_dtype", r.out_dtype},
         {"layout", r.layout}};
  Json shapes = Json::array();
  for (const ShapeResult& row : r.rows) {
    Json s{{"set", row.shape.set},
           {"name", row.shape.name},
           {"m", row.shape.m},
           {"n", row.shape.n},
           {"k", row.shape.k}};
    if (!row.error.empty()) s["error"] = row.error;
    if (row.auto_plan)
      s["auto_plan"] =
          Json::parse(PlanToJson(*row.auto_plan, row.auto_why ? &*row.auto_why : nullptr));
    Json results = Json::array();
    for (const ModeResult& m : row.modes) {
      Json x{{"mode", m.mode},
             {"status", m.status},
             {"time_us", RoundedTo(m.us, 3)},
             {"spread", RoundedTo(m.spread, 4)},
             {"tflops", RoundedTo(m.tflops, 2)},
             {"rel_error", m.error},
             {"note", m.note}};
      if (m.predicted_us > 0) x["predicted_us"] = RoundedTo(m.predicted_us, 3);
      if (m.launches_us > 0) x["launches_us"] = RoundedTo(m.launches_us, 3);
      results.push_back(std::move(x));
    }
    s["results"] = std::move(results);
    shapes.push_back(std::move(s));
  }
  j["shapes"] = std::move(shapes);
  return j.dump() + "\n";
}

std::string ToSvg(const BenchReport& r) {
  // One panel per set: shapes along x (sorted by auto's speedup over dp), ratios on a log y axis:
  // auto over dp (blue), over data-parallel on one forced tile where a dp/TILE mode ran (green;
  // the first such mode), and auto over cuBLAS (orange), with the parity line at 1. The y range
  // is fitted to the ratios drawn, so that 1.03 and 1.10 are told apart.
  const std::vector<std::string> sets = Sets(r);
  std::string tile_dp;  // "dp/128x256x64": data-parallel on one tile, where run
  for (const std::string& m : r.modes)
    if (absl::StartsWith(m, "dp/")) {  // dp takes no @reduction (ParseModes)
      tile_dp = m;
      break;
    }
  // Shapes are labelled under their points when a set has at most kMaxLabels of them.
  constexpr size_t kMaxLabels = 40;
  const int width = 960, panel_h = 300, top = 56, left = 70, right = 20;
  const int plot_w = width - left - right, plot_h = panel_h - 40;
  auto set_size = [&r](const std::string& set) {
    size_t n = 0;
    for (const ShapeResult& row : r.rows) n += row.shape.set == set;
    return n;
  };
  auto gap_after = [&](const std::string& set) { return set_size(set) <= kMaxLabels ? 170 : 50; };
  int height = top + 10;
  for (const std::string& set : sets) height += panel_h + gap_after(set);
  std::string s = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" "
      "fill=\"white\"/>\n",
      width, height);
  absl::StrAppendFormat(&s,
                        "<text x=\"%d\" y=\"22\" font-size=\"16\" font-weight=\"bold\">streamk "
                        "auto: speedup over data-parallel and ratio to cuBLAS</text>\n",
                        left);
  absl::StrAppendFormat(&s,
                        "<text x=\"%d\" y=\"40\" fill=\"#444\">%s%s; %s in, %s out, layout "
                        "%s; time(other) / time(auto), above 1 = auto faster</text>\n",
                        left, Xml(r.gpu), r.sms > 0 ? absl::StrCat(", ", r.sms, " SMs") : "",
                        r.dtype, r.out_dtype, r.layout);
  struct Point {
    std::optional<double> dp, tile, cu;  // auto over each; none where that mode has no time
    bool same_plan;                      // auto ran dp's plan: drawn hollow
    std::string label;
  };
  std::map<std::string, std::vector<Point>> points;
  double data_lo = 1, data_hi = 1;
  for (const ShapeResult& row : r.rows) {
    const auto dp = row.AutoSpeedupOver("dp");
    const auto tile = tile_dp.empty() ? std::nullopt : row.AutoSpeedupOver(tile_dp);
    const auto cu = row.AutoSpeedupOver("cublas");
    if (!dp && !tile && !cu) continue;
    for (const auto& v : {dp, tile, cu})
      if (v) data_lo = std::min(data_lo, *v), data_hi = std::max(data_hi, *v);
    points[row.shape.set].push_back(
        {dp, tile, cu, row.AutoRanThePlanOf("dp"), ShapeText(row.shape)});
  }
  // The y range (log): the nearest ticks around the data, at least 0.5x-2x, at most 0.1x-16x
  // (beyond it points sit on the edge).
  const double ticks[] = {0.1, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0, 4.0, 8.0, 16.0};
  double lo = 0.1, hi = 16.0;
  for (double t : ticks)
    if (t <= std::min(0.5, data_lo / 1.05)) lo = t;
  for (auto t = std::rbegin(ticks); t != std::rend(ticks); ++t)
    if (*t >= std::max(2.0, data_hi * 1.05)) hi = *t;
  // The panel's top kLegendBand pixels hold the legend; the data sit below them.
  constexpr int kLegendBand = 24;
  auto y_of = [&](double v, int y0) {
    v = std::clamp(v, lo, hi);
    return y0 + plot_h -
           (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo)) * (plot_h - kLegendBand);
  };
  int panel_top = top;
  for (size_t p = 0; p < sets.size(); ++p) {
    const int y0 = panel_top + 20;
    panel_top += panel_h + gap_after(sets[p]);
    std::vector<Point>& pts = points[sets[p]];
    std::sort(pts.begin(), pts.end(), [](const Point& a, const Point& b) {
      return a.dp.value_or(0) < b.dp.value_or(0);
    });
    const RatioSummary sdp = Summarize(r, sets[p], "dp"), scu = Summarize(r, sets[p], "cublas");
    const RatioSummary stile = tile_dp.empty() ? RatioSummary{} : Summarize(r, sets[p], tile_dp);
    // The title's geometric means: only those of modes that ran.
    std::vector<std::string> means;
    for (const auto& [name, sum] : {std::make_pair(std::string("dp"), sdp),
                                    std::make_pair(tile_dp, stile),
                                    std::make_pair(std::string("cuBLAS"), scu)})
      if (sum.count > 0) means.push_back(absl::StrFormat("vs %s geomean %.2fx", name, sum.geomean));
    absl::StrAppendFormat(&s,
                          "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">set %s (%d shapes): auto "
                          "%s</text>\n",
                          left, y0 - 6, Xml(sets[p]), static_cast<int>(pts.size()),
                          absl::StrJoin(means, ", "));
    absl::StrAppendFormat(&s,
                          "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" "
                          "stroke=\"#999\"/>\n",
                          left, y0, plot_w, plot_h);
    for (double tick : ticks) {
      if (tick < lo || tick > hi) continue;
      const double y = y_of(tick, y0);
      absl::StrAppendFormat(&s,
                            "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                            "stroke-width=\"%s\"/>\n<text x=\"%d\" y=\"%.1f\" "
                            "text-anchor=\"end\">%gx</text>\n",
                            left, left + plot_w, y, y, tick == 1.0 ? "#333" : "#ddd",
                            tick == 1.0 ? "1.5" : "1", left - 6, y + 4, tick);
    }
    const double step = pts.empty() ? 0 : static_cast<double>(plot_w) / pts.size();
    for (size_t i = 0; i < pts.size(); ++i) {
      const double x = left + step * (i + 0.5);
      const Point& q = pts[i];
      std::string title = absl::StrFormat("%s: vs dp %.3f%s", q.label, q.dp.value_or(0),
                                          q.same_plan ? " (dp's plan)" : "");
      if (q.tile) absl::StrAppendFormat(&title, ", vs %s %.3f", tile_dp, *q.tile);
      absl::StrAppendFormat(&title, ", vs cuBLAS %.3f", q.cu.value_or(0));
      if (q.tile) {
        const double y = y_of(*q.tile, y0);
        absl::StrAppendFormat(&s,
                              "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" "
                              "fill=\"#2e9d4a\"><title>%s</title></polygon>\n",
                              x, y - 4.5, x - 4, y + 3, x + 4, y + 3, Xml(title));
      }
      if (q.dp)
        absl::StrAppendFormat(&s,
                              "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" %s><title>%s</title>"
                              "</circle>\n",
                              x, y_of(*q.dp, y0),
                              q.same_plan ? "fill=\"none\" stroke=\"#1f6fd1\"" : "fill=\"#1f6fd1\"",
                              Xml(title));
      if (q.cu)
        absl::StrAppendFormat(&s,
                              "<rect x=\"%.1f\" y=\"%.1f\" width=\"6\" height=\"6\" "
                              "fill=\"#e8871e\"><title>%s</title></rect>\n",
                              x - 3, y_of(*q.cu, y0) - 3, Xml(title));
      if (pts.size() <= kMaxLabels)
        absl::StrAppendFormat(&s,
                              "<text transform=\"translate(%.1f,%d) rotate(-90)\" "
                              "text-anchor=\"end\" font-size=\"9\" fill=\"#555\">%s</text>\n",
                              x + 3, y0 + plot_h + 4, Xml(q.label));
    }
    // The legend, right to left from the panel's top right corner.
    int lx = left + plot_w - 110;
    absl::StrAppendFormat(&s,
                          "<rect x=\"%d\" y=\"%d\" width=\"7\" height=\"7\" fill=\"#e8871e\"/>"
                          "<text x=\"%d\" y=\"%d\">auto vs cuBLAS</text>\n",
                          lx, y0 + 8, lx + 11, y0 + 16);
    if (stile.count > 0) {
      lx -= 20 + 7 * static_cast<int>(tile_dp.size() + 8);  // about 7 px a character
      absl::StrAppendFormat(&s,
                            "<polygon points=\"%d,%d %d,%d %d,%d\" fill=\"#2e9d4a\"/><text "
                            "x=\"%d\" y=\"%d\">auto vs %s</text>\n",
                            lx, y0 + 7, lx - 4, y0 + 15, lx + 4, y0 + 15, lx + 8, y0 + 16,
                            tile_dp);
    }
    lx -= 90;
    absl::StrAppendFormat(&s,
                          "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"#1f6fd1\"/><text x=\"%d\" "
                          "y=\"%d\">auto vs dp</text>\n",
                          lx, y0 + 12, lx + 8, y0 + 16);
    if (std::any_of(pts.begin(), pts.end(), [](const Point& q) { return q.same_plan; })) {
      lx -= 140;
      absl::StrAppendFormat(&s,
                            "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"none\" "
                            "stroke=\"#1f6fd1\"/><text x=\"%d\" y=\"%d\">auto ran dp's plan"
                            "</text>\n",
                            lx, y0 + 12, lx + 8, y0 + 16);
    }
  }
  return s + "</svg>\n";
}

namespace {

bool SameShape(const BenchShape& a, const BenchShape& b) {
  return a.set == b.set && a.name == b.name && a.m == b.m && a.n == b.n && a.k == b.k;
}

bool Timed(const HeldTiming* t) { return t != nullptr && t->us > 0 && !t->gave_up; }
// Whether the mode ran correctly and was timed.
bool Timed(const ModeResult* m) { return m != nullptr && m->status == "ok" && m->us > 0; }

double Ideal(int sms, int held) { return held < sms ? static_cast<double>(sms) / (sms - held) : 0; }

}  // namespace

const HeldTiming* FindHeld(const ContentionReport& r, const BenchShape& shape,
                           const std::string& mode, int held) {
  for (const HeldTiming& t : r.rows)
    if (t.mode == mode && t.held == held && SameShape(t.shape, shape)) return &t;
  return nullptr;
}

std::string FormatContention(const ContentionReport& r) {
  std::vector<BenchShape> shapes;
  for (const HeldTiming& t : r.rows) {
    bool seen = false;
    for (const BenchShape& s : shapes) seen |= SameShape(s, t.shape);
    if (!seen) shapes.push_back(t.shape);
  }
  std::string out = absl::StrFormat(
      "Under contention: %s, %d SMs, %s. Another kernel holds X SMs (one block each) while each "
      "mode runs; per X: time in us, x its free time, and that over the ideal %d / (%d - X).\n",
      r.gpu, r.sms, r.timing, r.sms, r.sms);
  absl::StrAppendFormat(&out, "%-8s %-22s %-16s %9s", "set", "shape", "mode", "free us");
  for (int x : r.held)
    absl::StrAppendFormat(&out, " | X=%-3d %7s %6s %6s", x, "us", "xfree", "/ideal");
  out += "\n";
  for (const BenchShape& s : shapes) {
    for (const std::string& mode : r.modes) {
      const HeldTiming* free = FindHeld(r, s, mode, 0);
      absl::StrAppendFormat(&out, "%-8s %-22s %-16s", s.set, ShapeText(s), mode);
      if (!Timed(free)) {
        absl::StrAppendFormat(&out, " %9s  %s\n", "-", free != nullptr ? free->note : "");
        continue;
      }
      absl::StrAppendFormat(&out, " %9.1f", free->us);
      for (int x : r.held) {
        const HeldTiming* t = FindHeld(r, s, mode, x);
        if (!Timed(t)) {
          absl::StrAppendFormat(&out, " | %-5s %7s %6s %6s", "",
                                t != nullptr && t->gave_up ? "stalled" : "-", "", "");
          continue;
        }
        const double slow = t->us / free->us;
        absl::StrAppendFormat(&out, " | %-5s %7.1f %6.2f %6.2f", "", t->us, slow,
                              slow / Ideal(r.sms, x));
      }
      out += "\n";
    }
  }
  // Summaries per held count.
  // "x ideal": held time over the ideal from the mode's own free time; "auto-free": over the ideal
  // from auto's free time (what the default plan gets on a free GPU), with the count of shapes
  // past 1.15 of it.
  out += "\nSummary (geometric means over shapes timed both free and held):\n";
  absl::StrAppendFormat(&out, "%-5s %-16s %6s %10s %10s %10s %10s %6s %12s %8s\n", "X", "mode",
                        "shapes", "x ideal", "worst", "auto-free", "worst", ">1.15", "vs cublas",
                        "stalled");
  const bool has_cublas = std::find(r.modes.begin(), r.modes.end(), "cublas") != r.modes.end();
  for (int x : r.held) {
    for (const std::string& mode : r.modes) {
      int n = 0, nc = 0, na = 0, past = 0, stalled = 0;
      double log_ideal = 0, worst = 0, log_auto = 0, worst_auto = 0, log_cublas = 0;
      for (const BenchShape& s : shapes) {
        const HeldTiming* free = FindHeld(r, s, mode, 0);
        const HeldTiming* t = FindHeld(r, s, mode, x);
        if (t != nullptr && t->gave_up) ++stalled;
        if (!Timed(free) || !Timed(t)) continue;
        const double over = t->us / free->us / Ideal(r.sms, x);
        log_ideal += std::log(over);
        worst = std::max(worst, over);
        ++n;
        if (const HeldTiming* a = FindHeld(r, s, "auto", 0); Timed(a)) {
          const double over_auto = t->us / a->us / Ideal(r.sms, x);
          log_auto += std::log(over_auto);
          worst_auto = std::max(worst_auto, over_auto);
          past += over_auto > 1.15;
          ++na;
        }
        const HeldTiming* c = FindHeld(r, s, "cublas", x);
        if (has_cublas && Timed(c)) {
          log_cublas += std::log(c->us / t->us);
          ++nc;
        }
      }
      if (n == 0 && stalled == 0) continue;
      absl::StrAppendFormat(&out, "%-5d %-16s %6d %10s %10s %10s %10s %6s %12s %8d\n", x, mode, n,
                            n > 0 ? absl::StrFormat("%.3f", std::exp(log_ideal / n)) : "-",
                            n > 0 ? absl::StrFormat("%.3f", worst) : "-",
                            na > 0 ? absl::StrFormat("%.3f", std::exp(log_auto / na)) : "-",
                            na > 0 ? absl::StrFormat("%.3f", worst_auto) : "-",
                            na > 0 ? absl::StrCat(past) : "-",
                            nc > 0 ? absl::StrFormat("%.3f", std::exp(log_cublas / nc)) : "-",
                            stalled);
    }
  }
  return out;
}

std::string ContentionToCsv(const ContentionReport& r) {
  std::string out = "set,name,m,n,k,mode,held,us,free_us,ideal,gave_up,plan,note\n";
  for (const HeldTiming& t : r.rows) {
    const HeldTiming* free = FindHeld(r, t.shape, t.mode, 0);
    std::string note = t.note;
    std::replace(note.begin(), note.end(), ',', ';');
    absl::StrAppendFormat(&out, "%s,%s,%d,%d,%d,%s,%d,%.3f,%.3f,%.4f,%d,%s,%s\n", t.shape.set,
                          t.shape.name, t.shape.m, t.shape.n, t.shape.k, t.mode, t.held, t.us,
                          Timed(free) ? free->us : 0.0, Ideal(r.sms, t.held), t.gave_up ? 1 : 0,
                          t.plan, note);
  }
  return out;
}

absl::StatusOr<ContentionReport> ContentionFromCsv(const std::string& csv) {
  ContentionReport r;
  r.gpu = "(GPU not recorded)", r.timing = "timing not recorded";
  std::vector<std::string> lines = absl::StrSplit(csv, '\n', absl::SkipEmpty());
  if (lines.empty() || !absl::StartsWith(lines[0], "set,name,m,n,k,mode,held,us,free_us,ideal,"))
    return absl::InvalidArgumentError(
        "not a streamk-bench --hold-csv file (header 'set,name,m,n,k,mode,held,...')");
  for (size_t i = 1; i < lines.size(); ++i) {
    // The note is last and may hold anything but commas (ContentionToCsv replaced them).
    std::vector<std::string> f = absl::StrSplit(lines[i], absl::MaxSplits(',', 12));
    HeldTiming t;
    double ideal = 0;
    int gave_up = 0;
    if (f.size() < 12 || !absl::SimpleAtoi(f[2], &t.shape.m) ||
        !absl::SimpleAtoi(f[3], &t.shape.n) || !absl::SimpleAtoi(f[4], &t.shape.k) ||
        !absl::SimpleAtoi(f[6], &t.held) || !absl::SimpleAtod(f[7], &t.us) ||
        !absl::SimpleAtod(f[9], &ideal) || !absl::SimpleAtoi(f[10], &gave_up) || t.held < 0)
      return absl::InvalidArgumentError(absl::StrCat("CSV line ", i + 1, ": malformed"));
    t.shape.set = f[0], t.shape.name = f[1], t.mode = f[5], t.gave_up = gave_up != 0;
    t.plan = f[11];
    if (f.size() > 12) t.note = f[12];
    // ideal = sms / (sms - held), so sms = ideal * held / (ideal - 1).
    if (t.held > 0 && ideal > 1) {
      const int sms = static_cast<int>(std::lround(ideal * t.held / (ideal - 1)));
      if (r.sms != 0 && r.sms != sms)
        return absl::InvalidArgumentError(
            absl::StrCat("CSV line ", i + 1, ": ideal ", f[9], " gives ", sms, " SMs, not ",
                         r.sms));
      r.sms = sms;
      if (std::find(r.held.begin(), r.held.end(), t.held) == r.held.end())
        r.held.push_back(t.held);
    }
    if (std::find(r.modes.begin(), r.modes.end(), t.mode) == r.modes.end())
      r.modes.push_back(t.mode);
    r.rows.push_back(t);
  }
  if (r.sms == 0) return absl::InvalidArgumentError("no held rows: no SM count to read");
  return r;
}

// A mode word: auto | argmin | dp | splitk | splitk:S | streamk | streamk:B | streamk-tail |
// streamk-tail:B | streamk-tiles:T | streamk-tiles:T:B | cublas, optionally followed by
// /BMxBNxBK to force the kernel configuration
// (not for cublas), then by @deterministic, @atomic, @separate or @separate:R to force the
// reduction strategy (not for dp or cublas), then by +dynamic or +static for that schedule
// (Options::schedule; unset, the planner's) and last
// by +sms:N to plan for N SMs (Options::avail_sms; neither for cublas).
absl::StatusOr<std::vector<ModeSpec>> ParseModes(const std::vector<std::string>& words) {
  std::vector<ModeSpec> out;
  for (const std::string& word : words) {
    ModeSpec m;
    m.name = word;
    std::string w = word;
    if (const size_t sms = w.rfind("+sms:"); sms != std::string::npos) {
      if (!absl::SimpleAtoi(w.substr(sms + 5), &m.options.avail_sms) || m.options.avail_sms < 1)
        return absl::InvalidArgumentError(absl::StrCat(
            "--modes: '", word, "': +sms:N takes a positive count of SMs to plan for"));
      w = w.substr(0, sms);
    }
    if (absl::EndsWith(w, "+dynamic")) {
      m.options.schedule = Schedule::kDynamic;
      w = w.substr(0, w.size() - 8);
    } else if (absl::EndsWith(w, "+static")) {
      m.options.schedule = Schedule::kStatic;
      w = w.substr(0, w.size() - 7);
    }
    if (const size_t at = w.find('@'); at != std::string::npos) {
      std::string red = w.substr(at + 1);
      if (absl::StartsWith(red, "separate:")) {
        if (!absl::SimpleAtoi(red.substr(9), &m.options.reduction_slices) ||
            m.options.reduction_slices < 1)
          return absl::InvalidArgumentError(absl::StrCat(
              "--modes: '", word, "': the slices after separate: must be a positive count"));
        red = "separate";
      }
      m.options.reduction = ParseReduction(red);
      if (!m.options.reduction)
        return absl::InvalidArgumentError(
            absl::StrCat("--modes: '", word,
                         "': the reduction after @ must be deterministic, atomic or separate"));
      w = w.substr(0, at);
    }
    if (const size_t slash = w.find('/'); slash != std::string::npos) {
      const std::optional<TileShape> tile = ParseTileShape(w.substr(slash + 1));
      if (!tile)
        return absl::InvalidArgumentError(absl::StrCat(
            "--modes: '", word, "': the tile after / must be BMxBNxBK, e.g. 128x128x64"));
      m.options.tile = *tile;
      w = w.substr(0, slash);
    }
    // streamk / streamk-tail with an optional :B block count.
    auto streamk = [&m](const std::string& rest) {
      m.options.mode = Mode::kStreamK;
      if (rest.empty()) return true;
      return rest[0] == ':' && absl::SimpleAtoi(rest.substr(1), &m.options.blocks) &&
             m.options.blocks > 0;
    };
    if (w == "cublas") {
      m.cublas = true;
    } else if (w == "argmin") {
      m.argmin = true;
    } else if (w == "auto") {
      m.options.mode = Mode::kAuto;
    } else if (w == "dp") {
      m.options.mode = Mode::kDataParallel;
    } else if (absl::StartsWith(w, "streamk-tail") && streamk(w.substr(12))) {
      m.options.sk_tiles = kPartialWaveTiles;
    } else if (absl::StartsWith(w, "streamk-tiles:")) {
      // T tiles Stream-K (the rest data-parallel), then an optional :B block count.
      const std::string rest = w.substr(14);
      const size_t colon = std::min(rest.find(':'), rest.size());
      if (!absl::SimpleAtoi(rest.substr(0, colon), &m.options.sk_tiles) ||
          m.options.sk_tiles < 1 || !streamk(rest.substr(colon)))
        return absl::InvalidArgumentError(absl::StrCat(
            "--modes: '", word, "': streamk-tiles:T or streamk-tiles:T:B takes a positive tile "
            "count T (and block count B)"));
    } else if (absl::StartsWith(w, "streamk") && streamk(w.substr(7))) {
    } else if (w == "splitk") {
      m.options.mode = Mode::kSplitK;
    } else if (absl::StartsWith(w, "splitk:") &&
               absl::SimpleAtoi(w.substr(7), &m.options.splits) && m.options.splits > 0) {
      m.options.mode = Mode::kSplitK;
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "--modes: unknown mode '", word,
          "' (auto, argmin, dp, splitk, splitk:S, streamk, streamk:B, streamk-tail, "
          "streamk-tail:B, streamk-tiles:T, streamk-tiles:T:B, cublas)"));
    }
    if (m.cublas && m.options.schedule.has_value())
      return absl::InvalidArgumentError(
          absl::StrCat("--modes: '", word, "': cublas has no schedule to choose"));
    if (m.cublas && m.options.avail_sms > 0)
      return absl::InvalidArgumentError(
          absl::StrCat("--modes: '", word, "': cublas is not told its SMs here; no +sms:N"));
    if (m.cublas && m.options.tile != kNoTile)
      return absl::InvalidArgumentError(
          absl::StrCat("--modes: '", word, "': cublas picks its own kernel; no /tile"));
    if (m.argmin && (m.options.tile != kNoTile || m.options.reduction))
      return absl::InvalidArgumentError(absl::StrCat(
          "--modes: '", word, "': argmin picks its own tile and reduction; no /tile or @"));
    if (m.options.reduction && (m.cublas || m.options.mode == Mode::kDataParallel))
      return absl::InvalidArgumentError(
          absl::StrCat("--modes: '", word, "': dp and cublas have no reduction to choose"));
    out.push_back(m);
  }
  if (out.empty()) return absl::InvalidArgumentError("--modes: no modes");
  return out;
}

std::string CompareRuns(const BenchReport& before, const BenchReport& after,
                        const std::string& mode) {
  auto key = [](const BenchShape& b) {
    return absl::StrCat(b.set, "|", b.name, "|", b.m, "x", b.n, "x", b.k);
  };
  auto timed = [](const ShapeResult& r, const std::string& m) -> const ModeResult* {
    const ModeResult* x = r.Find(m);
    return Timed(x) ? x : nullptr;
  };
  // A CSV may hold a shape in more than one row group (runs appended): the one that timed `mode`.
  std::map<std::string, const ShapeResult*> earlier;
  for (const ShapeResult& r : before.rows)
    if (timed(r, mode) != nullptr || earlier.count(key(r.shape)) == 0) earlier[key(r.shape)] = &r;
  struct Row {
    const ShapeResult* before;
    const ShapeResult* after;
    double speed;  // after's speed over before's (> 1: after faster)
    bool differs;
  };
  std::vector<Row> rows;
  bool normalized = true;
  for (const ShapeResult& a : after.rows) {
    const auto it = earlier.find(key(a.shape));
    if (it == earlier.end()) continue;
    const ShapeResult& b = *it->second;
    const ModeResult* ma = timed(a, mode);
    const ModeResult* mb = timed(b, mode);
    if (ma == nullptr || mb == nullptr) continue;
    const ModeResult* ca = timed(a, "cublas");
    const ModeResult* cb = timed(b, "cublas");
    normalized = normalized && ca != nullptr && cb != nullptr;
    rows.push_back({&b, &a, 0, !(ma->plan && mb->plan && SamePlan(*ma->plan, *mb->plan))});
  }
  for (Row& r : rows) {
    const ModeResult& ma = *timed(*r.after, mode);
    const ModeResult& mb = *timed(*r.before, mode);
    r.speed = mb.us / ma.us;
    if (normalized) r.speed *= timed(*r.after, "cublas")->us / timed(*r.before, "cublas")->us;
  }
  std::string s = absl::StrFormat(
      "# %s: the second run's speed over the first's, %s; > 1: the second is faster\n", mode,
      normalized ? "each normalized by cuBLAS in its own run" : "raw times (no cuBLAS in both)");
  absl::StrAppendFormat(&s, "%-8s %6s %9s %7s %7s   %s\n", "set", "shapes", "geomean", "min",
                        "max", "plans differ: shapes, geomean");
  for (const std::string& set : Sets(after)) {
    double sum = 0, diff_sum = 0, lo = INFINITY, hi = 0;
    int n = 0, diff_n = 0;
    for (const Row& r : rows) {
      if (r.after->shape.set != set) continue;
      sum += std::log(r.speed), ++n;
      lo = std::min(lo, r.speed), hi = std::max(hi, r.speed);
      if (r.differs) diff_sum += std::log(r.speed), ++diff_n;
    }
    if (n == 0) continue;  // no shape of the set timed in both runs
    absl::StrAppendFormat(&s, "%-8s %6d %9.3f %7.3f %7.3f   %d", set, n, std::exp(sum / n), lo,
                          hi, diff_n);
    if (diff_n > 0) absl::StrAppendFormat(&s, ", %.3f", std::exp(diff_sum / diff_n));
    s += "\n";
  }
  std::vector<const Row*> changed;
  for (const Row& r : rows)
    if (r.differs) changed.push_back(&r);
  std::sort(changed.begin(), changed.end(),
            [](const Row* a, const Row* b) { return a->speed < b->speed; });
  if (!changed.empty()) {
    absl::StrAppendFormat(&s, "\n# the shapes whose %s plan differs, slowest first\n", mode);
    absl::StrAppendFormat(&s, "%-8s %-20s %7s %9s %9s  %s\n", "set", "shape", "speed",
                          "first_us", "second_us", "first plan -> second plan");
    for (const Row* r : changed) {
      const ModeResult& mb = *timed(*r->before, mode);
      const ModeResult& ma = *timed(*r->after, mode);
      absl::StrAppendFormat(
          &s, "%-8s %-20s %7.3f %9.1f %9.1f  %s -> %s\n", r->after->shape.set,
          absl::StrCat(r->after->shape.m, "x", r->after->shape.n, "x", r->after->shape.k),
          r->speed, mb.us, ma.us, mb.plan ? PlanName(*mb.plan) : "-",
          ma.plan ? PlanName(*ma.plan) : "-");
    }
  }
  return s;
}

namespace {

// Spearman's rank correlation of x and y (ties ranked by order; n >= 2).
double RankCorrelation(const std::vector<double>& x, const std::vector<double>& y) {
  const size_t n = x.size();
  auto ranks = [n](const std::vector<double>& v) {
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&v](size_t a, size_t b) { return v[a] < v[b]; });
    std::vector<double> r(n);
    for (size_t i = 0; i < n; ++i) r[order[i]] = static_cast<double>(i);
    return r;
  };
  const std::vector<double> rx = ranks(x), ry = ranks(y);
  double d2 = 0;
  for (size_t i = 0; i < n; ++i) d2 += (rx[i] - ry[i]) * (rx[i] - ry[i]);
  const double nn = static_cast<double>(n);
  return 1 - 6 * d2 / (nn * (nn * nn - 1));
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 == 1 ? v[h] : (v[h - 1] + v[h]) / 2;
}

}  // namespace

std::vector<GateSummary> SummarizeGates(const BenchReport& r) {
  struct Sums {
    GateSummary g;
    double auto_cublas = 0, best_cublas = 0, regret = 0, argmin = 0, argmin_mode = 0;
    std::vector<double> ranks, errors;
  };
  std::vector<Sums> sets;
  auto of = [&sets](const std::string& set) -> Sums& {
    for (Sums& s : sets)
      if (s.g.set == set) return s;
    sets.push_back({});
    sets.back().g.set = set;
    return sets.back();
  };
  for (const ShapeResult& row : r.rows) {
    const ModeResult* a = row.Find("auto");
    const ModeResult* c = row.Find("cublas");
    if (!Timed(a) || !Timed(c)) continue;
    // The distinct plans timed (modes that ran the same plan averaged), with their predictions.
    struct PlanTime {
      const Plan* plan;
      double us = 0, predicted = 0;
      int count = 0;
    };
    std::vector<PlanTime> plans;
    for (const ModeResult& m : row.modes) {
      if (!Timed(&m) || !m.plan) continue;
      auto same = std::find_if(plans.begin(), plans.end(),
                               [&m](const PlanTime& t) { return SamePlan(*t.plan, *m.plan); });
      if (same == plans.end()) {
        plans.push_back({&*m.plan, 0, m.predicted_us, 0});
        same = plans.end() - 1;
      }
      same->us += m.us, ++same->count;
    }
    double best = std::numeric_limits<double>::infinity();
    const PlanTime* argmin = nullptr;
    for (PlanTime& t : plans) {
      t.us /= t.count;
      best = std::min(best, t.us);
      if (t.predicted > 0 && (argmin == nullptr || t.predicted < argmin->predicted)) argmin = &t;
    }
    Sums& s = of(row.shape.set);
    const std::string name = absl::StrCat(row.shape.m, "x", row.shape.n, "x", row.shape.k);
    ++s.g.shapes;
    s.auto_cublas += std::log(c->us / a->us);
    s.best_cublas += std::log(c->us / best);
    const double regret = a->us / best;
    s.regret += std::log(regret);
    if (regret > s.g.worst_regret) s.g.worst_regret = regret, s.g.worst_regret_shape = name;
    const double argmin_regret = argmin != nullptr ? argmin->us / best : regret;
    s.argmin += std::log(argmin_regret);
    if (argmin_regret > s.g.worst_argmin_regret)
      s.g.worst_argmin_regret = argmin_regret, s.g.worst_argmin_shape = name;
    if (const ModeResult* dp = row.Find("dp"); Timed(dp) && a->us / dp->us > s.g.worst_auto_over_dp)
      s.g.worst_auto_over_dp = a->us / dp->us, s.g.worst_dp_shape = name;
    if (const ModeResult* m = row.Find("argmin"); Timed(m)) {
      const double ratio = m->us / a->us;
      s.argmin_mode += std::log(ratio);
      if (s.g.argmin_shapes == 0 || ratio < s.g.least_argmin_over_auto)
        s.g.least_argmin_over_auto = ratio, s.g.least_argmin_shape = name;
      if (s.g.argmin_shapes == 0 || ratio > s.g.most_argmin_over_auto)
        s.g.most_argmin_over_auto = ratio, s.g.most_argmin_shape = name;
      ++s.g.argmin_shapes;
    }
    std::vector<double> predicted, measured;
    for (const PlanTime& t : plans) {
      if (t.predicted <= 0) continue;
      predicted.push_back(t.predicted), measured.push_back(t.us);
      s.errors.push_back(std::abs(t.predicted / t.us - 1));
    }
    if (predicted.size() >= 3) s.ranks.push_back(RankCorrelation(predicted, measured));
  }
  std::vector<GateSummary> out;
  for (Sums& s : sets) {
    const double n = s.g.shapes;
    s.g.auto_over_cublas = std::exp(s.auto_cublas / n);
    s.g.best_over_cublas = std::exp(s.best_cublas / n);
    s.g.regret = std::exp(s.regret / n);
    s.g.argmin_regret = std::exp(s.argmin / n);
    if (s.g.argmin_shapes > 0) s.g.argmin_over_auto = std::exp(s.argmin_mode / s.g.argmin_shapes);
    s.g.rank_shapes = static_cast<int>(s.ranks.size());
    s.g.rank_median = Median(s.ranks);
    s.g.plans = static_cast<int>(s.errors.size());
    s.g.abs_error_median = Median(s.errors);
    out.push_back(s.g);
  }
  return out;
}

std::string FormatGates(const std::vector<GateSummary>& gates) {
  std::string out = absl::StrFormat(
      "%-6s %6s %11s %11s %15s %15s %11s %10s %9s\n", "set", "shapes", "auto/cublas",
      "best/cublas", "regret (worst)", "argmin (worst)", "auto/dp max", "rank med", "|err| med");
  for (const GateSummary& g : gates)
    absl::StrAppendFormat(&out,
                          "%-6s %6d %11.3f %11.3f %7.3f (%5.3f) %7.3f (%5.3f) %11s %10.3f %9.3f\n",
                          g.set, g.shapes, g.auto_over_cublas, g.best_over_cublas, g.regret,
                          g.worst_regret, g.argmin_regret, g.worst_argmin_regret,
                          g.worst_auto_over_dp > 0 ? absl::StrFormat("%.3f", g.worst_auto_over_dp)
                                                   : "-",
                          g.rank_median, g.abs_error_median);
  for (const GateSummary& g : gates)
    absl::StrAppendFormat(&out,
                          "%s: auto's worst regret %s; the predictions' argmin's worst %s; auto "
                          "over dp worst %s; rank correlation over %d shapes, errors over %d "
                          "plans\n",
                          g.set, g.worst_regret_shape, g.worst_argmin_shape,
                          g.worst_dp_shape.empty() ? "-" : g.worst_dp_shape, g.rank_shapes,
                          g.plans);
  for (const GateSummary& g : gates)
    if (g.argmin_shapes > 0)
      absl::StrAppendFormat(&out,
                            "%s: mode argmin's time over auto's %.3f over %d shapes (%.3f at %s to "
                            "%.3f at %s)\n",
                            g.set, g.argmin_over_auto, g.argmin_shapes, g.least_argmin_over_auto,
                            g.least_argmin_shape, g.most_argmin_over_auto, g.most_argmin_shape);
  absl::StrAppend(&out,
                  "(regret: auto's time over the fastest streamk plan timed for the shape; "
                  "argmin: the time of the plan the run's predictions rank first, over the same; "
                  "geometric means)\n");
  return out;
}

}  // namespace streamk::tools
