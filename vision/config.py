"""Every vision threshold in one place. Units are stated per field."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MatFindConfig:
    coarse_width: int = 640  # px: frames are shrunk to this width to look for candidates
    min_area_fraction: float = 0.04  # a candidate outline covers at least this much of a frame
    max_candidates: int = 32
    # an outline of 5-8 corners (an arm joined to the mat's) gives its biggest quadrilaterals
    # of four of them, at most this many
    quads_per_outline: int = 8
    # an outline with its corners cut off (a borderless grid's lines) is taken as a mat
    # whose corners lie beyond it, covering at most this many times its area
    cut_corners_area: float = 1.5
    same_quad_px: float = 3.0  # px at the coarse width: outlines nearer than this are one
    # spaces: borders a candidate outline may have round the grid (any print, or none); -1:
    # the outline of the inner lines alone (a borderless mat's edge is no printed line)
    borders: tuple[float, ...] = (-1.0, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0)
    line_kernel: int = 7  # px at the coarse width: wider than a grid line, narrower than a space
    coarse_px: int = 192  # px: side of the top-down view each candidate outline is scored in
    coarse_step: int = 4  # px along a line between the samples a candidate is scored on
    score_px: int = 24  # px per space of the top-down view used to score a candidate
    min_score: float = 6.0  # grey levels: inner grid lines at least this much darker
    # a checkerboard's grid is read in its edge image: blurred by edge_blur px, the Sobel
    # magnitude times edge_gain (a sharp step of N grey levels reads about N)
    edge_blur: float = 1.0
    edge_gain: float = 0.25
    refine_candidates: int = 4  # best-scoring outlines whose grid lines are fitted in turn
    unshift_rounds: int = 3  # times a fit is moved a space home and refitted (matfind)
    samples_per_space: int = 6  # points per space along each grid line when refining
    search: float = 0.18  # spaces: how far across a line its centre is looked for
    search_steps: int = 25
    # grey levels: a line sample must be this much darker (lighter for light lines); the
    # lower ones are tried when too few lines pass (dim light, faint lines): the fit's
    # residual and the grid's contrast still judge the result
    min_line_depths: tuple[float, ...] = (4.0, 2.0)
    min_points_per_line: int = 12
    # a checkerboard's grid line is refitted line_refits times without its points this far
    # off the last fit (px, or this many robust standard deviations of all the points'
    # offsets, whichever is more)
    line_inlier_px: float = 1.5
    line_inlier_mads: float = 3.0
    line_refits: int = 2
    # a checkerboard's line sample (in the edge image) is measured for depth against the
    # look this far (px) either side of its peak: a step's edge, blurred over a few pixels,
    # is hardly deeper one sample (under a pixel, on a mat small in the frame) away.
    # Printed lines are thin: their depth is measured one sample either side.
    edge_depth_px: float = 2.5
    min_crossings: int = 16  # of 49 inner crossings, to fit the homography
    sure_crossings: int = 40  # a fit this good, every inner line on a printed one, is taken
    ransac_px: float = 2.0
    max_rms_px: float = 1.5
    track_max_shift_px: float = 25.0  # a bigger jump between frames means re-find
    track_keep_share: float = 0.85  # of the fix's line contrast: the mat has not moved
    track_refine_every: int = 10  # frames: a still mat's fix is refined this often anyway


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
    wall_along_min: float = 0.12  # wall samples stay this far from the ends of an edge
    wall_candidates: int = 7  # positions along an edge tried for the clearest view
    wall_sample_heights: tuple[float, ...] = (0.12, 0.45, 0.8)  # of the wall's height
    wall_surface: float = 0.008  # spaces inside a wall's face its surface samples sit
    wall_min_apart: float = 0.15  # an edge's wall samples at least this far apart
    # candidates whose worth differs by less than this share of wall_clear are equally good:
    # the one nearer the edge's middle is taken (corners hold seams and neighbours' walls),
    # so the choice cannot flip with a rounding of the mat's fix
    wall_worth_step: float = 1e-4
    # of its clearance a wall candidate is worth where the mat behind it is printed in a
    # side's colour (classify.wall_camouflage): a wall there cannot be told from the print
    camouflaged_worth: float = 0.25
    wall_clear: float = 0.03  # spaces of clearance at which a sample is fully trusted
    # Players set a Port down a little off its corner and a little turned, and a wall is only
    # a few pixels wide: each wall sample is also read this far (spaces) either side across
    # its edge, and the reading that shows a wall best taken (classify.shift_choice) ...
    wall_shift: float = 0.025
    # ... where that reading's view keeps this share of wall_clear from every other piece
    wall_shift_clear: float = 0.5
    # ... and shows a wall by at least this much log-likelihood (a side's over no piece's,
    # summed over the edge's samples), and by this much more than the unmoved ones do
    wall_shift_gain: float = 3.0
    blur_px: float = 1.5  # pixels of clearance at which a sample is fully trusted (blur, JPEG)
    min_weight: float = 0.05  # however near another piece a sample's view passes
    ray_iterations: int = 12  # golden-section steps finding a ray's nearest approach
    corner_ref_along: float = 0.12  # the wall tops compared with a corner: this far from it
    colour_sigma: float = 7.0  # Mahalanobis distance within which a sample is a side's
    max_side_confusion: float = 0.2  # of a side's calibration samples nearer the other (glints)
    colour_floor: tuple[float, float, float] = (0.1, 0.03, 0.03)  # noise floor; light varies
    colour_parts: int = 3  # Gaussians per side's colour, split by lightness (lit .. shaded)
    part_min: int = 12  # samples a part needs for its own covariance
    learn_outlier_mads: float = 4.0  # calibration samples further out are edge pixels
    replan_px: float = 4.0  # the mat's corners move this far: sampling is planned anew
    # a fix whose corners stay this near the calibration's is the same still camera: the
    # calibration's own fix is sampled, where the empty look was read
    home_px: float = 1.5
    # ... on a checkerboard, whose faint steps the pieces standing on them pull a little: a
    # still camera's frames are fitted up to 2-3 px apart (Blender checker mats: at 1.5, 3
    # frames of 6 read away from the empty look, 50% of spaces). Not on printed lines: a
    # start photo's fit can itself be that far off (3 px, simulated at 35 degrees), and a
    # frame's own fit then reads better
    home_px_checker: float = 3.0
    explain_sigma: float = 4.5  # a Pole sample this near a side's colour is explained
    # The bare mat between two photos (bare_mat_distance): log lightness ratio allowed for
    # shade and for brightening, and chromaticity noise (plus a part growing as 1/lightness).
    bare_shade_sigma: float = 0.35
    bare_bright_sigma: float = 0.15
    # ... or, measured at calibration (classify.light_allowances), this quantile of the
    # bare mat's brightening between the empty and start photos, at least the floor
    bare_bright_quantile: float = 0.99
    bare_bright_floor: float = 0.04
    # ... and the shade: the deepest the start position's shadows go on the bare mat
    bare_shade_quantile: float = 0.001
    bare_shade_floor: float = 0.15
    bare_light_min_samples: int = 200  # bare samples in both photos to measure them from
    # ... and the tint of a shadow (classify.shadow_tint): where the light a piece blocks
    # and the light still reaching its shadow differ in colour (a warm lamp, a cool
    # window), a shadow shifts every print's log chromaticity by the same amount per unit
    # of log lightness it takes. Measured on the bare mat darker than the empty photo by
    # tint_shade or more round each side's start Poles (tint_least points each, or no
    # tint), and kept only as far as both sides' agree (a piece's blurred edge tints only
    # its own side's), up to tint_max either way.
    tint_shade: float = 0.2
    # ... and over the points darker by tint_faint to tint_shade: under two lamps of two
    # colours the weaker one's faint shadow is tinted the other way (a second tint)
    tint_faint: float = 0.05
    tint_least: int = 12
    tint_max: float = 1.0
    # A camera's auto-exposure and white balance move the whole frame between calibration
    # and play (classify.camera_drift): measured on the samples within these of the median
    # change (bare mat, most of the board), where they are at least drift_min_share of the
    # samples whose bare look is known; otherwise (a hand over half the mat) left alone.
    drift_light: float = 0.1  # log lightness ratio
    drift_chroma: float = 0.06  # log chromaticity
    drift_min_share: float = 0.3
    bare_chroma_sigma: float = 0.04
    bare_chroma_dark: float = 0.006
    # Median bare_mat_distance between two photos of bare mat that a camera's noise may
    # take up; a noisier camera's allowances are widened until it takes no more.
    bare_noise_median: float = 0.5
    camouflage_sigma: float = 2.0  # a bare look this near a side's colour cannot tell it
    changed_sigma: float = 4.0  # bare_mat_distance beyond which a look is another print
    # of a pad's points in view unlike plain mat or its ink: a mark printed there, which the
    # start pieces hide the rest of (an outline round a Portpad, its corner's diagonal)
    unlearned_share: float = 0.1
    pad_grid: tuple[float, float, int] = (0.14, 0.86, 9)  # a space's points, clear of its lines
    piece_changes: float = 2.5  # bare_mat_distance a piece makes at least (see sample_evidence)
    # bare_mat_distance of a Pole disc's mean (classify.disc_change) that a piece makes: its
    # samples then need not each have changed that much
    disc_changes: float = 2.5
    empty_weights: tuple[float, float, float] = (1.0, 4.0, 4.0)  # feature weights vs empty
    empty_distance: float = 0.5  # a sample this far from the empty look is not the mat
    unexplained_min_samples: int = 4  # clear samples a disc needs to be judged unexplained
    unexplained_sigma: float = 3.0  # bare_mat_distance of a disc's mean: no bare mat there
    blend_explains: float = 1.0  # blend_loglik's distance: a side's colour blurred into the mat
    # a Pole's learned shadow falling this near a space's centre (spaces) may explain an odd
    # colour there (classify.unexplained_spaces)
    shadow_explains: float = 0.5
    lean_reach: float = 0.5  # spaces beyond its edge that a Pole's top, leaning, may blur
    chroma_lightness: float = 0.3  # lightness below which chromaticity counts less (noise)
    piece_darker: float = 0.6  # of the mat's lightness there: a blurred sample this dark is a piece
    loglik_cap: float = 10.0  # Mahalanobis distance beyond which a sample counts no worse
    dark_side_distance: float = 7.0  # a dark blurred sample: this far from either side
    unlike_lean: float = 0.01  # log-likelihood: a tie-break, far below any evidence
    port_margin: float = 20.0  # log-likelihood lead of the best Port arrangement: sure
    # of port_margin: a space's other edges call for its wall on a line two spaces read
    # walls on, when arrangements with that wall lead those without by this much
    line_keep_lead: float = 0.5
    # log-likelihood by which a space's other edges favour arrangements without its wall on
    # a line another side's wall shares, for that wall to yield however plain its colour
    # (Blender draws: phantom walls 3.2-8.4; a real wall whose Port's other corner was out
    # of sight, 0.07)
    line_against: float = 1.0
    # of port_margin: the least sure reading that a board one Port off the set's count may
    # change to fit it (classify._fit_the_set): unsure, as the referee's default counts it
    set_fit_loss: float = 0.5
    # how plainly (0..1; 0.5: one of body, rim, footprint or own shadow at its threshold) a
    # Pole's shape must show, in a space whose discs cannot tell that side's Pole from the
    # bare mat, for a board one Pole short on that side to take it as the missing Pole
    # (classify._fit_the_poles), where no space's discs lean to that side
    set_fit_shape: float = 0.5
    # ... and, of port_margin, what one space's Port may lose to change side where the board
    # reads one Port over on one side and one short on the other: a misreading the set
    # proves (no piece enters or leaves the mat), read unsure whatever it lost
    set_swap_loss: float = 1.0
    # ... settled again this many times at most (each pass may free a space's arrangement)
    line_passes: int = 3
    # A wall blurred into the mat (classify.blend_loglik): how far outside the lightnesses
    # between and the chroma differences (R - G, B - G, of 255) between is still noise.
    blend_light_sigma: float = 0.03
    blend_chroma_sigma: float = 6.0
    # A Teleport's seams: wall-top dips within seam_reach spaces of a corner, against the
    # wall top at seam_ref; a relative difference of seam_margin between the diagonals: sure.
    seam_reach: float = 0.12
    # ... from this far from the corner: a wall's very end blurs into whatever lies past it
    # (a dark mat dips every corner alike), while a seam's slot lies a wall's thickness in
    seam_from: float = 0.035
    seam_ref: tuple[float, float] = (0.2, 0.45)
    seam_samples: int = 13
    seam_margin: float = 0.25
    ink_apart: float = 1.0  # Mahalanobis: a printed ink nearer its pieces than this is unused
    # Mahalanobis: a side's ink is guessed under its start pieces (classify.hidden_pad_ink)
    # only when those pieces' own samples lie this far from it (median): nearer, the guess
    # would pass for the pieces themselves
    hidden_ink_apart: float = 2.0
    # calibrated from the start photo alone: a side whose colour the bare mat shows over
    # more than this share of the samples in view is refused (only its shapes tell it)
    mat_like_side_most: float = 0.25
    ink_grow: float = 0.03  # spaces round printed ink where a sample may see it (blur)
    pole_share: float = 0.6  # of top samples in a side's colour to see a Pole
    foot_share: float = 0.4  # of its footprint samples that must agree
    # of top samples in a side's colour to see a Pole by its top alone, where its footprint
    # is coloured like the mat and no shape of a Pole backs it (6 of 7)
    top_alone_whole: float = 0.85
    # samples of top and footprint together that must be able to tell, where neither disc
    # has half its own (the rest look as the bare mat and the side's colour alike)
    pole_least_speaking: int = 4
    # A sample the bare mat and a side explain within this much log-likelihood of each other
    # cannot tell that side's Pole from the bare mat (as a sample camouflaged cannot)
    sample_tells: float = 1.0
    foot_veto: float = 5.0  # log-likelihood: a footprint this sure of bare mat denies a Pole
    unsure_below: float = 0.5  # a space read less sure is unsure (the referee's default)
    # start spaces calibration with an empty-mat photo lets through read unsure (a piece
    # lit just like a pad printed in its colour), a quarter of the start's 16 piece spaces;
    # one read sure and wrong is a wrong set-up
    start_unsure_max: int = 4
    # a start Port read as the other side's, whose walls' samples lie further than this on
    # median from that side's colour, is its own side's in a light not learned (calibration)
    start_relearn_unlike: float = 2.0
    # A wall coloured like the mat under it, read from its shape (vision.shapes): profiles
    # across each edge at line_along places (from line_along_from of the way along), of
    # line_across points spanning where the wall would show and line_margin spaces beyond.
    line_along: int = 7
    line_along_from: float = 0.1
    line_across: int = 7
    line_margin: float = 0.04
    line_dark: float = 0.02  # added to lightness before its log: black is noise, not ratio
    line_pole_clear: float = 0.03  # spaces a profile's line of sight keeps from a Pole
    line_shadow_clear: float = 0.1  # spaces a profile point keeps from a Pole's shadow
    line_least_along: int = 4  # profiles in clear view an edge needs to say anything
    line_sigma_floor: float = 0.008  # log lightness: a clean camera's noise is no less
    # structure (in noise deviations) between a bare edge's and a wall's, where the evidence
    # turns; log-likelihood per deviation; most it says either way
    line_structure: float = 2.5
    line_gain: float = 2.0
    line_cap: float = 6.0
    line_colour_floor: float = 4.0
    # A Pole coloured like the mat, read from its body (vision.shapes.pole_body): its axis at
    # these heights (of a Pole's), against body_beside spaces either side; this much
    # structure (noise deviations) is a body
    body_heights: tuple[float, ...] = (0.25, 0.4, 0.55, 0.7, 0.85)
    body_beside: float = 0.32
    body_structure: float = 12.0
    # ... and at least this many times what a bare space showed in the start photo (shadows)
    body_margin: float = 2.0
    # ... or from its footprint (vision.shapes.foot_change): this much change (noise
    # deviations, median over the disc; bare mat's is 0.7 by noise alone), and at least
    # body_margin times what a bare space's showed in the start photo (shadows)
    foot_structure: float = 2.5
    # ... where no shadow may fall within this much (spaces) of the footprint disc: the
    # Pole shadow learned is the core every start Pole's shadow shares, and one Pole's
    # shadow reaches past it by its penumbra, up to about half a Pole's radius (two lamps:
    # a shadow's core leaning a fifth of a space off the next centre covered that
    # footprint); where one may, a footprint changed foot_past_shadow times that threshold
    # with a body of body_with_foot times its own (a shadow darkens a body's axis and the
    # mat beside it alike, so it cannot give both)
    foot_shade_margin: float = 0.15
    # ... and past its length by up to this factor: the start Poles' shadows share less of
    # their faint tips (held out: a low sun's shadow reached the next space's footprint,
    # learned a third of a space short of it)
    shadow_may_stretch: float = 1.5
    foot_past_shadow: float = 2.0
    body_with_foot: float = 0.5
    # ... and a body or a rim with no shadow of its own makes a Pole only over a footprint
    # changed at least this much of the threshold (its base hides some mat)
    shape_foot_least: float = 0.25
    # ... against the light's change round it: the median over the bare spaces of its 3x3
    # neighbourhood, or of its 5x5 where fewer than this many of those are bare
    light_least_bare: int = 4
    # A Pole's own shadow (vision.shapes.PoleShadow): looked for within shadow_reach spaces
    # of its centre on a shadow_grid x shadow_grid grid, beyond shadow_clear_of_pole of it;
    # kept where darker by shadow_sigma noise deviations, at shadow_least points or more.
    # A space whose shadow points show it between shadow_seen (of the start Poles') and
    # shadow_most casts a Pole's shadow. (The shadow learned is the least darkening any
    # start Pole shows at each point: under soft light, where their shadows differ in
    # depth, a faint one, against which the start Poles score up to 2 and more, and a
    # Pole alone in play, its whole shadow cast, 2.5.)
    shadow_reach: float = 1.0
    # and read on the mat's border or the table this far (spaces) past the grid
    shadow_beyond_grid: float = 0.5
    shadow_grid: int = 21
    shadow_clear_of_pole: float = 0.25
    shadow_sigma: float = 4.0
    shadow_least: int = 6
    shadow_seen: float = 0.85
    # ... of that side's start Poles' own, where those cast less than the least any start
    # Pole shows (at least shadow_scale_least of it): a light Pole lights its own shadow
    shadow_scale_least: float = 0.5
    shadow_most: float = 3.0
    # ... or, where the start Poles' own shadows score deeper than shadow_most against the
    # learned one (under a soft box the faintest start Pole's is learned, and those nearer
    # the box cast three times and more of it), shadow_most_of_start times the deepest
    # (shadow_most 3 came from start Poles at 2.0 and a Pole alone in play at 2.5), at
    # most shadow_most_ceiling
    shadow_most_of_start: float = 1.5
    shadow_most_ceiling: float = 8.0
    # ... and the mat shadow_side spaces beside it, across the shadow's direction, shows at
    # most shadow_beside_most of it (a wall's shadow is long, a Pole's is not)
    shadow_side: float = 0.45
    shadow_beside_most: float = 0.35
    # A lamp near the mat casts each Pole's shadow away from the point under it, longer the
    # further off (vision.shapes.PoleShadow.lamp): the shadow learned along each start Pole's
    # own way from such a point, tried every lamp_step spaces up to lamp_reach from the
    # mat's centre (then every lamp_fine round the best), is kept where it shows lamp_gain
    # times the darkening the one shadow shared by every start Pole as seen shows; a
    # space's shadow is the learned one lengthened by its distance from that point over the
    # start Poles' median, between lamp_scale_least and lamp_scale_most times
    lamp_reach: float = 12.0
    lamp_step: float = 1.0
    lamp_fine: float = 0.25
    lamp_gain: float = 1.5
    lamp_scale_least: float = 0.25
    lamp_scale_most: float = 2.0
    # the mat grid's spacing (spaces) where the change is read for the lamp's search
    lamp_grid_step: float = 0.1
    # ... or from the rim of its top (vision.shapes.pole_rim): rim_directions lines across
    # the rim at the Pole's height, from rim_inside to rim_outside of its radius; those in
    # clear view of every other piece count, and rim_least_directions of them are needed.
    # A rim shows where its median change across (noise deviations) is rim_over_bare times
    # the bare spaces' median in the same frame (at least rim_least_bare of them), and at
    # least rim_least. (Seen at 28 degrees, a rim past the three front ranks hides behind
    # the next space's Pole: a midgame leaves about a dozen bare spaces in view.)
    rim_directions: int = 16
    rim_inside: float = 0.63
    rim_outside: float = 1.43
    rim_least_directions: int = 6
    rim_print_edge: float = 0.1  # log lightness across a line in the empty photo: an edge
    # the least spread a rim is measured against (log lightness): even on a clean camera,
    # print just past rim_print_edge softens or sharpens this much between two photos
    rim_sigma_floor: float = 0.02
    rim_over_bare: float = 4.0
    rim_least: float = 1.5
    rim_least_bare: int = 8
    # ... and with a rim, this share of a space's disc samples in a side's colour is its Pole
    rim_share: float = 0.5


CLASSIFY = ClassifyConfig()


@dataclass(frozen=True, slots=True)
class GateConfig:
    margin: float = 0.3  # spaces round the grid (most of the printed border) checked too
    palette_bins: int = 64  # per chromaticity axis
    chroma_span: float = 2.0  # log-chromaticities from -span to +span are binned
    dark_lightness: float = 0.12  # darker pixels are shadow: their chromaticity is noise
    palette_px: int = 256  # top-down size the palette is learned at
    palette_min_count: int = 20  # pixels a bin needs to count as the mat's
    palette_grow: int = 1  # bins round each known one that are known too (light, noise)
    palette_levels: int = 8  # lightness levels of the palette
    palette_grow_levels: int = 1  # levels round each known one that are known too (shade)
    # ... and, where calibration measured the table's shade allowance, this many of it
    # darker (a shadow of known print where none fell in the photos)
    palette_shade_sigmas: float = 2.0
    # ... and every colour this near a side's pieces' (Mahalanobis): their faces in shades
    # the photos did not show
    palette_piece_sigma: float = 3.0
    check_px: int = 128  # top-down size occlusion is checked at
    occluded_fraction: float = 0.003  # a foreign blob this share of the mat: a hand
    # pixels (at check_px) a foreign blob must be across: a narrower strip is where two
    # known colours blur together (a glossy wall's edge against the mat), while a fingertip
    # is half a space (7 px) across or more
    foreign_open_px: int = 5
    # pieces read beyond the set's (Poles and Ports of each side): a hand read as pieces,
    # where one of them at least is read this sure; and pieces beyond the set's, with those
    # short of it in a game, this many even when all are unsure (a hand hides pieces as it
    # shows some: 4 to 17 over the simulated and Blender hands, where misread cream
    # pieces on white laminate, walls back to back and Poles in their shadows, made 3)
    beyond_the_set: int = 2
    beyond_the_set_sure: float = 0.5
    off_the_set: int = 4
    # ... and this many beyond the set alone, however unsure, with not every piece seen: a
    # misreading names one piece, or two read unsure (held out: a skin-coloured hand's
    # fingers over light wood read as three of gold's Ports, nothing hidden)
    beyond_the_set_unsure: int = 3
    # The print under a hand coloured like the mat (skin over light wood): across each edge
    # (vision.shapes.veiled_lines), at line_kept_along of the wall profiles' places along it
    # (off its ends, where the neighbours' walls meet it), the empty look's pattern, at
    # least line_kept_structure log lightness a point over line_kept_points points, of
    # which a shade keeps all and a hand less than line_kept. A space with veiled_edges
    # such edges no piece read explains is veiled; veiled_spaces side by side are a hand
    # (in 264 Blender and devset photos without one no space was veiled; 8 of 44 hands
    # veiled 3 to 12 side by side, 5 two)
    line_kept: float = 0.5
    line_kept_structure: float = 0.03
    line_kept_points: int = 14
    line_kept_along: tuple[int, ...] = (1, 3, 5)
    veiled_edges: int = 2
    veiled_spaces: int = 3
    # The band round the grid, where no piece ever stands (vision.gate.Surround): places
    # surround_step spaces apart all round; at each, the first surround_rows offsets out of
    # surround_offsets whose line of sight clears any piece on the mat by surround_clear
    # spaces, and whose empty look is flat (within surround_flat of its look
    # surround_flat_px either way). An arm crosses it where every row of surround_least_run
    # spaces' worth of places has changed by surround_sigma (bare_mat_distance), within
    # surround_within spaces on one side: an arm's crossing is solid, a hand's fingers a comb
    # (held out: fingers reaching in over the far edge, their palm beyond the band, crossed
    # it as four strips two places wide at most, and the frame gave a position).
    surround_step: float = 0.125
    surround_offsets: tuple[float, ...] = (0.08, 0.16, 0.24, 0.32, 0.4, 0.5, 0.6, 0.7, 0.8,
                                           0.9, 1.0, 1.1, 1.2)
    surround_rows: int = 3
    surround_clear: float = 0.05
    surround_flat: float = 2.0
    surround_flat_px: float = 2.0
    surround_sigma: float = 6.0
    surround_least_run: float = 0.5
    surround_within: float = 2.0
    # ... and fingertips that touch only some rows (ending inside the band, or past only
    # some lines of sight) are fingers where surround_comb_runs strips or more, of
    # surround_comb_least spaces' worth of places, lie within surround_within spaces
    # (held out: fingertips over the far edge at 35 degrees touched 10 places in 3 strips;
    # over the 665 frames without a hand on disk, 7 places in one strip at most, 4 in two)
    surround_comb_runs: int = 3
    surround_comb_least: float = 0.75
    motion_px: int = 64  # top-down size stillness is checked at
    motion_grey: float = 15.0  # grey levels a top-down pixel must change by to count
    motion_fraction: float = 0.002  # share of changed pixels that means something moved
    still_s: float = 0.3  # seconds still and unoccluded before a position is reported
    agree_frames: int = 2  # still frames in a row that must read the same position
    # A frame unchanged since the last full reading, which was sure of every space (at least
    # this confident), is not read again: the reading stands.
    reuse_confidence: float = 0.5


GATE = GateConfig()


# ----------------------------------------------------------------------------------------------
# Lens calibration (calibration/intrinsics.py) and simulated lens distortion (vision/distortion.py)


@dataclass(frozen=True, slots=True)
class LensConfig:
    pattern: tuple[int, int] = (9, 6)  # inner corners (columns, rows) of the printed sheet
    sheet_margin_mm: float = 15.0  # white paper round the squares: the detector needs it
    sheet_caption_mm: float = 8.0  # strip under the squares for the printed caption
    min_views: int = 5  # views showing the whole sheet, to calibrate at all
    max_rms_px: float = 1.5  # a fit worse than this is refused (a good one is < 0.5 px)
    fix_k3: bool = True  # k3 is left at 0: ordinary webcam lenses do not need it (as ROS)
    subpix_half_max: int = 7  # px: cornerSubPix half window, at most
    subpix_half_share: float = 0.3  # of the smallest corner spacing, for the half window
    subpix_iterations: int = 50
    subpix_eps_px: float = 0.001
    undistort_iterations: int = 20  # iterative point undistortion (the lens model inverse)
    undistort_eps: float = 1e-9  # normalised image units
    new_matrix_alpha: float = 1.0  # 1: undistorted frames keep every pixel the lens saw
    live_detect_width: int = 640  # px: live frames are searched for the sheet at this width
    live_still_px: float = 2.0  # corners move less than this between frames: no motion blur
    live_min_change: float = 0.2  # L1 distance of a new view's pose from the others (as ROS)
    live_timeout_s: float = 180.0  # give up on a live capture after this long


LENS = LensConfig()
