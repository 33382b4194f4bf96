#!/bin/sh
# How the matmul kernels scale with cores: matmul_bench run once per worker count, every side
# given the same count (metalcpu: METALCPU_THREADS; OpenBLAS: openblas_set_num_threads, from the
# same variable; PoCL: POCL_MAX_PTHREAD_COUNT). Prints each run's table, then metalcpu's
# GFLOPS per kernel and count, and the speed-up from the first count to the last (issue 14's
# target: at least 12x from 1 to 16 cores). The 8x4 kernel's vector-lane row (matmul_bench's
# source says what it is) is swept with the kernels; where it printed no figure it is left out.
#
#   bench/thread_sweep.sh <build>/bench/matmul_bench [1,2,4,8,16] [matmul_bench options...]
set -eu
bench=${1:?usage: thread_sweep.sh <path to matmul_bench> [counts] [options]}
counts=${2:-1,2}
[ $# -ge 2 ] && shift 2 || shift 1
tables=$(mktemp)
trap 'rm -f "$tables"' EXIT
cd "$(dirname "$bench")" # matmul_bench loads default.metallib beside it
for n in $(echo "$counts" | tr ',' ' '); do
    echo "## $n worker threads"
    METALCPU_THREADS=$n POCL_MAX_PTHREAD_COUNT=$n "./$(basename "$bench")" "$@" | tee /dev/stderr |
        awk -v n="$n" -F'|' '/^\| mat_mul/ && $4 ~ /^ *[0-9.]+ *$/ { gsub(/ /, "", $2); gsub(/ /, "", $3); print n, $2, $3, $4 }' >>"$tables"
done 2>&1
echo
echo "metalcpu GFLOPS by worker threads:"
echo "| kernel | size |$(for n in $(echo "$counts" | tr ',' ' '); do printf ' %s threads |' "$n"; done) speed-up |"
echo "|---|---|$(for n in $(echo "$counts" | tr ',' ' '); do printf -- '---|'; done)---|"
awk '{ key = $2 " | " $3; if (!(key in first)) { order[++k] = key; first[key] = $4 } row[key] = row[key] " | " $4; last[key] = $4 }
     END { for (i = 1; i <= k; ++i) { key = order[i]; printf "| %s%s | %.1fx |\n", key, row[key], last[key] / first[key] } }' "$tables"
