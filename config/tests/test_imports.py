"""Imports run one way: no circle among the project's modules, and each layer of games/ imports
nothing above it; no folder grows past what a reader takes in at a glance.

The layers of games/, lowest first: the rules engine (games.rules), the models (games.models),
the capabilities beneath the entry points (games.play, games.table, games.history), then what
requests and sockets enter by (games.views, games.chat, games.live, urls, admin, commands).
Every import counts, those inside functions too (a lazy import is still a dependency: it only
hides the circle from Python). Read with `ast`, so the modules are not run.
"""

import ast
import sys
from functools import cache
from pathlib import Path

import pytest
from django.conf import settings

# The SQLite run only: the source read as text.
pytestmark = pytest.mark.one_database

ROOT = Path(settings.BASE_DIR)
SKIPPED = {".venv", ".git", "node_modules", "staticfiles", "test-artifacts"}

ENGINE = "games.rules"
MODELS = "games.models"
BENEATH_THE_ENTRY_POINTS = ("games.play", "games.table", "games.history")
ENTRY_POINTS = (
    "games.chat",
    "games.live",
    "games.views",
    "games.urls",
    "games.admin",
    "games.management",
)
# What the engine may import besides itself and the standard library (its tests' runner).
ENGINE_LIBRARIES = {"pytest"}
# The folders a newcomer opens first, and how many modules of its own each may hold
# (sub-packages, tests/ and migrations/ aside; __init__.py is the folder itself).
FOLDERS = ("accounts", "config", "games", "lobby")
MOST_MODULES = 15


def within(name, *packages):
    """Return whether module `name` is one of `packages` or inside one of them."""
    return any(name == package or name.startswith(package + ".") for package in packages)


def project_modules():
    """Return {dotted name: path} of every Python module of the project."""
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if SKIPPED.intersection(parts):
            continue
        name = ".".join(parts)
        found[name.removesuffix(".__init__")] = path
    return found


def imported_names(name, path):
    """Return every dotted name module `name` (at `path`) imports, anywhere in it, made absolute.

    `import a.b.c` gives a.b.c; `from a.b import c` gives a.b and a.b.c (c may be a module).
    """
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parent = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(targets)
    return found


def imports_of(name, path, modules):
    """Return the project modules that module `name` (at `path`) imports, anywhere in it."""
    return {target for target in imported_names(name, path) if target in modules} - {name}


@cache
def import_graph():
    modules = project_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def circles(graph):
    """Return the strongly connected groups of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(start):
        # Iterative: the project's import chains are deeper than is kind to recursion.
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return groups


def test_no_module_of_the_project_is_in_an_import_circle():
    graph = import_graph()

    found = circles(graph)

    described = [
        "\n".join(f"  {m} -> {sorted(t for t in graph[m] if t in group)}" for m in group)
        for group in found
    ]
    assert found == [], "import circles:\n" + "\n\n".join(described)


def test_the_rules_engine_imports_nothing_but_itself_and_the_standard_library():
    """games.rules is plain Python: no Django, nothing of the project outside the engine."""
    modules = project_modules()
    projects = {name.partition(".")[0] for name in modules}

    outside = {
        (name, target)
        for name, path in modules.items()
        if within(name, ENGINE)
        for target in imported_names(name, path)
        if not within(target, ENGINE)
        and target != "games"  # the package the engine lives in: `from games import rules`
        and (
            target.partition(".")[0] in projects
            or target.partition(".")[0] not in sys.stdlib_module_names | ENGINE_LIBRARIES
        )
    }

    assert outside == set()


def test_the_models_import_nothing_of_games_above_them():
    """games.models imports the rules engine and its own modules only (then accounts, config).

    Nothing of play/, table/, history/, chat/, live/, the views or the other modules of games/.
    """
    graph = import_graph()

    above = {
        (name, target)
        for name, targets in graph.items()
        if within(name, MODELS)
        for target in targets
        if within(target, "games") and not within(target, MODELS, ENGINE) and target != "games"
    }

    assert above == set()


def test_play_table_and_history_import_no_view_socket_or_chat():
    """What the views and sockets stand on never reaches back up to them."""
    graph = import_graph()

    above = {
        (name, target)
        for name, targets in graph.items()
        if within(name, *BENEATH_THE_ENTRY_POINTS)
        for target in targets
        if within(target, *ENTRY_POINTS)
    }

    assert above == set()


def test_no_module_a_request_runs_imports_the_measuring_tools():
    """games.tools (benchmarks, load tools, the echo socket) is reached by tests, scripts and
    config.asgi's route for the echo socket only, which it adds when the tools app is installed."""
    graph = import_graph()

    reaching = {
        (name, target)
        for name, targets in graph.items()
        if not within(name, "games.tools", "scripts", "conftest", "config.asgi")
        and ".tests" not in f".{name}"
        for target in targets
        if within(target, "games.tools")
    }

    assert reaching == set()


def modules_of_their_own(folder):
    """Return the Python modules directly in `folder`, beside its __init__.py."""
    return sorted(path.name for path in folder.glob("*.py") if path.name != "__init__.py")


def test_no_folder_holds_more_modules_of_its_own_than_a_reader_takes_in():
    crowded = {
        folder: modules
        for folder in FOLDERS
        if len(modules := modules_of_their_own(ROOT / folder)) > MOST_MODULES
    }

    assert crowded == {}, f"more than {MOST_MODULES} modules: move some into a sub-package"


def test_the_circle_finder_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}

    assert circles(graph) == [["a", "b", "c"]]


def test_it_counts_an_import_made_inside_a_function(tmp_path):
    module = tmp_path / "b.py"
    module.write_text("def late():\n    from games.table import board  # noqa\n")

    modules = {"games.table", "games.table.board"}
    assert imports_of("games.b", module, modules) == {"games.table", "games.table.board"}
