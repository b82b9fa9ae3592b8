"""FamilySearch: GEDCOM X JSON with the user's own OAuth2 token (Tier 2).

The token is FAMILYSEARCH_ACCESS_TOKEN, or one the fetcher obtains with the OAuth2 password
grant from FAMILYSEARCH_CLIENT_ID, FAMILYSEARCH_USERNAME and FAMILYSEARCH_PASSWORD (env vars
or the keyring; `sleuth.sources.oauth`). It is held in memory only, sent as a bearer header,
renewed once when the API answers 401, and never reaches a snapshot, a log entry or an error
message.
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
