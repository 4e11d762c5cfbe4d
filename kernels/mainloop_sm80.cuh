// Tensor-core GEMM mainloop for sm_80 and newer (also used on sm_90a): computes one 128 x 128
// output tile's fp32 accumulators over a range of 32-deep k-iterations, from fp16 or bf16 operands
// in any of the four A/B layout combinations. Global memory is streamed into a 4-stage ring of
// XOR-swizzled shared-memory tiles with 16-byte cp.async.cg copies (zero-filling everything outside
// the matrices), fragments are pulled out with ldmatrix (.trans for the m/n-contiguous tiles) one
// k16 step ahead of the mma.sync.m16n8k16 instructions that consume them. The data-parallel,
// split-K and Stream-K kernels call Run once per (tile, k-range) work unit and own the epilogue;
// this header holds no host code.
#pragma once
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

namespace streamk::kernels {

// Operands of one (batch entry of a) GEMM as the mainloop sees them. D is always row-major for the
// kernel (the host swaps A and B to handle column-major D), so only A's and B's layouts vary.
// A is m x k: row-major (element (r,c) at a[r*lda + c], lda >= k) or, when kAColMajor, column-major
// (a[r + c*lda], lda >= m). B is k x n: column-major (b[r + c*ldb], ldb >= k) or, when kBRowMajor,
// row-major (b[r*ldb + c], ldb >= n). Pointers are 16-byte aligned and lda, ldb are multiples of 8
// elements (the host validates this), but m, n, k are ANY positive ints (not multiples of
// anything).
template <typename Element>
struct MainloopOperands {
  const Element* a;
  const Element* b;
  int64_t lda;
  int64_t ldb;
  int m, n, k;

  // Element (0, 0) at k = 0 of the A tile whose first row is m0, and of the B tile whose first
  // column is n0.
  template <bool kAColMajor>
  __device__ const Element* ATileOrigin(int m0) const {
    return a + (kAColMajor ? static_cast<int64_t>(m0) : static_cast<int64_t>(m0) * lda);
  }
  template <bool kBRowMajor>
  __device__ const Element* BTileOrigin(int n0) const {
    return b + (kBRowMajor ? static_cast<int64_t>(n0) : static_cast<int64_t>(n0) * ldb);
  }
};

namespace sm80 {

// threadIdx.x read through a volatile asm. Run derives all its per-thread setup (global and
// shared addresses, bounds) from this value, so the compiler can neither hoist that setup out of a
// caller's loop nor share it between two Run calls; either would keep it live across the mainloop,
// whose accumulators and fragments already take 112 of the 128 registers per thread.
__device__ __forceinline__ int OpaqueThreadIdx() {
  int tid;
  asm volatile("mov.u32 %0, %%tid.x;\n" : "=r"(tid));
  return tid;
}

// Element -> PTX type selector (no <type_traits>: this header sticks to the CUDA headers).
template <typename Element>
struct MmaType;
template <>
struct MmaType<__half> {
  static constexpr bool kIsBf16 = false;
};
template <>
struct MmaType<__nv_bfloat16> {
  static constexpr bool kIsBf16 = true;
};

// Shared-window (32-bit) address of a generic pointer into shared memory, as the PTX below wants.
__device__ __forceinline__ uint32_t SmemAddr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// Async 16-byte global->shared copy that skips L1; bytes [src_bytes, 16) of the destination are
// zero-filled and never read from global memory (src_bytes in {0, 2, ..., 16}).
__device__ __forceinline__ void CpAsync16(uint32_t smem_addr, const void* gmem_ptr, int src_bytes) {
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;\n" ::"r"(smem_addr),
               "l"(gmem_ptr), "r"(src_bytes)
               : "memory");
}

// Closes the group of cp.async copies issued so far by this thread (one group per pipeline stage).
__device__ __forceinline__ void CpAsyncCommit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}

// Blocks until at most N of this thread's committed cp.async groups are still in flight.
template <int N>
__device__ __forceinline__ void CpAsyncWait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// Blocks until all of this thread's cp.async copies have landed.
__device__ __forceinline__ void CpAsyncWaitAll() {
  asm volatile("cp.async.wait_all;\n" ::: "memory");
}

