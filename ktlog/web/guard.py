"""What every request passes before a route sees it: the Host it names (only the names the
server was started for, against DNS rebinding), its method (HEAD is refused: the routes answer
GET), and the security headers every response carries; and the cap on the event streams one
client address may hold open."""

from __future__ import annotations

import ipaddress
import socket
from collections import Counter
from collections.abc import Iterable

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .responses import TooManyStreams, problem

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
EVERY_ADDRESS = ("0.0.0.0", "::", "")
LOCAL_NAMES = ("localhost",)


def allowed_hosts(listening: Iterable[str], allow: Iterable[str] = ()) -> frozenset[str]:
    """The names a request's Host may give: localhost, the name the server listens on, the
    machine's own names when it listens on every address, and those given with --allow-host.
    (An address is always allowed: a page cannot rebind an address to another machine.)"""
    names = {*LOCAL_NAMES, *allow}
    for host in listening:
        if host in EVERY_ADDRESS:
            names |= {socket.gethostname(), socket.gethostname() + ".local"}  # its name, and as mDNS gives it
        else:
            names.add(host)
    return frozenset(_name(n) for n in names if n)


def host_allowed(allowed: frozenset[str], host: str) -> bool:
    """Whether the Host header `host` (a name or address, with or without its port) is one
    this server answers: no header (HTTP/1.0, never a browser), an address, or an allowed name."""
    name = host[1 : host.find("]")] if host.startswith("[") else host.rpartition(":")[0] if host.count(":") == 1 else host
    if not name:
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return _name(name) in allowed
    return True


def _name(host: str) -> str:
    return host.lower().rstrip(".")


HOSTS_REMEMBERED = 256
"""Host headers whose answer the guard keeps (a client naming more only costs it the check again)."""


class Guard:
    """The middleware of the checks above: an unknown Host is a 400 and HEAD a 405, each
    worded; every response gets the security headers (streams too), the content security policy
    unless the response has its own (the seat's page: the server's, with its stylesheet's hash)."""

    def __init__(self, app: ASGIApp, allowed: frozenset[str]):
        self.app = app
        self.allowed = allowed
        self.answered: dict[bytes, bool] = {}
        """Each Host header seen and whether it is allowed (the same few on every request)."""

    def host_allowed(self, host: bytes) -> bool:
        allowed = self.answered.get(host)
        if allowed is None:
            if len(self.answered) >= HOSTS_REMEMBERED:
                self.answered.clear()
            allowed = self.answered[host] = host_allowed(self.allowed, host.decode("latin-1"))
        return allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                own_policy = any(name.lower() == SECURITY_HEADERS[0][0] for name, _ in headers)  # a page's own, narrower for what it holds
                message["headers"] = [*headers, *(SECURITY_HEADERS[1:] if own_policy else SECURITY_HEADERS)]
            await send(message)

        host = next((value for name, value in scope["headers"] if name == b"host"), b"")
        if not self.host_allowed(host):
            request, shown = Request(scope), host.decode("latin-1")
            shown = shown if len(shown) <= 100 else shown[:100] + "..."
            message = (
                f"this server answers to {', '.join(sorted(self.allowed))} and to addresses, not to {shown!r}; "
                f"to reach it by that name, start it with `ktlog serve --allow-host NAME`"
            )
            await problem(request, 400, "unknown_host", "Unknown host", message)(scope, receive, send_with_headers)
        elif scope["method"] == "HEAD":
            refused = problem(Request(scope), 405, "read_only", "Not allowed", "only GET requests are answered (HEAD is not)")
            refused.headers["allow"] = "GET"
            await refused(scope, receive, send_with_headers)
        else:
            await self.app(scope, receive, send_with_headers)


STREAMS_PER_CLIENT = 32
"""Event streams one client address may hold open (a club's big screen, overlays and phones
behind one router stay well under it)."""


class ClientStreams:
    """The event streams open from each client address, at most `most` each."""

    def __init__(self, most: int = STREAMS_PER_CLIENT):
        self.most = most
        self.open: Counter[str] = Counter()

    def take(self, request: Request) -> str:
        """Count a new stream of the request's client (TooManyStreams past the cap); returns the
        address to give back when the stream ends."""
        address = request.client.host if request.client else "unknown"
        if self.open[address] >= self.most:
            raise TooManyStreams(
                f"{self.open[address]} event streams are open from {address} already, the most one address may hold; "
                "close a page or an overlay (or start the server with a higher --max-streams)"
            )
        self.open[address] += 1
        return address

    def give_back(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]
