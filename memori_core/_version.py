"""The package version (read by the snapshot header, so it lives apart from the package's imports)."""

__version__ = "0.1.0"
