"""Join links that phones on the same network can open, and their QR codes."""

from __future__ import annotations

import io
import ipaddress
import socket
from pathlib import Path
from typing import Iterable
from urllib.parse import urlsplit

import qrcode
import qrcode.image.svg
from flask import current_app, request, url_for

from ..games.text import N_

# Connecting a UDP socket sends nothing; it only asks the kernel which local address
# would route to that (documentation-only) address: the machine's LAN address.
_ROUTE_PROBE = ("192.0.2.1", 9)

# The private ranges (RFC 1918), in the order a phone is likeliest to share: home routers
# and Android hotspots hand out 192.168.x.x, a Linux laptop's own hotspot 10.42.0.x, and
# 172.17-31.x.x is where Docker puts bridges no phone reaches (an iPhone hotspot's
# 172.20.10.x is still found when there is nothing else).
_PRIVATE_RANGES = [ipaddress.ip_network(net) for net in ("192.168.0.0/16", "10.0.0.0/8", "172.16.0.0/12")]


def lan_address() -> str | None:
    """The address phones on the LAN reach this machine at: the one its default route
    leaves from; with no default route (a laptop's own hotspot, a router with no internet
    link), the likeliest of the machine's own addresses; None when it has none but loopback."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_ROUTE_PROBE)
            routed = probe.getsockname()[0]
    except OSError:  # no route to it
        routed = None
    return pick_lan_address([routed] if routed else []) or pick_lan_address(own_addresses())


def pick_lan_address(candidates: Iterable[str]) -> str | None:
    """The IPv4 address among `candidates` phones can most likely reach: never loopback,
    link-local (a network without a DHCP server) or unspecified; a private one first (by
    _PRIVATE_RANGES), else the first other."""
    usable = []
    for candidate in candidates:
        try:
            address = ipaddress.ip_address(candidate)
        except ValueError:
            continue
        if address.version == 4 and not (
            address.is_loopback or address.is_link_local or address.is_unspecified or address.is_multicast
        ):
            usable.append(address)
    if not usable:
        return None

    def rank(address: ipaddress.IPv4Address) -> int:
        return next((i for i, network in enumerate(_PRIVATE_RANGES) if address in network), len(_PRIVATE_RANGES))

    return str(min(usable, key=rank))  # the first of the best rank


def own_addresses() -> list[str]:
    """The machine's IPv4 addresses, without new dependencies: those its host name resolves
    to (every interface's on Windows and macOS; on Linux often only 127.0.1.1), and on
    Linux the local addresses of the kernel's routing table (/proc/net/fib_trie)."""
    found = []
    try:
        found += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        pass
    try:
        lines = Path("/proc/net/fib_trie").read_text().splitlines()
    except OSError:  # not Linux
        lines = []
    # "|-- 192.168.1.23" followed by "/32 host LOCAL": an address of this machine
    found += [line.split()[-1] for line, after in zip(lines, lines[1:]) if after.split() == ["/32", "host", "LOCAL"]]
    return list(dict.fromkeys(found))


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


LOOPBACK_NAMES = ["localhost", "127.0.0.1", "::1"]
# Said to a request addressed to a name or address the companion does not answer at.
UNTRUSTED_HOST = N_("The companion does not answer at this address. Open the address its QR code or join link gives.")


def trusted_hosts(listening: str | None, public_url: str | None, configured: str) -> list[str] | None:
    """The names and addresses requests may be addressed to (their Host; Flask's
    TRUSTED_HOSTS): those the server listens on (every address of the machine, its name and
    its .local name, listening on every network), the public URL's host, and `configured`
    (COMPANION_TRUSTED_HOSTS: names or addresses, comma-separated; a name starting with a
    dot takes its subdomains). A page on another name (DNS rebinding: a site's name made to
    point at the companion) is refused, since the phone's browser would let that site read
    the answers. None (any host) where it is not known what the server listens on."""
    extra = [name.strip() for name in configured.split(",") if name.strip()]
    if listening is None:
        return extra or None
    if listening in EVERY_ADDRESS:
        name = socket.gethostname()
        hosts = [*LOOPBACK_NAMES, *own_addresses(), lan_address() or "", name, f"{name}.local"]
    else:
        hosts = [listening, *(LOOPBACK_NAMES if only_this_machine(listening) else [])]
    if public_url:
        hosts.append(urlsplit(public_url).hostname or "")
    return list(dict.fromkeys(host.lower() for host in [*hosts, *extra] if host))


def public_url_problem(url: str) -> str | None:
    """Why `url` cannot be the base of the join links (--public-url, COMPANION_PUBLIC_URL),
    or None: an http(s) address with a host, and nothing after it, since the companion
    answers at the root of its address (its pages link to /t/..., /static/...)."""
    example = "like http://192.168.1.20:5000"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (reading it checks it: a port beyond 65535 or not a number)
    except ValueError:
        return f"The public URL {url!r} is not an address: give the one phones open, {example}."
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"The public URL {url!r} is not an address: give the one phones open, {example}."
    if parts.path.strip("/") or parts.query or parts.fragment:
        return (
            f"The public URL {url!r} has a path: the companion answers at the root of its address, so give it"
            f" without one, {example} (behind a proxy, give the companion a host name or port of its own)."
        )
    return None


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
    """An SVG QR code (error correction M, quiet zone 4), sized by CSS, inlined in HTML: no
    XML declaration, and no id (the library names every path "qr-path", which a page of
    several codes would repeat). Hidden from screen readers, who cannot scan it: the link
    beside each code is the same address."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4)
    code.add_data(data)
    image = code.make_image(image_factory=qrcode.image.svg.SvgPathImage)
    out = io.BytesIO()
    image.save(out)
    svg = out.getvalue().decode()
    svg = svg[svg.index("<svg"):].replace(' id="qr-path"', "", 1)
    return svg.replace("<svg ", '<svg aria-hidden="true" focusable="false" ', 1)
