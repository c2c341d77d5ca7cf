"""Fixtures shared by the client tests: the `tune` build of kishi (search parameters as options).

It is built here (`cargo build --release --features tune --target-dir target/tune`, a few
minutes the first time) once per pytest session, for every test that asks for it.
"""

import os
import shutil
import subprocess

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="session")
def tune_kishi():
    if not shutil.which("cargo"):
        pytest.skip("no cargo")
    target = os.path.join(REPO, "target", "tune")
    r = subprocess.run(["cargo", "build", "--release", "--features", "tune", "--target-dir", target],
                       cwd=REPO, capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stderr[-3000:]
    return os.path.join(target, "release", "kishi")
