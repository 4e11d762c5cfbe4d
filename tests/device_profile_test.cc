// Device profiles (device_spec.h): every preset written and read back plans exactly as the preset
// does; bad profiles are refused naming the key; a profile adapts to a device only where that
// device's kernels can run it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "streamk/device_spec.h"
#include "streamk/plan_print.h"
#include "streamk/planner.h"

namespace streamk {
namespace {

std::vector<DeviceSpec> Presets() {
  return {A100Spec(), H100Spec(), H200Spec(), H200CpAsyncSpec()};
}

// Every field of CostModel is in kCostModelFields: sorted by offset, each field starts where the
// one before it ends (rounded up to its alignment), and the last one ends the struct.
TEST(DeviceProfile, TheFieldTableCoversCostModel) {
  CostModel c;
  const char* base = reinterpret_cast<const char*>(&c);
  struct Span {
    size_t offset, size;
    const char* name;
  };
  std::vector<Span> spans;
  for (const CostModelField& f : kCostModelFields) {
    ASSERT_NE(f.number == nullptr, f.flag == nullptr) << f.name;
    if (f.number != nullptr)
      spans.push_back({static_cast<size_t>(reinterpret_cast<const char*>(&(c.*f.number)) - base),
                       sizeof(double), f.name});
    else
      spans.push_back({static_cast<size_t>(reinterpret_cast<const char*>(&(c.*f.flag)) - base),
                       sizeof(bool), f.name});
    EXPECT_EQ(FindCostModelField(f.name), &f);
  }
  std::sort(spans.begin(), spans.end(),
            [](const Span& a, const Span& b) { return a.offset < b.offset; });
  size_t end = 0;
  for (const Span& s : spans) {
    const size_t aligned = (end + s.size - 1) / s.size * s.size;
    EXPECT_EQ(s.offset, aligned) << "a field of CostModel before " << s.name
                                 << " is missing from kCostModelFields";
    end = s.offset + s.size;
  }
  EXPECT_EQ((end + alignof(CostModel) - 1) / alignof(CostModel) * alignof(CostModel),
            sizeof(CostModel))
      << "a field at the end of CostModel is missing from kCostModelFields";
  EXPECT_EQ(FindCostModelField("no_such_field"), nullptr);
}

TEST(DeviceProfile, EveryPresetRoundTripsAndPlansTheSame) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> log_size(0, std::log(20000.0));
  for (const DeviceSpec& preset : Presets()) {
    const std::string json = DeviceSpecToJson(preset);
    absl::StatusOr<DeviceSpec> back = DeviceSpecFromJson(json);
    ASSERT_TRUE(back.ok()) << preset.name << ": " << back.status();
    EXPECT_EQ(DeviceSpecToJson(*back), json) << preset.name;
    EXPECT_EQ(back->name, preset.name);
    EXPECT_EQ(back->sms, preset.sms);
    EXPECT_EQ(back->occupancy, preset.occupancy);
    EXPECT_EQ(back->l2_bytes, preset.l2_bytes);
    EXPECT_EQ(back->mainloop, preset.mainloop);
    ASSERT_EQ(back->kernels.size(), preset.kernels.size()) << preset.name;
    for (size_t i = 0; i < preset.kernels.size(); ++i) {
      const KernelConfig& k = preset.kernels[i];
      const KernelConfig& b = back->kernels[i];
      const char* name = KernelRoleName(k.role);
      EXPECT_EQ(b.role, k.role) << preset.name << " " << name;
      EXPECT_EQ(b.tile, k.tile) << preset.name << " " << name;
      EXPECT_EQ(b.cluster_m, k.cluster_m) << preset.name << " " << name;
      EXPECT_EQ(b.cluster_slots, k.cluster_slots) << preset.name << " " << name;
      for (const CostModelField& f : kCostModelFields) {
        if (f.number != nullptr)
          EXPECT_EQ(b.cost.*f.number, k.cost.*f.number)
              << preset.name << " " << name << "." << f.name;
        else
          EXPECT_EQ(b.cost.*f.flag, k.cost.*f.flag) << preset.name << " " << name << "." << f.name;
      }
    }
    // The same plans and predictions for random problems.
    for (int i = 0; i < 300; ++i) {
      Problem pr;
      pr.m = 1 + static_cast<int64_t>(std::exp(log_size(rng)));
      pr.n = 1 + static_cast<int64_t>(std::exp(log_size(rng)));
      pr.k = 1 + static_cast<int64_t>(std::exp(log_size(rng)));
      PlanExplanation a_why, b_why;
      absl::StatusOr<Plan> a = MakePlan(pr, preset, {}, &a_why);
      absl::StatusOr<Plan> b = MakePlan(pr, *back, {}, &b_why);
      ASSERT_EQ(a.ok(), b.ok());
      if (!a.ok()) continue;
      EXPECT_EQ(FormatPlan(*a, &a_why, preset.name), FormatPlan(*b, &b_why, preset.name))
          << preset.name << " " << pr.m << "x" << pr.n << "x" << pr.k;
    }
  }
}

TEST(DeviceProfile, SavedAndLoadedFromAFile) {
  const std::string path = ::testing::TempDir() + "/streamk_profile_test.json";
  ASSERT_TRUE(SaveDeviceProfile(H100Spec(), path, R"({"command": "test", "rows": 3})").ok());
  absl::StatusOr<DeviceSpec> back = LoadDeviceProfile(path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(DeviceSpecToJson(*back), DeviceSpecToJson(H100Spec()));
  std::remove(path.c_str());
  absl::StatusOr<DeviceSpec> missing = LoadDeviceProfile(path);
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find(path), std::string::npos);
}

// Each bad profile is refused with InvalidArgument naming the key and the rule.
TEST(DeviceProfile, BadProfilesNameTheKey) {
  const std::string good = DeviceSpecToJson(H200Spec());
  auto replace = [&good](const std::string& from, const std::string& to) {
    std::string s = good;
    const size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) s.replace(at, from.size(), to);
    return s;
  };
  const struct {
    std::string json, key;
  } cases[] = {
      {"{not json", "not valid JSON"},
      {"[1, 2]", "expected a JSON object"},
      {replace("\"streamk-device-profile\"", "\"something-else\""), "format"},
      {replace("\"version\": 1", "\"version\": 2"), "version"},
      {replace("\"sms\": 132", "\"smz\": 132"), "smz"},
      {replace("\"sms\": 132", "\"sms\": 0"), "sms"},
      {replace("\"sms\": 132", "\"sms\": 13.5"), "sms"},
      {replace("\"sms\": 132", "\"sms\": 100000"), "sms: 100000 is outside [1, 4096]"},
      {replace("\"occupancy\": 1", "\"occupancy\": 1000"), "occupancy"},
      {replace("\"iter_us\": ", "\"iter_us\": -0.5, \"x\": "), "iter_us: -0.5"},
      {replace("\"iter_us\": ", "\"iter_us\": 1e300, \"x\": "), "iter_us"},
      {replace("\"occupancy\": 1,", ""), "occupancy: missing"},
      {replace("\"sm90-tma\"", "\"sm100\""), "mainloop"},
      {replace("\"main\":", "\"primary\":"), "configurations.primary"},
      {replace("\"iter_us\": ", "\"iter_ms\": "), "configurations.main.cost.iter_ms"},
      {replace("\"iter_us\": ", "\"iter_us\": \"fast\", \"x\": "),
       "configurations.main.cost.iter_us"},
      {replace("\"partial_wave_streamk\": true", "\"partial_wave_streamk\": 1"),
       "configurations.main.cost.partial_wave_streamk"},
      {replace("128,\n        256,", "128,\n        250,"), "configurations.main.tile"},
      {replace("\"slots\": ", "\"slot\": "), "configurations.cluster.slot"},
  };
  for (const auto& c : cases) {
    absl::StatusOr<DeviceSpec> spec = DeviceSpecFromJson(c.json);
    ASSERT_FALSE(spec.ok()) << c.key;
    EXPECT_EQ(spec.status().code(), absl::StatusCode::kInvalidArgument) << c.key;
    EXPECT_NE(spec.status().message().find(c.key), std::string::npos)
        << spec.status().message() << " does not name " << c.key;
  }
  // A profile of one configuration is fine; none is not.
  EXPECT_TRUE(DeviceSpecFromJson(DeviceSpecToJson(A100Spec())).ok());
  const std::string none =
      R"({"format": "streamk-device-profile", "version": 1, "sms": 8, "occupancy": 1,
          "configurations": {}})";
  absl::StatusOr<DeviceSpec> empty = DeviceSpecFromJson(none);
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("configurations.main: missing"), std::string::npos)
      << empty.status();
}

