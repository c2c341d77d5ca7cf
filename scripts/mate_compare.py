#!/usr/bin/env python3
"""Side-by-side tsume solving: kishi's df-pn solver (`kishi mate`) and gpsusi (`go mate`).

gpsusi does not answer `go mate` for a position without sente's king (the tsume convention, which
kishi reads), so both engines are given the same problems with sente's king added: on an empty
square that no gote piece attacks or is aligned with (no pins, no discovered checks), as far from
gote's king as possible; gote's hand becomes every piece neither on the board nor in sente's hand.
The square is listed in the output, since the king can change a problem (gote may drop a piece
with check on it).

  scripts/mate_compare.py prepare  --tsv data/tsume/zukou.tsv --out /tmp/zukou_k.tsv
  scripts/mate_compare.py gps      --tsv /tmp/zukou_k.tsv --time-ms 1000 --out /tmp/gps_1s.tsv
  kishi mate /tmp/zukou_k.tsv --time-ms 1000 --out /tmp/kishi_1s.tsv
  scripts/mate_compare.py table    --runs gps1s=/tmp/gps_1s.tsv kishi1s=/tmp/kishi_1s.tsv ...
  scripts/mate_compare.py diverge  --tsv data/tsume/zukou.tsv --results /tmp/kishi.tsv --out /tmp/div.tsv

`diverge` explains found lengths that differ from the stated ones: for each such problem it finds
the first ply where kishi's line leaves the stated one; when that is a defender's move, it solves
the position after kishi's defence again (`kishi mate --nodes N`) and reports the total length
and whether the rest was shown to be the shortest mate. A total above the stated length with
`shortest` yes means the defender has a longer defence than the stated line gives it.

`gps` runs one gpsusi process (`--threads`: its Thread option, 1 by default, at most 2), `usinewgame` + `position` + `go mate T` per
problem; the time is the wall clock from `go mate` to the `checkmate` line. A mate line is
checked by replaying it in kishi (`position … moves …` accepted, then no legal move for gote:
`go depth 1` answers `bestmove resign`); lines that fail are counted as wrong, not solved.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

SET = {"P": 18, "L": 4, "N": 4, "S": 4, "G": 4, "B": 2, "R": 2, "K": 2}
HAND_ORDER = "RBGSNLP"


def parse_board(field):
    """{(file, rank): piece} with file 1..9, rank 1..9 (a..i); piece like 'p', '+R'."""
    board = {}
    for r, row in enumerate(field.split("/")):
        f = 9
        promo = False
        for c in row:
            if c.isdigit():
                f -= int(c)
            elif c == "+":
                promo = True
            else:
                board[(f, r + 1)] = ("+" if promo else "") + c
                f -= 1
                promo = False
    return board


def board_field(board):
    rows = []
    for r in range(1, 10):
        row, empty = "", 0
        for f in range(9, 0, -1):
            p = board.get((f, r))
            if p is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += p
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows)


def parse_hand(field):
    hand = {}
    n = ""
    for c in field:
        if c == "-":
            continue
        if c.isdigit():
            n += c
            continue
        hand[c] = hand.get(c, 0) + (int(n) if n else 1)
        n = ""
    return hand


def gote_attacks(board, sq):
    """Whether any gote piece attacks `sq` (gote moves towards rank 9)."""
    occupied = set(board)
    for (f, r), p in board.items():
        if not p[-1].islower():
            continue
        kind = p.upper()
        steps, slides = [], []
        gold = [(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0), (0, -1)]
        if kind == "P":
            steps = [(0, 1)]
        elif kind == "N":
            steps = [(1, 2), (-1, 2)]
        elif kind == "S":
            steps = [(0, 1), (1, 1), (-1, 1), (1, -1), (-1, -1)]
        elif kind in ("G", "+P", "+L", "+N", "+S"):
            steps = gold
        elif kind == "K":
            steps = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)]
        elif kind == "L":
            slides = [(0, 1)]
        elif kind == "B":
            slides = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
        elif kind == "R":
            slides = [(0, 1), (0, -1), (1, 0), (-1, 0)]
        elif kind == "+B":
            slides = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
            steps = [(0, 1), (0, -1), (1, 0), (-1, 0)]
        elif kind == "+R":
            slides = [(0, 1), (0, -1), (1, 0), (-1, 0)]
            steps = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
        for df, dr in steps:
            if (f + df, r + dr) == sq:
                return True
        for df, dr in slides:
            x, y = f + df, r + dr
            while 1 <= x <= 9 and 1 <= y <= 9:
                if (x, y) == sq:
                    return True
                if (x, y) in occupied:
                    break
                x, y = x + df, y + dr
    return False


def aligned_with_gote_slider(board, sq):
    """Whether `sq` shares a line with a gote slider, blockers ignored (a pin or a discovered
    check would change the problem)."""
    f, r = sq
    for (pf, pr), p in board.items():
        if not p[-1].islower():
            continue
        kind = p.upper().lstrip("+")
        if kind == "R" and (pf == f or pr == r):
            return True
        if kind == "B" and abs(pf - f) == abs(pr - r):
            return True
        if p == "l" and pf == f and r > pr:
            return True
    return False


def add_king(sfen):
    """The problem with sente's king added and gote's hand completed; and the square used."""
    fields = sfen.split()
    board = parse_board(fields[0])
    if any(p == "K" for p in board.values()):
        return sfen, "-"
    sente = {k: v for k, v in parse_hand(fields[2]).items() if k.isupper()}
    gk = next(sq for sq, p in board.items() if p == "k")
    empty = [(f, r) for f in range(1, 10) for r in range(1, 10) if (f, r) not in board]

    def score(sq):
        dist = max(abs(sq[0] - gk[0]), abs(sq[1] - gk[1]))
        corner = sq[1] == 9 and sq[0] in (1, 9)
        return (dist, sq[1], corner)

    safe = [sq for sq in empty if not gote_attacks(board, sq) and not aligned_with_gote_slider(board, sq)]
    if not safe:
        safe = [sq for sq in empty if not gote_attacks(board, sq)]
    sq = max(safe, key=score)
    board[sq] = "K"
    count = {k: 0 for k in SET}
    for p in board.values():
        count[p[-1].upper()] += 1
    for k, v in sente.items():
        count[k] += v
    hand = ""
    for k in HAND_ORDER:
        n = sente.get(k, 0)
        hand += (str(n) if n > 1 else "") + k if n else ""
    for k in HAND_ORDER:
        n = SET[k] - count[k]
        hand += (str(n) if n > 1 else "") + k.lower() if n > 0 else ""
    name = f"{sq[0]}{'abcdefghi'[sq[1] - 1]}"
    return f"{board_field(board)} b {hand or '-'} 1", name


def read_tsv(path):
    with open(path, encoding="utf-8") as fh:
        lines = [l.rstrip("\n") for l in fh if l.strip()]
    header = lines[0].split("\t")
    return header, [dict(zip(header, l.split("\t"))) for l in lines[1:]]


def prepare(args):
    _, rows = read_tsv(args.tsv)
    out = ["id\tsfen\tmate_plies\tking"]
    for row in rows:
        sfen, sq = add_king(row["sfen"])
        out.append(f"{row['id']}\t{sfen}\t{row['mate_plies']}\t{sq}")
    write(args.out, "\n".join(out) + "\n")


def write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)


class Usi:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, pred):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"engine exited; got {lines}")
            line = line.strip()
            lines.append(line)
            if pred(line):
                return lines

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=10)
        except Exception:
            self.p.kill()


def verify(kishi, sfen, moves):
    """Replays a mate line in kishi: every move legal and gote without a legal move at the end."""
    kishi.send(f"position sfen {sfen} moves {' '.join(moves)}")
    kishi.send("go depth 1")
    lines = kishi.until(lambda l: l.startswith("bestmove"))
    if any(l.startswith("info string error") for l in lines):
        return False
    return lines[-1] == "bestmove resign" and len(moves) % 2 == 1


def last_nodes(lines):
    """The node count of the engine's last `info ... nodes N` line before its answer ("-" if none):
    gpsusi reports its search size only there."""
    for l in reversed(lines):
        words = l.split()
        if words[:1] == ["info"] and "nodes" in words[:-1]:
            return words[words.index("nodes") + 1]
    return "-"


def gps(args):
    _, rows = read_tsv(args.tsv)
    ids = set(args.ids.split(",")) if args.ids else None
    eng = Usi([args.engine])
    eng.send("usi")
    eng.until(lambda l: l == "usiok")
    # gpsusi's own option name (1 or 2).
    eng.send(f"setoption name Thread value {args.threads}")
    eng.send("isready")
    eng.until(lambda l: l == "readyok")
    kishi = Usi([args.kishi])
    kishi.send("usi")
    kishi.until(lambda l: l == "usiok")
    out = ["id\tresult\tplies\texpected\tnodes\tms\thashfull\tpv"]
    for row in rows:
        if ids and row["id"] not in ids:
            continue
        eng.send("usinewgame")
        eng.send(f"position sfen {row['sfen']}")
        t0 = time.monotonic()
        eng.send(f"go mate {args.time_ms}")
        lines = eng.until(lambda l: l.startswith("checkmate"))
        ms = (time.monotonic() - t0) * 1000
        line = lines[-1]
        nodes = last_nodes(lines)
        words = line.split()[1:]
        if words in (["timeout"], ["nomate"], ["notimplemented"]):
            result, plies, pv = words[0], "-", ""
        elif verify(kishi, row["sfen"], words):
            result, plies, pv = "mate", str(len(words)), " ".join(words)
        else:
            result, plies, pv = "wrong", str(len(words)), " ".join(words)
        out.append(f"{row['id']}\t{result}\t{plies}\t{row['mate_plies']}\t{nodes}\t{ms:.1f}\t-\t{pv}")
        print(out[-1][:120], file=sys.stderr, flush=True)
    eng.close()
    kishi.close()
    write(args.out, "\n".join(out) + "\n")


def table(args):
    runs = []
    for spec in args.runs:
        name, path = spec.split("=", 1)
        _, rows = read_tsv(path)
        runs.append((name, {r["id"]: r for r in rows}))
    ids = sorted(set().union(*(set(r) for _, r in runs)))
    _, probs = read_tsv(args.tsv)
    stated = {p["id"]: p["mate_plies"] for p in probs}
    king = {p["id"]: p.get("king", "-") for p in probs}
    head = "| id | plies | K | " + " | ".join(name for name, _ in runs) + " |"
    lines = [head, "|" + "---|" * (3 + len(runs))]
    for i in ids:
        cells = []
        for _, r in runs:
            row = r.get(i)
            if row is None:
                cells.append("")
            elif row["result"] == "mate":
                cells.append(f"{row['plies']} / {float(row['ms']) / 1000:.2f}s")
            else:
                cells.append(row["result"].split(":")[0])
        lines.append(f"| {i} | {stated.get(i, '-')} | {king.get(i, '-')} | " + " | ".join(cells) + " |")
    lines.append("")
    for name, r in runs:
        solved = [float(x["ms"]) for x in r.values() if x["result"] == "mate"]
        exact = sum(1 for x in r.values() if x["result"] == "mate" and x["plies"] == stated.get(x["id"]))
        other = {}
        for x in r.values():
            if x["result"] != "mate":
                k = x["result"].split(":")[0]
                other[k] = other.get(k, 0) + 1
        med = statistics.median(solved) / 1000 if solved else 0
        mean = statistics.mean(solved) / 1000 if solved else 0
        lines.append(f"- {name}: solved {len(solved)} / {len(r)} ({exact} with the stated length), "
                     f"mean {mean:.2f} s, median {med:.2f} s of the solved; others {other}")
    print("\n".join(lines))


def diverge(args):
    import cshogi  # scripts/requirements.txt

    _, problems = read_tsv(args.tsv)
    stated = {r["id"]: r for r in problems}
    _, results = read_tsv(args.results)
    out = ["id\tstated\tfound\tply\tside\tstated_move\tkishi_move\trest\trest_shortest\ttotal\tverdict"]
    for r in results:
        if r.get("result") != "mate" or r["id"] not in stated or r["plies"] == r["expected"]:
            continue
        p = stated[r["id"]]
        s_moves, k_moves = p["solution_usi"].split(), r["pv"].split()
        i = next((j for j, (a, b) in enumerate(zip(s_moves, k_moves)) if a != b),
                 min(len(s_moves), len(k_moves)))
        side = "attacker" if i % 2 == 0 else "defender"
        row = [r["id"], p["mate_plies"], r["plies"], str(i + 1), side,
               s_moves[i] if i < len(s_moves) else "-", k_moves[i] if i < len(k_moves) else "-"]
        if side == "defender" and i < len(k_moves):
            board = cshogi.Board(p["sfen"])
            for m in k_moves[: i + 1]:
                board.push_usi(m)
            tmp = args.out + ".pos"
            write(tmp, board.sfen() + "\n")
            res = subprocess.run([args.kishi, "mate", tmp, "--nodes", str(args.nodes),
                                  "--hash-mb", str(args.hash_mb)], capture_output=True, text=True)
            os.remove(tmp)
            _, rows = read_tsv_text(res.stdout)
            q = rows[0] if rows else {}
            if q.get("result") == "mate":
                total = i + 1 + int(q["plies"])
                if total > int(p["mate_plies"]) and q["shortest"] == "yes":
                    verdict = "longer defence than stated"
                elif total > int(p["mate_plies"]):
                    verdict = "longer (rest not shown shortest)"
                else:
                    verdict = "not longer"
                row += [q["plies"], q["shortest"], str(total), verdict]
            else:
                row += ["-", "-", "-", f"rest {q.get('result', 'error')}"]
        else:
            row += ["-", "-", "-", "kishi's attacker leaves the stated line" if side == "attacker"
                    else "one line is a prefix of the other"]
        out.append("\t".join(row))
        print("\t".join(row), flush=True)
    write(args.out, "\n".join(out) + "\n")


def read_tsv_text(text):
    lines = [l for l in text.splitlines() if l.strip() and not l.startswith("#")]
    if not lines:
        return [], []
    header = lines[0].split("\t")
    return header, [dict(zip(header, l.split("\t"))) for l in lines[1:]]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--tsv", required=True)
    p.add_argument("--out", required=True)
    g = sub.add_parser("gps")
    g.add_argument("--tsv", required=True)
    g.add_argument("--time-ms", type=int, required=True)
    g.add_argument("--out", required=True)
    g.add_argument("--ids", default="")
    g.add_argument("--engine", default="/usr/games/gpsusi")
    g.add_argument("--threads", type=int, choices=(1, 2), default=1, help="gpsusi's Thread option")
    g.add_argument("--kishi", default="target/release/kishi")
    t = sub.add_parser("table")
    t.add_argument("--tsv", required=True, help="the problems (for the stated lengths and king squares)")
    t.add_argument("--runs", nargs="+", required=True, help="name=results.tsv")
    d = sub.add_parser("diverge")
    d.add_argument("--tsv", required=True, help="the problems (sfen, mate_plies, solution_usi)")
    d.add_argument("--results", required=True, help="kishi mate's output on them")
    d.add_argument("--out", required=True)
    d.add_argument("--kishi", default="target/release/kishi")
    d.add_argument("--nodes", type=int, default=3000000)
    d.add_argument("--hash-mb", type=int, default=256)
    args = ap.parse_args()
    {"prepare": prepare, "gps": gps, "table": table, "diverge": diverge}[args.cmd](args)


if __name__ == "__main__":
    main()
