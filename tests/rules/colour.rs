//! The colour-blind-safe palette (Settings → Colours) measured with a deuteranopia simulation
//! (`chaos_outpost::app::colour`): the camps' tokens, the reach highlights against the terrain they
//! are drawn on, and the corruption hatching against clean land must stay clearly apart (CIE76
//! ΔE ≥ 20) for a player with deuteranopia.

use chaos_outpost::app::colour::{delta_e, delta_e_deuteranopia};
use chaos_outpost::app::settings::Palette;
use chaos_outpost::content::Camp;
use chaos_outpost::view::{camp_rgb, reach_colour};

/// Clearly different at a glance.
const APART: f32 = 20.0;

/// The mean colour of a tile texture (its opaque pixels), or of `overlay` blended over it.
fn mean(tile: &str, overlay: Option<&str>) -> [u8; 3] {
    let read = |p: &str| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(p);
        let dec = png::Decoder::new(std::io::BufReader::new(
            std::fs::File::open(&path).expect("art file"),
        ));
        let mut r = dec.read_info().expect("png");
        let mut buf = vec![0; r.output_buffer_size().expect("size")];
        let info = r.next_frame(&mut buf).expect("frame");
        assert_eq!(info.color_type, png::ColorType::Rgba, "{p}");
        buf.truncate(info.buffer_size());
        buf
    };
    let base = read(&format!("assets/art/tiles/{tile}.png"));
    let over = overlay.map(|o| read(&format!("assets/art/overlays/{o}.png")));
    let (mut sum, mut n) = ([0f64; 3], 0f64);
    for (i, px) in base.chunks_exact(4).enumerate() {
        if px[3] < 250 {
            continue;
        }
        let mut c = [px[0] as f64, px[1] as f64, px[2] as f64];
        if let Some(o) = &over
            && let Some(q) = o.chunks_exact(4).nth(i)
        {
            let a = q[3] as f64 / 255.0;
            for k in 0..3 {
                c[k] = c[k] * (1.0 - a) + q[k] as f64 * a;
            }
        }
        for k in 0..3 {
            sum[k] += c[k];
        }
        n += 1.0;
    }
    sum.map(|s| (s / n).round() as u8)
}

#[test]
fn the_safe_palette_stays_apart_with_deuteranopia() {
    let safe = Palette::ColorBlindSafe;
    let (el, ch) = (camp_rgb(Camp::Eladrins, safe), camp_rgb(Camp::Chaos, safe));
    let camps = delta_e_deuteranopia(el, ch);
    let mut report = vec![format!("camps {camps:.1}")];
    let mut worst = camps;
    for tile in ["plains", "forest", "hills", "dunes", "marsh"] {
        let t = mean(tile, None);
        for near in [true, false] {
            let d = delta_e_deuteranopia(reach_colour(near, safe), t);
            report.push(format!("reach({near}) on {tile} {d:.1}"));
            worst = worst.min(d);
        }
        let c = delta_e_deuteranopia(mean(tile, Some("corrupted")), t);
        report.push(format!("corruption on {tile} {c:.1}"));
        worst = worst.min(c);
    }
    eprintln!("{}", report.join("; "));
    assert!(worst >= APART, "{}", report.join("\n"));
}

#[test]
fn the_standard_reach_greens_are_what_the_safe_palette_fixes() {
    // Why the option exists: with deuteranopia the standard palette's far-reach green sits
    // much closer to the grass than the safe palette's sky blue does.
    let plains = mean("plains", None);
    let standard = delta_e_deuteranopia(reach_colour(false, Palette::Standard), plains);
    let safe = delta_e_deuteranopia(reach_colour(false, Palette::ColorBlindSafe), plains);
    eprintln!("far reach on plains, deuteranopia: standard {standard:.1}, safe {safe:.1}");
    assert!(
        safe > standard + 10.0,
        "standard {standard:.1}, safe {safe:.1}"
    );
    // And both palettes keep the camps apart for full colour vision.
    for p in [Palette::Standard, Palette::ColorBlindSafe] {
        assert!(delta_e(camp_rgb(Camp::Eladrins, p), camp_rgb(Camp::Chaos, p)) > 40.0);
    }
}

/// The numbers on a line of the fast egui shader marked `// fit: NAME`, in order.
fn shader_fit(name: &str) -> Vec<f64> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/view/shaders/egui_fast.wgsl");
    let text = std::fs::read_to_string(&path).expect("the fast egui shader");
    let line = text
        .lines()
        .find(|l| l.ends_with(&format!("// fit: {name}")))
        .unwrap_or_else(|| panic!("no line marked `fit: {name}`"));
    let code = line.split("//").next().unwrap_or_default();
    code.split(|c: char| c.is_whitespace() || "()*+;=".contains(c))
        .filter(|t| t.contains('.'))
        .filter_map(|t| t.parse::<f64>().ok())
        .collect()
}

fn exact_linear(s: f64) -> f64 {
    if s < 0.04045 {
        s / 12.92
    } else {
        ((s + 0.055) / 1.055).powf(2.4)
    }
}

fn exact_gamma(l: f64) -> f64 {
    if l < 0.0031308 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    }
}

/// The fast egui shader's sRGB fits (`src/view/shaders/egui_fast.wgsl`, which replaces the six
/// `pow`s a fragment of bevy_egui's own) land every 8-bit level within a fifth of a level of
/// where the exact curves put it, both ways: the panels look as egui draws them.
#[test]
fn the_fast_egui_shader_keeps_every_colour_level() {
    let lin = shader_fit("linear");
    assert_eq!(lin.len(), 5, "a quartic: {lin:?}");
    let fast_linear = |s: f64| {
        if s < 0.04045 {
            s / 12.92
        } else {
            lin[0] + s * (lin[1] + s * (lin[2] + s * (lin[3] + s * lin[4])))
        }
    };
    let gam = shader_fit("gamma");
    assert_eq!(
        gam.len(),
        4,
        "square, fourth and eighth roots and the value: {gam:?}"
    );
    let fast_gamma = |l: f64| {
        let c = l.clamp(0.0, 1.0);
        if c < 0.0031308 {
            return c * 12.92;
        }
        let s1 = c.sqrt();
        let s2 = s1.sqrt();
        let s3 = s2.sqrt();
        (gam[0] * s1 + gam[1] * s2 + gam[2] * s3 + gam[3] * c).clamp(0.0, 1.0)
    };
    let mut worst: (f64, u32, &str) = (0.0, 0, "");
    for v in 0..=255u32 {
        let s = v as f64 / 255.0;
        // What reaches the screen: the shader's linear output, encoded by the sRGB target.
        let out = exact_gamma(fast_linear(s)) * 255.0;
        // A texel the sampler decoded, brought back to gamma by the shader.
        let back = fast_gamma(exact_linear(s)) * 255.0;
        for (e, what) in [
            ((out - v as f64).abs(), "linear"),
            ((back - v as f64).abs(), "gamma"),
        ] {
            if e > worst.0 {
                worst = (e, v, what);
            }
        }
    }
    assert!(
        worst.0 <= 0.2,
        "the {} fit misses level {} by {:.3}",
        worst.2,
        worst.1,
        worst.0
    );
    // The check has teeth: the cubic the shader first used was 4 levels off in the darks.
    let cubic = |s: f64| s * (s * (s * 0.305306011 + 0.682171111) + 0.012522878);
    let off = (exact_gamma(cubic(27.0 / 255.0)) * 255.0 - 27.0).abs();
    assert!(off > 2.0, "{off}");
}
