#!/usr/bin/env python3
"""Build the opening books in book/ from the shared game collections.

    python3 scripts/make_openings.py chess --out book/chess_openings.epd
    python3 scripts/make_openings.py shogi --out book/shogi_openings.sfen

Method (both games; the details are in book/README.md):
 1. Candidates.  Chess: games of data/chess/chess_gm2400_train.txt.xz, read in
    a seeded random order; from each game one prefix of a random length of
    8..16 plies.  Shogi: (a) random walks of 8..16 plies down the GPS Shogi
    opening-book tree in data/shogi/gps_book_positions.txt.xz (every step
    picks one of the book's moves with probability proportional to the number
    of book games that played it), and (b) one prefix of 8..16 plies from each
    game of data/shogi/gps_selfplay_train.txt.xz; both lists are shuffled
    together with the seed.
 2. Deduplication on the position reached (chess: EPD board, side, castling,
    en passant; shogi: SFEN board, side, hands), so transpositions count once.
    Positions with the side to move in check, or without legal moves, are dropped.
 3. Balance.  Every remaining candidate is searched briefly by a strong
    engine (chess: Stockfish; shogi: Fairy-Stockfish in USI mode), and kept
    only if |score| < --max-cp (default 150 centipawns, side to move's view).
 4. Stop at --count openings (default 200), in candidate order.

The output is deterministic for a seed up to the engine's own search
(fixed-depth searches with one thread are reproducible in practice).
"""

from __future__ import annotations

import argparse
import lzma
import os
import random
import sys
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA_CANDIDATES = [os.path.join(REPO, "..", "shared", "data"), "/work/shared/data"]


def data_dir(explicit: Optional[str] = None) -> str:
    for d in ([explicit] if explicit else []) + DATA_CANDIDATES:
        if d and os.path.isdir(d):
            return os.path.abspath(d)
    raise SystemExit("shared data directory not found; pass --data")


def open_text(path: str):
    if path.endswith(".xz"):
        return lzma.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def parse_game_line(line: str) -> Tuple[str, str, str, List[str]]:
    """'<result> <plies> fen|sfen <position> moves <m1> ...' ->
    (result, kind, start position, moves)."""
    tok = line.split()
    if len(tok) < 4 or tok[2] not in ("fen", "sfen"):
        raise ValueError(f"not a game line: {line[:80]!r}")
    kind = tok[2]
    try:
        mi = tok.index("moves")
    except ValueError:
        mi = len(tok)
    start = " ".join(tok[3:mi])
    moves = tok[mi + 1:]
    if int(tok[1]) != len(moves):
        raise ValueError(f"ply count {tok[1]} != {len(moves)} moves")
    return tok[0], kind, start, moves


def read_games(path: str) -> List[Tuple[str, str, str, List[str]]]:
    out = []
    with open_text(path) as f:
        for line in f:
            if line.strip():
                out.append(parse_game_line(line))
    return out


# ------------------------------------------------------------ candidates --

def prefix_candidates(games: Sequence[Tuple[str, str, str, List[str]]], rng: random.Random,
                      min_ply: int, max_ply: int, source: str) -> List[dict]:
    """One prefix of random length in [min_ply, max_ply] per game (games too
    short for the drawn length are skipped), in a seeded random game order."""
    order = list(range(len(games)))
    rng.shuffle(order)
    out = []
    for gi in order:
        _, _, start, moves = games[gi]
        k = rng.randint(min_ply, max_ply)
        if len(moves) <= k:  # need the game to go on after the opening
            continue
        out.append({"start": start, "moves": moves[:k], "source": f"{source}:{gi + 1}"})
    return out


def book_walk_candidates(edges: Dict[str, List[Tuple[str, int]]], start_key: str,
                         apply_move: Callable[[str, str], str], n: int, rng: random.Random,
                         min_ply: int, max_ply: int, source: str) -> List[dict]:
    """Random walks down an opening-book tree.

    edges: position key -> [(move, games)], apply_move(key, move) -> next key.
    Each walk draws a target length in [min_ply, max_ply] and picks moves with
    probability proportional to their game counts; walks that leave the book
    early are dropped.
    """
    out = []
    tries = 0
    while len(out) < n and tries < n * 20:
        tries += 1
        k = rng.randint(min_ply, max_ply)
        key, moves = start_key, []
        for _ in range(k):
            opts = edges.get(key)
            if not opts:
                break
            total = sum(max(1, g) for _, g in opts)
            r = rng.uniform(0, total)
            acc = 0.0
            for mv, g in opts:
                acc += max(1, g)
                if r <= acc:
                    break
            moves.append(mv)
            key = apply_move(key, mv)
        if len(moves) == k:
            out.append({"start": "startpos", "moves": moves, "source": f"{source}:walk{tries}"})
    return out


