"""Render one scene folder of the Blender Teleporters test set (run inside Blender).

    blender -b --factory-startup -P benchmarks/blender/render_scene.py -- SCENE_DIR \\
        [--samples N] [--only start,pos_01]

Reads ``scene.json`` and ``render.json`` (written by ``make_specs.py``) and renders every job
(``empty``, ``start``, ``pos_01`` .. ``pos_06``, ``hand_01``) to 1280x720 JPEG in SCENE_DIR
with Cycles on the CPU. Timings go to stdout and to ``render_log.json``.

Nothing here comes from the project: mat, pieces, table, lights and hand are built from the
specification alone. Mat coordinates: origin at the mat's centre, x east, y north, z up.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

# Blender's own modules: this script runs only inside Blender
import bmesh
import bpy
from mathutils import Euler, Vector


# ----------------------------------------------------------------------------- small helpers
def srgb_to_linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def lin(hexcol: str, alpha: float = 1.0) -> tuple[float, float, float, float]:
    h = hexcol.lstrip("#")
    r, g, b = (srgb_to_linear(int(h[i:i + 2], 16) / 255.0) for i in (0, 2, 4))
    return (r, g, b, alpha)


def new_material(name: str) -> tuple[Any, Any, Any]:
    """A material with its Principled BSDF; returns (material, node tree, bsdf)."""
    m = bpy.data.materials.new(name)
    m.use_nodes = True
    nt = m.node_tree
    bsdf = nt.nodes["Principled BSDF"]
    return m, nt, bsdf


def node(nt: Any, kind: str, **props: Any) -> Any:
    n = nt.nodes.new(kind)
    for k, v in props.items():
        setattr(n, k, v)
    return n


def link(nt: Any, a: Any, b: Any) -> None:
    nt.links.new(a, b)


def set_input(n: Any, name: str, value: Any) -> None:
    if name in n.inputs:
        n.inputs[name].default_value = value


def direction(azimuth_deg: float, elevation_deg: float) -> Vector:
    """Unit vector towards a light: azimuth 0 = north (+y), 90 = east (+x)."""
    az, el = math.radians(azimuth_deg), math.radians(elevation_deg)
    return Vector((math.sin(az) * math.cos(el), math.cos(az) * math.cos(el), math.sin(el)))


def aim_z(v: Vector) -> Euler:
    """Rotation that turns the object's +z to v (lights shine along their -z)."""
    return Vector((0, 0, 1)).rotation_difference(v.normalized()).to_euler()


def blackbody_light(light: Any, temperature: float, tint: str | None = None) -> None:
    light.use_nodes = True
    nt = light.node_tree
    em = nt.nodes.get("Emission")
    bb = node(nt, "ShaderNodeBlackbody")
    bb.inputs["Temperature"].default_value = temperature
    if tint is None:
        link(nt, bb.outputs["Color"], em.inputs["Color"])
    else:
        mix = node(nt, "ShaderNodeMixRGB", blend_type="MULTIPLY")
        mix.inputs["Fac"].default_value = 1.0
        mix.inputs["Color2"].default_value = lin(tint)
        link(nt, bb.outputs["Color"], mix.inputs["Color1"])
        link(nt, mix.outputs["Color"], em.inputs["Color"])


# ----------------------------------------------------------------------------- the set
def reset_scene() -> Any:
    for ob in list(bpy.data.objects):
        bpy.data.objects.remove(ob, do_unlink=True)
    return bpy.context.scene


def denoiser_available(sc: Any) -> bool:
    try:
        import _cycles  # type: ignore[import-not-found]
        if not getattr(_cycles, "with_openimagedenoise", False):
            return False
        sc.cycles.denoiser = "OPENIMAGEDENOISE"
        return True
    except (ImportError, TypeError, AttributeError):
        return False


def setup_render(sc: Any, spec: dict[str, Any], render: dict[str, Any], samples: int) -> bool:
    sc.render.engine = "CYCLES"
    cy = sc.cycles
    cy.device = "CPU"
    cy.samples = samples
    cy.use_adaptive_sampling = True
    cy.adaptive_threshold = 0.04
    cy.adaptive_min_samples = min(16, samples)
    cy.max_bounces = 4
    cy.diffuse_bounces = 1
    cy.glossy_bounces = 2
    cy.transmission_bounces = 0
    cy.transparent_max_bounces = 0
    cy.volume_bounces = 0
    cy.caustics_reflective = False
    cy.caustics_refractive = False
    cy.sample_clamp_direct = 8.0
    cy.sample_clamp_indirect = 3.0
    cy.blur_glossy = 1.0
    cy.filter_width = 1.5
    denoise = denoiser_available(sc)
    cy.use_denoising = denoise
    sc.render.use_persistent_data = True
    sc.render.resolution_x = render["width"]
    sc.render.resolution_y = render["height"]
    sc.render.resolution_percentage = 100
    sc.render.image_settings.file_format = "JPEG"
    sc.render.image_settings.color_mode = "RGB"
    sc.render.image_settings.quality = int(render.get("jpeg_quality", 90))
    sc.view_settings.view_transform = "Filmic"
    sc.view_settings.look = "Medium Contrast"
    sc.view_settings.exposure = float(spec["camera"].get("exposure", 0.0))
    setup_compositor(sc, spec)
    return denoise


