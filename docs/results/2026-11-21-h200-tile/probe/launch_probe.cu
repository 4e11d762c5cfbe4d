// Launch-overhead probe: back-to-back launches of kernels that do (almost) nothing, timed with
// events, in a stream loop and in a CUDA graph, varying grid size, dynamic shared memory, params.
// Session 15 probe (output in launch_probe.txt): what an empty, a shared-memory-heavy, a storing
// and a spinning kernel cost per launch on an H200, back to back in a stream and in a CUDA graph.
// Build: nvcc -O2 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o launch_probe launch_probe.cu
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

struct Big { char bytes[1024]; };

__global__ void Empty(int* p) { if (p && threadIdx.x == 0 && blockIdx.x == 100000) *p = 1; }
__global__ void EmptyBig(const __grid_constant__ Big b, int* p) {
  if (p && threadIdx.x == 0 && blockIdx.x == 100000) *p = b.bytes[5];
}
__global__ void TouchSmem(int* p) {
  extern __shared__ int s[];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (p && threadIdx.x == 0 && blockIdx.x == 100000) *p = s[3];
}
// Each block writes `bytes` of global memory with 16-byte stores.
__global__ void Store(int4* out, int bytes) {
  int4* o = out + (size_t)blockIdx.x * (bytes / 16);
  for (int i = threadIdx.x; i < bytes / 16; i += blockDim.x) o[i] = make_int4(i, i, i, i);
}
// Spin `ns` nanoseconds per block.
__global__ void Spin(long ns) {
  long t0; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  long t = t0; while (t - t0 < ns) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
}

template <class F> float Time(F launch, int n, bool graph) {
  cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  cudaGraphExec_t exec = nullptr;
  if (graph) {
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    for (int i = 0; i < n; ++i) launch(s);
    if (cudaStreamEndCapture(s, &g) != cudaSuccess) { printf("capture failed\n"); return -1; }
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) { printf("instantiate failed\n"); return -1; }
  }
  std::vector<float> t;
  for (int r = 0; r < 12; ++r) {
    cudaEventRecord(a, s);
    if (graph) cudaGraphLaunch(exec, s); else for (int i = 0; i < n; ++i) launch(s);
    cudaEventRecord(b, s);
    cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms * 1000 / n);
  }
  std::sort(t.begin(), t.end());
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) printf("error %s\n", cudaGetErrorString(e));
  return t[t.size() / 2];
}

int main() {
  setvbuf(stdout, nullptr, _IONBF, 0);
  const int smem_max = 227 * 1024;
  cudaFuncSetAttribute(TouchSmem, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_max);
  cudaFuncSetAttribute(Empty, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_max);
  int4* buf; cudaMalloc(&buf, 132 * 128 * 1024);
  const int n = 20;
  for (bool graph : {false, true}) {
    printf("== %s (us per launch, median of 12 x %d)\n", graph ? "graph" : "stream", n);
    for (int blocks : {1, 4, 132}) {
      for (int smem : {0, 100 * 1024, 214 * 1024}) {
        printf("empty     blocks %3d threads 288 smem %6d: %6.2f\n", blocks, smem,
               Time([&](cudaStream_t s) { Empty<<<blocks, 288, smem, s>>>(nullptr); }, n, graph));
        printf("touchsmem blocks %3d threads 288 smem %6d: %6.2f\n", blocks, smem,
               Time([&](cudaStream_t s) { TouchSmem<<<blocks, 288, smem + 2048, s>>>(nullptr); }, n, graph));
      }
      Big big = {};
      printf("emptybig  blocks %3d (1 KiB grid_constant param): %6.2f\n", blocks,
             Time([&](cudaStream_t s) { EmptyBig<<<blocks, 288, 0, s>>>(big, nullptr); }, n, graph));
      for (int bytes : {32 * 1024, 128 * 1024})
        printf("store     blocks %3d %6d bytes each: %6.2f\n", blocks, bytes,
               Time([&](cudaStream_t s) { Store<<<blocks, 288, 0, s>>>(buf, bytes); }, n, graph));
      for (long ns : {5000L, 15000L})
        printf("spin      blocks %3d %5ld ns: %6.2f\n", blocks, ns,
               Time([&](cudaStream_t s) { Spin<<<blocks, 288, 0, s>>>(ns); }, n, graph));
    }
  }
  return 0;
}
