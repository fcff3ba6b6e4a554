"""Detection of a whole frame: keep hold of the mat, sample every space, read the position."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.classify import (
    CORNER_EDGES,
    OTHER_READINGS,
    SIDES,
    WALL_SAMPLES,
    ColourModel,
    PieceGeometry,
    SampleLayout,
    SpaceReading,
    bare_side_like,
    blend_loglik,
    camera_drift,
    disc_change,
    discs_moved,
    hidden_pad_ink,
    image_samples,
    lines_worth_reading,
    may_show_a_piece,
    moved_discs,
    plain_look,
    position_json,
    printed_discs,
    quiet_discs,
    read_board,
    read_colour,
    sample_evidence,
    sample_layout,
    shaded_samples,
    shift_choice,
    shiftable_edges,
    shifted_wall_samples,
    take_shift,
    teleport_diagonals,
    undo_drift,
    unexplained_spaces,
)
from vision.classify import EDGES as SPACE_EDGES
from vision.config import CLASSIFY, GATE
from vision.errors import VisionError
from vision.gate import Palette, Surround
from vision.geometry import CameraModel, camera_model
from vision.matfind import EDGES, MatFix, MatTracker
from vision.shapes import (
    LineLayout,
    LinePatterns,
    Maps,
    PoleAxes,
    PoleRims,
    PoleShadow,
    ShadowOnLines,
    colour_walls_across,
    edge_side_like,
    foot_change,
    footprint_shading,
    lightness_at,
    line_layout,
    line_patterns,
    lines_in_shadow,
    log_change,
    own_shadow,
    pole_axes,
    pole_body,
    pole_rims,
    pole_shadow_score,
    rim_lines,
    rim_lines_shaded,
    rim_size,
    sample_maps,
    shaded_footprints,
    shading_spaces,
    shadow_in_view,
    shadow_point_words,
    shadow_points,
    shadow_points_by_own_walls,
    shadow_points_clear,
    veiled_lines,
    wall_bits,
    wall_structure,
    with_structure,
)


@dataclass(frozen=True, slots=True)
class Detection:
    position: dict[str, Any] | None  # the rules core's JSON form; None when occluded
    confidence: np.ndarray  # (64,) per space, index = file + 8 * rank (zeros when occluded)
    fix: MatFix
    occluded: bool = False

    @property
    def status(self) -> str:
        return "occluded" if self.occluded else "ok"

    def confidences_json(self) -> dict[str, float]:
        return {f"{'abcdefgh'[sq & 7]}{(sq >> 3) + 1}": round(float(c), 3)
                for sq, c in enumerate(self.confidence)}


@dataclass
class Detector:
    """Reads positions from frames of one camera, with a calibration's colours and mat fix."""

    colours: dict[str, ColourModel]
    fix: MatFix
    width: int
    height: int
    K: np.ndarray | None = None  # from a lens calibration
    empty: np.ndarray | None = None  # (64, S, 3) Lab of the empty mat, NaN where unseen
    geometry: PieceGeometry = field(default_factory=PieceGeometry)
    palette: Palette | None = None  # colours of the bare mat region: foreign blobs are hands
    inks: dict[str, ColourModel] | None = None  # the sides' colours printed on the mat
    # sides whose ink may be printed where their start pieces hid the pads (hidden_pad_ink)
    hidden_inks: tuple[str, ...] = ()
    undistort: Callable[[np.ndarray], np.ndarray] | None = None  # a lens's undistorter
    noise: float = 1.0  # the camera's noise against the empty look's (classify.camera_noise)
    # the table's brightening and shade allowances (classify.light_allowances)
    bright: float | None = None
    shade: float | None = None
    # (K, 2) the chromaticity shifts of a shadow here per unit of log lightness
    # (classify.shadow_tint); None: shadows only darken
    tint: np.ndarray | None = None
    # (64, 4, C) where wall candidates see print of a side's colour (classify.wall_camouflage):
    # the calibration's wall samples were chosen with it, and the empty look read there
    camouflage: np.ndarray | None = None
    # (Poles, Ports) of each side in the set (the start position's): a reading with more of
    # a side shows something other than the set's pieces over the mat (skin like light wood)
    set_size: tuple[int, int] | None = None
    # every piece of the set is on the mat, as in a game (none ever leaves it): a board read
    # one piece off is fitted to the set, and pieces hidden count with those beyond it;
    # False for a board that holds part of the set (a Solitaire Quest)
    whole_set: bool = True
    # any neighbour's Pole may cast a faint shadow on a space, not only as far as the Pole
    # shadow learned reaches: the start photo read back at calibration, where every start
    # Pole's shadows lie, also those too faint for every start Pole to share (that shared
    # part is what is learned); a bare space there darker than on the empty mat, by no
    # more than light does, is no hand (classify.unexplained_spaces' faintly_shaded_by)
    shade_anywhere: bool = False
    # (64, 4, J, K) the empty mat's lightness across every edge, and (64, Z, 3) on and beside
    # every Pole's axis (vision.shapes, at the calibration's fix): pieces coloured like the
    # mat are read from their shape
    empty_lines: np.ndarray | None = None
    empty_axes: np.ndarray | None = None
    # pole_body above which a space shows a Pole's body on this table (None: not read)
    body_threshold: float | None = None
    # a Pole's own shadow on this table, as every start Pole shared it (where else a Pole's
    # or a wall's shadow may fall), and the empty look where each space's Pole casts it
    pole_shadow: PoleShadow | None = None
    empty_shadows: np.ndarray | None = None
    # ... or, under a lamp near the mat, where each space's Pole casts its own shadow
    # (vision.shapes.learn_lamp_shadow; empty_shadows then read at its points): soft
    # shadows place where it ends too loosely to say where shadows cannot reach
    lamp_shadow: PoleShadow | None = None
    # how much of that shadow each side's (south, north) start Poles cast (a light Pole
    # lights its own shadow): a side's Pole casts its own by that measure
    shadow_scale: tuple[float, float] = (1.0, 1.0)
    # the deepest a Pole's own shadow may be by that measure (calibration.profile)
    shadow_most: float = CLASSIFY.shadow_most
    # foot_change above which a space's footprint shows a Pole on this table (None: not read)
    foot_threshold: float | None = None
    # ... where a Pole's or a wall's shadow may fall on the footprint (None: the same)
    foot_shade_threshold: float | None = None
    # (64, N, 2) the empty mat's lightness either side of each space's Pole rim
    # (vision.shapes.PoleRims, at the calibration's fix); None: rims not read
    empty_rims: np.ndarray | None = None
    # the border and table round the grid, where an arm crosses (vision.gate.Surround)
    surround: Surround | None = None
    # (64, 4 * WALL_SAMPLES, OTHER_READINGS, 3) the empty mat's look at the wall samples'
    # other readings (classify.SampleLayout.shifted, at the calibration's fix); None: not read
    empty_walls_shifted: np.ndarray | None = None
    _tracker: MatTracker = field(init=False)
    _empty_now: np.ndarray | None = field(init=False, default=None)
    # (empty look, layout's ink, hidden_pad_ink of them): planned once per layout
    _ink_at: tuple[np.ndarray, np.ndarray, np.ndarray] | None = field(init=False,
                                                                      default=None)
    # the empty look in use, where it is like each side's colour, which Pole discs it
    # prints in a side's colour, and which edges' walls it looks like (kept: constant)
    # ... and its typical look (classify.plain_look)
    _side_like: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool, np.ndarray
                      ] | None = field(init=False, default=None)
    _layout: tuple[np.ndarray, SampleLayout, np.ndarray] | None = field(init=False,
                                                                        default=None)
    # the wall samples' other readings' image points, and the empty look at every reading
    # with its likeness to each side, and the plain look, for the camera and layout in _cam
    _moved: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = field(
        init=False, default=None)
    # the last camera() answer: its homography's and intrinsics' bytes, the layout, the
    # camera and its image sample points
    _cam: tuple[bytes, SampleLayout, CameraModel, np.ndarray] | None = field(init=False,
                                                                            default=None)
    _shapes: tuple[LineLayout, PoleAxes, PoleRims, ShadowOnLines | None] | None = field(
        init=False, default=None)
    # the empty look's pattern across every edge, with the profiles it was read from
    _line_patterns: tuple[LineLayout, LinePatterns] | None = field(init=False, default=None)
    # the camera's homography and where the wall profiles, Pole axes and rims lie in its
    # image
    # (and the wall profiles at line_kept_along of their places along, for the hand check)
    _shape_maps: tuple[np.ndarray, Maps, Maps, Maps, Maps] | None = field(init=False,
                                                                          default=None)
    # where each space's Pole shadow lies in the image, which of it is in view, and which
    # spaces (packed bits) may touch each point of it (vision.shapes.shadow_point_spaces)
    # ... and which of its points each of its own walls may shade
    _shadow_maps: tuple[np.ndarray, Maps, np.ndarray, np.ndarray, np.ndarray] | None = field(
        init=False, default=None)
    # for each space, the spaces whose pieces' shadows may fall on its footprint
    # ... and which of its own walls may shade it
    _shading: tuple[np.ndarray, np.ndarray] | None = field(init=False, default=None)
    # for each space's rim line, the walls whose shadows may cross its view of the mat
    # (vision.shapes.rim_lines_shaded)
    _rim_shading: np.ndarray | None = field(init=False, default=None)
    # ... and the spaces whose Pole's shadow may fall near each space's centre
    _shaded_by: np.ndarray | None = field(init=False, default=None)
    _tracked: bool = field(init=False, default=False)  # prepare() last moved the tracker
    # the last frame's exposure and white balance against calibration's (camera_drift)
    drift: tuple[float, np.ndarray] = field(init=False, default=(0.0, np.zeros(2, np.float32)))

    def __post_init__(self) -> None:
        self._tracker = MatTracker(self.fix)
        self._empty_now = self.empty

    @property
    def empty_in_use(self) -> bool:
        """Whether the empty-mat look learned at calibration is used: only while the camera
        is where it was then (each sample's look belongs to that view of the mat)."""
        return self._empty_now is not None

    def prime(self, corners: np.ndarray, layout: SampleLayout, K: np.ndarray,
              shapes: tuple[LineLayout, PoleAxes, PoleRims] | None = None) -> None:
        """Take a sample layout (and wall profiles, Pole axes and rims) already planned for a fix
        with these corners (planning one takes a good fraction of a second)."""
        self._layout = (corners, layout, K)
        if shapes is not None:
            self._shapes = (*shapes, lines_in_shadow(shapes[0], self.pole_shadow))

    def camera(self, fix: MatFix) -> tuple[CameraModel, SampleLayout, np.ndarray]:
        """Camera, sample layout and image sample points for a fix. The layout (and the focal
        length, when it is estimated) is planned once and kept until the mat's corners move
        in the image: a still camera's estimates must not jitter from frame to frame."""
        if (self._layout is None or np.abs(self._layout[0] - fix.corners).max()
                > CLASSIFY.replan_px):
            # A bumped camera sees other bits of mat at each sample: forget the empty look
            # until it is back where it was calibrated. Back home, the samples are planned
            # from the calibration's own fix: the empty look was read at exactly those.
            home = np.abs(self.fix.corners - fix.corners).max() <= CLASSIFY.replan_px
            self._empty_now = self.empty if home else None
            cam = camera_model((self.fix if home else fix).homography, self.width,
                               self.height, self.K)
            layout = sample_layout(cam, self.geometry,
                                   camouflaged=self.camouflage if home else None)
            self._layout = (fix.corners, layout, cam.K)
        _, layout, K = self._layout
        if (self._empty_now is not None
                and np.abs(self.fix.corners - fix.corners).max()
                <= (CLASSIFY.home_px_checker if self.fix.polarity == EDGES
                    else CLASSIFY.home_px)):
            # The camera has not moved: a fit to lines that pieces partly hide wanders by a
            # pixel, and the empty look was read exactly where the calibration's fix puts it.
            fix = self.fix
        # A still camera's fix is the same frame after frame: so are its camera and points.
        key = fix.homography.tobytes() + K.tobytes()
        if self._cam is not None and self._cam[1] is layout and self._cam[0] == key:
            return self._cam[2], layout, self._cam[3]
        cam = camera_model(fix.homography, self.width, self.height, K)
        uv = image_samples(layout, cam)
        self._cam = (key, layout, cam, uv)
        self._moved = None
        return cam, layout, uv

    def _walls_where_they_stand(self, image: np.ndarray, cam: CameraModel,
                                layout: SampleLayout, feat: np.ndarray, empty: np.ndarray,
                                change: np.ndarray
                                ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """The frame's features ``feat`` and the empty look ``empty`` (64, S, 3) with each
        edge's wall samples read where a wall shows best: as planned, moved a little across
        the edge, or on the wall's top (classify.shift_choice); and the empty look's
        likeness to each side there (None where none moved: then ``feat`` and ``empty``
        come back as they were). ``change``: classify.disc_change of the frame: where a
        Pole stands, its edges are read as planned."""
        if (self.empty_walls_shifted is None or layout.shifted is None
                or layout.shift_ok is None):
            return feat, empty, None
        wall = layout.wall
        if self._moved is None:
            looks = np.concatenate([empty[:, wall, None], self.empty_walls_shifted], axis=2)
            self._moved = (shifted_wall_samples(layout, cam), looks,
                           bare_side_like(looks, self.colours), plain_look(looks))
        uv, looks, like, plain = self._moved
        pole = discs_moved(change)
        # only the edges that may move are read the other ways (a Pole's keep theirs)
        shiftable = shiftable_edges(pole)
        rows = np.repeat(shiftable, WALL_SAMPLES, axis=1)  # (64, 4W)
        if not rows.any():
            return feat, empty, None
        planned = feat[:, wall, None]
        readings = np.repeat(planned, 1 + OTHER_READINGS, axis=2)
        readings[rows, 1:] = undo_drift(read_colour(image, uv[rows]), self.drift)
        # scored only on lines where a reading may show a wall at every sample (most show
        # bare mat every way): scoring every reading cost as much as scoring the board
        may = np.zeros(uv.shape[:3], bool)
        may[rows] = may_show_a_piece(readings[rows, 1:], looks[rows, 1:], self.noise,
                                     self.bright, self.shade, self.tint)
        rows = np.repeat(lines_worth_reading(may, layout.shift_ok, shiftable), WALL_SAMPLES,
                         axis=1)
        if not rows.any():
            return feat, empty, None
        ink = np.repeat(layout.ink[:, wall, None], 1 + OTHER_READINGS, axis=2)
        _, ll, mute_read = sample_evidence(readings[rows], self.colours, looks[rows],
                                           self.inks, ink[rows], like[rows], self.noise, None,
                                           self.bright, self.shade, self.tint, plain)
        # the others: as though every reading showed bare mat, surely (shift_choice keeps
        # them; finite, so that no sum of them is NaN)
        loglik = np.zeros((*readings.shape[:3], 3), ll.dtype)
        loglik[..., 1:] = -1e6
        loglik[rows] = ll
        mute = np.zeros(readings.shape[:3], bool)
        mute[rows] = mute_read.any(axis=-1)
        choice = shift_choice(loglik, layout.shift_ok, pole, mute)
        if not choice.any():
            return feat, empty, None
        return (take_shift(feat, readings, choice, wall), take_shift(empty, looks, choice, wall),
                np.take_along_axis(like, choice[..., None, None], axis=2)[:, :, 0])

    def detect(self, image: np.ndarray, track: bool = True) -> Detection:
        """Read ``image`` ((H, W, 3) uint8 BGR). With ``track`` the mat is followed (and
        re-found if the camera moved); otherwise the calibration's fix is used as it is."""
        image, fix = self.prepare(image, track)
        return self.read(image, fix)

    def prepare(self, image: np.ndarray, track: bool = True) -> tuple[np.ndarray, MatFix]:
        """The frame as detection sees it (undistorted when there is a lens calibration) and
        the mat's fix in it: the cheap half of :meth:`detect`. A frame of another size than
        calibration's is refused (VisionError): every point of the calibration belongs to
        its pixels, and a resized frame would be read confidently wrong."""
        if self.undistort is not None:  # a lens calibration: work on the undistorted frame
            image = self.undistort(image)  # (it names a frame of another size its own way)
        h, w = image.shape[:2]
        if (w, h) != (self.width, self.height):
            raise VisionError(f"the frame is {w}x{h} but the profile was calibrated on "
                              f"{self.width}x{self.height} frames: set the camera to "
                              f"{self.width}x{self.height}, or calibrate again at {w}x{h}")
        self._tracked = track
        return image, (self._tracker.update(image) if track else self.fix)

    def read(self, image: np.ndarray, fix: MatFix) -> Detection:
        """Read the board in a frame from :meth:`prepare` ((H, W, 3) uint8 BGR)."""
        cam, layout, uv = self.camera(fix)
        feat = read_colour(image, uv)
        # auto-exposure and white balance since calibration, measured where the bare look is
        self.drift = (camera_drift(feat, self._empty_now) if self._empty_now is not None
                      else (0.0, np.zeros(2, np.float32)))
        feat = undo_drift(feat, self.drift)
        base = empty = self._empty_now
        moved_like = change = None
        if base is not None:  # each wall read where it shows best (a Port set down off)
            change = disc_change(feat, base, layout, self.noise, self.bright, self.shade,
                                 self.tint)
            feat, empty, moved_like = self._walls_where_they_stand(image, cam, layout, feat,
                                                                   base, change)
        # A hand: spaces no piece and no bare mat explains, a blob of foreign colour, or an
        # arm across the table round the mat (seen as calibration saw it: a still camera).
        # Shadows are known only from an empty-mat photo (its shapes' looks came with it):
        # with one but no clear Pole shadow learned, any neighbour's Pole may cast one
        if self._shaded_by is None and self.empty_lines is not None:
            self._shaded_by = shading_spaces(self.pole_shadow, CLASSIFY.shadow_explains)
        faint = (shading_spaces(None, CLASSIFY.shadow_explains)
                 if self.shade_anywhere and self.empty_lines is not None else None)
        if unexplained_spaces(feat, self.colours, empty, layout, self.noise,
                              self._shaded_by, faint).any() or (
                self.palette is not None
                and self.palette.foreign_fraction(image, fix.homography, self.drift)
                >= GATE.occluded_fraction) or (
                self.surround is not None and self._empty_now is not None
                and self.surround.crossed(image, cam, self.drift, self.noise, self.bright,
                                          self.shade, self.tint)):
            return self._occluded(fix)
        discs_like = False
        plain = None
        if base is None or empty is None:
            side_like = changed = shaded = None
        else:
            if self._side_like is None or self._side_like[0] is not base:
                like = bare_side_like(base, self.colours)
                self._side_like = (base, like, printed_discs(base, like, layout),
                                   edge_side_like(like, layout.wall),
                                   bool(like[:, np.r_[layout.top, layout.foot]].any()),
                                   plain_look(base))
            _, side_like, printed, edge_like, discs_like, plain = self._side_like
            if moved_like is not None:  # walls read moved: the bare look there
                side_like = side_like.copy()
                side_like[:, layout.wall] = moved_like
                edge_like = edge_side_like(side_like, layout.wall)
            assert change is not None  # the discs are not wall samples: as read above
            changed = moved_discs(change, layout)
            shaded = shaded_samples(feat, empty, self.noise)
        ink_at = layout.ink
        if self.inks and self.hidden_inks and empty is not None:
            if (self._ink_at is None or self._ink_at[0] is not base
                    or self._ink_at[1] is not ink_at):
                assert base is not None
                self._ink_at = (base, ink_at, hidden_pad_ink(ink_at, base,
                                                                self.hidden_inks))
            ink_at = self._ink_at[2]
        labels, loglik, camouflage = sample_evidence(feat, self.colours, empty, self.inks,
                                                     ink_at, side_like, self.noise,
                                                     changed, self.bright, self.shade,
                                                     self.tint, plain)
        if change is not None and shaded is not None:
            camouflage |= quiet_discs(change, printed, shaded, layout)
        walls = bodies = shadows = sheltered = feet = rims = across = None
        if empty is not None and side_like is not None:
            walls, bodies, shadows, sheltered, rims, across = self._shapes_seen(
                image, cam, layout, discs_like, edge_like)
            if self.foot_threshold is not None and discs_like:
                if self._shading is None:
                    self._shading = footprint_shading(self.pole_shadow, self.geometry)
                shading = self._shading
                # where no shadow may fall, and where one may (as the start pieces' shadows
                # changed the bare footprints they fell on at calibration)
                clear_threshold = self.foot_threshold
                shade_threshold = self.foot_shade_threshold or clear_threshold

                changes: dict[bytes, np.ndarray] = {}

                def feet(poles: np.ndarray, walls: np.ndarray
                         ) -> tuple[np.ndarray, np.ndarray]:
                    shaded = shaded_footprints(shading, poles, walls)
                    # the Poles are read twice a frame, mostly the same the second time
                    key = poles.tobytes()
                    if key not in changes:
                        changes[key] = foot_change(feat, empty, layout, self.noise, poles)
                    return changes[key] / np.where(shaded, shade_threshold,
                                                   clear_threshold), shaded
        readings = read_board(labels, loglik, camouflage, layout,
                              lambda squares, poles: teleport_diagonals(
                                  image, cam, squares, self.geometry, poles),
                              side_like, shaded, walls, bodies, shadows, feet,
                              None if empty is None else lambda rows: blend_loglik(
                                  feat[rows][:, layout.wall], empty[rows][:, layout.wall],
                                  self.colours, self.noise), rims,
                              self.set_size if self.whole_set else None, self.shadow_most,
                              sheltered)
        # One piece too many may be a misreading, which the referee names, and so may two
        # read unsure (it asks to look again there); more, or read sure, are something else
        # over the mat read as pieces (a hand the colour of light wood). Such a hand hides
        # the pieces under it as it shows some of its own: in a game, where every piece is
        # on the mat, those it hides count with those beyond the set.
        if self.set_size is not None and pieces_over_the_mat(readings, self.set_size,
                                                             self.whole_set):
            return self._occluded(fix)
        # A hand coloured like the mat (skin over light wood) reads as bare mat, but hides
        # the print under it: the grid lines across spaces side by side, no piece read there
        if across is not None and self.empty_lines is not None and self._shapes is not None:
            lines = self._shapes[0]
            if self._line_patterns is None or self._line_patterns[0] is not lines:
                along = list(GATE.line_kept_along)
                self._line_patterns = (lines, line_patterns(
                    self.empty_lines[:, :, along], lines.poles_in_view[:, :, along]))
            poles = np.array([r.pole is not None for r in readings])
            veiled = veiled_lines(across, self._line_patterns[1], poles,
                                  walls_on_lines(readings))
            if veiled_together(veiled.sum(axis=1) >= GATE.veiled_edges) >= GATE.veiled_spaces:
                return self._occluded(fix)
        self._tracked = False
        conf = np.array([r.confidence for r in readings])
        return Detection(position_json(readings), conf, fix)

    def _shapes_seen(self, image: np.ndarray, cam: CameraModel, layout: SampleLayout,
                     discs_like: bool, edge_like: np.ndarray
                     ) -> tuple[Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray] | None,
                                np.ndarray | None, Callable[[np.ndarray], np.ndarray] | None,
                                Callable[[np.ndarray, np.ndarray], np.ndarray] | None,
                                np.ndarray | Callable[[np.ndarray], np.ndarray] | None,
                                np.ndarray | None]:
        """What the shapes of pieces coloured like the mat say (:mod:`vision.shapes`), for
        :func:`vision.classify.read_board`: walls, Pole bodies, Pole shadows (and those past
        the space's own walls' shadows) and the rims of Pole tops. Each only
        where the empty-mat photo gave its points' look, and where some wall (``edge_like``
        (64, 4, 2)) or Pole disc (``discs_like``) looks like a side's colour on the bare
        mat: elsewhere colour tells every piece. Last, the lightness across every edge at
        ``line_kept_along`` of its places (64, 4, len(line_kept_along), K), for the hand
        check (:func:`vision.shapes.veiled_lines`)."""
        walls = bodies = shadows = sheltered = rims = None
        if self.empty_lines is None:
            return None, None, None, None, None, None
        if self._shapes is None:  # planned once: the empty look was read at the home fix
            lines = line_layout(cam, self.geometry)
            self._shapes = (lines, pole_axes(cam, self.geometry), pole_rims(cam, self.geometry),
                            lines_in_shadow(lines, self.pole_shadow))
        lines, axes, rim_plan, lines_shaded = self._shapes
        along = list(GATE.line_kept_along)
        if self._shape_maps is None or not np.array_equal(self._shape_maps[0], cam.homography):
            self._shape_maps = (cam.homography, sample_maps(lines.points, cam),
                                sample_maps(axes.points, cam, axes.heights),
                                sample_maps(rim_plan.points, cam, rim_plan.heights),
                                sample_maps(lines.points[:, :, along], cam))
        # the hand check looks across every line, every frame (veiled_lines), at a few
        # places along each: all of them where walls are read from their shape too
        across = None
        if edge_like.any():
            at_lines = lightness_at(image, self._shape_maps[1])
            across = at_lines[:, :, along]
            empty_lines = self.empty_lines

            def walls(poles: np.ndarray, edge_ll: np.ndarray, edge_sides: np.ndarray
                      ) -> np.ndarray:
                return with_structure(
                    edge_ll, wall_structure(at_lines, empty_lines, lines, poles, self.noise,
                                            lines_shaded),
                    edge_like, colour_walls_across(edge_sides, edge_like))
        if across is None:
            across = lightness_at(image, self._shape_maps[4])
        if not discs_like:
            return walls, None, None, None, None, across
        if self.empty_axes is not None and self.body_threshold is not None:
            bodies = pole_body(lightness_at(image, self._shape_maps[2]), self.empty_axes,
                               self.noise) / self.body_threshold
        if self.empty_rims is not None:
            rims = self._rims(lightness_at(image, self._shape_maps[3]), self.empty_rims, cam,
                              rim_plan)
        own = own_shadow(self.pole_shadow, self.lamp_shadow)
        if own is not None and self.empty_shadows is not None:
            if self._shadow_maps is None or not np.array_equal(self._shadow_maps[0],
                                                               cam.homography):
                self._shadow_maps = (
                    cam.homography, sample_maps(shadow_points(own), cam),
                    shadow_in_view(own, cam, self.geometry, (self.width, self.height)),
                    shadow_point_words(own, cam, self.geometry),
                    shadow_points_by_own_walls(own, CLASSIFY.foot_shade_margin
                                               + self.geometry.wall_thickness, self.geometry,
                                               cam))
            _, at, in_view, touched, by_own_walls = self._shadow_maps
            # as the calibration's exposure would show it (a shadow is a ratio to it)
            at_shadows = ((lightness_at(image, at) + 0.02)
                          * np.float32(np.exp(-self.drift[0])) - 0.02)
            empty_shadows, pole_shadow = self.empty_shadows, own
            shadow_change = log_change(at_shadows, empty_shadows)  # the same every call

            scale = np.array(self.shadow_scale, np.float32)

            def fitted(points: np.ndarray) -> np.ndarray:
                return pole_shadow_score(at_shadows, empty_shadows, pole_shadow, points,
                                         shadow_change)[:, None] / scale

            def shadows(occupied: np.ndarray) -> np.ndarray:
                return fitted(in_view & shadow_points_clear(touched, occupied))

            def sheltered(occupied: np.ndarray, walls: np.ndarray) -> np.ndarray:
                past = ~(by_own_walls & walls[:, None, None, :]).any(axis=-1)
                return fitted(in_view & shadow_points_clear(touched, occupied) & past)
        return walls, bodies, shadows, sheltered, rims, across

    def _rims(self, light: np.ndarray, empty: np.ndarray, cam: CameraModel,
              rim_plan: PoleRims) -> np.ndarray | Callable[[np.ndarray], np.ndarray]:
        """The Pole rims (:func:`vision.shapes.pole_rim`) of rim points' lightness
        ``light`` (64, N, 2) (``empty``: as the empty mat showed them): given the walls
        read standing (64, 4) bool, with the lines whose view of the mat those walls'
        shadows may cross left out; as they are where no shadow was learned."""
        lines, seen = rim_lines(light, empty, rim_plan, self.noise)
        if self.pole_shadow is None:
            return rim_size(lines, seen)
        if self._rim_shading is None:  # planned once, with the rest of the shapes
            self._rim_shading = rim_lines_shaded(cam, rim_plan, self.pole_shadow,
                                                 CLASSIFY.foot_shade_margin, self.geometry)
        shading = self._rim_shading
        sizes: dict[bytes, np.ndarray] = {}

        def rims(walls: np.ndarray) -> np.ndarray:
            key = walls.tobytes()  # read two or three times a frame, mostly the same
            if key not in sizes:
                crossed = ((shading & wall_bits(walls)) != 0).any(axis=-1)
                sizes[key] = rim_size(lines, seen, crossed)
            return sizes[key]

        return rims

    def _occluded(self, fix: MatFix) -> Detection:
        if self._tracked:  # a hand over the lines must not pull the mat's fix off
            self._tracker.undo()
            self._tracked = False
        return Detection(None, np.zeros(64), fix, occluded=True)


