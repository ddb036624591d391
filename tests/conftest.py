"""Test set-up: the fixture loader on the path, and Hypothesis profiles.

``LINKKIT_HYPOTHESIS_EXAMPLES=100000 python3 -m pytest`` runs every property with that many examples (outside CI);
by default each property runs 200.
"""

import os
import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

settings.register_profile("default", deadline=None, max_examples=200)
settings.register_profile(
    "thorough", deadline=None, max_examples=int(os.environ.get("LINKKIT_HYPOTHESIS_EXAMPLES", "100"))
)
settings.load_profile("thorough" if "LINKKIT_HYPOTHESIS_EXAMPLES" in os.environ else "default")
