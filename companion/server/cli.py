"""`companion serve`: the companion on a production WSGI server (waitress), on the LAN."""

from __future__ import annotations

import argparse
import gc
import io
import logging
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from urllib.parse import urlsplit

import qrcode
from flask import logging as flask_logging

from .. import inputs
from ..version import described
from ..paths import default_database
from ..web.app import MAX_SERVER_BODY_BYTES, DataFolderUnusable, PublicUrlUnusable, create_app
from . import db_command, front, logs, processes
from ..tables import postgres, sqlite
from ..tables.database import DatabaseUnusable
from ..web import database
from ..web import push_mode
from ..web.links import only_this_machine, public_base


class Console(io.TextIOBase):
    """Where `serve` prints, which must never stop it serving: its output closed (>&-), a
    pipe whose reader left (| head -1), or a terminal whose encoding has no block
    characters. What cannot be printed is left out."""

    def __init__(self, stream):
        super().__init__()
        self.stream = stream

    def write(self, text: str) -> int:
        if self.stream is not None:
            try:
                self.stream.write(text)
            except UnicodeEncodeError:
                encoding = self.stream.encoding or "ascii"
                self.write(text.encode(encoding, "replace").decode(encoding))
            except (OSError, ValueError):  # a reader gone (BrokenPipeError), a closed stream
                self._let_go()
        return len(text)

    def flush(self) -> None:
        if self.stream is not None:
            try:
                self.stream.flush()
            except (OSError, ValueError):
                self._let_go()

    def _let_go(self) -> None:
        """Print nothing more; what the stream still holds goes nowhere (Python's own flush
        at exit would otherwise report the broken pipe)."""
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), self.stream.fileno())
        except (OSError, ValueError):
            pass
        self.stream = None

    def isatty(self) -> bool:
        return self.stream is not None and self.stream.isatty()

    def can_show(self, text: str) -> bool:
        try:
            text.encode(getattr(self.stream, "encoding", None) or "ascii")
        except UnicodeEncodeError:
            return False
        return self.stream is not None


QR_BLOCKS = "\u2588\u2580\u2584"  # what print_ascii draws with


def print_qr_code(console: Console, data: str) -> None:
    tty = console.isatty()  # a terminal gets it in colours too
    if not console.can_show(QR_BLOCKS):
        print("(No QR code here: this output cannot draw it. Phones open the address above.)", flush=True)
        return
    code = qrcode.QRCode(border=2 if tty else 1)
    code.add_data(data)
    code.print_ascii(out=console, tty=tty, invert=not tty)


