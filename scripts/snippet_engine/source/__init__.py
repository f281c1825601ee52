"""What a snippet is, read without running it: where snippets, helpers and records live
(`discovery`), the `#|` options at a snippet's top (`options`), and what its source says about how
it must run (`analysis`). The lowest layer of the engine: it imports only the engine's top-level
vocabulary (`errors`, `protocol`, `snippet_env`)."""
