// streamk::gemm(): validation, planning, workspace, launch (see streamk.h).
#include "streamk/streamk.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "cuda_status.h"
#include "launch.h"
#include "streamk/planner.h"

namespace streamk {
namespace {

constexpr int64_t kMaxDim = std::numeric_limits<int32_t>::max();
constexpr int64_t kMaxLeadingDim = int64_t{1} << 40;  // keeps ld * rows far from int64 overflow

absl::Status Invalid(const std::string& message) { return absl::InvalidArgumentError(message); }

absl::Status CheckMatrix(const char* name, const void* ptr, int64_t ld, int64_t min_ld,
                         const char* ld_rule, int64_t stride, int64_t batch, int elem_bytes) {
  if (ptr == nullptr) return Invalid(absl::StrCat(name, " is null"));
  if (reinterpret_cast<uintptr_t>(ptr) % elem_bytes != 0)
    return Invalid(absl::StrCat(name, " = ", reinterpret_cast<uintptr_t>(ptr), ": must be ",
                                elem_bytes, "-byte aligned (its elements' size)"));
  const std::string ld_name = absl::StrCat("ld", name);
  if (ld < min_ld || ld > kMaxLeadingDim)
    return Invalid(absl::StrCat(ld_name, " = ", ld, ": must be >= ", ld_rule, " (", min_ld, ")"));
  if (batch > 1) {
    const std::string stride_name = absl::StrCat("stride_", name);
    if (stride < 0) return Invalid(absl::StrCat(stride_name, " = ", stride, ": must be >= 0"));
  }
  return absl::OkStatus();
}

// Whether every row of a matrix (and every batch entry, `stride` apart) starts at a multiple of
// `bytes`.
bool RowsAligned(const void* p, int64_t ld, int64_t stride, int64_t element, int64_t bytes) {
  return reinterpret_cast<uintptr_t>(p) % bytes == 0 && ld * element % bytes == 0 &&
         stride * element % bytes == 0;
}

// OperandLayout::row_align of a matrix: the largest power of two up to kLineRowBytes that every
// row and batch entry starts at a multiple of (bytes); under kVectorBytes, half of that. The
// kernel's loads and stores are 16-byte vectors (kVectorBytes): operands under that are copied
// first, and C and D are then read and written element by element (GemmKernelArgs::cd_vectors).
uint8_t RowAlignOf(const void* p, int64_t ld, int64_t stride, int64_t element) {
  for (int bytes = kLineRowBytes; bytes >= kVectorBytes; bytes /= 2)
    if (RowsAligned(p, ld, stride, element, bytes)) return bytes;
  return kVectorBytes / 2;
}

// The plan cache's key for an operand's layout (row_align is at most kLineRowBytes): 9 bits.
int LayoutKey(const OperandLayout& l) { return (l.major == Major::kMN ? 256 : 0) + l.row_align; }

int64_t Rows(Layout l, int64_t rows, int64_t cols) { return l == Layout::kRowMajor ? rows : cols; }
int64_t Cols(Layout l, int64_t rows, int64_t cols) { return l == Layout::kRowMajor ? cols : rows; }

// The problem as the kernel computes it: D row-major. A column-major D is the row-major D^T of
// B^T * A^T, so swap the operands, their layouts flip and m and n trade places.
struct Lowered {
  Problem problem;
  kernels::GemmKernelArgs kernel;
};

Lowered Lower(const GemmArgs& g) {
  Lowered l;
  kernels::GemmKernelArgs& k = l.kernel;
  k.input = g.input;
  k.output = g.output;
  k.c = g.beta != 0.0f ? g.c : nullptr;
  k.d = g.d;
  k.ldc = g.ldc, k.ldd = g.ldd;
  k.stride_c = g.stride_c, k.stride_d = g.stride_d;
  k.alpha = g.alpha, k.beta = g.beta;
  l.problem.k = g.k;
  l.problem.batch = g.batch;
  l.problem.input = g.input;
  l.problem.output = g.output;
  if (g.cd_layout == Layout::kRowMajor) {
    l.problem.m = g.m, l.problem.n = g.n;
    k.a = g.a, k.lda = g.lda, k.stride_a = g.stride_a;
    k.b = g.b, k.ldb = g.ldb, k.stride_b = g.stride_b;
    k.a_col_major = g.a_layout == Layout::kColMajor;
    k.b_row_major = g.b_layout == Layout::kRowMajor;
  } else {
    l.problem.m = g.n, l.problem.n = g.m;
    k.a = g.b, k.lda = g.ldb, k.stride_a = g.stride_b;  // B^T: n x k
    k.b = g.a, k.ldb = g.lda, k.stride_b = g.stride_a;  // A^T: k x m
    k.a_col_major = g.b_layout == Layout::kRowMajor;
    k.b_row_major = g.a_layout == Layout::kColMajor;
  }
  if (g.batch == 1) k.stride_a = k.stride_b = k.stride_c = k.stride_d = 0;
  // The operands' layouts as the kernel loads them (OperandLayout: which it cannot load as they
  // are, which load slowly).
  const int64_t in = DTypeBytes(g.input), out = DTypeBytes(g.output);
  l.problem.a = {k.a_col_major ? Major::kMN : Major::kK, RowAlignOf(k.a, k.lda, k.stride_a, in)};
  l.problem.b = {k.b_row_major ? Major::kMN : Major::kK, RowAlignOf(k.b, k.ldb, k.stride_b, in)};
  k.cd_vectors = RowsAligned(k.d, k.ldd, k.stride_d, out, kVectorBytes) &&
                 (k.c == nullptr || RowsAligned(k.c, k.ldc, k.stride_c, out, kVectorBytes));
  // As the launch decides whether the TMA unit stores D (launch.cu, TmaOperands::d_store).
  l.problem.d_tma_store =
      kernels::TensorColumnsOf(l.problem.n, static_cast<int>(out), k.beta, k.cd_vectors) > 0;
  l.problem.reads_c = k.beta != 0.0f;
  l.problem.cd_rows_aligned = k.cd_vectors;
  return l;
}

// The options for the kernel's problem (Lower): with a column-major D the kernel's A is the
// call's B, so a repack of one operand names the other.
PlanOptions ToPlanOptions(const Options& o, bool swapped) {
  PlanOptions p;
  p.mode = o.mode;
  p.splits = o.splits;
  p.blocks = o.blocks;
  p.sk_tiles = o.sk_tiles;
  p.reduction = o.reduction;
  p.reduction_slices = o.reduction_slices;
  p.avail_sms = o.avail_sms;
  p.tile = o.tile;
  p.repack = o.repack;
  p.max_workspace_bytes = o.max_workspace_bytes;
  p.schedule = o.schedule;
  p.pingpong = o.pingpong;
  p.narrow_wgmma = o.narrow_wgmma;
  p.store_d = o.store_d;
  if (o.repack && swapped) p.repack = SwapOperands(*o.repack);
  return p;
}
PlanOptions ToPlanOptions(const Options& o, const GemmArgs& g) {
  return ToPlanOptions(o, g.cd_layout == Layout::kColMajor);
}

// The current CUDA device's ordinal; FailedPrecondition where there is none.
absl::StatusOr<int> CurrentOrdinal() {
  int device = 0;
  if (cudaError_t err = cudaGetDevice(&device); err != cudaSuccess) {
    cudaGetLastError();
    return absl::FailedPreconditionError(
        absl::StrCat("no CUDA device: cudaGetDevice returned ", cudaGetErrorName(err)));
  }
  return device;
}

// DeviceSpec of each device and mainloop asked for (Options::mainloop; unset: the device's best),
// queried once (SM count and kernel occupancy do not change), or the profile UseDeviceProfile set.
class DeviceModels {
 public:
  absl::StatusOr<DeviceSpec> Get(const Options& options, int* ordinal) {
    const absl::StatusOr<int> device = CurrentOrdinal();
    if (!device.ok()) return device.status();
    if (ordinal != nullptr) *ordinal = *device;
    std::lock_guard<std::mutex> lock(mu_);
    return Lookup(*device, options.mainloop);
  }

