// The work mapping compiled for the device: a probe kernel that evaluates the mapping for every
// work block on the GPU, so a test can check that host and device agree bit for bit.
#include "work_mapping_probe.h"

namespace streamk::kernels {
namespace {

__global__ void MappingProbeKernel(Plan p, int* out, int max_units) {
  const int work = blockIdx.x * blockDim.x + threadIdx.x;
  if (work >= p.work_blocks) return;
  ProbeRow(p, work, max_units, out + static_cast<int64_t>(work) * MappingProbeRowInts(max_units));
}

}  // namespace

cudaError_t ProbeMappingOnDevice(const Plan& plan, int* device_out, int max_units,
                                 cudaStream_t stream) {
  if (plan.work_blocks == 0) return cudaSuccess;
  const int threads = 128;
  const int blocks = (plan.work_blocks + threads - 1) / threads;
  MappingProbeKernel<<<blocks, threads, 0, stream>>>(plan, device_out, max_units);
  return cudaGetLastError();
}

}  // namespace streamk::kernels
