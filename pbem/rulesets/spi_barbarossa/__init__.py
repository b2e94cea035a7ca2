"""SPI Barbarossa (2nd edition, 1971): the Barbarossa Game of June 1941."""
from ...rulesets import register
from .ruleset import SpiBarbarossa

register(SpiBarbarossa())
