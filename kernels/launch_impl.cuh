// Launch plumbing shared by the per-dtype translation units (launch_f16.cu, launch_bf16.cu):
// the __global__ entry, its shared-memory attribute, occupancy, and the launch itself.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>

#include "launch.h"
#include "mainloop_sm80.cuh"
#include "mainloop_sm90.cuh"
#include "mainloop_sm90_tma.cuh"
#include "persistent_kernel.cuh"

namespace streamk::kernels {

template <typename Element, bool kAColMajor, bool kBRowMajor>
using Sm80Gemm = StreamKGemm<MainloopSm80<Element, kAColMajor, kBRowMajor>, Element>;

// Two resident blocks per SM (128 registers per thread): measured on an H200, two co-resident
// blocks of the mma.sync mainloop give 1.22x the throughput of one per SM (264 tiles in 103.8 us
// against 132 tiles in 63.6 us; with one block per SM, 264 tiles took 122.8 us).
template <typename Element, bool kAColMajor, bool kBRowMajor>
__global__ void __launch_bounds__(kThreadsPerBlock, 2)
    StreamKGemmKernel(const Plan plan, const GemmKernelArgs args, char* workspace) {
  Sm80Gemm<Element, kAColMajor, kBRowMajor>::Run(plan, args, workspace, nullptr);
}

// The Hopper kernels: the wgmma mainloop under the same persistent kernel, fixup and epilogue.
// Their bodies are empty where the compilation target is not sm_90a; the host only launches them
// where the device runs their sm_90a code (launch.cu). Configuration, measured on an H200 with
// streamk-bench over the waveq and calibration shapes (geometric mean of auto times, us): two
// blocks per SM with 6 stages and 2 wgmma groups in flight 91.5; 1 group in flight 92.6; one
// block per SM with 12 stages and 1, 2 or 4 groups in flight 101.8, 101.0, 106.5. The macros
// below exist to repeat that comparison (-DSTREAMK_SM90_STAGES=... in CMAKE_CUDA_FLAGS).
#ifndef STREAMK_SM90_STAGES
#define STREAMK_SM90_STAGES 6
#endif
#ifndef STREAMK_SM90_IN_FLIGHT
#define STREAMK_SM90_IN_FLIGHT 2
#endif
#ifndef STREAMK_SM90_BLOCKS_PER_SM
#define STREAMK_SM90_BLOCKS_PER_SM 2
#endif
template <typename Element, bool kAColMajor, bool kBRowMajor>
using Sm90Gemm = StreamKGemm<
    MainloopSm90<Element, kAColMajor, kBRowMajor, STREAMK_SM90_STAGES, STREAMK_SM90_IN_FLIGHT>,
    Element>;

template <typename Element, bool kAColMajor, bool kBRowMajor>
__global__ void __launch_bounds__(kThreadsPerBlock, STREAMK_SM90_BLOCKS_PER_SM)
    StreamKGemmKernelSm90(const Plan plan, const GemmKernelArgs args, char* workspace) {
  if constexpr (MainloopSm90<Element, kAColMajor, kBRowMajor>::kAvailable)
    Sm90Gemm<Element, kAColMajor, kBRowMajor>::Run(plan, args, workspace, nullptr);
}

// The warp-specialized Hopper kernels: a TMA producer warp group + two wgmma warp groups
// (mainloop_sm90_tma.cuh), 384 threads, 128 x 256 tiles (kTmaTileN), 128 x 128, 128 x 192 or
// 128 x 320, or three wgmma warp groups (512 threads) for 192 x 192, or one (256 threads) for
// 64 x 128 (the planner picks per shape). With 128 x 128 tiles every SM streams 16 KiB of operands
// per 1 MFLOP iteration and, all 132 SMs together, saturated the H200's L2 (0.235 us per iteration
// against 0.15-0.165 us for an SM alone); 128 x 256 tiles stream 24 KiB per 2 MFLOP (0.334 us per
// iteration whatever the load). Both take 64-deep k-iterations (kTmaTileK, launch.h): a K-major
// operand's rows are then 128 bytes, which the TMA unit loads at nearly full speed even where they
// start at odd multiples of 16 bytes (K an odd multiple of 8), and which took the 128 x 256
// configuration from 577 to 642 TFLOP/s on 8192^3 on an H200. Three
// 48 KiB stages hold as many bytes in flight as six of 24 KiB, and leave room for the 64-row
// epilogue staging area of a 256-wide tile.
// STREAMK_SM90_TMA_STAGES (256-wide), _STAGES_128 (launch.h) / _BLOCKS_PER_SM as above.
#ifndef STREAMK_SM90_TMA_BLOCKS_PER_SM
#define STREAMK_SM90_TMA_BLOCKS_PER_SM 1
#endif
// kCluster 2: the 128 x 256 configuration run by 2-block clusters that share B (Plan::cluster_m;
// a plan's tile is then the cluster's, 256 x 256).
// kBM 192: the 192 x 192 configuration (kTmaWideTileM), three compute warp groups; kBM 64: the
// 64 x 128 one (kTmaSmallTileM), one.
// kPingPong: the 128 x 128 configuration's ping-pong variant (PingPongOf, tma_operands.h).
template <typename Element, bool kAColMajor, bool kBRowMajor, int kBN, int kCluster = 1,
          int kBM = kTileM, bool kPingPong = false>
using Sm90TmaGemm =
    StreamKGemm<MainloopSm90Tma<Element, kAColMajor, kBRowMajor, kBN,
                                kPingPong ? STREAMK_SM90_TMA_STAGES_PINGPONG
                                          : TmaStagesOf(kBM, kBN),
                                kTmaTileK, kCluster, kBM, kPingPong>,
                Element>;

template <typename Element, bool kAColMajor, bool kBRowMajor, int kBN, int kCluster,
          int kBM = kTileM, bool kPingPong = false>
__global__ void __launch_bounds__(
    Sm90TmaGemm<Element, kAColMajor, kBRowMajor, kBN, kCluster, kBM, kPingPong>::kBlockThreads,
    STREAMK_SM90_TMA_BLOCKS_PER_SM)
    StreamKGemmKernelSm90Tma(const Plan plan, const GemmKernelArgs args, char* workspace,
                             const __grid_constant__ TmaOperands tma) {
  if constexpr (MainloopSm90Tma<Element, kAColMajor, kBRowMajor, kBN>::kAvailable)
    Sm90TmaGemm<Element, kAColMajor, kBRowMajor, kBN, kCluster, kBM, kPingPong>::Run(
        plan, args, workspace, &tma);
}

// The kernel for `arch`, its dynamic shared memory and its block size; sets the kernel's
// shared-memory attribute on the current device (needed before its first launch above 48 KiB)
// once per device: the call took 0.44 us on an H200's host, a tenth of a small GEMM's host time.
template <typename Gemm, typename Kernel>
cudaError_t PrepareGemm(Kernel kernel, KernelConfig* config) {
  config->fn = reinterpret_cast<const void*>(kernel);
  config->smem = Gemm::kSmemBytes;
  config->threads = Gemm::kBlockThreads;
  static std::atomic<uint64_t> set_on{0};  // bit d: done on device d (devices 0-63)
  int device = 0;
  if (cudaError_t err = cudaGetDevice(&device); err != cudaSuccess) return err;
  const uint64_t bit = device >= 0 && device < 64 ? uint64_t{1} << device : 0;
  if (bit != 0 && (set_on.load(std::memory_order_acquire) & bit) != 0) return cudaSuccess;
  const cudaError_t err =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, config->smem);
  if (err == cudaSuccess) set_on.fetch_or(bit, std::memory_order_release);
  return err;
}

