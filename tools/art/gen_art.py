#!/usr/bin/env python3
"""Chaos Outpost art generator: hex tile textures, overlays, icons, logo, CREDITS.md.

Run it through tools/art/gen_art.sh, which installs everything below and calls:
    python3 tools/art/gen_art.py --out assets/art --icons-json <icons.json> [--sheet /tmp/art_sheet.png]

Dependencies (installed by gen_art.sh):
  * Python >= 3.9 with Pillow (13.0.0) and numpy (2.4.6)      -- pip, into a venv under /tmp
  * rsvg-convert (Debian package librsvg2-bin)                -- rasterises the icon SVGs
  * optipng (Debian package optipng), optional                -- lossless PNG squeeze
  * @iconify-json/game-icons (npm, 1.2.4), its icons.json     -- the icon SVG bodies

Everything is deterministic: every random draw comes from numpy generators seeded with
fixed numbers, so two runs give byte-identical PNGs (for the same library versions).

Geometry: tiles are pointy-top hexagons, 128 x 148 px (r = 74, width = 2 * 64 ~ sqrt(3) * r),
corners at (64,0) (128,37) (128,111) (64,148) (0,111) (0,37); transparent outside the hex.
Neighbouring centres are 128 px apart horizontally and 111 px apart vertically (rows offset
by 64 px). Overlays share the same size and shape.
"""
import argparse
import io
import json
import math
import os
import shutil
import subprocess
import sys

import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

sys.dont_write_bytecode = True  # keep tools/art free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from icons import AUTHORS, ICONS, LOGO_ICON  # noqa: E402

TILE_W, TILE_H = 128, 148
SS = 4  # supersampling factor: everything is drawn at 4x then downsampled
W, H = TILE_W * SS, TILE_H * SS
CX, CY = W / 2, H / 2
INR = W / 2  # inradius (centre to the vertical sides), in supersampled px

TERRAINS = ["plains", "forest", "hills", "mountains", "marsh", "lake", "sea",
            "crystal_fields", "ruins", "dunes"]

# ----------------------------------------------------------------------------- helpers


def hex_corners(inset=0.0):
    """Corners of the pointy-top hex, inset by `inset` supersampled px."""
    r = (INR - inset) / math.cos(math.pi / 6)
    return [(CX + r * math.cos(math.radians(a)), CY + r * math.sin(math.radians(a)))
            for a in (-90, -30, 30, 90, 150, 210)]


def _grid():
    ys, xs = np.mgrid[0:H, 0:W].astype(np.float32)
    return xs + 0.5 - CX, ys + 0.5 - CY


GX, GY = _grid()


def edge_distance():
    """Distance (supersampled px) from each pixel to the hex edge; negative outside."""
    # Pointy-top hex: edge normals at 0, 60, 120 degrees.
    d = np.full(GX.shape, -1e9, dtype=np.float32)
    for a in (0, 60, 120):
        nx, ny = math.cos(math.radians(a)), math.sin(math.radians(a))
        d = np.maximum(d, np.abs(GX * nx + GY * ny))
    return INR - d


EDGE = edge_distance()
HEX_MASK = (EDGE >= 0).astype(np.float32)


def value_noise(seed, cell, octaves=4, persistence=0.5):
    """Smooth fractal value noise in [0,1], shape (H, W). `cell` = size of the coarsest cell."""
    rng = np.random.default_rng(seed)
    total = np.zeros((H, W), dtype=np.float32)
    amp, norm = 1.0, 0.0
    c = float(cell)
    for _ in range(octaves):
        gw, gh = int(math.ceil(W / c)) + 3, int(math.ceil(H / c)) + 3
        g = rng.random((gh, gw)).astype(np.float32)
        im = Image.fromarray((g * 255).astype(np.uint8), "L")
        im = im.resize((int(gw * c), int(gh * c)), Image.BICUBIC)
        arr = np.asarray(im, dtype=np.float32)[int(c):int(c) + H, int(c):int(c) + W] / 255.0
        total += arr * amp
        norm += amp
        amp *= persistence
        c = max(c / 2.0, 2.0)
    total /= norm
    lo, hi = np.percentile(total, 1), np.percentile(total, 99)
    return np.clip((total - lo) / max(hi - lo, 1e-6), 0, 1)


def rgb(c):
    return np.array(c, dtype=np.float32).reshape(1, 1, 3)


def base_layer(color, seed, amp=0.08, cell=96, mottle=None):
    """A noisy flat colour field (float array H x W x 3, 0..255)."""
    n = value_noise(seed, cell) - 0.5
    arr = np.repeat(rgb(color), H, 0).repeat(W, 1)
    arr = arr * (1.0 + amp * 2 * n[..., None])
    if mottle is not None:
        c2, thresh, seed2 = mottle
        m = value_noise(seed2, cell * 1.6, octaves=3)
        t = np.clip((m - thresh) * 6, 0, 1)[..., None]
        arr = arr * (1 - t) + rgb(c2) * t * (1.0 + amp * 2 * n[..., None])
    return arr


def to_image(arr):
    a = np.clip(arr, 0, 255).astype(np.uint8)
    return Image.fromarray(a, "RGB").convert("RGBA")


def shade(c, f):
    return tuple(int(max(0, min(255, v * f))) for v in c[:3])


def mix(a, b, t):
    return tuple(int(a[i] * (1 - t) + b[i] * t) for i in range(3))


def inside(x, y, inset=0.0):
    xi, yi = int(x), int(y)
    if not (0 <= xi < W and 0 <= yi < H):
        return False
    return EDGE[yi, xi] >= inset


def scatter(rng, n, min_dist, inset, tries=4000, ok=None):
    """Up to n points inside the hex (inset from the edge), at least min_dist apart."""
    pts = []
    for _ in range(tries):
        if len(pts) >= n:
            break
        x, y = rng.uniform(0, W), rng.uniform(0, H)
        if not inside(x, y, inset) or (ok is not None and not ok(x, y)):
            continue
        if all((x - px) ** 2 + (y - py) ** 2 >= min_dist ** 2 for px, py in pts):
            pts.append((x, y))
    return pts


