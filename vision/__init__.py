"""Vision: frame sources, the simulated table, mat finding, piece and dice classification.

Built in issue 3; nothing here yet.
"""
