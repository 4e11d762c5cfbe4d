// CPU emulator of the persistent kernel (see emulator.h).
#include "emulator.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <numeric>
#include <random>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "fixup_protocol.h"
#include "streamk/plan_print.h"
#include "work_mapping.h"

namespace streamk {
namespace {

using mapping::Role;

// Work blocks the TMA kernel's producer may have claimed ahead of its compute threads under a
// dynamic schedule (kernels/persistent_kernel.cuh's kClaimSlots: the ring it posts them in).
constexpr int kClaimSlots = 4;

class Emulator {
 public:
  Emulator(const Plan& p, const EmulatorInputs& in, std::vector<uint8_t>& workspace)
      : p_(p), in_(in), workspace_(workspace) {
    if (workspace_.size() < static_cast<size_t>(p.workspace_bytes))
      workspace_.resize(static_cast<size_t>(p.workspace_bytes), 0);
    result_.d.assign(static_cast<size_t>(p.batch) * p.m * p.n, 0.0f);
    result_.iteration_visits.assign(static_cast<size_t>(p.tiles) * p.iters_per_tile, 0);
    result_.element_writes.assign(static_cast<size_t>(p.batch) * p.m * p.n, 0);
  }

  absl::StatusOr<EmulatorResult> Run(uint64_t seed, const std::vector<int>* starts) {
    // With clusters every rank of a persistent block runs as a block of its own: each walks the
    // same work blocks on its rows (their mainloops' lockstep is not modeled; it cannot deadlock,
    // kernels/persistent_kernel.cuh).
    std::vector<Block> blocks(static_cast<size_t>(p_.grid_blocks) * p_.cluster_m);
    bool all_start = true;
    for (size_t i = 0; i < blocks.size(); ++i) {
      blocks[i].next_work = static_cast<int>(i) / p_.cluster_m;
      blocks[i].rank = static_cast<int>(i) % p_.cluster_m;
      const size_t persistent = i / p_.cluster_m;
      if (starts != nullptr && persistent < starts->size()) {
        blocks[i].start_round = (*starts)[persistent];
        if (blocks[i].start_round < 0) blocks[i].done = true;  // never starts
        all_start &= blocks[i].start_round >= 0;
      }
    }
    if (p_.schedule == Schedule::kDynamic &&
        (p_.counter_offset < p_.flags_offset ||
         p_.counter_offset + 4 > p_.flags_offset + p_.flags_bytes || p_.counter_offset % 4 != 0 ||
         p_.counter_offset < mapping::FlagOffset(p_, p_.sk_tiles)))
      return absl::InternalError(absl::StrCat("counter at byte ", p_.counter_offset,
                                              " is outside the flags area or on a flag; plan: ",
                                              PlanSummary(p_)));
    std::mt19937_64& rng = rng_;
    rng.seed(seed);
    std::vector<int> order(blocks.size());
    std::iota(order.begin(), order.end(), 0);
    bool any_alive = true;
    for (int round = 0; any_alive; ++round) {
      any_alive = false;
      bool progressed = false, pending = false;
      std::shuffle(order.begin(), order.end(), rng);
      for (int i : order) {
        Block& b = blocks[i];
        if (b.done) continue;
        if (round < b.start_round) {  // its SM is still held: it has not started
          any_alive = pending = true;
          continue;
        }
        // Run a random number of steps, so interleavings differ between seeds.
        const int burst = 1 + static_cast<int>(rng() % 3);
        for (int s = 0; s < burst && !b.done; ++s) {
          absl::StatusOr<bool> moved = Step(b);
          if (!moved.ok()) return moved.status();
          ++result_.steps;
          if (!*moved) {
            ++result_.yields;
            break;
          }
          progressed = true;
        }
        any_alive |= !b.done;
      }
      if (any_alive && !progressed && !pending) {
        return absl::InternalError(
            absl::StrCat("deadlock: every unfinished block waits; plan: ", PlanSummary(p_)));
      }
    }
    for (int t = 0; t < p_.sk_tiles; ++t) {
      for (int r = 0; r < p_.cluster_m; ++r) {
        if (Flag(t, r) != 0)
          return absl::InternalError(absl::StrCat("flag of tile ", t, " rank ", r, " is ",
                                                  Flag(t, r), " after the launch; plan: ",
                                                  PlanSummary(p_)));
      }
    }
    if (p_.schedule == Schedule::kDynamic && all_start && Counter() != 0)
      return absl::InternalError(absl::StrCat("work counter is ", Counter(),
                                              " after the launch; plan: ", PlanSummary(p_)));
    return std::move(result_);
  }

