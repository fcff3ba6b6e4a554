"""Every vision threshold in one place. Units are stated per field."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MatFindConfig:
    coarse_width: int = 640  # px: frames are shrunk to this width to look for candidates
    min_area_fraction: float = 0.04  # a candidate outline covers at least this much of a frame
    max_candidates: int = 48
    printed_border: float = 0.35  # spaces: the printed border round the grid (MatModel.border)
    score_px: int = 24  # px per space of the top-down view used to score a candidate
    min_score: float = 6.0  # grey levels: inner grid lines at least this much darker
    samples_per_space: int = 6  # points per space along each grid line when refining
    search: float = 0.18  # spaces: how far across a line its centre is looked for
    search_steps: int = 25
    min_line_depth: float = 4.0  # grey levels: a line sample must be this much darker
    min_points_per_line: int = 12
    min_crossings: int = 16  # of 49 inner crossings, to fit the homography
    ransac_px: float = 2.0
    max_rms_px: float = 1.5
    track_max_shift_px: float = 25.0  # a bigger jump between frames means re-find


MATFIND = MatFindConfig()


@dataclass(frozen=True, slots=True)
class GeometryConfig:
    default_hfov_deg: float = 62.0  # assumed when the focal length cannot be measured
    min_tilt_signal: float = 0.08  # below this the view is too square-on to measure focus
    min_focal_px: float = 100.0
    max_focal_px: float = 4.0  # times the image width


GEOMETRY = GeometryConfig()
