"""Prose about what a number includes, checked against the number's parts: one test per
message, the rules for which number a phrase is about, each class of mistake the review found
(in the entries' old words), and the whole site passing."""

from __future__ import annotations

from pathlib import Path

import pytest

from roofline_site.glossary import doc_pages
from roofline_site.glossary.__main__ import main
from roofline_site.glossary.composition import claims_in, marker, marker_index, sentences
from roofline_site.glossary.errors import GlossaryError
from roofline_site.glossary.frontmatter import parse
from roofline_site.glossary.prose_checks import find_contradicted_composition
from roofline_site.glossary.validator import load_glossary
from tests.roofline_site.glossary.helpers import entry_text, write_glossary
from tests.roofline_site.glossary.test_validator import line_of, only_problem, problems

ROOT = Path(__file__).resolve().parents[3]
TP2 = "decode_step_time model=llama-3-70b accelerator=h100-sxm devices=2"
ONE = "decode_step_time model=llama-3-8b accelerator=h100-sxm"
EXPECTED = (
    "expected wording its parts bear out: change or drop the phrase, or quote the part meant with"
    " part=<label> (docs/authoring-terms.md, 'What a number includes')"
)


def body_problems(body: str) -> list[str]:
    return problems(entry_text(body))


def composition(body: str) -> list[str]:
    return [str(p) for p in find_contradicted_composition(body, path="docs/page.md", first_line=1)]


# One test per message ------------------------------------------------------------------------


def test_a_part_said_to_be_left_out_that_the_number_holds():
    text = entry_text(f"Intro.\n\nOn two GPUs a step takes\n{{{{ {TP2} }}}}, before communication.\n")
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, TP2)}: 'before communication' says {{{{ {TP2} }}}} leaves out"
        " communication, but 320 µs communication latency and 5.83 µs communication transfer of its 21.1 ms is"
        f" communication; {EXPECTED}"
    )


def test_a_part_said_to_be_included_that_the_number_lacks():
    text = entry_text(f"Intro.\n\nOne GPU takes {{{{ {ONE} }}}}, including communication.\n")
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, ONE)}: 'including communication' says {{{{ {ONE} }}}} includes"
        f" communication, but none of its 4.48 ms is communication; {EXPECTED}"
    )


def test_weights_only_next_to_a_number_holding_more():
    reference = f"{ONE} batch=16 context_tokens=1024"
    text = entry_text(f"Intro.\n\nWeights only, a step takes {{{{ {reference} }}}}.\n")
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, reference)}: 'Weights only' says {{{{ {reference} }}}} is the"
        f" weights alone, but 641 µs KV cache read of its 5.12 ms is something else; {EXPECTED}"
    )


def test_a_ceiling_word_before_a_time():
    text = entry_text(f"Intro.\n\nA step takes no more than {{{{ {ONE} }}}}.\n")
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, ONE)}: 'no more than' makes {{{{ {ONE} }}}} a ceiling, but a"
        " modelled time is a floor: the real one is no shorter; expected 'at least' (or no bound word) before a"
        " time, or a comparison of two figures that holds"
    )


def test_a_floor_word_before_a_rate():
    reference = "decode_tokens_per_s model=llama-3-8b accelerator=h100-sxm"
    text = entry_text(f"Intro.\n\nOne sequence gets at least {{{{ {reference} }}}}.\n")
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, reference)}: 'at least' makes {{{{ {reference} }}}} a floor, but"
        " a modelled rate is a ceiling: the real one is no higher; expected 'at most' (or no bound word) before a"
        " rate, or a comparison of two figures that holds"
    )


# What holds ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        f"On two GPUs a step takes {{{{ {TP2} }}}}, its all-reduces included.",
        f"On two GPUs a step takes {{{{ {TP2} }}}}: {{{{ {TP2} part=weights }}}} reading the weights alone.",
        f"Communication left out, the weight reads take {{{{ {TP2} part=weights }}}}.",
        f"One GPU, weights only: {{{{ {ONE} }}}} at batch 1 and {{{{ {ONE} batch=512 }}}} at batch 512.",
        f"A step takes at least {{{{ {ONE} }}}}, at most {{{{ decode_tokens_per_s model=llama-3-8b"
        " accelerator=h100-sxm }}.",
        # A byte count has no parts, and a raw parameter count across devices has no known
        # communication: neither contradicts the phrase.
        "Weights only: {{ weight_bytes model=llama-3-70b }}.",
        "Before communication, {{ prefill_time params=8e9 accelerator=h100-sxm prompt_tokens=32768 devices=2 }}.",
        # A source's words between quotation marks are the source's.
        f'The paper\'s "before communication" figure is not {{{{ {TP2} }}}}.',
        # Code is not prose.
        f"Write `{{{{ {TP2} }}}} before communication` to see the error.",
    ],
)
def test_phrases_the_parts_bear_out_pass(body):
    assert composition(body + "\n") == []