 private:
  struct Block {
    int next_work = 0;  // next work block this persistent block takes (static schedule)
    int start_round = 0;  // the scheduler round it starts in
    int rank = 0;       // its rank in its cluster (Plan::cluster_m)
    bool done = false;
    bool busy = false;  // inside a work block
    int work = 0;       // the work block in progress
    // A dynamic schedule on the TMA kernel: the work blocks its producer has claimed and its
    // compute threads have not started, in order, and whether it has claimed past the last.
    std::deque<int> claimed;
    bool claimed_all = false;
    bool partials_in = false;  // the reduction block in progress has its partial sums
    mapping::BlockRole role{Role::kNone, 0};
    mapping::SkUnit unit{};
    mapping::DpTiles dp{};
    int dp_done = 0;
    bool acc_ready = false;
    std::vector<float> acc;
  };

  // The TMA kernel's producer claims its block's work blocks (PostClaim) up to kClaimSlots ahead
  // of the compute threads, as soon as it has issued the loads of the one before: at any time,
  // as far as the order of claims goes. The other mainloops claim a work block as they start it.
  bool ClaimsAhead() const {
    return p_.schedule == Schedule::kDynamic && p_.mainloop == Mainloop::kSm90Tma;
  }
  // Whether the last work block that block b has claimed or started is a reduction block without
  // its partial sums yet.
  bool AfterReduction(const Block& b) const {
    return b.claimed.empty() ? b.busy && b.role.role == Role::kReduction && !b.partials_in
                             : mapping::RoleOf(p_, b.claimed.back()).role == Role::kReduction;
  }
  void ProducerClaim(Block& b) {
    if (AfterReduction(b)) ++result_.claims_past_reduction;
    const int work = Claim();
    if (work >= p_.work_blocks) {
      b.claimed_all = true;
    } else {
      b.claimed.push_back(work);
      result_.max_claimed_ahead =
          std::max(result_.max_claimed_ahead, static_cast<int>(b.claimed.size()));
    }
  }

  // One step of block b: start a work block, or finish one unit of it, or (the TMA kernel under a
  // dynamic schedule) its producer's claim of one more. false: it had to wait.
  absl::StatusOr<bool> Step(Block& b) {
    // After a reduction block (nothing to load) it claims the next only once the compute threads
    // have the block's partial sums (below, as they start summing them).
    if (ClaimsAhead() && !b.claimed_all && !AfterReduction(b) &&
        static_cast<int>(b.claimed.size()) < kClaimSlots && rng_() % 3 == 0) {
      ProducerClaim(b);
      return true;
    }
    if (!b.busy) {
      // A dynamic schedule's claim (persistent_kernel.cuh's Claim): the rank 0 block of a
      // persistent block claims (dynamic plans have no clusters); on the TMA kernel, its
      // producer, which may have claimed this one already.
      int work = b.next_work;
      if (ClaimsAhead()) {
        if (b.claimed.empty() && !b.claimed_all) ProducerClaim(b);
        work = b.claimed.empty() ? p_.work_blocks : b.claimed.front();
        if (!b.claimed.empty()) b.claimed.pop_front();
      } else if (p_.schedule == Schedule::kDynamic) {
        work = Claim();
      }
      if (work >= p_.work_blocks) {
        b.done = true;
        return true;
      }
      b.work = work;
      b.next_work += p_.grid_blocks;
      b.role = mapping::RoleOf(p_, b.work);
      b.busy = true;
      b.acc_ready = false;
      b.partials_in = false;
      if (b.role.role == Role::kStreamK) b.unit = mapping::SkFirstUnit(p_, b.role.index);
      if (b.role.role == Role::kDataParallel) {
        b.dp = mapping::DpBlockTiles(p_, b.role.index);
        b.dp_done = 0;
      }
      return true;
    }
    switch (b.role.role) {
      case Role::kDataParallel: {
        const int tile = b.dp.first_tile + b.dp_done * b.dp.stride;
        Mainloop(tile, 0, p_.iters_per_tile, b.rank, b.acc);
        Epilogue(tile, b.rank, b.acc);
        if (++b.dp_done == b.dp.count) b.busy = false;
        return true;
      }
      case Role::kStreamK: {
        if (!b.acc_ready) {
          Mainloop(b.unit.tile, b.unit.k_begin, b.unit.k_end, b.rank, b.acc);
          b.acc_ready = true;
        }
        const fixup::Step step = fixup::SkStep(p_, b.unit);
        if (step.wait != fixup::Wait::kNone && b.unit.peers.first >= b.work)
          return absl::InternalError(absl::StrCat("block ", b.work, " waits for tile ",
                                                  b.unit.tile, " whose first peer is ",
                                                  b.unit.peers.first));
        absl::StatusOr<bool> ran = Fixup(step, b.unit, {b.unit}, b.rank, b.acc);
        if (!ran.ok() || !*ran) return ran;
        b.acc_ready = false;
        b.unit = mapping::SkNextUnit(p_, b.unit);
        if (!b.unit.valid()) b.busy = false;
        return true;
      }
      case Role::kReduction: {
        const mapping::ReductionWork rw = mapping::ReductionWorkOf(p_, b.role.index);
        const int tile = rw.tile;
        const mapping::Peers peers = mapping::TilePeers(p_, tile);
        if (peers.last >= b.work)
          return absl::InternalError(absl::StrCat("reduction block ", b.work,
                                                  " waits for higher block ", peers.last));
        const fixup::Step step = fixup::ReductionStep(peers, p_.reduction_slices);
        std::vector<mapping::SkUnit> slots;
        for (int blk = peers.first; blk <= peers.last; ++blk) {
          mapping::SkUnit u = mapping::SkFirstUnit(p_, blk);
          while (u.tile != tile) u = mapping::SkNextUnit(p_, u);
          slots.push_back(u);
        }
        b.acc.assign(static_cast<size_t>(RankRows()) * p_.tile_n, 0.0f);
        mapping::SkUnit self{};
        self.tile = tile;
        // Their partial sums in, the producer may claim the next work block while they are summed.
        if (ClaimsAhead() && !b.partials_in && fixup::WaitSatisfied(step, Flag(tile, b.rank))) {
          b.partials_in = true;
          if (!b.claimed_all && b.claimed.empty() && rng_() % 2 == 0) ProducerClaim(b);
        }
        absl::StatusOr<bool> ran =
            Fixup(step, self, slots, b.rank, b.acc, rw.col_begin, rw.col_end);
        if (!ran.ok() || !*ran) return ran;
        b.busy = false;
        return true;
      }
      case Role::kNone:
        return absl::InternalError(absl::StrCat("work block ", b.work, " has no role"));
    }
    return true;
  }

