"""The Quest screen (issue 9): a quest session's verdicts on the tablet.

The model (``companion.app.quest_model``) is checked without a window: the status line's
words, the problems, the found-classes counter, the board kept under a hand. The screen
(``companion.app.quest``) is checked in this process's one Kivy window (shared with
test_app.py: the Quest screen is laid over the game screen for each test, then taken away),
fed by a real :class:`~companion.live.quest.QuestSession`; ``run_quest_app`` and the README's
screenshot run in subprocesses.

``QUEST_SCREENSHOT=1 pytest tests/companion/app/test_quest_app.py -k screenshot`` rewrites
``docs/images/app-quest.png``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app.quest_model import (
    QuestScreenModel,
    QuestStatus,
    counter_text,
    found_text,
    layout_position,
)
from companion.live.quest import QuestSession, QuestUpdate
from companion.rules.teleporters import Position, Side, square_name
from companion.rules.teleporters.quests import Quest, solution_classes
from firmware_bridge.colors import Color

ROOT = Path(__file__).resolve().parents[3]
SCREENSHOT = ROOT / "docs" / "images" / "app-quest.png"

# 8 Queens, class 3 (its canonical member), and the same with d8's Pole put on c8 by mistake:
# one conflict, c6 and c8 in column c, with c7 between.
CLASS3 = ("f1", "a2", "e3", "b4", "h5", "c6", "g7", "d8")
ONE_CONFLICT = ("f1", "a2", "e3", "b4", "h5", "c6", "g7", "c8")
CLASS1 = tuple(square_name(s) for s in sorted(solution_classes(Quest.QUEENS)[0].example))


def poles(*names: str, side: str = "south") -> Position:
    return Position.from_json({"game": "teleporters", "to_move": "south",
                               "poles": {n: side for n in names}, "ports": []})


def teleports(*names: str) -> Position:
    return Position.from_json({"game": "teleporters", "to_move": "south", "poles": {},
                               "ports": [{"square": n, "side": "south", "corner": c}
                                         for n in names for c in ("sw", "ne")]})


def mirrored(names: tuple[str, ...]) -> tuple[str, ...]:
    """East-west mirror image: another solution of the same class."""
    return tuple("hgfedcba"["abcdefgh".index(n[0])] + n[1] for n in names)


class Feed:
    """A quest session without camera or store, and a model fed by its subscription."""

    def __init__(self, quest: str = "queens", player: str = "Ann") -> None:
        self.session = QuestSession(quest, player=player)
        self.model = QuestScreenModel(self.session.quest, player=self.session.player,
                                      found=self.session.found, total=self.session.total)
        self.t = 0.0
        self.session.on_update(self.model.apply)

    def __call__(self, position: Position | None) -> QuestUpdate:
        self.t += 1.0
        return self.session.observe(position, t=self.t)


# --- the model, no window ------------------------------------------------------------------


def test_model_before_any_verdict_asks_for_the_pieces() -> None:
    view = QuestScreenModel("queens", player="Ann").view
    assert (view.title, view.player) == ("8 Queens", "Ann")
    assert view.status == "Lay 8 Poles on the mat" and view.status_kind is QuestStatus.WAITING
    assert view.counter == "Found 0 of 12 classes" and view.found_text == "No class found yet"
    assert view.progress == 0 and view.problems == () and view.lights == {}
    assert not any(view.screen.position.poles)
    rooks = QuestScreenModel("rooks").view
    assert rooks.title == "4 Rooks" and rooks.status == "Lay 4 Teleports on the mat"
    assert rooks.counter == f"Found 0 of {len(solution_classes(Quest.ROOKS))} classes"


def test_model_solved_new_class_then_found_before() -> None:
    feed = Feed()
    update = feed(poles(*CLASS3))
    view = feed.model.view
    assert update.new_class == 3
    assert view.status == "Solved! class 3 of 12 — new"
    assert view.status_kind is QuestStatus.SOLVED and view.status_kind.colour == "win"
    assert view.solved and view.new_class == 3 and view.problems == ()
    assert view.counter == "Found 1 of 12 classes" and view.found_text == "Class found: 3"
    assert view.progress == pytest.approx(1 / 12)
    assert dict(view.lights) == dict.fromkeys(CLASS3, Color.GREEN)
    # Drawn from the report's pieces: a Pole on each of the eight spaces, nothing else.
    drawn = view.screen.position
    assert {square_name(s) for s, side in enumerate(drawn.poles) if side} == set(CLASS3)

    feed(poles(*mirrored(CLASS3)))  # the mirror image: the same class, found before
    view = feed.model.view
    assert view.status == "Solved! class 3 of 12 — found before"
    assert view.new_class is None and view.found == (3,)

    feed(poles(*CLASS1))
    view = feed.model.view
    assert view.status == "Solved! class 1 of 12 — new"
    assert view.counter == "Found 2 of 12 classes" and view.found_text == "Classes found: 1, 3"


def test_model_conflict_wording_and_problems() -> None:
    feed = Feed()
    feed(poles(*ONE_CONFLICT))
    view = feed.model.view
    assert view.status == "1 conflict: c6 and c8 same column c"
    assert view.status_kind is QuestStatus.CONFLICT and view.status_kind.colour == "illegal"
    assert view.problems == ("Poles in line: c6 and c8: same column c (c7 between)",)
    assert view.problems_text == "• Poles in line: c6 and c8: same column c (c7 between)"
    assert dict(view.lights) == {"c6": Color.RED, "c8": Color.RED, "c7": Color.AMBER}
    assert not view.solved and view.counter == "Found 0 of 12 classes"

    # b1 and b4 share column b, b1 and e4 the diagonal b1-h7, b4 and e4 row 4.
    feed(poles("b1", "e4", "b4", "h8"))
    view = feed.model.view
    assert view.status == ("3 conflicts: b1 and b4 same column b; "
                           "b1 and e4 same diagonal b1-h7; and 1 more")
    assert len(view.problems) == 4  # the count first, then each conflict
    assert view.problems[0] == "4 Poles missing: the quest uses 8, the board has 4"


def test_model_counts_pieces_when_nothing_conflicts() -> None:
    feed = Feed()
    feed(poles(*CLASS3[:5]))
    view = feed.model.view
    assert view.status == "Place 8 Poles: 5 on the mat"
    assert view.status_kind is QuestStatus.NOT_YET and view.lights == {}
    rooks = Feed("rooks")
    rooks(teleports("a2", "b3", "c4", "d5", "e6"))
    assert rooks.model.view.status == "Too many Teleports: 5 on the mat, the quest uses 4"


def test_model_room_for_another_pole_in_the_maximal_quests() -> None:
    feed = Feed("queens5")
    feed(poles("a1", "b3", "c5", "d7", "h2"))
    view = feed.model.view
    assert view.title == "5 Queens with no room for another"
    assert view.status == "Room for another Pole on e4, g6"
    assert dict(view.lights) == {"e4": Color.DIM_BLUE, "g6": Color.DIM_BLUE}


def test_model_hand_over_the_mat_keeps_the_board_and_its_lights() -> None:
    feed = Feed()
    feed(poles(*ONE_CONFLICT))
    before = feed.model.view
    feed(None)
    view = feed.model.view
    assert view.status == "A hand is over the mat"
    assert view.status_kind is QuestStatus.HAND and view.status_kind.colour == "hand"
    assert view.screen.position == before.screen.position
    assert view.lights == before.lights and view.problems == before.problems


def test_model_draws_the_position_given_else_the_reports_pieces() -> None:
    feed = Feed()
    layout = poles(*ONE_CONFLICT, side="north")
    view = feed.model.apply(feed.session.observe(layout, t=1.0), layout)
    assert view.screen.position == layout  # the layout judged, as given
    rooks = Feed("rooks")
    update = rooks(teleports("a2", "b4", "c3", "d5"))
    assert update.solved and rooks.model.view.status.startswith("Solved! class")
    drawn = layout_position(update.report) if update.report else None
    assert drawn is not None and rooks.model.view.screen.position == drawn
    assert {square_name(s) for s in range(64) if drawn.teleport_at(s) is not None} == {
        "a2", "b4", "c3", "d5"}
    assert not any(drawn.poles)


def test_model_shows_the_sessions_note_and_words_counts() -> None:
    model = QuestScreenModel("queens")
    assert model.say("score not kept: disk full").note == "score not kept: disk full"
    assert counter_text((), 1) == "Found 0 of 1 class"
    assert counter_text((2, 5), 12) == "Found 2 of 12 classes"
    assert found_text((4,)) == "Class found: 4" and found_text(()) == "No class found yet"


def test_quest_model_does_not_import_kivy() -> None:
    done = subprocess.run([sys.executable, "-c", "import sys, companion.app.quest_model; "
                           "print('kivy' in sys.modules)"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={**os.environ, "KIVY_NO_ARGS": "1"})
    assert done.returncode == 0, done.stderr
    assert done.stdout == "False\n"


# --- the screen, in the window -------------------------------------------------------------

RGB = tuple[int, int, int]


def reddish(c: RGB) -> bool:
    return c[0] > 180 and c[0] > c[1] + 80 and c[0] > c[2] + 80


def amber(c: RGB) -> bool:
    return c[0] > 200 and 110 < c[1] < 210 and c[2] < 100


def greenish(c: RGB) -> bool:
    return c[1] > c[0] + 40 and c[1] > c[2] + 40


def bluish(c: RGB) -> bool:
    return c[2] > c[0] + 40 and c[2] > c[1] + 25


def unlit(c: RGB) -> bool:  # the mat's own beige
    return not (reddish(c) or amber(c) or greenish(c) or bluish(c))


class QuestWindow:
    """A QuestApp's screen laid over the game screen in the shared window."""

    def __init__(self, driver: Any, session: QuestSession) -> None:
        from kivy.app import App

        from companion.app.quest import QuestApp

        self.driver = driver
        self.session = session
        running = App.get_running_app()
        self.app = QuestApp(session, run_source=False)
        App._running_app = running  # the game app stays the running one for its tests
        self.screen = self.app.build()
        self.t = 0.0

    def observe(self, position: Position | None, frames: int = 6) -> QuestUpdate:
        self.t += 1.0
        update = self.session.observe(position, t=self.t)
        self.driver.frames(frames)
        return update

    def colour(self, name: str) -> RGB:
        """The colour of space ``name`` beside its Pole (off the centre, spots, stripes)."""
        return self.driver.pixel(*self.screen.board.point(name, 0.27, 0.73))


