/* streamk's C interface: plain structs and functions over streamk::gemm() for C programs and for
 * other languages' bindings (ctypes, cffi, Rust, Julia). No C++ or Abseil type crosses it.
 *
 *   streamk_gemm_args args;
 *   streamk_gemm_args_init(&args);            // defaults: fp16, row-major A, col-major B and D
 *   args.m = 4096; args.n = 4096; args.k = 4096;
 *   args.a = dA; args.lda = 4096;
 *   args.b = dB; args.ldb = 4096;
 *   args.d = dD; args.ldd = 4096;
 *   if (streamk_gemm(&args, NULL, stream) != STREAMK_OK)   // NULL options: auto
 *     fprintf(stderr, "%s\n", streamk_last_error());
 *
 * Every function returns a streamk_status; on failure streamk_last_error() says which argument
 * broke which rule (the calling thread's last failure; "" after a success). Pointers to device
 * memory are plain `void*`; a stream is a cudaStream_t passed as `void*` (NULL: the legacy
 * default stream). Structs are initialized by their *_init function so that fields added in later
 * versions get their defaults; `struct_size` lets the library tell which version a caller was
 * built against. */
#ifndef STREAMK_STREAMK_C_H_
#define STREAMK_STREAMK_C_H_

#include <stddef.h>
#include <stdint.h>

#include "streamk/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The codes of absl::StatusCode that streamk returns. */
typedef enum streamk_status {
  STREAMK_OK = 0,
  STREAMK_INVALID_ARGUMENT = 3,
  STREAMK_NOT_FOUND = 5, /* e.g. a device profile's file that cannot be read */
  STREAMK_RESOURCE_EXHAUSTED = 8,
  STREAMK_FAILED_PRECONDITION = 9, /* e.g. no CUDA device */
  STREAMK_INTERNAL = 13,           /* a CUDA error; the text names it */
  STREAMK_UNAVAILABLE = 14,
  STREAMK_UNKNOWN = 2,
} streamk_status;

typedef enum streamk_dtype { STREAMK_F16 = 0, STREAMK_BF16 = 1, STREAMK_F32 = 2 } streamk_dtype;
typedef enum streamk_layout { STREAMK_ROW_MAJOR = 0, STREAMK_COL_MAJOR = 1 } streamk_layout;
typedef enum streamk_mode {
  STREAMK_MODE_AUTO = 0,
  STREAMK_MODE_DATA_PARALLEL = 1,
  STREAMK_MODE_SPLIT_K = 2,
  STREAMK_MODE_STREAM_K = 3,
} streamk_mode;
typedef enum streamk_reduction {
  STREAMK_REDUCTION_DEFAULT = -1, /* deterministic; the planner picks which */
  STREAMK_REDUCTION_DETERMINISTIC = 0,
  STREAMK_REDUCTION_ATOMIC = 1,
  STREAMK_REDUCTION_SEPARATE = 2,
} streamk_reduction;
typedef enum streamk_schedule {
  STREAMK_SCHEDULE_AUTO = -1,   /* dynamic where blocks wait on each other or run several
                                   tiles (no clusters); see Options::schedule */
  STREAMK_SCHEDULE_STATIC = 0,  /* block b runs work blocks b, b + grid, ... */
  STREAMK_SCHEDULE_DYNAMIC = 1, /* blocks take work from a counter; see Options::schedule */
} streamk_schedule;

/* The kernel's own choices (streamk::Options::mainloop, pingpong, store_d); 0: the planner's. */
typedef enum streamk_mainloop {
  STREAMK_MAINLOOP_AUTO = 0,         /* the best the GPU runs */
  STREAMK_MAINLOOP_SM80 = 1,         /* mma.sync fed by cp.async */
  STREAMK_MAINLOOP_SM90_CPASYNC = 2, /* wgmma fed by cp.async */
  STREAMK_MAINLOOP_SM90_TMA = 3,     /* wgmma fed by TMA */
} streamk_mainloop;
typedef enum streamk_toggle {
  STREAMK_TOGGLE_AUTO = 0,
  STREAMK_TOGGLE_ON = 1,
  STREAMK_TOGGLE_OFF = 2,
} streamk_toggle;
typedef enum streamk_store_d {
  STREAMK_STORE_D_AUTO = 0,
  STREAMK_STORE_D_THREADS = 1,   /* the epilogue's threads */
  STREAMK_STORE_D_TMA = 2,       /* TMA stores of D as a tensor */
  STREAMK_STORE_D_ROWS = 3,      /* bulk copies of D's rows, by the compute warps */
  STREAMK_STORE_D_ROWS_WARP = 4, /* the same, by the producer's copying warp */
} streamk_store_d;

