// Probe: TMA stores of 16-bit rows whose start is not 16-byte aligned, through per-row-class
// tensor maps (rows r = c mod 8 of a matrix with odd leading dimension), and swizzled shared
// boxes that start at a 128-byte (not 1024-byte) offset.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <vector>

constexpr int M = 64, L = 1001, N = 1000, BOXR = 8;

__device__ uint16_t Val(int r, int c) { return static_cast<uint16_t>((r * 1237 + c * 7) & 0x7fff); }

struct Maps {
  CUtensorMap m[8];
};

// mode 0: boxes at 1024-byte stride, swizzle by address; 1: boxes staggered by 128 bytes,
// swizzle by address; 2: staggered, swizzle relative to the box start.
__global__ void Store(const __grid_constant__ Maps maps, int n0, int mode, const int* offs,
                      int mask) {
  extern __shared__ __align__(1024) char smem[];
  char* base = smem + ((1024 - (static_cast<uint32_t>(__cvta_generic_to_shared(smem)) & 1023)) & 1023);
  const int stride = mode == 0 ? 1024 : mode == 4 ? 1024 + 16 : 1024 + 128;
  for (int i = threadIdx.x; i < 8 * BOXR * 8; i += blockDim.x) {
    const int cls = i / (BOXR * 8), j = (i / 8) % BOXR, chunk = i % 8;
    char* box = base + cls * stride;
    const uint32_t row_addr = static_cast<uint32_t>(__cvta_generic_to_shared(box + j * 128));
    const int phase = mode >= 3 ? 0 : mode == 2 ? j & 7 : (row_addr >> 7) & 7;
    uint16_t* at = reinterpret_cast<uint16_t*>(box + j * 128 + ((chunk ^ phase) << 4));
    for (int e = 0; e < 8; ++e) at[e] = Val(cls + 8 * j, n0 + chunk * 8 + e);
  }
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int cls = 0; cls < 8; ++cls) {
      if (!(mask >> cls & 1)) continue;
      const uint32_t src = static_cast<uint32_t>(__cvta_generic_to_shared(base + cls * stride));
      asm volatile(
          "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(
              reinterpret_cast<uint64_t>(&maps.m[cls])),
          "r"(src), "r"(offs[cls] + n0), "r"(0)
          : "memory");
    }
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
  }
  __syncthreads();
}

uint16_t HostVal(int r, int c) { return static_cast<uint16_t>((r * 1237 + c * 7) & 0x7fff); }

int main(int argc, char** argv) {
  const int a_shift = atoi(argv[1]), a_mode = atoi(argv[2]), a_n0 = atoi(argv[3]), mask = atoi(argv[4]);
  uint16_t* d = nullptr;
  const size_t elems = size_t(M) * L + 64;
  cudaMalloc(&d, elems * 2 + 64);
  int* offs_d = nullptr;
  cudaMalloc(&offs_d, 8 * sizeof(int));
  cudaFuncSetAttribute(Store, cudaFuncAttributeMaxDynamicSharedMemorySize, 32768);
  for (int shift = a_shift; shift <= a_shift; ++shift) {  // D itself at +0 or +6 bytes
    uint16_t* dd = d + (shift ? 3 : 0);
    Maps maps;
    int offs[8];
    for (int cls = 0; cls < 8; ++cls) {
      const uintptr_t addr = reinterpret_cast<uintptr_t>(dd + size_t(cls) * L);
      offs[cls] = static_cast<int>((addr & 15) / 2);
      void* b = reinterpret_cast<void*>(addr & ~uintptr_t(15));
      const cuuint64_t dims[2] = {cuuint64_t(N + offs[cls]), cuuint64_t((M - cls + 7) / 8)};
      const cuuint64_t strides[1] = {cuuint64_t(8) * L * 2};
      const cuuint32_t box[2] = {64, BOXR};
      const cuuint32_t es[2] = {1, 1};
      CUresult r = cuTensorMapEncodeTiled(&maps.m[cls], CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, b, dims,
                                          strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                          a_mode >= 3 ? CU_TENSOR_MAP_SWIZZLE_NONE : CU_TENSOR_MAP_SWIZZLE_128B,
                                          CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                          CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
      if (r != CUDA_SUCCESS) {
        printf("encode failed cls %d: %d\n", cls, int(r));
        return 1;
      }
    }
    cudaMemcpy(offs_d, offs, sizeof offs, cudaMemcpyHostToDevice);
    for (int mode = a_mode; mode <= a_mode; ++mode) {
      for (int n0 : {a_n0}) {
        cudaMemset(d, 0xff, elems * 2 + 64);
        Store<<<1, 128, 32768>>>(maps, n0, mode, offs_d, mask);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
          printf("shift %d mode %d n0 %d: %s\n", shift, mode, n0, cudaGetErrorString(e));
          return 1;
        }
        std::vector<uint16_t> h(elems + 32);
        cudaMemcpy(h.data(), d, (elems + 32) * 2, cudaMemcpyDeviceToHost);
        const uint16_t* hh = h.data() + (shift ? 3 : 0);
        long wrong = 0, clobbered = 0, first_clob = -1;
        for (long i = -(shift ? 3 : 0); i < long(M) * L + 16; ++i) {
          const long r = i >= 0 ? i / L : -1, c = i >= 0 ? i % L : -1;
          const bool in = r >= 0 && (mask >> (r % 8) & 1) && r < M && c >= n0 && c < n0 + 64 && c < N;
          if (in) {
            if (hh[i] != HostVal(int(r), int(c))) ++wrong;
          } else if (hh[i] != 0xffff) {
            if (first_clob < 0) first_clob = i;
            ++clobbered;
          }
        }
        printf("shift %d mode %d n0 %4d: wrong %ld clobbered %ld", shift, mode, n0, wrong,
               clobbered);
        if (first_clob >= 0) printf(" (first at row %ld col %ld)", first_clob / L, first_clob % L);
        printf("\n");
      }
    }
  }
  return 0;
}
