"""The site generator's side: what `scripts/mkdocs_hooks.py` (the hooks MkDocs loads, and the only
module that holds a build's state) does, each job in a module of its own: the navigation
(`navigation`), the scripts written into or pruned from a page (`page_scripts`), the files written
beside the pages after a build (`site_data`), the snippet watcher of `mkdocs serve` (`watch`), and
what a snippet-only rebuild keeps (`live_rebuild`). The top layer: it imports the engine and the
page format, and nothing imports it but the hooks."""