def test_a_quoted_part_is_that_part_alone():
    # Its phrase is about the quoted part, not the whole step.
    assert composition(f"Before communication, the weights take {{{{ {TP2} part=weights }}}}.\n") == []
    assert len(composition(f"Weights only: {{{{ {TP2} part=weights,communication }}}}.\n")) == 1


# Which number a phrase is about --------------------------------------------------------------


def test_a_scenario_sentence_reaches_the_next_sentence_only():
    reaches = f"Take two GPUs (communication left out). A step takes {{{{ {TP2} }}}}.\n"
    assert len(composition(reaches)) == 1
    too_far = f"Take two GPUs (communication left out). That is two. A step takes {{{{ {TP2} }}}}.\n"
    assert composition(too_far) == []
    next_paragraph = f"Take two GPUs (communication left out).\n\nA step takes {{{{ {TP2} }}}}.\n"
    assert composition(next_paragraph) == []


def test_a_scenario_ending_in_a_colon_reaches_the_table_after_it():
    body = (
        "Two GPUs, communication left out:\n\n| Batch | Step |\n|---|---|\n"
        f"| 1 | {{{{ {TP2} }}}} |\n| 2 | {{{{ {TP2} batch=2 }}}} |\n\nAfter: {{{{ {TP2} batch=4 }}}}.\n"
    )
    found = composition(body)
    assert [line.split(":")[1] for line in found] == ["5", "6"]


def test_a_bound_word_is_about_the_number_right_after_it():
    assert len(composition(f"It costs no more than batch 1 ({{{{ {ONE} }}}}).\n")) == 1
    # Farther than three words, the bound word is about something else.
    assert composition(f"It costs no more than the one with a single user, {{{{ {ONE} }}}}.\n") == []


def test_sentences_and_phrases_are_found_as_declared():
    assert sentences("It is 1.5 times. Then (this) one? Yes.") == ["It is 1.5 times.", "Then (this) one?", "Yes."]
    assert [(c.phrase, c.kind) for c in claims_in("weights only, without the all-reduces, at least")] == [
        ("weights only", "only"),
        ("without the all-reduces", "left out"),
        ("at least", "bound"),
    ]
    # "Before" and "with" name a part only for some names: here they place an all-reduce.
    assert claims_in("the all-reduce before attention, with attention after it") == []
    assert all(marker_index(marker(n)[len("QUANTITY") : -1]) == n for n in (0, 25, 26, 700))


# Each class the review found, in the entries' old words ------------------------------------------


