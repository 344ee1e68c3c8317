"""``python -m evalgebra``: the ``evalgebra`` command (see :mod:`evalgebra.cli`)."""

import sys

from evalgebra.cli import main

if __name__ == "__main__":  # pragma: no cover - run as a program
    sys.exit(main())
