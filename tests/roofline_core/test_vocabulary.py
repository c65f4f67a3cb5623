"""The vocabulary: one reading of numbers and slugs, one error grammar, one set of limits."""

from __future__ import annotations

import datetime as dt
import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roofline_core import vocabulary as v
from roofline_core.hardware import ACCELERATORS
from roofline_core.hardware.dtypes import COMPUTE_DTYPES, STORAGE_DTYPES, WEIGHT_DTYPES
from roofline_core.models import MODELS

NUMBERS = [
    v.BATCH,
    v.DEVICES,
    v.CONTEXT_TOKENS,
    v.PROMPT_TOKENS,
    v.BANDWIDTH_EFFICIENCY,
    v.PARAMS,
    v.PARAMS_BILLION,
    v.PEAK_TFLOP_PER_S,
    v.BANDWIDTH_TB_PER_S,
    v.MEMORY_GB,
    v.INTENSITY,
    v.LAYERS,
    v.KV_HEADS,
    v.HEAD_DIM,
]
CHOICES = [v.ACCELERATOR, v.MODEL, v.WEIGHT_DTYPE, v.KV_DTYPE, v.COMPUTE_DTYPE]


def _problem(declaration, raw) -> str:
    value, invalid = declaration.parse(raw)
    assert value is None and invalid is not None, (raw, value)
    return invalid.problem


# --- Numbers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("64", 64),
        (" 64 ", 64),
        (64, 64),
        (64.0, 64),
        ("1e3", 1000),
        ("1_024", 1024),
        ("1,024", 1024),
        ("32,768", 32_768),
        ("+8", 8),
    ],
)
def test_whole_numbers_read(raw, value):
    parsed, invalid = v.BATCH.parse(raw)
    assert invalid is None
    assert parsed == value and isinstance(parsed, int)


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ("0", "'0' is out of range"),
        ("65537", "'65537' is out of range"),
        ("2.5", "'2.5' is not a whole number"),
        ("1,5", "'1,5' has a decimal comma (use a dot: 1.5)"),
        ("3,35", "'3,35' has a decimal comma (use a dot: 3.35)"),
        ("1,02", "'1,02' has a decimal comma (use a dot: 1.02)"),
        ("1,0000", "'1,0000' has a decimal comma (use a dot: 1.0000)"),
        ("12,34,567", "'12,34,567' is not a number"),
        ("64k", "'64k' has a k suffix, which only token counts take"),
        ("inf", "'inf' is not a number"),
        ("nan", "'nan' is not a number"),
        ("1e309", "'1e309' is not a finite number"),
        ("0x10", "'0x10' is not a number"),
        ("1__0", "'1__0' is not a number"),
        ("", "nothing entered"),
        (None, "nothing entered"),
        (True, "'True' is not a number"),
        ([1], "a list is not a number"),
        (float("nan"), "'nan' is not a number"),
        (float("inf"), "'inf' is not a finite number"),
        (10**400, "'" + "1" + "0" * 36 + "...' is out of range"),
        ("9" * 65, "'" + "9" * 37 + "...' is too long (65 characters)"),
    ],
)
def test_whole_numbers_refuse_with_a_reason(raw, problem):
    assert _problem(v.BATCH, raw) == problem


@pytest.mark.parametrize("raw", ["٣", "٣٢", "３", "３２", "1٣", "१०"])
def test_non_ascii_digits_are_refused_everywhere(raw):
    # float("٣") is 3.0 and float("３２") is 32.0; the vocabulary refuses them all the same way.
    for declaration in NUMBERS:
        value, invalid = declaration.parse(raw)
        assert value is None
        assert invalid.problem == f"{raw!r} has digits other than 0-9"
        assert invalid.expected.endswith(", in the digits 0-9")


def test_decimal_numbers_refuse_every_comma_and_say_to_use_a_dot():
    assert _problem(v.BANDWIDTH_TB_PER_S, "3,35") == "'3,35' has a decimal comma (use a dot: 3.35)"
    # Where a fraction is possible, 1,500 could be 1.5 or 1500: neither is guessed.
    assert _problem(v.MEMORY_GB, "1,500") == "'1,500' has a comma (write 1500 without separators; a dot marks decimals)"
    assert v.BANDWIDTH_TB_PER_S.parse("3.35") == (3.35, None)
    assert v.PARAMS.parse("8e9") == (8e9, None)


