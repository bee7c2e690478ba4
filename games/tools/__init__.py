"""Tools for measuring the site, never run by a request: load and fault tools (load.py), the
benchmarks and the load test (management commands), and the echo socket (ws/echo/), the load
test's baseline. An app of its own, installed only where asked for (settings.TOOLS: on with
DEBUG or FULLSET_TOOLS=1): a production server serves no benchmark route and has no such
command.
"""
