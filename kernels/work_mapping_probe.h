// Host entry to the device-side work-mapping probe (work_mapping.cu): for each work block, writes
// one row of MappingProbeRowInts(max_units) ints: role, role index, unit count, then per unit six
// ints (Stream-K: tile, k_begin, k_end, first peer, last peer, encoded fixup step; DP: tile, batch,
// tile row, tile column, 0, 0). Tests compare it with the same mapping evaluated on the host.
#pragma once

#include <cuda_runtime.h>

#include "fixup_protocol.h"
#include "streamk/plan.h"
#include "work_mapping.h"

namespace streamk::kernels {

constexpr int MappingProbeRowInts(int max_units) { return 3 + 6 * max_units; }

// Writes work block `work`'s row (MappingProbeRowInts(max_units) ints, zeroed by the caller).
// Compiled for the host and for the device from this one definition: the test compares the two.
STREAMK_HD void ProbeRow(const Plan& p, int work, int max_units, int* row) {
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
    }
  }
  row[2] = units;
}

cudaError_t ProbeMappingOnDevice(const Plan& plan, int* device_out, int max_units,
                                 cudaStream_t stream);

}  // namespace streamk::kernels
