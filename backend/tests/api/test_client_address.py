"""Resolving the client behind (trusted) proxies."""

from __future__ import annotations

import pytest

from bookchat.api.client_address import parse_networks, resolve_client

TRUSTED = parse_networks(["10.0.0.0/8", "192.0.2.1"])


def test_untrusted_peer_is_the_client_whatever_it_forwards() -> None:
    assert resolve_client("198.51.100.9", "1.2.3.4, 5.6.7.8", TRUSTED) == "198.51.100.9"


def test_trusted_proxy_names_the_rightmost_untrusted_hop() -> None:
    assert resolve_client("10.0.0.2", "6.6.6.6, 203.0.113.5, 10.1.1.1", TRUSTED) == "203.0.113.5"


def test_spoofed_leftmost_entries_behind_a_trusted_proxy_are_ignored() -> None:
    assert resolve_client("192.0.2.1", "1.1.1.1, 203.0.113.5", TRUSTED) == "203.0.113.5"


def test_trusted_proxy_without_forwarded_for_is_itself_the_client() -> None:
    assert resolve_client("10.0.0.2", None, TRUSTED) == "10.0.0.2"


def test_all_hops_trusted_falls_back_to_the_leftmost() -> None:
    assert resolve_client("10.0.0.2", "10.0.0.7, 10.0.0.8", TRUSTED) == "10.0.0.7"


def test_garbage_hop_is_treated_as_an_untrusted_client() -> None:
    assert resolve_client("10.0.0.2", "not-an-ip", TRUSTED) == "not-an-ip"


def test_invalid_trusted_proxy_setting_is_rejected() -> None:
    with pytest.raises(ValueError, match="does not appear"):
        parse_networks(["10.0.0.0/33x"])
