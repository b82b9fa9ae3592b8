"""A person's generation does not follow the hash seed (issue 19: three runs of the 1,000-
person benchmark gave three trees): where two paths of one length reach a person with two
generations, the walk takes neighbours in id order."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from case_builder import add_person, link
from sleuth.store import Store, blackboard

SCRIPT = """
import sys
from sleuth.store import blackboard
from sleuth.store import Store
from pathlib import Path
store = Store.open_case(Path(sys.argv[1]))
with store.engine.connect() as conn:
    gens = blackboard.generations(conn, sys.argv[2])
print(sorted(gens.items()))
store.close()
"""


def test_generations_are_the_same_whatever_the_hash_seed(tmp_path: Path) -> None:
    case = tmp_path / "case"
    store = Store.create_case(case)
    try:
        seed = add_person(store, "Ann Seed", "F")
        # a wrong link: Mary is the child of Ann's first husband and the mother of her
        # second, so the walk reaches her from both husbands, at generation -1 or +1
        first, second, mary = (add_person(store, n, "M" if i < 2 else "F") for i, n in
                               enumerate(["Joe First", "Tom Second", "Mary Other"]))
        link(store, seed, first, "spouse")
        link(store, seed, second, "spouse")
        link(store, first, mary)
        link(store, mary, second)
        with store.engine.connect() as conn:
            here = sorted(blackboard.generations(conn, seed).items())
    finally:
        store.close()
    runs = {subprocess.run([sys.executable, "-c", SCRIPT, str(case), seed], check=True,
                           capture_output=True, text=True,
                           env={**os.environ, "PYTHONHASHSEED": str(n)}).stdout
            for n in range(8)}
    assert runs == {f"{here}\n"}
