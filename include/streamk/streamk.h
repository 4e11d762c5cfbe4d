// streamk: GEMM on NVIDIA tensor cores with a Stream-K work decomposition.
//
//   D[b] = alpha * A[b] * B[b] + beta * C[b]   for b in [0, batch)
//
// with A (m x k) and B (k x n) in fp16 or bf16, C and D (m x n) in fp16, bf16 or fp32, fp32
// accumulation, each matrix row- or column-major (C and D share one layout).
//
//   streamk::GemmArgs args;
//   args.m = 4096, args.n = 4096, args.k = 4096;
//   args.a = dA, args.lda = 4096;  // row-major A: lda >= k
//   args.b = dB, args.ldb = 4096;  // column-major B: ldb >= k
//   args.d = dD, args.ldd = 4096;  // row-major D: ldd >= n
//   absl::Status s = streamk::gemm(args, stream);  // auto: the planner decides
//
//   streamk::Options split;                        // or force a decomposition
//   split.mode = streamk::Mode::kSplitK, split.splits = 4;
//   s = streamk::gemm(args, stream, split);
//
// gemm() validates everything before touching memory (InvalidArgument naming the argument and the
// rule), plans (see planner.h; PlanGemm() returns the plan it would use), and launches one
// persistent kernel on `stream` without synchronizing the host. Without a caller-owned workspace,
// the library keeps one per device and stream, grown on demand (stream-ordered allocation).
// With one (GetWorkspaceSize), zero it once before first use: every launch leaves its flags zero
// again, so it can be reused, by other shapes too, and a captured CUDA graph can be replayed with
// no memset. (One exception: a plan with more than 262,144 Stream-K tiles, which only forced
// streamk/splitk modes on enormous outputs make, needs the workspace zeroed again after another
// plan used it.)
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "streamk/device_spec.h"
#include "streamk/plan.h"
#include "streamk/planner.h"
#include "streamk/trace.h"
#include "streamk/types.h"
#include "streamk/version.h"

namespace streamk {

struct GemmArgs {
  int64_t m = 0, n = 0, k = 0;
  int64_t batch = 1;
  DType input = DType::kF16;   // A and B: fp16 or bf16
  DType output = DType::kF16;  // C and D: fp16, bf16 or fp32

  const void* a = nullptr;  // m x k
  Layout a_layout = Layout::kRowMajor;
  int64_t lda = 0;           // >= k (row-major) or >= m (column-major), elements
  int64_t stride_a = 0;      // elements between batch entries (0: all entries share A)

  const void* b = nullptr;  // k x n
  Layout b_layout = Layout::kColMajor;
  int64_t ldb = 0;  // >= n (row-major) or >= k (column-major)
  int64_t stride_b = 0;

  const void* c = nullptr;  // m x n; read only when beta != 0; may equal d
  int64_t ldc = 0;
  int64_t stride_c = 0;

  void* d = nullptr;  // m x n
  int64_t ldd = 0;    // >= n (row-major) or >= m (column-major)
  int64_t stride_d = 0;  // >= the extent of one D when batch > 1 (entries must not overlap)
  Layout cd_layout = Layout::kRowMajor;  // C and D

