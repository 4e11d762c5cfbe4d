// Device profiles: DeviceSpec to and from JSON (device_spec.h).
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "launch.h"
#include "streamk/device_spec.h"

namespace streamk {

#define STREAMK_NUMBER(f) {#f, &CostModel::f, nullptr}
#define STREAMK_FLAG(f) {#f, nullptr, &CostModel::f}
const CostModelField kCostModelFields[37] = {
    STREAMK_NUMBER(block_us),
    STREAMK_NUMBER(unit_us),
    STREAMK_NUMBER(streamk_us),
    STREAMK_NUMBER(partial_us),
    STREAMK_NUMBER(iter_us),
    STREAMK_NUMBER(iter_shared_us),
    STREAMK_NUMBER(peer_us),
    STREAMK_NUMBER(epilogue_us),
    STREAMK_NUMBER(reduce_peer_us),
    STREAMK_NUMBER(iter_busy_us),
    STREAMK_NUMBER(misaligned_load),
    STREAMK_NUMBER(reduce_latency_us),
    STREAMK_FLAG(partial_wave_streamk),
    STREAMK_NUMBER(misaligned_busy_load),
    STREAMK_FLAG(separate_after_streamk),
    STREAMK_NUMBER(hbm_bytes_per_us),
    STREAMK_NUMBER(sm_bytes_per_us),
    STREAMK_NUMBER(repack_us),
    STREAMK_NUMBER(repack_bytes_per_us),
    STREAMK_NUMBER(l2_load_bytes_per_us),
    STREAMK_NUMBER(misaligned_l2_load_bytes_per_us),
    STREAMK_NUMBER(narrow_mn_iter_us),
    STREAMK_NUMBER(narrow_mn_misaligned_iter_us),
    STREAMK_NUMBER(narrow_mn_floor_iter_us),
    STREAMK_NUMBER(pingpong_hidden_us),
    STREAMK_NUMBER(pingpong_iter_loss),
    STREAMK_NUMBER(pingpong_stream_gain),
    STREAMK_NUMBER(pingpong_stream_bytes),
    STREAMK_NUMBER(streamk_reread_bytes),
    STREAMK_NUMBER(few_tiles_streamk_gain),
    STREAMK_FLAG(every_tile_streamk_yields),
    STREAMK_NUMBER(padded_columns_load),
    STREAMK_NUMBER(split_yield_gain),
    STREAMK_NUMBER(split_yield_gain_on_lines),
    STREAMK_NUMBER(many_tiles_streamk_gain),
    STREAMK_NUMBER(every_tile_streamk_gain),
    STREAMK_NUMBER(one_round_tail_streamk_gain),
};
#undef STREAMK_NUMBER
#undef STREAMK_FLAG

const CostModelField* FindCostModelField(std::string_view name) {
  for (const CostModelField& f : kCostModelFields)
    if (name == f.name) return &f;
  return nullptr;
}

const char* KernelRoleName(KernelRole role) {
  switch (role) {
    case KernelRole::kMain: return "main";
    case KernelRole::kAlt: return "alt";
    case KernelRole::kMid: return "mid";
    case KernelRole::kWide: return "wide";
    case KernelRole::kSmall: return "small";
    case KernelRole::kBroad: return "broad";
    case KernelRole::kCluster: return "cluster";
  }
  return "?";
}

std::optional<KernelRole> ParseKernelRole(std::string_view name) {
  for (KernelRole role : kKernelRoles)
    if (name == KernelRoleName(role)) return role;
  return std::nullopt;
}

const KernelConfig* DeviceSpec::Find(KernelRole role) const {
  for (const KernelConfig& k : kernels)
    if (k.role == role) return &k;
  return nullptr;
}

KernelConfig* DeviceSpec::Find(KernelRole role) {
  for (KernelConfig& k : kernels)
    if (k.role == role) return &k;
  return nullptr;
}

TileShape DeviceSpec::TileOf(KernelRole role) const {
  const KernelConfig* k = Find(role);
  return k != nullptr ? k->tile : kNoTile;
}

KernelConfig& DeviceSpec::Set(KernelConfig config) {
  auto it = kernels.begin();
  while (it != kernels.end() && it->role < config.role) ++it;
  if (it != kernels.end() && it->role == config.role) {
    *it = std::move(config);
    return *it;
  }
  return *kernels.insert(it, std::move(config));
}

void DeviceSpec::Remove(KernelRole role) {
  if (role == KernelRole::kMain) return;
  for (auto it = kernels.begin(); it != kernels.end(); ++it) {
    if (it->role == role) {
      kernels.erase(it);
      return;
    }
  }
}

namespace {

using Json = nlohmann::ordered_json;

constexpr char kFormat[] = "streamk-device-profile";
// Bounds that keep the planner's search finite and its arithmetic in range: the largest GPUs
// have a few hundred SMs and a few resident blocks per SM.
constexpr int kMaxSms = 4096;
constexpr int kMaxOccupancy = 32;
constexpr double kMaxConstant = 1e15;
constexpr int kVersion = 1;

Json CostToJson(const CostModel& cost) {
  Json j = Json::object();
  for (const CostModelField& f : kCostModelFields) {
    if (f.number != nullptr) {
      j[f.name] = cost.*f.number;
    } else {
      j[f.name] = cost.*f.flag;
    }
  }
  return j;
}

absl::Status Invalid(absl::string_view key, absl::string_view rule) {
  return absl::InvalidArgumentError(absl::StrCat("device profile: ", key, ": ", rule));
}

absl::Status KeysKnown(const Json& j, absl::string_view where,
                       std::initializer_list<absl::string_view> known) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool found = false;
    for (absl::string_view k : known) found = found || it.key() == k;
    if (!found)
      return Invalid(absl::StrCat(where, it.key()),
                     absl::StrCat("unknown key (expected one of: ", absl::StrJoin(known, ", "),
                                  ")"));
  }
  return absl::OkStatus();
}

