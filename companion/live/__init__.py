"""The live referee: frames -> vision -> referee -> events -> the match log, the LEDs and
whoever listens (the tablet app, the text log).

- :mod:`~companion.live.session`: the pipeline itself (``Session``);
- :mod:`~companion.live.sighting`: frames to board readings (detector and stability gate);
- :mod:`~companion.live.recorder`: the match log's side of it;
- :mod:`~companion.live.lights`: the referee's state as LED pictures;
- :mod:`~companion.live.board`: the link to the LED and die board, and an in-process stand-in;
- :mod:`~companion.live.textlog`: one line of text per event;
- :mod:`~companion.live.api`: what a front end (the app, a script) may call and hear;
- :mod:`~companion.live.quest`: the Solitaire Quests' session on the same pipeline.

Nothing here chooses or imports a front end: the command does (``companion.commands.front_end``).
"""
