#include "cost_fit.h"

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "bench_report.h"
#include "cost_terms.h"
#include <nlohmann/json.hpp>
#include "shape_sets.h"
#include "streamk/plan_print.h"
#include "streamk/planner.h"
#include "streamk/streamk.h"

namespace streamk::tools {
namespace {

absl::Status RowError(const std::string& path, int line, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat(path, ":", line, ": ", what));
}

// The GEMM streamk-bench ran for row `r`, with stand-in operand addresses aligned as cudaMalloc
// aligns them (the planner reads addresses only for their alignment).
absl::StatusOr<GemmArgs> BenchArgs(const Measurement& r) {
  const std::optional<BenchLayout> layout = ParseBenchLayout(r.layout);
  const std::optional<DType> in = ParseDType(r.dtype);
  const std::optional<DType> out = ParseDType(r.out_dtype.empty() ? r.dtype : r.out_dtype);
  if (!layout || !in || !out)
    return absl::InvalidArgumentError(absl::StrCat(r.m, "x", r.n, "x", r.k, ": layout '", r.layout,
                                                   "' or dtypes '", r.dtype, "', '", r.out_dtype,
                                                   "' unknown"));
  BenchShape shape;
  shape.m = r.m, shape.n = r.n, shape.k = r.k;
  GemmArgs g = BenchGemmArgs(shape, *in, *out, *layout, /*batch=*/1);
  void* const aligned = reinterpret_cast<void*>(uintptr_t{256});
  g.a = g.b = g.d = aligned;
  return g;
}

std::string ShapeKey(const Measurement& r) {
  return absl::StrCat(r.set, "|", r.name, "|", r.m, "x", r.n, "x", r.k, "|", r.dtype, "|",
                      r.layout);
}

}  // namespace

absl::StatusOr<std::vector<Measurement>> ParseBenchCsv(const std::string& path,
                                                       const std::string& contents) {
  std::vector<std::string> lines = absl::StrSplit(contents, '\n', absl::SkipEmpty());
  if (lines.empty()) return RowError(path, 1, "empty file, expected a streamk-bench CSV header");
  std::map<std::string, int> column;
  // Every row has the header's fields: a column's index is below it (not the count of distinct
  // names, which a repeated name makes smaller).
  size_t header_fields = 0;
  {
    std::vector<std::string> names = absl::StrSplit(lines[0], ',');
    header_fields = names.size();
    for (int i = 0; i < static_cast<int>(names.size()); ++i)
      column[std::string(absl::StripAsciiWhitespace(names[i]))] = i;
  }
  const char* required[] = {"set",      "name",      "m",          "n",        "k",
                            "dtype",    "layout",    "mode",       "status",   "time_us",
                            "plan_mode", "dp_tiles", "sk_tiles",   "sk_blocks", "reduction",
                            "reduction_blocks",      "tile_m",     "tile_n"};
  for (const char* c : required)
    if (column.count(c) == 0)
      return RowError(path, 1, absl::StrCat("no column '", c, "': not a streamk-bench --csv file"));

  std::vector<Measurement> rows;
  for (int i = 1; i < static_cast<int>(lines.size()); ++i) {
    std::vector<std::string> f = absl::StrSplit(lines[i], ',');
    if (f.size() < header_fields)
      return RowError(path, i + 1,
                      absl::StrCat(f.size(), " fields, the header has ", header_fields));
    auto text = [&](const char* c) {
      return std::string(absl::StripAsciiWhitespace(f[column[c]]));
    };
    if (text("status") != "ok" || text("mode") == "cublas" || text("plan_mode").empty()) continue;
    Measurement r;
    r.set = text("set"), r.name = text("name"), r.layout = text("layout");
    r.dtype = text("dtype"), r.mode = text("mode");
    if (column.count("out_dtype") > 0) r.out_dtype = text("out_dtype");
    if (column.count("repack") > 0) r.repack = text("repack");
    r.plan_mode = text("plan_mode"), r.reduction = text("reduction");
    bool ok = absl::SimpleAtoi(text("m"), &r.m) && absl::SimpleAtoi(text("n"), &r.n) &&
              absl::SimpleAtoi(text("k"), &r.k) && absl::SimpleAtod(text("time_us"), &r.time_us) &&
              absl::SimpleAtoi(text("dp_tiles"), &r.dp_tiles) &&
              absl::SimpleAtoi(text("sk_tiles"), &r.sk_tiles) &&
              absl::SimpleAtoi(text("sk_blocks"), &r.sk_blocks) &&
              absl::SimpleAtoi(text("reduction_blocks"), &r.reduction_blocks) &&
              absl::SimpleAtoi(text("tile_m"), &r.tile_m) &&
              absl::SimpleAtoi(text("tile_n"), &r.tile_n);
    if (!ok || r.time_us <= 0)
      return RowError(path, i + 1, "a number field does not parse (or time_us <= 0)");
    rows.push_back(std::move(r));
  }
  return rows;
}

