"""`sleuth serve CASE`: the review workbench in a browser (issue 23)."""

from __future__ import annotations

import os
import secrets
import socket
from pathlib import Path
from typing import Annotated

import typer

from sleuth.cli.common import console, open_case
from sleuth.model import InputError

TOKEN_ENV = "SLEUTH_SERVE_TOKEN"


def serve(
    case_dir: Annotated[Path, typer.Argument(metavar="CASE")],
    host: Annotated[str, typer.Option(help="Address to listen on. Anything but a loopback "
                                      "address needs a token (printed once, or "
                                      f"${TOKEN_ENV}).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8765,
    by: Annotated[str, typer.Option(help="Who decides (recorded in the audit log).")] = "Human",
    no_redaction: Annotated[bool, typer.Option(
        "--no-redaction", help="Show living persons' exact dates, addresses, phones and "
        "e-mails (your own machine only: refused off loopback or with a token); every page "
        "then says so in a banner.")] = False,
) -> None:
    """Open the review workbench: the review queue, persons and sources in a browser."""
    if not 0 < port < 65536:
        raise InputError(f"port {port} is not between 1 and 65535", field="--port")
    # Imported here, not at the top: start-up time (issue 19, `sleuth --help`).
    import uvicorn

    from sleuth.web.app import create_app
    from sleuth.web.safety import is_loopback

    token = os.environ.get(TOKEN_ENV) or None
    if no_redaction and (token is not None or not is_loopback(host)):
        raise InputError("--no-redaction is for your own machine only: serve on a loopback "
                         f"address (127.0.0.1, localhost) without ${TOKEN_ENV}",
                         field="--no-redaction")
    if token is None and not is_loopback(host):
        token = secrets.token_urlsafe(24)
    try:  # listen before saying where: a port in use is one clear line, not a traceback
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.create_server((host.strip("[]"), port), family=family)
    except OSError as exc:
        raise InputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}",
                         field="--port") from None
    try:
        store = open_case(case_dir)
    except BaseException:  # a case that cannot be opened: the port is given back
        sock.close()
        raise
    try:
        console.print(f"reading {case_dir} …", highlight=False)
        app = create_app(store, token=token, title=case_dir.name, by=by, case_dir=case_dir,
                         warm=True, redaction=not no_redaction)
        if no_redaction:
            console.print("[bold red]Redaction is OFF[/bold red]: living persons' details are "
                          "shown on every page (a banner says so).")
        # every address of this machine: name it by its host name, which a browser elsewhere
        # can reach (0.0.0.0 cannot be opened)
        shown = socket.gethostname() if host in ("0.0.0.0", "::") else host
        shown = f"[{shown}]" if ":" in shown else shown
        address = f"http://{shown}:{port}/review"
        if token is not None:
            address += f"?token={token}"
            console.print("[bold]Keep this address private[/bold]: its token is the key "
                          "to the case (shown only this once).")
        console.print(f"sleuth workbench on {case_dir}: open {address}  (Ctrl+C to stop)",
                      highlight=False, soft_wrap=True)
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
        server.run(sockets=[sock])
    finally:
        sock.close()
        store.close()
