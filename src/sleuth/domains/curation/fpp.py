"""A reader of the FPP subset F´'s component, port and topology files use (issue 25).

Pure functions over text. `tokens` splits a file into tokens that keep their line number
(comments dropped, a backslash-newline joined, `@` and `@<` annotations kept as text);
`read` groups them into statements and brace blocks and returns one flat `Decl` per
definition - module, component, port type, port instance, command, event, telemetry
channel, parameter, include, instance, topology, connection - each with the first and last
line of its own text, the scope it sits in and its typed fields. `read_tree` follows
`include "X.fppi"` into the included file (its declarations keep their own file and lines,
owned by the including component).

Not read as entities (consumed without error): `enum`, `struct`, `array`, `constant`,
`type`, `match`, telemetry limits and the bodies of enums and structs.

Why not F´'s own parser: `fprime-fpp` 3.4.0 installs from PyPI with a native `fpp` binary
(no JVM; `fpp-to-json` alone needs the jar and Java 25) but rejects these 2024 files
(`string size 40` in a parameter list) and cannot open an include whose folder the flattened
file names lost.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

_TOKEN = re.compile(r"""
    (?P<nl>\r?\n)
  | (?P<cont>\\[ \t]*\r?\n)
  | (?P<comment>\#[^\n]*)
  | (?P<post>@<[^\n]*)
  | (?P<pre>@[^\n]*)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<arrow>->)
  | (?P<num>-?(?:0[xX][0-9A-Fa-f]+|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?))
  | (?P<ident>\$?[A-Za-z_][A-Za-z_0-9]*)
  | (?P<punct>[{}()\[\]:,=.;*+/-])
  | (?P<space>[ \t]+)
