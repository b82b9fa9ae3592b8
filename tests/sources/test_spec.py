"""The plugin format: built-ins load, errors name the file and the key path, users add YAML."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from sleuth.model import InputError
from sleuth.model.source_spec import SourceTier, load_spec
from sleuth.net.guard import SsrfRefused, blocked_reason, check_addresses
from sleuth.net.redact import redact_url
from sleuth.sources.breaker import CircuitBreaker, CircuitOpen, CircuitState
from sleuth.sources.fetcher import parse_retry_after
from sleuth.sources.ratelimit import TokenBucket
from sleuth.sources.registry import BUILTIN_DIR, load_registry

SEED_EXAMPLE = (BUILTIN_DIR / "find_a_grave.yaml").read_text()


def test_builtins_cover_the_issue() -> None:
    reg = load_registry()
    assert {"wikitree", "wikidata", "wikidata_sparql", "wikipedia", "chronicling_america",
            "familysearch", "find_a_grave", "local_files"} <= {s.id for s in reg}
    fs = reg.get("familysearch")
    assert fs.tier == SourceTier.SUBSCRIPTION and fs.compliance.requires_auth
    fag = reg.get("find_a_grave")
    assert "scrape" in fag.compliance.prohibited_actions
    assert fag.extraction["person"]["name"].selector == "h1#bio-name"
    assert fag.extraction["person"]["name"].required
    ca = reg.get("chronicling_america")
    # loc.gov newspapers endpoint: at most 20 requests in any minute
    assert ca.compliance.burst + ca.compliance.requests_per_minute <= 20


def test_seed_key_names_are_accepted(tmp_path: Path) -> None:
    seed = {
        "plugin_id": "seedgrave", "display_name": "Seed", "tier": 0,
        "base_url": "https://www.findagrave.com",
        "compliance": {"robots_txt": True, "rate_limit_requests_per_minute": 10,
                       "rate_limit_burst": 3, "cache_ttl_seconds": 86400,
                       "requires_auth": False, "tos_url": "https://www.findagrave.com/terms"},
        "extraction_rules": {"person": {"name": {"selector": "h1#bio-name", "type": "text",
                                                 "required": True}}},
        "search": {"endpoint": "/memorial/search", "params": {"firstname": "{given_name}"}},
        "pagination": {"type": "page_number", "param": "page", "max_pages": 10},
    }
    p = tmp_path / "seed.yaml"
    p.write_text(yaml.safe_dump(seed))
    spec = load_spec(p)
    assert spec.id == "seedgrave" and spec.compliance.burst == 3


@pytest.mark.parametrize(("edit", "expected"), [
    (lambda d: d["compliance"].update(requests_per_minute=0),
     "findagrave.yaml: compliance.requests_per_minute: must be > 0"),
    (lambda d: d["compliance"].update(
        rate_limit_requests_per_minute=-d["compliance"].pop("requests_per_minute")),
     "findagrave.yaml: compliance.rate_limit_requests_per_minute: must be > 0"),
    (lambda d: d["compliance"].update(prohibited_actions=["scrape", "hack"]),
     "findagrave.yaml: compliance.prohibited_actions: unknown action(s) ['hack']"),
    (lambda d: d["search"]["params"].update(x="{favourite_colour}"),
     "findagrave.yaml: search.params: x: unknown placeholder {favourite_colour}"),
    (lambda d: d["extraction"]["person"]["name"].update(type="colour"),
     "findagrave.yaml: extraction.person.name.type:"),
    (lambda d: d.update(tier=2), "findagrave.yaml: (top level): tier 1 and 2 sources need"),
    (lambda d: d.update(colour="blue"), "findagrave.yaml: colour: unknown key"),
    (lambda d: d.pop("compliance"), "findagrave.yaml: compliance: required key is missing"),
    (lambda d: d.update(base_url="ftp://x"), "findagrave.yaml: base_url: must be an http(s)"),
])
def test_errors_name_file_and_key(tmp_path: Path, edit: object, expected: str) -> None:
    data = yaml.safe_load(SEED_EXAMPLE)
    edit(data)  # type: ignore[operator]
    p = tmp_path / "findagrave.yaml"
    p.write_text(yaml.safe_dump(data))
    with pytest.raises(InputError) as err:
        load_spec(p)
    assert str(err.value).startswith(expected), str(err.value)


def test_yaml_syntax_error_names_the_line(tmp_path: Path) -> None:
    p = tmp_path / "broken.yaml"
    p.write_text("id: broken\nname: [unclosed\ntier: 0\n")
    with pytest.raises(InputError, match=r"^broken.yaml:\d+: not valid YAML"):
        load_spec(p)


def test_user_folder_adds_and_overrides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    data = yaml.safe_load(SEED_EXAMPLE)
    data.update(id="parish_site", name="Parish site")
    (mine / "parish.yaml").write_text(yaml.safe_dump(data))
    monkeypatch.setenv("SLEUTH_SOURCES_DIR", str(mine))
    case = tmp_path / "case"
    (case / "sources").mkdir(parents=True)
    data.update(id="wikitree", name="My WikiTree mirror")
    (case / "sources" / "wt.yaml").write_text(yaml.safe_dump(data))
    reg = load_registry(case)
    assert "parish_site" in reg and reg.get("wikitree").name == "My WikiTree mirror"
    assert reg.origins["wikitree"].endswith("wt.yaml")


# -- SSRF guard ------------------------------------------------------------------------------
@pytest.mark.parametrize("addr", [
    "127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "0.0.0.0",
    "224.0.0.1", "240.0.0.1", "100.64.0.1", "::1", "fe80::1", "fc00::1", "ff02::1",
    "::ffff:127.0.0.1", "::ffff:10.0.0.1", "2002:7f00:1::1", "::",
])
def test_guard_refuses_non_public_addresses(addr: str) -> None:
    assert blocked_reason(ipaddress.ip_address(addr)) is not None
    with pytest.raises(SsrfRefused):
        check_addresses("h.example", [addr], local_ok=False)
    assert check_addresses("h.example", [addr], local_ok=True) == [addr]


@pytest.mark.parametrize("addr", ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"])
def test_guard_allows_public_addresses(addr: str) -> None:
    assert blocked_reason(ipaddress.ip_address(addr)) is None


def test_one_private_answer_is_enough_to_refuse() -> None:
    with pytest.raises(SsrfRefused):
        check_addresses("rebind.example", ["93.184.216.34", "127.0.0.1"], local_ok=False)


@given(st.ip_addresses())
def test_guard_agrees_with_is_global(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> None:
    """Anything the guard lets through is globally routable and not multicast."""
    if blocked_reason(ip) is None:
        assert ip.is_global and not ip.is_multicast


# -- small parts -----------------------------------------------------------------------------
def test_retry_after_forms() -> None:
    assert parse_retry_after("120", 0.0) == 120
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:30 GMT", 1445412480.0) == 30
    assert parse_retry_after("soon", 0.0) is None


def test_redact_url_keeps_innocent_urls_byte_for_byte() -> None:
    u = "https://x.example/a?q=J%C3%BCrgen+M&fo=json"
    assert redact_url(u, {"key"}) == u
    r = redact_url("https://user:pw@x.example/a?key=s3cret&q=1", {"key"})
    assert "s3cret" not in r and "pw" not in r and "q=1" in r


@given(st.lists(st.floats(min_value=0, max_value=5), min_size=1, max_size=60),
       st.floats(min_value=1, max_value=600), st.integers(min_value=1, max_value=5))
def test_token_bucket_never_exceeds_burst_plus_rate(gaps: list[float], rpm: float,
                                                    burst: int) -> None:
    now = [0.0]
    bucket = TokenBucket(rpm, burst, clock=lambda: now[0])
    taken: list[float] = []
    for gap in gaps:
        now[0] += gap
        bucket.acquire(lambda s: now.__setitem__(0, now[0] + s))
        taken.append(now[0])
    for i in range(len(taken)):
        for j in range(i, len(taken)):
            assert j - i + 1 <= burst + rpm / 60 * (taken[j] - taken[i]) + 1e-6


def test_breaker_states() -> None:
    now = [0.0]
    changes: list[str] = []
    b = CircuitBreaker("s", 2, 10.0, clock=lambda: now[0],
                       on_change=lambda br, old, new, why: changes.append(str(new)))
    b.failure("x")
    b.failure("x")
    assert b.state == CircuitState.OPEN
    with pytest.raises(CircuitOpen):
        b.before_request()
    now[0] = 11
    b.before_request()
    with pytest.raises(CircuitOpen, match="probe is in flight"):
        b.before_request()
    b.failure("probe failed")
    assert b.state == CircuitState.OPEN
    now[0] = 22
    b.before_request()
    b.success()
    assert changes == ["open", "half_open", "open", "half_open", "closed"]
