#!/usr/bin/env python3
"""Chess positions labelled by a teacher engine's search: score and move, for `kishi learn texel`.

Positions come from the shared expert games (`../shared/data/chess/chess_gm2400_train.txt.xz`,
2400+ players): every game is replayed and each position after the first --skip-plies plies is
kept with probability --rate (seeded per game, so a resumed run picks the same ones). A position
already labelled (same board, side, castling and en-passant; across all workers and earlier runs
in the same directory) is skipped (within a worker's run; `pack` removes the rest). The teacher (Stockfish 15.1 from Debian, one thread) searches
each kept position for a fixed number of nodes; the label is its score from the side to move in
centipawns (EPD `ce`; mate scores become +-MATE_CP) and its move (`sm`, SAN), with the game's
result (`c9 "1-0"`, the usual field of Texel-tuning sets).

Subcommands:

  run    label into a run directory with W worker processes (one teacher each), resumable:
             python3 scripts/label_chess.py run --dir /work/labels/chess-sf3k --nodes 3000 \\
                 --workers 2 --rate 0.35
         Kill it at any time and run the same command again: each worker goes on after its last
         finished game (a half-written game's lines are cut off). --games FILE and --teacher
         ENGINE (any UCI engine; default Debian's Stockfish) replace the defaults.
         --random-plies N labels, instead of each kept position, the position after 1 to N
         uniformly random legal moves from it (the count and the moves seeded by the game and
         the ply): the positions a search tree holds beside the games' own, where a side has
         just blundered (its `id` ends in `r<k>`, k the number of random moves).
  pack   merge a run directory into learner files (EPD, xz, each below --max-mb), deduplicated,
         every --test-every'th game held out into <out>-test.epd.xz:
             python3 scripts/label_chess.py pack --dir /work/labels/chess-sf3k \\
                 --out data/chess/labels-sf3k --test-every 20
         --dir may be repeated: the runs are merged and, where several label the same position,
         the first directory's label is kept (e.g. a deeper teacher's run over the first games
         before a shallower run over all of them).

Output of `run` (in --dir): labels-w<i>.epd (one label a line:
    <FEN> sm <SAN>; ce <cp>; c9 "<result>"; id "g<game>p<ply>";
), games-w<i>.tsv (one row per finished game, written after its labels are on disk: the resume
point) and run.json (the settings; a second run with other settings is refused).

Errors: a teacher that crashes or does not answer within --move-timeout seconds is restarted and
the game is labelled again from its start (nothing of a void game is kept); three failures in a
row stop the worker with an error. A write that fails (a full disk) stops the run with an error;
everything written before is kept and the next run resumes from it.
"""

from __future__ import annotations

import argparse
import json
import lzma
import multiprocessing as mp
import os
import random
import queue
import subprocess
import sys
import threading
import time

import chess

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = os.path.join(REPO, "..", "shared", "data", "chess", "chess_gm2400_train.txt.xz")
STOCKFISH = "/usr/games/stockfish"
MATE_CP = 3000
SETTINGS = ["nodes", "rate", "skip_plies", "seed", "games_file", "teacher", "random_plies"]


class TeacherFault(Exception):
    pass


