"""A reverse proxy between the phones and the companion, for what real networks do to a
held connection. With `buffer_events`, it buffers Server-Sent Events the way nginx does
with proxy_buffering on (seen at a real install): each piece of an event stream is handed
over only when the next one comes, so every change arrives with the following event or
ping, 15 s late; other answers pass as they come (one request per connection then: it asks
the companion to close after each, so each answer's kind is known from its headers).
Without, bytes pass as they come, connections kept alive. `cut_silently()` makes every
connection open at that moment go dead without a word, neither closed nor reset (a Wi-Fi
router or NAT that forgot them), the browser's idle kept-alive ones too; new connections
work."""

from __future__ import annotations

import socket
import threading
import time


class Proxy:
    def __init__(self, upstream_port: int, buffer_events: bool = False):
        self.upstream_port = upstream_port
        self.buffer_events = buffer_events
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.sockets: list[socket.socket] = []
        self.connections = 0  # numbered as accepted
        self.dead_up_to = 0  # connections numbered up to this one pass nothing any more
        threading.Thread(target=self._accept, daemon=True).start()

    def cut_silently(self) -> None:
        self.dead_up_to = self.connections

    def close(self) -> None:
        self.listener.close()
        for each in self.sockets:
            try:
                each.close()
            except OSError:
                pass

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._serve, args=(client, self.connections), daemon=True).start()

    def _send(self, number: int, target: socket.socket, data: bytes) -> None:
        if number > self.dead_up_to:
            target.sendall(data)  # a dead connection swallows it, and says nothing

    def _serve(self, client: socket.socket, number: int) -> None:
        upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
        self.sockets += [client, upstream]
        if not self.buffer_events:
            # bytes as they come, connections kept alive as the browser and the companion like
            threading.Thread(target=self._pipe, args=(number, client, upstream), daemon=True).start()
            self._pipe(number, upstream, client)
            return
        try:
            head, rest = self._head(client)
            if head is None:
                return
            lines = [line for line in head.split(b"\r\n") if not line.lower().startswith(b"connection:")]
            upstream.sendall(b"\r\n".join(lines + [b"Connection: close"]) + b"\r\n\r\n" + rest)
            threading.Thread(target=self._pipe, args=(number, client, upstream), daemon=True).start()
            head, rest = self._head(upstream)
            if head is None:
                return
            self._send(number, client, head + b"\r\n\r\n")
            buffering = self.buffer_events and b"text/event-stream" in head.lower()
            held = rest
            if not buffering and held:
                self._send(number, client, held)
                held = b""
            while True:
                chunk = upstream.recv(65536)
                if not chunk:
                    break
                if buffering:
                    if held:
                        self._send(number, client, held)  # the piece before: only now that another came
                    held = chunk
                else:
                    self._send(number, client, chunk)
            if held:
                self._send(number, client, held)
            while number <= self.dead_up_to:
                time.sleep(0.5)  # dead: never closed either
        except OSError:
            pass
        finally:
            for each in (client, upstream):
                # shut down, not only closed: the other direction's thread is blocked reading
                # it, and a close alone leaves the connection open under that read, so the
                # browser waited for ever for an answer to a request it had sent on it
                try:
                    each.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                each.close()

    @staticmethod
    def _head(connection: socket.socket) -> tuple[bytes | None, bytes]:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = connection.recv(65536)
            if not chunk:
                return None, b""
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        return head, rest

    def _pipe(self, number: int, source: socket.socket, target: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                self._send(number, target, chunk)
            while number <= self.dead_up_to:
                time.sleep(0.5)  # dead: the other side is never told it closed
            target.shutdown(socket.SHUT_WR)
        except OSError:
            pass
