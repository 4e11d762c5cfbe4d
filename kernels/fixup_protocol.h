// The fixup protocol: what a Stream-K block does with its accumulators after computing one tile's
// k-slice, and what a reduction block does, as data. The kernel (persistent_kernel.cuh) and the CPU
// emulator (lib/emulator.cc) both execute exactly these steps, so the emulator's tests cover the
// kernel's protocol. Each step is: wait for the tile's flag, publish own partials to the tile's
// slot and/or take the slot's partials into own accumulators, signal, run the epilogue.
//
// Flags are int32, one per Stream-K tile, zero before and after every launch: the last block to
// read a tile's flag resets it. Every wait is on a value that only lower-numbered blocks produce:
//   kDeterministic  turn 0 stores and sets 1; turn t waits for t, adds and sets t + 1; the
//                   finisher waits for peers - 1, takes the sum and resets. Sums in k order.
//   kAtomic         turn 0 stores and increments; middle turns wait for >= 1, add atomically and
//                   increment; the finisher waits for peers - 1, takes the sum and resets.
//   kSeparate       every peer stores its own slot and increments; each of the tile's
//                   reduction_slices reduction blocks waits for >= peers, increments on leaving
//                   (the last to leave resets), sums its columns of the slots in k order and runs
//                   the epilogue on them.
#pragma once

#include "work_mapping.h"

namespace streamk::fixup {

enum class Wait : int { kNone, kEquals, kAtLeast };
enum class Publish : int { kNone, kStore, kAdd, kAtomicAdd };
// kDepart (reduction blocks): after the wait, increment; the block whose increment brings the flag
// to signal_value is the tile's last reader and resets it to zero.
enum class Signal : int { kNone, kSet, kIncrement, kReset, kDepart };

struct Step {
  Wait wait = Wait::kNone;
  int wait_value = 0;
  Publish publish = Publish::kNone;  // own accumulators -> partial slot
  bool take = false;                 // partial slot -> own accumulators (added)
  Signal signal = Signal::kNone;
  int signal_value = 0;  // for kSet
  bool epilogue = false;
};

STREAMK_HD Step SkStep(const Plan& p, const mapping::SkUnit& u) {
  Step s;
  const int peers = u.peers.count();
  if (peers == 1) {  // the whole tile is this block's: nothing to share
    s.epilogue = true;
    return s;
  }
  const int turn = u.turn();
  const bool final_slice = u.is_final_slice(p);
  switch (p.reduction) {
    case Reduction::kDeterministic:
      if (turn == 0) {
        s.publish = Publish::kStore, s.signal = Signal::kSet, s.signal_value = 1;
      } else if (final_slice) {
        s.wait = Wait::kEquals, s.wait_value = peers - 1;
        s.take = true, s.signal = Signal::kReset, s.epilogue = true;
      } else {
        s.wait = Wait::kEquals, s.wait_value = turn;
        s.publish = Publish::kAdd, s.signal = Signal::kSet, s.signal_value = turn + 1;
      }
      break;
    case Reduction::kAtomic:
      if (turn == 0) {
        s.publish = Publish::kStore, s.signal = Signal::kIncrement;
      } else if (final_slice) {
        s.wait = Wait::kEquals, s.wait_value = peers - 1;
        s.take = true, s.signal = Signal::kReset, s.epilogue = true;
      } else {
        s.wait = Wait::kAtLeast, s.wait_value = 1;
        s.publish = Publish::kAtomicAdd, s.signal = Signal::kIncrement;
      }
      break;
    case Reduction::kSeparate:
      s.publish = Publish::kStore, s.signal = Signal::kIncrement;
      break;
  }
  return s;
}

// A reduction block of a Stream-K tile shared by `peers` blocks and reduced in `slices` slices
// (kSeparate). For a tile with one peer there is nothing to do: that block ran the epilogue itself.
STREAMK_HD Step ReductionStep(const mapping::Peers& peers, int slices) {
  Step s;
  if (peers.count() == 1) return s;
  s.wait = Wait::kAtLeast, s.wait_value = peers.count();
  s.take = true, s.signal = Signal::kDepart, s.signal_value = peers.count() + slices;
  s.epilogue = true;
  return s;
}

STREAMK_HD bool WaitSatisfied(const Step& s, int flag) {
  switch (s.wait) {
    case Wait::kNone: return true;
    case Wait::kEquals: return flag == s.wait_value;
    case Wait::kAtLeast: return flag >= s.wait_value;
  }
  return false;
}

}  // namespace streamk::fixup
