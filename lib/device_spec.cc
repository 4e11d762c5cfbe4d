// Device presets and the local-device query (see device_spec.h).
#include "streamk/device_spec.h"

#include <string>

#include <cuda_runtime.h>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "launch.h"

namespace streamk {
namespace {

// Resident blocks per SM of the 128x128x32 kernel (256 threads at 128 registers, 64 KiB of
// shared memory): two on A100 and Hopper. QueryLocalDevice() asks the CUDA runtime instead.
constexpr int kPresetOccupancy = 2;

// Cost constants, microseconds, for the 128x128x32 mma.sync kernel with fp16/bf16 inputs.
// H200: fitted 2026-11-21 to streamk-bench runs of bench/shapes/calibration.txt and the waveq and
// paper sets (docs/performance.md). Data-parallel: 132 tiles of 128 iterations (one block per SM)
// take 63.8 us, 264 (two per SM) 104.8 us, 144 tiles of 32 iterations 33.1 us; so iter_us =
// 0.45, iter_shared_us = 0.77 with block_us + unit_us + epilogue_us = 6 us per tile. Stream-K
// plans of 132-264 blocks with 2-3 peers per tile run 13-17 us over their iterations whatever K
// is: streamk_us + 2 * (partial_us + peer_us) + unit_us per extra slice. H100: the H200's compute
// constants (same SMs and clocks), epilogue scaled by the bandwidth ratio 4.8 / 3.35. A100: not
// measured; iterations scaled by the mma rate (312 vs ~400 TFLOP/s achievable, 108 vs 132 SMs),
// bandwidth terms by 4.8 / 2.0.
constexpr CostModel kH200Cost{/*block_us=*/2.0, /*unit_us=*/3.0, /*streamk_us=*/6.0,
                              /*partial_us=*/2.0, /*iter_us=*/0.45, /*iter_shared_us=*/0.77,
                              /*peer_us=*/2.0, /*epilogue_us=*/1.0};
constexpr CostModel kH100Cost{/*block_us=*/2.0, /*unit_us=*/3.0, /*streamk_us=*/6.0,
                              /*partial_us=*/2.0, /*iter_us=*/0.45, /*iter_shared_us=*/0.77,
                              /*peer_us=*/2.0, /*epilogue_us=*/1.4};
constexpr CostModel kA100Cost{/*block_us=*/2.0, /*unit_us=*/4.0, /*streamk_us=*/8.0,
                              /*partial_us=*/4.0, /*iter_us=*/0.53, /*iter_shared_us=*/0.90,
                              /*peer_us=*/4.0, /*epilogue_us=*/2.4};

}  // namespace

DeviceSpec A100Spec() { return {"A100-SXM4", 108, kPresetOccupancy, 40 << 20, kA100Cost}; }
DeviceSpec H100Spec() { return {"H100-SXM5", 132, kPresetOccupancy, 50 << 20, kH100Cost}; }
DeviceSpec H200Spec() { return {"H200", 132, kPresetOccupancy, 60 << 20, kH200Cost}; }

absl::StatusOr<DeviceSpec> DeviceSpecByName(std::string_view name) {
  const std::string lower = absl::AsciiStrToLower(std::string(name));
  if (lower == "a100") return A100Spec();
  if (lower == "h100") return H100Spec();
  if (lower == "h200") return H200Spec();
  return absl::NotFoundError(
      absl::StrCat("device '", std::string(name), "': unknown; the presets are a100, h100 and h200"));
}

absl::StatusOr<DeviceSpec> QueryLocalDevice(int device_ordinal) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    cudaGetLastError();  // clear the sticky "no device" error for later callers
    return absl::FailedPreconditionError(absl::StrCat(
        "no CUDA device: cudaGetDeviceCount returned ",
        err != cudaSuccess ? cudaGetErrorName(err) : "0 devices"));
  }
  if (device_ordinal < 0) {
    err = cudaGetDevice(&device_ordinal);
    if (err != cudaSuccess)
      return absl::FailedPreconditionError(
          absl::StrCat("cudaGetDevice failed: ", cudaGetErrorName(err)));
  }
  if (device_ordinal >= count)
    return absl::InvalidArgumentError(absl::StrCat("device ordinal ", device_ordinal,
                                                   ": only ", count, " CUDA devices"));
  cudaDeviceProp prop;
  err = cudaGetDeviceProperties(&prop, device_ordinal);
  if (err != cudaSuccess)
    return absl::FailedPreconditionError(
        absl::StrCat("cudaGetDeviceProperties failed: ", cudaGetErrorName(err)));

  DeviceSpec spec = prop.major >= 9 ? H200Spec() : A100Spec();
  spec.name = prop.name;
  spec.sms = prop.multiProcessorCount;
  spec.l2_bytes = prop.l2CacheSize;
  spec.queried = true;
  int occupancy = 0;
  err = kernels::KernelOccupancy(device_ordinal, &occupancy);
  if (err != cudaSuccess)
    return absl::FailedPreconditionError(
        absl::StrCat("kernel occupancy query failed on ", prop.name, ": ", cudaGetErrorName(err),
                     " (is the library built for compute capability ", prop.major, ".",
                     prop.minor, "?)"));
  if (occupancy < 1)
    return absl::FailedPreconditionError(absl::StrCat(
        "the GEMM kernel fits 0 blocks per SM on ", prop.name,
        " (shared memory or registers too small for its configuration)"));
  spec.occupancy = occupancy;
  return spec;
}

}  // namespace streamk
