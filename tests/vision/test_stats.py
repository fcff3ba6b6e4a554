"""vision.stats.median stands in for np.median in every frame: it must give the very same
value (bit for bit), or detection's outputs would drift with a speed-up."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from vision.stats import median


@given(arrays(st.sampled_from([np.float32, np.float64]), st.integers(1, 300),
              elements=st.floats(-1e6, 1e6, width=32) | st.just(float("nan"))))
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
