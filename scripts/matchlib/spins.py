"""The spin options an engine declares: what an SPSA driver checks before it tunes anything."""

from __future__ import annotations

import subprocess
from typing import Set


def declared_spins(engine: str, hello: str) -> Set[str]:
    """The `spin` option names `engine` lists after `hello` (`usi` or `uci`)."""
    r = subprocess.run([engine], input=f"{hello}\nquit\n", capture_output=True, text=True, timeout=60)
    names = set()
    for line in r.stdout.splitlines():
        words = line.split()
        if words[:2] == ["option", "name"] and "spin" in words:
            names.add(words[2])
    return names
