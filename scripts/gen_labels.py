#!/usr/bin/env python3
"""Labelled shogi positions for the learner: a teacher engine's move in positions of diverse games.

No bulk expert shogi records are reachable from here (see ../shared/data/README.md), so the
learner's data at the paper's scale is made: games start from a position of GPS Shogi's opening
book (or the even position) plus a few random legal plies, then the *teacher* plays both sides,
and every position of the game after the opening is one label: the teacher's move there, with
the game's result (for objectives that use the win probability).  A position seen before (same
board, hands, side to move; across all workers and earlier runs in the same directory) is played
through but not labelled again.

Subcommands:

  run    generate into a run directory, W worker processes (one teacher each), resumable:
             python3 scripts/gen_labels.py run --dir data-gen/gps4 --teacher gpsusi:LimitDepth=4 \\
                 --games 1000 --workers 2 --seed 1
         Kill it at any time and run the same command again: it goes on from the last finished
         game of each worker (a half-written game is cut off), and stops at --games in total.
  agree  how often candidate teachers choose the reference's move, on a sample of positions:
             python3 scripts/gen_labels.py agree --positions FILE --sample 500 \\
                 --reference gpsusi:LimitDepth=6 --teacher fsf:nodes=20000 --teacher gpsusi:LimitDepth=4
  pack   merge a run directory into learner files (xz, each below --max-mb), deduplicated:
             python3 scripts/gen_labels.py pack --dir data-gen/gps4 --out data/shogi/labels-gps4

Teachers (NAME:KEY=VALUE,...):
  gpsusi:LimitDepth=N      /usr/games/gpsusi, one thread, book off; its depth limit ends each search
  fsf:nodes=N              /usr/games/fairy-stockfish (USI, shogi), `go nodes N`
  kishi:nodes=N            this repository's target/release/kishi (or --kishi), `go nodes N`
  any teacher also takes path=BINARY and other KEY=VALUE pairs, passed as USI options.

Output of `run` (in --dir): labels-w<i>.txt, one label a line in the shared game-line format
    <result> 1 sfen <sfen> moves <usi>
(<result> is the game's: 1-0 sente won, 0-1, 1/2-1/2), and games-w<i>.tsv, one row per finished
game written after its labels are on disk (the resume point), and run.json (the settings; a
second run with other settings is refused).

Errors: a teacher that crashes, hangs (no answer within --move-timeout) or plays an illegal move
voids the game (nothing of it is written), the engine is restarted and the run goes on; three void
games in a row stop the worker with an error.  A write that fails (a full disk) stops the run with
an error; everything written before is kept and the next run resumes from it.
"""

from __future__ import annotations

import argparse
import json
import lzma
import math
import multiprocessing as mp
import os
import queue
import random
import sys
import time
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import cshogi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_records import EngineFault, USIEngine, legal_engine_move, parse_score, random_moves  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HIRATE = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
BOOK = os.path.join(REPO, "..", "shared", "data", "shogi", "gps_book_positions.txt.xz")
GAME_COLUMNS = ["game", "first_line", "labels", "plies", "result", "reason", "start", "seconds"]


# ------------------------------------------------------------- teachers --

@dataclass
class Teacher:
    kind: str                 # gpsusi | fsf | kishi
    path: str
    options: Dict[str, str]
    nodes: Optional[int]      # `go nodes N` (fsf, kishi); None: gpsusi's LimitDepth ends the search
    spec: str                 # as given, for the provenance