  // Executes a fixup step for `unit`; `slots` are the units whose partial slots `take` reads.
  // `take` and the epilogue cover tile columns [col_begin, col_end) (a reduction slice).
  absl::StatusOr<bool> Fixup(const fixup::Step& s, const mapping::SkUnit& unit,
                             const std::vector<mapping::SkUnit>& slots, int rank,
                             std::vector<float>& acc, int col_begin = 0, int col_end = -1) {
    if (col_end < 0) col_end = p_.tile_n;
    if (!fixup::WaitSatisfied(s, Flag(unit.tile, rank))) return false;
    const size_t count = static_cast<size_t>(RankRows()) * p_.tile_n;
    if (s.publish != fixup::Publish::kNone) {
      absl::StatusOr<float*> slot = Slot(unit, rank);
      if (!slot.ok()) return slot.status();
      for (size_t i = 0; i < count; ++i) {
        if (s.publish == fixup::Publish::kStore) {
          (*slot)[i] = acc[i];
        } else {
          (*slot)[i] += acc[i];
        }
      }
    }
    if (s.take) {
      for (const mapping::SkUnit& u : slots) {
        absl::StatusOr<float*> slot = Slot(u, rank);
        if (!slot.ok()) return slot.status();
        for (size_t i = 0; i < count; ++i) {
          const int col = static_cast<int>(i % p_.tile_n);
          if (col >= col_begin && col < col_end) acc[i] += (*slot)[i];
        }
      }
    }
    switch (s.signal) {
      case fixup::Signal::kNone: break;
      case fixup::Signal::kSet: SetFlag(unit.tile, rank, s.signal_value); break;
      case fixup::Signal::kIncrement: SetFlag(unit.tile, rank, Flag(unit.tile, rank) + 1); break;
      case fixup::Signal::kReset: SetFlag(unit.tile, rank, 0); break;
      case fixup::Signal::kDepart: {
        const int v = Flag(unit.tile, rank) + 1;
        SetFlag(unit.tile, rank, v == s.signal_value ? 0 : v);
        break;
      }
    }
    if (s.epilogue) Epilogue(unit.tile, rank, acc, col_begin, col_end);
    return true;
  }

