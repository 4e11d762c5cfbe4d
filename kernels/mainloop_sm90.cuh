// Tensor-core mainloop for Hopper (sm_90a): the same contract as MainloopSm80 (one 128 x 128
// output tile's fp32 accumulators over a range of 32-deep k-iterations, fp16 or bf16, any of the
// four A/B layouts, anything outside m, n, k read as zero), computed with wgmma instead of
// mma.sync. The two warp groups of the 256-thread block each own 64 rows of the tile and issue
// one wgmma.m64n128k16 per 16-deep k step, reading both operands straight from shared memory;
// nothing but the accumulators lives in registers. All 256 threads stream the operands into a
// ring of kStages shared-memory stages with 16-byte cp.async copies (zero-filling outside the
// matrices), laid out in the swizzled layouts wgmma reads:
//   k-contiguous operand (A row-major, B column-major): [128 rows][32 k] = 64 bytes per row,
//     the 64-byte swizzle: chunk c (16 bytes, 8 elements) of row r at c ^ ((r >> 1) & 3).
//     Descriptor: K-major, 64B swizzle, 8-row groups 512 bytes apart; a 16-deep k step starts
//     32 bytes further.
//   m/n-contiguous operand (A column-major, B row-major): two 64-wide halves (m or n), each
//     [32 k][64 elements] = 128 bytes per k row, the 128-byte swizzle: chunk c of k row r at
//     c ^ (r & 7). Descriptor: MN-major, 128B swizzle, halves 4096 bytes apart (leading byte
//     offset), 8-k groups 1024 bytes apart (stride byte offset); a 16-deep k step starts 2048
//     bytes further.
// Pipeline: stage s holds k-iteration s mod kStages. Each warp group keeps kInFlight wgmma groups
// (k-iterations) in flight and loads run kStages - 1 - kInFlight iterations ahead: at the barrier
// that opens iteration it every warp group has waited for its wgmmas of iteration
// it - 1 - kInFlight, so that stage can be refilled.
// This header holds no host code; it only compiles to wgmma where __CUDA_ARCH_FEAT_SM90_ALL is
// defined (sm_90a), and MainloopSm90::kAvailable says whether it did.
#pragma once
#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "mainloop_sm80.cuh"  // MainloopOperands, cp.async helpers
#include "tma.cuh"            // sm90::FenceProxyAsync

namespace streamk::kernels {

namespace sm90 {

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
inline constexpr bool kWgmmaCompiled = true;
#else
inline constexpr bool kWgmmaCompiled = false;
#endif

// A wgmma shared-memory matrix descriptor (PTX ISA, "Matrix Descriptor Format"): start address,
// leading and stride byte offsets (all >> 4), swizzle mode in bits 62-63 (1: 128B, 2: 64B).
__device__ __forceinline__ uint64_t MakeDescriptor(uint32_t smem_addr, uint32_t leading_bytes,
                                                   uint32_t stride_bytes, uint64_t swizzle) {
  return static_cast<uint64_t>((smem_addr & 0x3FFFF) >> 4) |
         (static_cast<uint64_t>(leading_bytes >> 4) << 16) |
         (static_cast<uint64_t>(stride_bytes >> 4) << 32) | (swizzle << 62);
}

__device__ __forceinline__ void WgmmaFence() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void WgmmaCommit() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}
template <int N>
__device__ __forceinline__ void WgmmaWait() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
#endif
}

// Pins the accumulators at this point of the program: the compiler may not move their reads or
// writes across it (wgmma writes them asynchronously, behind the compiler's back).
template <int kN8>
__device__ __forceinline__ void FenceAccumulators(float (&d)[kN8][4]) {
#pragma unroll
  for (int j = 0; j < kN8; ++j)
#pragma unroll
    for (int r = 0; r < 4; ++r) asm volatile("" : "+f"(d[j][r])::"memory");
}

