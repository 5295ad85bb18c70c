"""Letter distributions and the tile alphabet: which tiles exist, what they score.

A tile is written as a *label*: ``A`` for a real tile, ``a`` for a blank designated as
A, ``?`` for an undesignated blank on a rack and ``_`` for a rack tile nobody knows.
Multi-character tiles keep their letters (``L·L``, ``CH``); brackets (``[CH]``) are only
notation and are stripped when a string is split into tiles. Text for people puts them
back: :func:`tile_text` writes every multi-character tile in brackets.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from typing import TypeVar

from pgm.text_fold import without_accents

BLANK = "?"
UNKNOWN = "_"
DEFAULT_DISTRIBUTION = "english"

_V = TypeVar("_V")


class TileError(ValueError):
    """A tile string that cannot be split into tiles of the alphabet."""


@dataclass(frozen=True)
class TileInfo:
    count: int
    points: int
    vowel: bool


@dataclass(frozen=True)
class Distribution:
    """One language's bag: tile counts, point values and vowel flags."""

    name: str
    tiles: dict[str, TileInfo]
    """Real tiles by upper-case label; the blank is ``?``."""
    bracket_only: frozenset[str] = field(default_factory=frozenset)
    """Multi-letter tiles that must be written in brackets (Spanish ``[CH]``), because
    their letters are tiles of their own too."""

    @property
    def total(self) -> int:
        return sum(info.count for info in self.tiles.values())

    def points(self, label: str) -> int:
        """Face value of a tile on the board or a rack; blanks (lower case, ``?``) are 0."""
        return self.label_points[label]

    @cached_property
    def label_points(self) -> Memo[int]:
        """``points`` as a table, filled on first sight of each label: scoring looks up
        every letter of every word, which makes this the replay's busiest lookup."""
        return Memo(self._face_value)

    def _face_value(self, label: str) -> int:
        if label in (BLANK, UNKNOWN) or is_blank(label):
            return 0
        info = self.tiles.get(label)
        return info.points if info else 0

    @cached_property
    def accepted(self) -> Memo[frozenset[str]]:
        """By the symbols a tile string may also hold (``allow`` of ``TileCodec.split``):
        labels that are one tile of the set in either case (not the blank), plus those
        symbols. A string made only of these needs no closer look."""
        return Memo(self._accepted)

    def _accepted(self, allow: str) -> frozenset[str]:
        labels = set(allow) - {"[", "]", "|"}
        for label in self.tiles:
            if label != BLANK:
                labels.update(form for form in (label, label.lower()) if form.upper() == label)
        return frozenset(labels)

    @cached_property
    def vowels(self) -> frozenset[str]:
        return frozenset(label for label, info in self.tiles.items() if info.vowel)

    def full_bag(self) -> Counter[str]:
        return Counter(self.counts)

    @cached_property
    def counts(self) -> dict[str, int]:
        """How many of each tile the set has, in the set's order. Read only."""
        return {label: info.count for label, info in self.tiles.items()}

    @cached_property
    def multi_letter_labels(self) -> tuple[str, ...]:
        """Kept: every game's codecs ask it (one or two a game), of the same few sets."""
        return tuple(label for label in self.tiles if len(label) > 1)


class Memo(dict[str, _V]):
    """A function of one string (mostly a tile label) kept as a dict, each value computed
    on first use.

    Replays and turn pages ask the same few dozen labels the same questions hundreds of
    thousands of times; a dict lookup is several times cheaper than the call.
    """

    def __init__(self, compute: Callable[[str], _V]) -> None:
        super().__init__()
        self._compute = compute

    def __missing__(self, key: str) -> _V:
        value = self[key] = self._compute(key)
        return value


def is_blank(label: str) -> bool:
    """A designated blank on the board is written in lower case."""
    return label != label.upper()


def rack_label(label: str) -> str:
    """The label a board tile had on the rack: ``?`` for any blank."""
    return RACK_LABELS[label]