def test_token_counts_take_k_everywhere():
    for tokens in (v.CONTEXT_TOKENS, v.PROMPT_TOKENS):
        assert tokens.parse("32k") == (32_768, None)
        assert tokens.parse("32K") == (32_768, None)
        assert tokens.parse("1.5k") == (1536, None)
        assert tokens.parse("2,048") == (2048, None)
        assert _problem(tokens, "0.001k") == "'0.001k' is not a whole number of tokens"
        assert _problem(tokens, "10241k") == "'10241k' is out of range"
        assert tokens.parse("10240k") == (v.MAX_TOKENS, None)
        assert "(32k = 32,768)" in tokens.expected()
        assert tokens.write(32_768) == "32k" and tokens.write(1000) == "1000"
    assert "32k" not in v.BATCH.expected()


def test_percent_fields_take_a_percent_sign_and_hint_at_fractions():
    assert v.BANDWIDTH_EFFICIENCY.parse("75%") == (75.0, None)
    assert v.BANDWIDTH_EFFICIENCY.parse("75") == (75.0, None)
    assert _problem(v.BANDWIDTH_EFFICIENCY, "0.75") == "'0.75' is out of range (did you mean 75%?)"
    assert v.BANDWIDTH_EFFICIENCY.expected() == "a number from 1 to 100%"


def test_exclusive_minimum():
    above_zero = v.Number(id="x", label="X", default=1, minimum=0, maximum=1, min_exclusive=True)
    assert _problem(above_zero, "0") == "'0' is out of range"
    assert above_zero.parse("0.5") == (0.5, None)
    assert above_zero.expected() == "a number greater than 0 and at most 1"


def test_one_error_grammar():
    _, invalid = v.BATCH.parse("0")
    assert str(invalid) == "'0' is out of range; expected a whole number from 1 to 65,536 sequences"
    _, invalid = v.ACCELERATOR.parse("h100")
    assert str(invalid) == "unknown accelerator 'h100' (did you mean h100-sxm?); expected one of " + ", ".join(
        ACCELERATORS
    )


def test_every_number_declares_a_finite_maximum_and_a_documented_range():
    for declaration in NUMBERS:
        assert math.isfinite(declaration.maximum), declaration.id
        assert declaration.expected().startswith(("a number from", "a whole number from")), declaration.id
        if declaration.default is not None:
            assert declaration.parse(declaration.default) == (declaration.default, None), declaration.id
        assert declaration.help.endswith("."), declaration.id


def test_one_set_of_limits():
    assert (v.BATCH.minimum, v.BATCH.maximum) == (1, 65_536)
    assert (v.DEVICES.minimum, v.DEVICES.maximum) == (1, 1024)
    assert (v.CONTEXT_TOKENS.minimum, v.CONTEXT_TOKENS.maximum) == (0, 10 * 1024 * 1024)
    assert (v.PROMPT_TOKENS.minimum, v.PROMPT_TOKENS.maximum) == (1, 10 * 1024 * 1024)
    assert (v.BANDWIDTH_EFFICIENCY.minimum, v.BANDWIDTH_EFFICIENCY.maximum) == (1, 100)
    # Billions and plain counts of parameters accept the same models.
    assert v.PARAMS_BILLION.minimum * 1e9 == v.PARAMS.minimum
    assert v.PARAMS_BILLION.maximum * 1e9 == v.PARAMS.maximum


def test_a_use_may_change_presentation_but_not_limits():
    sixty_four = v.BATCH.variant(default=64, help="Sequences in the batched row.")
    assert (sixty_four.default, sixty_four.maximum) == (64, v.BATCH.maximum)
    assert v.CONTEXT_TOKENS.variant(minimum=1).minimum == 1  # raising a minimum is allowed
    with pytest.raises(TypeError, match="batch: maximum is part of the shared declaration"):
        v.BATCH.variant(maximum=1024)
    with pytest.raises(TypeError, match="prompt_tokens: minimum is part of the shared declaration"):
        v.PROMPT_TOKENS.variant(minimum=0)
    with pytest.raises(TypeError, match="id is part of the shared declaration"):
        v.BATCH.variant(id="batches")


