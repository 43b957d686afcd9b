"""The one base class of the errors a user can cause: a bad argument, config value or input file.

The command line prints one as one line and exits 2; any other exception is a bug and keeps its traceback.
"""

import errno
import os


class InputError(ValueError):
    """Bad input: an argument, a config value or a file that is not what the pipeline wrote."""


class AlgorithmError(InputError):
    """An algorithm's name or hyper-parameters are invalid (here, below every module that checks them)."""


class ScenarioError(InputError):
    """A scenario's name or parameters, or a matrix file, are invalid (here, below the matrices and the scenarios)."""


class MatrixError(InputError):
    """An array is not a preference matrix; ``position`` is the ``(i, j)`` entry at fault, if one is."""

    def __init__(self, message: str, position: tuple[int, int] | None = None):
        super().__init__(message)
        self.position = position


def why_unreadable(path) -> str | None:
    """Why ``path`` cannot be read as a file, naming the real cause (not found, a directory, not a
    regular file, not readable, a name that is not valid UTF-8, a dangling or looping symbolic link),
    or None if it can be: the one wording of every reader's error (here, below every module that
    reads a file)."""
    import stat

    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        return "its name is not valid UTF-8 (rename the file)"
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if os.path.islink(path):
            return f"is a symbolic link to {os.readlink(path)}, which does not exist"
        return "file not found"
    except NotADirectoryError:
        return "file not found (a part of its path is a file, not a folder)"
    except OSError as err:
        if err.errno == errno.ELOOP:
            return "is a symbolic link that leads back to itself (a loop)"
        return f"cannot be read ({err.strerror or err})"
    if stat.S_ISDIR(mode):
        return "is a directory, not a file"
    if not stat.S_ISREG(mode):
        return "is not a regular file"
    if not os.access(path, os.R_OK):
        return "is not readable (permission denied)"
    return None
