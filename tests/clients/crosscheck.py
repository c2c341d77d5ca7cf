"""Cross-check of kishi's rules against outside implementations: cshogi (shogi) and python-chess.

For every position of a sample of games from ../shared/data, of random playouts continued from
them, and of constructed positions for the special rules, kishi (`kishi rules-dump`) and the
reference must agree on: the set of legal moves, in-check, the game outcome where one applies,
the position text (kishi's text equals the reference's and reads back), the moves that give check,
and the tactical moves (exactly the legal captures and promotions, when not in check).

Repetition is not something either library decides the way the rules do (cshogi looks one
occurrence back, python-chess offers claims), so the reference side counts occurrences itself:
shogi 4 occurrences of (board, hands, side to move) = draw unless one side checked with every move
since the first occurrence (that side loses); chess 3 occurrences of python-chess's transposition
key = draw.

Run directly for a report: `python3 tests/clients/crosscheck.py [shogi|chess] [--positions N]`.
"""

import json
import lzma
import os
import random
import subprocess
import sys
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.normpath(os.path.join(ROOT, "..", "shared", "data"))


def kishi_binary():
    """The release binary (scripts/test.sh builds it first); built here if it is missing."""
    explicit = os.environ.get("KISHI_BIN")
    if explicit:
        return explicit
    path = os.path.join(ROOT, "target", "release", "kishi")
    if not os.path.exists(path):
        subprocess.run(["cargo", "build", "--release", "--bin", "kishi"], cwd=ROOT, check=True)
    return path


def read_game_lines(path, limit=None):
    """Game lines of the shared line format: (start text, [moves])."""
    opener = lzma.open if path.endswith(".xz") else open
    games = []
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) < 3:
                continue
            kw = parts[2]
            if "moves" in parts:
                m = parts.index("moves")
                start, moves = " ".join(parts[3:m]), parts[m + 1:]
            else:
                start, moves = " ".join(parts[3:]), []
            games.append((kw, start, moves))
            if limit is not None and len(games) >= limit:
                break
    return games


def run_dump(game, lines):
    """Feeds game lines to `kishi rules-dump` and returns its records grouped by line index."""
    text = "".join(line + "\n" for line in lines)
    proc = subprocess.run(
        [kishi_binary(), "rules-dump", game],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    )
    out = {}
    for raw in proc.stdout.splitlines():
        rec = json.loads(raw)
        out.setdefault(rec["g"], []).append(rec)
    return out


# ---------------------------------------------------------------------------------------------
# shogi


def shogi_lines(rng, n_positions):
    """Game lines for shogi: every self-play game, the sample games, book lines, random playouts."""
    import cshogi

    lines = []
    count = 0
    games = read_game_lines(os.path.join(DATA, "shogi", "gps_selfplay_train.txt.xz"))
    games += read_game_lines(os.path.join(DATA, "shogi", "shogi_sample_games.txt"))
    for _, start, moves in games:
        lines.append(f"sfen {start} moves {' '.join(moves)}")
        count += len(moves) + 1
    # Random playouts from random points of the games: drops, promotions and odd positions that
    # engines avoid (pawn-drop mate chances, pieces piling up in hand, kings wandering into camp).
    while count < n_positions:
        _, start, moves = rng.choice(games)
        cut = rng.randrange(len(moves) + 1)
        board = cshogi.Board(start)
        line = list(moves[:cut])
        for mv in line:
            board.push_usi(mv)
        for _ in range(rng.randrange(20, 120)):
            legal = list(board.legal_moves)
            if not legal:
                break
            # Prefer checks and captures now and then, so mates and perpetual checks turn up.
            checks = list(board.check_moves) if rng.random() < 0.3 else []
            mv = rng.choice(checks or legal)
            board.push(mv)
            line.append(cshogi.move_to_usi(mv))
        lines.append(f"sfen {start} moves {' '.join(line)}")
        count += len(line) + 1
    return lines


def shogi_repetition(keys, checks):
    """Reference verdict for the last position: None, 'draw', 'win:first' or 'win:second'."""
    cur = keys[-1]
    idx = [i for i in range(len(keys) - 1, -1, -1) if keys[i] == cur]
    if len(idx) < 4:
        return None
    first = idx[3]
    n = len(keys)
    stm_now = (n - 1) % 2  # relative parity only
    opp_checked_all = all(checks[i] for i in range(first + 1, n) if (n - 1 - i) % 2 == 0)
    me_checked_all = all(checks[i] for i in range(first + 1, n) if (n - 1 - i) % 2 == 1)
    del stm_now
    if opp_checked_all and not me_checked_all:
        return "checked"  # side to move wins
    if me_checked_all and not opp_checked_all:
        return "checker"  # side to move loses
    return "draw"


