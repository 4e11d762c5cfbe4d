// GPU tests of the tensor-core mainloops (kernels/mainloop_sm80.cuh, mainloop_sm90.cuh,
// mainloop_sm90_tma.cuh): a small kernel runs the mainloop (Run, or the TMA one's Produce and
// Consume on their warps) on one or a few tiles (128 x 128; 128 x 256 for the TMA one) and scatters the fp32 accumulators through
// AccRow/AccCol into a NaN-poisoned m x n output, which is compared with a double-precision CPU
// product over exactly the same k-range. All 4 A/B layout combinations x {fp16, bf16}; shapes cover
// a 1 x 1 x 1 problem, an exact tile, m/n/k tails, an interior tile of a larger problem, k
// sub-ranges, k-ranges running past k and two Run calls in a row on the same shared memory.
// Operand padding (the lda/ldb slack past the logical matrix) holds NaN, so any read past the k
// edge that is not zero-filled poisons the result. Skips when no CUDA device is present, and the
// sm90 (wgmma) cases where the device does not run sm_90a code.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../kernels/launch.h"
#include "../kernels/mainloop_sm80.cuh"
#include "../kernels/mainloop_sm90.cuh"
#include "../kernels/mainloop_sm90_tma.cuh"

namespace streamk::kernels {
namespace {

#define ML_CUDA_ASSERT(expr)                                                           \
  do {                                                                                 \
    const cudaError_t ml_err_ = (expr);                                                \
    ASSERT_EQ(ml_err_, cudaSuccess) << #expr << ": " << cudaGetErrorString(ml_err_);   \
  } while (0)

// threadIdx.x through an opaque (volatile) read. The epilogue derives its 16 output addresses from
// it, so the compiler cannot compute them before the mainloop, where they would stay live across
// it and push the kernel past the 128-register budget (and spill).
__device__ __forceinline__ int OpaqueTid() {
  int tid;
  asm volatile("mov.u32 %0, %%tid.x;\n" : "=r"(tid));
  return tid;
}

// Writes (kAdd: adds) the tile's accumulators at (tm, tn) into out (m x n, row-major), guarded by
// m and n. Each output element is owned by exactly one thread, so the add needs no atomics.
template <typename Mainloop, bool kAdd, typename Element>
__device__ __forceinline__ void StoreTile(const typename Mainloop::Accumulators& acc,
                                          const MainloopOperands<Element>& op, int tm, int tn,
                                          float* out) {
  const int tid = OpaqueTid();
#pragma unroll
  for (int i = 0; i < Mainloop::kMI; ++i)
#pragma unroll
    for (int j = 0; j < Mainloop::kNI; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const int row = tm + Mainloop::AccRow(tid, i, r);
        const int col = tn + Mainloop::AccCol(tid, j, r);
        if (row < op.m && col < op.n) {
          float* o = out + static_cast<int64_t>(row) * op.n + col;
          *o = kAdd ? *o + acc.v[i][j][r] : acc.v[i][j][r];
        }
      }
}

// Runs the mainloop for tile (tile_m0 + kBM * blockIdx.x, tile_n0 + kBN * blockIdx.y) over
// k-iterations [k_begin, k_split) and then, as a second Run call into the same shared memory,
// [k_split, k_end) (skipped when k_split == k_end), adding both into out.
template <typename Mainloop, typename Element>
__global__ void __launch_bounds__(256, 2)
    MainloopTileKernel(MainloopOperands<Element> op, int tile_m0, int tile_n0, int k_begin,
                       int k_split, int k_end, float* out) {
  extern __shared__ __align__(128) char smem[];
  const int tm = tile_m0 + Mainloop::kBM * static_cast<int>(blockIdx.x);
  const int tn = tile_n0 + Mainloop::kBN * static_cast<int>(blockIdx.y);
  typename Mainloop::Accumulators acc;
  Mainloop::Run(smem, op, tm, tn, k_begin, k_split, acc);
  StoreTile<Mainloop, false>(acc, op, tm, tn, out);
  if (k_split < k_end) {
    Mainloop::Run(smem, op, tm, tn, k_split, k_end, acc);
    StoreTile<Mainloop, true>(acc, op, tm, tn, out);
  }
}

// The same for the warp-specialized mainloop: its producer warp loads what the compute warps
// consume, through one pipeline carried from the first range to the second. k_rotation > 0: the
// first range, [0, k_split), is loaded from k-iteration k_rotation on, wrapping at k_split.
template <typename Mainloop, typename Element>
__global__ void __launch_bounds__(Mainloop::kThreads + Mainloop::kProducerThreads, 1)
    MainloopTmaTileKernel(MainloopOperands<Element> op, int tile_m0, int tile_n0, int k_begin,
                          int k_split, int k_end, int k_rotation, float* out,
                          const __grid_constant__ TmaOperands tma) {
  extern __shared__ __align__(128) char smem[];
  const int tm = tile_m0 + Mainloop::kBM * static_cast<int>(blockIdx.x);
  const int tn = tile_n0 + Mainloop::kBN * static_cast<int>(blockIdx.y);
  typename Mainloop::Pipeline pipe = Mainloop::Init(smem);
  if (threadIdx.x >= Mainloop::kThreads) {
    if (threadIdx.x == Mainloop::kThreads) {
      Mainloop::Produce(pipe, tma, tm, tn, 0, k_begin, k_split, k_rotation, k_split);
      Mainloop::Produce(pipe, tma, tm, tn, 0, k_split, k_end);
    }
    return;
  }
  typename Mainloop::Accumulators acc;
  Mainloop::Consume(pipe, k_begin, k_split, acc);
  StoreTile<Mainloop, false>(acc, op, tm, tn, out);
  if (k_split < k_end) {
    Mainloop::Consume(pipe, k_split, k_end, acc);
    StoreTile<Mainloop, true>(acc, op, tm, tn, out);
  }
}

template <typename E>
E FromFloat(float x);
template <>
__half FromFloat<__half>(float x) { return __float2half(x); }
template <>
__nv_bfloat16 FromFloat<__nv_bfloat16>(float x) { return __float2bfloat16(x); }

template <typename E>
float ToFloat(E x);
template <>
float ToFloat<__half>(__half x) { return __half2float(x); }
template <>
float ToFloat<__nv_bfloat16>(__nv_bfloat16 x) { return __bfloat162float(x); }

// Owns one device allocation; frees it (checked) on scope exit.
struct DeviceBuffer {
  void* ptr = nullptr;
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (ptr != nullptr) {
      const cudaError_t err = cudaFree(ptr);
      EXPECT_EQ(err, cudaSuccess) << "cudaFree: " << cudaGetErrorString(err);
    }
  }
};

struct Case {
  int m, n, k;
  int tile_m0, tile_n0;  // first tile's origin, elements
  int grid_m, grid_n;    // tiles (blocks) along m and n
  int k_begin, k_split, k_end;  // k-iterations; k_split == k_end: a single Run call
  uint32_t seed;
  // The TMA mainloop only (the others ignore it): with k_begin = 0, [0, k_split) loaded from
  // k-iteration k_rotation on (a Stream-K block's whole tile, persistent_kernel.cuh).
  int k_rotation = 0;
};

template <Arch kArch_, typename E, bool kAColMajor_, bool kBRowMajor_, int kTmaTileN_ = 256,
          int kTmaTileM_ = kTileM>
struct Config {
  using Element = E;
  static constexpr Arch kArch = kArch_;
  static constexpr bool kAColMajor = kAColMajor_;
  static constexpr bool kBRowMajor = kBRowMajor_;
  static constexpr bool kBf16 = sm80::MmaType<E>::kIsBf16;
  using Mainloop = std::conditional_t<
      kArch == Arch::kSm90Tma,
      MainloopSm90Tma<E, kAColMajor, kBRowMajor, kTmaTileN_, TmaStagesOf(kTmaTileM_, kTmaTileN_),
                      kTmaTileK, 1, kTmaTileM_>,
      std::conditional_t<kArch == Arch::kSm90, MainloopSm90<E, kAColMajor, kBRowMajor>,
                         MainloopSm80<E, kAColMajor, kBRowMajor>>>;
  // Distinct per configuration, mixed into every case's seed.
  static constexpr uint32_t kId =
      (kBf16 ? 4u : 0u) + (kAColMajor ? 2u : 0u) + (kBRowMajor ? 1u : 0u);
  // The test kernel and its launch.
  static const void* Kernel() {
    if constexpr (kArch == Arch::kSm90Tma)
      return reinterpret_cast<const void*>(MainloopTmaTileKernel<Mainloop, E>);
    else
      return reinterpret_cast<const void*>(MainloopTileKernel<Mainloop, E>);
  }
};

int64_t RoundUp8(int64_t x) { return (x + 7) / 8 * 8; }

template <typename Cfg>
void RunCase(const Case& c) {
  using E = typename Cfg::Element;
  using Mainloop = typename Cfg::Mainloop;
  const int m = c.m, n = c.n, k = c.k;
  std::mt19937 rng(c.seed * 16u + Cfg::kId);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  const float nan = std::numeric_limits<float>::quiet_NaN();

  // Leading dimensions: multiples of 8 with 8 elements of NaN slack past the logical extent.
  const int64_t lda = Cfg::kAColMajor ? RoundUp8(m) + 8 : RoundUp8(k) + 8;
  const int64_t ldb = Cfg::kBRowMajor ? RoundUp8(n) + 8 : RoundUp8(k) + 8;
  const int64_t a_size = Cfg::kAColMajor ? lda * k : lda * m;
  const int64_t b_size = Cfg::kBRowMajor ? ldb * k : ldb * n;
  std::vector<E> a_h(a_size, FromFloat<E>(nan)), b_h(b_size, FromFloat<E>(nan));
  std::vector<double> a_ref(static_cast<size_t>(m) * k), b_ref(static_cast<size_t>(k) * n);
  for (int r = 0; r < m; ++r)
    for (int kk = 0; kk < k; ++kk) {
      const E v = FromFloat<E>(dist(rng));
      a_h[Cfg::kAColMajor ? r + kk * lda : r * lda + kk] = v;
      a_ref[static_cast<size_t>(r) * k + kk] = ToFloat(v);
    }
  for (int kk = 0; kk < k; ++kk)
    for (int col = 0; col < n; ++col) {
      const E v = FromFloat<E>(dist(rng));
      b_h[Cfg::kBRowMajor ? kk * ldb + col : kk + col * ldb] = v;
      b_ref[static_cast<size_t>(kk) * n + col] = ToFloat(v);
    }

  DeviceBuffer a_d, b_d, out_d;
  ML_CUDA_ASSERT(cudaMalloc(&a_d.ptr, a_size * sizeof(E)));
  ML_CUDA_ASSERT(cudaMalloc(&b_d.ptr, b_size * sizeof(E)));
  ML_CUDA_ASSERT(cudaMalloc(&out_d.ptr, static_cast<size_t>(m) * n * sizeof(float)));
  ML_CUDA_ASSERT(cudaMemcpy(a_d.ptr, a_h.data(), a_size * sizeof(E), cudaMemcpyHostToDevice));
  ML_CUDA_ASSERT(cudaMemcpy(b_d.ptr, b_h.data(), b_size * sizeof(E), cudaMemcpyHostToDevice));
  // All-ones bytes are a NaN float: anything the kernel fails to write stays NaN.
  ML_CUDA_ASSERT(cudaMemset(out_d.ptr, 0xFF, static_cast<size_t>(m) * n * sizeof(float)));

  MainloopOperands<E> op;
  op.a = static_cast<const E*>(a_d.ptr);
  op.b = static_cast<const E*>(b_d.ptr);
  op.lda = lda;
  op.ldb = ldb;
  op.m = m;
  op.n = n;
  op.k = k;

  float* out = static_cast<float*>(out_d.ptr);
  if constexpr (Cfg::kArch == Arch::kSm90Tma) {
    Plan plan;
    plan.m = m, plan.n = n, plan.k = k, plan.batch = 1;
    plan.tile_m = Mainloop::kBM, plan.tile_n = Mainloop::kBN, plan.tile_k = Mainloop::kBK;
    GemmKernelArgs args;
    args.input = Cfg::kBf16 ? DType::kBF16 : DType::kF16;
    args.a_col_major = Cfg::kAColMajor;
    args.b_row_major = Cfg::kBRowMajor;
    args.a = a_d.ptr, args.b = b_d.ptr;
    args.lda = lda, args.ldb = ldb;
    TmaOperands tma;
    ML_CUDA_ASSERT(EncodeTmaOperands(plan, args, &tma));
    auto* kernel = MainloopTmaTileKernel<Mainloop, E>;
    ML_CUDA_ASSERT(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        Mainloop::kSmemBytes));
    kernel<<<dim3(c.grid_m, c.grid_n), Mainloop::kThreads + Mainloop::kProducerThreads,
             Mainloop::kSmemBytes>>>(op, c.tile_m0, c.tile_n0, c.k_begin, c.k_split, c.k_end,
                                     c.k_rotation, out, tma);
  } else {
    auto* kernel = MainloopTileKernel<Mainloop, E>;
    ML_CUDA_ASSERT(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        Mainloop::kSmemBytes));
    kernel<<<dim3(c.grid_m, c.grid_n), Mainloop::kThreads, Mainloop::kSmemBytes>>>(
        op, c.tile_m0, c.tile_n0, c.k_begin, c.k_split, c.k_end, out);
  }
  ML_CUDA_ASSERT(cudaGetLastError());
  ML_CUDA_ASSERT(cudaDeviceSynchronize());

  std::vector<float> out_h(static_cast<size_t>(m) * n);
  ML_CUDA_ASSERT(cudaMemcpy(out_h.data(), out_d.ptr, out_h.size() * sizeof(float),
                            cudaMemcpyDeviceToHost));

  // Reference over the same k-range, clipped to k (the mainloop reads past-k elements as zero).
  const int kb = c.k_begin * Mainloop::kBK;
  const int ke = std::min(c.k_end * Mainloop::kBK, k);
  const int row_end = std::min(m, c.tile_m0 + c.grid_m * Mainloop::kBM);
  const int col_end = std::min(n, c.tile_n0 + c.grid_n * Mainloop::kBN);
  double err2 = 0.0, ref2 = 0.0;
  int64_t not_finite = 0, stray = 0;
  for (int r = 0; r < m; ++r)
    for (int col = 0; col < n; ++col) {
      const float got = out_h[static_cast<size_t>(r) * n + col];
      const bool in_tiles = r >= c.tile_m0 && r < row_end && col >= c.tile_n0 && col < col_end;
      if (!in_tiles) {
        stray += std::isnan(got) ? 0 : 1;
        continue;
      }
      double ref = 0.0;
      for (int kk = kb; kk < ke; ++kk)
        ref += a_ref[static_cast<size_t>(r) * k + kk] * b_ref[static_cast<size_t>(kk) * n + col];
      if (!std::isfinite(got)) {
        if (not_finite < 5)
          ADD_FAILURE() << "non-finite output " << got << " at (" << r << ", " << col << ")";
        ++not_finite;
        continue;
      }
      err2 += (got - ref) * (got - ref);
      ref2 += ref * ref;
    }
  EXPECT_EQ(not_finite, 0) << "outputs left NaN or poisoned inside the computed tiles";
  EXPECT_EQ(stray, 0) << "outputs written outside the computed tiles";
  ASSERT_GT(ref2, 0.0);
  const double rel = std::sqrt(err2 / ref2);
  EXPECT_LT(rel, 1e-2) << "relative Frobenius error, m=" << m << " n=" << n << " k=" << k;
}

