"""Tests of scripts/plot_learning.py on small synthetic metrics.jsonl files.

Needs matplotlib.  Run: python3 -m pytest tests/clients/test_plot_learning.py -q
"""

import importlib.util
import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("matplotlib")

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
SCRIPT = os.path.join(REPO, "scripts", "plot_learning.py")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def write_metrics(d, n_values=13, iterations=5, tail=""):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "metrics.jsonl"), "w") as f:
        for i in range(1, iterations + 1):
            f.write(json.dumps({
                "iteration": i, "J": 0.34 - 0.01 * i, "J_after": 0.33 - 0.01 * i, "J_R": 0.0,
                "total": 0.33 - 0.01 * i, "agreement_train": 0.2 + 0.02 * i, "agreement_test": 0.15 + 0.01 * i,
                "piece_values": [100 * (j + 1) + i * (j - 4) for j in range(n_values)],
                "tables": {"material": {"nonzero": n_values, "l1": 5000 + i, "learned": True},
                           "kpp": {"nonzero": 0, "l1": 0, "learned": False}},
                "seconds_step1": 1.5, "positions_per_second": 250.0}) + "\n")
        f.write(tail)
    return d


def run(*args):
    """Run the script as a command (exit status, stderr)."""
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, timeout=60)


def load_module():
    spec = importlib.util.spec_from_file_location("plot_learning", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run_inproc(capsys, *args):
    """Call main() in this process (faster than a subprocess); returns (status, stderr)."""
    status = load_module().main(list(args))
    return status, capsys.readouterr().err


def assert_png(path):
    assert os.path.isfile(path)
    assert os.path.getsize(path) > 1000
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == PNG_MAGIC
    assert head[12:16] == b"IHDR"
    width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    assert width > 100 and height > 100


def capture_figures(monkeypatch):
    """Every figure the script saves, in order (Figure.savefig wrapped, still writing the file)."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    saved = []
    orig = Figure.savefig

    def capture(self, *a, **k):
        saved.append(self)
        return orig(self, *a, **k)

    monkeypatch.setattr(Figure, "savefig", capture)
    return saved


def test_two_runs_overlay_with_partial_last_line(tmp_path):
    # a shogi run whose last line is half written (a run in progress) and a chess run
    a = write_metrics(str(tmp_path / "mmto"), 13, tail='{"iteration": 6, "J": 0.2')
    b = write_metrics(str(tmp_path / "ct"), 10)
    out = str(tmp_path / "plots" / "curves.png")
    r = run(a, b, "--out", out, "--labels", "MMTO,CT")
    assert r.returncode == 0, r.stderr
    assert "malformed" in r.stderr and "metrics.jsonl:6" in r.stderr
    assert_png(out)


def test_single_run_game_option(tmp_path, capsys):
    a = write_metrics(str(tmp_path / "run"), 10, iterations=2)
    out = str(tmp_path / "one.png")
    status, err = run_inproc(capsys, os.path.join(a, "metrics.jsonl"), "--out", out, "--game", "chess")
    assert status == 0, err
    assert_png(out)


def test_malformed_file_fails(tmp_path):
    d = tmp_path / "bad"
    d.mkdir()
    (d / "metrics.jsonl").write_text("not json\n[1, 2, 3]\n{\"J\": 0.3}\n")
    out = str(tmp_path / "bad.png")
    r = run(str(d), "--out", out)
    assert r.returncode != 0
    assert "error" in r.stderr and "no usable" in r.stderr
    assert not os.path.exists(out)


def test_missing_file_fails(tmp_path, capsys):
    status, err = run_inproc(capsys, str(tmp_path / "nowhere"), "--out", str(tmp_path / "x.png"))
    assert status != 0
    assert "no such file" in err


def test_label_count_mismatch(tmp_path, capsys):
    a = write_metrics(str(tmp_path / "a"), 13, iterations=1)
    status, err = run_inproc(capsys, a, "--out", str(tmp_path / "x.png"), "--labels", "one,two")
    assert status != 0
    assert "--labels" in err


def test_strict_plots_agreement_with_ties_as_misses(tmp_path, monkeypatch):
    d = write_metrics(str(tmp_path / "run"), 10, iterations=3)
    path = os.path.join(d, "metrics.jsonl")
    with open(path) as f:
        recs = [json.loads(line) for line in f]
    with open(path, "w") as f:
        for r in recs:
            r["agreement_train_strict"] = r["agreement_train"] / 2
            r["agreement_test_strict"] = r["agreement_test"] / 4
            f.write(json.dumps(r) + "\n")
    saved = capture_figures(monkeypatch)
    mod = load_module()
    for strict in (False, True):
        mod.plot([d], ["run"], str(tmp_path / f"{strict}.png"), "chess", None, strict)
    agreement = [fig.axes[1] for fig in saved]
    test_series = [list(ax.lines[1].get_ydata()) for ax in agreement]
    assert test_series[0] == pytest.approx([100 * r["agreement_test"] for r in recs])
    assert test_series[1] == pytest.approx([100 * r["agreement_test"] / 4 for r in recs])
    assert "ties as misses" in agreement[1].get_title()
    assert "ties excluded" in agreement[0].get_title()


def test_texel_runs_plot_loss_and_rms_against_the_teacher(tmp_path, monkeypatch):
    """`learn texel` metrics (no J, no agreement) fill the first two panels with the loss and the
    RMS difference from the teacher, not with empty axes."""
    d = tmp_path / "texel"
    d.mkdir()
    recs = [{"iteration": i, "train_loss": 0.65 - 0.001 * i, "test_loss": 0.66 - 0.001 * i,
             "train_rms_teacher": 150.0 - i, "test_rms_teacher": 155.0 - i,
             "piece_values": [100 * (j + 1) for j in range(10)],
             "tables": {"material": {"nonzero": 10, "l1": 5000 + i, "learned": True}}}
            for i in range(4)]
    with open(d / "metrics.jsonl", "w") as f:
        for r in recs:
            f.write(json.dumps(r) + "\n")
    saved = capture_figures(monkeypatch)
    out = str(tmp_path / "texel.png")
    load_module().plot([str(d)], ["texel"], out, "chess", None)
    assert_png(out)
    loss, rms = saved[0].axes[0], saved[0].axes[1]
    assert list(loss.lines[1].get_ydata()) == pytest.approx([r["test_loss"] for r in recs])
    assert list(rms.lines[0].get_ydata()) == pytest.approx([r["train_rms_teacher"] for r in recs])
    assert "loss" in loss.get_title() and "teacher" in rms.get_title()


def test_results_runs_plot_fresh_loss_and_self_play_by_generation(tmp_path, monkeypatch):
    """`learn results` metrics (a line per generation, no "iteration") plot the fresh and fit
    losses and the first player's score against the generation."""
    d = tmp_path / "results"
    d.mkdir()
    recs = [{"generation": g, "games": 100, "wins_first": 40 + g, "draws": 2, "losses_first": 58 - g,
             "resignations": 80, "fresh_loss": 0.60 - 0.01 * g, "train_loss": 0.58 - 0.01 * g,
             "piece_values": [30 * (j + 1) for j in range(13)],
             "tables": {"kp": {"nonzero": 10, "l1": 1000 * (g + 1), "learned": True}}}
            for g in range(3)]
    with open(d / "metrics.jsonl", "w") as f:
        for r in recs:
            f.write(json.dumps(r) + "\n")
    saved = capture_figures(monkeypatch)
    out = str(tmp_path / "results.png")
    load_module().plot([str(d)], ["results"], out, None, None)
    assert_png(out)
    loss, games = saved[0].axes[0], saved[0].axes[1]
    assert list(loss.lines[0].get_xdata()) == [0, 1, 2]
    assert list(loss.lines[0].get_ydata()) == pytest.approx([r["fresh_loss"] for r in recs])
    assert list(loss.lines[1].get_ydata()) == pytest.approx([r["train_loss"] for r in recs])
    assert list(games.lines[0].get_ydata()) == pytest.approx([41.0, 42.0, 43.0])
    assert loss.get_xlabel() == "generation"
