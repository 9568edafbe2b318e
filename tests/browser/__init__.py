"""Real-browser tests of the built site (see conftest.py and harness.py)."""
