"""Python plugin classes for JSON APIs; they share the YAML spec's compliance block.

A plugin only builds URLs; every request goes through `Fetcher` (gates, robots, limits,
cache, snapshot), and every response is handed to the record parsers with
`extract_record(result.snapshot, result.raw)`.
"""

from sleuth.sources.plugins.base import SourcePlugin, load_plugin, render_params

__all__ = ["SourcePlugin", "load_plugin", "render_params"]
