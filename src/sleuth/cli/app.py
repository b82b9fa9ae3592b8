"""The `sleuth` command (Typer + Rich); one module per command group, wired here.

Every command fails with one line naming the file, line or field at fault and a non-zero
exit code; nothing is half-written because every write is a transaction.
"""

from __future__ import annotations

import os
import sys

import typer
from typer.core import TyperGroup
from typer.exceptions import TyperException

from sleuth.cli import agents as agents_cmd
from sleuth.cli import (
    case,
    check,
    demo,
    export,
    extract_cmd,
    investigate_cmd,
    review,
    search_cmd,
    show,
    verify_cmd,
)
from sleuth.cli import gps as gps_cmd
from sleuth.cli import llm as llm_cmd
from sleuth.cli import privacy as privacy_cmd
from sleuth.cli import research as research_cmd
from sleuth.cli import resolve as resolve_cmd
from sleuth.cli import serve as serve_cmd
from sleuth.cli import sources as sources_cmd
from sleuth.cli import world as world_cmd
from sleuth.model.errors import CaseBusy, InputError, SleuthError
from sleuth.privacy.logfilter import install_log_redaction
from sleuth.privacy.pii import redact_text

# Start-up time (issue 19): every command module imports only typer, rich and the light
# parts of sleuth at its top; pydantic, SQLAlchemy, the extractors and the exporters are
# imported inside the command that uses them, so `sleuth --help` and a failing option
# answer at once. tests/cli/test_startup.py checks that they stay out.


DEBUG_ENV = "SLEUTH_DEBUG"  # set (or `sleuth --debug`) to see an internal error's traceback


class _Group(TyperGroup):
    """Turns every error into one clean line on stderr, for every command: sleuth's own
    errors name the file, line or field; anything else is an internal error, shown without
    its traceback (which can quote the case's data: a driver's error prints its SQL
    parameters) unless `--debug` asks for it. Each line goes through the Censor's scrubber."""

    def invoke(self, ctx: typer.Context) -> object:  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except InputError as exc:
            print(f"sleuth: error: {redact_text(str(exc))}", file=sys.stderr)
            ctx.exit(2)
        except CaseBusy as exc:
            print(f"sleuth: error: {redact_text(str(exc))}", file=sys.stderr)
            ctx.exit(3)
        except (SleuthError, FileExistsError) as exc:
            print(f"sleuth: error: {redact_text(str(exc))}", file=sys.stderr)
            ctx.exit(1)
        except (typer.Exit, typer.Abort, TyperException):
            raise  # the command line's own exits and usage errors (typer vendors click)
        except BrokenPipeError:  # `sleuth export CASE | head`: the reader has had enough
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes
            ctx.exit(0)
        except Exception as exc:
            if ctx.meta.get(DEBUG_ENV) or os.environ.get(DEBUG_ENV):
                raise
            print(f"sleuth: internal error: {_internal(exc)} (run with --debug for the "
                  "traceback)", file=sys.stderr)
            ctx.exit(1)


def _internal(exc: Exception) -> str:
    """An unexpected error in one line: a database driver's own message without the
    statement and parameters SQLAlchemy appends (they can quote a person's data)."""
    inner = getattr(exc, "orig", None)
    shown = inner if isinstance(inner, BaseException) else exc
    lines = str(shown).strip().splitlines()
    return redact_text(f"{type(shown).__name__}: {lines[0] if lines else ''}".rstrip(": "))


app = typer.Typer(
    cls=_Group,
    name="sleuth",
    help="Evidence-first research engine: every fact proven against a stored copy of its source.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root(
    ctx: typer.Context,
    debug: bool = typer.Option(False, "--debug", help="Show the traceback of an internal "
                               "error (it can quote the case's data)."),
) -> None:
    """Evidence-first research engine: every fact proven against a stored copy of its
    source."""
    ctx.meta[DEBUG_ENV] = debug


app.command("demo")(demo.demo)
app.command("init")(case.init)
app.command("ingest")(case.ingest)
app.command("extract")(extract_cmd.extract)
app.command("review")(review.review)
app.command("show")(show.show)
app.command("export")(export.export)
app.command("check")(check.check)
app.command("verify")(verify_cmd.verify)
app.add_typer(privacy_cmd.app, name="privacy")
app.command("dedupe")(resolve_cmd.dedupe)
app.command("merge")(resolve_cmd.merge)
app.command("split")(resolve_cmd.split)
app.add_typer(sources_cmd.app, name="sources")
app.add_typer(world_cmd.app, name="world")
app.add_typer(llm_cmd.app, name="llm")
app.command("cite")(gps_cmd.cite)
app.command("coverage")(gps_cmd.coverage_cmd)
app.command("timeline")(gps_cmd.timeline_cmd)
app.command("research")(research_cmd.research)
app.command("search")(search_cmd.search)
app.command("resume")(research_cmd.resume)
app.command("investigate")(investigate_cmd.investigate)
app.command("work")(agents_cmd.work)
app.command("tasks")(agents_cmd.tasks)
app.command("serve")(serve_cmd.serve)


def main() -> None:
    """Entry point of the `sleuth` script."""
    install_log_redaction()
    app()
