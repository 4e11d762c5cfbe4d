// Session 41: the planner's estimates for K-misaligned rows (PlanRows in lib/planner.cc: the
// aligned prediction and the L2 floor combined by LoadBoundMicros) of auto's plan as the rows are
// and of the cluster tile's plan, per shape (bench M N K on stdin, layout tn: the kernel's problem
// is N x M x K), on the built-in H200 model. Built against the library (commit 816ea63):
//   g++ -std=c++17 -O1 -Iinclude estimates.cc build/lib/libstreamk.a -L/usr/local/cuda/lib64 \
//     -lcudart -lcuda $(pkg-config --libs absl_status absl_statusor absl_str_format) -o est
//   grep -v '^#' paper-misaligned.txt | ./est > est-s1.txt
//   grep -v '^#' ../2026-11-22-h200-loadbound/misaligned-s2s3.txt | cut -d' ' -f2- | ./est \
//     > est-s2s3.txt
#include <cstdio>
#include <iostream>
#include "streamk/device_spec.h"
#include "streamk/planner.h"
using namespace streamk;
int main() {
  DeviceSpec dev = H200Spec();
  long bm, bn, bk;
  while (std::cin >> bm >> bn >> bk) {
    Problem p;
    p.m = bn; p.n = bm; p.k = bk;
    p.a_rows_misaligned = p.b_rows_misaligned = (bk * 2) % 32 != 0;
    p.a_rows_on_lines = p.b_rows_on_lines = (bk % 64) == 0;
    if (!p.a_rows_misaligned) continue;
    PlanOptions o;
    auto plan = MakePlan(p, dev, o, nullptr);
    auto est = [&](Plan q, const CostModel& c) {
      double f = LoadFloorMicros(q, true, true, c);
      q.a_rows_misaligned = q.b_rows_misaligned = false;
      double pr = PredictMicros(q, c);
      return std::make_tuple(LoadBoundMicros(pr, f), pr, f);
    };
    auto [ae, ap, af] = est(*plan, KernelCost(dev, *plan));
    Problem al = p; al.a_rows_misaligned = al.b_rows_misaligned = false;
    PlanOptions oc; oc.tile = dev.cluster_tile;
    auto c = MakePlan(al, dev, oc, nullptr);
    auto [ce, cp, cf] = est(*c, dev.cluster_cost);
    std::printf("%ld %ld %ld auto %s %dx%d rp%d%d est %.1f pred %.1f floor %.1f | cl %s est %.1f pred %.1f floor %.1f\n",
                bm, bn, bk, ModeName(plan->mode), plan->tile_m, plan->tile_n, plan->repack_a, plan->repack_b, ae, ap, af,
                ModeName(c->mode), ce, cp, cf);
  }
}
