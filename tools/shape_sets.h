// Shape lists for streamk-bench: parsing a shapes file, and the built-in sets
//   paper  log-uniform M, N, K in [128, 8192], multiples of 8 (the Stream-K paper's distribution)
//   waveq  tile counts just past whole waves of the GPU's SMs (the last wave nearly empty)
//   llm    transformer projections: few tokens (small M) times large N and K
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "streamk/streamk.h"

namespace streamk::tools {

struct BenchShape {
  std::string set;   // "paper", "waveq", "llm", "file", "cli"
  std::string name;  // optional label
  int64_t m = 0, n = 0, k = 0;
};

// "MxNxK" -> shape.
absl::StatusOr<BenchShape> ParseShape(const std::string& text);

// One shape per line: "M N K" or "NAME M N K"; '#' starts a comment; blank lines are skipped.
// Errors name the file and the line number.
absl::StatusOr<std::vector<BenchShape>> ParseShapesFile(const std::string& path,
                                                        const std::string& contents);

// streamk-bench's --layout "xy" (BLAS-style op(A) op(B), D column-major): x = 't' stores A
// row-major m x k (op(A) = A^T of a column-major k x m), y = 't' stores B row-major k x n.
// nullopt for anything but tn, nn, nt, tt.
struct BenchLayout {
  bool a_row = true, b_row = false;
};
std::optional<BenchLayout> ParseBenchLayout(const std::string& text);

// The GemmArgs streamk-bench runs shape `s` with: packed operands, leading dimensions rounded up
// to 8 elements (packed: exactly the rows' length, as a contiguous tensor stores them), D
// column-major. No pointers: the caller sets a, b and d.
GemmArgs BenchGemmArgs(const BenchShape& s, DType in, DType out, BenchLayout layout, int batch,
                       bool packed = false);

// Every value given to flag `name` on the command line, in order, each split at commas:
// "--shape=AxBxC --shape DxExF,GxHxI" gives three. (An Abseil list flag keeps only its last
// occurrence.) Stops at "--".
std::vector<std::string> RepeatedFlagValues(int argc, char** argv, const std::string& name);

// `count` shapes with M, N, K log-uniform in [128, 8192] (the Stream-K paper's distribution),
// drawn from `seed`, each rounded down to a multiple of `align` (8: the set as published; 1: any
// size, K-major rows then start at any offset).
std::vector<BenchShape> PaperSet(int count, uint64_t seed, int align = 8);
// Shapes whose count of tile_m x tile_n tiles (m x n) is a few tiles past 1..4 whole waves of
// `sms`.
std::vector<BenchShape> WaveQuantizationSet(int sms, int tile_m, int tile_n);
std::vector<BenchShape> LlmSet();

// The shapes streamk-bench --calibrate measures a GPU's constants on (set "calib"): 40 drawn
// log-uniform (M, N in [64, 8192], K in [256, 16384], multiples of 64, from a seed of their own so
// that the paper set's shapes stay unseen), then 8 with one side of 16-128 (decode rows) against
// 4096-14336 and K 4096-8192. Fixed: every GPU is calibrated on the same shapes.
std::vector<BenchShape> CalibrationSet();
// The mode words --calibrate times on each shape: data-parallel on every kernel configuration of
// `device` (and every tile Stream-K on its cluster one), and on the configurations the planner also
// splits or streams (the device's main, alt and small ones: KernelRole::kMain, kAlt, kSmall)
// split-K, every tile Stream-K and the partial wave's tiles Stream-K, each the planner's best of
// its kind, and split-K over 2 k-slices (turnstile) and 4 and 8 (separate reduction); on the
// others (kMid, kWide, kBroad) the best split-K, every tile Stream-K and the partial wave's.
std::vector<std::string> CalibrationModes(const DeviceSpec& device);

}  // namespace streamk::tools
