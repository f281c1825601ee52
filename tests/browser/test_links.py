"""No broken link and no broken anchor anywhere in the built site (lychee, offline)."""

from __future__ import annotations

from .links import broken_links
from .sites import Site


def test_no_broken_link_or_anchor(site: Site) -> None:
    problems = broken_links(site.dir)
    assert not problems, "\n".join(problems)
