"""Imports run one way: no circle among the project's modules, and the models import nothing above them.

Every import counts, those inside functions too (a lazy import is still a
dependency: it only hides the circle from Python). Read with `ast`, so the
modules are not run.
"""

import ast
from functools import cache
from pathlib import Path

import pytest
from django.conf import settings

# The SQLite run only: the source read as text.
pytestmark = pytest.mark.one_database

ROOT = Path(settings.BASE_DIR)
SKIPPED = {".venv", ".git", "node_modules", "staticfiles", "test-artifacts"}


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


def imports_of(name, path, modules):
    """Return the project modules that module `name` (at `path`) imports, anywhere in it."""
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
        for target in targets:
            # `import a.b.c` depends on a.b.c; `from a.b import c` on a.b, and on a.b.c if a module.
            if target in modules and target != name:
                found.add(target)
    return found


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


def test_the_models_import_nothing_of_games_above_them():
    """games.models imports the rules engine and its own modules only (then accounts, config)."""
    graph = import_graph()

    above = {
        (name, target)
        for name, targets in graph.items()
        if name == "games.models" or name.startswith("games.models.")
        for target in targets
        if target.startswith("games.")
        and not target.startswith(("games.models", "games.rules"))
        and target != "games"
    }

    assert above == set()


def test_the_circle_finder_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}

    assert circles(graph) == [["a", "b", "c"]]


def test_it_counts_an_import_made_inside_a_function(tmp_path):
    module = tmp_path / "b.py"
    module.write_text("def late():\n    from games import board  # noqa\n")

    assert imports_of("games.b", module, {"games", "games.board"}) == {"games", "games.board"}
