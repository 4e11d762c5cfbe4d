// The C interface (streamk_c.h) over streamk::gemm(): converts the plain structs, turns each
// absl::Status into a code plus the calling thread's last error text.
#include "streamk/streamk_c.h"

#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "streamk/plan_print.h"
#include "streamk/streamk.h"

namespace {

thread_local std::string last_error;

streamk_status Report(const absl::Status& s) {
  if (s.ok()) {
    last_error.clear();
    return STREAMK_OK;
  }
  last_error = std::string(s.message());
  switch (s.code()) {
    case absl::StatusCode::kInvalidArgument:
      return STREAMK_INVALID_ARGUMENT;
    case absl::StatusCode::kNotFound:
      return STREAMK_NOT_FOUND;
    case absl::StatusCode::kResourceExhausted:
      return STREAMK_RESOURCE_EXHAUSTED;
    case absl::StatusCode::kFailedPrecondition:
      return STREAMK_FAILED_PRECONDITION;
    case absl::StatusCode::kInternal:
      return STREAMK_INTERNAL;
    case absl::StatusCode::kUnavailable:
      return STREAMK_UNAVAILABLE;
    default:
      return STREAMK_UNKNOWN;
  }
}

absl::Status Invalid(const std::string& message) { return absl::InvalidArgumentError(message); }

// The struct as the caller sees it must be at least as large as the first version's: a smaller
// struct_size means it was not set by the *_init function.
absl::Status CheckStructSize(const char* name, size_t given, size_t expected) {
  if (given != expected)
    return Invalid(absl::StrCat(name, "->struct_size = ", given, ": must be sizeof(", name,
                                ") = ", expected, " (call ", name, "_init first)"));
  return absl::OkStatus();
}

absl::Status ToDType(const char* field, int v, streamk::DType* out) {
  if (v < STREAMK_F16 || v > STREAMK_F32)
    return Invalid(absl::StrCat(field, " = ", v, ": must be STREAMK_F16, STREAMK_BF16 or STREAMK_F32"));
  *out = static_cast<streamk::DType>(v);
  return absl::OkStatus();
}

absl::Status ToLayout(const char* field, int v, streamk::Layout* out) {
  if (v != STREAMK_ROW_MAJOR && v != STREAMK_COL_MAJOR)
    return Invalid(absl::StrCat(field, " = ", v, ": must be STREAMK_ROW_MAJOR or STREAMK_COL_MAJOR"));
  *out = v == STREAMK_ROW_MAJOR ? streamk::Layout::kRowMajor : streamk::Layout::kColMajor;
  return absl::OkStatus();
}

absl::Status Convert(const streamk_gemm_args* c, streamk::GemmArgs* g) {
  if (c == nullptr) return Invalid("args: must not be NULL");
  if (absl::Status s = CheckStructSize("streamk_gemm_args", c->struct_size, sizeof(*c)); !s.ok())
    return s;
  g->m = c->m, g->n = c->n, g->k = c->k, g->batch = c->batch;
  if (absl::Status s = ToDType("input", c->input, &g->input); !s.ok()) return s;
  if (absl::Status s = ToDType("output", c->output, &g->output); !s.ok()) return s;
  if (absl::Status s = ToLayout("a_layout", c->a_layout, &g->a_layout); !s.ok()) return s;
  if (absl::Status s = ToLayout("b_layout", c->b_layout, &g->b_layout); !s.ok()) return s;
  if (absl::Status s = ToLayout("cd_layout", c->cd_layout, &g->cd_layout); !s.ok()) return s;
  g->a = c->a, g->lda = c->lda, g->stride_a = c->stride_a;
  g->b = c->b, g->ldb = c->ldb, g->stride_b = c->stride_b;
  g->c = c->c, g->ldc = c->ldc, g->stride_c = c->stride_c;
  g->d = c->d, g->ldd = c->ldd, g->stride_d = c->stride_d;
  g->alpha = c->alpha, g->beta = c->beta;
  return absl::OkStatus();
}

absl::Status Convert(const streamk_options* c, streamk::Options* o) {
  if (c == nullptr) return absl::OkStatus();  // defaults: auto
  if (absl::Status s = CheckStructSize("streamk_options", c->struct_size, sizeof(*c)); !s.ok())
    return s;
  if (c->mode < STREAMK_MODE_AUTO || c->mode > STREAMK_MODE_STREAM_K)
    return Invalid(absl::StrCat("mode = ", c->mode, ": must be one of STREAMK_MODE_*"));
  o->mode = static_cast<streamk::Mode>(c->mode);
  o->splits = c->splits, o->blocks = c->blocks, o->sk_tiles = c->sk_tiles;
  if (c->reduction < STREAMK_REDUCTION_DEFAULT || c->reduction > STREAMK_REDUCTION_SEPARATE)
    return Invalid(absl::StrCat("reduction = ", c->reduction, ": must be one of STREAMK_REDUCTION_*"));
  if (c->reduction != STREAMK_REDUCTION_DEFAULT)
    o->reduction = static_cast<streamk::Reduction>(c->reduction);
  o->reduction_slices = c->reduction_slices;
  o->avail_sms = c->avail_sms;
  if (c->tile_m != 0 || c->tile_n != 0 || c->tile_k != 0)
    o->tile = streamk::TileShape{c->tile_m, c->tile_n, c->tile_k};
  if (c->max_workspace_bytes > static_cast<size_t>(INT64_MAX))
    return Invalid("max_workspace_bytes: must be < 2^63");
  o->max_workspace_bytes = static_cast<int64_t>(c->max_workspace_bytes);
  if (c->schedule != STREAMK_SCHEDULE_AUTO && c->schedule != STREAMK_SCHEDULE_STATIC &&
      c->schedule != STREAMK_SCHEDULE_DYNAMIC)
    return Invalid(absl::StrCat("schedule = ", c->schedule,
                                ": must be STREAMK_SCHEDULE_AUTO, STREAMK_SCHEDULE_STATIC or "
                                "STREAMK_SCHEDULE_DYNAMIC"));
  if (c->schedule != STREAMK_SCHEDULE_AUTO)
    o->schedule = static_cast<streamk::Schedule>(c->schedule);
  switch (c->mainloop) {
    case STREAMK_MAINLOOP_AUTO: o->mainloop.reset(); break;
    case STREAMK_MAINLOOP_SM80: o->mainloop = streamk::Mainloop::kSm80; break;
    case STREAMK_MAINLOOP_SM90_CPASYNC: o->mainloop = streamk::Mainloop::kSm90; break;
    case STREAMK_MAINLOOP_SM90_TMA: o->mainloop = streamk::Mainloop::kSm90Tma; break;
    default:
      return Invalid(absl::StrCat("mainloop = ", c->mainloop, ": must be one of STREAMK_MAINLOOP_*"));
  }
  switch (c->pingpong) {
    case STREAMK_TOGGLE_AUTO: o->pingpong.reset(); break;
    case STREAMK_TOGGLE_ON: o->pingpong = true; break;
    case STREAMK_TOGGLE_OFF: o->pingpong = false; break;
    default:
      return Invalid(absl::StrCat("pingpong = ", c->pingpong, ": must be one of STREAMK_TOGGLE_*"));
  }
  o->narrow_wgmma = c->full_width_wgmma == 0;
  switch (c->store_d) {
    case STREAMK_STORE_D_AUTO: o->store_d.reset(); break;
    case STREAMK_STORE_D_THREADS: o->store_d = streamk::StoreD::kThreads; break;
    case STREAMK_STORE_D_TMA: o->store_d = streamk::StoreD::kTma; break;
    case STREAMK_STORE_D_ROWS: o->store_d = streamk::StoreD::kRows; break;
    case STREAMK_STORE_D_ROWS_WARP: o->store_d = streamk::StoreD::kRowsCopyWarp; break;
    default:
      return Invalid(absl::StrCat("store_d = ", c->store_d, ": must be one of STREAMK_STORE_D_*"));
  }
  return absl::OkStatus();
}

absl::Status Convert(const streamk_gemm_args* args, const streamk_options* options,
                     streamk::GemmArgs* g, streamk::Options* o) {
  if (absl::Status s = Convert(args, g); !s.ok()) return s;
  return Convert(options, o);
}

absl::Status Convert(const streamk_grouped_gemm_args* c, streamk::GroupedGemmArgs* g) {
  if (c == nullptr) return Invalid("args: must not be NULL");
  if (absl::Status s = CheckStructSize("streamk_grouped_gemm_args", c->struct_size, sizeof(*c));
      !s.ok())
    return s;
  g->groups = c->groups, g->group_ends = c->group_ends, g->n = c->n, g->k = c->k;
  if (absl::Status s = ToDType("input", c->input, &g->input); !s.ok()) return s;
  if (absl::Status s = ToDType("output", c->output, &g->output); !s.ok()) return s;
  if (absl::Status s = ToLayout("b_layout", c->b_layout, &g->b_layout); !s.ok()) return s;
  g->a = c->a, g->lda = c->lda;
  g->b = c->b, g->ldb = c->ldb, g->stride_b = c->stride_b;
  g->c = c->c, g->ldc = c->ldc;
  g->d = c->d, g->ldd = c->ldd;
  g->alpha = c->alpha, g->beta = c->beta;
  g->device_group_ends = c->device_group_ends, g->max_rows = c->max_rows;
  return absl::OkStatus();
}

absl::Status Convert(const streamk_grouped_gemm_args* args, const streamk_options* options,
                     streamk::GroupedGemmArgs* g, streamk::Options* o) {
  if (absl::Status s = Convert(args, g); !s.ok()) return s;
  return Convert(options, o);
}

// streamk_plan_json's and streamk_grouped_plan_json's work: `on_current(why)` plans on the
// current GPU, `on_spec(spec, why)` on a device model.
template <typename OnCurrent, typename OnSpec>
streamk_status PlanJson(OnCurrent on_current, OnSpec on_spec, const char* device, char* json,
                        size_t capacity, size_t* needed) {
  streamk::PlanExplanation why;
  absl::StatusOr<streamk::Plan> plan;
  std::string device_name;
  if (device == nullptr) {
    plan = on_current(&why);
  } else {
    // A preset's name, or a device profile's file (a name ending in .json).
    const bool profile = absl::EndsWith(device, ".json");
    absl::StatusOr<streamk::DeviceSpec> spec =
        profile ? streamk::LoadDeviceProfile(device) : streamk::DeviceSpecByName(device);
    if (!spec.ok())
      return Report(
          absl::Status(profile ? spec.status().code() : absl::StatusCode::kInvalidArgument,
                       absl::StrCat("device = \"", device, "\": ", spec.status().message())));
    device_name = spec->name;
    plan = on_spec(*spec, &why);
  }
  if (!plan.ok()) return Report(plan.status());
  const std::string text = streamk::PlanToJson(*plan, &why, device_name);
  if (needed != nullptr) *needed = text.size() + 1;
  if (json == nullptr) return Report(absl::OkStatus());  // capacity 0: the size only
  if (capacity < text.size() + 1)
    return Report(absl::ResourceExhaustedError(
        absl::StrCat("capacity = ", capacity, ": the plan's JSON needs ", text.size() + 1,
                     " bytes, NUL included")));
  std::memcpy(json, text.c_str(), text.size() + 1);
  return Report(absl::OkStatus());
}

}  // namespace

