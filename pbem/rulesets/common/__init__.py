"""Pieces the hex rulesets share (SPI Barbarossa and the Coatney games): odds rounding, the working
position's units and occupancy and the step's violation collector. Each ruleset keeps its own rules;
only what reads the same in every rulebook lives here."""