// An integer in [lo, hi] at j[key] (`required`: it must be there; else *out stays).
template <typename Int>
absl::Status ReadInt(const Json& j, absl::string_view where, const char* key, int64_t lo,
                     int64_t hi, bool required, Int* out) {
  const auto it = j.find(key);
  if (it == j.end())
    return required ? Invalid(absl::StrCat(where, key), "missing") : absl::OkStatus();
  if (!it->is_number_integer())
    return Invalid(absl::StrCat(where, key), "expected an integer");
  const int64_t v = it->get<int64_t>();
  if (v < lo || v > hi)
    return Invalid(absl::StrCat(where, key), absl::StrCat(v, " is outside [", lo, ", ", hi, "]"));
  *out = static_cast<Int>(v);
  return absl::OkStatus();
}

absl::Status ReadCost(const Json& j, const std::string& where, CostModel* cost) {
  if (!j.is_object()) return Invalid(where, "expected an object of CostModel fields");
  *cost = CostModel{};
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string key = absl::StrCat(where, ".", it.key());
    const CostModelField* f = FindCostModelField(it.key());
    if (f == nullptr) return Invalid(key, "not a field of CostModel");
    if (f->number != nullptr) {
      if (!it->is_number()) return Invalid(key, "expected a number");
      const double v = it->get<double>();
      // Every constant is a time, a rate, a size or a share: none is negative, but for the one
      // whose negative value means "as misaligned_load" (CostModel::misaligned_busy_load).
      const bool may_be_negative = f->number == &CostModel::misaligned_busy_load;
      if (!std::isfinite(v) || std::abs(v) > kMaxConstant || (v < 0 && !may_be_negative))
        return Invalid(key, absl::StrCat(v, ": expected a number in [",
                                         may_be_negative ? "-1e15" : "0", ", 1e15]"));
      cost->*f->number = v;
    } else {
      if (!it->is_boolean()) return Invalid(key, "expected true or false");
      cost->*f->flag = it->get<bool>();
    }
  }
  return absl::OkStatus();
}