  // Replaces the model of `device` for the profile's mainloop (and for the device's default
  // mainloop where that is the profile's), or with nullopt restores the queried ones.
  absl::Status Set(int device, const std::optional<DeviceSpec>& profile) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!profile) {
      for (auto it = models_.begin(); it != models_.end();)
        it = it->first.first == device ? models_.erase(it) : std::next(it);
      return absl::OkStatus();
    }
    absl::StatusOr<DeviceSpec> queried = Lookup(device, profile->mainloop);
    if (!queried.ok()) return queried.status();
    absl::StatusOr<DeviceSpec> adopted = AdaptDeviceProfile(*profile, *queried);
    if (!adopted.ok()) return adopted.status();
    models_.insert_or_assign({device, static_cast<int>(profile->mainloop)}, *adopted);
    if (kernels::KernelArch(device) == profile->mainloop)
      models_.insert_or_assign({device, -1}, *adopted);
    return absl::OkStatus();
  }

 private:
  absl::StatusOr<DeviceSpec> Lookup(int device, std::optional<Mainloop> mainloop) {
    const std::pair<int, int> key{device, mainloop ? static_cast<int>(*mainloop) : -1};
    auto it = models_.find(key);
    if (it == models_.end()) it = models_.emplace(key, QueryLocalDevice(device, mainloop)).first;
    return it->second;
  }

  std::mutex mu_;
  std::map<std::pair<int, int>, absl::StatusOr<DeviceSpec>> models_;
};

DeviceModels& Models() {
  static DeviceModels* models = new DeviceModels();
  return *models;
}

absl::StatusOr<DeviceSpec> CurrentDevice(const Options& options, int* ordinal = nullptr) {
  return Models().Get(options, ordinal);
}

