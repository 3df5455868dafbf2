"""``tessera <command> --help`` tells an operator what every option does and what it is when not given."""

from __future__ import annotations

import argparse

import pytest

from tessera.cli import parser


def _commands() -> dict[str, argparse.ArgumentParser]:
    found = [action for action in parser()._actions if isinstance(action, argparse._SubParsersAction)]
    return dict(found[0].choices)


@pytest.mark.parametrize("name", sorted(_commands()))
def test_every_option_of_a_command_has_a_help_text(name: str) -> None:
    command = _commands()[name]
    silent = [action.option_strings for action in command._actions
              if action.option_strings and not isinstance(action, argparse._HelpAction) and not action.help]
    assert silent == []


@pytest.mark.parametrize("name", sorted(_commands()))
def test_every_option_with_a_default_shows_it_in_the_help(name: str) -> None:
    command = _commands()[name]
    shown = command.format_help().replace("\n", " ")
    for action in command._actions:
        if action.option_strings and action.default not in (None, argparse.SUPPRESS, False):
            assert f"(default: {action.default})" in " ".join(shown.split()), action.option_strings
