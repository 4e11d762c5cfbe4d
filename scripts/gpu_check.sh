#!/usr/bin/env bash
# Runs the GPU checks from a bundle made by ../shared/scripts/gpu-bundle (see docs/gpu-testing.md):
#   scripts/gpu_check.sh BUNDLE_DIR OUT_DIR
# Logs: OUT_DIR/env.log, plan.log, gpu_tests.log (GoogleTest), sanitizer.log (compute-sanitizer
# memcheck on the small shapes in every mode, where compute-sanitizer is installed).
set -uo pipefail
bundle=$1 out=$2
mkdir -p "$out"
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version 2>/dev/null | tail -1
} > "$out/env.log" 2>&1
cat "$out/env.log"
"$bundle/run" streamk-plan 4096 4096 4096 --device auto > "$out/plan.log" 2>&1
head -3 "$out/plan.log"
# Each gtest chunk under its own timeout, so a hang names itself instead of eating the call.
status=0
for filter in 'WorkMappingDevice*:Mainloop*' 'GemmGpu.Kernel*:GemmGpu.Small*:GemmGpu.Every*:GemmGpu.Partial*:GemmGpu.Edge*' \
              'GemmGpu.Output*:GemmGpu.Epilogue*:GemmGpu.Single*:GemmGpu.Thousands*:GemmGpu.Batched*:GemmGpu.Forced*' \
              'GemmGpu.Deterministic*:GemmGpu.CudaGraph*:GemmGpu.Chained*:GemmGpu.TwoStreams*:GemmGpu.RunsWhile*:GemmGpu.Trace*:GemmGpu.Hopper*:GemmGpu.Repacked*:GemmGpu.AnyLeading*:GemmGpu.RowCopies*:GemmGpu.WorkspaceCap*:GemmGpu.ShortLived*' \
              'GemmGpu.Cluster*:GemmGpu.MidTile*:GemmGpu.WideTile*:GemmGpu.BroadTile*' \
              'GemmGpu.FifthTile*:GemmGpu.StreamKBlocks*:GemmGpu.PingPong*:GemmGpu.Narrow*' 'GemmGpu.Dynamic*:GemmGpu.DeviceProfile*' \
              'GemmGpu.Random*' 'GroupedGemmGpu.*'; do
  t0=$SECONDS
  timeout ${GPU_TEST_TIMEOUT:-180} "$bundle/run" streamk_gpu_tests --gtest_filter="$filter" \
    >> "$out/gpu_tests.log" 2>&1
  rc=$?
  echo "chunk '$filter': exit $rc in $((SECONDS - t0)) s" | tee -a "$out/gpu_tests.log"
  [[ $rc -ne 0 ]] && status=1
done
# The portable mma.sync kernel under the same persistent kernel, on this GPU too.
t0=$SECONDS
STREAMK_TEST_MAINLOOP=sm80 timeout ${GPU_TEST_TIMEOUT:-180} "$bundle/run" streamk_gpu_tests \
  --gtest_filter='GemmGpu.Every*:GemmGpu.Small*:GemmGpu.Output*:GemmGpu.Epilogue*:GemmGpu.Deterministic*:GemmGpu.Hopper*:GemmGpu.PartialWave*:GemmGpu.Repacked*:GemmGpu.NarrowMn*:GemmGpu.AnyLeading*:GemmGpu.RowCopies*:GemmGpu.Chained*:GemmGpu.Edge*:GemmGpu.Random*:GroupedGemmGpu.Random*' \
  >> "$out/gpu_tests.log" 2>&1
rc=$?
echo "chunk 'STREAMK_TEST_MAINLOOP=sm80 GemmGpu.*': exit $rc in $((SECONDS - t0)) s" | tee -a "$out/gpu_tests.log"
[[ $rc -ne 0 ]] && status=1
# On Hopper, the wgmma kernel fed by cp.async (the TMA kernel's fallback) too.
t0=$SECONDS
STREAMK_TEST_MAINLOOP=sm90-cpasync timeout ${GPU_TEST_TIMEOUT:-180} "$bundle/run" streamk_gpu_tests \
  --gtest_filter='GemmGpu.Every*:GemmGpu.Small*:GemmGpu.Batched*:GemmGpu.Hopper*:GemmGpu.PartialWave*:GemmGpu.Repacked*:GemmGpu.AnyLeading*:GemmGpu.RowCopies*:GemmGpu.Edge*:GemmGpu.Random*:GroupedGemmGpu.Random*' \
  >> "$out/gpu_tests.log" 2>&1
rc=$?
echo "chunk 'STREAMK_TEST_MAINLOOP=sm90-cpasync GemmGpu.*': exit $rc in $((SECONDS - t0)) s" | tee -a "$out/gpu_tests.log"
[[ $rc -ne 0 ]] && status=1
# The C interface on the GPU, from a program compiled as C.
if [[ -x $bundle/streamk_c_api_test ]]; then
  timeout ${GPU_TEST_TIMEOUT:-180} "$bundle/run" streamk_c_api_test >> "$out/gpu_tests.log" 2>&1
  rc=$?
  echo "c_api: exit $rc" | tee -a "$out/gpu_tests.log"
  [[ $rc -ne 0 ]] && status=1
fi
grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests ran|Failure" "$out/gpu_tests.log" | head -40
if command -v compute-sanitizer >/dev/null; then
  t0=$SECONDS
  timeout ${GPU_TEST_TIMEOUT:-180} compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$bundle/run" streamk_gpu_tests --gtest_filter='GemmGpu.SmallShapesEveryMode*:GemmGpu.DynamicScheduleGraphReplay*:GroupedGemmGpu.Small*' \
    > "$out/sanitizer.log" 2>&1
  rc=$?
  echo "memcheck 'GemmGpu.SmallShapesEveryMode*:GemmGpu.DynamicScheduleGraphReplay*:GroupedGemmGpu.Small*': exit $rc in $((SECONDS - t0)) s"
  tail -3 "$out/sanitizer.log"
  [[ $rc -ne 0 ]] && status=1
fi
exit $status