// Library-owned workspaces, one per (device, stream), grown on demand with stream-ordered
// allocation (no host synchronization) and zeroed when allocated. Each remembers how many leading
// bytes are zero between launches (the flags of the plans it served; partials dirty the rest), and
// zeroes more only for a plan whose flags region reaches past them (more than
// Plan::kMinFlagsBytes / 4 Stream-K tiles). At most kMaxPooledWorkspaces per device: CUDA does not
// say when a stream is destroyed, so a new stream beyond that evicts the least recently used
// entry, freed after the device's work (cudaFree waits for it), as ReleaseWorkspaces() does for
// all of them.
class WorkspacePool {
 public:
  absl::StatusOr<void*> Get(cudaStream_t stream, const Plan& plan) {
    const size_t bytes = static_cast<size_t>(plan.workspace_bytes);
    const size_t flags_end = static_cast<size_t>(plan.flags_offset + plan.flags_bytes);
    int device = 0;
    STREAMK_CUDA_RETURN_IF_ERROR(cudaGetDevice(&device));
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find({device, stream});
    const bool fresh = it == entries_.end();
    if (fresh || it->second.bytes < bytes || it->second.zero_bytes < flags_end) {
      cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
      STREAMK_CUDA_RETURN_IF_ERROR(cudaStreamIsCapturing(stream, &capture));
      if (capture != cudaStreamCaptureStatusNone)
        return absl::FailedPreconditionError(absl::StrCat(
            "the library workspace for this stream must grow or be cleared (", bytes,
            " bytes) while the stream is being captured: pass a caller-owned workspace "
            "(GetWorkspaceSize) to capture gemm() in a CUDA graph"));
    }
    if (fresh) {
      if (absl::Status s = EvictLeastRecentlyUsed(device); !s.ok()) return s;
      it = entries_.emplace(std::make_pair(device, stream), Entry{}).first;
    }
    Entry& e = it->second;
    e.last_use = ++clock_;
    if (e.bytes < bytes) {
      const size_t grown = std::max(bytes, e.bytes + e.bytes / 2);
      if (e.ptr != nullptr) STREAMK_CUDA_RETURN_IF_ERROR(cudaFreeAsync(e.ptr, stream));
      e.ptr = nullptr, e.bytes = e.zero_bytes = 0;
      STREAMK_CUDA_RETURN_IF_ERROR(cudaMallocAsync(&e.ptr, grown, stream));
      STREAMK_CUDA_RETURN_IF_ERROR(cudaMemsetAsync(e.ptr, 0, grown, stream));
      e.bytes = e.zero_bytes = grown;
    } else if (e.zero_bytes < flags_end) {
      STREAMK_CUDA_RETURN_IF_ERROR(cudaMemsetAsync(e.ptr, 0, flags_end, stream));
    }
    // Partials, operand copies and a group table dirty the rest.
    int64_t dirty = plan.workspace_bytes;
    if (plan.partials_bytes > 0) dirty = std::min(dirty, plan.partials_offset);
    if (plan.repack_a) dirty = std::min(dirty, plan.repack_a_offset);
    if (plan.repack_b) dirty = std::min(dirty, plan.repack_b_offset);
    if (plan.group_rows_bytes > 0) dirty = std::min(dirty, plan.group_rows_offset);
    e.zero_bytes = static_cast<size_t>(dirty);
    return e.ptr;
  }

  absl::Status ReleaseAll() {
    std::lock_guard<std::mutex> lock(mu_);
    int current = 0;
    STREAMK_CUDA_RETURN_IF_ERROR(cudaGetDevice(&current));
    absl::Status status;
    for (auto it = entries_.begin(); it != entries_.end();) {
      if (status.ok()) {
        cudaError_t err = cudaSetDevice(it->first.first);
        if (err == cudaSuccess) err = Free(it->second.ptr);
        if (err != cudaSuccess) status = CudaStatus(err, "cudaFree", __FILE__, __LINE__);
      }
      it = entries_.erase(it);
    }
    STREAMK_CUDA_RETURN_IF_ERROR(cudaSetDevice(current));
    return status;
  }

 private:
  struct Entry {
    void* ptr = nullptr;
    size_t bytes = 0;
    size_t zero_bytes = 0;  // leading bytes that are zero between launches
    uint64_t last_use = 0;
  };

  // cudaFree waits for the device's work, so an evicted stream's last kernels have finished with
  // the memory. A capture in progress on another thread is left alone (relaxed mode).
  static cudaError_t Free(void* ptr) {
    if (ptr == nullptr) return cudaSuccess;
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    cudaThreadExchangeStreamCaptureMode(&mode);
    const cudaError_t err = cudaFree(ptr);
    cudaThreadExchangeStreamCaptureMode(&mode);
    return err;
  }

  absl::Status EvictLeastRecentlyUsed(int device) {
    int count = 0;
    auto oldest = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first.first != device) continue;
      ++count;
      if (oldest == entries_.end() || it->second.last_use < oldest->second.last_use) oldest = it;
    }
    if (count < kMaxPooledWorkspaces) return absl::OkStatus();
    void* ptr = oldest->second.ptr;
    entries_.erase(oldest);
    STREAMK_CUDA_RETURN_IF_ERROR(Free(ptr));
    return absl::OkStatus();
  }

  std::mutex mu_;
  std::map<std::pair<int, cudaStream_t>, Entry> entries_;
  uint64_t clock_ = 0;
};

// Plans of recent calls, so that a repeated shape (the common case in a model's forward pass)
// costs a hash lookup instead of a planner search. Keyed by everything MakePlan reads.
class PlanCache {
 public:
  // Forgets every plan (a device's model changed: UseDeviceProfile).
  void Clear() {
    std::lock_guard<std::mutex> lock(mu_);
    plans_.clear();
    last_grouped_.reset();
  }

