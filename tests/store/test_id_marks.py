"""A research run's id stream is resumable (the resume issue): where it stands is committed
with every transaction, and a stream started again from there draws on exactly as the
uninterrupted one did; ids drawn in a transaction that never committed are drawn again."""

from __future__ import annotations

from pathlib import Path

import pytest

from sleuth.model import new_id
from sleuth.model.ids import id_stream, stream_mark
from sleuth.store import Store
from sleuth.store.id_marks import load_mark


def test_a_stream_started_from_its_mark_draws_what_the_whole_stream_drew() -> None:
    with id_stream("research:r:1", key="r"):
        whole = [new_id() for _ in range(6)]
    with id_stream("research:r:1", key="r"):
        first = [new_id() for _ in range(2)]
        mark = stream_mark()
    assert mark == ("r", "research:r:1", 2)
    with id_stream("research:r:1", start=mark[2], key="r"):
        rest = [new_id() for _ in range(4)]
    assert first + rest == whole
    with id_stream("research:r:1"):
        assert stream_mark() is None  # a stream without a key is not resumable


def test_the_mark_is_what_the_last_commit_saw(tmp_path: Path) -> None:
    store = Store.create_case(tmp_path / "case")
    try:
        with id_stream("ns", key="run"):
            with store.transaction():
                new_id(), new_id()
            with pytest.raises(RuntimeError), store.transaction():
                new_id()
                raise RuntimeError("killed before the commit")
        with id_stream("other"), store.transaction():  # not resumable: nothing kept
            new_id()
        with store.engine.connect() as conn:
            assert load_mark(conn, "run") == ("ns", 2)
            assert load_mark(conn, "other") is None
    finally:
        store.close()