absl::Status ReadTile(const Json& j, const std::string& where, TileShape* tile) {
  if (!j.is_array() || j.size() != 3)
    return Invalid(where, "expected [m, n, k], three positive multiples of 16");
  int v[3];
  for (int i = 0; i < 3; ++i) {
    if (!j[i].is_number_integer() || j[i].get<int64_t>() < 16 || j[i].get<int64_t>() > 1024 ||
        j[i].get<int64_t>() % 16 != 0)
      return Invalid(where, "expected [m, n, k], three multiples of 16 in [16, 1024]");
    v[i] = static_cast<int>(j[i].get<int64_t>());
  }
  *tile = TileShape{v[0], v[1], v[2]};
  return absl::OkStatus();
}

}  // namespace

std::string DeviceSpecToJson(const DeviceSpec& spec, std::string_view calibration_json) {
  Json j = Json::object();
  j["format"] = kFormat;
  j["version"] = kVersion;
  j["name"] = spec.name;
  j["sms"] = spec.sms;
  j["occupancy"] = spec.occupancy;
  j["l2_bytes"] = spec.l2_bytes;
  j["mainloop"] = MainloopName(spec.mainloop);
  Json configurations = Json::object();
  for (const KernelConfig& c : spec.kernels) {
    if (c.tile == kNoTile) continue;
    Json k = Json::object();
    k["tile"] = {c.tile.m, c.tile.n, c.tile.k};
    if (c.cluster_m > 1) k["slots"] = c.cluster_slots;
    k["cost"] = CostToJson(c.cost);
    configurations[KernelRoleName(c.role)] = std::move(k);
  }
  j["configurations"] = std::move(configurations);
  if (!calibration_json.empty()) {
    Json cal = Json::parse(calibration_json, nullptr, /*allow_exceptions=*/false);
    if (!cal.is_discarded()) j["calibration"] = std::move(cal);
  }
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

absl::StatusOr<DeviceSpec> DeviceSpecFromJson(std::string_view text) {
  const Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Invalid("(document)", "not valid JSON");
  if (!j.is_object()) return Invalid("(document)", "expected a JSON object");
  if (absl::Status s = KeysKnown(j, "", {"format", "version", "name", "sms", "occupancy",
                                         "l2_bytes", "mainloop", "configurations", "calibration"});
      !s.ok())
    return s;
  if (!j.contains("format") || !j["format"].is_string() ||
      j["format"].get<std::string>() != kFormat)
    return Invalid("format", absl::StrCat("expected \"", kFormat, "\""));
  int version = 0;
  if (absl::Status s = ReadInt(j, "", "version", 1, 1000, true, &version); !s.ok()) return s;
  if (version != kVersion)
    return Invalid("version", absl::StrCat(version, ": this library reads version ", kVersion));
  DeviceSpec spec;
  spec.kernels.clear();
  if (j.contains("name")) {
    if (!j["name"].is_string()) return Invalid("name", "expected a string");
    spec.name = j["name"].get<std::string>();
  }
  if (absl::Status s = ReadInt(j, "", "sms", 1, kMaxSms, true, &spec.sms); !s.ok()) return s;
  if (absl::Status s = ReadInt(j, "", "occupancy", 1, kMaxOccupancy, true, &spec.occupancy);
      !s.ok())
    return s;
  if (absl::Status s = ReadInt(j, "", "l2_bytes", 0, int64_t{1} << 40, false, &spec.l2_bytes);
      !s.ok())
    return s;
  if (j.contains("mainloop")) {
    const std::optional<Mainloop> m =
        j["mainloop"].is_string() ? ParseMainloop(j["mainloop"].get<std::string>()) : std::nullopt;
    if (!m) return Invalid("mainloop", "expected \"sm80\", \"sm90-cpasync\" or \"sm90-tma\"");
    spec.mainloop = *m;
  }
  if (!j.contains("configurations") || !j["configurations"].is_object())
    return Invalid("configurations", "missing, or not an object of kernel configurations");
  const Json& configurations = j["configurations"];
  for (auto it = configurations.begin(); it != configurations.end(); ++it) {
    const std::optional<KernelRole> role = ParseKernelRole(it.key());
    const std::string where = absl::StrCat("configurations.", it.key());
    if (!role) {
      std::string names;
      for (KernelRole r : kKernelRoles)
        absl::StrAppend(&names, names.empty() ? "" : ", ", KernelRoleName(r));
      return Invalid(where, absl::StrCat("not a kernel configuration (expected one of: ", names,
                                         ")"));
    }
    const bool clusters = *role == KernelRole::kCluster;
    const Json& k = *it;
    if (!k.is_object()) return Invalid(where, "expected an object with \"tile\" and \"cost\"");
    if (absl::Status s =
            KeysKnown(k, where + ".",
                      clusters ? std::initializer_list<absl::string_view>{"tile", "slots", "cost"}
                               : std::initializer_list<absl::string_view>{"tile", "cost"});
        !s.ok())
      return s;
    KernelConfig c;
    c.role = *role;
    if (!k.contains("tile")) return Invalid(where + ".tile", "missing");
    if (absl::Status s = ReadTile(k["tile"], where + ".tile", &c.tile); !s.ok()) return s;
    if (!k.contains("cost")) return Invalid(where + ".cost", "missing");
    if (absl::Status s = ReadCost(k["cost"], where + ".cost", &c.cost); !s.ok()) return s;
    if (clusters) {
      c.cluster_m = 2;
      if (absl::Status s = ReadInt(k, where + ".", "slots", 1, kMaxSms, true, &c.cluster_slots);
          !s.ok())
        return s;
    }
    spec.Set(std::move(c));
  }
  if (spec.kernels.empty() || spec.kernels.front().role != KernelRole::kMain)
    return Invalid("configurations.main", "missing");
  return spec;
}

absl::StatusOr<DeviceSpec> LoadDeviceProfile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("device profile ", path, ": cannot read"));
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<DeviceSpec> spec = DeviceSpecFromJson(text.str());
  if (!spec.ok())
    return absl::Status(spec.status().code(), absl::StrCat(path, ": ", spec.status().message()));
  return spec;
}