""", re.VERBOSE)


class FppSyntaxError(ValueError):
    """Text the reader cannot read, with its file and line."""


@dataclass(frozen=True)
class Token:
    kind: str  # nl, post, pre, string, arrow, num, ident, punct
    text: str
    line: int


def tokens(text: str, doc: str = "<text>") -> list[Token]:
    """The file's tokens with 1-based line numbers; comments, spaces and continuations
    dropped. An unreadable character raises `FppSyntaxError` naming its line."""
    out: list[Token] = []
    line, pos = 1, 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise FppSyntaxError(f"{doc}:{line}: cannot read {text[pos:pos + 20]!r}")
        kind = m.lastgroup or ""
        if kind in ("nl", "pre", "post", "string", "arrow", "num", "ident", "punct"):
            value = m.group()
            if kind == "pre":
                value = value[1:].strip()
            elif kind == "post":
                value = value[2:].strip()
            out.append(Token(kind, value, line))
        line += m.group().count("\n")
        pos = m.end()
    return out


@dataclass
class Decl:
    """One definition: what it is, its name, where (file, first and last line of its own
    statement), the scope it sits in (modules, then component or topology) and its fields."""

    kind: str
    name: str
    doc: str
    start: int
    end: int
    scope: tuple[str, ...] = ()
    fields: dict[str, Any] = field(default_factory=dict)
    description: str = ""

    @property
    def lines(self) -> tuple[int, int]:
        return (self.start, self.end)


@dataclass
class _Stmt:
    toks: list[Token]
    block: list[_Stmt] | None = None  # a container's members
    pre: list[str] = field(default_factory=list)
    post: list[str] = field(default_factory=list)


_CONTAINERS = {"module", "component", "topology", "connections"}


def _statements(toks: list[Token], i: int, doc: str, closing: bool) -> tuple[list[_Stmt], int]:
    """Statements from toks[i] to the matching `}` (closing) or the end."""
    out: list[_Stmt] = []
    pre: list[str] = []
    cur: _Stmt | None = None
    depth = 0  # ( and [ nesting inside a statement
    while i < len(toks):
        t = toks[i]
        if t.kind == "nl" and depth == 0:
            if cur is not None:
                out.append(cur)
                cur = None
            i += 1
            continue
        if t.kind == "pre" and cur is None:
            pre.append(t.text)
            i += 1
            continue
        if t.text == "}" and t.kind == "punct" and depth == 0:
            if cur is not None:
                out.append(cur)
            if not closing:
                raise FppSyntaxError(f"{doc}:{t.line}: '}}' without '{{'")
            return out, i + 1
        if cur is None:
            cur = _Stmt([], pre=pre)
            pre = []
        if t.kind == "post" and depth == 0:
            cur.post.append(t.text)
        elif t.kind in ("pre", "post"):
            cur.toks.append(t)  # an annotation inside a parameter list
        elif t.text == "{" and t.kind == "punct" and depth == 0:
            head = {x.text for x in cur.toks[:3]}
            if head & _CONTAINERS and cur.block is None:
                cur.toks.append(t)
                cur.block, i = _statements(toks, i + 1, doc, True)
                out.append(cur)
                cur = None
                continue
            i = _skip_block(toks, i, doc)  # enum/struct bodies, telemetry limits
            cur.toks.append(Token("punct", "{}", toks[i - 1].line))
            continue
        else:
            if t.text in "([" and t.kind == "punct":
                depth += 1
            elif t.text in ")]" and t.kind == "punct":
                depth = max(0, depth - 1)
            if t.kind != "nl":
                cur.toks.append(t)
        i += 1
    if closing:
        raise FppSyntaxError(f"{doc}: end of file inside a block")
    if cur is not None:
        out.append(cur)
    return out, i


def _skip_block(toks: list[Token], i: int, doc: str) -> int:
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].kind == "punct" and toks[j].text == "{":
            depth += 1
        elif toks[j].kind == "punct" and toks[j].text == "}":
            depth -= 1
            if depth == 0:
                return j + 1
    raise FppSyntaxError(f"{doc}:{toks[i].line}: unclosed '{{'")


# -- reading statements -------------------------------------------------------------------


def _words(s: _Stmt) -> list[str]:
    return [t.text for t in s.toks]


def _after(words: list[str], *keys: str) -> str | None:
    """The value after a keyword sequence (`opcode 0x1`, `base id 0x0500`), or None."""
    n = len(keys)
    for k in range(len(words) - n):
        if tuple(words[k:k + n]) == keys:
            return words[k + n]
    return None


_INSTANCE_KEYS = {"base", "queue", "stack", "priority", "cpu", "at", "type", "{}"}


def _expr(words: list[str], keys: tuple[str, ...]) -> str | None:
    """The expression after a keyword sequence, up to the next instance keyword
    (`queue size Default.QUEUE_SIZE`, `stack size 64 * 1024`)."""
    n = len(keys)
    for k in range(len(words) - n):
        if tuple(words[k:k + n]) == keys:
            rest = words[k + n:]
            stop = next((j for j, w in enumerate(rest) if w in _INSTANCE_KEYS), len(rest))
            return _join(rest[:stop]) or None
    return None


def _params(s: _Stmt, at: int) -> tuple[list[dict[str, Any]], int]:
    """A parenthesised formal parameter list starting at toks[at] == '('."""
    toks = s.toks
    params: list[dict[str, Any]] = []
    cur: list[Token] = []
    notes: list[str] = []
    depth, j = 0, at

    def flush() -> None:
        words = [t.text for t in cur if t.kind not in ("pre", "post")]
        notes.extend(t.text for t in cur if t.kind == "post")
        if ":" in words:
            k = words.index(":")
            name = words[k - 1].lstrip("$")
            params.append({"name": name, "type": _join(words[k + 1:]),
                           "ref": "ref" in words[:k], "description": " ".join(notes)})
        cur.clear()
        notes.clear()

    while j < len(toks):
        t = toks[j]
        if t.text == "(" and t.kind == "punct":
            depth += 1
            if depth == 1:
                j += 1
                continue
        elif t.text == ")" and t.kind == "punct":
            depth -= 1
            if depth == 0:
                flush()
                return params, j + 1
        if depth == 1 and t.kind == "pre" and not any(x.kind == "post" for x in cur):
            if cur:
                flush()
            notes.append(t.text)
        elif depth == 1 and t.text == ",":
            flush()
        elif depth == 1 and cur and t.kind == "ident" and cur[-1].kind not in ("punct",) \
                and _starts_param(toks, j) and ":" in [x.text for x in cur]:
            flush()
            cur.append(t)
        else:
            cur.append(t)
        j += 1
    raise FppSyntaxError(f"line {toks[at].line}: unclosed '('")


def _starts_param(toks: list[Token], j: int) -> bool:
    """`name :` or `ref name :` begins a new parameter (parameters may be newline-separated,
    and newlines were dropped inside parentheses)."""
    if toks[j].text == "ref":
        return j + 2 < len(toks) and toks[j + 2].text == ":"
    return j + 1 < len(toks) and toks[j + 1].text == ":"


def _type_after_colon(words: list[str], k: int, stops: set[str]) -> str:
    """The type named after words[k] == ':' (`Fw.Tlm`, `[HealthPingPorts] Svc.Ping`,
    `string size 40`), up to the first keyword in `stops`."""
    out: list[str] = []
    for w in words[k + 1:]:
        if w in stops or w == "{}":
            break
        out.append(w)
    return _join(out)


def _join(words: list[str]) -> str:
    return " ".join(words).replace(" . ", ".").replace("[ ", "[").replace(" ]", "]")


def _port_type(text: str) -> dict[str, Any]:
    """`[HealthPingPorts] Svc.Ping` as the port type and its array size."""
    m = re.fullmatch(r"\[([^\]]+)\]\s*(.+)", text)
    return {"type": m.group(2), "size": m.group(1)} if m else {"type": text, "size": None}


_PORT_KINDS = {"sync", "async", "guarded"}
_SPECIAL: dict[tuple[str, ...], str] = {
    ("command", "recv"): "Fw.Cmd", ("command", "reg"): "Fw.CmdReg",
    ("command", "resp"): "Fw.CmdResponse", ("event",): "Fw.Log", ("text", "event"): "Fw.LogText",
    ("time", "get"): "Fw.Time", ("telemetry",): "Fw.Tlm", ("param", "get"): "Fw.PrmGet",
    ("param", "set"): "Fw.PrmSet",
}
_SPECIAL_DIRECTION: dict[tuple[str, ...], str] = {("command", "recv"): "input"}
_TLM_STOPS = {"id", "update", "format", "low", "high"}
_PARAM_STOPS = {"default", "id", "set", "save"}
_PORT_STOPS = {"priority", "assert", "block", "drop", "hook"}
_PATTERNS = {"command", "event", "param", "telemetry", "text", "time", "health"}


def _decl(what: str, name: str, s: _Stmt, doc: str, scope: tuple[str, ...],
          **fields: Any) -> Decl:
    lines = [t.line for t in s.toks]
    return Decl(what, name.lstrip("$"), doc, min(lines), max(lines), scope, fields,
                " ".join(s.pre + s.post).strip())


def _component_member(s: _Stmt, w: list[str], doc: str, scope: tuple[str, ...]) -> Decl | None:
    """Port instances, commands, events, telemetry and parameters of a component."""
    if "port" in w[:4] and w[0] != "port":
        k = w.index("port")
        name = w[k + 1]
        head = tuple(w[:k])
        if head[-1:] == ("input",) and head[0] in _PORT_KINDS:
            colon = w.index(":")
            return _decl("port", name, s, doc, scope, kind=head[0], direction="input",
                         **_port_type(_type_after_colon(w, colon, _PORT_STOPS)), special=False)
        if head == ("output",):
            return _decl("port", name, s, doc, scope, kind="output", direction="output",
                         **_port_type(_type_after_colon(w, w.index(":"), _PORT_STOPS)),
                         special=False)
        if head == ("internal",):
            params, _ = _params(s, k + 2) if w[k + 2:k + 3] == ["("] else ([], 0)
            return _decl("port", name, s, doc, scope, kind="internal", direction="internal",
                         type=None, params=params, special=False)
        if head in _SPECIAL:
            return _decl("port", name, s, doc, scope, kind=" ".join(head),
                         direction=_SPECIAL_DIRECTION.get(head, "output"),
                         type=_SPECIAL[head], special=True)
        raise FppSyntaxError(f"{doc}:{s.toks[0].line}: unknown port kind {' '.join(head)!r}")
    if w[0] == "command" or (w[0] in _PORT_KINDS and w[1:2] == ["command"]):
        k = w.index("command")
        params, _ = _params(s, k + 2) if w[k + 2:k + 3] == ["("] else ([], 0)
        return _decl("command", w[k + 1], s, doc, scope,
                     kind=w[0] if k else "async", kind_stated=bool(k),
                     opcode=_after(w, "opcode"), args=params)
    if w[0] == "event":
        params, _ = _params(s, 2) if w[2:3] == ["("] else ([], 0)
        sev = _after(w, "severity")
        if sev in ("warning", "activity") and (nxt := _after(w, "severity", sev)):
            sev = f"{sev} {nxt}"
        fmt = _after(w, "format")
        return _decl("event", w[1], s, doc, scope, severity=sev, id=_after(w, "id"),
                     format=fmt[1:-1] if fmt else None, args=params,
                     throttle=_after(w, "throttle"))
    if w[0] == "telemetry" and w[2:3] == [":"]:
        upd = _after(w, "update")
        update = "on change" if upd == "on" else upd  # `update always` / `update on change`
        fmt = _after(w, "format")
        return _decl("telemetry", w[1], s, doc, scope, type=_type_after_colon(w, 2, _TLM_STOPS),
                     id=_after(w, "id"), update=update or "always", update_stated=bool(upd),
                     format=fmt[1:-1] if fmt else None, limits="{}" in w)
    if w[0] == "param" and w[2:3] == [":"]:
        return _decl("parameter", w[1], s, doc, scope, type=_type_after_colon(w, 2, _PARAM_STOPS),
                     default=_after(w, "default"), id=_after(w, "id"),
                     set_opcode=_after(w, "set", "opcode"), save_opcode=_after(w, "save", "opcode"))
    return None


def _endpoint(words: list[str]) -> dict[str, Any]:
    """`inst.port[idx]` as its parts."""
    text = "".join(words)
    m = re.fullmatch(r"(\$?\w+)\.(\$?\w+)(?:\[(.+)\])?", text)
    if m is None:
        raise FppSyntaxError(f"cannot read connection end {text!r}")
    return {"instance": m.group(1).lstrip("$"), "port": m.group(2).lstrip("$"),
            "index": m.group(3)}


def _read(stmts: list[_Stmt], doc: str, scope: tuple[str, ...], out: list[Decl],
          where: str) -> None:
    for s in stmts:
        w = _words(s)
        if not w:
            continue
        kind_word = next((x for x in w[:2] if x in _CONTAINERS), None)
        if kind_word == "module":
            out.append(_decl("module", w[1], s, doc, scope))
            _read(s.block or [], doc, (*scope, w[1]), out, "module")
        elif kind_word == "component":
            kind = w[0] if w[0] in ("active", "passive", "queued") else None
            d = _decl("component", w[w.index("component") + 1], s, doc, scope, kind=kind)
            d.end = d.start  # the header line states it; the block is `block_end`
            d.fields["block_end"] = max(t.line for t in s.toks)
            out.append(d)
            _read(s.block or [], doc, (*scope, d.name), out, "component")
        elif kind_word == "topology":
            d = _decl("topology", w[1], s, doc, scope)
            d.end = d.start
            out.append(d)
            _read(s.block or [], doc, (*scope, w[1]), out, "topology")
        elif w[0] == "connections" and where == "topology":
            d = _decl("graph", w[1], s, doc, scope)
            d.end = d.start
            out.append(d)
            _read(s.block or [], doc, (*scope, w[1]), out, "connections")
        elif where == "connections" and "->" in w:
            k = w.index("->")
            src, dst = _endpoint(w[:k]), _endpoint(w[k + 1:])
            name = f"{''.join(w[:k])}->{''.join(w[k + 1:])}".replace("$", "")
            out.append(_decl("connection", name, s, doc, scope[:-1], graph=scope[-1],
                             source=src, target=dst, pattern=False))
        elif where == "topology" and w[0] in _PATTERNS and "connections" in w:
            k = w.index("connections")
            pat = " ".join(w[:k])
            inst = w[k + 2].lstrip("$")
            out.append(_decl("connection", f"{pat}:{inst}", s, doc, scope, graph=pat,
                             source={"instance": inst, "port": None, "index": None},
                             target=None, pattern=True))
        elif w[0] == "instance" and where == "topology":
            out.append(_decl("topology_instance", w[1], s, doc, scope))
        elif w[0] == "instance":
            colon = w.index(":")
            ctype = _type_after_colon(w, colon, {"base"})
            out.append(_decl("instance", w[1], s, doc, scope, component=ctype,
                             base_id=_expr(w, ("base", "id")),
                             queue_size=_expr(w, ("queue", "size")),
                             stack_size=_expr(w, ("stack", "size")),
                             priority=_expr(w, ("priority",))))
        elif w[0] == "port":
            params, j = _params(s, 2) if w[2:3] == ["("] else ([], 2)
            ret = "".join(w[j + 1:]) if w[j:j + 1] == ["->"] else None
            out.append(_decl("port_type", w[1], s, doc, scope, params=params, return_type=ret))
        elif w[0] == "include":
            out.append(_decl("include", w[1][1:-1], s, doc, scope, where=where))
        elif where == "component" and (d2 := _component_member(s, w, doc, scope)) is not None:
            out.append(d2)
        elif w[0] in ("enum", "struct", "array", "constant", "type", "match"):
            continue  # read, not an entity
        else:
            raise FppSyntaxError(f"{doc}:{s.toks[0].line}: cannot read {' '.join(w[:4])!r}")


def read(text: str, doc: str = "<text>", scope: tuple[str, ...] = (),
         where: str = "module") -> list[Decl]:
    """Every definition in one file, in file order. `scope` and `where` place an included
    file's members (`where="component"` for a component's `.fppi`)."""
    stmts, _ = _statements(tokens(text, doc), 0, doc, False)
    out: list[Decl] = []
    _read(stmts, doc, scope, out, where)
    return out


def include_name(including: str, target: str) -> str:
    """The flattened name of an included file: `Svc__BufferManager__BufferManager.fpp`
    including `Events.fppi` is `Svc__BufferManager__Events.fppi` (`/` written `__`)."""
    folder = including.rsplit("__", 1)[0] if "__" in including else ""
    parts = [p for p in target.split("/") if p not in ("", ".")]
    return "__".join([folder, *parts] if folder else parts)


def read_tree(files: Mapping[str, str],
              resolve: Callable[[str, str], str] = include_name) -> Iterator[Decl]:
    """Every definition of every `.fpp` file, includes read where they stand (their
    declarations owned by the including scope, with their own file and lines). An included
    file that is not in `files` raises `FppSyntaxError`; a `.fppi` is read only through its
    include."""
    for doc in sorted(files):
        if doc.endswith(".fpp"):
            yield from _expand(read(files[doc], doc), files, resolve, 0)


def _expand(decls: list[Decl], files: Mapping[str, str],
            resolve: Callable[[str, str], str], depth: int) -> Iterator[Decl]:
    for d in decls:
        yield d
        if d.kind != "include":
            continue
        if depth > 8:
            raise FppSyntaxError(f"{d.doc}:{d.start}: includes nested too deep")
        target = resolve(d.doc, d.name)
        if target not in files:
            raise FppSyntaxError(f"{d.doc}:{d.start}: include {d.name!r} ({target}) not found")
        d.fields["file"] = target
        inner = read(files[target], target, d.scope, d.fields["where"])
        yield from _expand(inner, files, resolve, depth + 1)
