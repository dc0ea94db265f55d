"""The package version, on its own so every layer can name it without importing the package's face."""

__version__ = "0.1.0"
