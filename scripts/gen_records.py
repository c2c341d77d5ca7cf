#!/usr/bin/env python3
"""Generate shogi training games: GPS Shogi (gpsusi) against itself.

Plays gpsusi (one thread, book off) at two fixed search depths (its
``LimitDepth`` option; gpsusi does not take ``go depth``, so every move gets
``go btime 0 wtime 0 byoyomi <ms>`` and the depth limit ends the search),
from seeded random openings of a few plies, as described for
data/shogi/gps_selfplay_train in /work/shared/data/README.md.  With two
different depths each opening is played twice with the colours swapped
(depth A as sente, then depth B as sente); with equal depths each opening is
played once.

Usage:
    python3 scripts/gen_records.py --games 20 --depths 4,5 --random-plies 4 --seed 1 --out games.txt
        [--max-plies 300] [--resign 2500] [--byoyomi 60000] [--gpsusi /usr/games/gpsusi] [--append|--force]

Output (the shared game-line format, one game a line, from the even position):
    <result> <plies> sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves <usi> ...
with <result> 1-0 (sente won), 0-1 or 1/2-1/2 and <plies> the number of moves
(random opening included), plus <stem>.meta.tsv next to it (games.txt ->
games.meta.tsv) with the columns
    line black white black_rating white_rating event date endgame source
(black = sente; the names are the engine's own; ratings empty; event gives the
depths; source = d<sente depth>d<gote depth>rand/gen_records_seed<S>, as the
source labels of gps_selfplay_train).  Games are written as they finish.

Rules (checked with cshogi, never trusted to the engine):
  * every engine move must be in cshogi's legal move list;
  * no legal move for the side to move (checkmate): it loses      (%TSUMI);
  * the engine says ``bestmove resign``, or its score for its own move is at
    or below -resign (cshogi.cli's rule; that move is not played)  (%TORYO);
  * ``bestmove win`` with cshogi's is_nyugyoku() true wins         (%KACHI);
  * fourfold repetition (same board, hands and side to move): a draw
    (%SENNICHITE), unless one side checked with every move since the first of
    the four occurrences: that side loses                          (%-ILLEGAL_ACTION / %+ILLEGAL_ACTION);
  * max plies (default 300) reached without a result: a draw       (%JISHOGI).
A game spoiled by the engine (illegal move, false win declaration, crash or
no answer within byoyomi + 30 s) is not written; the engines are restarted
and the run goes on (it stops after 3 such games in a row).

Needs cshogi and the Debian package gpsshogi (apt-get install -y gpsshogi).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import cshogi

HIRATE = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
MATE_SCORE = 100000
META_COLUMNS = ["line", "black", "white", "black_rating", "white_rating", "event", "date", "endgame", "source"]


class EngineFault(Exception):
    """The engine crashed, hung or broke the rules: the game is void."""


# ------------------------------------------------------------ USI driver --

class USIEngine:
    """A minimal USI driver: a reader thread feeds a queue, so every wait has a timeout."""

    def __init__(self, path: str, options: Dict[str, str], label: str, timeout: float = 60.0):
        self.path = path
        self.options = options
        self.label = label
        self.timeout = timeout
        self.id_name: Optional[str] = None
        self.proc: Optional[subprocess.Popen] = None
        self.q: "queue.Queue[Optional[str]]" = queue.Queue()

    def start(self) -> None:
        self.q = queue.Queue()
        try:
            self.proc = subprocess.Popen([self.path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True, encoding="utf-8",
                                         errors="replace", bufsize=1, start_new_session=True)
        except OSError as e:
            raise EngineFault(f"cannot start {self.path}: {e}")
        threading.Thread(target=self._reader, args=(self.proc, self.q), daemon=True).start()
        self.send("usi")
        deadline = time.monotonic() + self.timeout
        while True:
            tok = self.readline(deadline).split()
            if tok[:2] == ["id", "name"]:
                self.id_name = " ".join(tok[2:])
            elif tok[:1] == ["usiok"]:
                break
        for k, v in self.options.items():
            self.send(f"setoption name {k} value {v}")
        self.isready()

    @staticmethod
    def _reader(proc: subprocess.Popen, q: "queue.Queue") -> None:
        try:
            for line in proc.stdout:
                q.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        q.put(None)

    def send(self, line: str) -> None:
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError, AttributeError) as e:
            raise EngineFault(f"{self.label}: write failed ({e})")

    def readline(self, deadline: float) -> str:
        try:
            line = self.q.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise EngineFault(f"{self.label}: no answer in time")
        if line is None:
            self.q.put(None)
            raise EngineFault(f"{self.label}: engine exited")
        return line

    def isready(self) -> None:
        self.send("isready")
        deadline = time.monotonic() + self.timeout
        while self.readline(deadline).strip() != "readyok":
            pass

    def new_game(self) -> None:
        self.isready()
        self.send("usinewgame")

    def go(self, moves: Sequence[str], byoyomi_ms: int, timeout: float) -> Tuple[str, Optional[int]]:
        """Search the position after `moves` (from hirate); (bestmove, score for the side to move)."""
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go btime 0 wtime 0 byoyomi {byoyomi_ms}")
        deadline = time.monotonic() + timeout
        score: Optional[int] = None
        while True:
            tok = self.readline(deadline).split()
            if not tok:
                continue
            if tok[0] == "info" and "score" in tok and "string" not in tok:
                s = parse_score(tok)
                if s is not None:
                    score = s
            elif tok[0] == "bestmove":
                return (tok[1] if len(tok) > 1 else ""), score

    def quit(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(timeout=3)
            except (EngineFault, subprocess.TimeoutExpired):
                pass
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        self.proc = None


def parse_score(tok: Sequence[str]) -> Optional[int]:
    i = tok.index("score")
    try:
        kind, val = tok[i + 1], tok[i + 2]
        if kind == "cp":
            return int(val)
        if kind == "mate":
            if val.startswith("-"):
                return -MATE_SCORE
            return MATE_SCORE
    except (IndexError, ValueError):
        return None
    return None


# ------------------------------------------------------------ game loop --

@dataclass
class Game:
    result: str                   # 1-0 / 0-1 / 1/2-1/2
    endgame: str                  # CSA end code
    reason: str
    moves: List[str] = field(default_factory=list)


def pos_key(board: "cshogi.Board") -> str:
    return " ".join(board.sfen().split()[:3])   # board, side to move, hands


def win_for(side: int) -> str:
    return "1-0" if side == cshogi.BLACK else "0-1"


def legal_engine_move(board: "cshogi.Board", bm: str, why: str) -> int:
    """The engine's `bestmove` as a cshogi move, checked against the legal moves (never trusted)."""
    try:
        mv = board.move_from_usi(bm)
    except Exception:  # noqa: BLE001 - garbage from the engine
        mv = 0
    if not mv or mv not in set(board.legal_moves):
        raise EngineFault(why)
    return mv


