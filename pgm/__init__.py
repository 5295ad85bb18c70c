"""pgm: turns game records into a static web site, one page per turn."""

__version__ = "0.1.0"
