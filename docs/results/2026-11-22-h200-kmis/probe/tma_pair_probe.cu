// Probe (session 17): the GEMM's load pattern without the math. Every block of one per SM walks
// data-parallel 128x256 tiles (tile i = block + r * blocks, m fastest) and streams each tile's
// k-iterations of A (128 rows) and B (256 rows) through a ring of stages, as the TMA producer
// does; nothing consumes them. Prints us per variant and K, to see whether K-misaligned rows
// slow the loads alone as much as they slow the GEMM (298 against 187 us at 4096x4096x4104).
//   nvcc -O2 -std=c++17 -gencode arch=compute_90a,code=sm_90a -I. -o tma_pair_probe
//        docs/results/2026-11-22-h200-kmis/probe/tma_pair_probe.cu
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kernels/tma.cuh"

namespace sm90 = streamk::kernels::sm90;

constexpr int kMaxStages = 4;
constexpr int kARows = 128, kBRows = 256;
constexpr int kStageBytes = (kARows + kBRows) * 64 * 2;

// b_split: B's 256 rows as that many boxes (1: one 256-row box, 2: two of 128 rows).
__global__ void __launch_bounds__(32) Stream(const __grid_constant__ CUtensorMap a,
                                             const __grid_constant__ CUtensorMap b, int m, int n,
                                             int k, int b_split, int stages) {
  extern __shared__ __align__(1024) unsigned char smem[];
  __shared__ __align__(8) uint64_t full[kMaxStages];
  if (threadIdx.x != 0) return;
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  const uint32_t bar0 = static_cast<uint32_t>(__cvta_generic_to_shared(full));
  for (int s = 0; s < stages; ++s) sm90::MbarrierInit(bar0 + 8 * s, 1);
  sm90::FenceBarrierInit();
  const int tm = m / kARows, tiles = tm * (n / kBRows), kiters = (k + 63) / 64;
  int c = 0;
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    const int mi = t % tm, ni = t / tm;
    for (int i = 0; i < kiters; ++i, ++c) {
      const int s = c % stages;
      const uint32_t bar = bar0 + 8 * s;
      if (c >= stages) sm90::MbarrierWait(bar, ((c / stages) - 1) & 1);
      sm90::MbarrierArriveExpectTx(bar, kStageBytes);
      const uint32_t dst = base + s * kStageBytes;
      sm90::TmaLoad(dst, &a, bar, i * 64, mi * kARows, 0);
      const int rows = kBRows / b_split;
      for (int j = 0; j < b_split; ++j)
        sm90::TmaLoad(dst + kARows * 128 + j * rows * 128, &b, bar, i * 64, ni * kBRows + j * rows,
                      0);
    }
  }
  for (int d = max(0, c - stages); d < c; ++d)
    sm90::MbarrierWait(bar0 + 8 * (d % stages), (d / stages) & 1);
}

using EncodeFn = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*,
                              const cuuint64_t*, const cuuint64_t*, const cuuint32_t*,
                              const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                              CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
EncodeFn encode;

CUtensorMap Map(void* p, int rows, int k, int ld, int box_rows, CUtensorMapL2promotion promo) {
  CUtensorMap map;
  const cuuint64_t dims[3] = {cuuint64_t(k), cuuint64_t(rows), 1};
  const cuuint64_t strides[2] = {cuuint64_t(ld) * 2, cuuint64_t(ld) * rows * 2};
  const cuuint32_t box[3] = {64, cuuint32_t(box_rows), 1};
  const cuuint32_t es[3] = {1, 1, 1};
  if (encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 3, p, dims, strides, box, es,
             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, promo,
             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) {
    printf("encode failed\n");
    exit(1);
  }
  return map;
}

int main(int argc, char** argv) {
  const int m = 4096, n = 4096;
  void* p = nullptr;
  cudaDriverEntryPointQueryResult q;
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
  encode = reinterpret_cast<EncodeFn>(p);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const size_t smem = kMaxStages * kStageBytes + 1024;
  cudaFuncSetAttribute(Stream, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  void *a = nullptr, *b = nullptr;
  const size_t bytes = size_t(4096) * 4224 * 2;
  cudaMalloc(&a, bytes);
  cudaMalloc(&b, bytes);
  cudaMemset(a, 0, bytes);
  cudaMemset(b, 0, bytes);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  struct V {
    const char* name;
    int a_ld, b_ld;  // row strides: 0 packed (k), 64 k rounded up to 64, 32 to 32
    int b_split, stages;
    CUtensorMapL2promotion promo;
  };
  const auto P256 = CU_TENSOR_MAP_L2_PROMOTION_L2_256B, PNONE = CU_TENSOR_MAP_L2_PROMOTION_NONE;
  const V vs[] = {
      {"packed promo256", 0, 0, 1, 4, P256},
      {"packed promo-none", 0, 0, 1, 4, PNONE},
      {"A ld64, B packed promo256", 64, 0, 1, 4, P256},
      {"A packed, B ld64 promo256", 0, 64, 1, 4, P256},
      {"both ld64 promo256", 64, 64, 1, 4, P256},
      {"both ld32 promo256", 32, 32, 1, 4, P256},
      {"A ld64, B packed promo-none", 64, 0, 1, 4, PNONE},
      {"A packed, B ld64 promo-none", 0, 64, 1, 4, PNONE},
  };
  const int ks[] = {4096, 4104, 4112};
  printf("m %d n %d sms %d (grid = sms)\n%-30s %6s %6s %6s %9s %8s\n", m, n, sms, "variant", "K", "lda", "ldb",
         "us", "TB/s");
  for (const V& v : vs) {
    for (int k : ks) {
      auto round = [&](int r) { return r == 0 ? k : (k + r - 1) / r * r; };
      const int ld = round(v.a_ld), ldb = round(v.b_ld);
      const CUtensorMap ma = Map(a, m, k, ld, kARows, v.promo);
      const CUtensorMap mb = Map(b, n, k, ldb, kBRows / v.b_split, v.promo);
      std::vector<float> t;
      for (int rep = 0; rep < 9; ++rep) {
        cudaEventRecord(e0);
        Stream<<<sms, 32, smem>>>(ma, mb, m, n, k, v.b_split, v.stages);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms = 0;
        cudaEventElapsedTime(&ms, e0, e1);
        t.push_back(ms * 1000);
      }
      if (cudaError_t err = cudaGetLastError(); err != cudaSuccess) {
        printf("%s: %s\n", v.name, cudaGetErrorString(err));
        return 1;
      }
      std::sort(t.begin(), t.end());
      const double moved = double(m / kARows) * (n / kBRows) * ((k + 63) / 64) * kStageBytes;
      printf("%-30s %6d %6d %6d %9.1f %8.2f\n", v.name, k, ld, ldb, t[4], moved / t[4] / 1e6);
    }
  }
  return 0;
}
