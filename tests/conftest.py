"""Shared pytest configuration of the project's own suite."""

# pytester: the tests of the scenario plugin (test_pytest_plugin.py) run pytest in a folder of their own
pytest_plugins = ["pytester"]

# tests/data holds scenarios that are meant to fail or be refused (conflicts, verify, the error
# tests); the scenario plugin (pyclingo_bridge/pytest_plugin.py) would collect them as tests
collect_ignore = ["data"]
