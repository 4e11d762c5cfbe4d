// Probe (session 18): the 128x256 GEMM's load pattern without the math, as session 17's
// tma_pair_probe (docs/results/2026-11-22-h200-kmis/probe/), with and without 2-block clusters that
// share B. Every block walks data-parallel 128x256 tiles and streams each tile's k-iterations of A
// (128 rows) and B (256 rows) through a ring of stages; nothing consumes them. In the cluster
// variant the two blocks of a cluster take tiles (2i, j) and (2i + 1, j), which read the same 256
// rows of B: each block loads 128 of them and multicasts them to both, so B is read from the L2
// once per pair. A stage is reused only once both blocks have received it (an "empty" mbarrier
// with one arrival from each block), as a GEMM's consumers would release it. Prints us per
// variant and K, and how many 2-block clusters fit the GPU at once.
//   nvcc -O2 -std=c++17 -gencode arch=compute_90a,code=sm_90a -I. -o tma_multicast_probe
//        docs/results/2026-11-22-h200-cluster/probe/tma_multicast_probe.cu
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kernels/tma.cuh"

namespace sm90 = streamk::kernels::sm90;

constexpr int kStages = 4;
constexpr int kARows = 128, kBRows = 256;
constexpr int kStageBytes = (kARows + kBRows) * 64 * 2;

// cluster: 1 (each block loads its whole tile) or 2 (pairs along m multicast B's halves).
// Warp 0's lane 0 loads (the producer); warp 1's lane 0 waits for each stage and releases it to
// every block of the cluster (the consumers' part), so the producer never waits on its own loads.
__global__ void __launch_bounds__(64) Stream(const __grid_constant__ CUtensorMap a,
                                             const __grid_constant__ CUtensorMap b, int m, int n,
                                             int k, int cluster, int remote_self) {
  extern __shared__ __align__(1024) unsigned char smem[];
  __shared__ __align__(8) uint64_t full[kStages], empty[kStages];
  const uint32_t base = (static_cast<uint32_t>(__cvta_generic_to_shared(smem)) + 1023u) & ~1023u;
  const uint32_t full0 = static_cast<uint32_t>(__cvta_generic_to_shared(full));
  const uint32_t empty0 = static_cast<uint32_t>(__cvta_generic_to_shared(empty));
  const uint32_t rank = cluster > 1 ? sm90::ClusterRank() : 0;
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      sm90::MbarrierInit(full0 + 8 * s, 1);
      sm90::MbarrierInit(empty0 + 8 * s, cluster);
    }
    sm90::FenceBarrierInit();
  }
  __syncthreads();
  if (cluster > 1) sm90::ClusterSync();  // the peer's barriers exist before anything reaches them
  const int tm = m / kARows, tn = n / kBRows, kiters = (k + 63) / 64;
  const int units = tm / cluster * tn;  // a unit: one tile, or a pair of tiles along m
  const int first = blockIdx.x / cluster, step = gridDim.x / cluster;
  int iterations = 0;
  for (int t = first; t < units; t += step) iterations += kiters;
  if (threadIdx.x == 0) {
    int c = 0;
    for (int t = first; t < units; t += step) {
      const int mi = cluster * (t % (tm / cluster)) + static_cast<int>(rank);
      const int ni = t / (tm / cluster);
      for (int i = 0; i < kiters; ++i, ++c) {
        const int s = c % kStages;
        const uint32_t f = full0 + 8 * s;
        // Every block of the cluster released iteration c - kStages.
        if (c >= kStages) sm90::MbarrierWait(empty0 + 8 * s, ((c / kStages) - 1) & 1);
        sm90::MbarrierArriveExpectTx(f, kStageBytes);
        const uint32_t dst = base + s * kStageBytes;
        sm90::TmaLoad(dst, &a, f, i * 64, mi * kARows, 0);
        if (cluster == 1) {
          sm90::TmaLoad(dst + kARows * 128, &b, f, i * 64, ni * kBRows, 0);
        } else {
          const int half = kBRows / 2;
          sm90::TmaLoadMulticast(dst + kARows * 128 + rank * half * 128, &b, f, i * 64,
                                 ni * kBRows + static_cast<int>(rank) * half, 0, 0x3);
        }
      }
    }
  } else if (threadIdx.x == 32) {
    for (int c = 0; c < iterations; ++c) {
      const int s = c % kStages;
      sm90::MbarrierWait(full0 + 8 * s, (c / kStages) & 1);
      const uint32_t e = empty0 + 8 * s;
      // This block's own barrier by a local arrival (remote_self: through its cluster address
      // too), the other block's through the cluster.
      if (remote_self) {
        sm90::MbarrierArriveCluster(sm90::PeerSmemAddr(e, rank));
      } else {
        sm90::MbarrierArrive(e);
      }
      if (cluster > 1) sm90::MbarrierArriveCluster(sm90::PeerSmemAddr(e, rank ^ 1));
    }
  }
  __syncthreads();
  if (cluster > 1) sm90::ClusterSync();  // no arrival or copy reaches a block that has exited
}