@pytest.fixture
def quest_window(app_driver: Any) -> Iterator[Callable[..., QuestWindow]]:
    from kivy.core.window import Window

    from tests.companion.app.test_app import LANDSCAPE

    app_driver.resize(*LANDSCAPE)
    opened: list[QuestWindow] = []

    def open_screen(quest: str = "queens", player: str = "Ann") -> QuestWindow:
        qw = QuestWindow(app_driver, QuestSession(quest, player=player))
        Window.add_widget(qw.screen)
        qw.app.attach()
        app_driver.frames(6)
        opened.append(qw)
        return qw

    yield open_screen
    for qw in opened:
        Window.remove_widget(qw.screen)
        qw.app.close_session()
    app_driver.frames(4)


def test_screen_shows_a_conflict_in_words_and_lights(quest_window: Any) -> None:
    qw = quest_window()
    screen = qw.screen
    assert screen.ids.title.text == "8 Queens" and screen.ids.player.text == "Player: Ann"
    assert screen.ids.status.text == "Lay 8 Poles on the mat"
    assert screen.ids.counter.text == "Found 0 of 12 classes"
    assert unlit(qw.colour("c6"))

    qw.observe(poles(*ONE_CONFLICT))
    assert screen.ids.status.text == "1 conflict: c6 and c8 same column c"
    assert screen.ids.problems.text == "• Poles in line: c6 and c8: same column c (c7 between)"
    assert dict(screen.board.lights) == {"c6": Color.RED, "c8": Color.RED, "c7": Color.AMBER}
    assert reddish(qw.colour("c6")) and reddish(qw.colour("c8"))
    assert amber(qw.colour("c7"))
    assert all(unlit(qw.colour(n)) for n in ("a2", "e3", "h5", "c5", "d7"))
    # The status strip is red like the game's illegal banner.
    from companion.app import theme
    from tests.companion.app.test_app import _rgb, near

    x, y = screen.ids.status.to_window(screen.ids.status.x + 4, screen.ids.status.center_y)
    assert near(qw.driver.pixel(x, y), _rgb(theme.BANNER["illegal"]))
    # The Poles are drawn on their spaces: markers in one neutral colour (the update does
    # not say whose Poles they are).
    south = _rgb(theme.PIECE[Side.SOUTH])
    centre = screen.board.point("e3", 0.5, 0.3)
    assert not near(qw.driver.pixel(*centre), south)  # drawn from the report: neutral Poles
    assert near(qw.driver.pixel(*centre), _rgb(theme.PIECE[Side.NORTH]))