// The asm operands of one n8 block of a wgmma accumulator: 4 fp32 registers.
#define STREAMK_ACC4(j) "+f"(d[j][0]), "+f"(d[j][1]), "+f"(d[j][2]), "+f"(d[j][3])
#define STREAMK_ACC32(j)                                                                      \
  STREAMK_ACC4(j), STREAMK_ACC4(j + 1), STREAMK_ACC4(j + 2), STREAMK_ACC4(j + 3),              \
      STREAMK_ACC4(j + 4), STREAMK_ACC4(j + 5), STREAMK_ACC4(j + 6), STREAMK_ACC4(j + 7)

// d (64 x kN per warp group, fp32: its first kN / 8 fragments) += A (64 x 16, descriptor da) *
// B (16 x kN, descriptor db), kN = 16, 32, 64, 128, 192 or 256. A narrower wgmma writes the
// first registers of a wider one's fragment (WgmmaTile's layout holds for every n), so a tile's
// accumulators serve any width up to its own. kTransA / kTransB: 1 when that operand is m/n-major
// in shared memory.
template <typename Element, int kN, int kTransA, int kTransB, int kNI>
__device__ __forceinline__ void WgmmaM64K16(float (&d)[kNI][4], uint64_t da, uint64_t db) {
  static_assert(kN == 16 || kN == 32 || kN == 64 || kN == 128 || kN == 192 || kN == 256,
                "wgmma n");
  static_assert(kN / 8 <= kNI, "accumulators for every column");
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define STREAMK_WGMMA_D16 "{%0, %1, %2, %3, %4, %5, %6, %7}"
#define STREAMK_WGMMA_D32 \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}"
#define STREAMK_WGMMA_D64 \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}"
#define STREAMK_WGMMA_D128 \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}"
#define STREAMK_WGMMA_D256 \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, " \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, " \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}"
#define STREAMK_WGMMA_D192 \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, " \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95}"
#define STREAMK_WGMMA(shape, type, dregs, rest)                                             \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"                                 \
               "wgmma.mma_async.sync.aligned." shape ".f32." type "." type " " dregs rest \
               ";\n}\n"
  // The same instruction for either 16-bit type: the type is part of the opcode's string.
#define STREAMK_WGMMA_TYPED(shape, dregs, rest, ...)                   \
  if constexpr (sm80::MmaType<Element>::kIsBf16) {                     \
    STREAMK_WGMMA(shape, "bf16", dregs, rest) __VA_ARGS__);            \
  } else {                                                             \
    STREAMK_WGMMA(shape, "f16", dregs, rest) __VA_ARGS__);             \
  }
#define STREAMK_WGMMA_IN : "l"(da), "l"(db), "n"(kTransA), "n"(kTransB)
  if constexpr (kN == 16) {
    STREAMK_WGMMA_TYPED("m64n16k16", STREAMK_WGMMA_D16, ", %8, %9, p, 1, 1, %10, %11",
                        : STREAMK_ACC4(0), STREAMK_ACC4(1) STREAMK_WGMMA_IN)
  } else if constexpr (kN == 32) {
    STREAMK_WGMMA_TYPED("m64n32k16", STREAMK_WGMMA_D32, ", %16, %17, p, 1, 1, %18, %19",
                        : STREAMK_ACC4(0), STREAMK_ACC4(1), STREAMK_ACC4(2),
                          STREAMK_ACC4(3) STREAMK_WGMMA_IN)
  } else if constexpr (kN == 64) {
    STREAMK_WGMMA_TYPED("m64n64k16", STREAMK_WGMMA_D64, ", %32, %33, p, 1, 1, %34, %35",
                        : STREAMK_ACC32(0) STREAMK_WGMMA_IN)
  } else if constexpr (kN == 128) {
    STREAMK_WGMMA_TYPED("m64n128k16", STREAMK_WGMMA_D128, ", %64, %65, p, 1, 1, %66, %67",
                        : STREAMK_ACC32(0), STREAMK_ACC32(8) STREAMK_WGMMA_IN)
  } else if constexpr (kN == 192) {
    STREAMK_WGMMA_TYPED("m64n192k16", STREAMK_WGMMA_D192, ", %96, %97, p, 1, 1, %98, %99",
                        : STREAMK_ACC32(0), STREAMK_ACC32(8), STREAMK_ACC32(16) STREAMK_WGMMA_IN)
  } else {
    STREAMK_WGMMA_TYPED("m64n256k16", STREAMK_WGMMA_D256, ", %128, %129, p, 1, 1, %130, %131",
                        : STREAMK_ACC32(0), STREAMK_ACC32(8), STREAMK_ACC32(16),
                          STREAMK_ACC32(24) STREAMK_WGMMA_IN)
  }