absl::StatusOr<Plan> Replan(const Measurement& r, const DeviceSpec& device, double* predicted_us) {
  const std::string what = absl::StrCat(r.m, "x", r.n, "x", r.k, " ", r.mode);
  // The device with only the row's kernel configuration: PlanGemm then plans that tile. The
  // cluster configuration is planned where asked for only (Options::tile).
  DeviceSpec one = device;
  for (const KernelConfig& c : device.kernels)
    if (c.role != KernelRole::kMain && c.cluster_m == 1) one.Remove(c.role);
  std::optional<TileShape> cluster;
  const KernelConfig* ran_on = nullptr;
  for (const KernelConfig& c : device.kernels) {
    if (c.tile != kNoTile && TileShape{r.tile_m, r.tile_n, c.tile.k} == c.tile) {
      ran_on = &c;
      break;
    }
  }
  if (ran_on == nullptr)
    return absl::InvalidArgumentError(absl::StrCat(what, ": tile ", r.tile_m, "x", r.tile_n,
                                                   " is not one of ", device.name, "'s kernels"));
  if (ran_on->cluster_m > 1)
    cluster = ran_on->tile;
  else
    one.main().tile = ran_on->tile, one.main().cost = ran_on->cost;
  const std::optional<Mode> mode = ParseMode(r.plan_mode);
  const std::optional<Reduction> reduction = ParseReduction(r.reduction);
  if (!mode || !reduction)
    return absl::InvalidArgumentError(absl::StrCat(what, ": plan_mode '", r.plan_mode,
                                                   "' or reduction '", r.reduction, "' unknown"));
  Options o;
  o.mode = *mode;
  o.tile = cluster.value_or(kNoTile);
  if (o.mode != Mode::kDataParallel) {
    if (r.sk_tiles <= 0 || r.sk_blocks <= 0)
      return absl::InvalidArgumentError(absl::StrCat(what, ": a ", r.plan_mode,
                                                     " plan without Stream-K tiles or blocks"));
    o.reduction = reduction;
    if (*reduction == Reduction::kSeparate) o.reduction_slices = r.reduction_blocks / r.sk_tiles;
    if (o.mode == Mode::kSplitK) {
      o.splits = r.sk_blocks / r.sk_tiles;
    } else {
      o.sk_tiles = r.sk_tiles, o.blocks = r.sk_blocks;
    }
  }
  absl::StatusOr<GemmArgs> args = BenchArgs(r);
  if (!args.ok()) return args.status();
  // Operands repacked as recorded ("", "a", "b" or "ab": the kernel's A and B, which Options
  // names as the call's).
  const RepackOperands recorded = ParseRepackOperands(r.repack).value_or(RepackOperands::kNone);
  o.repack = args->cd_layout == Layout::kColMajor ? SwapOperands(recorded) : recorded;
  PlanExplanation why;
  why.text = false;
  absl::StatusOr<Plan> p = PlanGemm(*args, one, o, predicted_us != nullptr ? &why : nullptr);
  if (!p.ok()) return p.status();
  if (predicted_us != nullptr) *predicted_us = why.predicted_us;
  if (p->dp_tiles != r.dp_tiles || p->sk_tiles != r.sk_tiles || p->sk_blocks != r.sk_blocks ||
      p->reduction_blocks != r.reduction_blocks || RepackName(*p) != r.repack)
    return absl::FailedPreconditionError(absl::StrCat(
        what, ": rebuilt as ", PlanName(*p), " with ", p->reduction_blocks,
        " reduction blocks, recorded dp", r.dp_tiles, "+sk", r.sk_tiles, "/", r.sk_blocks, " with ",
        r.reduction_blocks, r.repack.empty() ? "" : " repack-", r.repack));
  return p;
}