using EncodeFn = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*,
                              const cuuint64_t*, const cuuint64_t*, const cuuint32_t*,
                              const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                              CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
EncodeFn encode;

CUtensorMap Map(void* p, int rows, int k, int ld, int box_rows) {
  CUtensorMap map;
  const cuuint64_t dims[3] = {cuuint64_t(k), cuuint64_t(rows), 1};
  const cuuint64_t strides[2] = {cuuint64_t(ld) * 2, cuuint64_t(ld) * rows * 2};
  const cuuint32_t box[3] = {64, cuuint32_t(box_rows), 1};
  const cuuint32_t es[3] = {1, 1, 1};
  if (encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 3, p, dims, strides, box, es,
             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
             CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) !=
      CUDA_SUCCESS) {
    printf("encode failed\n");
    exit(1);
  }
  return map;
}

int main() {
  const int m = 4096, n = 4096;
  void* p = nullptr;
  cudaDriverEntryPointQueryResult q;
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
  encode = reinterpret_cast<EncodeFn>(p);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const size_t smem = kStages * kStageBytes + 1024;
  cudaFuncSetAttribute(Stream, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  cudaFuncSetAttribute(Stream, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  void *a = nullptr, *b = nullptr;
  const size_t bytes = size_t(4096) * 4224 * 2;
  cudaMalloc(&a, bytes);
  cudaMalloc(&b, bytes);
  cudaMemset(a, 0, bytes);
  cudaMemset(b, 0, bytes);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);

  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 2, attr[0].val.clusterDim.y = 1, attr[0].val.clusterDim.z = 1;
  cfg.blockDim = dim3(64);
  cfg.dynamicSmemBytes = smem;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  int clusters = 0;
  cfg.gridDim = dim3(sms);
  if (cudaError_t err = cudaOccupancyMaxActiveClusters(&clusters, Stream, &cfg);
      err != cudaSuccess) {
    printf("cudaOccupancyMaxActiveClusters: %s\n", cudaGetErrorString(err));
    return 1;
  }
  printf("m %d n %d sms %d, 2-block clusters resident at once: %d\n", m, n, sms, clusters);
  printf("%-28s %6s %6s %9s %8s\n", "variant", "K", "grid", "us", "TB/s");
  const int ks[] = {4096, 4104, 4112};
  struct V {
    const char* name;
    int cluster, remote_self;
  };
  const V vs[] = {{"one block, local release", 1, 0},
                  {"one block, cluster release", 1, 1},
                  {"pairs, B multicast", 2, 0}};
  for (const V& v : vs) {
    for (int k : ks) {
      const CUtensorMap ma = Map(a, m, k, k, kARows);
      const CUtensorMap mb = Map(b, n, k, k, v.cluster == 1 ? kBRows : kBRows / 2);
      const int grid = v.cluster == 1 ? sms : 2 * clusters;
      cfg.gridDim = dim3(grid);
      cfg.numAttrs = v.cluster == 1 ? 0 : 1;
      std::vector<float> t;
      for (int rep = 0; rep < 9; ++rep) {
        cudaEventRecord(e0);
        cudaLaunchKernelEx(&cfg, Stream, ma, mb, m, n, k, v.cluster, v.remote_self);
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
      // Bytes the blocks receive (a multicast box counts once per receiver).
      const double moved = double(m / kARows) * (n / kBRows) * ((k + 63) / 64) * kStageBytes;
      printf("%-28s %6d %6d %9.1f %8.2f\n", v.name, k, grid, t[4], moved / t[4] / 1e6);
    }
  }
  return 0;
}
