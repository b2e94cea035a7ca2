"""The Barbarossa File (Lou Coatney, 1997): the Coatney system with the Barbarossa File's parameters."""
from ...rulesets import register
from ..coatney.params import BF
from ..coatney.ruleset import CoatneyRuleset


class BarbarossaFile(CoatneyRuleset):
    id = BF.ruleset
    name = "The Barbarossa File (Coatney 1997)"
    params = BF


register(BarbarossaFile())