  // A grouped problem's plan depends on its groups' rows, which change from call to call: those
  // planned for a bound (no group_rows: device group ends) are cached with the others; of those
  // with rows only the last is kept, so that GetWorkspaceSize and the grouped_gemm() after it
  // plan once.
  absl::StatusOr<Plan> Get(int device_ordinal, const Problem& pr, const DeviceSpec& dev,
                           const PlanOptions& o) {
    // Each device's plans for each mainloop (Options::mainloop) apart.
    const Key key{device_ordinal * 4 + static_cast<int>(dev.mainloop),
                  pr.m,
                  pr.n,
                  pr.k,
                  pr.batch,
                  pr.groups,
                  static_cast<int>(pr.input),
                  static_cast<int>(pr.output),
                  LayoutKey(pr.a) + (LayoutKey(pr.b) << 9) + (pr.d_tma_store ? 1 << 18 : 0) +
                      (pr.reads_c ? 1 << 19 : 0) + (pr.cd_rows_aligned ? 1 << 20 : 0),
                  static_cast<int>(o.mode),
                  o.splits,
                  o.blocks,
                  o.sk_tiles,
                  o.reduction_slices,
                  o.reduction.has_value() ? static_cast<int>(*o.reduction) : -1,
                  o.avail_sms,
                  o.tile.m,
                  o.tile.n,
                  o.tile.k,
                  o.repack.has_value() ? static_cast<int>(*o.repack) : -1,
                  o.max_workspace_bytes,
                  o.schedule.has_value() ? static_cast<int>(*o.schedule) : -1,
                  o.pingpong.has_value() ? (*o.pingpong ? 1 : 0) : -1,
                  o.narrow_wgmma ? 1 : 0,
                  o.store_d.has_value() ? static_cast<int>(*o.store_d) : -1};
    if (pr.group_rows != nullptr) {
      std::vector<int64_t> rows(pr.group_rows, pr.group_rows + pr.groups);
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (last_grouped_ && last_grouped_->key == key && last_grouped_->rows == rows)
          return last_grouped_->plan;
      }
      absl::StatusOr<Plan> plan = MakePlan(pr, dev, o);
      if (!plan.ok()) return plan;
      std::lock_guard<std::mutex> lock(mu_);
      last_grouped_ = LastGrouped{key, std::move(rows), *plan};
      return plan;
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = plans_.find(key);
      if (it != plans_.end()) return it->second;
    }
    absl::StatusOr<Plan> plan = MakePlan(pr, dev, o);
    if (!plan.ok()) return plan;
    std::lock_guard<std::mutex> lock(mu_);
    if (plans_.size() >= kMaxPlans) plans_.clear();  // a crude bound: shapes rarely exceed it
    plans_.emplace(key, *plan);
    return plan;
  }

 private:
  static constexpr size_t kMaxPlans = 4096;
  using Key = std::tuple<int, int64_t, int64_t, int64_t, int64_t, int64_t, int, int, int, int, int,
                         int, int, int, int, int, int, int, int, int, int64_t, int, int, int, int>;
  struct LastGrouped {
    Key key;
    std::vector<int64_t> rows;
    Plan plan;
  };
  std::mutex mu_;
  std::map<Key, Plan> plans_;
  std::optional<LastGrouped> last_grouped_;
};

PlanCache& Plans() {
  static PlanCache* cache = new PlanCache();
  return *cache;
}

WorkspacePool& Pool() {
  static WorkspacePool* pool = new WorkspacePool();
  return *pool;
}

// Options::mainloop, where set, must be the one the device is modelled for.
absl::Status CheckMainloop(const Options& o, const DeviceSpec& device) {
  if (o.mainloop && *o.mainloop != device.mainloop)
    return Invalid(absl::StrCat("mainloop = ", MainloopName(*o.mainloop), ": ", device.name,
                                " is modelled for the ", MainloopName(device.mainloop),
                                " mainloop"));
  return absl::OkStatus();
}

// Options::tile names a kernel configuration, so it must be one of the device's.
absl::Status CheckTile(const Options& o, const DeviceSpec& device) {
  if (o.tile == kNoTile) return absl::OkStatus();
  std::string tiles;
  for (const KernelConfig& c : device.kernels) {
    if (c.tile == kNoTile) continue;
    if (o.tile == c.tile) return absl::OkStatus();
    absl::StrAppend(&tiles, tiles.empty() ? "" : ", ", TileShapeName(c.tile),
                    c.cluster_m > 1 ? absl::StrCat(" (", c.cluster_m, "-SM clusters)") : "");
  }
  return Invalid(absl::StrCat("tile = ", TileShapeName(o.tile), ": ", device.name,
                              " runs kernels for ", tiles, " only (kNoTile: the planner picks)"));
}

