"""The source plugin format (seed 000 §4): one YAML file per source, validated by Pydantic.

A user adds a source by writing YAML alone; Python plugin classes (for JSON APIs) share the
same compliance block. Validation errors name the file and the key path, e.g.
`findagrave.yaml: compliance.requests_per_minute: must be > 0`. The seed's own key names
(`plugin_id`, `display_name`, `rate_limit_requests_per_minute`, `extraction_rules`, ...) are
accepted as aliases so its example loads unchanged.
"""

from __future__ import annotations

import re
from enum import IntEnum
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from sleuth.model import DATE_FIELDS, EvidenceType, InputError
from sleuth.model.evidence import ResearchQuestion, SourceKind

# Actions the gates understand (CensorCheckSourceAccess `action?`). `scrape` = reading HTML
# pages with selectors; `api` = a documented API; `store` = keeping the bytes in the case.
ACTIONS = frozenset({"search", "fetch", "api", "scrape", "download", "store", "bulk"})
PERSON_FIELDS = frozenset(
    {"given", "given_name", "surname", "name", "birth_year", "death_year", "birth_place",
     "death_place", "id", "key", "query"}
)
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
# Named regions a record set's `places` may use ("region:usa"): lower-case place words.
REGIONS: dict[str, tuple[str, ...]] = {
    "england_wales": ("england", "wales"),
    "usa": ("usa", "united states", "america", "alabama", "arkansas", "california",
            "colorado", "connecticut", "delaware", "florida", "georgia", "illinois", "indiana",
            "iowa", "kansas", "kentucky", "louisiana", "maine", "maryland", "massachusetts",
            "michigan", "minnesota", "mississippi", "missouri", "nebraska", "new hampshire",
            "new jersey", "new york", "north carolina", "ohio", "oregon", "pennsylvania",
            "rhode island", "south carolina", "tennessee", "texas", "vermont", "virginia",
            "washington", "west virginia", "wisconsin"),
}


class SourceTier(IntEnum):
    FREE = 0  # free, public
    ACCOUNT = 1  # free with an account
    SUBSCRIPTION = 2  # paid


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class AuthSpec(_Strict):
    """Where the user's credentials live. Names only: values are never in a spec."""

    kind: Literal["api_key", "app_id", "bearer", "oauth2_password", "oauth2_client_credentials",
                  "basic"] = "api_key"
    env: tuple[str, ...] = ()  # env var names, first set wins (per credential part)
    keyring_service: str | None = None  # OS keyring service; usernames are the env names
    param: str | None = None  # query parameter carrying an api_key/app_id
    header: str | None = None  # header carrying it instead (e.g. "Authorization")
    token_url: str | None = None  # OAuth2 token endpoint

    @model_validator(mode="after")
    def _oauth(self) -> AuthSpec:
        if self.kind.startswith("oauth2") and not self.token_url:
            raise ValueError(f"{self.kind} needs a token_url")
        return self


class PathLimit(_Strict):
    """A stricter limit for some endpoints of a source (loc.gov's per-endpoint limits)."""

    pattern: str
    requests_per_minute: float = Field(gt=0)
    burst: int = Field(default=1, ge=1)

    @field_validator("pattern")
    @classmethod
    def _regex(cls, v: str) -> str:
        try:
            re.compile(v)
        except re.error as exc:
            raise ValueError(f"not a regular expression: {exc}") from exc
        return v


