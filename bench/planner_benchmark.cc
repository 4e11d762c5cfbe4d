// Planner cost: MakePlan must stay in the low microseconds for every shape, because gemm() plans
// on every call. The block-count search is bounded by the device's resident capacity, never by
// the problem size; the large shapes here check that.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "streamk/planner.h"

namespace streamk {
namespace {

void BM_MakePlan(benchmark::State& state) {
  Problem pr;
  pr.m = state.range(0), pr.n = state.range(1), pr.k = state.range(2);
  PlanOptions o;
  o.mode = static_cast<Mode>(state.range(3));
  const DeviceSpec dev = H200Spec();
  for (auto _ : state) {
    absl::StatusOr<Plan> p = MakePlan(pr, dev, o);
    benchmark::DoNotOptimize(p);
  }
}

void Shapes(benchmark::internal::Benchmark* b) {
  for (int mode : {0, 2, 3}) {  // auto, splitk (planner picks), streamk (planner picks)
    b->Args({1408, 1536, 4096, mode});     // whole wave: no search
    b->Args({1536, 1536, 4096, mode});     // one tile over a wave
    b->Args({128, 128, 131072, mode});     // one long tile
    b->Args({5000, 7000, 3000, mode});     // many waves
    b->Args({65536, 65536, 65536, mode});  // huge: the search must not grow with size
  }
  b->ArgNames({"m", "n", "k", "mode"});
}

BENCHMARK(BM_MakePlan)->Apply(Shapes);

// Shapes nobody tuned on: kRandomShapes problems with M, N and K log-uniform in 1-16384 from a
// fixed seed, auto on the H200 model. Each iteration times every shape's MakePlan (the mean of
// kRandomReps calls) and reports the distribution over the shapes as counters: median, 90th
// percentile, the slowest (its shape in the label) and the share planned in 5 us or less.
constexpr int kRandomShapes = 100;
constexpr int kRandomReps = 20;

void BM_MakePlanRandomShapes(benchmark::State& state) {
  std::mt19937_64 rng(20261206);
  std::uniform_real_distribution<double> log_size(0.0, std::log(16384.0));
  auto size = [&] { return std::max<int64_t>(1, static_cast<int64_t>(std::exp(log_size(rng)))); };
  std::vector<Problem> shapes(kRandomShapes);
  for (Problem& pr : shapes) pr.m = size(), pr.n = size(), pr.k = size();
  const DeviceSpec dev = H200Spec();
  std::vector<double> us(kRandomShapes);
  for (auto _ : state) {
    for (int i = 0; i < kRandomShapes; ++i) {
      const auto start = std::chrono::steady_clock::now();
      for (int r = 0; r < kRandomReps; ++r) {
        absl::StatusOr<Plan> p = MakePlan(shapes[i], dev, {});
        benchmark::DoNotOptimize(p);
      }
      us[i] = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                  .count() /
              kRandomReps;
    }
  }
  const int slowest = static_cast<int>(std::max_element(us.begin(), us.end()) - us.begin());
  std::vector<double> sorted = us;
  std::sort(sorted.begin(), sorted.end());
  state.counters["median_us"] = sorted[kRandomShapes / 2];
  state.counters["p90_us"] = sorted[kRandomShapes * 9 / 10];
  state.counters["max_us"] = sorted.back();
  state.counters["share_le_5us"] =
      static_cast<double>(std::count_if(us.begin(), us.end(), [](double t) { return t <= 5; })) /
      kRandomShapes;
  state.SetLabel(absl::StrCat("slowest ", shapes[slowest].m, "x", shapes[slowest].n, "x",
                              shapes[slowest].k));
}
BENCHMARK(BM_MakePlanRandomShapes)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace streamk