def finish_tile(img, bevel=True, grain_seed=1):
    """Paper grain, inner edge shading, hex mask, downsample to 128 x 148."""
    arr = np.asarray(img.convert("RGB"), dtype=np.float32)
    grain = value_noise(grain_seed + 7000, 6, octaves=2) - 0.5
    arr *= (1.0 + 0.06 * grain[..., None])
    if bevel:
        # Soft inner shadow along the rim, lighter on the upper-left edges (light from NW).
        e = EDGE / SS  # in final px
        rim = np.clip(1.0 - e / 7.0, 0, 1) ** 1.6
        ang = np.arctan2(GY, GX)
        light = -np.cos(ang - math.radians(-135))  # +1 facing NW... -1 facing SE
        f = 1.0 - rim * (0.20 + 0.10 * light)
        f = np.where(light > 0.35, 1.0 + rim * 0.05 * light, f)
        arr *= f[..., None]
        line = np.clip(1.0 - np.abs(e - 0.6) / 0.9, 0, 1)  # thin dark border
        arr *= (1.0 - 0.28 * line)[..., None]
    arr = np.clip(arr, 0, 255)
    alpha = np.clip(EDGE / 1.0 + 0.5, 0, 1) * 255  # antialiased at SS scale
    out = np.dstack([arr, alpha]).astype(np.uint8)
    im = Image.fromarray(out, "RGBA")
    return downsample(im)


def downsample(im):
    # Premultiply so transparent pixels don't bleed dark fringes.
    arr = np.asarray(im, dtype=np.float32)
    a = arr[..., 3:4] / 255.0
    pre = np.dstack([arr[..., :3] * a, arr[..., 3:4]])
    pim = Image.fromarray(np.clip(pre, 0, 255).astype(np.uint8), "RGBA")
    small = pim.resize((TILE_W, TILE_H), Image.LANCZOS)
    s = np.asarray(small, dtype=np.float32)
    sa = s[..., 3:4] / 255.0
    rgbv = np.where(sa > 0, s[..., :3] / np.maximum(sa, 1e-6), 0)
    res = np.dstack([np.clip(rgbv, 0, 255), s[..., 3:4]]).astype(np.uint8)
    return Image.fromarray(res, "RGBA")


def stroke(draw, pts, fill, width):
    draw.line(pts, fill=fill, width=int(width), joint="curve")
    r = width / 2
    for x, y in (pts[0], pts[-1]):
        draw.ellipse([x - r, y - r, x + r, y + r], fill=fill)


# ----------------------------------------------------------------------------- terrains


def t_plains():
    rng = np.random.default_rng(101)
    base = (160, 184, 98)
    img = to_image(base_layer(base, 11, amp=0.07, cell=120, mottle=((174, 194, 108), 0.55, 12)))
    d = ImageDraw.Draw(img)
    dark, mid, light = (118, 146, 70), (140, 166, 82), (206, 218, 146)
    for x, y in scatter(rng, 46, 46, 22):
        col = [dark, mid, light][rng.integers(0, 3)]
        for k in range(3):
            ang = math.radians(-90 + (k - 1) * 24 + rng.uniform(-8, 8))
            ln = rng.uniform(26, 40)
            x0 = x + (k - 1) * 7
            mx, my = x0 + math.cos(ang) * ln * 0.5, y + math.sin(ang) * ln * 0.5
            ex, ey = x0 + math.cos(ang) * ln + (k - 1) * 6, y + math.sin(ang) * ln
            stroke(d, [(x0, y), (mx, my), (ex, ey)], col, 6)
    for x, y in scatter(np.random.default_rng(102), 14, 60, 30):
        c = [(240, 228, 150), (236, 236, 220)][rng.integers(0, 2)]
        d.ellipse([x - 7, y - 7, x + 7, y + 7], fill=c)
    return finish_tile(img, grain_seed=1)


def t_forest():
    rng = np.random.default_rng(201)
    img = to_image(base_layer((52, 84, 52), 21, amp=0.10, cell=80))
    d = ImageDraw.Draw(img)
    pts = scatter(rng, 40, 58, 6)
    pts.sort(key=lambda p: p[1])
    shadow = (34, 58, 38)
    for i, (x, y) in enumerate(pts):
        if rng.random() < 0.28:  # conifer
            h, w = rng.uniform(90, 115), rng.uniform(56, 68)
            body, hi = (44, 96, 66), (70, 128, 86)
            d.polygon([(x + 8, y - h * 0.55 + 8), (x + w / 2 + 8, y + h * 0.45 + 8),
                       (x - w / 2 + 8, y + h * 0.45 + 8)], fill=shadow)
            for tier, (f0, f1) in enumerate(((-0.55, 0.10), (-0.25, 0.45))):
                tw = w * (0.75 + 0.25 * tier)
                d.polygon([(x, y + h * f0), (x + tw / 2, y + h * f1), (x - tw / 2, y + h * f1)],
                          fill=body, outline=(28, 52, 34), width=3)
                d.polygon([(x, y + h * f0), (x - tw / 2, y + h * f1), (x - tw * 0.05, y + h * f1)],
                          fill=hi)
            d.rectangle([x - 5, y + h * 0.45, x + 5, y + h * 0.45 + 12], fill=(70, 50, 34))
        else:  # round broadleaf canopy
            r = rng.uniform(36, 46)
            tone = rng.uniform(0.9, 1.12)
            body = shade((74, 124, 62), tone)
            hi = shade((112, 162, 82), tone)
            blobs = [(0, 0, r)] + [(rng.uniform(-0.6, 0.6) * r, rng.uniform(-0.5, 0.3) * r,
                                    r * rng.uniform(0.55, 0.75)) for _ in range(3)]
            for bx, by, br in blobs:
                d.ellipse([x + bx - br + 9, y + by - br + 11, x + bx + br + 9, y + by + br + 11],
                          fill=shadow)
            for bx, by, br in blobs:
                d.ellipse([x + bx - br - 3, y + by - br - 3, x + bx + br + 3, y + by + br + 3],
                          fill=(30, 56, 34))
            for bx, by, br in blobs:
                d.ellipse([x + bx - br, y + by - br, x + bx + br, y + by + br], fill=body)
            for bx, by, br in blobs[:2]:
                hr = br * 0.45
                d.ellipse([x + bx - br * 0.35 - hr, y + by - br * 0.35 - hr,
                           x + bx - br * 0.35 + hr, y + by - br * 0.35 + hr], fill=hi)
    return finish_tile(img, grain_seed=2)


