#!/usr/bin/env bash
# Magical Athlete against the Python simulator, paired: for each track (Mild, Wild) and
# racer count (4, 5), PAIRS pairs of one Python run then one Rust run (A B A B ...), the
# ratio of each pair (Rust races/s over Python races/s) and the median of those ratios.
# Prints `uptime` before and after. See docs/performance.md.
#
#   git clone https://github.com/jmvicke237/magical-athlete-simulator /tmp/jmv
#   benches/anchor/magical_athlete_paired.sh /tmp/jmv [PAIRS=5] [PYTHON_RACES=400] [RACERS="4 5"]
#
# The Rust side is the criterion bench `magical_athlete_race/<track>/<racers>` (random
# racers, default policies, quiet races), 1 s warm-up and 3 s of measurement per run,
# its median throughput taken.
set -euo pipefail

peer=${1:?usage: $0 PEER_DIR [PAIRS] [PYTHON_RACES] [RACERS]}
pairs=${2:-5}
n=${3:-400}
counts=${4:-4 5}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
peer=$(cd "$peer" && pwd)

cd "$root"
# BENCH_BIN: an already built bench binary (say, a copy from before a change) instead.
bin=${BENCH_BIN:-$(cargo bench --locked --bench magical_athlete --no-run 2>&1 |
    grep -o 'target/release/deps/magical_athlete-[0-9a-f]*' | head -n 1)}
[ -n "$bin" ] || { echo "could not build the bench" >&2; exit 1; }
case $bin in /*) ;; *) bin=$root/$bin ;; esac
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Criterion's median throughput in races/s: the middle of `thrpt: [lo mid hi]`.
rust_rate() {
    "$bin" --bench "^magical_athlete_race/$1/$2\$" --warm-up-time 1 \
        --measurement-time 3 --noplot 2>/dev/null |
        awk '/thrpt:/ { v = $4; u = $5; gsub(/\[/, "", v)
            m = (u ~ /^Kelem/) ? 1e3 : (u ~ /^Melem/) ? 1e6 : 1
            printf "%.0f\n", v * m; exit }'
}

py_rate() {
    (cd "$scratch" && python3 "$here/magical_athlete_python.py" "$peer" "$n" "$2" "$1" 2>/dev/null) |
        awk '/races\/s/ { print $(NF - 1); exit }'
}

echo "load before: $(uptime)"
printf '%-5s %-7s %-5s %12s %12s %8s\n' track racers pair python/s rust/s ratio
for racers in $counts; do
    for track in Mild Wild; do
        lower=$(echo "$track" | tr '[:upper:]' '[:lower:]')
        ratios=()
        for pair in $(seq 1 "$pairs"); do
            p=$(py_rate "$track" "$racers")
            r=$(rust_rate "$lower" "$racers")
            ratio=$(awk -v r="$r" -v p="$p" 'BEGIN { printf "%.1f", r / p }')
            ratios+=("$ratio")
            printf '%-5s %-7s %-5s %12s %12s %8s\n' "$track" "$racers" "$pair" "$p" "$r" "$ratio"
        done
        median=$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{ a[NR] = $1 }
            END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')
        echo "== $track, $racers racers: median ratio ${median}x"
    done
done
echo "load after: $(uptime)"
