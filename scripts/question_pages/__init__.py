"""Question pages: the one Markdown format contributors write, checked and rendered for the site.

Parsing and validation know nothing of MkDocs (only `mkdocs_hooks.py` does), so the format can be
checked from the command line and from tests, and would survive a change of site generator.
"""
