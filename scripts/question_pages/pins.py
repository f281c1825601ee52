"""TEMPORARY shim while helpers move over: the pin lives in snippet_engine.pins. Remove."""

from snippet_engine.pins import pinned_torch

__all__ = ["pinned_torch"]