class Compliance(_Strict):
    robots_txt: bool = True
    requests_per_minute: float = Field(
        gt=0, validation_alias=AliasChoices("requests_per_minute", "rate_limit_requests_per_minute")
    )
    burst: int = Field(default=1, ge=1, validation_alias=AliasChoices("burst", "rate_limit_burst"))
    path_limits: tuple[PathLimit, ...] = ()
    cache_ttl_seconds: int = Field(default=86400, ge=0)
    requires_auth: bool = False
    auth: AuthSpec | None = None
    tos_url: str | None = None
    allowed_actions: tuple[str, ...] = ("search", "fetch", "api", "store")
    prohibited_actions: tuple[str, ...] = ()
    content_types: tuple[str, ...] = ("application/json", "text/html", "text/plain")
    max_body_bytes: int = Field(default=10 * 1024 * 1024, gt=0)
    timeout_seconds: float = Field(default=30.0, gt=0)
    max_retries: int = Field(default=3, ge=0, le=10)
    max_retry_after_seconds: float = Field(default=300.0, ge=0)
    # The longest any one wait may hold a fetch (a Retry-After, a backoff, a rate limit's
    # next token); the run's remaining time caps it further. A longer wait is not slept
    # through: the source is unavailable for now (a long Retry-After opens its circuit).
    max_wait_seconds: float = Field(default=3600.0, gt=0)
    breaker_failures: int = Field(default=5, ge=1)
    breaker_cooldown_seconds: float = Field(default=300.0, gt=0)
    max_redirects: int = Field(default=5, ge=0, le=20)

    @field_validator("allowed_actions", "prohibited_actions")
    @classmethod
    def _known_actions(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        unknown = sorted(set(v) - ACTIONS)
        if unknown:
            raise ValueError(f"unknown action(s) {unknown}; known: {sorted(ACTIONS)}")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> Compliance:
        both = set(self.allowed_actions) & set(self.prohibited_actions)
        if both:
            raise ValueError(f"actions both allowed and prohibited: {sorted(both)}")
        if self.requires_auth and self.auth is None:
            raise ValueError("requires_auth is true but no auth block says where credentials are")
        return self


class Reliability(_Strict):
    evidence_type: EvidenceType = EvidenceType.SECONDARY
    base_weight: float = Field(default=0.5, ge=0, le=1)
    user_contributed: bool = False


class FieldRule(_Strict):
    """A CSS selector for one field of an HTML record (seed 000 §4.1 extraction_rules)."""

    selector: str = Field(min_length=1)
    type: Literal["text", "date", "place", "name", "url", "number"] = "text"
    required: bool = False
    format: str | None = None
    attribute: str | None = None  # read an attribute instead of the text

    @field_validator("selector")
    @classmethod
    def _css(cls, v: str) -> str:
        from selectolax.lexbor import LexborHTMLParser

        try:
            LexborHTMLParser("<p></p>").css(v)
        except Exception as exc:  # selectolax's own error type: "Can't parse CSS selector."
            raise ValueError(f"not a CSS selector lexbor can parse: {v!r}") from exc
        return v


class SearchSpec(_Strict):
    endpoint: str
    method: Literal["GET", "POST"] = "GET"
    params: dict[str, str] = Field(default_factory=dict)
    result_selector: str | None = None  # HTML: one element per hit
    result_path: str | None = None  # JSON: dotted path to the list of hits

    @field_validator("params")
    @classmethod
    def _placeholders(cls, v: dict[str, str]) -> dict[str, str]:
        for key, template in v.items():
            for name in _PLACEHOLDER.findall(str(template)):
                if name not in PERSON_FIELDS:
                    raise ValueError(
                        f"{key}: unknown placeholder {{{name}}}; known: {sorted(PERSON_FIELDS)}"
                    )
        return v


class Pagination(_Strict):
    type: Literal["page_number", "offset", "none"] = "page_number"
    param: str = "page"
    start: int = 1
    page_size: int | None = Field(default=None, gt=0)
    max_pages: int = Field(default=10, ge=1, le=1000)


class RecordSetSpec(_Strict):
    """A record set the source searches, with the years and places it covers: the GPS
    catalogue (`sleuth coverage`) asks every set that could hold a person's answer."""

    name: str = Field(min_length=1)
    questions: frozenset[ResearchQuestion]
    start: int
    end: int
    places: tuple[str, ...] = ()  # lower-case place words; () = anywhere

    @field_validator("places")
    @classmethod
    def _regions(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        out: list[str] = []
        for word in v:
            region = word.removeprefix("region:")
            if region != word and region not in REGIONS:
                raise ValueError(f"unknown region {word!r}; known: {sorted(REGIONS)}")
            out.extend(REGIONS[region] if region != word else (word.lower(),))
        return tuple(out)

    @model_validator(mode="after")
    def _years(self) -> RecordSetSpec:
        if self.start > self.end:
            raise ValueError(f"start {self.start} is after end {self.end}")
        return self


class RecordSpec(_Strict):
    """What the source's pages are as evidence, for the GPS (`sleuth.gps.kinds`)."""

    kind: SourceKind | None = None  # the kind of record its snapshots are
    hosts: tuple[str, ...] = ()  # URL host words that identify its pages ("wikitree.com")
    # record events its searches read ("birth", "baptism", "death", "burial", "obituary",
    # "marriage"): a required record set of the GPS checklist is searched through it
    events: frozenset[str] = frozenset()
    record_sets: tuple[RecordSetSpec, ...] = ()
    # modules ("package.module") with `detect(snap, raw)` and `extract(snap, raw)` that read
    # its bodies, tried in order before the built-in formats
    parsers: tuple[str, ...] = ()

    @field_validator("parsers")
    @classmethod
    def _modules(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for name in v:
            if not re.fullmatch(r"[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*", name):
                raise ValueError(f"not a module path: {name!r}")
        return v


class HitFollow(_Strict):
    """A search hit worth opening is called at `endpoint`, its id (the first of `id_keys`
    the hit has) in the `placeholder` parameter."""

    endpoint: str
    placeholder: str
    id_keys: tuple[str, ...] = Field(min_length=1)


class UrlFollow(_Strict):
    """A full-text hit names a document URL under `key`, opened by the gate's `action`
    without a name score (a newspaper page's title names no one)."""

    key: str
    action: Literal["download", "fetch", "api"] = "download"


class IdFollow(_Strict):
    """An identifier a promoted fact carries (`wikitree_id`) is followed by a direct call."""

    endpoint: str
    placeholder: str


class FollowSpec(_Strict):
    """How the research loop follows the source's search hits and identifiers."""

    hits: HitFollow | None = None
    urls: UrlFollow | None = None
    ids: dict[str, IdFollow] = Field(default_factory=dict)  # assertion field -> call


class SourceSpec(_Strict):
    """One source: identity, manners (compliance), trust (reliability) and how to query it."""

    id: str = Field(
        pattern=r"^[a-z][a-z0-9_]*$", validation_alias=AliasChoices("id", "plugin_id")
    )
    name: str = Field(min_length=1, validation_alias=AliasChoices("name", "display_name"))
    tier: SourceTier
    kind: Literal["html", "json", "local"] = "html"
    base_url: str | None = None
    local: bool = False  # true: base_url's host may be private/loopback (tests, mirrors)
    plugin: str | None = None  # "module:Class" for a Python plugin
    compliance: Compliance
    reliability: Reliability = Field(default_factory=Reliability)
    extraction: dict[str, dict[str, FieldRule]] = Field(
        default_factory=dict, validation_alias=AliasChoices("extraction", "extraction_rules")
    )
    search: SearchSpec | None = None
    endpoints: dict[str, str] = Field(default_factory=dict)  # named API endpoints
    pagination: Pagination | None = None
    record: RecordSpec = Field(default_factory=RecordSpec)
    follow: FollowSpec = Field(default_factory=FollowSpec)
    notes: str = ""  # provenance of the limits: where they are documented, or not

    @field_validator("base_url")
    @classmethod
    def _http(cls, v: str | None) -> str | None:
        if v is not None and not re.match(r"^https?://[^/\s]+", v):
            raise ValueError("must be an http(s) URL")
        return v.rstrip("/") if v else v

    @model_validator(mode="after")
    def _complete(self) -> SourceSpec:
        if self.kind != "local" and not self.base_url:
            raise ValueError("base_url is required for network sources")
        if self.tier != SourceTier.FREE and not self.compliance.requires_auth:
            raise ValueError("tier 1 and 2 sources need compliance.requires_auth: true")
        for record, rules in self.extraction.items():
            for name, rule in rules.items():
                # The firewall checks a date field against its parsed range: the two go together.
                if (rule.type == "date") != (name in DATE_FIELDS):
                    raise ValueError(f"extraction.{record}.{name}: type date goes with a field "
                                     "named like birth_date (ending in _date), and only there")
        return self

    def local_hosts(self) -> frozenset[str]:
        """Hosts allowed to resolve to private addresses: base_url's, when `local`."""
        if not self.local or not self.base_url:
            return frozenset()
        from urllib.parse import urlsplit

        host = urlsplit(self.base_url).hostname
        return frozenset({host.lower()}) if host else frozenset()

    def secret_params(self) -> frozenset[str]:
        """Query parameters that carry credentials and must never be stored or logged: the
        usual names, and the one the spec's auth block puts its value in, an app id
        included (WikiTree's appId names the user's application: issue 26)."""
        auth = self.compliance.auth
        names = {"key", "api_key", "apikey", "access_token", "token", "password", "secret",
                 "client_secret", "sessionid", "appid", "app_id"}
        if auth and auth.param:
            names.add(auth.param.lower())
        return frozenset(names)


def _num(v: Any) -> str:
    return f"{v:g}" if isinstance(v, int | float) else str(v)


def _message(err: dict[str, Any]) -> str:
    kind, ctx = err.get("type", ""), err.get("ctx") or {}
    if kind == "greater_than":
        return f"must be > {_num(ctx.get('gt'))}"
    if kind == "greater_than_equal":
        return f"must be >= {_num(ctx.get('ge'))}"
    if kind == "less_than_equal":
        return f"must be <= {_num(ctx.get('le'))}"
    if kind == "missing":
        return "required key is missing"
    if kind == "extra_forbidden":
        return "unknown key"
    msg = str(err.get("msg", "invalid"))
    return msg.removeprefix("Value error, ")


def format_errors(file: str, exc: ValidationError) -> str:
    """One line per error: `file: key.path: message`."""
    lines = []
    for err in exc.errors():
        path = ".".join(str(p) for p in err.get("loc", ())) or "(top level)"
        lines.append(f"{file}: {path}: {_message(dict(err))}")
    return "\n".join(lines)


def parse_spec(data: Any, file: str) -> SourceSpec:
    """Validate one spec mapping; InputError naming file and key path on failure."""
    if not isinstance(data, dict):
        raise InputError("a source spec must be a YAML mapping", file=file)
    try:
        return SourceSpec.model_validate(data)
    except ValidationError as exc:
        # InputError prefixes the file, so the first line drops its own copy of it.
        raise InputError(format_errors(file, exc).removeprefix(f"{file}: "), file=file) from exc


def load_spec(path: Path) -> SourceSpec:
    """Read and validate one YAML spec file."""
    name = path.name
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise InputError("no such source spec", file=name) from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise InputError(f"not valid YAML: {getattr(exc, 'problem', exc)}", file=name,
                         line=mark.line + 1 if mark else None) from exc
    return parse_spec(data, name)
