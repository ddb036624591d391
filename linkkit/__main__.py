"""``python -m linkkit``: the command line of :mod:`linkkit.cli`."""

from .cli import main

raise SystemExit(main())
