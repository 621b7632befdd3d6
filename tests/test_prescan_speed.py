"""The pre-scan reads the raw text with regular expressions: the same spans as a character loop,
and fast enough on the largest file accepted (issue: validation must not be made slow)."""

from __future__ import annotations

import random
import time

from pyclingo_bridge import prescan


def reference_spans(text: str, strings: bool = False) -> list[tuple[int, int]]:
    """The spans of code, read one character at a time as clingo's lexer does (the oracle)."""
    spans: list[tuple[int, int]] = []
    i, start, depth, n = 0, 0, 0, len(text)
    while i < n:
        two = text[i:i + 2]
        if depth:
            if two == "%*":
                depth, i = depth + 1, i + 2
            elif two == "*%":
                depth, i = depth - 1, i + 2
                start = i
            else:
                i += 1
        elif two == "%*":
            spans.append((start, i))
            depth, i = 1, i + 2
        elif text[i] == "%":
            spans.append((start, i))
            i = text.find("\n", i)
            i = n if i < 0 else i
            start = i
        elif text[i] == '"':
            if not strings:
                spans.append((start, i + 1))
            i += 1
            while i < n and text[i] not in '"\n':
                i += 2 if text[i] == "\\" else 1
            start = i if not strings else start
            i += text.startswith('"', i)  # past the closing quote
        else:
            i += 1
    if not depth:
        spans.append((start, n))
    return spans


def test_spans_match_a_character_by_character_reading() -> None:
    rng = random.Random(24)
    alphabet = ['%', '*', '"', '\\', '\n', 'a', '(', ')', ' ', '%*', '*%', 'x.']
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        for strings in (False, True):
            mine = [(a, b) for a, b in prescan.code_spans(text, strings) if a < b]
            oracle = [(a, b) for a, b in reference_spans(text, strings) if a < b]
            assert mine == oracle, (text, strings)


def test_a_file_of_the_largest_size_is_prescanned_in_a_fraction_of_a_second(tmp_path) -> None:
    line = 'card(b1, grizzly_bears, alice). % a comment\n%* block *% expect(all, happens("s", 1)).\n'
    text = line * (prescan.MAX_BYTES // len(line))
    path = tmp_path / "big.lp"
    path.write_text(text)
    started = time.process_time()
    prescan.vet(str(path))
    assert time.process_time() - started < 1.0


def test_an_include_after_a_string_on_the_same_line_is_vetted(tmp_path) -> None:
    """The quote that closes a string opens none: what follows it on the line is code."""
    path = tmp_path / "s.lp"
    path.write_text('player(alice, 1). active_player(alice). expect(all, happens("a", 1)). #include "/dev/zero".\n')
    try:
        prescan.vet(str(path))
    except prescan.ScenarioError as error:
        assert "#include \"/dev/zero\" is not allowed" in error.message
    else:
        raise AssertionError("the #include was not seen")
