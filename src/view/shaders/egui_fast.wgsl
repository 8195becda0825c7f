// egui's shader (bevy_egui 0.42, render/egui.wgsl) with its two sRGB conversions, six `pow`s a
// fragment, replaced by close polynomial and square-root fits. A software renderer (Mesa's
// llvmpipe) spends much of each frame in those `pow`s over the panels; the fits cost a few
// multiplies and three square roots and stay within a fifth of a level of 8-bit colour
// (tests/rules/colour.rs checks the lines marked `fit:` against the exact curves).

struct Transform {
    scale: vec2<f32>,
    translation: vec2<f32>,
}

struct VertexInput {
    @location(0) position: vec2<f32>,
    @location(1) uv: vec2<f32>,
    @location(2) color: vec4<f32>,
}

struct VertexOutput {
    @builtin(position) position: vec4<f32>,
    @location(0) color: vec4<f32>,
    @location(1) uv: vec2<f32>,
}

@group(0) @binding(0) var<uniform> transform: Transform;

#ifdef BINDLESS
@group(1) @binding(0) var image_texture: binding_array<texture_2d<f32>>;
@group(1) @binding(1) var image_sampler: binding_array<sampler>;

struct BindlessOffset {
    offset: u32,
};
var<immediate> offset: BindlessOffset;

#else //BINDLESS
@group(1) @binding(0) var image_texture: texture_2d<f32>;
@group(1) @binding(1) var image_sampler: sampler;
#endif // BINDLESS

// 0-1 linear from 0-1 sRGB gamma: the straight segment, then a quartic fit.
fn linear_from_gamma_rgb(s: vec3<f32>) -> vec3<f32> {
    let fit = 0.001062483 + s * (0.028338721 + s * (0.558856854 + s * (0.532627053 + s * -0.121943998))); // fit: linear
    return select(fit, s / 12.92, s < vec3<f32>(0.04045));
}

// 0-1 sRGB gamma from 0-1 linear: the straight segment, then a fit on the square, fourth and
// eighth roots.
fn gamma_from_linear_rgb(l: vec3<f32>) -> vec3<f32> {
    let c = clamp(l, vec3<f32>(0.0), vec3<f32>(1.0));
    let s1 = sqrt(c);
    let s2 = sqrt(s1);
    let s3 = sqrt(s2);
    let fit = 0.64594395 * s1 + 0.708157218 * s2 + -0.335250637 * s3 + -0.018892375 * c; // fit: gamma
    return select(clamp(fit, vec3<f32>(0.0), vec3<f32>(1.0)), c * 12.92, c < vec3<f32>(0.0031308));
}

@vertex
fn vs_main(in: VertexInput) -> VertexOutput {
    let position = in.position * transform.scale + transform.translation;
    return VertexOutput(vec4<f32>(position, 0.0, 1.0), in.color, in.uv);
}

@fragment
fn fs_main(in: VertexOutput) -> @location(0) vec4<f32> {
    #ifdef BINDLESS
    let image_texture = image_texture[offset.offset];
    let image_sampler = image_sampler[offset.offset];
    #endif

    // As egui does: colours are multiplied in gamma space, the only way text looks right.
    let texture_color_linear = textureSample(image_texture, image_sampler, in.uv);
    let color_gamma = vec4<f32>(gamma_from_linear_rgb(texture_color_linear.rgb), texture_color_linear.a) * in.color;

    return vec4<f32>(linear_from_gamma_rgb(color_gamma.rgb), color_gamma.a);
}