// Any profile that reads plans without failing: constants of 0, tiny or huge (within the bounds
// reading allows), SM counts and occupancies at their bounds.
TEST(DeviceProfile, AnyProfileThatReadsPlans) {
  std::mt19937_64 rng(11);
  const double values[] = {0, 1e-9, 0.5, 3, 1e6, 1e15};
  for (int trial = 0; trial < 40; ++trial) {
    DeviceSpec spec = H200Spec();
    spec.sms = trial % 3 == 0 ? 1 : trial % 3 == 1 ? 4096 : 132;
    spec.occupancy = trial % 4 == 0 ? 32 : 1;
    for (KernelConfig& k : spec.kernels)
      for (const CostModelField& f : kCostModelFields) {
        if (f.number != nullptr)
          k.cost.*f.number = values[rng() % std::size(values)];
        else
          k.cost.*f.flag = rng() % 2 == 0;
      }
    absl::StatusOr<DeviceSpec> read = DeviceSpecFromJson(DeviceSpecToJson(spec));
    ASSERT_TRUE(read.ok()) << read.status();
    for (int i = 0; i < 20; ++i) {
      Problem pr;
      pr.m = 1 + static_cast<int64_t>(rng() % 20000);
      pr.n = 1 + static_cast<int64_t>(rng() % 20000);
      pr.k = 1 + static_cast<int64_t>(rng() % 20000);
      PlanExplanation why;
      absl::StatusOr<Plan> p = MakePlan(pr, *read, {}, &why);
      if (p.ok()) {
        EXPECT_GE(p->grid_blocks, 1);
        EXPECT_LE(p->grid_blocks, std::max(1, read->sms * read->occupancy));
      }
    }
  }
}

