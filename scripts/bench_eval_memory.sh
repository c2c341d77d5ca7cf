#!/usr/bin/env bash
# Memory of engine processes sharing one mapped weight file: starts 1 and then 4
# `kishi weights hold FILE` processes (each maps the file as isready does and touches every page),
# and prints Rss and Pss (from /proc/PID/smaps_rollup) per process and summed.
#
# usage: scripts/bench_eval_memory.sh FILE [KISHI_BINARY]
# e.g.:  cargo build --release
#        target/release/kishi weights make-random shogi /tmp/shogi-full.kw --seed 1
#        scripts/bench_eval_memory.sh /tmp/shogi-full.kw
set -euo pipefail
FILE=${1:?usage: $0 FILE [KISHI_BINARY]}
KISHI=${2:-target/release/kishi}
TMP=$(mktemp -d)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$TMP"
}
trap cleanup EXIT

field() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/smaps_rollup"; }

measure() {
  local n=$1
  PIDS=()
  for i in $(seq 1 "$n"); do
    "$KISHI" weights hold "$FILE" 600 >"$TMP/out.$i" 2>&1 &
    PIDS+=($!)
  done
  # Wait until every process has touched the whole file.
  for i in $(seq 1 "$n"); do
    for _ in $(seq 1 600); do
      grep -q holding "$TMP/out.$i" 2>/dev/null && break
      sleep 0.1
    done
    grep -q holding "$TMP/out.$i" || { cat "$TMP/out.$i"; exit 1; }
  done
  local rss=0 pss=0
  for p in "${PIDS[@]}"; do
    local r s
    r=$(field "$p" Rss); s=$(field "$p" Pss)
    echo "  pid $p: Rss ${r} kB, Pss ${s} kB"
    rss=$((rss + r)); pss=$((pss + s))
  done
  echo "$n process(es): total Rss $((rss / 1024)) MiB, total Pss $((pss / 1024)) MiB"
  for p in "${PIDS[@]}"; do kill "$p"; wait "$p" 2>/dev/null || true; done
  PIDS=()
  LAST_PSS=$pss
}

echo "file: $FILE ($(stat -c %s "$FILE") bytes)"
measure 1
ONE=$LAST_PSS
measure 4
FOUR=$LAST_PSS
awk -v a="$ONE" -v b="$FOUR" 'BEGIN { printf "4 processes / 1 process (Pss): %.2fx\n", b / a }'