def test_screen_shows_a_solution_and_counts_the_classes(quest_window: Any) -> None:
    qw = quest_window()
    screen = qw.screen
    qw.observe(poles(*CLASS3))
    assert screen.ids.status.text == "Solved! class 3 of 12 — new"
    assert screen.ids.counter.text == "Found 1 of 12 classes"
    assert screen.ids.found.text == "Class found: 3"
    assert screen.ids.progress.value == pytest.approx(1 / 12)
    assert screen.ids.problems.text == ""
    assert all(greenish(qw.colour(n)) for n in CLASS3)
    assert unlit(qw.colour("a1")) and unlit(qw.colour("d4"))

    qw.observe(poles(*mirrored(CLASS3)))
    assert screen.ids.status.text == "Solved! class 3 of 12 — found before"
    qw.observe(poles(*CLASS1))
    assert screen.ids.counter.text == "Found 2 of 12 classes"
    assert screen.ids.found.text == "Classes found: 1, 3"
    assert screen.ids.progress.value == pytest.approx(2 / 12)


def test_screen_hand_over_the_mat_keeps_the_lights(quest_window: Any) -> None:
    qw = quest_window()
    qw.observe(poles(*ONE_CONFLICT))
    qw.observe(None)
    assert qw.screen.ids.status.text == "A hand is over the mat"
    assert reddish(qw.colour("c6")) and amber(qw.colour("c7"))


