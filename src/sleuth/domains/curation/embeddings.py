"""Embedding models for search (issue 25 item 7): a batch function's model, never a hub.

An `Embedder` turns texts into L2-normalised float32 vectors and names itself (the name is
stored with each vector, so vectors of two models are never compared). Which one a case
uses (`SLEUTH_EMBEDDER`, or the `choice` a caller passes):

- `auto` (the default): WordLlama when the optional extra is installed
  (`pip install 'sleuth[embed]'`), otherwise none, and search is lexical only;
- `wordllama`: WordLlama, or one line saying the extra is missing;
- `none`: no embeddings (lexical search only);
- `MODULE:FACTORY`: the hook - `FACTORY()` from an importable module returns any object
  with `name` and `embed(texts) -> array (n, dim)` (vectors are normalised here).

WordLlama (`wordllama` 0.4.0.post1 on PyPI, MIT licence): a static token-embedding model
whose 256-dimensional `l2_supercat` weights (16 MB, trained by its author from the token
embedding codebooks of LLaMA 2 70B, Phi-3 medium and others, so Meta's Llama 2 licence may
bear on the weights' origin) and tokenizer ship inside the wheel. They are read from the
installed package's own files here; WordLlama's `load()`, which looks for the tokenizer
under another folder name and would then try the Hugging Face hub, is not used, so nothing
is ever downloaded.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from sleuth.model import InputError

ENV = "SLEUTH_EMBEDDER"
WORDLLAMA_MODEL = "wordllama-l2_supercat-256"


class Embedder(Protocol):
    name: str

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def normalised(m: Any) -> np.ndarray:
    """Rows scaled to unit length (a zero row stays zero), as float32."""
    a = np.asarray(m, dtype=np.float32)
    if a.ndim == 1:
        a = a.reshape(1, -1)
    norms = np.linalg.norm(a, axis=1, keepdims=True)
    return np.divide(a, norms, out=np.zeros_like(a), where=norms > 0)


class WordLlamaEmbedder:
    """WordLlama's bundled 256-dimensional model, read from the installed wheel's files."""

    name = WORDLLAMA_MODEL

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
        with safe_open(str(weights), framework="np", device="cpu") as f:
            table = f.get_tensor("embedding.weight")
        self._model = WordLlamaInference(table, Tokenizer.from_file(str(tokenizer)))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 256), dtype=np.float32)
        return normalised(self._model.embed(list(texts)))


class _Hooked:
    """A hook's model, its vectors normalised."""

    def __init__(self, model: Any) -> None:
        self._model = model
        self.name = str(model.name)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return normalised(self._model.embed(list(texts)))


def load_embedder(choice: str | None = None) -> Embedder | None:
    """The embedding model `choice` (else `SLEUTH_EMBEDDER`, else `auto`) names; None for
    lexical search only. An explicit choice that cannot be loaded is one line."""
    choice = (choice or os.environ.get(ENV) or "auto").strip()
    if choice in ("none", "off", "lexical"):
        return None
    if choice in ("auto", "wordllama"):
        try:
            return WordLlamaEmbedder()
        except ImportError as exc:
            if choice == "auto":
                return None
            raise InputError(f"the embedding model is not installed ({exc}); install "
                             "the extra: pip install 'sleuth[embed]'", field=ENV) from None
    module, _, attr = choice.partition(":")
    if not module or not attr:
        raise InputError(f"unknown embedder {choice!r}: use auto, wordllama, none or "
                         "MODULE:FACTORY", field=ENV)
    try:
        model = getattr(importlib.import_module(module), attr)()
    except (ImportError, AttributeError) as exc:
        raise InputError(f"cannot load embedder {choice!r}: {exc}", field=ENV) from None
    if not isinstance(getattr(model, "name", None), str) or not callable(
            getattr(model, "embed", None)):
        raise InputError(f"embedder {choice!r} has no name or embed()", field=ENV)
    return _Hooked(model)
