"""A greedy small model that starts repeating itself is cut off (engine.drafting.generate.grammar_sampling)."""

from engine.drafting.generate.grammar_sampling import LOOP_PERIOD, LOOP_REPEATS, loops_at_end


def test_a_block_repeated_at_the_end_is_a_loop():
    yes, comma = 11, 12
    assert loops_at_end([1, 2, 3] + [yes, comma] * LOOP_REPEATS)
    assert loops_at_end([5] * LOOP_REPEATS)
    block = list(range(100, 100 + LOOP_PERIOD))
    assert loops_at_end([7, 8] + block * LOOP_REPEATS)


def test_ordinary_text_and_short_or_long_repeats_are_not():
    yes, comma = 11, 12
    assert not loops_at_end([1, 2, 3] + [yes, comma] * (LOOP_REPEATS - 1))  # "Yes, Yes, Yes," may be meant
    assert not loops_at_end(list(range(200)))
    long_block = list(range(100, 101 + LOOP_PERIOD))  # two identical quotes are longer than a loop block
    assert not loops_at_end(long_block * LOOP_REPEATS)
    assert not loops_at_end([])