  int32_t& Counter() {
    return *reinterpret_cast<int32_t*>(workspace_.data() + p_.counter_offset);
  }
  std::mt19937_64 rng_;

  int Claim() {
    const int work = Counter()++;
    if (work == p_.work_blocks + p_.grid_blocks - 1) Counter() = 0;
    return work;
  }

  // Rows of a tile one rank computes.
  int RankRows() const { return p_.tile_m / p_.cluster_m; }

  // As the kernel's StreamKGemm::CoordOf: a grouped plan's group and rows from the group table.
  mapping::TileCoord CoordOf(int tile) const {
    const mapping::TileCoord c = mapping::TileCoordOf(p_, tile);
    return in_.group_rows != nullptr ? mapping::GroupedCoord(c, in_.group_rows[c.tm]) : c;
  }

  // Rank `rank`'s part of u's partial slot.
  absl::StatusOr<float*> Slot(const mapping::SkUnit& u, int rank) {
    const int64_t slot = mapping::PartialSlotOffset(p_, u);
    const int64_t off = slot + mapping::RankPartOffset(p_, rank);
    const int64_t part = p_.partial_tile_bytes / p_.cluster_m;
    if (slot < p_.partials_offset || off + part > p_.partials_offset + p_.partials_bytes ||
        off + part > slot + p_.partial_tile_bytes || off % 16 != 0)
      return absl::InternalError(absl::StrCat("partial slot of block ", u.block, " tile ", u.tile,
                                              " rank ", rank, " at byte ", off,
                                              " is outside the partials area or misaligned; "
                                              "plan: ", PlanSummary(p_)));
    return reinterpret_cast<float*>(workspace_.data() + off);
  }

  int32_t& FlagRef(int tile, int rank) {
    const int64_t off = mapping::FlagOffset(p_, tile, rank);
    // Bounds are an invariant of the plan; the tests assert them separately.
    return *reinterpret_cast<int32_t*>(workspace_.data() + off);
  }
  int Flag(int tile, int rank) { return tile < 0 || p_.sk_tiles == 0 ? 0 : FlagRef(tile, rank); }
  void SetFlag(int tile, int rank, int v) { FlagRef(tile, rank) = v; }

  // Rank `rank`'s rows of the tile. Iteration visits count rank 0's mainloops (a cluster's ranks
  // run each iteration together, on their own rows). A tile row of no group (mapping::TailRow)
  // computes nothing, as the kernel's RunsTo.
  void Mainloop(int tile, int k_begin, int k_end, int rank, std::vector<float>& acc) {
    const mapping::TileCoord c = CoordOf(tile);
    acc.assign(static_cast<size_t>(RankRows()) * p_.tile_n, 0.0f);
    const int64_t bo = c.batch == mapping::kNoGroup ? 0 : int64_t{c.batch};
    const float* a = in_.a + (p_.groups > 0 ? 0 : bo * p_.m * p_.k);
    const float* bm = in_.b + bo * p_.k * p_.n;
    for (int kk = k_begin; kk < k_end; ++kk) {
      if (rank == 0) ++result_.iteration_visits[static_cast<size_t>(tile) * p_.iters_per_tile + kk];
      if (c.batch == mapping::kNoGroup) continue;
      const int k0 = kk * p_.tile_k, k1 = std::min(p_.k, k0 + p_.tile_k);
      for (int i = 0; i < RankRows(); ++i) {
        const int row = mapping::RankRow0(p_, c, rank) + i;
        if (row >= c.row_end) break;
        for (int j = 0; j < p_.tile_n; ++j) {
          const int col = c.tn * p_.tile_n + j;
          if (col >= p_.n) break;
          float sum = 0;
          for (int k = k0; k < k1; ++k)
            sum += a[int64_t{row} * p_.k + k] * bm[int64_t{k} * p_.n + col];
          acc[static_cast<size_t>(i) * p_.tile_n + j] += sum;
        }
      }
    }
  }

  void Epilogue(int tile, int rank, const std::vector<float>& acc, int col_begin = 0,
                int col_end = -1) {
    if (col_end < 0) col_end = p_.tile_n;
    const mapping::TileCoord c = CoordOf(tile);
    const int64_t base = p_.groups > 0 ? 0 : int64_t{c.batch} * p_.m * p_.n;
    for (int i = 0; i < RankRows(); ++i) {
      const int row = mapping::RankRow0(p_, c, rank) + i;
      if (row >= c.row_end) break;
      for (int j = col_begin; j < col_end; ++j) {
        const int col = c.tn * p_.tile_n + j;
        if (col >= p_.n) break;
        const int64_t at = base + int64_t{row} * p_.n + col;
        ++result_.element_writes[at];
        float v = in_.alpha * acc[static_cast<size_t>(i) * p_.tile_n + j];
        if (in_.beta != 0) v += in_.beta * in_.c[at];
        result_.d[at] = v;
      }
    }
  }