def check_shogi(lines, dump):
    """Compares every dumped position with cshogi; returns (positions compared, differences)."""
    import cshogi

    diffs = []
    compared = 0
    for g, line in enumerate(lines):
        recs = dump.get(g, [])
        words = line.split()
        m = words.index("moves") if "moves" in words else len(words)
        start = " ".join(words[1:m])
        moves = words[m + 1:]
        board = cshogi.Board(start)
        keys, checks = [], []
        if len(recs) != len(moves) + 1 or any("error" in r for r in recs):
            diffs.append((g, None, "dump", f"{len(recs)} records for {len(moves)} moves: {recs[-1:]}"))
            continue
        for ply, rec in enumerate(recs):
            if ply > 0:
                board.push_usi(moves[ply - 1])
            compared += 1
            where = (g, ply, board.sfen())
            sfen = board.sfen()
            keys.append(" ".join(sfen.split()[:3]))
            checks.append(board.is_check())
            legal = list(board.legal_moves)
            ref_moves = sorted(cshogi.move_to_usi(mv) for mv in legal)
            if rec["moves"] != ref_moves:
                a, b = set(rec["moves"]), set(ref_moves)
                diffs.append(where + (f"moves: kishi only {sorted(a - b)}, cshogi only {sorted(b - a)}",))
            if rec["check"] != board.is_check():
                diffs.append(where + (f"in_check kishi {rec['check']}",))
            if rec["text"] != sfen:
                diffs.append(where + (f"text kishi {rec['text']}",))
            if rec["errors"]:
                diffs.append(where + (f"self-check: {rec['errors'][:3]}",))
            ref_checks = sorted(cshogi.move_to_usi(mv) for mv in board.check_moves)
            if rec["checks"] != ref_checks:
                a, b = set(rec["checks"]), set(ref_checks)
                diffs.append(where + (f"checks: kishi only {sorted(a - b)}, cshogi only {sorted(b - a)}",))
            if not board.is_check():
                ref_tact = sorted(
                    cshogi.move_to_usi(mv)
                    for mv in legal
                    if cshogi.move_is_promotion(mv)
                    or (not cshogi.move_is_drop(mv) and board.piece(cshogi.move_to(mv)) != 0)
                )
                if rec["tactical"] != ref_tact:
                    a, b = set(rec["tactical"]), set(ref_tact)
                    diffs.append(where + (f"tactical: kishi only {sorted(a - b)}, ref only {sorted(b - a)}",))
            if rec["declare"] != bool(board.is_nyugyoku()):
                diffs.append(where + (f"declare kishi {rec['declare']}",))
            stm = "first" if board.turn == cshogi.BLACK else "second"
            other = "second" if stm == "first" else "first"
            if not legal:
                ref_outcome = f"win:{other}:checkmate"
            else:
                rep = shogi_repetition(keys, checks)
                ref_outcome = {
                    None: "none",
                    "draw": "draw:repetition",
                    "checked": f"win:{stm}:perpetual",
                    "checker": f"win:{other}:perpetual",
                }[rep]
            if rec["outcome"] != ref_outcome:
                diffs.append(where + (f"outcome kishi {rec['outcome']} ref {ref_outcome}",))
    return compared, diffs


# ---------------------------------------------------------------------------------------------
# chess


def chess_lines(rng, n_positions):
    """Game lines for chess: a seeded sample of master games, random playouts from them and long
    random games from the start (which reach stalemates, bare kings and fifty quiet moves)."""
    import chess

    games = read_game_lines(os.path.join(DATA, "chess", "chess_gm2400_train.txt.xz"), limit=3000)
    rng.shuffle(games)
    lines = []
    count = 0
    for _, start, moves in games:
        if count >= n_positions * 0.6:
            break
        lines.append(f"fen {start} moves {' '.join(moves)}")
        count += len(moves) + 1
    pool = games[:200]
    i = 0
    while count < n_positions:
        i += 1
        board = chess.Board()
        if i % 4 == 0:
            line = []  # a long random game from the start
            length = 400
        else:
            _, start, moves = rng.choice(pool)
            board = chess.Board(start)
            cut = rng.randrange(len(moves) + 1)
            line = list(moves[:cut])
            for mv in line:
                board.push_uci(mv)
            length = rng.randrange(20, 100)
        for _ in range(length):
            legal = list(board.legal_moves)
            if not legal or board.halfmove_clock >= 100 or board.is_insufficient_material():
                break
            mv = rng.choice(legal)
            board.push(mv)
            line.append(mv.uci())
        lines.append(f"fen {board.root().fen()} moves {' '.join(line)}")
        count += len(line) + 1
    return lines