// Four 8x8 b16 matrices from shared memory; lanes 8q..8q+7 give the row addresses of matrix q.
__device__ __forceinline__ void LdMatrixX4(uint32_t (&r)[4], uint32_t smem_addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_addr));
}

// Same as LdMatrixX4 but each 8x8 matrix is transposed on the way into registers.
__device__ __forceinline__ void LdMatrixX4Trans(uint32_t (&r)[4], uint32_t smem_addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_addr));
}

// d += a (16x16, row) * b (16x8, col) on the tensor cores, fp32 accumulate, f16 or bf16 inputs.
template <typename Element>
__device__ __forceinline__ void Mma16816(float (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                         uint32_t b1) {
  if constexpr (!MmaType<Element>::kIsBf16) {
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  } else {
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  }
}

// Shared-memory tile geometry and swizzles (all offsets in bytes; a chunk is 16 bytes = 8
// elements, the unit of both cp.async and of one ldmatrix row; the 32 banks repeat every 128 bytes
// = 8 chunks, so two 16-byte accesses of one 8-address phase conflict iff they hit the same chunk
// slot (address bits 4-6) of different 128-byte lines).
//
// k-contiguous tile, [128 rows (m or n)][32 k]: a row is 64 bytes = 4 chunks, two rows per
//   128-byte line. Logical row r is stored as physical row P(r) = r with bits 0 and 1 swapped (so
//   that the two rows a thread copies, 2j and 2j + 1, land in different lines, see below), and its
//   chunk c at physical chunk c ^ s(P(r)), s(p) = ((p >> 2) & 1) | (((p >> 1) & 1) << 1) (the
//   2-bit (p >> 1) & 3 bit-reversed). Slot = 4 (p & 1) + physical chunk.
//   - ldmatrix reads one logical chunk from 8 consecutive rows r0..r0+7 (r0 % 8 == 0), i.e. from
//     physical rows r0..r0+7 (P only permutes inside groups of 4): for each half (p & 1) the four
//     rows get s = 0, 2, 1, 3, four distinct chunks -> 8 distinct slots.
//   - cp.async: thread t copies chunk t % 4 of rows 2 (t / 4) and 2 (t / 4) + 1. For the 8 threads
//     t0..t0+7 (t0 % 8 == 0) the first copies go to physical rows 4q and 4q + 1 and the second
//     ones to 4q + 2 and 4q + 3: each instruction writes whole lines, all 8 slots once.
//   The second copy's address: physical row + 2 (+ 128 bytes) flips bit 1 of s, i.e. chunk ^ 2
//   (byte offset ^ 32).
// m/n-contiguous tile, [32 k][128 columns (m or n)]: a row is 256 bytes = 16 chunks (two lines).
//   Chunk c of row r is stored at physical chunk c ^ (r & 7) (the chunk moves only inside its own
//   128-byte line).
//   - ldmatrix.trans reads one logical chunk from 8 consecutive k rows: c ^ (r & 7) takes 8
//     distinct slots.
//   - cp.async: thread t writes row t / 8, chunk t % 8 (first copy) / t % 8 + 8 (second copy): 8
//     consecutive threads write the 8 chunks of one line, a permutation of its slots.
// Both swizzles only XOR address bits 4-6 with a function of the row, so (given a 128-byte aligned
// base) the address of a neighbouring fragment or chunk is a compile-time XOR or add away.
template <typename Element, bool kMnContiguous>
struct OperandTile {
  static constexpr int kRows = 128;  // m or n extent of the tile, elements
  static constexpr int kDepth = 32;  // k extent of the tile, elements

  // k-contig tile: byte offset of chunk c (0..3) of logical row r (0..127): physical row
  // P(r) = r with bits 0 and 1 swapped, physical chunk c ^ s(P(r)) (see above).
  __device__ static uint32_t KOffset(int r, int c) {
    const int pr = (r & ~3) | ((r & 1) << 1) | ((r >> 1) & 1);
    const int s = ((pr >> 2) & 1) | (((pr >> 1) & 1) << 1);
    return static_cast<uint32_t>(pr * 64 + ((c ^ s) << 4));
  }

  // Byte offset inside the tile of the thread's first 16-byte chunk. The second chunk is at
  // (offset ^ 32) + 128 (k-contig: logical row + 1 = physical row + 2, whose s has bit 1 set) or
  // offset + 128 (mn-contig: chunk + 8 = the same slot in the next line of the row).
  __device__ static uint32_t StoreOffset(int tid) {
    if constexpr (kMnContiguous) {
      const int r = tid >> 3, c = tid & 7;  // k row 0..31, chunk 0..7
      return static_cast<uint32_t>(r * 256 + ((c ^ (r & 7)) << 4));
    } else {
      return KOffset((tid >> 2) << 1, tid & 3);  // even mn row 0..126, chunk 0..3
    }
  }
};

// Valid bytes (0..16, even) of a 16-byte chunk of 16-bit elements whose first element has `left`
// elements up to the matrix edge (any int).
__device__ __forceinline__ int ChunkBytes(int left) {
  return left >= 8 ? 16 : (left > 0 ? left * 2 : 0);
}

// Per-thread state for streaming one operand's 128 x 32 tiles from global memory. Element (mn, kk)
// of the operand lives at ptr[mn * ld + kk] (k-contiguous) or ptr[kk * ld + mn] (mn-contiguous).
// A thread copies two 16-byte chunks per k-iteration:
//   k-contig:  k elements 8 (tid % 4) + [0, 8) of rows (mn) 2 (tid / 4) and 2 (tid / 4) + 1: per
//              copy instruction a warp reads 8 rows x 64 contiguous bytes. (Splitting a row's 64
//              bytes over two instructions instead, 16 rows x 32 bytes each, measured 1.5x slower
//              on an H200 with both operands k-contiguous: twice the L2 requests, L2-bound.) The
//              second row is + ld away, which needs no extra register (a + 64 ld variant spilled).
//   mn-contig: mn elements 8 (tid % 8) + [0, 8) and + 64 of k row tid / 8: per copy instruction a
//              warp reads 4 rows x 128 contiguous bytes.
// Register budget: the mainloop's accumulators and fragments leave ~15 registers per thread for
// everything else, and ptxas hoists every loop-invariant subexpression into its own register. So
// the loader keeps just three per-thread words across the mainloop (the global offset, the shared
// offset and one bounds word), and every bound is a comparison of those with warp-uniform values
// (which live in uniform registers): rows / k rows are tested as "shared offset < threshold",
// since the store offset grows with the row.
template <typename Element, bool kMnContiguous>
struct TileLoader {
  using Tile = OperandTile<Element, kMnContiguous>;
  // Element offset of the thread's first chunk from the tile's element (0, 0) of k-iteration kt
  // (tile_ptr + 32 kt for k-contig, tile_ptr + 32 kt ld for mn-contig; see Load).
  int64_t off;
  uint32_t dst;       // byte offset of the first chunk in stage 0 from the mainloop's smem base
  uint32_t tile_off;  // byte offset of this operand's tile in a stage (a compile-time constant)
  // k-contig:  k offset of the chunks inside a k-iteration, 8 (tid % 4). (Identical for A and B
  //            when both are k-contiguous, so the compiler keeps one copy.)
  // mn-contig: valid bytes of the first chunk (bits 0-7) and of the second one (bits 8-15), from
  //            the mn edge; one word, masked as a whole by the k test, so ptxas keeps it whole.
  int aux;

  // ld: the operand's leading dimension; mn_rel: m (A) or n (B) minus the tile's first row (A) /
  // column (B); tile_off_: byte offset of this operand's tile in a stage.
  __device__ __forceinline__ TileLoader(int64_t ld, int mn_rel, uint32_t tile_off_, int tid)
      : tile_off(tile_off_) {
    dst = tile_off + Tile::StoreOffset(tid);
    if constexpr (kMnContiguous) {
      const int mn = (tid & 7) << 3;  // in the tile
      const int kr = tid >> 3;
      const int left = mn_rel - mn;  // may be <= 0 (chunks outside) or large
      aux = ChunkBytes(left) | (ChunkBytes(left - 64) << 8);
      off = static_cast<int64_t>(kr) * ld + mn;
    } else {
      const int row = (tid >> 2) << 1;  // in the tile
      const int kc = (tid & 3) << 3;
      aux = kc;
      off = static_cast<int64_t>(row) * ld + kc;
    }
  }

  // Issues this thread's two cp.async copies of k-iteration kt (k elements [32 kt, 32 kt + 32))
  // into the stage at shared address stage_addr (128-byte aligned). tile_ptr: address of element
  // (0, 0) of the tile (row or column tile0 of the operand); base: the operand base pointer, the
  // (never read) source of zero-byte copies; ld, k: leading dimension and k extent; mn_rel as in
  // the constructor. All arguments are warp-uniform.
  __device__ __forceinline__ void Load(uint32_t stage_addr, int kt, const Element* tile_ptr,
                                       const Element* base, int64_t ld, int k, int mn_rel) const {
    const uint32_t d = stage_addr + dst;
    const int k_rem = k - kt * Tile::kDepth;  // elements of k from this k-iteration on (any sign)
    if constexpr (kMnContiguous) {
      const Element* g = tile_ptr + static_cast<int64_t>(kt) * Tile::kDepth * ld + off;
      // The thread's k row (tid / 8) is < k_rem iff its store offset (256 bytes per k row) is
      // below 256 k_rem.
      const int k_rows = k_rem < 0 ? 0 : (k_rem > Tile::kDepth ? Tile::kDepth : k_rem);
      const int bytes = dst < tile_off + static_cast<uint32_t>(k_rows) * 256u ? aux : 0;
      const int bytes0 = bytes & 0xFF;
      const int bytes1 = bytes >> 8;
      CpAsync16(d, bytes0 ? g : base, bytes0);
      CpAsync16(d + 128, bytes1 ? g + 64 : base, bytes1);
    } else {
      const Element* g = tile_ptr + kt * Tile::kDepth + off;
      const int kbytes = ChunkBytes(k_rem - aux);  // both chunks cover the same k elements
      // Row pair j = tid / 4 (rows 2j, 2j + 1) is stored at [Pos(j), Pos(j) + 64) with
      // Pos(j) = 64 P(2j) = 256 (j / 2) + 64 (j % 2), increasing in j. Row 2j is inside iff
      // j < ceil(rows / 2), row 2j + 1 iff j < floor(rows / 2).
      const int rows = mn_rel < 0 ? 0 : (mn_rel > Tile::kRows ? Tile::kRows : mn_rel);
      const int j0 = (rows + 1) >> 1, j1 = rows >> 1;
      const uint32_t pos0 = static_cast<uint32_t>(((j0 >> 1) << 8) + ((j0 & 1) << 6));
      const uint32_t pos1 = static_cast<uint32_t>(((j1 >> 1) << 8) + ((j1 & 1) << 6));
      const int bytes0 = dst < tile_off + pos0 ? kbytes : 0;
      const int bytes1 = dst < tile_off + pos1 ? kbytes : 0;
      CpAsync16(d, bytes0 ? g : base, bytes0);
      // The next row: + ld in global memory (no stride register needed, ld can stay an operand
      // in the constant bank), two physical rows further and chunk ^ 2 in shared memory.
      CpAsync16((d ^ 32u) + 128u, bytes1 ? g + ld : base, bytes1);
    }
  }
};

}  // namespace sm80

