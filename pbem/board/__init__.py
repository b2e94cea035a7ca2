"""Boards: one Topology interface, with hex grid, point-to-point and area implementations."""
