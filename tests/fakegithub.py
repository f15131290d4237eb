"""A local stand-in for the part of GitHub's REST API that pull request comments use."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse


class FakeGitHub:
    def __init__(self) -> None:
        self.comments: list[dict[str, Any]] = []
        self.requests: list[tuple[str, str, str]] = []  # method, path, authorization
        self.refuse: int | None = None

    def handle(self, handler: BaseHTTPRequestHandler) -> None:
        url = urlparse(handler.path)
        self.requests.append((handler.command, url.path, handler.headers["Authorization"]))
        if self.refuse:
            self.reply(handler, self.refuse, {"message": "Resource not accessible by integration"})
            return
        length = int(handler.headers.get("Content-Length") or 0)
        body = json.loads(handler.rfile.read(length)) if length else None
        parts = url.path.strip("/").split("/")
        if handler.command == "GET" and parts[-1] == "comments":
            query = parse_qs(url.query)
            page, per_page = int(query["page"][0]), int(query["per_page"][0])
            self.reply(handler, 200, self.comments[(page - 1) * per_page : page * per_page])
        elif handler.command == "POST" and parts[-1] == "comments":
            comment = {"id": 1000 + len(self.comments), "body": body["body"]}
            self.comments.append(comment)
            self.reply(handler, 201, comment)
        elif handler.command == "PATCH" and parts[-2] == "comments":
            (comment,) = [c for c in self.comments if c["id"] == int(parts[-1])]
            comment["body"] = body["body"]
            self.reply(handler, 200, comment)
        else:
            self.reply(handler, 404, {"message": "Not Found"})

    @staticmethod
    def reply(handler: BaseHTTPRequestHandler, status: int, data: object) -> None:
        raw = json.dumps(data).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(raw)))
        handler.end_headers()
        handler.wfile.write(raw)


@contextmanager
def serving() -> Iterator[tuple[FakeGitHub, str]]:
    """The fake and its base URL, served on a free local port while in the block."""
    fake = FakeGitHub()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            fake.handle(self)

        do_POST = do_PATCH = do_GET

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
