"""Benchmark: what the LLM layer adds per call on top of the raw HTTP round trip.

A tiny OpenAI-compatible server (stdlib `http.server`, keep-alive, on 127.0.0.1) answers
every POST with the same canned chat.completion: a verifier reply with grounded claims, a
hallucinated citation, an invented date and a hypothesis labelled as a fact, so the
firewall has real work. For a short obituary and a ~20 KB snapshot it times, per call:

  raw        httpx.Client.post of the same request body + resp.json() (the peer)
  provider   `Provider.chat`: body building, retry wrapper, reply parsing, usage
  client     `LLMClient.structured`: + limits, accounting, JSON extraction, Pydantic
  verifier   `Verifier.verify`: + prompt building (fences), candidates, the real firewall
             (`sleuth.verify.check_candidates`) and `prompt_injection`, rejection logging

Each is measured twice: over the local server, and over `httpx.MockTransport` (the same
httpx stack without a socket), where the differences are the layer's own CPU cost free of
network jitter. Warm-up first, then the best of R runs of N calls each, the layers taking
turns within a run; the garbage collector is paused while timing. The model's latency is
not in these figures: a real endpoint adds its own (hundreds of ms to seconds), which makes
the layer's share smaller still.

    .venv/bin/python benchmarks/llm_overhead.py            # N=300, R=3
    .venv/bin/python benchmarks/llm_overhead.py --quick    # N=50
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import platform
import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

from sleuth.llm import LLMClient, LLMConfig, Meter, Verifier
from sleuth.llm.contracts import VerifierOutput
from sleuth.llm.prompts import messages
from sleuth.llm.provider import make_provider
from sleuth.model import Snapshot
from sleuth.pipeline.ingest import extract_for
from sleuth.privacy.outbound import fixed_prompt

PAGES = Path("/work/shared/data/text/chronam_1916_front_pages/pages")
OBITUARY = (
    "OBITUARY. John Henry Whitcombe was born May 12, 1890 in Dorchester, Dorset, the son of "
    "Thomas Whitcombe and Mary Ann Legg. He died at Weymouth on 3 March 1961. "
    "He married Edith Rose Pike in 1914. He was a stonemason by trade.\n"
)
REPLY = {
    "verification_results": [
        {"field": "birth_date", "value": "1890-05-12", "status": "Verified", "confidence": 0.95,
         "citation_snippet": "born May 12, 1890", "subject_name": "John Henry Whitcombe"},
        {"field": "occupation", "value": "stonemason", "status": "Verified", "confidence": 0.9,
         "citation_snippet": "He was a stonemason by trade.",
         "subject_name": "John Henry Whitcombe"},
        {"field": "death_date", "value": "1962", "status": "Verified", "confidence": 0.9,
         "citation_snippet": "He died at Weymouth on 3 March 1961.",
         "subject_name": "John Henry Whitcombe"},
        {"field": "burial_place", "value": "Portland", "status": "Verified", "confidence": 0.8,
         "citation_snippet": "buried at Portland", "subject_name": "John Henry Whitcombe"},
    ],
    "hypotheses": [
        {"type": "parental_discovery", "text": "Thomas Whitcombe may be in the 1891 census",
         "evidence_hint": "the son of Thomas Whitcombe", "priority": 0.6, "is_fact": False},
        {"type": "parental_discovery", "text": "His father was a mason too", "priority": 0.5,
         "is_fact": True},
    ],
    "hallucination_flags": [],
}


def completion(content: str) -> bytes:
    return json.dumps({
        "id": "chatcmpl-bench", "object": "chat.completion", "created": 1741570283,
        "model": "bench-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content,
                                             "refusal": None}, "logprobs": None,
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 900, "completion_tokens": 300, "total_tokens": 1200},
    }).encode()


BODY = completion(json.dumps(REPLY))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as httpx's pool expects
    wbufsize = 1 << 16  # headers and body in one write: no Nagle/delayed-ACK 40 ms stall

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)

    def log_message(self, *args: Any) -> None:
        pass


def snapshot_text(size: int) -> str:
    if size <= len(OBITUARY):
        return OBITUARY
    files = sorted(PAGES.glob("*.txt")) if PAGES.is_dir() else []
    filler = "".join(f.read_text(encoding="utf-8", errors="replace") for f in files[:3])
    if not filler:
        filler = "The weather was fine and the harvest was brought in early this year. " * 400
    return OBITUARY + "\n\n" + filler[: size - len(OBITUARY)]


def timed(fn: Callable[[], Any], n: int) -> float:
    """Per-call seconds of `n` calls, garbage collector paused."""
    gc.collect()
    gc.disable()
    try:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        return (time.perf_counter() - t0) / n
    finally:
        gc.enable()


def measure(url: str, text: str, n: int, runs: int, transport: httpx.BaseTransport | None
            ) -> list[tuple[str, float]]:
    """Best per-call time of each layer; the layers take turns within each run, so a
    neighbour's load on a shared machine hits them all alike."""
    raw = text.encode()
    snap = Snapshot(sha256=hashlib.sha256(raw).hexdigest(), text=text, source_name="bench",
                    url="https://example.org/obit")
    cands = extract_for(snap, raw)
    cfg = LLMConfig.load(env={"SLEUTH_LLM_BASE_URL": url, "SLEUTH_LLM_MODEL": "bench-model",
                              "SLEUTH_LLM_API_KEY": "sk-bench", "SLEUTH_LLM_MAX_RETRIES": "0"})
    provider = make_provider(cfg.role("verifier"), transport=transport)
    client = LLMClient(cfg, Meter(), providers={"verifier": provider})
    verifier = Verifier(client, log=lambda _e: None)
    msgs = messages("verifier", VerifierOutput, {"url": snap.url}, {"raw_text": text})
    schema = VerifierOutput.model_json_schema()
    body = provider.body(msgs, schema)
    http = httpx.Client(timeout=30, transport=transport)
    endpoint = f"{url}/chat/completions"
    headers = {"Authorization": "Bearer sk-bench"}
    layers: list[tuple[str, Callable[[], Any]]] = [
        ("raw", lambda: http.post(endpoint, json=body, headers=headers).json()),
        ("provider", lambda: provider.chat(msgs, schema=schema)),
        ("client", lambda: client.structured("verifier", fixed_prompt(msgs), VerifierOutput)),
        ("verifier", lambda: verifier.verify(snap, cands)),
    ]
    try:
        res = verifier.verify(snap, cands)
        assert res is not None and len(res.rejected) >= 3, "the firewall must refuse the fakes"
        for _, fn in layers:  # warm-up
            for _ in range(min(20, n)):
                fn()
        best = {name: float("inf") for name, _ in layers}
        for _ in range(runs):
            for name, fn in layers:
                best[name] = min(best[name], timed(fn, n))
        return [(name, best[name]) for name, _ in layers]
    finally:
        http.close()
        client.close()


def table(label: str, rows: list[tuple[str, float]]) -> None:
    raw = rows[0][1]
    print(f"\n{label}")
    print("| layer    | µs/call | over raw µs | × raw |")
    print("|----------|--------:|------------:|------:|")
    for name, sec in rows:
        print(f"| {name:<8} | {sec * 1e6:7.0f} | {(sec - raw) * 1e6:11.0f} | {sec / raw:5.2f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="N=50 calls per measurement")
    ap.add_argument("-n", type=int, default=300)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    n = 50 if args.quick else args.n
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    print(f"python {sys.version.split()[0]} on {platform.machine()}; N={n} calls, best of "
          f"{args.runs}; local server {url}")
    mock = httpx.MockTransport(lambda _req: httpx.Response(
        200, content=BODY, headers={"content-type": "application/json"}))
    try:
        for size, label in ((0, "obituary"), (20_000, "20 KB snapshot")):
            text = snapshot_text(size)
            for how, transport in (("local HTTP server", None),
                                   ("httpx.MockTransport, no socket", mock)):
                rows = measure(url, text, n, args.runs, transport)
                table(f"{label} ({len(text)} chars), {how}:", rows)
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
