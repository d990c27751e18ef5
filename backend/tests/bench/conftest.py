"""The bench/ scripts import their siblings by name, as they do when run: bench/ on the path
(last, so that none of its script names hides an installed module)."""

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[3] / "bench"
if str(BENCH) not in sys.path:
    sys.path.append(str(BENCH))
