"""Allow ``python -m pgm``."""

from pgm.cli import main

main()
