// The work mapping evaluated on the GPU must equal the same mapping evaluated on the host, for
// every work block of a spread of plans. Skips without a GPU.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <vector>

#include "fixup_protocol.h"
#include "gpu_test_util.h"
#include "streamk/planner.h"
#include "work_mapping.h"
#include "work_mapping_probe.h"

namespace streamk {
namespace {

std::vector<int> HostProbe(const Plan& p, int max_units) {
  const int row_ints = kernels::MappingProbeRowInts(max_units);
  std::vector<int> out(static_cast<size_t>(p.work_blocks) * row_ints, 0);
  for (int w = 0; w < p.work_blocks; ++w)
    kernels::ProbeRow(p, w, max_units, out.data() + static_cast<size_t>(w) * row_ints);
  return out;
}

TEST(WorkMappingDevice, DeviceAgreesWithHost) {
  STREAMK_SKIP_WITHOUT_GPU();
  constexpr int kMaxUnits = 8;
  const int shapes[][3] = {{1536, 1536, 4096}, {128, 128, 131072}, {4000, 333, 5000},
                           {8192, 8192, 8192}, {1, 1, 1}};
  for (auto& s : shapes) {
    for (Mode mode : {Mode::kAuto, Mode::kStreamK, Mode::kSplitK, Mode::kDataParallel}) {
      for (Reduction red : {Reduction::kDeterministic, Reduction::kAtomic, Reduction::kSeparate}) {
        Problem pr;
        pr.m = s[0], pr.n = s[1], pr.k = s[2];
        PlanOptions o;
        o.mode = mode;
        if (mode != Mode::kDataParallel) o.reduction = red;
        absl::StatusOr<Plan> p = MakePlan(pr, H200Spec(), o);
        ASSERT_TRUE(p.ok()) << p.status();
        const std::vector<int> want = HostProbe(*p, kMaxUnits);
        int* dev = nullptr;
        ASSERT_EQ(cudaMalloc(&dev, want.size() * sizeof(int) + 4), cudaSuccess);
        ASSERT_EQ(cudaMemset(dev, 0, want.size() * sizeof(int) + 4), cudaSuccess);
        ASSERT_EQ(kernels::ProbeMappingOnDevice(*p, dev, kMaxUnits, 0), cudaSuccess);
        std::vector<int> got(want.size());
        ASSERT_EQ(cudaMemcpy(got.data(), dev, got.size() * sizeof(int), cudaMemcpyDeviceToHost),
                  cudaSuccess);
        cudaFree(dev);
        ASSERT_EQ(got, want) << "mode " << ModeName(mode) << " " << s[0] << "x" << s[1] << "x"
                             << s[2];
      }
    }
  }
}

}  // namespace
}  // namespace streamk
