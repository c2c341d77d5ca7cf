#!/usr/bin/env bash
# Regenerates every shipped weight file of eval_weights/ from ../shared/data, with the commands
# recorded in each file's provenance, then measures each against the weights it started from
# (ladder fast mode, 200 games at 5,000 nodes) and records that Elo in the provenance too.
#
#   bash scripts/train_shipped.sh            # everything (about 7 hours on 2 cores, most of it shogi e_ABCD)
#   bash scripts/train_shipped.sh chess-kp   # one file (chess-obj-j2 starts from chess-kp.kwt,
#                                            # chess-ext from chess-obj-j2.kwt,
#                                            # chess-ext-j2 from chess-ext.kwt,
#                                            # chess-texel-scaled from chess-ext-j2.kwt,
#                                            # chess-texel-kd from chess-ext-j2.kwt,
#                                            # chess-texel-more from chess-ext-j2.kwt,
#                                            # chess-texel-more2 from chess-ext-j2.kwt,
#                                            # chess-texel-shelter from chess-ext-j2.kwt,
#                                            # chess-texel-attack from chess-ext-j2.kwt,
#                                            # shogi-eABC from shogi-eAB.kwt, shogi-eABCD-148k
#                                            # from shogi-eABC.kwt.xz, shogi-eABCD-182k from
#                                            # shogi-eABCD-148k.kwt.xz, shogi-eABCD-240k from
#                                            # shogi-eABCD-182k.kwt.xz, shogi-eABCD-376k from
#                                            # shogi-eABCD-240k.kwt.xz, shogi-eABCD from
#                                            # shogi-eABCD-376k.kwt.xz; shogi-recordfree
#                                            # from data/selfplay's stored games alone)
#
# Runs go to $RUNS (default runs/shipped); a killed run resumes exactly (learn --resume), and a
# finished one is not run again. The thread count does not change the learned weights (the
# learner hands positions out in blocks and puts them back in order; tests/learn_mmto.rs).
# After it, rebuild: the built-in defaults are these files (include_bytes!), and
# tests/shipped_weights.rs checks that they are equal.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-runs/shipped}
THREADS=${THREADS:-2}
DATA=../shared/data
KISHI=target/release/kishi
cargo build --release --bin kishi
mkdir -p "$RUNS"

# learn_into NAME LEARN-ARGUMENTS...: one `kishi learn` run into $RUNS/NAME, resumed when killed,
# skipped when done
learn_into() {
  local out=$RUNS/$1
  shift
  if [ ! -f "$out/done" ]; then
    local resume=()
    [ -f "$out/checkpoint.bin" ] && resume=(--resume)
    "$KISHI" learn "$@" --threads "$THREADS" --quiet --out "$out" "${resume[@]}"
    touch "$out/done"
  fi
}

# train NAME LEARN-ARGUMENTS...: learns into $RUNS/NAME and ships its best.kwt as eval_weights/NAME.kwt
# (PICK=weights.kwt ships the final weights instead, when a match chose them over best.kwt)
train() {
  local name=$1 out=$RUNS/$1 pick=${PICK:-best.kwt}
  shift
  learn_into "$name" "$@"
  "$KISHI" weights annotate "$out/$pick" --out "eval_weights/$name.kwt" \
    --set "command=kishi learn $* --threads $THREADS --out $out" --set "shipped_as=eval_weights/$name.kwt"
}

