"""Angel's input ending on messages whose numbers were not trusted (PROTOCOL.md §6): no
message believed after them counts them, so the numbers as read are all there is to tell
whether some before them never arrived, and what they cannot show is said."""

from __future__ import annotations

from drivers.angel_count import SequenceCount
from drivers.angel_step import beyond_count
from drivers.messages import Lost, Message


def trailing_losses(count: SequenceCount, untrusted: list[tuple[int, ...]]) -> list[Message]:
    """What the numbers read on the messages delivered untrusted at an input's end (each
    message's, likeliest first) say was lost, after the last number `count` believed."""
    anchor = count.last
    numbers = count.placed(anchor, untrusted, None)
    *earlier, end = numbers
    chain = numbers if anchor is None else [anchor, *numbers]
    # judged before the step to `end`, itself not trusted, can make a wrap known: the
    # count's first wrap read only on such numbers is blind (seed 10056501: 13 read
    # as 29 made 29 the top, and 14, lost below the wrap to 15, went unsaid)
    skipped = count.skipped(chain, anchored=anchor is not None)
    steps = count.step(end, count.accounted(end, earlier))
    lost: list[Message] = [m for m in steps if isinstance(m, Lost)]
    longest = len(chain) + 4
    if skipped[1] is None and len(chain) > 1 and not count.near(chain[-2], end, longest):
        # the last number read steps back: misread (or the count restarted), with nothing
        # after it to show what was lost before it
        skipped = skipped[0], "last, not following the one before"
    out = lost + beyond_count(skipped, lost, chain[0], end)
    # in step, it is still read on copies that did not agree, with nothing after it to check
    # it: misread low, it hides what was lost before it (seeds 10138693, 10188182: a lone
    # card's 83 read as 81 after 80, last in the input, 81 and 82 lost unsaid); this says
    # more than the unreadable bytes' room could, which is not weighed here any more
    return out + beyond_count((0, "last, not confirmed"), out, chain[0], end)