/* D[b] = alpha * A[b] * B[b] + beta * C[b], as streamk::GemmArgs (streamk.h). */
typedef struct streamk_gemm_args {
  size_t struct_size; /* sizeof(streamk_gemm_args), set by streamk_gemm_args_init */
  int64_t m, n, k, batch;
  streamk_dtype input;  /* A and B: fp16 or bf16 */
  streamk_dtype output; /* C and D: fp16, bf16 or fp32 */
  const void* a;
  streamk_layout a_layout;
  int64_t lda, stride_a;
  const void* b;
  streamk_layout b_layout;
  int64_t ldb, stride_b;
  const void* c; /* read only when beta != 0; may equal d */
  int64_t ldc, stride_c;
  void* d;
  int64_t ldd, stride_d;
  streamk_layout cd_layout;
  float alpha, beta;
} streamk_gemm_args;

/* What to run, as streamk::Options (streamk.h). Zero in a count means "the planner picks". */
typedef struct streamk_options {
  size_t struct_size; /* sizeof(streamk_options), set by streamk_options_init */
  streamk_mode mode;
  int splits;    /* split-K: k-slices per tile */
  int blocks;    /* Stream-K: blocks */
  int sk_tiles;  /* Stream-K: tiles streamed, the rest data-parallel (0: all) */
  streamk_reduction reduction;
  int reduction_slices;
  int avail_sms;           /* SMs to balance over (0: all) */
  int tile_m, tile_n, tile_k; /* a kernel configuration of the device; 0, 0, 0: the planner's */
  /* Bytes of library workspace a call may use (0: no cap); see Options::max_workspace_bytes. */
  size_t max_workspace_bytes;
  streamk_schedule schedule;
  streamk_mainloop mainloop;
  streamk_toggle pingpong; /* the TMA kernel's 128x128 ping-pong variant */
  int full_width_wgmma;    /* nonzero: Options::narrow_wgmma = false */
  streamk_store_d store_d;
} streamk_options;

/* Sets every field to its default (auto mode, fp16, batch 1, alpha 1, beta 0, row-major A,
 * column-major B, row-major C and D). */
void streamk_gemm_args_init(streamk_gemm_args* args);
void streamk_options_init(streamk_options* options);

/* Runs the GEMM on `stream` with a library-owned workspace. options may be NULL (auto). */
streamk_status streamk_gemm(const streamk_gemm_args* args, const streamk_options* options,
                            void* stream);

/* Runs the GEMM with a caller-owned workspace of `workspace_bytes` (at least
 * streamk_workspace_size's, 256-byte aligned, zeroed once before its first use); safe to capture
 * in a CUDA graph. */
streamk_status streamk_gemm_with_workspace(const streamk_gemm_args* args,
                                           const streamk_options* options, void* workspace,
                                           size_t workspace_bytes, void* stream);

/* Bytes of workspace streamk_gemm_with_workspace needs on the current device. */
streamk_status streamk_workspace_size(const streamk_gemm_args* args,
                                      const streamk_options* options, size_t* bytes);

/* The plan as a JSON object (the planner's candidates, predictions and reason included), as
 * `streamk-plan --json` prints it. `device`: NULL for the current GPU, "h200", "h100" or
 * "a100" for a built-in model, or a device profile's file, a name ending in ".json" (no GPU
 * needed; pointers in args may then be any non-null value of the right alignment). Writes at
 * most `capacity` bytes, NUL included, into `json` (which may be NULL when capacity is 0) and the
 * bytes needed, NUL included, into *needed (may be NULL): call once with json NULL and capacity
 * 0 to size the buffer. Returns
 * STREAMK_RESOURCE_EXHAUSTED, with nothing written to json, when capacity is too small. */