def blackbody_rgb(kelvin: float) -> tuple[float, float, float]:
    """Approximate linear RGB of a black body (Tanner Helland's fit, sRGB, linearised)."""
    t = kelvin / 100.0
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = (99.4708025861 * math.log(t) - 161.1195681661 if t <= 66
         else 288.1221695283 * (t - 60) ** -0.0755148492)
    b = (255.0 if t >= 66 else 0.0 if t <= 19
         else 138.5177312231 * math.log(t - 10) - 305.0447927307)
    r_, g_, b_ = (srgb_to_linear(min(255.0, max(0.0, v)) / 255.0) for v in (r, g, b))
    return r_, g_, b_


def illuminant(spec: dict[str, Any]) -> tuple[float, float, float]:
    """The light's overall colour (linear RGB) as a camera's auto white balance would guess
    it: the key light and the room's ambient light, each weighted by its rough irradiance."""
    key = spec["light"]["key"]
    parts: list[tuple[tuple[float, float, float], float]] = []
    if key["type"] == "two_lamps":
        for lamp in key["lamps"]:
            r2 = sum(v * v for v in lamp["position_m"])
            parts.append((blackbody_rgb(lamp["temperature_k"]),
                          lamp["power_w"] / (4 * math.pi * r2)))
    elif key["type"] == "sun":
        parts.append((blackbody_rgb(key["temperature_k"]), key["strength"]))
    elif key["type"] == "area":
        parts.append((blackbody_rgb(key["temperature_k"]),
                      key["power_w"] / (math.pi * key["distance_m"] ** 2)))
    else:
        c = blackbody_rgb(key["temperature_k"])
        tint = lin(key["color"])
        r2 = sum(v * v for v in key["position_m"])
        parts.append(((c[0] * tint[0], c[1] * tint[1], c[2] * tint[2]),
                      key["power_w"] / (math.pi * r2)))
    amb = spec["light"]["ambient"]
    parts.append((blackbody_rgb(amb["temperature_k"]), math.pi * amb["strength"]))
    acc = [0.0, 0.0, 0.0]
    for col, weight in parts:
        lum = 0.2126 * col[0] + 0.7152 * col[1] + 0.0722 * col[2]
        for i in range(3):
            acc[i] += col[i] / max(lum, 1e-6) * weight
    return acc[0], acc[1], acc[2]


def setup_compositor(sc: Any, spec: dict[str, Any]) -> None:
    """A camera's partial auto white balance, then light sensor noise: zero-mean, added in
    scene-linear light before the view transform, so it shows most in the shadows."""
    seed = int(spec["seed"])
    awb = float(spec["camera"].get("awb", 0.0))
    sc.use_nodes = True
    nt = sc.node_tree
    for n in list(nt.nodes):
        nt.nodes.remove(n)
    rl = node(nt, "CompositorNodeRLayers")
    comp = node(nt, "CompositorNodeComposite")
    src = rl.outputs["Image"]
    if awb > 0:
        ill = illuminant(spec)
        lum = 0.2126 * ill[0] + 0.7152 * ill[1] + 0.0722 * ill[2]
        gain = [(lum / max(c, 1e-4)) ** awb for c in ill]
        glum = 0.2126 * gain[0] + 0.7152 * gain[1] + 0.0722 * gain[2]
        wb = node(nt, "CompositorNodeMixRGB", blend_type="MULTIPLY")
        wb.inputs["Fac"].default_value = 1.0
        wb.inputs[2].default_value = (gain[0] / glum, gain[1] / glum, gain[2] / glum, 1.0)
        link(nt, src, wb.inputs[1])
        src = wb.outputs["Image"]
    tex = bpy.data.textures.new("sensor_noise", "NOISE")
    tn = node(nt, "CompositorNodeTexture")
    tn.texture = tex
    tn.inputs["Offset"].default_value = ((seed % 97) * 0.37, (seed % 89) * 0.41, 0.0)
    centred = node(nt, "CompositorNodeMath", operation="SUBTRACT")
    centred.inputs[1].default_value = 0.5
    link(nt, tn.outputs["Value"], centred.inputs[0])
    amp = node(nt, "CompositorNodeMath", operation="MULTIPLY")
    amp.inputs[1].default_value = 0.012
    link(nt, centred.outputs["Value"], amp.inputs[0])
    add = node(nt, "CompositorNodeMixRGB", blend_type="ADD")
    add.inputs["Fac"].default_value = 1.0
    link(nt, src, add.inputs[1])
    link(nt, amp.outputs["Value"], add.inputs[2])
    link(nt, add.outputs["Image"], comp.inputs["Image"])


def build_world(spec: dict[str, Any]) -> None:
    amb = spec["light"]["ambient"]
    w = bpy.data.worlds.new("room")
    bpy.context.scene.world = w
    w.use_nodes = True
    nt = w.node_tree
    bg = nt.nodes["Background"]
    bb = node(nt, "ShaderNodeBlackbody")
    bb.inputs["Temperature"].default_value = amb["temperature_k"]
    # a soft ceiling-to-floor gradient, so glossy things reflect something
    tc = node(nt, "ShaderNodeTexCoord")
    sep = node(nt, "ShaderNodeSeparateXYZ")
    link(nt, tc.outputs["Generated"], sep.inputs["Vector"])
    ramp = node(nt, "ShaderNodeValToRGB")
    ramp.color_ramp.elements[0].color = (0.35, 0.35, 0.35, 1)
    ramp.color_ramp.elements[1].color = (1.0, 1.0, 1.0, 1)
    link(nt, sep.outputs["Z"], ramp.inputs["Fac"])
    mul = node(nt, "ShaderNodeMixRGB", blend_type="MULTIPLY")
    mul.inputs["Fac"].default_value = 1.0
    link(nt, bb.outputs["Color"], mul.inputs["Color1"])
    link(nt, ramp.outputs["Color"], mul.inputs["Color2"])
    link(nt, mul.outputs["Color"], bg.inputs["Color"])
    bg.inputs["Strength"].default_value = amb["strength"]
    w.cycles.sampling_method = "NONE"     # a smooth, dim room: no importance map needed