def test_declarations_refuse_impossible_ranges():
    with pytest.raises(ValueError, match="finite limits"):
        v.Number(id="x", label="X", default=0, minimum=0, maximum=math.inf)
    with pytest.raises(ValueError, match="finite limits"):
        v.Number(id="x", label="X", default=0, minimum=2, maximum=1)


# --- Choices ---------------------------------------------------------------------------------


def test_preset_choices_are_the_presets():
    assert v.ACCELERATOR.values() == tuple(ACCELERATORS)
    assert v.MODEL.values() == tuple(MODELS)
    assert v.KV_DTYPE.values() == STORAGE_DTYPES
    assert v.WEIGHT_DTYPE.values() == WEIGHT_DTYPES == (*STORAGE_DTYPES, "mxfp4", "nvfp4", "q4_0", "q4_k", "q8_0")
    assert v.COMPUTE_DTYPE.values() == COMPUTE_DTYPES


@pytest.mark.parametrize(
    ("declaration", "raw", "problem"),
    [
        (v.ACCELERATOR, "h100", "unknown accelerator 'h100' (did you mean h100-sxm?)"),
        (v.ACCELERATOR, "h2000", "unknown accelerator 'h2000' (did you mean h200?)"),
        (v.ACCELERATOR, "H100-SXM", "unknown accelerator 'H100-SXM' (did you mean h100-sxm?)"),
        (v.ACCELERATOR, "quantum", "unknown accelerator 'quantum'"),
        (v.MODEL, "lama-3-8b", "unknown model 'lama-3-8b' (did you mean llama-3-8b?)"),
        (v.WEIGHT_DTYPE, "tf32", "unknown storage format 'tf32' (did you mean fp32?)"),
        (v.KV_DTYPE, "int3", "unknown storage format 'int3' (did you mean int8?)"),
        (v.COMPUTE_DTYPE, "fp64", "unknown number format 'fp64' (did you mean fp4?)"),
        (v.ACCELERATOR, "", "nothing chosen"),
        (v.ACCELERATOR, None, "nothing chosen"),
        (v.ACCELERATOR, 5, "unknown accelerator '5'"),
        (v.ACCELERATOR, "x" * 100, "unknown accelerator '" + "x" * 37 + "...'"),
    ],
)
def test_choices_refuse_with_a_suggestion(declaration, raw, problem):
    assert _problem(declaration, raw) == problem


def test_choices_read_exactly():
    assert v.ACCELERATOR.parse(" h200 ") == ("h200", None)
    assert v.COMPUTE_DTYPE.parse("bf16") == ("bf16", None)


def test_suggestion_prefers_a_prefix_then_a_suffix_then_the_closest_spelling():
    assert v.suggestion("context", ["model", "context_tokens"]) == " (did you mean context_tokens?)"
    assert v.suggestion("efficiency", ["batch", "bandwidth_efficiency"]) == " (did you mean bandwidth_efficiency?)"
    assert v.suggestion("h100", ["h200", "h100-sxm"]) == " (did you mean h100-sxm?)"
    assert v.suggestion("bacth", ["batch", "devices"]) == " (did you mean batch?)"
    assert v.suggestion("zzz", ["batch", "devices"]) == ""
    assert v.suggestion("", ["batch"]) == ""


def test_a_use_may_add_options_but_not_drop_presets():
    custom = v.ACCELERATOR.with_choices([*v.ACCELERATOR.choices, v.Choice("custom", "Custom")])
    assert custom.values()[-1] == "custom" and custom.parse("custom") == ("custom", None)
    with pytest.raises(TypeError, match="not drop or reorder"):
        v.ACCELERATOR.with_choices(v.ACCELERATOR.choices[1:])
    with pytest.raises(ValueError, match="default 'nope' is not one of its choices"):
        v.ACCELERATOR.variant(default="nope")


# --- Lists -----------------------------------------------------------------------------------


