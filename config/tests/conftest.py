# The cast of the apps' tests: alice and bob seated in table_game, charlie outside.
from games.tests.conftest import alice, bob, charlie, fast_password_hasher, table_game  # noqa: F401
