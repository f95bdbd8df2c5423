"""Connections to a player's webhook target, judged at the moment they are made.

A name checked a moment before the request can resolve elsewhere when the request connects
(DNS rebinding: a short-lived answer that is public for the check and 127.0.0.1 for the
connection). So a player's delivery does not let the HTTP library resolve the name again: the
connection resolves it once, judges every address it got (`vetted_addresses`, the same rule as
at creation: `workers.subscriptions.is_private_address`, IPv4 embedded in IPv6 included) and
connects only to those addresses. TLS still checks the certificate against the name in the URL.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import urllib.request

from workers.subscriptions import is_private_address


class InwardTarget(OSError):
    """The target's name resolves to an address that is not public: no connection is made."""


def vetted_addresses(host: str, port: int) -> list[tuple]:
    """``getaddrinfo`` of (host, port) when every address it gives is public; InwardTarget otherwise.

    One private address among public ones refuses the whole name: which one a connection
    would use is not the caller's to choose.
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError) as err:
        raise OSError(f"cannot resolve {host}: {err}") from None
    for info in infos:
        address = ipaddress.ip_address(info[4][0].split("%", 1)[0])
        if is_private_address(address):
            raise InwardTarget(f"refused: {host} resolves to a private address ({address})")
    if not infos:
        raise OSError(f"cannot resolve {host}: no address")
    return infos


def vetted_connection(address: tuple, timeout=socket._GLOBAL_DEFAULT_TIMEOUT, source_address=None):
    """`socket.create_connection` that connects only to the vetted addresses of the name."""
    host, port = address
    last = None
    for family, kind, proto, _, sockaddr in vetted_addresses(host, port):
        sock = socket.socket(family, kind, proto)
        try:
            if timeout is not socket._GLOBAL_DEFAULT_TIMEOUT:
                sock.settimeout(timeout)
            if source_address:
                sock.bind(source_address)
            sock.connect(sockaddr)
            return sock
        except OSError as err:
            sock.close()
            last = err
    raise last


class _VettedHTTP(http.client.HTTPConnection):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._create_connection = vetted_connection


class _VettedHTTPS(http.client.HTTPSConnection):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._create_connection = vetted_connection


class VettedHTTPHandler(urllib.request.HTTPHandler):
    def http_open(self, req):
        return self.do_open(_VettedHTTP, req)


class VettedHTTPSHandler(urllib.request.HTTPSHandler):
    def https_open(self, req):
        return self.do_open(_VettedHTTPS, req, context=self._context)
