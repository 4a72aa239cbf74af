"""Join links that phones on the same network can open, and their QR codes."""

from __future__ import annotations

import io
import ipaddress
import socket

import qrcode
import qrcode.image.svg
from flask import current_app, request, url_for

# Connecting a UDP socket sends nothing; it only asks the kernel which local address
# would route to that (documentation-only) address: the machine's LAN address.
_ROUTE_PROBE = ("192.0.2.1", 9)


def lan_address() -> str | None:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_ROUTE_PROBE)
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


# Listening on one of these is listening on every network of the machine.
EVERY_ADDRESS = ("0.0.0.0", "::", "")


def public_base(port: int | str | None = None, configured: str | None = None, listening: str = "0.0.0.0") -> str:
    """Where phones reach this server: the configured public URL; else, listening on every
    network, the LAN address; else the one address it listens on (never an address it
    does not answer on)."""
    if configured:
        return configured.rstrip("/")
    if listening in EVERY_ADDRESS:
        address = lan_address() or "127.0.0.1"
    else:
        address = f"[{listening}]" if ":" in listening else listening
    return f"http://{address}:{port}" if port else f"http://{address}"


def only_this_machine(listening: str) -> bool:
    """Whether listening on `listening` leaves the phones out (loopback only)."""
    if listening == "localhost":
        return True
    try:
        return ipaddress.ip_address(listening).is_loopback
    except ValueError:
        return False


def base_url() -> str:
    configured = current_app.config.get("PUBLIC_URL")
    if configured:
        return configured.rstrip("/")
    host = request.host.split(":")
    port = host[1] if len(host) > 1 else ("443" if request.scheme == "https" else "80")
    if request.host.split(":")[0] not in ("localhost", "127.0.0.1", "[::1]"):
        return request.host_url.rstrip("/")  # reached by a name or address phones can use
    return public_base(port, listening=current_app.config.get("LISTEN_HOST", "0.0.0.0"))


def join_url(token: str) -> str:
    return base_url() + url_for("pages.join", token=token)


def qr_svg(data: str) -> str:
    """An SVG QR code (error correction M, quiet zone 4), sized by CSS."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4)
    code.add_data(data)
    image = code.make_image(image_factory=qrcode.image.svg.SvgPathImage)
    out = io.BytesIO()
    image.save(out)
    svg = out.getvalue().decode()
    return svg[svg.index("<svg"):]  # drop the XML declaration: inlined in HTML