template <typename Cfg>
class MainloopTest : public ::testing::Test {
 protected:
  void SetUp() override {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
      GTEST_SKIP() << "no CUDA device: "
                   << (err != cudaSuccess ? cudaGetErrorString(err) : "device count is 0");
    }
    cudaDeviceProp prop;
    const cudaError_t perr = cudaGetDeviceProperties(&prop, 0);
    ASSERT_EQ(perr, cudaSuccess) << "cudaGetDeviceProperties: " << cudaGetErrorString(perr);
    if (prop.major < 8) {
      GTEST_SKIP() << "device 0 is sm_" << prop.major << prop.minor
                   << ", the mainloop needs sm_80 or newer";
    }
    if (Cfg::kArch != Arch::kSm80) {
      cudaFuncAttributes attr;
      const cudaError_t aerr = cudaFuncGetAttributes(&attr, Cfg::Kernel());
      ASSERT_EQ(aerr, cudaSuccess) << "cudaFuncGetAttributes: " << cudaGetErrorString(aerr);
      if (prop.major != 9 || attr.binaryVersion != 90) {
        GTEST_SKIP() << "the wgmma mainloop needs an sm_90 device running sm_90a code (device 0 "
                     << "is sm_" << prop.major << prop.minor << ", the test kernel's code is sm_"
                     << attr.binaryVersion << ")";
      }
    }
  }
};

