"""OCR for scans: a PDF with no text layer, or a page image (JPEG, PNG, TIFF), read by
Debian's tesseract (`apt-get install tesseract-ocr tesseract-ocr-swe`) run as a subprocess.

A PDF's pages are rendered with pypdfium2 (300 dpi, grey) and each image is given to
`tesseract stdin stdout -l LANG hocr`; its hOCR is read by `hocr.hocr_pages`, so the text is
laid out as any hOCR is and every word keeps its box (in the rendered image's pixels). The
language is Swedish where its model is installed, else English (`SLEUTH_OCR_LANG` sets
another, e.g. "swe+eng"). `SLEUTH_OCR=off` turns OCR off (a scan is then refused as needing
OCR, as it is where tesseract is not installed).

What OCR reads is kept only where tesseract is confident of it: a page whose words have a
mean confidence (hOCR `x_wconf`) under `MIN_CONFIDENCE` (handwriting, a poor scan) is left
empty and named in the metadata (`ocr.unreadable_pages`); if no page is left, the file is
refused in one line naming it and the page. The metadata says what read it (`ocr`: engine,
version, language, dpi, each page's mean confidence).
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from typing import Any

from sleuth.model import InputError
from sleuth.text.hocr import hocr_pages
from sleuth.text.pages import Paged, join_pages, printed_labels

DPI = 300
MIN_CONFIDENCE = 60.0  # mean word confidence (0-100) below which a page is not kept
PAGE_TIMEOUT_S = 300
_WCONF = re.compile(rb"x_wconf\s+(\d+)")
IMAGE_MAGIC = {b"\xff\xd8\xff": "JPEG", b"\x89PNG\r\n\x1a\n": "PNG", b"II*\x00": "TIFF",
               b"MM\x00*": "TIFF"}
INSTALL_HINT = "Debian: apt-get install tesseract-ocr tesseract-ocr-swe"


@dataclass(frozen=True)
class Engine:
    path: str
    version: str
    language: str


@functools.cache
def _probe(path: str) -> tuple[str, frozenset[str]]:
    def out(*args: str) -> str:
        done = subprocess.run([path, *args], capture_output=True, text=True, timeout=30,
                              check=False)
        return done.stdout + done.stderr

    version = next((line.strip() for line in out("--version").splitlines() if line.strip()),
                   "tesseract")
    langs = frozenset(line.strip() for line in out("--list-langs").splitlines()[1:]
                      if line.strip())
    return version, langs


def _turned_off() -> bool:
    return os.environ.get("SLEUTH_OCR", "").strip().lower() in ("off", "0", "no", "false")


def engine() -> Engine | None:
    """The OCR engine this machine has (tesseract on the PATH with a language model), or
    None: not installed, or turned off (`SLEUTH_OCR=off`)."""
    if _turned_off():
        return None
    path = shutil.which("tesseract")
    if path is None:
        return None
    try:
        version, langs = _probe(path)
    except (OSError, subprocess.SubprocessError):
        return None
    wanted = os.environ.get("SLEUTH_OCR_LANG", "").strip()
    if wanted:
        language = wanted
    elif "swe" in langs:
        language = "swe"
    elif "eng" in langs:
        language = "eng"
    else:
        return None
    return Engine(path, version, language)


def image_kind(head: bytes) -> str | None:
    """'JPEG', 'PNG' or 'TIFF' when the bytes begin as that image format does."""
    return next((kind for magic, kind in IMAGE_MAGIC.items() if head.startswith(magic)), None)


def _hocr(eng: Engine, image: bytes, where: str, page: int) -> bytes:
    try:
        done = subprocess.run([eng.path, "stdin", "stdout", "-l", eng.language, "hocr"],
                              input=image, capture_output=True, timeout=PAGE_TIMEOUT_S,
                              check=False, env={**os.environ, "OMP_THREAD_LIMIT": "1"})
    except subprocess.TimeoutExpired as exc:
        raise InputError(f"OCR of page {page} took over {PAGE_TIMEOUT_S} s",
                         file=where) from exc
    if done.returncode != 0 or not done.stdout:
        said = " ".join(done.stderr.decode("utf-8", "replace").split())[:160]
        raise InputError(f"OCR of page {page} failed: {said or 'tesseract gave no output'}",
                         file=where)
    return done.stdout


def ocr_images(images: list[bytes], where: str, *, source: str) -> Paged:
    """Each image one page, read by OCR (see the module); `source` says what they are, for
    the metadata and a refusal ("no text layer on any of its 3 pages (a scan)", "an image
    (JPEG), no text layer")."""
    eng = engine()
    if eng is None:
        why = ("OCR is turned off (SLEUTH_OCR)" if _turned_off()
               else f"no OCR engine is installed ({INSTALL_HINT})")
        raise InputError(f"{source}: it needs OCR, and {why}", file=where)
    texts: list[str] = []
    boxes: list[list[list[int]]] = []
    edges: list[list[str]] = []
    confidence: list[float | None] = []
    unreadable: list[int] = []
    for n, image in enumerate(images, start=1):
        raw = _hocr(eng, image, where, n)
        confs = [int(c) for c in _WCONF.findall(raw)]
        mean = sum(confs) / len(confs) if confs else None
        confidence.append(None if mean is None else round(mean, 1))
        if mean is None or mean < MIN_CONFIDENCE:
            if mean is not None:
                unreadable.append(n)
            texts.append("")
            boxes.append([])
            edges.append([])
            continue
        try:
            page = hocr_pages(raw, f"{where} page {n}")
        except InputError:  # tesseract found no words on it: an empty page
            texts.append("")
            boxes.append([])
            edges.append([])
            continue
        texts.append(page.text)
        boxes.append(list(page.extra.get("word_boxes", [[]])[0]))
        lines = page.text.splitlines()
        edges.append(lines if len(lines) <= 6 else lines[:3] + lines[-3:])
    if not any(t.strip() for t in texts):
        worst = next((i for i, c in enumerate(confidence, 1) if c is not None), 1)
        said = (f"mean word confidence {confidence[worst - 1]:.0f}% on page {worst}, under "
                f"{MIN_CONFIDENCE:.0f}%: handwriting or a poor scan?"
                if confidence[worst - 1] is not None else f"no words found on page {worst}")
        raise InputError(f"{source}: OCR could not read it reliably ({said})", file=where)
    text, starts = join_pages(texts)
    for start, page_boxes in zip(starts, boxes, strict=True):
        for box in page_boxes:
            box[0] += start
            box[1] += start
    extra: dict[str, Any] = {
        "ocr": {"engine": eng.version, "language": eng.language, "source": source,
                "dpi": DPI if "pages" in source else None, "mean_confidence": confidence,
                "min_confidence": MIN_CONFIDENCE, "unreadable_pages": unreadable},
        "word_boxes": boxes, "box_unit": "px"}
    found = printed_labels(edges) if len(texts) > 1 else None
    if found is not None:
        labels = list(found.labels)
        extra["page_labels_from"] = "printed header/footer (OCR)"
    else:
        labels = [str(i) for i in range(1, len(texts) + 1)]
        extra["page_labels_from"] = "page index"
    return Paged(text, starts, tuple(labels), extra)


def render_pdf(raw: bytes, where: str) -> list[bytes]:
    """Every page of a PDF as a grey PGM image at `DPI`."""
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(raw)
    except pdfium.PdfiumError as exc:
        raise InputError(f"unreadable PDF: {exc}", file=where) from exc
    out: list[bytes] = []
    try:
        for n in range(len(pdf)):
            try:
                bitmap = pdf[n].render(scale=DPI / 72, grayscale=True)
                pixels = bitmap.to_numpy()
            except pdfium.PdfiumError as exc:
                raise InputError(f"unreadable PDF page {n + 1}: {exc}", file=where) from exc
            if pixels.ndim == 3:  # a renderer that gave colour channels: keep one
                pixels = pixels[:, :, 0]
            height, width = pixels.shape[:2]
            out.append(b"P5\n%d %d\n255\n" % (width, height) + pixels.tobytes())
    finally:
        pdf.close()
    return out