def parse_teacher(spec: str, kishi: str) -> Teacher:
    name, _, rest = spec.partition(":")
    opts: Dict[str, str] = {}
    for part in filter(None, rest.split(",")):
        k, eq, v = part.partition("=")
        if not eq or not k:
            raise ValueError(f"teacher {spec!r}: expected KEY=VALUE, got {part!r}")
        opts[k] = v
    path = opts.pop("path", None)
    nodes = None
    if "nodes" in opts:
        try:
            nodes = int(opts.pop("nodes"))
        except ValueError:
            raise ValueError(f"teacher {spec!r}: nodes must be an integer")
        if nodes < 1:
            raise ValueError(f"teacher {spec!r}: nodes must be positive")
    if name == "gpsusi":
        if nodes is not None:
            raise ValueError("gpsusi has no `go nodes`: use LimitDepth=N")
        opts.setdefault("LimitDepth", "4")
        opts.setdefault("Thread", "1")
        opts.setdefault("BookDepth", "0")
        path = path or "/usr/games/gpsusi"
    elif name in ("fsf", "kishi"):
        if nodes is None:
            raise ValueError(f"{name} needs nodes=N")
        opts.setdefault("Threads", "1")
        opts.setdefault("USI_Hash", "16")
        path = path or ("/usr/games/fairy-stockfish" if name == "fsf" else kishi)
    else:
        raise ValueError(f"unknown teacher {name!r} (gpsusi, fsf or kishi)")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise ValueError(f"teacher {spec!r}: {path} not found or not executable")
    return Teacher(name, path, opts, nodes, spec)


class TeacherEngine(USIEngine):
    """gen_records' USI driver, searching any position with the teacher's budget."""

    def __init__(self, t: Teacher, label: str, timeout: float):
        super().__init__(t.path, t.options, label, timeout)
        self.teacher = t

    def best(self, sfen: str, moves: Sequence[str], timeout: float) -> Tuple[str, Optional[int]]:
        pos = f"position sfen {sfen}" + (" moves " + " ".join(moves) if moves else "")
        self.send(pos)
        if self.teacher.nodes is not None:
            self.send(f"go nodes {self.teacher.nodes}")
        else:
            self.send("go btime 0 wtime 0 byoyomi 600000")
        deadline = time.monotonic() + timeout
        score: Optional[int] = None
        while True:
            tok = self.readline(deadline).split()
            if tok[:1] == ["info"] and "score" in tok and "string" not in tok:
                s = parse_score(tok)
                score = s if s is not None else score
            elif tok[:1] == ["bestmove"]:
                return (tok[1] if len(tok) > 1 else ""), score


# --------------------------------------------------------------- openings --

def pos_key(board: "cshogi.Board") -> str:
    return " ".join(board.sfen().split()[:3])


def opening(rng: random.Random, book: List[str], random_plies: int) -> Tuple[str, List[str]]:
    """A start SFEN (a book position) and 0..random_plies random legal moves after it."""
    for _ in range(100):
        sfen = rng.choice(book)
        board = cshogi.Board(sfen)
        moves = random_moves(board, rng, rng.randint(0, random_plies))
        if not board.is_game_over():
            return sfen, moves
    return HIRATE, []


# ------------------------------------------------------------------- game --

@dataclass
class GameRecord:
    result: str
    reason: str
    plies: int
    labels: List[Tuple[str, str]]   # (sfen, teacher move) in order


def play(engine: TeacherEngine, sfen: str, pre: List[str], seen: set, max_plies: int,
         resign: Optional[int], timeout: float) -> GameRecord:
    """The teacher plays both sides from `sfen` + `pre`; positions not in `seen` become labels."""
    board = cshogi.Board(sfen)
    for m in pre:
        board.push_usi(m)
    moves = list(pre)
    labels: List[Tuple[str, str]] = []
    keys = [pos_key(board)]
    own: set = set()          # labelled in this game; joins `seen` only once the game is written
    engine.new_game()

    def win(side: int) -> str:
        return "1-0" if side == cshogi.BLACK else "0-1"

    while True:
        side = board.turn
        if board.is_game_over():
            return GameRecord(win(1 - side), "checkmate", len(moves), labels)
        if len(moves) >= max_plies:
            return GameRecord("1/2-1/2", f"{max_plies} plies", len(moves), labels)
        bm, score = engine.best(sfen, moves, timeout)
        if bm == "resign" or (resign is not None and score is not None and score <= -resign):
            return GameRecord(win(1 - side), "resigned", len(moves), labels)
        if bm == "win":
            if board.is_nyugyoku():
                return GameRecord(win(side), "declared win", len(moves), labels)
            raise EngineFault(f"{engine.label}: false win declaration")
        mv = legal_engine_move(board, bm, f"{engine.label}: illegal move {bm!r} in {board.sfen()}")
        key = pos_key(board)
        if key not in seen and key not in own:
            own.add(key)
            labels.append((board.sfen(), bm))
        board.push(mv)
        moves.append(bm)
        key = pos_key(board)
        keys.append(key)
        if keys.count(key) >= 4:
            return GameRecord("1/2-1/2", "repetition", len(moves), labels)