const std::vector<std::string>& CostFieldNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const CostModelField& f : kCostModelFields)
      if (f.number != nullptr) v.push_back(f.name);
    return v;
  }();
  return names;
}

double* CostField(CostModel& cost, std::string_view name) {
  const CostModelField* f = FindCostModelField(name);
  return f != nullptr && f->number != nullptr ? &(cost.*f->number) : nullptr;
}

double LogRmsError(const std::vector<TimedPlan>& data, const CostModel& cost) {
  if (data.empty()) return 0;
  double sum = 0;
  for (const TimedPlan& d : data) {
    const double e = std::log(PredictMicros(d.plan, cost) / d.time_us);
    sum += e * e;
  }
  return std::sqrt(sum / data.size());
}

namespace {

// Nelder-Mead from x0, restarted around the best point while a restart still improves it, until
// `max_evaluations` calls of f (counted in *evaluations). Returns the best point; *best_f its
// value.
std::vector<double> Minimize(const std::function<double(const std::vector<double>&)>& f_of,
                             std::vector<double> best, int max_evaluations, int* evaluations,
                             double* best_f) {
  const int n = static_cast<int>(best.size());
  auto objective = [&](const std::vector<double>& x) {
    ++*evaluations;
    return f_of(x);
  };
  *best_f = objective(best);
  const int limit = *evaluations + max_evaluations;
  while (*evaluations < limit) {
    std::vector<std::vector<double>> simplex(n + 1, best);
    std::vector<double> f(n + 1, *best_f);
    for (int i = 0; i < n; ++i) {
      simplex[i + 1][i] += 0.3;
      f[i + 1] = objective(simplex[i + 1]);
    }
    const double restart_f = *best_f;
    for (int iter = 0; iter < 200 * n && *evaluations < limit; ++iter) {
      std::vector<int> order(n + 1);
      for (int i = 0; i <= n; ++i) order[i] = i;
      std::sort(order.begin(), order.end(), [&](int a, int b) { return f[a] < f[b]; });
      const int lo = order[0], hi = order[n], second = order[n - 1];
      if (f[hi] - f[lo] < 1e-7) break;
      std::vector<double> centroid(n, 0.0);
      for (int i = 0; i <= n; ++i)
        if (i != hi)
          for (int j = 0; j < n; ++j) centroid[j] += simplex[i][j] / n;
      auto along = [&](double t) {
        std::vector<double> x(n);
        for (int j = 0; j < n; ++j) x[j] = centroid[j] + t * (simplex[hi][j] - centroid[j]);
        return x;
      };
      std::vector<double> xr = along(-1.0);
      const double fr = objective(xr);
      if (fr < f[lo]) {
        std::vector<double> xe = along(-2.0);
        const double fe = objective(xe);
        if (fe < fr) simplex[hi] = xe, f[hi] = fe;
        else simplex[hi] = xr, f[hi] = fr;
      } else if (fr < f[second]) {
        simplex[hi] = xr, f[hi] = fr;
      } else {
        std::vector<double> xc = along(fr < f[hi] ? -0.5 : 0.5);
        const double fc = objective(xc);
        if (fc < std::min(fr, f[hi])) {
          simplex[hi] = xc, f[hi] = fc;
        } else {
          for (int i = 0; i <= n; ++i) {
            if (i == lo) continue;
            for (int j = 0; j < n; ++j)
              simplex[i][j] = simplex[lo][j] + 0.5 * (simplex[i][j] - simplex[lo][j]);
            f[i] = objective(simplex[i]);
          }
        }
      }
    }
    for (int i = 0; i <= n; ++i)
      if (f[i] < *best_f) *best_f = f[i], best = simplex[i];
    if (*best_f > restart_f - 1e-6) break;
  }
  return best;
}

// `fields` of `start` as exp(x) (positive, relative steps; a field at 0 starts at 0.01), and back.
std::vector<double> LogFields(const CostModel& start, const std::vector<std::string>& fields) {
  std::vector<double> x;
  CostModel c = start;
  for (const std::string& f : fields) x.push_back(std::log(std::max(*CostField(c, f), 0.01)));
  return x;
}
CostModel WithFields(CostModel c, const std::vector<std::string>& fields,
                     const std::vector<double>& x) {
  for (size_t i = 0; i < fields.size(); ++i) *CostField(c, fields[i]) = std::exp(x[i]);
  return c;
}

}  // namespace

