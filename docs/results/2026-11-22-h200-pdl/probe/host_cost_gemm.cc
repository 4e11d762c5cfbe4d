// Session 20: the host cost of streamk::gemm() and of its parts that are public, per call (us,
// median of 5 rounds of 100 calls), with the GPU kept busy so that no launch waits. Built against
// the library like the tools (see run99.sh).
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "streamk/streamk.h"
#include "device_util.h"


double Time(const std::function<void()>& f, int calls = 100) {
  std::vector<double> rounds;
  for (int r = 0; r < 5; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) f();
    rounds.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / calls);
  }
  std::sort(rounds.begin(), rounds.end());
  return rounds[2];
}

int main() {
  int clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  for (auto [m, n, k] : {std::array<int, 3>{128, 128, 64}, {1536, 2816, 1024}}) {
    for (streamk::Mode mode : {streamk::Mode::kDataParallel, streamk::Mode::kStreamK}) {
      streamk::GemmArgs g;
      g.m = m, g.n = n, g.k = k;
      streamk::tools::DeviceBuffer a(m * k * 2), b(k * n * 2), d(m * n * 2);
      g.a = a.get(), g.lda = k, g.b = b.get(), g.ldb = k, g.d = d.get(), g.ldd = n;
      streamk::Options o;
      o.mode = mode;
      (void)streamk::gemm(g, s, o);  // plans, allocates the workspace, encodes the maps
      cudaStreamSynchronize(s);
      streamk::tools::LaunchHog(1, static_cast<long long>(clock_khz) * 1000, s);  // ~1 s busy
      const double validate = Time([&] { (void)streamk::ValidateGemmArgs(g, o); });
      const double plan = Time([&] { (void)streamk::PlanGemm(g, o); });
      const double call = Time([&] { (void)streamk::gemm(g, s, o); }, 50);
      o.programmatic_launch = false;
      const double call_serial = Time([&] { (void)streamk::gemm(g, s, o); }, 50);
      std::printf("%dx%dx%d %s: ValidateGemmArgs %.2f us, PlanGemm (plans anew) %.2f us, gemm() %.2f us "
                  "(programmatic launch off: %.2f us)\n",
                  m, n, k, streamk::ModeName(mode), validate, plan, call, call_serial);
      cudaDeviceSynchronize();
    }
  }
  return 0;
}
