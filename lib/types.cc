// Names of the public enums, and parsing them back (see types.h).
#include "streamk/types.h"

#include <string>

#include "absl/strings/ascii.h"

namespace streamk {

const char* DTypeName(DType t) {
  switch (t) {
    case DType::kF16: return "fp16";
    case DType::kBF16: return "bf16";
    case DType::kF32: return "fp32";
  }
  return "?";
}

const char* LayoutName(Layout l) { return l == Layout::kRowMajor ? "row" : "col"; }

const char* ModeName(Mode m) {
  switch (m) {
    case Mode::kAuto: return "auto";
    case Mode::kDataParallel: return "dp";
    case Mode::kSplitK: return "splitk";
    case Mode::kStreamK: return "streamk";
  }
  return "?";
}

const char* ReductionName(Reduction r) {
  switch (r) {
    case Reduction::kDeterministic: return "deterministic";
    case Reduction::kAtomic: return "atomic";
    case Reduction::kSeparate: return "separate";
  }
  return "?";
}

const char* RasterName(Raster r) { return r == Raster::kAlongN ? "along-n" : "along-m"; }

const char* RepackOperandsName(RepackOperands r) {
  switch (r) {
    case RepackOperands::kNone: return "off";
    case RepackOperands::kA: return "a";
    case RepackOperands::kB: return "b";
    case RepackOperands::kAll: return "on";
  }
  return "?";
}

const char* ScheduleName(Schedule s) {
  switch (s) {
    case Schedule::kStatic: return "static";
    case Schedule::kDynamic: return "dynamic";
  }
  return "?";
}

const char* StoreDName(StoreD s) {
  switch (s) {
    case StoreD::kThreads: return "threads";
    case StoreD::kTma: return "tma";
    case StoreD::kRows: return "rows";
    case StoreD::kRowsCopyWarp: return "rows-warp";
  }
  return "?";
}

const char* MainloopName(Mainloop m) {
  switch (m) {
    case Mainloop::kSm80: return "sm80";
    case Mainloop::kSm90: return "sm90-cpasync";
    case Mainloop::kSm90Tma: return "sm90-tma";
  }
  return "?";
}

std::optional<DType> ParseDType(std::string_view s) {
  const std::string w = absl::AsciiStrToLower(std::string(s));
  if (w == "fp16" || w == "f16" || w == "half" || w == "float16") return DType::kF16;
  if (w == "bf16" || w == "bfloat16") return DType::kBF16;
  if (w == "fp32" || w == "f32" || w == "float" || w == "float32") return DType::kF32;
  return std::nullopt;
}

std::optional<Layout> ParseLayout(std::string_view s) {
  const std::string w = absl::AsciiStrToLower(std::string(s));
  if (w == "row" || w == "r" || w == "row-major") return Layout::kRowMajor;
  if (w == "col" || w == "c" || w == "col-major" || w == "column") return Layout::kColMajor;
  return std::nullopt;
}

std::optional<Mode> ParseMode(std::string_view s) {
  const std::string w = absl::AsciiStrToLower(std::string(s));
  if (w == "auto") return Mode::kAuto;
  if (w == "dp" || w == "data-parallel" || w == "dataparallel") return Mode::kDataParallel;
  if (w == "splitk" || w == "split-k") return Mode::kSplitK;
  if (w == "streamk" || w == "stream-k") return Mode::kStreamK;
  return std::nullopt;
}

std::optional<Reduction> ParseReduction(std::string_view s) {
  const std::string w = absl::AsciiStrToLower(std::string(s));
  if (w == "deterministic" || w == "turnstile") return Reduction::kDeterministic;
  if (w == "atomic") return Reduction::kAtomic;
  if (w == "separate") return Reduction::kSeparate;
  return std::nullopt;
}

std::optional<RepackOperands> ParseRepackOperands(std::string_view s) {
  const std::string w = absl::AsciiStrToLower(std::string(s));
  if (w == "off" || w == "none") return RepackOperands::kNone;
  if (w == "a") return RepackOperands::kA;
  if (w == "b") return RepackOperands::kB;
  if (w == "on" || w == "all" || w == "both" || w == "ab") return RepackOperands::kAll;
  return std::nullopt;
}

std::optional<Schedule> ParseSchedule(std::string_view s) {
  const std::string w = absl::AsciiStrToLower(std::string(s));
  if (w == "static") return Schedule::kStatic;
  if (w == "dynamic" || w == "stealing" || w == "work-stealing") return Schedule::kDynamic;
  return std::nullopt;
}

std::optional<StoreD> ParseStoreD(std::string_view s) {
  const std::string w = absl::AsciiStrToLower(std::string(s));
  if (w == "threads" || w == "elements") return StoreD::kThreads;
  if (w == "tma" || w == "tensor") return StoreD::kTma;
  if (w == "rows") return StoreD::kRows;
  if (w == "rows-warp" || w == "warp") return StoreD::kRowsCopyWarp;
  return std::nullopt;
}

std::optional<Mainloop> ParseMainloop(std::string_view s) {
  const std::string w = absl::AsciiStrToLower(std::string(s));
  if (w == "sm80" || w == "mma.sync") return Mainloop::kSm80;
  if (w == "sm90-cpasync" || w == "sm90") return Mainloop::kSm90;
  if (w == "sm90-tma" || w == "tma") return Mainloop::kSm90Tma;
  return std::nullopt;
}

}  // namespace streamk
