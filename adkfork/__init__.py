"""Builds google-adk from the pinned upstream release and this fork's patches.

The package is stdlib-only: it is the in-tree PEP 517 backend (`backend.py`)
and the contributor tooling run as `python -m adkfork` (`__main__.py`).
"""
