// Session 20: what the host calls of one gemm() launch cost on their own (us per call, median of
// 5 rounds of 100 calls), with the GPU kept busy by a long kernel so that no launch waits.
//   nvcc -O2 -std=c++17 -gencode arch=compute_90a,code=sm_90a host_cost_probe.cu -o host_cost_probe
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

struct Params { char bytes[1400]; };  // about a GEMM launch's Plan, args and four tensor maps

__global__ void Empty(const __grid_constant__ Params p) {
  if (p.bytes[threadIdx.x % 8] == 42) asm volatile("trap;");
}
__global__ void Spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {}
}

double Time(const std::function<void()>& f) {
  std::vector<double> rounds;
  for (int r = 0; r < 5; ++r) {
    const int n = 100;  // 500 launches in all: well inside the launch queue
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) f();
    rounds.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / n);
  }
  std::sort(rounds.begin(), rounds.end());
  return rounds[2];
}

int main() {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  Params p = {};
  cudaFuncSetAttribute(Empty, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
  int dev = 0;
  std::printf("cudaGetDevice                 %6.2f us\n", Time([&] { cudaGetDevice(&dev); }));
  std::printf("cudaFuncSetAttribute(smem)    %6.2f us\n", Time([&] {
    cudaFuncSetAttribute(Empty, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024); }));
  cudaStreamCaptureStatus cs;
  std::printf("cudaStreamIsCapturing         %6.2f us\n", Time([&] { cudaStreamIsCapturing(s, &cs); }));
  auto launch = [&](bool coop, bool pdl, int cluster) {
    cudaLaunchConfig_t c = {};
    c.gridDim = dim3(132);
    c.blockDim = dim3(288);
    c.dynamicSmemBytes = 200 * 1024;
    c.stream = s;
    cudaLaunchAttribute a[3];
    c.attrs = a;
    if (cluster > 1) {
      a[c.numAttrs].id = cudaLaunchAttributeClusterDimension;
      a[c.numAttrs].val.clusterDim.x = cluster;
      a[c.numAttrs].val.clusterDim.y = a[c.numAttrs].val.clusterDim.z = 1;
      ++c.numAttrs;
    }
    if (coop) {
      a[c.numAttrs].id = cudaLaunchAttributeCooperative;
      a[c.numAttrs].val.cooperative = 1;
      ++c.numAttrs;
    }
    if (pdl) {
      a[c.numAttrs].id = cudaLaunchAttributeProgrammaticStreamSerialization;
      a[c.numAttrs].val.programmaticStreamSerializationAllowed = 1;
      ++c.numAttrs;
    }
    void* args[] = {&p};
    return cudaLaunchKernelExC(&c, reinterpret_cast<const void*>(Empty), args);
  };
  for (int coop = 0; coop < 2; ++coop)
    for (int pdl = 0; pdl < 2; ++pdl)
      for (int cluster : {1, 2}) {
        cudaDeviceSynchronize();
        Spin<<<1, 1, 0, s>>>(2000000000LL);  // keeps the stream busy: launches only queue
        const double us = Time([&] { launch(coop, pdl, cluster); });
        std::printf("launch coop %d pdl %d cluster %d %6.2f us  (%s)\n", coop, pdl, cluster, us,
                    cudaGetErrorName(cudaGetLastError()));
        cudaDeviceReset();
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        cudaFuncSetAttribute(Empty, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
      }
  return 0;
}
