"""Paraphrase similarity for `verify_claim(..., paraphrase=...)`: WordLlama's static
embeddings, read from the installed wheel (no download, no network, same vectors every run).

WordLlama (`wordllama` 0.4.0.post1 on PyPI, MIT licence) ships its 256-dimensional
`l2_supercat` token table and tokenizer inside the wheel; they are read from the package's
own files here because `WordLlama.load()` looks for the tokenizer in a download cache. It is
the optional extra `embed` (`pip install 'sleuth[embed]'`): without it `load_paraphrase`
raises `ImportError`, and the verifier stays purely lexical.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from sleuth.verify.claims import Paraphrase


class WordLlamaSimilarity:
    """The best cosine between a claim and any one of its aligned evidence sentences."""

    def __init__(self) -> None:
        import wordllama  # the optional extra: ImportError when absent
        from safetensors import safe_open
        from tokenizers import Tokenizer
        from wordllama.inference import WordLlamaInference

        root = Path(wordllama.__file__).parent
        weights = root / "weights" / "l2_supercat_256.safetensors"
        tokenizer = root / "tokenizers" / "l2_supercat_tokenizer_config.json"
        for f in (weights, tokenizer):
            if not f.is_file():
                raise ImportError(f"wordllama is installed without its bundled {f.name}")
        with safe_open(str(weights), framework="np", device="cpu") as fh:
            table = fh.get_tensor("embedding.weight")
        self._model: Any = WordLlamaInference(table, Tokenizer.from_file(str(tokenizer)))

    def _unit(self, texts: Sequence[str]) -> np.ndarray:
        vecs = np.asarray(self._model.embed(list(texts)), dtype=np.float64)
        norms = np.linalg.norm(vecs, axis=1, keepdims=True)
        return vecs / np.maximum(norms, 1e-12)

    def __call__(self, claim: str, sentences: Sequence[str]) -> float:
        if not sentences:
            return -1.0
        vecs = self._unit([claim, *sentences])
        return float(np.max(vecs[1:] @ vecs[0]))


@lru_cache(maxsize=1)
def _similarity() -> WordLlamaSimilarity:
    return WordLlamaSimilarity()


def load_paraphrase(**limits: Any) -> Paraphrase:
    """`Paraphrase` over WordLlama, its limits the defaults unless given; `ImportError` when
    the `embed` extra is not installed."""
    return Paraphrase(_similarity(), **limits)
