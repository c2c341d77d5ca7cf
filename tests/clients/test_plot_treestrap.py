"""scripts/plot_treestrap.py `points`: the Elo points of the self-play learners' snapshots from the
ladder's A/B rows: an interval row keeps its Elo and interval, a perfect score becomes the Elo
of its Wilson 95% lower bound (686.6 for 200/0/0), a zero score an upper bound; rows of another
reference or another label shape are left out; no matching row is an error (exit 2).

Run: python3 -m pytest tests/clients/test_plot_treestrap.py -q
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(REPO, "scripts", "plot_treestrap.py")


def write_row(rows, label, w, d, l, elo=None, lo=None, hi=None):
    row = {"row": f"ab-chess-{label}", "wins": w, "draws": d, "losses": l,
           "elo": elo, "elo_low": lo, "elo_high": hi}
    with open(os.path.join(rows, f"ab-chess-{label}.json"), "w") as f:
        json.dump(row, f)


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def test_points_from_rows(tmp_path):
    rows = tmp_path / "docs" / "strength" / "rows"
    rows.mkdir(parents=True)
    write_row(str(rows), "ts-rootstrap-1000-vs-mmto", 18, 10, 172, -354.5, -440.0, -292.7)
    write_row(str(rows), "ts-treestrap-2000-vs-mmto", 200, 0, 0)
    write_row(str(rows), "ts-tdleaf-5000-vs-mmto", 0, 0, 200)
    write_row(str(rows), "ts-treestrap-1000-vs-init", 10, 0, 190, -500.0, -600.0, -400.0)
    write_row(str(rows), "texel-vs-kp", 100, 0, 100, 0.0, -50.0, 50.0)
    out = tmp_path / "p.json"
    r = run("points", str(tmp_path / "docs"), "--ref", "mmto", "--out", str(out))
    assert r.returncode == 0, r.stderr
    pts = json.load(open(out))
    by = {(p["method"], p["games"]): p for p in pts}
    assert set(by) == {("RootStrap(ab)", 1000), ("TreeStrap(ab)", 2000), ("TD-Leaf(0.7)", 5000)}
    rs = by[("RootStrap(ab)", 1000)]
    assert (rs["elo"], rs["lo"], rs["hi"], rs["wdl"]) == (-354.5, -440.0, -292.7, [18, 10, 172])
    assert not rs.get("lower_bound") and not rs.get("upper_bound")
    ts = by[("TreeStrap(ab)", 2000)]
    assert ts["lower_bound"] and abs(ts["elo"] - 686.6) < 0.1
    td = by[("TD-Leaf(0.7)", 5000)]
    assert td["upper_bound"] and abs(td["elo"] + 686.6) < 0.1


def test_no_matching_rows_is_an_error(tmp_path):
    rows = tmp_path / "docs" / "strength" / "rows"
    rows.mkdir(parents=True)
    write_row(str(rows), "ts-treestrap-1000-vs-init", 10, 0, 190, -500.0, -600.0, -400.0)
    r = run("points", str(tmp_path / "docs"), "--ref", "mmto", "--out", str(tmp_path / "p.json"))
    assert r.returncode == 2
    assert "no rows" in r.stderr
    assert not os.path.exists(tmp_path / "p.json")