  float alpha = 1.0f, beta = 0.0f;
  // Pointers need only their elements' alignment (2 bytes, 4 for fp32 C and D), and leading
  // dimensions and batch strides may be any count of elements. Where an A or B is not 16-byte
  // aligned (address, leading dimension or batch stride), gemm() first copies it into the
  // workspace as 128-byte-aligned K-major rows (Plan::repack_a, a_unaligned; GetWorkspaceSize
  // counts the copy); where C or D is not, the epilogue reads and writes them element by element.
};

struct Options {
  Mode mode = Mode::kAuto;
  int splits = 0;  // kSplitK: k-slices per tile (0: the planner picks)
  int blocks = 0;  // kStreamK: Stream-K blocks (0: the planner picks)
  // kStreamK: the tiles Stream-K blocks compute, the rest data-parallel (0: all; kPartialWaveTiles:
  // the partial wave's). See PlanOptions::sk_tiles.
  int sk_tiles = 0;
  std::optional<Reduction> reduction;  // unset: deterministic, the planner picks which
  // kSeparate: reduction blocks per Stream-K tile (0: the planner picks). See PlanOptions.
  int reduction_slices = 0;
  int avail_sms = 0;                   // SMs to balance over (0: all)
  // The kernel configuration to run: kNoTile for the planner's pick, else one of the device's
  // (DeviceSpec::kernels: on an H200 128x256x64, 128x128x64, 128x192x64, 192x192x64,
  // 64x128x64, 128x320x64 or 256x256x64 on 2-SM clusters). The planner picks among all of them
  // (the third, fourth and sixth for data-parallel plans only, docs/planner.md) and clusters for
  // misaligned rows.
  TileShape tile = kNoTile;
  // A or B rows (K-major, or k-rows of an operand stored along M or N) that start at odd
  // multiples of 16 bytes (lda, ldb, a batch stride or the pointer not a multiple of 32 bytes),
  // or an A or B stored along M or N with fewer than 64
  // elements there (a column-major A of 1-63 rows, a row-major B of 1-63 columns: a decode
  // step's tokens stored token-contiguous, which the kernel loads as many short rows): copy the
  // operand to 128-byte-aligned K-major rows in the workspace before the kernel. Unset: in auto
  // mode, the operands whose copies the planner predicts pay (a forced mode runs on the rows as
  // they are); kAll: every such operand; kA or kB: that one (this call's A or B, whatever the
  // layouts); kNone: never. See PlanOptions::repack. An operand that is not 16-byte aligned is
  // copied whatever this says.
  std::optional<RepackOperands> repack;
  // Launch plans whose blocks wait on each other cooperatively (co-residency guaranteed by the
  // runtime). Off only to measure what that costs.
  bool cooperative = true;
  // On sm_90 and later, let the kernel start while the kernel before it on the stream finishes
  // (programmatic dependent launch): its blocks set up while that kernel's last blocks run, and
  // wait for it to end before they read or write any global memory, so the result is the same.
  // Off only to measure what it saves.
  bool programmatic_launch = true;
  // Record where the kernel's time goes (trace.h). events == nullptr: no trace.
  TraceBuffer trace;
  // Bytes of workspace (partial sums, flags, operand copies) a call may use; 0: no cap. Like
  // cuBLASLt's workspace preference: in auto mode a plan that needs more is not chosen (the
  // planner falls back to its data-parallel pick, which needs none beyond copies of operands the
  // kernel cannot load as they are); a forced mode or forced copies that need more are refused
  // with ResourceExhausted naming the cap.
  int64_t max_workspace_bytes = 0;
  // How the kernel's persistent blocks get their work (Schedule, Plan::schedule). Unset: the
  // planner's pick for a free GPU, whose blocks take their work from a counter (but not on 2-SM
  // clusters) where they wait on one another (Stream-K and split-K plans: such a launch needs no
  // co-residency, so beside kernels that hold some SMs it never waits for them, and needs no more
  // workspace) and where they run more than one tile each (data-parallel plans of several rounds,
  // unless priced faster static with ping-pong: a block that starts late leaves its tiles to the
  // others; the counter takes a 1 MiB workspace, which gemm() captured in a CUDA graph on a
  // stream whose library workspace cannot grow does without, running static). kDynamic: every plan
  // takes its work from a counter (each then needs a workspace), planned to run well with some SMs
  // held by other kernels (a collective, another stream), which may cost time on a free GPU.
  // kStatic: block b runs work blocks b, b + grid,
  // ...; plans with waits launch cooperatively.
  std::optional<Schedule> schedule;
  // The kernel's own choices, made by the planner and printed with the plan (Plan::pingpong,
  // narrow_wgmma, store_d); set them to measure or to rule one out. pingpong: the TMA kernel's
  // 128 x 128 ping-pong variant (unset: where the planner prices it; true: wherever it can run;
  // false: never). narrow_wgmma: false runs every tile's wgmmas the configuration's whole width.
  // store_d: how the epilogue writes D (unset: the planner's pick; a path the plan cannot take is
  // refused with InvalidArgument, see PlanOptions::store_d).
  std::optional<bool> pingpong;
  bool narrow_wgmma = true;
  std::optional<StoreD> store_d;
  // The kernel's mainloop (Plan::mainloop). Unset: the best the device runs (on Hopper with an
  // sm_90a build, wgmma fed by TMA); kSm80 (mma.sync, every GPU) or kSm90 (wgmma fed by cp.async)
  // to compare or test them. One the device cannot run is refused with InvalidArgument.
  std::optional<Mainloop> mainloop;
};

// Runs the GEMM on `stream` with a library-owned workspace.
absl::Status gemm(const GemmArgs& args, cudaStream_t stream = nullptr, const Options& options = {});

// Runs the GEMM with a caller-owned workspace of `workspace_bytes` bytes (at least
// GetWorkspaceSize(); zeroed once before its first use). Safe to capture in a CUDA graph.
absl::Status gemm(const GemmArgs& args, void* workspace, size_t workspace_bytes,
                  cudaStream_t stream = nullptr, const Options& options = {});

// Bytes of workspace gemm() needs for these arguments on the current device (0 for plans with no
// Stream-K blocks).
absl::StatusOr<size_t> GetWorkspaceSize(const GemmArgs& args, const Options& options = {});

// The plan gemm() would run on the current device (without `why`, from gemm()'s plan cache: a
// lookup for a shape planned before), or on `device`. With `why`, also what the planner weighed
// for these arguments and its prediction (planner.h; FormatPlan in plan_print.h prints them as
// streamk-plan does).
absl::StatusOr<Plan> PlanGemm(const GemmArgs& args, const Options& options = {},
                              PlanExplanation* why = nullptr);
absl::StatusOr<Plan> PlanGemm(const GemmArgs& args, const DeviceSpec& device,
                              const Options& options = {}, PlanExplanation* why = nullptr);

// Checks the arguments without any CUDA call: InvalidArgument naming the argument and the rule.
absl::Status ValidateGemmArgs(const GemmArgs& args, const Options& options = {});

// A grouped GEMM in the contiguous (mixture-of-experts) layout: `groups` GEMMs of the same n and
// k, group g multiplying its rows of A by its own k x n matrix B_g,
//   D[rows of g] = alpha * A[rows of g] * B_g + beta * C[rows of g],
// where the groups' rows are stacked in group order: group g owns rows [ends[g - 1], ends[g]) of
// A, C and D (ends[-1] = 0), as MoE routing sorts tokens by expert (torch._grouped_mm's `offs`).
// Groups of no rows are fine. One plan spreads every group's tiles over the SMs: data-parallel
// rounds, then Stream-K over the rest, tiles of different groups sharing a block's iterations.
struct GroupedGemmArgs {
  int64_t groups = 0;                   // 1 .. kMaxGroups (planner.h)
  const int64_t* group_ends = nullptr;  // host, `groups` entries, non-decreasing; the last: rows
  int64_t n = 0, k = 0;
  DType input = DType::kF16;   // A and B: fp16 or bf16
  DType output = DType::kF16;  // C and D: fp16, bf16 or fp32