def build_lights(spec: dict[str, Any]) -> None:
    key = spec["light"]["key"]
    coll = bpy.context.scene.collection

    def add(name: str, kind: str) -> tuple[Any, Any]:
        data = bpy.data.lights.new(name, kind)
        ob = bpy.data.objects.new(name, data)
        coll.objects.link(ob)
        return data, ob

    if key["type"] == "sun":
        data, ob = add("sun", "SUN")
        data.energy = key["strength"]
        data.angle = math.radians(key["angle_deg"])
        ob.rotation_euler = aim_z(direction(key["azimuth_deg"], key["elevation_deg"]))
        blackbody_light(data, key["temperature_k"])
    elif key["type"] == "area":
        data, ob = add("softbox", "AREA")
        data.shape = "SQUARE"
        data.size = key["size_m"]
        data.energy = key["power_w"]
        d = direction(key["azimuth_deg"], key["elevation_deg"])
        ob.location = d * key["distance_m"]
        ob.rotation_euler = aim_z(d)
        blackbody_light(data, key["temperature_k"])
    elif key["type"] == "two_lamps":
        for i, lamp in enumerate(key["lamps"]):
            data, ob = add(f"lamp{i}", "POINT")
            data.energy = lamp["power_w"]
            data.shadow_soft_size = lamp["radius_m"]
            ob.location = Vector(lamp["position_m"])
            blackbody_light(data, lamp["temperature_k"])
    else:  # warm_led: a long thin strip, hanging level, shining down
        data, ob = add("led_strip", "AREA")
        data.shape = "RECTANGLE"
        data.size, data.size_y = key["size_m"]
        data.energy = key["power_w"]
        ob.location = Vector(key["position_m"])
        ob.rotation_euler = Euler((0.0, 0.0, math.radians(key["rotation_deg"])))
        blackbody_light(data, key["temperature_k"], key["color"])


def build_camera(spec: dict[str, Any]) -> None:
    c = spec["camera"]
    data = bpy.data.cameras.new("camera")
    data.lens = c["focal_mm"]
    data.sensor_width = c.get("sensor_mm", 36.0)
    data.sensor_fit = "HORIZONTAL"
    data.clip_start = 0.01
    data.clip_end = 20.0
    ob = bpy.data.objects.new("camera", data)
    bpy.context.scene.collection.objects.link(ob)
    ob.location = Vector(c["position_m"])
    ob.rotation_euler = Euler((math.radians(c["tilt_deg"]), 0.0, math.radians(c["yaw_deg"])))
    bpy.context.scene.camera = ob