FitResult FitCosts(const std::vector<TimedPlan>& data, const CostModel& start,
                   const std::vector<std::string>& fields, int max_evaluations) {
  FitResult result;
  result.cost = start;
  result.rms_before = result.rms_after = LogRmsError(data, start);
  if (fields.empty() || data.empty()) return result;
  double best_f = 0;
  const std::vector<double> best = Minimize(
      [&](const std::vector<double>& x) { return LogRmsError(data, WithFields(start, fields, x)); },
      LogFields(start, fields), max_evaluations, &result.evaluations, &best_f);
  result.cost = WithFields(start, fields, best);
  result.rms_after = best_f;
  return result;
}

std::vector<Replay> ReplayAuto(const std::vector<Measurement>& rows, const DeviceSpec& device) {
  // Shapes in first-seen order; per shape the measured plans by name, each with its mean time.
  std::vector<std::string> keys;
  std::map<std::string, std::vector<const Measurement*>> by_shape;
  for (const Measurement& r : rows) {
    const std::string key = ShapeKey(r);
    if (by_shape.count(key) == 0) keys.push_back(key);
    by_shape[key].push_back(&r);
  }
  std::vector<Replay> out;
  for (const std::string& key : keys) {
    const std::vector<const Measurement*>& shape = by_shape[key];
    const Measurement& first = *shape.front();
    Replay rp;
    rp.set = first.set, rp.name = first.name, rp.m = first.m, rp.n = first.n, rp.k = first.k;
    struct Timed {
      double sum = 0, predicted = 0;
      int count = 0;
    };
    std::map<std::string, Timed> measured;  // by plan name
    double dp_sum = 0;
    int dp_count = 0;
    for (const Measurement* r : shape) {
      if (r->mode == "dp") dp_sum += r->time_us, ++dp_count;
      double predicted = 0;
      absl::StatusOr<Plan> p = Replan(*r, device, &predicted);
      if (!p.ok()) continue;
      Timed& m = measured[PlanName(*p)];
      m.sum += r->time_us, ++m.count, m.predicted = predicted;
    }
    if (dp_count > 0) rp.dp_us = dp_sum / dp_count;
    double argmin_predicted = 0;
    for (const auto& [name, m] : measured) {
      const double us = m.sum / m.count;
      if (rp.best_us == 0 || us < rp.best_us) rp.best_us = us, rp.best = name;
      if (rp.argmin.empty() || m.predicted < argmin_predicted)
        rp.argmin = name, rp.argmin_us = us, argmin_predicted = m.predicted;
    }
    absl::StatusOr<GemmArgs> args = BenchArgs(first);
    absl::StatusOr<Plan> pick = args.ok() ? PlanGemm(*args, device) : args.status();
    if (pick.ok()) {
      rp.pick = PlanName(*pick);
      if (auto it = measured.find(rp.pick); it != measured.end())
        rp.pick_us = it->second.sum / it->second.count;
    } else {
      rp.pick = std::string(pick.status().message());
    }
    out.push_back(std::move(rp));
  }
  return out;
}

bool HeldOut(const Measurement& r, double share) {
  // FNV-1a over the shape's three sizes.
  uint64_t h = 1469598103934665603ull;
  for (int64_t v : {r.m, r.n, r.k}) {
    for (int i = 0; i < 8; ++i) {
      h ^= static_cast<uint64_t>(v >> (8 * i)) & 0xff;
      h *= 1099511628211ull;
    }
  }
  return static_cast<double>(h % 10000) < share * 10000;
}

