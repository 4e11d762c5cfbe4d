// The grouped GEMM's group table (LaunchGroupTable, launch.h): one block scans the groups' tile
// rows and writes each group's entries (mapping::WriteGroupRows), then gives the entries past the
// last group's the rows past its end (mapping::TailRow). The group ends come by value (known to the
// host) or from device memory (written by an earlier kernel, such as MoE routing), clamped to
// max_rows.
#include <cuda_runtime.h>

#include "grid_dependency.cuh"
#include "launch.h"
#include "work_mapping.h"

namespace streamk::kernels {
namespace {

constexpr int kTableThreads = 1024;  // one group a thread: kMaxTableGroups
static_assert(kMaxTableGroups == kTableThreads, "one group a thread");

// Launched programmatically, it may start before the kernel before it on the stream ends (which
// may still read the workspace's last table) and lets the GEMM after it start at once; that
// GEMM's blocks wait for it to end before they read the table (grid_dependency.cuh).
__global__ void __launch_bounds__(kTableThreads)
    GroupTableKernel(const __grid_constant__ GroupEnds ends, const int* device_ends, int groups,
                     int tile_m, int max_rows, int entries, mapping::GroupRow* table) {
  LaunchDependents();
  // The previous kernel on the stream may still read the table, or write the device ends.
  GridDependencyWait();
  __shared__ int warp_sums[kTableThreads / 32];
  __shared__ int last_end;  // the last group's end row
  const int g = static_cast<int>(threadIdx.x), lane = g % 32, warp = g / 32;
  auto end_of = [&](int i) {
    const int e = device_ends != nullptr ? device_ends[i] : ends.end[i];
    return e < 0 ? 0 : e < max_rows ? e : max_rows;
  };
  const int begin = g == 0 ? 0 : g <= groups ? end_of(g - 1) : 0;
  const int end = g < groups && end_of(g) > begin ? end_of(g) : begin;
  const int rows = mapping::GroupTileRows(end - begin, tile_m);
  // Inclusive scan of the tile rows: within each warp, then over the warps' sums.
  int sum = rows;
  for (int d = 1; d < 32; d *= 2) {
    const int v = __shfl_up_sync(0xffffffffu, sum, d);
    if (lane >= d) sum += v;
  }
  if (lane == 31) warp_sums[warp] = sum;
  if (g == groups - 1) last_end = end;
  __syncthreads();
  if (warp == 0) {
    int w = warp_sums[lane];
    for (int d = 1; d < 32; d *= 2) {
      const int v = __shfl_up_sync(0xffffffffu, w, d);
      if (lane >= d) w += v;
    }
    warp_sums[lane] = w;
  }
  __syncthreads();
  const int first = sum - rows + (warp > 0 ? warp_sums[warp - 1] : 0);
  const int total = warp_sums[kTableThreads / 32 - 1];
  if (g < groups && first + rows <= entries)
    mapping::WriteGroupRows(table, g, first, begin, end, tile_m);
  for (int e = total + g; e < entries; e += kTableThreads)
    table[e] = mapping::TailRow(e - total, last_end, max_rows, tile_m);
}

}  // namespace

cudaError_t LaunchGroupTable(const GroupEnds* ends, const int* device_ends, int groups, int tile_m,
                             int max_rows, int entries, mapping::GroupRow* table, bool programmatic,
                             cudaStream_t stream) {
  if (groups < 1 || groups > kMaxTableGroups || tile_m < 1 || entries < 0 ||
      (ends == nullptr) == (device_ends == nullptr))
    return cudaErrorInvalidValue;
  static const GroupEnds kNone{};  // the by-value parameter when the ends are on the device
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(kTableThreads);
  config.stream = stream;
  cudaLaunchAttribute attr[1];
  if (programmatic) {
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    config.attrs = attr;
    config.numAttrs = 1;
  }
  return cudaLaunchKernelEx(&config, GroupTableKernel, ends != nullptr ? *ends : kNone, device_ends,
                            groups, tile_m, max_rows, entries, table);
}

}  // namespace streamk::kernels
