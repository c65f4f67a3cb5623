"""What an entry's body says: scenarios that fit, no hand-typed figures, no raw syntax, no
placeholders or build-made headings. One test per message, each with its file line."""

from __future__ import annotations

import pytest

from roofline_site.glossary.__main__ import main
from roofline_site.glossary.prose_checks import find_prose_problems, literal_figures
from roofline_site.glossary.validator import read_entry
from tests.roofline_site.glossary.helpers import entry_text, write_glossary
from tests.roofline_site.glossary.test_validator import line_of, only_problem, problems

UNFIT = "{{ decode_step_time model=llama-3-70b accelerator=h100-sxm }}"


def body_problems(body: str) -> list[str]:
    return problems(entry_text(body))


# Scenarios that cannot run ---------------------------------------------------------------


def test_a_scenario_that_does_not_fit_its_devices_stops_with_its_line():
    text = entry_text(f"Intro.\n\nA step takes {UNFIT} on one card.\n")
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, 'A step takes')}: {UNFIT} needs 141 GB of weights and 0 B of KV"
        " cache, more than the 85.9 GB its devices hold once 8.96 GB is kept for the serving runtime; expected a"
        " scenario that fits (more devices=, a smaller"
        " model, weight_dtype=fp8, a shorter context or batch), or hypothetical=yes in a sentence that calls the"
        " figure hypothetical"
    )


@pytest.mark.parametrize(
    "reference",
    [
        "decode_step_time model=llama-3-70b accelerator=h100-sxm devices=2",
        "decode_step_time model=llama-3-70b accelerator=h100-sxm weight_dtype=fp8",
        "decode_step_time model=llama-3-8b accelerator=h100-sxm batch=16 context_tokens=8k",
        "prefill_time params=8e9 accelerator=h100-sxm prompt_tokens=2048",
        # No memory scenario: a property of the chip, or one operation's arithmetic.
        "ridge_point accelerator=h100-sxm",
        "operation operation=decode-gemm-batched model=llama-3-70b accelerator=h100-sxm",
    ],
)
def test_scenarios_that_fit_and_quantities_without_one_pass(reference):
    assert body_problems(f"It takes {{{{ {reference} }}}}.\n") == []


def test_the_kv_cache_at_the_stated_context_counts():
    # Llama 3 8B fits one H100 with an empty cache, not with 64 sequences of 32k tokens.
    reference = "decode_step_time model=llama-3-8b accelerator=h100-sxm batch=64 context_tokens=32k"
    (found,) = body_problems(f"It takes {{{{ {reference} }}}}.\n")
    assert "needs 16.1 GB of weights and 275 GB of KV cache, more than the 85.9 GB its devices hold" in found
    # An engine keeps part of the memory for itself, so the reserve is named.
    assert "once 8.81 GB is kept for the serving runtime" in found


def test_prefill_counts_the_cache_its_prompts_leave():
    reference = "prefill_time model=llama-3-8b accelerator=h100-sxm prompt_tokens=32k batch=64"
    (found,) = body_problems(f"It takes {{{{ {reference} }}}}.\n")
    assert "275 GB of KV cache" in found


def test_hypothetical_marker_with_a_sentence_that_says_so_passes():
    reference = UNFIT.replace(" }}", " hypothetical=yes }}")
    assert body_problems(f"As a hypothetical bound (it does not fit), a step takes {reference}.\n") == []


def test_hypothetical_marker_needs_the_paragraph_to_say_so():
    reference = UNFIT.replace(" }}", " hypothetical=yes }}")
    text = entry_text(f"Intro.\n\nA step takes\n{reference}.\n\nA hypothetical elsewhere does not count.\n")
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, reference)}: {reference} is marked hypothetical=yes but its"
        " paragraph does not say so; expected the word 'hypothetical' in the paragraph, so a reader knows the"
        " devices cannot run this scenario"
    )


def test_hypothetical_marker_on_a_scenario_that_fits_is_refused():
    reference = "{{ decode_step_time model=llama-3-8b accelerator=h100-sxm hypothetical=yes }}"
    text = entry_text(f"A hypothetical step takes {reference}.\n")
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, 'A hypothetical')}: {reference} is marked hypothetical=yes but"
        " fits its devices' memory (16.1 GB of 85.9 GB); expected hypothetical=yes only on a scenario the devices"
        " cannot hold"
    )


# Literal figures -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("prose", "figure"),
    [
        ("The card holds 80 GB.", "80 GB"),
        ("The card holds 80GB.", "80 GB"),
        ("It reads 3.35 TB/s.", "3.35 TB/s"),
        ("It reads 900 GB/s.", "900 GB/s"),
        ("A step takes 4.78 ms.", "4.78 ms"),
        ("A launch costs 5 µs.", "5 µs"),
        ("A launch costs 5 μs.", "5 μs"),
        ("It decodes 209 tok/s.", "209 tok/s"),
        ("It decodes 1,000 tokens/s.", "1,000 tokens/s"),
        ("The peak is 989 TFLOP/s.", "989 TFLOP/s"),
        ("The peak is 1,979 TFLOPS.", "1,979 TFLOPS"),
        ("INT8 reaches 3,958 TOPS.", "3,958 TOPS"),
        ("Decode sits at 1 FLOP/byte.", "1 FLOP/byte"),
        ("A tensor of 16 GiB.", "16 GiB"),
        ("The board draws 700 W.", "700 W"),
        ("Weights are **16 GB** here.", "16 GB"),
        ("See [the 80 GB card](https://example.org/card).", "80 GB"),
        ("- a list item with 80 GB", "80 GB"),
        ("| a | b |\n|---|---|\n| cell | 80 GB |", "80 GB"),
        ("## The 80 GB card", "80 GB"),
        ("!!! note\n    An admonition says 80 GB.", "80 GB"),
    ],
)
def test_a_hand_typed_figure_in_prose_is_refused_at_its_line(prose, figure):
    text = entry_text(f"Intro.\n\n{prose}\n")
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, prose.splitlines()[-1])}: '{figure}' is a performance figure"
        " typed by hand; expected a {{ ... }} quantity (docs/authoring-terms.md lists them), so a corrected preset"
        " corrects every page; quote a source's own figure between quotation marks"
    )


