#version 330 core
// textureGrad on the floor of floor.vert with the gradients of uv worked out from the
// camera: a pixel at window (x, y) below the horizon sees the floor at distance
// d = f*h / (cy - y) and x = (x - cx) * d / f, so
//   ds/dx = k*d/f, dt/dx = 0, ds/dy = k*x*d/(f*h), dt/dy = k*d*d/(f*h)
// (f: focal length in pixels, h: eye height, (cx, cy): the window centre, k: uScale).
// They are taken at the centre of the pixel's aligned 2x2 block, so that all four
// pixels of a quad share them and a sampler that takes one level of detail per quad
// (llvmpipe) selects the same levels as one that takes it per pixel.
in vec2 vUV;
uniform sampler2D uTex;
uniform vec4 uCamera;   // f, h, cx, cy
uniform float uScale;
out vec4 fragColor;

void main() {
    vec2 p = floor(gl_FragCoord.xy * 0.5) * 2.0 + 1.0;
    float f = uCamera.x;
    float h = uCamera.y;
    float d = f * h / (uCamera.w - p.y);
    float x = (p.x - uCamera.z) * d / f;
    vec2 dx = vec2(uScale * d / f, 0.0);
    vec2 dy = vec2(uScale * x * d / (f * h), uScale * d * d / (f * h));
    fragColor = textureGrad(uTex, vUV, dx, dy);
}
