// Host entry to the device-side work-mapping probe (work_mapping.cu): for each work block, writes
// one row of MappingProbeRowInts(max_units) ints: role, role index, unit count, then per unit six
// ints (Stream-K: tile, k_begin, k_end, first peer, last peer, encoded fixup step; DP: tile, batch,
// tile row, tile column, 0, 0). Tests compare it with the same mapping evaluated on the host.
#pragma once

#include <cuda_runtime.h>

#include "streamk/plan.h"

namespace streamk::kernels {

constexpr int MappingProbeRowInts(int max_units) { return 3 + 6 * max_units; }

cudaError_t ProbeMappingOnDevice(const Plan& plan, int* device_out, int max_units,
                                 cudaStream_t stream);

}  // namespace streamk::kernels
