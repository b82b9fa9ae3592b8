"""Alembic environment: migrations run on the connection sleuth hands over."""

from __future__ import annotations

from alembic import context

from sleuth.store.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - sleuth always passes a connection
    raise RuntimeError("sleuth migrations run through sleuth.store.db.migrate()")

context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
