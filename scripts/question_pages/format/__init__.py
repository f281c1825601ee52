"""The page format contributors write: its vocabulary (`model`), reading a page (`parse`), the id
rule (`ids`), the marker lines (`markers`), every rule of the format (`validate`, `tag_rules`), the
topics (`topics`), the ledger of published URLs (`published`), and loading every page (`loading`).
The lowest layer of the page tooling: it knows the engine's records, nothing of rendering."""
