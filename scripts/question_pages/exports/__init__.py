"""Files made from the pages for use away from the site: `questions.json` (`question_index`, with
the answers as text and HTML from `answers`), the Anki decks and TSV (`decks`), and the notebooks
(`notebooks`)."""
