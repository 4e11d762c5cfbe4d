// streamk-plan --svg: a plan drawn as a timeline (see plan_print.h). Persistent blocks down, the
// cost model's predicted time across. The timeline is simulated from the plan with the kernel's
// own work mapping and fixup protocol: work blocks in increasing order (every wait is for a
// lower-numbered block, so its times are known when the waiter is placed).
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cost_terms.h"
#include "fixup_protocol.h"
#include "streamk/plan_print.h"
#include "streamk/planner.h"
#include "work_mapping.h"

namespace streamk {
namespace {

struct Segment {
  int row;
  double begin, end;
  std::string fill;  // colour, or "wait"
  std::string title;
};

std::string TileColour(int tile) {
  // Hue (tile * 47) mod 360 at 70% saturation, 55% lightness, written as #rrggbb: every SVG
  // renderer reads hex, not all of them read hsl().
  const double h = ((tile * 47) % 360) / 60.0, s = 0.7, l = 0.55;
  const double c = (1 - std::abs(2 * l - 1)) * s;
  const double x = c * (1 - std::abs(std::fmod(h, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  switch (static_cast<int>(h)) {
    case 0: r = c, g = x; break;
    case 1: r = x, g = c; break;
    case 2: g = c, b = x; break;
    case 3: g = x, b = c; break;
    case 4: r = x, b = c; break;
    default: r = c, b = x; break;
  }
  const double m = l - c / 2;
  auto byte = [m](double v) { return static_cast<int>(std::lround((v + m) * 255)); };
  return absl::StrFormat("#%02x%02x%02x", byte(r), byte(g), byte(b));
}

}  // namespace

std::string PlanToSvg(const Plan& p, const CostModel& cost, const PlanExplanation* why,
                      const std::string& device) {
  // The same rates as PredictMicros: blocks share SMs when the grid exceeds one block per SM.
  const CostTerms terms = ScaleCosts(p, cost);
  const double iter = RoundIter(terms, p.grid_blocks, p.avail_sms);
  const double b = terms.partial, d = terms.peer, e = terms.epilogue;

  std::vector<double> row_time(static_cast<size_t>(p.grid_blocks), terms.fixed);
  // Per Stream-K tile: when each turn signalled (index = turn).
  std::map<int, std::vector<double>> signalled;
  std::vector<Segment> segs;
  constexpr size_t kMaxSegments = 40000;  // keep the file readable for huge plans

  for (int w = 0; w < p.work_blocks && segs.size() < kMaxSegments; ++w) {
    const int row = w % p.grid_blocks;
    double t = row_time[row];
    const mapping::BlockRole role = mapping::RoleOf(p, w);
    if (role.role == mapping::Role::kDataParallel) {
      const mapping::DpTiles dp = mapping::DpBlockTiles(p, role.index);
      // Under ping-pong each tile's epilogue but the block's last hides under the next tile's
      // mainloop (terms.hidden, as PredictMicros prices it).
      const bool last_work = w + p.grid_blocks >= p.work_blocks;
      for (int i = 0; i < dp.count; ++i) {
        const bool hides = !last_work || i + 1 < dp.count;
        const double end =
            t + terms.unit + p.iters_per_tile * iter + e - (hides ? terms.hidden : 0.0);
        segs.push_back({row, t, end, "#9aa0a6",
                        absl::StrCat("DP tile ", dp.first_tile + i * dp.stride)});
        t = end;
      }
    } else if (role.role == mapping::Role::kStreamK) {
      for (mapping::SkUnit u = mapping::SkFirstUnit(p, role.index); u.valid();
           u = mapping::SkNextUnit(p, u)) {
        double end = t + terms.unit + (u.k_end - u.k_begin) * iter;
        segs.push_back({row, t, end, TileColour(u.tile),
                        absl::StrCat("SK block ", u.block, ": tile ", u.tile, " k-iterations ",
                                     u.k_begin, "..", u.k_end - 1, " (turn ", u.turn(), " of ",
                                     u.peers.count(), ")")});
        t = end;
        const fixup::Step s = fixup::SkStep(p, u);
        std::vector<double>& sig = signalled[u.tile];
        if (sig.empty()) sig.assign(static_cast<size_t>(u.peers.count()), 0.0);
        if (s.wait != fixup::Wait::kNone) {
          // The flag reaches the awaited value when the turns it counts have signalled.
          double ready = 0;
          const int upto = s.wait == fixup::Wait::kAtLeast ? 1 : s.wait_value;
          for (int turn = 0; turn < upto && turn < static_cast<int>(sig.size()); ++turn)
            ready = std::max(ready, sig[turn]);
          if (ready > t) {
            segs.push_back({row, t, ready, "wait", absl::StrCat("waits for tile ", u.tile)});
            t = ready;
          }
        }
        if (s.publish != fixup::Publish::kNone || s.take) {
          end = t + (s.publish == fixup::Publish::kAdd ? b + d
                     : s.publish != fixup::Publish::kNone ? b
                                                         : 0) +
                (s.take ? d : 0);
          segs.push_back({row, t, end, "#333",
                          absl::StrCat(s.take ? "adds peers' partials of tile "
                                              : "publishes partials of tile ",
                                       u.tile)});
          t = end;
        }
        if (s.signal != fixup::Signal::kNone && u.turn() < static_cast<int>(sig.size()))
          sig[u.turn()] = t;
        if (s.epilogue) {
          segs.push_back(
              {row, t, t + e, TileColour(u.tile), absl::StrCat("epilogue of tile ", u.tile)});
          t += e;
        }
      }
    } else if (role.role == mapping::Role::kReduction) {
      // One slice of one tile's columns (reduction_slices per tile).
      const mapping::ReductionWork work = mapping::ReductionWorkOf(p, role.index);
      const mapping::Peers peers = mapping::TilePeers(p, work.tile);
      if (peers.count() > 1) {
        double ready = 0;
        for (double x : signalled[work.tile]) ready = std::max(ready, x);
        if (ready > t) {
          segs.push_back({row, t, ready, "wait", absl::StrCat("waits for tile ", work.tile)});
          t = ready;
        }
        const int slices = std::max(1, p.reduction_slices);
        const double end = t + ReductionBlockCost(terms, peers.count(), slices);
        segs.push_back(
            {row, t, end, "#7b3fb5",
             absl::StrCat("reduces ", peers.count(), " partials of tile ", work.tile,
                          slices > 1 ? absl::StrCat(", columns ", work.col_begin, "..",
                                                    work.col_end - 1)
                                     : std::string())});
        t = end;
      }
    }
    row_time[row] = t;
  }

  const double total = std::max(1e-9, *std::max_element(row_time.begin(), row_time.end()));
  // The planner's prediction, as streamk-plan prints it above the drawing.
  const double predicted = why != nullptr ? why->predicted_us : PredictMicros(p, cost);

  const int rows = p.grid_blocks;
  const int row_h = rows > 300 ? 2 : rows > 150 ? 3 : rows > 60 ? 5 : 10;
  const int left = 90, top = 70, width = 1000, plot_w = width - left - 20;
  const int height = top + rows * row_h + 60;
  auto x_of = [&](double us) { return left + us / total * plot_w; };
  std::string s = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" "
      "fill=\"white\"/>\n<defs><pattern id=\"wait\" width=\"6\" height=\"6\" "
      "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"6\" "
      "height=\"6\" fill=\"#fde0e0\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#d33\" "
      "stroke-width=\"2\"/></pattern></defs>\n",
      width, height);
  absl::StrAppendFormat(&s,
                        "<text x=\"%d\" y=\"22\" font-size=\"16\" font-weight=\"bold\">%d x %d x "
                        "%d (batch %d): %s plan, predicted %.1f us%s%s</text>\n",
                        left, p.m, p.n, p.k, p.batch, ModeName(p.mode), predicted,
                        device.empty() ? "" : " on ", device);
  absl::StrAppendFormat(&s,
                        "<text x=\"%d\" y=\"40\" fill=\"#444\">%d tiles (%d DP, %d Stream-K in %d "
                        "blocks, %d regions), %d reduction blocks, %d persistent blocks, "
                        "reduction %s%s%s</text>\n",
                        left, p.tiles, p.dp_tiles, p.sk_tiles, p.sk_blocks, p.sk_regions,
                        p.reduction_blocks, p.grid_blocks, ReductionName(p.reduction),
                        terms.hidden > 0 ? ", ping-pong" : "",
                        // Which block runs what is decided at run time under a dynamic schedule:
                        // the drawing is the static order of the same work blocks.
                        p.schedule == Schedule::kDynamic
                            ? "; dynamic schedule, drawn in static order (at run time the block "
                              "that finishes first takes the next work block)"
                            : "");
  // Legend.
  struct Key {
    std::string fill;
    const char* text;
  };
  const Key keys[] = {{"#9aa0a6", "DP tile"},
                      {TileColour(1), "Stream-K k-slice (colour = tile)"},
                      {"url(#wait)", "waiting for peers"},
                      {"#333", "partials out / in"},
                      {"#7b3fb5", "reduction block"}};
  int lx = left;
  for (const Key& k : keys) {
    absl::StrAppendFormat(&s,
                          "<rect x=\"%d\" y=\"50\" width=\"12\" height=\"10\" fill=\"%s\"/><text "
                          "x=\"%d\" y=\"59\">%s</text>\n",
                          lx, k.fill, lx + 16, k.text);
    lx += 40 + 7 * static_cast<int>(std::string(k.text).size());
  }
  for (const Segment& g : segs) {
    const double x0 = x_of(g.begin), x1 = x_of(g.end);
    absl::StrAppendFormat(&s,
                          "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"%s>"
                          "<title>%s (%.1f-%.1f us)</title></rect>\n",
                          x0, top + g.row * row_h, std::max(0.3, x1 - x0), std::max(1, row_h - 1),
                          g.fill == "wait" ? "url(#wait)" : g.fill,
                          g.fill == "#9aa0a6" ? " stroke=\"#fff\" stroke-width=\"0.6\"" : "",
                          g.title, g.begin, g.end);
  }
  // Axes: block rows and time ticks.
  const int axis_y = top + rows * row_h + 4;
  absl::StrAppendFormat(&s, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n",
                        left, left + plot_w, axis_y, axis_y);
  for (int i = 0; i <= 5; ++i) {
    const double us = total * i / 5;
    absl::StrAppendFormat(&s,
                          "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.0f us</text>\n",
                          x_of(us), axis_y + 16, us);
  }
  // The timeline and the prediction price different things (PredictMicros: each round's rate,
  // the memory floor; the planner's estimate: operand copies; the timeline: waits for peers), so
  // they may end apart: say so under the axis.
  if (absl::StrFormat("%.1f", total) != absl::StrFormat("%.1f", predicted))
    absl::StrAppendFormat(&s,
                          "<text x=\"%d\" y=\"%d\" fill=\"#444\">Timeline: each piece at the "
                          "cost model's rates, with waits for peers; it ends at %.1f us.</text>\n"
                          "<text x=\"%d\" y=\"%d\" fill=\"#444\">The prediction (%.1f us) "
                          "prices each round's rate, the memory floor and operand copies "
                          "instead.</text>\n",
                          left, axis_y + 34, total, left, axis_y + 49, predicted);
  absl::StrAppendFormat(
      &s,
      "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">block 0</text>\n<text x=\"%d\" "
      "y=\"%d\" text-anchor=\"end\">block %d</text>\n",
      left - 6, top + row_h, left - 6, top + rows * row_h, rows - 1);
  absl::StrAppendFormat(&s,
                        "<text transform=\"translate(24,%d) rotate(-90)\" text-anchor=\"middle\">"
                        "persistent blocks (one per SM slot)</text>\n",
                        top + rows * row_h / 2);
  if (segs.size() >= kMaxSegments)
    absl::StrAppendFormat(
        &s, "<text x=\"%d\" y=\"%d\" fill=\"#d33\">(truncated at %d segments)</text>\n", left,
        height - 8, static_cast<int>(kMaxSegments));
  return s + "</svg>\n";
}

}  // namespace streamk
