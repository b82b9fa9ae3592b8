"""Fixtures for the loop: a mini world on a real local HTTP server, a case pointed at it."""

from __future__ import annotations

from collections.abc import Callable

import miniworld
import pytest
from pytest_httpserver import HTTPServer


@pytest.fixture
def world_on(httpserver: HTTPServer) -> Callable[..., miniworld.World]:
    """Serve a mini world (by seed) on the test's HTTP server."""

    def serve(seed: int = 1, generations: int = 3) -> miniworld.World:
        w = miniworld.build(seed, generations)
        httpserver.clear()
        httpserver.expect_request("/api.php").respond_with_handler(miniworld.handler(w))
        return w

    return serve
