"""Barbarossa Fast, June-December 1941 (Lou Coatney): a point-to-point game with face-down Russian units."""
from ...rulesets import register
from .ruleset import BarbarossaFast

register(BarbarossaFast())