// The most shared memory one block may opt into on sm_90: a ring deeper than fits fails to compile
// here rather than at launch.
constexpr int kSm90MaxSmemBytes = 227 * 1024;

template <typename Element, bool kAColMajor, bool kBRowMajor>
cudaError_t PrepareKernel(Arch arch, int tile_m, int tile_n, int cluster_m, bool pingpong,
                          KernelConfig* config) {
  static_assert(Sm90TmaGemm<Element, kAColMajor, kBRowMajor, kTmaWideTileN, 1,
                            kTmaWideTileM>::kSmemBytes <= kSm90MaxSmemBytes &&
                    Sm90TmaGemm<Element, kAColMajor, kBRowMajor, kTmaTileN>::kSmemBytes <=
                        kSm90MaxSmemBytes &&
                    Sm90TmaGemm<Element, kAColMajor, kBRowMajor, kTmaMidTileN>::kSmemBytes <=
                        kSm90MaxSmemBytes &&
                    Sm90TmaGemm<Element, kAColMajor, kBRowMajor, kTmaBroadTileN>::kSmemBytes <=
                        kSm90MaxSmemBytes &&
                    Sm90TmaGemm<Element, kAColMajor, kBRowMajor, kTileN>::kSmemBytes <=
                        kSm90MaxSmemBytes &&
                    Sm90TmaGemm<Element, kAColMajor, kBRowMajor, kTileN, 1,
                                kTmaSmallTileM>::kSmemBytes <= kSm90MaxSmemBytes &&
                    Sm90TmaGemm<Element, kAColMajor, kBRowMajor, kTileN, 1, kTileM,
                                true>::kSmemBytes <= kSm90MaxSmemBytes,
                "the TMA configurations' rings and epilogue areas fit one block's shared memory");
  static_assert(Sm80Gemm<Element, kAColMajor, kBRowMajor>::kThreads == kThreadsPerBlock &&
                    Sm90Gemm<Element, kAColMajor, kBRowMajor>::kThreads == kThreadsPerBlock &&
                    Sm90TmaGemm<Element, kAColMajor, kBRowMajor, kTmaTileN>::kThreads ==
                        kThreadsPerBlock,
                "compute threads");
  static_assert(MainloopSm80<Element, kAColMajor, kBRowMajor>::kBN == kTileN &&
                    MainloopSm90<Element, kAColMajor, kBRowMajor>::kBN == kTileN,
                "tile of the 128 x 128 kernels");
  switch (arch) {
    case Arch::kSm90Tma:
      if (cluster_m == 2)
        return PrepareGemm<Sm90TmaGemm<Element, kAColMajor, kBRowMajor, kTmaTileN, 2>>(
            StreamKGemmKernelSm90Tma<Element, kAColMajor, kBRowMajor, kTmaTileN, 2>, config);
      if (tile_m == kTmaWideTileM)
        return PrepareGemm<
            Sm90TmaGemm<Element, kAColMajor, kBRowMajor, kTmaWideTileN, 1, kTmaWideTileM>>(
            StreamKGemmKernelSm90Tma<Element, kAColMajor, kBRowMajor, kTmaWideTileN, 1,
                                     kTmaWideTileM>,
            config);
      if (tile_m == kTmaSmallTileM)
        return PrepareGemm<
            Sm90TmaGemm<Element, kAColMajor, kBRowMajor, kTileN, 1, kTmaSmallTileM>>(
            StreamKGemmKernelSm90Tma<Element, kAColMajor, kBRowMajor, kTileN, 1, kTmaSmallTileM>,
            config);
      if (tile_n == kTileN && pingpong)
        return PrepareGemm<Sm90TmaGemm<Element, kAColMajor, kBRowMajor, kTileN, 1, kTileM, true>>(
            StreamKGemmKernelSm90Tma<Element, kAColMajor, kBRowMajor, kTileN, 1, kTileM, true>,
            config);
      if (tile_n == kTileN)
        return PrepareGemm<Sm90TmaGemm<Element, kAColMajor, kBRowMajor, kTileN>>(
            StreamKGemmKernelSm90Tma<Element, kAColMajor, kBRowMajor, kTileN, 1>, config);
      if (tile_n == kTmaMidTileN)
        return PrepareGemm<Sm90TmaGemm<Element, kAColMajor, kBRowMajor, kTmaMidTileN>>(
            StreamKGemmKernelSm90Tma<Element, kAColMajor, kBRowMajor, kTmaMidTileN, 1>, config);
      if (tile_n == kTmaBroadTileN)
        return PrepareGemm<Sm90TmaGemm<Element, kAColMajor, kBRowMajor, kTmaBroadTileN>>(
            StreamKGemmKernelSm90Tma<Element, kAColMajor, kBRowMajor, kTmaBroadTileN, 1>, config);
      return PrepareGemm<Sm90TmaGemm<Element, kAColMajor, kBRowMajor, kTmaTileN>>(
          StreamKGemmKernelSm90Tma<Element, kAColMajor, kBRowMajor, kTmaTileN, 1>, config);
    case Arch::kSm90:
      return PrepareGemm<Sm90Gemm<Element, kAColMajor, kBRowMajor>>(
          StreamKGemmKernelSm90<Element, kAColMajor, kBRowMajor>, config);
    case Arch::kSm80: break;
  }
  return PrepareGemm<Sm80Gemm<Element, kAColMajor, kBRowMajor>>(
      StreamKGemmKernel<Element, kAColMajor, kBRowMajor>, config);
}

template <typename Element>
cudaError_t PrepareKernelFor(Arch arch, int tile_m, int tile_n, int cluster_m, bool pingpong,
                             bool a_col_major, bool b_row_major, KernelConfig* config) {
  if (a_col_major) {
    return b_row_major ? PrepareKernel<Element, true, true>(arch, tile_m, tile_n, cluster_m,
                                                            pingpong, config)
                       : PrepareKernel<Element, true, false>(arch, tile_m, tile_n, cluster_m,
                                                             pingpong, config);
  }
  return b_row_major ? PrepareKernel<Element, false, true>(arch, tile_m, tile_n, cluster_m,
                                                           pingpong, config)
                     : PrepareKernel<Element, false, false>(arch, tile_m, tile_n, cluster_m,
                                                            pingpong, config);
}

}  // namespace streamk::kernels
