"""Codeword: Barbarossa (John Prados, Against the Odds, 2010): preparation for war without combat."""
from ...rulesets import register
from .ruleset import CodewordBarbarossa

register(CodewordBarbarossa())