  const void* a = nullptr;  // rows x k, row-major (the tokens)
  int64_t lda = 0;          // >= k
  // B_g = b + g * stride_b: k x n row-major (kRowMajor: weights stored [groups, k, n]) or
  // column-major (kColMajor: [groups, n, k], as torch.nn.Linear keeps its weights).
  const void* b = nullptr;
  Layout b_layout = Layout::kColMajor;
  int64_t ldb = 0;       // >= n (row-major) or >= k (column-major)
  int64_t stride_b = 0;  // elements between the groups' matrices (0: every group shares one)

  const void* c = nullptr;  // rows x n, row-major; read only when beta != 0; may equal d
  int64_t ldc = 0;
  void* d = nullptr;  // rows x n, row-major
  int64_t ldd = 0;    // >= n
  float alpha = 1.0f, beta = 0.0f;
  // The kernel reads A and B as they are: their addresses, leading dimensions and stride_b must
  // be multiples of 16 bytes (8 elements), as every MoE projection's are.

  // Group ends on the device instead of group_ends (which must then be null): `groups` int32
  // entries as MoE routing writes them on the GPU, read by the kernel when it runs, so that a
  // captured CUDA graph replays with each step's routing and nothing waits for the host. The
  // plan is made for `max_rows` rows (A, C and D hold that many) spread over the groups the
  // costliest way. Every row of D is written: the rows past the last group's end get beta * C
  // (zero with beta 0). Ends must not decrease; ends past max_rows count as max_rows.
  const int32_t* device_group_ends = nullptr;
  int64_t max_rows = 0;
};

// Runs the grouped GEMM on `stream` with a library-owned workspace, or a caller-owned one of
// `workspace_bytes` (GetWorkspaceSize; zeroed once before its first use). Before the kernel, a
// small kernel writes the group table (which tile row holds which group's rows) into the
// workspace, from the group ends handed to it by value: the call reads group_ends on the host
// only, and a caller-owned workspace makes it safe to capture in a CUDA graph. Options as for
// gemm(); repack must be unset or kNone.
absl::Status grouped_gemm(const GroupedGemmArgs& args, cudaStream_t stream = nullptr,
                          const Options& options = {});
absl::Status grouped_gemm(const GroupedGemmArgs& args, void* workspace, size_t workspace_bytes,
                          cudaStream_t stream = nullptr, const Options& options = {});
absl::StatusOr<size_t> GetWorkspaceSize(const GroupedGemmArgs& args, const Options& options = {});
// The plan grouped_gemm() runs on the current device, or on `device` (Plan::groups; not cached:
// the groups' rows change from call to call).
absl::StatusOr<Plan> PlanGroupedGemm(const GroupedGemmArgs& args, const Options& options = {},
                                     PlanExplanation* why = nullptr);
absl::StatusOr<Plan> PlanGroupedGemm(const GroupedGemmArgs& args, const DeviceSpec& device,
                                     const Options& options = {}, PlanExplanation* why = nullptr);
// Checks the arguments without any CUDA call: InvalidArgument naming the argument and the rule.
absl::Status ValidateGroupedGemmArgs(const GroupedGemmArgs& args, const Options& options = {});

// Frees the workspaces the library keeps for gemm() calls without a caller-owned workspace, on
// every device, after waiting for each device's work to finish. The next call allocates again.
// The library keeps at most kMaxPooledWorkspaces per device (one per stream); a call on a new
// stream beyond that frees the least recently used one (waiting for the device), so streams that
// come and go do not leak memory.
absl::Status ReleaseWorkspaces();

inline constexpr int kMaxPooledWorkspaces = 16;

// Plans gemm(), GetWorkspaceSize() and PlanGemm() (without a DeviceSpec) on device
// `device_ordinal` (-1: the current one) with `profile`'s kernel configurations and cost constants
// (a device profile, device_spec.h: streamk-bench --calibrate fits one to the GPU it runs on)
// instead of the built-in model, from the next call on, for the profile's mainloop. The device's
// own facts (occupancy, cluster slots) stay the queried ones (AdaptDeviceProfile, which says what
// is refused: InvalidArgument naming the field). Forgets the plans made so far. Call it before
// other threads call gemm() on that device (a call planning meanwhile may keep the old model's
// plan for its shape).
absl::Status UseDeviceProfile(const DeviceSpec& profile, int device_ordinal = -1);
// The same from a profile file (LoadDeviceProfile: NotFound or InvalidArgument naming the key).
absl::Status UseDeviceProfile(const std::string& path, int device_ordinal = -1);
// Back to the built-in model (QueryLocalDevice) on `device_ordinal` (-1: the current one).
absl::Status UseBuiltInDeviceModel(int device_ordinal = -1);

}  // namespace streamk
