#!/usr/bin/env bash
# Session 14, run 47: the epilogue stores 16-bit D by TMA (beta == 0). Every GPU test (with the
# new EpilogueWritesOnlyDsEntries), the issue's waveq command, the waveq and llm sets with the build
# before it (1745691's, ../gpu-old) alternating, and traces of data-parallel and Stream-K plans on
# both builds (epilogue time per tile).
set -u
g=$(cd "$(dirname "$0")" && pwd); old=$g/../gpu-old; o=$OUT/r; mkdir -p $o/csv
export LD_LIBRARY_PATH="$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $o/gpu.txt
timeout 400 bash $g/gpu_check.sh $g $o/check > $o/check.txt 2>&1; echo "check exit $?"
grep -E "chunk|PASSED|FAILED" $o/check/gpu_tests.log | tail -14
timeout 90 $g/run streamk-bench --set waveq --modes auto,dp,splitk,cublas > $o/waveq-issue-command.txt 2>/dev/null
echo "issue command rc $?"; sed -n '/# summary/,$p' $o/waveq-issue-command.txt
R="--warmup 3 --reps 9 --inner 5"
for b in new old new old; do
  d=$g; [[ $b == old ]] && d=$old
  n=$(ls $o/csv | grep -c "^$b-waveq") || true
  timeout 120 $d/run streamk-bench --set waveq --modes auto,dp,streamk,cublas $R --csv $o/csv/$b-waveq$n.csv > /dev/null 2>&1; echo "$b waveq $n rc $?"
  timeout 120 $d/run streamk-bench --set llm --modes auto,dp,cublas $R --csv $o/csv/$b-llm$n.csv > /dev/null 2>&1; echo "$b llm $n rc $?"
done
for args in "2432 1792 1024 --mode dp" "3072 2944 1024 --mode dp" "1536 3072 4096" "2432 1792 1024 --mode streamk --sk_tiles tail --reduction separate"; do
  for b in new old; do
    d=$g; [[ $b == old ]] && d=$old
    echo "=== $b streamk-trace $args" >> $o/trace.txt
    timeout 30 $d/run streamk-trace $args >> $o/trace.txt 2>&1
  done
done
grep -E "^===|^untraced|^per block|^dp  " $o/trace.txt | head -60
cd $o && tar czf csv.tgz csv && tar czf check.tgz check && rm -rf csv check