def dedupe(cands: Iterable[dict], key_fn: Callable[[dict], Optional[str]]) -> Iterator[dict]:
    """Yield candidates whose position key is new; key_fn returns None to drop."""
    seen = set()
    for c in cands:
        k = key_fn(c)
        if k is None or k in seen:
            continue
        seen.add(k)
        c["key"] = k
        yield c


def select_balanced(cands: Iterable[dict], evaluate: Callable[[dict], Optional[int]], count: int,
                    max_cp: int, progress: bool = False) -> List[dict]:
    """Keep candidates with |evaluate(c)| < max_cp, in order, until `count`."""
    out = []
    seen = 0
    for c in cands:
        seen += 1
        sc = evaluate(c)
        if sc is None or abs(sc) >= max_cp:
            continue
        c["score"] = sc
        out.append(c)
        if progress and len(out) % 25 == 0:
            print(f"{len(out)}/{count} kept of {seen} searched", file=sys.stderr)
        if len(out) >= count:
            break
    if progress:
        print(f"{len(out)} kept of {seen} searched", file=sys.stderr)
    return out


# ------------------------------------------------------------------ chess --

def chess_key(c: dict) -> Optional[str]:
    import chess
    b = chess.Board(c["start"])
    for m in c["moves"]:
        b.push_uci(m)
    if b.is_check() or b.is_game_over():
        return None
    return b.epd()


def build_chess(args) -> List[dict]:
    import chess
    import chess.engine
    rng = random.Random(args.seed)
    games = read_games(os.path.join(data_dir(args.data), "chess", "chess_gm2400_train.txt.xz"))
    cands = prefix_candidates(games, rng, args.min_ply, args.max_ply, "chess_gm2400_train")
    eng = chess.engine.SimpleEngine.popen_uci(args.engine or "/usr/games/stockfish")
    eng.configure({"Threads": 1, "Hash": 16})

    def evaluate(c: dict) -> Optional[int]:
        b = chess.Board(c["start"])
        for m in c["moves"]:
            b.push_uci(m)
        eng.configure({"Clear Hash": None})
        info = eng.analyse(b, chess.engine.Limit(depth=args.depth))
        sc = info["score"].relative
        if sc.is_mate():
            return None
        return sc.score()

    try:
        return select_balanced(dedupe(cands, chess_key), evaluate, args.count, args.max_cp, progress=True)
    finally:
        eng.quit()


def chess_lines(sel: List[dict], depth: int) -> List[str]:
    import chess
    lines = []
    for i, c in enumerate(sel):
        b = chess.Board(c["start"])
        for m in c["moves"]:
            b.push_uci(m)
        lines.append(b.epd(id=f"kishi-chess-{i + 1:04d}", c0="moves " + " ".join(c["moves"]),
                           c1=c["source"], ce=int(c["score"]), acd=depth))
    return lines


# ------------------------------------------------------------------ shogi --

def shogi_key_of(board) -> str:
    return " ".join(board.sfen().split()[:3])


def shogi_key(c: dict) -> Optional[str]:
    import cshogi
    b = cshogi.Board()
    if c["start"] != "startpos" and c["start"] != cshogi.STARTING_SFEN:
        b.set_sfen(c["start"])
    for m in c["moves"]:
        mv = b.move_from_usi(m)
        if not mv or mv not in set(b.legal_moves):
            return None
        b.push(mv)
    if b.is_check() or b.is_game_over():
        return None
    return shogi_key_of(b)


