"""``python -m linkkit``: the command line of :mod:`linkkit.cli`."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