template <typename Element /* __half or __nv_bfloat16 */, bool kAColMajor, bool kBRowMajor>
struct MainloopSm80 {
  static constexpr int kBM = 128, kBN = 128, kBK = 32;   // tile, elements
  static constexpr int kThreads = 256;                   // 8 warps: 2 (m) x 4 (n), each 64 x 32
  static constexpr int kStages = 4;
  static constexpr int kWarpM = 64, kWarpN = 32;
  static constexpr int kMI = kWarpM / 16;                // mma tiles per warp along m (4)
  static constexpr int kNI = kWarpN / 8;                 // mma tiles per warp along n (4)
  static constexpr int kATileBytes = kBM * kBK * static_cast<int>(sizeof(Element));  // 8 KiB
  static constexpr int kBTileBytes = kBN * kBK * static_cast<int>(sizeof(Element));  // 8 KiB
  static constexpr int kStageBytes = kATileBytes + kBTileBytes;                       // 16 KiB
  static constexpr int kSmemBytes = kStages * kStageBytes;                            // 64 KiB
  static constexpr int kProducerThreads = 0;  // every thread loads and computes
  static constexpr int kCluster = 1;          // one block computes a tile
  static constexpr bool kPingPong = false;  // the block's threads share each tile
  static constexpr int kTileThreads = kThreads;
  struct Pipeline {};                          // no state between Run calls
  __device__ static Pipeline Init(char*) { return {}; }

