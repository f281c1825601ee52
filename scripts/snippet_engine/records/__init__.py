"""Records and whether they are current: the committed file format (`record_file`), the cache key
and what goes into it (`cachekey`, `environment`, `packages`, `pins`), the output's normalisation
(`normalize`), and the read-only views over the records (`check` for the command, `status` for the
pages). Executes nothing: it sits above `source` and below `execution`."""