RACK_LABELS: Memo[str] = Memo(lambda label: BLANK if is_blank(label) else label)
"""``rack_label`` as a table."""


def tile_text(labels: Sequence[str]) -> str:
    """Tiles as people read them in a move, a word or a rack: one character a tile, and
    each multi-character tile in brackets (``[CH]E[RR]O``, ``[ch]`` for a blank, Catalan
    ``GORI[L·L]A``), as GCG and CGP write them. Without the brackets a Spanish ``CHERRO``
    could be [CH] E [RR] O or six tiles, and a seven-tile play would look like eight."""
    text = "".join(labels)
    if len(text) == len(labels):
        return text  # one character a tile, as nearly every word and rack is
    return "".join(map(TILE_TEXTS.__getitem__, labels))



def take(tiles: Sequence[str], taken: Iterable[str]) -> tuple[list[str], list[str]]:
    """``tiles`` less ``taken``, as multisets, and the tiles of ``taken`` that ``tiles``
    lacks. Lists, not Counters: a rack is a few tiles, and removing them from a list
    costs a fraction of Counter arithmetic, at every move of every game."""
    left = list(tiles)
    lacking = []
    for tile in taken:
        try:
            left.remove(tile)
        except ValueError:
            lacking.append(tile)
    return left, lacking

TILE_TEXTS: Memo[str] = Memo(lambda label: f"[{label}]" if len(label) > 1 else label)
"""One tile as :func:`tile_text` writes it, by label."""


@cache
def _distribution_rows() -> dict[str, list[dict[str, str]]]:
    text = resources.files("pgm").joinpath("data/letter_distributions.tsv").read_text("utf-8")
    rows: dict[str, list[dict[str, str]]] = {}
    for row in csv.DictReader(text.splitlines(), delimiter="\t"):
        rows.setdefault(row["distribution"], []).append(row)
    return rows


def distribution_names() -> list[str]:
    return sorted(_distribution_rows())


@cache
def get_distribution(name: str) -> Distribution:
    """Look a distribution up by name (case-insensitive), or by its language's own name
    or code (``català``, ``ca``); KeyError if unknown."""
    key = name.lower()
    key = _LANGUAGE_SETS.get(without_accents(key), key)
    rows = _distribution_rows().get(key)
    if rows is None:
        raise KeyError(name)
    tiles: dict[str, TileInfo] = {}
    bracket_only: set[str] = set()
    for row in rows:
        label = row["tile"]
        if label.startswith("[") and label.endswith("]"):
            label = label[1:-1]
            bracket_only.add(label)
        tiles[label] = TileInfo(int(row["count"]), int(row["points"]), row["vowel"] == "1")
    return Distribution(key, tiles, frozenset(bracket_only))


_LANGUAGE_SETS = {
    **dict.fromkeys(("catala", "ca"), "catalan"), "nl": "dutch", "nederlands": "dutch",
    "en": "english", **dict.fromkeys(("francais", "fr"), "french"),
    **dict.fromkeys(("deutsch", "de"), "german"), **dict.fromkeys(("ellinika", "el"), "greek"),
    **dict.fromkeys(("norsk", "no", "nb"), "norwegian"),
    **dict.fromkeys(("polski", "pl"), "polish"), **dict.fromkeys(("russkii", "ru"), "russian"),
    **dict.fromkeys(("slovenscina", "sl"), "slovene"),
    **dict.fromkeys(("espanol", "castellano", "es"), "spanish"),
    **dict.fromkeys(("svenska", "sv"), "swedish"), **dict.fromkeys(("turkce", "tr"), "turkish"),
}
"""Tile sets by their language's own name, without accents, and its code: a director
writes ``distribution: català`` or ``ca`` (as in ``lang: ca``) for the catalan set."""


