"""A checked page turned into what MkDocs renders: the page (`page`), its snippets and their
records (`snippet_blocks`, `folding`, `drift_reports`), what the markers expand to (`expand`), the
syntax colours as ranges (`code_colours`), answers as HTML and text (`markdown_html`), and the link
preview (`sharing`)."""