def test_lists():
    batches = v.ListOf(v.BATCH)
    contexts = v.ListOf(v.CONTEXT_TOKENS, most=3)
    assert batches.parse("1, 8, 64") == ([1, 8, 64], None)
    assert batches.parse("1,5") == ([1, 5], None)  # in a list a comma separates values
    assert contexts.parse("1k, 4k") == ([1024, 4096], None)
    assert batches.parse([1, "8"]) == ([1, 8], None)
    assert str(batches.parse("1,024")[1]) == (
        "'1,024' is ambiguous: commas separate the values of a list; expected values without thousands separators (1024 or 1k)"
    )
    assert str(batches.parse("1, 2, 2")[1]) == "'1, 2, 2' repeats a value; expected each value once"
    assert str(batches.parse("1,,2")[1]) == "'1,,2' has an empty item; expected values separated by single commas"
    assert str(contexts.parse("1, 2, 3, 4")[1]) == "4 values; expected at most 3"
    assert str(batches.parse("1, 0")[1]).startswith("'0' is out of range; expected a whole number from 1 to 65,536")
    assert batches.write([1, 2, 4, 8, 16, 32, 64]) == "1, 2, 4, ..., 64"
    assert contexts.write([1024, 4096]) == "1k, 4k"
    assert batches.expected().startswith("up to 16 values separated by commas, each a whole number")


# --- Never raises; accepts only what is in range ---------------------------------------------

_typed = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**400), max_value=10**400),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=80),
    st.from_regex(r"[+-]?[0-9_,.]{0,14}([eE][+-]?[0-9]{1,4})?[kK%]?", fullmatch=True),
    st.lists(st.integers(), max_size=3),
)


@settings(max_examples=400, deadline=None)
@given(raw=_typed, declaration=st.sampled_from(NUMBERS))
def test_parse_never_raises_and_accepts_only_finite_values_in_range(raw, declaration):
    value, invalid = declaration.parse(raw)
    if invalid is None:
        assert isinstance(value, int if declaration.integer else float)
        assert math.isfinite(value)
        assert declaration.minimum <= value <= declaration.maximum
        if declaration.min_exclusive:
            assert value > declaration.minimum
    else:
        assert value is None
        assert invalid.problem and invalid.expected.startswith(declaration.expected())


@settings(max_examples=200, deadline=None)
@given(raw=_typed, declaration=st.sampled_from(CHOICES))
def test_choice_parse_never_raises_and_accepts_only_its_slugs(raw, declaration):
    value, invalid = declaration.parse(raw)
    assert (value in declaration.values()) if invalid is None else value is None


@settings(max_examples=200, deadline=None)
@given(raw=_typed, item=st.sampled_from([v.BATCH, v.CONTEXT_TOKENS, v.ACCELERATOR]))
def test_list_parse_never_raises(raw, item):
    values, invalid = v.ListOf(item, most=4).parse(raw)
    if invalid is None:
        assert 1 <= len(values) <= 4
        for value in values:
            assert item.parse(value) == (value, None)


# --- Text, dates, slugs, addresses, records --------------------------------------------------

NAME = v.Text(
    id="name",
    label="Name",
    default=None,
    most_chars=12,
    rules=(v.Rule(re.compile("<"), "holds a tag", "plain text"),),
)


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        (None, "nothing entered"),
        ("   ", "nothing entered"),
        (["a"], "a list is not text"),
        ({"a": 1}, "a mapping is not text"),
        (3, "a number is not text"),
        (True, "true or false is not text"),
        ("Thirteen char", "'Thirteen char' is 13 characters long"),
        ("a <b> c", "'a <b> c' holds a tag"),
    ],
)
def test_text_refusals(raw, problem):
    assert _problem(NAME, raw) == problem


def test_text_joins_spaces_and_counts_after_joining():
    assert NAME.parse("  twelve \n  chars ") == ("twelve chars", None)
    assert NAME.expected() == "text of at most 12 characters"


def test_a_rule_may_require_a_pattern():
    sentence = v.Text(
        id="s",
        label="S",
        default=None,
        rules=(v.Rule(re.compile(r"\.\Z"), "does not end with a full stop", "a sentence", must_match=True),),
    )
    assert sentence.parse("Done.") == ("Done.", None)
    assert str(sentence.parse("Not done")[1]) == "'Not done' does not end with a full stop; expected a sentence"


ADDED = v.Date(id="added", label="Added", default=None)


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("2026-01-31", dt.date(2026, 1, 31)),
        (dt.date(2026, 1, 31), dt.date(2026, 1, 31)),
        (dt.datetime(2026, 1, 31, 9), dt.date(2026, 1, 31)),
    ],
)
def test_dates_read(raw, value):
    assert ADDED.parse(raw) == (value, None)


@pytest.mark.parametrize("raw", ["2026-02-30", "20260131", "31/01/2026", "last week", "2026-1-31", 20260131])
def test_dates_refused(raw):
    assert _problem(ADDED, raw).endswith("is not a date")


