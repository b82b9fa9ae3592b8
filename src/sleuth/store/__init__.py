"""The case store: SQLAlchemy 2 on SQLite (default) or PostgreSQL, migrated by Alembic."""

from sleuth.store.queries import case_graph, counts, person_page, review_items
from sleuth.store.store import Store, name_key

__all__ = ["Store", "case_graph", "counts", "name_key", "person_page", "review_items"]
