"""bookchat: question answering with citations for Docusaurus textbooks."""

__version__ = "0.1.0"
