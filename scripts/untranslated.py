"""List the msgids the code marks for translation that no zh_Hans catalogue translates.

The catalogues are kept by hand (the top-level templates' strings live in the
apps' catalogues), so `makemessages` cannot simply be rerun; this extracts
every marked string into a scratch copy and compares. Needs GNU gettext.

    .venv/bin/python scripts/untranslated.py
"""

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("accounts", "games", "lobby")
# Django's own catalogue translates these (the language names in settings).
DJANGO_OWN = {"English", "Simplified Chinese"}


def entries(path):
    """Yield the entries of a .po file as dicts of their keywords."""
    current, key = {}, None
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if line.startswith("#~"):
            continue
        if not line.strip():
            if current:
                yield current
            current, key = {}, None
        elif line.startswith("#,"):
            current["flags"] = line
        elif not line.startswith("#"):
            match = re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?) "(.*)"$', line)
            if match:
                key = match.group(1)
                current[key] = match.group(2)
            elif key and line.startswith('"'):
                current[key] += line[1:-1]


def translated(path):
    return {
        (e.get("msgctxt"), e["msgid"])
        for e in entries(path)
        if e.get("msgid")
        and "fuzzy" not in e.get("flags", "")
        and any(v for k, v in e.items() if k.startswith("msgstr"))
    }


def main():
    have = set()
    for app in APPS:
        have |= translated(ROOT / app / "locale/zh_Hans/LC_MESSAGES/django.po")
    files = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch)
        for name in (
            files
            + subprocess.run(
                ["git", "ls-files", "--others", "--exclude-standard"],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
        ):
            if "/locale/" in name or name.startswith("static/vendor"):
                continue
            target = copy / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target)
        (copy / "locale").mkdir()
        subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-l", "zh_Hans", "-v", "0"],
            cwd=copy,
            check=True,
        )
        extracted = copy / "locale/zh_Hans/LC_MESSAGES/django.po"
        missing = [
            e["msgid"]
            for e in entries(extracted)
            if e.get("msgid")
            and (e.get("msgctxt"), e["msgid"]) not in have
            and e["msgid"] not in DJANGO_OWN
        ]
    for msgid in missing:
        print(msgid)
    print(f"{len(missing)} untranslated")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