def table_material(t: dict[str, Any]) -> Any:
    m, nt, bsdf = new_material("table")
    tc = node(nt, "ShaderNodeTexCoord")
    kind = t["kind"]
    if kind == "wood":
        mp = node(nt, "ShaderNodeMapping")
        mp.inputs["Rotation"].default_value = (0, 0, math.radians(t["grain_deg"]))
        link(nt, tc.outputs["Object"], mp.inputs["Vector"])
        # fibres: noise stretched along the grain (x); growth rings: mild wavy bands
        st = node(nt, "ShaderNodeMapping")
        st.inputs["Scale"].default_value = (1.2, 28.0, 1.2)
        link(nt, mp.outputs["Vector"], st.inputs["Vector"])
        fib = node(nt, "ShaderNodeTexNoise")
        set_input(fib, "Scale", 3.0)
        set_input(fib, "Detail", 8.0)
        set_input(fib, "Roughness", 0.62)
        link(nt, st.outputs["Vector"], fib.inputs["Vector"])
        wave = node(nt, "ShaderNodeTexWave", wave_type="BANDS", bands_direction="Y")
        set_input(wave, "Scale", 9.0)
        set_input(wave, "Distortion", 2.5)
        set_input(wave, "Detail", 2.0)
        link(nt, mp.outputs["Vector"], wave.inputs["Vector"])
        mixf = node(nt, "ShaderNodeMixRGB", blend_type="MIX")
        mixf.inputs["Fac"].default_value = 0.35
        link(nt, fib.outputs["Fac"], mixf.inputs["Color1"])
        link(nt, wave.outputs["Fac"], mixf.inputs["Color2"])
        ramp = node(nt, "ShaderNodeValToRGB")
        ramp.color_ramp.elements[0].color = lin(t["color2"])
        ramp.color_ramp.elements[0].position = 0.3
        ramp.color_ramp.elements[1].color = lin(t["color"])
        ramp.color_ramp.elements[1].position = 0.7
        link(nt, mixf.outputs["Color"], ramp.inputs["Fac"])
        brick = node(nt, "ShaderNodeTexBrick", offset=0.37, offset_frequency=1)
        set_input(brick, "Scale", 1.0)
        set_input(brick, "Mortar Size", 0.0012)
        set_input(brick, "Brick Width", 1.3)
        set_input(brick, "Row Height", t.get("plank_m", 0.15))
        brick.inputs["Color1"].default_value = (1, 1, 1, 1)
        brick.inputs["Color2"].default_value = (0.92, 0.92, 0.92, 1)
        brick.inputs["Mortar"].default_value = (0.25, 0.22, 0.2, 1)
        link(nt, mp.outputs["Vector"], brick.inputs["Vector"])
        mul = node(nt, "ShaderNodeMixRGB", blend_type="MULTIPLY")
        mul.inputs["Fac"].default_value = 1.0
        link(nt, ramp.outputs["Color"], mul.inputs["Color1"])
        link(nt, brick.outputs["Color"], mul.inputs["Color2"])
        link(nt, mul.outputs["Color"], bsdf.inputs["Base Color"])
        bsdf.inputs["Roughness"].default_value = 0.38
        bsdf.inputs["Specular"].default_value = 0.4
    elif kind == "cloth":
        noise = node(nt, "ShaderNodeTexNoise")
        set_input(noise, "Scale", 60.0)
        set_input(noise, "Detail", 4.0)
        link(nt, tc.outputs["Object"], noise.inputs["Vector"])
        ramp = node(nt, "ShaderNodeValToRGB")
        ramp.color_ramp.elements[0].color = lin(t["color2"])
        ramp.color_ramp.elements[1].color = lin(t["color"])
        ramp.color_ramp.elements[0].position = 0.3
        ramp.color_ramp.elements[1].position = 0.7
        link(nt, noise.outputs["Fac"], ramp.inputs["Fac"])
        link(nt, ramp.outputs["Color"], bsdf.inputs["Base Color"])
        weave = node(nt, "ShaderNodeTexWave", wave_type="BANDS", bands_direction="DIAGONAL")
        set_input(weave, "Scale", 900.0)
        link(nt, tc.outputs["Object"], weave.inputs["Vector"])
        bump = node(nt, "ShaderNodeBump")
        bump.inputs["Strength"].default_value = 0.25
        link(nt, weave.outputs["Fac"], bump.inputs["Height"])
        link(nt, bump.outputs["Normal"], bsdf.inputs["Normal"])
        bsdf.inputs["Roughness"].default_value = 0.95
        bsdf.inputs["Specular"].default_value = 0.2
        set_input(bsdf, "Sheen", 0.6)
    elif kind == "marble":
        # veins: the iso-lines of a fractal noise (|noise - 0.5| small), a finer second set
        mp = node(nt, "ShaderNodeMapping")
        sc_ = t.get("vein_scale", 3.0)
        mp.inputs["Scale"].default_value = (sc_, sc_ * 0.6, sc_)
        link(nt, tc.outputs["Object"], mp.inputs["Vector"])
        base: Any = None
        for k, (scale, width, weight) in enumerate(((1.0, 0.022, 1.0), (2.7, 0.012, 0.55))):
            nz = node(nt, "ShaderNodeTexNoise")
            set_input(nz, "Scale", scale)
            set_input(nz, "Detail", 6.0)
            set_input(nz, "Roughness", 0.55)
            set_input(nz, "Distortion", 0.6 + 0.4 * k)
            link(nt, mp.outputs["Vector"], nz.inputs["Vector"])
            dist = node(nt, "ShaderNodeMath", operation="SUBTRACT")
            dist.inputs[1].default_value = 0.5
            link(nt, nz.outputs["Fac"], dist.inputs[0])
            ab = node(nt, "ShaderNodeMath", operation="ABSOLUTE")
            link(nt, dist.outputs["Value"], ab.inputs[0])
            vein = node(nt, "ShaderNodeMapRange", clamp=True)
            vein.inputs["From Min"].default_value = width
            vein.inputs["From Max"].default_value = 0.0
            vein.inputs["To Max"].default_value = weight
            link(nt, ab.outputs["Value"], vein.inputs["Value"])
            if base is None:
                base = vein
            else:
                mx = node(nt, "ShaderNodeMath", operation="MAXIMUM")
                link(nt, base.outputs[0], mx.inputs[0])
                link(nt, vein.outputs[0], mx.inputs[1])
                base = mx
        cloud = node(nt, "ShaderNodeTexNoise")
        set_input(cloud, "Scale", 5.0)
        set_input(cloud, "Detail", 3.0)
        link(nt, tc.outputs["Object"], cloud.inputs["Vector"])
        tone = node(nt, "ShaderNodeMixRGB", blend_type="OVERLAY")
        tone.inputs["Fac"].default_value = 0.2
        tone.inputs["Color1"].default_value = lin(t["color"])
        link(nt, cloud.outputs["Color"], tone.inputs["Color2"])
        mix = node(nt, "ShaderNodeMixRGB", blend_type="MIX")
        mix.inputs["Color2"].default_value = lin(t["color2"])
        link(nt, base.outputs[0], mix.inputs["Fac"])
        link(nt, tone.outputs["Color"], mix.inputs["Color1"])
        link(nt, mix.outputs["Color"], bsdf.inputs["Base Color"])
        bsdf.inputs["Roughness"].default_value = 0.18
        bsdf.inputs["Specular"].default_value = 0.5
    else:  # gingham tablecloth
        mp = node(nt, "ShaderNodeMapping")
        mp.inputs["Rotation"].default_value = (0, 0, math.radians(t.get("angle_deg", 0)))
        s = 1.0 / t.get("check_m", 0.03)
        mp.inputs["Scale"].default_value = (s, s, s)
        link(nt, tc.outputs["Object"], mp.inputs["Vector"])
        sep = node(nt, "ShaderNodeSeparateXYZ")
        link(nt, mp.outputs["Vector"], sep.inputs["Vector"])
        stripes = []
        for axis in ("X", "Y"):
            sine = node(nt, "ShaderNodeMath", operation="MULTIPLY")
            sine.inputs[1].default_value = math.pi
            link(nt, sep.outputs[axis], sine.inputs[0])
            sn = node(nt, "ShaderNodeMath", operation="SINE")
            link(nt, sine.outputs["Value"], sn.inputs[0])
            gt = node(nt, "ShaderNodeMath", operation="GREATER_THAN")
            gt.inputs[1].default_value = 0.0
            link(nt, sn.outputs["Value"], gt.inputs[0])
            stripes.append(gt)
        tot = node(nt, "ShaderNodeMath", operation="ADD")
        link(nt, stripes[0].outputs["Value"], tot.inputs[0])
        link(nt, stripes[1].outputs["Value"], tot.inputs[1])
        half = node(nt, "ShaderNodeMath", operation="MULTIPLY")
        half.inputs[1].default_value = 0.5
        link(nt, tot.outputs["Value"], half.inputs[0])
        mix = node(nt, "ShaderNodeMixRGB", blend_type="MIX")
        mix.inputs["Color1"].default_value = lin(t["color"])
        mix.inputs["Color2"].default_value = lin(t["color2"])
        link(nt, half.outputs["Value"], mix.inputs["Fac"])
        link(nt, mix.outputs["Color"], bsdf.inputs["Base Color"])
        weave = node(nt, "ShaderNodeTexNoise")
        set_input(weave, "Scale", 500.0)
        link(nt, tc.outputs["Object"], weave.inputs["Vector"])
        bump = node(nt, "ShaderNodeBump")
        bump.inputs["Strength"].default_value = 0.2
        link(nt, weave.outputs["Fac"], bump.inputs["Height"])
        link(nt, bump.outputs["Normal"], bsdf.inputs["Normal"])
        bsdf.inputs["Roughness"].default_value = 0.9
        set_input(bsdf, "Sheen", 0.5)
    return m


