// LaunchGemm and KernelOccupancy (launch.h): pick the kernel for the mainloop, input type and
// layouts, launch it cooperatively when its blocks wait on each other.
#include "launch.h"

#include <cuda.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <type_traits>

#include "work_mapping.h"

namespace streamk::kernels {

cudaError_t PrepareF16Kernel(Arch arch, int tile_m, int tile_n, int cluster_m, bool pingpong,
                             bool a_col_major, bool b_row_major, KernelConfig* config);
cudaError_t PrepareBF16Kernel(Arch arch, int tile_m, int tile_n, int cluster_m, bool pingpong,
                              bool a_col_major, bool b_row_major, KernelConfig* config);

namespace {

// tile_m x tile_n: 128 x 128, 128 x 192, 128 x 256, 128 x 320, 192 x 192 or 64 x 128 (kSm90Tma's
// configurations; the other arches compute 128 x 128 only); cluster_m 2: kSm90Tma's 256-wide
// configuration on 2-block clusters (Plan::cluster_m); pingpong: kSm90Tma's 128 x 128
// configuration's ping-pong variant (PingPongOf).
cudaError_t Prepare(Arch arch, int tile_m, int tile_n, int cluster_m, const GemmKernelArgs& args,
                    KernelConfig* config, bool pingpong = false) {
  if (args.input == DType::kF16)
    return PrepareF16Kernel(arch, tile_m, tile_n, cluster_m, pingpong, args.a_col_major,
                            args.b_row_major, config);
  if (args.input == DType::kBF16)
    return PrepareBF16Kernel(arch, tile_m, tile_n, cluster_m, pingpong, args.a_col_major,
                             args.b_row_major, config);
  return cudaErrorInvalidValue;
}

Arch DecideArch(int device) {
  int major = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      major != 9) {
    cudaGetLastError();
    return Arch::kSm80;
  }
  // The code the device would run for the sm90 kernels: binaryVersion 90 only when the library
  // was built for sm_90a (an sm_80-only build runs sm_80 code there, in which the wgmma kernels
  // are empty).
  GemmKernelArgs probe;
  KernelConfig config;
  cudaFuncAttributes attr;
  if (Prepare(Arch::kSm90Tma, kTileM, kTmaTileN, 1, probe, &config) != cudaSuccess ||
      cudaFuncGetAttributes(&attr, config.fn) != cudaSuccess) {
    cudaGetLastError();
    return Arch::kSm80;
  }
  if (attr.binaryVersion != 90) return Arch::kSm80;
  return Arch::kSm90Tma;
}

// cuTensorMapEncodeTiled through the runtime's driver entry point (no link against libcuda).
using EncodeTiledFn = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*,
                                   const cuuint64_t*, const cuuint64_t*, const cuuint32_t*,
                                   const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                                   CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

EncodeTiledFn EncodeTiled() {
  static const EncodeTiledFn fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault,
                                         &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      cudaGetLastError();
      return static_cast<EncodeTiledFn>(nullptr);
    }
    return reinterpret_cast<EncodeTiledFn>(p);
  }();
  return fn;
}

