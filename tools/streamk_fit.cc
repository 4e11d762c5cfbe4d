// streamk-fit: fit the planner's cost constants to streamk-bench measurements, and replay auto.
//
//   streamk-fit run.csv [more.csv ...]                      # the model's error, and auto replayed
//   streamk-fit --fit iter_us,epilogue_us,partial_us run.csv # fit those fields, then the same
//   streamk-fit --model alt --set iter_us=0.2 run.csv        # the 128 x 128 kernel, what-if
//   streamk-fit --model mid --fit iter_us,unit_us run.csv    # the 128 x 192 kernel
//   streamk-fit --model wide run.csv                         # the 192 x 192 kernel
//   streamk-fit --model small run.csv                        # the 64 x 128 kernel
//   streamk-fit --model cluster run.csv                      # the 2-SM cluster configuration
//   streamk-fit --held hold.csv                              # the held-SM model vs --hold-sms
//   streamk-fit --device h100 --bytes dram-bytes.csv         # the re-read term vs DRAM bytes
//   streamk-fit --device h100 --fit_all --profile_out h100.json calib.csv  # every configuration,
//                                                  # with the error on held-out shapes
//
// Rows of the configuration's tile (--model main: the device's tile, alt: its second one, mid:
// its third, wide: its fourth, small: its fifth, cluster: its cluster configuration's) are
// rebuilt with the planner and predicted; --fit minimizes the squared error of log time over them.
// The replay plans every measured shape in auto under the resulting constants (every kernel
// configuration) and looks the picked plan up among the measured ones.
// Needs no GPU.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "bench_report.h"
#include "cost_fit.h"
#include "flag_names.h"
#include "streamk/planner.h"

ABSL_FLAG(std::string, device, "h200", "device preset whose cost model is fitted");
ABSL_FLAG(std::string, model, "main",
          "main (the device's tile) | alt (its second tile) | mid (its third tile) | wide (its "
          "fourth tile) | small (its fifth tile) | cluster (its 2-SM cluster tile)");
ABSL_FLAG(std::vector<std::string>, fit, {}, "cost fields to fit (comma-separated)");
ABSL_FLAG(std::vector<std::string>, set, {},
          "field=value overrides applied before fitting (comma-separated; main.field, "
          "alt.field, mid.field, wide.field, small.field or cluster.field for a kernel "
          "configuration's model, field alone for --model's)");
ABSL_FLAG(int, evaluations, 20000, "most objective evaluations for --fit");
ABSL_FLAG(bool, fit_all, false,
          "fit every kernel configuration's physical constants (or --fit's fields) on the shapes "
          "not held out, and report the error on those held out (streamk-bench --calibrate's fit)");
ABSL_FLAG(double, holdout, 0.25, "--fit_all: the share of the shapes held out of the fit");
ABSL_FLAG(std::string, profile, "",
          "start from this device profile instead of --device's preset");
ABSL_FLAG(std::string, profile_out, "", "--fit_all: write the fitted model as a device profile");
ABSL_FLAG(bool, rows, false, "print every row's prediction");
ABSL_FLAG(std::string, bytes, "",
          "instead: check the model's count of DRAM bytes (StreamKGemmBytes) against this "
          "scripts/gpu_dram_bytes.sh CSV");
ABSL_FLAG(std::string, held, "",
          "instead: check the model of held SMs against this streamk-bench --hold-csv file "
          "(fp16, layout tn)");

