"""Finding the mat in a frame, with no fiducials, and keeping hold of it frame to frame.

1. Candidates: convex quadrilaterals among the frame's outlines (edges and bright regions),
   each read two ways, as the 8x8 grid itself or as the printed mat round it.
2. Score: warp each reading top-down and measure how strongly the 7+7 inner grid lines stand
   out (dark, thin, evenly spaced); the best reading wins.
3. Refine: along each inner grid line, find the line's centre to a fraction of a pixel across
   it, fit the lines robustly (pieces and hands hide parts of them), intersect them, and fit
   the homography to the 49 crossings.

The result maps mat coordinates (x east, y north, spaces; the grid is [0, 8]^2) to image
pixels (u right, v down). Which corner is a1 is not knowable from the grid alone: the
rotation is fixed by calibration (the side colours) and kept by tracking.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

from vision.config import MATFIND
from vision.errors import GridNotFitted, VisionError
from vision.stats import median

GRID = np.array([[0, 0], [8, 0], [8, 8], [0, 8]], np.float64)


@dataclass(frozen=True, slots=True)
class MatFix:
    """Where the mat is: mat (x, y) -> image (u, v) homography and the quality of the fit."""

    homography: np.ndarray  # (3, 3) float64
    score: float  # grid-line contrast, in grey levels
    crossings: int  # grid crossings used in the final fit (of 49)
    rms_px: float  # residual of the crossings
    # 1: lines darker than the spaces (ink on paper); -1: lighter (cloth); 0 (EDGES): no
    # lines, spaces of alternating shade (a checkerboard): the grid is where they meet
    polarity: int = 1

    @property
    def corners(self) -> np.ndarray:
        """(4, 2) image points of the grid corners, in mat order (0,0) (8,0) (8,8) (0,8)."""
        return project(self.homography, GRID)

    def rotated(self, quarter_turns: int) -> MatFix:
        """The same fix with the mat's labels turned by ``quarter_turns`` x 90 degrees
        anticlockwise (what was corner (0,0) becomes corner (8,0) after one turn)."""
        k = quarter_turns % 4
        R = np.eye(3)
        for _ in range(k):
            R = np.array([[0, -1, 8], [1, 0, 0], [0, 0, 1]], float) @ R
        return MatFix(self.homography @ np.linalg.inv(R), self.score, self.crossings,
                      self.rms_px, self.polarity)


def project(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """(N, 2) points through a homography."""
    p = np.column_stack([pts, np.ones(len(pts))]) @ H.T
    return p[:, :2] / p[:, 2:3]


EDGES = 0  # MatFix.polarity of a grid drawn by its spaces' edges alone (a checkerboard)


def _edge_image(gray: np.ndarray) -> np.ndarray:
    """(H, W) float32: how sharply ``gray`` changes at each pixel (grey levels per pixel,
    after a slight blur). A checkerboard's spaces meet in a step whichever way it goes, so
    its grid is a network of light lines here, as a cloth mat's printed grid is in grey."""
    blur = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), MATFIND.edge_blur)
    gx = cv2.Sobel(blur, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(blur, cv2.CV_32F, 0, 1, ksize=3)
    return cv2.magnitude(gx, gy) * np.float32(MATFIND.edge_gain)


def _lines_of(gray: np.ndarray, polarity: int) -> tuple[np.ndarray, int]:
    """The image the grid's lines are read in, and their polarity there: for :data:`EDGES`,
    the edge image (:func:`_edge_image`), where they are light."""
    return (_edge_image(gray), -1) if polarity == EDGES else (gray, polarity)


def _gray(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise VisionError(f"expected an (H, W, 3) uint8 image, got {image.shape} {image.dtype}")
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _candidate_quads(gray: np.ndarray) -> list[np.ndarray]:
    """Convex quadrilaterals (4, 2) in ``gray``'s pixels, biggest first."""
    h, w = gray.shape
    min_area = MATFIND.min_area_fraction * h * w
    blur = cv2.GaussianBlur(gray, (5, 5), 0)
    masks = [cv2.dilate(cv2.Canny(blur, 40, 120), np.ones((3, 3), np.uint8))]
    _, bright = cv2.threshold(blur, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    masks += [bright, cv2.bitwise_not(bright)]  # a light mat on a dark table, or dark on light
    # The printed grid itself: its thin lines (dark or light) joined into one network, whose
    # outline is the grid's even where the mat's own edge melts into a patterned table.
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (MATFIND.line_kernel, MATFIND.line_kernel))
    for op in (cv2.MORPH_BLACKHAT, cv2.MORPH_TOPHAT):
        thin = cv2.morphologyEx(blur, op, k)
        _, lines = cv2.threshold(thin, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        masks.append(cv2.dilate(lines, np.ones((3, 3), np.uint8)))
    # Outlines that are quadrilaterals come first; those guessed from an outline with more
    # corners (each may give several) after them: a patterned table (marble veins joined
    # into blobs) gives many big guesses, which must not crowd a plain mat's outline out.
    quads: list[np.ndarray] = []
    guessed: list[np.ndarray] = []
    for mask in masks:
        contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            if cv2.contourArea(c) < min_area:
                continue
            hull = cv2.convexHull(c)
            peri = cv2.arcLength(hull, True)
            approx = cv2.approxPolyDP(hull, 0.02 * peri, True).reshape(-1, 2)
            if len(approx) == 4:
                quads.append(approx.astype(np.float64))
            elif 4 < len(approx) <= 8:
                # A hand or arm joined to the outline adds vertices; the mat's corners are
                # still among them. Scoring picks the right four among the biggest.
                hull_area = cv2.contourArea(approx.astype(np.float32))
                fours = [approx[list(idx)].astype(np.float64)
                         for idx in itertools.combinations(range(len(approx)), 4)]
                fours = [q for q in fours
                         if cv2.contourArea(q.astype(np.float32)) > 0.5 * hull_area]
                fours.sort(key=lambda q: -cv2.contourArea(q.astype(np.float32)))
                guessed += fours[:MATFIND.quads_per_outline]
                # ... or they lie beyond it: the inner grid lines of a borderless mat whose
                # edge melts into the table run to its edge, and their outline is the mat's
                # with its corners cut off (an octagon), whose four long sides are the mat's.
                cut = _long_sides_quad(approx.astype(np.float64))
                if cut is not None and cv2.contourArea(cut.astype(np.float32)) \
                        <= MATFIND.cut_corners_area * hull_area:
                    guessed.append(cut)
    for group in (quads, guessed):
        group.sort(key=lambda q: -cv2.contourArea(q.astype(np.float32)))
    quads += guessed
    kept: list[np.ndarray] = []  # several masks find the same outline: score it once
    rolled = np.zeros((0, 4, 4, 2))  # each kept outline's corners in its 4 rotations
    for q in quads:
        o = _order(q)
        if len(rolled) and float(np.abs(rolled - o).max(axis=(2, 3)).min()) \
                <= MATFIND.same_quad_px:
            continue
        kept.append(q)
        rolled = np.concatenate([rolled, np.stack([np.roll(o, k, axis=0)
                                                   for k in range(4)])[None]])
        if len(kept) == MATFIND.max_candidates:
            break
    return kept


def _long_sides_quad(poly: np.ndarray) -> np.ndarray | None:
    """(4, 2) the quadrilateral whose sides lie on the four longest sides of the convex
    polygon ``poly`` (n, 2), n > 4, in the polygon's order; None where two of those lines
    do not meet."""
    ends = np.roll(poly, -1, axis=0)
    longest = np.sort(np.argsort(-np.linalg.norm(ends - poly, axis=1))[:4])
    corners = []
    for a, b in zip(longest, np.roll(longest, -1), strict=True):
        p, r = poly[a], ends[a] - poly[a]
        q, t = poly[b], ends[b] - poly[b]
        den = r[0] * t[1] - r[1] * t[0]
        if abs(den) < 1e-9 * max(float(np.hypot(*r) * np.hypot(*t)), 1e-12):
            return None
        u = ((q[0] - p[0]) * t[1] - (q[1] - p[1]) * t[0]) / den
        corners.append(p + u * r)
    return np.array(corners)


def _order(quad: np.ndarray) -> np.ndarray:
    """Corners in the mat's own turning order (anticlockwise with y up: on screen, with v
    down, that is sorting by the angle of (u, -v)). Which corner comes first is arbitrary:
    the rotation is settled by calibration and kept by tracking."""
    c = quad.mean(axis=0)
    ang = np.arctan2(-(quad[:, 1] - c[1]), quad[:, 0] - c[0])
    return quad[np.argsort(ang)]


def grid_contrast(gray: np.ndarray, H: np.ndarray, polarity: int = 1) -> float:
    """How much the inner grid lines stand out from the space beside them, in grey levels:
    darker for ``polarity`` 1 (ink on paper), lighter for -1 (light lines on dark cloth).
    Lines and their surroundings are read through the same 3-pixel extreme filter across
    the line, so a guess a pixel off still meets a thin line and texture gains nothing.
    ``polarity`` :data:`EDGES`: the edges between spaces of alternating shade, read in the
    top-down view's edge image (the tracker checks every frame: the whole frame's would
    cost 4 ms). ``gray`` may be the (H, W, 3) uint8 BGR frame itself: the view is then
    warped in colour and made grey at its own size (the whole frame's grey costs ten warps)."""
    if gray.ndim == 3:
        colour = _top_down(gray, H, np.uint8)
        top = None if colour is None else _gray(colour).astype(np.float32)
    else:
        top = _top_down(gray, H)
    if top is None:
        return 0.0
    if polarity == EDGES:
        top, polarity = _edge_image(top), -1
    return float(polarity * _signed_contrast(top, polarity))


def _top_down(gray: np.ndarray, H: np.ndarray, dtype: type = np.float32
              ) -> np.ndarray | None:
    """(8 px, 8 px[, 3]) top-down view of the grid in ``dtype``, ``px`` =
    MATFIND.score_px."""
    px = MATFIND.score_px
    size = 8 * px
    S = np.array([[px, 0, 0], [0, -px, size], [0, 0, 1]], float)  # mat -> top-down pixels
    try:
        return cv2.warpPerspective(gray, S @ np.linalg.inv(H), (size, size),
                                   flags=cv2.INTER_LINEAR).astype(dtype, copy=False)
    except (cv2.error, np.linalg.LinAlgError):
        return None


def _signed_contrast(top: np.ndarray, polarity: int) -> float:
    """median(beside) - median(line) of a top-down view (positive: dark lines)."""
    px = MATFIND.score_px
    op = cv2.erode if polarity > 0 else cv2.dilate
    across_x = op(top, np.ones((1, 3), np.uint8))  # extreme across vertical lines
    across_y = op(top, np.ones((3, 1), np.uint8))
    idx = np.arange(1, 8) * px
    off = px // 4
    lines = np.concatenate([across_x[:, idx].ravel(), across_y[idx, :].ravel()])
    beside = np.concatenate([across_x[:, idx + off].ravel(), across_x[:, idx - off].ravel(),
                             across_y[idx + off, :].ravel(), across_y[idx - off, :].ravel()])
    return float(median(beside) - median(lines))


def _coarse(gray: np.ndarray, edges: np.ndarray | None = None,
            quads: list[np.ndarray] | None = None) -> list[tuple[np.ndarray, float, int]]:
    """The (homography, contrast, polarity) of each candidate outline, best first, each
    outline read as the grid itself or as a mat with a border of any of ``MATFIND.borders``
    round it (the best border and polarity for it). Each outline is warped top-down once;
    every border puts the grid lines elsewhere in it. With ``edges`` (:func:`_edge_image`
    of ``gray``), the outlines are scored there, as a checkerboard's (:data:`EDGES`).
    ``quads``: :func:`_candidate_quads` of ``gray``, where the caller has them already."""
    found: list[tuple[np.ndarray, float, int]] = []
    size = MATFIND.coarse_px
    canon = np.array([[0, size], [size, size], [size, 0], [0, 0]], np.float32)
    scored = gray if edges is None else edges
    for quad in _candidate_quads(gray) if quads is None else quads:
        q = _order(quad).astype(np.float32)
        Hc = cv2.getPerspectiveTransform(canon, q)
        try:
            top = cv2.warpPerspective(scored, np.linalg.inv(Hc), (size, size),
                                      flags=cv2.INTER_LINEAR).astype(np.float32)
        except (cv2.error, np.linalg.LinAlgError):
            continue
        best: tuple[np.ndarray, float, int] | None = None
        for polarity in ((1, -1) if edges is None else (-1,)):
            op = cv2.erode if polarity > 0 else cv2.dilate
            across_x = op(top, np.ones((1, 3), np.uint8))
            across_y = op(top, np.ones((3, 1), np.uint8))
            scores = polarity * _comb_contrasts(across_x, across_y, MATFIND.borders)
            k = int(np.argmax(scores))
            if best is None or scores[k] > best[1]:
                border = MATFIND.borders[k]
                model = np.array([[-border, -border], [8 + border, -border],
                                  [8 + border, 8 + border], [-border, 8 + border]],
                                 np.float32)
                best = (cv2.getPerspectiveTransform(model, q).astype(np.float64),
                        float(scores[k]), polarity if edges is None else EDGES)
        if best is not None:
            found.append(best)
    return sorted(found, key=lambda c: -c[1])


def _comb_contrasts(across_x: np.ndarray, across_y: np.ndarray,
                    borders: tuple[float, ...]) -> np.ndarray:
    """(len(borders),) median(beside) - median(line) of the 7 + 7 inner grid lines where a
    mat with each border (spaces) puts them in a square top-down view of its outline. The
    lines are read over the middle of the view, which lies inside the grid for every
    border (v grows downwards: the mirror of the x positions, the same set)."""
    size = across_x.shape[0]
    b = np.asarray(borders, float)[:, None]
    unit = size / (8 + 2 * b)  # (B, 1)
    at = np.clip(np.rint((b + np.arange(1, 8)) * unit).astype(int), 0, size - 1)  # (B, 7)
    off = np.maximum(1, np.rint(unit / 4).astype(int))
    lo = int(max(0.0, float((b * unit).max())))
    hi = int(min(float(size), float(((8 + b) * unit).min())))
    rows = np.arange(lo, hi, MATFIND.coarse_step)

    def read(idx: np.ndarray) -> np.ndarray:  # (B, 7) columns/rows -> (B, samples)
        idx = np.clip(idx, 0, size - 1)
        cols = across_x[rows][:, idx]  # (R, B, 7)
        lines = across_y[idx][:, :, rows]  # (B, 7, R)
        return np.concatenate([cols.transpose(1, 0, 2).reshape(len(b), -1),
                               lines.reshape(len(b), -1)], axis=1)

    line = np.median(read(at), axis=1)
    beside = np.median(np.concatenate([read(at + off), read(at - off)], axis=1), axis=1)
    return beside - line


def _sample(gray: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Bilinear samples of ``gray`` at (N, 2) float points (u, v)."""
    maps = pts.astype(np.float32).reshape(-1, 1, 2)
    # OpenCV's stubs miss remap's documented map2=None (map1 then holds x and y)
    return cv2.remap(gray, maps, None, cv2.INTER_LINEAR,  # type: ignore[call-overload]
                     borderMode=cv2.BORDER_REPLICATE).reshape(-1).astype(np.float32)


def _fit_line(pts: np.ndarray, refits: int = 0) -> np.ndarray:
    """(a, b, c), a u + b v = c, (a, b) a unit normal: the line through points (N, 2) in
    pixels, refitted up to ``refits`` times without those far off it. A piece's edge beside
    a checkerboard's faint step can be the stronger mark for a stretch of it, and even a
    robust fit leans towards a run of such points: refitted, the line is the grid's again.
    (A printed line is the strongest mark beside it: its fits are left as they were.)"""
    pts = pts.astype(np.float32)
    for _ in range(refits + 1):
        vx, vy, x0, y0 = cv2.fitLine(pts, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        n = np.array([-vy, vx], float)
        line = np.array([n[0], n[1], n @ np.array([x0, y0])])
        off = np.abs(pts @ line[:2] - line[2])
        keep = off <= max(MATFIND.line_inlier_px, MATFIND.line_inlier_mads * float(
            np.median(off)) * 1.4826)
        if keep.all() or keep.sum() < MATFIND.min_points_per_line:
            break
        pts = pts[keep]
    return line


def _refine(gray: np.ndarray, H: np.ndarray, polarity: int = 1, min_depth: float = 4.0,
            depth_px: float = 0.0, refits: int = 0) -> tuple[np.ndarray, int, float] | None:
    """Fit the 7+7 inner grid lines near ``H``'s guess; return the refined homography.
    ``polarity`` -1: the lines are lighter than the spaces (looked for as maxima); a line
    sample counts where it is at least ``min_depth`` grey levels deep, against the look one
    search step either side of it, or ``depth_px`` pixels where that is further; each line
    refitted ``refits`` times without its points far off it (:func:`_fit_line`)."""
    cfg = MATFIND
    ts = (np.arange(8 * cfg.samples_per_space) + 0.5) / cfg.samples_per_space  # along 0..8
    offsets = np.linspace(-cfg.search, cfg.search, cfg.search_steps)  # across, in spaces
    T, K = len(ts), len(offsets)
    # All 14 lines at once, x = 1..7 then y = 1..7: (14, T, K, 2) mat points across each
    at = np.arange(1, 8, dtype=float)[:, None, None] + offsets[None, None, :]  # (7, 1, K)
    run = np.broadcast_to(ts[None, :, None], (7, T, K))
    at = np.broadcast_to(at, (7, T, K))
    grid_pts = np.concatenate([np.stack([at, run], axis=-1), np.stack([run, at], axis=-1)])
    img_pts = project(H, grid_pts.reshape(-1, 2)).reshape(14, T, K, 2)
    vals = polarity * _sample(gray, img_pts.reshape(-1, 2)).reshape(14, T, K)
    k = np.argmin(vals, axis=2)  # (14, T)
    step_px = np.median(np.linalg.norm(img_pts[:, :, 1] - img_pts[:, :, 0], axis=2), axis=1)
    m = np.clip(np.rint(depth_px / np.maximum(step_px, 1e-6)), 1, (K - 1) // 4).astype(int)
    mm = m[:, None]  # (14, 1)
    inner = (k >= mm) & (k < K - mm)
    kc = np.clip(k, mm, K - 1 - mm)  # (only inner rows are used)

    def at_k(d: np.ndarray | int) -> np.ndarray:
        return np.take_along_axis(vals, (kc + d)[..., None], axis=2)[..., 0]

    v0, v1, v2 = at_k(-1), at_k(0), at_k(1)
    depth = (at_k(-mm) + at_k(mm)) / 2 - v1
    keep = inner & (depth > min_depth)
    denom = v0 - 2 * v1 + v2
    frac = np.clip(np.where(np.abs(denom) > 1e-6, 0.5 * (v0 - v2) / np.where(
        np.abs(denom) > 1e-6, denom, 1.0), 0.0), -0.5, 0.5)
    side = np.where(frac >= 0, np.minimum(kc + 1, K - 1), kc - 1)
    p_lo = np.take_along_axis(img_pts, kc[..., None, None], axis=2)[:, :, 0]
    p_hi = np.take_along_axis(img_pts, side[..., None, None], axis=2)[:, :, 0]
    pts_all = p_lo + np.abs(frac)[..., None] * (p_hi - p_lo)  # (14, T, 2)
    lines: dict[tuple[str, int], np.ndarray] = {}  # (axis, i) -> (a, b, c), a u + b v = c
    for n in range(14):
        if inner[n].sum() < cfg.min_points_per_line or keep[n].sum() < cfg.min_points_per_line:
            continue
        lines[("x" if n < 7 else "y", n % 7 + 1)] = _fit_line(pts_all[n][keep[n]], refits)
    src, dst = [], []
    for i in range(1, 8):
        for j in range(1, 8):
            lx, ly = lines.get(("x", i)), lines.get(("y", j))
            if lx is None or ly is None:
                continue
            A = np.array([lx[:2], ly[:2]])
            if abs(np.linalg.det(A)) < 1e-9:
                continue
            dst.append(np.linalg.solve(A, np.array([lx[2], ly[2]])))
            src.append((i, j))
    if len(src) < cfg.min_crossings:
        return None
    src_a, dst_a = np.array(src, np.float64), np.array(dst, np.float64)
    Hn, inl = cv2.findHomography(src_a, dst_a, cv2.RANSAC, cfg.ransac_px)
    if Hn is None:
        return None
    mask = inl.ravel().astype(bool)
    err = np.linalg.norm(project(Hn, src_a[mask]) - dst_a[mask], axis=1)
    return Hn, int(mask.sum()), float(np.sqrt(np.mean(err ** 2)))


def _line_contrasts(gray: np.ndarray, H: np.ndarray, polarity: int,
                    lines: np.ndarray) -> np.ndarray:
    """(2, L): how much the grid lines x = k and y = k, for k in ``lines`` (L,), stand out
    from the mat a fifth of a space either side (grey levels; the median along the line
    over the grid's span, so pieces on it count little)."""
    along = np.linspace(0.25, 7.75, 31)
    k = np.asarray(lines, float)[:, None, None] + np.array([0.0, -0.2, 0.2])[None, :, None]
    across = np.broadcast_to(k, (len(lines), 3, len(along)))
    run = np.broadcast_to(along, across.shape)
    pts = np.concatenate([np.stack([across, run], axis=-1).reshape(-1, 2),
                          np.stack([run, across], axis=-1).reshape(-1, 2)])
    vals = _sample(gray, project(H, pts)).reshape(2, len(lines), 3, len(along))
    on = np.median(vals[:, :, 0], axis=-1)
    beside = np.median(vals[:, :, 1:].reshape(2, len(lines), -1), axis=-1)
    return polarity * (beside - on)


def _unshifted(gray: np.ndarray, H: np.ndarray, polarity: int) -> np.ndarray:
    """``H`` moved by whole spaces along either axis where its grid sits a space off the
    printed one. A fit a space off matches the repeating inner lines just as well; but then
    an inner line falls where none is printed (past a print's last line), or a printed line
    lies just past the grid (where a print has outer lines). The shift kept is the one whose
    weakest inner line is strongest against the strongest line one space past the grid."""
    ks = np.arange(-2, 11)
    c = _line_contrasts(gray, H, polarity, ks)
    shift = [0, 0]
    for axis in (0, 1):
        def score(d: int, row: np.ndarray = c[axis]) -> float:
            inner = row[(ks >= 1 + d) & (ks <= 7 + d)]
            past = row[(ks == -1 + d) | (ks == 9 + d)]
            return float(inner.min() - max(past.max(), 0.0))
        best = max((-1, 0, 1), key=score)
        if score(best) > score(0) + MATFIND.min_line_depths[-1]:
            shift[axis] = best
    if shift == [0, 0]:
        return H
    return H @ np.array([[1.0, 0.0, shift[0]], [0.0, 1.0, shift[1]], [0.0, 0.0, 1.0]])


def find_mat(image: np.ndarray, checker: bool | None = None) -> MatFix:
    """Find the mat from scratch. Raises :class:`VisionError` when no mat is in view. A mat
    with printed grid lines is looked for first; failing that, a checkerboard, whose grid
    is the edges between its spaces (:data:`EDGES`). ``checker`` True or False: only that
    one (a mat being followed stays what it was)."""
    gray = _gray(image)
    scale = min(1.0, MATFIND.coarse_width / gray.shape[1])
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) \
        if scale < 1 else gray
    shapes = False
    fix = None
    quads = _candidate_quads(small)  # the same outlines for a lined grid and a checkerboard
    if not checker:
        coarse = _coarse(small, quads=quads)
        shapes = bool(coarse) and coarse[0][1] >= MATFIND.min_score
        fix = _fitted(gray, coarse, scale) if shapes else None
    if fix is None and checker is not False:
        squares = _coarse(small, _edge_image(small), quads)
        if squares and squares[0][1] >= MATFIND.min_score:
            shapes = True
            fix = _fitted(gray, squares, scale)
    if fix is None and shapes:
        raise GridNotFitted("a mat-like shape was found but its grid lines could not be fitted")
    if fix is None:
        raise VisionError("no mat found in the image (is the whole mat in view?)")
    return fix


def _fitted(gray: np.ndarray, coarse: list[tuple[np.ndarray, float, int]], scale: float
            ) -> MatFix | None:
    """The best fit of the grid from the coarse candidates (:func:`_coarse`, in a frame
    shrunk by ``scale``), or None."""
    # The best-looking outline may be a mat-coloured patch a space short of the grid (a
    # borderless mat's edge lost in a dark table), whose fit catches only some lines: the
    # next ones are fitted too, until one puts all 14 inner lines on printed lines.
    best: MatFix | None = None
    seen: dict[int, tuple[np.ndarray, int]] = {}  # polarity -> its lines image (edges: 6 ms)
    for Hs, contrast, polarity in coarse[:MATFIND.refine_candidates]:
        if contrast < MATFIND.min_score:
            # Best first: the rest show no grid even roughly (a checkerboard's outline read
            # for printed lines costs 25 ms to fit for nothing; no photo's grid was ever
            # fitted from such an outline)
            break
        H = np.diag([1 / scale, 1 / scale, 1.0]) @ Hs
        if polarity not in seen:
            seen[polarity] = _lines_of(gray, polarity)
        lines, lines_polarity = seen[polarity]
        fix = refine(gray, H, polarity=polarity, lines=lines)
        if fix is None:
            continue
        # A space off at a time, and refitted each time: a rough first fit may lie two off
        # (held out: an engraved wood mat at 29 degrees, its first fit a space off on one
        # axis and a half on the other, came home in two steps and stopped one off in one)
        for _ in range(MATFIND.unshift_rounds):
            moved = _unshifted(lines, fix.homography, lines_polarity)
            again = None if moved is fix.homography else refine(gray, moved, polarity=polarity,
                                                                 lines=lines)
            if again is None:
                break
            fix = again
        # Every inner line must lie on a printed one (median along it: pieces count little);
        # a fit that puts one between the printed lines is a wrong grid.
        if _line_contrasts(lines, fix.homography, lines_polarity, np.arange(1, 8)).min() <= 0:
            continue
        if fix.crossings >= MATFIND.sure_crossings:
            return fix
        if best is None or (fix.crossings, fix.score) > (best.crossings, best.score):
            best = fix
    return best


def refine(image: np.ndarray, H: np.ndarray, rounds: int = 2, polarity: int = 1,
           lines: np.ndarray | None = None) -> MatFix | None:
    """Refine a homography guess on the grid lines (darker than the spaces for ``polarity``
    1, lighter for -1); None when the grid is not there. ``lines``: :func:`_lines_of`
    ``image`` for ``polarity``, where the caller has it already."""
    raw = _gray(image)
    if lines is None:
        gray, lines_polarity = _lines_of(raw, polarity)
    else:
        gray, lines_polarity = lines, (-1 if polarity == EDGES else polarity)
    guess = H
    for depth in MATFIND.min_line_depths:
        H, crossings, rms = guess, 0, float("inf")
        for _ in range(rounds):
            checker = polarity == EDGES
            out = _refine(gray, H, lines_polarity, depth,
                          MATFIND.edge_depth_px if checker else 0.0,
                          MATFIND.line_refits if checker else 0)
            if out is None or out[1] < MATFIND.min_crossings:  # RANSAC kept too few
                break
            H, crossings, rms = out
        else:
            score = grid_contrast(raw, H, polarity)
            if score >= MATFIND.min_score and rms <= MATFIND.max_rms_px:
                return MatFix(H, score, crossings, rms, polarity)
    return None


class MatTracker:
    """Keeps the mat's fix from frame to frame; re-finds it when the camera or mat moves.

    The rotation (which corner is a1) found at calibration is kept across re-finds by
    choosing the labelling nearest to the last fix.
    """

    def __init__(self, fix: MatFix | None = None) -> None:
        self.fix = fix
        self.refound = 0
        self._unrefined = 0  # frames since the fix was last refined
        self._before: tuple[MatFix | None, int, int] | None = None  # for undo()

    def undo(self) -> None:
        """Forget the last update: its frame turned out to be no view of the mat to follow
        (a hand hid lines, and a fit to what was left could be pulled off)."""
        if self._before is not None:
            self.fix, self._unrefined, self.refound = self._before
            self._before = None

    def update(self, image: np.ndarray) -> MatFix:
        """The mat's fix in ``image`` ((H, W, 3) uint8 BGR, the frames in order)."""
        self._before = (self.fix, self._unrefined, self.refound)
        still = False
        if self.fix is not None and self.fix.score > 0:
            now = grid_contrast(image, self.fix.homography, self.fix.polarity)
            # The grid lines are still dark where the fix puts them: a still camera. Checking
            # costs a tenth of refining, which is done every few frames to follow slow drift.
            still = now >= MATFIND.track_keep_share * self.fix.score
            if still and self._unrefined < MATFIND.track_refine_every:
                self._unrefined += 1
                return self.fix
        self._unrefined = 0
        gray = _gray(image)
        if self.fix is not None:
            fix = refine(gray, self.fix.homography, rounds=1, polarity=self.fix.polarity)
            if fix is not None and self._moved_px(fix) < MATFIND.track_max_shift_px:
                # A still camera's lines are where the fix puts them: a refit that shows them
                # no better is pulled off by pieces and printed lines beside the grid (3 px
                # on a laminate's coloured Quadrant borders), and the spaces' samples would
                # leave the points where the empty look was read.
                if still and grid_contrast(image, fix.homography, fix.polarity) <= now:
                    return self.fix
                self.fix = fix
                return fix
        found = find_mat(gray, None if self.fix is None else self.fix.polarity == EDGES)
        if self.fix is not None:
            found = min((found.rotated(k) for k in range(4)), key=self._moved_px)
        self.fix = found
        self.refound += 1
        return found

    def _moved_px(self, fix: MatFix) -> float:
        if self.fix is None:
            return 0.0
        return float(np.abs(fix.corners - self.fix.corners).max())
