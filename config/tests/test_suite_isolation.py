"""The suite's own rules: one fixture, one meaning; every wait bounded.

Read from the test modules' source (ast), so that a module cannot quietly
replace the root conftest's resets or wait for ever.
"""

import ast
from pathlib import Path

import pytest

# The SQLite run only: the test suite read as text.
pytestmark = pytest.mark.one_database

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "config", "games", "lobby")


def suite_modules():
    for app in APPS:
        yield from sorted((ROOT / app).rglob("test*.py"))
        yield from sorted((ROOT / app).rglob("conftest.py"))


def fixture_names(tree):
    """Return the names of the functions in `tree` decorated as pytest fixtures."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                if ast.unparse(target) in ("pytest.fixture", "fixture"):
                    names.add(node.name)
    return names


def imported_names(tree):
    return {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def test_no_module_replaces_a_fixture_of_the_root_conftest():
    """A module's own `empty_cache` would skip the root's resets of the channel layers and hub."""
    root = fixture_names(ast.parse((ROOT / "conftest.py").read_text()))
    assert "empty_cache" in root
    shadowing = []
    for path in suite_modules():
        tree = ast.parse(path.read_text())
        for name in (fixture_names(tree) | imported_names(tree)) & root:
            shadowing.append(f"{path.relative_to(ROOT)}: {name}")
    assert shadowing == []


def test_every_barrier_and_event_wait_in_the_tests_has_a_timeout():
    """A wait without one hangs the whole run when the other side never comes."""
    unbounded = []
    for path in suite_modules():
        tree = ast.parse(path.read_text())
        # asyncio's waits take no timeout: they are bounded by wait_for or by being
        # inside `async with asyncio.timeout(...)`.
        bounded = {
            id(arg)
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("wait_for")
            for arg in node.args[:1]
        } | {
            id(inner)
            for node in ast.walk(tree)
            if isinstance(node, ast.AsyncWith)
            and any(
                isinstance(item.context_expr, ast.Call)
                and ast.unparse(item.context_expr.func) == "asyncio.timeout"
                for item in node.items
            )
            for statement in node.body
            for inner in ast.walk(statement)
        }
        for node in ast.walk(tree):
            if (
                id(node) not in bounded
                and isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "wait"
                and not node.args
                and not any(k.arg == "timeout" for k in node.keywords)
            ):
                unbounded.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert unbounded == []


def test_a_tests_games_are_dealt_from_a_seed_it_can_deal_again(request, django_user_model):
    """Every failure can be replayed: the test's deals come from conftest.deal_seed."""
    import random

    from conftest import deal_seed
    from games.models import Game

    host = django_user_model.objects.create_user("host")
    dealt = [Game.objects.create(host=host).seed for _ in range(3)]

    again = random.Random(deal_seed(request.node.nodeid))
    assert dealt == [again.getrandbits(63) for _ in range(3)]
