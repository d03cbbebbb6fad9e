"""The learned defense: its self-play ground truth and its shipped weights."""

from __future__ import annotations

import numpy as np
import pytest

from majiang import _core


@pytest.fixture(scope="module")
def samples() -> dict:
    return _core.danger_samples(4, 3, bots="strong", threads=2)


def test_same_seed_same_arrays(samples: dict) -> None:
    again = _core.danger_samples(4, 3, bots="strong", threads=1)
    other = _core.danger_samples(4, 4, bots="strong", threads=1)
    for key, value in samples.items():
        if isinstance(value, np.ndarray):
            np.testing.assert_array_equal(value, again[key], err_msg=key)
    assert not np.array_equal(samples["tile"], other["tile"][: len(samples["tile"])])


def test_shapes_and_labels(samples: dict) -> None:
    n_seat = len(samples["ready"])
    n_tile = len(samples["deal_in"])
    assert n_seat > 0 and n_tile > n_seat
    assert samples["seat_x"].shape == (n_seat, len(samples["seat_features"]))
    assert samples["tile_x"].shape == (n_tile, len(samples["tile_features"]))
    assert samples["seats"].shape == (n_seat, 2)
    assert (samples["seats"][:, 0] != samples["seats"][:, 1]).all()
    # Only an opponent ready with a scoring wait can win on a discard.
    ready_of_row = samples["ready"][samples["seat_row"]]
    assert (samples["deal_in"] <= ready_of_row).all()
    assert samples["ready"].any()
    # Without all_kinds, the kinds are the deciding seat's possible discards: at most 14.
    rows = np.bincount(samples["seat_row"], minlength=n_seat)
    assert rows.max() <= 14
    every = _core.danger_samples(1, 3, bots="strong", all_kinds=True)
    assert (np.bincount(every["seat_row"]) == 34).all()


def test_rust_prediction_equals_numpy(samples: dict) -> None:
    w_ready, w_wait, passed_wait = _core.danger_model_weights()
    assert len(w_ready) == len(samples["seat_features"])
    assert len(w_wait) == len(samples["seat_features"]) + len(samples["tile_features"])
    assert any(w != 0.0 for w in w_wait)

    def sigmoid(z: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-z))

    p_ready = sigmoid(samples["seat_x"].astype(np.float64) @ np.array(w_ready))
    np.testing.assert_allclose(samples["p_ready"], p_ready, rtol=1e-4, atol=1e-6)
    x = np.hstack([samples["seat_x"][samples["seat_row"]], samples["tile_x"]])
    p_wait = sigmoid(x.astype(np.float64) @ np.array(w_wait))
    passed = samples["tile_x"][:, samples["tile_features"].index("passed_last")] > 0.5
    assert passed.any()
    p_wait = np.where(passed, passed_wait, p_wait)
    np.testing.assert_allclose(samples["p_wait"], p_wait, rtol=1e-4, atol=1e-6)


def test_rejects_huainan_and_bad_arguments() -> None:
    with pytest.raises(ValueError, match="a fan-priced rule set, not huainan"):
        _core.danger_samples(1, 0, rules="huainan")
    with pytest.raises(ValueError, match="unknown bot"):
        _core.danger_samples(1, 0, bots="nobody")
    with pytest.raises(ValueError):
        _core.danger_samples(-1, 0)
    assert len(_core.danger_samples(0, 0)["ready"]) == 0
