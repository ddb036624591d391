"""The peers a benchmark compares linkkit with, installed from the package index when missing (each script
installs what it needs; nothing is assumed on the machine)."""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys


def missing(packages: dict[str, str]) -> list[str]:
    """The modules of *packages* (module -> pip package) that cannot be imported."""
    return [module for module in packages if importlib.util.find_spec(module) is None]


def install_missing(packages: dict[str, str]) -> list[str]:
    """Install with pip the packages of *packages* (module -> pip package) whose module cannot be imported; the
    modules still missing after that."""
    wanted = [packages[module] for module in missing(packages)]
    if wanted:
        print(f"installing {' '.join(wanted)} with pip", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", *wanted], check=True)
        importlib.invalidate_caches()
    return missing(packages)


def ensure(packages: dict[str, str], *, install: bool = True, script: str = "benchmark") -> None:
    """Make each module of *packages* (module -> pip package) importable, installing the missing ones with pip;
    exit naming them when they still cannot be imported."""
    still = install_missing(packages) if install else missing(packages)
    if still:
        sys.exit(f"{script}: missing {' '.join(still)} (pip install {' '.join(packages[m] for m in still)})")
