"""The command line (`cli`) and what only the commands do with a run's results: the drift report
against another torch (`drift`) and the Markdown summary of a sharded run (`summary`). The top
layer of the engine: nothing in the engine imports it."""