struct ConfigNames {
  template <typename Cfg>
  static std::string GetName(int) {
    const char* arch = Cfg::kArch == Arch::kSm80   ? "sm80_"
                       : Cfg::kArch == Arch::kSm90 ? "sm90_"
                       : Cfg::Mainloop::kBM == 192 ? "sm90tma192x192_"
                       : Cfg::Mainloop::kBM == 64  ? "sm90tma64x128_"
                       : Cfg::Mainloop::kBN == 256 ? "sm90tma256_"
                                                   : "sm90tma128_";
    return std::string(arch) + (Cfg::kBf16 ? "bf16" : "f16") +
           (Cfg::kAColMajor ? "_Acol" : "_Arow") + (Cfg::kBRowMajor ? "_Brow" : "_Bcol");
  }
};

using Configs = ::testing::Types<
    Config<Arch::kSm80, __half, false, false>,
    Config<Arch::kSm80, __half, false, true>,
    Config<Arch::kSm80, __half, true, false>,
    Config<Arch::kSm80, __half, true, true>,
    Config<Arch::kSm80, __nv_bfloat16, false, false>,
    Config<Arch::kSm80, __nv_bfloat16, false, true>,
    Config<Arch::kSm80, __nv_bfloat16, true, false>,
    Config<Arch::kSm80, __nv_bfloat16, true, true>,
    Config<Arch::kSm90, __half, false, false>,
    Config<Arch::kSm90, __half, false, true>,
    Config<Arch::kSm90, __half, true, false>,
    Config<Arch::kSm90, __half, true, true>,
    Config<Arch::kSm90, __nv_bfloat16, false, false>,
    Config<Arch::kSm90, __nv_bfloat16, false, true>,
    Config<Arch::kSm90, __nv_bfloat16, true, false>,
    Config<Arch::kSm90, __nv_bfloat16, true, true>,
    Config<Arch::kSm90Tma, __half, false, false>,
    Config<Arch::kSm90Tma, __half, false, true>,
    Config<Arch::kSm90Tma, __half, true, false>,
    Config<Arch::kSm90Tma, __half, true, true>,
    Config<Arch::kSm90Tma, __nv_bfloat16, false, false>,
    Config<Arch::kSm90Tma, __nv_bfloat16, false, true>,
    Config<Arch::kSm90Tma, __nv_bfloat16, true, false>,
    Config<Arch::kSm90Tma, __nv_bfloat16, true, true>,
    Config<Arch::kSm90Tma, __half, false, false, 128>,
    Config<Arch::kSm90Tma, __half, false, true, 128>,
    Config<Arch::kSm90Tma, __half, true, false, 128>,
    Config<Arch::kSm90Tma, __half, true, true, 128>,
    Config<Arch::kSm90Tma, __nv_bfloat16, false, false, 128>,
    Config<Arch::kSm90Tma, __nv_bfloat16, false, true, 128>,
    Config<Arch::kSm90Tma, __nv_bfloat16, true, false, 128>,
    Config<Arch::kSm90Tma, __nv_bfloat16, true, true, 128>,
    Config<Arch::kSm90Tma, __half, false, false, 192, 192>,
    Config<Arch::kSm90Tma, __half, false, true, 192, 192>,
    Config<Arch::kSm90Tma, __half, true, false, 192, 192>,
    Config<Arch::kSm90Tma, __half, true, true, 192, 192>,
    Config<Arch::kSm90Tma, __nv_bfloat16, false, false, 192, 192>,
    Config<Arch::kSm90Tma, __nv_bfloat16, true, true, 192, 192>,
    Config<Arch::kSm90Tma, __half, false, false, 128, 64>,
    Config<Arch::kSm90Tma, __nv_bfloat16, true, true, 128, 64>>;