// Thousands of profiles mutated at random (characters dropped, repeated or replaced, numbers
// made huge, negative, fractional or not numbers, the text cut short): each reads as a device
// that plans, or is refused with InvalidArgument that names what is wrong; none crashes.
TEST(DeviceProfile, MutatedProfilesAreReadOrRefused) {
  const std::string good = DeviceSpecToJson(H200Spec());
  std::mt19937_64 rng(20261208);
  auto below = [&rng](size_t n) { return static_cast<size_t>(rng() % n); };
  const char* const tokens[] = {"0",    "-1",   "1e999", "-0.0", "4097", "1.5",  "nan",
                                "null", "true", "\"x\"", "[]",   "{}",   "\"\"", "1e-320"};
  int read = 0, refused = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string s = good;
    for (int edits = 1 + static_cast<int>(below(3)); edits > 0 && !s.empty(); --edits) {
      const size_t at = below(s.size());
      switch (below(5)) {
        case 0: s.erase(at, 1 + below(8)); break;
        case 1: s.insert(at, s.substr(at, 1 + below(8))); break;
        case 2: s[at] = static_cast<char>(32 + below(95)); break;
        case 3: {  // a number's digits, or any value, replaced by another token
          const size_t digit = s.find_first_of("0123456789", at);
          if (digit == std::string::npos) break;
          const size_t end = s.find_first_not_of("0123456789.e-", digit);
          s.replace(digit, end - digit, tokens[below(std::size(tokens))]);
          break;
        }
        default: s.resize(at); break;
      }
    }
    absl::StatusOr<DeviceSpec> spec = DeviceSpecFromJson(s);
    if (!spec.ok()) {
      ++refused;
      ASSERT_EQ(spec.status().code(), absl::StatusCode::kInvalidArgument)
          << spec.status() << "\n" << s;
      ASSERT_FALSE(spec.status().message().empty()) << s;
      continue;
    }
    ++read;
    Problem pr;
    pr.m = 1 + static_cast<int64_t>(below(8192));
    pr.n = 1 + static_cast<int64_t>(below(8192));
    pr.k = 1 + static_cast<int64_t>(below(8192));
    absl::StatusOr<Plan> p = MakePlan(pr, *spec, {});
    if (p.ok()) {
      ASSERT_GE(p->grid_blocks, 1) << s;
      ASSERT_LE(p->grid_blocks, std::max(1, spec->sms * spec->occupancy)) << s;
      const double us = PredictMicros(*p, KernelCost(*spec, *p));
      ASSERT_TRUE(std::isfinite(us) && us >= 0) << us << "\n" << s;
    }
  }
  EXPECT_GT(read, 100);
  EXPECT_GT(refused, 1000);
}

