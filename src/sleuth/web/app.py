"""The review workbench (issue 23): a Starlette app on one case, pages rendered on the server.

Routes (the contract of `shared/CLI.md`): `/review` (the queue; POST `/review/{id}/accept`,
`/reject`, `/edit`, and `/review/bulk-accept`), `/person/{id}`, `/persons`,
`/snapshot/{id}?start=&end=`, `/api/review` (the queue as JSON), `/static/…`; and, by
the case's domain, `/report`, `/log`, `/documents`, `/files` (`casefiles`).

Every decision is `sleuth.pipeline.review`'s accept / reject / edit, the very operation
`sleuth review` runs (audited, an edit re-checked by the firewall); every page prints only
what `views.CaseView` read through the Censor. The handlers are coroutines that read and
write the store in turn: one person's workbench needs no concurrency, and a SQLite store
is then used from one thread only.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pypdfium2 as pdfium
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from sleuth.domains import DEFAULT, get_domain
from sleuth.export.log_jsonl import render as render_log
from sleuth.model import InputError, NotFound, SleuthError
from sleuth.pipeline import review as ops
from sleuth.resolve import split as split_cluster
from sleuth.store import Store
from sleuth.store.workbench import clusters_of
from sleuth.web import casefiles, charts
from sleuth.web import documents as doc_pages
from sleuth.web.pdfpage import find_boxes, render_png
from sleuth.web.reportpages import PagedReport, ReportPages, paged_report, paginate
from sleuth.web.safety import CSRF_FIELD, Guard, check_csrf
from sleuth.web.views import (
    KINDS,
    CaseView,
    shown_date,
    source_label,
    source_pages,
    span,
    text_window,
)

STATIC = Path(__file__).with_name("static")
ACTIONS = ("accept", "reject", "edit")
PER_PAGE = 100  # persons a page of the persons list shows (and log events)
PER_QUEUE = 200  # review items a page of the queue shows
_MARK = re.compile(r'<mark id="([^"]+)" data-snapshot="([0-9a-f]+)" data-start="(\d+)" '
                   r'data-end="(\d+)">')
_FOOTNOTE_LINK = re.compile(r'<a href="#([^"]+)">\[highlighted in the source\]</a>')
_SOURCE_SECTION = re.compile(r'<section id="snap-([0-9a-f]+)"><h3>.*?</h3>')


class Workbench:
    """The pages of one case."""

    def __init__(self, store: Store, *, title: str = "", by: str = "Human",
                 case_dir: Path | None = None, redaction: bool = True) -> None:
        self.redaction = redaction
        self.view = CaseView(store, redaction=redaction,
                             title=case_dir.name if case_dir is not None else "")
        self.store = store
        self.case_dir = case_dir
        self.title = title
        self.by = by
        self.domain = (Store.case_domain(case_dir) or DEFAULT) if case_dir else DEFAULT
        self._pages: ReportPages | None = None  # the kept report, in pages
        self._paged: PagedReport | None = None  # the genealogy report, in stable pages
        self._paged_of: object = None  # the censored case it was made of
        self.env = Environment(loader=PackageLoader("sleuth.web", "templates"),
                               autoescape=select_autoescape(default=True),
                               trim_blocks=True, lstrip_blocks=True)
        self.env.globals.update(shown_date=shown_date, source_label=source_label)

    def render(self, request: Request, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        page = self.env.get_template(name).render(
            csrf=getattr(request.state, "csrf", ""), csrf_field=CSRF_FIELD, title=self.title,
            path=request.url.path,
            nav=casefiles.nav(self.domain, self.case_dir),
            redaction_off=not self.redaction, domain=self.domain, **ctx)
        return HTMLResponse(page, status_code=status)

    def problem(self, request: Request, status: int, message: str) -> HTMLResponse:
        return self.render(request, "error.html", status=status, status_code=status,
                           message=message)

    # -- pages -------------------------------------------------------------------------
    async def index(self, request: Request) -> Response:
        return RedirectResponse("/review", status_code=303)

    async def review(self, request: Request, *, error: str = "", status: int = 200,
                     form: dict[str, str] | None = None) -> Response:
        q = request.query_params
        kind, person, state = q.get("kind", ""), q.get("person", ""), q.get("status", "open")
        everything = self.view.queue(None if state == "all" else "open")
        people = sorted({str(i["subject_name"]) for i in everything if i["subject_name"]},
                        key=str.casefold)
        items = [i for i in everything if (not kind or i["kind"] == kind)
                 and (not person or i["subject_name"] == person)]
        if form and form.get("item"):  # the item a refused decision was about comes first
            items.sort(key=lambda i: str(i["id"]) != form["item"])
        counts = {k: sum(1 for i in everything if i["kind"] == k) for k in KINDS}
        try:
            page = max(1, int(q.get("page", "1")))
        except ValueError:
            page = 1
        last = max(1, -(-len(items) // PER_QUEUE))
        page = min(page, last)
        query = _query(kind, person, state)

        def at(n: int) -> str:
            return f"/review?{query}{'&' if query else ''}page={n}"

        return self.render(request, "review.html", status=status,
                           items=items[(page - 1) * PER_QUEUE: page * PER_QUEUE],
                           matching=len(items), kinds=KINDS, counts=counts, people=people,
                           kind=kind, person=person, state=state, total=len(everything),
                           error=error, done=q.get("done", ""), form=form or {}, query=query,
                           page=page, last=last, prev=at(page - 1) if page > 1 else "",
                           next=at(page + 1) if page < last else "")

    async def decide(self, request: Request) -> Response:
        action = request.path_params["action"]
        form = await request.form()
        if not check_csrf(request, form.get(CSRF_FIELD)):
            return self.problem(request, 403, "This form has expired or did not come from "
                                "this workbench (CSRF check failed): reload the page.")
        if action not in ACTIONS:
            return self.problem(request, 404, f"no such decision: {action}")
        item = int(request.path_params["item"])
        reason = str(form.get("reason") or "")
        back = str(form.get("back") or "")
        try:
            if action == "accept":
                ops.accept(self.store, item, reason=reason, by=self.by)
            elif action == "reject":
                ops.reject(self.store, item, reason=reason, by=self.by)
            else:
                value = str(form.get("value") or "").strip()
                if not value:
                    raise InputError("Edit needs the corrected value", field="value")
                ops.edit(self.store, item, value=value, reason=reason, by=self.by)
        except NotFound as exc:
            return self.problem(request, 404, str(exc))
        except SleuthError as exc:
            return await self.review(request, error=f"Item {item}: {exc}", status=400,
                                     form={"item": str(item), "reason": reason,
                                           "value": str(form.get("value") or "")})
        done = {"accept": "accepted", "reject": "rejected", "edit": "edited"}[action]
        return RedirectResponse(_back(back, f"{done} item {item}"), status_code=303)

    async def bulk_accept(self, request: Request) -> Response:
        form = await request.form()
        if not check_csrf(request, form.get(CSRF_FIELD)):
            return self.problem(request, 403, "This form has expired or did not come from "
                                "this workbench (CSRF check failed): reload the page.")
        reason = str(form.get("reason") or "")
        ids = [int(str(x)) for x in form.getlist("item") if str(x).isdigit()]
        if not reason.strip():
            return await self.review(request, error="Accepting several items needs one "
                                     "reason for all of them", status=400)
        accepted, failed = [], []
        for item in ids:
            try:
                ops.accept(self.store, item, reason=reason, by=self.by)
                accepted.append(item)
            except SleuthError as exc:
                failed.append(f"{item} ({exc})")
        note = f"accepted {len(accepted)} items" + (
            f"; not accepted: {', '.join(failed)}" if failed else "")
        return RedirectResponse(_back(str(form.get("back") or ""), note), status_code=303)

    async def api_review(self, request: Request) -> Response:
        state = request.query_params.get("status", "open")
        items = self.view.queue(None if state == "all" else "open")
        return JSONResponse([{k: v for k, v in i.items() if k != "span"} | {
            "span": list(i["span"]) if i["span"] else None} for i in items])

    async def persons(self, request: Request) -> Response:
        """Everyone, by surname, a page of them at a time; `q` keeps those whose name
        holds it (as the Censor shows names)."""
        q = " ".join(request.query_params.get("q", "").split())
        everyone = self.view.persons()
        if q:
            everyone = [p for p in everyone if q.casefold() in p.canonical_name.casefold()]
        last = max(1, -(-len(everyone) // PER_PAGE))
        page = asked_page(request, last)
        if isinstance(page, str):
            return self.problem(request, 400 if page.startswith("page") else 404, page)
        shown = everyone[(page - 1) * PER_PAGE: page * PER_PAGE]

        def at(n: int) -> str:
            return "/persons?" + urlencode({**({"q": q} if q else {}), "page": n})

        return self.render(request, "persons.html", persons=shown, total=len(everyone), q=q,
                           files=casefiles.files(self.case_dir),
                           page=page, last=last, prev=at(page - 1) if page > 1 else "",
                           next=at(page + 1) if page < last else "")

    async def files(self, request: Request) -> Response:
        """An investigation's own files (its case file, summary.md, and the rest), each as
        written; a file that is not one of them is not found."""
        if self.domain != casefiles.INVESTIGATIONS:
            return self.problem(request, 404, casefiles.missing("case files page", self.domain,
                                                                self.case_dir))
        names = casefiles.files(self.case_dir)
        name = request.path_params.get("name")
        if name is None:
            return self.render(request, "files.html", names=names, file="", text="")
        text = casefiles.read(self.case_dir, name)
        if text is None:
            return self.problem(request, 404, f"no case file named {name!r} "
                                "(the case's files are listed at /files)")
        return self.render(request, "files.html", names=names, file=name, text=text)

    async def person(self, request: Request) -> Response:
        pid = request.path_params["pid"]
        now = self.view.canonical(pid)
        if now != pid:
            return RedirectResponse(f"/person/{now}", status_code=303)
        try:
            page = self.view.person(pid)
        except NotFound as exc:
            return self.problem(request, 404, str(exc))
        return self.render(request, "person.html", done=request.query_params.get("done", ""),
                           **page)

    async def chart(self, request: Request) -> Response:
        """A person's ancestors or descendants as an SVG chart (`?kind=`, `?generations=`)."""
        pid = request.path_params["pid"]
        q = request.query_params
        kind = q.get("kind", "ancestors")
        if kind not in ("ancestors", "descendants"):
            return self.problem(request, 400, "kind is ancestors or descendants")
        try:
            generations = int(q.get("generations", "4"))
        except ValueError:
            return self.problem(request, 400, "generations is a whole number")
        graph = self.view.graph()
        people = {p.id: p for p in graph.persons}
        root = people.get(self.view.canonical(pid))
        if root is None:
            return self.problem(request, 404, f"person {pid} does not exist")
        draw = charts.ancestors if kind == "ancestors" else charts.descendants
        return self.render(request, "chart.html", person=root,
                           chart=draw(root, people, generations), box_w=charts.BOX_W,
                           box_h=charts.BOX_H, max_generations=charts.MAX_GENERATIONS)

    async def compare(self, request: Request) -> Response:
        """Merge review: two persons side by side, and the resolver's proposal about them
        (features, why merge, why not) with its Accept (merge) / Reject (not a match)."""
        a, b = (self.view.canonical(request.path_params[k]) for k in ("a", "b"))
        try:
            page = self.view.compare(a, b)
        except NotFound as exc:
            return self.problem(request, 404, str(exc))
        item = next((i for i in self.view.queue("open") if i["pair"]
                     and set(i["pair"]) == {a, b}), None)
        proposal = None
        if item is not None and item["span"]:
            view = self.view.snapshot(item["span"][0])
            proposal = view.snap.text if view.whole else None
        return self.render(request, "compare.html", item=item, proposal=proposal,
                           query="", **page)

    async def split(self, request: Request) -> Response:
        """Undo a merge (`sleuth split`): the same audited operation, with a reason."""
        pid = request.path_params["pid"]
        form = await request.form()
        if not check_csrf(request, form.get(CSRF_FIELD)):
            return self.problem(request, 403, "This form has expired or did not come from "
                                "this workbench (CSRF check failed): reload the page.")
        reason = str(form.get("reason") or "").strip()
        cluster = str(form.get("cluster") or "")
        if not reason:
            return self.problem(request, 400, "A split needs a reason.")
        if cluster not in {c["id"] for c in clusters_of(self.store, pid)}:
            return self.problem(request, 404, f"person {pid} has no merge {cluster}")
        try:
            ids = split_cluster(self.store, cluster, reason=reason, by=self.by)
        except SleuthError as exc:
            return self.problem(request, 400, str(exc))
        return RedirectResponse(f"/person/{pid}?" + urlencode(
            {"done": f"split into {len(ids)} persons"}), status_code=303)

    async def snapshot(self, request: Request) -> Response:
        sid = request.path_params["sid"]
        try:
            view = self.view.snapshot(sid)
            snap = view.snap
            cited = span(len(snap.text), request.query_params.get("start"),
                         request.query_params.get("end"))
        except NotFound as exc:
            return self.problem(request, 404, str(exc))
        except InputError as exc:
            return self.problem(request, 400, str(exc))
        page = snap.page_of(cited[0]) if cited and snap.page_starts else None
        labels = snap.metadata.get("page_labels")
        label = (str(labels[page - 1]) if page and isinstance(labels, list)
                 and page <= len(labels) else None)
        shown = view.may_show(cited)
        window = (0, 0)
        if view.whole:
            window = text_window(len(snap.text), cited, bool(request.query_params.get("whole")))
            pages = source_pages(snap, cited, window)
        elif cited and shown:  # only the cited words, as the HTML report shows them
            excerpt_only = snap.model_copy(update={"text": snap.text[cited[0]:cited[1]],
                                                   "page_starts": ()})
            pages = source_pages(excerpt_only, (0, cited[1] - cited[0]))
        else:
            pages = []
        image = None
        if view.whole and snap.media_type == "application/pdf" and page:
            excerpt = snap.text[cited[0]:cited[1]] if cited else ""
            try:
                image = find_boxes(self.store.blob(snap.sha256), page, excerpt)
            except (NotFound, IndexError, pdfium.PdfiumError):
                image = None  # the text stands alone
        return self.render(request, "snapshot.html", snap=snap, cited=cited, page=page,
                           image=image, image_url=f"/snapshot/{sid}/page/{page}.png",
                           label=label, pages=pages, whole=view.whole, shown=shown,
                           withheld=not snap.text, before=window[0],
                           after=len(snap.text) - window[1] if view.whole else 0,
                           all_url=f"/snapshot/{sid}?" + urlencode(
                               {**({"start": cited[0], "end": cited[1]} if cited else {}),
                                "whole": 1}))

    async def page_image(self, request: Request) -> Response:
        """A PDF source's page as a PNG, only where its text may be shown whole (an image
        cannot be redacted: a page of a source that mentions a living person is withheld)."""
        sid, page = request.path_params["sid"], int(request.path_params["page"])
        try:
            view = self.view.snapshot(sid)
            if not view.whole or view.snap.media_type != "application/pdf":
                return self.problem(request, 404, "no page image of this source")
            png = render_png(self.store.blob(view.snap.sha256), page)
        except (NotFound, IndexError, pdfium.PdfiumError) as exc:
            return self.problem(request, 404, str(exc))
        return Response(png, media_type="image/png",
                        headers={"cache-control": "private, max-age=3600"})

    def _export(self, fmt: str) -> str | None:
        """The case's own export `fmt` (its domain's, through the Censor), or None when the
        app was not given the case folder."""
        if self.case_dir is None:
            return None
        case_dir = self.case_dir
        domain = get_domain(self.domain)
        if fmt not in domain.exports:
            return None
        return self.view.output(fmt, lambda: domain.export(fmt)(self.store, case_dir))

    async def documents(self, request: Request) -> Response:
        """A documents case's processes, events and entities, each cited to its page."""
        if self.domain != casefiles.DOCUMENTS:
            return self.problem(request, 404, casefiles.missing("documents page", self.domain,
                                                                self.case_dir))
        return self.render(request, "documents.html", processes=doc_pages.page(self.store))

    async def report(self, request: Request) -> Response:
        """The case report a page at a time (`?page=`). A genealogy case's is in stable
        pages, each made alone when first asked for (`paged`); any other is `sleuth export
        --format html`'s report cut into pages (a link to a note on another page leads
        there)."""
        if self.domain == "documents":  # its report is the documents page, cited the same
            return RedirectResponse("/documents", status_code=303)
        if self.case_dir is None or "html" not in get_domain(self.domain).exports:
            return self.problem(request, 404, casefiles.missing("research report",
                                                                self.domain, self.case_dir))
        if self.domain == DEFAULT and self.redaction:
            paged = self.paged()
            render, last = paged.page, len(paged.parts)
        else:
            # kept as served (the export and these links) and cut into pages, while the
            # case is unchanged: a 10,000-person report is tens of megabytes
            whole = self.view.output("html:workbench", self._report_page)
            if self._pages is None or self._pages.whole is not whole:
                self._pages = paginate(whole)
            render, last = self._pages.page, len(self._pages.pages)
        number = asked_page(request, last)
        if isinstance(number, str):
            return self.problem(request, 400 if number.startswith("page") else 404, number)
        return HTMLResponse(render(number))

    def paged(self) -> PagedReport:
        """The genealogy report of the case as it now stands, in stable pages, each made
        when first asked for (`export.paged`): from the case and the Censor's copy the
        pages keep up to date, and the per-person parts of the last version's report."""
        view = self.view.graph()
        kept = self._paged
        if kept is None or self._paged_of is not view:
            kept = self._paged = paged_report(
                self.store, self.view.raw(), view, kept,
                log=lambda: self.view.censored()[1].redactions)
            self._paged_of = view
        return kept

    def _report_page(self) -> str:
        """`sleuth export --format html`'s report with the source viewer's links (the
        report of a case served without stable pages: another domain's, or with
        redaction off)."""
        page = self._export("html")
        assert page is not None
        return viewer_links(page)

    async def log(self, request: Request) -> Response:
        """The research log as a timeline: what was searched, why, what it yielded, why the
        run stopped (`sleuth export --format log`, living persons' names masked)."""
        text: str | None
        if self.case_dir is not None and (Store.case_domain(self.case_dir) or DEFAULT) == DEFAULT:
            # genealogy's `research_log` export, with the kept verdicts: the same lines
            view = self.view
            text = view.output("log", lambda: render_log(self.store, view.living_names()))
        else:
            text = self._export("log")
        if text is None:
            return self.problem(request, 404, casefiles.missing("research log", self.domain,
                                                                self.case_dir))
        events = [json.loads(line) for line in text.splitlines() if line.strip()]
        q = request.query_params
        agent, action = q.get("agent", ""), q.get("action", "")
        agents = sorted({str(e.get("agent", "")) for e in events})
        actions = sorted({str(e.get("action_type", "")) for e in events})
        stops = [e for e in events if e.get("action_type") == "termination"]
        shown = [e for e in events if (not agent or e.get("agent") == agent)
                 and (not action or e.get("action_type") == action)]
        last = max(1, -(-len(shown) // PER_PAGE))
        page = asked_page(request, last)
        if isinstance(page, str):
            return self.problem(request, 400 if page.startswith("page") else 404, page)

        def at(n: int) -> str:
            return "/log?" + urlencode({**({"agent": agent} if agent else {}),
                                        **({"action": action} if action else {}), "page": n})

        return self.render(request, "log.html", events=shown[(page - 1) * PER_PAGE:
                                                             page * PER_PAGE],
                           total=len(events), matching=len(shown), agents=agents,
                           actions=actions, agent=agent, action=action, stops=stops,
                           page=page, last=last, prev=at(page - 1) if page > 1 else "",
                           next=at(page + 1) if page < last else "")

    async def not_found(self, request: Request, exc: Exception) -> Response:
        return self.problem(request, 404, f"nothing at {request.url.path}")


def viewer_links(page: str) -> str:
    """The exported report as the workbench serves it: its sources and each footnote open
    the source viewer (at the very words cited), and a way back to the workbench."""
    page = _SOURCE_SECTION.sub(
        lambda m: f'{m.group(0)}<p><a href="/snapshot/{m.group(1)}">Open in the source '
                  'viewer</a></p>', page)
    page = page.replace("<body>", '<body><p><a href="/review">← back to the sleuth '
                        "workbench</a></p>", 1)
    # each footnote to the source viewer at the very words it cites
    at = {m.group(1): f"/snapshot/{m.group(2)}?start={m.group(3)}&amp;end={m.group(4)}"
          for m in _MARK.finditer(page)}
    page = _FOOTNOTE_LINK.sub(
        lambda m: m.group(0) + (f' · <a class="viewer" href="{at[m.group(1)]}">open in the '
                                "source viewer</a>" if m.group(1) in at else ""), page)
    return page


def asked_page(request: Request, last: int) -> int | str:
    """The page `?page=` asks for (1 when none), or why there is no such page: "page …"
    for a value that is no page number (400), "no page …" past either end (404). A link
    to page 999 of 14 is a wrong address, not page 14."""
    raw = request.query_params.get("page", "1").strip()
    if re.fullmatch(r"-?[0-9]{1,9}", raw) is None:
        return f"page must be a page number, not {raw!r}"
    number = int(raw)
    if not 1 <= number <= last:
        return f"no page {number}: there {'is 1 page' if last == 1 else f'are {last} pages'}"
    return number


def _query(kind: str, person: str, state: str) -> str:
    pairs = [(k, v) for k, v in (("kind", kind), ("person", person), ("status", state))
             if v and not (k == "status" and v == "open")]
    return urlencode(pairs)


def _back(back: str, done: str) -> str:
    """Back to the queue with its filters (only a path of this app), saying what was done."""
    target = back if back.startswith("/review") and not back.startswith("//") else "/review"
    target = target.split("#")[0]
    return f"{target}{'&' if '?' in target else '?'}{urlencode({'done': done})}"


def create_app(store: Store, *, token: str | None = None, title: str = "",
               by: str = "Human", key: bytes | None = None,
               case_dir: Path | None = None, warm: bool = False,
               redaction: bool = True) -> Guard:
    """The workbench on an open case, behind its guard (`safety.Guard`): `token` is needed
    off loopback (None: the app answers only to loopback host names); `case_dir`, the case
    folder, for the pages its domain's exports make (the report, the research log); `warm`:
    read and censor the case now, not on the first page; `redaction=False` (loopback only,
    `sleuth serve --no-redaction`): pages show the case as stored, under a banner."""
    if not redaction and token is not None:
        raise InputError("redaction can be turned off only on this machine (loopback, no "
                         "token)", field="--no-redaction")
    bench = Workbench(store, title=title, by=by, case_dir=case_dir, redaction=redaction)
    if warm:
        bench.view.warm()
        for name in bench.env.list_templates(extensions=["html"]):
            bench.env.get_template(name)  # compiled now, not on a reviewer's first page
        bench.view.queue("open")
        if bench.domain == DEFAULT and bench.redaction and case_dir is not None:
            bench.paged().page(1)  # the report's counts made now, not on its first load
    routes = [
        Route("/", bench.index),
        Route("/review", bench.review),
        Route("/review/bulk-accept", bench.bulk_accept, methods=["POST"]),
        Route("/review/{item:int}/{action}", bench.decide, methods=["POST"]),
        Route("/api/review", bench.api_review),
        Route("/persons", bench.persons),
        Route("/report", bench.report),
        Route("/log", bench.log),
        Route("/documents", bench.documents),
        Route("/files", bench.files),
        Route("/files/{name}", bench.files),
        Route("/person/{pid}", bench.person),
        Route("/person/{pid}/chart", bench.chart),
        Route("/person/{pid}/split", bench.split, methods=["POST"]),
        Route("/compare/{a}/{b}", bench.compare),
        Route("/snapshot/{sid}", bench.snapshot),
        Route("/snapshot/{sid}/page/{page:int}.png", bench.page_image),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={404: bench.not_found})
    app.state.bench = bench  # the benchmark and tests read its view
    return Guard(app, token=token, key=key)
