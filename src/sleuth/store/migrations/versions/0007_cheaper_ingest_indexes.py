"""cheaper ingest indexes

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27

Every staged row pays for each index of its table, and these keys are random ids or
values, so each entry lands on a page of its own: at 30,000 persons SQLite's inserts were
about a quarter of `sleuth ingest` (issue 19). Two indexes cost that for nothing:

- the candidate value index serves one question, "has this record line named this person
  before?", asked of name candidates only (`Store.name_lines`): it now holds those rows,
  about one candidate in ten of a tree's (a partial index; SQLite and PostgreSQL use it
  for a query that says `field = 'name'`);
- `relationships.person1_id` had an index of its own beside the unique (person1, person2,
  type) index, which starts with it and answers the same lookups.

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_NAME = sa.text("field = 'name'")


def upgrade() -> None:
    op.drop_index("ix_candidates_value", table_name="candidates")
    op.create_index("ix_candidates_value", "candidates", ["value"], unique=False,
                    postgresql_using="hash", sqlite_where=_NAME, postgresql_where=_NAME)
    op.drop_index("ix_relationships_person1_id", table_name="relationships")


def downgrade() -> None:
    op.create_index("ix_relationships_person1_id", "relationships", ["person1_id"],
                    unique=False)
    op.drop_index("ix_candidates_value", table_name="candidates")
    op.create_index("ix_candidates_value", "candidates", ["value"], unique=False,
                    postgresql_using="hash")
