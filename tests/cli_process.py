"""``python -m duelbandits ARGS`` (or ``snakemake ARGS``) in a process of its own, as a user runs it.

The process is forked from a server that has imported both CLIs once (multiprocessing's forkserver
with ``duelbandits.cli`` and ``snakemake.cli`` preloaded), so a test pays a fork instead of a fresh
interpreter's imports (0.3 s for duelbandits, 1 s for Snakemake); everything else is the command's own: its working
folder and ``sys.path[0]``, its argv, its environment, its exit code, and its stdout and stderr as
the file descriptors 1 and 2 receive them (an uncaught exception prints its traceback and exits 1,
as the interpreter does). A call given its own environment (``env``) runs a fresh interpreter
instead, because some modules read their variables once, at import (numba's NUMBA_*).
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import duelbandits

PROGRAMS = {"duelbandits.cli": str(Path(duelbandits.__file__).with_name("__main__.py")), "snakemake.cli": "snakemake"}
"""The CLIs the server preloads, each with the ``sys.argv[0]`` its command line has."""
_server = None


def _forkserver():
    global _server
    if _server is None:
        _server = multiprocessing.get_context("forkserver")
        _server.set_forkserver_preload([*PROGRAMS, "duelbandits.plan"])  # the plan: what a Snakefile imports
    return _server


def _command(module, argv, cwd, out, err, environ) -> None:
    """The forked process: ``module.main(ARGV)`` (a CLI's entry point) run in ``cwd`` with ``environ``."""
    os.environ.clear()
    os.environ.update(environ)
    os.chdir(cwd)
    sys.path[0] = os.getcwd()  # as `python -m` puts it
    sys.argv = [PROGRAMS[module], *argv]
    for fd, path in ((1, out), (2, err)):
        target = os.open(path, os.O_WRONLY)
        os.dup2(target, fd)
        os.close(target)
    code = 1
    try:
        import importlib

        code = importlib.import_module(module).main(argv)
    except SystemExit as done:  # argparse's exits, and SystemExit's rules for its code
        if done.code is None or isinstance(done.code, int):
            code = done.code or 0
        else:
            print(done.code, file=sys.stderr)
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except OSError:
                pass
        os._exit(code)


def run_main(module, argv, cwd=None, timeout=300) -> subprocess.CompletedProcess:
    """``module.main(ARGV)`` in a forked process in ``cwd``: its exit code, stdout and stderr (text)."""
    argv = [str(a) for a in argv]
    command = [sys.executable, "-m", module.removesuffix(".cli"), *argv]
    with tempfile.TemporaryDirectory() as folder:
        out, err = Path(folder, "stdout"), Path(folder, "stderr")
        out.touch()
        err.touch()
        process = _forkserver().Process(
            target=_command, args=(module, argv, str(cwd or os.getcwd()), str(out), str(err), dict(os.environ))
        )
        process.start()
        process.join(timeout)
        if process.exitcode is None:
            process.kill()
            process.join()
            raise subprocess.TimeoutExpired(command, timeout)
        return subprocess.CompletedProcess(command, process.exitcode, out.read_text(), err.read_text())


def run_cli(*args, cwd=None, env=None, timeout=300) -> subprocess.CompletedProcess:
    """``python -m duelbandits ARGS`` in ``cwd``: its exit code, stdout and stderr (text)."""
    if env is not None:
        command = [sys.executable, "-m", "duelbandits", *map(str, args)]
        return subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout)
    return run_main("duelbandits.cli", args, cwd, timeout)