def check_chess(lines, dump):
    import chess

    diffs = []
    compared = 0
    for g, line in enumerate(lines):
        recs = dump.get(g, [])
        words = line.split()
        m = words.index("moves") if "moves" in words else len(words)
        start = " ".join(words[1:m])
        moves = words[m + 1:]
        board = chess.Board(start)
        if len(recs) != len(moves) + 1 or any("error" in r for r in recs):
            diffs.append((g, None, "dump", f"{len(recs)} records for {len(moves)} moves: {recs[-1:]}"))
            continue
        seen = Counter()
        for ply, rec in enumerate(recs):
            if ply > 0:
                board.push_uci(moves[ply - 1])
            compared += 1
            fen = board.fen(en_passant="fen")
            where = (g, ply, fen)
            seen[board._transposition_key()] += 1
            legal = list(board.legal_moves)
            ref_moves = sorted(mv.uci() for mv in legal)
            if rec["moves"] != ref_moves:
                a, b = set(rec["moves"]), set(ref_moves)
                diffs.append(where + (f"moves: kishi only {sorted(a - b)}, python-chess only {sorted(b - a)}",))
            if rec["check"] != board.is_check():
                diffs.append(where + (f"in_check kishi {rec['check']}",))
            if rec["text"] not in (fen, board.fen()):
                diffs.append(where + (f"text kishi {rec['text']}",))
            if rec["errors"]:
                diffs.append(where + (f"self-check: {rec['errors'][:3]}",))
            ref_checks = sorted(mv.uci() for mv in legal if board.gives_check(mv))
            if rec["checks"] != ref_checks:
                diffs.append(where + (f"checks kishi {rec['checks']} ref {ref_checks}",))
            if not board.is_check():
                ref_tact = sorted(mv.uci() for mv in legal if board.is_capture(mv) or mv.promotion)
                if rec["tactical"] != ref_tact:
                    diffs.append(where + (f"tactical kishi {rec['tactical']} ref {ref_tact}",))
            if rec["declare"]:
                diffs.append(where + ("declare in chess",))
            winner = "second" if board.turn == chess.WHITE else "first"
            if not legal:
                ref = f"win:{winner}:checkmate" if board.is_check() else "draw:stalemate"
            elif board.halfmove_clock >= 100:
                ref = "draw:fifty"
            elif board.is_insufficient_material():
                ref = "draw:insufficient"
            elif seen[board._transposition_key()] >= 3:
                ref = "draw:repetition"
            else:
                ref = "none"
            if rec["outcome"] != ref:
                diffs.append(where + (f"outcome kishi {rec['outcome']} ref {ref}",))
    return compared, diffs


def crosscheck(game, n_positions, seed=20240917, extra_lines=()):
    """Runs the whole comparison for one game; returns (positions, differences, outcome counts)."""
    rng = random.Random(seed)
    if game == "shogi":
        lines = shogi_lines(rng, n_positions) + list(extra_lines)
        dump = run_dump("shogi", lines)
        compared, diffs = check_shogi(lines, dump)
    else:
        lines = chess_lines(rng, n_positions) + list(extra_lines)
        dump = run_dump("chess", lines)
        compared, diffs = check_chess(lines, dump)
    outcomes = Counter(r["outcome"] for recs in dump.values() for r in recs if "outcome" in r)
    return compared, diffs, outcomes


def main(argv):
    games = [a for a in argv if a in ("shogi", "chess")] or ["shogi", "chess"]
    n = 20000
    if "--positions" in argv:
        n = int(argv[argv.index("--positions") + 1])
    status = 0
    for game in games:
        compared, diffs, outcomes = crosscheck(game, n)
        print(f"{game}: {compared} positions, {len(diffs)} differences; outcomes {dict(outcomes)}")
        for d in diffs[:20]:
            print("  ", d)
        status |= bool(diffs)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
