"""Runs replay a lesson's steps: one, an epoch, or a timed stream; only the
last step of each reply is drawn, with the lesson still at that step."""

import pytest

from hyperplane.playground._runs import Run, RunStore


def _lesson(n, epoch_every=3):
    state = {"at": 0}
    for k in range(1, n + 1):
        state["at"] = k
        yield {"row": [str(k)], "epoch_end": k % epoch_every == 0,
               "draw": lambda k=k: {"drawn_at": state["at"], "own": k}}


def _check_drawn(step):
    assert step["drawn_at"] == step["own"]  # drawn before the lesson moved on


def test_step_and_epoch():
    run = Run({}, _lesson(7))
    (first,) = run.step()
    assert first["k"] == 1 and "draw" not in first
    _check_drawn(first)
    epoch = run.epoch()
    assert [s["k"] for s in epoch] == [2, 3]
    assert "drawn_at" not in epoch[0] and "draw" not in epoch[0]
    _check_drawn(epoch[1])
    assert [s["k"] for s in run.epoch()] == [4, 5, 6]
    last = run.epoch()
    assert [s["k"] for s in last] == [7] and run.done   # the lesson ended mid-epoch
    _check_drawn(last[0])
    assert run.step() == [] and run.done


@pytest.mark.parametrize("batch_seconds", [0.0, 10.0])
def test_stream_draws_the_last_step_of_each_batch(batch_seconds):
    run = Run({}, _lesson(10))
    batches = list(run.stream(batch_seconds=batch_seconds))
    ks = [s["k"] for b in batches for s in b]
    assert ks == list(range(1, 11))
    for batch in batches:
        assert all("draw" not in s for s in batch)
        assert all("drawn_at" not in s for s in batch[:-1])
        _check_drawn(batch[-1])
    # the first step alone at once, then one batch per batch_seconds of work
    assert len(batches) == (10 if batch_seconds == 0.0 else 2)
    assert [s["k"] for s in batches[0]] == [1]


def test_stream_stops_at_max_steps_and_resumes():
    run = Run({}, _lesson(10))
    first = [s["k"] for b in run.stream(max_steps=4) for s in b]
    rest = [s["k"] for b in run.stream() for s in b]
    assert first == [1, 2, 3, 4] and rest == [5, 6, 7, 8, 9, 10]


def test_store_forgets_the_oldest():
    store = RunStore(capacity=2)
    ids = [store.add(Run({}, iter(()))) for _ in range(3)]
    with pytest.raises(ValueError, match="no run"):
        store.get(ids[0])
    assert store.get(ids[2]).info == {}


def test_a_batch_s_undrawn_steps_are_drawn_again_by_a_replay():
    """Steps a stream sends without pictures say so; ``picture(k)`` walks a fresh
    copy of the lesson to step k and draws it there, in that step's state."""
    run = Run({}, _lesson(10), replay=lambda: _lesson(10))
    first, rest = run.stream(batch_seconds=10.0)      # the first step goes out alone
    assert [s.get("undrawn", False) for s in first + rest] == [False] + [True] * 8 + [False]
    for k in (1, 4, 9):
        step = run.picture(k)
        assert step["own"] == k and step["drawn_at"] == k and "draw" not in step
    assert run.picture(0) is None and run.picture(11) is None
    assert Run({}, _lesson(3)).picture(1) is None            # no replay: nothing to draw
    stepped = Run({}, _lesson(3), replay=lambda: _lesson(3))
    stepped.step()
    assert stepped.picture(2) is None                        # not reached yet