class Teacher:
    """Stockfish over UCI: `go nodes N`, the last score and the best move."""

    def __init__(self, path: str, nodes: int, timeout: float):
        self.path, self.nodes, self.timeout = path, nodes, timeout
        self.p = None
        self.start()

    def start(self):
        self.p = subprocess.Popen([self.path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        # A reader thread feeds a queue, so that a silent teacher is noticed by a timeout
        # (select() on a buffered pipe misses lines already read into the buffer).
        self.lines = queue.Queue()
        threading.Thread(target=self.pump, args=(self.p.stdout, self.lines), daemon=True).start()
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 16")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line: str):
        try:
            self.p.stdin.write(line + "\n")
            self.p.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise TeacherFault(f"teacher pipe closed: {e}")

    @staticmethod
    def pump(stream, q):
        for line in stream:
            q.put(line)
        q.put("")

    def readline(self) -> str:
        try:
            line = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            raise TeacherFault(f"teacher silent for {self.timeout} s")
        if not line:
            raise TeacherFault("teacher exited")
        return line

    def wait_for(self, word: str):
        while not self.readline().startswith(word):
            pass

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok")

    def label(self, fen: str):
        self.send("position fen " + fen)
        self.send(f"go nodes {self.nodes}")
        score = None
        while True:
            line = self.readline()
            if line.startswith("info") and " score " in line and "lowerbound" not in line \
                    and "upperbound" not in line:
                w = line.split()
                i = w.index("score")
                if w[i + 1] == "cp":
                    score = int(w[i + 2])
                elif w[i + 1] == "mate":
                    m = int(w[i + 2])
                    score = MATE_CP if m > 0 else -MATE_CP
            elif line.startswith("bestmove"):
                mv = line.split()[1]
                if score is None:
                    raise TeacherFault(f"no score before '{line.strip()}'")
                return score, mv

    def restart(self):
        try:
            self.p.kill()
            self.p.wait(5)
        except Exception:
            pass
        self.start()

    def close(self):
        try:
            self.send("quit")
            self.p.wait(5)
        except Exception:
            self.p.kill()


def teacher_id(path: str) -> str:
    """The teacher's first line after `uci` (its name and version), recorded in run.json."""
    try:
        out = subprocess.run([path], input="uci\nquit\n", capture_output=True, text=True,
                             timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SystemExit(f"{path}: cannot start the teacher ({e})")
    return out.split("\n")[0].strip()


def board_key(b: chess.Board) -> str:
    return " ".join(b.fen().split()[:4])


def read_games(path: str, limit: int):
    with lzma.open(path, "rt") as f:
        for i, line in enumerate(f):
            if i >= limit:
                return
            yield i, line


def parse_game(line: str):
    w = line.split()
    if len(w) < 4 or w[2] != "fen" or "moves" not in w:
        raise ValueError("not a chess game line")
    k = w.index("moves")
    return w[0], " ".join(w[3:k]), w[k + 1:]


def finished_games(dirname: str, worker: int):
    """Game numbers finished by a worker, and the number of label lines they wrote."""
    done, lines = set(), 0
    p = os.path.join(dirname, f"games-w{worker}.tsv")
    if os.path.exists(p):
        with open(p) as f:
            for row in f:
                c = row.rstrip("\n").split("\t")
                if len(c) >= 2 and c[0].isdigit():
                    done.add(int(c[0]))
                    lines += int(c[1])
    return done, lines


def cut_labels(path: str, keep: int):
    """Drops label lines past the last finished game (a game cut off by a kill)."""
    if not os.path.exists(path):
        return
    with open(path, "rb") as f:
        data = f.read().split(b"\n")
    rows = [r for r in data if r]
    if len(rows) > keep:
        with open(path + ".tmp", "wb") as f:
            f.write(b"".join(r + b"\n" for r in rows[:keep]))
            f.flush()
            os.fsync(f.fileno())
        os.replace(path + ".tmp", path)


def known_keys(dirname: str, workers: int):
    keys = set()
    for w in range(workers):
        p = os.path.join(dirname, f"labels-w{w}.epd")
        if os.path.exists(p):
            with open(p) as f:
                for row in f:
                    keys.add(" ".join(row.split()[:4]))
    return keys


def worker(w: int, args, counter, shared_keys):
    done, nlines = finished_games(args.dir, w)
    lab_path = os.path.join(args.dir, f"labels-w{w}.epd")
    cut_labels(lab_path, nlines)
    seen = set(shared_keys)
    teacher = Teacher(args.teacher, args.nodes, args.move_timeout)
    failures = 0
    lab = open(lab_path, "a")
    games = open(os.path.join(args.dir, f"games-w{w}.tsv"), "a")
    try:
        for gi, line in read_games(args.games, args.max_games):
            if gi % args.workers != w or gi in done:
                continue
            result, fen, moves = parse_game(line)
            rng = random.Random(args.seed * 1_000_003 + gi)
            picks = [ply >= args.skip_plies and rng.random() < args.rate for ply in range(len(moves))]
            while True:
                try:
                    out = label_game(teacher, fen, moves, picks, result, gi, seen,
                                     args.random_plies, args.seed)
                    failures = 0
                    break
                except TeacherFault as e:
                    failures += 1
                    print(f"worker {w}: game {gi}: {e}; restarting the teacher", file=sys.stderr)
                    if failures >= 3:
                        raise SystemExit(f"worker {w}: three teacher failures in a row, stopping")
                    teacher.restart()
            try:
                lab.write("".join(out))
                lab.flush()
                os.fsync(lab.fileno())
                games.write(f"{gi}\t{len(out)}\n")
                games.flush()
                os.fsync(games.fileno())
            except OSError as e:
                raise SystemExit(f"worker {w}: cannot write the labels ({e}); kept what was written")
            with counter.get_lock():
                counter.value += len(out)
    finally:
        teacher.close()
        lab.close()
        games.close()


def random_walk(b: chess.Board, rng: random.Random, most: int):
    """The board after 1..=`most` uniformly random legal moves from `b` (a copy), and their
    number; None when the walk ends the game."""
    b = b.copy(stack=False)
    k = rng.randint(1, most)
    for _ in range(k):
        moves = list(b.legal_moves)
        if not moves:
            return None
        b.push(moves[rng.randrange(len(moves))])
    return None if b.is_game_over() else (b, k)


def label_game(teacher, fen, moves, picks, result, gi, seen, random_plies=0, seed=1):
    b = chess.Board(fen)
    teacher.new_game()
    out = []
    for ply, uci in enumerate(moves):
        if picks[ply] and not b.is_game_over():
            pos, tag = b, ""
            if random_plies > 0:
                walk = random_walk(b, random.Random((seed * 1_000_003 + gi) * 1_009 + ply),
                                   random_plies)
                pos, tag = (walk[0], f"r{walk[1]}") if walk else (None, "")
            key = board_key(pos) if pos is not None else None
            if pos is not None and key not in seen and pos.legal_moves.count() >= 2:
                seen.add(key)
                cp, best = teacher.label(pos.fen())
                mv = chess.Move.from_uci(best)
                if mv not in pos.legal_moves:
                    raise TeacherFault(f"illegal teacher move {best} in {pos.fen()}")
                out.append(f'{pos.fen()} sm {pos.san(mv)}; ce {cp}; c9 "{result}"; '
                           f'id "g{gi}p{ply}{tag}";\n')
        b.push_uci(uci)
    return out


def game_of(r: str) -> int:
    """The game number of a label line (its `id "g<game>p<ply>"`)."""
    i = r.index('id "g') + 5
    return int(r[i:r.index("p", i)])


def cmd_run(args):
    if args.random_plies < 0:
        raise SystemExit(f"--random-plies {args.random_plies}: must be 0 or more")
    os.makedirs(args.dir, exist_ok=True)
    settings = {"nodes": args.nodes, "rate": args.rate, "skip_plies": args.skip_plies,
                "seed": args.seed, "games_file": os.path.basename(args.games),
                "teacher": teacher_id(args.teacher), "random_plies": args.random_plies}
    rj = os.path.join(args.dir, "run.json")
    if os.path.exists(rj):
        old = json.load(open(rj))
        old.setdefault("random_plies", 0)  # runs from before the option labelled the games' own
        diff = [k for k in SETTINGS if old.get(k) != settings.get(k)]
        if diff:
            raise SystemExit(f"{rj}: made with other settings ({', '.join(diff)}); use another --dir")
    else:
        with open(rj + ".tmp", "w") as f:
            json.dump(settings, f, indent=1)
        os.replace(rj + ".tmp", rj)
    keys = known_keys(args.dir, args.workers)
    start = len(keys)
    counter = mp.Value("q", 0)
    procs = [mp.Process(target=worker, args=(w, args, counter, keys)) for w in range(args.workers)]
    for p in procs:
        p.start()
    t0 = time.time()
    while any(p.is_alive() for p in procs):
        time.sleep(10)
        n = counter.value
        dt = time.time() - t0
        print(f"labels {start + n} (+{n} in {dt:.0f} s: {n / max(dt, 1e-9):.1f}/s, "
              f"{n / max(dt, 1e-9) / args.workers:.1f}/s per worker)", flush=True)
    bad = [p.exitcode for p in procs if p.exitcode]
    if bad:
        raise SystemExit(f"a worker stopped with an error (exit codes {bad})")


def cmd_pack(args):
    # (game, priority, line): with several --dir, the first one's label of a position wins, so a
    # deeper teacher's labels of some games can replace a shallower run's.
    rows, games = [], set()
    dirs = list(dict.fromkeys(args.dir))
    for prio, d in enumerate(dirs):
        if not os.path.exists(os.path.join(d, "run.json")):
            raise SystemExit(f"{d}: not a label run directory (no run.json)")
        for name in sorted(os.listdir(d)):
            if name.startswith("labels-w") and name.endswith(".epd"):
                w = int(name[len("labels-w"):-len(".epd")])
                done, keep = finished_games(d, w)
                games |= done
                # Only the labels of finished games (a killed run may have written part of one).
                with open(os.path.join(d, name)) as f:
                    rows.extend((game_of(r), prio, r) for _, r in zip(range(keep), f))

    rows.sort()
    from_dir = [0] * len(dirs)
    seen, train, test, clock_over = set(), [], [], 0
    for gi, prio, r in rows:
        k = " ".join(r.split()[:4])
        if k in seen:
            continue
        if int(r.split()[4]) > 100:
            # Past the fifty-move rule's claim (a game played on unclaimed): a FEN reader may
            # refuse the clock (kishi's does), and the score of a claimable draw says little.
            clock_over += 1
            continue
        seen.add(k)
        from_dir[prio] += 1
        (test if args.test_every and gi % args.test_every == args.test_every - 1 else train).append(r)
    # Drop training positions that also occur in the test games.
    test_keys = {" ".join(r.split()[:4]) for r in test}
    train = [r for r in train if " ".join(r.split()[:4]) not in test_keys]
    limit = int(args.max_mb * 1e6)
    part, buf, written = 1, [], []

    def flush_part(buf, part):
        path = f"{args.out}-{part:03d}.epd.xz"
        with lzma.open(path + ".tmp", "wt", preset=9) as f:
            f.writelines(buf)
        os.replace(path + ".tmp", path)
        written.append((path, len(buf)))

    # About 22 bytes a label once compressed: cut parts by an estimate, then check the size.
    per_part = max(1000, limit // 24)
    for i in range(0, len(train), per_part):
        flush_part(train[i:i + per_part], part)
        part += 1
    if test:
        path = f"{args.out}-test.epd.xz"
        with lzma.open(path + ".tmp", "wt", preset=9) as f:
            f.writelines(test)
        os.replace(path + ".tmp", path)
        written.append((path, len(test)))
    print(f"{len(games)} finished games, {len(rows)} labels, {len(seen)} distinct positions "
          f"({clock_over} left out: halfmove clock over 100): {len(train)} training, {len(test)} test")
    if len(dirs) > 1:
        print("labels kept per directory: " + ", ".join(f"{d} {n}" for d, n in zip(dirs, from_dir)))
    for path, n in written:
        size = os.path.getsize(path)
        print(f"{path}: {n} labels, {size / 1e6:.1f} MB")
        if size > limit:
            raise SystemExit(f"{path} is over {args.max_mb} MB: pack with a smaller --max-mb")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--dir", required=True)
    r.add_argument("--nodes", type=int, default=3000)
    r.add_argument("--workers", type=int, default=2)
    r.add_argument("--rate", type=float, default=0.35)
    r.add_argument("--skip-plies", type=int, default=8)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--max-games", type=int, default=10**9, help="use the first N games of the file")
    r.add_argument("--move-timeout", type=float, default=30.0)
    r.add_argument("--games", default=GAMES, help="game file (.txt.xz, the shared data's format)")
    r.add_argument("--teacher", default=STOCKFISH, help="UCI engine of the labels")
    r.add_argument("--random-plies", type=int, default=0,
                   help="label the position after 1..N random legal moves instead (0: the game's)")
    p = sub.add_parser("pack")
    p.add_argument("--dir", required=True, action="append",
                   help="a run directory; repeat it to merge runs: where two label the same "
                        "position, the first --dir's label is kept")
    p.add_argument("--out", required=True)
    p.add_argument("--test-every", type=int, default=20)
    p.add_argument("--max-mb", type=float, default=45.0)
    args = ap.parse_args()
    if args.cmd == "run":
        if not os.path.exists(args.games):
            raise SystemExit(f"{args.games}: not found (the shared data folder must sit beside the repository)")
        if not os.access(args.teacher, os.X_OK):
            raise SystemExit(f"{args.teacher}: no such engine (apt-get install stockfish)")
        cmd_run(args)
    else:
        cmd_pack(args)


if __name__ == "__main__":
    main()