TYPED_TEST_SUITE(MainloopTest, Configs, ConfigNames);

// Case fields: m, n, k, tile_m0, tile_n0, grid_m, grid_n, k_begin, k_split, k_end, seed.
TYPED_TEST(MainloopTest, OneByOneByOne) {
  RunCase<TypeParam>({1, 1, 1, 0, 0, 1, 1, 0, 1, 1, 1});
}

TYPED_TEST(MainloopTest, ExactTile128x128x32) {
  RunCase<TypeParam>({128, 128, 32, 0, 0, 1, 1, 0, 1, 1, 2});
}

TYPED_TEST(MainloopTest, Tails100x77x45) {
  RunCase<TypeParam>({100, 77, 45, 0, 0, 1, 1, 0, 2, 2, 3});
}

// Interior tile (tile_m0 = tile_n0 = 128) of a 300 x 260 problem; 10 k-iterations wrap the
// stage ring of either mainloop at least once, and k = 300 ends mid-chunk.
TYPED_TEST(MainloopTest, OffsetTileOf300x260) {
  RunCase<TypeParam>({300, 260, 300, 128, 128, 1, 1, 0, 10, 10, 4});
}

// k-iterations [1, 3) of k = 200.
TYPED_TEST(MainloopTest, KSubRange) {
  RunCase<TypeParam>({300, 260, 200, 128, 128, 1, 1, 1, 3, 3, 5});
}