  // Per-thread fp32 accumulators of the 128 x 128 tile: v[i][j][r] is the r-th float of the
  // m16n8 accumulator fragment (i, j) of this thread's warp (the standard mma.sync C layout).
  struct Accumulators { float v[kMI][kNI][4]; };
  // Fragment j's columns depend on the warp (AccCol): no Fixup::SumSliceToStage.
  static constexpr bool kColumnBlocks = false;

  // Computes acc = sum over k-iterations [k_iter_begin, k_iter_end) of A[tile_m0:+128, kk*32:+32] *
  // B[kk*32:+32, tile_n0:+128]. Zeroes acc first. Elements outside m, n, k read as zero.
  // k_iter_end > k_iter_begin >= 0. Called by all kThreads threads of the block; smem is the
  // block's dynamic shared memory (at least kSmemBytes, 128-byte aligned). Starts with a
  // __syncthreads (the caller may still be reading smem from a previous tile's epilogue) and ends
  // with the cp.async pipeline drained and a __syncthreads, so calls may follow each other freely.
  __device__ static void Run(char* smem, const MainloopOperands<Element>& op, int tile_m0,
                             int tile_n0, int k_iter_begin, int k_iter_end, Accumulators& acc);

  // Row and column, within the 128 x 128 tile, of accumulator v[i][j][r] held by thread tid.
  // Warp w = tid / 32 covers rows 64 * (w / 4) + [0, 64) and columns 32 * (w % 4) + [0, 32); in
  // an m16n8 fragment, lane l holds rows l / 4 (r = 0, 1) and l / 4 + 8 (r = 2, 3), columns
  // 2 * (l % 4) + (r & 1).
  __device__ static int AccRow(int tid, int i, int r) {
    return ((tid >> 7) * kWarpM) + i * 16 + ((tid & 31) >> 2) + ((r >> 1) << 3);
  }
  __device__ static int AccCol(int tid, int j, int r) {
    return (((tid >> 5) & 3) * kWarpN) + j * 8 + ((tid & 3) << 1) + (r & 1);
  }