#undef STREAMK_WGMMA_IN
#undef STREAMK_WGMMA_TYPED
#undef STREAMK_WGMMA
#undef STREAMK_WGMMA_D256
#undef STREAMK_WGMMA_D192
#undef STREAMK_WGMMA_D128
#undef STREAMK_WGMMA_D64
#undef STREAMK_WGMMA_D32
#undef STREAMK_WGMMA_D16
#else
  (void)d, (void)da, (void)db;
#endif
}
#undef STREAMK_ACC32
#undef STREAMK_ACC4

// Per-thread state for streaming one operand's 128 x 32 tiles into the layouts above. A thread
// copies two 16-byte chunks per k-iteration, 64 rows (k-contig) or 64 elements (mn-contig) apart,
// which in shared memory is 4096 bytes apart in both layouts.
//   k-contig:  chunk tid % 4 (k elements 8 (tid % 4) + [0, 8)) of rows tid / 4 and + 64: four
//              threads read a row's 64 contiguous bytes.
//   mn-contig: chunk tid % 8 of k row tid / 8, in each 64-wide half: eight threads read 128
//              contiguous bytes.
template <typename Element, bool kMnContiguous>
struct TileLoader {
  static constexpr uint32_t kSecond = 4096;  // shared-memory distance of the second chunk
  int64_t off;    // element offset of the first chunk from the tile origin, k-iteration 0
  uint32_t dst;   // byte offset of the first chunk in the operand's tile
  int mn0;        // k-contig: the first chunk's row; mn-contig: its first m/n element
  int k0;         // k-contig: its first k element; mn-contig: its k row

  __device__ __forceinline__ TileLoader(int64_t ld, int tid) {
    if constexpr (kMnContiguous) {
      const int r = tid >> 3, c = tid & 7;
      mn0 = c * 8, k0 = r;
      off = static_cast<int64_t>(r) * ld + mn0;
      dst = static_cast<uint32_t>(r * 128 + ((c ^ (r & 7)) << 4));
    } else {
      const int r = tid >> 2, c = tid & 3;
      mn0 = r, k0 = c * 8;
      off = static_cast<int64_t>(r) * ld + k0;
      dst = static_cast<uint32_t>(r * 64 + ((c ^ ((r >> 1) & 3)) << 4));
    }
  }

  // Copies this thread's chunks of k-iteration kt into the operand tile at shared address
  // `tile_addr`. tile_ptr: element (0, 0) of the tile at k = 0; base: a valid address, the
  // (never read) source of zero-byte copies; mn_rel: m (A) or n (B) left from the tile origin.
  __device__ __forceinline__ void Load(uint32_t tile_addr, int kt, const Element* tile_ptr,
                                       const Element* base, int64_t ld, int k,
                                       int mn_rel) const {
    const uint32_t d = tile_addr + dst;
    if constexpr (kMnContiguous) {
      const Element* g = tile_ptr + static_cast<int64_t>(kt) * 32 * ld + off;
      const bool inside = kt * 32 + k0 < k;
      const int b0 = inside ? sm80::ChunkBytes(mn_rel - mn0) : 0;
      const int b1 = inside ? sm80::ChunkBytes(mn_rel - mn0 - 64) : 0;
      sm80::CpAsync16(d, b0 ? g : base, b0);
      sm80::CpAsync16(d + kSecond, b1 ? g + 64 : base, b1);
    } else {
      const Element* g = tile_ptr + kt * 32 + off;
      const int kb = sm80::ChunkBytes(k - kt * 32 - k0);
      const int b0 = mn0 < mn_rel ? kb : 0;
      const int b1 = mn0 + 64 < mn_rel ? kb : 0;
      sm80::CpAsync16(d, b0 ? g : base, b0);
      sm80::CpAsync16(d + kSecond, b1 ? g + 64 * ld : base, b1);
    }
  }
};

