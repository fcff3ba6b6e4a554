"""vision.stats.median stands in for np.median in every frame: it must give the very same
value (bit for bit), or detection's outputs would drift with a speed-up."""

from __future__ import annotations

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from vision.classify import masked_median
from vision.stats import median, median_of_sorted, sorted_along


@given(arrays(st.sampled_from([np.float32, np.float64]), st.integers(1, 300),
              elements=st.floats(-1e6, 1e6, width=32) | st.just(float("nan"))))
@example(np.array([-0.0], np.float32))  # np.mean sums from 0: its median of -0.0 is 0.0
@example(np.array([-0.0, -0.0]))
def test_median_is_numpys_bit_for_bit(values: np.ndarray) -> None:
    """Same value and dtype as np.median on 1-D float arrays, NaN where any value is NaN."""
    want = np.median(values)
    got = median(values.copy())
    assert got.dtype == want.dtype
    if np.isnan(want):
        assert np.isnan(got)
    else:
        assert got.tobytes() == want.tobytes()


def test_median_leaves_its_input_as_it_was() -> None:
    values = np.array([3.0, 1.0, 2.0, 5.0])
    assert median(values) == 2.5
    assert values.tolist() == [3.0, 1.0, 2.0, 5.0]


@given(arrays(np.float32, st.tuples(st.integers(1, 9), st.integers(1, 40)),
              elements=st.floats(-1e3, 1e3, width=32)),
       st.integers(0, 2 ** 32 - 1))
def test_sorting_network_medians_are_masked_medians(values: np.ndarray, seed: int) -> None:
    """sorted_along sorts as np.sort does, and median_of_sorted of values left out as +inf
    is masked_median's answer, along either axis: bit for bit, but for the sign of a zero
    (which of 0.0 and -0.0 sorts first), which no caller can tell after its squares."""
    keep = np.random.default_rng(seed).random(values.shape) < 0.7
    for axis in (0, 1):
        rows = sorted_along(values, axis)
        assert np.array_equal(np.stack(rows, axis), np.sort(values, axis))
        got = median_of_sorted(sorted_along(np.where(keep, values, np.inf), axis),
                               keep.sum(axis=axis))
        want = masked_median(np.moveaxis(values, axis, -1), np.moveaxis(keep, axis, -1))
        assert got.dtype == want.dtype and np.array_equal(got, want)
