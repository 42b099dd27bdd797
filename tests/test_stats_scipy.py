"""The statistics' own chi-square and exact binomial tests against SciPy's: the product
carries no SciPy (a table PC need not), so the tests make sure the hand-written ones agree."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from journal.stats import binomial_two_sided, chi_square_survival


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=0.0, max_value=200.0), st.integers(min_value=1, max_value=60))
def test_chi_square_survival_agrees_with_scipy(statistic: float, df: int) -> None:
    expected = float(scipy_stats.chi2.sf(statistic, df))
    got = chi_square_survival(statistic, df)
    assert abs(got - expected) <= 1e-9 + 1e-7 * expected


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=1, max_value=400).flatmap(
    lambda n: st.tuples(st.integers(min_value=0, max_value=n), st.just(n))),
    st.floats(min_value=0.001, max_value=0.999))
def test_binomial_two_sided_agrees_with_scipy(counts: tuple[int, int], p: float) -> None:
    successes, trials = counts
    expected = float(scipy_stats.binomtest(successes, trials, p).pvalue)
    got = binomial_two_sided(successes, trials, p)
    assert abs(got - expected) <= 1e-7 + 1e-6 * expected