def t_hills():
    rng = np.random.default_rng(301)
    img = to_image(base_layer((146, 142, 80), 31, amp=0.07, cell=110,
                              mottle=((136, 136, 76), 0.55, 32)))
    d = ImageDraw.Draw(img)
    light, body, dark, line = (192, 182, 110), (166, 156, 90), (122, 114, 64), (92, 84, 48)
    # rolling humps, drawn back to front; their feet fade into the ground
    humps = [(CX - 120, CY - 105, 270, 105), (CX + 115, CY - 60, 260, 110),
             (CX - 20, CY + 60, 320, 130), (CX - 170, CY + 190, 230, 95),
             (CX + 150, CY + 215, 230, 100)]
    ramp = np.zeros((H, W), dtype=np.float32)
    for hx, hy, hw, hh in humps:
        hw *= rng.uniform(0.94, 1.06)
        box = [hx - hw / 2, hy - hh, hx + hw / 2, hy + hh]
        m = Image.new("L", (W, H), 0)
        ImageDraw.Draw(m).chord(box, 180, 360, fill=255)
        fade = np.clip((hy - (GY + CY)) / 26.0, 0, 1)  # 1 above the foot, 0 at the foot
        ma = np.asarray(m, dtype=np.float32) / 255.0 * fade
        sh = Image.new("L", (W, H), 0)  # shadow side: the ellipse shifted right
        ImageDraw.Draw(sh).ellipse([box[0] + hw * 0.40, box[1] + hh * 0.15, box[2] + hw * 0.40,
                                    box[3]], fill=255)
        lt = Image.new("L", (W, H), 0)  # lit crown up-left
        ImageDraw.Draw(lt).ellipse([box[0] + hw * 0.10, box[1] + hh * 0.14,
                                    box[2] - hw * 0.40, box[3] - hh * 0.95], fill=255)
        sh = sh.filter(ImageFilter.GaussianBlur(6))
        lt = lt.filter(ImageFilter.GaussianBlur(6))
        mask = Image.fromarray((ma * 255).astype(np.uint8), "L")
        img.paste(body, (0, 0), mask)
        img.paste(dark, (0, 0), ImageChops.multiply(mask, sh))
        img.paste(light, (0, 0), ImageChops.multiply(mask, lt))
        d.arc(box, 198, 342, fill=line, width=6)
        # contour strokes on the shadow flank
        for k, f in enumerate((0.78, 0.56)):
            aw, ah = hw * f, hh * f
            d.arc([hx - aw / 2 + hw * 0.08, hy - ah, hx + aw / 2 + hw * 0.08, hy + ah],
                  285, 345, fill=line, width=4)
        d.arc([hx - hw * 0.30, hy - hh * 0.62, hx + hw * 0.10, hy + hh * 0.62], 215, 250,
              fill=(214, 204, 134), width=4)
    for x, y in scatter(np.random.default_rng(302), 18, 64, 30):
        for k in (-1, 0, 1):
            stroke(d, [(x + k * 7, y), (x + k * 11, y - 22)], (112, 118, 58), 5)
    return finish_tile(img, grain_seed=3)


def _peak(d, img, x, base_y, w, h, rng, snow=True):
    apex = (x + rng.uniform(-0.08, 0.08) * w, base_y - h)
    left, right = (x - w / 2, base_y), (x + w / 2, base_y)
    ridge_bottom = (x + w * 0.12, base_y)
    lit, dark, outline = (178, 176, 186), (98, 94, 108), (56, 54, 66)
    d.polygon([apex, left, right], fill=dark)
    d.polygon([apex, left, ridge_bottom], fill=lit)
    # a couple of rock striations
    for k in range(3):
        t = 0.35 + 0.2 * k
        px = apex[0] + (left[0] - apex[0]) * t
        py = apex[1] + (left[1] - apex[1]) * t
        d.line([(px, py), (px + w * 0.12, py + h * 0.1)], fill=(140, 138, 150), width=4)
    if snow:
        s = 0.32
        sl = (apex[0] + (left[0] - apex[0]) * s, apex[1] + (left[1] - apex[1]) * s)
        sr = (apex[0] + (right[0] - apex[0]) * s, apex[1] + (right[1] - apex[1]) * s)
        mid = (apex[0] + (ridge_bottom[0] - apex[0]) * (s * 1.25),
               apex[1] + (ridge_bottom[1] - apex[1]) * (s * 1.25))
        pts = [apex, sl, (sl[0] + (mid[0] - sl[0]) * 0.5, sl[1] - h * 0.03), mid,
               (mid[0] + (sr[0] - mid[0]) * 0.5, sr[1] - h * 0.06), sr]
        d.polygon(pts, fill=(244, 246, 252))
        d.polygon([apex, mid, (mid[0] + (sr[0] - mid[0]) * 0.5, sr[1] - h * 0.06), sr],
                  fill=(200, 206, 222))
    d.line([left, apex, right], fill=outline, width=6, joint="curve")
    d.line([apex, ridge_bottom], fill=(72, 70, 84), width=3)


def t_mountains():
    rng = np.random.default_rng(401)
    img = to_image(base_layer((120, 114, 116), 41, amp=0.09, cell=70))
    d = ImageDraw.Draw(img)
    for x, y in scatter(np.random.default_rng(402), 22, 40, 10):
        r = rng.uniform(6, 12)
        d.ellipse([x - r, y - r * 0.7, x + r, y + r * 0.7], fill=(96, 92, 96))
    _peak(d, img, CX + 120, CY + 10, 240, 250, rng)
    _peak(d, img, CX - 130, CY + 40, 220, 230, rng)
    _peak(d, img, CX - 10, CY + 150, 330, 360, rng)
    _peak(d, img, CX + 150, CY + 225, 170, 150, rng, snow=False)
    return finish_tile(img, grain_seed=4)


def t_marsh():
    rng = np.random.default_rng(501)
    img = to_image(base_layer((112, 120, 84), 51, amp=0.10, cell=90,
                              mottle=((96, 112, 90), 0.5, 52)))
    d = ImageDraw.Draw(img)
    water = (64, 116, 116)
    # pools: blobby unions of ellipses
    for x, y in scatter(rng, 7, 150, 30):
        m = Image.new("L", (W, H), 0)
        md = ImageDraw.Draw(m)
        for _ in range(4):
            ox, oy = rng.uniform(-40, 40), rng.uniform(-16, 16)
            rx, ry = rng.uniform(40, 70), rng.uniform(18, 30)
            md.ellipse([x + ox - rx, y + oy - ry, x + ox + rx, y + oy + ry], fill=255)
        rim = m.filter(ImageFilter.MaxFilter(9))
        img.paste((74, 82, 56), (0, 0), rim)
        img.paste(water, (0, 0), m)
        hl = Image.new("L", (W, H), 0)
        ImageDraw.Draw(hl).rectangle([0, 0, W, H], fill=255)
        inner = m.filter(ImageFilter.MinFilter(13))
        glint = ImageChops.subtract(m, inner.transform((W, H), Image.AFFINE, (1, 0, 6, 0, 1, 6)))
        img.paste((120, 170, 164), (0, 0), glint)
    # reeds
    for x, y in scatter(np.random.default_rng(503), 20, 52, 24):
        n = rng.integers(3, 6)
        for k in range(n):
            bx = x + (k - n / 2) * 8 + rng.uniform(-3, 3)
            h = rng.uniform(46, 76)
            lean = rng.uniform(-12, 12)
            top = (bx + lean, y - h)
            stroke(d, [(bx, y), (bx + lean * 0.4, y - h * 0.5), top], (56, 78, 40), 5)
            if rng.random() < 0.6:
                d.ellipse([top[0] - 5, top[1] - 4, top[0] + 5, top[1] + 18], fill=(112, 72, 42))
        d.line([(x - n * 5, y + 2), (x + n * 5, y + 2)], fill=(70, 84, 50), width=4)
    return finish_tile(img, grain_seed=5)