# --------------------------------------------------------------- run files --

def labels_path(d: str, w: int) -> str:
    return os.path.join(d, f"labels-w{w}.txt")


def games_path(d: str, w: int) -> str:
    return os.path.join(d, f"games-w{w}.tsv")


def finished_games(d: str, w: int) -> List[Dict[str, str]]:
    p = games_path(d, w)
    if not os.path.exists(p):
        return []
    rows = []
    with open(p, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[0].split("\t") == GAME_COLUMNS:
        lines = lines[1:]
    for line in lines:
        cols = line.split("\t")
        if len(cols) == len(GAME_COLUMNS):   # a row cut off by a kill is not a finished game
            rows.append(dict(zip(GAME_COLUMNS, cols)))
    return rows


def repair(d: str, w: int) -> Tuple[int, int]:
    """Cuts both files of worker w back to its finished games; (games, labels) kept."""
    rows = finished_games(d, w)
    n_labels = sum(int(r["labels"]) for r in rows)
    lp, gp = labels_path(d, w), games_path(d, w)
    if os.path.exists(lp):
        with open(lp, "rb+") as f:
            for _ in range(n_labels):
                if not f.readline().endswith(b"\n"):
                    raise ValueError(f"{lp}: fewer labels than {gp} records (files do not belong together)")
            pos = f.tell()
            # Only a regular file longer than its finished games is cut (a game cut off by a kill).
            if os.fstat(f.fileno()).st_size > pos:
                f.truncate(pos)
    tmp = gp + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\t".join(GAME_COLUMNS) + "\n")
        for r in rows:
            f.write("\t".join(r[c] for c in GAME_COLUMNS) + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, gp)
    return len(rows), n_labels


def known_keys(d: str, workers: int) -> set:
    seen = set()
    for w in range(workers):
        p = labels_path(d, w)
        if os.path.isfile(p):
            with open(p, encoding="utf-8") as f:
                for line in f:
                    tok = line.split()
                    if "sfen" in tok:
                        i = tok.index("sfen")
                        seen.add(" ".join(tok[i + 1:i + 4]))
    return seen


def worker(w: int, a: argparse.Namespace, teacher: Teacher, book: List[str], games: List[int],
           first_line: int, seen: set, progress: "mp.Queue") -> None:
    """Plays games `games` (global numbers) for worker w, appending each finished game."""
    engine = TeacherEngine(teacher, f"{teacher.kind}-w{w}", a.move_timeout)
    void_in_a_row = 0
    line = first_line
    try:
        engine.start()
        with open(labels_path(a.dir, w), "a", encoding="utf-8") as fl, \
                open(games_path(a.dir, w), "a", encoding="utf-8") as fg:
            for g in games:
                rng = random.Random(f"{a.seed}:{g}")
                sfen, pre = opening(rng, book, a.random_plies)
                t0 = time.monotonic()
                try:
                    rec = play(engine, sfen, pre, seen, a.max_plies, a.resign or None, a.move_timeout)
                except EngineFault as e:
                    void_in_a_row += 1
                    progress.put(("void", w, f"game {g} void: {e}"))
                    engine.quit()
                    if void_in_a_row >= 3:
                        progress.put(("fatal", w, f"worker {w}: three void games in a row, last: {e}"))
                        return
                    engine.start()
                    continue
                void_in_a_row = 0
                for s, mv in rec.labels:
                    fl.write(f"{rec.result} 1 sfen {s} moves {mv}\n")
                fl.flush()
                os.fsync(fl.fileno())
                start = sfen + (" moves " + " ".join(pre) if pre else "")
                row = [str(g), str(line), str(len(rec.labels)), str(rec.plies), rec.result, rec.reason,
                       start, f"{time.monotonic() - t0:.1f}"]
                fg.write("\t".join(row) + "\n")
                fg.flush()
                os.fsync(fg.fileno())
                line += len(rec.labels)
                seen.update(" ".join(s.split()[:3]) for s, _ in rec.labels)
                progress.put(("game", w, len(rec.labels), rec.plies - len(pre), time.monotonic() - t0))
    except OSError as e:
        progress.put(("fatal", w, f"worker {w}: cannot write: {e}"))
    except EngineFault as e:
        progress.put(("fatal", w, f"worker {w}: {e}"))
    finally:
        engine.quit()
        progress.put(("done", w))


def cmd_run(a: argparse.Namespace) -> int:
    try:
        teacher = parse_teacher(a.teacher, a.kishi)
        book = game_positions(a.book, 0) if a.book != "hirate" else [HIRATE]
        if not book:
            raise ValueError(f"{a.book}: no positions")
    except ValueError as e:
        print(f"gen_labels: error: {e}", file=sys.stderr)
        return 2
    settings = {"teacher": a.teacher, "workers": a.workers, "seed": a.seed, "random_plies": a.random_plies,
                "book": os.path.basename(a.book), "max_plies": a.max_plies, "resign": a.resign}
    os.makedirs(a.dir, exist_ok=True)
    sp = os.path.join(a.dir, "run.json")
    if os.path.exists(sp):
        try:
            with open(sp, encoding="utf-8") as f:
                old = json.load(f)
        except (OSError, ValueError) as e:
            print(f"gen_labels: error: {sp}: {e}", file=sys.stderr)
            return 2
        if old != settings:
            print(f"gen_labels: error: {a.dir} was made with other settings {old}; use a new --dir",
                  file=sys.stderr)
            return 2
    else:
        tmp = sp + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(settings, f, indent=1)
        os.replace(tmp, sp)
    try:
        state = [repair(a.dir, w) for w in range(a.workers)]
    except (OSError, ValueError) as e:
        print(f"gen_labels: error: {e}", file=sys.stderr)
        return 2
    done = {int(r["game"]) for w in range(a.workers) for r in finished_games(a.dir, w)}
    # Game g belongs to worker g % W: a resumed run replays nothing and leaves no gap.
    todo = [[g for g in range(w, a.games, a.workers) if g not in done] for w in range(a.workers)]
    seen = known_keys(a.dir, a.workers)
    n_todo = sum(map(len, todo))
    print(f"gen_labels: {a.dir}: {len(done)} games / {sum(s[1] for s in state)} labels already, "
          f"{n_todo} games to play, teacher {a.teacher}, {a.workers} workers", file=sys.stderr)
    if n_todo == 0:
        return 0
    # Workers share nothing but the key set they start from; duplicates between workers made in
    # this run are removed by `pack` (the learner deduplicates as well).
    progress: "mp.Queue" = mp.Queue()
    procs = []
    for w in range(a.workers):
        if todo[w]:
            first = state[w][1] + 1
            p = mp.Process(target=worker, args=(w, a, teacher, book, todo[w], first, seen, progress))
            p.start()
            procs.append(p)
    bar = None
    if not a.no_progress:
        from tqdm import tqdm
        bar = tqdm(total=n_todo, unit="game", file=sys.stderr)
    t0, labels, fatal, running = time.monotonic(), 0, None, len(procs)
    while running:
        try:
            msg = progress.get(timeout=1.0)
        except queue.Empty:
            if not any(p.is_alive() for p in procs):
                break
            continue
        if msg[0] == "game":
            labels += msg[2]
            rate = labels / max(1e-9, time.monotonic() - t0) / a.workers
            if bar:
                bar.update(1)
                bar.set_postfix(labels=labels, per_core_s=f"{rate:.2f}")
        elif msg[0] == "void":
            print(f"gen_labels: {msg[2]}", file=sys.stderr)
        elif msg[0] == "fatal":
            fatal = msg[2]
            print(f"gen_labels: error: {fatal}", file=sys.stderr)
        elif msg[0] == "done":
            running -= 1
    for p in procs:
        p.join()
    if bar:
        bar.close()
    secs = time.monotonic() - t0
    print(f"gen_labels: {labels} labels in {secs:.0f} s: {labels / max(secs, 1e-9) / a.workers:.2f} labels "
          f"per second per core ({a.workers} workers)", file=sys.stderr)
    return 1 if fatal else 0


# ------------------------------------------------------------------ agree --

def open_text(path: str):
    """A text file for reading, xz-compressed when its name ends in .xz."""
    return lzma.open(path, "rt", encoding="utf-8") if path.endswith(".xz") else open(path, encoding="utf-8")


def game_positions(path: str, min_ply: int) -> List[str]:
    """Every position of a game-line file that has a move after it, from ply `min_ply` on
    (a one-move book line gives its start position when its ply is not counted: book SFENs
    carry their own move numbers, so the ply is the SFEN's move number - 1)."""
    out = []
    try:
        with open_text(path) as f:
            for n, line in enumerate(f, 1):
                tok = line.split()
                if not tok:
                    continue
                try:
                    i, j = tok.index("sfen"), tok.index("moves")
                    board = cshogi.Board(" ".join(tok[i + 1:j]))
                    ply0 = int(tok[j - 1]) - 1
                except (ValueError, IndexError):
                    raise ValueError(f"{path}:{n}: not a game line (sfen … moves …)")
                for k, m in enumerate(tok[j + 1:]):
                    if ply0 + k >= min_ply:
                        out.append(board.sfen())
                    mv = board.move_from_usi(m)
                    if not mv or mv not in set(board.legal_moves):
                        raise ValueError(f"{path}:{n}: illegal move {m}")
                    board.push(mv)
    except (OSError, EOFError, lzma.LZMAError) as e:
        raise ValueError(f"{path}: {e}")
    return out


def sample_positions(path: str, n: int, seed: int, min_ply: int = 0) -> List[str]:
    if path.endswith(".sfen"):
        with open(path, encoding="utf-8") as f:
            sfens = [s.strip() for s in f if s.strip()]
    else:
        sfens = game_positions(path, min_ply)
    # One entry per position (board, hands, side to move), in a seeded order.
    by_key = {" ".join(s.split()[:3]): s for s in sfens}
    uniq = [by_key[k] for k in sorted(by_key)]
    random.Random(seed).shuffle(uniq)
    if not uniq:
        raise ValueError(f"{path}: no positions from ply {min_ply} on")
    return uniq[:n]


def wilson(k: int, n: int) -> Tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    z, p = 1.96, k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, c - h), min(1.0, c + h)


