// SummarizeTrace / TraceToCsv on hand-made traces: the phases, the per-iteration fit, the span
// and the idle time come out as the events say.
#include "streamk/trace_summary.h"

#include <gtest/gtest.h>

#include <vector>

#include "streamk/device_spec.h"
#include "streamk/planner.h"

namespace streamk {
namespace {

// Events of one block at `cycles_per_ns`, from microsecond times.
struct Recorder {
  std::vector<TraceEvent>& events;
  int per_block;
  double cycles_per_ns;
  int block = 0, used = 0;
  uint64_t ns0 = 0;
  void Start(int b, uint64_t ns0_) { block = b, used = 0, ns0 = ns0_; }
  void Add(TraceKind kind, int work, int tile, int kb, int ke, double us) {
    TraceEvent e;
    e.ns = ns0 + static_cast<uint64_t>(us * 1000);
    e.cycles = 1000000 + static_cast<uint64_t>(us * 1000 * cycles_per_ns);
    e.kind = kind, e.work = work, e.tile = tile, e.k_begin = kb, e.k_end = ke, e.sm = block;
    events[static_cast<size_t>(block) * per_block + used++] = e;
  }
};

TEST(TraceSummary, PhasesFitAndIdleTime) {
  // Two data-parallel tiles of 128 iterations on two blocks (a dp plan on a 2-SM device).
  DeviceSpec dev = H200Spec();
  dev.sms = 2, dev.occupancy = 1;
  Problem pr;
  pr.m = 128, pr.n = 256, pr.k = 4096;
  PlanOptions o;
  o.mode = Mode::kDataParallel;
  o.tile = {128, 128, 32};
  absl::StatusOr<Plan> plan = MakePlan(pr, dev, o);
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->grid_blocks, 2);
  const int per_block = 8;
  std::vector<TraceEvent> events(2 * per_block);
  Recorder r{events, per_block, 1.5};
  // Block 0 starts at t = 0: mainloop 50 us (0.375 us/iteration + 2 us to start), epilogue 4.
  r.Start(0, 5000000);
  r.Add(TraceKind::kBegin, 0, 0, 0, 128, 0);
  r.Add(TraceKind::kMainloopEnd, 0, 0, 0, 128, 50);
  r.Add(TraceKind::kEpilogueEnd, 0, 0, 0, 128, 54);
  // Block 1 starts 1 us later and ends at 60: 26 us for half the iterations (other tile half).
  r.Start(1, 5001000);
  r.Add(TraceKind::kBegin, 1, 1, 0, 64, 0);
  r.Add(TraceKind::kMainloopEnd, 1, 1, 0, 64, 26);
  r.Add(TraceKind::kEpilogueEnd, 1, 1, 0, 64, 59);

  const TraceSummary s = SummarizeTrace(*plan, events, per_block);
  EXPECT_EQ(s.blocks, 2);
  EXPECT_EQ(s.truncated_blocks, 0);
  EXPECT_NEAR(s.span_us, 60, 0.01);
  EXPECT_NEAR(s.launch_skew_us, 1, 0.01);
  EXPECT_NEAR(s.tail_us, (60 - 54 + 60 - 60) / 2.0, 0.01);
  EXPECT_EQ(s.data_parallel.pieces, 2);
  EXPECT_NEAR(s.data_parallel.mainloop_us, (50 + 26) / 2.0, 0.01);
  EXPECT_NEAR(s.data_parallel.epilogue_us, (4 + 33) / 2.0, 0.01);
  EXPECT_NEAR(s.data_parallel.iterations, 96, 1e-9);
  // 50 = start + 128 x, 26 = start + 64 x  ->  x = 0.375, start = 2.
  EXPECT_NEAR(s.iteration_us, 0.375, 1e-6);
  EXPECT_NEAR(s.mainloop_start_us, 2, 1e-6);
  EXPECT_NEAR(s.block_gap_us, (0 + 1) / 2.0, 0.01);

  const std::string text = FormatTraceSummary(s);
  EXPECT_NE(text.find("span 60.0 us over 2 blocks"), std::string::npos) << text;
  const std::string csv = TraceToCsv(*plan, events, per_block);
  EXPECT_NE(csv.find("\n1,1,1,1,0,64,1.000,27.000,27.000,27.000,60.000\n"), std::string::npos)
      << csv;
}

// Ping-pong (kernels/tma_operands.h): a block's two compute warp groups take its tiles in turn,
// so one tile's epilogue end comes after the next tile's begin; each event still counts for its
// own tile.
TEST(TraceSummary, InterleavedTilesOfTwoWarpGroups) {
  DeviceSpec dev = H200Spec();
  dev.sms = 1, dev.occupancy = 1;
  Problem pr;
  pr.m = 128, pr.n = 384, pr.k = 1024;
  PlanOptions o;
  o.mode = Mode::kDataParallel;
  o.tile = {128, 128, 64};
  absl::StatusOr<Plan> plan = MakePlan(pr, dev, o);
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->grid_blocks, 1);
  ASSERT_EQ(plan->tiles, 3);
  const int per_block = 16;
  std::vector<TraceEvent> events(per_block);
  Recorder r{events, per_block, 1.5};
  r.Start(0, 5000000);
  // Mainloops of 10 us back to back; each epilogue 3 us, under the next mainloop.
  for (int t = 0; t < 3; ++t) {
    r.Add(TraceKind::kBegin, t, t, 0, 16, 10.0 * t);
    if (t > 0) r.Add(TraceKind::kEpilogueEnd, t - 1, t - 1, 0, 16, 10.0 * t + 3);
    r.Add(TraceKind::kMainloopEnd, t, t, 0, 16, 10.0 * t + 10);
  }
  r.Add(TraceKind::kEpilogueEnd, 2, 2, 0, 16, 33);
  const TraceSummary s = SummarizeTrace(*plan, events, per_block);
  EXPECT_EQ(s.data_parallel.pieces, 3);
  EXPECT_NEAR(s.data_parallel.mainloop_us, 10, 1e-6);
  EXPECT_NEAR(s.data_parallel.epilogue_us, 3, 1e-6);
  EXPECT_NEAR(s.span_us, 33, 1e-6);
}