namespace {

int Fail(const std::string& what) {
  std::fprintf(stderr, "streamk-fit: %s\n", what.c_str());
  return 1;
}

// The kernel configurations' roles' names (streamk::kKernelRoles), each followed by `suffix`,
// joined by `sep` and by `last_sep` before the last: "main, alt, mid, wide, small or cluster".
std::string ConfigurationNames(const char* sep, const char* last_sep, const char* suffix = "") {
  std::string names;
  const size_t count = std::size(streamk::kKernelRoles);
  for (size_t i = 0; i < count; ++i)
    absl::StrAppend(&names,
                    i == 0           ? ""
                    : i + 1 == count ? last_sep
                                     : sep,
                    streamk::KernelRoleName(streamk::kKernelRoles[i]), suffix);
  return names;
}

std::string CostText(streamk::CostModel c) {
  std::string s;
  for (const std::string& f : streamk::tools::CostFieldNames())
    absl::StrAppendFormat(&s, "  %-20s %.4g\n", f, *streamk::tools::CostField(c, f));
  return s;
}

// --held: the held-SM model (PredictRunningMicros) against a --hold-csv file, per held count:
// the geometric mean, least and most of measured over predicted slowdown, and the worst shapes.
int CheckHeld(const std::string& path, const streamk::DeviceSpec& device) {
  std::ifstream in(path);
  if (!in) return Fail(absl::StrCat(path, ": cannot read"));
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<streamk::tools::ContentionReport> report =
      streamk::tools::ContentionFromCsv(text.str());
  if (!report.ok()) return Fail(absl::StrCat(path, ": ", report.status().message()));
  const std::vector<streamk::tools::HeldCheck> checks = streamk::tools::CheckHeld(*report, device);
  if (checks.empty()) return Fail(absl::StrCat(path, ": no streamk rows whose plans rebuild"));
  std::printf("Held SMs on %s's model (PredictRunningMicros): held time over free time, measured "
              "against predicted, per mode and held count of %d SMs\n",
              device.name.c_str(), report->sms);
  std::printf("%-14s %5s %6s %10s %8s %8s   worst shapes (measured / predicted)\n", "mode", "X",
              "shapes", "geomean", "least", "most");
  for (const std::string& mode : report->modes) {
    for (int x : report->held) {
      std::vector<const streamk::tools::HeldCheck*> rows;
      for (const streamk::tools::HeldCheck& c : checks)
        if (c.mode == mode && c.held == x) rows.push_back(&c);
      if (rows.empty()) continue;
      auto err = [](const streamk::tools::HeldCheck* c) { return c->measured / c->predicted; };
      std::sort(rows.begin(), rows.end(), [&](auto* a, auto* b) { return err(a) > err(b); });
      double log_sum = 0;
      for (auto* c : rows) log_sum += std::log(err(c));
      std::printf("%-14s %5d %6zu %10.3f %8.3f %8.3f  ", mode.c_str(), x, rows.size(),
                  std::exp(log_sum / rows.size()), err(rows.back()), err(rows.front()));
      for (size_t i = 0; i < rows.size() && i < 3; ++i)
        std::printf(" %lldx%lldx%lld %.2f/%.2f", static_cast<long long>(rows[i]->m),
                    static_cast<long long>(rows[i]->n), static_cast<long long>(rows[i]->k),
                    rows[i]->measured, rows[i]->predicted);
      std::printf("\n");
    }
  }
  return 0;
}

// --bytes: the bytes of A and B the model's memory floor counts (StreamKGemmBytes) against the DRAM
// bytes each plan read (scripts/gpu_dram_bytes.sh), per plan and as the rms of the log ratio over
// the Stream-K plans and over the data-parallel ones.
int CheckBytes(const std::string& path, const streamk::DeviceSpec& device) {
  std::ifstream in(path);
  if (!in) return Fail(absl::StrCat(path, ": cannot read"));
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<std::vector<streamk::tools::BytesCheck>> checks =
      streamk::tools::CheckDramBytes(text.str(), device);
  if (!checks.ok()) return Fail(absl::StrCat(path, ": ", checks.status().message()));
  std::printf("DRAM bytes read against %s's count of A's and B's bytes (StreamKGemmBytes less D)\n",
              device.name.c_str());
  std::printf("%-18s %-26s %11s %9s %9s %7s\n", "shape", "plan", "tiles/block", "read GB",
              "count GB", "ratio");
  double sum[2] = {0, 0}, sum_sq[2] = {0, 0};
  int count[2] = {0, 0};
  for (const streamk::tools::BytesCheck& c : *checks) {
    const double ratio = c.counted / c.measured;
    const int sk = c.sk_tiles > 0 ? 1 : 0;
    sum[sk] += std::log(ratio), sum_sq[sk] += std::log(ratio) * std::log(ratio), ++count[sk];
    std::printf("%-18s %-26s %11.1f %9.2f %9.2f %7.2f\n", c.shape.c_str(), c.plan.c_str(),
                c.sk_blocks > 0 ? static_cast<double>(c.sk_tiles) / c.sk_blocks : 0.0,
                c.measured / 1e9, c.counted / 1e9, ratio);
  }
  for (int sk : {1, 0})
    if (count[sk] > 0)
      std::printf("%s plans: %d, counted over read: rms log %.3f, mean log %.3f\n",
                  sk ? "Stream-K and split-K" : "data-parallel", count[sk],
                  std::sqrt(sum_sq[sk] / count[sk]), sum[sk] / count[sk]);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "streamk-fit: fit the planner's cost constants to streamk-bench --csv files (see --help)");
  std::vector<char*> args = streamk::tools::ParseToolCommandLine(argc, argv);
  const std::string profile = absl::GetFlag(FLAGS_profile);
  absl::StatusOr<streamk::DeviceSpec> device =
      profile.empty() ? streamk::DeviceSpecByName(absl::GetFlag(FLAGS_device))
                      : streamk::LoadDeviceProfile(profile);
  if (!device.ok()) return Fail(std::string(device.status().message()));
  if (const std::string held = absl::GetFlag(FLAGS_held); !held.empty()) return CheckHeld(held, *device);
  if (const std::string bytes = absl::GetFlag(FLAGS_bytes); !bytes.empty())
    return CheckBytes(bytes, *device);
  if (args.size() < 2) return Fail("give one or more streamk-bench --csv files");
  // Each configuration's model and tile, by --model's and --set's names.
  streamk::DeviceSpec& spec = *device;
  const std::string model = absl::GetFlag(FLAGS_model);
  const std::optional<streamk::KernelRole> fitted = streamk::ParseKernelRole(model);
  if (!fitted) return Fail("--model " + model + ": expected " + ConfigurationNames(", ", " or "));
  if (spec.Find(*fitted) == nullptr)
    return Fail("--model " + model + ": " + device->name + " has no such kernel configuration");
  streamk::CostModel& cost = spec.Find(*fitted)->cost;
  const streamk::TileShape tile = spec.TileOf(*fitted);