absl::Status SaveDeviceProfile(const DeviceSpec& spec, const std::string& path,
                               std::string_view calibration_json) {
  std::ofstream out(path);
  if (!out) return absl::PermissionDeniedError(absl::StrCat(path, ": cannot write"));
  out << DeviceSpecToJson(spec, calibration_json);
  out.close();
  if (!out) return absl::DataLossError(absl::StrCat(path, ": write failed"));
  return absl::OkStatus();
}

absl::StatusOr<DeviceSpec> AdaptDeviceProfile(const DeviceSpec& profile, const DeviceSpec& device) {
  const std::string what = absl::StrCat("device profile '", profile.name, "' on ", device.name);
  if (profile.sms != device.sms)
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": sms = ", profile.sms, ", the device has ", device.sms));
  if (profile.mainloop != device.mainloop)
    return absl::InvalidArgumentError(absl::StrCat(what, ": mainloop = ",
                                                   MainloopName(profile.mainloop), ", the device's "
                                                   "model is for ", MainloopName(device.mainloop)));
  DeviceSpec out = profile;
  const KernelConfig* device_clusters = device.Find(KernelRole::kCluster);
  for (const KernelConfig& c : profile.kernels) {
    const TileShape& t = c.tile;
    const bool clusters = c.cluster_m > 1;
    if (clusters && device_clusters == nullptr) {
      out.Remove(c.role);
      continue;
    }
    if (!kernels::ComputesTile(profile.mainloop, t.m, t.n, t.k) ||
        kernels::ClusterOf(profile.mainloop, t.m) != c.cluster_m)
      return absl::InvalidArgumentError(
          absl::StrCat(what, ": configurations.", KernelRoleName(c.role), ".tile = [", t.m, ", ",
                       t.n, ", ", t.k, "]: no kernel of the ", MainloopName(profile.mainloop),
                       " mainloop computes it", clusters ? " on 2-SM clusters" : ""));
    if (clusters) out.Find(c.role)->cluster_slots = device_clusters->cluster_slots;
  }
  out.occupancy = device.occupancy;
  out.queried = device.queried;
  return out;
}

}  // namespace streamk
