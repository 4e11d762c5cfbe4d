// Value types shared by the planner, the kernels and the public API: element types, layouts,
// decomposition modes and reduction strategies. Plain enums with stable names, no Abseil, so the
// CUDA side (kernels/) can include this header too. Every enum prints through AbslStringify (the
// template needs no Abseil header) and parses back from the same word with Parse*().
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace streamk {

// Element types. Inputs (A, B) are fp16 or bf16; outputs (C, D) fp16, bf16 or fp32; the kernel
// always accumulates in fp32.
enum class DType : uint8_t { kF16, kBF16, kF32 };

// Storage order of a matrix. For A (m x k) row-major means k is contiguous; for B (k x n)
// row-major means n is contiguous; for C/D (m x n) row-major means n is contiguous.
enum class Layout : uint8_t { kRowMajor, kColMajor };

// How the output tiles' multiply-accumulate work is spread over thread blocks.
enum class Mode : uint8_t {
  kAuto,          // the planner picks: data-parallel, or data-parallel waves plus a Stream-K wave
  kDataParallel,  // one block per output tile, every tile's whole k range
  kSplitK,        // every tile split into `splits` equal k-slices, one block each
  kStreamK,       // every tile's iterations spread evenly over `blocks` Stream-K blocks
};

// How partial sums of a tile shared by several blocks are combined.
enum class Reduction : uint8_t {
  kDeterministic,  // peers add into one buffer in k order (turnstile); bitwise reproducible
  kAtomic,         // peers add with atomics as they finish; faster, not bitwise reproducible
  kSeparate,       // peers only publish; reduction blocks sum them in k order (reproducible)
};

// Linear tile index -> (tile_m, tile_n) walk order. kAlongN walks n fastest within bands of
// `swizzle` tile rows; kAlongM walks m fastest within bands of `swizzle` tile columns.
enum class Raster : uint8_t { kAlongN, kAlongM };

// How the persistent blocks get their work blocks (Plan::schedule).
enum class Schedule : uint8_t {
  // Block b runs work blocks b, b + grid_blocks, ...: fixed before the launch. Plans whose blocks
  // wait on each other are launched cooperatively (every block resident at once).
  kStatic,
  // Each block takes the next work block nobody has taken from a counter in the workspace, in
  // increasing order, until none is left. A block that starts late (its SM held by another
  // kernel) takes less work, and the launch needs no co-residency: a block only ever waits for
  // work blocks that running blocks have already taken (kernels/persistent_kernel.cuh).
  kDynamic,
};

// The kernel's mainloop (DeviceSpec::mainloop, Plan::mainloop): mma.sync fed by cp.async (sm_80
// and newer); wgmma fed by cp.async from all threads (sm_90a); wgmma fed by TMA from a producer
// warp group (sm_90a, warp-specialized).
enum class Mainloop : uint8_t { kSm80, kSm90, kSm90Tma };

// How the TMA kernel's epilogue writes a tile of D (Plan::store_d; the other mainloops' epilogues
// always store their own elements).
enum class StoreD : uint8_t {
  kThreads,       // the epilogue's threads store their elements (C loaded the same way)
  kTma,           // TMA stores of swizzled boxes of D as a tensor (and C loaded so, with beta != 0)
  kRows,          // bulk copies of each row's 16-byte chunks, issued by the compute warps
  kRowsCopyWarp,  // the same copies issued by an idle warp of the producer's warp group
};

// Which operands whose K-major rows start at odd multiples of 16 bytes are copied to aligned rows
// before the kernel (PlanOptions::repack, Options::repack): none, A's, B's, or every such one.
// Naming an operand whose rows are aligned copies nothing.
enum class RepackOperands : uint8_t { kNone, kA, kB, kAll };

// The same operands with A and B trading names: a GEMM with a column-major D runs as the
// row-major D^T = B^T A^T, whose A is the call's B.
constexpr RepackOperands SwapOperands(RepackOperands r) {
  return r == RepackOperands::kA   ? RepackOperands::kB
         : r == RepackOperands::kB ? RepackOperands::kA
                                   : r;
}

// Size of one element in bytes.
constexpr int DTypeBytes(DType t) { return t == DType::kF32 ? 4 : 2; }

const char* DTypeName(DType t);          // "fp16", "bf16", "fp32"
const char* LayoutName(Layout l);        // "row", "col"
const char* ModeName(Mode m);            // "auto", "dp", "splitk", "streamk"
const char* ReductionName(Reduction r);  // "deterministic", "atomic", "separate"
const char* RasterName(Raster r);        // "along-n", "along-m"
const char* RepackOperandsName(RepackOperands r);  // "off", "a", "b", "on"
const char* ScheduleName(Schedule s);    // "static", "dynamic"
const char* StoreDName(StoreD s);        // "threads", "tma", "rows", "rows-warp"
const char* MainloopName(Mainloop m);    // "sm80", "sm90-cpasync", "sm90-tma"

// The inverse of the *Name functions (also accepts a few common spellings such as "half",
// "data-parallel", "split-k"). nullopt for anything else.
std::optional<DType> ParseDType(std::string_view s);
std::optional<Layout> ParseLayout(std::string_view s);
std::optional<Mode> ParseMode(std::string_view s);
std::optional<Reduction> ParseReduction(std::string_view s);
std::optional<RepackOperands> ParseRepackOperands(std::string_view s);
std::optional<Schedule> ParseSchedule(std::string_view s);
std::optional<StoreD> ParseStoreD(std::string_view s);
std::optional<Mainloop> ParseMainloop(std::string_view s);

template <typename Sink>
void AbslStringify(Sink& sink, DType v) { sink.Append(DTypeName(v)); }
template <typename Sink>
void AbslStringify(Sink& sink, Layout v) { sink.Append(LayoutName(v)); }
template <typename Sink>
void AbslStringify(Sink& sink, Mode v) { sink.Append(ModeName(v)); }
template <typename Sink>
void AbslStringify(Sink& sink, Reduction v) { sink.Append(ReductionName(v)); }
template <typename Sink>
void AbslStringify(Sink& sink, Raster v) { sink.Append(RasterName(v)); }
template <typename Sink>
void AbslStringify(Sink& sink, RepackOperands v) { sink.Append(RepackOperandsName(v)); }
template <typename Sink>
void AbslStringify(Sink& sink, Schedule v) { sink.Append(ScheduleName(v)); }
template <typename Sink>
void AbslStringify(Sink& sink, StoreD v) { sink.Append(StoreDName(v)); }
template <typename Sink>
void AbslStringify(Sink& sink, Mainloop v) { sink.Append(MainloopName(v)); }

}  // namespace streamk
