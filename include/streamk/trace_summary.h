// What a kernel trace (trace.h) says: per kind of work, how long its mainloop, waits, fixups and
// epilogues took, what one k-iteration and one mainloop start cost, and how the launch's span
// splits into work and idle time. Host only.
#pragma once

#include <string>
#include <vector>

#include "streamk/plan.h"
#include "streamk/trace.h"

namespace streamk {

struct TracePhases {
  int pieces = 0;           // units, tiles or reductions traced
  double mainloop_us = 0;   // mean per piece
  double wait_us = 0;       // mean per piece
  double fixup_us = 0;      // mean per piece: publish / take / signal
  double epilogue_us = 0;   // mean per piece (0 for pieces that only publish)
  double iterations = 0;    // mean k-iterations per piece
};

struct TraceSummary {
  int blocks = 0;           // persistent blocks with events
  int truncated_blocks = 0; // blocks whose buffer ran out (their later pieces are missing)
  double span_us = 0;       // first begin to last end
  double launch_skew_us = 0;  // first begin of the last block to start, after the first
  double tail_us = 0;       // mean idle time per block between its last end and the span's end
  TracePhases streamk, data_parallel, reduction;
  // Least-squares fit over all mainloops: mainloop_us = start_us + iterations * iteration_us.
  double mainloop_start_us = 0;
  double iteration_us = 0;
  // Per block, means: time in each phase and time between pieces (launch skew, loop overhead).
  double block_mainloop_us = 0, block_wait_us = 0, block_fixup_us = 0, block_epilogue_us = 0;
  double block_gap_us = 0;
  // The SM clock the cycle counts were converted at: cycles per %globaltimer nanosecond, pooled
  // over all blocks (a nominal 1.98 where they lived under 20 us together).
  double clock_ghz = 0;
};

// `events`: the whole buffer, plan.grid_blocks * events_per_block events as the kernel left it.
TraceSummary SummarizeTrace(const Plan& plan, const std::vector<TraceEvent>& events,
                            int events_per_block);

// A few lines of text: the span, the per-block split, the per-piece phases.
std::string FormatTraceSummary(const TraceSummary& s);

// Per-piece CSV: block, sm, work, tile, k_begin, k_end, then microseconds since the span began of
// begin, mainloop end, wait end, fixup end, epilogue end.
std::string TraceToCsv(const Plan& plan, const std::vector<TraceEvent>& events,
                       int events_per_block);

}  // namespace streamk