def build_table(spec: dict[str, Any]) -> None:
    mesh = bpy.data.meshes.new("table")
    bm = bmesh.new()
    bmesh.ops.create_grid(bm, x_segments=1, y_segments=1, size=3.0)
    bm.to_mesh(mesh)
    bm.free()
    ob = bpy.data.objects.new("table", mesh)
    bpy.context.scene.collection.objects.link(ob)
    mesh.materials.append(table_material(spec["table"]))


def mat_materials(spec: dict[str, Any], folder: Path, render: dict[str, Any]
                  ) -> tuple[Any, Any]:
    """(top print material, body material) of the mat."""
    mat = spec["mat"]
    style = mat["style"]
    m, nt, bsdf = new_material("mat_print")
    tc = node(nt, "ShaderNodeTexCoord")
    img = node(nt, "ShaderNodeTexImage", interpolation="Linear")
    img.image = bpy.data.images.load(str(folder / render["mat_print"]))
    link(nt, tc.outputs["UV"], img.inputs["Vector"])
    link(nt, img.outputs["Color"], bsdf.inputs["Base Color"])

    def wavy(scale: float, strength: float) -> None:
        # a surface not quite flat: low noise bumps the normals (laminate, lying paper)
        wav = node(nt, "ShaderNodeTexNoise")
        set_input(wav, "Scale", scale)
        set_input(wav, "Detail", 1.0)
        link(nt, tc.outputs["Object"], wav.inputs["Vector"])
        bump = node(nt, "ShaderNodeBump")
        bump.inputs["Strength"].default_value = strength
        link(nt, wav.outputs["Fac"], bump.inputs["Height"])
        link(nt, bump.outputs["Normal"], bsdf.inputs["Normal"])

    if style == "wood":
        bsdf.inputs["Roughness"].default_value = 0.42
        bsdf.inputs["Specular"].default_value = 0.35
        if render.get("mat_bump"):
            bimg = node(nt, "ShaderNodeTexImage", interpolation="Linear")
            bimg.image = bpy.data.images.load(str(folder / render["mat_bump"]))
            bimg.image.colorspace_settings.name = "Non-Color"
            link(nt, tc.outputs["UV"], bimg.inputs["Vector"])
            bump = node(nt, "ShaderNodeBump")
            bump.inputs["Strength"].default_value = 0.6
            bump.inputs["Distance"].default_value = 0.0006
            link(nt, bimg.outputs["Color"], bump.inputs["Height"])
            link(nt, bump.outputs["Normal"], bsdf.inputs["Normal"])
        body_col = mat["wood_dark"]
    elif style == "laminate":
        bsdf.inputs["Roughness"].default_value = 0.12
        bsdf.inputs["Specular"].default_value = 0.6
        set_input(bsdf, "Clearcoat", 0.6)
        set_input(bsdf, "Clearcoat Roughness", 0.04)
        wavy(3.0, 0.04)
        body_col = "#f2f2ee"
    elif style == "neoprene":
        # cloth over rubber: rough, a faint sheen, no gloss
        bsdf.inputs["Roughness"].default_value = 0.9
        bsdf.inputs["Specular"].default_value = 0.15
        set_input(bsdf, "Sheen", 0.3)
        body_col = "#141414"
    elif style == "tiled":
        # matte paper, its sheets a little wavy where they lie on the table
        bsdf.inputs["Roughness"].default_value = 0.75
        bsdf.inputs["Specular"].default_value = 0.35
        wavy(1.5, 0.08)
        body_col = mat["paper"]
    elif style == "chalk":
        # slate: matte, a faint sheen where the board is worn smooth
        bsdf.inputs["Roughness"].default_value = 0.85
        bsdf.inputs["Specular"].default_value = 0.2
        body_col = mat["ground"]
    elif style == "quilt":
        # cotton and felt: rough cloth with a sheen, its padding not quite flat
        bsdf.inputs["Roughness"].default_value = 0.95
        bsdf.inputs["Specular"].default_value = 0.1
        set_input(bsdf, "Sheen", 0.5)
        wavy(2.5, 0.12)
        body_col = mat["binding"]
    else:
        bsdf.inputs["Roughness"].default_value = 0.68
        bsdf.inputs["Specular"].default_value = 0.3
        body_col = mat["border_color"]
    b, _, bb = new_material("mat_body")
    bb.inputs["Base Color"].default_value = lin(body_col)
    bb.inputs["Roughness"].default_value = 0.6
    return m, b


