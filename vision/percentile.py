"""A percentile of a flat array, the very value `np.percentile` gives, in half its time."""

from __future__ import annotations

import math

import numpy as np


def percentile(values: np.ndarray, q: float) -> float:
    """`float(np.percentile(values, q))` for a flat, non-empty array without NaN, 0 <= q <=
    100, by numpy's default (linear) method: the same two order statistics, met the same
    way. numpy partitions the array about four places (the two it needs, and both ends to
    look for NaN); here it is partitioned once, about the lower, and the upper is the least
    above it. (A row's paper level is taken so on some hundred thousand pixels, twice a
    frame.)"""
    count = len(values)
    place = (count - 1) * (q / 100)
    lower = math.floor(place)
    if lower + 1 >= count:
        return float(np.partition(values, count - 1)[count - 1])
    parted = np.partition(values, lower)
    below, above = parted[lower], parted[lower + 1 :].min()
    # numpy's interpolation, from whichever neighbour is nearer.
    gamma = place - lower
    apart = above - below
    return float(above - apart * (1 - gamma) if gamma >= 0.5 else below + apart * gamma)