 private:
  static_assert(kThreads == 256 && kBK == 32, "loaders and warp layout assume 256 threads, BK 32");
  static constexpr int kKSteps = kBK / 16;  // mma k16 steps per k-iteration (2)
  static_assert(kKSteps % 2 == 0, "fragment double buffer index is kk % 2");

  using ATile = sm80::OperandTile<Element, kAColMajor>;
  using BTile = sm80::OperandTile<Element, kBRowMajor>;

  // Byte offset, inside the A tile of a stage, of the row this lane feeds to ldmatrix for
  // fragment i = 0 at k16 step 0. Lanes 8q..8q+7 address matrix q of the x4 load; matrix q must
  // become register q of the A fragment: q & 1 selects rows (m) +8, q >> 1 selects k +8.
  __device__ static uint32_t ALaneOffset(int warp_m, int lane) {
    const int q = lane >> 3, rim = lane & 7;
    if constexpr (kAColMajor) {  // [k][m] tile, transposed load: a lane addresses a k row
      const int kr = ((q >> 1) << 3) + rim;
      const int c = warp_m * 8 + (q & 1);  // chunk along m: (64 * warp_m + 8 * (q & 1)) / 8
      return static_cast<uint32_t>(kr * 256 + ((c ^ (kr & 7)) << 4));
    } else {  // [m][k] tile: a lane addresses an m row
      const int row = warp_m * 64 + ((q & 1) << 3) + rim;
      return ATile::KOffset(row, q >> 1);  // chunk along k: q >> 1
    }
  }

  // Same for B, fragments j = 0, 1 at k16 step 0: matrix q is register q & 1 (k +8) of n tile
  // q >> 1 (n +8), so one x4 load yields the b0, b1 registers of two adjacent n8 tiles.
  __device__ static uint32_t BLaneOffset(int warp_n, int lane) {
    const int q = lane >> 3, rim = lane & 7;
    if constexpr (kBRowMajor) {  // [k][n] tile, transposed load
      const int kr = ((q & 1) << 3) + rim;
      const int c = warp_n * 4 + (q >> 1);
      return static_cast<uint32_t>(kr * 256 + ((c ^ (kr & 7)) << 4));
    } else {  // [n][k] tile
      const int row = warp_n * 32 + ((q >> 1) << 3) + rim;
      return BTile::KOffset(row, q & 1);
    }
  }

