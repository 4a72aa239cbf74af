"""The address `companion serve` prints for the phones (and puts in the join links' QR
codes) when the machine has no default route: a laptop's own hotspot, a router with no
internet link. Before, it printed http://127.0.0.1:PORT, with its QR code, and no warning."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from companion.server.cli import unreachable_warning
from companion.web import links


def test_the_likeliest_lan_address_is_picked_from_the_machines_own():
    pick = links.pick_lan_address
    assert pick(["127.0.1.1", "169.254.7.7", "0.0.0.0", "224.0.0.1", "fe80::1", "::1", "not an address"]) is None
    assert pick(["127.0.0.1", "172.17.0.1", "10.42.0.1"]) == "10.42.0.1"  # Docker's bridge last among private
    assert pick(["8.8.4.4", "172.20.10.2"]) == "172.20.10.2"  # an iPhone's hotspot before a public address
    assert pick(["10.0.0.5", "192.168.43.100", "10.0.0.6"]) == "192.168.43.100"
    assert pick(["10.0.0.5", "10.0.0.6"]) == "10.0.0.5"  # the first of the best range
    assert pick(["198.51.100.4"]) == "198.51.100.4"  # a LAN of public addresses still works


def test_the_machines_own_addresses_include_the_one_its_route_leaves_from():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(links._ROUTE_PROBE)
        except OSError:
            pytest.skip("this machine has no route to compare with")
        routed = probe.getsockname()[0]
    own = links.own_addresses()
    assert routed in own or sys.platform not in ("linux", "win32")  # macOS: as its host name resolves
    assert len(own) == len(set(own))


def test_without_a_route_the_machines_own_address_is_used_or_the_host_is_warned(monkeypatch):
    monkeypatch.setattr(links, "_ROUTE_PROBE", ("127.0.0.1", 9))  # what no route leaves: nothing usable
    monkeypatch.setattr(links, "own_addresses", lambda: ["127.0.0.1", "127.0.1.1", "10.42.0.1"])
    assert links.public_base(5000) == "http://10.42.0.1:5000"
    assert unreachable_warning("0.0.0.0", None, "http://10.42.0.1:5000") is None

    monkeypatch.setattr(links, "own_addresses", lambda: ["127.0.0.1", "127.0.1.1"])
    assert links.public_base(5000) == "http://127.0.0.1:5000"
    warning = unreachable_warning("0.0.0.0", None, "http://127.0.0.1:5000")
    assert "phones cannot reach it" in warning and "--public-url" in warning
    assert unreachable_warning("0.0.0.0", "http://192.168.1.9:5000", "http://192.168.1.9:5000") is None


def serve_without_a_route(tmp_path: Path, *setup: str) -> list[str]:
    """`companion serve` in a network namespace of its own (no default route, nothing but
    loopback and what `setup` adds): what it prints up to "Stop it with Ctrl+C."."""
    if os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("ip"):
        pytest.skip("a network namespace needs root, unshare and ip")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    script = "; ".join(["ip link set lo up", *setup, f'exec "{sys.executable}" -m companion serve --port {port}'])
    env = {**os.environ, "COMPANION_INSTANCE": str(tmp_path)}
    env.pop("COMPANION_DATABASE", None)
    server = subprocess.Popen(
        ["unshare", "--net", "sh", "-c", script], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    printed = []
    try:
        for line in server.stdout:
            printed.append(line.rstrip("\n"))
            if line.startswith("Stop it with Ctrl+C."):
                break
    finally:
        server.kill()
        server.wait(timeout=10)
    if any("unshare" in line for line in printed[:1]):
        pytest.skip(f"no network namespace here: {printed[0]}")
    return [line.replace(f":{port}", ":PORT") for line in printed]


def test_a_laptops_own_hotspot_without_internet_gets_its_hotspot_address(tmp_path: Path):
    printed = serve_without_a_route(tmp_path, "ip addr add 10.42.0.1/24 dev lo")
    assert printed[0] == "Companion is running. Phones on the same network open: http://10.42.0.1:PORT"
    assert not any("phones cannot reach it" in line for line in printed)


def test_a_machine_with_no_network_says_the_phones_cannot_reach_it(tmp_path: Path):
    printed = serve_without_a_route(tmp_path)
    assert printed[0] == "Companion is running at http://127.0.0.1:PORT, on this machine only."
    assert printed[1].startswith("This machine has no network address but its own (127.0.0.1), so phones cannot reach it")


@pytest.mark.parametrize("public_url", ["http://[::1]:5000", "http://127.0.0.1:8080", "http://localhost"])
def test_a_public_url_of_this_machine_itself_is_said_to_be_unreachable(public_url):
    """helper QA: --public-url http://[::1]:... was printed for the phones with no word."""
    warning = unreachable_warning("0.0.0.0", public_url, public_url)
    assert warning.startswith(f"The public URL {public_url} is this machine's own address, which phones cannot open")
