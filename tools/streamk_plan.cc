// streamk-plan: prints the planner's decisions for one GEMM shape, on the local GPU or any preset.
//
//   streamk-plan 1536 1536 4096                      # text report, H200 model without a GPU
//   streamk-plan 1536 1536 4096 --device a100 --json
//   streamk-plan 128 128 131072 --mode splitk --splits 16
//   streamk-plan 4096 4096 4096 --profile h100.json  # a device profile (streamk-bench --calibrate)
//   streamk-plan --device h200 --write_profile h200.json
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/usage.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "streamk/device_spec.h"
#include "decomposition_flags.h"
#include "flag_names.h"
#include "launch.h"
#include "streamk/plan_print.h"
#include "streamk/planner.h"

ABSL_FLAG(std::string, device, "auto", "h200 | h100 | a100 | auto (the local GPU, else h200)");
ABSL_FLAG(std::string, profile, "",
          "plan with this device profile (streamk-bench --calibrate, --write_profile) instead of "
          "--device: on a local GPU, as the model of that GPU (AdaptDeviceProfile)");
ABSL_FLAG(std::string, write_profile, "",
          "write the modelled device (--device or --profile, after --sms and --occupancy) as a "
          "device profile to this file; without sizes, only that");
ABSL_FLAG(int, sms, -1, "SMs of the modelled device (default: the device's)");
ABSL_FLAG(int, occupancy, -1, "resident blocks per SM (default: the device's)");
ABSL_FLAG(std::string, tile, "",
          "tile shape BMxBNxBK (default: the device's kernel tile, or the faster of its two)");
ABSL_FLAG(std::string, mode, "auto", "auto | dp | splitk | streamk");
ABSL_FLAG(int, splits, 0, "k-slices per tile with --mode splitk (0: the planner picks)");
ABSL_FLAG(int, blocks, 0, "Stream-K blocks with --mode streamk (0: the planner picks)");
ABSL_FLAG(
    std::string, sk_tiles, "",
    "with --mode streamk: the tiles that go Stream-K, a count or 'tail' (the partial wave's); "
    "the rest run data-parallel (default: all)");
ABSL_FLAG(int, reduction_slices, 0,
          "with --reduction separate: reduction blocks per tile (0: the planner picks)");
ABSL_FLAG(std::string, reduction, "",
          "deterministic | atomic | separate (empty: the planner picks a deterministic one)");
ABSL_FLAG(int, batch, 1, "batch count");
ABSL_FLAG(std::string, groups, "",
          "a grouped GEMM (grouped_gemm): the groups' rows, as R1,R2,... or a file of them; the "
          "sizes are then N K");
ABSL_FLAG(std::string, moe, "",
          "a mixture-of-experts grouped GEMM: E,TOKENS,N,K[,SKEW]: TOKENS rows routed to E "
          "experts, expert g taking a share proportional to 1 / (g + 1)^SKEW (0, the default: "
          "evenly); no sizes then");
ABSL_FLAG(bool, device_ends, false,
          "with --groups or --moe: plan as grouped_gemm() does for group ends on the device "
          "(device_group_ends; streamk.grouped_mm with offs on the GPU): for any routing of the "
          "groups' total rows (max_rows), not for these rows");
ABSL_FLAG(std::string, dtype, "fp16", "input dtype: fp16 | bf16");
ABSL_FLAG(std::string, out_dtype, "", "output dtype: fp16 | bf16 | fp32 (default: the input's)");
ABSL_FLAG(int64_t, ldd, 0,
          "D's leading dimension (elements between rows of the row-major M x N D; default N, "
          "packed): the report's epilogue line says how the launch writes such a D");
ABSL_FLAG(double, beta, 0, "beta (D = alpha A B + beta C; C laid out as D) for the epilogue line");
ABSL_FLAG(bool, json, false, "print one JSON object instead of the text report");
ABSL_FLAG(int64_t, max_workspace, 0,
          "bytes of workspace the plan may use (0: no cap; Options::max_workspace_bytes)");
ABSL_FLAG(int, avail_sms, 0,
          "SMs the plan may use, the others left to other kernels (Options::avail_sms; 0: every "
          "SM of the device)");
ABSL_FLAG(std::string, schedule, "auto",
          "auto | static | dynamic: how the persistent blocks get their work (auto: from a "
          "counter where they wait on each other, but not for a separate reduction; "
          "Options::schedule)");
