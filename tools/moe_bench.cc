// streamk-bench --moe (see moe_bench.h).
#include "moe_bench.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cublas_gemm.h"
#include "cuda_status.h"
#include "device_util.h"
#include "gpu_timer.h"
#include "streamk/plan_print.h"

namespace streamk::tools {

std::vector<MoeProjection> MoeProjections() {
  return {{"mixtral-gate-up", 8, 2, 2 * 14336, 4096},      {"mixtral-down", 8, 2, 4096, 14336},
          {"deepseek-v3-gate-up", 256, 8, 2 * 2048, 7168}, {"deepseek-v3-down", 256, 8, 7168, 2048},
          {"qwen3-gate-up", 128, 8, 2 * 1536, 4096},       {"qwen3-down", 128, 8, 4096, 1536}};
}

std::vector<int64_t> RouteTokens(int experts, int topk, int64_t tokens, double skew,
                                 uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> rank(static_cast<size_t>(experts));
  std::iota(rank.begin(), rank.end(), 0);
  std::shuffle(rank.begin(), rank.end(), rng);
  std::vector<double> weight(rank.size());
  for (size_t e = 0; e < rank.size(); ++e) weight[e] = std::pow(rank[e] + 1.0, -skew);
  std::vector<int64_t> rows(rank.size(), 0);
  std::vector<double> w;
  for (int64_t t = 0; t < tokens; ++t) {
    w = weight;
    for (int j = 0; j < topk && j < experts; ++j) {
      std::discrete_distribution<int> pick(w.begin(), w.end());
      const int e = pick(rng);
      ++rows[static_cast<size_t>(e)];
      w[static_cast<size_t>(e)] = 0;  // distinct experts per token
    }
  }
  return rows;
}

GroupedGemmArgs MoeGroupedArgs(const MoeProjection& proj, const std::vector<int64_t>& ends,
                               DType dtype, const void* tokens, const void* weights, void* out) {
  GroupedGemmArgs g;
  g.groups = proj.experts, g.group_ends = ends.data();
  g.n = proj.n, g.k = proj.k, g.input = g.output = dtype;
  g.a = tokens, g.lda = proj.k;
  g.b = weights, g.b_layout = Layout::kColMajor, g.ldb = proj.k, g.stride_b = proj.n * proj.k;
  g.d = out, g.ldd = proj.n;
  return g;
}

namespace {

cudaDataType_t CudaType(DType t) {
  return t == DType::kBF16 ? CUDA_R_16BF : t == DType::kF32 ? CUDA_R_32F : CUDA_R_16F;
}

// D (rows x n, row-major) as floats on the host.
absl::StatusOr<std::vector<float>> ReadD(const void* d, DType t, int64_t rows, int64_t n) {
  std::vector<float> host(static_cast<size_t>(rows * n));
  DeviceBuffer out(host.size() * 4 + 4);
  STREAMK_CUDA_RETURN_IF_ERROR(Gather(RefView{d, t, true, n, 0}, static_cast<int>(rows),
                                      static_cast<int>(n), 1, static_cast<float*>(out.get())));
  STREAMK_CUDA_RETURN_IF_ERROR(
      cudaMemcpy(host.data(), out.get(), host.size() * 4, cudaMemcpyDeviceToHost));
  return host;
}

double Geomean(const std::vector<double>& v) {
  if (v.empty()) return 0;
  double s = 0;
  for (double x : v) s += std::log(x);
  return std::exp(s / v.size());
}

}  // namespace

int RunMoeBench(const MoeBenchFlags& flags) {
  Cublas cublas;
  if (!cublas.status().ok()) {
    std::fprintf(stderr, "streamk-bench --moe: %s\n",
                 std::string(cublas.status().message()).c_str());
    return 1;
  }
  std::ofstream csv;
  if (!flags.csv.empty()) {
    csv.open(flags.csv);
    csv << "projection,experts,topk,n,k,tokens,skew,experts_with_rows,rows,streamk_us,loop_us,"
           "grouped_us,streamk_err,grouped_err,plan\n";
  }
  std::printf("%-20s %6s %4s %5s %7s  %9s %9s %9s  %6s %6s\n", "projection", "tokens", "skew",
              "used", "rows", "streamk", "loop", "grouped", "loop/s", "grp/s");
  const double tolerance = flags.dtype == DType::kBF16 ? 1e-2 : 2e-3;
  const int64_t in = DTypeBytes(flags.dtype);
  int status = 0;
  // Per routing: the speed of streamk against the loop and against the better of the two peers.
  std::vector<std::vector<double>> over_loop(flags.skews.size()), over_best(flags.skews.size());
  std::vector<double> worst_over_best(flags.skews.size(), 1e9);
  for (const MoeProjection& proj : MoeProjections()) {
    if (!flags.projections.empty() && std::find(flags.projections.begin(), flags.projections.end(),
                                                proj.name) == flags.projections.end())
      continue;
    const int64_t max_rows =
        *std::max_element(flags.tokens.begin(), flags.tokens.end()) * proj.topk;
    DeviceBuffer a(static_cast<size_t>(max_rows * proj.k * in));
    DeviceBuffer b(static_cast<size_t>(int64_t{proj.experts} * proj.n * proj.k * in));
    DeviceBuffer d_sk(static_cast<size_t>(max_rows * proj.n * in));
    DeviceBuffer d_loop(d_sk.bytes()), d_grp(d_sk.bytes());
    if (a.get() == nullptr || b.get() == nullptr || d_sk.get() == nullptr ||
        d_loop.get() == nullptr || d_grp.get() == nullptr) {
      std::fprintf(stderr, "%s: out of device memory\n", proj.name.c_str());
      return 1;
    }
    if (Fill(a.get(), flags.dtype, max_rows * proj.k, flags.seed) != cudaSuccess ||
        Fill(b.get(), flags.dtype, int64_t{proj.experts} * proj.n * proj.k, flags.seed + 1) !=
            cudaSuccess) {
      std::fprintf(stderr, "%s: fill failed\n", proj.name.c_str());
      return 1;
    }
    for (int64_t tokens : flags.tokens) {
      for (size_t si = 0; si < flags.skews.size(); ++si) {
        const double skew = flags.skews[si];
        const std::vector<int64_t> rows =
            RouteTokens(proj.experts, proj.topk, tokens, skew, flags.seed + tokens);
        std::vector<int64_t> ends(rows.size());
        std::partial_sum(rows.begin(), rows.end(), ends.begin());
        const int64_t total = ends.back();
        const int used = static_cast<int>(
            std::count_if(rows.begin(), rows.end(), [](int64_t r) { return r > 0; }));
        const GroupedGemmArgs g =
            MoeGroupedArgs(proj, ends, flags.dtype, a.get(), b.get(), d_sk.get());
        absl::StatusOr<size_t> ws_bytes = GetWorkspaceSize(g);
        absl::StatusOr<Plan> plan = PlanGroupedGemm(g);
        if (!ws_bytes.ok() || !plan.ok()) {
          std::fprintf(
              stderr, "%s: %s\n", proj.name.c_str(),
              std::string((ws_bytes.ok() ? plan.status() : ws_bytes.status()).message()).c_str());
          status = 1;
          continue;
        }
        DeviceBuffer ws(std::max<size_t>(*ws_bytes, 256));
        cudaMemset(ws.get(), 0, ws.bytes());
        auto streamk_run = [&](cudaStream_t s) { return grouped_gemm(g, ws.get(), *ws_bytes, s); };
        // The loop: one cublasGemmEx-backed call per expert with rows.
        auto loop_run = [&](cudaStream_t s) -> absl::Status {
          for (size_t e = 0; e < rows.size(); ++e) {
            if (rows[e] == 0) continue;
            const int64_t begin = ends[e] - rows[e];
            GemmArgs one;
            one.m = rows[e], one.n = proj.n, one.k = proj.k;
            one.input = one.output = flags.dtype;
            one.a = static_cast<const char*>(a.get()) + begin * proj.k * in, one.lda = proj.k;
            one.b = static_cast<const char*>(b.get()) + int64_t(e) * proj.n * proj.k * in;
            one.b_layout = Layout::kColMajor, one.ldb = proj.k;
            one.d = static_cast<char*>(d_loop.get()) + begin * proj.n * in, one.ldd = proj.n;
            one.cd_layout = Layout::kRowMajor;
            if (absl::Status st = cublas.Gemm(one, s); !st.ok()) return st;
          }
          return absl::OkStatus();
        };
        // cuBLAS's grouped call: one group per expert with rows (column-major: D^T = B_e^T A^T).
        std::vector<cublasOperation_t> ta, tb;
        std::vector<int> m_arr, n_arr, k_arr, lda_arr, ldb_arr, ldc_arr, sizes;
        std::vector<float> alpha, beta;
        std::vector<const void*> a_ptrs, b_ptrs;
        std::vector<void*> c_ptrs;
        for (size_t e = 0; e < rows.size(); ++e) {
          if (rows[e] == 0) continue;
          const int64_t begin = ends[e] - rows[e];
          ta.push_back(CUBLAS_OP_T), tb.push_back(CUBLAS_OP_N);
          m_arr.push_back(static_cast<int>(proj.n)), n_arr.push_back(static_cast<int>(rows[e]));
          k_arr.push_back(static_cast<int>(proj.k));
          lda_arr.push_back(static_cast<int>(proj.k)), ldb_arr.push_back(static_cast<int>(proj.k));
          ldc_arr.push_back(static_cast<int>(proj.n));
          sizes.push_back(1), alpha.push_back(1.0f), beta.push_back(0.0f);
          a_ptrs.push_back(static_cast<const char*>(b.get()) + int64_t(e) * proj.n * proj.k * in);
          b_ptrs.push_back(static_cast<const char*>(a.get()) + begin * proj.k * in);
          c_ptrs.push_back(static_cast<char*>(d_grp.get()) + begin * proj.n * in);
        }
        DeviceBuffer ptrs(3 * a_ptrs.size() * sizeof(void*) + 8);
        void** dev_ptrs = static_cast<void**>(ptrs.get());
        cudaMemcpy(dev_ptrs, a_ptrs.data(), a_ptrs.size() * sizeof(void*), cudaMemcpyHostToDevice);
        cudaMemcpy(dev_ptrs + a_ptrs.size(), b_ptrs.data(), b_ptrs.size() * sizeof(void*),
                   cudaMemcpyHostToDevice);
        cudaMemcpy(dev_ptrs + 2 * a_ptrs.size(), c_ptrs.data(), c_ptrs.size() * sizeof(void*),
                   cudaMemcpyHostToDevice);
        auto grouped_run = [&](cudaStream_t s) -> absl::Status {
          cublasSetStream(cublas.handle(), s);
          const cublasStatus_t st = cublasGemmGroupedBatchedEx(
              cublas.handle(), ta.data(), tb.data(), m_arr.data(), n_arr.data(), k_arr.data(),
              alpha.data(), const_cast<const void* const*>(dev_ptrs), CudaType(flags.dtype),
              lda_arr.data(), const_cast<const void* const*>(dev_ptrs + a_ptrs.size()),
              CudaType(flags.dtype), ldb_arr.data(), beta.data(), dev_ptrs + 2 * a_ptrs.size(),
              CudaType(flags.dtype), ldc_arr.data(), static_cast<int>(sizes.size()), sizes.data(),
              CUBLAS_COMPUTE_32F);
          if (st != CUBLAS_STATUS_SUCCESS)
            return absl::InternalError(
                absl::StrCat("cublasGemmGroupedBatchedEx: ", cublasGetStatusName(st)));
          return absl::OkStatus();
        };
        // Checked before timed: streamk and the grouped call against the loop.
        double err_sk = INFINITY, err_grp = INFINITY;
        absl::Status st = loop_run(nullptr);
        if (st.ok()) st = streamk_run(nullptr);
        const absl::Status grp_status = grouped_run(nullptr);
        if (st.ok()) st = CudaStatus(cudaDeviceSynchronize(), "kernel", __FILE__, __LINE__);
        if (st.ok()) {
          absl::StatusOr<std::vector<float>> want = ReadD(d_loop.get(), flags.dtype, total, proj.n);
          absl::StatusOr<std::vector<float>> got = ReadD(d_sk.get(), flags.dtype, total, proj.n);
          if (want.ok() && got.ok()) err_sk = RelativeFrobenius(*got, *want);
          if (grp_status.ok()) {
            absl::StatusOr<std::vector<float>> grp = ReadD(d_grp.get(), flags.dtype, total, proj.n);
            if (want.ok() && grp.ok()) err_grp = RelativeFrobenius(*grp, *want);
          }
        }
        if (!st.ok() || !(err_sk < tolerance)) {
          std::fprintf(stderr, "%s tokens %lld skew %.1f: %s (error %.3g)\n", proj.name.c_str(),
                       static_cast<long long>(tokens), skew,
                       st.ok() ? "streamk's result is wrong" : std::string(st.message()).c_str(),
                       err_sk);
          status = 1;
          continue;
        }
        const bool grp_ok = grp_status.ok() && err_grp < tolerance;
        absl::StatusOr<double> t_sk = TimeGraph(streamk_run, 5, flags.reps);
        absl::StatusOr<double> t_loop = TimeGraph(loop_run, 5, flags.reps);
        absl::StatusOr<double> t_grp =
            grp_ok ? TimeGraph(grouped_run, 5, flags.reps) : absl::StatusOr<double>(0.0);
        if (!t_sk.ok() || !t_loop.ok() || !t_grp.ok()) {
          std::fprintf(stderr, "%s: timing failed: %s\n", proj.name.c_str(),
                       std::string((!t_sk.ok()     ? t_sk.status()
                                    : !t_loop.ok() ? t_loop.status()
                                                   : t_grp.status())
                                       .message())
                           .c_str());
          status = 1;
          continue;
        }
        const double best = grp_ok ? std::min(*t_loop, *t_grp) : *t_loop;
        over_loop[si].push_back(*t_loop / *t_sk);
        over_best[si].push_back(best / *t_sk);
        worst_over_best[si] = std::min(worst_over_best[si], best / *t_sk);
        std::printf("%-20s %6lld %4.1f %5d %7lld  %9.1f %9.1f %9s  %6.3f %6s\n", proj.name.c_str(),
                    static_cast<long long>(tokens), skew, used, static_cast<long long>(total),
                    *t_sk, *t_loop, grp_ok ? absl::StrFormat("%.1f", *t_grp).c_str() : "-",
                    *t_loop / *t_sk,
                    grp_ok ? absl::StrFormat("%.3f", *t_grp / *t_sk).c_str() : "-");
        std::fflush(stdout);
        if (csv.is_open()) {
          csv << proj.name << "," << proj.experts << "," << proj.topk << "," << proj.n << ","
              << proj.k << "," << tokens << "," << skew << "," << used << "," << total << ","
              << *t_sk << "," << *t_loop << "," << (grp_ok ? *t_grp : 0) << "," << err_sk << ","
              << (grp_ok ? err_grp : -1) << ",\"" << PlanSummary(*plan) << "\"\n";
          csv.flush();
        }
      }
    }
  }
  for (size_t si = 0; si < flags.skews.size(); ++si) {
    std::printf(
        "skew %.1f: %zu cases, streamk over the loop %.3f (geomean), over the better peer "
        "%.3f (geomean), worst %.3f\n",
        flags.skews[si], over_loop[si].size(), Geomean(over_loop[si]), Geomean(over_best[si]),
        over_best[si].empty() ? 0.0 : worst_over_best[si]);
  }
  return status;
}

}  // namespace streamk::tools