# Lexicon name prefixes and the distribution they imply (longest prefix first). Of the
# GCG spec's list, OSPD (the Official Scrabble Players Dictionary) and OTCWL (the Official
# Tournament and Club Word List) are North American English; ODS to ODS5 are editions of
# L'Officiel du Scrabble, French as its later editions are.
_LEXICON_PREFIXES = (
    ("america", "english"), ("nswl", "english"), ("ospd", "english"), ("ecwl", "english"),
    ("otcwl", "english"), ("nwl", "english"), ("twl", "english"), ("owl", "english"),
    ("csw", "english"), ("cel", "english"), ("osw", "english"), ("iwi", "english"),
    ("sowpods", "english"),
    ("osps", "polish"), ("nsf", "norwegian"), ("fra", "french"), ("ods", "french"),
    ("deutsch", "german"), ("cgl", "german"), ("rd", "german"), ("disc", "catalan"),
    ("fise", "spanish"), ("file", "spanish"), ("dsw", "dutch"), ("slv", "slovene"),
    ("saol", "swedish"),
)


def distribution_for_lexicon(lexicon: str) -> str | None:
    """The distribution a lexicon name implies, as word-golib guesses it; None if unknown."""
    lowered = lexicon.lower()
    for prefix, name in _LEXICON_PREFIXES:
        if lowered.startswith(prefix):
            return name
    return None


MIDDLE_DOT = "\u00b7"
"""The dot of Catalan ``L·L``."""
_DOTTED_L = {"L\u00b7": "\u013f", "l\u00b7": "\u0140"}
"""``L·`` as one character: Unicode's L with middle dot (Ŀ, ŀ)."""
_DOT_LIKES = frozenset("-\u2022\u2219\u22c5\u2027\u0387\u30fb")
"""Characters typed for a middle dot: hyphen, bullet, bullet operator, dot operator,
hyphenation point, Greek ano teleia, katakana middle dot. (Not ``.``: see ``aliases``.)"""
_ALIAS_PATTERN = re.compile("[\u013f\u0140][Ll]|[Ll][" + re.escape("".join(sorted(_DOT_LIKES)))
                            + "][Ll]")