ABSL_FLAG(std::string, svg, "", "also draw the plan as a timeline into this SVG file");
ABSL_FLAG(std::string, repack, "auto",
          "copy operands with misaligned K-major rows, or narrow M-/N-major ones, to aligned "
          "K-major rows first: auto (the planner decides), on, off, a or b (A's or B's only)");
ABSL_FLAG(std::string, misaligned, "auto",
          "operands whose rows start at odd multiples of 16 bytes (slower TMA loads): "
          "none | a | b | both | auto (gemm()'s default layouts, row-major A and column-major B, "
          "packed: both when K x element bytes is not a multiple of 32); for an operand in "
          "--mn_major, its k-rows (auto: none)");
ABSL_FLAG(std::string, mn_major, "none",
          "operands the kernel loads M- or N-major (A column-major, B row-major): none | a | b | "
          "both; one with fewer than 64 elements along M or N loads slowly, and auto may copy it "
          "to K-major rows first");
ABSL_FLAG(std::string, unaligned, "auto",
          "operands the kernel cannot load as they are (address, leading dimension or batch "
          "stride not a multiple of 16 bytes), always copied first: none | a | b | both | auto "
          "(gemm()'s default layouts, packed: both when K x element bytes is not a multiple of "
          "16)");

namespace {

int Fail(const std::string& message) {
  std::fprintf(stderr, "streamk-plan: %s\n", message.c_str());
  return 2;
}

bool ParseDim(const std::string& s, int64_t* out) { return absl::SimpleAtoi(s, out); }

// --unaligned / --misaligned: "none", "a", "b", "both", or "auto" (both where `automatic`) into
// *a and *b; false for anything else.
bool ParseOperands(const std::string& value, bool automatic, bool* a, bool* b) {
  if (value == "auto") {
    *a = *b = automatic;
  } else if (value == "a" || value == "b" || value == "both" || value == "none") {
    *a = value == "a" || value == "both";
    *b = value == "b" || value == "both";
  } else {
    return false;
  }
  return true;
}

// Rows of `experts` groups sharing `tokens` rows in proportion to 1 / (g + 1)^skew, rounded so
// that they sum to `tokens` (largest remainders first).
std::vector<int64_t> MoeRows(int64_t experts, int64_t tokens, double skew) {
  std::vector<double> share(static_cast<size_t>(experts));
  double total = 0;
  for (int64_t g = 0; g < experts; ++g) total += share[g] = std::pow(g + 1.0, -skew);
  std::vector<int64_t> rows(share.size());
  std::vector<std::pair<double, int64_t>> rest;
  int64_t given = 0;
  for (int64_t g = 0; g < experts; ++g) {
    const double exact = tokens * share[g] / total;
    rows[g] = static_cast<int64_t>(exact);
    given += rows[g];
    rest.push_back({exact - rows[g], g});
  }
  std::sort(rest.begin(), rest.end(),
            [](const auto& x, const auto& y) { return x.first > y.first; });
  for (size_t i = 0; given < tokens; ++i, ++given) ++rows[rest[i % rest.size()].second];
  return rows;
}

// --groups: R1,R2,... or a file holding them (separated by commas or white space).
bool ParseGroups(const std::string& value, std::vector<int64_t>* rows, std::string* error) {
  std::string text = value;
  if (std::ifstream in(value); in) {
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  for (absl::string_view piece :
       absl::StrSplit(text, absl::ByAnyChar(", \t\n"), absl::SkipEmpty())) {
    int64_t r = 0;
    if (!absl::SimpleAtoi(piece, &r) || r < 0) {
      *error = absl::StrCat("--groups: '", piece, "' is not a count of rows (an integer >= 0)");
      return false;
    }
    rows->push_back(r);
  }
  if (rows->empty()) *error = "--groups: no rows given";
  return !rows->empty();
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "streamk-plan M N K (or MxNxK) [flags]: print the Stream-K planner's decisions for an "
      "M x N x K GEMM");
  // "-5" would reach the flag parser as an unknown flag; name it as the bad size it is.
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const std::string prev = i > 1 ? argv[i - 1] : "";
    const bool is_flag_value = prev.rfind("-", 0) == 0 && prev.find('=') == std::string::npos;
    int64_t value = 0;
    if (arg.size() > 1 && arg[0] == '-' && absl::SimpleAtoi(arg, &value) && !is_flag_value)
      return Fail(absl::StrCat("size ", arg, ": sizes must be >= 1"));
  }
  std::vector<char*> args = streamk::tools::ParseToolCommandLine(argc, argv);
  std::vector<std::string> sizes = streamk::tools::SizeArguments(args);
  const std::string write_profile = absl::GetFlag(FLAGS_write_profile);
  const bool profile_only = sizes.empty() && !write_profile.empty();
  if (profile_only) sizes = {"1", "1", "1"};  // nothing is planned
  // A grouped GEMM: the groups' rows from --groups (sizes N K) or --moe (no sizes).
  std::vector<int64_t> group_rows;
  if (const std::string moe = absl::GetFlag(FLAGS_moe); !moe.empty()) {
    if (!absl::GetFlag(FLAGS_groups).empty()) return Fail("give --groups or --moe, not both");
    std::vector<std::string> f = absl::StrSplit(moe, ',');
    int64_t experts = 0, tokens = 0;
    double skew = 0;
    if ((f.size() != 4 && f.size() != 5) || !absl::SimpleAtoi(f[0], &experts) ||
        !absl::SimpleAtoi(f[1], &tokens) || (f.size() == 5 && !absl::SimpleAtod(f[4], &skew)) ||
        experts < 1 || experts > streamk::kMaxGroups || tokens < 1 || !std::isfinite(skew) ||
        skew < 0)  // nan passes skew < 0
      return Fail(absl::StrCat("--moe ", moe, ": expected E,TOKENS,N,K[,SKEW] with 1 <= E <= ",
                               streamk::kMaxGroups, ", TOKENS >= 1 and SKEW a finite number >= 0"));
    if (!sizes.empty()) return Fail("--moe names N and K: give no sizes");
    group_rows = MoeRows(experts, tokens, skew);
    sizes = {std::to_string(tokens), f[2], f[3]};
  } else if (const std::string groups = absl::GetFlag(FLAGS_groups); !groups.empty()) {
    std::string error;
    if (!ParseGroups(groups, &group_rows, &error)) return Fail(error);
    if (static_cast<int64_t>(group_rows.size()) > streamk::kMaxGroups)
      return Fail(
          absl::StrCat("--groups: ", group_rows.size(), " groups, at most ", streamk::kMaxGroups));
    if (sizes.size() != 2) return Fail("with --groups, expected two sizes: N K");
    int64_t rows = 0;
    for (int64_t r : group_rows) rows += r;
    if (rows == 0) return Fail("--groups: every group is empty, so there is nothing to plan");
    sizes.insert(sizes.begin(), std::to_string(rows));
  }
  if (sizes.size() != 3) return Fail("expected three sizes: M N K or MxNxK (see --help)");

