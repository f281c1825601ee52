"""The snippet engine: runs every snippet in isolation and records its real output per device.

It depends on the standard library only (torch is imported by the worker processes, never by the
coordinating process), so it runs on a bare CUDA runner and survives a change of site generator.

Bump ENGINE_VERSION whenever a change to the engine can change what a record holds (capture,
normalisation, seeding, the record format): it is part of every cache key, so all snippets re-run.
"""

# 6: a record's key covers the versions of the distributions its snippet uses, and its header
# lists them (`packages:`).
ENGINE_VERSION = "6"
