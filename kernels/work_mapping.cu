// The work mapping compiled for the device: a probe kernel that evaluates the mapping for every
// work block on the GPU, so a test can check that host and device agree bit for bit.
#include "work_mapping_probe.h"

#include "fixup_protocol.h"
#include "work_mapping.h"

namespace streamk::kernels {
namespace {

__global__ void MappingProbeKernel(Plan p, int* out, int max_units) {
  const int work = blockIdx.x * blockDim.x + threadIdx.x;
  if (work >= p.work_blocks) return;
  int* row = out + static_cast<int64_t>(work) * MappingProbeRowInts(max_units);
  const mapping::BlockRole role = mapping::RoleOf(p, work);
  row[0] = static_cast<int>(role.role);
  row[1] = role.index;
  int units = 0;
  if (role.role == mapping::Role::kStreamK) {
    for (mapping::SkUnit u = mapping::SkFirstUnit(p, role.index); u.valid() && units < max_units;
         u = mapping::SkNextUnit(p, u), ++units) {
      const fixup::Step s = fixup::SkStep(p, u);
      int* e = row + 3 + units * 6;
      e[0] = u.tile, e[1] = u.k_begin, e[2] = u.k_end;
      e[3] = u.peers.first, e[4] = u.peers.last;
      e[5] = static_cast<int>(s.wait) * 1000 + static_cast<int>(s.publish) * 100 +
             static_cast<int>(s.signal) * 10 + (s.epilogue ? 1 : 0);
    }
  } else if (role.role == mapping::Role::kDataParallel) {
    const mapping::DpTiles d = mapping::DpBlockTiles(p, role.index);
    for (int i = 0; i < d.count && units < max_units; ++i, ++units) {
      const mapping::TileCoord c = mapping::TileCoordOf(p, d.first_tile + i * d.stride);
      int* e = row + 3 + units * 6;
      e[0] = d.first_tile + i * d.stride, e[1] = c.batch, e[2] = c.tm, e[3] = c.tn;
      e[4] = e[5] = 0;
    }
  }
  row[2] = units;
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