def test_screen_free_spaces_dim_blue_in_a_maximal_quest(quest_window: Any) -> None:
    qw = quest_window("queens5", player="Ben")
    qw.observe(poles("a1", "b3", "c5", "d7", "h2"))
    assert qw.screen.ids.title.text == "5 Queens with no room for another"
    assert qw.screen.ids.status.text == "Room for another Pole on e4, g6"
    assert bluish(qw.colour("e4")) and bluish(qw.colour("g6"))
    assert unlit(qw.colour("f4")) and unlit(qw.colour("a1"))


def test_updates_from_the_frame_thread_reach_widgets_on_the_main_thread(
        quest_window: Any) -> None:
    qw = quest_window()
    shown_on: list[int] = []
    show = qw.screen.show
    qw.screen.show = lambda view: (shown_on.append(threading.get_ident()), show(view))
    worker = threading.Thread(target=qw.session.observe, args=(poles(*ONE_CONFLICT),),
                              kwargs={"t": 1.0})
    worker.start()
    worker.join()
    assert qw.screen.ids.status.text == "Lay 8 Poles on the mat"  # queued, not shown yet
    qw.driver.frames(4)
    assert qw.screen.ids.status.text == "1 conflict: c6 and c8 same column c"
    assert shown_on == [threading.get_ident()]


# --- run_quest_app and the screenshot, in their own processes ---------------------------------

