"""The case folder as its own git repository (dulwich): one commit per iteration, whose
message is the iteration's summary.

The store's database, the writer lock, temporary files and the loop's un-censored working
copies (`.working/`) stay out (`.gitignore`), as do the captured bytes of a source that
names a living private person (its evidence folder's own `.gitignore`, `publish`): the
repository is meant to be shared. A file ignored after it was committed leaves the index
at the next commit. A commit is idempotent: an iteration already committed (a run killed
after its commit and before its state was saved) is not committed twice.
"""

from __future__ import annotations

import re
from pathlib import Path

from dulwich import porcelain
from dulwich.ignore import IgnoreFilterManager
from dulwich.repo import Repo

IGNORE = """\
# sleuth's store and working files: the case's evidence is evidence/, not the database
case.sqlite
case.sqlite-*
*.sqlite
*.sqlite-*
writer.lock
*.tmp
# the loop's working copies: names as the sources print them (the committed views are censored)
.working/
"""
AUTHOR = b"sleuth investigate <sleuth@localhost>"
_ITERATION = re.compile(rb"^Iteration (\d+):")


def init_repo(case_dir: Path) -> None:
    if not (case_dir / ".git").exists():
        Repo.init(str(case_dir))
    ignore = case_dir / ".gitignore"
    old = ignore.read_text(encoding="utf-8") if ignore.exists() else ""
    lines = set(old.splitlines())
    missing = [line for line in IGNORE.splitlines() if line not in lines]
    if missing:  # a case made before a line was added gets it (`.working/`)
        ignore.write_text(old + ("\n" if old and not old.endswith("\n") else "")
                          + "\n".join(missing) + "\n", encoding="utf-8")


def iteration_commits(case_dir: Path) -> list[tuple[int, str, str]]:
    """(iteration, sha, message) of every iteration commit, oldest first."""
    if not (case_dir / ".git").exists():
        return []
    repo = Repo(str(case_dir))
    try:
        try:
            repo.head()
        except KeyError:
            return []
        out = []
        for entry in repo.get_walker():
            msg = entry.commit.message
            m = _ITERATION.match(msg)
            if m:
                out.append((int(m.group(1)), entry.commit.id.decode(),
                            msg.decode("utf-8", "replace")))
        return out[::-1]
    finally:
        repo.close()


def commit_iteration(case_dir: Path, iteration: int, message: str) -> str:
    """Commit everything the iteration wrote; the commit already made for it, if any."""
    repo = Repo(str(case_dir))
    try:
        try:
            head = repo[repo.head()]
            m = _ITERATION.match(getattr(head, "message", b""))
            if m and int(m.group(1)) == iteration:
                return head.id.decode()
        except KeyError:
            pass  # no commit yet
        porcelain.add(repo)
        status = porcelain.status(repo, untracked_files="no")
        for path in status.unstaged:  # files the iteration removed
            if not (case_dir / path.decode()).exists():
                porcelain.remove(repo, [str(case_dir / path.decode())], cached=True)
        ignored = IgnoreFilterManager.from_repo(repo)
        for raw in sorted(repo.open_index()):  # committed before it was withheld
            if ignored.is_ignored(raw.decode()):
                porcelain.remove(repo, [str(case_dir / raw.decode())], cached=True)
        sha = porcelain.commit(repo, message=message.encode("utf-8"), author=AUTHOR,
                               committer=AUTHOR)
        return sha.decode()
    finally:
        repo.close()