# measure NAME GAME BASE-FILE [SUFFIX WHAT]: Elo of the shipped file against BASE-FILE, into its
# provenance (row ab-GAME-NAME-SUFFIX; SUFFIX "vs-start" and WHAT "the weights it started from"
# unless given: a file with no learned start is measured against a named reference instead)
measure() {
  local name=$1 game=$2 base=$3 suffix=${4:-vs-start} what=${5:-the weights it started from}
  python3 scripts/ladder.py ab --game "$game" --label "$name-$suffix" --nodes 5000 --games 200 \
    --new "EvalFile=eval_weights/$name.kwt" --base "EvalFile=$base"
  local elo
  elo=$(python3 - "$game" "$name" "$suffix" "$what" <<'EOF'
import json, sys
game, name, suffix, what = sys.argv[1:5]
row = f"docs/strength/rows/ab-{game}-{name}-{suffix}.json"
r = json.load(open(row))
print(json.dumps({"against": what + " (" + r["base"] + ")",
                  "games": r["games_played"], "wdl": [r["wins"], r["draws"], r["losses"]],
                  "elo": round(r["elo"], 1), "interval95": [round(r["elo_low"], 1), round(r["elo_high"], 1)],
                  "time_control": "nodes 5000", "row": row}))
EOF
)
  "$KISHI" weights annotate "eval_weights/$name.kwt" --out "eval_weights/$name.kwt" --set-json "elo=$elo"
}

# ship_xz NAME: replaces eval_weights/NAME.kwt by NAME.kwt.xz (atomically: a .tmp file renamed)
ship_xz() {
  xz -9e -T1 -c "eval_weights/$1.kwt" > "eval_weights/$1.kwt.xz.tmp"
  mv "eval_weights/$1.kwt.xz.tmp" "eval_weights/$1.kwt.xz"
  rm "eval_weights/$1.kwt"
}

targets=("$@")

