// Probe (session 17): how fast the TMA unit loads K-major rows whose start is 16- but not
// 128-byte aligned (K an odd multiple of 8, fp16), by tensor-map variant. One producer thread per
// block streams one operand's k-iterations (box_rows x 64 elements, as the GEMM's producer does)
// through a ring of `stages` buffers; nothing consumes them. Prints us and GB/s per variant.
//   nvcc -O2 -std=c++17 -gencode arch=compute_90a,code=sm_90a -I. -o tma_rows_probe
//        docs/results/2026-11-22-h200-kmis/probe/tma_rows_probe.cu
//   tma_rows_probe [rows] [repeat]
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "kernels/tma.cuh"

namespace sm90 = streamk::kernels::sm90;

struct Variant {
  const char* name;
  int box_inner;  // elements per box row; 64 / box_inner boxes per k-iteration
  CUtensorMapSwizzle swizzle;
  CUtensorMapL2promotion promotion;
  int dims;       // 2 or 3
  int k_offset;   // elements the loads start at (shifts every row by this many)
};

constexpr int kStages = 8;
constexpr int kBoxRows = 128;
constexpr int kStageBytes = kBoxRows * 64 * 2;

__global__ void __launch_bounds__(32) Stream(const __grid_constant__ CUtensorMap map, int rows,
                                             int k, int box_inner, int dims, int k_offset,
                                             int repeat) {
  extern __shared__ __align__(1024) unsigned char smem[];
  __shared__ __align__(8) uint64_t full[kStages];
  if (threadIdx.x != 0) return;
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  const uint32_t bar0 = static_cast<uint32_t>(__cvta_generic_to_shared(full));
  for (int s = 0; s < kStages; ++s) sm90::MbarrierInit(bar0 + 8 * s, 1);
  sm90::FenceBarrierInit();
  const int tiles = rows / kBoxRows, kiters = (k - k_offset) / 64;
  const int boxes = 64 / box_inner;
  int n = 0;
  for (int r = 0; r < repeat; ++r) {
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
      for (int i = 0; i < kiters; ++i, ++n) {
        const int s = n % kStages;
        const uint32_t bar = bar0 + 8 * s;
        if (n >= kStages) sm90::MbarrierWait(bar, ((n / kStages) - 1) & 1);
        sm90::MbarrierArriveExpectTx(bar, kStageBytes);
        for (int b = 0; b < boxes; ++b) {
          const uint32_t dst = base + s * kStageBytes + b * kBoxRows * box_inner * 2;
          const int c0 = k_offset + i * 64 + b * box_inner;
          if (dims == 3) {
            sm90::TmaLoad(dst, &map, bar, c0, t * kBoxRows, 0);
          } else {
            asm volatile(
                "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                " [%0], [%1, {%3, %4}], [%2];\n" ::"r"(dst),
                "l"(reinterpret_cast<uint64_t>(&map)), "r"(bar), "r"(c0), "r"(t * kBoxRows)
                : "memory");
          }
        }
      }
    }
  }
  for (int m = max(0, n - kStages); m < n; ++m)
    sm90::MbarrierWait(bar0 + 8 * (m % kStages), (m / kStages) & 1);
}

using EncodeFn = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*,
                              const cuuint64_t*, const cuuint64_t*, const cuuint32_t*,
                              const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                              CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

int main(int argc, char** argv) {
  const int rows = argc > 1 ? atoi(argv[1]) : 4096;
  const int repeat = argc > 2 ? atoi(argv[2]) : 8;
  void* p = nullptr;
  cudaDriverEntryPointQueryResult q;
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
  const EncodeFn encode = reinterpret_cast<EncodeFn>(p);
  const Variant variants[] = {
      {"sw128 box64 promo256 3d (ours)", 64, CU_TENSOR_MAP_SWIZZLE_128B,
       CU_TENSOR_MAP_L2_PROMOTION_L2_256B, 3, 0},
      {"sw128 box64 promo-none 3d", 64, CU_TENSOR_MAP_SWIZZLE_128B,
       CU_TENSOR_MAP_L2_PROMOTION_NONE, 3, 0},
      {"sw128 box64 promo128 3d", 64, CU_TENSOR_MAP_SWIZZLE_128B,
       CU_TENSOR_MAP_L2_PROMOTION_L2_128B, 3, 0},
      {"sw128 box64 promo256 2d", 64, CU_TENSOR_MAP_SWIZZLE_128B,
       CU_TENSOR_MAP_L2_PROMOTION_L2_256B, 2, 0},
      {"sw64 box32 x2 promo256 3d", 32, CU_TENSOR_MAP_SWIZZLE_64B,
       CU_TENSOR_MAP_L2_PROMOTION_L2_256B, 3, 0},
      {"sw32 box16 x4 promo256 3d", 16, CU_TENSOR_MAP_SWIZZLE_32B,
       CU_TENSOR_MAP_L2_PROMOTION_L2_256B, 3, 0},
      {"none box64 promo256 3d", 64, CU_TENSOR_MAP_SWIZZLE_NONE,
       CU_TENSOR_MAP_L2_PROMOTION_L2_256B, 3, 0},
      {"none box8 x8 promo256 3d", 8, CU_TENSOR_MAP_SWIZZLE_NONE,
       CU_TENSOR_MAP_L2_PROMOTION_L2_256B, 3, 0},
      {"sw128 box64 promo256 3d k+8", 64, CU_TENSOR_MAP_SWIZZLE_128B,
       CU_TENSOR_MAP_L2_PROMOTION_L2_256B, 3, 8},
  };
  const int ks[] = {4096, 4104, 4112, 4120};
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const size_t smem = kStages * kStageBytes + 1024;
  cudaFuncSetAttribute(Stream, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  void* buf = nullptr;
  cudaMalloc(&buf, size_t(rows) * 4160 * 2 + 4096);
  cudaMemset(buf, 0, size_t(rows) * 4160 * 2 + 4096);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  printf("rows %d repeat %d sms %d stages %d box_rows %d\n", rows, repeat, sms, kStages, kBoxRows);
  printf("%-32s %6s %9s %8s\n", "variant", "K", "us", "GB/s");
  for (const Variant& v : variants) {
    for (int k : ks) {
      CUtensorMap map;
      const cuuint64_t dims[3] = {cuuint64_t(k), cuuint64_t(rows), 1};
      const cuuint64_t strides[2] = {cuuint64_t(k) * 2, cuuint64_t(k) * rows * 2};
      const cuuint32_t box[3] = {cuuint32_t(v.box_inner), kBoxRows, 1};
      const cuuint32_t es[3] = {1, 1, 1};
      CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, v.dims, buf, dims, strides, box,
                          es, CU_TENSOR_MAP_INTERLEAVE_NONE, v.swizzle, v.promotion,
                          CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
      if (r != CUDA_SUCCESS) {
        printf("%-32s %6d encode failed %d\n", v.name, k, int(r));
        continue;
      }
      std::vector<float> t;
      for (int rep = 0; rep < 7; ++rep) {
        cudaEventRecord(e0);
        Stream<<<sms, 32, smem>>>(map, rows, k, v.box_inner, v.dims, v.k_offset, repeat);
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
      const double bytes = double(rows) * ((k - v.k_offset) / 64) * 64 * 2 * repeat;
      printf("%-32s %6d %9.1f %8.0f\n", v.name, k, t[3], bytes / t[3] / 1e3);
    }
  }
  return 0;
}