absl::Status Run(const GemmArgs& args, const Options& options, void* workspace,
                 size_t workspace_bytes, bool caller_workspace, cudaStream_t stream) {
  if (absl::Status s = ValidateGemmArgs(args, options); !s.ok()) return s;
  int ordinal = 0;
  absl::StatusOr<DeviceSpec> device = CurrentDevice(options, &ordinal);
  if (!device.ok()) return device.status();
  if (absl::Status s = CheckTile(options, *device); !s.ok()) return s;
  const Lowered l = Lower(args);
  absl::StatusOr<Plan> plan =
      Plans().Get(ordinal, l.problem, *device, ToPlanOptions(options, args));
  if (!plan.ok()) return plan.status();
  if (plan->workspace_bytes > 0) {
    if (caller_workspace) {
      if (workspace == nullptr || workspace_bytes < static_cast<size_t>(plan->workspace_bytes))
        return absl::InvalidArgumentError(absl::StrCat(
            "workspace: ", workspace_bytes, " bytes at ", reinterpret_cast<uintptr_t>(workspace),
            "; this plan needs ", plan->workspace_bytes, " (GetWorkspaceSize)"));
      if (reinterpret_cast<uintptr_t>(workspace) % Plan::kWorkspaceAlignment != 0)
        return absl::InvalidArgumentError("workspace: must be 256-byte aligned");
    } else {
      absl::StatusOr<void*> ws = Pool().Get(stream, *plan);
      // Captured on a stream whose library workspace cannot grow now, a data-parallel plan the
      // default schedule claims from a counter runs static instead: it needs no workspace then
      // (but its operand copies').
      if (absl::IsFailedPrecondition(ws.status()) && StaticWouldDo(*plan, options.schedule)) {
        PlanOptions fixed = ToPlanOptions(options, args);
        fixed.schedule = Schedule::kStatic;
        plan = Plans().Get(ordinal, l.problem, *device, fixed);
        if (!plan.ok()) return plan.status();
        ws = plan->workspace_bytes > 0 ? Pool().Get(stream, *plan) : absl::StatusOr<void*>(nullptr);
      }
      if (!ws.ok()) return ws.status();
      workspace = *ws;
    }
  }
  kernels::GemmKernelArgs kernel = l.kernel;
  kernel.trace = options.trace;
  kernels::LaunchFlags flags;
  flags.cooperative = options.cooperative;
  flags.programmatic = options.programmatic_launch;
  STREAMK_CUDA_RETURN_IF_ERROR(kernels::LaunchGemm(*plan, kernel, workspace, stream, flags));
  return absl::OkStatus();
}

// The options' checks gemm() and grouped_gemm() share: the SMs, the trace buffer, then the
// planner's (`plan`: the options as the planner takes them).
absl::Status ValidateRunOptions(const Options& options, const PlanOptions& plan) {
  if (options.avail_sms < 0)
    return Invalid(absl::StrCat("avail_sms = ", options.avail_sms, ": must be >= 0"));
  if (options.trace.events != nullptr && options.trace.events_per_block < 1)
    return Invalid(absl::StrCat("trace.events_per_block = ", options.trace.events_per_block,
                                ": must be >= 1 when trace.events is set"));
  return ValidatePlanOptions(plan);
}

// A caller's workspace checked against the plan, or the library's for `stream`.
absl::StatusOr<void*> WorkspaceFor(const Plan& plan, void* workspace, size_t workspace_bytes,
                                   bool caller_workspace, cudaStream_t stream) {
  if (plan.workspace_bytes == 0) return workspace;
  if (!caller_workspace) return Pool().Get(stream, plan);
  if (workspace == nullptr || workspace_bytes < static_cast<size_t>(plan.workspace_bytes))
    return absl::InvalidArgumentError(absl::StrCat(
        "workspace: ", workspace_bytes, " bytes at ", reinterpret_cast<uintptr_t>(workspace),
        "; this plan needs ", plan.workspace_bytes, " (GetWorkspaceSize)"));
  if (reinterpret_cast<uintptr_t>(workspace) % Plan::kWorkspaceAlignment != 0)
    return absl::InvalidArgumentError("workspace: must be 256-byte aligned");
  return workspace;
}

// A grouped GEMM as the planner and the kernel see it: the groups' rows stacked into one m (D is
// row-major: no transpose), B's matrices a batch the group table indexes.
struct LoweredGroups {
  Problem problem;
  kernels::GemmKernelArgs kernel;
  std::vector<int64_t> rows;  // per group; problem.group_rows points here
};

// The rows the call has: the last group's end, or with the ends on the device, the bound.
int64_t GroupedRows(const GroupedGemmArgs& g) {
  return g.device_group_ends != nullptr ? g.max_rows : g.group_ends[g.groups - 1];
}

void LowerGroups(const GroupedGemmArgs& g, LoweredGroups& l) {
  Problem& pr = l.problem;
  pr.m = GroupedRows(g), pr.n = g.n, pr.k = g.k;
  pr.input = g.input, pr.output = g.output;
  pr.groups = g.groups;
  if (g.device_group_ends == nullptr) {  // else the planner plans for the bound (Problem::groups)
    l.rows.resize(static_cast<size_t>(g.groups));
    for (int64_t i = 0; i < g.groups; ++i)
      l.rows[static_cast<size_t>(i)] = g.group_ends[i] - (i > 0 ? g.group_ends[i - 1] : 0);
    pr.group_rows = l.rows.data();
  }
  kernels::GemmKernelArgs& k = l.kernel;
  k.input = g.input, k.output = g.output;
  k.a = g.a, k.lda = g.lda;
  k.b = g.b, k.ldb = g.ldb, k.stride_b = g.stride_b;
  k.b_row_major = g.b_layout == Layout::kRowMajor;
  k.c = g.beta != 0.0f ? g.c : nullptr, k.ldc = g.ldc;
  k.d = g.d, k.ldd = g.ldd;
  k.alpha = g.alpha, k.beta = g.beta;
  k.groups = static_cast<int>(g.groups);
  const int64_t in = DTypeBytes(g.input), out = DTypeBytes(g.output);
  pr.a = {Major::kK, RowAlignOf(k.a, k.lda, 0, in)};
  pr.b = {k.b_row_major ? Major::kMN : Major::kK, RowAlignOf(k.b, k.ldb, k.stride_b, in)};
  k.cd_vectors = RowsAligned(k.d, k.ldd, 0, out, kVectorBytes) &&
                 (k.c == nullptr || RowsAligned(k.c, k.ldc, 0, out, kVectorBytes));
  pr.d_tma_store = false;  // the tiles end at their groups' rows (kernels::LaunchGroupedGemm)
  pr.reads_c = k.beta != 0.0f;
  pr.cd_rows_aligned = k.cd_vectors;
}