def build_mat(spec: dict[str, Any], folder: Path, render: dict[str, Any]) -> Any:
    """The mat: a slab with the print on top. Returns its root (an empty at the centre of the
    top face, turned by the mat's rotation): the pieces are its children."""
    mat = spec["mat"]
    s = spec["space_m"]
    half = (4 + mat["border"]) * s
    thick = mat["thickness_m"]
    coll = bpy.context.scene.collection
    root = bpy.data.objects.new("mat_root", None)
    coll.objects.link(root)
    root.location = (mat["offset_m"][0], mat["offset_m"][1], thick)
    root.rotation_euler = Euler((0, 0, math.radians(mat["rotation_deg"])))
    top_m, body_m = mat_materials(spec, folder, render)

    # the printed face, UV (0,0) at the south-west corner, (1,1) at the north-east
    mesh = bpy.data.meshes.new("mat_top")
    mesh.from_pydata([(-half, -half, 0), (half, -half, 0), (half, half, 0), (-half, half, 0)],
                     [], [(0, 1, 2, 3)])
    uv = mesh.uv_layers.new(name="UVMap")
    for li, (u, v) in enumerate(((0, 0), (1, 0), (1, 1), (0, 1))):
        uv.data[li].uv = (u, v)
    mesh.materials.append(top_m)
    top = bpy.data.objects.new("mat_top", mesh)
    coll.objects.link(top)
    top.parent = root
    top.location = (0, 0, 0.00005)

    bmesh_body = bmesh.new()
    bmesh.ops.create_cube(bmesh_body, size=1.0)
    body_mesh = bpy.data.meshes.new("mat_body")
    bmesh_body.to_mesh(body_mesh)
    bmesh_body.free()
    body_mesh.materials.append(body_m)
    body = bpy.data.objects.new("mat_body", body_mesh)
    coll.objects.link(body)
    body.parent = root
    body.scale = (2 * half, 2 * half, thick)
    body.location = (0, 0, -thick / 2 - 0.0001)
    if mat["style"] == "wood":
        bev = body.modifiers.new("bevel", "BEVEL")
        bev.width = 0.002 / thick
        bev.segments = 3
    return root


# ----------------------------------------------------------------------------- pieces
def piece_materials(spec: dict[str, Any]) -> dict[str, Any]:
    kind = spec["pieces"]["material"]
    out = {}
    for side in ("south", "north"):
        name = spec["side_names"][side]
        m, nt, bsdf = new_material(f"piece_{side}")
        col = lin(spec["sides"][side])
        bsdf.inputs["Base Color"].default_value = col
        if name == "silver":
            bsdf.inputs["Metallic"].default_value = 0.85
            bsdf.inputs["Roughness"].default_value = 0.28
        elif kind == "glossy":
            bsdf.inputs["Roughness"].default_value = 0.16
            bsdf.inputs["Specular"].default_value = 0.5
            set_input(bsdf, "Clearcoat", 0.3)
        elif kind == "satin":
            bsdf.inputs["Roughness"].default_value = 0.32
            bsdf.inputs["Specular"].default_value = 0.5
        elif kind == "matte":
            bsdf.inputs["Roughness"].default_value = 0.62
            bsdf.inputs["Specular"].default_value = 0.35
        else:  # painted / stained wood: grain in the colour, satin varnish
            tc = node(nt, "ShaderNodeTexCoord")
            wave = node(nt, "ShaderNodeTexWave", wave_type="RINGS", rings_direction="Y")
            set_input(wave, "Scale", 60.0)
            set_input(wave, "Distortion", 4.0)
            set_input(wave, "Detail", 3.0)
            link(nt, tc.outputs["Object"], wave.inputs["Vector"])
            mix = node(nt, "ShaderNodeMixRGB", blend_type="MULTIPLY")
            mix.inputs["Fac"].default_value = 0.3
            mix.inputs["Color1"].default_value = col
            link(nt, wave.outputs["Color"], mix.inputs["Color2"])
            link(nt, mix.outputs["Color"], bsdf.inputs["Base Color"])
            bsdf.inputs["Roughness"].default_value = 0.45
            bsdf.inputs["Specular"].default_value = 0.35
        out[side] = m
    return out


def pole_mesh(spec: dict[str, Any]) -> Any:
    s = spec["space_m"]
    r = spec["pieces"]["pole"]["diameter"] * s / 2
    h = spec["pieces"]["pole"]["height"] * s
    bm = bmesh.new()
    bmesh.ops.create_cone(bm, cap_ends=True, cap_tris=False, segments=40,
                          radius1=r, radius2=r, depth=h)
    bmesh.ops.translate(bm, verts=bm.verts, vec=(0, 0, h / 2))
    rim = [e for e in bm.edges if e.calc_face_angle(0) > math.radians(60)]
    bmesh.ops.bevel(bm, geom=rim, offset=r * 0.18, segments=3, affect="EDGES",
                    profile=0.5)
    return _smooth_mesh(bm, "pole", 50)