def serve(args: argparse.Namespace) -> int:
    from waitress.server import create_server

    if not isinstance(sys.stdout, Console):
        sys.stdout = Console(sys.stdout)
    logs.configure(args.log_level, args.log_format)  # before the app: what its start logs is in the format too

    public_url = args.public_url or os.environ.get("COMPANION_PUBLIC_URL")
    database_existed = Path(db_command.configured_database()).exists()
    try:
        app = create_app({"LISTEN_HOST": args.host, **({"PUBLIC_URL": public_url} if public_url else {})})
    except (PublicUrlUnusable, DatabaseUnusable, DataFolderUnusable) as error:
        print(error, file=sys.stderr)
        return 1
    workers = processes.default_count() if args.processes is None else args.processes
    if workers <= 1 or args.port == 0 or not processes.supported():
        workers = 1
    try:
        connections = database.of(app).size_pools(workers)
    except DatabaseUnusable as error:
        print(error, file=sys.stderr)
        return 1
    # Listen (or make sure it can) before telling the phones where to go: a port in use or
    # an address this machine does not have is one sentence, and no address is printed.
    try:
        if workers == 1:
            sock = processes.listening_socket(args.host, args.port, shared=False)
            port = sock.getsockname()[1]  # --port 0: the one the system chose
        else:
            processes.check_port_free(args.host, args.port)
            port = args.port
    except processes.CannotListen as error:
        print(error, file=sys.stderr)
        return 1
    address = public_base(port, public_url, args.host)
    warning = unreachable_warning(args.host, public_url, address)
    if warning:  # no "phones open" this address: they cannot
        print(f"Companion is running at {address}, on this machine only.", flush=True)
        print(warning, flush=True)
    else:
        print(f"Companion is running. Phones on the same network open: {address}", flush=True)
    print_qr_code(sys.stdout, address + "/")
    print(f"Data folder: {app.instance_path}", flush=True)
    print(f"Database: {postgres.shown(app.config['DATABASE'])}", flush=True)
    made_new = db_command.opened_new(database_existed, app.instance_path)
    if made_new:
        print(made_new, flush=True)
    if connections:
        print(connections, flush=True)
    if app.config["DATABASE_FROZEN"]:
        print("The database's folder is read-only: the tables are served for reading, and every change is refused.", flush=True)
    print("Stop it with Ctrl+C.", flush=True)
    if args.server == "push" and not push_server_runs_here():
        print("The push server (gevent) cannot run here: serving with threads, and the phones poll.", flush=True)
        args.server = "threads"
    if args.server == "push" and app.config["DATABASE_FROZEN"]:
        args.server = "threads"  # nothing changes: nothing to push
    front.quiet_repeats()
    app.logger.removeHandler(flask_logging.default_handler)  # Flask's own format: the log's instead
    settle_memory()
    if args.server == "push":
        return serve_push(app, args, workers, sock if workers == 1 else None)
    settings = dict(
        threads=threads_per_process(workers) if args.threads is None else args.threads,
        # Every phone keeps a connection open between its polls: waitress' default of
        # 100 connections would stall a café of tables (100 tables x 5 phones).
        connection_limit=args.connections,
        ident="companion",
        max_request_body_size=MAX_SERVER_BODY_BYTES,
        max_request_header_size=front.MAX_HEAD_BYTES,  # waitress' own default: 256 KB
        channel_timeout=front.IDLE_SECONDS,  # a connection with no request going on
        cleanup_interval=front.IDLE_SECONDS // 4,  # how often waitress looks for them
    )

    def run_worker(sock) -> None:
        # waitress stops on a KeyboardInterrupt (Ctrl+C): SIGTERM stops it the same way,
        # instead of ending the process before its database is checkpointed.
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        server = create_server(app, sockets=[sock], **settings)
        server.channels_by_client = {}
        server.channel_class = front.capped_channel(server.channel_class, app.config["BEHIND_PROXY"])
        server.run()
        database.of(app).checkpoint_and_close()

    return run(app, args, workers, sock if workers == 1 else None, run_worker)


# Objects the garbage collector's youngest generation takes before a pass (CPython
# 3.11-3.13's default is 700; measured on 3.11). With thousands of held connections, passes
# that often promote the objects of the requests under way to the oldest generation, which
# soon holds a quarter more and is gone through whole: 11-12 full passes a process in a
# 1,000 x 5 push run (setup included), of up to 354 ms each, every connection of the
# process stopped meanwhile. With 10,000, none within that run (full passes still come,
# rarer): young passes of ~9 ms, middle ones of up to 55 ms.
GC_YOUNG_OBJECTS = 10_000


def settle_memory() -> None:
    """Before serving: everything built so far (modules, templates, catalogs) lives as long
    as the server, so it is kept out of the garbage collector's passes (at 100 x 5 full
    passes took 25-50 ms, ~10 ms once frozen) and shared untouched by the worker processes
    forked next; and the collector runs less often (GC_YOUNG_OBJECTS)."""
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_OBJECTS, middle, oldest)


def run(app, args: argparse.Namespace, workers: int, sock: socket.socket | None, run_worker) -> int:
    """Serve with run_worker(listening socket) in this process (`sock`) or in `workers`
    processes, until stopped; say so once, quietly (every process of the terminal gets
    Ctrl+C: each worker stops without a traceback)."""
    if workers == 1:
        run_worker(sock)
        print("Stopped.", flush=True)
        return 0
    print(f"Serving from {workers} processes.", flush=True)
    try:
        status = processes.serve(run_worker, args.host, args.port, workers)
    except processes.CannotListen as error:  # taken since serve checked
        print(error, file=sys.stderr)
        return 1
    # Every worker has stopped: nothing holds the WAL now, whatever their checkpoints left.
    database.of(app).checkpoint_and_close()
    if status == 0:
        print("Stopped.", flush=True)
    return status