def walls_on_lines(readings: list[SpaceReading]) -> np.ndarray:
    """(64, 4) bool, EDGES order: a wall read standing on each edge's grid line, the space's
    own or its neighbour's across the line (``readings`` (64), a Teleport walls all four)."""
    own = np.zeros((64, 4), bool)
    for sq, r in enumerate(readings):
        for corner, _ in r.ports:
            for edge in CORNER_EDGES[corner]:
                own[sq, SPACE_EDGES.index(edge)] = True
    grid = own.reshape(8, 8, 4)  # rank, file, edge
    out = grid.copy()
    s, n, w, e = (SPACE_EDGES.index(x) for x in "snwe")
    out[1:, :, s] |= grid[:-1, :, n]
    out[:-1, :, n] |= grid[1:, :, s]
    out[:, 1:, w] |= grid[:, :-1, e]
    out[:, :-1, e] |= grid[:, 1:, w]
    return out.reshape(64, 4)


def veiled_together(veiled: np.ndarray) -> int:
    """The most spaces of ``veiled`` (64,) bool, index file + 8 * rank, side by side (4-way
    connected)."""
    count, labels = cv2.connectedComponents(veiled.reshape(8, 8).astype(np.uint8),
                                            connectivity=4)
    if count <= 1:
        return 0
    return int(np.bincount(labels.ravel())[1:].max())


