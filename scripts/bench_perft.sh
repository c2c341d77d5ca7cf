#!/usr/bin/env bash
# Perft benchmark: kishi against the reference engines in the same run, one thread each.
# Prints node counts, wall-clock and CPU seconds. Needs `apt-get install fairy-stockfish stockfish`
# (skipped with a note when missing). Usage: scripts/bench_perft.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bin kishi >/dev/null
KISHI=target/release/kishi
quick=${1:-}
SD=6; MD=4; KD=5; CD=6
if [ "$quick" = "--quick" ]; then SD=5; MD=3; KD=4; CD=5; fi

# Wall-clock and user CPU seconds: on a shared machine the CPU time is the fairer figure.
run() { # label, command...
  local label=$1; shift
  local out times nodes
  out=$(mktemp)
  times=$( { TIMEFORMAT='%R %U'; time "$@" >"$out" 2>/dev/null; } 2>&1 )
  nodes=$(grep -Eo 'Nodes searched ?: ?[0-9]+' "$out" | grep -Eo '[0-9]+$' || true)
  rm -f "$out"
  printf '%-40s %12s nodes  wall %7.2f s  cpu %7.2f s\n' "$label" "${nodes:-?}" ${times}
}

MATSURI="l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"
KIWI="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

run "kishi shogi startpos $SD" $KISHI perft shogi startpos $SD
run "kishi shogi matsuri $MD" $KISHI perft shogi "$MATSURI" $MD
run "kishi chess startpos $CD" $KISHI perft chess startpos $CD
run "kishi chess kiwipete $KD" $KISHI perft chess "$KIWI" $KD
if [ -x /usr/games/fairy-stockfish ]; then
  run "fairy-stockfish shogi startpos $SD" sh -c "printf 'usi\nposition startpos\ngo perft $SD\nquit\n' | /usr/games/fairy-stockfish"
  run "fairy-stockfish shogi matsuri $MD" sh -c "printf 'usi\nposition sfen $MATSURI\ngo perft $MD\nquit\n' | /usr/games/fairy-stockfish"
else
  echo "fairy-stockfish not installed (apt-get install fairy-stockfish)"
fi
if [ -x /usr/games/stockfish ]; then
  run "stockfish chess startpos $CD" sh -c "printf 'position startpos\ngo perft $CD\nquit\n' | /usr/games/stockfish"
  run "stockfish chess kiwipete $KD" sh -c "printf 'position fen $KIWI\ngo perft $KD\nquit\n' | /usr/games/stockfish"
else
  echo "stockfish not installed (apt-get install stockfish)"
fi