@pytest.mark.parametrize(
    "prose",
    [
        "In code, `80 GB` is shown as written.",
        "```text\n80 GB of weights\n```",
        "    an indented code block: 80 GB",
        "> The datasheet: 3.35 TB/s of bandwidth.",
        "The sheet states “3.35 TB/s” for the SXM part.",
        'The sheet states "3.35 TB/s" for the SXM part.',
        "Published in 2024, for 8 GPUs and 32k tokens, at 2 bytes per parameter, FP8 and H100s.",
        "The weights take {{ weight_bytes model=llama-3-8b }} and a step {{ decode_step_time params=8e9 accelerator=h100-sxm }}.",
        "A 70B model, a 4,096-token context, 16-bit numbers and a 2x speed-up.",
    ],
)
def test_code_quotations_counts_and_quantities_are_not_figures(prose):
    assert body_problems(f"Intro.\n\n{prose}\n") == []


def test_front_matter_is_not_prose():
    text = entry_text(
        "Defined here.\n",
        sources=[{"title": "H100 datasheet: 3.35 TB/s", "url": "https://example.org/h100", "note": "80 GB of HBM3"}],
    )
    assert problems(text) == []


def test_the_unit_pattern_reads_one_run_of_prose():
    assert [m.group(0) for m in literal_figures("from 70 GB to 80 GB, “not 90 GB”")] == ["70 GB", "80 GB"]


def test_each_figure_is_located_at_its_own_line():
    body = "Intro.\n\nFirst 80 GB.\n\nThen `80 GB` in code,\nand 80 GB again.\n"
    found = find_prose_problems(body, path="glossary/x.md", first_line=10)
    assert [p.line for p in found] == [12, 15]


# Syntax that would be published as raw text ------------------------------------------------


@pytest.mark.parametrize(
    ("prose", "what", "expected"),
    [
        (
            "See [[kv-cache] for more.",
            "'[[' of a term link without its closing pair would be published as raw text",
            "expected [[slug]] or [[slug|text]], two brackets on each side",
        ),
        (
            "See [kv-cache]] for more.",
            "']]' of a term link without its opening pair would be published as raw text",
            "expected [[slug]] or [[slug|text]], two brackets on each side",
        ),
        (
            "It is {{ ridge_point accelerator=h100-sxm } here.",
            "'{{' of a quantity without its closing pair would be published as raw text",
            "expected {{ name key=value ... }}, two braces on each side",
        ),
        (
            "It is { ridge_point accelerator=h100-sxm }} here.",
            "'}}' of a quantity without its opening pair would be published as raw text",
            "expected {{ name key=value ... }}, two braces on each side",
        ),
    ],
)
def test_syntax_missing_a_bracket_or_brace_is_refused(prose, what, expected):
    text = entry_text(f"Intro.\n\n{prose}\n")
    assert only_problem(text) == f"glossary/example-term.md:{line_of(text, prose)}: {what}; {expected}"


def test_the_end_of_a_cdata_section_is_not_a_term_link():
    assert body_problems("Text <![CDATA[ x ]]> end.\n") == []
    assert body_problems("Text x]]> and y]] end.\n") != []


def test_half_syntax_in_code_is_shown_as_written():
    assert body_problems("Write `[[kv-cache]` or `{{ x }` to see the error.\n") == []


# Headings the build adds ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("markdown_heading", "name"),
    [
        ("## Related terms", "Related terms"),
        ("### related Terms", "Related terms"),
        ("Related terms\n-------------", "Related terms"),
        ("## Sources", "Sources"),
        ("## Mentioned in", "Mentioned in"),
    ],
)
def test_a_hand_written_section_heading_is_refused(markdown_heading, name):
    text = entry_text(f"Intro.\n\n{markdown_heading}\n\n- [[other]]\n")
    entry, found = read_entry(text, slug="example-term", path="glossary/example-term.md")
    assert [str(p) for p in found] == [
        f"glossary/example-term.md:{line_of(text, markdown_heading.splitlines()[0])}: hand-written '{name}' heading;"
        " expected no such heading: the build adds the Related terms, Sources and Mentioned in sections from the"
        " front matter and the links"
    ]


def test_other_headings_are_fine():
    assert body_problems("Intro.\n\n## Why it matters\n\nBecause.\n\n## Related work\n\nNone.\n") == []


# The command line ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("A step takes {{ decode_step_time model=llama-3-70b accelerator=h100-sxm }}.\n", UNFIT + " needs 141 GB"),
        ("The card holds 80 GB.\n", "'80 GB' is a performance figure typed by hand"),
        ("See [[other] first.\n", "'[[' of a term link without its closing pair"),
        ("It is {{ ridge_point accelerator=h100-sxm }.\n", "'{{' of a quantity without its closing pair"),
        ("Intro.\n\n## Related terms\n", "hand-written 'Related terms' heading"),
    ],
)
def test_check_command_refuses_each_class_with_file_and_line(tmp_path, capsys, body, message):
    text = entry_text(body)
    write_glossary(tmp_path, {"example-term": text})
    assert main(["--glossary-dir", str(tmp_path), "check"]) == 1
    line = line_of(text, body.splitlines()[-1])
    assert f"{tmp_path.as_posix()}/example-term.md:{line}: {message}" in capsys.readouterr().err
