// Timing GPU work as DESIGN section 7 says: CUDA events around `inner` back-to-back launches,
// after `warmup` launches, repeated `reps` times; the median per-launch time is the result.
// Each run is `launch(i)`, which enqueues one launch on `stream` (i counts launches, e.g. to
// rotate input buffers).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "absl/status/statusor.h"
#include "cuda_status.h"

namespace streamk::tools {

struct Timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;  // per launch
};

// Times several runs against each other: after `warmup` launches of each, every repetition times
// `inner` launches of each run, in an order shuffled anew each repetition (fixed seed), so that
// clock and power drift (a run that follows a hotter one, such as cuBLAS, starts at lower clocks)
// falls on all runs alike instead of on whichever always comes first or follows the hottest.
inline absl::StatusOr<std::vector<Timing>> TimeInterleaved(
    const std::vector<std::function<absl::Status(int)>>& runs, cudaStream_t stream,
    int warmup = 5, int reps = 15, int inner = 10) {
  cudaEvent_t start, stop;
  STREAMK_CUDA_RETURN_IF_ERROR(cudaEventCreate(&start));
  STREAMK_CUDA_RETURN_IF_ERROR(cudaEventCreate(&stop));
  std::vector<std::vector<double>> per_launch(runs.size());
  std::vector<int> count(runs.size(), 0);
  absl::Status s;
  for (size_t r = 0; r < runs.size() && s.ok(); ++r)
    for (int i = 0; i < warmup && s.ok(); ++i) s = runs[r](count[r]++);
  std::vector<size_t> order(runs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::mt19937 rng(12345);
  for (int rep = 0; rep < reps && s.ok(); ++rep) {
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t j = 0; j < runs.size() && s.ok(); ++j) {
      const size_t r = order[j];
      s = streamk::CudaStatus(cudaEventRecord(start, stream), "cudaEventRecord", __FILE__,
                              __LINE__);
      for (int i = 0; i < inner && s.ok(); ++i) s = runs[r](count[r]++);
      if (s.ok())
        s = streamk::CudaStatus(cudaEventRecord(stop, stream), "cudaEventRecord", __FILE__,
                                __LINE__);
      if (s.ok())
        s = streamk::CudaStatus(cudaEventSynchronize(stop), "kernel", __FILE__, __LINE__);
      float ms = 0;
      if (s.ok()) {
        cudaEventElapsedTime(&ms, start, stop);
        per_launch[r].push_back(ms / inner);
      }
    }
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  if (!s.ok()) return s;
  std::vector<Timing> out;
  for (std::vector<double>& v : per_launch) {
    std::sort(v.begin(), v.end());
    out.push_back(Timing{v[v.size() / 2], v.front(), v.back()});
  }
  return out;
}

// Launches captured from a stream into an executable CUDA graph: `count` calls of
// `launch(first + i)`, replayed by Launch() with no host work between them.
class CapturedLaunches {
 public:
  static absl::StatusOr<std::unique_ptr<CapturedLaunches>> Capture(
      const std::function<absl::Status(int)>& launch, int first, int count, cudaStream_t stream) {
    std::unique_ptr<CapturedLaunches> out(new CapturedLaunches);
    STREAMK_CUDA_RETURN_IF_ERROR(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    absl::Status captured;
    for (int i = 0; i < count && captured.ok(); ++i) captured = launch(first + i);
    const cudaError_t end = cudaStreamEndCapture(stream, &out->graph_);
    if (!captured.ok()) return captured;
    STREAMK_CUDA_RETURN_IF_ERROR(end);
    STREAMK_CUDA_RETURN_IF_ERROR(cudaGraphInstantiate(&out->exec_, out->graph_, 0));
    return out;
  }
  absl::Status Launch(cudaStream_t stream) const {
    return streamk::CudaStatus(cudaGraphLaunch(exec_, stream), "cudaGraphLaunch", __FILE__,
                               __LINE__);
  }
  ~CapturedLaunches() {
    if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
    if (graph_ != nullptr) cudaGraphDestroy(graph_);
  }
  CapturedLaunches(const CapturedLaunches&) = delete;
  CapturedLaunches& operator=(const CapturedLaunches&) = delete;

 private:
  CapturedLaunches() = default;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

// Per-launch time of `launch(stream)` replayed from a CUDA graph of `inner` launches (no host
// work between them): the median of `reps` timed replays after one warm-up replay. The launches
// are made once on a stream of its own before capture, so that workspaces exist when captured.
inline absl::StatusOr<double> TimeGraph(const std::function<absl::Status(cudaStream_t)>& launch,
                                        int inner = 5, int reps = 9) {
  cudaStream_t stream;
  STREAMK_CUDA_RETURN_IF_ERROR(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaEvent_t start = nullptr, stop = nullptr;
  auto run = [&]() -> absl::StatusOr<double> {
    for (int i = 0; i < inner; ++i) {
      if (absl::Status s = launch(stream); !s.ok()) return s;
    }
    STREAMK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    absl::StatusOr<std::unique_ptr<CapturedLaunches>> graph = CapturedLaunches::Capture(
        [&](int) { return launch(stream); }, 0, inner, stream);
    if (!graph.ok()) return graph.status();
    STREAMK_CUDA_RETURN_IF_ERROR(cudaEventCreate(&start));
    STREAMK_CUDA_RETURN_IF_ERROR(cudaEventCreate(&stop));
    if (absl::Status s = (*graph)->Launch(stream); !s.ok()) return s;
    std::vector<double> us;
    for (int r = 0; r < reps; ++r) {
      STREAMK_CUDA_RETURN_IF_ERROR(cudaEventRecord(start, stream));
      if (absl::Status s = (*graph)->Launch(stream); !s.ok()) return s;
      STREAMK_CUDA_RETURN_IF_ERROR(cudaEventRecord(stop, stream));
      STREAMK_CUDA_RETURN_IF_ERROR(cudaEventSynchronize(stop));
      float ms = 0;
      STREAMK_CUDA_RETURN_IF_ERROR(cudaEventElapsedTime(&ms, start, stop));
      us.push_back(ms * 1000.0 / inner);
    }
    std::sort(us.begin(), us.end());
    return us[us.size() / 2];
  };
  absl::StatusOr<double> result = run();
  if (start != nullptr) cudaEventDestroy(start);
  if (stop != nullptr) cudaEventDestroy(stop);
  cudaStreamSynchronize(stream);
  cudaStreamDestroy(stream);
  return result;
}

}  // namespace streamk::tools
