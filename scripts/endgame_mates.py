#!/usr/bin/env python3
"""Can an engine mate a bare king? Random positions of one material (king and bishop and knight,
two bishops, a rook, a queen, or a pawn that wins, against a bare king), white to move; the engine
under test attacks,
a defender (Stockfish by default) defends, both at a fixed node count, for at most 50 moves.
Prints one line per position (mated?, moves, FEN, result) and the count, so the figures of
docs/chess-endgames.md can be made again:

    python3 scripts/endgame_mates.py --engine target/release/kishi --material BN --positions 20 --seed 11

The positions depend on --seed and --material only, so two engines (or the same engine before and
after a change) are measured on the same positions. A position is drawn until one is legal with
white to move, neither side in check, the kings not adjacent and both sides with a legal move;
with --material P, also one that the defender's engine scores as won for white at depth 25 (KPK
positions are often draws, and a draw cannot be converted).
"""
import argparse
import random
import sys

import chess
import chess.engine

PIECES = {"B": chess.BISHOP, "N": chess.KNIGHT, "R": chess.ROOK, "Q": chess.QUEEN, "P": chess.PAWN}


def colour_of(sq):
    return (chess.square_file(sq) + chess.square_rank(sq)) % 2


def random_position(rng, material, judge):
    while True:
        b = chess.Board(None)
        squares = rng.sample(range(64), 2 + len(material))
        b.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        b.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        if material == "P" and not 8 <= squares[2] < 56:
            continue  # no pawn on the first or last rank
        for sq, p in zip(squares[2:], material):
            b.set_piece_at(sq, chess.Piece(PIECES[p], chess.WHITE))
        if material == "BB" and colour_of(squares[2]) == colour_of(squares[3]):
            continue  # bishops of one colour cannot mate
        b.turn = chess.WHITE
        if not b.is_valid() or b.is_check() or chess.square_distance(squares[0], squares[1]) < 2:
            continue
        if not any(True for _ in b.legal_moves):
            continue
        b.turn = chess.BLACK
        if not any(True for _ in b.legal_moves):
            continue
        b.turn = chess.WHITE
        if material == "P":
            score = judge.analyse(b, chess.engine.Limit(depth=25))["score"].white()
            if not (score.is_mate() and score.mate() > 0) and score.score(mate_score=100000) < 500:
                continue
        return b


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", required=True, help="UCI engine that attacks (white)")
    ap.add_argument("--defender", default="/usr/games/stockfish", help="UCI engine that defends")
    ap.add_argument("--material", choices=["BN", "BB", "R", "Q", "P"], required=True)
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--nodes", type=int, default=10000, help="nodes a move for both sides")
    ap.add_argument("--moves", type=int, default=50, help="moves before the game counts as not mated")
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    if args.positions < 1 or args.nodes < 1 or args.moves < 1:
        sys.exit("error: --positions, --nodes and --moves must be positive")

    rng = random.Random(f"{args.seed}-{args.material}")
    try:
        attacker = chess.engine.SimpleEngine.popen_uci(args.engine)
        defender = chess.engine.SimpleEngine.popen_uci(args.defender)
    except (OSError, chess.engine.EngineError) as e:
        sys.exit(f"error: cannot start an engine: {e}")
    mated, lengths = 0, []
    try:
        for _ in range(args.positions):
            b = random_position(rng, args.material, defender)
            start = b.fen()
            plies = 0
            while not b.is_game_over(claim_draw=True) and plies < 2 * args.moves:
                eng = attacker if b.turn == chess.WHITE else defender
                b.push(eng.play(b, chess.engine.Limit(nodes=args.nodes)).move)
                plies += 1
            ok = b.is_checkmate()
            mated += ok
            if ok:
                lengths.append((plies + 1) // 2)
            print(f"{'mated' if ok else 'not  '} {(plies + 1) // 2:3d} {start} {b.result(claim_draw=True)}", flush=True)
    finally:
        attacker.quit()
        defender.quit()
    mean = sum(lengths) / len(lengths) if lengths else float("nan")
    print(f"{args.material}: mated {mated} of {args.positions}; mean moves to mate {mean:.1f}")


if __name__ == "__main__":
    main()