// The plan grouped_gemm() runs for valid arguments with rows, as CachedPlan for gemm(): from the
// plan cache (PlanCache::Get: device ends' plans, and the last of host ends'), lowered into `l`.
absl::StatusOr<Plan> CachedGroupedPlan(const GroupedGemmArgs& args, const Options& options,
                                       LoweredGroups& l) {
  int ordinal = 0;
  absl::StatusOr<DeviceSpec> device = CurrentDevice(options, &ordinal);
  if (!device.ok()) return device.status();
  if (absl::Status s = CheckTile(options, *device); !s.ok()) return s;
  LowerGroups(args, l);
  return Plans().Get(ordinal, l.problem, *device, ToPlanOptions(options, false));
}

absl::Status RunGrouped(const GroupedGemmArgs& args, const Options& options, void* workspace,
                        size_t workspace_bytes, bool caller_workspace, cudaStream_t stream) {
  if (absl::Status s = ValidateGroupedGemmArgs(args, options); !s.ok()) return s;
  if (GroupedRows(args) == 0) return absl::OkStatus();  // no rows: nothing to do
  LoweredGroups l;
  absl::StatusOr<Plan> plan = CachedGroupedPlan(args, options, l);
  if (!plan.ok()) return plan.status();
  absl::StatusOr<void*> ws =
      WorkspaceFor(*plan, workspace, workspace_bytes, caller_workspace, stream);
  if (!ws.ok()) return ws.status();
  kernels::GroupEnds ends;
  if (args.group_ends != nullptr)
    for (int64_t g = 0; g < args.groups; ++g) ends.end[g] = static_cast<int>(args.group_ends[g]);
  kernels::GemmKernelArgs kernel = l.kernel;
  kernel.trace = options.trace;
  kernels::LaunchFlags flags;
  flags.cooperative = options.cooperative;
  flags.programmatic = options.programmatic_launch;
  STREAMK_CUDA_RETURN_IF_ERROR(
      kernels::LaunchGroupedGemm(*plan, kernel, args.group_ends != nullptr ? &ends : nullptr,
                                 args.device_group_ends, *ws, stream, flags));
  return absl::OkStatus();
}

}  // namespace

static_assert(kMaxGroups == kernels::kMaxTableGroups, "the group table kernel takes every group");

absl::Status ValidateGroupedGemmArgs(const GroupedGemmArgs& g, const Options& options) {
  if (g.groups < 1 || g.groups > kMaxGroups)
    return Invalid(absl::StrCat("groups = ", g.groups, ": must be in [1, ", kMaxGroups, "]"));
  if ((g.group_ends == nullptr) == (g.device_group_ends == nullptr))
    return Invalid(g.group_ends == nullptr
                       ? "group_ends and device_group_ends are null: give one of them"
                       : "group_ends and device_group_ends are both set: give one of them");
  if (g.device_group_ends != nullptr) {
    if (g.max_rows < 0 || g.max_rows > kMaxDim)
      return Invalid(absl::StrCat("max_rows = ", g.max_rows,
                                  ": must be in [0, 2^31) (the rows A and D hold, which the "
                                  "device's group ends may reach)"));
    if (reinterpret_cast<uintptr_t>(g.device_group_ends) % 4 != 0)
      return Invalid("device_group_ends: must be 4-byte aligned (int32)");
  }
  for (int64_t i = 0; i < g.groups && g.group_ends != nullptr; ++i) {
    const int64_t before = i > 0 ? g.group_ends[i - 1] : 0;
    if (g.group_ends[i] < before)
      return Invalid(absl::StrCat("group_ends[", i, "] = ", g.group_ends[i],
                                  ": must be >= ", i > 0 ? "group_ends[i - 1] = " : "0 (", before,
                                  i > 0 ? " (ends do not decrease)" : ")"));
  }
  if (g.group_ends != nullptr && g.group_ends[g.groups - 1] > kMaxDim)
    return Invalid(absl::StrCat("group_ends[", g.groups - 1, "] = ", g.group_ends[g.groups - 1],
                                ": the rows must be < 2^31"));
  for (auto [name, v] : {std::pair<const char*, int64_t>{"n", g.n}, {"k", g.k}}) {
    if (v < 1) return Invalid(absl::StrCat(name, " = ", v, ": must be >= 1"));
    if (v > kMaxDim) return Invalid(absl::StrCat(name, " = ", v, ": must be < 2^31"));
  }
  if (g.input != DType::kF16 && g.input != DType::kBF16)
    return Invalid(absl::StrCat("input = ", DTypeName(g.input), ": A and B must be fp16 or bf16"));
  const int in_bytes = DTypeBytes(g.input), out_bytes = DTypeBytes(g.output);
  const bool b_row = g.b_layout == Layout::kRowMajor;
  if (absl::Status s = CheckMatrix("a", g.a, g.lda, g.k, "k", 0, 1, in_bytes); !s.ok()) return s;
  if (absl::Status s = CheckMatrix("b", g.b, g.ldb, b_row ? g.n : g.k, b_row ? "n" : "k",
                                   g.stride_b, g.groups, in_bytes);
      !s.ok())
    return s;
  // Read as they are (no copies): 16-byte rows.
  if (!RowsAligned(g.a, g.lda, 0, in_bytes, kVectorBytes))
    return Invalid(absl::StrCat("a, lda = ", g.lda,
                                ": a grouped GEMM reads A as it is, so its address and lda must "
                                "be multiples of 16 bytes (lda a multiple of ",
                                kVectorBytes / in_bytes, ")"));
  if (!RowsAligned(g.b, g.ldb, g.stride_b, in_bytes, kVectorBytes))
    return Invalid(absl::StrCat("b, ldb = ", g.ldb, ", stride_b = ", g.stride_b,
                                ": a grouped GEMM reads B as it is, so its address, ldb and "
                                "stride_b must be multiples of 16 bytes (of ",
                                kVectorBytes / in_bytes, " elements)"));
  if (g.beta != 0.0f) {
    if (absl::Status s = CheckMatrix("c", g.c, g.ldc, g.n, "n", 0, 1, out_bytes); !s.ok())
      return absl::Status(s.code(), absl::StrCat(s.message(), " (C is read because beta != 0)"));
  }
  if (absl::Status s = CheckMatrix("d", g.d, g.ldd, g.n, "n", 0, 1, out_bytes); !s.ok()) return s;
  if (options.repack.value_or(RepackOperands::kNone) != RepackOperands::kNone)
    return Invalid(absl::StrCat("repack = ", RepackOperandsName(*options.repack),
                                ": a grouped GEMM reads its operands as they are"));
  return ValidateRunOptions(options, ToPlanOptions(options, false));
}