// The tile, thread and accumulator layout of the wgmma mainloops (MainloopSm90 here and
// MainloopSm90Tma in mainloop_sm90_tma.cuh): a kBM x kBN tile (128 x 128, 128 x 192, 128 x 256,
// 128 x 320, 192 x 192 or 64 x 128) over kBK-deep k-iterations (32, or 64 in the TMA mainloop),
// kBM / 64 warp groups of compute threads, 64 rows of the tile each, one m64nkBN fp32
// accumulator per thread (kBN / 2 registers; 320 columns as two wgmmas' of 256 and 64).
template <int kBN_, int kBK_ = 32, int kBM_ = 128>
struct WgmmaTile {
  static constexpr int kBM = kBM_, kBN = kBN_, kBK = kBK_;  // tile, elements
  static_assert(kBK == 32 || kBK == 64, "k-contiguous rows of 64 or 128 bytes");
  static_assert(kBM == 64 || kBM == 128 || kBM == 192, "one to three warp groups of 64 rows");
  static constexpr int kThreads = 2 * kBM;  // the threads that hold accumulators (warp groups)
  static constexpr int kMI = 1;         // accumulator layout, see Accumulators
  static constexpr int kNI = kBN / 8;

  // v[0][j][r]: the wgmma m64nkBN fp32 accumulator fragment of this thread, register 4 j + r:
  // row 16 (warp % 4) + lane / 4 + 8 (r / 2) of the warp group's 64 rows, column
  // 8 j + 2 (lane % 4) + r % 2 (the mma.sync m16n8 C layout, repeated over kBN / 8 n8 blocks).
  struct Accumulators { float v[kMI][kNI][4]; };
  // Fragment j of every thread lies in tile columns [8 j, 8 j + 8): a column slice of the tile is
  // a range of fragments (Fixup::SumSliceToStage).
  static constexpr bool kColumnBlocks = true;

  __device__ static int AccRow(int tid, int /*i*/, int r) {
    return ((tid >> 7) << 6) + (((tid >> 5) & 3) << 4) + ((tid & 31) >> 2) + ((r >> 1) << 3);
  }
  __device__ static int AccCol(int tid, int j, int r) {
    return (j << 3) + ((tid & 3) << 1) + (r & 1);
  }
  __device__ static void Zero(Accumulators& acc) {
#pragma unroll
    for (int j = 0; j < kNI; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) acc.v[0][j][r] = 0.0f;
  }
};

// One warp group's wgmma work on the stages both wgmma mainloops fill (kBM rows of A): stage s at
// ring + s * kStageBytes holds the A tile (kABytes) then the B tile (kBBytes) in the layouts
// described at the top of this file; a kBN-wide B tile is kBN rows (k-contiguous) or kBN / 64
// halves-of-128 (mn-contiguous, kHalfBytes apart). Holds the descriptors of stage 0, k step 0.
//
// kBK = 64 (the TMA mainloop's configurations use it) doubles every k-extent above: a
// k-contiguous row is 128 bytes under the 128-byte swizzle (8-row groups 1024 bytes apart), an
// mn-contiguous half is 64 k rows (8192 bytes), and an iteration is four 16-deep k steps.
template <typename Element, bool kAColMajor, bool kBRowMajor, int kBN = 128, int kBK = 32,
          int kBM = 128>
struct WgmmaStages {
  // 64 rows or elements of m/n over the iteration's depth: a warp group's rows of A, or one
  // 64-wide half of an mn-contiguous operand.
  static constexpr int kHalfBytes = 64 * kBK * static_cast<int>(sizeof(Element));
  static constexpr int kABytes = kBM / 64 * kHalfBytes;  // 8, 16 or 24 KiB
  static constexpr int kBBytes = kBN / 64 * kHalfBytes;
  static constexpr int kStageBytes = kABytes + kBBytes;  // A | B
  uint64_t a_desc, b_desc;

