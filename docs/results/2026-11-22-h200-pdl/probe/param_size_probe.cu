// Session 20: does the size of a kernel's parameters change the host cost of launching it?
// cudaLaunchKernelExC of an empty 132 x 288 kernel with P bytes of __grid_constant__ parameters,
// queued behind a long kernel (us per call, median of 5 rounds of 100 calls).
//   nvcc -O2 -std=c++17 -gencode arch=compute_90a,code=sm_90a param_size_probe.cu -o param_size_probe
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

template <int P>
struct Params { char bytes[P]; };

template <int P>
__global__ void Empty(const __grid_constant__ Params<P> p) {
  if (p.bytes[threadIdx.x % 8] == 42) asm volatile("trap;");
}
__global__ void Spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {}
}

template <int P>
void Measure(cudaStream_t s, bool pdl) {
  Params<P> p = {};
  cudaFuncSetAttribute(Empty<P>, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
  std::vector<double> rounds;
  for (int r = 0; r < 5; ++r) {
    cudaStreamSynchronize(s);
    Spin<<<1, 1, 0, s>>>(200000000LL);  // ~0.1 s: the launches below only queue
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 100; ++i) {
      cudaLaunchConfig_t c = {};
      c.gridDim = dim3(132);
      c.blockDim = dim3(288);
      c.dynamicSmemBytes = 200 * 1024;
      c.stream = s;
      cudaLaunchAttribute a[1];
      a[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
      a[0].val.programmaticStreamSerializationAllowed = 1;
      c.attrs = a;
      c.numAttrs = pdl ? 1 : 0;
      void* args[] = {&p};
      cudaLaunchKernelExC(&c, reinterpret_cast<const void*>(Empty<P>), args);
    }
    rounds.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 100);
  }
  std::sort(rounds.begin(), rounds.end());
  std::printf("params %5d bytes, programmatic %d: %.2f us per launch (%s)\n", P, pdl ? 1 : 0,
              rounds[2], cudaGetErrorName(cudaGetLastError()));
}

int main() {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  for (int pdl = 0; pdl < 2; ++pdl) {
    Measure<16>(s, pdl);
    Measure<256>(s, pdl);
    Measure<512>(s, pdl);
    Measure<1024>(s, pdl);
    Measure<1400>(s, pdl);
    Measure<4000>(s, pdl);
  }
  // The same 16-byte launch with <<<>>>.
  std::vector<double> rounds;
  for (int r = 0; r < 5; ++r) {
    cudaStreamSynchronize(s);
    Spin<<<1, 1, 0, s>>>(200000000LL);
    Params<16> p = {};
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 100; ++i) Empty<16><<<132, 288, 200 * 1024, s>>>(p);
    rounds.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 100);
  }
  std::sort(rounds.begin(), rounds.end());
  std::printf("params    16 bytes, <<<>>>: %.2f us per launch\n", rounds[2]);
  cudaDeviceSynchronize();
  return 0;
}
