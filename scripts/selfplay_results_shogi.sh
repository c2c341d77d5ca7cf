#!/bin/bash
# Self-play + result regression generations (record-free shogi piece values; docs/learning/treestrap.md, session 75):
# gen k plays N games with W_k (kishi vs kishi, fixed nodes), learn texel --lambda 0 fits W_{k+1} to their results.
# usage (from the repository root): scripts/selfplay_results_shogi.sh PREFIX INIT NGAMES NODES GENS LR [TABLES]
set -e
if [ $# -lt 6 ]; then echo "usage: $0 PREFIX INIT NGAMES NODES GENS LR [TABLES]" >&2; exit 2; fi
P=$1; INIT=$2; N=$3; NODES=$4; GENS=$5; LR=$6; TABLES=${7:-material}
K=${KISHI:-./target/release/kishi}
W=$INIT
for k in $(seq 0 $((GENS-1))); do
  D=$P-g$k
  if [ ! -f $D/games/summary.json ]; then
    rm -rf $D/games
    python3 scripts/match.py --game shogi --games $N --concurrency 2 --engine1 $K --options1 "EvalFile=$(realpath "$W")" --engine2 $K --options2 "EvalFile=$(realpath "$W")" --tc1 nodes=$NODES --tc2 nodes=$((NODES+100)) --nodes $NODES --openings book/shogi_openings_977.sfen --seed $((k+1)) --out $D/games --no-progress --quiet
  fi
  # fit.done marks a finished fit (learn texel writes weights.kwt after every iteration).
  if [ ! -f $D/fit.done ]; then
    rm -rf $D/fit
    $K learn texel --game shogi --data $D/games/csa --out $D/fit --init $W --tables $TABLES --lambda 0 --iterations 8 --lr $LR --threads 2 --quiet > $D/fit.log 2>&1
    touch $D/fit.done
  fi
  W=$D/fit/weights.kwt
  echo "gen $k: $W"
done
