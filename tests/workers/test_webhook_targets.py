"""Issue 28 item 2: a player's webhook never leads inward, whatever form the address takes.

An IPv6 address that carries an IPv4 address (6to4, NAT64, IPv4-compatible, -mapped,
-translated, Teredo) is judged by the IPv4 address it carries, by the same rule as plain IPv4;
a name is judged by every address it resolves to, when the subscription is created and when
a delivery connects (the connection itself resolves the name: no second lookup to rebind).
"""

from __future__ import annotations

import ipaddress
import socket

import pytest

from tests.workers.hooks import Receiver
from workers import outbound, webhooks
from workers.subscriptions import embedded_ipv4, is_private_address, url_problem

INWARD_V6 = {
    "2002:7f00:1::1": "127.0.0.1",            # 6to4
    "2002:a00:1::1": "10.0.0.1",              # 6to4
    "2002:a9fe:a9fe::1": "169.254.169.254",   # 6to4 of the cloud metadata address
    "64:ff9b::7f00:1": "127.0.0.1",           # NAT64, well-known prefix
    "64:ff9b::6440:1": "100.64.0.1",          # NAT64 of the shared address space
    "64:ff9b:1::a00:1": "10.0.0.1",           # NAT64, local-use prefix
    "::127.0.0.1": "127.0.0.1",               # IPv4-compatible
    "::a00:1": "10.0.0.1",                    # IPv4-compatible
    "::ffff:127.0.0.1": "127.0.0.1",          # IPv4-mapped
    "::ffff:c0a8:101": "192.168.1.1",         # IPv4-mapped
    "::ffff:0:7f00:1": "127.0.0.1",           # IPv4-translated (SIIT)
    "2001:0:a00:1::80ff:fffe": "127.0.0.1",   # Teredo: server 10.0.0.1, client 127.0.0.1 (inverted)
}
# the same forms carrying a public IPv4 address are judged by it too: they are not refused wholesale
PUBLIC_V6 = {"2002:808:808::1": "8.8.8.8", "64:ff9b::808:808": "8.8.8.8", "::ffff:808:808": "8.8.8.8"}


def resolving_to(*addresses):
    """A stand-in for `socket.getaddrinfo` that resolves every name to ``addresses``."""
    def getaddrinfo(host, port=None, *args, **kwargs):
        return [(socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "",
                 (a, port or 0, 0, 0) if ":" in a else (a, port or 0)) for a in addresses]
    return getaddrinfo


@pytest.mark.parametrize("address, carried", sorted(INWARD_V6.items()))
def test_each_ipv6_form_is_judged_by_the_ipv4_address_it_carries(address, carried):
    assert ipaddress.IPv4Address(carried) in embedded_ipv4(ipaddress.IPv6Address(address))
    assert is_private_address(ipaddress.ip_address(address))


@pytest.mark.parametrize("address, carried", sorted(PUBLIC_V6.items()))
def test_the_same_forms_carrying_a_public_address_are_public(address, carried):
    assert embedded_ipv4(ipaddress.IPv6Address(address)) == [ipaddress.IPv4Address(carried)]
    assert not is_private_address(ipaddress.ip_address(address))
    assert url_problem(f"https://[{address}]/hook", allow_private=False) is None


@pytest.mark.parametrize("address", sorted(INWARD_V6))
def test_a_players_literal_target_in_any_inward_form_is_refused_at_creation(address):
    assert "private" in url_problem(f"https://[{address}]:8443/hook", allow_private=False)
    assert url_problem(f"https://[{address}]:8443/hook", allow_private=True) is None  # the admin's own


@pytest.mark.parametrize("address", sorted(INWARD_V6))
def test_a_name_resolving_to_an_inward_form_is_refused_at_creation(monkeypatch, address):
    monkeypatch.setattr(socket, "getaddrinfo", resolving_to("93.184.216.34", address))
    assert "private" in url_problem("https://innocent.example/hook", allow_private=False)


@pytest.mark.parametrize("address", sorted(INWARD_V6))
def test_a_name_resolving_to_an_inward_form_is_refused_at_delivery(monkeypatch, address):
    monkeypatch.setattr(socket, "getaddrinfo", resolving_to(address))
    reason = webhooks.private_target("https://innocent.example/hook")
    assert reason is not None and "private address" in reason


@pytest.fixture
def local_receiver():
    sink = Receiver()
    yield sink
    sink.close()


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_a_delivery_resolves_the_name_once_and_connects_only_where_it_judged(monkeypatch, local_receiver, scheme):
    """DNS rebinding: a check and then a second lookup by the HTTP library could see two answers.
    The delivery's connection makes the only lookup and refuses before any byte is sent."""
    lookups = []
    inward = resolving_to("::ffff:127.0.0.1")

    def getaddrinfo(host, *args, **kwargs):
        lookups.append(host)
        return inward(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    url = f"{scheme}://rebind.example:{local_receiver.server.server_port}/hook"
    status, error = webhooks.post(url, b"{}", {}, timeout=2, vetted=True)
    assert status is None and "private address (::ffff:7f00:1)" in error
    assert lookups == ["rebind.example"] and local_receiver.requests == []


def test_an_unvetted_delivery_still_reaches_a_private_receiver(local_receiver):
    """The admin's subscriptions (or COSMIC_WEBHOOK_ALLOW_PRIVATE) go where they point."""
    status, error = webhooks.post(local_receiver.url(), b"{}", {}, timeout=2, vetted=False)
    assert (status, error) == (200, None) and len(local_receiver.requests) == 1


def test_a_vetted_delivery_to_a_mapped_loopback_name_sends_nothing(monkeypatch, local_receiver):
    monkeypatch.setattr(socket, "getaddrinfo", resolving_to("::ffff:127.0.0.1"))
    with pytest.raises(outbound.InwardTarget):
        outbound.vetted_connection(("innocent.example", local_receiver.server.server_port), 2)
    status, error = webhooks.post(local_receiver.url().replace("127.0.0.1", "innocent.example"), b"{}", {},
                                  timeout=2, vetted=True)
    assert status is None and "private address" in error and local_receiver.requests == []