@dataclass(frozen=True)
class TileCodec:
    """Splits tile strings into labels for one alphabet.

    Longest match left to right without backtracking, as the GCG spec prescribes, over
    the multi-letter tiles declared by ``#tile`` pragmas and those of the distribution;
    ``[..]`` always groups one tile and ``|`` separates tiles when present.
    """

    distribution: Distribution
    declared: tuple[str, ...] = ()
    """Upper-case forms of tiles declared with ``#tile``."""

    @cached_property
    def _greedy(self) -> list[str]:
        labels = set(self.declared)
        labels.update(t for t in self.distribution.multi_letter_labels
                      if t not in self.distribution.bracket_only)
        return sorted(labels, key=len, reverse=True)

    @cached_property
    def plain_symbols(self) -> Memo[frozenset[str]]:
        """By ``allow``: the characters that a :meth:`plain` string is made of (none in a
        set that writes a multi-letter tile without brackets). Fixed for a game, so a
        replay checks its racks against it without a call per rack."""
        accepted = self.distribution.accepted  # not ``self``: no cycle to collect
        if self._greedy:
            return Memo(lambda allow: frozenset())
        return Memo(accepted.__getitem__)

    @cached_property
    def aliases(self) -> dict[str, str]:
        """Other spellings of tiles written with a middle dot, read as the tile: for
        Catalan ``L·L``, ``ĿL`` (Unicode's L with middle dot, U+013F, and an L) and
        ``L-L``, ``L•L`` and the like (:data:`_DOT_LIKES`), and their lower-case forms for
        the blank. None can mean anything else: ``Ŀ`` and those dots are no tiles.
        (``L.L`` can: ``.`` is a played-through tile, see ``pgm.crossword_readings``.)"""
        spellings: dict[str, str] = {}
        for label in self.distribution.multi_letter_labels:
            if MIDDLE_DOT not in label:
                continue
            for form in (label, label.lower()):
                for dot in _DOT_LIKES:
                    spellings[form.replace(MIDDLE_DOT, dot)] = form
                if form[:2] in _DOTTED_L:
                    spellings[_DOTTED_L[form[:2]] + form[2:]] = form
        return spellings

    @cached_property
    def _alias_symbols(self) -> frozenset[str]:
        return _DOT_LIKES | frozenset(_DOTTED_L.values()) if self.aliases else frozenset()

    def aliases_in(self, text: str) -> list[str]:
        """The spellings of :attr:`aliases` that ``text`` holds, in the order written."""
        if not self._alias_symbols or self._alias_symbols.isdisjoint(text):
            return []
        return [spelling for spelling in _ALIAS_PATTERN.findall(text)
                if spelling in self.aliases]

    @cached_property
    def run_ins(self) -> dict[str, str]:
        """Multi-letter tiles that a record may have typed as their letters, by those
        letters in capitals: those of the set written only in brackets and not declared
        with ``#tile`` (Spanish ``CH``, ``LL``, ``RR``), whose letters are tiles too, and
        those whose letters without a middle dot are (Catalan ``LL`` for ``L·L``). In
        Spanish Scrabble a C beside an H is always the CH tile, which the replay takes
        to hold for every tile written only in brackets (Spanish's are the only ones:
        a set added with such tiles must check it); in Catalan LL is also two L tiles
        (``CAVALL``)."""
        tiles = self.distribution.tiles
        found: dict[str, str] = {}
        for label in self.distribution.multi_letter_labels:
            letters = label.replace(MIDDLE_DOT, "")
            if label in self._greedy and letters == label:
                continue
            if len(letters) > 1 and all(letter in tiles for letter in letters):
                found[letters] = label
        return found

    @cached_property
    def certain_run_ins(self) -> frozenset[str]:
        """The letters of :attr:`run_ins` that are never two tiles (Spanish ``CH``)."""
        return frozenset(letters for letters, tile in self.run_ins.items() if letters == tile)

    def joined(self, text: str, tiles: Sequence[str], join: Callable[[str], bool]
               ) -> list[str]:
        """``tiles``, the tiles of ``text`` (a rack's, in capitals), with each two bare
        letters side by side that spell a tile of :attr:`run_ins` read as that tile where
        ``join(letters)`` says so (asked left to right, so it may count)."""
        bare = self.bare(text)
        if bare is None or len(bare) != len(tiles):
            return list(tiles)  # tiles separated by | are separate as written
        run_ins = self.run_ins
        out: list[str] = []
        i = 0
        while i < len(tiles):
            pair = "".join(tiles[i:i + 2])
            if i + 1 < len(tiles) and bare[i] and bare[i + 1] and pair in run_ins \
                    and join(pair):
                out.append(run_ins[pair])
                i += 2
            else:
                out.append(tiles[i])
                i += 1
        return out

    def rack_reading(self, text: str, tiles: Sequence[str], most: int) -> list[str]:
        """A rack of more than ``most`` tiles (``tiles``, written ``text``) with the
        letters of a tile that they always stand for written bare (Spanish ``CH``) read
        as that tile, when it then holds ``most`` or fewer; else ``tiles``. Every rack a
        record writes is read so: a line's, a ``#rackN``'s."""
        if len(tiles) <= most or not self.certain_run_ins:
            return list(tiles)
        joined = self.joined(text, tiles, self.certain_run_ins.__contains__)
        return joined if len(joined) <= most else list(tiles)

    def bare(self, text: str) -> list[bool] | None:
        """For each tile of ``text`` (as :meth:`split` gives them), whether it is written
        as one bare character: not in brackets nor part of a longer tile. None when
        ``|`` separates the tiles, which says where each tile begins and ends."""
        if "|" in text:
            return None
        text = self._unalias(text)
        greedy = self._greedy
        marks: list[bool] = []
        i = 0
        while i < len(text):
            if text[i] == "[":
                end = text.find("]", i)
                i = len(text) if end < 0 else end + 1
                marks.append(False)
                continue
            match = next((t for t in greedy if text[i:i + len(t)].upper() == t), None)
            marks.append(not match or len(match) == 1)
            i += len(match) if match else 1
        return marks

    def _unalias(self, text: str) -> str:
        if not self._alias_symbols or self._alias_symbols.isdisjoint(text):
            return text
        return _ALIAS_PATTERN.sub(lambda m: self.aliases.get(m.group(), m.group()), text)

    def split(self, text: str, *, allow: str = "") -> list[str]:
        """Split ``text`` into tile labels, keeping case; ``allow`` lists extra one-char
        symbols accepted as tiles (``.`` for played-through, ``?`` and ``_`` on racks).
        Another spelling of a tile (:attr:`aliases`) is read as the tile."""
        if self.plain_symbols[allow].issuperset(text):
            return list(text)  # plain (see below), as most are
        text = self._unalias(text)
        if "|" in text:
            parts = [p for p in text.split("|") if p]
            return [self._check(self._unbracket(p), allow) for p in parts]
        greedy = self._greedy
        if not greedy and "[" not in text:
            return [self._check(char, allow) for char in text]
        labels: list[str] = []
        i = 0
        while i < len(text):
            if text[i] == "[":
                end = text.find("]", i)
                if end < 0:
                    raise TileError(f"unclosed '[' in {text!r}")
                labels.append(self._check(text[i + 1:end], allow))
                i = end + 1
                continue
            match = next((t for t in greedy if text[i:i + len(t)].upper() == t), None)
            if match:
                labels.append(text[i:i + len(match)])
                i += len(match)
            else:
                labels.append(self._check(text[i], allow))
                i += 1
        return labels

    def plain(self, text: str, *, allow: str = "") -> bool:
        """Whether ``text`` is one tile per character: only one-letter tiles of the set
        and ``allow`` symbols, in a set where no multi-letter tile is written without
        brackets. Such a string (nearly every one) splits into its characters."""
        return not self._greedy and self.distribution.accepted[allow].issuperset(text)

    @staticmethod
    def _unbracket(part: str) -> str:
        return part[1:-1] if part.startswith("[") and part.endswith("]") else part

    def _check(self, label: str, allow: str) -> str:
        if label in allow:
            return label
        if label.upper() not in self.distribution.tiles or label == BLANK:
            raise TileError(f"{label!r} is not a tile of the {self.distribution.name} set"
                            f"{self._meant(label)}")
        return label

    def _meant(self, label: str) -> str:
        """What a character that is no tile may have been meant for: ``Ŀ`` (an L with
        a middle dot) or a dot like the middle dot, in a set with ``L·L``; a letter that
        is only part of a tile (Catalan ``Q`` of ``QU``)."""
        multi = self.distribution.multi_letter_labels
        dotted = [t for t in multi if MIDDLE_DOT in t]
        if dotted and (label in _DOTTED_L.values() or label in _DOT_LIKES):
            return f" (the {dotted[0]} tile is written {dotted[0]} or [{dotted[0]}])"
        within = [t for t in multi if len(label) == 1 and label.upper() in t]
        if within and label.isalpha():
            return f" ({label.upper()} is only part of the {' and '.join(within)} tile" \
                f"{'s' if len(within) > 1 else ''})"
        return ""

    def write(self, labels: list[str] | tuple[str, ...]) -> str:
        """Join labels into a string that splits back into the same labels."""
        out = []
        for label in labels:
            upper = label.upper()
            needs_brackets = len(label) > 1 and (
                upper in self.distribution.bracket_only or upper not in self._greedy)
            out.append(f"[{label}]" if needs_brackets else label)
        return "".join(out)
