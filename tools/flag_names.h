// The tools' command lines as users type them: flag names with dashes (`--out-dtype` for
// `--out_dtype`), `--help` that lists each tool's flags, and sizes as `M N K` or `MxNxK`.
// Abseil matches a flag's name exactly, and the tools' multi-word flags are identifiers with
// underscores, while the issue, the README and most command lines spell them with dashes.
#pragma once

#include <string>
#include <vector>

#include "absl/flags/parse.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "streamk/version.h"

namespace streamk::tools {

// Rewrites, in place, each dash inside a `--name` or `--name=value` argument's name to an
// underscore, before absl::ParseCommandLine reads them. Values (after '='), arguments that are
// not long flags (`-1`, `MxNxK`, a file name) and everything after a bare `--` stay as they are.
inline void AcceptDashedFlagNames(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    char* arg = argv[i];
    if (arg[0] != '-' || arg[1] != '-') continue;
    if (arg[2] == '\0') return;  // "--": the rest are positional arguments
    for (char* c = arg + 2; *c != '\0' && *c != '='; ++c)
      if (*c == '-') *c = '_';
  }
}

// Whether `--help` lists the flags defined in `file`: those of the tools' own sources
// (tools/streamk_*.cc). Abseil's default lists the flags of a file named after the program, and
// streamk-plan's are in streamk_plan.cc, so `--help` printed "No flags matched" for every tool.
// Each tool links only its own flags; Abseil's (--flagfile, --fromenv, ...) stay in --helpfull.
inline bool IsToolFlagFile(absl::string_view file) {
  const size_t slash = file.find_last_of("/\\");
  const absl::string_view dir = slash == absl::string_view::npos ? "" : file.substr(0, slash);
  const absl::string_view name = slash == absl::string_view::npos ? file : file.substr(slash + 1);
  const bool in_tools = dir == "tools" || absl::EndsWith(dir, "/tools") ||
                        absl::EndsWith(dir, "\\tools");
  return in_tools && absl::StartsWith(name, "streamk_");
}

// The positional arguments after the program's name, with a single "MxNxK" (as streamk-bench's
// --shape takes a shape) split into its three sizes: `streamk-plan 4096x4096x4096` reads as
// `streamk-plan 4096 4096 4096`. The caller checks the count and parses each size.
inline std::vector<std::string> SizeArguments(const std::vector<char*>& args) {
  std::vector<std::string> sizes(args.begin() + (args.empty() ? 0 : 1), args.end());
  if (sizes.size() == 1 && absl::StrContains(sizes[0], 'x'))
    sizes = absl::StrSplit(sizes[0], 'x');
  return sizes;
}

// A program's name without its folder ("streamk-plan" for "build/tools/streamk-plan").
inline std::string ProgramName(absl::string_view path) {
  const size_t slash = path.find_last_of('/');
  return std::string(slash == absl::string_view::npos ? path : path.substr(slash + 1));
}

// What every tool's main does with its arguments: `--help` lists the tool's flags, dashed names
// are accepted, and Abseil parses (and exits on --help, an unknown flag or a bad value).
// Returns the positional arguments, argv[0] first.
inline std::vector<char*> ParseToolCommandLine(int argc, char** argv) {
  absl::FlagsUsageConfig config;
  config.contains_help_flags = IsToolFlagFile;
  config.contains_helpshort_flags = IsToolFlagFile;
  // "Flags from tools/streamk_plan.cc", not from the build machine's checkout path.
  config.normalize_filename = [](absl::string_view file) {
    const size_t tools = file.rfind("tools/");
    if (tools != absl::string_view::npos) return std::string(file.substr(tools));
    while (absl::ConsumePrefix(&file, "./") || absl::ConsumePrefix(&file, "/")) {
    }
    return std::string(file);
  };
  // `--version`: "streamk-plan 0.1.0".
  config.version_string = [name = ProgramName(argv[0])] {
    return absl::StrCat(name, " ", STREAMK_VERSION_STRING, "\n");
  };
  absl::SetFlagsUsageConfig(config);
  AcceptDashedFlagNames(argc, argv);
  return absl::ParseCommandLine(argc, argv);
}

}  // namespace streamk::tools
