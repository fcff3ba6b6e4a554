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


@dataclass(frozen=True, slots=True)
class ClassifyConfig:
    disc_samples: int = 7  # per top / foot disc: the centre and a ring
    disc_radius: float = 0.07  # spaces
    top_below: float = 0.03  # spaces under the Pole's top the top samples sit
    top_shift: float = 0.05  # spaces towards the camera
    foot_height: float = 0.03  # spaces
    foot_shift: float = 0.05  # spaces away from the camera
    wall_below: float = 0.1  # wall samples this far under the wall top (less seen past it)
    wall_along_min: float = 0.1  # wall samples stay this far from the ends of an edge
    wall_candidates: int = 17  # positions along an edge tried for the clearest view
    wall_min_apart: float = 0.2  # an edge's two wall samples at least this far apart
    colour_sigma: float = 7.0  # Mahalanobis distance within which a sample is a side's
    colour_floor: tuple[float, float, float] = (0.1, 0.03, 0.03)  # noise floor; light varies
    learn_outlier_mads: float = 4.0  # calibration samples further out are edge pixels
    replan_px: float = 4.0  # the mat's corners move this far: sampling is planned anew
    explain_sigma: float = 4.5  # a Pole sample this near a side's colour is explained
    empty_weights: tuple[float, float, float] = (1.0, 4.0, 4.0)  # feature weights vs empty
    empty_distance: float = 0.25  # a sample this far from the empty look is not the mat
    unexplained_share: float = 0.5  # of a space's Pole samples, to call it unexplained
    pole_share: float = 0.6  # of top samples in a side's colour to see a Pole
    foot_share: float = 0.4  # of its footprint samples that must agree


CLASSIFY = ClassifyConfig()


@dataclass(frozen=True, slots=True)
class GateConfig:
    margin: float = 0.1  # spaces round the grid included in the top-down checks
    palette_bins: int = 64  # per chromaticity axis
    chroma_span: float = 2.0  # log-chromaticities from -span to +span are binned
    dark_lightness: float = 0.12  # darker pixels are shadow: their chromaticity is noise
    palette_px: int = 256  # top-down size the palette is learned at
    palette_min_count: int = 3  # pixels a bin needs to count as the mat's
    palette_grow: int = 2  # bins round each known one that are known too (light, noise)
    check_px: int = 96  # top-down size occlusion is checked at
    occluded_fraction: float = 0.004  # a foreign blob this share of the mat: a hand
    motion_px: int = 64  # top-down size stillness is checked at
    motion_grey: float = 15.0  # grey levels a top-down pixel must change by to count
    motion_fraction: float = 0.002  # share of changed pixels that means something moved
    still_s: float = 0.3  # seconds still and unoccluded before a position is reported


GATE = GateConfig()
