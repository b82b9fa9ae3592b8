"""A research run's id stream is resumable (the resume issue): where it stands is committed
with every transaction, and a stream started again from there draws on exactly as the
uninterrupted one did; ids drawn in a transaction that never committed are drawn again."""

from __future__ import annotations

from pathlib import Path

import pytest

from sleuth.model import new_id
from sleuth.model.ids import id_stream, id_unit, stream_mark
from sleuth.store import Store
from sleuth.store.id_marks import load_mark


def test_a_stream_started_from_its_mark_draws_what_the_whole_stream_drew() -> None:
    with id_stream("research:r:1", key="r"):
        whole = [new_id() for _ in range(6)]
    with id_stream("research:r:1", key="r"):
        first = [new_id() for _ in range(2)]
        mark = stream_mark()
    assert mark == ("r", {"namespace": "research:r:1", "drawn": 2, "unit": None})
    with id_stream("research:r:1", start=2, key="r"):
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
            assert load_mark(conn, "run") == {"namespace": "ns", "drawn": 2, "unit": None}
            assert load_mark(conn, "other") is None
    finally:
        store.close()


def test_a_unit_redone_shifts_no_id_drawn_after_it() -> None:
    """A unit draws from a namespace of its own and the run goes on after it where it was
    before it: ids a unit redone after a kill draws again (a pass re-reading what it had
    recorded) stay in it; a unit resumed carries on past every id it drew."""
    with id_stream("root", key="r"):
        new_id()
        with id_unit("pass"):
            unit = [new_id(), new_id()]
        after = [new_id(), new_id()]
    with id_stream("root", key="r"):
        new_id()
        with id_unit("pass"):
            assert new_id() == unit[0]
            mark = stream_mark()
    assert mark == ("r", {"namespace": "root", "drawn": 1,
                          "unit": {"namespace": "root/pass", "drawn": 1}})
    with id_stream("root", key="r", start=1, unit=("root/pass", 1)):
        with id_unit("pass"):  # redone: carries on, never redraws what it drew
            assert new_id() == unit[1]
            new_id()  # drawn only by the redo
        assert [new_id(), new_id()] == after
