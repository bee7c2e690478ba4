"""Every citation of the rules points at docs/rules.md, and at a section it has.

The project's account of the rules is docs/rules.md (sections "## 1." to "## 11.").
Code, tests, templates and documents cite it as "docs/rules.md §7", "docs/rules.md
section 7", "docs/rules.md sections 4-8", "docs/rules.md 7, Ruling (resign)", or
from inside docs/ as a relative link "[rules](rules.md) §7". These tests walk the
repository's text files and fail, naming file:line, on a mention of a rules file
that is not docs/rules.md (the rulebook outside the repository that the code used
to cite), on a section number or a sub-number that docs/rules.md has no heading
for, and on a named ruling it does not hold. No database is needed.
"""

import os
import re
from pathlib import Path

import pytest

# The SQLite run only: the source and docs read as text.
pytestmark = pytest.mark.one_database

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs/rules.md"
# This file plants bad citations in its own examples: the walk leaves it out.
SELF = Path(__file__).resolve()

# Directories never walked: environments, caches, tools' output, vendored code.
SKIPPED_DIRS = {
    ".venv",
    "venv",
    ".git",
    "node_modules",
    "test-artifacts",
    "staticfiles",
    "vendor",
    "__pycache__",
    ".pytest_cache",
    ".ruff_cache",
    ".mypy_cache",
    ".hypothesis",
}
SKIPPED_SUFFIXES = (".min.js", ".min.css", ".map")
BIGGEST = 5_000_000  # bytes: anything larger is data, not a text that cites the rules

# Any mention of a rules file, whatever its case and path.
MENTION = re.compile(r"rules\.md", re.IGNORECASE)
# What may follow a citation before its section: an anchor, the end of a Markdown link.
ANCHOR = re.compile(r"#([\w-]+)")
LINK_END = re.compile(r"\](?:\([^)\s]*\))?|\)")
# The section marks: "§7", "§§ 4-8", "section 7", "sections 1, 2, 7, 9", "Section 4.2",
# or a bare number right after the file name ("docs/rules.md 7 and 8").
NUMBER = r"\d+(?:\.\d+)?"
NUMBERS = rf"{NUMBER}(?:\s*(?:,|and|or|&|-|–|to)\s*{NUMBER})*"
SECTIONS = re.compile(
    rf"\s*,?\s*(?:§+\s*|\bsections?\s+|\bsec\.\s*)({NUMBERS})|\s+({NUMBERS})\b",
    re.IGNORECASE,
)
RULING = re.compile(r"Ruling \(([^)]+)\)")
# What starts a continuation line of a comment or docstring.
COMMENT_LEADER = re.compile(r"^\s*(?:#+|//+|/\*+|\*+|\{#|<!--)?\s*")


def text_files(root=ROOT):
    """Yield (path relative to `root`, text) for every text file of the repository."""
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(
            d for d in dirs if d not in SKIPPED_DIRS and not d.endswith((".egg-info", "cache"))
        )
        for name in sorted(files):
            if name.endswith(SKIPPED_SUFFIXES):
                continue
            path = Path(folder) / name
            if path.resolve() == SELF:
                continue
            try:
                if not path.is_file() or path.stat().st_size > BIGGEST:
                    continue
                data = path.read_bytes()
            except OSError:
                continue
            if b"\0" in data[:8192]:
                continue  # binary: images, compiled catalogues, databases
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            yield path.relative_to(root).as_posix(), text


def headings(rules_text):
    """Return ({section: its text}, {slug of every heading}) of docs/rules.md."""
    sections = {}
    slugs = set()
    current = None
    for line in rules_text.splitlines():
        heading = re.match(r"^(#{1,6})\s+(.*?)\s*$", line)
        if heading:
            slugs.add(slug(heading.group(2)))
            numbered = re.match(r"^##\s+(\d+)\.\s", line)
            if numbered:
                current = numbered.group(1)
                sections[current] = ""
                continue
            if len(heading.group(1)) <= 2:
                current = None
        if current is not None:
            sections[current] += line + "\n"
    return sections, slugs


