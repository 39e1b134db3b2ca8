"""Alembic environment: migrations run on the connection that :meth:`Store.migrate` gives."""

from alembic import context

from kastkopp.store.models import Base


def run_migrations() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=Base.metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # only when Alembic runs this file, not on import
    run_migrations()
