/* The C interface (streamk_c.h) from a program compiled as C: structs' defaults, the version,
 * errors with their text, the plan as JSON on the built-in H200 model (no GPU needed) and, where
 * a GPU is present, a GEMM checked against a reference on the host. Prints
 * "c_api: N passed, N failed" and exits non-zero on any failure. */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "streamk/streamk_c.h"

static int passed = 0, failed = 0;

#define CHECK(cond, ...)                                           \
  do {                                                             \
    if (cond) {                                                    \
      ++passed;                                                    \
    } else {                                                       \
      ++failed;                                                    \
      fprintf(stderr, "%s:%d: FAILED: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                \
      fprintf(stderr, "\n");                                       \
    }                                                              \
  } while (0)

/* Any non-null, 256-byte-aligned address: planning reads no memory. */
static void* const kFakePointer = (void*)(uintptr_t)0x10000;

static void InitShape(streamk_gemm_args* args, int64_t m, int64_t n, int64_t k) {
  streamk_gemm_args_init(args);
  args->m = m, args->n = n, args->k = k;
  args->a = kFakePointer, args->lda = k;    /* row-major A */
  args->b = kFakePointer, args->ldb = k;    /* column-major B */
  args->d = kFakePointer, args->ldd = n;    /* row-major D */
}

static void TestDefaultsAndVersion(void) {
  streamk_gemm_args args;
  streamk_options options;
  streamk_gemm_args_init(&args);
  streamk_options_init(&options);
  CHECK(args.struct_size == sizeof(args), "struct_size %zu", args.struct_size);
  CHECK(args.batch == 1 && args.alpha == 1.0f && args.beta == 0.0f, "batch/alpha/beta defaults");
  CHECK(args.input == STREAMK_F16 && args.b_layout == STREAMK_COL_MAJOR, "dtype/layout defaults");
  CHECK(options.mode == STREAMK_MODE_AUTO && options.reduction == STREAMK_REDUCTION_DEFAULT &&
            options.schedule == STREAMK_SCHEDULE_AUTO,
        "options defaults");
  CHECK(strcmp(streamk_version(), STREAMK_VERSION_STRING) == 0, "version %s", streamk_version());
  CHECK(STREAMK_VERSION == STREAMK_VERSION_MAJOR * 10000 + STREAMK_VERSION_MINOR * 100 +
                               STREAMK_VERSION_PATCH,
        "STREAMK_VERSION %d", STREAMK_VERSION);
}

static void TestErrors(void) {
  streamk_gemm_args args;
  streamk_options options;
  InitShape(&args, 0, 128, 128);
  streamk_status s = streamk_gemm(&args, NULL, NULL);
  CHECK(s == STREAMK_INVALID_ARGUMENT, "m = 0 gave %d", (int)s);
  CHECK(strstr(streamk_last_error(), "m = 0") != NULL, "text: %s", streamk_last_error());

  InitShape(&args, 128, 128, 128);
  args.lda = 5; /* row-major A: lda >= k */
  s = streamk_gemm(&args, NULL, NULL);
  CHECK(s == STREAMK_INVALID_ARGUMENT && strstr(streamk_last_error(), "lda") != NULL,
        "lda = 5 gave %d: %s", (int)s, streamk_last_error());

  InitShape(&args, 128, 128, 128);
  args.struct_size = 8; /* not initialized by streamk_gemm_args_init */
  s = streamk_gemm(&args, NULL, NULL);
  CHECK(s == STREAMK_INVALID_ARGUMENT && strstr(streamk_last_error(), "struct_size") != NULL,
        "struct_size 8 gave %d: %s", (int)s, streamk_last_error());

  InitShape(&args, 128, 128, 128);
  args.input = (streamk_dtype)7;
  s = streamk_gemm(&args, NULL, NULL);
  CHECK(s == STREAMK_INVALID_ARGUMENT && strstr(streamk_last_error(), "input = 7") != NULL,
        "input 7 gave %d: %s", (int)s, streamk_last_error());

  InitShape(&args, 128, 128, 128);
  streamk_options_init(&options);
  options.mode = STREAMK_MODE_DATA_PARALLEL;
  options.splits = 4; /* splits only with split-K */
  s = streamk_gemm(&args, &options, NULL);
  CHECK(s == STREAMK_INVALID_ARGUMENT && strstr(streamk_last_error(), "splits") != NULL,
        "splits with dp gave %d: %s", (int)s, streamk_last_error());

  s = streamk_gemm(NULL, NULL, NULL);
  CHECK(s == STREAMK_INVALID_ARGUMENT && strstr(streamk_last_error(), "args") != NULL,
        "NULL args gave %d: %s", (int)s, streamk_last_error());

  size_t bytes = 0;
  s = streamk_workspace_size(&args, NULL, NULL);
  CHECK(s == STREAMK_INVALID_ARGUMENT, "NULL bytes gave %d", (int)s);
  (void)bytes;
}

/* The grouped GEMM's arguments: defaults, and bad ones named before any CUDA call. */
static void TestGroupedRejectsBadArguments(void) {
  streamk_grouped_gemm_args g;
  streamk_grouped_gemm_args_init(&g);
  CHECK(g.struct_size == sizeof(g) && g.alpha == 1.0f && g.b_layout == STREAMK_COL_MAJOR,
        "grouped defaults");
  streamk_status s = streamk_grouped_gemm(&g, NULL, NULL);
  CHECK(s == STREAMK_INVALID_ARGUMENT && strstr(streamk_last_error(), "groups = 0") != NULL,
        "no groups gave %d: %s", (int)s, streamk_last_error());
  static unsigned short a[64 * 64], b[2 * 64 * 64], d[64 * 64];
  const int64_t ends[2] = {40, 30};
  g.groups = 2, g.group_ends = ends, g.n = 64, g.k = 64;
  g.a = a, g.lda = 64, g.b = b, g.ldb = 64, g.stride_b = 64 * 64, g.d = d, g.ldd = 64;
  s = streamk_grouped_gemm(&g, NULL, NULL);
  CHECK(s == STREAMK_INVALID_ARGUMENT && strstr(streamk_last_error(), "group_ends[1] = 30") != NULL,
        "decreasing ends gave %d: %s", (int)s, streamk_last_error());
  size_t bytes = 0;
  s = streamk_grouped_workspace_size(&g, NULL, NULL);
  CHECK(s == STREAMK_INVALID_ARGUMENT, "NULL bytes gave %d", (int)s);
  /* A valid grouping plans on a built-in model without a GPU. */
  const int64_t good[2] = {40, 64};
  g.group_ends = good;
  char json[1 << 15];
  size_t needed = 0;
  s = streamk_grouped_plan_json(&g, NULL, "h200", json, sizeof(json), &needed);
  CHECK(s == STREAMK_OK && strstr(json, "\"groups\":2") != NULL &&
            strstr(json, "\"candidates\"") != NULL,
        "grouped plan gave %d: %s", (int)s, s == STREAMK_OK ? json : streamk_last_error());
  g.struct_size = 8;
  s = streamk_grouped_workspace_size(&g, NULL, &bytes);
  CHECK(s == STREAMK_INVALID_ARGUMENT && strstr(streamk_last_error(), "struct_size") != NULL,
        "bad struct_size gave %d: %s", (int)s, streamk_last_error());
}

static void TestPlanJson(void) {
  streamk_gemm_args args;
  streamk_options options;
  InitShape(&args, 1536, 1536, 4096); /* 144 tiles of 128 x 256 over 132 SMs */
  size_t needed = 0;
  streamk_status s = streamk_plan_json(&args, NULL, "h200", NULL, 0, &needed);
  CHECK(s == STREAMK_OK && needed > 100, "sizing gave %d, %zu bytes: %s", (int)s, needed,
        streamk_last_error());
  CHECK(strcmp(streamk_last_error(), "") == 0, "last error after success: %s",
        streamk_last_error());
  char small[16];
  s = streamk_plan_json(&args, NULL, "h200", small, sizeof(small), NULL);
  CHECK(s == STREAMK_RESOURCE_EXHAUSTED && strstr(streamk_last_error(), "capacity") != NULL,
        "small buffer gave %d: %s", (int)s, streamk_last_error());
  char* json = (char*)malloc(needed);
  s = streamk_plan_json(&args, NULL, "h200", json, needed, NULL);
  const size_t auto_needed = needed;
  CHECK(s == STREAMK_OK, "plan gave %d: %s", (int)s, streamk_last_error());
  CHECK(strstr(json, "\"candidates\"") != NULL && strstr(json, "\"reason\"") != NULL,
        "json lacks candidates or reason: %.200s", json);
  CHECK(strstr(json, "\"device\":\"H200\"") != NULL && strstr(json, "\"m\":1536") != NULL,
        "json names another device or shape: %.200s", json);

  free(json);
  needed = 1 << 20; /* other plans' JSON may be longer than auto's */
  json = (char*)malloc(needed);
  CHECK(auto_needed < needed, "auto's plan took %zu bytes", auto_needed);
  streamk_options_init(&options);
  options.mode = STREAMK_MODE_STREAM_K;
  s = streamk_plan_json(&args, &options, "h200", json, needed, NULL);
  CHECK(s == STREAMK_OK && strstr(json, "\"mode\":\"streamk\",\"m\":1536") != NULL,
        "forced Stream-K gave %d: %.200s", (int)s, s == STREAMK_OK ? json : streamk_last_error());
  /* Its blocks wait on one another: by default they take their work from a counter. */
  CHECK(strstr(json, "\"schedule\":\"dynamic\"") != NULL, "Stream-K's schedule: %.200s", json);
  options.schedule = STREAMK_SCHEDULE_STATIC;
  s = streamk_plan_json(&args, &options, "h200", json, needed, NULL);
  CHECK(s == STREAMK_OK && strstr(json, "\"schedule\":\"static\"") != NULL,
        "static Stream-K gave %d: %.200s", (int)s, s == STREAMK_OK ? json : streamk_last_error());
  options.schedule = (streamk_schedule)5;
  s = streamk_plan_json(&args, &options, "h200", json, needed, NULL);
  CHECK(s == STREAMK_INVALID_ARGUMENT && strstr(streamk_last_error(), "schedule = 5") != NULL,
        "schedule 5 gave %d: %s", (int)s, streamk_last_error());

  streamk_options_init(&options);
  options.mode = STREAMK_MODE_SPLIT_K;
  options.splits = 4;
  options.tile_m = 128, options.tile_n = 256, options.tile_k = 64;
  s = streamk_plan_json(&args, &options, "h200", json, needed, NULL);
  CHECK(s == STREAMK_OK || s == STREAMK_RESOURCE_EXHAUSTED, "split-K plan gave %d: %s", (int)s,
        streamk_last_error());
  if (s == STREAMK_OK)
    CHECK(strstr(json, "\"sk_regions\":72") != NULL, "split-K 4: %.300s", json);

  /* A workspace cap the split-K plan cannot meet: refused, naming the cap. */
  options.max_workspace_bytes = 1024;
  s = streamk_plan_json(&args, &options, "h200", NULL, 0, &needed);
  CHECK(s == STREAMK_RESOURCE_EXHAUSTED &&
            strstr(streamk_last_error(), "max_workspace_bytes") != NULL,
        "capped split-K gave %d: %s", (int)s, streamk_last_error());

  /* Device profiles: a file that cannot be read is NOT_FOUND, for planning and for gemm(). */
  streamk_options_init(&options);
  s = streamk_plan_json(&args, &options, "no_such_profile.json", NULL, 0, &needed);
  CHECK(s == STREAMK_NOT_FOUND && strstr(streamk_last_error(), "no_such_profile.json") != NULL,
        "missing profile gave %d: %s", (int)s, streamk_last_error());
  s = streamk_use_device_profile("no_such_profile.json", -1);
  CHECK(s == STREAMK_NOT_FOUND && strstr(streamk_last_error(), "cannot read") != NULL,
        "use of a missing profile gave %d: %s", (int)s, streamk_last_error());
  /* A profile of one configuration plans under its own name; a bad one names its key. */
  const char* path = "streamk_c_api_test_profile.json";
  FILE* f = fopen(path, "w");
  CHECK(f != NULL, "cannot write %s", path);
  if (f != NULL) {
    fputs("{\"format\": \"streamk-device-profile\", \"version\": 1, \"name\": \"c-test\",\n"
          " \"sms\": 66, \"occupancy\": 1, \"mainloop\": \"sm90-tma\", \"configurations\":\n"
          " {\"main\": {\"tile\": [128, 256, 64], \"cost\": {\"iter_us\": 0.3, \"unit_us\": 2,\n"
          "  \"epilogue_us\": 1, \"partial_us\": 3, \"peer_us\": 0.5}}}}\n",
          f);
    fclose(f);
    s = streamk_plan_json(&args, &options, path, json, (size_t)1 << 20, NULL);
    CHECK(s == STREAMK_OK && strstr(json, "\"device\":\"c-test\"") != NULL,
          "plan with a profile gave %d: %s %.200s", (int)s, streamk_last_error(), json);
    f = fopen(path, "w");
    if (f != NULL) {
      fputs("{\"format\": \"streamk-device-profile\", \"version\": 1, \"sms\": 0}", f);
      fclose(f);
    }
    s = streamk_plan_json(&args, &options, path, json, (size_t)1 << 20, NULL);
    CHECK(s == STREAMK_INVALID_ARGUMENT && strstr(streamk_last_error(), "sms") != NULL,
          "a bad profile gave %d: %s", (int)s, streamk_last_error());
    remove(path);
  }

  /* The kernel's choices: printed, overridden, and refused where the plan cannot take them. */
  needed = 1 << 16;
  json = (char*)realloc(json, needed);
  CHECK(json != NULL, "realloc");
  streamk_options_init(&options);
  InitShape(&args, 5120, 2560, 1024);
  s = streamk_plan_json(&args, &options, "h200", json, needed, NULL);
  CHECK(s == STREAMK_OK && strstr(json, "\"mainloop\":\"sm90-tma\",\"pingpong\":true") != NULL,
        "ping-pong plan gave %d: %.300s", (int)s, json);
  options.pingpong = STREAMK_TOGGLE_OFF;
  options.full_width_wgmma = 1;
  s = streamk_plan_json(&args, &options, "h200", json, needed, NULL);
  CHECK(s == STREAMK_OK &&
            strstr(json, "\"pingpong\":false,\"narrow_wgmma\":false,\"store_d\":\"tma\"") !=
                NULL,
        "ping-pong off gave %d: %.300s", (int)s, json);
  streamk_options_init(&options);
  options.store_d = STREAMK_STORE_D_ROWS_WARP;
  args.output = STREAMK_F32;
  s = streamk_plan_json(&args, &options, "h200", json, needed, NULL);
  CHECK(s == STREAMK_INVALID_ARGUMENT && strstr(streamk_last_error(), "store_d = rows-warp") != NULL,
        "rows-warp for fp32 D gave %d: %s", (int)s, streamk_last_error());
  args.output = STREAMK_F16;
  streamk_options_init(&options);
  options.mainloop = STREAMK_MAINLOOP_SM80;
  s = streamk_plan_json(&args, &options, "h200", json, needed, NULL);
  CHECK(s == STREAMK_INVALID_ARGUMENT && strstr(streamk_last_error(), "mainloop = sm80") != NULL,
        "sm80 on the h200 model gave %d: %s", (int)s, streamk_last_error());
  s = streamk_plan_json(&args, &options, "a100", json, needed, NULL);
  CHECK(s == STREAMK_OK && strstr(json, "\"mainloop\":\"sm80\"") != NULL,
        "sm80 on the a100 model gave %d: %.300s", (int)s, json);
  options.mainloop = (streamk_mainloop)9;
  s = streamk_plan_json(&args, &options, "h200", NULL, 0, &needed);
  CHECK(s == STREAMK_INVALID_ARGUMENT && strstr(streamk_last_error(), "mainloop = 9") != NULL,
        "mainloop 9 gave %d: %s", (int)s, streamk_last_error());
  InitShape(&args, 1536, 1536, 4096);

  s = streamk_plan_json(&args, NULL, "v100", NULL, 0, &needed);
  CHECK(s == STREAMK_INVALID_ARGUMENT && strstr(streamk_last_error(), "v100") != NULL,
        "unknown device gave %d: %s", (int)s, streamk_last_error());
  free(json);
}

/* fp16 <-> float on the host, without any C++ or CUDA header type. */
static uint16_t ToHalf(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exp = (int32_t)((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffffu;
  if (exp <= 0) return (uint16_t)sign; /* the test's values never underflow */
  mant += 0x1000u;                     /* round to nearest */
  if (mant & 0x800000u) mant = 0, ++exp;
  return (uint16_t)(sign | ((uint32_t)exp << 10) | (mant >> 13));
}

static float FromHalf(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  const int32_t exp = (h >> 10) & 0x1f;
  const uint32_t mant = h & 0x3ffu;
  uint32_t x = sign;
  if (exp == 0 && mant == 0) {
  } else if (exp == 0) {
    float f = ldexpf((float)mant, -24);
    return sign ? -f : f;
  } else {
    x |= ((uint32_t)(exp - 15 + 127) << 23) | (mant << 13);
  }
  float f;
  memcpy(&f, &x, 4);
  return f;
}

static void TestGemmOnGpu(void) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    streamk_gemm_args args;
    InitShape(&args, 128, 128, 128);
    size_t bytes = 0;
    const streamk_status s = streamk_workspace_size(&args, NULL, &bytes);
    CHECK(s == STREAMK_FAILED_PRECONDITION && strstr(streamk_last_error(), "no CUDA device"),
          "without a GPU gave %d: %s", (int)s, streamk_last_error());
    printf("c_api: no CUDA device: the GEMM on the GPU skipped\n");
    return;
  }
  const int m = 300, n = 200, k = 520;
  uint16_t* ha = (uint16_t*)malloc(sizeof(uint16_t) * m * k);
  uint16_t* hb = (uint16_t*)malloc(sizeof(uint16_t) * k * n);
  uint16_t* hd = (uint16_t*)malloc(sizeof(uint16_t) * m * n);
  srand(7);
  for (int i = 0; i < m * k; ++i) ha[i] = ToHalf((float)(rand() % 17 - 8) / 8.0f);
  for (int i = 0; i < k * n; ++i) hb[i] = ToHalf((float)(rand() % 17 - 8) / 8.0f);
  void *da = NULL, *db = NULL, *dd = NULL, *ws = NULL;
  cudaMalloc(&da, sizeof(uint16_t) * m * k);
  cudaMalloc(&db, sizeof(uint16_t) * k * n);
  cudaMalloc(&dd, sizeof(uint16_t) * m * n);
  cudaMemcpy(da, ha, sizeof(uint16_t) * m * k, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, sizeof(uint16_t) * k * n, cudaMemcpyHostToDevice);

  const streamk_mode modes[] = {STREAMK_MODE_AUTO, STREAMK_MODE_DATA_PARALLEL,
                                STREAMK_MODE_SPLIT_K, STREAMK_MODE_STREAM_K};
  for (int mi = 0; mi < 4; ++mi) {
    for (int own = 0; own < 2; ++own) {
      streamk_gemm_args args;
      streamk_options options;
      streamk_gemm_args_init(&args);
      streamk_options_init(&options);
      options.mode = modes[mi];
      args.m = m, args.n = n, args.k = k;
      args.a = da, args.lda = k;
      args.b = db, args.ldb = k;
      args.d = dd, args.ldd = n;
      cudaMemset(dd, 0xff, sizeof(uint16_t) * m * n); /* NaN */
      streamk_status s;
      if (own) {
        size_t bytes = 0;
        s = streamk_workspace_size(&args, &options, &bytes);
        CHECK(s == STREAMK_OK, "workspace size: %s", streamk_last_error());
        if (bytes > 0) {
          cudaMalloc(&ws, bytes);
          cudaMemset(ws, 0, bytes);
        }
        s = streamk_gemm_with_workspace(&args, &options, ws, bytes, NULL);
      } else {
        s = streamk_gemm(&args, &options, NULL);
      }
      CHECK(s == STREAMK_OK, "mode %d, own workspace %d: %s", (int)modes[mi], own,
            streamk_last_error());
      CHECK(cudaDeviceSynchronize() == cudaSuccess, "kernel failed");
      cudaMemcpy(hd, dd, sizeof(uint16_t) * m * n, cudaMemcpyDeviceToHost);
      if (ws != NULL) cudaFree(ws), ws = NULL;
      int bad = 0;
      for (int i = 0; i < m && bad < 3; ++i) {
        for (int j = 0; j < n && bad < 3; ++j) {
          double ref = 0;
          for (int p = 0; p < k; ++p) ref += FromHalf(ha[i * k + p]) * FromHalf(hb[j * k + p]);
          const double got = FromHalf(hd[i * n + j]);
          if (!(fabs(got - ref) <= 1e-2 * fabs(ref) + 0.05)) {
            ++bad;
            fprintf(stderr, "mode %d: D[%d][%d] = %g, expected %g\n", (int)modes[mi], i, j,
                    got, ref);
          }
        }
      }
      CHECK(bad == 0, "mode %d, own workspace %d: wrong results", (int)modes[mi], own);
    }
  }
  CHECK(streamk_release_workspaces() == STREAMK_OK, "release: %s", streamk_last_error());
  cudaFree(da), cudaFree(db), cudaFree(dd);
  free(ha), free(hb), free(hd);
}

int main(void) {
  TestDefaultsAndVersion();
  TestErrors();
  TestGroupedRejectsBadArguments();
  TestPlanJson();
  TestGemmOnGpu();
  printf("c_api: %d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