  // Fragment loads of k16 step kk (a constant once the callers' loops unroll); addr is this lane's
  // ldmatrix row address for fragment 0, step 0 in the stage. Moving to another fragment only
  // flips swizzle bits or adds whole rows (the stage base is 128-byte aligned, so the XORs on
  // address bits 5-6 act on the in-tile offset alone):
  //  k-contig tiles: k16 step kk is logical chunk 2 kk + (0|1), i.e. physical chunk ^ 2 kk = byte
  //    offset ^ 32 kk (the row's swizzle term is unchanged); the next 16 rows are + 1024 bytes.
  //  mn-contig tiles: k16 step kk is k rows + 16 kk = + 4096 bytes; the next 16 columns are
  //    logical chunk + 2 = ^ 2 (the lane's chunk has bit 1 clear), i.e. byte offset ^ 32.
  // A fragment i (rows 16 i .. 16 i + 15 of the warp tile).
  __device__ __forceinline__ static void LoadFragA(uint32_t addr, int kk, int i,
                                                   uint32_t (&fa)[4]) {
    if constexpr (kAColMajor) {
      sm80::LdMatrixX4Trans(fa, (addr ^ static_cast<uint32_t>(i * 32)) + kk * 4096);
    } else {
      sm80::LdMatrixX4(fa, (addr ^ static_cast<uint32_t>(kk * 32)) + i * 1024);
    }
  }
  // All kNI B fragments of the warp tile, two n8 tiles per x4 load; addr as for A.
  __device__ __forceinline__ static void LoadFragB(uint32_t addr, int kk, uint32_t (&fb)[kNI][2]) {
#pragma unroll
    for (int jp = 0; jp < kNI / 2; ++jp) {
      uint32_t r[4];
      if constexpr (kBRowMajor) {
        sm80::LdMatrixX4Trans(r, (addr ^ static_cast<uint32_t>(jp * 32)) + kk * 4096);
      } else {
        sm80::LdMatrixX4(r, (addr ^ static_cast<uint32_t>(kk * 32)) + jp * 1024);
      }
      fb[2 * jp][0] = r[0];
      fb[2 * jp][1] = r[1];
      fb[2 * jp + 1][0] = r[2];
      fb[2 * jp + 1][1] = r[3];
    }
  }
};

template <typename Element, bool kAColMajor, bool kBRowMajor>
__device__ void MainloopSm80<Element, kAColMajor, kBRowMajor>::Run(
    char* smem, const MainloopOperands<Element>& op, int tile_m0, int tile_n0, int k_iter_begin,
    int k_iter_end, Accumulators& acc) {
  const int tid = sm80::OpaqueThreadIdx();
  const int lane = tid & 31;
  const int warp = tid >> 5;
  const int warp_m = warp >> 2;  // 0..1, must match AccRow
  const int warp_n = warp & 3;   // 0..3, must match AccCol

#pragma unroll
  for (int i = 0; i < kMI; ++i)
#pragma unroll
    for (int j = 0; j < kNI; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) acc.v[i][j][r] = 0.0f;

  const uint32_t smem_base = sm80::SmemAddr(smem);
  const int num_iters = k_iter_end - k_iter_begin;
  // m and n left from the tile's origin (warp-uniform), and the addresses of the tiles' first
  // row (A) / column (B) at k = 0. A is k-contiguous unless column-major; B is k-contiguous
  // unless row-major.
  const int m_rel = op.m - tile_m0;
  const int n_rel = op.n - tile_n0;
  const Element* a_tile = op.template ATileOrigin<kAColMajor>(tile_m0);
  const Element* b_tile = op.template BTileOrigin<kBRowMajor>(tile_n0);
  const sm80::TileLoader<Element, kAColMajor> a_loader(op.lda, m_rel, 0u, tid);
  const sm80::TileLoader<Element, kBRowMajor> b_loader(op.ldb, n_rel,
                                                       static_cast<uint32_t>(kATileBytes), tid);
  // Shared addresses of this lane's ldmatrix rows in stage 0 (fragment 0, k16 step 0). The XOR
  // steps in LoadFragA/B act on address bits 5 and 6, which needs smem_base % 128 == 0.
  const uint32_t a_frag = smem_base + ALaneOffset(warp_m, lane);
  const uint32_t b_frag = smem_base + kATileBytes + BLaneOffset(warp_n, lane);

  // The caller (or a previous tile's epilogue) may still be reading smem.
  __syncthreads();

  // Prologue: k-iterations 0 .. kStages-2 into stages 0 .. kStages-2. One commit per stage even
  // when there is nothing to load, so that "group g = k-iteration g" holds for the waits below.
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < num_iters) {
      const uint32_t stage = smem_base + s * kStageBytes;
      a_loader.Load(stage, k_iter_begin + s, a_tile, op.a, op.lda, op.k, m_rel);
      b_loader.Load(stage, k_iter_begin + s, b_tile, op.b, op.ldb, op.k, n_rel);
    }
    sm80::CpAsyncCommit();
  }
  sm80::CpAsyncWait<kStages - 2>();  // this thread's copies of k-iteration 0 have landed
  __syncthreads();                   // ... and everyone else's

  // Register fragments, loaded one k16 step ahead of the mmas that use them: B is double-buffered,
  // and A fragment i is reloaded for the next step right after the mmas of row i have read it.
  // (ptxas renames registers and schedules the loads itself, within the 128-register budget; the
  // accumulators (64) and two steps' fragments (2 x 24) take 112 of them.)
  uint32_t frag_a[kMI][4];
  uint32_t frag_b[2][kNI][2];
