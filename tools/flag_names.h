// Flag names as users type them: `--out-dtype` for `--out_dtype`. Abseil matches a flag's name
// exactly, and the tools' multi-word flags are identifiers with underscores, while the issue, the
// README and most command lines spell them with dashes.
#pragma once

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

}  // namespace streamk::tools