streamk_status streamk_plan_json(const streamk_gemm_args* args, const streamk_options* options,
                                 const char* device, char* json, size_t capacity, size_t* needed);

/* A grouped GEMM in the contiguous (mixture-of-experts) layout, as streamk::GroupedGemmArgs
 * (streamk.h): group g multiplies rows [group_ends[g - 1], group_ends[g]) of A (row-major, the
 * groups' rows stacked) by its own k x n matrix B_g = b + g * stride_b, into the same rows of D
 * (row-major). group_ends is a host array of `groups` non-decreasing entries. */
typedef struct streamk_grouped_gemm_args {
  size_t struct_size; /* sizeof(streamk_grouped_gemm_args), set by its _init */
  int64_t groups;
  const int64_t* group_ends;
  int64_t n, k;
  streamk_dtype input;  /* A and B: fp16 or bf16 */
  streamk_dtype output; /* C and D: fp16, bf16 or fp32 */
  const void* a;
  int64_t lda;
  const void* b;
  streamk_layout b_layout; /* each B_g: row-major k x n, or column-major (stored n x k) */
  int64_t ldb, stride_b;
  const void* c; /* read only when beta != 0; may equal d */
  int64_t ldc;
  void* d;
  int64_t ldd;
  float alpha, beta;
  /* Group ends on the device instead (int32; group_ends NULL): the plan is made for max_rows
   * rows, and each launch reads the ends then (GroupedGemmArgs::device_group_ends); D's rows
   * past the last end get beta * C. */
  const int32_t* device_group_ends;
  int64_t max_rows;
} streamk_grouped_gemm_args;

/* Defaults: fp16, column-major B, alpha 1, beta 0, no groups. */
void streamk_grouped_gemm_args_init(streamk_grouped_gemm_args* args);

/* Runs the grouped GEMM on `stream` with a library-owned workspace (options may be NULL), or with
 * a caller-owned one (streamk_grouped_workspace_size's bytes at least, zeroed once; safe to
 * capture in a CUDA graph). */
streamk_status streamk_grouped_gemm(const streamk_grouped_gemm_args* args,
                                    const streamk_options* options, void* stream);
streamk_status streamk_grouped_gemm_with_workspace(const streamk_grouped_gemm_args* args,
                                                   const streamk_options* options, void* workspace,
                                                   size_t workspace_bytes, void* stream);
streamk_status streamk_grouped_workspace_size(const streamk_grouped_gemm_args* args,
                                              const streamk_options* options, size_t* bytes);

/* The grouped GEMM's plan as a JSON object, as streamk_plan_json gives a GEMM's (its "groups",
 * "groups_with_rows" and "tiles_m": the groups' own tile rows). */
streamk_status streamk_grouped_plan_json(const streamk_grouped_gemm_args* args,
                                         const streamk_options* options, const char* device,
                                         char* json, size_t capacity, size_t* needed);

/* Frees the library-owned workspaces of every device, waiting for each device's work first. */
streamk_status streamk_release_workspaces(void);

/* Plans every later call on CUDA device `device` (-1: the current one) with the device profile
 * in file `path` (streamk-bench --calibrate writes one for the GPU it runs on) instead of the
 * built-in model; `path` NULL goes back to the built-in model. STREAMK_NOT_FOUND for a file that
 * cannot be read, STREAMK_INVALID_ARGUMENT naming the key of a bad profile or the field the
 * device cannot run (UseDeviceProfile in streamk.h). */
streamk_status streamk_use_device_profile(const char* path, int device);

/* "0.1.0" */
const char* streamk_version(void);

/* The calling thread's last failure's message ("" if its last call succeeded). Valid until the
 * thread's next call into streamk. */
const char* streamk_last_error(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STREAMK_STREAMK_C_H_ */