  const Plan& p_;
  const EmulatorInputs& in_;
  std::vector<uint8_t>& workspace_;
  EmulatorResult result_;
};

}  // namespace

absl::StatusOr<EmulatorResult> Emulate(const Plan& plan, const EmulatorInputs& in, uint64_t seed,
                                       std::vector<uint8_t>* workspace,
                                       const std::vector<int>* starts) {
  if (plan.grid_blocks < 1) return absl::InvalidArgumentError("plan has no blocks");
  if ((plan.groups > 0) != (in.group_rows != nullptr))
    return absl::InvalidArgumentError("a grouped plan needs its group table, others none");
  if (plan.schedule == Schedule::kDynamic && plan.cluster_m != 1)
    return absl::InvalidArgumentError("a dynamic schedule runs without clusters");
  std::vector<uint8_t> fresh;
  Plan p = plan;
  mapping::SetDivisors(p);  // as the launch does
  Emulator e(p, in, workspace != nullptr ? *workspace : fresh);
  return e.Run(seed, starts);
}

std::vector<mapping::GroupRow> GroupTableOf(const Plan& plan, const int64_t* group_ends,
                                            int64_t groups) {
  std::vector<mapping::GroupRow> table(static_cast<size_t>(plan.tiles_m));
  int first = 0;
  for (int64_t g = 0; g < groups; ++g) {
    const int begin = static_cast<int>(g > 0 ? group_ends[g - 1] : 0);
    const int end = static_cast<int>(group_ends[g]);
    const int rows = mapping::GroupTileRows(end - begin, plan.tile_m);
    if (first + rows <= plan.tiles_m)
      mapping::WriteGroupRows(table.data(), static_cast<int>(g), first, begin, end, plan.tile_m);
    first += rows;
  }
  const int last_end = static_cast<int>(group_ends[groups - 1]);
  for (int e = first; e < plan.tiles_m; ++e)
    table[static_cast<size_t>(e)] = mapping::TailRow(e - first, last_end, plan.m, plan.tile_m);
  return table;
}

std::vector<float> ReferenceGemm(const Plan& p, const EmulatorInputs& in,
                                 const int64_t* group_ends) {
  if (p.groups > 0 && group_ends != nullptr) {
    std::vector<float> d(static_cast<size_t>(p.m) * p.n);
    for (int g = 0; g < p.groups; ++g) {
      const float* b = in.b + int64_t{g} * p.k * p.n;
      for (int64_t i = g > 0 ? group_ends[g - 1] : 0; i < group_ends[g]; ++i) {
        for (int j = 0; j < p.n; ++j) {
          double sum = 0;
          for (int k = 0; k < p.k; ++k) sum += double{in.a[i * p.k + k]} * b[int64_t{k} * p.n + j];
          const int64_t at = i * p.n + j;
          double v = double{in.alpha} * sum;
          if (in.beta != 0) v += double{in.beta} * in.c[at];
          d[at] = static_cast<float>(v);
        }
      }
    }
    // Rows past the last group's end (device group ends): no group's, beta * C.
    for (int64_t at = group_ends[p.groups - 1] * p.n; at < int64_t{p.m} * p.n; ++at)
      d[static_cast<size_t>(at)] = in.beta != 0 ? in.beta * in.c[at] : 0.0f;
    return d;
  }
  std::vector<float> d(static_cast<size_t>(p.batch) * p.m * p.n);
  for (int64_t bt = 0; bt < p.batch; ++bt) {
    const float* a = in.a + bt * p.m * p.k;
    const float* b = in.b + bt * p.k * p.n;
    for (int i = 0; i < p.m; ++i) {
      for (int j = 0; j < p.n; ++j) {
        double sum = 0;
        for (int k = 0; k < p.k; ++k)
          sum += double{a[int64_t{i} * p.k + k]} * b[int64_t{k} * p.n + j];
        const int64_t at = bt * p.m * p.n + int64_t{i} * p.n + j;
        double v = double{in.alpha} * sum;
        if (in.beta != 0) v += double{in.beta} * in.c[at];
        d[at] = static_cast<float>(v);
      }
    }
  }
  return d;
}

}  // namespace streamk
