"""Running snippets: the coordinator's plan and run (`runner`, `sharding`), the pool of warm workers
(`scheduler`), a worker (`worker`, with its warm-up, spawning and outcome rules beside it), the code
inside a snippet's own process (`child`), what is cleaned up after it (`reaping`, `headers`), the
terminal's progress lines and the live preview's re-recording (`preview`)."""
