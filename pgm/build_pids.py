"""Whether the build a process id names is still running.

A build names the folders and files it leaves while it writes after its process id
(``.site.pgm-new-4242``); a later build removes them only once that build is gone. The
number alone does not tell: process ids are reused, in a container from the same few
at every start, so a process that started after the folder was made is another one.
"""

from __future__ import annotations

import os


def build_alive(pid: str, since: float | None = None) -> bool:
    """Whether another build that may still be writing owns a folder or file; ``since``:
    when that folder was made. A process that started after it is not the build that
    made it but another one given the same number (numbers are reused, in a container
    after every start), and the build is gone."""
    if not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    if since is not None:
        started = _started(int(pid))
        if started is not None and started > since + _CLOCK_SLACK:
            return False
    return True


_CLOCK_SLACK = 30.0
"""Seconds a folder's time may lag behind this host's clock (one on an NFS server) before
a process that started after it counts as another one."""


def _started(pid: int) -> float | None:
    """When process ``pid`` started, in seconds since the epoch; None where /proc does not
    tell (not Linux)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rpartition(b")")[2].split()
        with open("/proc/stat", "rb") as handle:
            boot = next(int(line.split()[1]) for line in handle if line.startswith(b"btime "))
        return boot + int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return None