const std::vector<std::string>& PhysicalCostFields() {
  static const std::vector<std::string> fields = {
      "iter_us",    "iter_busy_us", "iter_shared_us", "block_us",       "unit_us",
      "epilogue_us", "partial_us",  "peer_us",        "streamk_us",     "reduce_peer_us",
      "sm_bytes_per_us"};
  return fields;
}

namespace {

// Geometric means of a pick's time (`pick`: Replay::pick_us, auto's, or Replay::argmin_us) over
// the best measured time under two models' replays of the same rows, over the shapes where both
// picks were measured.
void JointRegret(const std::vector<Replay>& before, const std::vector<Replay>& after,
                 double Replay::*pick, double* regret_before, double* regret_after, int* both) {
  double sum_before = 0, sum_after = 0;
  *both = 0;
  for (size_t i = 0; i < before.size() && i < after.size(); ++i) {
    if (before[i].*pick <= 0 || after[i].*pick <= 0 || before[i].best_us <= 0) continue;
    sum_before += std::log(before[i].*pick / before[i].best_us);
    sum_after += std::log(after[i].*pick / after[i].best_us);
    ++*both;
  }
  *regret_before = *both > 0 ? std::exp(sum_before / *both) : 0;
  *regret_after = *both > 0 ? std::exp(sum_after / *both) : 0;
}

// One measured plan in FitDevice: its shape (an index), its configuration (an index into
// DeviceSpec::kernels), log of its time, whether held out, and log(predicted / measured).
struct FitRow {
  int shape = 0, config = 0;
  Plan plan;
  double log_time = 0;
  bool held = false;
  double error = 0;
};

// The ranking error per configuration (indexed as DeviceSpec::kernels, `configs` of them): rms
// over `rows` (held
// or fitted ones, `held`) of each row's error less the mean error of the same rows of its shape,
// over shapes with two or more such rows.
std::vector<double> RankError(const std::vector<FitRow>& rows, bool held, size_t configs) {
  std::map<int, std::pair<double, int>> mean;  // shape -> (sum, count)
  for (const FitRow& r : rows)
    if (r.held == held) mean[r.shape].first += r.error, ++mean[r.shape].second;
  std::vector<double> sum(configs, 0);
  std::vector<int> count(configs, 0);
  for (const FitRow& r : rows) {
    if (r.held != held) continue;
    const auto& [total, k] = mean[r.shape];
    if (k < 2) continue;
    const double d = r.error - total / k;
    sum[r.config] += d * d, ++count[r.config];
  }
  std::vector<double> rms(configs, 0);
  for (size_t c = 0; c < configs; ++c)
    if (count[c] > 0) rms[c] = std::sqrt(sum[c] / count[c]);
  return rms;
}

// Whether auto weighs plans like `p` on configuration `c` (planner.cc): split-K over at most one
// resident round of blocks, and the 64 x 128 configuration only where one round of its tiles
// holds the problem. The fit prices what the argmin weighs; a calibration run also times plans
// outside that (e.g. 8-way splits of hundreds of tiles), which would pull the constants away.
bool AutoWeighs(const Plan& p, const KernelConfig& c) {
  const int64_t capacity = static_cast<int64_t>(p.avail_sms) * std::max(1, p.occupancy);
  if (p.mode == Mode::kSplitK && p.sk_blocks > capacity) return false;
  if (c.role == KernelRole::kSmall && p.tiles > capacity) return false;
  return true;
}

}  // namespace