def answers(t: Teacher, sfens: List[str], timeout: float, jobs: int = 1) -> Tuple[List[Optional[str]], float]:
    """The teacher's move in each position (None where it crashed or hung: the engine is restarted
    and the study goes on), and the mean seconds of engine time per position. `jobs` engines
    share the list (one process each)."""

    def chunk(part: List[Tuple[int, str]]) -> List[Tuple[int, Optional[str], float]]:
        e = TeacherEngine(t, t.kind, timeout)
        e.start()
        out = []
        try:
            for i, s in part:
                t0 = time.monotonic()
                try:
                    e.new_game()
                    mv: Optional[str] = e.best(s, [], timeout)[0]
                except EngineFault as err:
                    print(f"gen_labels: {t.spec}: position {i}: {err}; restarting it", file=sys.stderr)
                    mv = None
                    e.quit()
                    e.start()
                out.append((i, mv, time.monotonic() - t0))
        finally:
            e.quit()
        return out

    from concurrent.futures import ThreadPoolExecutor
    items = list(enumerate(sfens))
    parts = [items[j::jobs] for j in range(jobs)]
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        done = [r for rs in ex.map(chunk, parts) for r in rs]
    moves: List[Optional[str]] = [None] * len(sfens)
    for i, mv, _ in done:
        moves[i] = mv
    return moves, sum(d for _, _, d in done) / max(1, len(sfens))