  streamk::Problem problem;
  const char* names[] = {"M", "N", "K"};
  int64_t* dims[] = {&problem.m, &problem.n, &problem.k};
  for (int i = 0; i < 3; ++i) {
    if (!ParseDim(sizes[i], dims[i]))
      return Fail(absl::StrCat(names[i], " = '", sizes[i], "': not an integer"));
  }
  problem.batch = absl::GetFlag(FLAGS_batch);
  const std::optional<streamk::DType> dtype = streamk::ParseDType(absl::GetFlag(FLAGS_dtype));
  if (!dtype || *dtype == streamk::DType::kF32)
    return Fail(absl::StrCat("--dtype ", absl::GetFlag(FLAGS_dtype), ": must be fp16 or bf16"));
  problem.input = problem.output = *dtype;
  if (const std::string out = absl::GetFlag(FLAGS_out_dtype); !out.empty()) {
    const std::optional<streamk::DType> o = streamk::ParseDType(out);
    if (!o) return Fail(absl::StrCat("--out-dtype ", out, ": must be fp16, bf16 or fp32"));
    problem.output = *o;
  }
  const int64_t ldd = absl::GetFlag(FLAGS_ldd) == 0 ? problem.n : absl::GetFlag(FLAGS_ldd);
  if (ldd < problem.n)
    return Fail(absl::StrCat("--ldd ", ldd, ": must be at least N (", problem.n, ")"));
  // As gemm() decides it for D (and C, laid out as D) on 256-byte-aligned allocations.
  const int out_bytes = streamk::DTypeBytes(problem.output);
  const float beta = static_cast<float>(absl::GetFlag(FLAGS_beta));
  problem.d_tma_store =
      streamk::kernels::TensorColumnsOf(problem.n, out_bytes, beta, ldd * out_bytes % 16 == 0) > 0;
  problem.reads_c = beta != 0.0f;
  problem.cd_rows_aligned = ldd * out_bytes % 16 == 0;
  // As gemm() sets them for packed K-major operands (the default layouts) on 256-byte-aligned
  // allocations: a row starts kFastRowBytes-aligned iff K x element bytes is a multiple of it.
  const int64_t row_bytes = problem.k * streamk::DTypeBytes(*dtype);
  const std::string unaligned = absl::GetFlag(FLAGS_unaligned);
  bool a_unaligned = false, b_unaligned = false;
  if (!ParseOperands(unaligned, row_bytes % streamk::kVectorBytes != 0, &a_unaligned,
                     &b_unaligned))
    return Fail(absl::StrCat("--unaligned ", unaligned, ": expected none, a, b, both or auto"));
  const std::string misaligned = absl::GetFlag(FLAGS_misaligned);
  bool a_misaligned = false, b_misaligned = false;
  if (!ParseOperands(misaligned, row_bytes % streamk::kFastRowBytes != 0, &a_misaligned,
                     &b_misaligned))
    return Fail(absl::StrCat("--misaligned ", misaligned, ": expected none, a, b, both or auto"));
  const std::string mn_major = absl::GetFlag(FLAGS_mn_major);
  bool a_mn = false, b_mn = false;
  if (mn_major == "auto" || !ParseOperands(mn_major, false, &a_mn, &b_mn))
    return Fail(absl::StrCat("--mn_major ", mn_major, ": expected none, a, b or both"));
  // Each operand's layout (OperandLayout): an unaligned one is always copied; K-major rows start
  // misaligned where named so, else on 128-byte lines where packed rows are whole lines; an M- or
  // N-major operand's k-rows are misaligned only where --misaligned names it.
  const bool lines = row_bytes % streamk::kLineRowBytes == 0;
  auto layout = [&](bool unaligned_rows, bool misaligned_rows, bool mn) {
    streamk::OperandLayout l;
    l.major = mn ? streamk::Major::kMN : streamk::Major::kK;
    if (unaligned_rows) {
      l.row_align = streamk::kVectorBytes / 2;
    } else if (misaligned_rows && (!mn || misaligned != "auto")) {
      l.row_align = streamk::kVectorBytes;
    } else {
      l.row_align = mn || lines ? streamk::kLineRowBytes : streamk::kFastRowBytes;
    }
    return l;
  };
  problem.a = layout(a_unaligned, a_misaligned, a_mn);
  problem.b = layout(b_unaligned, b_misaligned, b_mn);
  if (!group_rows.empty()) {
    // As grouped_gemm() lowers it: stacked rows, a B per group, D never stored by TMA.
    if (problem.batch != 1) return Fail("--batch: a grouped GEMM has none");
    problem.groups = static_cast<int64_t>(group_rows.size());
    problem.group_rows = absl::GetFlag(FLAGS_device_ends) ? nullptr : group_rows.data();
    problem.d_tma_store = false;
  } else if (absl::GetFlag(FLAGS_device_ends)) {
    return Fail("--device_ends: give the groups with --groups or --moe");
  }

