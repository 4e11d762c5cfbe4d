// LaunchGemm and KernelOccupancy (launch.h): pick the kernel for the mainloop, input type and
// layouts, launch it cooperatively when its blocks wait on each other.
#include "launch.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace streamk::kernels {

cudaError_t PrepareF16Kernel(Arch arch, bool a_col_major, bool b_row_major, const void** fn,
                             int* smem);
cudaError_t PrepareBF16Kernel(Arch arch, bool a_col_major, bool b_row_major, const void** fn,
                              int* smem);

namespace {

cudaError_t Prepare(Arch arch, const GemmKernelArgs& args, const void** fn, int* smem) {
  if (args.input == DType::kF16)
    return PrepareF16Kernel(arch, args.a_col_major, args.b_row_major, fn, smem);
  if (args.input == DType::kBF16)
    return PrepareBF16Kernel(arch, args.a_col_major, args.b_row_major, fn, smem);
  return cudaErrorInvalidValue;
}

Arch DecideArch(int device) {
  const char* forced = std::getenv("STREAMK_MAINLOOP");
  if (forced != nullptr && std::strcmp(forced, "sm80") == 0) return Arch::kSm80;
  int major = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      major != 9) {
    cudaGetLastError();
    return Arch::kSm80;
  }
  // The code the device would run for the sm90 kernel: binaryVersion 90 only when the library
  // was built for sm_90a (an sm_80-only build runs sm_80 code there, in which the wgmma kernel
  // is empty).
  GemmKernelArgs probe;
  const void* fn = nullptr;
  int smem = 0;
  cudaFuncAttributes attr;
  if (Prepare(Arch::kSm90, probe, &fn, &smem) != cudaSuccess ||
      cudaFuncGetAttributes(&attr, fn) != cudaSuccess) {
    cudaGetLastError();
    return Arch::kSm80;
  }
  return attr.binaryVersion == 90 ? Arch::kSm90 : Arch::kSm80;
}

}  // namespace

Arch KernelArch(int device) {
  // Per device: 0 unknown, 1 + Arch once decided.
  static std::atomic<int> decided[64];
  if (device < 0 || device >= 64) return DecideArch(device);
  int v = decided[device].load(std::memory_order_relaxed);
  if (v == 0) {
    v = 1 + static_cast<int>(DecideArch(device));
    decided[device].store(v, std::memory_order_relaxed);
  }
  return static_cast<Arch>(v - 1);
}

const char* ArchName(Arch arch) {
  return arch == Arch::kSm90 ? "sm90a (wgmma)" : "sm80 (mma.sync)";
}

cudaError_t LaunchGemm(const Plan& plan, const GemmKernelArgs& args, void* workspace,
                       cudaStream_t stream, bool cooperative) {
  if (plan.grid_blocks < 1) return cudaErrorInvalidConfiguration;
  int device = 0;
  if (cudaError_t err = cudaGetDevice(&device); err != cudaSuccess) return err;
  const void* fn = nullptr;
  int smem = 0;
  if (cudaError_t err = Prepare(KernelArch(device), args, &fn, &smem); err != cudaSuccess)
    return err;

  Plan p = plan;
  GemmKernelArgs a = args;
  char* ws = static_cast<char*>(workspace);
  void* params[] = {&p, &a, &ws};
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(plan.grid_blocks);
  config.blockDim = dim3(kThreadsPerBlock);
  config.dynamicSmemBytes = static_cast<size_t>(smem);
  config.stream = stream;
  cudaLaunchAttribute attr[1];
  // Only plans whose blocks wait on each other need co-residency.
  const bool waits = plan.sk_blocks > 0;
  if (cooperative && waits) {
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = 1;
    config.attrs = attr;
    config.numAttrs = 1;
  }
  return cudaLaunchKernelExC(&config, fn, params);
}

cudaError_t KernelOccupancy(int device, int* blocks_per_sm) {
  int current = 0;
  if (cudaError_t err = cudaGetDevice(&current); err != cudaSuccess) return err;
  if (current != device) {
    if (cudaError_t err = cudaSetDevice(device); err != cudaSuccess) return err;
  }
  const Arch arch = KernelArch(device);
  int least = 1 << 30;
  cudaError_t result = cudaSuccess;
  for (DType t : {DType::kF16, DType::kBF16}) {
    for (int layout = 0; layout < 4 && result == cudaSuccess; ++layout) {
      GemmKernelArgs a;
      a.input = t;
      a.a_col_major = layout & 1;
      a.b_row_major = layout & 2;
      const void* fn = nullptr;
      int smem = 0;
      int blocks = 0;
      result = Prepare(arch, a, &fn, &smem);
      if (result == cudaSuccess)
        result = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn, kThreadsPerBlock, smem);
      if (result == cudaSuccess && blocks < least) least = blocks;
    }
  }
  if (current != device) cudaSetDevice(current);
  *blocks_per_sm = result == cudaSuccess ? least : 0;
  return result;
}

}  // namespace streamk::kernels
