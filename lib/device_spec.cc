// Device presets and the local-device query (see device_spec.h).
#include "streamk/device_spec.h"

#include <string>

#include <cuda_runtime.h>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "launch.h"

namespace streamk {
namespace {

// Resident blocks per SM: two on A100 (the 128x128x32 mma.sync kernel: 256 threads at 128
// registers, 64 KiB of shared memory), one on Hopper (the 128x256x64 TMA kernel: 384 threads at
// 168 registers, 211 KiB). QueryLocalDevice() asks the CUDA runtime instead.
constexpr int kA100Occupancy = 2;
constexpr int kHopperOccupancy = 1;

// Cost constants, microseconds, for the kernels' tiles with fp16/bf16 inputs.
//
// Hopper, wgmma mainloop fed by cp.async from all threads (Options::mainloop = kSm90; operands
// that are not 16-byte aligned are copied for the TMA kernel instead), two blocks per SM: fitted 2026-11-21 to
// streamk-trace and streamk-bench measurements on an H200. A block alone on its SM
// runs 0.326 us per iteration (132 tiles of 128 iterations: 52-54 us); two blocks per SM 0.54 us
// each on average, but the slower of two mates sets the end: 264 tiles of 128 iterations take
// 89-91 us, i.e. 0.60 us per iteration for the most loaded block. A data-parallel tile costs
// ~12 us beyond its iterations (launch, pipeline fill, a 5.4 us epilogue). Stream-K plans: with
// these constants the model is within -7% .. +12% of 36 measured calibration and waveq plans
// (over for one-wave shapes, under for three- and four-wave ones). A reduction block sums a
// peer's partial in ~0.6 us (128x128x65536 as 15 k-slices with a separate reduction: 69 us,
// 45 of them iterations), where a turnstile hand-over costs partial_us + peer_us.
// misaligned_load: tn shapes whose K is an odd multiple of 8 ran 1.19-1.51x the time of the same
// shapes with K rounded to a multiple of 32.
constexpr CostModel kHopperWgmmaCost{/*block_us=*/2.0, /*unit_us=*/4.0, /*streamk_us=*/2.0,
                                     /*partial_us=*/2.0, /*iter_us=*/0.33,
                                     /*iter_shared_us=*/0.60, /*peer_us=*/2.0,
                                     /*epilogue_us=*/6.0, /*reduce_peer_us=*/0.6,
                                     /*iter_busy_us=*/0.0, /*misaligned_load=*/0.35};
// Hopper, wgmma mainloop fed by a TMA producer warp (the default kernel of an sm_90a build; one
// block per SM, 128 x 256 tiles): fitted 2026-11-21 by least squares (log of time) to the
// data-parallel and all-tiles Stream-K times of 39 calibration and waveq shapes and the 12 hybrid
// plans among them, measured with streamk-bench on an H200 (rms error 11%). An iteration is
// 2 MFLOP: streamk-trace measures 0.33-0.345 us per iteration whether 12 or 132 SMs run (the
// 128 x 128 kernel's 16 KiB per MFLOP saturated the L2; 12 KiB per MFLOP does not), an epilogue
// at 3.7-4.7 us per tile and a Stream-K block's fixups at 8.7 us (128 KiB fp32 partials).
// Block, unit and epilogue costs are what the fit assigns to them, not separate measurements:
// the fit folds part of them into the per-iteration costs.
// reduce_peer_us and reduce_latency_us (both tiles): reduction blocks summing a slice of a tile's
// partials, traced on an H200 (streamk-trace --sk_tiles tail): 8-column slices of 32 peers 5.4 us
// and of 128 peers 18 us (0.13 us per peer whatever the bytes), 64-column slices of 128 peers 24.5
// us (4 MiB: ~170 GB/s, 0.8 us per 128 KiB peer tile).
// separate_after_streamk: 128 x 128 here, and 64 x 128 (kHopperTmaSmallCost). Measured on
// an H200 by streamk-bench, each shape's plans back to back: split-K over few deep 128 x 128 tiles
// with the reduction blocks queued behind the split-K blocks, on the 19 shapes where auto picks
// it (4-13 splits), ran 0.96-1.35x as fast as the best turnstile plan measured (1.04x or more on
// 14) and 0.98-1.99x data-parallel (392 x 224 x 3184: 13.8 us against 16.5 and 19.0). With three
// splits it lost 5-6% to the turnstile (488 x 1152 x 6016, 488 x 1280 x 3344), and on 128 x 256
// tiles, whose partials are 128 KiB, 14% (4816 x 248 x 3496 as 3 splits: 39.6 us against 34.0;
// its rows are misaligned, and data-parallel 128 x 128 took 31.5).
// partial_wave_streamk: 128 x 256 only. With 128 x 128 tiles the one shape timed so (328 x 5656
// x 1400, 3 tail tiles over 22 blocks) took 41.7 us against 35.3 us data-parallel.
// misaligned_load (both tiles): the TMA unit loads K-major rows that start at odd multiples of 16
// bytes at about half speed. Measured with streamk-bench on an H200, data-parallel, the same M x N
// with K an odd multiple of 8 against K rounded to a multiple of 32: 1.49-2.09x the time with both
// operands' rows misaligned (tn; the higher the larger the iterations' share), 1.15-1.72x with the
// kernel's B only (tt), 1.10-1.42x with its A only (nn); nothing with neither K-major (nt).
// Both TMA configurations' constants were fitted with 32-deep k-iterations and carry over to the
// 64-deep ones through the tile volume (cost_terms.h). Against 701 64-deep 128x256 plans measured
// on an H200 they read an rms error of 23%, a refit 10%; replayed, the refit's picks were no faster
// (waveq 1.183 against 1.191 auto/dp) and moved 18 paper shapes to unmeasured plans, so they stay.
// The misaligned terms are fitted to the 64-deep kernel: rows misaligned cost 1.2-1.3x on few-tile
// shapes and up to 1.7x with every SM loading, so the 128 x 256 model charges 0.5 alone and 0.8
// with every SM busy (misaligned_busy_load), the 128 x 128 one 0.9.
// With 1.1 on both, auto ran 4144 x 1488 x 5208 all tiles Stream-K at 0.95-0.96 of data-parallel
// and 4816 x 248 x 3496 at 0.96-0.98: the partial round of the data-parallel plan runs faster than
// a busy one when its rows are misaligned. Chosen by replaying auto (streamk-fit) over the paper,
// waveq and llm sets' measured plans: both picks go back to data-parallel, no pick moves to an
// unmeasured plan, the paper set's replayed auto/dp geomean moves by 0.0002 (fp16) and 0.0007
// (bf16), waveq and llm not at all.
constexpr CostModel kHopperTmaCost{/*block_us=*/2.66, /*unit_us=*/1.82, /*streamk_us=*/0.93,
                                   /*partial_us=*/3.3, /*iter_us=*/0.121,
                                   /*iter_shared_us=*/0.0, /*peer_us=*/0.013,
                                   /*epilogue_us=*/0.083, /*reduce_peer_us=*/0.4,
                                   /*iter_busy_us=*/0.228, /*misaligned_load=*/0.5,
                                   /*reduce_latency_us=*/0.13, /*partial_wave_streamk=*/true,
                                   /*misaligned_busy_load=*/0.8};
// The same kernel with 128 x 128 tiles (then 8 stages of 16 KiB; the planner picks it per
// shape, e.g. for skinny shapes whose 256-wide tiles would be mostly empty): fitted 2026-11-21
// by least squares (log of time) to 78 data-parallel and all-tiles Stream-K times and 16 hybrid
// ones of the 128 x 128 waveq and calibration shapes, measured with streamk-bench on an H200
// (rms error 8.5%). 12 tail tiles of 128 iterations take
// 19 us, a full round of 132 takes 34 us: 132 SMs streaming 16 KiB per 1 MFLOP iteration
// saturate the L2 (iter_us alone, iter_busy_us with every SM busy).
//
// With iter_busy_us at 0.275, both tiles timed data-parallel on an H200 over the paper,
// waveq and llm sets showed the 64-deep 128 x 128 kernel priced too high with every SM busy:
// 512 x 12288 x 4096 ran 78 us on 384 tiles of 128 x 128 against 96 us on 192 of 128 x 256
// (predicted 109.5 against 108.4), and 20 of 26 wrong tile choices by 3% or more went that way.
// Traced with every SM busy, a 128 x 128 x 64 iteration takes 0.67 of what the model charges, a
// 128 x 256 x 64 one 0.75; iter_busy_us 0.275 -> 0.24 brings the two to the same ratio. Rows
// misaligned cost the 128 x 128 kernel more with every SM busy (4144 x 1488 x 5208: 182 us on
// 396 tiles of 128 x 128, 156 us on 198 of 128 x 256), hence misaligned_busy_load 1.3. Replayed
// (streamk-fit) over those sets' times (fp16): auto/dp paper 1.023 -> 1.025, waveq 1.184 ->
// 1.192, llm 1.087 -> 1.098, no pick moved to an unmeasured plan.
// The ring's fifth stage of 32 KiB (kernels/launch.h) runs decode shapes, which stream one operand,
// up to 1.2x faster, the rest within the noise. The constants predate it: replayed (streamk-fit) on
// the five-stage kernel's times, auto/dp is within 0.6% of the best measured plan per shape in
// every set.
constexpr CostModel kHopperTma128Cost{/*block_us=*/1.0, /*unit_us=*/1.1, /*streamk_us=*/4.2,
                                      /*partial_us=*/2.6, /*iter_us=*/0.16,
                                      /*iter_shared_us=*/0.0, /*peer_us=*/0.3,
                                      /*epilogue_us=*/0.3, /*reduce_peer_us=*/0.4,
                                      /*iter_busy_us=*/0.24, /*misaligned_load=*/0.9,
                                      /*reduce_latency_us=*/0.13, /*partial_wave_streamk=*/false,
                                      /*misaligned_busy_load=*/1.3,
                                      /*separate_after_streamk=*/true};
// The same kernel with 128 x 192 tiles (then 4 stages of 40 KiB), fitted 2026-11-22 by least
// squares (log of time, streamk-fit --model mid) to 423 measured 128 x 192 plans of the paper,
// waveq and llm sets timed on an H200 by streamk-bench (plans of the tile forced data-parallel,
// all-tiles Stream-K over up to two tiles per block, and the intermediate planner's picks), each
// time scaled by the 128 x 256 model's error on that shape's data-parallel plan (1.12x over, on
// average): the planner compares the two tiles' predictions, so this tile is priced on the main
// one's scale (rms error 5.4% on that scale, 20% before). Auto weighs it for data-parallel only
// (PlanKernel): its Stream-K over many deep tiles ran up to 1.7x over these constants while
// Stream-K blocks loaded whole tiles unrotated, and is not refitted to the rotated loads.
constexpr CostModel kHopperTmaMidCost{/*block_us=*/3.03, /*unit_us=*/0.31, /*streamk_us=*/0.82,
                                      /*partial_us=*/2.33, /*iter_us=*/0.117,
                                      /*iter_shared_us=*/0.0, /*peer_us=*/0.072,
                                      /*epilogue_us=*/0.69, /*reduce_peer_us=*/0.4,
                                      /*iter_busy_us=*/0.22, /*misaligned_load=*/0.68,
                                      /*reduce_latency_us=*/0.13, /*partial_wave_streamk=*/false,
                                      /*misaligned_busy_load=*/1.13};
// The 192 x 192 TMA kernel (KernelRole::kWide; three compute warp groups, three 48 KiB stages):
// fitted by streamk-fit --model wide on 213 data-parallel plans of it timed on an H200 (the issue's
// sets, fp16), each time first scaled by the other tiles' models' error on the plans auto and dp
// ran for the same shape (geomean 1.136), which puts it on their scale; rms log error 8.2%. Its
// Stream-K and split-K terms are the main configuration's (auto plans this tile data-parallel
// only).
constexpr CostModel kHopperTmaWideCost{/*block_us=*/0.0, /*unit_us=*/0.08, /*streamk_us=*/0.93,
                                       /*partial_us=*/3.3, /*iter_us=*/0.156,
                                       /*iter_shared_us=*/0.0, /*peer_us=*/0.013,
                                       /*epilogue_us=*/1.17, /*reduce_peer_us=*/0.4,
                                       /*iter_busy_us=*/0.2305, /*misaligned_load=*/0.44,
                                       /*reduce_latency_us=*/0.13, /*partial_wave_streamk=*/false,
                                       /*misaligned_busy_load=*/0.75};
// The 64 x 128 TMA kernel (KernelRole::kSmall; one compute warp group, seven 24 KiB stages):
// fitted by streamk-fit --model small on 518 plans of it timed on an H200 on shapes that one round
// of its tiles holds, where auto weighs it (data-parallel, split-K with 2-4 splits and the best
// split, all-tiles Stream-K; the small, decode and few-tile shapes and the paper, llm and waveq
// sets, fp16), each time first scaled by the other tiles' models' error on the plans auto and dp
// ran for the same shape (geomean 1.161), which puts it on their scale; rms log error 15.7%. Per
// MAC, an iteration costs 1.14x a 128 x 128 one alone (iter_us) and 1.08x with every SM busy
// (iter_busy_us).
// Its exchange terms (streamk_us, partial_us, peer_us, reduce_peer_us, reduce_latency_us) are
// fitted the same way with split-K plans of it added (8-64 splits with a separate reduction and
// 2-8 on the few-tile and decode shapes; 875 plans, rms 15.0% -> 13.1%), and
// separate_after_streamk set: there 392 x 224 x 3184 ran 10.2 us split 8 ways with a separate
// reduction, 12.7 data-parallel on it and 11.4 as auto's split-K on 128 x 128.
constexpr CostModel kHopperTmaSmallCost{/*block_us=*/1.85, /*unit_us=*/0.0, /*streamk_us=*/2.8,
                                        /*partial_us=*/3.26, /*iter_us=*/0.182,
                                        /*iter_shared_us=*/0.0, /*peer_us=*/0.0,
                                        /*epilogue_us=*/1.29, /*reduce_peer_us=*/3.99,
                                        /*iter_busy_us=*/0.26, /*misaligned_load=*/1.1,
                                        /*reduce_latency_us=*/0.31,
                                        /*partial_wave_streamk=*/false,
                                        /*misaligned_busy_load=*/2.44,
                                        /*separate_after_streamk=*/true};
// Hopper, mma.sync mainloop (an sm_80-only build, or Options::mainloop = kSm80): fitted 2026-11-21
// to streamk-bench runs of bench/shapes/calibration.txt and the waveq and paper sets on an H200.
// Data-parallel: 132 tiles of 128 iterations (one block per SM) take 63.8 us, 264 (two per SM)
// 104.8 us, 144 tiles of 32 iterations 33.1 us; so iter_us = 0.45, iter_shared_us = 0.77 with
// block_us + unit_us + epilogue_us = 6 us per tile. Stream-K plans of 132-264 blocks with 2-3
// peers per tile take 13-17 us over their iterations whatever K is: streamk_us + 2 * (partial_us
// + peer_us) + unit_us per extra slice.
constexpr CostModel kHopperMmaSyncCost{/*block_us=*/2.0, /*unit_us=*/3.0, /*streamk_us=*/6.0,
                                       /*partial_us=*/2.0, /*iter_us=*/0.45,
                                       /*iter_shared_us=*/0.77, /*peer_us=*/2.0,
                                       /*epilogue_us=*/1.0};
// A100: not measured; the Hopper mma.sync constants with iterations scaled by the mma rate (312
// vs ~400 TFLOP/s achievable, 108 vs 132 SMs), bandwidth terms by 4.8 / 2.0.
constexpr CostModel kA100Cost{/*block_us=*/2.0, /*unit_us=*/4.0, /*streamk_us=*/8.0,
                              /*partial_us=*/4.0, /*iter_us=*/0.53, /*iter_shared_us=*/0.90,
                              /*peer_us=*/4.0, /*epilogue_us=*/2.4};

// The TMA kernel's tiles (kernels::TileOf(kernels::Arch::kSm90Tma) and the 128 x 128 one).
constexpr TileShape kHopperTmaTile{kernels::kTileM, kernels::kTmaTileN, kernels::kTmaTileK};
constexpr TileShape kHopperTma128Tile{kernels::kTileM, kernels::kTileN, kernels::kTmaTileK};

DeviceSpec Spec(const char* name, int sms, int occupancy, int64_t l2_bytes, const CostModel& cost,
                const TileShape& tile) {
  DeviceSpec spec;
  spec.name = name;
  spec.sms = sms;
  spec.occupancy = occupancy;
  spec.l2_bytes = l2_bytes;
  spec.Set({KernelRole::kMain, tile, cost});
  return spec;
}

// The 128 x 128 configuration's ping-pong variant (CostModel::pingpong_hidden_us,
// pingpong_iter_loss; kernels::PingPongOf), fitted 2026-11-23 by least squares (log of the ratio)
// to 33 A/B pairs on an H200 where the launch runs it (data-parallel on 128 x 128 x 64 tiles, 8-24
// k-iterations, 3-16 tiles a block, rows on 128-byte lines; ping-pong against --pingpong off
// in alternating calls, fp16 and bf16; 1.00-1.09x). In the model's units (a tile of i iterations
// costs 0.48 i + 1.4 us with every SM busy; a block of N tiles N times that), 0.66 us hidden on
// each tile but the last and 2.8% more per iteration: rms error 1.9% (0.5 and 1%, a first guess,
// 2.0%). GPT-2's logits at 4096 tokens ran 1.16x, priced 1.07x.
constexpr double kPingPongHiddenUs = 0.66;
constexpr double kPingPongIterLoss = 0.028;
// Against the wider tiles its iterations cost 9% less where D outgrows two L2s, a share of that
// from one (60 MiB on an H200; CostModel::pingpong_stream_gain, pingpong_stream_bytes). Fitted
// 2026-11-23 by streamk-fit --model alt to streamk-bench times on an H200 (data-parallel plans of
// 128 x 128 and 128 x 256 tiles on 45 shapes of 2-95 tiles a block, 8-24 k-iterations and 9-824 MB
// of D, fp16 and bf16, two passes each), each ping-pong time first scaled by the 128 x 256 model's
// error on the same shape, so that the fit is of the ratio the planner weighs: rms log error 6.8%
// -> 4.0%, and auto's picks replayed over those times within 0.3% of the faster measured plan per
// shape (2.3% without these terms). Ping-pong ran 1.00-1.09x faster than 128 x 256 tiles where D is
// 134-824 MB, which the terms above priced 1-5% slower; about even at 67-100 MB. Counting A's and
// B's bytes too fits as well, but moves GPT-2's logits at 512 tokens (51 MB of D, 77 MB of B),
// which ran 4% slower on ping-pong.
constexpr double kPingPongStreamGain = 0.09;
constexpr double kPingPongStreamL2s = 1.0;

// Every tile Stream-K on the 128 x 128 kernel over fewer tiles than blocks, against its
// data-parallel round of those tiles on fewer SMs (CostModel::few_tiles_streamk_gain). The model
// prices that round 19-28% over its time, the Stream-K plan 2-19% (on an H200). Of the shapes
// timed, the 16 whose plans of this kind were predicted 1.06-1.22x as fast as data-parallel ran
// 0.89-1.11x, 13 of them under 1.0 (4096 weights x 384 tokens x 14336 deep, auto's pick, predicted
// 1.095x, ran 0.885-0.954x on two H200s); the 23 predicted 1.245x or more ran 1.00-1.67x.
constexpr double kTma128FewTilesStreamKGain = 0.19;
// And where its tiles fill more than the blocks, the 128 x 192 kernel's data-parallel plan of
// the same rows is taken over it wherever predicted no slower (CostModel::
// every_tile_streamk_yields): of 12000 random shapes of 128-8192 per side, 24 move so; with 640
// tokens as A, 4096 weights 8192 and 14336 deep (every tile Stream-K over 160 tiles, 0.90-0.96
// of `dp` on three H200s) they ran 1.057-1.105x as fast as those Stream-K picks forced, over
// each of four passes. The worst, 2408 x 784 x 4256 (133 tiles over 132 blocks, predicted 1%
// slower than 128 x 192), ran 0.90-1.01x.
// The margin kMinMidOverStreamKGain was measured against Stream-K on 128 x 256 (planner.cc).
// And where every tile or the hybrids stream more tiles than the blocks in more than a few rows of
// tiles (CostModel::many_tiles_streamk_gain), data-parallel's pick over every tile is taken
// unless the Stream-K plan is predicted 1.11x as fast: on an H200, 59 such picks of 48000 random
// shapes and three of another 4000, predicted 0.98-1.10x as fast as that pick (on 128 x 192,
// 128 x 256 or 128 x 128 tiles) but for four, ran 0.75-1.14x as fast, geomean 0.947, 38 of them
// 3% or more behind; the four predicted 1.11x or more ran 0.97-1.13x.
constexpr double kTma128ManyTilesStreamKGain = 0.1;

// Adds the 128 x 128 TMA kernel (and its ping-pong variant) as the second configuration of a
// Hopper preset.
DeviceSpec WithTma128(DeviceSpec spec, double epilogue_scale) {
  CostModel& c = spec.Set({KernelRole::kAlt, kHopperTma128Tile, kHopperTma128Cost}).cost;
  c.epilogue_us *= epilogue_scale;
  c.pingpong_hidden_us = kPingPongHiddenUs;
  c.pingpong_iter_loss = kPingPongIterLoss;
  c.pingpong_stream_gain = kPingPongStreamGain;
  c.pingpong_stream_bytes = kPingPongStreamL2s * static_cast<double>(spec.l2_bytes);
  c.few_tiles_streamk_gain = kTma128FewTilesStreamKGain;
  c.every_tile_streamk_yields = true;
  c.many_tiles_streamk_gain = kTma128ManyTilesStreamKGain;
  return spec;
}

// Adds the 128 x 192 TMA kernel (kernels::kTmaMidTileN) as the third configuration of a Hopper
// preset, its epilogue scaled as the others'.
DeviceSpec WithMidTile(DeviceSpec spec, double epilogue_scale) {
  spec.Set({KernelRole::kMid, TileShape{kHopperTmaTile.m, kernels::kTmaMidTileN, kHopperTmaTile.k},
            kHopperTmaMidCost})
      .cost.epilogue_us *= epilogue_scale;
  return spec;
}

// Adds the 192 x 192 TMA kernel (kernels::kTmaWideTileM) as the fourth configuration of a Hopper
// preset, its epilogue scaled as the others'.
DeviceSpec WithWideTile(DeviceSpec spec, double epilogue_scale) {
  spec.Set({KernelRole::kWide,
            TileShape{kernels::kTmaWideTileM, kernels::kTmaWideTileN, kHopperTmaTile.k},
            kHopperTmaWideCost})
      .cost.epilogue_us *= epilogue_scale;
  return spec;
}

// Aligned K-major rows that the 64 x 128 kernel splits or streams over every SM yield to
// data-parallel's pick where that fills a quarter of the SMs or more, unless predicted 1.3x as
// fast, 1.2x where both operands' rows are on 128-byte lines (CostModel::split_yield_gain,
// split_yield_gain_on_lines): the model prices those plans too low against the tile's
// data-parallel round on a quarter of the SMs or more, the more so on rows off lines. Measured on
// an H200 (398 such picks of 48000 random shapes of 128-8192 a side, data-parallel on 40-80 SMs, tn
// fp16 and bf16): every tile Stream-K ran 0.77-1.02x as fast as data-parallel's pick (56 of 58 3%
// or more behind); split-K on rows off lines predicted under 1.3x as fast 0.95-1.02x (geomeans by
// prediction; 122 of 246 behind), 1.3x or more 1.08x (none of 9); on lines predicted under 1.2x
// 0.99-1.03x (9 of 55 behind), 1.2x or more 1.09-1.15x (none of 30). Split-K on 128 x 128 over the
// same kind of shapes (data-parallel on 64 x 128) ran 1.15x as fast, none behind: the rule is the
// tile's.
constexpr double kTmaSmallSplitYieldGain = 0.23;
constexpr double kTmaSmallSplitYieldGainOnLines = 0.17;

// Adds the 64 x 128 TMA kernel (kernels::kTmaSmallTileM) as the fifth configuration of a Hopper
// preset, its epilogue scaled as the others'.
DeviceSpec WithSmallTile(DeviceSpec spec, double epilogue_scale) {
  CostModel& c = spec.Set({KernelRole::kSmall,
                           TileShape{kernels::kTmaSmallTileM, kernels::kTileN, kHopperTmaTile.k},
                           kHopperTmaSmallCost})
                     .cost;
  c.epilogue_us *= epilogue_scale;
  c.split_yield_gain = kTmaSmallSplitYieldGain;
  c.split_yield_gain_on_lines = kTmaSmallSplitYieldGainOnLines;
  return spec;
}

// Adds the 128 x 320 TMA kernel (kernels::kTmaBroadTileN) as the sixth configuration of a Hopper
// preset, priced by the main configuration's constants, which scale with the tile's volume and
// area (cost_terms.h), its epilogue scaled as the others'.
DeviceSpec WithBroadTile(DeviceSpec spec, double epilogue_scale) {
  spec.Set({KernelRole::kBroad,
            TileShape{kHopperTmaTile.m, kernels::kTmaBroadTileN, kHopperTmaTile.k}, kHopperTmaCost})
      .cost.epilogue_us *= epilogue_scale;
  return spec;
}

// Adds the 128 x 256 TMA kernel on 2-SM clusters that share B (256 x 256 tiles per cluster) as
// the cluster configuration of a Hopper preset. A cluster's 256 x 256 x 64 iteration is each of
// its SMs' 128 x 256 x 64 iteration, and each SM exchanges its own 128 x 256 partials, so the
// main configuration's constants price it per cluster (unmeasured as such; only its L2 loads,
// LoadFloorMicros, differ: B is read once per cluster).
//
// padded_columns_load: on an H200 (509 random paper-like shapes whose rows auto ran on clusters,
// and 135 of the paper, waveq and llm sets' shapes, timed with streamk-bench), the clusters'
// estimate for misaligned rows erred with the share w of their tiles' columns past N:
// least squares on log time put the measured times at exp(-0.13 + 0.79 w) of it (rms 0.072, 0.10
// without w). With 2 tiles along n, the last holding 8-112 of 256 columns, data-parallel on
// clusters ran a median 1.21x (0.98-1.41x) the time of 128 x 256 tiles on single SMs; with 9 or
// more, 0.80x (0.67-1.09x). Replayed over those 644 shapes against data-parallel's pick at its 8%
// margin, 1 + 0.8 w keeps every shape within 3% of data-parallel (without it down to 0.66x) and
// loses least to the clusters where they are faster; 1 + w lost more, and the fit itself (its
// 0.88 too) left shapes at 0.87-0.92x. Split-K's plans on clusters (few deep tiles) erred with w at
// under half that slope (0.37 over 24 such plans of the 509), and the 12 random shapes the term
// moved off them would run 0.97x as fast on data-parallel's pick: it leaves them out. The picks it
// moves (82 of 18000 random shapes, 28 of the 509) ran 1.04x as fast as on their clusters
// (0.90-1.47x), all within 1.3% of data-parallel; on clusters 41-47 of the 110 were 3% or more
// behind it (fp16 and bf16).
DeviceSpec WithClusters(DeviceSpec spec) {
  KernelConfig clusters{KernelRole::kCluster,
                        TileShape{2 * kHopperTmaTile.m, kHopperTmaTile.n, kHopperTmaTile.k},
                        spec.main().cost};
  clusters.cost.padded_columns_load = 0.8;
  clusters.cluster_m = 2;
  clusters.cluster_slots = spec.sms / 2;
  spec.Set(clusters);
  return spec;
}

// Narrow M- or N-major operands (CostModel::narrow_mn_iter_us, narrow_mn_misaligned_iter_us),
// measured on an H200: decode rows of 1-64 tokens whose tokens operand is N-major (bench layout
// nn), against the same rows with it K-major (tn), data-parallel on 128 x 128 and 64 x 128 tiles
// over four 7B and 70B projections.
// Per 64-deep iteration of the most loaded SM, where the tokens' rows start at odd multiples of
// 16 bytes (1-8 and 17-24 tokens, rows 16 and 48 bytes apart): 0.065 us more with 32 SMs
// loading, 0.08-0.13 with 64, 0.19-0.28 with 128-132; where they are 32, 64 or 96 bytes apart
// (9-16, 25-32 and 41-48 tokens) 0.01-0.05; 64 tokens ran as fast as tn. The constants are the
// cost with every SM loading (ScaleCosts scales them by the SMs a round keeps busy). The TMA
// unit's, so the H100's too (unmeasured there).
constexpr double kNarrowMnIterUs = 0.045;
constexpr double kNarrowMnMisalignedIterUs = 0.22;
// Of the 64 x 128 tile, what the same loads add to the memory's floor
// (CostModel::narrow_mn_floor_iter_us): 8192 x 12-48 x 28672 (128 tiles on 128 SMs, 448
// iterations, at the floor) ran 7.8-20.3 us slower than with K-major tokens, 0.017-0.045 us per
// iteration, 0.034 on average with all 132 SMs loading (117 us with K-major tokens). The
// 128 x 128 tile's iterations stream twice the bytes and hide them: 28672 x 12-48 x 8192 on 132
// SMs ran as fast as with K-major tokens.
constexpr double kNarrowMnSmallFloorIterUs = 0.035;

// Where the main (128 x 256) configuration streams every tile over more tiles than the SMs, in
// more than a few rows of tiles, data-parallel's pick is taken unless the Stream-K plan is
// predicted 3% faster (CostModel::every_tile_streamk_gain), and its one-tile hybrid behind one
// round of data-parallel tiles on aligned rows unless predicted 15% faster
// (one_round_tail_streamk_gain), which none measured was. Fitted on an H200 (random shapes of
// 128-8192 a side, tn fp16 and bf16; speeds of data-parallel's pick over the pick without these
// margins, geomeans):
//  - every tile on aligned rows, 79 picks: the 61 predicted under 1.03x as fast as data-parallel's
//    pick (on 128 x 192, 128 x 320 or 128 x 256 tiles) ran 1.018x as fast on it (0.94-1.13x; 29
//    of them had been 3% or more behind it); the other 18 ran about 1.12x as fast as it, none
//    behind. (The margin kMinMidOverStreamKGain was measured on waveq shapes.)
//  - every tile on misaligned rows, 110 picks: the 9 predicted under 1.03x as fast by the
//    per-iteration terms (the next 1.088x) ran 1.14x as fast on it (1.00-1.18x, 8 behind); the
//    other 101 ran 1.02-1.08x faster than it;
//  - the one-tile hybrid behind one round on aligned rows, predicted 1.02-1.12x as fast as
//    data-parallel on the same tile: the 122 moved ran 0.997x as fast on it (0.92-1.12x), 34 of
//    them had been 3% or more behind and about as many 3% or more ahead, whatever predicted. On
//    misaligned rows two ran 1.03x and 1.22x; behind two rounds or more, 8 ran 1.00-1.06x.
// Out of sample (random paper-like shapes of seeds 161-200: 141 of 120000 move): every tile on
// aligned rows, 40 moved ran 1.008x as fast (15 had been behind, 7 ahead); on misaligned rows, 9
// ran 1.15x (all 9 behind); the hybrids, 92 ran 1.002x (30 behind, 21 ahead).
constexpr double kTmaEveryTileStreamKGain = 0.03;
constexpr double kTmaOneRoundTailStreamKGain = 0.15;

// Every TMA configuration beside a Hopper preset's main one (its tile and constants set): the
// 128 x 128, 128 x 192, 192 x 192, 64 x 128 and 128 x 320 tiles, their epilogues scaled by
// epilogue_scale, and the 2-SM clusters priced with the main constants; and the TMA unit's terms
// of them all.
DeviceSpec WithTmaConfigurations(DeviceSpec spec, double epilogue_scale) {
  const double e = epilogue_scale;
  spec = WithBroadTile(
      WithSmallTile(WithWideTile(WithMidTile(WithTma128(WithClusters(spec), e), e), e), e), e);
  for (KernelConfig& k : spec.kernels) {
    k.cost.narrow_mn_iter_us = kNarrowMnIterUs;
    k.cost.narrow_mn_misaligned_iter_us = kNarrowMnMisalignedIterUs;
  }
  spec.Find(KernelRole::kSmall)->cost.narrow_mn_floor_iter_us = kNarrowMnSmallFloorIterUs;
  spec.main().cost.every_tile_streamk_gain = kTmaEveryTileStreamKGain;
  spec.main().cost.one_round_tail_streamk_gain = kTmaOneRoundTailStreamKGain;
  return spec;
}

// The memory floor of every TMA configuration (CostModel::hbm_bytes_per_us): 4.1 TB/s, fitted on
// an H200 to decode rows with cold caches: one round of 96-128 tiles of 128 x 192 streamed
// 201-705 MB at 4.05-4.29 TB/s after its fixed costs, and 70b.up's two rounds of 224 tiles 4.1.
// With sm_bytes_per_us, the narrow width (cost_terms.h) and the exchange above the floor
// (PredictMicros), 4.1 moves 73 of 324 such rows (1-64 tokens, 4096-28672 weights, 4096-14336
// deep, either operand, layouts tn and nn), which ran 0.90x (tokens as A, tn) and 0.92x (nn) the
// time, and none of the paper, waveq and llm sets' picks. Without those terms a floor over
// 3.5 TB/s misleads: at 3.8, 70b.qkv's rows moved from data-parallel on 80 SMs to Stream-K, which
// ran 4-5% slower, the floor hiding Stream-K's exchange. The H100 keeps it (HopperTmaSpec).
// Repacking operands (CostModel::repack_us, repack_bytes_per_us), measured on an H200:
// data-parallel with both operands of an n x n x (n + 8) GEMM repacked, against n x n x n, took
// 6.8, 14.5, 43.8 and about 170 us more for n = 1024, 2048, 4096 and 8192, i.e. 8.7, 34, 136 and
// 539 MB read and written: 3.5 us plus 3.15 TB/s (a copy's reads and writes share the bus).
constexpr double kH200HbmBytesPerUs = 4.1e6;
// One SM's streaming rate (CostModel::sm_bytes_per_us), measured on an H200 on decode rows: one
// round of 72-96 tiles of 128 x 256 streamed 48 GB/s per SM, and the second rounds of 12 and 60
// tiles of 128 x 128 took 40-46 us for each SM's 2 MB, 43-50 GB/s.
constexpr double kH200SmBytesPerUs = 4.6e4;
// repack_us's fixed cost holds for the copy that transposes an M- or N-major operand too:
// decode rows with 1-48 N-major tokens copied first ran a median 3.3 us (half within 2.6-3.9)
// slower than the same plans on K-major tokens on an H200 (11.7 us with the copy launched
// without programmatic dependent launch and storing each load before issuing the next).
constexpr double kRepackUs = 3.5;
constexpr double kH200RepackBytesPerUs = 3.15e6;
// The L2's rates for the operand loads (CostModel::l2_load_bytes_per_us,
// misaligned_l2_load_bytes_per_us): the 128 x 256 tile's loads alone on 132 SMs, 4096 x 4096 x K
// on an H200 (a probe issuing them with no math): 13.9 TB/s with K = 4096 or 4160, 5.4 with
// K = 4104 or 4120.
constexpr double kH200L2LoadBytesPerUs = 13.9e6;
constexpr double kH200MisalignedL2LoadBytesPerUs = 5.4e6;
// The memory's terms of every kernel configuration's cost model (the floor, repacking, the L2's
// load rates), for a memory of `bytes_per_us`. They do not depend on the kernel's constants.
DeviceSpec WithMemoryTerms(DeviceSpec spec, double bytes_per_us) {
  for (KernelConfig& k : spec.kernels) {
    CostModel& c = k.cost;
    c.hbm_bytes_per_us = bytes_per_us;
    c.repack_us = kRepackUs;
    c.repack_bytes_per_us = kH200RepackBytesPerUs * bytes_per_us / kH200HbmBytesPerUs;
    // Scaled with the memory's rate, as everything else of the H100's (unmeasured).
    c.l2_load_bytes_per_us = kH200L2LoadBytesPerUs * bytes_per_us / kH200HbmBytesPerUs;
    c.misaligned_l2_load_bytes_per_us =
        kH200MisalignedL2LoadBytesPerUs * bytes_per_us / kH200HbmBytesPerUs;
    // Measured on an H200 (cold caches): with 256 tokens as A and 28672 weights 8192 deep (470 MB
    // of B, 2 tiles of 128 x 256 along m), every tile Stream-K ran 246.8 us, what reading B twice
    // at the floor's rate takes, against 211.5 data-parallel; the model, reading it once, predicted
    // 214.1 against 223.5. With four tiles along m it ran the time of four reads where each block
    // took 3.4 tiles (28672 weights, 512 tokens, 8192 deep: 461.5 us, four reads 458), and under it
    // where each took 1.3 (11008 weights 14336 deep: 256.8 us, compute-bound; four reads 307).
    c.streamk_reread_bytes = static_cast<double>(spec.l2_bytes);
  }
  // Measured on the 128 x 256 and 128 x 128 configurations only (5 stages of 16 KiB of the
  // streamed operand, 3 of 32): a deeper ring streams faster per SM (the 64 x 128 tile's seven).
  for (KernelRole role : {KernelRole::kMain, KernelRole::kAlt})
    if (KernelConfig* k = spec.Find(role))
      k->cost.sm_bytes_per_us = kH200SmBytesPerUs * bytes_per_us / kH200HbmBytesPerUs;
  return spec;
}

}  // namespace

DeviceSpec A100Spec() {
  DeviceSpec spec = Spec("A100-SXM4", 108, kA100Occupancy, 40 << 20, kA100Cost, TileShape{});
  spec.mainloop = Mainloop::kSm80;
  // Copies of operands the kernel cannot load as they are happen whatever the plan; without a
  // rate the model priced them infinite. A copy is a memory-bound kernel: the H200's measured
  // rate scaled by the HBM bandwidth ratio 2.0 / 4.8, as the A100's other bandwidth terms.
  for (KernelConfig& k : spec.kernels) {
    k.cost.repack_us = kRepackUs;
    k.cost.repack_bytes_per_us = kH200RepackBytesPerUs * 2.0 / 4.8;
  }
  return spec;
}
// A Hopper GPU running the TMA kernel: the H200's constants, memory terms included, with the
// GPU's own name and L2 (spec). On an H100 that is what gemm() plans with too: scaling the terms
// that move bytes through the memory by the H100's nominal rate (2619 MHz x 5120 bits as its
// driver reports them, 0.70 of the H200's 3201 MHz x 6016 bits) predicted 72 Stream-K, split-K
// and data-parallel plans over operands larger than the L2 better on an H100 (rms log error
// 0.130 -> 0.122), but moved 5 of the llm and waveq sets' 63 picks there, 4 of them slower (7b.down
// at 16 tokens from split-K to data-parallel, 0.89x; docs/results/2026-12-06-h100/
// memory-rate-model.md): the other constants were fitted with the H200's rates. A calibrated
// profile (streamk-bench --calibrate) is the H100's own model.
DeviceSpec HopperTmaSpec(DeviceSpec spec) {
  spec.main().cost = kHopperTmaCost;
  spec = WithTmaConfigurations(spec, 1.0);
  return WithMemoryTerms(spec, kH200HbmBytesPerUs);
}

DeviceSpec H100Spec() {
  return HopperTmaSpec(
      Spec("H100-SXM5", 132, kHopperOccupancy, 50 << 20, kHopperTmaCost, kHopperTmaTile));
}
DeviceSpec H200Spec() {
  return HopperTmaSpec(
      Spec("H200", 132, kHopperOccupancy, 60 << 20, kHopperTmaCost, kHopperTmaTile));
}
// The cp.async wgmma kernel on an H200, as gemm() models it there (QueryLocalDevice with
// Options::mainloop = kSm90): its own constants with the H200's memory terms, without which a
// copy of an operand the kernel cannot load was priced infinite.
DeviceSpec H200CpAsyncSpec() {
  DeviceSpec spec = Spec("H200 (cp.async)", 132, 2, 60 << 20, kHopperWgmmaCost, TileShape{});
  spec.mainloop = Mainloop::kSm90;
  return WithMemoryTerms(spec, kH200HbmBytesPerUs);
}

absl::StatusOr<DeviceSpec> DeviceSpecByName(std::string_view name) {
  const std::string lower = absl::AsciiStrToLower(std::string(name));
  if (lower == "a100") return A100Spec();
  if (lower == "h100") return H100Spec();
  if (lower == "h200") return H200Spec();
  if (lower == "h200-cpasync") return H200CpAsyncSpec();
  return absl::NotFoundError(
      absl::StrCat("device '", std::string(name),
                   "': unknown; the presets are a100, h100, h200 and h200-cpasync"));
}

absl::StatusOr<DeviceSpec> QueryLocalDevice(int device_ordinal, std::optional<Mainloop> mainloop) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    cudaGetLastError();  // clear the sticky "no device" error for later callers
    return absl::FailedPreconditionError(absl::StrCat(
        "no CUDA device: cudaGetDeviceCount returned ",
        err != cudaSuccess ? cudaGetErrorName(err) : "0 devices"));
  }
  if (device_ordinal < 0) {
    err = cudaGetDevice(&device_ordinal);
    if (err != cudaSuccess)
      return absl::FailedPreconditionError(
          absl::StrCat("cudaGetDevice failed: ", cudaGetErrorName(err)));
  }
  if (device_ordinal >= count)
    return absl::InvalidArgumentError(absl::StrCat("device ordinal ", device_ordinal,
                                                   ": only ", count, " CUDA devices"));
  cudaDeviceProp prop;
  err = cudaGetDeviceProperties(&prop, device_ordinal);
  if (err != cudaSuccess)
    return absl::FailedPreconditionError(
        absl::StrCat("cudaGetDeviceProperties failed: ", cudaGetErrorName(err)));

  DeviceSpec spec = prop.major >= 9 ? H200Spec() : A100Spec();
  // The GPU's own L2 before the configurations below, some of whose terms scale with it
  // (CostModel::pingpong_stream_bytes).
  spec.l2_bytes = prop.l2CacheSize;
  const kernels::Arch arch = mainloop.value_or(kernels::KernelArch(device_ordinal));
  if (!kernels::RunsMainloop(device_ordinal, arch))
    return absl::InvalidArgumentError(absl::StrCat(
        "mainloop = ", MainloopName(arch), ": ", prop.name, " (compute capability ", prop.major,
        ".", prop.minor, ") cannot run it with this build of the library (its best: ",
        MainloopName(kernels::KernelArch(device_ordinal)), ")"));
  if (prop.major >= 9) {
    // The kernel's own constants, then the memory's terms again (the constants replace the
    // preset's, memory terms and all: without them, on a GPU the 128 x 256 tile's plans would have
    // no memory floor and repacking would never be predicted to pay). HopperTmaSpec adds them.
    switch (arch) {
      case kernels::Arch::kSm90Tma: spec = HopperTmaSpec(spec); break;
      case kernels::Arch::kSm90:
        spec.main().cost = kHopperWgmmaCost;
        spec = WithMemoryTerms(spec, kH200HbmBytesPerUs);
        break;
      case kernels::Arch::kSm80:  // the portable kernel
        spec.main().cost = kHopperMmaSyncCost;
        spec = WithMemoryTerms(spec, kH200HbmBytesPerUs);
        break;
    }
  }
  spec.mainloop = arch;
  const kernels::KernelTile tile = kernels::TileOf(arch);
  spec.main().tile = {tile.m, tile.n, tile.k};
  if (arch != kernels::Arch::kSm90Tma) spec.kernels.resize(1);  // one kernel configuration
  spec.name = prop.name;
  spec.sms = prop.multiProcessorCount;
  spec.queried = true;
  int occupancy = 0;
  err = kernels::KernelOccupancy(device_ordinal, arch, &occupancy);
  if (err != cudaSuccess)
    return absl::FailedPreconditionError(
        absl::StrCat("kernel occupancy query failed on ", prop.name, ": ", cudaGetErrorName(err),
                     " (is the library built for compute capability ", prop.major, ".",
                     prop.minor, "?)"));
  if (occupancy < 1)
    return absl::FailedPreconditionError(absl::StrCat(
        "the GEMM kernel fits 0 blocks per SM on ", prop.name,
        " (shared memory or registers too small for its configuration)"));
  spec.occupancy = occupancy;
  if (KernelConfig* c = spec.Find(KernelRole::kCluster)) {
    // A GPU on which the cluster configuration cannot run (or be asked about) still runs the
    // others: it just has none (GemmGpu.KernelOccupancyFeedsTheDeviceSpec expects one on Hopper).
    int clusters = 0;
    if (kernels::ClusterSlots(device_ordinal, arch, &clusters) != cudaSuccess) {
      cudaGetLastError();
      clusters = 0;
    }
    c->cluster_slots = clusters;
    if (clusters < 1) spec.Remove(KernelRole::kCluster);
  }
  return spec;
}

}  // namespace streamk