def play_game(sente: USIEngine, gote: USIEngine, opening: Sequence[str], max_plies: int,
              resign: Optional[int], byoyomi_ms: int, move_timeout: float) -> Game:
    board = cshogi.Board()
    moves: List[str] = []
    keys = [pos_key(board)]
    checks = [False]          # checks[i]: ply i gave check
    for m in opening:
        mv = board.move_from_usi(m)
        if not mv or mv not in set(board.legal_moves):
            raise ValueError(f"illegal opening move {m}")
        board.push(mv)
        moves.append(m)
        keys.append(pos_key(board))
        checks.append(bool(board.is_check()))
    for e in (sente, gote):
        e.new_game()
    engines = (sente, gote)
    while True:
        side = board.turn
        if board.is_game_over():
            return Game(win_for(1 - side), "%TSUMI", "checkmate", moves)
        if len(moves) >= max_plies:
            return Game("1/2-1/2", "%JISHOGI", f"{max_plies} plies", moves)
        eng = engines[side]
        bm, score = eng.go(moves, byoyomi_ms, move_timeout)
        if bm == "resign":
            return Game(win_for(1 - side), "%TORYO", f"{eng.label} resigned", moves)
        if resign is not None and score is not None and score <= -resign:
            return Game(win_for(1 - side), "%TORYO", f"{eng.label} resigned (score {score})", moves)
        if bm == "win":
            if board.is_nyugyoku():
                return Game(win_for(side), "%KACHI", f"{eng.label} declared a win", moves)
            raise EngineFault(f"{eng.label}: false win declaration after {len(moves)} plies")
        mv = legal_engine_move(board, bm, f"{eng.label}: illegal move {bm!r} after {' '.join(moves)}")
        board.push(mv)
        moves.append(bm)
        key = pos_key(board)
        keys.append(key)
        checks.append(bool(board.is_check()))
        occ = [i for i, k in enumerate(keys) if k == key]
        if len(occ) >= 4:
            first, n = occ[-4], len(keys) - 1
            for s in (side, 1 - side):
                # plies i in (first, n] made by side s (ply n was made by `side`)
                own = [i for i in range(first + 1, n + 1) if (n - i) % 2 == (0 if s == side else 1)]
                if own and all(checks[i] for i in own):
                    code = "%-ILLEGAL_ACTION" if s == cshogi.WHITE else "%+ILLEGAL_ACTION"
                    return Game(win_for(1 - s), code, "perpetual check", moves)
            return Game("1/2-1/2", "%SENNICHITE", "fourfold repetition", moves)


