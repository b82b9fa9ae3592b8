"""`sleuth show CASE process [ID]`: a documents case's process (seed 004): its stage with the
explanation, its timeline and its people, each line footnoted to page and excerpt."""

from __future__ import annotations

import json
from pathlib import Path

from sleuth.cli.common import console, cut, domain_of, open_case
from sleuth.model.errors import InputError, NotFound


def show_process(case_dir: Path, ident: str | None, fmt: str) -> None:
    """One process (by id, its first characters, its designation, or the designation of one
    of its documents), or the list."""
    if domain_of(case_dir).name != "documents":
        raise InputError("only a documents case has processes", field="KIND")
    # Imported here, not at the top: start-up time (issue 19, `sleuth --help`).
    from sleuth.domains.documents.exports import process_dossier
    from sleuth.store import documents as docs

    store = open_case(case_dir)
    try:
        with store.engine.connect() as conn:
            procs = docs.processes(conn)
            names = docs.designations(conn)
        if ident is None:
            for p in procs:
                held = ", ".join(names.get(sid, sid) for sid in p.documents)
                console.print(f"{p.id}  {p.stage or '-':<11} {cut(p.designation, 30):<30} "
                              f"{cut(held, 60)}", markup=False, highlight=False)
            return
        found = [p for p in procs if p.id.startswith(ident) or p.designation == ident]
        if not found:
            found = [p for p in procs if any(names.get(sid) == ident for sid in p.documents)]
        if len(found) != 1:
            raise NotFound(f"no process {ident!r}" if not found else
                           f"{len(found)} processes match {ident!r}; give more of the id")
        p = found[0]
        if fmt == "json":
            with store.engine.connect() as conn:
                shown = {"process": {**p.__dict__, "documents": [
                            {"snapshot_id": sid, "designation": names.get(sid)}
                            for sid in p.documents]},
                         "links": [link for sid in p.documents
                                   for link in docs.links(conn, sid)],
                         "events": docs.events(conn, list(p.documents)),
                         "mentions": docs.mentions(conn, list(p.documents))}
            print(json.dumps(shown, ensure_ascii=False, indent=1, default=str))
            return
        notes: list[str] = []
        lines = process_dossier(store, p, notes)
    finally:
        store.close()
    print("\n".join([*lines, *notes]))
