// Host entry points of the GEMM kernels (no Abseil: lib/gemm.cc turns the cudaError_t into a
// status). One explicit kernel per mainloop, input type and A/B layout (2 x 2 x 4); the output
// type is a run-time switch in the epilogue.
#pragma once

#include <cuda_runtime.h>

#include "kernel_args.h"
#include "streamk/plan.h"

namespace streamk::kernels {

// The tile the kernels compute, elements; plans for gemm() must use it.
constexpr int kTileM = 128, kTileN = 128, kTileK = 32;
constexpr int kThreadsPerBlock = 256;

// The two mainloops: mma.sync + cp.async (sm_80 and newer) and wgmma (sm_90a, Hopper).
enum class Arch { kSm80, kSm90 };

// The mainloop the kernels use on `device`: kSm90 where the device is compute capability 9.0 and
// the library carries sm_90a code for it, kSm80 otherwise, or where the environment variable
// STREAMK_MAINLOOP is "sm80" (the portable kernel on a Hopper GPU, for comparison and tests).
// Decided once per device and process.
Arch KernelArch(int device);
const char* ArchName(Arch arch);  // "sm80 (mma.sync)" or "sm90a (wgmma)"

// Launches the persistent kernel for `plan`. `workspace` must hold plan.workspace_bytes bytes
// whose flags area is zero (it is zero again when the kernel ends). Plans whose blocks wait on
// each other are launched cooperatively (co-residency guaranteed by the runtime) unless
// `cooperative` is false.
cudaError_t LaunchGemm(const Plan& plan, const GemmKernelArgs& args, void* workspace,
                       cudaStream_t stream, bool cooperative = true);

// Resident blocks per SM of the GEMM kernels KernelArch(device) selects on `device` (the least over
// the configurations).
cudaError_t KernelOccupancy(int device, int* blocks_per_sm);

}  // namespace streamk::kernels
