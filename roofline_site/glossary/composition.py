"""Prose that says what a number is made of, checked against the number's parts.

A sentence such as "on two GPUs a step takes {{ ... }}, communication left out" makes a claim
about what the figure contains. :mod:`roofline_core.quantities` knows what it contains: every
time-like :class:`~roofline_core.quantities.Value` carries ``parts``, ``(label, seconds)`` pairs
from one vocabulary (:mod:`roofline_core.estimates.parts`). This module holds the small,
declared set of English phrases that make such claims and refuses a phrase whose figure's parts
contradict it, each with the file line of the figure:

* a part **left out** ("communication left out", "without the all-reduces", "before
  communication", "ignoring attention"): those parts must be zero;
* a part **included** ("including communication", "with its all-reduces", "plus the KV cache"):
  at least one of those parts must be non-zero;
* **only** the weights ("weights only", "only the weight reads", "counting only the weight
  matrix products"): reading the weights and their matrix products (with those products' own
  activations, and the ``efficiency`` part: the same bytes at a sustained rather than peak
  bandwidth) may be in the figure; no KV cache, attention, communication or other part may;
* a **bound** ("at least", "at most", "no more than", "up to"): a modelled time is a floor (the
  real step is no faster) and a modelled rate or utilisation a ceiling, so "no more than" before
  a time, or "at least" before a rate, says the opposite of what the number is.

Which figure a phrase is about ("nearby"), precisely:

* a part phrase (left out, included, only) is about every checked figure in its own sentence;
* a part phrase in a sentence with no checked figure sets up a scenario: it is about the checked
  figures of the next sentence or, when its sentence ends its paragraph with a colon, of the
  block that follows (the table or list it introduces);
* a bound phrase is about the first figure that follows it in its sentence, with at most three
  words between ("at least {{ ... }}", "no more than batch 1 ({{ ... }})").

A checked figure is a quantity whose ``Value.parts`` is not empty (a time), or a rate,
intensity, bound or utilisation of the same step, whose parts are its step time's. A figure that
quotes one part (``part=weights``) has that one part. Sentences end at ``.``, ``!`` or ``?``
followed by a space and a capital letter, a bracket or a quotation mark.

docs/authoring-terms.md ("What a number includes") explains the rules to contributors.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from roofline_core.estimates import parts as vocabulary
from roofline_core.formatting import format_time
from roofline_core.quantities import TIMES, QuantityError, Value, evaluate_reference, parse_reference
from roofline_site.glossary.errors import Problem
from roofline_site.glossary.markup import QuantityRef, find_quantities

# What a phrase can name, the part labels each name stands for, and the words that say it is
# left out or included beyond the common ones below. "Before" and "with" read naturally only
# with some names ("before communication", "with the KV cache"; "before attention" is a place
# in a layer, not a part left out).
_TOPICS: tuple[tuple[str, str, tuple[str, ...], str, str], ...] = (
    (
        "communication",
        r"(?:the |its |their |any )?(?:inter-device )?(?:communication|all-reduces?|all-to-alls?|collectives"
        r"|transfers between (?:the )?(?:devices|GPUs))",
        vocabulary.COMMUNICATION_LABELS,
        "before",
        "with",
    ),
    (
        "attention",
        r"(?:the |its )?attention(?:'s own FLOPs|'s FLOPs| arithmetic| FLOPs| maths?)?",
        (vocabulary.ATTENTION,),
        "",
        "",
    ),
    (
        "the KV cache",
        r"(?:the |its |their )?(?:KV[ -]cache|cache)(?: reads| traffic)?",
        (vocabulary.KV_CACHE,),
        "",
        "with",
    ),
    ("the pipeline's idle time", r"(?:the )?(?:pipeline )?(?:bubble|idle stages)", (vocabulary.PIPELINE_IDLE,), "", ""),
    ("the draft's steps", r"(?:the )?draft(?:'s)? steps", (vocabulary.DRAFT_STEPS,), "", ""),
)
_LEFT_OUT_BEFORE = r"left out|leaves? out|leaving out|without|ignor(?:es|ing)|exclud(?:es|ing)|not counting"
_LEFT_OUT_AFTER = r"(?:is |are )?(?:left out|ignored|excluded|not counted|aside)"
_INCLUDED_BEFORE = r"includ(?:e|es|ing)|plus|counting|adds?"
_INCLUDED_AFTER = r"(?:is |are )?(?:included|counted)"
# Parts that go with the bytes they slow: "weights only" at 80% of peak bandwidth is still
# the weight reads alone.
_WITH_THE_BYTES = (vocabulary.EFFICIENCY,)
# "Weights only" and its kin say the step moves the weights and does their matrix products:
# no KV cache, no attention arithmetic, no communication. The matmuls' own activations go with
# them.
_ONLY: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "the weights",
        r"(?:counting |counts )?only the weight (?:matrix products|matmuls|multiplications|reads)"
        r"|the weight (?:matrix products|matmuls|multiplications) (?:alone|only)"
        r"|weights? only|weight reads only|only the weights|(?:the )?weight reads (?:alone|bound)"
        r"|count(?:s|ing)? (?:the )?weight reads only",
        (vocabulary.WEIGHTS, vocabulary.ACTIVATIONS, vocabulary.COMPUTE),
    ),
)
# A modelled time is a floor; a modelled rate, utilisation or attainable FLOP/s a ceiling.
_FLOOR, _CEILING = "floor", "ceiling"
_BOUNDS: tuple[tuple[str, str], ...] = (
    (r"at least|no less than|not less than|no fewer than|a minimum of|a floor of", _FLOOR),
    (r"at most|no more than|not more than|up to|a maximum of|a ceiling of", _CEILING),
)
_DIRECTION: dict[str, str] = {
    # A time is a floor; a rate that inverts one is a ceiling.
    **{name: _FLOOR if time == name else _CEILING for name, time in TIMES.items()},
    "decode_utilisation": _CEILING,
    "prefill_utilisation": _CEILING,
    "attainable_flop_per_s": _CEILING,
}
# Figures of a step that carry no parts themselves (a rate carries its time's) are about the
# same scenario as the step's time, so they have its parts.
_STEP_TIME: dict[str, str] = {
    "decode_intensity": "decode_step_time",
    "decode_bound": "decode_step_time",
    "decode_utilisation": "decode_step_time",
    "prefill_intensity": "prefill_time",
    "prefill_bound": "prefill_time",
    "prefill_utilisation": "prefill_time",
}
_BOUND_WORDS_BETWEEN = 3
# Quoted words are the source's, not the entry's (as for hand-typed figures).
_QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"|«[^»]*»")
# Where a sentence ends in rendered prose (the text of one block, code removed).
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[“\"'])")
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*|\d+(?:[.,]\d+)*", re.UNICODE)
_EXPECTED = (
    "expected wording its parts bear out: change or drop the phrase, or quote the part meant with part=<label>"
    " (docs/authoring-terms.md, 'What a number includes')"
)


@dataclass(frozen=True)
class Claim:
    """What one phrase says about the parts of the figures it is about.

    Attributes:
        phrase: The words as found in the prose.
        kind: ``"left out"``, ``"included"``, ``"only"`` or ``"bound"``.
        topic: What the phrase names, in words (``"communication"``).
        labels: The part labels it names; for ``"only"``, the labels allowed.
        direction: For a bound, ``"floor"`` or ``"ceiling"``.
        start: Offset of the phrase in its sentence.
        end: Offset just past it.
    """

    phrase: str
    kind: str
    topic: str
    labels: tuple[str, ...]
    direction: str = ""
    start: int = 0
    end: int = 0


def _alternatives(*patterns: str) -> str:
    return "|".join(f"(?:{p})" for p in patterns)


@lru_cache(maxsize=1)
def _part_patterns() -> tuple[tuple[re.Pattern[str], str, str, tuple[str, ...]], ...]:
    patterns = []
    for topic, words, labels, also_left_out, also_included in _TOPICS:
        before = _alternatives(_LEFT_OUT_BEFORE, *filter(None, [also_left_out]))
        adding = _alternatives(_INCLUDED_BEFORE, *filter(None, [also_included]))
        left_out = _alternatives(rf"\b(?:{before})\s+(?:{words})\b", rf"\b(?:{words})\s+{_LEFT_OUT_AFTER}\b")
        included = _alternatives(rf"\b(?:{adding})\s+(?:{words})\b", rf"\b(?:{words})\s+{_INCLUDED_AFTER}\b")
        patterns.append((re.compile(left_out, re.IGNORECASE), "left out", topic, labels))
        patterns.append((re.compile(included, re.IGNORECASE), "included", topic, labels))
    for topic, words, labels in _ONLY:
        patterns.append((re.compile(rf"\b(?:{words})\b", re.IGNORECASE), "only", topic, labels))
    return tuple(patterns)


def claims_in(sentence: str) -> list[Claim]:
    """The composition phrases in one sentence, in order; a phrase inside a longer one (the
    "without" of "without communication" and of "weights only, without the cache") is found once.
    Words between quotation marks are left alone."""
    sentence = _QUOTED.sub(lambda m: " " * len(m.group(0)), sentence)
    found: list[Claim] = []
    for pattern, kind, topic, labels in _part_patterns():
        for match in pattern.finditer(sentence):
            found.append(Claim(match.group(0), kind, topic, labels, start=match.start(), end=match.end()))
    for words, direction in _BOUNDS:
        for match in re.finditer(rf"\b(?:{words})\b", sentence, re.IGNORECASE):
            found.append(Claim(match.group(0), "bound", direction, (), direction, match.start(), match.end()))
    found.sort(key=lambda c: (c.start, -c.end))
    kept: list[Claim] = []
    for claim in found:
        if not any(k.start <= claim.start and claim.end <= k.end and k.kind == claim.kind for k in kept):
            kept.append(claim)
    return kept


def sentences(text: str) -> list[str]:
    """``text`` (one block of rendered prose) cut into sentences."""
    return [s for s in _SENTENCE_END.split(text) if s.strip()]


# Figures and their parts ---------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """A ``{{ ... }}`` reference, where it is, and the parts of the time it is (or belongs to)."""

    ref: QuantityRef
    name: str
    parts: tuple[tuple[str, float], ...]

    @property
    def total_s(self) -> float:
        return sum(seconds for _, seconds in self.parts)

    def shown(self) -> str:
        return f"{{{{ {self.ref.reference} }}}}"


def figure_of(ref: QuantityRef) -> Figure | None:
    """The figure ``ref`` names, with its parts; None if it has none (a byte count, a chip's
    peak) or does not evaluate (the rewrite reports that)."""
    try:
        name, arguments = parse_reference(ref.reference)
        step = _STEP_TIME.get(name)
        reference = ref.reference if step is None else " ".join([step, *(f"{k}={v}" for k, v in arguments.items())])
        value: Value = evaluate_reference(reference)
    except QuantityError:
        return None
    parts = tuple((label, seconds) for label, seconds in value.parts)
    if not parts:
        return None
    return Figure(ref, name, parts)


# The check -----------------------------------------------------------------------------------


def find_composition_problems(
    runs: Sequence, refs: Sequence[QuantityRef], *, path: str, marker: re.Pattern[str]
) -> list[Problem]:
    """Phrases whose figures' parts (or kind) contradict them.

    Args:
        runs: The body's rendered prose, one run per block, each with ``text`` and ``group``
            (the top-level block it belongs to); each reference stood in for by a marker.
        refs: The body's references, in order: the marker's number indexes them.
        path: The file, as a contributor names it.
        marker: Finds a stand-in; its group 1 decodes to the reference's index with
            :func:`marker_index`.
    """
    problems: list[Problem] = []
    figures: dict[int, Figure | None] = {}

    def figures_in(text: str) -> list[tuple[int, Figure]]:
        out = []
        for match in marker.finditer(text):
            index = marker_index(match.group(1))
            if index not in figures:
                figures[index] = figure_of(refs[index]) if index < len(refs) else None
            if figures[index] is not None:
                out.append((match.start(), figures[index]))
        return out

    # Phrases of a sentence with no checked figure: (claims, group) for the next sentence, and
    # for every sentence of the block after a colon.
    next_sentence: tuple[list[Claim], int] = ([], -1)
    next_block: tuple[list[Claim], int] = ([], -1)
    for run in runs:
        split = sentences(run.text)
        for number, sentence in enumerate(split):
            carried = [
                *(next_block[0] if next_block[1] == run.group else []),
                *(next_sentence[0] if next_sentence[1] == run.group else []),
            ]
            next_sentence = ([], -1)
            claims = claims_in(sentence)
            located = figures_in(sentence)
            part_claims = [c for c in claims if c.kind != "bound"]
            for claim in [*carried, *part_claims]:
                for _, figure in located:
                    problems += _check_parts(claim, figure, path)
            for claim in claims:
                if claim.kind == "bound":
                    problems += _check_bound(claim, sentence, located, path)
            if part_claims and not located:
                # A scenario set up before its numbers.
                if number == len(split) - 1 and sentence.rstrip().endswith(":"):
                    next_block = (part_claims, run.group + 1)
                else:
                    next_sentence = (part_claims, run.group)
    return sorted(set(problems))


def _describe(parts: Iterable[tuple[str, float]]) -> str:
    return " and ".join(f"{format_time(seconds)} {vocabulary.part_text(label)}" for label, seconds in parts)


def _check_parts(claim: Claim, figure: Figure, path: str) -> list[Problem]:
    nonzero = [(label, s) for label, s in figure.parts if s > 0]
    total = format_time(figure.total_s)
    if claim.kind == "left out":
        there = [(label, s) for label, s in nonzero if label in claim.labels]
        if there:
            return [
                Problem(
                    path,
                    figure.ref.line,
                    f"'{claim.phrase}' says {figure.shown()} leaves out {claim.topic}, but {_describe(there)}"
                    f" of its {total} is {claim.topic}",
                    _EXPECTED,
                )
            ]
    elif claim.kind == "included":
        if not any(label in claim.labels for label, _ in nonzero):
            return [
                Problem(
                    path,
                    figure.ref.line,
                    f"'{claim.phrase}' says {figure.shown()} includes {claim.topic}, but none of its {total} is"
                    f" {claim.topic}",
                    _EXPECTED,
                )
            ]
    elif claim.kind == "only":
        others = [(label, s) for label, s in nonzero if label not in (*claim.labels, *_WITH_THE_BYTES)]
        if others:
            return [
                Problem(
                    path,
                    figure.ref.line,
                    f"'{claim.phrase}' says {figure.shown()} is {claim.topic} alone, but {_describe(others)}"
                    f" of its {total} is something else",
                    _EXPECTED,
                )
            ]
    return []


def _check_bound(claim: Claim, sentence: str, located: list[tuple[int, Figure]], path: str) -> list[Problem]:
    after = [(at, figure) for at, figure in located if at >= claim.end]
    if not after:
        return []
    at, figure = after[0]
    if len(_WORD.findall(sentence[claim.end : at])) > _BOUND_WORDS_BETWEEN:
        return []
    direction = _DIRECTION.get(figure.name)
    if direction is None or direction == claim.direction:
        return []
    if direction == _FLOOR:
        what = f"'{claim.phrase}' makes {figure.shown()} a ceiling, but a modelled time is a floor: the real one is no shorter"
        expected = "expected 'at least' (or no bound word) before a time, or a comparison of two figures that holds"
    else:
        what = f"'{claim.phrase}' makes {figure.shown()} a floor, but a modelled rate is a ceiling: the real one is no higher"
        expected = "expected 'at most' (or no bound word) before a rate, or a comparison of two figures that holds"
    return [Problem(path, figure.ref.line, what, expected)]


# Markers standing in for references in rendered text -----------------------------------------

#: Stands in for reference number n in text to be rendered: letters only, so no figure check
#: sees a digit in it, and no Markdown syntax.
MARKER = re.compile(r"QUANTITY([A-Z]+)Q")


def marker(index: int) -> str:
    """The stand-in for reference ``index``: ``QUANTITYAQ``, ``QUANTITYBQ`` ... ``QUANTITYBAQ``."""
    digits = ""
    while True:
        index, rest = divmod(index, 26)
        digits = chr(ord("A") + rest) + digits
        if index == 0:
            return f"QUANTITY{digits}Q"


def marker_index(letters: str) -> int:
    """The reference number a marker's letters stand for (inverse of :func:`marker`)."""
    index = 0
    for letter in letters:
        index = index * 26 + ord(letter) - ord("A")
    return index


def standing_in(body: str, first_line: int = 1) -> tuple[str, list[QuantityRef]]:
    """``body`` with each reference replaced by its marker, and the references in order."""
    refs = find_quantities(body, first_line)
    text = body
    for index, ref in reversed(list(enumerate(refs))):
        text = text[: ref.start] + marker(index) + text[ref.end :]
    return text, refs