def _run(code: str, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a new Python process under the window environment ``env``."""
    full = {**os.environ, **{k: v for k, v in env.items() if v}}
    for key in [k for k, v in env.items() if not v]:
        full.pop(key, None)
    return subprocess.run([sys.executable, "-c", code, *args], env=full, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


RUN_APP = """
import numpy as np
from companion.app import prepare_kivy_env
prepare_kivy_env(quiet=True)
from kivy.app import App
from kivy.clock import Clock
from companion.app import run_quest_app
from companion.live.quest import QuestSession
from companion.rules.teleporters import Position
from companion.live.session import Sighting
from vision.gate import GateState
from vision.sources import Frame, SourceEvent, SourceEventKind

LAYOUTS = __LAYOUTS__

class Source:  # two layouts, then the end of the recording
    name = "fake"
    def __init__(self):
        self.i, self.closed = 0, False
    def read(self):
        self.i += 1
        if self.i > len(LAYOUTS):
            return SourceEvent(SourceEventKind.ENDED, "done", float(self.i))
        return Frame(np.zeros((4, 4, 3), np.uint8), float(self.i), self.i)
    def close(self):
        self.closed = True

class Vision:  # what a camera would report for each frame
    def see(self, image, t):
        names = LAYOUTS[int(t) - 1]
        doc = {"game": "teleporters", "to_move": "south",
               "poles": {n: "south" for n in names}, "ports": []}
        return Sighting(t, GateState.STILL, doc, None, None)

source = Source()
session = QuestSession("queens", player="Ann", vision=Vision(), source=source)
def close(_dt):  # the player closes the window once the verdict is shown
    app = App.get_running_app()
    screen = app.quest_screen
    if "Solved" not in screen.status:
        return
    print("status:", screen.status, "| counter:", screen.counter, "| title:", app.title)
    print("reader daemon:", app.frame_thread.daemon)
    app.stop()
    return False
Clock.schedule_interval(close, 0.2)
run_quest_app(session, title="Quest table", size=(800, 500))
print("source closed:", source.closed)
""".replace("__LAYOUTS__", repr([ONE_CONFLICT, CLASS3]))


def test_run_quest_app_reads_the_source_and_closes_the_session(
        window_env: dict[str, str]) -> None:
    done = _run(RUN_APP, window_env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert ("status: Solved! class 3 of 12 — new | counter: Found 1 of 12 classes | "
            "title: Quest table") in done.stdout
    assert "reader daemon: True" in done.stdout
    assert done.stdout.rstrip().endswith("source closed: True")


SHOOT = """
import sys, tempfile
from pathlib import Path
from companion.app import configure_window, prepare_kivy_env
prepare_kivy_env(home=tempfile.mkdtemp(prefix="kivy-home-"), quiet=True, offscreen=True)
configure_window((1280, 1280))
import cv2
import numpy as np
from kivy.base import EventLoop
from kivy.core.window import Window
from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels
from companion.app.quest import QuestApp
from companion.live.quest import QuestSession
from companion.rules.teleporters import Position

def poles(names):
    return Position.from_json({"game": "teleporters", "to_move": "south",
                               "poles": {n: "south" for n in names}, "ports": []})

session = QuestSession("queens", player="Ann")
app = QuestApp(session)
app._run_prepare()  # App.run() without its loop: build, open, on_start
Window.size = (1280, 800)  # a 10-inch tablet
session.observe(poles(__EARLIER__), t=1.0)  # a class found earlier
session.observe(poles(__NOW__), t=2.0)  # then one Pole put down in line with another
for _ in range(10):
    EventLoop.idle()
w, h = Window.size
img = np.frombuffer(glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE), np.uint8)
img = img.reshape(h, w, 4)[::-1, :, :3]
img = cv2.resize(img, None, fx=0.75, fy=0.75, interpolation=cv2.INTER_AREA)
path = Path(sys.argv[1])
path.parent.mkdir(parents=True, exist_ok=True)
assert cv2.imwrite(str(path), img[:, :, ::-1], [cv2.IMWRITE_PNG_COMPRESSION, 9])
print(app.quest_screen.status)
app.dispatch("on_stop")
""".replace("__EARLIER__", repr(CLASS1)).replace("__NOW__", repr(ONE_CONFLICT))


def test_screenshot_of_the_quest_screen(window_env: dict[str, str], tmp_path: Path) -> None:
    """The README's image: one conflict on the mat. ``QUEST_SCREENSHOT=1`` rewrites it."""
    out = SCREENSHOT if os.environ.get("QUEST_SCREENSHOT") else tmp_path / "app-quest.png"
    done = _run(SHOOT, window_env, str(out))
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "1 conflict: c6 and c8 same column c"
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 300_000
    assert SCREENSHOT.is_file()  # the README's copy


def test_package_exports_run_quest_app_without_importing_kivy() -> None:
    done = subprocess.run([sys.executable, "-c", "import sys, companion.app as a; "
                           "print(callable(a.run_quest_app), 'kivy' in sys.modules)"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "True False\n"

