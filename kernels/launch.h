// Host entry points of the GEMM kernels (no Abseil: lib/gemm.cc turns the cudaError_t into a
// status). One explicit kernel per mainloop, input type and A/B layout (3 x 2 x 4); the output
// type is a run-time switch in the epilogue.
#pragma once

#include <cuda_runtime.h>

#include "kernel_args.h"
#include "streamk/plan.h"
#include "tma_operands.h"

namespace streamk::kernels {

constexpr int kThreadsPerBlock = 256;  // compute threads (the TMA kernel adds a producer group)

// The mainloops: mma.sync + cp.async (sm_80 and newer); wgmma fed by cp.async from all threads
// (sm_90a); wgmma fed by TMA from a producer warp group (sm_90a, warp-specialized).
// (streamk::Mainloop, the Plan's and the DeviceSpec's name for them).
using Arch = Mainloop;

// The tiles the kernels compute, elements: 128 x 128 x 32 (kSm80, kSm90); kSm90Tma has two
// configurations, 128 x 256 x kTmaTileK (TileOf) and 128 x 128 x kTmaTileK, and a plan's tile
// picks one; a third, 128 x kTmaMidTileN x kTmaTileK, fills waves the other two leave part empty
// (cuBLAS's Hopper kernels pick tiles such as 176 x 128 and 192 x 192 for the same reason), and a
// fourth, kTmaWideTileM x kTmaWideTileN x kTmaTileK (192 x 192, three compute warp groups), holds
// 12% more of D per tile than 128 x 256, so that shapes a few tiles past one round of those fit
// one round of it; a fifth, kTmaSmallTileM x kTileN x kTmaTileK (64 x 128, one compute warp
// group), makes twice the 128 x 128 tile's count where that leaves most SMs idle; a sixth,
// kTileM x kTmaBroadTileN x kTmaTileK (128 x 320, two wgmmas of n 256 and 64 per k step), holds
// 25% more of D per tile than 128 x 256, so that a shape whose 128 x 256 tiles spill a few past one
// round fills one round of it (on an H200 cuBLAS ran 640 tokens on 8192 weights as 130 tiles of
// 320 x 128).
#ifndef STREAMK_SM90_TMA_BK
#define STREAMK_SM90_TMA_BK 64
#endif
constexpr int kTileM = 128, kTileN = 128, kTileK = 32;
constexpr int kTmaTileN = 256, kTmaTileK = STREAMK_SM90_TMA_BK, kTmaMidTileN = 192;
constexpr int kTmaWideTileM = 192, kTmaWideTileN = 192;
constexpr int kTmaBroadTileN = 320;
// The 64 x 128 tile (one compute warp group): twice the 128 x 128 tile's count, for shapes whose
// 128 x 128 tiles fill half a round or less (small GEMMs, and decode rows: a 4096-row weight as
// 64 tiles of 64 rows split two ways, one peer per tile, instead of 32 of 128 split four ways).
constexpr int kTmaSmallTileM = 64;
static_assert(kTmaTileK == 32 || kTmaTileK == 64, "a 64- or 128-byte swizzle row");
struct KernelTile {
  int m, n, k;
};
constexpr KernelTile TileOf(Arch arch) {
  return arch == Arch::kSm90Tma ? KernelTile{kTileM, kTmaTileN, kTmaTileK}
                                : KernelTile{kTileM, kTileN, kTileK};
}
// Ring stages of the kSm90Tma configurations: 144 KiB of operands in flight for the 256-wide
// tile (6 stages of 24 KiB at k 32, 3 of 48 KiB at k 64), 160 KiB for the 128-wide one (10 of
// 16 KiB, 5 of 32 KiB). A stage more does not fit either beside the epilogue's area (227 KiB).
// The 128-wide tile's fifth stage runs decode shapes, which stream one operand and barely use
// the other, up to 1.2x faster than four on an H200 (16 x 28672 x 8192: 261 -> 214 us).
#ifndef STREAMK_SM90_TMA_STAGES
#define STREAMK_SM90_TMA_STAGES (kTmaTileK == 64 ? 3 : 6)
#endif
#ifndef STREAMK_SM90_TMA_STAGES_128
#define STREAMK_SM90_TMA_STAGES_128 (kTmaTileK == 64 ? 5 : 10)
#endif
// The 192-wide tile: four stages of 40 KiB at k 64 (160 KiB; a fifth does not fit beside its
// 50 KiB epilogue area), eight of 20 KiB at k 32.
#ifndef STREAMK_SM90_TMA_STAGES_192
#define STREAMK_SM90_TMA_STAGES_192 (kTmaTileK == 64 ? 4 : 8)
#endif
// The 192 x 192 tile: three stages of 48 KiB at k 64 (144 KiB beside its 73 KiB epilogue area:
// a 16-bit 192 x 192 tile of D), six of 24 KiB at k 32.
#ifndef STREAMK_SM90_TMA_STAGES_WIDE
#define STREAMK_SM90_TMA_STAGES_WIDE (kTmaTileK == 64 ? 3 : 6)
#endif
// The 64 x 128 tile: seven stages of 24 KiB at k 64 (168 KiB; an eighth does not fit beside its
// 34 KiB epilogue area), 14 of 12 KiB at k 32: a decode tile streams its 64 rows of weights seven
// iterations ahead.
#ifndef STREAMK_SM90_TMA_STAGES_SMALL
#define STREAMK_SM90_TMA_STAGES_SMALL (kTmaTileK == 64 ? 7 : 14)
#endif
// The 128 x 128 tile's ping-pong variant (PingPongOf): six stages of 32 KiB (192 KiB beside the
// 33 KiB epilogue area its two warp groups share; with four, beside an area per group, deep
// shapes ran 8-14% slower on an H200 than on the shared tiles' five).
#ifndef STREAMK_SM90_TMA_STAGES_PINGPONG
#define STREAMK_SM90_TMA_STAGES_PINGPONG (kTmaTileK == 64 ? 6 : 12)
#endif
// The 128 x 320 tile: three stages of 56 KiB at k 64 (168 KiB beside its 41 KiB epilogue area:
// 32 rows of fp32 at a time, Epilogue::kPassRows), six of 28 KiB at k 32.
#ifndef STREAMK_SM90_TMA_STAGES_320
#define STREAMK_SM90_TMA_STAGES_320 (kTmaTileK == 64 ? 3 : 6)
#endif
constexpr int TmaStagesOf(int tile_m, int tile_n) {
  return tile_m == kTmaWideTileM    ? STREAMK_SM90_TMA_STAGES_WIDE
         : tile_m == kTmaSmallTileM ? STREAMK_SM90_TMA_STAGES_SMALL
         : tile_n == kTmaTileN      ? STREAMK_SM90_TMA_STAGES
         : tile_n == kTmaMidTileN   ? STREAMK_SM90_TMA_STAGES_192
         : tile_n == kTmaBroadTileN ? STREAMK_SM90_TMA_STAGES_320
                                    : STREAMK_SM90_TMA_STAGES_128;
}
// Whether `arch` has a kernel configuration for a tile_m x tile_n x tile_k tile: 128 x 128, and
// on kSm90Tma 128 x 256, 128 x 192, 128 x 320, 192 x 192 and 64 x 128, and 256 x 256 computed by
// 2-block clusters (ClusterOf) that share B.
constexpr int kClusterTileM = 2 * kTileM;
constexpr bool ComputesTile(Arch arch, int tile_m, int tile_n, int tile_k) {
  if (tile_k != TileOf(arch).k) return false;
  if (arch == Arch::kSm90Tma && tile_m == kClusterTileM) return tile_n == kTmaTileN;
  if (arch == Arch::kSm90Tma && tile_m == kTmaWideTileM) return tile_n == kTmaWideTileN;
  if (arch == Arch::kSm90Tma && tile_m == kTmaSmallTileM) return tile_n == kTileN;
  return tile_m == kTileM &&
         (tile_n == kTileN ||
          (arch == Arch::kSm90Tma &&
           (tile_n == kTmaTileN || tile_n == kTmaMidTileN || tile_n == kTmaBroadTileN)));
}
// Thread blocks per cluster of the configuration for tiles of tile_m rows (Plan::cluster_m).
constexpr int ClusterOf(Arch arch, int tile_m) {
  return arch == Arch::kSm90Tma && tile_m == kClusterTileM ? 2 : 1;
}

// The best mainloop the kernels have for `device`: kSm90Tma where the device is compute capability
// 9.0 and the library carries sm_90a code for it, kSm80 otherwise. Decided once per device and
// process. Options::mainloop (QueryLocalDevice's `mainloop`) picks another one the device runs.
Arch KernelArch(int device);
// Whether `device` runs the kernels of `arch`: kSm80 anywhere, the sm_90a ones where KernelArch
// is kSm90Tma.
bool RunsMainloop(int device, Arch arch);
// "sm80 (mma.sync)", "sm90a (wgmma, cp.async)" or "sm90a (wgmma, TMA producer warp)"
const char* ArchName(Arch arch);

// A kernel as launched: entry, dynamic shared memory bytes, threads per block.
struct KernelConfig {
  const void* fn = nullptr;
  int smem = 0;
  int threads = 0;
};

// The TMA descriptors of A and B for a kSm90Tma launch of `plan` (m, n, k, batch, tile) with
// `args`, and D's (and C's) where the epilogue stores D by TMA (tma->d_store, tma->c_load). Fails
// (cudaErrorInvalidValue) where the driver cannot describe an operand; operands that pass
// gemm()'s checks (16-byte aligned pointers, rows and batch strides) always can.
cudaError_t EncodeTmaOperands(const Plan& plan, const GemmKernelArgs& args, TmaOperands* tma);

// How LaunchGemm launches (Options::cooperative, Options::programmatic_launch).
struct LaunchFlags {
  // Plans whose blocks wait on each other: launched cooperatively (co-residency guaranteed by the
  // runtime).
  bool cooperative = true;
  // The sm_90 kernels: launched with programmatic stream serialization, so that their blocks
  // start (and set up their shared memory) while the previous kernel on the stream finishes;
  // they touch global memory only after it has (grid_dependency.cuh).
  bool programmatic = true;
};

// Launches the persistent kernel for `plan`: the device's arch, in the configuration of the
// plan's tile; a tile no kernel there computes is cudaErrorInvalidValue.
// `workspace` must hold plan.workspace_bytes bytes
// whose flags area is zero (it is zero again when the kernel ends).
// Operands the plan repacks (Plan::repack_a, repack_b) are first copied into the workspace as
// K-major rows (LaunchOperandCopies) and the kernel reads the copies.
cudaError_t LaunchGemm(const Plan& plan, const GemmKernelArgs& args, void* workspace,
                       cudaStream_t stream, LaunchFlags flags = {});

// A grouped GEMM's groups (Plan::groups): group g owns rows [end[g - 1], end[g]) of A and D
// (end[-1] = 0), handed by value to the kernel that writes the group table.
inline constexpr int kMaxTableGroups = 1024;
struct GroupEnds {
  int end[kMaxTableGroups];
};

// Writes the group table of `groups` groups for tile_m-row tiles: `entries` mapping::GroupRow
// entries at `table` (Plan::tiles_m of them; entries past the groups' tile rows get no rows), one
// block on `stream`, from the ends on the host (`ends`) or in device memory (`device_ends`, int32;
// exactly one of them), each clamped to [0, max_rows]. `programmatic` as LaunchOperandCopies.
cudaError_t LaunchGroupTable(const GroupEnds* ends, const int* device_ends, int groups, int tile_m,
                             int max_rows, int entries, mapping::GroupRow* table, bool programmatic,
                             cudaStream_t stream);

// A grouped plan's launch: its group table into the workspace (Plan::group_rows_offset), from
// `ends` or `device_ends` (LaunchGroupTable), then LaunchGemm with args.group_rows pointing at
// it. `args` holds B's `groups` matrices stride_b apart, A's, C's and D's stacked rows with
// batch strides 0.
cudaError_t LaunchGroupedGemm(const Plan& plan, const GemmKernelArgs& args, const GroupEnds* ends,
                              const int* device_ends, void* workspace, cudaStream_t stream,
                              LaunchFlags flags = {});

// One operand's copy into K-major rows (Plan::repack_a): `entries` matrices of `rows` rows of k
// 2-byte elements each, to dst (16-byte aligned), rows dst_ld elements apart (a multiple of 8)
// and entries rows * dst_ld apart. The source (2-byte aligned) is K-major (row i of entry e
// starts e * src_stride + i * src_ld elements into src) or mn-major (element i of k-row kk at
// e * src_stride + kk * src_ld + i), which is transposed on the way.
struct OperandCopy {
  const void* src = nullptr;
  int64_t src_ld = 0, src_stride = 0, rows = 0, k = 0, entries = 1;
  bool mn_major = false;
  void* dst = nullptr;
  int64_t dst_ld = 0;
};

// `count` (1 or 2) copies in one launch on `stream`, with up to 16 blocks per SM of `sms` each
// (kernels/repack.cu). `programmatic` (sm_90 and later only): launched with programmatic stream
// serialization, like the sm_90 GEMM kernels (LaunchFlags::programmatic): it may start while the
// kernel before it ends (and waits for it before it reads), and the kernel after it may start
// (and set up) while it runs.
cudaError_t LaunchOperandCopies(const OperandCopy* copies, int count, int sms, bool programmatic,
                                cudaStream_t stream);

// Resident blocks per SM of the GEMM kernels of `arch` on `device` (the least over the
// configurations without clusters).
cudaError_t KernelOccupancy(int device, Arch arch, int* blocks_per_sm);

// 2-block clusters of the cluster configuration (ClusterOf) resident at once on `device`, the
// least over dtypes and layouts; 0 where `arch` or the device has none.
cudaError_t ClusterSlots(int device, Arch arch, int* clusters);

}  // namespace streamk::kernels
