"""A PDF and a PNG of each captured source (`evidence/SXXX/capture.pdf`, `capture.png`), so
a reader sees the source as it looked, not only its text.

HTML and text are rendered by Debian's Chromium, headless, from the locally stored copy
(`file://`, with name resolution and the proxy pointed nowhere, so nothing is fetched); a
PDF source is its own PDF capture, and page 1 is rendered to PNG by pypdfium2. No Chromium,
or a rendering that fails or runs past its bound, is a status line, never a gap: the source
itself was captured. The bytes of these files vary between runs (PDF timestamps), so only
`metadata.json` names them; nothing compared across runs reads them.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import signal
import struct
import subprocess
import tempfile
import zlib
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pypdfium2

CHROMIUM = Path("/usr/bin/chromium")
TIMEOUT_S = 30.0
PDF_NAME, PNG_NAME = "capture.pdf", "capture.png"
PDF_MAGIC, PNG_MAGIC = b"%PDF", b"\x89PNG\r\n\x1a\n"
RENDERED = "PDF and PNG"
COMPRESSED = (b"BZh", b"\x1f\x8b")  # a stored .bz2/.gz copy: its text is rendered instead


@dataclass
class Rendering:
    """What the capture made: `status` is RENDERED or the reason why not."""

    status: str
    tool: str = ""
    files: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status == RENDERED

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "tool": self.tool, "files": self.files}


def _file_entry(path: Path, kind: str) -> dict[str, Any]:
    data = path.read_bytes()
    return {"kind": kind, "path": path.name, "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest()}


def _first_line(text: str) -> str:
    return next((ln.strip() for ln in text.splitlines() if ln.strip()), "")[:200]


@functools.cache
def chromium_version(binary: Path = CHROMIUM) -> str:
    try:
        out = subprocess.run([str(binary), "--version"], capture_output=True, text=True,
                             timeout=TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return "Chromium (version unknown)"
    return _first_line(out.stdout) or "Chromium (version unknown)"


def _run_bounded(argv: list[str], timeout: float) -> tuple[int, str]:
    """Run `argv` in its own process group; on timeout the whole group is killed."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    return proc.returncode, err


def _chromium(folder: Path, raw: bytes, text: str, media_type: str, binary: Path,
              timeout: float) -> Rendering:
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        return Rendering(f"no PDF/PNG: Chromium not installed ({binary})")
    tool = chromium_version(binary)
    with tempfile.TemporaryDirectory(prefix="sleuth-capture-") as tmp:
        work = Path(tmp)
        if "html" in media_type and not raw.startswith(COMPRESSED):
            page = work / "source.html"
            page.write_bytes(raw)
        else:  # text (and text extracted from other formats): UTF-8 with a BOM says so
            page = work / "source.txt"
            page.write_text("\ufeff" + text, encoding="utf-8")
        pdf, png = work / PDF_NAME, work / PNG_NAME
        argv = [str(binary), "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
                "--disable-background-networking", "--disable-extensions",
                "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9",
                "--no-pdf-header-footer", f"--user-data-dir={work / 'profile'}",
                f"--print-to-pdf={pdf}", f"--screenshot={png}", page.as_uri()]
        try:
            code, err = _run_bounded(argv, timeout)
        except subprocess.TimeoutExpired:
            return Rendering(f"no PDF/PNG: Chromium ran past {timeout:g} s", tool)
        except OSError as exc:
            return Rendering(f"no PDF/PNG: Chromium did not start: {exc}", tool)
        for path, magic in ((pdf, PDF_MAGIC), (png, PNG_MAGIC)):
            if not path.is_file() or not path.read_bytes().startswith(magic):
                why = _first_line(err) if code else "no output"
                return Rendering(f"no PDF/PNG: Chromium exited {code}: {path.name}: {why}",
                                 tool)
        for path in (pdf, png):
            shutil.copyfile(path, folder / path.name)
    return Rendering(RENDERED, tool, [_file_entry(folder / PDF_NAME, "pdf"),
                                      _file_entry(folder / PNG_NAME, "png")])


def png_bytes(width: int, height: int, rgb: bytes, stride: int) -> bytes:
    """An 8-bit RGB PNG (no imaging library needed: rows, zlib, three chunks)."""
    rows = b"".join(b"\x00" + rgb[y * stride:y * stride + width * 3] for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return PNG_MAGIC + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) \
        + chunk(b"IEND", b"")


def _pdf(folder: Path, raw: bytes) -> Rendering:
    tool = f"pypdfium2 {version('pypdfium2')}"
    (folder / PDF_NAME).write_bytes(raw)  # the original is the PDF capture
    try:
        doc = pypdfium2.PdfDocument(raw)
        try:
            bitmap = doc[0].render(scale=1.5, rev_byteorder=True,
                                   force_bitmap_format=pypdfium2.raw.FPDFBitmap_BGR)
            data = png_bytes(bitmap.width, bitmap.height, bytes(bitmap.buffer),
                             bitmap.stride)
        finally:
            doc.close()
    except Exception as exc:  # a PDF pdfium cannot draw: a status, not a crash
        return Rendering(f"PDF only, no PNG: {type(exc).__name__}: {_first_line(str(exc))}",
                         tool, [_file_entry(folder / PDF_NAME, "pdf")])
    (folder / PNG_NAME).write_bytes(data)
    return Rendering(RENDERED, tool, [_file_entry(folder / PDF_NAME, "pdf"),
                                      _file_entry(folder / PNG_NAME, "png")])


def render(folder: Path, raw: bytes, text: str, media_type: str, *,
           chromium: Path | None = None, timeout: float = TIMEOUT_S) -> Rendering:
    """Write `capture.pdf` and `capture.png` of a stored source into `folder`."""
    for name in (PDF_NAME, PNG_NAME):  # a stale rendering never stands for this one
        (folder / name).unlink(missing_ok=True)
    if media_type == "application/pdf" or raw.startswith(PDF_MAGIC):
        return _pdf(folder, raw)
    return _chromium(folder, raw, text, media_type, chromium or CHROMIUM, timeout)
