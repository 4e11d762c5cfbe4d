// streamk-bench --moe: grouped GEMMs of mixture-of-experts layers (streamk::grouped_gemm) against
// a loop of per-expert cuBLAS GEMMs and cuBLAS's grouped call (cublasGemmGroupedBatchedEx), in
// GPU time (graph replay), each result checked against the per-expert cuBLAS result first.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "streamk/streamk.h"

namespace streamk::tools {

// One projection of an MoE layer: `experts` weight matrices of n x k (stored [experts, n, k],
// as torch.nn.Linear keeps them), each token routed to `topk` of them.
struct MoeProjection {
  std::string name;
  int experts = 0, topk = 0;
  int64_t n = 0, k = 0;
};

// Mixtral 8x7B (8 experts, top 2; up/gate 14336 x 4096 and down 4096 x 14336), DeepSeek-V3 (256
// routed experts, top 8; up/gate 2 x 2048 x 7168 and down 7168 x 2048) and Qwen3-235B-A22B (128
// experts, top 8; up/gate 2 x 1536 x 4096 and down 4096 x 1536).
std::vector<MoeProjection> MoeProjections();

// Rows per expert for `tokens` tokens, each routed to `topk` distinct experts drawn with weights
// 1 / (r + 1)^skew over a random ranking r of the experts (skew 0: uniform; 1.2: Zipf-like, a
// few experts take most tokens), from `seed`.
std::vector<int64_t> RouteTokens(int experts, int topk, int64_t tokens, double skew, uint64_t seed);

// The grouped GEMM of one routing (`ends`: each expert's end row, the tokens sorted by expert):
// tokens (rows x k, row-major) times each expert's weights ([experts, n, k]) into out (rows x n,
// row-major). `ends` must outlive the arguments.
GroupedGemmArgs MoeGroupedArgs(const MoeProjection& proj, const std::vector<int64_t>& ends,
                               DType dtype, const void* tokens, const void* weights, void* out);

struct MoeBenchFlags {
  std::vector<std::string> projections;  // names (empty: all)
  std::vector<int64_t> tokens{64, 512, 4096, 16384};
  std::vector<double> skews{0.0, 1.2};
  DType dtype = DType::kF16;
  int reps = 11;
  uint64_t seed = 1;
  std::string csv;  // every figure, one row per case
};

// Runs the benchmark, printing a table; non-zero exit status on a failure (a wrong result
// included).
int RunMoeBench(const MoeBenchFlags& flags);

}  // namespace streamk::tools