def _smooth_mesh(bm: Any, name: str, smooth_deg: float) -> Any:
    """A mesh from ``bm`` (freed), shaded smooth up to ``smooth_deg``, with one material slot."""
    me = bpy.data.meshes.new(name)
    bm.to_mesh(me)
    bm.free()
    me.materials.append(None)
    for p in me.polygons:
        p.use_smooth = True
    me.use_auto_smooth = True
    me.auto_smooth_angle = math.radians(smooth_deg)
    return me


def port_mesh(spec: dict[str, Any]) -> Any:
    """A V: two walls meeting at the origin (the outer corner), along +x and +y."""
    s = spec["space_m"]
    pp = spec["pieces"]["port"]
    t, h = pp["thickness"] * s, pp["height"] * s
    ln = (1.0 - 2 * pp["inset"]) * s
    bm = bmesh.new()
    outline = [(0, 0), (ln, 0), (ln, t), (t, t), (t, ln), (0, ln)]
    verts = [bm.verts.new((x, y, 0)) for x, y in outline]
    face = bm.faces.new(verts)
    if face.normal.z > 0:
        face.normal_flip()
    ext = bmesh.ops.extrude_face_region(bm, geom=[face])
    up = [v for v in ext["geom"] if isinstance(v, bmesh.types.BMVert)]
    bmesh.ops.translate(bm, verts=up, vec=(0, 0, h))
    bmesh.ops.recalc_face_normals(bm, faces=bm.faces)
    edges = [e for e in bm.edges if e.calc_face_angle(0) > math.radians(30)]
    bmesh.ops.bevel(bm, geom=edges, offset=t * 0.15, segments=2, affect="EDGES",
                    profile=0.5)
    return _smooth_mesh(bm, "port", 35)


def place_pieces(job: dict[str, Any], root: Any, meshes: dict[str, Any],
                 mats: dict[str, Any], coll: Any) -> None:
    """Replace the pieces on the mat with this job's (meshes shared, materials per object)."""
    for ob in list(coll.objects):
        bpy.data.objects.remove(ob, do_unlink=True)
    for i, p in enumerate(job["pieces"]):
        ob = bpy.data.objects.new(f"{p['kind']}_{i}_{p['square']}", meshes[p["kind"]])
        coll.objects.link(ob)
        ob.parent = root
        ob.location = (p["x"], p["y"], 0.0)
        ob.rotation_euler = Euler((0, 0, math.radians(p["rot_deg"])))
        ob.material_slots[0].link = "OBJECT"
        ob.material_slots[0].material = mats[p["side"]]


# ----------------------------------------------------------------------------- the hand
def capsule(name: str, a: Vector, b: Vector, ra: float, rb: float, mat: Any, coll: Any,
            flat: float = 1.0) -> None:
    """A tapered capsule from a (radius ra) to b (radius rb); flat < 1 squashes it in z."""
    axis = b - a
    length = axis.length
    bm = bmesh.new()
    bmesh.ops.create_cone(bm, cap_ends=False, segments=24, radius1=ra, radius2=rb,
                          depth=length)
    bmesh.ops.translate(bm, verts=bm.verts, vec=(0, 0, length / 2))
    for centre, r in ((0.0, ra), (length, rb)):
        sph = bmesh.ops.create_uvsphere(bm, u_segments=24, v_segments=12, radius=r)
        bmesh.ops.translate(bm, verts=sph["verts"], vec=(0, 0, centre))
    ob, me = _smooth_object(bm, name, mat, coll)
    rot = Vector((0, 0, 1)).rotation_difference(axis.normalized())
    ob.rotation_mode = "QUATERNION"
    ob.rotation_quaternion = rot
    ob.location = a
    if flat != 1.0:
        # squash along z (the hand's root turns only about z): in the mesh, as the object
        # is rotated to the capsule's axis
        for v in me.vertices:
            w = rot @ v.co
            w.z *= flat
            v.co = rot.inverted() @ w


def _smooth_object(bm: Any, name: str, mat: Any, coll: Any) -> tuple[Any, Any]:
    """An object in ``coll`` of a smooth-shaded mesh from ``bm`` (freed), in ``mat``."""
    me = bpy.data.meshes.new(name)
    bm.to_mesh(me)
    bm.free()
    for p in me.polygons:
        p.use_smooth = True
    me.materials.append(mat)
    ob = bpy.data.objects.new(name, me)
    coll.objects.link(ob)
    return ob, me


def ellipsoid(name: str, c: Vector, radii: tuple[float, float, float], yaw: float, mat: Any,
              coll: Any) -> None:
    bm = bmesh.new()
    bmesh.ops.create_uvsphere(bm, u_segments=32, v_segments=16, radius=1.0)
    ob, _ = _smooth_object(bm, name, mat, coll)
    ob.location = c
    ob.scale = radii
    ob.rotation_euler = Euler((0, 0, yaw))


