"""What the LLM layer raises on purpose. Messages never hold an API key (see `scrub`)."""

from __future__ import annotations

from sleuth.model import SleuthError


class LLMError(SleuthError):
    """Base class of every LLM-layer failure; the caller falls back to deterministic code."""


class LLMNotConfigured(LLMError):
    """No endpoint is configured for a role: the layer is optional, so this is not a failure
    of the run, only of the request."""


class LLMUnavailable(LLMError):
    """The endpoint did not answer usably (timeouts, 429/5xx after retries, 4xx)."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        self.status = status
        super().__init__(message)


class LLMSchemaError(LLMError):
    """The reply was not valid JSON for the contract, even after the one repair attempt."""

    def __init__(self, message: str, *, role: str, raw: str = "") -> None:
        self.role = role
        self.raw = raw
        super().__init__(message)


class CallLimitExceeded(LLMError):
    """A model-call, tool-call or cost limit with exit behaviour "error" was reached."""

    def __init__(self, message: str, *, limit: str) -> None:
        self.limit = limit
        super().__init__(message)


def scrub(text: str, *secrets: str | None) -> str:
    """Remove every secret from a message before it is raised or logged."""
    for s in secrets:
        if s:
            text = text.replace(s, "***")
    return text
