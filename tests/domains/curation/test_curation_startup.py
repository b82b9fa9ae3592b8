"""`sleuth search`, `export` and `init` on a curation case load the domain; LangGraph (about
two seconds of imports) loads only when the refinement loop runs."""

from __future__ import annotations

import subprocess
import sys

LOOP_ONLY = ("langgraph", "langchain_core", "langsmith")


def _loaded_after(code: str) -> set[str]:
    probe = f"import sys\n{code}\nprint('\\n'.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    return set(out.split())


def test_the_domain_loads_without_langgraph() -> None:
    loaded = _loaded_after("import sleuth.domains.curation\n"
                           "from sleuth.domains.curation import search, exports, agents")
    assert "sleuth.domains.curation.agents" in loaded
    assert not [m for m in LOOP_ONLY if m in loaded]


def test_the_loop_still_loads_it() -> None:
    from sleuth.domains.curation.limits import SEED_002
    from sleuth.domains.curation.loop import SEED_002 as same

    assert same is SEED_002 and SEED_002.recursion_limit == 5
    assert "langgraph" in _loaded_after("import sleuth.domains.curation.loop")