TEST(DeviceProfile, AdaptsOnlyToADeviceWhoseKernelsRunIt) {
  DeviceSpec device = H200Spec();  // stands in for a queried H100 or H200
  device.occupancy = 1, device.Find(KernelRole::kCluster)->cluster_slots = 60,
  device.queried = true;
  DeviceSpec profile = H100Spec();
  profile.occupancy = 3, profile.Find(KernelRole::kCluster)->cluster_slots = 1;
  absl::StatusOr<DeviceSpec> adapted = AdaptDeviceProfile(profile, device);
  ASSERT_TRUE(adapted.ok()) << adapted.status();
  EXPECT_EQ(adapted->occupancy, 1);  // the device's facts
  EXPECT_EQ(adapted->Find(KernelRole::kCluster)->cluster_slots, 60);
  EXPECT_TRUE(adapted->queried);
  EXPECT_EQ(adapted->main().cost.iter_us, profile.main().cost.iter_us);  // the profile's constants
  EXPECT_EQ(adapted->name, profile.name);

  // Another SM count or mainloop, a tile no kernel computes, a cluster tile on single SMs.
  DeviceSpec other = profile;
  other.sms = 114;
  EXPECT_NE(AdaptDeviceProfile(other, device).status().message().find("sms = 114"),
            std::string::npos);
  other = profile;
  other.mainloop = Mainloop::kSm80;
  EXPECT_NE(AdaptDeviceProfile(other, device).status().message().find("mainloop = sm80"),
            std::string::npos);
  other = profile;
  other.Find(KernelRole::kMid)->tile = TileShape{128, 96, 64};
  EXPECT_NE(AdaptDeviceProfile(other, device).status().message().find("configurations.mid.tile"),
            std::string::npos);
  other = profile;
  other.Find(KernelRole::kAlt)->tile = profile.TileOf(KernelRole::kCluster);
  EXPECT_FALSE(AdaptDeviceProfile(other, device).ok());
  // A device without clusters drops the profile's cluster configuration.
  device.Remove(KernelRole::kCluster);
  adapted = AdaptDeviceProfile(profile, device);
  ASSERT_TRUE(adapted.ok()) << adapted.status();
  EXPECT_EQ(adapted->TileOf(KernelRole::kCluster), kNoTile);
}

}  // namespace
}  // namespace streamk
