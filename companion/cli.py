"""`companion serve`: the companion on a production WSGI server (waitress), on the LAN."""

from __future__ import annotations

import argparse
import os
import sys

import qrcode

from . import create_app
from .web.links import public_base


def serve(args: argparse.Namespace) -> int:
    from waitress import serve as waitress_serve

    public_url = args.public_url or os.environ.get("COMPANION_PUBLIC_URL")
    app = create_app({"PUBLIC_URL": public_url} if public_url else None)
    address = public_base(args.port, public_url)
    print(f"Companion is running. Phones on the same network open: {address}", flush=True)
    if sys.stdout.isatty():
        code = qrcode.QRCode(border=2)
        code.add_data(address + "/")
        code.print_ascii(tty=True)
    else:
        code = qrcode.QRCode(border=1)
        code.add_data(address + "/")
        code.print_ascii(invert=True)
    print(f"Database: {app.config['DATABASE']}", flush=True)
    print("Stop it with Ctrl+C.", flush=True)
    waitress_serve(app, host=args.host, port=args.port, threads=args.threads, ident="companion")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion", description="A scoring companion for board and dice games.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("serve", help="start the companion for the phones at the table")
    run.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0: the whole LAN)")
    run.add_argument("--port", type=int, default=5000, help="port to listen on (default 5000)")
    run.add_argument("--public-url", help="base of the join links in QR codes, e.g. http://192.168.1.20:5000")
    run.add_argument("--threads", type=int, default=8, help="worker threads (default 8)")
    run.set_defaults(handler=serve)
    args = parser.parse_args(argv)
    return args.handler(args)


if __name__ == "__main__":
    raise SystemExit(main())
