"""The package version, importable by any layer without loading the public front."""

__version__ = "0.1.0"