TEST(TraceSummary, StreamKWaitsAndFullBuffers) {
  DeviceSpec dev = H200Spec();
  dev.sms = 2, dev.occupancy = 1;
  Problem pr;
  pr.m = 128, pr.n = 128, pr.k = 4096;
  PlanOptions o;
  o.mode = Mode::kStreamK;
  o.blocks = 2;
  absl::StatusOr<Plan> plan = MakePlan(pr, dev, o);
  ASSERT_TRUE(plan.ok());
  const int per_block = 4;  // block 1 fills its buffer exactly: counted as truncated
  std::vector<TraceEvent> events(2 * per_block);
  Recorder r{events, per_block, 2.0};
  r.Start(0, 1000);
  r.Add(TraceKind::kBegin, 0, 0, 0, 64, 0);
  r.Add(TraceKind::kMainloopEnd, 0, 0, 0, 64, 30);
  r.Add(TraceKind::kWaitEnd, 0, 0, 0, 64, 30);
  r.Add(TraceKind::kFixupEnd, 0, 0, 0, 64, 32);
  r.Start(1, 1000);
  r.Add(TraceKind::kBegin, 1, 0, 64, 128, 0);
  r.Add(TraceKind::kMainloopEnd, 1, 0, 64, 128, 31);
  r.Add(TraceKind::kWaitEnd, 1, 0, 64, 128, 33);
  r.Add(TraceKind::kFixupEnd, 1, 0, 64, 128, 34);
  const TraceSummary s = SummarizeTrace(*plan, events, per_block);
  EXPECT_EQ(s.streamk.pieces, 2);
  EXPECT_EQ(s.truncated_blocks, 2);
  EXPECT_NEAR(s.streamk.wait_us, 1, 0.01);
  EXPECT_NEAR(s.streamk.fixup_us, 1.5, 0.01);
  EXPECT_NEAR(s.streamk.epilogue_us, 0, 0.01);  // no epilogue event: no epilogue time
  EXPECT_NEAR(s.span_us, 34, 0.01);
}

TEST(TraceSummary, WrongSizedBufferGivesAnEmptySummary) {
  Problem pr;
  pr.m = pr.n = pr.k = 256;
  absl::StatusOr<Plan> plan = MakePlan(pr, H200Spec(), PlanOptions{});
  ASSERT_TRUE(plan.ok());
  std::vector<TraceEvent> events(3);
  EXPECT_EQ(SummarizeTrace(*plan, events, 8).blocks, 0);
  EXPECT_EQ(SummarizeTrace(*plan, events, 0).blocks, 0);
}

TEST(TraceSummary, ShortLaunchesAreTimedAtTheSmsOwnClock) {
  // A full wave of 132 tiles whose blocks live ~15 us each at 1.6 GHz, %globaltimer read in 1 us
  // steps: no block alone lives long enough to time the clock, all of them together do. At the
  // nominal 1.98 GHz the span would read 19% short.
  DeviceSpec dev = H200Spec();
  Problem pr;
  pr.m = 12 * 128, pr.n = 11 * 256, pr.k = 1024;
  PlanOptions o;
  o.mode = Mode::kDataParallel;
  o.tile = dev.main().tile;
  absl::StatusOr<Plan> plan = MakePlan(pr, dev, o);
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->grid_blocks, 132);
  const int per_block = 4;
  std::vector<TraceEvent> events(132 * per_block);
  Recorder r{events, per_block, 1.6};
  for (int b = 0; b < 132; ++b) {
    r.Start(b, 7000000 + 37 * b);  // starts spread over 4.9 us
    const double end = 14 + (b % 7) * 0.25;
    r.Add(TraceKind::kBegin, b, b, 0, 16, 0);
    r.Add(TraceKind::kMainloopEnd, b, b, 0, 16, end - 1);
    r.Add(TraceKind::kEpilogueEnd, b, b, 0, 16, end);
  }
  for (TraceEvent& e : events) e.ns -= e.ns % 1000;  // a coarse global timer
  const TraceSummary s = SummarizeTrace(*plan, events, per_block);
  EXPECT_NEAR(s.clock_ghz, 1.6, 0.05);
  // The last block to end: started 131 * 37 ns after the first (read as 4 us or 5 us late),
  // ended 15.5 us after its own start.
  EXPECT_NEAR(s.span_us, 4.8 + 15.5, 1.0);
  EXPECT_NEAR(s.data_parallel.mainloop_us, 13.75, 0.5);
  EXPECT_NE(FormatTraceSummary(s).find("SM clock 1.6"), std::string::npos) << FormatTraceSummary(s);
}

}  // namespace
}  // namespace streamk