@pytest.mark.parametrize(
    ("where", "old"),
    [
        (
            "glossary/decode.md: communication left out of a number that includes it",
            "on two, splitting them with [[tensor-parallelism]], its batch-1 step takes\n"
            "{{ decode_step_time model=llama-3-70b accelerator=h100-sxm devices=2 }}\n"
            "({{ decode_tokens_per_s model=llama-3-70b accelerator=h100-sxm devices=2 }}) before communication.\n",
        ),
        (
            "glossary/all-reduce.md: the weight reads said to bound a step that holds all-reduces",
            "Over eight GPUs the weight reads bound a batch-1 step at\n"
            "{{ decode_step_time model=llama-3-70b accelerator=h100-sxm devices=8 }}, and the 80 layers add\n"
            "two all-reduces each on top of that: 160 collectives per generated token.\n",
        ),
        (
            "glossary/inter-token-latency.md: communication left out, set up a sentence before",
            "Llama 3 70B in FP16 does not fit one GPU, so take four with tensor parallelism (communication"
            " left out) and 2,048 tokens of context per sequence. The ITL floor is"
            " {{ decode_step_time model=llama-3-70b accelerator=h100-sxm devices=4 context_tokens=2048 }} at"
            " batch 1.\n",
        ),
        (
            "glossary/context-parallelism.md: attention left out of a prefill that is mostly attention",
            "For prefill of a 131,072-token prompt, counting only the weight matrix products (this estimate\n"
            "leaves out attention's own FLOPs, which grow with the square of the prompt), one H100 needs at\n"
            "least {{ prefill_time model=llama-3.1-8b accelerator=h100-sxm prompt_tokens=131072 }}.\n",
        ),
        (
            "glossary/inter-token-latency.md: no more than next to a larger number",
            "with empty caches batch 128 would cost no more than batch 1\n"
            "({{ decode_step_time model=llama-3-70b accelerator=h100-sxm devices=4 batch=128 }}), but each"
            " sequence's cache is read every step.\n",
        ),
        (
            "glossary/multi-token-prediction.md: a figure that is mostly all-reduce latency as weight reads",
            "For DeepSeek-V3 with FP8 weights on eight GPUs, weights only, one token takes\n"
            "{{ decode_step_time model=deepseek-v3 accelerator=h200 devices=8 weight_dtype=fp8 }} per step.\n",
        ),
        (
            "glossary/expert-parallelism.md: all-to-alls said to be ignored in a figure that has communication",
            "Ignoring the all-to-alls, a decode step at peak bandwidth takes\n"
            "{{ decode_step_time model=deepseek-v3 accelerator=h200 devices=8 weight_dtype=fp8 }} for one sequence.\n",
        ),
    ],
)
def test_each_class_the_review_found_is_refused(where, old):
    assert composition(old), where


def test_no_alias_names_the_opposite_scheme():
    # "Weight-activation quantisation" is W8A8's name; it was an alias of weight-only quantisation.
    def aliases(slug: str) -> list[str]:
        path = f"glossary/{slug}.md"
        return parse((ROOT / path).read_text(encoding="utf-8"), path).data["aliases"]

    assert all("activation" not in alias.casefold() for alias in aliases("weight-only-quantisation"))
    assert "Weight-activation quantisation" in aliases("w8a8-quantisation")


# docs/ pages and the whole site ----------------------------------------------------------------


def test_docs_pages_are_checked_too(tmp_path):
    glossary = load_glossary(write_glossary(tmp_path / "glossary", {"alpha": entry_text()}))
    page = f"# Page\n\nOn two GPUs a step takes {{{{ {TP2} }}}}, communication left out.\n"
    with pytest.raises(GlossaryError) as error:
        doc_pages.check([("page.md", "docs/page.md", page)], glossary)
    assert str(error.value).startswith(f"docs/page.md:3: 'communication left out' says {{{{ {TP2} }}}}")


def test_docs_pages_must_run_their_worked_examples_too(tmp_path):
    glossary = load_glossary(write_glossary(tmp_path / "glossary", {"alpha": entry_text()}))
    unfit = "{{ decode_step_time model=llama-3-70b accelerator=h100-sxm }}"
    with pytest.raises(GlossaryError) as error:
        doc_pages.check([("page.md", "docs/page.md", f"One card takes {unfit}.\n")], glossary)
    assert str(error.value).startswith(f"docs/page.md:1: {unfit} needs 141 GB of weights")


def test_the_check_command_reads_the_docs_beside_the_glossary(tmp_path, capsys):
    write_glossary(tmp_path / "glossary", {"alpha": entry_text()})
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text(f"A step takes no more than {{{{ {ONE} }}}}.\n", encoding="utf-8")
    assert main(["--glossary-dir", str(tmp_path / "glossary"), "check"]) == 1
    assert capsys.readouterr().err.startswith("docs/page.md:1: 'no more than' makes")
    (tmp_path / "docs" / "page.md").write_text(f"A step takes at least {{{{ {ONE} }}}}.\n", encoding="utf-8")
    assert main(["--glossary-dir", str(tmp_path / "glossary"), "check"]) == 0
    assert capsys.readouterr().out.strip() == "1 pages and 1 entries, all valid"


def test_every_entry_and_page_of_the_site_passes():
    found = []
    for file in sorted([*(ROOT / "glossary").glob("*.md"), *(ROOT / "docs").rglob("*.md")]):
        text = file.read_text(encoding="utf-8")
        path = file.relative_to(ROOT).as_posix()
        found += [str(p) for p in find_contradicted_composition(text, path=path, first_line=1)]
    assert found == []