#pragma unroll
  for (int i = 0; i < kMI; ++i) LoadFragA(a_frag, 0, i, frag_a[i]);
  LoadFragB(b_frag, 0, frag_b[0]);

  uint32_t read_off = 0;  // byte offset of the stage holding k-iteration it
  for (int it = 0; it < num_iters; ++it) {
    uint32_t next_off = read_off;  // stage holding k16 step kk + 1
#pragma unroll
    for (int kk = 0; kk < kKSteps; ++kk) {
      if (kk == kKSteps - 1) {
        // Groups committed so far: kStages - 1 + it + 1, so allowing kStages - 2 in flight means
        // k-iteration it + 1 has landed. The barrier publishes it to all warps and also marks
        // that every warp is done reading stage read_off (its last fragments were loaded during
        // step kKSteps - 2), which the next iteration's copies will overwrite.
        sm80::CpAsyncWait<kStages - 2>();
        __syncthreads();
        // The next iteration's stage (garbage, never used, after the last iteration).
        next_off = read_off + kStageBytes == kSmemBytes ? 0u : read_off + kStageBytes;
      }
      const int next_kk = (kk + 1) % kKSteps;
      LoadFragB(b_frag + next_off, next_kk, frag_b[(kk + 1) % 2]);
      if (kk == 0) {
        // k-iteration it + kStages - 1 goes into the stage read during the previous iteration,
        // i.e. the one before read_off in the ring; every warp has passed the barrier that ended
        // its reads of it.
        if (it + kStages - 1 < num_iters) {
          const uint32_t write_off = read_off == 0
                                         ? static_cast<uint32_t>(kSmemBytes - kStageBytes)
                                         : read_off - kStageBytes;
          const int kt = k_iter_begin + it + kStages - 1;
          a_loader.Load(smem_base + write_off, kt, a_tile, op.a, op.lda, op.k, m_rel);
          b_loader.Load(smem_base + write_off, kt, b_tile, op.b, op.ldb, op.k, n_rel);
        }
        sm80::CpAsyncCommit();
      }
#pragma unroll
      for (int i = 0; i < kMI; ++i) {
#pragma unroll
        for (int j = 0; j < kNI; ++j)
          sm80::Mma16816<Element>(acc.v[i][j], frag_a[i], frag_b[kk % 2][j][0],
                                  frag_b[kk % 2][j][1]);
        LoadFragA(a_frag + next_off, next_kk, i, frag_a[i]);
      }
    }
    read_off = next_off;
  }

  // Drain: no copy may still be writing smem when the caller (or the next Run) touches it.
  sm80::CpAsyncWaitAll();
  __syncthreads();
}

// Explicit instantiations are done elsewhere; this header is templates only.
}  // namespace streamk::kernels
