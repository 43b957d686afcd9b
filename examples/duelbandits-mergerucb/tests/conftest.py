"""Import the example from its source folder, so its tests run from a checkout without installing it
(installing would register its entry points in that environment)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
