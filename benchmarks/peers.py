"""The peers a benchmark compares linkkit with, installed from the package index when missing (each script
installs what it needs; nothing is assumed on the machine)."""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys


def ensure(packages: dict[str, str], *, install: bool = True, script: str = "benchmark") -> None:
    """Make each module of *packages* (module -> pip package) importable, installing the missing ones with pip;
    exit naming them when they still cannot be imported."""
    missing = [package for module, package in packages.items() if importlib.util.find_spec(module) is None]
    if missing and install:
        print(f"installing {' '.join(missing)} with pip", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", *missing], check=True)
        importlib.invalidate_caches()
    still = [module for module in packages if importlib.util.find_spec(module) is None]
    if still:
        sys.exit(f"{script}: missing {' '.join(still)} (pip install {' '.join(packages[m] for m in still)})")