def shogi_book_edges(path: str) -> Dict[str, List[Tuple[str, int]]]:
    """Position key -> [(usi move, book games)] from the GPS book edge file."""
    import cshogi
    meta_path = path.replace(".txt.xz", ".meta.tsv.xz")
    counts: List[int] = []
    with open_text(meta_path) as f:
        header = f.readline().rstrip("\n").split("\t")
        gi = header.index("games")
        for line in f:
            counts.append(int(line.rstrip("\n").split("\t")[gi]))
    edges: Dict[str, List[Tuple[str, int]]] = {}
    b = cshogi.Board()
    with open_text(path) as f:
        for i, line in enumerate(f):
            if not line.strip():
                continue
            _, _, start, moves = parse_game_line(line)
            b.set_sfen(start)
            key = shogi_key_of(b)
            edges.setdefault(key, []).append((moves[0], counts[i] if i < len(counts) else 1))
    return edges


def build_shogi(args) -> List[dict]:
    import cshogi
    from matchlib.usi_shogi import USIEngine
    rng = random.Random(args.seed)
    d = os.path.join(data_dir(args.data), "shogi")
    edges = shogi_book_edges(os.path.join(d, "gps_book_positions.txt.xz"))
    start_board = cshogi.Board()

    def apply_move(key: str, mv: str) -> str:
        b = cshogi.Board()
        b.set_sfen(key + " 1")
        b.push_usi(mv)
        return shogi_key_of(b)

    walks = book_walk_candidates(edges, shogi_key_of(start_board), apply_move, args.book_walks, rng,
                                 args.min_ply, args.max_ply, "gps_book_positions")
    games = read_games(os.path.join(d, "gps_selfplay_train.txt.xz"))
    prefixes = prefix_candidates(games, rng, args.min_ply, args.max_ply, "gps_selfplay_train")
    for c in prefixes:
        if c["start"] == cshogi.STARTING_SFEN or c["start"].split()[:3] == cshogi.STARTING_SFEN.split()[:3]:
            c["start"] = "startpos"
    cands = walks + prefixes
    rng.shuffle(cands)
    eng = USIEngine(args.engine or "/usr/games/fairy-stockfish", {"Threads": "1", "USI_Hash": "16"})
    eng.start()

    def evaluate(c: dict) -> Optional[int]:
        eng.new_game()
        pos = "position startpos" if c["start"] == "startpos" else f"position sfen {c['start']}"
        pos += " moves " + " ".join(c["moves"])
        r = eng.go(pos, f"go depth {args.depth}", 120.0)
        if r.status != "ok" or r.score is None or abs(r.score) >= 30000:
            return None
        return r.score

    try:
        return select_balanced(dedupe(cands, shogi_key), evaluate, args.count, args.max_cp, progress=True)
    finally:
        eng.quit()


def shogi_lines(sel: List[dict]) -> List[str]:
    return [("startpos" if c["start"] == "startpos" else f"sfen {c['start']}") + " moves " + " ".join(c["moves"])
            for c in sel]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", choices=["chess", "shogi"])
    p.add_argument("--out", help="output file (default book/chess_openings.epd or book/shogi_openings.sfen)")
    p.add_argument("--data", help="shared data directory (default ../shared/data)")
    p.add_argument("--seed", type=int, default=6)
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--min-ply", type=int, default=8)
    p.add_argument("--max-ply", type=int, default=16)
    p.add_argument("--max-cp", type=int, default=150)
    p.add_argument("--depth", type=int, default=None, help="search depth (default 12 chess, 10 shogi)")
    p.add_argument("--engine", help="engine command (default /usr/games/stockfish or /usr/games/fairy-stockfish)")
    p.add_argument("--book-walks", type=int, default=600, help="shogi: number of book random walks")
    args = p.parse_args(argv)
    if args.depth is None:
        args.depth = 12 if args.game == "chess" else 10
    out = args.out or os.path.join(REPO, "book", "chess_openings.epd" if args.game == "chess"
                                   else "shogi_openings.sfen")
    if args.game == "chess":
        sel = build_chess(args)
        lines = chess_lines(sel, args.depth)
    else:
        sel = build_shogi(args)
        lines = shogi_lines(sel)
        meta = os.path.splitext(out)[0] + ".meta.tsv"
        with open(meta, "w", encoding="utf-8") as f:
            f.write("line\tplies\tscore_cp\tdepth\tsource\n")
            for i, c in enumerate(sel):
                f.write(f"{i + 1}\t{len(c['moves'])}\t{c['score']}\t{args.depth}\t{c['source']}\n")
    if len(sel) < args.count:
        print(f"warning: only {len(sel)} openings found (wanted {args.count})", file=sys.stderr)
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} openings to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
