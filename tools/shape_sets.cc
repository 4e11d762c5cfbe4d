// Shape lists for streamk-bench (see shape_sets.h).
#include "shape_sets.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace streamk::tools {
namespace {

bool ParsePositive(absl::string_view s, int64_t* out) {
  return absl::SimpleAtoi(s, out) && *out > 0;
}

}  // namespace

absl::StatusOr<BenchShape> ParseShape(const std::string& text) {
  std::vector<std::string> parts = absl::StrSplit(absl::AsciiStrToLower(text), 'x');
  BenchShape s;
  s.set = "cli";
  if (parts.size() != 3 || !ParsePositive(parts[0], &s.m) || !ParsePositive(parts[1], &s.n) ||
      !ParsePositive(parts[2], &s.k))
    return absl::InvalidArgumentError(
        absl::StrCat("shape '", text, "': expected MxNxK with positive integers"));
  return s;
}

absl::StatusOr<std::vector<BenchShape>> ParseShapesFile(const std::string& path,
                                                        const std::string& contents) {
  std::vector<BenchShape> shapes;
  int line_no = 0;
  for (absl::string_view line : absl::StrSplit(contents, '\n')) {
    ++line_no;
    line = line.substr(0, line.find('#'));
    std::vector<std::string> words = absl::StrSplit(absl::StripAsciiWhitespace(line),
                                                    absl::ByAnyChar(" \t,"), absl::SkipEmpty());
    if (words.empty()) continue;
    BenchShape s;
    s.set = "file";
    size_t first = 0;
    if (words.size() == 4) {
      s.name = words[0];
      first = 1;
    }
    if ((words.size() != 3 && words.size() != 4) || !ParsePositive(words[first], &s.m) ||
        !ParsePositive(words[first + 1], &s.n) || !ParsePositive(words[first + 2], &s.k))
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":", line_no, ": expected 'M N K' or 'NAME M N K' with positive "
                       "integers, got '", std::string(line), "'"));
    shapes.push_back(s);
  }
  if (shapes.empty()) return absl::InvalidArgumentError(absl::StrCat(path, ": no shapes"));
  return shapes;
}

std::optional<BenchLayout> ParseBenchLayout(const std::string& text) {
  auto letter = [](char c) { return c == 't' || c == 'n'; };
  if (text.size() != 2 || !letter(text[0]) || !letter(text[1])) return std::nullopt;
  return BenchLayout{text[0] == 't', text[1] == 't'};
}

GemmArgs BenchGemmArgs(const BenchShape& s, DType in, DType out, BenchLayout layout, int batch,
                       bool packed) {
  auto align8 = [packed](int64_t x) { return packed ? x : (x + 7) / 8 * 8; };
  GemmArgs g;
  g.m = s.m, g.n = s.n, g.k = s.k, g.batch = batch;
  g.input = in, g.output = out;
  g.a_layout = layout.a_row ? Layout::kRowMajor : Layout::kColMajor;
  g.b_layout = layout.b_row ? Layout::kRowMajor : Layout::kColMajor;
  g.cd_layout = Layout::kColMajor;
  g.lda = align8(layout.a_row ? s.k : s.m);
  g.ldb = align8(layout.b_row ? s.n : s.k);
  g.ldd = g.ldc = align8(s.m);
  g.stride_a = g.lda * (layout.a_row ? s.m : s.k);
  g.stride_b = g.ldb * (layout.b_row ? s.k : s.n);
  g.stride_d = g.stride_c = g.ldd * s.n;
  return g;
}

std::vector<std::string> RepeatedFlagValues(int argc, char** argv, const std::string& name) {
  std::vector<std::string> values;
  auto add = [&values](const std::string& v) {
    for (absl::string_view part : absl::StrSplit(v, ',', absl::SkipEmpty()))
      values.emplace_back(part);
  };
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;
    for (const std::string& dash : {std::string("--"), std::string("-")}) {
      const std::string flag = dash + name;
      if (arg == flag && i + 1 < argc) {
        add(argv[++i]);
        break;
      }
      if (absl::StartsWith(arg, flag + "=")) {
        add(arg.substr(flag.size() + 1));
        break;
      }
    }
  }
  return values;
}

std::vector<BenchShape> PaperSet(int count, uint64_t seed, int align) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> log_size(std::log(128.0), std::log(8192.0));
  auto draw = [&] {
    const int64_t v = static_cast<int64_t>(std::exp(log_size(rng)));
    return std::max<int64_t>(128, v / align * align);
  };
  std::vector<BenchShape> out;
  for (int i = 0; i < count; ++i) {
    BenchShape s;
    s.set = "paper";
    s.m = draw(), s.n = draw(), s.k = draw();
    out.push_back(s);
  }
  return out;
}

