"""The companion's Teleporters opponent: whole turns (``turns``), an evaluation
(``evaluate``), levels 1-5 (``player``) and engine-against-engine matches (``match``). It
knows no rule of its own: every move comes from the rules core (``companion.rules``), the
only package it imports."""

from companion.ai.player import LEVELS, choose, choose_turn
from companion.ai.turns import Turn, whole_turns

__all__ = ["LEVELS", "Turn", "choose", "choose_turn", "whole_turns"]