DeviceFit FitDevice(const std::vector<Measurement>& rows, const DeviceSpec& start,
                    double holdout_share, int max_evaluations,
                    const std::vector<std::string>& fields) {
  DeviceFit out;
  out.device = start;
  out.rows = static_cast<int>(rows.size());
  out.holdout_share = holdout_share;
  const size_t configs = start.kernels.size();
  // Every row rebuilt, with its shape and configuration.
  std::vector<FitRow> all;
  std::map<std::string, int> shape_index;
  for (const Measurement& r : rows) {
    int config = -1;
    for (size_t c = 0; c < configs; ++c) {
      const TileShape t = start.kernels[c].tile;
      if (t != kNoTile && r.tile_m == t.m && r.tile_n == t.n) config = static_cast<int>(c);
    }
    absl::StatusOr<Plan> p = config >= 0 ? Replan(r, start)
                                         : absl::StatusOr<Plan>(absl::NotFoundError("tile"));
    if (!p.ok()) {
      ++out.not_rebuilt;
      continue;
    }
    if (!AutoWeighs(*p, start.kernels[config])) {
      ++out.outside_auto;
      continue;
    }
    FitRow f;
    f.shape = shape_index.emplace(ShapeKey(r), static_cast<int>(shape_index.size())).first->second;
    f.config = config, f.plan = *p, f.log_time = std::log(r.time_us);
    f.held = HeldOut(r, holdout_share);
    all.push_back(std::move(f));
  }
  auto predict = [&all](size_t c, const CostModel& cost) {
    for (FitRow& r : all)
      if (r.config == static_cast<int>(c))
        r.error = std::log(PredictMicros(r.plan, cost)) - r.log_time;
  };
  // Each configuration's fitted and held-out rows as (plan, time).
  std::vector<std::vector<TimedPlan>> fit_rows(configs), held_rows(configs);
  for (const FitRow& r : all)
    (r.held ? held_rows : fit_rows)[r.config].push_back({r.plan, std::exp(r.log_time)});
  for (size_t c = 0; c < configs; ++c) predict(c, start.kernels[c].cost);
  const std::vector<double> rank_before = RankError(all, /*held=*/true, configs);

  // Each configuration on its own rows: least squares on log time.
  std::vector<std::vector<std::string>> used(configs);
  std::vector<size_t> fitted;
  for (size_t c = 0; c < configs; ++c) {
    const std::vector<TimedPlan>& fit = fit_rows[c];
    if (start.kernels[c].tile == kNoTile || fit.empty()) continue;
    const CostModel& before = start.kernels[c].cost;
    for (const std::string& f : fields.empty() ? PhysicalCostFields() : fields) {
      CostModel probe = before;
      double* v = CostField(probe, f);
      if (v == nullptr || *v <= 0) continue;
      const double base = LogRmsError(fit, probe);
      *v *= 1.5;
      if (std::abs(LogRmsError(fit, probe) - base) > 1e-9) used[c].push_back(f);
    }
    out.device.kernels[c].cost = FitCosts(fit, before, used[c], max_evaluations).cost;
    predict(c, out.device.kernels[c].cost);
    fitted.push_back(c);
  }
  const std::vector<double> rank_after = RankError(all, /*held=*/true, configs);
  for (size_t c : fitted) {
    const KernelConfig& k = start.kernels[c];
    const std::vector<TimedPlan>& fit = fit_rows[c];
    const std::vector<TimedPlan>& held = held_rows[c];
    ConfigurationFit cf;
    cf.name = KernelRoleName(k.role), cf.tile = k.tile, cf.fields = used[c];
    cf.fit_rows = static_cast<int>(fit.size()), cf.held_rows = static_cast<int>(held.size());
    cf.fit_before = LogRmsError(fit, k.cost);
    cf.fit_after = LogRmsError(fit, out.device.kernels[c].cost);
    cf.held_before = LogRmsError(held, k.cost);
    cf.held_after = LogRmsError(held, out.device.kernels[c].cost);
    cf.held_rank_before = rank_before[c], cf.held_rank_after = rank_after[c];
    out.configurations.push_back(cf);
  }
  std::vector<Measurement> held_shapes;
  for (const Measurement& r : rows)
    if (HeldOut(r, holdout_share)) held_shapes.push_back(r);
  const std::vector<Replay> before = ReplayAuto(held_shapes, start);
  const std::vector<Replay> after = ReplayAuto(held_shapes, out.device);
  out.held_shapes = static_cast<int>(before.size());
  for (const Replay& r : before) out.held_measured_before += r.pick_us > 0;
  for (const Replay& r : after) out.held_measured_after += r.pick_us > 0;
  JointRegret(before, after, &Replay::pick_us, &out.held_regret_before, &out.held_regret_after,
              &out.held_compared);
  JointRegret(before, after, &Replay::argmin_us, &out.held_argmin_before, &out.held_argmin_after,
              &out.held_argmin_compared);
  return out;
}

