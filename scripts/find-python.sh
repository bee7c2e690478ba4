#!/usr/bin/env bash
# Print the path of the first working Python >= 3.12.
#
# pyenv shims for python3.12/python3.13 may sit on PATH and fail when run
# ("pyenv: python3.13: command not found"), so each candidate is actually
# run, not just looked up.
set -u

works() {
    "$1" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1
}

candidates=()
for name in python3.13 python3.12 python3; do
    if path=$(command -v "$name" 2>/dev/null); then
        candidates+=("$path")
    fi
done
pyenv_root=${PYENV_ROOT:-$HOME/.pyenv}
for pattern in "3.1[3-9]*" "3.12*"; do
    # Newest first within each pattern.
    for dir in $(ls -d "$pyenv_root"/versions/$pattern 2>/dev/null | sort -rV); do
        candidates+=("$dir/bin/python3")
    done
done

for python in "${candidates[@]}"; do
    if works "$python"; then
        echo "$python"
        exit 0
    fi
done

echo "error: no working Python 3.12 or newer found." >&2
echo "Install Python 3.12 or newer (e.g. 'pyenv install 3.13' or your OS package)" >&2
echo "and make sure python3.13, python3.12 or python3 on PATH runs it." >&2
exit 1