  __device__ WgmmaStages(uint32_t ring, int tid) {
    const uint32_t a_addr = ring + static_cast<uint32_t>((tid >> 7) * kHalfBytes);
    const uint32_t b_addr = ring + kABytes;
    a_desc = kAColMajor ? MnMajor(a_addr) : KMajor(a_addr);
    b_desc = kBRowMajor ? MnMajor(b_addr) : KMajor(b_addr);
  }
  // m/n-contiguous: 128-byte swizzle, 64-wide halves kHalfBytes apart, 8-k groups 1024 apart.
  __device__ static uint64_t MnMajor(uint32_t addr) {
    return MakeDescriptor(addr, kHalfBytes, 1024, 1);
  }
  // k-contiguous: rows of 2 kBK bytes under the swizzle of that width, 8-row groups 8 rows apart.
  __device__ static uint64_t KMajor(uint32_t addr) {
    return kBK == 64 ? MakeDescriptor(addr, 16, 1024, 1) : MakeDescriptor(addr, 16, 512, 2);
  }

  // acc += stage `stage`'s A x B: the kBK-deep k-iteration as kBK / 16 wgmmas, committed as one
  // group (the caller waits for it). kN < kBN: over B's first kN columns only (NarrowWidthOf),
  // acc's other columns untouched.
  template <int kN = kBN>
  __device__ void Issue(float (&acc)[kBN / 8][4], int stage) const {
    // Descriptor increments (bytes >> 4) of one 16-deep k step.
    constexpr uint64_t kAStep = kAColMajor ? 2048 >> 4 : 32 >> 4;
    constexpr uint64_t kBStep = kBRowMajor ? 2048 >> 4 : 32 >> 4;
    const uint64_t offset = static_cast<uint64_t>(stage * kStageBytes) >> 4;
    WgmmaFence();
    if constexpr (kN > 256) {
      // Wider than one wgmma (n <= 256): B's first 256 columns into fragments 0-31, the rest into
      // the fragments after them. Both layouts put B's column 256 at 256 kBK elements into the
      // stage's B: 32 8-row groups of k-contiguous rows, or four 64-wide mn-contiguous halves.
      constexpr uint64_t kBTail = static_cast<uint64_t>(256 * kBK * 2) >> 4;
      auto& tail = *reinterpret_cast<float(*)[kBN / 8 - 32][4]>(&acc[32]);
#pragma unroll
      for (int ks = 0; ks < kBK / 16; ++ks) {
        WgmmaM64K16<Element, 256, kAColMajor ? 1 : 0, kBRowMajor ? 1 : 0>(
            acc, a_desc + offset + ks * kAStep, b_desc + offset + ks * kBStep);
        WgmmaM64K16<Element, kN - 256, kAColMajor ? 1 : 0, kBRowMajor ? 1 : 0>(
            tail, a_desc + offset + ks * kAStep, b_desc + offset + kBTail + ks * kBStep);
      }
    } else {
#pragma unroll
      for (int ks = 0; ks < kBK / 16; ++ks)
        WgmmaM64K16<Element, kN, kAColMajor ? 1 : 0, kBRowMajor ? 1 : 0>(
            acc, a_desc + offset + ks * kAStep, b_desc + offset + ks * kBStep);
    }
    WgmmaCommit();
  }
};

}  // namespace sm90

template <typename Element /* __half or __nv_bfloat16 */, bool kAColMajor, bool kBRowMajor,
          int kStages_ = 6, int kInFlight_ = 1>