TERM = v.Slug(id="term", label="Term", default=None, reserved=frozenset({"index"}))


def test_slugs():
    assert TERM.parse(" kv-cache ") == ("kv-cache", None)
    assert str(TERM.parse("KV cache")[1]) == (
        "'KV cache' is not a slug; expected lowercase letters, digits and single hyphens, e.g. 'kv-cache'"
    )
    assert _problem(TERM, "kv--cache") == "'kv--cache' is not a slug"
    assert _problem(TERM, "index") == "'index' is reserved"
    assert _problem(TERM, "a" * (v.MAX_SLUG_CHARS + 1)).endswith(f"is too long ({v.MAX_SLUG_CHARS + 1} characters)")
    assert v.slugify("Peak FLOP/s") == "peak-flop-s"


ADDRESS = v.Url(id="url", label="Address", default=None)


@pytest.mark.parametrize(
    "raw",
    [
        "http://example.org/a",
        "javascript:alert(1)",
        "https://example.org/a b",
        'https://example.org/a"b',
        "https://example.org/a)b",
        "https://localhost/a",
        "//example.org/a",
    ],
)
def test_addresses_refused(raw):
    assert _problem(ADDRESS, raw).endswith("is not an https address")


def test_addresses_read_and_are_bounded():
    assert ADDRESS.parse(" https://arxiv.org/abs/2309.06180 ") == ("https://arxiv.org/abs/2309.06180", None)
    too_long = "https://example.org/" + "a" * v.MAX_URL_CHARS
    assert "is too long" in _problem(ADDRESS, too_long)


SOURCE = v.Record(
    id="sources",
    label="Source",
    default=None,
    required=frozenset({"title", "url"}),
    fields=(
        v.Text(id="title", label="Title", default=None, help="The document's name."),
        ADDRESS,
        v.Text(id="note", label="Note", default=""),
    ),
)


def test_a_record_reads_its_fields_and_fills_defaults():
    assert SOURCE.check({"title": "  A   paper ", "url": "https://example.org/p"}) == (
        {"title": "A paper", "url": "https://example.org/p", "note": ""},
        [],
    )
    assert SOURCE.expected() == "a mapping with title, url and optionally note"


def test_a_record_reports_every_problem_located():
    values, problems = SOURCE.check({"titel": "A", "url": "ftp://x", "note": ["n"]})
    assert [(p.at, str(p)) for p in problems] == [
        (("titel",), "not a known key (did you mean title?); expected one of title, url, note"),
        (("title",), "missing; expected title: The document's name."),
        (("url",), "'ftp://x' is not an https address; expected " + ADDRESS.expected()),
        (("note",), "a list is not text; expected text of at most 64 characters"),
    ]
    assert values == {}
    assert SOURCE.parse("a source")[1].problem == "text is not a mapping"


def test_a_blank_required_field_is_reported_and_a_blank_optional_one_takes_its_default():
    values, problems = SOURCE.check({"title": " ", "url": "https://example.org/p", "note": None})
    assert [(p.at, p.problem) for p in problems] == [(("title",), "nothing entered")]
    assert values == {"url": "https://example.org/p", "note": ""}


def test_a_record_must_declare_distinct_fields_including_every_required_one():
    with pytest.raises(ValueError):
        v.Record(id="r", label="R", default=None, fields=(ADDRESS, ADDRESS))
    with pytest.raises(ValueError):
        v.Record(id="r", label="R", default=None, fields=(ADDRESS,), required=frozenset({"title"}))


def test_a_list_of_records_locates_each_problem_by_index():
    sources = v.ListOf(SOURCE, most=2, split_text=False, unique=False)
    _, problems = sources.check([{"title": "A", "url": "https://example.org/a"}, {"title": "B", "url": "x"}])
    assert [(p.at, p.where()) for p in problems] == [((1, "url"), "item 2, 'url'")]
    assert sources.parse("a, b")[1].problem == "text is not a list"
    assert sources.parse([{}, {}, {}])[1].problem == "3 values"


def test_a_structured_list_refuses_repeats():
    names = v.ListOf(NAME, split_text=False)
    _, problems = names.check(["A", "B", " A "])
    assert [(p.at, str(p)) for p in problems] == [((2,), "'A' is given twice; expected each value once")]