std::string FormatDeviceFit(const DeviceFit& fit) {
  std::string s = absl::StrFormat(
      "Fitted %s's kernel configurations to %d measured plans (%d not rebuilt, %d of kinds auto "
      "does not weigh), holding out %.0f%% of the shapes. rms error of log(predicted / measured "
      "time):\n",
      fit.device.name, fit.rows, fit.not_rebuilt, fit.outside_auto, 100 * fit.holdout_share);
  absl::StrAppendFormat(&s, "%-8s %-10s %5s %5s %9s %9s %9s %9s %9s %9s  %s\n", "config", "tile",
                        "fit", "held", "fit:was", "fit:now", "held:was", "held:now", "rank:was",
                        "rank:now", "fields fitted");
  for (const ConfigurationFit& c : fit.configurations) {
    absl::StrAppendFormat(&s, "%-8s %-10s %5d %5d %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f  %s\n",
                          c.name, absl::StrCat(c.tile.m, "x", c.tile.n), c.fit_rows, c.held_rows,
                          c.fit_before, c.fit_after, c.held_before, c.held_after,
                          c.held_rank_before, c.held_rank_after, absl::StrJoin(c.fields, ","));
  }
  s += "(rank: on the held-out shapes, the rms of each plan's error less its shape's mean error: "
       "how far the model misorders plans of one shape)\n";
  absl::StrAppendFormat(
      &s,
      "auto replayed on the %d held-out shapes: its pick was among the measured plans on %d with "
      "the start's constants and on %d with the fitted ones; where both were, %d shapes, its "
      "pick's time over the fastest measured plan, geometric mean: %.3f with the start's, %.3f "
      "with the fitted ones\n",
      fit.held_shapes, fit.held_measured_before, fit.held_measured_after, fit.held_compared,
      fit.held_regret_before, fit.held_regret_after);
  absl::StrAppendFormat(
      &s,
      "the model's argmin over the measured plans (the plan it predicts fastest, without auto's "
      "rules) on %d held-out shapes: its time over the fastest measured plan, geometric mean: "
      "%.3f with the start's constants, %.3f with the fitted ones\n",
      fit.held_argmin_compared, fit.held_argmin_before, fit.held_argmin_after);
  return s;
}

std::string DeviceFitJson(const DeviceFit& fit, const std::string& command) {
  using Json = nlohmann::ordered_json;
  auto r4 = [](double x) { return RoundedTo(x, 4); };
  Json configurations = Json::object();
  for (const ConfigurationFit& c : fit.configurations) {
    configurations[c.name] = {{"fit_rows", c.fit_rows},
                              {"held_rows", c.held_rows},
                              {"fit_rms", r4(c.fit_after)},
                              {"held_rms_before", r4(c.held_before)},
                              {"held_rms", r4(c.held_after)},
                              {"held_rank_rms_before", r4(c.held_rank_before)},
                              {"held_rank_rms", r4(c.held_rank_after)}};
  }
  return Json{{"command", command},
              {"rows", fit.rows},
              {"holdout_share", RoundedTo(fit.holdout_share, 3)},
              {"held_regret_before", r4(fit.held_regret_before)},
              {"held_regret_after", r4(fit.held_regret_after)},
              {"held_argmin_before", r4(fit.held_argmin_before)},
              {"held_argmin_after", r4(fit.held_argmin_after)},
              {"configurations", std::move(configurations)}}
      .dump();
}