def pieces_over_the_mat(readings: list[SpaceReading], set_size: tuple[int, int],
                        whole_set: bool = True) -> bool:
    """Whether ``readings`` (64) show something other than the set's pieces over the mat,
    read as pieces: ``beyond_the_set`` pieces more than the set has, one of them sure,
    ``beyond_the_set_unsure`` however unsure (not every piece seen), or ``off_the_set``
    beyond it, with those short of it where every piece is on the mat
    (``whole_set``: a game) and not every piece is seen (as many Poles and Ports read as
    the set has, some on the other side: sides misread, nothing hidden)."""
    counts = _pieces_read(readings)
    extra = _beyond(*counts, set_size)
    # Where every piece is on the mat (a game) those hidden count with those beyond, unless
    # every piece of the set is seen, some read as the other side's: sides misread (a black
    # Port's glossy walls mirroring the scarlet wall beside them), not a hand hiding pieces
    # as it shows others.
    seen = _all_seen(*counts, set_size)
    short = _short(*counts, set_size) if whole_set and not seen else 0
    return (extra > 0 and extra + short >= GATE.off_the_set) or (
        extra >= GATE.beyond_the_set_unsure and not seen) or (
        extra >= GATE.beyond_the_set
        and beyond_the_set(readings, set_size, GATE.beyond_the_set_sure) > 0)


