// Planner cost: MakePlan must stay in the low microseconds for every shape, because gemm() plans
// on every call. The block-count search is bounded by the device's resident capacity, never by
// the problem size; the large shapes here check that.
#include <benchmark/benchmark.h>

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

}  // namespace
}  // namespace streamk