// Every tile of a 300 x 260 x 77 problem, edge tiles included (3 x 3 blocks).
TYPED_TEST(MainloopTest, AllTilesOf300x260x77) {
  RunCase<TypeParam>({300, 260, 77, 0, 0, 3, 3, 0, 3, 3, 6});
}

// k-range running past k: iterations 1 and 2 are partly / wholly outside k = 45 and must add 0.
TYPED_TEST(MainloopTest, KRangePastEnd) {
  RunCase<TypeParam>({64, 200, 45, 0, 0, 1, 2, 0, 3, 3, 7});
}

// A long k-range (41 k-iterations, k = 1300 ends mid-chunk): the stage ring wraps many times.
TYPED_TEST(MainloopTest, LongK1300) {
  RunCase<TypeParam>({130, 200, 1300, 0, 0, 2, 2, 0, 41, 41, 9});
}

// A whole tile's k-iterations loaded rotated (the TMA mainloop's 21 from the 14th on: k = 1300
// ends mid-chunk in the 21st, which is loaded eighth), as Stream-K blocks load their whole
// tiles; the product over k is the same.
TYPED_TEST(MainloopTest, RotatedWholeTile) {
  RunCase<TypeParam>({130, 200, 1300, 0, 0, 2, 2, 0, 21, 21, 10, 13});
}

// Two Run calls in a row on the same shared memory (the TMA mainloop: one pipeline carried from
// the first range to the second): [0, 3) then [3, 7) of k = 200, summed.
TYPED_TEST(MainloopTest, TwoRunsInARow) {
  RunCase<TypeParam>({150, 140, 200, 0, 0, 2, 2, 0, 3, 7, 8});
}

}  // namespace
}  // namespace streamk::kernels