def slug(heading):
    """Return the anchor a Markdown renderer (GitHub's) gives `heading`."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def section_numbers(marks):
    """Return the section numbers a list of marks names: "4-8" gives 4, 5, 6, 7 and 8."""
    found = []
    for part in re.finditer(rf"({NUMBER})(?:\s*(?:-|–|to)\s*({NUMBER}))?", marks):
        first, last = part.group(1), part.group(2)
        if last and "." not in first + last and int(first) <= int(last):
            found.extend(str(n) for n in range(int(first), int(last) + 1))
        else:
            found.extend(n for n in (first, last) if n)
    return found


def has_section(sections, number):
    """Return whether docs/rules.md has section `number` ("7") or sub-number ("2.3")."""
    major, _dot, minor = number.partition(".")
    body = sections.get(major)
    if body is None:
        return False
    if not minor:
        return True
    # A sub-number is a heading "### 2.3 ..." or the item "3." of the section's numbered list.
    return bool(
        re.search(rf"^#+\s*{re.escape(number)}\b", body, re.MULTILINE)
        or re.search(rf"^{re.escape(minor)}\.\s", body, re.MULTILINE)
    )


def problems(files, rules_text):
    """Return "file:line: what is wrong" for every bad mention or citation in `files`."""
    sections, slugs = headings(rules_text)
    found = []
    for name, text in files:
        in_docs = name.startswith("docs/")
        lines = text.splitlines()
        for index, line in enumerate(lines):
            for mention in MENTION.finditer(line):
                where = f"{name}:{index + 1}"
                before = line[: mention.start()]
                exact = mention.group() == "rules.md"
                relative = in_docs and before.endswith(("(", "./"))  # a link from docs/ itself
                if not (exact and (before.endswith("docs/") or relative)):
                    found.append(f"{where}: {mention.group()!r} is not a citation of docs/rules.md")
                    continue
                rest = line[mention.end() :]
                if not rest.strip() and index + 1 < len(lines):
                    # The citation goes on in the next line of the comment or docstring.
                    rest = " " + COMMENT_LEADER.sub("", lines[index + 1], count=1)
                anchor = ANCHOR.match(rest)
                if anchor:
                    if anchor.group(1) not in slugs:
                        found.append(f"{where}: docs/rules.md has no heading #{anchor.group(1)}")
                    rest = rest[anchor.end() :]
                link_end = LINK_END.match(rest)
                if link_end:
                    rest = rest[link_end.end() :]
                marks = SECTIONS.match(rest)
                if marks:
                    for number in section_numbers(marks.group(1) or marks.group(2)):
                        if not has_section(sections, number):
                            found.append(f"{where}: docs/rules.md has no section {number}")
                for ruling in RULING.finditer(rest):
                    if f"Ruling ({ruling.group(1)})" not in rules_text:
                        found.append(f"{where}: docs/rules.md has no Ruling ({ruling.group(1)})")
    return sorted(set(found), key=_by_place)


def _by_place(problem):
    name, line, _what = problem.split(":", 2)
    return name, int(line), problem


def test_the_rules_page_has_its_eleven_sections():
    sections, _slugs = headings(RULES.read_text(encoding="utf-8"))
    assert list(sections) == [str(n) for n in range(1, 12)]


def test_every_rules_citation_is_of_docs_rules_md_and_of_a_section_it_has():
    found = problems(text_files(), RULES.read_text(encoding="utf-8"))
    assert not found, "Bad citations of the rules:\n" + "\n".join(found)


# The team's style guide, outside the repository like the rulebook: the project's own
# account of it is docs/architecture.md, "How the code is meant to be shaped".
OUTSIDE = re.compile(r"STYLE\.md|/work/shared|\.\./shared/", re.IGNORECASE)


def test_nothing_cites_the_style_guide_outside_the_repository():
    found = [
        f"{name}:{number}"
        for name, text in text_files()
        for number, line in enumerate(text.splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not found, "Cites a file outside the repository:\n" + "\n".join(found)


# --- the checker itself ---------------------------------------------------------------------

RULES_TEXT = """# Rules

## 1. Players

## 2. A turn

1. **Draw.**
2. **Play.**

## 7. Winning

- **Ruling (resign):** a loss.

## 11. Timeouts
"""


def check(text, name="games/example.py"):
    return problems([(name, text)], RULES_TEXT)


def test_it_accepts_the_forms_the_code_uses():
    text = "\n".join(
        (
            '"""Paying (docs/rules.md section 1) and turns (docs/rules.md §2)."""',
            "# docs/rules.md sections 1, 2 and 11; docs/rules.md sections 1-2",
            "RESIGN = 1  # docs/rules.md 7, Ruling (resign)",
            '"""Resigning (docs/rules.md section 7, "Ruling (resign)")."""',
            "# the draw (docs/rules.md §2.1), docs/rules.md#7-winning, docs/rules.md.",
            "# a citation cut by the end of its line: docs/rules.md",
            "# section 11 (answers at once)",
        )
    )
    assert check(text) == []
    assert check("[rules](rules.md) §11 and [docs/rules.md](rules.md) §7", "docs/a.md") == []


def test_it_refuses_a_bare_mention_of_a_rules_file():
    plant = "RULES" + ".md"  # spelt apart so that this file mentions no such file itself
    assert check(f"# the rules ({plant} section 1)\n") == [
        f"games/example.py:1: {plant!r} is not a citation of docs/rules.md"
    ]
    assert check("see ../shared/rules.md\n", "README.md") == [
        "README.md:1: 'rules.md' is not a citation of docs/rules.md"
    ]
    assert check("[rules](rules.md) §1", "README.md") != []  # relative only inside docs/


def test_it_refuses_a_section_the_rules_do_not_have():
    assert check("x\n# docs/rules.md section 12\n") == [
        "games/example.py:2: docs/rules.md has no section 12"
    ]
    assert check("# docs/rules.md sections 1-3") == [
        "games/example.py:1: docs/rules.md has no section 3"
    ]
    assert check("# docs/rules.md §2.3 and §1") == [
        "games/example.py:1: docs/rules.md has no section 2.3"
    ]
    assert check("# docs/rules.md#8-enhanced") == [
        "games/example.py:1: docs/rules.md has no heading #8-enhanced"
    ]
    assert check("# docs/rules.md\n# section 9: options") == [
        "games/example.py:1: docs/rules.md has no section 9"
    ]
    assert check("# docs/rules.md 7, Ruling (stalemate)") == [
        "games/example.py:1: docs/rules.md has no Ruling (stalemate)"
    ]
