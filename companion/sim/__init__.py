"""Simulation above vision: sample matches recorded on the simulated table
(:mod:`~companion.sim.clips`, ``companion clip`` and the tests), and the demos' scripted tables
(:mod:`~companion.sim.demo`, :mod:`~companion.sim.quest_table`). The simulated table itself
(rendering, lens distortion) is ``vision.simtable`` and ``vision.distortion``.
"""