def t_lake():
    rng = np.random.default_rng(601)
    arr = base_layer((86, 146, 188), 61, amp=0.06, cell=140)
    # lighter shallows toward the rim, deeper centre
    rim = np.clip(1.0 - EDGE / (22 * SS), 0, 1)[..., None]
    arr = arr * (1 - 0.35 * rim) + rgb((150, 196, 210)) * 0.35 * rim
    img = to_image(arr)
    d = ImageDraw.Draw(img)
    for x, y in scatter(rng, 12, 110, 40):
        w = rng.uniform(60, 100)
        for k in range(2):
            ww = w * (1 - 0.3 * k)
            d.arc([x - ww / 2, y - 14 + k * 16, x + ww / 2, y + 14 + k * 16], 200, 340,
                  fill=(196, 226, 238) if k == 0 else (150, 196, 222), width=5)
    for x, y in scatter(np.random.default_rng(602), 5, 140, 50):
        d.line([(x - 14, y), (x + 14, y)], fill=(236, 246, 250), width=4)
    return finish_tile(img, grain_seed=6)


def t_sea():
    rng = np.random.default_rng(701)
    img = to_image(base_layer((40, 70, 120), 71, amp=0.10, cell=100,
                              mottle=((34, 60, 106), 0.55, 72)))
    d = ImageDraw.Draw(img)
    pts = scatter(rng, 26, 72, 10)
    pts.sort(key=lambda p: p[1])
    for x, y in pts:
        s = rng.uniform(0.8, 1.15)
        # a stylised breaking wave: two scalloped arcs with a white crest
        for j, dx in enumerate((-26 * s, 26 * s)):
            box = [x + dx - 28 * s, y - 22 * s, x + dx + 28 * s, y + 22 * s]
            d.arc(box, 190, 350, fill=(104, 150, 196), width=7)
        d.arc([x - 54 * s + 4, y - 22 * s - 6, x - 2 * s + 4, y + 22 * s - 6], 220, 320,
              fill=(220, 236, 246), width=5)
        d.arc([x + 0 * s + 4, y - 22 * s - 6, x + 52 * s + 4, y + 22 * s - 6], 220, 320,
              fill=(170, 206, 232), width=4)
    return finish_tile(img, grain_seed=7)


def _shard(d, x, y, length, width, ang, cols):
    """An elongated crystal prism pointing along `ang` (degrees, -90 = up)."""
    a = math.radians(ang)
    ux, uy = math.cos(a), math.sin(a)
    px, py = -uy, ux
    tip = (x + ux * length, y + uy * length)
    sh = length * 0.72
    l0 = (x + px * width / 2, y + py * width / 2)
    r0 = (x - px * width / 2, y - py * width / 2)
    l1 = (l0[0] + ux * sh, l0[1] + uy * sh)
    r1 = (r0[0] + ux * sh, r0[1] + uy * sh)
    c0 = (x + ux * 0, y + uy * 0)
    c1 = (x + ux * sh * 1.02, y + uy * sh * 1.02)
    light, mid, darkc, outline = cols
    d.polygon([l0, l1, tip, c1, c0], fill=light)
    d.polygon([c0, c1, tip, r1, r0], fill=darkc)
    d.line([c0, c1, tip], fill=mid, width=3)
    d.polygon([l0, l1, tip, r1, r0], outline=outline, width=4)


def t_crystal_fields():
    rng = np.random.default_rng(801)
    img = to_image(base_layer((118, 100, 140), 81, amp=0.08, cell=100,
                              mottle=((130, 108, 154), 0.55, 82)))
    d = ImageDraw.Draw(img)
    pts = scatter(rng, 9, 118, 40, ok=lambda x, y: inside(x, y - 150, 14))
    pts.sort(key=lambda p: p[1])
    palettes = [((236, 222, 255), (196, 170, 240), (140, 104, 200), (70, 50, 104)),
                ((214, 240, 255), (170, 200, 240), (118, 120, 200), (60, 54, 110)),
                ((248, 214, 250), (214, 164, 236), (156, 96, 190), (76, 44, 100))]
    for x, y in pts:
        cols = palettes[rng.integers(0, 3)]
        d.ellipse([x - 44, y - 10, x + 44, y + 16], fill=(96, 80, 116))
        n = rng.integers(3, 5)
        angs = sorted(rng.uniform(-125, -55, n), key=lambda a: abs(a + 90), reverse=True)
        for k, ang in enumerate(angs):
            ln = rng.uniform(70, 100) * (1.4 if k == len(angs) - 1 else 1.0)
            _shard(d, x + rng.uniform(-18, 18), y, ln, rng.uniform(24, 32), ang, cols)
    for x, y in scatter(np.random.default_rng(803), 10, 80, 24):
        r = rng.uniform(8, 14)
        d.polygon([(x, y - r), (x + r * 0.25, y - r * 0.25), (x + r, y), (x + r * 0.25, y + r * 0.25),
                   (x, y + r), (x - r * 0.25, y + r * 0.25), (x - r, y), (x - r * 0.25, y - r * 0.25)],
                  fill=(250, 244, 255))
    return finish_tile(img, grain_seed=8)


def _block(d, x, y, w, h, ang, rng, top=(200, 192, 176), side=(122, 114, 102),
           outline=(62, 56, 52)):
    a = math.radians(ang)
    ca, sa = math.cos(a), math.sin(a)

    def rot(px, py):
        return (x + px * ca - py * sa, y + px * sa + py * ca)
    depth = h * 0.35
    face = [rot(-w / 2, -h / 2), rot(w / 2, -h / 2), rot(w / 2, h / 2), rot(-w / 2, h / 2)]
    lower = [(px, py + depth) for px, py in face]
    d.polygon([face[3], face[2], lower[2], lower[3]], fill=side, outline=outline, width=3)
    d.polygon([face[1], face[2], lower[2], lower[1]], fill=shade(side, 0.85), outline=outline,
              width=3)
    d.polygon(face, fill=top, outline=outline, width=4)
    if rng.random() < 0.5:  # crack
        p0 = rot(rng.uniform(-w / 3, w / 3), -h / 2)
        p1 = rot(rng.uniform(-w / 4, w / 4), 0)
        d.line([p0, p1], fill=outline, width=3)


