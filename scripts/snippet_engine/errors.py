"""The base class of every error the project reports to a person.

Each of these carries a message that says what is wrong, where and how to fix it, so the command
lines catch `ProjectError` and print it instead of a traceback. It lives in the engine because the
engine is the bottom layer: the page format and the hooks build on it, never the other way round.
Subclasses keep `ValueError` or `RuntimeError` as a second base where callers outside the project
(argparse, MkDocs) expect one.
"""

from __future__ import annotations


class ProjectError(Exception):
    """An error in the project's input (a snippet, a record, a page, a report) or its set-up."""
