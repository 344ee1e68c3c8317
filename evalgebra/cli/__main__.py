"""``python -m evalgebra.cli``: the ``evalgebra`` command, as ``python -m evalgebra``."""

import sys

from evalgebra.cli import main

if __name__ == "__main__":  # pragma: no cover - run as a program
    sys.exit(main())