def t_ruins():
    rng = np.random.default_rng(901)
    img = to_image(base_layer((160, 148, 128), 91, amp=0.08, cell=90,
                              mottle=((146, 136, 120), 0.5, 92)))
    d = ImageDraw.Draw(img)
    # old paving: faint grid of flagstones
    for gy in range(int(CY - 160), int(CY + 200), 48):
        for gx in range(int(CX - 200), int(CX + 200), 64):
            ox = 32 if (gy // 48) % 2 else 0
            if rng.random() < 0.45 and EDGE[min(H - 1, gy + 24), min(W - 1, gx + ox + 32)] > 30:
                d.rectangle([gx + ox, gy, gx + ox + 60, gy + 44], outline=(134, 124, 110), width=3)
    # broken wall: a row of blocks with a jagged top
    wall_x, wall_y = CX - 150, CY - 70
    heights = [3, 2, 3, 1, 2, 0, 1]
    for i, hcount in enumerate(heights):
        for j in range(hcount):
            _block(d, wall_x + i * 50 + (j % 2) * 12, wall_y - j * 36, 48, 32, 0, rng)
    # broken column
    cx0, cy0 = CX + 130, CY - 10
    d.rectangle([cx0 - 24, cy0 - 150, cx0 + 24, cy0], fill=(190, 182, 166), outline=(78, 72, 66), width=4)
    for k in range(-12, 13, 12):
        d.line([(cx0 + k, cy0 - 140), (cx0 + k, cy0 - 8)], fill=(150, 142, 128), width=3)
    d.polygon([(cx0 - 24, cy0 - 150), (cx0 - 8, cy0 - 170), (cx0 + 4, cy0 - 152), (cx0 + 24, cy0 - 166),
               (cx0 + 24, cy0 - 150)], fill=(190, 182, 166), outline=(78, 72, 66), width=3)
    d.rectangle([cx0 - 34, cy0 - 6, cx0 + 34, cy0 + 14], fill=(170, 162, 146), outline=(78, 72, 66), width=4)
    # fallen drum of the column
    _block(d, CX + 60, CY + 140, 90, 40, 18, rng)
    # scattered blocks and rubble
    for x, y in scatter(np.random.default_rng(902), 9, 90, 50):
        if abs(x - cx0) < 60 and y < cy0 + 30 and y > cy0 - 180:
            continue
        if wall_x - 30 < x < wall_x + 330 and wall_y - 130 < y < wall_y + 40:
            continue
        _block(d, x, y, rng.uniform(48, 66), rng.uniform(30, 40), rng.uniform(-30, 30), rng)
    for x, y in scatter(np.random.default_rng(903), 30, 30, 20):
        r = rng.uniform(5, 10)
        d.polygon([(x - r, y), (x - r * 0.3, y - r * 0.8), (x + r, y - r * 0.2), (x + r * 0.4, y + r * 0.6)],
                  fill=(176, 168, 152), outline=(96, 90, 80))
    return finish_tile(img, grain_seed=9)


def t_dunes():
    arr = base_layer((232, 200, 128), 101, amp=0.05, cell=140)
    img = to_image(arr)
    d = ImageDraw.Draw(img)
    rng = np.random.default_rng(1001)
    shadow, crest, lit = (186, 142, 80), (150, 108, 58), (242, 214, 152)
    y0 = -40
    while y0 < H + 60:
        amp = rng.uniform(16, 30)
        k = 2 * math.pi / rng.uniform(300, 420)
        ph = rng.uniform(0, 2 * math.pi)
        xs = np.linspace(-10, W + 10, 120)
        ys = y0 + amp * np.sin(xs * k + ph) + 0.12 * (xs - CX)
        top = list(zip(xs, ys))
        band = rng.uniform(26, 38)
        low = [(x, y + band * (0.55 + 0.45 * math.sin(x * k + ph + 1.2))) for x, y in top]
        d.polygon(top + low[::-1], fill=shadow)
        up = [(x, y - 10) for x, y in top]
        d.line(up, fill=lit, width=6)
        d.line(top, fill=crest, width=5)
        y0 += rng.uniform(86, 110)
    for x, y in scatter(np.random.default_rng(1002), 40, 40, 16):
        d.line([(x - 8, y), (x + 8, y + 2)], fill=(204, 166, 102), width=3)
    return finish_tile(img, grain_seed=10)


TERRAIN_FUNCS = {
    "plains": t_plains, "forest": t_forest, "hills": t_hills, "mountains": t_mountains,
    "marsh": t_marsh, "lake": t_lake, "sea": t_sea, "crystal_fields": t_crystal_fields,
    "ruins": t_ruins, "dunes": t_dunes,
}

# ----------------------------------------------------------------------------- overlays


def rgba_from(color_arr, alpha_arr):
    a = np.clip(alpha_arr, 0, 1) * HEX_MASK_AA
    out = np.dstack([np.clip(color_arr, 0, 255), a[..., None] * 255 if a.ndim == 2 else a * 255])
    return Image.fromarray(out.astype(np.uint8), "RGBA")


HEX_MASK_AA = np.clip(EDGE + 0.5, 0, 1)


def branch_walk(rng, start, ang, length, step, spread, depth, out):
    x, y = start
    pts = [(x, y)]
    for i in range(int(length / step)):
        ang += rng.uniform(-spread, spread)
        x += math.cos(ang) * step
        y += math.sin(ang) * step
        pts.append((x, y))
        if depth > 0 and rng.random() < 0.10:
            branch_walk(rng, (x, y), ang + rng.choice([-1, 1]) * rng.uniform(0.5, 1.0),
                        length * rng.uniform(0.3, 0.55), step, spread, depth - 1, out)
    out.append((pts, depth))


def o_corrupted():
    rng = np.random.default_rng(1101)
    n = value_noise(1102, 110)
    # tint: dark purple, patchy
    color = np.repeat(rgb((44, 12, 58)), H, 0).repeat(W, 1)
    alpha = 0.30 + 0.22 * n
    # hatching: 45-degree dark stripes (texture cue for colour-blind players)
    period = 11 * SS
    u = (GX + GY) / math.sqrt(2)
    stripe = np.clip(1.5 - np.abs(((u % period) - period / 2)) / (1.1 * SS), 0, 1)
    hatch_a = stripe * 0.62
    color = color * (1 - stripe[..., None]) + rgb((20, 4, 28)) * stripe[..., None]
    alpha = alpha + hatch_a * (1 - alpha)
    img = rgba_from(color, alpha)
    # veins
    veins = []
    for k in range(5):
        ang = math.radians(k * 72 + rng.uniform(-20, 20) + 30)
        start = (CX + math.cos(ang) * INR * 1.05, CY + math.sin(ang) * INR * 1.15)
        inward = math.atan2(CY - start[1], CX - start[0]) + rng.uniform(-0.4, 0.4)
        branch_walk(rng, start, inward, rng.uniform(200, 300), 12, 0.38, 2, veins)
    glow = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    gd = ImageDraw.Draw(glow)
    for pts, depth in veins:
        gd.line(pts, fill=(170, 70, 220, 190), width=int(8 + 5 * depth), joint="curve")
    glow = glow.filter(ImageFilter.GaussianBlur(9))
    core = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    cd = ImageDraw.Draw(core)
    for pts, depth in veins:
        cd.line(pts, fill=(18, 2, 26, 255), width=int(5 + 4 * depth), joint="curve")
        cd.line(pts, fill=(150, 60, 190, 255), width=int(2 + 1.5 * depth), joint="curve")
    img = Image.alpha_composite(img, glow)
    img = Image.alpha_composite(img, core)
    return mask_and_downsample(img)


def mask_and_downsample(img):
    arr = np.asarray(img, dtype=np.float32).copy()
    arr[..., 3] *= HEX_MASK_AA
    return downsample(Image.fromarray(arr.astype(np.uint8), "RGBA"))


def o_rift():
    rng = np.random.default_rng(1201)
    # main jagged crack from upper-left to lower-right through the centre
    pts = []
    n = 11
    for i in range(n + 1):
        t = i / n
        x = CX - 150 + 300 * t + rng.uniform(-26, 26)
        y = CY - 230 + 460 * t + rng.uniform(-20, 20)
        pts.append((x, y))
    branches = []
    for i in (3, 6, 8):
        bx, by = pts[i]
        ang = math.atan2(pts[i + 1][1] - by, pts[i + 1][0] - bx) + rng.choice([-1, 1]) * rng.uniform(0.7, 1.2)
        bp = [(bx, by)]
        for _ in range(4):
            ang += rng.uniform(-0.4, 0.4)
            bx += math.cos(ang) * 30
            by += math.sin(ang) * 30
            bp.append((bx, by))
        branches.append(bp)
    layer = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    # scorch around the crack
    sc = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    ImageDraw.Draw(sc).line(pts, fill=(30, 6, 20, 150), width=90, joint="curve")
    layer = Image.alpha_composite(layer, sc.filter(ImageFilter.GaussianBlur(26)))
    for width, blur, col in ((70, 30, (214, 40, 170, 210)), (34, 12, (255, 120, 40, 230))):
        g = Image.new("RGBA", (W, H), (0, 0, 0, 0))
        gd = ImageDraw.Draw(g)
        gd.line(pts, fill=col, width=width, joint="curve")
        for bp in branches:
            gd.line(bp, fill=col, width=width // 2, joint="curve")
        layer = Image.alpha_composite(layer, g.filter(ImageFilter.GaussianBlur(blur)))
    c = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    cd = ImageDraw.Draw(c)
    cd.line(pts, fill=(40, 6, 30, 255), width=22, joint="curve")
    for bp in branches:
        cd.line(bp, fill=(40, 6, 30, 255), width=12, joint="curve")
    cd.line(pts, fill=(255, 170, 70, 255), width=12, joint="curve")
    for bp in branches:
        cd.line(bp, fill=(255, 150, 60, 255), width=6, joint="curve")
    cd.line(pts, fill=(255, 248, 220, 255), width=5, joint="curve")
    layer = Image.alpha_composite(layer, c)
    # floating sparks
    sd = ImageDraw.Draw(layer)
    for _ in range(18):
        i = rng.integers(0, n)
        x = pts[i][0] + rng.uniform(-50, 50)
        y = pts[i][1] + rng.uniform(-40, 40)
        r = rng.uniform(3, 7)
        sd.ellipse([x - r, y - r, x + r, y + r], fill=(255, 200, 120, 230))
    return mask_and_downsample(layer)


def o_fog(seed, alpha_lo, alpha_hi):
    n = value_noise(seed, 90, octaves=5)
    n2 = value_noise(seed + 1, 40, octaves=3)
    c0, c1 = rgb((112, 120, 138)), rgb((214, 218, 226))
    t = np.clip(0.55 * n + 0.45 * n2, 0, 1)[..., None]
    color = c0 * (1 - t) + c1 * t
    alpha = alpha_lo + (alpha_hi - alpha_lo) * t[..., 0]
    img = rgba_from(color, alpha)
    return downsample(img)


def o_hex_outline():
    e = EDGE / SS
    a = np.clip(1.0 - np.abs(e - 2.5) / 2.0, 0, 1)
    color = np.full((H, W, 3), 255, dtype=np.float32)
    return downsample(rgba_from(color, a))


def o_hex_fill():
    color = np.full((H, W, 3), 255, dtype=np.float32)
    return downsample(rgba_from(color, np.ones((H, W), dtype=np.float32)))


# ----------------------------------------------------------------------------- icons


def icon_svg(body, size, color="#ffffff"):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="{size}" '
            f'height="{size}">{body.replace("currentColor", color)}</svg>')


def rasterise(svg):
    res = subprocess.run(["rsvg-convert", "--format=png"], input=svg.encode(), capture_output=True,
                         check=True)
    return Image.open(io.BytesIO(res.stdout)).convert("RGBA")


def make_icon(body, size=64):
    im = rasterise(icon_svg(body, size * 4)).resize((size, size), Image.LANCZOS)
    # force pure white RGB so any tint multiplies cleanly; keep coverage in alpha
    a = np.asarray(im)[..., 3]
    out = np.dstack([np.full(a.shape + (3,), 255, np.uint8), a])
    return Image.fromarray(out, "RGBA")


# ----------------------------------------------------------------------------- logo


def make_logo(icons_data):
    S = 256 * 4
    cx, cy = S / 2, S / 2
    ys, xs = np.mgrid[0:S, 0:S].astype(np.float32)
    gx, gy = xs + 0.5 - cx, ys + 0.5 - cy
    inr = S * 0.44

    def hexdist(inr_):
        d = np.full(gx.shape, -1e9, dtype=np.float32)
        for a in (0, 60, 120):
            nx, ny = math.cos(math.radians(a)), math.sin(math.radians(a))
            d = np.maximum(d, np.abs(gx * nx + gy * ny))
        return inr_ - d
    e = hexdist(inr)
    # diagonal split: Eladrin (blue/cyan) upper-left, Chaos (orange/magenta) lower-right
    u = (gx * 0.8 + gy * 0.6) / (S * 0.5)
    t = np.clip((u + 0.05) * 6, 0, 1)[..., None]
    vgrad = np.clip((gy / S) + 0.5, 0, 1)[..., None]
    eladrin = rgb((40, 120, 190)) * (1 - vgrad) + rgb((30, 190, 200)) * vgrad
    chaos = rgb((236, 120, 40)) * (1 - vgrad) + rgb((196, 40, 140)) * vgrad
    col = eladrin * (1 - t) + chaos * t
    n = value_noise(1301, 60)  # reuse tile-size noise, tiled/cropped
    n = np.asarray(Image.fromarray((n * 255).astype(np.uint8)).resize((S, S)), dtype=np.float32) / 255
    col *= (0.9 + 0.2 * n[..., None])
    # border ring
    ring = np.clip(1.0 - np.abs(e - 22) / 22, 0, 1)[..., None]
    col = col * (1 - ring) + rgb((28, 24, 40)) * ring
    inner_ring = np.clip(1.0 - np.abs(e - 50) / 5, 0, 1)[..., None]
    col = col * (1 - 0.6 * inner_ring) + rgb((250, 236, 200)) * 0.6 * inner_ring
    alpha = np.clip(e + 0.5, 0, 1)
    img = Image.fromarray(np.dstack([np.clip(col, 0, 255), alpha * 255]).astype(np.uint8), "RGBA")
    # glowing rift along the split
    rng = np.random.default_rng(1302)
    pts = []
    for i in range(10):
        k = i / 9
        # the split line: 0.8x + 0.6y = -0.05*S/2  -> walk along direction (0.6,-0.8)
        px = cx - 0.025 * S * 0.8 + (k - 0.5) * S * 0.8 * 0.6
        py = cy - 0.025 * S * 0.6 - (k - 0.5) * S * 0.8 * 0.8
        pts.append((px + rng.uniform(-18, 18), py + rng.uniform(-18, 18)))
    g = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    ImageDraw.Draw(g).line(pts, fill=(255, 200, 240, 255), width=110, joint="curve")
    g = g.filter(ImageFilter.GaussianBlur(34))
    c = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    cd = ImageDraw.Draw(c)
    cd.line(pts, fill=(30, 6, 30, 255), width=40, joint="curve")
    cd.line(pts, fill=(255, 170, 80, 255), width=24, joint="curve")
    cd.line(pts, fill=(255, 246, 220, 255), width=10, joint="curve")
    m = Image.fromarray((np.clip(e - 60, 0, 1) * 255).astype(np.uint8), "L")
    for layer in (g, c):
        la = np.asarray(layer).copy()
        la[..., 3] = (la[..., 3].astype(np.float32) * (np.asarray(m) / 255.0)).astype(np.uint8)
        img = Image.alpha_composite(img, Image.fromarray(la, "RGBA"))
    # tower silhouette with a dark outline
    name, _ = LOGO_ICON
    body = icons_data[name]["body"]
    size = int(S * 0.52)
    tower = rasterise(icon_svg(body, size))
    ta = tower.split()[3]
    outline = ta.filter(ImageFilter.MaxFilter(25))
    ox, oy = int(cx - size / 2), int(cy - size / 2 + S * 0.02)
    img.paste((24, 20, 36, 255), (ox, oy), outline)
    img.paste((252, 248, 236, 255), (ox, oy), ta)
    return img.resize((256, 256), Image.LANCZOS)


# ----------------------------------------------------------------------------- credits


def write_credits(path, n_tiles):
    used = {}
    for gid, name, author, _ in ICONS:
        used.setdefault(author, []).append((gid, name))
    lines = [
        "# Art credits",
        "",
        "All files under `assets/art/` are produced by `tools/art/gen_art.sh` "
        "(which runs `tools/art/gen_art.py`); re-run it to regenerate them.",
        "",
        "## Tiles, overlays, logo background",
        "",
        f"The {n_tiles} hex terrain textures (`tiles/`), the overlays (`overlays/`) and the logo's "
        "badge are procedurally generated by `tools/art/gen_art.py` (Pillow + numpy, fixed seeds). "
        "They are original to this project and carry the project's own licence.",
        "",
        "## Icons",
        "",
        "The icons in `icons/` (and the tower silhouette in `logo.png`) are from "
        "[game-icons.net](https://game-icons.net), licensed under "
        "[Creative Commons Attribution 3.0 (CC BY 3.0)](https://creativecommons.org/licenses/by/3.0/). "
        "They were taken from the npm package `@iconify-json/game-icons` and rasterised to 64x64 "
        "white-on-transparent PNGs (recoloured white, otherwise unmodified).",
        "",
        "Icons made by "
        + ", ".join(f"[{AUTHORS[a][0]}]({AUTHORS[a][1]})" for a in sorted(used, key=lambda k: -len(used[k])))
        + " — from [game-icons.net](https://game-icons.net), CC BY 3.0.",
        "",
        "| file | game-icons.net icon | author |",
        "|---|---|---|",
    ]
    for gid, name, author, _ in ICONS:
        lines.append(f"| `icons/{gid}.png` | [{name}](https://game-icons.net/1x1/{author}/{name}.html) "
                     f"| {AUTHORS[author][0]} |")
    lname, lauthor = LOGO_ICON
    lines.append(f"| `logo.png` (silhouette) | [{lname}](https://game-icons.net/1x1/{lauthor}/{lname}.html) "
                 f"| {AUTHORS[lauthor][0]} |")
    lines.append("")
    with open(path, "w") as f:
        f.write("\n".join(lines))


# ----------------------------------------------------------------------------- contact sheet


def contact_sheet(out_dir, path):
    font = None
    for fp in ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",):
        if os.path.exists(fp):
            font = ImageFont.truetype(fp, 11)
    font = font or ImageFont.load_default()
    tiles = {t: Image.open(os.path.join(out_dir, "tiles", f"{t}.png")) for t in TERRAINS}
    ov = {o: Image.open(os.path.join(out_dir, "overlays", f"{o}.png"))
          for o in ("corrupted", "rift", "fog", "fog_light", "hex_outline")}
    icon_ids = [i[0] for i in ICONS]
    sheet_w = 1400
    sheet = Image.new("RGBA", (sheet_w, 1700), (46, 44, 52, 255))
    d = ImageDraw.Draw(sheet)
    # row 1: full-size tiles
    x = 10
    for t in TERRAINS:
        sheet.alpha_composite(tiles[t], (x, 10))
        d.text((x, 162), t, fill=(230, 230, 230), font=font)
        x += 136
    # row 2: overlays on plains / forest, and at ~50px
    x, y = 10, 185
    for o in ("corrupted", "rift", "fog", "fog_light", "hex_outline"):
        for base in ("plains", "forest"):
            b = tiles[base].copy()
            b.alpha_composite(ov[o])
            sheet.alpha_composite(b, (x, y))
            d.text((x, y + 152), f"{o}/{base}", fill=(230, 230, 230), font=font)
            x += 136
    # row 3: a small board at ~50 px tiles (screen size check)
    y0 = 360
    d.text((10, y0), "board at 50 px per tile", fill=(230, 230, 230), font=font)
    tw = 50
    th = int(round(tw * TILE_H / TILE_W))
    small = {t: tiles[t].resize((tw, th), Image.LANCZOS) for t in TERRAINS}
    small_ov = {o: ov[o].resize((tw, th), Image.LANCZOS) for o in ov}
    rng = np.random.default_rng(5)
    rows, cols = 9, 16
    for r in range(rows):
        for c in range(cols):
            if r < 2:
                t = TERRAINS[(c + r * 16) % 10] if (c < 10 and r == 0) else TERRAINS[rng.integers(0, 10)]
            else:
                t = TERRAINS[rng.choice(10, p=[.22, .18, .12, .08, .08, .06, .06, .07, .06, .07])]
            px = 10 + c * tw + (tw // 2 if r % 2 else 0)
            py = y0 + 16 + r * int(th * 0.75)
            im = small[t].copy()
            if 2 <= r and c >= 11 and (r + c) % 3:
                im.alpha_composite(small_ov["corrupted"])
            if (r, c) in ((5, 13), (7, 12)):
                im.alpha_composite(small_ov["rift"])
            if c <= 1 and r >= 3:
                im.alpha_composite(small_ov["fog"])
            elif c == 2 and r >= 3:
                im.alpha_composite(small_ov["fog_light"])
            sheet.alpha_composite(im, (px, py))
    # to the right of the board: tiles at 50 px with labels, and the logo
    x = 870
    for i, t in enumerate(TERRAINS):
        sheet.alpha_composite(small[t], (x + (i % 5) * 90, y0 + 16 + (i // 5) * 80))
        d.text((x + (i % 5) * 90, y0 + 16 + (i // 5) * 80 + th + 2), t[:12], fill=(230, 230, 230), font=font)
    logo = Image.open(os.path.join(out_dir, "logo.png"))
    sheet.alpha_composite(logo, (x + 60, y0 + 190))
    sheet.alpha_composite(logo.resize((64, 64), Image.LANCZOS), (x + 340, y0 + 190))
    sheet.alpha_composite(logo.resize((32, 32), Image.LANCZOS), (x + 420, y0 + 190))
    # icons grid: white on grey, plus camp tints
    y = 900
    cols_n = 12
    cell_w = (sheet_w - 20) // cols_n
    tints = [(255, 255, 255), (90, 200, 230), (245, 140, 50), (230, 80, 190)]
    for i, gid in enumerate(icon_ids):
        ic = Image.open(os.path.join(out_dir, "icons", f"{gid}.png"))
        cx0 = 10 + (i % cols_n) * cell_w
        cy0 = y + (i // cols_n) * 100
        tint = tints[(i // cols_n) % len(tints)] if gid.startswith("unit_") else tints[0]
        if gid.startswith("unit_"):
            chaos = gid in ("unit_husk", "unit_imp", "unit_chaos_hound", "unit_abomination",
                            "unit_rift_spawn", "unit_corrupted_warden")
            tint = (240, 120, 60) if chaos else (90, 200, 230)
        arr = np.asarray(ic).astype(np.float32)
        arr[..., :3] *= np.array(tint, dtype=np.float32) / 255.0
        ic = Image.fromarray(arr.astype(np.uint8), "RGBA")
        sheet.alpha_composite(ic, (cx0 + (cell_w - 64) // 2, cy0))
        sheet.alpha_composite(ic.resize((24, 24), Image.LANCZOS), (cx0 + 2, cy0 + 40))
        d.text((cx0 + 2, cy0 + 68), gid[:20], fill=(230, 230, 230), font=font)
    sheet.convert("RGB").save(path)


# ----------------------------------------------------------------------------- main


def save_png(img, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    img.save(path, optimize=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="output folder (assets/art)")
    ap.add_argument("--icons-json", required=True, help="path to @iconify-json/game-icons/icons.json")
    ap.add_argument("--sheet", help="also write a contact sheet PNG here")
    args = ap.parse_args()
    out = args.out
    for sub in ("tiles", "overlays", "icons"):
        p = os.path.join(out, sub)
        if os.path.isdir(p):
            shutil.rmtree(p)  # idempotent: no stale files survive a rename
        os.makedirs(p)

    for t in TERRAINS:
        save_png(TERRAIN_FUNCS[t](), os.path.join(out, "tiles", f"{t}.png"))
        print("tile", t)
    save_png(o_corrupted(), os.path.join(out, "overlays", "corrupted.png"))
    save_png(o_rift(), os.path.join(out, "overlays", "rift.png"))
    save_png(o_fog(1401, 0.90, 1.0), os.path.join(out, "overlays", "fog.png"))
    save_png(o_fog(1501, 0.35, 0.60), os.path.join(out, "overlays", "fog_light.png"))
    save_png(o_hex_outline(), os.path.join(out, "overlays", "hex_outline.png"))
    save_png(o_hex_fill(), os.path.join(out, "overlays", "hex_fill.png"))
    print("overlays done")

    with open(args.icons_json) as f:
        icons_data = json.load(f)["icons"]
    missing = [n for _, n, _, _ in ICONS if n not in icons_data]
    if missing:
        sys.exit(f"icons missing from icons.json: {missing}")
    for gid, name, _, _ in ICONS:
        save_png(make_icon(icons_data[name]["body"]), os.path.join(out, "icons", f"{gid}.png"))
    print(f"{len(ICONS)} icons done")

    save_png(make_logo(icons_data), os.path.join(out, "logo.png"))
    write_credits(os.path.join(out, "CREDITS.md"), len(TERRAINS))
    print("logo and CREDITS.md done")
    if args.sheet:
        contact_sheet(out, args.sheet)
        print("contact sheet:", args.sheet)


if __name__ == "__main__":
    main()
