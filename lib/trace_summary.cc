#include "streamk/trace_summary.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "work_mapping.h"

namespace streamk {
namespace {

// One piece of work as traced: times in microseconds since the span began; a phase that did not
// happen takes the time of the phase before it.
struct Piece {
  int block = 0;
  TraceEvent begin;
  double t[5] = {};  // begin, mainloop end, wait end, fixup end, epilogue end
  bool has[5] = {};
};

constexpr double kNominalCyclesPerNs = 1.98;  // an H200's max SM clock, if the trace is too short
// Block lifetimes, summed, that time the SM clock against %globaltimer to better than ~1%.
constexpr double kMinRateNs = 20000;

// How many events a block recorded: those before its first empty slot.
int EventCount(const TraceEvent* ev, int per_block) {
  int n = 0;
  while (n < per_block && ev[n].kind != TraceKind::kEmpty) ++n;
  return n;
}

// The SMs' cycles per nanosecond, pooled over every block: all SMs run one clock, and each block's
// %globaltimer readings are coarse, so one block of ~15 us would misjudge it, 132 of them do not.
// (The nominal rate instead read spans of short launches 10-20% short: an H200 under a full wave
// of wgmma runs its SMs below their 1.98 GHz.)
double CyclesPerNs(const std::vector<TraceEvent>& events, int per_block, int blocks) {
  double ns = 0, cycles = 0;
  for (int b = 0; b < blocks; ++b) {
    const TraceEvent* ev = events.data() + static_cast<size_t>(b) * per_block;
    const int n = EventCount(ev, per_block);
    if (n < 2 || ev[n - 1].ns <= ev[0].ns || ev[n - 1].cycles <= ev[0].cycles) continue;
    ns += static_cast<double>(ev[n - 1].ns - ev[0].ns);
    cycles += static_cast<double>(ev[n - 1].cycles - ev[0].cycles);
  }
  return ns >= kMinRateNs ? cycles / ns : kNominalCyclesPerNs;
}

// Per block: its pieces, with times from the SM's cycle counter (fine) at the pooled clock rate
// (CyclesPerNs), anchored at the block's first %globaltimer reading (coarse but global). None
// when `events` is not a whole buffer of `blocks` x `per_block` events.
std::vector<Piece> Pieces(const std::vector<TraceEvent>& events, int per_block, int blocks,
                          int* truncated, int* traced_blocks, double* cycles_per_ns = nullptr) {
  *truncated = *traced_blocks = 0;
  if (per_block < 1 || events.size() < static_cast<size_t>(blocks) * per_block) return {};
  const double rate = CyclesPerNs(events, per_block, blocks);
  if (cycles_per_ns != nullptr) *cycles_per_ns = rate;
  uint64_t t0 = std::numeric_limits<uint64_t>::max();
  for (int b = 0; b < blocks; ++b) {
    const TraceEvent& e = events[static_cast<size_t>(b) * per_block];
    if (e.kind != TraceKind::kEmpty) t0 = std::min(t0, e.ns);
  }
  std::vector<Piece> pieces;
  for (int b = 0; b < blocks; ++b) {
    const TraceEvent* ev = events.data() + static_cast<size_t>(b) * per_block;
    const int n = EventCount(ev, per_block);
    if (n == 0) continue;
    ++*traced_blocks;
    if (n == per_block) ++*truncated;
    auto us = [&](const TraceEvent& e) {
      return (static_cast<double>(ev[0].ns - t0) +
              static_cast<double>(e.cycles - ev[0].cycles) / rate) / 1000.0;
    };
    const size_t first = pieces.size();  // this block's pieces
    for (int i = 0; i < n; ++i) {
      if (ev[i].kind == TraceKind::kBegin) {
        Piece p;
        p.block = b;
        p.begin = ev[i];
        pieces.push_back(p);
      }
      // The piece of this event's work block and tile: the block's last, or under ping-pong
      // (the two compute warp groups on tiles of their own, kernels/tma_operands.h) the one
      // before, whose events interleave with the last's.
      Piece* piece = nullptr;
      for (size_t j = pieces.size(); j > first && j + 2 > pieces.size(); --j) {
        const TraceEvent& at = pieces[j - 1].begin;
        if (at.work == ev[i].work && at.tile == ev[i].tile) {
          piece = &pieces[j - 1];
          break;
        }
      }
      if (piece == nullptr) continue;  // events before a begin
      const int phase = static_cast<int>(ev[i].kind) - 1;
      if (phase < 0 || phase > 4) continue;
      piece->t[phase] = us(ev[i]);
      piece->has[phase] = true;
    }
  }
  for (Piece& p : pieces) {
    for (int i = 1; i < 5; ++i)
      if (!p.has[i]) p.t[i] = p.t[i - 1];
  }
  return pieces;
}

void Accumulate(const Piece& p, TracePhases* ph) {
  ++ph->pieces;
  ph->mainloop_us += p.t[1] - p.t[0];
  ph->wait_us += p.t[2] - p.t[1];
  ph->fixup_us += p.t[3] - p.t[2];
  ph->epilogue_us += p.t[4] - p.t[3];
  ph->iterations += p.begin.k_end - p.begin.k_begin;
}

void Average(TracePhases* ph) {
  if (ph->pieces == 0) return;
  const double n = ph->pieces;
  ph->mainloop_us /= n, ph->wait_us /= n, ph->fixup_us /= n, ph->epilogue_us /= n;
  ph->iterations /= n;
}

}  // namespace

TraceSummary SummarizeTrace(const Plan& plan, const std::vector<TraceEvent>& events,
                            int events_per_block) {
  TraceSummary s;
  const std::vector<Piece> pieces =
      Pieces(events, events_per_block, plan.grid_blocks, &s.truncated_blocks, &s.blocks,
             &s.clock_ghz);
  if (pieces.empty()) return s;

  double span_end = 0;
  double last_first_begin = 0;
  for (const Piece& p : pieces) span_end = std::max(span_end, p.t[4]);
  s.span_us = span_end;  // pieces are timed from the first begin

  // Least squares over mainloops: time = start + iterations * per_iteration.
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int fit_n = 0;
  int prev_block = -1;
  double prev_end = 0;
  for (const Piece& p : pieces) {
    const mapping::BlockRole role = mapping::RoleOf(plan, p.begin.work);
    TracePhases* ph = role.role == mapping::Role::kStreamK        ? &s.streamk
                      : role.role == mapping::Role::kDataParallel ? &s.data_parallel
                                                                  : &s.reduction;
    Accumulate(p, ph);
    if (role.role != mapping::Role::kReduction) {
      const double x = p.begin.k_end - p.begin.k_begin, y = p.t[1] - p.t[0];
      sx += x, sy += y, sxx += x * x, sxy += x * y;
      ++fit_n;
    }
    if (p.block != prev_block) {  // a block's first piece: the gap is its launch skew
      if (prev_block >= 0) s.tail_us += span_end - prev_end;
      last_first_begin = std::max(last_first_begin, p.t[0]);
      s.block_gap_us += p.t[0];
      prev_block = p.block;
    } else {
      s.block_gap_us += p.t[0] - prev_end;
    }
    prev_end = p.t[4];
    s.block_mainloop_us += p.t[1] - p.t[0];
    s.block_wait_us += p.t[2] - p.t[1];
    s.block_fixup_us += p.t[3] - p.t[2];
    s.block_epilogue_us += p.t[4] - p.t[3];
  }
  s.tail_us += span_end - prev_end;
  s.launch_skew_us = last_first_begin;
  const double blocks = s.blocks;
  s.tail_us /= blocks;
  s.block_gap_us /= blocks, s.block_mainloop_us /= blocks, s.block_wait_us /= blocks;
  s.block_fixup_us /= blocks, s.block_epilogue_us /= blocks;
  Average(&s.streamk);
  Average(&s.data_parallel);
  Average(&s.reduction);
  const double det = fit_n * sxx - sx * sx;
  if (fit_n >= 2 && det > 1e-9) {
    s.iteration_us = (fit_n * sxy - sx * sy) / det;
    s.mainloop_start_us = (sy - s.iteration_us * sx) / fit_n;
  } else if (sx > 0) {
    s.iteration_us = sy / sx;  // one length only: no start cost can be told apart
  }
  return s;
}

std::string FormatTraceSummary(const TraceSummary& s) {
  std::string out = absl::StrFormat(
      "span %.1f us over %d blocks%s\n"
      "per block (mean us): mainloop %.1f  wait %.1f  fixup %.1f  epilogue %.1f  "
      "between pieces %.1f  idle at end %.1f\n"
      "launch skew %.1f us; mainloop fit: %.2f us to start + %.3f us per k-iteration; "
      "SM clock %.2f GHz\n",
      s.span_us, s.blocks,
      s.truncated_blocks > 0 ? absl::StrCat(" (", s.truncated_blocks, " truncated)") : "",
      s.block_mainloop_us, s.block_wait_us, s.block_fixup_us, s.block_epilogue_us,
      s.block_gap_us, s.tail_us, s.launch_skew_us, s.mainloop_start_us, s.iteration_us,
      s.clock_ghz);
  auto row = [&](const char* name, const TracePhases& p) {
    if (p.pieces == 0) return;
    absl::StrAppendFormat(&out,
                          "%-9s %5d pieces, %6.1f iterations; per piece (us): mainloop %6.1f  "
                          "wait %5.1f  fixup %5.1f  epilogue %5.1f\n",
                          name, p.pieces, p.iterations, p.mainloop_us, p.wait_us, p.fixup_us,
                          p.epilogue_us);
  };
  row("streamk", s.streamk);
  row("dp", s.data_parallel);
  row("reduction", s.reduction);
  return out;
}

std::string TraceToCsv(const Plan& plan, const std::vector<TraceEvent>& events,
                       int events_per_block) {
  std::string out =
      "block,sm,work,tile,k_begin,k_end,begin_us,mainloop_end_us,wait_end_us,fixup_end_us,"
      "epilogue_end_us\n";
  int truncated = 0, blocks = 0;
  for (const Piece& p : Pieces(events, events_per_block, plan.grid_blocks, &truncated, &blocks)) {
    absl::StrAppendFormat(&out, "%d,%u,%d,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f\n", p.block,
                          p.begin.sm, p.begin.work, p.begin.tile, p.begin.k_begin, p.begin.k_end,
                          p.t[0], p.t[1], p.t[2], p.t[3], p.t[4]);
  }
  return out;
}

}  // namespace streamk
