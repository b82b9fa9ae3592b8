"""The one kind of graph an output may print: what the Censor returns (privacy as a type).

Exporters, `sleuth show`, `review`, `check`, `timeline`, `cite` and `coverage` accept a
`CensoredGraph`, not a `CaseGraph`, so an output path that forgets the Censor is a type
error (mypy, run by `make test`) rather than a leak. Only `sleuth.privacy.censor` makes one;
tests/privacy/test_censored_type.py checks that no other module constructs it.
"""

from __future__ import annotations

from sleuth.model.graph import CaseGraph


class CensoredGraph(CaseGraph):
    """A CaseGraph after the Censor: living persons' data redacted, each decision logged in
    `redactions`, each person's verdict in `is_living`. Same fields, a different promise."""