def cmd_agree(a: argparse.Namespace) -> int:
    try:
        ref = parse_teacher(a.reference, a.kishi)
        cands = [parse_teacher(t, a.kishi) for t in a.teacher]
        sfens = sample_positions(a.positions, a.sample, a.seed, a.min_ply)
    except ValueError as e:
        print(f"gen_labels: error: {e}", file=sys.stderr)
        return 2
    result = {"reference": ref.spec, "positions_file": a.positions, "sample": len(sfens), "seed": a.seed,
              "min_ply": a.min_ply, "rows": [], "command": "python3 scripts/gen_labels.py " + " ".join(sys.argv[1:])}

    def save() -> None:
        # Written after every teacher, so a long study that is stopped keeps what it measured.
        if a.json:
            tmp = a.json + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(result, f, indent=1)
            os.replace(tmp, a.json)

    try:
        ref_moves, ref_s = answers(ref, sfens, a.move_timeout, a.jobs)
        result["reference_seconds_per_position"] = ref_s
        result["reference_moves"] = ref_moves
        result["sfens"] = sfens
        save()
        for t in cands:
            mv, s = answers(t, sfens, a.move_timeout, a.jobs)
            # Positions the reference could not answer are left out; a teacher's missing answer
            # counts as a disagreement.
            pairs = [(x, y) for x, y in zip(mv, ref_moves) if y is not None]
            k, n = sum(x == y for x, y in pairs), len(pairs)
            lo, hi = wilson(k, n)
            result["rows"].append({"teacher": t.spec, "agree": k, "positions": n, "rate": k / max(1, n),
                                   "interval95": [lo, hi], "seconds_per_position": s,
                                   "no_answer": sum(x is None for x in mv)})
            save()
    except (EngineFault, OSError) as e:
        print(f"gen_labels: error: {e}", file=sys.stderr)
        return 1
    rows = result["rows"]
    print(f"reference {ref.spec}: {ref_s:.2f} s/position, {len(sfens)} positions")
    for r in rows:
        print(f"{r['teacher']:32} agrees {r['agree']}/{r['positions']} = {100 * r['rate']:.1f}% "
              f"[{100 * r['interval95'][0]:.1f}, {100 * r['interval95'][1]:.1f}]  "
              f"{r['seconds_per_position']:.3f} s/position")
    return 0


