"""The ``companion`` command: one module per command, each adding itself to the parser with
``register(subparsers)`` (:mod:`~companion.commands.main` puts them together).

- :mod:`~companion.commands.rules`: ``setup`` and ``judge``, every game through the registry;
- :mod:`~companion.commands.mat`: ``mat``, ``calibrate`` (and ``calibrate camera``), ``detect``;
- :mod:`~companion.commands.demo`: ``demo`` (and ``demo --quest``) on the simulated table;
- :mod:`~companion.commands.quest`: ``quest``, the Solitaire Quests;
- :mod:`~companion.commands.run`: ``run``, a real game at the table;
- :mod:`~companion.commands.referee`: ``referee``, a recorded match;
- :mod:`~companion.commands.clip`: ``clip``, a sample recording from the simulated table;
- :mod:`~companion.commands.matches`: ``matches``, the match log.

Shared by the commands, never by the pipeline: :mod:`~companion.commands.common` (exit codes,
options), :mod:`~companion.commands.camera` (``--camera``: an index, a device path or a stream
URL, read and opened the same way by every command), :mod:`~companion.commands.opening`
(profile, camera, board, photos, calibration from frames, each refused in one line),
:mod:`~companion.commands.options` (argument types),
:mod:`~companion.commands.position_files` (position files of any game) and
:mod:`~companion.commands.front_end` (the app or the terminal: the command chooses). ``bridge``
registers itself from its own package (``firmware_bridge.cli``: the bridge sits below
``companion`` and may not import it).
"""