  // Device: a preset, or the local GPU (falling back to the H200 model without one).
  const std::string device_name = absl::GetFlag(FLAGS_device);
  absl::StatusOr<streamk::DeviceSpec> device;
  std::string device_note;
  const absl::StatusOr<std::optional<streamk::Mainloop>> mainloop_flag =
      streamk::tools::ParseMainloopFlag(streamk::tools::KernelFlagsFromCommandLine().mainloop);
  if (!mainloop_flag.ok()) return Fail(std::string(mainloop_flag.status().message()));
  const std::optional<streamk::Mainloop> mainloop = *mainloop_flag;
  if (const std::string path = absl::GetFlag(FLAGS_profile); !path.empty()) {
    if (device_name != "auto") return Fail("give --device or --profile, not both");
    device = streamk::LoadDeviceProfile(path);
    if (!device.ok()) return Fail(absl::StrCat("--profile: ", device.status().message()));
    if (mainloop && *mainloop != device->mainloop)
      return Fail(absl::StrCat("--mainloop ", streamk::MainloopName(*mainloop), ": the profile ",
                               "models ", streamk::MainloopName(device->mainloop)));
    // On a GPU, the profile as that GPU's model (its occupancy and cluster slots).
    if (absl::StatusOr<streamk::DeviceSpec> local =
            streamk::QueryLocalDevice(-1, device->mainloop);
        local.ok()) {
      device = streamk::AdaptDeviceProfile(*device, *local);
      if (!device.ok()) return Fail(absl::StrCat("--profile: ", device.status().message()));
    }
  } else if (device_name == "auto") {
    device = streamk::QueryLocalDevice(-1, mainloop);
    if (device.status().code() == absl::StatusCode::kInvalidArgument)
      return Fail(absl::StrCat("--mainloop: ", device.status().message()));
    if (!device.ok()) {
      // The H200 model of the mainloop asked for (there is none of sm80 on an H200).
      const bool cpasync = mainloop == streamk::Mainloop::kSm90;
      if (mainloop && !cpasync && *mainloop != streamk::Mainloop::kSm90Tma)
        return Fail(absl::StrCat("--mainloop ", streamk::MainloopName(*mainloop), ": no local GPU (",
                                 device.status().message(), ") and no H200 model of it"));
      device_note = absl::StrCat("no local GPU (", device.status().message(),
                                 "): planning for the built-in H200 model",
                                 cpasync ? " (cp.async mainloop)" : "");
      device = cpasync ? streamk::H200CpAsyncSpec() : streamk::H200Spec();
    }
  } else {
    device = streamk::DeviceSpecByName(device_name);
    if (!device.ok()) return Fail(absl::StrCat("--device: ", device.status().message()));
    if (mainloop && *mainloop != device->mainloop)
      return Fail(absl::StrCat("--mainloop ", streamk::MainloopName(*mainloop), ": the preset ",
                               device_name, " runs ", streamk::MainloopName(device->mainloop),
                               " (h200-cpasync: sm90-cpasync; a100: sm80)"));
  }
  // What-if planning: --sms and --occupancy replace the device's own numbers. The planner rejects
  // 0 (or less) with a message naming the field.
  if (absl::GetFlag(FLAGS_sms) != -1) device->sms = absl::GetFlag(FLAGS_sms);
  if (absl::GetFlag(FLAGS_occupancy) != -1) device->occupancy = absl::GetFlag(FLAGS_occupancy);
  if (!write_profile.empty()) {
    if (absl::Status s = streamk::SaveDeviceProfile(*device, write_profile); !s.ok())
      return Fail(absl::StrCat("--write_profile: ", s.message()));
    if (profile_only) return 0;
  }

