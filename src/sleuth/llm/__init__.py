"""Optional LLM roles behind the hallucination firewall (seed 000 §3/§5, seed 002 limits).

Nothing here is needed at run time: with no model configured every role returns None and
the deterministic components do the work. Whatever a model says is re-checked against the
stored snapshot (`sleuth.llm.guard`) before it can become a candidate.
"""

from sleuth.llm.client import CallRecord, LLMClient
from sleuth.llm.config import ROLES, Limits, LLMConfig, RoleConfig
from sleuth.llm.errors import (
    CallLimitExceeded,
    LLMError,
    LLMNotConfigured,
    LLMSchemaError,
    LLMUnavailable,
)
from sleuth.llm.meter import CallLimit, Meter, llm_cost
from sleuth.llm.roles import (
    ConflictAdvice,
    ConflictAnalyst,
    Planner,
    PlanResult,
    Resolver,
    ResolverVerdict,
    Verifier,
    VerifyResult,
    store_sink,
)

__all__ = [
    "ROLES",
    "CallLimit",
    "CallLimitExceeded",
    "CallRecord",
    "ConflictAdvice",
    "ConflictAnalyst",
    "LLMClient",
    "LLMConfig",
    "LLMError",
    "LLMNotConfigured",
    "LLMSchemaError",
    "LLMUnavailable",
    "Limits",
    "Meter",
    "PlanResult",
    "Planner",
    "Resolver",
    "ResolverVerdict",
    "RoleConfig",
    "Verifier",
    "VerifyResult",
    "llm_cost",
    "store_sink",
]
