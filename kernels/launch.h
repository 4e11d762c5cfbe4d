// Host entry points of the GEMM kernels (no Abseil: lib/gemm.cc turns the cudaError_t into a
// status). One explicit kernel per input type and A/B layout (8 in all); the output type is a
// run-time switch in the epilogue.
#pragma once

#include <cuda_runtime.h>

#include "kernel_args.h"
#include "streamk/plan.h"

namespace streamk::kernels {

// The tile the kernels compute, elements; plans for gemm() must use it.
constexpr int kTileM = 128, kTileN = 128, kTileK = 32;
constexpr int kThreadsPerBlock = 256;

// Launches the persistent kernel for `plan`. `workspace` must hold plan.workspace_bytes bytes
// whose flags area is zero (it is zero again when the kernel ends). Plans whose blocks wait on
// each other are launched cooperatively (co-residency guaranteed by the runtime) unless
// `cooperative` is false.
cudaError_t LaunchGemm(const Plan& plan, const GemmKernelArgs& args, void* workspace,
                       cudaStream_t stream, bool cooperative = true);

// Resident blocks per SM of the GEMM kernels on `device` (the least over the configurations).
cudaError_t KernelOccupancy(int device, int* blocks_per_sm);

}  // namespace streamk::kernels
