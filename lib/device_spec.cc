// Device presets and the local-device query (see device_spec.h).
#include "streamk/device_spec.h"

#include <string>

#include <cuda_runtime.h>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace streamk {
namespace {

// Resident blocks per SM of the 128x128x32 kernel (256 threads, 64 KiB of shared memory, at most
// 128 registers per thread): two fit on A100 and Hopper. QueryLocalDevice() asks the CUDA runtime
// for the real number instead.
constexpr int kPresetOccupancy = 2;

// Cost constants, microseconds, for the 128x128x32 mma.sync kernel. They are estimates from rates
// and bandwidths, not measurements: iter_us = 2*128*128*32 flop at the expected per-SM rate of the
// mma.sync mainloop (~400 TFLOP/s over 132 SMs on Hopper, ~250 TFLOP/s over 108 SMs on A100);
// partial_us / peer_us = a 64 KiB fp32 tile moved at one SM's share of L2 bandwidth; epilogue_us =
// a 32 KiB fp16 tile written at one SM's share of DRAM bandwidth; block_us = launch and pipeline
// fill. docs/performance.md records how well they predict measured times.
constexpr CostModel kHopperCost{/*block_us=*/4.0, /*partial_us=*/1.0, /*iter_us=*/0.35,
                                /*peer_us=*/1.0, /*epilogue_us=*/0.5};
constexpr CostModel kAmpereCost{/*block_us=*/4.0, /*partial_us=*/2.0, /*iter_us=*/0.45,
                                /*peer_us=*/2.0, /*epilogue_us=*/1.0};

}  // namespace

DeviceSpec A100Spec() { return {"A100-SXM4", 108, kPresetOccupancy, 40 << 20, kAmpereCost}; }
DeviceSpec H100Spec() { return {"H100-SXM5", 132, kPresetOccupancy, 50 << 20, kHopperCost}; }
DeviceSpec H200Spec() { return {"H200", 132, kPresetOccupancy, 60 << 20, kHopperCost}; }

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
  // Occupancy stays the preset's until the kernel exists to be asked (cudaOccupancy...).
  return spec;
}

}  // namespace streamk