  streamk::PlanOptions options;
  if (absl::Status s = streamk::tools::SetDecomposition(
          {absl::GetFlag(FLAGS_mode), absl::GetFlag(FLAGS_splits), absl::GetFlag(FLAGS_blocks),
           absl::GetFlag(FLAGS_sk_tiles), absl::GetFlag(FLAGS_reduction),
           absl::GetFlag(FLAGS_reduction_slices), absl::GetFlag(FLAGS_tile),
           absl::GetFlag(FLAGS_repack), absl::GetFlag(FLAGS_schedule),
           absl::GetFlag(FLAGS_avail_sms)},
          &options);
      !s.ok())
    return Fail(std::string(s.message()));
  options.max_workspace_bytes = absl::GetFlag(FLAGS_max_workspace);
  if (absl::Status s = streamk::tools::SetKernelChoices(
          streamk::tools::KernelFlagsFromCommandLine(), &options);
      !s.ok())
    return Fail(std::string(s.message()));

  streamk::PlanExplanation why;
  absl::StatusOr<streamk::Plan> plan = streamk::MakePlan(problem, *device, options, &why);
  if (!plan.ok()) return Fail(std::string(plan.status().message()));

  if (const std::string svg = absl::GetFlag(FLAGS_svg); !svg.empty()) {
    std::ofstream out(svg);
    out << streamk::PlanToSvg(*plan, streamk::KernelCost(*device, *plan), &why, device->name);
    if (!out) return Fail(absl::StrCat("--svg ", svg, ": cannot write"));
  }
  // How the launch writes D (Plan::store_d on the TMA kernel).
  const std::string epilogue = streamk::DescribeOutputWrites(
      *plan, problem.output, beta, ldd, plan->mainloop == streamk::Mainloop::kSm90Tma);
  if (absl::GetFlag(FLAGS_json)) {
    std::cout << streamk::PlanToJson(*plan, &why, device->name, epilogue) << "\n";
  } else {
    if (!device_note.empty()) std::cout << device_note << "\n";
    std::cout << streamk::FormatPlan(*plan, &why, device->name) << "epilogue    " << epilogue
              << "\n";
  }
  return 0;
}
