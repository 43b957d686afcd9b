"""The one base class of the errors a user can cause: a bad argument, config value or input file.

Each module raises its own subclass, with a message that names what was wrong and what is
allowed. The command line prints such an error as one line and exits 2; any other exception
is a bug in this package and keeps its traceback.
"""


class InputError(ValueError):
    """Bad input: an argument, a config value or a file that is not what the pipeline wrote."""


class AlgorithmError(InputError):
    """An algorithm's name or hyper-parameters are invalid (here, not in ``algorithms``, so that
    ``theorems``, which checks the tunings, sits below the algorithms that use them)."""