namespace {

// What planning a grouped GEMM checks past its arguments, on the device it plans for.
absl::Status CheckGroupedPlanning(const GroupedGemmArgs& args, const Options& options,
                                  const DeviceSpec& device) {
  if (GroupedRows(args) == 0)
    return Invalid(args.device_group_ends != nullptr
                       ? "max_rows = 0: there is nothing to plan"
                       : "group_ends: every group is empty, so there is nothing to plan");
  if (absl::Status s = CheckTile(options, device); !s.ok()) return s;
  return CheckMainloop(options, device);
}

}  // namespace

absl::StatusOr<Plan> PlanGroupedGemm(const GroupedGemmArgs& args, const DeviceSpec& device,
                                     const Options& options, PlanExplanation* why) {
  if (absl::Status s = ValidateGroupedGemmArgs(args, options); !s.ok()) return s;
  if (absl::Status s = CheckGroupedPlanning(args, options, device); !s.ok()) return s;
  LoweredGroups l;
  LowerGroups(args, l);
  return MakePlan(l.problem, device, ToPlanOptions(options, false), why);
}

absl::StatusOr<Plan> PlanGroupedGemm(const GroupedGemmArgs& args, const Options& options,
                                     PlanExplanation* why) {
  if (absl::Status s = ValidateGroupedGemmArgs(args, options); !s.ok()) return s;
  if (why == nullptr && GroupedRows(args) > 0) {  // the plan grouped_gemm() runs
    LoweredGroups l;
    return CachedGroupedPlan(args, options, l);
  }
  absl::StatusOr<DeviceSpec> device = CurrentDevice(options);
  if (!device.ok()) return device.status();
  return PlanGroupedGemm(args, *device, options, why);
}

absl::StatusOr<size_t> GetWorkspaceSize(const GroupedGemmArgs& args, const Options& options) {
  if (absl::Status s = ValidateGroupedGemmArgs(args, options); !s.ok()) return s;
  if (GroupedRows(args) == 0) return 0;
  LoweredGroups l;
  absl::StatusOr<Plan> plan = CachedGroupedPlan(args, options, l);
  if (!plan.ok()) return plan.status();
  return static_cast<size_t>(plan->workspace_bytes);
}

absl::Status grouped_gemm(const GroupedGemmArgs& args, cudaStream_t stream,
                          const Options& options) {
  return RunGrouped(args, options, nullptr, 0, /*caller_workspace=*/false, stream);
}

absl::Status grouped_gemm(const GroupedGemmArgs& args, void* workspace, size_t workspace_bytes,
                          cudaStream_t stream, const Options& options) {
  return RunGrouped(args, options, workspace, workspace_bytes, /*caller_workspace=*/true, stream);
}