# Chess: the KP table learned by MMTO on top of the hand-set material and positional terms
# (paper defaults, 300k positions of the 2400+ games, 2% of the games held out for best.kwt).
if [ ${#targets[@]} -eq 0 ] || [[ " ${targets[*]} " == *" chess-kp "* ]]; then
  train chess-kp mmto --game chess --split $DATA/chess/chess_gm2400_train.txt.xz \
    --test-fraction 0.02 --max-positions 300000 --max-test 10000 --tables B \
    --iterations 6 --patience 2
  measure chess-kp chess "$RUNS/chess-kp/initial.kwt"
fi

# Chess: every table (material, KP, positional) learned from chess-kp.kwt by MMTO's update on the
# win-probability objective alone (issue 14, docs/learning/objective.md; 40k positions, an L1
# scaled to that size). The built-in chess default; measured against chess-kp.kwt.
if [ ${#targets[@]} -eq 0 ] || [[ " ${targets[*]} " == *" chess-obj-j2 "* ]]; then
  train chess-obj-j2 mmto --game chess --split $DATA/chess/chess_gm2400_train.txt.xz \
    --test-fraction 0.02 --max-positions 40000 --max-test 5000 --init eval_weights/chess-kp.kwt \
    --tables material,kp,positional --iterations 4 --reuse 8 --l1 0.00065 \
    --objective-params docs/learning/objective/j2.txt
  measure chess-obj-j2 chess eval_weights/chess-kp.kwt
fi

# Chess: chess-obj-j2.kwt plus the hand-set extended terms (table positional_ext: threats,
# passed-pawn detail, pawn chains, outposts, king danger; src/chess/features/defaults.rs), made
# by `weights add-defaults`; measured against chess-obj-j2.kwt. The start of chess-ext-j2.
if [ ${#targets[@]} -eq 0 ] || [[ " ${targets[*]} " == *" chess-ext "* ]]; then
  "$KISHI" weights add-defaults eval_weights/chess-obj-j2.kwt --out eval_weights/chess-ext.kwt
  "$KISHI" weights annotate eval_weights/chess-ext.kwt --out eval_weights/chess-ext.kwt \
    --set "command=kishi weights add-defaults eval_weights/chess-obj-j2.kwt --out eval_weights/chess-ext.kwt" \
    --set "shipped_as=eval_weights/chess-ext.kwt"
  measure chess-ext chess eval_weights/chess-obj-j2.kwt
fi

# Chess: the positional and extended tables of chess-ext.kwt learned by MMTO's update on the
# win-probability objective alone (grid step 16 = 1/2 cp, 4 iterations; material and KP fixed);
# the final weights (test agreement falls while J2 and the play improve: docs/learning/objective.md).
# The built-in chess default; measured against chess-ext.kwt.
if [ ${#targets[@]} -eq 0 ] || [[ " ${targets[*]} " == *" chess-ext-j2 "* ]]; then
  PICK=weights.kwt train chess-ext-j2 mmto --game chess --split $DATA/chess/chess_gm2400_train.txt.xz \
    --test-fraction 0.02 --max-positions 40000 --max-test 5000 --init eval_weights/chess-ext.kwt \
    --tables positional,positional_ext --iterations 4 --reuse 8 --step 16 --l1 0.00065 \
    --objective-params docs/learning/objective/j2.txt
  measure chess-ext-j2 chess eval_weights/chess-ext.kwt
fi

# Chess: every table of chess-ext-j2.kwt learned by `learn texel` (regression on Stockfish 15.1's
# scores of positions of the 2400+ games, data/chess/README.md; quiet positions only, Stockfish's
# scores x1.5, L2 towards the start; docs/learning/texel.md), with the features as they are since
# the endgame scale factor (src/chess/features/scale.rs): the final weights, which were measured.
# Measured against chess-ext-j2.kwt. It was learned before the king_danger table existed: the
# tables named here are the ones it learned (a zero king_danger table adds exactly nothing), so
# this reproduces its tables, checksums equal (checked on 2026-11-29; the file has no
# king_danger table, as the shipped one).
# (eval_weights/chess-texel.kwt, the default before it, came from the same command before the
# scale factor, commit c8071e0; the chess files above it, too, were learned without the factor,
# so running their targets today gives other weights.)
if [ ${#targets[@]} -eq 0 ] || [[ " ${targets[*]} " == *" chess-texel-scaled "* ]]; then
  PICK=weights.kwt train chess-texel-scaled texel --game chess \
    --data "$(ls data/chess/labels-sf3k-[0-9]*.epd.xz | paste -sd, -)" \
    --test data/chess/labels-sf3k-test.epd.xz --init eval_weights/chess-ext-j2.kwt --quiet-only \
    --teacher-scale 1.5 --lr 4 --l2 3e-11 --iterations 10 --epochs 4 --batch 4096 \
    --tables material,kp,positional,positional_ext
  measure chess-texel-scaled chess eval_weights/chess-ext-j2.kwt
fi
# Chess: the same command with the king_danger table (src/chess/features/terms.rs) learned too,
# from zero; measured against chess-ext-j2.kwt. The built-in chess default until the next block's
# file; its tables are named since positional_more exists, so that it still makes this file.
if [ ${#targets[@]} -eq 0 ] || [[ " ${targets[*]} " == *" chess-texel-kd "* ]]; then
  PICK=weights.kwt train chess-texel-kd texel --game chess \
    --data "$(ls data/chess/labels-sf3k-[0-9]*.epd.xz | paste -sd, -)" \
    --test data/chess/labels-sf3k-test.epd.xz --init eval_weights/chess-ext-j2.kwt --quiet-only \
    --teacher-scale 1.5 --lr 4 --l2 3e-11 --iterations 10 --epochs 4 --batch 4096 \
    --tables material,kp,positional,positional_ext,king_danger
  measure chess-texel-kd chess eval_weights/chess-ext-j2.kwt
fi
# Chess: the same command with the positional_more table (Stockfish 11's space, threats, trapped
# rook, king protectors, long diagonal, x-rays, rook on the queen's file, king-flank attacks and
# pawnless flank; src/chess/features/more.rs) learned too, from zero; its tables named since
# positional_more2 exists, so that it still makes this file.
if [ ${#targets[@]} -eq 0 ] || [[ " ${targets[*]} " == *" chess-texel-more "* ]]; then
  PICK=weights.kwt train chess-texel-more texel --game chess \
    --data "$(ls data/chess/labels-sf3k-[0-9]*.epd.xz | paste -sd, -)" \
    --test data/chess/labels-sf3k-test.epd.xz --init eval_weights/chess-ext-j2.kwt --quiet-only \
    --teacher-scale 1.5 --lr 4 --l2 3e-11 --iterations 10 --epochs 4 --batch 4096 \
    --tables material,kp,positional,positional_ext,king_danger,positional_more
  measure chess-texel-more chess eval_weights/chess-ext-j2.kwt
fi
# Chess: the same command with the positional_more2 table too (connected pawns by rank, weak
# unopposed pawns, king-pawn distance, pins, a weak queen, threats to the queen, passed pawns'
# files, reachable outposts, queen infiltration, rooks behind passed pawns), from zero. The
# built-in chess default before chess-texel-shelter. Its tables are named so that it still makes
# this file when a table is added.
if [ ${#targets[@]} -eq 0 ] || [[ " ${targets[*]} " == *" chess-texel-more2 "* ]]; then
  PICK=weights.kwt train chess-texel-more2 texel --game chess \
    --data "$(ls data/chess/labels-sf3k-[0-9]*.epd.xz | paste -sd, -)" \
    --test data/chess/labels-sf3k-test.epd.xz --init eval_weights/chess-ext-j2.kwt --quiet-only \
    --teacher-scale 1.5 --lr 4 --l2 3e-11 --iterations 10 --epochs 4 --batch 4096 \
    --tables material,kp,positional,positional_ext,king_danger,positional_more,positional_more2
  measure chess-texel-more2 chess eval_weights/chess-ext-j2.kwt
fi
# Chess: the same command with the king_shelter table too (Stockfish 11's shelter and storm by
# file and rank, one-hot; src/chess/features/shelter.rs), from zero. The built-in chess default.
if [ ${#targets[@]} -eq 0 ] || [[ " ${targets[*]} " == *" chess-texel-shelter "* ]]; then
  PICK=weights.kwt train chess-texel-shelter texel --game chess \
    --data "$(ls data/chess/labels-sf3k-[0-9]*.epd.xz | paste -sd, -)" \
    --test data/chess/labels-sf3k-test.epd.xz --init eval_weights/chess-ext-j2.kwt --quiet-only \
    --teacher-scale 1.5 --lr 4 --l2 3e-11 --iterations 10 --epochs 4 --batch 4096 \
    --tables material,kp,positional,positional_ext,king_danger,positional_more,positional_more2,king_shelter
  measure chess-texel-shelter chess eval_weights/chess-ext-j2.kwt
fi
# Chess: the same command with one more table learned from zero, every pairwise product of an
# attack on the king's components (`king_attack_pairs`, src/chess/features/kingpairs.rs), on the
# sf3k labels plus the labels of positions one or two random moves away from the games'
# (labels-rw2-sf3k, data/chess/README.md). The built-in chess default since session 79.
if [ ${#targets[@]} -eq 0 ] || [[ " ${targets[*]} " == *" chess-texel-attack "* ]]; then
  PICK=weights.kwt train chess-texel-attack texel --game chess \
    --data "$( (ls data/chess/labels-sf3k-[0-9]*.epd.xz; ls data/chess/labels-rw2-sf3k-[0-9]*.epd.xz) | paste -sd, -)" \
    --test data/chess/labels-sf3k-test.epd.xz --init eval_weights/chess-ext-j2.kwt --quiet-only \
    --teacher-scale 1.5 --lr 4 --l2 3e-11 --iterations 10 --epochs 4 --batch 4096 \
    --tables material,kp,positional,positional_ext,king_danger,positional_more,positional_more2,king_shelter,king_attack_pairs
  measure chess-texel-attack chess eval_weights/chess-ext-j2.kwt
fi

# Shogi: e_AB (material + KP) by MMTO from Bonanza 6's piece values, on the GPS book positions and
# self-play games (10% of the games held out for best.kwt).
if [ ${#targets[@]} -eq 0 ] || [[ " ${targets[*]} " == *" shogi-eAB "* ]]; then
  train shogi-eAB mmto --game shogi --data $DATA/shogi/gps_book_positions.txt.xz \
    --split $DATA/shogi/gps_selfplay_train.txt.xz --test-fraction 0.1 --tables A,B \
    --iterations 12 --patience 3
  measure shogi-eAB shogi "$RUNS/shogi-eAB/initial.kwt"
fi
# Shogi: e_ABC (material + KP + KKP) by MMTO from shogi-eAB.kwt, on the GPS book positions, the
# gpsusi-labelled positions of data/shogi/ (its README) and the self-play games; the final weights
# (after 4 updates), which a 400-game match chose over best.kwt (docs/learning/objective.md). The
# built-in shogi default, shipped xz-compressed (the KKP table is 9.5 MiB raw, ~90 KB packed).
if [ ${#targets[@]} -eq 0 ] || [[ " ${targets[*]} " == *" shogi-eABC "* ]]; then
  PICK=weights.kwt train shogi-eABC mmto --game shogi \
    --data $DATA/shogi/gps_book_positions.txt.xz,data/shogi/labels-gps4-001.txt.xz \
    --split $DATA/shogi/gps_selfplay_train.txt.xz --test-fraction 0.1 --tables A,B,C \
    --init eval_weights/shogi-eAB.kwt --iterations 4
  measure shogi-eABC shogi eval_weights/shogi-eAB.kwt
  ship_xz shogi-eABC
fi
# Shogi: e_ABCD, the full Bonanza evaluation (material + KP + KKP + KPP), by MMTO from
# shogi-eABC on the shogi data of 2026-11-27 morning: the GPS book positions, the first four
# gpsusi-labelled files of data/shogi (their -test files held out, split by game) and the GPS
# self-play games (10% held out); the final weights (after 4 updates). Shipped as the built-in
# shogi default from 868e9a1 to the next block's file; the start of that file. Shipped
# xz-compressed (the KPP table is 346 MiB raw, mostly zeros after L1: ~3 MB packed). About 46
# minutes and 12 GB of memory on 2 threads.
if [ ${#targets[@]} -eq 0 ] || [[ " ${targets[*]} " == *" shogi-eABCD-148k "* ]]; then
  xz -dc eval_weights/shogi-eABC.kwt.xz > "$RUNS/shogi-eABC-init.kwt"
  L=data/shogi
  PICK=weights.kwt train shogi-eABCD-148k mmto --game shogi \
    --data $DATA/shogi/gps_book_positions.txt.xz,$L/labels-gps4-001.txt.xz,$L/labels-gps4s2-001.txt.xz,$L/labels-gps4s3-001.txt.xz,$L/labels-gps4s4-001.txt.xz \
    --split $DATA/shogi/gps_selfplay_train.txt.xz --test-fraction 0.1 \
    --test $L/labels-gps4s2-test.txt.xz,$L/labels-gps4s3-test.txt.xz,$L/labels-gps4s4-test.txt.xz \
    --tables A,B,C,D --init "$RUNS/shogi-eABC-init.kwt" --iterations 4
  measure shogi-eABCD-148k shogi shogi-eABC.kwt.xz
  ship_xz shogi-eABCD-148k
fi
# Shogi: e_ABCD continued: 3 more MMTO iterations from shogi-eABCD-148k on all six
# gpsusi-labelled sets of data/shogi (seeds 5 and 6 as packed on 2026-11-27 at 02:58: later games
# of those runs go to new files), the GPS book positions and the self-play games; 182,472 training
# positions, the five -test files and 10% of the self-play held out (12,476). The final weights
# (after 3 updates). The built-in shogi default from e7f1c7c to the next block's file, which
# starts from it. About 25 minutes and 7.9 GB on 2 threads.
if [ ${#targets[@]} -eq 0 ] || [[ " ${targets[*]} " == *" shogi-eABCD-182k "* ]]; then
  xz -dc eval_weights/shogi-eABCD-148k.kwt.xz > "$RUNS/shogi-eABCD-148k-init.kwt"
  L=data/shogi
  PICK=weights.kwt train shogi-eABCD-182k mmto --game shogi \
    --data $DATA/shogi/gps_book_positions.txt.xz,$L/labels-gps4-001.txt.xz,$L/labels-gps4s2-001.txt.xz,$L/labels-gps4s3-001.txt.xz,$L/labels-gps4s4-001.txt.xz,$L/labels-gps4s5-001.txt.xz,$L/labels-gps4s6-001.txt.xz \
    --split $DATA/shogi/gps_selfplay_train.txt.xz --test-fraction 0.1 \
    --test $L/labels-gps4s2-test.txt.xz,$L/labels-gps4s3-test.txt.xz,$L/labels-gps4s4-test.txt.xz,$L/labels-gps4s5-test.txt.xz,$L/labels-gps4s6-test.txt.xz \
    --tables A,B,C,D --init "$RUNS/shogi-eABCD-148k-init.kwt" --iterations 3
  measure shogi-eABCD-182k shogi shogi-eABCD-148k.kwt.xz
  ship_xz shogi-eABCD-182k
fi
# Shogi: e_ABCD continued again: 3 more MMTO iterations from
# shogi-eABCD-182k on all fourteen gpsusi-labelled sets of data/shogi (every -001 file up to
# s5e/s6e, packed on 2026-11-27 at 08:24), the GPS book positions and the self-play games;
# 240,360 training positions, the thirteen -test files and 10% of the self-play held out
# (18,863). The final weights (after 3 updates). The built-in shogi default from 257cb61 to the
# next block's file, which starts from it. About 50 minutes on 2 threads (leaves 6.1 GB).
if [ ${#targets[@]} -eq 0 ] || [[ " ${targets[*]} " == *" shogi-eABCD-240k "* ]]; then
  xz -dc eval_weights/shogi-eABCD-182k.kwt.xz > "$RUNS/shogi-eABCD-182k-init.kwt"
  L=data/shogi
  S="s2 s3 s4 s5 s5b s5c s5d s5e s6 s6b s6c s6d s6e"
  TRAIN=$L/labels-gps4-001.txt.xz
  TEST=""
  for s in $S; do
    TRAIN=$TRAIN,$L/labels-gps4$s-001.txt.xz
    TEST=$TEST${TEST:+,}$L/labels-gps4$s-test.txt.xz
  done
  PICK=weights.kwt train shogi-eABCD-240k mmto --game shogi \
    --data $DATA/shogi/gps_book_positions.txt.xz,$TRAIN \
    --split $DATA/shogi/gps_selfplay_train.txt.xz --test-fraction 0.1 --test $TEST \
    --tables A,B,C,D --init "$RUNS/shogi-eABCD-182k-init.kwt" --iterations 3
  measure shogi-eABCD-240k shogi shogi-eABCD-182k.kwt.xz
  ship_xz shogi-eABCD-240k
fi
# Shogi: e_ABCD continued a fourth time (the built-in default 2026-11-27 17:00 to 23:00; the start of
# the next file): 3 more MMTO iterations from
# shogi-eABCD-240k on every labelled set of data/shogi up to 2026-11-27 15:00 (the eighteen
# gpsusi sets up to s5g/s6g and the first two Fairy-Stockfish 10k-node sets: two teachers,
# docs/learning/teachers.md), the GPS book positions and the self-play games; 376,425 training
# positions, the twenty -test files and 10% of the self-play held out (34,212). The final weights
# (after 3 updates). About 51 minutes on 2 threads, peak RSS 13.4 GB (leaves 9.4 GB).
if [ ${#targets[@]} -eq 0 ] || [[ " ${targets[*]} " == *" shogi-eABCD-376k "* ]]; then
  xz -dc eval_weights/shogi-eABCD-240k.kwt.xz > "$RUNS/shogi-eABCD-240k-init.kwt"
  L=data/shogi
  TRAIN=$L/labels-fsf10k-s1-001.txt.xz,$L/labels-fsf10k-s2-001.txt.xz,$L/labels-gps4-001.txt.xz
  TEST=$L/labels-fsf10k-s1-test.txt.xz,$L/labels-fsf10k-s2-test.txt.xz
  for s in s2 s3 s4 s5 s5b s5c s5d s5e s5f s5g s6 s6b s6c s6d s6e s6f s6g; do
    TRAIN=$TRAIN,$L/labels-gps4$s-001.txt.xz
    TEST=$TEST,$L/labels-gps4$s-test.txt.xz
  done
  PICK=weights.kwt train shogi-eABCD-376k mmto --game shogi \
    --data $DATA/shogi/gps_book_positions.txt.xz,$TRAIN \
    --split $DATA/shogi/gps_selfplay_train.txt.xz --test-fraction 0.1 --test $TEST \
    --tables A,B,C,D --init "$RUNS/shogi-eABCD-240k-init.kwt" --iterations 3 --max-memory 18G
  measure shogi-eABCD-376k shogi shogi-eABCD-240k.kwt.xz
  ship_xz shogi-eABCD-376k
fi
# Shogi: e_ABCD continued a fifth time (the built-in shogi default): 2 more MMTO iterations from
# shogi-eABCD-376k on every labelled set of data/shogi as of 2026-11-27 19:19 (26 gpsusi and
# Fairy-Stockfish sets, 1,008,636 labels from 11,482 games), the GPS book positions and the
# self-play games; 972,992 training positions, the twenty-five -test files and 10% of the
# self-play held out (100,251). The final weights (after 2 updates). About 50 minutes an
# iteration on 2 threads, peak RSS 10.1 GiB (before the slab leaf store of 8fdd179) under --max-memory 8G.
if [ ${#targets[@]} -eq 0 ] || [[ " ${targets[*]} " == *" shogi-eABCD "* ]]; then
  xz -dc eval_weights/shogi-eABCD-376k.kwt.xz > "$RUNS/shogi-eABCD-376k-init.kwt"
  L=data/shogi
  TRAIN=""
  TEST=""
  # in `ls` order, as the run had them (the order of positions is the order of the sums)
  for s in fsf10k-s1 fsf10k-s1b fsf10k-s1c fsf10k-s2 fsf10k-s2b fsf10k-s2c gps4 gps4s2 gps4s3 \
    gps4s4 gps4s5 gps4s5b gps4s5c gps4s5d gps4s5e gps4s5f gps4s5g gps4s5h \
    gps4s6 gps4s6b gps4s6c gps4s6d gps4s6e gps4s6f gps4s6g gps4s6h; do
    TRAIN=$TRAIN${TRAIN:+,}$L/labels-$s-001.txt.xz
    [ "$s" = gps4 ] || TEST=$TEST${TEST:+,}$L/labels-$s-test.txt.xz
  done
  PICK=weights.kwt train shogi-eABCD mmto --game shogi \
    --data $DATA/shogi/gps_book_positions.txt.xz,$TRAIN \
    --split $DATA/shogi/gps_selfplay_train.txt.xz --test-fraction 0.1 --test $TEST \
    --tables A,B,C,D --init "$RUNS/shogi-eABCD-376k-init.kwt" --iterations 2 --max-memory 8G
  measure shogi-eABCD shogi shogi-eABCD-376k.kwt.xz
  ship_xz shogi-eABCD
fi
# Shogi, record-free (issue 15, docs/learning/results.md "Session 78"): material + KP learned from
# kishi's own self-play games alone; no expert record and no hand-set value anywhere in its
# history. The games are data/selfplay/shogi-recordfree-*.txt.xz, played by three `learn results`
# runs (data/selfplay/README.md gives their commands); this block redoes those runs' fits on the
# stored games, in order (each bit-identical to the run's own: the same `learn texel` call). About
# 15 minutes on 2 cores. Not a built-in default (e_ABCD is stronger); measured against MMTO's
# e_AB, the same two tables learned from expert records.
if [ ${#targets[@]} -eq 0 ] || [[ " ${targets[*]} " == *" shogi-recordfree "* ]]; then
  RF=$RUNS/shogi-recordfree-data
  mkdir -p "$RF"
  for f in A-gen0 A-gen1 A-gen2 A-gen3 B-gen0 B-gen1 B-gen2 C-gen0 C-gen1; do
    [ -f "$RF/$f.txt" ] || xz -dc "data/selfplay/shogi-recordfree-$f.txt.xz" > "$RF/$f.txt"
  done
  xz -dc data/selfplay/shogi-recordfree-initial.kwt.xz > "$RF/initial.kwt"
  # fit NAME INIT DATA ARGS...: one `learn texel` fit into $RUNS/NAME
  fit() {
    local name=$1 init=$2 data=$3
    shift 3
    learn_into "$name" texel --game shogi --data "$data" --init "$init" "$@"
  }
  # Run A (piece values from results, 4 generations of 1,000 games, each fit on the last 3
  # generations' games): W_{k+1} = the fit from W_k; W_0 is random (±16).
  MAT=(--tables material --lambda 0 --iterations 8 --lr 2 --seed 75)
  fit rf-A1 "$RF/initial.kwt" "$RF/A-gen0.txt" "${MAT[@]}"
  fit rf-A2 "$RUNS/rf-A1/weights.kwt" "$RF/A-gen0.txt,$RF/A-gen1.txt" "${MAT[@]}"
  fit rf-A3 "$RUNS/rf-A2/weights.kwt" "$RF/A-gen0.txt,$RF/A-gen1.txt,$RF/A-gen2.txt" "${MAT[@]}"
  fit rf-A4 "$RUNS/rf-A3/weights.kwt" "$RF/A-gen1.txt,$RF/A-gen2.txt,$RF/A-gen3.txt" "${MAT[@]}"
  # Run B, generation 0's fit: KP (and material) from the results of 4,000 games of A's values.
  fit rf-B1 "$RUNS/rf-A4/weights.kwt" "$RF/B-gen0.txt" \
    --tables material,kp --lambda 0 --iterations 3 --lr 1 --seed 31
  # F: from B1, towards the play search's own scores of B-gen1 (games of B1) and B-gen2 (games
  # of run B's second fit); the results are not used (λ = 1).
  fit rf-F "$RUNS/rf-B1/weights.kwt" "$RF/B-gen1.txt,$RF/B-gen2.txt" \
    --tables material,kp --lambda 1 --iterations 3 --lr 1
  # Run C (λ = 1 generations from F, each fit on the last two generations' games): C1 from F
  # on C-gen0 (games of F); the shipped C2 from C1 on C-gen0 and C-gen1 (games of C1).
  LAM=(--tables material,kp --lambda 1 --iterations 3 --lr 1 --seed 41)
  fit rf-C1 "$RUNS/rf-F/weights.kwt" "$RF/C-gen0.txt" "${LAM[@]}"
  PICK=weights.kwt train shogi-recordfree texel --game shogi --data "$RF/C-gen0.txt,$RF/C-gen1.txt" \
    --init "$RUNS/rf-C1/weights.kwt" "${LAM[@]}"
  measure shogi-recordfree shogi eval_weights/shogi-eAB.kwt vs-eAB \
    "MMTO's e_AB, the same two tables learned from expert records"
fi
echo "done: rebuild (cargo build --release) so that the built-in defaults are the new files"
