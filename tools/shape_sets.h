// Shape lists for streamk-bench: parsing a shapes file, and the built-in sets
//   paper  log-uniform M, N, K in [128, 8192], multiples of 8 (the Stream-K paper's distribution)
//   waveq  tile counts just past whole waves of the GPU's SMs (the last wave nearly empty)
//   llm    transformer projections: few tokens (small M) times large N and K
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

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

// Every value given to flag `name` on the command line, in order, each split at commas:
// "--shape=AxBxC --shape DxExF,GxHxI" gives three. (An Abseil list flag keeps only its last
// occurrence.) Stops at "--".
std::vector<std::string> RepeatedFlagValues(int argc, char** argv, const std::string& name);

std::vector<BenchShape> PaperSet(int count, uint64_t seed);
// Shapes whose count of tile_m x tile_n tiles (m x n) is a few tiles past 1..4 whole waves of
// `sms`.
std::vector<BenchShape> WaveQuantizationSet(int sms, int tile_m, int tile_n);
std::vector<BenchShape> LlmSet();

}  // namespace streamk::tools
