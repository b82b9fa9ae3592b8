"""FamilySearch: GEDCOM X JSON with the user's own OAuth2 token (Tier 2).

The token is FAMILYSEARCH_ACCESS_TOKEN (or the keyring); the fetcher adds it as a bearer
header and it never reaches a snapshot, a log entry or an error message. Obtaining a token
with the password grant (client id + user login) is not implemented yet.
"""

from __future__ import annotations

from sleuth.sources.fetcher import FetchResult
from sleuth.sources.plugins.base import SourcePlugin


class FamilySearchPlugin(SourcePlugin):
    def headers(self) -> dict[str, str]:
        return {"Accept": "application/x-gedcomx-v1+json"}

    def person(self, person_id: str) -> FetchResult:
        return self.call("person", id=person_id)

    def record(self, persona_id: str) -> FetchResult:
        return self.call("record", id=persona_id)
