// Kernel trace: where the time of one launch goes, measured inside the kernel. When
// Options::trace points at a device buffer, thread 0 of every persistent block records a
// timestamp at each phase boundary of each piece of work it does (a Stream-K unit, a data-parallel
// tile, a reduction): begin, mainloop done, wait done, fixup done, epilogue done. Without a trace
// buffer the kernel checks one kernel parameter per phase and records nothing.
//
//   streamk::TraceBuffer trace{events_on_device, 64};  // grid_blocks * 64 events, zeroed
//   options.trace = trace;
//   streamk::gemm(args, stream, options);
//   ... copy the events back ...
//   streamk::TraceSummary s = streamk::SummarizeTrace(plan, events, 64);
//
// The streamk-trace tool does all of that for one shape and prints the breakdown. No Abseil here:
// the kernels include this header.
#pragma once

#include <cstdint>
#include <type_traits>

namespace streamk {

enum class TraceKind : int32_t {
  kEmpty = 0,      // an unused slot (buffers start zeroed)
  kBegin,          // a unit / tile / reduction starts
  kMainloopEnd,    // its k-iterations are done (reductions: none)
  kWaitEnd,        // its wait for peers is over (no wait: same time as the previous event)
  kFixupEnd,       // its partials are published / taken and its flag signalled
  kEpilogueEnd,    // D is written (or, for a unit that only publishes, same as kFixupEnd)
};

struct TraceEvent {
  uint64_t ns = 0;      // %globaltimer: comparable across SMs, coarse
  uint64_t cycles = 0;  // clock64 of the SM: fine, per SM
  TraceKind kind = TraceKind::kEmpty;
  int32_t work = 0;  // work block (plan.h numbering)
  int32_t tile = -1;
  int32_t k_begin = 0, k_end = 0;  // tile-local k-iterations of the unit
  uint32_t sm = 0;                 // %smid
};
static_assert(std::is_trivially_copyable_v<TraceEvent>);

// Device memory for plan.grid_blocks * events_per_block events, zeroed before the launch. Block b
// writes events [b * events_per_block, (b + 1) * events_per_block); it stops recording when they
// are used up.
struct TraceBuffer {
  TraceEvent* events = nullptr;
  int events_per_block = 0;
};

}  // namespace streamk