extern "C" {

void streamk_grouped_gemm_args_init(streamk_grouped_gemm_args* args) {
  if (args == nullptr) return;
  std::memset(args, 0, sizeof(*args));
  args->struct_size = sizeof(*args);
  args->input = STREAMK_F16, args->output = STREAMK_F16;
  args->b_layout = STREAMK_COL_MAJOR;
  args->alpha = 1.0f, args->beta = 0.0f;
}

streamk_status streamk_grouped_gemm(const streamk_grouped_gemm_args* args,
                                    const streamk_options* options, void* stream) {
  streamk::GroupedGemmArgs g;
  streamk::Options o;
  if (absl::Status s = Convert(args, options, &g, &o); !s.ok()) return Report(s);
  return Report(streamk::grouped_gemm(g, static_cast<cudaStream_t>(stream), o));
}

streamk_status streamk_grouped_gemm_with_workspace(const streamk_grouped_gemm_args* args,
                                                   const streamk_options* options, void* workspace,
                                                   size_t workspace_bytes, void* stream) {
  streamk::GroupedGemmArgs g;
  streamk::Options o;
  if (absl::Status s = Convert(args, options, &g, &o); !s.ok()) return Report(s);
  return Report(
      streamk::grouped_gemm(g, workspace, workspace_bytes, static_cast<cudaStream_t>(stream), o));
}

streamk_status streamk_grouped_workspace_size(const streamk_grouped_gemm_args* args,
                                              const streamk_options* options, size_t* bytes) {
  if (bytes == nullptr) return Report(Invalid("bytes: must not be NULL"));
  streamk::GroupedGemmArgs g;
  streamk::Options o;
  if (absl::Status s = Convert(args, options, &g, &o); !s.ok()) return Report(s);
  absl::StatusOr<size_t> size = streamk::GetWorkspaceSize(g, o);
  if (!size.ok()) return Report(size.status());
  *bytes = *size;
  return Report(absl::OkStatus());
}

void streamk_gemm_args_init(streamk_gemm_args* args) {
  if (args == nullptr) return;
  std::memset(args, 0, sizeof(*args));
  args->struct_size = sizeof(*args);
  args->batch = 1;
  args->input = STREAMK_F16, args->output = STREAMK_F16;
  args->a_layout = STREAMK_ROW_MAJOR;
  args->b_layout = STREAMK_COL_MAJOR;
  args->cd_layout = STREAMK_ROW_MAJOR;
  args->alpha = 1.0f, args->beta = 0.0f;
}

void streamk_options_init(streamk_options* options) {
  if (options == nullptr) return;
  std::memset(options, 0, sizeof(*options));
  options->struct_size = sizeof(*options);
  options->mode = STREAMK_MODE_AUTO;
  options->reduction = STREAMK_REDUCTION_DEFAULT;
  options->schedule = STREAMK_SCHEDULE_AUTO;
}

streamk_status streamk_gemm(const streamk_gemm_args* args, const streamk_options* options,
                            void* stream) {
  streamk::GemmArgs g;
  streamk::Options o;
  if (absl::Status s = Convert(args, options, &g, &o); !s.ok()) return Report(s);
  return Report(streamk::gemm(g, static_cast<cudaStream_t>(stream), o));
}

streamk_status streamk_gemm_with_workspace(const streamk_gemm_args* args,
                                           const streamk_options* options, void* workspace,
                                           size_t workspace_bytes, void* stream) {
  streamk::GemmArgs g;
  streamk::Options o;
  if (absl::Status s = Convert(args, options, &g, &o); !s.ok()) return Report(s);
  return Report(
      streamk::gemm(g, workspace, workspace_bytes, static_cast<cudaStream_t>(stream), o));
}

streamk_status streamk_workspace_size(const streamk_gemm_args* args,
                                      const streamk_options* options, size_t* bytes) {
  if (bytes == nullptr) return Report(Invalid("bytes: must not be NULL"));
  streamk::GemmArgs g;
  streamk::Options o;
  if (absl::Status s = Convert(args, options, &g, &o); !s.ok()) return Report(s);
  absl::StatusOr<size_t> size = streamk::GetWorkspaceSize(g, o);
  if (!size.ok()) return Report(size.status());
  *bytes = *size;
  return Report(absl::OkStatus());
}

streamk_status streamk_plan_json(const streamk_gemm_args* args, const streamk_options* options,
                                 const char* device, char* json, size_t capacity, size_t* needed) {
  if (json == nullptr && capacity > 0)
    return Report(Invalid("json: must not be NULL when capacity > 0"));
  streamk::GemmArgs g;
  streamk::Options o;
  if (absl::Status s = Convert(args, options, &g, &o); !s.ok()) return Report(s);
  return PlanJson([&](streamk::PlanExplanation* why) { return streamk::PlanGemm(g, o, why); },
                  [&](const streamk::DeviceSpec& spec, streamk::PlanExplanation* why) {
                    return streamk::PlanGemm(g, spec, o, why);
                  },
                  device, json, capacity, needed);
}

streamk_status streamk_grouped_plan_json(const streamk_grouped_gemm_args* args,
                                         const streamk_options* options, const char* device,
                                         char* json, size_t capacity, size_t* needed) {
  if (json == nullptr && capacity > 0)
    return Report(Invalid("json: must not be NULL when capacity > 0"));
  streamk::GroupedGemmArgs g;
  streamk::Options o;
  if (absl::Status s = Convert(args, options, &g, &o); !s.ok()) return Report(s);
  return PlanJson(
      [&](streamk::PlanExplanation* why) { return streamk::PlanGroupedGemm(g, o, why); },
      [&](const streamk::DeviceSpec& spec, streamk::PlanExplanation* why) {
        return streamk::PlanGroupedGemm(g, spec, o, why);
      },
      device, json, capacity, needed);
}

streamk_status streamk_release_workspaces(void) { return Report(streamk::ReleaseWorkspaces()); }

streamk_status streamk_use_device_profile(const char* path, int device) {
  if (path == nullptr) return Report(streamk::UseBuiltInDeviceModel(device));
  return Report(streamk::UseDeviceProfile(std::string(path), device));
}

const char* streamk_version(void) { return STREAMK_VERSION_STRING; }

const char* streamk_last_error(void) { return last_error.c_str(); }

}  // extern "C"