struct MainloopSm90 : sm90::WgmmaTile<128> {
  static constexpr bool kAvailable = sm90::kWgmmaCompiled;
  static constexpr int kStages = kStages_;
  // wgmma groups (k-iterations) each warp group leaves in flight when it moves on; loads run
  // kStages - 1 - kInFlight k-iterations ahead.
  static constexpr int kInFlight = kInFlight_;
  static constexpr int kAhead = kStages - 1 - kInFlight;
  using Stages = sm90::WgmmaStages<Element, kAColMajor, kBRowMajor>;
  static constexpr int kStageBytes = Stages::kStageBytes;
  // +1024: the stages start at the first 1024-byte boundary of the dynamic shared memory (the
  // 128-byte swizzle repeats every 1024 bytes and wgmma's descriptors assume it starts there).
  static constexpr int kSmemBytes = kStages * kStageBytes + 1024;
  static_assert(kInFlight >= 1 && kAhead >= 1, "at least one load ahead and one wgmma in flight");
  static constexpr int kProducerThreads = 0;  // every thread loads and computes
  static constexpr bool kPingPong = false;  // the block's threads share each tile
  static constexpr int kTileThreads = kThreads;
  static constexpr int kCluster = 1;          // one block computes a tile
  struct Pipeline {};                          // no state between Run calls
  __device__ static Pipeline Init(char*) { return {}; }

  // As MainloopSm80::Run: acc = the tile's product over k-iterations [k_iter_begin, k_iter_end),
  // starting and ending with a __syncthreads and nothing in flight.
  __device__ static void Run(char* smem, const MainloopOperands<Element>& op, int tile_m0,
                             int tile_n0, int k_iter_begin, int k_iter_end, Accumulators& acc) {
    const int tid = sm80::OpaqueThreadIdx();
    Zero(acc);

    const uint32_t base = (sm80::SmemAddr(smem) + 1023u) & ~1023u;
    const int num_iters = k_iter_end - k_iter_begin;
    const int m_rel = op.m - tile_m0;
    const int n_rel = op.n - tile_n0;
    const Element* a_tile = op.template ATileOrigin<kAColMajor>(tile_m0);
    const Element* b_tile = op.template BTileOrigin<kBRowMajor>(tile_n0);
    const sm90::TileLoader<Element, kAColMajor> a_loader(op.lda, tid);
    const sm90::TileLoader<Element, kBRowMajor> b_loader(op.ldb, tid);

    const Stages stages(base, tid);

    // The caller (or a previous tile's epilogue) may still be reading smem.
    __syncthreads();

    auto load = [&](int it) {
      const uint32_t stage = base + static_cast<uint32_t>((it % kStages) * kStageBytes);
      const int kt = k_iter_begin + it;
      a_loader.Load(stage, kt, a_tile, op.a, op.lda, op.k, m_rel);
      b_loader.Load(stage + Stages::kABytes, kt, b_tile, op.b, op.ldb, op.k, n_rel);
    };

    // Prologue: k-iterations 0 .. kAhead - 1, one commit each (empty when past the range) so
    // that cp.async group g is k-iteration g.
#pragma unroll
    for (int s = 0; s < kAhead; ++s) {
      if (s < num_iters) load(s);
      sm80::CpAsyncCommit();
    }

    int stage = 0;
    for (int it = 0; it < num_iters; ++it) {
      // Groups committed: kAhead + it; k-iteration it is group it.
      sm80::CpAsyncWait<kAhead - 1>();
      sm90::FenceProxyAsync();
      __syncthreads();
      // Every warp group has waited for its wgmmas of iteration it - 1 - kInFlight (wait_group
      // kInFlight at the end of it - 1), so that iteration's stage, (it + kAhead) mod kStages,
      // is free.
      if (it + kAhead < num_iters) load(it + kAhead);
      sm80::CpAsyncCommit();

      stages.Issue(acc.v[0], stage);
      sm90::WgmmaWait<kInFlight>();
      stage = stage + 1 == kStages ? 0 : stage + 1;
    }
    sm90::WgmmaWait<0>();
    sm90::FenceAccumulators(acc.v[0]);
    // Drain: no copy may still be writing smem when the caller (or the next Run) touches it.
    sm80::CpAsyncWaitAll();
    __syncthreads();
  }
};

}  // namespace streamk::kernels