# ------------------------------------------------------------------- pack --

def iter_labels(d: str) -> Iterator[Tuple[int, str]]:
    """(game number, label line) of every finished game, worker by worker, in file order."""
    ws = sorted(int(n[len("labels-w"):-len(".txt")]) for n in os.listdir(d)
                if n.startswith("labels-w") and n.endswith(".txt"))
    for w in ws:
        games = finished_games(d, w)
        with open(labels_path(d, w), encoding="utf-8") as f:
            for g in games:
                for _ in range(int(g["labels"])):
                    line = f.readline()
                    if not line.endswith("\n"):
                        raise ValueError(f"{labels_path(d, w)}: fewer labels than its games record")
                    yield int(g["game"]), line
            # Lines past the finished games are the tail of a game still being written.


def label_key(line: str) -> str:
    """The position of a label line: SFEN board, side to move and hands."""
    tok = line.split()
    i = tok.index("sfen")
    return " ".join(tok[i + 1:i + 4])


def cmd_pack(a: argparse.Namespace) -> int:
    if not os.path.isdir(a.dir):
        print(f"gen_labels: error: {a.dir} is not a run directory", file=sys.stderr)
        return 2
    if a.test_every < 0:
        print("gen_labels: error: --test-every must be 0 (no test file) or positive", file=sys.stderr)
        return 2
    # Positions of older label files (--exclude) are not new data: dropped from every part, so
    # that a later run adds only positions no earlier file has (and its test set none of theirs).
    excluded = set()
    try:
        for f in [f for f in (a.exclude or "").split(",") if f]:
            with open_text(f) as fh:
                for n, line in enumerate(fh, 1):
                    if not line.strip():
                        continue
                    try:
                        excluded.add(label_key(line))
                    except (ValueError, IndexError):
                        raise ValueError(f"{f}:{n}: not a label line (no 'sfen <board> <side> <hands>')")
    except (OSError, EOFError, lzma.LZMAError, UnicodeDecodeError, ValueError) as e:
        print(f"gen_labels: error: --exclude: {e}", file=sys.stderr)
        return 2
    seen, part, written, size, dropped_old = set(excluded), 0, 0, 0, 0
    limit = int(a.max_mb * 1024 * 1024)
    out = None
    paths = []

    def is_test(game: int) -> bool:
        return a.test_every > 0 and game % a.test_every == a.test_every - 1

    def open_part():
        nonlocal out, part, size
        part += 1
        p = f"{a.out}-{part:03d}.txt.xz"
        paths.append(p)
        size = 0
        return lzma.open(p + ".tmp", "wt", encoding="utf-8", preset=9)

    test_path, n_test, test_games = f"{a.out}-test.txt.xz", 0, set()
    try:
        if a.test_every:
            # The held-out games first: their positions are kept out of the training parts too, so
            # that no test position is also a training position (early positions recur across games).
            with lzma.open(test_path + ".tmp", "wt", encoding="utf-8", preset=9) as t:
                for game, line in iter_labels(a.dir):
                    if not is_test(game):
                        continue
                    test_games.add(game)
                    key = label_key(line)
                    if key not in seen:
                        seen.add(key)
                        t.write(line)
                        n_test += 1
                    else:
                        dropped_old += key in excluded
        for game, line in iter_labels(a.dir):
            if is_test(game):
                continue
            key = label_key(line)
            if key in seen:
                dropped_old += key in excluded
                continue
            seen.add(key)
            if out is None or size >= limit * 5:   # ~5:1 compression of this format; checked below
                if out is not None:
                    out.close()
                out = open_part()
            out.write(line)
            size += len(line)
            written += 1
        if out is not None:
            out.close()
        if a.test_every:
            paths.append(test_path)
        for p in paths:
            if os.path.getsize(p + ".tmp") > limit:
                raise OSError(f"{p}: compressed part over {a.max_mb} MB; use a smaller --max-mb")
        for p in paths:
            os.replace(p + ".tmp", p)
    except (OSError, ValueError) as e:
        print(f"gen_labels: error: {e}", file=sys.stderr)
        return 1
    if excluded:
        print(f"gen_labels: {dropped_old} labels left out: their positions are in the --exclude files "
              f"({len(excluded)} positions)")
    print(f"gen_labels: {written} distinct labels in {len(paths) - bool(a.test_every)} files: "
          f"{' '.join(p for p in paths if p != test_path)}")
    if a.test_every:
        print(f"gen_labels: {n_test} test labels from {len(test_games)} held-out games "
              f"(every game numbered k·{a.test_every} − 1) in {test_path}")
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--kishi", default=os.path.join(REPO, "target", "release", "kishi"))
    ap.add_argument("--move-timeout", type=float, default=60.0, help="seconds before a teacher counts as hung")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="generate labels into a run directory (resumable)")
    r.add_argument("--dir", required=True)
    r.add_argument("--teacher", required=True)
    r.add_argument("--games", type=int, required=True, help="games in total (a resumed run stops there too)")
    r.add_argument("--workers", type=int, default=2)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--book", default=BOOK, help="start positions (game-line file) or 'hirate'")
    r.add_argument("--random-plies", type=int, default=6, help="up to this many random plies after the start")
    r.add_argument("--max-plies", type=int, default=300)
    r.add_argument("--resign", type=int, default=3000, help="end a game when the mover's score <= -this (0: off)")
    r.add_argument("--no-progress", action="store_true")
    g = sub.add_parser("agree", help="agreement of candidate teachers with a reference")
    g.add_argument("--positions", default=BOOK, help="game-line file (or .sfen, one SFEN a line)")
    g.add_argument("--sample", type=int, default=500)
    g.add_argument("--min-ply", type=int, default=0, help="only positions from this ply on")
    g.add_argument("--jobs", type=int, default=1, help="engines per teacher running side by side")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--reference", required=True)
    g.add_argument("--teacher", action="append", required=True)
    g.add_argument("--json", help="write the result here too")
    p = sub.add_parser("pack", help="merge a run directory into deduplicated xz files")
    p.add_argument("--dir", required=True)
    p.add_argument("--out", required=True, help="path prefix: <out>-001.txt.xz, ...")
    p.add_argument("--max-mb", type=float, default=45.0)
    p.add_argument("--exclude", default="",
                   help="comma-separated label files (.txt or .txt.xz) whose positions (board, side, "
                        "hands) are left out of every part: older packs, so that only new positions are added")
    p.add_argument("--test-every", type=int, default=0,
                   help="hold out every K-th game (game numbers K-1, 2K-1, ...) as <out>-test.txt.xz, "
                        "a test set split by game (default 0: none)")
    a = ap.parse_args(argv)
    if a.cmd == "run" and (a.games < 1 or a.workers < 1 or a.random_plies < 0 or a.max_plies < 1):
        ap.error("--games, --workers and --max-plies must be positive, --random-plies not negative")
    return {"run": cmd_run, "agree": cmd_agree, "pack": cmd_pack}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