absl::StatusOr<std::vector<BytesCheck>> CheckDramBytes(const std::string& csv,
                                                       const DeviceSpec& device) {
  const std::vector<std::string> lines = absl::StrSplit(csv, '\n', absl::SkipEmpty());
  if (lines.empty()) return absl::InvalidArgumentError("empty: expected gpu_dram_bytes.sh's CSV");
  const std::vector<std::string> header = absl::StrSplit(lines[0], ',');
  const char* const names[] = {"shape",   "plan",     "m",         "n",
                               "k",       "tile_m",   "tile_n",    "tiles_m",
                               "tiles_n", "sk_tiles", "sk_blocks", "dram_read_bytes"};
  size_t col[std::size(names)];
  for (size_t i = 0; i < std::size(names); ++i) {
    const auto it = std::find(header.begin(), header.end(), names[i]);
    if (it == header.end())
      return absl::InvalidArgumentError(absl::StrCat(
          "no column '", names[i], "': expected scripts/gpu_dram_bytes.sh's CSV header"));
    col[i] = static_cast<size_t>(it - header.begin());
  }
  std::vector<BytesCheck> out;
  for (size_t line = 1; line < lines.size(); ++line) {
    const std::vector<std::string> f = absl::StrSplit(lines[line], ',');
    if (f.size() != header.size())
      return absl::InvalidArgumentError(absl::StrCat(
          "line ", line + 1, ": ", f.size(), " columns where the header has ", header.size()));
    double v[std::size(names)] = {};
    for (size_t i = 2; i < std::size(names); ++i)
      if (col[i] >= f.size() || !absl::SimpleAtod(f[col[i]], &v[i]))
        return absl::InvalidArgumentError(
            absl::StrCat("line ", line + 1, ": column '", names[i], "' is not a number"));
    Plan p;
    p.m = static_cast<int>(v[2]), p.n = static_cast<int>(v[3]), p.k = static_cast<int>(v[4]);
    p.tile_m = static_cast<int>(v[5]), p.tile_n = static_cast<int>(v[6]), p.tile_k = 64;
    p.tiles_m = static_cast<int>(v[7]), p.tiles_n = static_cast<int>(v[8]);
    p.tiles = p.tiles_m * p.tiles_n;
    p.sk_tiles = static_cast<int>(v[9]), p.sk_blocks = static_cast<int>(v[10]);
    BytesCheck c;
    c.shape = f[col[0]], c.plan = f[col[1]];
    c.sk_tiles = p.sk_tiles, c.sk_blocks = p.sk_blocks;
    c.measured = v[11];
    c.counted = StreamKGemmBytes(p, KernelCost(device, p)) - 2.0 * p.m * p.n;
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<HeldCheck> CheckHeld(const ContentionReport& report, const DeviceSpec& device) {
  std::vector<HeldCheck> out;
  for (const HeldTiming& t : report.rows) {
    if (t.held <= 0 || t.gave_up || t.us <= 0) continue;
    const HeldTiming* free = FindHeld(report, t.shape, t.mode, 0);
    if (free == nullptr || free->us <= 0 || free->gave_up) continue;
    // The mode word as streamk-bench read it.
    absl::StatusOr<std::vector<ModeSpec>> word = ParseModes({t.mode});
    if (!word.ok() || word->front().cublas) continue;
    const Options& o = word->front().options;
    Measurement r;
    r.m = t.shape.m, r.n = t.shape.n, r.k = t.shape.k, r.dtype = "fp16", r.layout = "tn";
    absl::StatusOr<GemmArgs> args = BenchArgs(r);
    if (!args.ok()) continue;
    absl::StatusOr<Plan> p = PlanGemm(*args, device, o);
    if (!p.ok() || (!t.plan.empty() && PlanName(*p) != t.plan)) continue;
    const CostModel& cost = KernelCost(device, *p);
    const int sms = report.sms > 0 ? report.sms : device.sms;
    HeldCheck c;
    c.set = t.shape.set, c.name = t.shape.name, c.mode = t.mode, c.plan = PlanName(*p);
    c.m = t.shape.m, c.n = t.shape.n, c.k = t.shape.k, c.held = t.held;
    c.predicted =
        PredictRunningMicros(*p, cost, sms - t.held) / PredictRunningMicros(*p, cost, sms);
    c.measured = t.us / free->us;
    out.push_back(c);
  }
  return out;
}

}  // namespace streamk::tools