def unreachable_warning(host: str, public_url: str | None, address: str) -> str | None:
    """What to tell the host when the address printed for the phones (`address`) is one
    they cannot open."""
    if public_url:
        if only_this_machine(urlsplit(public_url).hostname or ""):
            return (
                f"The public URL {public_url} is this machine's own address, which phones cannot open (their join"
                " links lead nowhere): give the address the phones reach it at."
            )
        return None
    if only_this_machine(host):
        return (
            f"It listens on {host} only, so phones cannot reach it (their join links lead nowhere): start it"
            " with --host 0.0.0.0 to listen on the LAN, or give --public-url if a proxy on this machine forwards"
            " the phones to it."
        )
    if only_this_machine(urlsplit(address).hostname or ""):  # listening everywhere, and no network but loopback
        return (
            "This machine has no network address but its own (127.0.0.1), so phones cannot reach it (their join"
            " links lead nowhere): connect it to the phones' Wi-Fi (or start a hotspot on it) and start it again,"
            " or give --public-url."
        )
    return None


def push_server_runs_here() -> bool:
    try:
        import gevent.pywsgi  # noqa: F401
    except ImportError:
        return False
    return True


def serve_push(app, args: argparse.Namespace, workers: int, sock: socket.socket | None) -> int:
    """Serve with gevent's WSGI server: each phone's table page holds one connection on
    which changes are pushed (Server-Sent Events), and thousands of idle connections cost
    a greenlet each, not a thread. Several processes share the port as with the thread
    server; a write in any of them wakes the phones of all (companion.server.notify).
    `sock`: the listening socket of a single process."""
    from . import notify

    _allow_many_connections()

    def run_worker(sock) -> None:
        import gevent
        from gevent import socket as green_socket
        from gevent.pywsgi import WSGIServer

        logs.gevent_errors_logged()
        push_mode.hand_over(app, notify.for_database(app.config["DATABASE"]))
        listener = green_socket.socket(sock.family, sock.type, fileno=sock.detach())
        # No access log (a join link's path holds a token); errors go to the logging
        # system, where the token filter applies.
        server = WSGIServer(
            listener, app, log=None, error_log=logging.getLogger("gevent"), handler_class=front.push_handler()
        )
        # Ctrl+C or SIGTERM stops the server and the process ends. (As a KeyboardInterrupt
        # it would land in whichever greenlet runs, one waiting for the database maybe,
        # print a traceback from gevent's hub, and could leave the process running.)
        for number in (signal.SIGINT, signal.SIGTERM):
            gevent.signal_handler(number, lambda: gevent.spawn(server.stop, timeout=1))
        server.serve_forever()
        database.of(app).checkpoint_and_close()

    return run(app, args, workers, sock, run_worker)


def _allow_many_connections() -> None:
    """Every phone holds a connection, each a file descriptor: raise the soft limit (often
    1024) to the hard one, as far as the system allows."""
    try:
        import resource
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))


def threads_per_process(workers: int) -> int:
    """Python runs one thread at a time per process: more threads only take turns on the
    interpreter. bench/load.py, 100 tables x 5 phones, 2 processes: time inside the app at
    p99 was 13 ms with 2 threads, 18 ms with 4, 24-34 ms with 8; poll p99 at the phones was
    lower with 2 than with 4 in 5 of 6 interleaved runs. A single process keeps 4, so a
    write waiting for the disk leaves others to answer the phones."""
    return 2 if workers > 1 else 4


def backup(args: argparse.Namespace) -> int:
    """A consistent copy of the live database (SQLite's online backup, PostgreSQL's
    pg_dump), safe while serving."""
    source_path = os.environ.get("COMPANION_DATABASE") or str(default_database())
    target = Path(args.path)
    if target.is_dir():  # --force would have replaced a folder by a file: it cannot
        print(f"{target} is a folder: give the file to write, e.g. {target / 'companion-backup.sqlite3'}.", file=sys.stderr)
        return 1
    if target.exists() and not args.force:
        print(f"{target} exists already; add --force to replace it.", file=sys.stderr)
        return 1
    if not target.parent.is_dir():
        print(f"The folder {target.parent} does not exist; nothing was written.", file=sys.stderr)
        return 1
    if postgres.is_url(source_path):
        return backup_postgresql(source_path, target)
    if not Path(source_path).exists():
        print(f"No database at {source_path}.", file=sys.stderr)
        return 1
    partial = target.with_name(target.name + ".partial")
    sqlite.create_for_this_user_only(partial)  # a copy of the database: as private as it is
    try:
        with closing(sqlite3.connect(source_path, timeout=30)) as source, closing(sqlite3.connect(partial)) as copy:
            source.backup(copy)
            ok = copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    except sqlite3.Error as error:  # e.g. a folder it may not write, a full disk
        if partial.is_file():
            partial.unlink()
        print(f"The copy to {target} failed ({error}); nothing was written.", file=sys.stderr)
        return 1
    if not ok:
        partial.unlink()
        print("The copy failed SQLite's integrity check; nothing was written.", file=sys.stderr)
        return 1
    partial.replace(target)
    print(f"Backed up {source_path} to {target}.")
    return 0


