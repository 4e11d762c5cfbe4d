// LaunchGemm and KernelOccupancy (launch.h): pick the kernel for the input type and layouts,
// launch it cooperatively when its blocks wait on each other.
#include "launch.h"

namespace streamk::kernels {

cudaError_t PrepareF16Kernel(bool a_col_major, bool b_row_major, const void** fn, int* smem);
cudaError_t PrepareBF16Kernel(bool a_col_major, bool b_row_major, const void** fn, int* smem);

namespace {

cudaError_t Prepare(const GemmKernelArgs& args, const void** fn, int* smem) {
  if (args.input == DType::kF16) return PrepareF16Kernel(args.a_col_major, args.b_row_major, fn, smem);
  if (args.input == DType::kBF16)
    return PrepareBF16Kernel(args.a_col_major, args.b_row_major, fn, smem);
  return cudaErrorInvalidValue;
}

}  // namespace

cudaError_t LaunchGemm(const Plan& plan, const GemmKernelArgs& args, void* workspace,
                       cudaStream_t stream, bool cooperative) {
  if (plan.grid_blocks < 1) return cudaErrorInvalidConfiguration;
  const void* fn = nullptr;
  int smem = 0;
  if (cudaError_t err = Prepare(args, &fn, &smem); err != cudaSuccess) return err;

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
      result = Prepare(a, &fn, &smem);
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