// A {inner, outer, entries} tensor of `type` (2-byte elements, or 4-byte fp32) for `encode`: `ld`
// elements between consecutive outer indices, `stride` between entries (read only where
// entries > 1), boxes of box_inner x box_outer x 1.
CUresult EncodeTensor(EncodeTiledFn encode, CUtensorMap* map, DType type, const void* ptr,
                      int64_t inner, int64_t outer, int64_t entries, int64_t ld, int64_t stride,
                      int box_inner, int box_outer, CUtensorMapSwizzle swizzle,
                      CUtensorMapL2promotion promotion) {
  // A map depends on nothing but these arguments, and a program calls the same GEMMs again and
  // again: each thread keeps its last maps and encodes only what it has not seen (the driver
  // call is a sizeable part of a small GEMM's host time, and a launch encodes up to six).
  struct Key {
    const void* ptr;
    cuuint64_t dims[3], strides[2];
    cuuint32_t box[3];
    CUtensorMapDataType data;
    CUtensorMapSwizzle swizzle;
    CUtensorMapL2promotion promotion;
  };
  static_assert(std::has_unique_object_representations_v<Key>, "no padding in a bytewise key");
  const cuuint64_t bytes = static_cast<cuuint64_t>(DTypeBytes(type));
  const Key key{ptr,
                {static_cast<cuuint64_t>(inner), static_cast<cuuint64_t>(outer),
                 static_cast<cuuint64_t>(entries)},
                {static_cast<cuuint64_t>(ld) * bytes,
                 static_cast<cuuint64_t>(entries > 1 ? stride : ld * outer) * bytes},
                {static_cast<cuuint32_t>(box_inner), static_cast<cuuint32_t>(box_outer), 1u},
                type == DType::kF32    ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                : type == DType::kBF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                       : CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
                swizzle,
                promotion};
  struct Entry {
    Key key;
    CUtensorMap map;
  };
  constexpr int kEntries = 32;
  thread_local Entry cache[kEntries];
  thread_local int used = 0, next = 0;
  for (int i = 0; i < used; ++i) {
    if (std::memcmp(&cache[i].key, &key, sizeof(key)) == 0) {
      *map = cache[i].map;
      return CUDA_SUCCESS;
    }
  }
  const cuuint32_t element_strides[3] = {1, 1, 1};
  const CUresult r = encode(map, key.data, 3, const_cast<void*>(ptr), key.dims, key.strides,
                            key.box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                            promotion, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r == CUDA_SUCCESS) {
    cache[next] = Entry{key, *map};
    next = (next + 1) % kEntries;
    if (used < kEntries) ++used;
  }
  return r;
}