def build_hand(spec: dict[str, Any], root: Any, coll: Any) -> None:
    """A forearm, palm, fingers and thumb, palm down over the board, coming in from one side;
    the sleeve covers the arm from mid-forearm. Built in mat coordinates then parented."""
    h = spec["hand"]
    s = spec["space_m"]
    edge_half = (4 + spec["mat"]["border"]) * s
    play = 8 * s
    inward = {"west": Vector((1, 0)), "east": Vector((-1, 0)),
              "south": Vector((0, 1)), "north": Vector((0, -1))}[h["from"]]
    d2 = inward.copy()
    d2.rotate(Euler((0, 0, math.radians(h["angle_deg"]))).to_matrix().to_2x2())
    n2 = Vector((-d2.y, d2.x))                  # to the left of the reach
    side2 = Vector((-inward.y, inward.x))
    edge = -inward * edge_half + side2 * (h["lateral"] * play)
    tip2 = edge + inward * (h["reach"] * play)
    z = h["height_m"]
    d, n = Vector((d2.x, d2.y, 0)), Vector((n2.x, n2.y, 0))
    up = Vector((0, 0, 1))
    tip = Vector((tip2.x, tip2.y, 0))
    thumb_side = 1.0 if h.get("hand", "right") == "right" else -1.0

    skin, _, sb = new_material("skin")
    sb.inputs["Base Color"].default_value = lin(h["skin"])
    sb.inputs["Roughness"].default_value = 0.5
    sb.inputs["Specular"].default_value = 0.35
    set_input(sb, "Sheen", 0.3)       # no subsurface: too noisy at these sample counts
    sleeve, _, slb = new_material("sleeve")
    slb.inputs["Base Color"].default_value = lin(h.get("sleeve", "#3d3d3d"))
    slb.inputs["Roughness"].default_value = 0.9
    set_input(slb, "Sheen", 0.5)

    finger_len = [0.072, 0.082, 0.078, 0.062]
    palm_len, palm_w = 0.095, 0.084
    palm_c = tip - d * (max(finger_len) + palm_len / 2) + up * (z + 0.016)
    first = len(coll.objects)
    ellipsoid("palm", palm_c, (palm_len / 2 + 0.006, palm_w / 2, 0.017),
              math.atan2(d.y, d.x), skin, coll)
    for i, fl in enumerate(finger_len):
        off = (1.5 - i) * 0.021 * thumb_side      # index finger nearest the thumb
        knuckle = palm_c + d * (palm_len / 2 - 0.004) + n * off + up * 0.004
        spread = n * off * 0.25
        mid = knuckle + d * (fl * 0.55) + spread * 0.6 - up * 0.004
        end = mid + d * (fl * 0.45) + spread * 0.4 - up * 0.012
        capsule(f"finger{i}a", knuckle, mid, 0.0095, 0.0088, skin, coll)
        capsule(f"finger{i}b", mid, end, 0.0088, 0.0078, skin, coll)
    tb = palm_c - d * 0.025 + n * (thumb_side * palm_w * 0.42) - up * 0.004
    tm = tb + d * 0.03 + n * (thumb_side * 0.022) - up * 0.006
    te = tm + d * 0.03 + n * (thumb_side * 0.008) - up * 0.004
    capsule("thumb_a", tb, tm, 0.0125, 0.011, skin, coll)
    capsule("thumb_b", tm, te, 0.011, 0.0095, skin, coll)
    wrist = palm_c - d * (palm_len / 2 + 0.012) + up * 0.004
    lift = math.radians(16)
    elbow = wrist - d * (0.27 * math.cos(lift)) + up * (0.27 * math.sin(lift))
    cuff = wrist + (elbow - wrist) * 0.55
    capsule("forearm", wrist, cuff, 0.027, 0.033, skin, coll, flat=0.8)
    capsule("sleeve", cuff - (elbow - wrist) * 0.03, elbow, 0.042, 0.047, sleeve, coll)
    shoulder = elbow - d * 0.16 + up * 0.3
    capsule("upper_arm", elbow, shoulder, 0.047, 0.055, sleeve, coll)
    for ob in list(coll.objects)[first:]:
        ob.parent = root


# ----------------------------------------------------------------------------- main
def main() -> int:
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    ap = argparse.ArgumentParser(prog="render_scene.py")
    ap.add_argument("scene_dir", type=Path)
    ap.add_argument("--samples", type=int, default=None, help="Cycles samples per pixel")
    ap.add_argument("--only", default="", help="comma-separated job names (default: all)")
    args = ap.parse_args(argv)
    folder = args.scene_dir.resolve()
    spec = json.loads((folder / "scene.json").read_text())
    render = json.loads((folder / "render.json").read_text())
    samples = args.samples or int(render.get("samples", 32))
    want = [w for w in args.only.split(",") if w]

    t_setup = time.perf_counter()
    sc = reset_scene()
    denoise = setup_render(sc, spec, render, samples)
    build_world(spec)
    build_lights(spec)
    build_camera(spec)
    build_table(spec)
    root = build_mat(spec, folder, render)
    pieces = bpy.data.collections.new("pieces")
    sc.collection.children.link(pieces)
    hand = bpy.data.collections.new("hand")
    sc.collection.children.link(hand)
    build_hand(spec, root, hand)
    meshes = {"pole": pole_mesh(spec), "port": port_mesh(spec)}
    mats = piece_materials(spec)
    print(f"[render_scene] {spec['name']}: set built in {time.perf_counter() - t_setup:.1f}s, "
          f"{samples} samples, denoiser {'on' if denoise else 'off'}",
          flush=True)

    log_path = folder / "render_log.json"
    log = json.loads(log_path.read_text()) if log_path.is_file() else {}
    for job in render["jobs"]:
        if want and job["name"] not in want:
            continue
        place_pieces(job, root, meshes, mats, pieces)
        hand.hide_render = not job["hand"]
        for ob in hand.objects:
            ob.hide_render = not job["hand"]
        sc.render.filepath = str(folder / job["out"])
        t0 = time.perf_counter()
        bpy.ops.render.render(write_still=True)
        dt = time.perf_counter() - t0
        log[job["name"]] = {"seconds": round(dt, 1), "samples": samples, "denoiser": denoise}
        log_path.write_text(json.dumps(log, indent=1) + "\n")
        print(f"[render_scene] {spec['name']}/{job['out']}: {dt:.1f}s", flush=True)
    return 0


if __name__ == "__main__":
    code = main()
    if code:
        sys.exit(code)
