// The kernel flags streamk-plan, streamk-bench and streamk-trace share (decomposition_flags.h),
// defined once. The file name starts with streamk_ so that each tool's --help lists them
// (IsToolFlagFile).
#include <string>

#include "absl/flags/flag.h"
#include "decomposition_flags.h"

ABSL_FLAG(std::string, pingpong, "auto",
          "the TMA kernel's 128x128 ping-pong variant: auto (where the planner prices it) | on "
          "(wherever it can run) | off");
ABSL_FLAG(bool, narrow_wgmma, true,
          "narrow wgmmas for tiles with few of D's columns (--nonarrow_wgmma: the whole width)");
ABSL_FLAG(std::string, mainloop, "auto",
          "the kernel's mainloop: auto (the best the GPU runs) | sm80 | sm90-cpasync | sm90-tma "
          "(streamk-plan with a --device preset: the preset's own, h200-cpasync for sm90-cpasync)");
ABSL_FLAG(std::string, store_d, "auto",
          "how the TMA kernel's epilogue writes D: auto (the planner's pick) | tma | rows | "
          "rows-warp | threads");

namespace streamk::tools {

KernelFlags KernelFlagsFromCommandLine() {
  return KernelFlags{absl::GetFlag(FLAGS_pingpong), absl::GetFlag(FLAGS_narrow_wgmma),
                     absl::GetFlag(FLAGS_store_d), absl::GetFlag(FLAGS_mainloop)};
}

}  // namespace streamk::tools