def _all_seen(poles: dict[str, int], ports: dict[str, int], set_size: tuple[int, int]
              ) -> bool:
    """Whether the Poles and Ports read (each side's counts) are as many, both sides
    together, as the set (``set_size``: Poles, Ports per side) has."""
    return (sum(poles.values()) == len(SIDES) * set_size[0]
            and sum(ports.values()) == len(SIDES) * set_size[1])


def _short(poles: dict[str, int], ports: dict[str, int], set_size: tuple[int, int]) -> int:
    return sum(max(0, set_size[0] - poles[s]) + max(0, set_size[1] - ports[s]) for s in SIDES)


def _beyond(poles: dict[str, int], ports: dict[str, int], set_size: tuple[int, int]) -> int:
    return sum(max(0, poles[s] - set_size[0]) + max(0, ports[s] - set_size[1]) for s in SIDES)


def _pieces_read(readings: list[SpaceReading], sure: float = 0.0
                 ) -> tuple[dict[str, int], dict[str, int]]:
    """The Poles and the Ports of each side ``readings`` (64) show, counting spaces read at
    confidence ``sure`` or more."""
    poles = {side: 0 for side in SIDES}
    ports = {side: 0 for side in SIDES}
    for r in readings:
        if r.confidence < sure:
            continue
        if r.pole is not None:
            poles[r.pole] += 1
        for _, side in r.ports:
            ports[side] += 1
    return poles, ports


def short_of_the_set(readings: list[SpaceReading], set_size: tuple[int, int]) -> int:
    """How many of the set's pieces (``set_size``: Poles, Ports per side) ``readings`` (64)
    do not show: pieces never leave the mat, so something hides them (or they are
    misread)."""
    return _short(*_pieces_read(readings), set_size)


def beyond_the_set(readings: list[SpaceReading], set_size: tuple[int, int],
                   sure: float = 0.0) -> int:
    """How many of the pieces ``readings`` (64, see :func:`vision.classify.read_board`) show
    are more than the set has: Poles and Ports of each side beyond ``set_size`` (Poles,
    Ports per side), counting spaces read at confidence ``sure`` or more. Pieces never enter
    play from outside the set."""
    return _beyond(*_pieces_read(readings, sure), set_size)
