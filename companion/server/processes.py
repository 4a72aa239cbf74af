"""Serving one port from several processes, so every core of the machine takes phones.

Python runs one thread at a time in a process: a single waitress process keeps one core
busy and leaves the others idle, and its threads queue behind each other for the
interpreter, which is what made a café of phones wait (bench/load.py). On Linux the
companion therefore starts one worker process per core. Each worker listens on its own
socket bound to the same port with SO_REUSEPORT, and the kernel spreads new connections
(phones) evenly across them. Everything a worker needs to agree on lives in SQLite, whose
locks work across processes (`BEGIN IMMEDIATE`); what a worker keeps in memory (replayed
states) is keyed by table version, so it can never go stale.

The parent only starts the workers, starts a new one when one dies, and stops them all on
SIGTERM or SIGINT (killing, after STOP_GRACE_SECONDS, any that does not stop). A worker dies
with its parent (PR_SET_PDEATHSIG), so killing the parent, even with SIGKILL, never leaves a
worker serving.
"""

from __future__ import annotations

import ctypes
import errno
import logging
import os
import signal
import socket
import sys
import time
from typing import Any, Callable

PR_SET_PDEATHSIG = 1
MAX_WORKERS = 8
# A worker that keeps dying (a bug, the disk gone) must not be restarted forever.
RESTARTS_ALLOWED = 5
RESTART_WINDOW_SECONDS = 60
# A worker asked to stop (SIGTERM) closes its connections within a second and checkpoints
# the database within two more; one that has not stopped after this is stuck (a blocking
# call that no signal ends) and is killed, so that stopping the companion always stops it.
STOP_GRACE_SECONDS = 10

log = logging.getLogger("companion")


def supported() -> bool:
    return sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT") and hasattr(os, "fork")


def default_count() -> int:
    """One worker per core this process may run on (a container's share, not the host's)."""
    if not supported():
        return 1
    return max(1, min(len(os.sched_getaffinity(0)), MAX_WORKERS))


class CannotListen(Exception):
    """The server cannot listen where it was asked: the sentence says why and what to do."""


def _address(host: str, port: int) -> tuple[socket.AddressFamily, tuple]:
    try:
        family, _type, _proto, _name, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as error:
        raise CannotListen(
            f"This machine cannot find the address {host} ({error.strerror}): give --host one of its addresses,"
            " or 0.0.0.0 to listen on every network."
        ) from error
    return family, address


def _bind(sock: socket.socket, address: tuple, host: str, port: int) -> None:
    try:
        sock.bind(address)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise CannotListen(f"Port {port} is in use by another program.") from error
        if error.errno == errno.EADDRNOTAVAIL:
            # e.g. the address the network gave it yesterday
            raise CannotListen(
                f"This machine has no address {host} (on the networks it is on now): give --host one of its"
                " addresses, or 0.0.0.0 to listen on every network."
            ) from error
        if isinstance(error, PermissionError):
            raise CannotListen(
                f"Port {port} is reserved to the system's administrator here: choose a port above 1023, e.g. --port 5000."
            ) from error
        raise CannotListen(f"The companion cannot listen on {host} port {port}: {error.strerror or error}.") from error


def _may_reuse_address(sock: socket.socket) -> None:
    """A port whose last connections are still closing (TIME_WAIT) can be listened on at
    once on POSIX; on Windows the same option would let a second program take a port in use."""
    if os.name != "nt":
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)


def check_port_free(host: str, port: int) -> None:
    """Binding without SO_REUSEPORT fails if anything listens there, even another
    companion's worker sockets: two companions must never share a port. Raises
    CannotListen with a sentence."""
    family, address = _address(host, port)
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        _may_reuse_address(probe)
        _bind(probe, address, host, port)


def listening_socket(host: str, port: int, shared: bool = True) -> socket.socket:
    """A socket listening on host:port; `shared`: one of the workers' sockets on one port
    (SO_REUSEPORT), else the only one, and binding it fails if anything listens there.
    Raises CannotListen with a sentence."""
    family, address = _address(host, port)
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        _may_reuse_address(sock)
        if shared:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        _bind(sock, address, host, port)
        sock.listen(1024)
    except BaseException:
        sock.close()
        raise
    return sock


def _die_with_parent(parent: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)


def _kill_the_stuck(workers: dict[int, int]) -> None:
    for pid, number in workers.items():
        log.warning("Worker %s did not stop within %s s of being asked to: it is killed.", number, STOP_GRACE_SECONDS)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def serve(run_worker: Callable[[socket.socket], Any], host: str, port: int, count: int) -> int:
    """Start `count` workers, each calling run_worker(its listening socket); return the
    exit status once they are stopped (0) or keep dying (1)."""
    check_port_free(host, port)
    parent = os.getpid()
    workers: dict[int, int] = {}  # pid -> worker number
    restarts: list[float] = []
    stopping = False

    def start(number: int) -> None:
        sock = listening_socket(host, port)
        pid = os.fork()
        if pid == 0:
            status = 1
            try:
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                signal.signal(signal.SIGINT, signal.default_int_handler)
                _die_with_parent(parent)
                run_worker(sock)
                status = 0
            except KeyboardInterrupt:
                status = 0
            except BaseException:
                log.exception("Worker %s stopped on an error", number)
            finally:
                os._exit(status)
        sock.close()  # the worker's own now: a copy left here would take connections nobody accepts
        workers[pid] = number

    def stop(_signal=None, _frame=None) -> None:
        nonlocal stopping, kill_at
        if not stopping:
            stopping, kill_at = True, time.monotonic() + STOP_GRACE_SECONDS
        for pid in list(workers):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    kill_at = float("inf")
    for number in range(count):
        start(number)
    status = 0
    while workers:
        if time.monotonic() > kill_at:
            _kill_the_stuck(workers)
            kill_at = float("inf")
        try:
            # Looked at five times a second rather than waited for: a wait is resumed after
            # the signal's handler, and a worker that never stops would keep it waiting.
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            time.sleep(0.2)
            continue
        number = workers.pop(pid, None)
        if stopping or number is None:
            continue
        now = time.monotonic()
        restarts = [moment for moment in restarts if now - moment < RESTART_WINDOW_SECONDS] + [now]
        if len(restarts) > RESTARTS_ALLOWED:
            log.error("Workers keep stopping (%s in %s s): the companion stops.", len(restarts), RESTART_WINDOW_SECONDS)
            status = 1
            stop()
            continue
        log.warning("Worker %s stopped; starting it again.", number)
        start(number)
    return status