  for (const std::string& kv : absl::GetFlag(FLAGS_set)) {
    std::vector<absl::string_view> p = absl::StrSplit(kv, '=');
    // "main.FIELD", "alt.FIELD", "mid.FIELD", "wide.FIELD", "small.FIELD" and "cluster.FIELD"
    // name a model; "FIELD" the --model one.
    streamk::CostModel* target = &cost;
    if (p.size() == 2) {
      const std::vector<absl::string_view> parts = absl::StrSplit(p[0], absl::MaxSplits('.', 1));
      if (parts.size() == 2) {
        const std::optional<streamk::KernelRole> role =
            streamk::ParseKernelRole(std::string(parts[0]));
        streamk::KernelConfig* c = role ? spec.Find(*role) : nullptr;
        if (c == nullptr)
          return Fail("--set " + kv + ": " + device->name + " has no kernel configuration '" +
                      std::string(parts[0]) + "'");
        target = &c->cost, p[0] = parts[1];
      }
    }
    double v = 0;
    double* field = p.size() == 2 ? streamk::tools::CostField(*target, std::string(p[0])) : nullptr;
    if (field == nullptr || !absl::SimpleAtod(p[1], &v))
      return Fail("--set " + kv + ": expected [" + ConfigurationNames("|", "|", ".") +
                  "]FIELD=VALUE with a field of CostModel");
    *field = v;
    // The values a device profile may hold (nan, negative or huge constants are refused there).
    if (absl::StatusOr<streamk::DeviceSpec> read =
            streamk::DeviceSpecFromJson(streamk::DeviceSpecToJson(spec));
        !read.ok())
      return Fail("--set " + kv + ": " + std::string(read.status().message()));
  }
  for (const std::string& f : absl::GetFlag(FLAGS_fit))
    if (streamk::tools::CostField(cost, f) == nullptr)
      return Fail("--fit " + f + ": not a field of CostModel");

  std::vector<streamk::tools::Measurement> rows;
  for (size_t i = 1; i < args.size(); ++i) {
    std::ifstream in(args[i]);
    if (!in) return Fail(absl::StrCat(args[i], ": cannot read"));
    std::stringstream text;
    text << in.rdbuf();
    absl::StatusOr<std::vector<streamk::tools::Measurement>> r =
        streamk::tools::ParseBenchCsv(args[i], text.str());
    if (!r.ok()) return Fail(std::string(r.status().message()));
    rows.insert(rows.end(), r->begin(), r->end());
  }

  if (absl::GetFlag(FLAGS_fit_all)) {
    const double holdout = absl::GetFlag(FLAGS_holdout);
    if (!(holdout >= 0 && holdout < 1))
      return Fail(absl::StrCat("--holdout ", holdout, ": expected a share in [0, 1)"));
    const streamk::tools::DeviceFit fit = streamk::tools::FitDevice(
        rows, spec, holdout, absl::GetFlag(FLAGS_evaluations), absl::GetFlag(FLAGS_fit));
    if (fit.configurations.empty()) return Fail("no rows of any kernel configuration rebuilt");
    std::printf("%s", streamk::tools::FormatDeviceFit(fit).c_str());
    if (const std::string out = absl::GetFlag(FLAGS_profile_out); !out.empty()) {
      std::vector<std::string> words(argv, argv + argc);
      if (absl::Status st = streamk::SaveDeviceProfile(
              fit.device, out, streamk::tools::DeviceFitJson(fit, absl::StrJoin(words, " ")));
          !st.ok())
        return Fail(std::string(st.message()));
      std::fprintf(stderr, "wrote %s\n", out.c_str());
    }
    return 0;
  }

