"""Why a build could not start or finish."""

from __future__ import annotations


class BuildError(Exception):
    """The build cannot start or finish; nothing was changed in the output folder."""


class OutputFolderError(BuildError):
    """The output folder is one pgm must not write (see pgm.output.check_output): no
    edit of the event's files can change that, so ``pgm watch`` stops on it."""