absl::Status ValidateGemmArgs(const GemmArgs& g, const Options& options) {
  for (auto [name, v] : {std::pair<const char*, int64_t>{"m", g.m}, {"n", g.n}, {"k", g.k},
                         {"batch", g.batch}}) {
    if (v < 1) return Invalid(absl::StrCat(name, " = ", v, ": must be >= 1"));
    if (v > kMaxDim) return Invalid(absl::StrCat(name, " = ", v, ": must be < 2^31"));
  }
  if (g.input != DType::kF16 && g.input != DType::kBF16)
    return Invalid(absl::StrCat("input = ", DTypeName(g.input), ": A and B must be fp16 or bf16"));
  const int in_bytes = DTypeBytes(g.input), out_bytes = DTypeBytes(g.output);
  const bool a_row = g.a_layout == Layout::kRowMajor, b_row = g.b_layout == Layout::kRowMajor;
  const bool cd_row = g.cd_layout == Layout::kRowMajor;
  if (absl::Status s = CheckMatrix("a", g.a, g.lda, a_row ? g.k : g.m, a_row ? "k" : "m",
                                   g.stride_a, g.batch, in_bytes);
      !s.ok())
    return s;
  if (absl::Status s = CheckMatrix("b", g.b, g.ldb, b_row ? g.n : g.k, b_row ? "n" : "k",
                                   g.stride_b, g.batch, in_bytes);
      !s.ok())
    return s;
  if (g.beta != 0.0f) {
    if (absl::Status s = CheckMatrix("c", g.c, g.ldc, cd_row ? g.n : g.m, cd_row ? "n" : "m",
                                     g.stride_c, g.batch, out_bytes);
        !s.ok())
      return absl::Status(s.code(), absl::StrCat(s.message(), " (C is read because beta != 0)"));
  }
  if (absl::Status s = CheckMatrix("d", g.d, g.ldd, cd_row ? g.n : g.m, cd_row ? "n" : "m",
                                   g.stride_d, g.batch, out_bytes);
      !s.ok())
    return s;
  if (g.batch > 1) {
    // Entries of D must not overlap, or blocks of different entries would race.
    const int64_t extent = (Rows(g.cd_layout, g.m, g.n) - 1) * g.ldd + Cols(g.cd_layout, g.m, g.n);
    if (g.stride_d < extent)
      return Invalid(absl::StrCat("stride_d = ", g.stride_d, ": must be >= ", extent,
                                  " so that the batch's D matrices do not overlap"));
  }
  return ValidateRunOptions(options, ToPlanOptions(options, g));
}

namespace {

// The plan gemm() runs for these arguments on the current device, from its cache: asking costs a
// lookup for a known shape.
absl::StatusOr<Plan> CachedPlan(const GemmArgs& args, const Options& options) {
  if (absl::Status s = ValidateGemmArgs(args, options); !s.ok()) return s;
  int ordinal = 0;
  absl::StatusOr<DeviceSpec> device = CurrentDevice(options, &ordinal);
  if (!device.ok()) return device.status();
  if (absl::Status s = CheckTile(options, *device); !s.ok()) return s;
  return Plans().Get(ordinal, Lower(args).problem, *device, ToPlanOptions(options, args));
}

}  // namespace

absl::StatusOr<Plan> PlanGemm(const GemmArgs& args, const DeviceSpec& device,
                              const Options& options, PlanExplanation* why) {
  if (absl::Status s = ValidateGemmArgs(args, options); !s.ok()) return s;
  if (absl::Status s = CheckTile(options, device); !s.ok()) return s;
  if (absl::Status s = CheckMainloop(options, device); !s.ok()) return s;
  return MakePlan(Lower(args).problem, device, ToPlanOptions(options, args), why);
}

absl::StatusOr<Plan> PlanGemm(const GemmArgs& args, const Options& options,
                              PlanExplanation* why) {
  if (why == nullptr) return CachedPlan(args, options);
  // The arguments first: a bad argument is reported as such on a machine without a GPU too.
  if (absl::Status s = ValidateGemmArgs(args, options); !s.ok()) return s;
  absl::StatusOr<DeviceSpec> device = CurrentDevice(options);
  if (!device.ok()) return device.status();
  return PlanGemm(args, *device, options, why);
}

absl::StatusOr<size_t> GetWorkspaceSize(const GemmArgs& args, const Options& options) {
  absl::StatusOr<Plan> plan = CachedPlan(args, options);
  if (!plan.ok()) return plan.status();
  return static_cast<size_t>(plan->workspace_bytes);
}

absl::Status ReleaseWorkspaces() { return Pool().ReleaseAll(); }

namespace {

// UseDeviceProfile and UseBuiltInDeviceModel: `profile` (nullopt: the queried model) becomes the
// model of `device_ordinal` (-1: the current device), and the plans made so far are forgotten.
absl::Status SetDeviceModel(const std::optional<DeviceSpec>& profile, int device_ordinal) {
  if (device_ordinal < 0) {
    const absl::StatusOr<int> current = CurrentOrdinal();
    if (!current.ok()) return current.status();
    device_ordinal = *current;
  }
  if (absl::Status s = Models().Set(device_ordinal, profile); !s.ok()) return s;
  Plans().Clear();
  return absl::OkStatus();
}

}  // namespace

absl::Status UseDeviceProfile(const DeviceSpec& profile, int device_ordinal) {
  return SetDeviceModel(profile, device_ordinal);
}

absl::Status UseDeviceProfile(const std::string& path, int device_ordinal) {
  absl::StatusOr<DeviceSpec> profile = LoadDeviceProfile(path);
  if (!profile.ok()) return profile.status();
  return UseDeviceProfile(*profile, device_ordinal);
}

absl::Status UseBuiltInDeviceModel(int device_ordinal) {
  return SetDeviceModel(std::nullopt, device_ordinal);
}

absl::Status gemm(const GemmArgs& args, cudaStream_t stream, const Options& options) {
  return Run(args, options, nullptr, 0, /*caller_workspace=*/false, stream);
}

absl::Status gemm(const GemmArgs& args, void* workspace, size_t workspace_bytes,
                  cudaStream_t stream, const Options& options) {
  return Run(args, options, workspace, workspace_bytes, /*caller_workspace=*/true, stream);
}

}  // namespace streamk
