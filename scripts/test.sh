#!/usr/bin/env bash
# The project's test command (README): Rust tests in release mode, then the Python client tests.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --all-targets
if compgen -G "tests/clients/test_*.py" >/dev/null; then
  cargo build --release --bin kishi
  python3 -m pytest -q tests/clients
fi
