// launch_floor: what a kernel launch costs on this GPU in CUDA graph replay when the kernel does
// (almost) nothing: the floor under any GEMM's GPU time, against which the persistent kernel's
// fixed cost is measured (docs/performance.md, "What limits speed now").
//
//   launch_floor            one line per launch shape: median microseconds per launch
//
// Each shape is captured as a graph of 20 back-to-back launches on one stream and replayed 21
// times after 3 warm-up replays; the time per launch is the median replay over 20. Shapes: one
// block or one per SM, 128 threads without shared memory or 384 with 220 KiB of it (the TMA
// kernel's), with and without programmatic dependent launch (the next kernel released at the
// start or at the end of each block) and the cooperative attribute, with a 1 KiB parameter block
// (the size of the GEMM kernel's Plan, arguments and tensor maps), and blocks that spin for 1 us.
// It also prints the memory's nominal rate the driver reports (2 x memory clock x bus width).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "grid_dependency.cuh"  // the GEMM kernel's own programmatic-launch instructions

namespace {

struct Params {
  char bytes[1024];
};

enum Flags : int { kWait = 1, kReleaseAtStart = 2, kReleaseAtEnd = 4 };

// Writes one int per block after spinning `ns` nanoseconds (0: not at all).
__global__ void Floor(int* out, int flags, long long ns, Params params) {
  if (flags & kReleaseAtStart) streamk::kernels::LaunchDependents();
  if (flags & kWait) streamk::kernels::GridDependencyWait();
  if (ns > 0) {
    long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
      asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < ns);
  }
  if (threadIdx.x == 0) out[blockIdx.x] = flags + params.bytes[blockIdx.x % sizeof(Params)];
  if (flags & kReleaseAtEnd) streamk::kernels::LaunchDependents();
}

struct Shape {
  const char* name;
  int blocks, threads, smem;
  bool programmatic, cooperative;
  int flags;
  long long ns;
};

bool Check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "launch_floor: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}

}  // namespace

int main() {
  int clock_khz = 0, bus_bits = 0, sms = 0;
  cudaDeviceProp prop;
  if (!Check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties")) return 1;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, 0);
  cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  std::printf("# %s, %d SMs; memory %d MHz x %d bits: %.2f TB/s nominal\n", prop.name, sms,
              clock_khz / 1000, bus_bits, 2.0 * clock_khz * 1e3 * bus_bits / 8 / 1e12);
  constexpr int kSmem = 220 * 1024;
  if (!Check(cudaFuncSetAttribute(Floor, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem),
             "cudaFuncSetAttribute"))
    return 1;
  int* out = nullptr;
  if (!Check(cudaMalloc(&out, sizeof(int) * std::max(sms, 1)), "cudaMalloc")) return 1;
  cudaStream_t stream;
  if (!Check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate"))
    return 1;
  const bool pdl = prop.major >= 9;
  const std::vector<Shape> shapes = {
      {"1 block, 128 threads", 1, 128, 0, false, false, 0, 0},
      {"1 block, 384 threads, 220 KiB", 1, 384, kSmem, false, false, 0, 0},
      {"  + programmatic, released at the end", 1, 384, kSmem, pdl, false, kWait | kReleaseAtEnd, 0},
      {"  + programmatic, released at the start", 1, 384, kSmem, pdl, false,
       kWait | kReleaseAtStart, 0},
      {"  + cooperative", 1, 384, kSmem, false, true, 0, 0},
      {"  + programmatic and cooperative", 1, 384, kSmem, pdl, true, kWait | kReleaseAtEnd, 0},
      {"one block per SM, 384 threads, 220 KiB", sms, 384, kSmem, false, false, 0, 0},
      {"  + programmatic, released at the end", sms, 384, kSmem, pdl, false,
       kWait | kReleaseAtEnd, 0},
      {"1 block spinning 1 us", 1, 384, kSmem, false, false, 0, 1000},
      {"  + programmatic, released at the end", 1, 384, kSmem, pdl, false, kWait | kReleaseAtEnd,
       1000},
  };
  constexpr int kLaunches = 20, kWarmup = 3, kReplays = 21;
  std::printf("%-44s %9s %9s\n", "launch", "us/launch", "min");
  for (const Shape& s : shapes) {
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    if (!Check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "capture"))
      return 1;
    for (int i = 0; i < kLaunches; ++i) {
      cudaLaunchConfig_t config = {};
      config.gridDim = dim3(s.blocks);
      config.blockDim = dim3(s.threads);
      config.dynamicSmemBytes = s.smem;
      config.stream = stream;
      cudaLaunchAttribute attrs[2];
      config.attrs = attrs;
      if (s.programmatic) {
        attrs[config.numAttrs].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attrs[config.numAttrs++].val.programmaticStreamSerializationAllowed = 1;
      }
      if (s.cooperative) {
        attrs[config.numAttrs].id = cudaLaunchAttributeCooperative;
        attrs[config.numAttrs++].val.cooperative = 1;
      }
      const int flags = s.programmatic ? s.flags : 0;
      if (!Check(cudaLaunchKernelEx(&config, Floor, out, flags, s.ns, Params{}), s.name)) return 1;
    }
    if (!Check(cudaStreamEndCapture(stream, &graph), "end capture") ||
        !Check(cudaGraphInstantiate(&exec, graph, 0), "instantiate"))
      return 1;
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    std::vector<float> us;
    for (int r = 0; r < kWarmup + kReplays; ++r) {
      cudaEventRecord(start, stream);
      cudaGraphLaunch(exec, stream);
      cudaEventRecord(stop, stream);
      if (!Check(cudaEventSynchronize(stop), "replay")) return 1;
      float ms = 0;
      cudaEventElapsedTime(&ms, start, stop);
      if (r >= kWarmup) us.push_back(ms * 1000 / kLaunches);
    }
    std::sort(us.begin(), us.end());
    std::printf("%-44s %9.2f %9.2f\n", s.name, us[us.size() / 2], us.front());
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  }
  return 0;
}
