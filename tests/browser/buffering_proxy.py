"""A reverse proxy that buffers Server-Sent Events the way nginx does with proxy_buffering
on (seen at a real install): each piece of an event stream is handed over only when the
next one comes, so every change arrives with the following event or ping, 15 s late.
Other answers pass as they come. One request per connection (it asks the companion to
close after each), so each answer's kind is known from its headers."""

from __future__ import annotations

import socket
import threading


class BufferingProxy:
    def __init__(self, upstream_port: int):
        self.upstream_port = upstream_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

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
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
        self.sockets += [client, upstream]
        try:
            head, rest = self._head(client)
            if head is None:
                return
            lines = [line for line in head.split(b"\r\n") if not line.lower().startswith(b"connection:")]
            upstream.sendall(b"\r\n".join(lines + [b"Connection: close"]) + b"\r\n\r\n" + rest)
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()
            head, rest = self._head(upstream)
            if head is None:
                return
            client.sendall(head + b"\r\n\r\n")
            streaming = b"text/event-stream" in head.lower()
            held = rest
            while True:
                chunk = upstream.recv(65536)
                if not chunk:
                    break
                if streaming:
                    if held:
                        client.sendall(held)  # the piece before: only now that another came
                    held = chunk
                else:
                    client.sendall(held + chunk)
                    held = b""
            if held:
                client.sendall(held)
        except OSError:
            pass
        finally:
            client.close()
            upstream.close()

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

    @staticmethod
    def _pipe(source: socket.socket, target: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                target.sendall(chunk)
        except OSError:
            pass
