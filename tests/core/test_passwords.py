"""Password hashes: argon2id at the standard cost, and a minimal cost that verifies the same hashes."""

from __future__ import annotations

from argon2 import extract_parameters

from tessera.core.crypto import Passwords


def test_the_standard_cost_is_rfc_9106_low_memory_argon2id() -> None:
    parameters = extract_parameters(Passwords().hash("correct horse"))
    assert (parameters.type.name, parameters.time_cost, parameters.memory_cost, parameters.parallelism) == (
        "ID", 3, 65536, 4)


def test_a_hash_of_either_cost_verifies_under_the_other() -> None:
    standard, minimal = Passwords("standard"), Passwords("minimal")
    assert minimal.verify(standard.hash("correct horse"), "correct horse")
    assert standard.verify(minimal.hash("correct horse"), "correct horse")
    assert not minimal.verify(standard.hash("correct horse"), "wrong horse")


def test_an_unknown_user_is_refused_at_either_cost() -> None:
    for cost in ("standard", "minimal"):
        assert Passwords(cost).verify(None, "anything") is False