// One operand as a {inner, outer, batch} tensor of 2-byte elements (tma_operands.h): mn rows or
// columns and k deep, `ld` elements between consecutive outer indices, `stride` between batch
// entries (0: one matrix for every entry, *broadcast = 1).
// The box is one k-iteration: `box_rows` rows of a k-contiguous operand (a tile's side, or fewer
// for a partial tile: LoadsOf), a 64-wide half of an m/n-contiguous one.
cudaError_t EncodeOperand(CUtensorMap* map, int* broadcast, DType type, const void* ptr,
                          bool mn_contiguous, int64_t mn, int64_t k, int64_t ld, int64_t stride,
                          int batch, int box_rows, int tile_k) {
  const EncodeTiledFn encode = EncodeTiled();
  if (encode == nullptr) return cudaErrorNotSupported;
  *broadcast = stride == 0 ? 1 : 0;
  const int64_t entries = batch > 1 && stride != 0 ? batch : 1;
  // k-contiguous: box_rows rows of tile_k elements (64 or 128 bytes: the swizzle of that width);
  // mn-contiguous: tile_k rows of 64 elements (128 bytes: the 128-byte swizzle), loaded up to
  // tile_mn / 64 times.
  const bool wide = mn_contiguous || tile_k * 2 == 128;
  const CUresult r = EncodeTensor(
      encode, map, type, ptr, mn_contiguous ? mn : k, mn_contiguous ? k : mn, entries, ld, stride,
      mn_contiguous ? 64 : tile_k, mn_contiguous ? tile_k : box_rows,
      wide ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_64B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

// A row-major m x n matrix (C or D) as a {cols, m, batch} tensor for the epilogue's TMA copies
// (tma_operands.h; cols: TensorColumnsOf): box 128 bytes of columns (64 16-bit elements, 32
// fp32) x a block's rows of the tile, 128-byte swizzle.
bool EncodeOutputMatrix(CUtensorMap* map, DType type, const void* ptr, int64_t cols, int64_t ld,
                        int64_t stride, const Plan& plan) {
  const EncodeTiledFn encode = EncodeTiled();
  if (encode == nullptr || ptr == nullptr || cols < 1) return false;
  return EncodeTensor(encode, map, type, ptr, cols, plan.m, plan.batch > 1 ? plan.batch : 1, ld,
                      stride, 128 / DTypeBytes(type), plan.tile_m / plan.cluster_m,
                      CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE) == CUDA_SUCCESS;
}

// The epilogue's D store path as Plan::store_d says (kernels::StoreDOf, the planner's pick): for
// kTma the TMA maps of D (tma->d_store) and, with beta != 0, C (tma->c_load), of TensorColumnsOf's
// columns, which end at a 16-byte boundary: the TMA unit writes whole 16-byte chunks, and a box
// that crossed n overwrote the elements from n up to the next boundary
// (GemmGpu.EpilogueWritesOnlyDsEntries, H200; triton-lang/triton issue 11583), which may belong to
// another matrix (D a column slice of a wider one). For kRows / kRowsCopyWarp, bulk copies of the
// rows' 16-byte chunks issued by the compute warps / the copying warp (d_rows); for kThreads, the
// epilogue's own loads and stores. A plan whose D the driver cannot describe as it said fails
// with cudaErrorInvalidValue.
cudaError_t EncodeOutput(const Plan& plan, const GemmKernelArgs& args, TmaOperands* tma) {
  tma->d_store = tma->c_load = tma->d_rows = 0;
  switch (plan.store_d) {
    case StoreD::kThreads: return cudaSuccess;
    case StoreD::kRows: tma->d_rows = kRowsByComputeWarps; return cudaSuccess;
    case StoreD::kRowsCopyWarp: tma->d_rows = kRowsByCopyingWarp; return cudaSuccess;
    case StoreD::kTma: break;
  }
  const int64_t cols =
      TensorColumnsOf(plan.n, DTypeBytes(args.output), args.beta, args.cd_vectors);
  if (!EncodeOutputMatrix(&tma->d, args.output, args.d, cols, args.ldd, args.stride_d, plan) ||
      (args.beta != 0.0f &&
       !EncodeOutputMatrix(&tma->c, args.output, args.c, cols, args.ldc, args.stride_c, plan)))
    return cudaErrorInvalidValue;
  tma->d_store = 1;
  tma->d_cols = static_cast<int>(cols);
  tma->c_load = args.beta != 0.0f;
  return cudaSuccess;
}

// The copies Plan::repack_a / repack_b ask for, and `args` pointed at them: K-major rows
// Plan::repack_ld apart, from a K-major operand (whose rows are misaligned or unaligned) or an
// mn-major one (unaligned, Plan::a_unaligned, or narrow, NarrowMnExtent), which is transposed and
// then read as K-major.
cudaError_t RepackOperands(const Plan& plan, char* workspace, bool programmatic,
                           cudaStream_t stream, GemmKernelArgs* args) {
  struct Operand {
    bool repack;
    int64_t offset, rows;
    const void** ptr;
    int64_t *ld, *stride;
    bool* mn_major;
  };
  const Operand operands[] = {{plan.repack_a, plan.repack_a_offset, plan.m, &args->a,
                               &args->lda, &args->stride_a, &args->a_col_major},
                              {plan.repack_b, plan.repack_b_offset, plan.n, &args->b,
                               &args->ldb, &args->stride_b, &args->b_row_major}};
  OperandCopy copies[2];
  int count = 0;
  for (const Operand& o : operands) {
    if (!o.repack) continue;
    // A batch whose entries share the operand (stride 0) shares its one copy.
    const int64_t entries = plan.batch > 1 && *o.stride != 0 ? plan.batch : 1;
    OperandCopy& c = copies[count++];
    c.src = *o.ptr, c.src_ld = *o.ld, c.src_stride = *o.stride;
    c.rows = o.rows, c.k = plan.k, c.entries = entries, c.mn_major = *o.mn_major;
    c.dst = workspace + o.offset, c.dst_ld = plan.repack_ld;
    *o.ptr = c.dst;
    *o.ld = plan.repack_ld;
    *o.stride = entries > 1 ? o.rows * plan.repack_ld : 0;
    *o.mn_major = false;
  }
  return LaunchOperandCopies(copies, count, plan.avail_sms * plan.cluster_m, programmatic,
                             stream);
}

}  // namespace

Arch KernelArch(int device) {
  // Per device: 0 unknown, 1 + Arch once decided.
  static std::atomic<int> decided[64];
  if (device < 0 || device >= 64) return DecideArch(device);
  int v = decided[device].load(std::memory_order_relaxed);
  if (v == 0) {
    v = 1 + static_cast<int>(DecideArch(device));
    decided[device].store(v, std::memory_order_relaxed);
  }
  return static_cast<Arch>(v - 1);
}

bool RunsMainloop(int device, Arch arch) {
  // The sm_90a kernels need what the TMA one needs (sm_90a code on a compute capability 9 GPU).
  return arch == Arch::kSm80 || KernelArch(device) == Arch::kSm90Tma;
}

const char* ArchName(Arch arch) {
  switch (arch) {
    case Arch::kSm90Tma: return "sm90a (wgmma, TMA producer warp)";
    case Arch::kSm90: return "sm90a (wgmma, cp.async)";
    case Arch::kSm80: break;
  }
  return "sm80 (mma.sync)";
}

cudaError_t EncodeTmaOperands(const Plan& plan, const GemmKernelArgs& args, TmaOperands* tma) {
  // A block loads its own rows of A (tile_m / cluster_m). With clusters, B's tile is loaded in
  // halves, each block's written to both (mainloop_sm90_tma.cuh): a k-contiguous B's box is half
  // the tile's rows and always whole (no partial-tile map), while "full" expects the whole tile.
  tma->a_load = LoadsOf(args.a_col_major, plan.m, plan.tile_m / plan.cluster_m, plan.tile_k);
  // A grouped plan's tiles start at their groups' rows, not at multiples of tile_m: each loads
  // whole boxes (the rows past its group's end are loaded and never stored).
  if (plan.groups > 0) tma->a_load.edge_from = INT64_MAX;
  tma->b_load = LoadsOf(args.b_row_major, plan.n, plan.tile_n, plan.tile_k);
  int b_box_rows = tma->b_load.whole.box_rows;
  if (plan.cluster_m > 1 && !args.b_row_major) {
    tma->b_load.edge_from = INT64_MAX;
    b_box_rows /= plan.cluster_m;
  }
  // Each operand's map, and a k-contiguous operand's map for its partial last tile.
  struct Operand {
    CUtensorMap *map, *edge_map;
    int* broadcast;
    const void* ptr;
    bool mn_contiguous;
    int64_t mn, ld, stride;
    const OperandLoads& load;
    int box_rows;
  };
  const Operand operands[] = {
      {&tma->a, &tma->a_edge, &tma->a_broadcast, args.a, args.a_col_major, plan.m, args.lda,
       args.stride_a, tma->a_load, tma->a_load.whole.box_rows},
      {&tma->b, &tma->b_edge, &tma->b_broadcast, args.b, args.b_row_major, plan.n, args.ldb,
       args.stride_b, tma->b_load, b_box_rows}};
  // A grouped plan's B has a matrix per group; its A and D are one matrix of stacked rows.
  const int entries = plan.groups > 0 ? args.groups : plan.batch;
  for (const Operand& o : operands) {
    if (cudaError_t err =
            EncodeOperand(o.map, o.broadcast, args.input, o.ptr, o.mn_contiguous, o.mn, plan.k,
                          o.ld, o.stride, entries, o.box_rows, plan.tile_k);
        err != cudaSuccess)
      return err;
    if (o.mn_contiguous || o.load.edge_from == INT64_MAX) continue;
    if (cudaError_t err =
            EncodeOperand(o.edge_map, o.broadcast, args.input, o.ptr, false, o.mn, plan.k, o.ld,
                          o.stride, entries, o.load.edge.box_rows, plan.tile_k);
        err != cudaSuccess)
      return err;
  }
  return EncodeOutput(plan, args, tma);
}

cudaError_t LaunchGemm(const Plan& plan, const GemmKernelArgs& args, void* workspace,
                       cudaStream_t stream, LaunchFlags flags) {
  if (plan.grid_blocks < 1) return cudaErrorInvalidConfiguration;
  int device = 0;
  if (cudaError_t err = cudaGetDevice(&device); err != cudaSuccess) return err;
  // The plan's kernel as it says: its mainloop, configuration and ping-pong variant.
  const Arch arch = plan.mainloop;
  if (!RunsMainloop(device, arch) || !ComputesTile(arch, plan.tile_m, plan.tile_n, plan.tile_k) ||
      (plan.pingpong && !PingPongOf(plan, plan.store_d == StoreD::kTma, 1)) ||
      (arch != Arch::kSm90Tma && plan.store_d != StoreD::kThreads) ||
      plan.cluster_m != ClusterOf(arch, plan.tile_m) ||
      (plan.schedule == Schedule::kDynamic && plan.cluster_m != 1))
    return cudaErrorInvalidValue;
  // A grouped plan's tiles end at their groups' rows, which D's tensor map cannot say; its
  // operands are read as they are.
  if ((plan.groups > 0) != (args.group_rows != nullptr) ||
      (plan.groups > 0 && (plan.store_d == StoreD::kTma || plan.pingpong || plan.repack_a ||
                           plan.repack_b || args.groups < 1 || plan.batch != 1)))
    return cudaErrorInvalidValue;
  GemmKernelArgs a = args;
  char* ws = static_cast<char*>(workspace);
  // Only the sm_90a kernels wait for the previous grid (GridDependencyWait), so only they may be
  // launched before it ends; the copies in front of them launch the same way.
  const bool programmatic = flags.programmatic && arch != Arch::kSm80;
  if (cudaError_t err = RepackOperands(plan, ws, programmatic, stream, &a); err != cudaSuccess)
    return err;
  TmaOperands tma;
  if (arch == Arch::kSm90Tma) {
    if (cudaError_t err = EncodeTmaOperands(plan, a, &tma); err != cudaSuccess) return err;
    tma.narrow = plan.narrow_wgmma ? 1 : 0;
  }
  KernelConfig kernel;
  if (cudaError_t err =
          Prepare(arch, plan.tile_m, plan.tile_n, plan.cluster_m, a, &kernel, plan.pingpong);
      err != cudaSuccess)
    return err;

  Plan p = plan;
  mapping::SetDivisors(p);  // whoever made or edited the plan, the kernel divides by its fields
  void* params[] = {&p, &a, &ws, &tma};  // the last one only for the TMA kernel
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(plan.grid_blocks * plan.cluster_m);  // a plan's block: a cluster
  config.blockDim = dim3(kernel.threads);
  config.dynamicSmemBytes = static_cast<size_t>(kernel.smem);
  config.stream = stream;
  cudaLaunchAttribute attr[3];
  config.attrs = attr;
  if (plan.cluster_m > 1) {
    attr[config.numAttrs].id = cudaLaunchAttributeClusterDimension;
    attr[config.numAttrs].val.clusterDim.x = static_cast<unsigned>(plan.cluster_m);
    attr[config.numAttrs].val.clusterDim.y = attr[config.numAttrs].val.clusterDim.z = 1;
    ++config.numAttrs;
  }
  // Only plans whose blocks wait on each other need co-residency, and of those only static ones:
  // under a dynamic schedule a block waits only for work blocks running blocks have claimed.
  const bool waits = plan.sk_blocks > 0 && plan.schedule == Schedule::kStatic;
  if (flags.cooperative && waits) {
    attr[config.numAttrs].id = cudaLaunchAttributeCooperative;
    attr[config.numAttrs].val.cooperative = 1;
    ++config.numAttrs;
  }
  if (programmatic) {
    attr[config.numAttrs].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[config.numAttrs].val.programmaticStreamSerializationAllowed = 1;
    ++config.numAttrs;
  }
  return cudaLaunchKernelExC(&config, kernel.fn, params);
}

cudaError_t LaunchGroupedGemm(const Plan& plan, const GemmKernelArgs& args, const GroupEnds* ends,
                              const int* device_ends, void* workspace, cudaStream_t stream,
                              LaunchFlags flags) {
  if (plan.groups < 1 || plan.groups > kMaxTableGroups || workspace == nullptr ||
      plan.group_rows_bytes < int64_t{plan.tiles_m} * 16)
    return cudaErrorInvalidValue;
  GemmKernelArgs a = args;
  a.groups = plan.groups;
  a.group_rows = reinterpret_cast<const mapping::GroupRow*>(static_cast<char*>(workspace) +
                                                            plan.group_rows_offset);
  const bool programmatic = flags.programmatic && plan.mainloop != Arch::kSm80;
  if (cudaError_t err =
          LaunchGroupTable(ends, device_ends, plan.groups, plan.tile_m, plan.m, plan.tiles_m,
                           const_cast<mapping::GroupRow*>(a.group_rows), programmatic, stream);
      err != cudaSuccess)
    return err;
  return LaunchGemm(plan, a, workspace, stream, flags);
}

namespace {

// Runs fn() with `device` current (so that KernelArch, Prepare and the occupancy queries all see
// it), then makes the previous device current again.
template <typename Fn>
cudaError_t OnDevice(int device, Fn fn) {
  int current = 0;
  if (cudaError_t err = cudaGetDevice(&current); err != cudaSuccess) return err;
  if (current != device) {
    if (cudaError_t err = cudaSetDevice(device); err != cudaSuccess) return err;
  }
  const cudaError_t result = fn();
  if (current != device) cudaSetDevice(current);
  return result;
}

// The least of `count(kernel)` over the kernels of every input type and A/B layout of the
// configuration (arch, tile_n, cluster_m, pingpong) on the current device, into *least; the first
// error stops it.
template <typename Count>
cudaError_t LeastOverKernels(Arch arch, int tile_m, int tile_n, int cluster_m, Count count,
                             int* least, bool pingpong = false) {
  for (DType t : {DType::kF16, DType::kBF16}) {
    for (int layout = 0; layout < 4; ++layout) {
      GemmKernelArgs a;
      a.input = t;
      a.a_col_major = layout & 1;
      a.b_row_major = layout & 2;
      KernelConfig kernel;
      int n = 0;
      if (cudaError_t err = Prepare(arch, tile_m, tile_n, cluster_m, a, &kernel, pingpong);
          err != cudaSuccess)
        return err;
      if (cudaError_t err = count(kernel, &n); err != cudaSuccess) return err;
      *least = std::min(*least, n);
    }
  }
  return cudaSuccess;
}

}  // namespace

cudaError_t KernelOccupancy(int device, Arch arch, int* blocks_per_sm) {
  int least = 1 << 30;
  const cudaError_t result = OnDevice(device, [&] {
    // Every tile configuration of the arch without clusters: a plan may use any, and the
    // 128 x 128 tile's launch its ping-pong variant (kSm90Tma).
    struct Configuration {
      int m, n;
      bool pingpong;
    };
    const Configuration configurations[] = {{kTileM, kTmaTileN, false},
                                            {kTileM, kTmaMidTileN, false},
                                            {kTileM, kTmaBroadTileN, false},
                                            {kTileM, kTileN, false},
                                            {kTmaWideTileM, kTmaWideTileN, false},
                                            {kTmaSmallTileM, kTileN, false},
                                            {kTileM, kTileN, true}};
    for (const Configuration& c : configurations) {
      if (!ComputesTile(arch, c.m, c.n, TileOf(arch).k)) continue;
      if (c.pingpong && arch != Arch::kSm90Tma) continue;
      const cudaError_t err = LeastOverKernels(
          arch, c.m, c.n, 1,
          [](const KernelConfig& kernel, int* blocks) {
            return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel.fn,
                                                                 kernel.threads, kernel.smem);
          },
          &least, c.pingpong);
      if (err != cudaSuccess) return err;
    }
    return cudaSuccess;
  });
  *blocks_per_sm = result == cudaSuccess ? least : 0;
  return result;
}

