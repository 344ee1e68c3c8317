r"""Code generation: derivation results -> exact straight-line Python in ``evalgebra/generated``.

Run ``python -m evalgebra.codegen --write`` to regenerate, ``--check`` to verify the committed
files. The runtime imports the generated modules only; this package (and SymPy) is never on
its hot path.
"""

from evalgebra.codegen.modules import MODULES, check, generate, write
from evalgebra.codegen.printer import CodegenError, python_function

__all__ = ["MODULES", "generate", "write", "check", "python_function", "CodegenError"]