# ------------------------------------------------------------- openings --

def random_moves(board: "cshogi.Board", rng: random.Random, n: int) -> List[str]:
    """Plays up to n uniformly random legal moves on `board` (fewer if the game ends); their USI."""
    moves: List[str] = []
    for _ in range(n):
        legal = sorted(cshogi.move_to_usi(m) for m in board.legal_moves)
        if not legal:
            break
        m = rng.choice(legal)
        board.push_usi(m)
        moves.append(m)
    return moves


def random_opening(rng: random.Random, plies: int, seen: set) -> List[str]:
    for _ in range(1000):
        board = cshogi.Board()
        moves = random_moves(board, rng, plies)
        if len(moves) == plies and not board.is_game_over() and tuple(moves) not in seen:
            seen.add(tuple(moves))
            return moves
    raise RuntimeError(f"could not find a new random opening of {plies} plies")


# ----------------------------------------------------------------- main --

def meta_path_for(out: str) -> str:
    return (out[:-4] if out.endswith(".txt") else out) + ".meta.tsv"


def count_lines(path: str) -> int:
    with open(path, encoding="utf-8") as f:
        return sum(1 for line in f if line.strip())


def tsv(value: str) -> str:
    return str(value).replace("\t", " ").replace("\n", " ")


def parse_args(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description="Generate shogi games of gpsusi against itself.",
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--games", type=int, default=2, help="number of games (default 2)")
    ap.add_argument("--depths", default="4,5", help="LimitDepth of the two players, A,B (default 4,5)")
    ap.add_argument("--random-plies", type=int, default=4, help="plies of the random opening (default 4)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random openings (default 1)")
    ap.add_argument("--out", required=True, help="game file to write (meta: <stem>.meta.tsv)")
    ap.add_argument("--gpsusi", default="/usr/games/gpsusi", help="engine binary (default /usr/games/gpsusi)")
    ap.add_argument("--max-plies", type=int, default=300, help="draw after this many plies (default 300)")
    ap.add_argument("--resign", type=int, default=2500,
                    help="resign when the mover's score <= -this (default 2500; 0 = off)")
    ap.add_argument("--byoyomi", type=int, default=60000,
                    help="byoyomi per move in ms, an upper bound only: LimitDepth ends the search (default 60000)")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--append", action="store_true", help="append to existing output files")
    g.add_argument("--force", action="store_true", help="overwrite existing output files")
    a = ap.parse_args(argv)
    try:
        d = [int(x) for x in a.depths.split(",") if x.strip()]
    except ValueError:
        ap.error(f"--depths: expected integers like 4,5, got {a.depths!r}")
    if len(d) == 1:
        d = d * 2
    if len(d) != 2 or min(d) < 1:
        ap.error("--depths takes two positive depths, e.g. 4,5")
    a.depth_pair = d
    if a.games < 1 or a.random_plies < 0 or a.max_plies < 1 or a.byoyomi < 1:
        ap.error("--games, --max-plies and --byoyomi must be positive, --random-plies not negative")
    if a.max_plies <= a.random_plies:
        ap.error("--max-plies must exceed --random-plies")
    return a


def main(argv: Optional[Sequence[str]] = None) -> int:
    a = parse_args(argv)
    if not (os.path.isfile(a.gpsusi) and os.access(a.gpsusi, os.X_OK)):
        print(f"gen_records: error: {a.gpsusi} not found or not executable (apt-get install -y gpsshogi)",
              file=sys.stderr)
        return 2
    meta = meta_path_for(a.out)
    exists = [p for p in (a.out, meta) if os.path.exists(p) and os.path.getsize(p) > 0]
    if exists and not (a.append or a.force):
        print(f"gen_records: error: {', '.join(exists)} exists (use --append or --force)", file=sys.stderr)
        return 2
    first_line = 1
    if a.append and os.path.exists(a.out):
        first_line = count_lines(a.out) + 1
        if os.path.exists(meta) and count_lines(meta) - 1 != first_line - 1:
            print(f"gen_records: error: {meta} does not match {a.out} (row count)", file=sys.stderr)
            return 2
    mode = "a" if a.append else "w"
    write_header = not (a.append and os.path.exists(meta) and os.path.getsize(meta) > 0)

    da, db = a.depth_pair
    swap = da != db
    rng = random.Random(a.seed)
    seen: set = set()
    timeout = a.byoyomi / 1000.0 + 30.0
    resign = a.resign if a.resign > 0 else None
    date = _dt.date.today().isoformat()
    depths = sorted({da, db})
    engines: Dict[int, USIEngine] = {}

    def start_engines() -> None:
        # gpsusi takes several seconds to load: start the processes side by side
        errors: List[EngineFault] = []

        def start(e: USIEngine) -> None:
            try:
                e.start()
            except EngineFault as err:
                errors.append(err)

        for d in depths:
            engines[d] = USIEngine(a.gpsusi, {"LimitDepth": str(d), "Thread": "1", "BookDepth": "0"},
                                   f"gpsusi-d{d}")
        threads = [threading.Thread(target=start, args=(e,)) for e in engines.values()]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]

    def stop_engines() -> None:
        for e in engines.values():
            e.quit()

    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    written = faults = in_a_row = 0
    t_start = time.monotonic()
    try:
        start_engines()
        with open(a.out, mode, encoding="utf-8") as fg, open(meta, mode, encoding="utf-8") as fm:
            if write_header:
                fm.write("\t".join(META_COLUMNS) + "\n")
                fm.flush()
            opening: List[str] = []
            g = 0
            while written < a.games:
                if not swap or g % 2 == 0:
                    opening = random_opening(rng, a.random_plies, seen)
                ds, dg = (db, da) if swap and g % 2 == 1 else (da, db)
                g += 1
                t0 = time.monotonic()
                try:
                    game = play_game(engines[ds], engines[dg], opening, a.max_plies, resign, a.byoyomi, timeout)
                except EngineFault as err:
                    faults += 1
                    in_a_row += 1
                    print(f"gen_records: warning: game d{ds} vs d{dg} ({' '.join(opening)}) dropped: {err}",
                          file=sys.stderr)
                    stop_engines()
                    if in_a_row >= 3:
                        print("gen_records: error: 3 spoiled games in a row, giving up", file=sys.stderr)
                        return 1
                    start_engines()
                    continue
                in_a_row = 0
                line_no = first_line + written
                fg.write(f"{game.result} {len(game.moves)} sfen {HIRATE} moves {' '.join(game.moves)}\n")
                fm.write("\t".join(tsv(x) for x in [
                    line_no, engines[ds].id_name or "gpsusi", engines[dg].id_name or "gpsusi", "", "",
                    f"gpsusi selfplay LimitDepth {ds} vs {dg}", date, game.endgame,
                    f"d{ds}d{dg}rand/gen_records_seed{a.seed}"]) + "\n")
                fg.flush()
                fm.flush()
                written += 1
                print(f"game {written}/{a.games}: d{ds} vs d{dg} {game.result} in {len(game.moves)} plies "
                      f"({game.endgame}, {game.reason}), {time.monotonic() - t0:.1f} s", file=sys.stderr)
    except EngineFault as err:
        print(f"gen_records: error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"gen_records: interrupted after {written} games", file=sys.stderr)
        return 130
    finally:
        stop_engines()
    print(f"wrote {written} games to {a.out} and {meta} ({faults} dropped, "
          f"{time.monotonic() - t_start:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