cudaError_t ClusterSlots(int device, Arch arch, int* clusters) {
  int least = 1 << 30;
  const cudaError_t result = OnDevice(device, [&] {
    if (arch != Arch::kSm90Tma || KernelArch(device) != Arch::kSm90Tma) {
      least = 0;  // no cluster configuration
      return cudaSuccess;
    }
    return LeastOverKernels(
        Arch::kSm90Tma, kTileM, kTmaTileN, 2,
        [](const KernelConfig& kernel, int* slots) {
          cudaLaunchConfig_t config = {};
          cudaLaunchAttribute attr[1];
          attr[0].id = cudaLaunchAttributeClusterDimension;
          attr[0].val.clusterDim.x = 2;
          attr[0].val.clusterDim.y = attr[0].val.clusterDim.z = 1;
          config.attrs = attr;
          config.numAttrs = 1;
          config.gridDim = dim3(2);  // a whole cluster (the query rejects a grid of none)
          config.blockDim = dim3(kernel.threads);
          config.dynamicSmemBytes = static_cast<size_t>(kernel.smem);
          return cudaOccupancyMaxActiveClusters(slots, kernel.fn, &config);
        },
        &least);
  });
  *clusters = result == cudaSuccess ? least : 0;
  return result;
}

}  // namespace streamk::kernels