  std::vector<streamk::tools::TimedPlan> data;
  std::vector<const streamk::tools::Measurement*> used;
  int skipped = 0;
  for (const streamk::tools::Measurement& r : rows) {
    if (r.tile_m != tile.m || r.tile_n != tile.n) continue;
    absl::StatusOr<streamk::Plan> p = streamk::tools::Replan(r, *device);
    if (!p.ok()) {
      if (++skipped <= 5)
        std::fprintf(stderr, "skipped: %s\n", std::string(p.status().message()).c_str());
      continue;
    }
    data.push_back({*p, r.time_us});
    used.push_back(&r);
  }
  std::printf("# %s, %dx%d kernel: %zu measured plans (%d not rebuilt)\n", device->name.c_str(),
              tile.m, tile.n, data.size(), skipped);
  if (data.empty()) return Fail("no rows of this kernel configuration");

  const streamk::tools::FitResult fit = streamk::tools::FitCosts(
      data, cost, absl::GetFlag(FLAGS_fit), absl::GetFlag(FLAGS_evaluations));
  std::printf("rms log error: %.4f before, %.4f after (%d evaluations)\n", fit.rms_before,
              fit.rms_after, fit.evaluations);
  std::printf("constants:\n%s", CostText(fit.cost).c_str());
  cost = fit.cost;

  if (absl::GetFlag(FLAGS_rows)) {
    std::printf("\n%-6s %-12s %-20s %-36s %9s %9s %7s\n", "set", "name", "shape", "plan",
                "meas_us", "pred_us", "ratio");
    for (size_t i = 0; i < data.size(); ++i) {
      const double pred = streamk::PredictMicros(data[i].plan, cost);
      const auto& r = *used[i];
      std::printf("%-6s %-12s %-20s %-36s %9.1f %9.1f %7.3f\n", r.set.c_str(), r.name.c_str(),
                  absl::StrCat(r.m, "x", r.n, "x", r.k).c_str(),
                  streamk::tools::PlanName(data[i].plan).c_str(), r.time_us, pred,
                  pred / r.time_us);
    }
  }

  // Auto replayed under these constants.
  const std::vector<streamk::tools::Replay> replay = streamk::tools::ReplayAuto(rows, *device);
  std::printf("\n%-6s %-12s %-20s %-32s %9s %9s %9s %-32s %9s  %s\n", "set", "name", "shape",
              "auto pick", "pick_us", "dp_us", "best_us", "argmin (model's fastest measured)",
              "argmin_us", "best plan");
  struct SetSums {
    double pick = 0, best = 0, argmin = 0;
    int timed = 0, unmeasured = 0;
  };
  std::vector<std::pair<std::string, SetSums>> sets;  // in first-seen order
  auto sums = [&sets](const std::string& set) -> SetSums& {
    for (auto& [name, s] : sets)
      if (name == set) return s;
    sets.push_back({set, SetSums{}});
    return sets.back().second;
  };
  for (const streamk::tools::Replay& r : replay) {
    std::printf("%-6s %-12s %-20s %-32s %9s %9.1f %9.1f %-32s %9.1f  %s\n", r.set.c_str(),
                r.name.c_str(), absl::StrCat(r.m, "x", r.n, "x", r.k).c_str(), r.pick.c_str(),
                r.pick_us > 0 ? absl::StrFormat("%.1f", r.pick_us).c_str() : "unmeasured", r.dp_us,
                r.best_us, r.argmin.c_str(), r.argmin_us, r.best.c_str());
    SetSums& s = sums(r.set);
    if (r.pick_us > 0 && r.dp_us > 0) {
      s.pick += std::log(r.dp_us / r.pick_us);
      s.best += std::log(r.dp_us / r.best_us);
      s.argmin += std::log(r.dp_us / r.argmin_us);
      ++s.timed;
    } else {
      ++s.unmeasured;
    }
  }
  std::printf(
      "\nauto replayed: time(dp) / time(auto's pick), geometric mean over the shapes whose "
      "pick was measured; the same for the fastest measured plan per shape and for the "
      "measured plan the model predicts fastest (argmin, without auto's rules)\n");
  for (const auto& [set, s] : sets) {
    if (s.timed == 0) continue;
    std::printf(
        "%-6s auto/dp %.3f  best/dp %.3f  argmin/dp %.3f  (%d shapes; %d picks unmeasured)\n",
        set.c_str(), std::exp(s.pick / s.timed), std::exp(s.best / s.timed),
        std::exp(s.argmin / s.timed), s.timed, s.unmeasured);
  }
  return 0;
}
