"""Text without accents: the plain letters that web addresses are made of and that names
sort by, as a reader of the language expects (``Élodie`` next to ``Eric``, not after
``Zoé``; ``Łódź`` addressed as ``lodz``)."""

from __future__ import annotations

import functools
import unicodedata

_UNDECOMPOSED = str.maketrans({
    "Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Đ": "D", "đ": "d", "Ð": "D", "ð": "d",
    "Ħ": "H", "ħ": "h", "ı": "i", "Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe",
    "ß": "ss", "ẞ": "SS", "Þ": "Th", "þ": "th",
})
"""Letters that Unicode does not split into a base letter and a mark (Polish Ł, Danish
Ø, French Œ, German ß), so that stripping marks alone would drop them."""


@functools.lru_cache(maxsize=65_536)
def without_accents(text: str) -> str:
    """``text`` with every letter reduced to its base letter: ``Żółw`` is ``Zolw``,
    ``Cœur`` is ``Coeur``. Characters with no such letter (CJK, emoji) stay as they are."""
    plain = unicodedata.normalize("NFKD", text.translate(_UNDECOMPOSED))
    return "".join(c for c in plain if not unicodedata.combining(c))


def composed(text: str) -> str:
    """``text`` with each letter and its accents one character (Unicode's NFC): text
    copied on a Mac may write Ñ as N and a combining tilde, which no tile set holds and
    which looks the same on screen; ASCII text comes back as it is."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def name_order(text: str) -> tuple[str, str]:
    """How names sort: by their letters without case or accents, so ``Élodie`` comes
    between ``Eliane`` and ``Eric``; the exact spelling breaks ties, so the order never
    depends on which name came first."""
    return without_accents(text).casefold(), text