def backup_postgresql(url: str, target: Path) -> int:
    """pg_dump's custom format (one consistent snapshot, whatever is written meanwhile),
    restored with pg_restore -d <an empty database>."""
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        print("pg_dump is not installed here: install PostgreSQL's client programs (Debian: postgresql-client).", file=sys.stderr)
        return 1
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)  # one left by a failed run may have another mode
    sqlite.create_for_this_user_only(partial)  # pg_dump writes into it and keeps its mode: 0600
    address, password = postgres.without_password(url)  # the password never on a command line
    env = {**os.environ, **({"PGPASSWORD": password} if password is not None else {})}
    done = subprocess.run(
        [pg_dump, "--format=custom", "--no-owner", f"--file={partial}", address], env=env, stderr=subprocess.PIPE, text=True
    )
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        print(f"pg_dump failed; nothing was written: {done.stderr.strip()}", file=sys.stderr)
        return 1
    partial.replace(target)
    print(f"Backed up {postgres.shown(url)} to {target} (restore: pg_restore --no-owner -d <empty database> {target}).")
    return 0


def bounded(least: int, most: int):
    """An option's whole number from `least` to `most` (argparse says which option, and
    this what it takes): --port 70000 was taken modulo 65536, --threads 0 served nothing."""

    def parse(typed: str) -> int:
        try:
            number = inputs.whole_number(typed)
        except inputs.InputError:
            number = None
        if number is None or not least <= number <= most:
            raise argparse.ArgumentTypeError(f"give a whole number from {least} to {most}, not {typed!r}")
        return number

    return parse


MOST_PROCESSES = 64  # a process per core of the largest machine a table is kept on, and then some


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion", description="A scoring companion for board and dice games.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {described()}")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("serve", help="start the companion for the phones at the table")
    run.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0: the whole LAN)")
    run.add_argument("--port", type=bounded(0, 65535), default=5000, help="port to listen on (default 5000; 0: any free one)")
    run.add_argument("--public-url", help="base of the join links in QR codes, e.g. http://192.168.1.20:5000")
    run.add_argument(
        "--server",
        choices=("push", "threads"),
        default="push",
        help="push (default): gevent, changes pushed to the phones as they happen; threads: waitress, the phones poll",
    )
    run.add_argument(
        "--processes",
        type=bounded(1, MOST_PROCESSES),
        help="server processes (default on Linux: one per core, at most 8; elsewhere 1)",
    )
    run.add_argument(
        "--threads",
        type=bounded(1, 256),
        help="with --server threads only: threads per server process (default 2 with several processes, else 4)",
    )
    run.add_argument(
        "--connections",
        type=bounded(1, 100_000),
        default=1000,
        help="with --server threads only: open connections (phones) served at once (default 1000)",
    )
    run.add_argument("--log-level", choices=logs.LEVELS, default="info", help="the least a log line says (default info)")
    run.add_argument(
        "--log-format", choices=logs.FORMATS, default="text", help="text (default): time, level, logger, message; json: one object a line"
    )
    run.set_defaults(handler=serve)
    save = commands.add_parser("backup", help="copy the live database consistently to PATH")
    save.add_argument("path", help="where to write the copy")
    save.add_argument("--force", action="store_true", help="replace PATH if it exists")
    save.set_defaults(handler=backup)
    db_command.add_to(commands)
    args = parser.parse_args(argv)
    return args.handler(args)


if __name__ == "__main__":
    raise SystemExit(main())
