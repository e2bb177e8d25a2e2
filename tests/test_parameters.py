"""The declared parameter rules: every estimator declares each constructor
parameter once, ``fit`` applies them before it reads any data, and every
message names the parameter."""

import numpy as np
import pytest
from sklearn.base import clone

from hyperplane._validation import (
    Boolean,
    RandomState,
    Rule,
    validate_params,
)
from hyperplane.utils import all_estimators

ESTIMATORS = all_estimators()
assert len(ESTIMATORS) >= 12, ESTIMATORS    # the discovery itself is under test too


@pytest.mark.parametrize("name, Estimator", ESTIMATORS)
def test_every_parameter_has_exactly_one_declared_rule(name, Estimator):
    params = Estimator().get_params(deep=False)
    rules = Estimator._parameter_rules
    assert set(rules) == set(params), (set(rules) ^ set(params))
    assert all(isinstance(rule, Rule) for rule in rules.values())
    validate_params(Estimator())                     # the defaults pass their own rules


@pytest.mark.parametrize("name, Estimator", ESTIMATORS)
def test_every_boolean_parameter_refuses_non_booleans(name, Estimator):
    flags = [p for p, rule in Estimator._parameter_rules.items() if isinstance(rule, Boolean)]
    for param in flags:
        for bad in (1, 0, "yes", None):
            with pytest.raises(TypeError, match=rf"{param} must be True or False"):
                validate_params(Estimator(**{param: bad}))


@pytest.mark.parametrize("name, Estimator", ESTIMATORS)
def test_bad_parameter_fails_before_the_data_is_read(name, Estimator):
    """A bad value of any declared parameter fails in ``fit`` even when the
    data could not be read at all."""

    class Unreadable:
        def __array__(self, *args, **kwargs):
            raise AssertionError("fit read the data before checking its parameters")

    for param, rule in Estimator._parameter_rules.items():
        est = Estimator(**{param: object()})
        with pytest.raises((TypeError, ValueError), match=param):
            est.fit(Unreadable(), Unreadable())


@pytest.mark.parametrize("seed", [None, 0, np.int32(7), np.uint64(2**32 - 1),
                                  np.random.RandomState(3)])
def test_random_state_accepts_what_scikit_learn_accepts(seed):
    RandomState().check(seed, "random_state")


@pytest.mark.parametrize("seed", [-1, 2**32, 1.5, "0", True, np.random.default_rng(0)])
def test_random_state_refuses_what_scikit_learn_refuses(seed):
    from sklearn.utils import check_random_state

    with pytest.raises((TypeError, ValueError), match="random_state"):
        RandomState().check(seed, "random_state")
    if not isinstance(seed, (bool, np.random.Generator)):
        with pytest.raises((TypeError, ValueError)):
            check_random_state(seed)


def test_clone_keeps_rules_on_the_class_not_the_instance():
    from hyperplane.linear import Perceptron

    est = clone(Perceptron(eta=0.5))
    assert "_parameter_rules" not in vars(est)