std::vector<BenchShape> WaveQuantizationSet(int sms, int tile_m, int tile_n) {
  // For 1..4 whole waves plus a few tiles, the most nearly square tile grid with exactly that
  // many tiles (tm <= tn); K spans short and long reductions.
  std::vector<BenchShape> out;
  const int extras[] = {1, 4, 12};
  const int64_t ks[] = {1024, 4096, 8192};
  for (int waves = 1; waves <= 4; ++waves) {
    for (int extra : extras) {
      const int tiles = waves * sms + extra;
      int tm = static_cast<int>(std::sqrt(static_cast<double>(tiles)));
      while (tm > 1 && tiles % tm != 0) --tm;
      const int tn = tiles / tm;
      if (tn > 4 * tm + 8) continue;  // prime-ish counts make 1 x N strips: not a useful shape
      for (int64_t k : ks) {
        BenchShape s;
        s.set = "waveq";
        s.name = absl::StrCat(tiles, "tiles");
        s.m = int64_t{tm} * tile_m, s.n = int64_t{tn} * tile_n, s.k = k;
        out.push_back(s);
      }
    }
  }
  return out;
}

std::vector<BenchShape> LlmSet() {
  // (N, K) of Llama-style projections: 7B qkv / up / down, 70B qkv / up / down; M = tokens.
  struct Proj {
    const char* name;
    int64_t n, k;
  };
  const Proj projections[] = {{"7b.qkv", 12288, 4096}, {"7b.up", 11008, 4096},
                              {"7b.down", 4096, 11008}, {"70b.qkv", 10240, 8192},
                              {"70b.up", 28672, 8192}, {"70b.down", 8192, 28672}};
  const int64_t tokens[] = {16, 64, 128, 512, 2048, 4096};
  std::vector<BenchShape> out;
  for (const Proj& p : projections) {
    for (int64_t m : tokens) {
      BenchShape s;
      s.set = "llm";
      s.name = absl::StrCat(p.name, ".m", m);
      s.m = m, s.n = p.n, s.k = p.k;
      out.push_back(s);
    }
  }
  return out;
}

std::vector<BenchShape> CalibrationSet() {
  std::mt19937_64 rng(20261206);
  auto log_uniform = [&rng](double lo, double hi) {
    std::uniform_real_distribution<double> d(std::log(lo), std::log(hi));
    return std::max<int64_t>(64, static_cast<int64_t>(std::exp(d(rng))) / 64 * 64);
  };
  std::vector<BenchShape> out;
  for (int i = 0; i < 40; ++i) {
    BenchShape s;
    s.set = "calib";
    s.m = log_uniform(64, 8192), s.n = log_uniform(64, 8192), s.k = log_uniform(256, 16384);
    out.push_back(s);
  }
  const int64_t rows[] = {16, 32, 64, 128};
  const int64_t cols[] = {4096, 14336};
  for (int i = 0; i < 8; ++i) {
    BenchShape s;
    s.set = "calib";
    s.name = "decode";
    s.m = rows[i / 2];  // tokens, as LlmSet's M
    s.n = cols[i % 2];
    s.k = i % 3 == 0 ? 8192 : 4096;
    out.push_back(s);
  }
  return out;
}

std::vector<std::string> CalibrationModes(const DeviceSpec& device) {
  std::vector<std::string> modes;
  auto name = [](const TileShape& t) { return absl::StrCat(t.m, "x", t.n, "x", t.k); };
  for (const KernelConfig& c : device.kernels) {
    if (c.tile == kNoTile) continue;
    modes.push_back("dp/" + name(c.tile));
    // The cluster configuration streams too where the planner weighs it (misaligned rows).
    if (c.cluster_m > 1) modes.push_back("streamk/" + name(c.tile));
  }
  for (KernelRole role : {KernelRole::kMain, KernelRole::kAlt, KernelRole::kSmall}) {
    const TileShape t = device.TileOf(role);
    if (t == kNoTile) continue;
    for (const char* kind : {"splitk/", "streamk/", "streamk-tail/"})
      modes.push_back(kind + name(t));
    // Fixed splits too, with each reduction: the best split under the model being fitted is
    // not the one the start's model picks, and the fit must have seen what it may pick.
    modes.push_back("splitk:2/" + name(t));
    modes.push_back("splitk:4/" + name(t) + "@separate");
    modes.push_back("splitk:8/" + name(t) + "@separate");
  }
  // The other configurations' split and streamed plans, the planner's best of each kind: auto
  // runs them data-parallel only, but a planner that weighs every candidate by the model needs
  // their Stream-K constants fitted too (docs/results/2026-12-07-h100/planner-gates.md).
  for (KernelRole role : {KernelRole::kMid, KernelRole::kWide, KernelRole::kBroad}) {
    const TileShape t = device.TileOf(role);
    if (t == kNoTile) continue;
    for (const char* kind : {"splitk/", "streamk/", "streamk-tail/"})
      modes.push_back(kind + name(t));
  }
  return modes;
}

}  // namespace streamk::tools
