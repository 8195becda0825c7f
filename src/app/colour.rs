//! Colour checks for the palettes: how a colour looks with deuteranopia (Machado, Oliveira and
//! Fernandes 2009, full severity, applied in linear RGB) and how far apart two colours look
//! (CIE76 ΔE in CIELAB, D65). The tests hold the colour-blind-safe palette to it, and the
//! `cvd` command turns a screenshot into its deuteranopia simulation.

/// The Machado 2009 deuteranopia matrix (severity 1.0), for linear RGB.
const DEUTERANOPIA: [[f32; 3]; 3] = [
    [0.367_322, 0.860_646, -0.227_968],
    [0.280_085, 0.672_501, 0.047_413],
    [-0.011_820, 0.042_940, 0.968_881],
];

fn to_linear(c: u8) -> f32 {
    let c = c as f32 / 255.0;
    if c <= 0.040_45 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn to_srgb(c: f32) -> u8 {
    let c = c.clamp(0.0, 1.0);
    let s = if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    };
    (s * 255.0).round() as u8
}

/// An sRGB colour as a person with deuteranopia sees it.
pub fn deuteranopia(rgb: [u8; 3]) -> [u8; 3] {
    let l = rgb.map(to_linear);
    let m = DEUTERANOPIA;
    let row = |r: [f32; 3]| r[0] * l[0] + r[1] * l[1] + r[2] * l[2];
    [to_srgb(row(m[0])), to_srgb(row(m[1])), to_srgb(row(m[2]))]
}

/// CIELAB (D65) of an sRGB colour.
pub fn lab(rgb: [u8; 3]) -> [f32; 3] {
    let [r, g, b] = rgb.map(to_linear);
    let x = (0.412_456_4 * r + 0.357_576_1 * g + 0.180_437_5 * b) / 0.950_47;
    let y = 0.212_672_9 * r + 0.715_152_2 * g + 0.072_175 * b;
    let z = (0.019_333_9 * r + 0.119_192 * g + 0.950_304_1 * b) / 1.088_83;
    let f = |t: f32| {
        if t > 0.008_856 {
            t.cbrt()
        } else {
            7.787 * t + 16.0 / 116.0
        }
    };
    let (fx, fy, fz) = (f(x), f(y), f(z));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// How far apart two colours look (CIE76 ΔE: about 2.3 is just noticeable; 20 and more reads
/// as clearly different at a glance).
pub fn delta_e(a: [u8; 3], b: [u8; 3]) -> f32 {
    let (a, b) = (lab(a), lab(b));
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// `delta_e` as a person with deuteranopia sees the two colours.
pub fn delta_e_deuteranopia(a: [u8; 3], b: [u8; 3]) -> f32 {
    delta_e(deuteranopia(a), deuteranopia(b))
}

/// Reads a PNG (8-bit RGB or RGBA), simulates deuteranopia, writes the result as RGBA PNG
/// (atomically). Errors name the file.
pub fn simulate_png(input: &std::path::Path, output: &std::path::Path) -> Result<(), String> {
    let name = |p: &std::path::Path| p.display().to_string();
    let file = std::fs::File::open(input).map_err(|e| format!("{}: {e}", name(input)))?;
    let mut dec = png::Decoder::new(std::io::BufReader::new(file));
    // Bounded like every file the game reads: a screenshot, not a poster.
    dec.set_limits(png::Limits {
        bytes: 256 * 1024 * 1024,
    });
    let mut reader = dec
        .read_info()
        .map_err(|e| format!("{}: not a PNG: {e}", name(input)))?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| format!("{}: too large", name(input)))?;
    let mut buf = vec![0; size];
    let info = reader
        .next_frame(&mut buf)
        .map_err(|e| format!("{}: {e}", name(input)))?;
    buf.truncate(info.buffer_size());
    if info.bit_depth != png::BitDepth::Eight {
        return Err(format!("{}: only 8-bit PNGs are read", name(input)));
    }
    let mut rgba = match info.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        other => return Err(format!("{}: {other:?} PNGs are not read", name(input))),
    };
    simulate_image(&mut rgba);
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut bytes, info.width, info.height);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc
            .write_header()
            .map_err(|e| format!("{}: {e}", name(output)))?;
        w.write_image_data(&rgba)
            .map_err(|e| format!("{}: {e}", name(output)))?;
    }
    crate::ground::files::write_atomic(output, &bytes)
        .map_err(|e| format!("{}: can't write: {e}", name(output)))
}

/// Simulates deuteranopia over RGBA8 pixels in place (alpha kept).
pub fn simulate_image(rgba: &mut [u8]) {
    for px in rgba.chunks_exact_mut(4) {
        let [r, g, b] = deuteranopia([px[0], px[1], px[2]]);
        px[0] = r;
        px[1] = g;
        px[2] = b;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greys_stay_grey_and_red_meets_green() {
        for v in [0u8, 60, 128, 200, 255] {
            let d = deuteranopia([v, v, v]);
            assert!(d.iter().all(|c| c.abs_diff(v) <= 2), "{v}: {d:?}");
        }
        // The classic confusion: a red and a green of similar lightness look alike.
        let (red, green) = ([200, 60, 40], [90, 140, 40]);
        assert!(delta_e(red, green) > 40.0);
        assert!(delta_e_deuteranopia(red, green) < 12.0);
        // Blue and orange stay apart.
        assert!(delta_e_deuteranopia([0, 114, 178], [230, 159, 0]) > 40.0);
    }
}
