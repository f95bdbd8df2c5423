"""The event vocabulary of the game, its serialization and the Redis stream store.

Importing this package is cheap and pure: the engine imports `events.catalog` and
`events.envelope`, so nothing here may import redis or marshmallow at module level.
The store lives in `events.store` and the marshmallow schemas in `events.schemas`.
"""
