"""Fixtures: the production LLM client pointed at pytest-httpserver on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from llm_scripted import Log, Sleeps, env_for
from pytest_httpserver import HTTPServer

from sleuth.llm import LLMClient, LLMConfig


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def client(httpserver: HTTPServer, sleeps: Sleeps) -> Iterator[LLMClient]:
    c = LLMClient(LLMConfig.load(env=env_for(httpserver)), sleep=sleeps)
    yield c
    c.close()


@pytest.fixture
def log() -> Log:
    return Log()
