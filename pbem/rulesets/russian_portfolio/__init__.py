"""The Russian Portfolio (Lou Coatney, 1999): the Coatney system with the Portfolio's parameters."""
from ...rulesets import register
from ..coatney.params import RP
from ..coatney.ruleset import CoatneyRuleset


class RussianPortfolio(CoatneyRuleset):
    id = RP.ruleset
    name = "The Russian Portfolio (Coatney 1999)"
    params = RP


register(RussianPortfolio())
