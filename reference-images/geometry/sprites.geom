#version 150
// Point sprites: each input point becomes a quad (a four-vertex triangle strip) of
// half-size `size` times its own size attribute, with a colour per corner and a flat
// corner number, so the strip's two triangles and their provoking vertices show.
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
in vec4 vColor[];
in float vSize[];
out vec4 gColor;
flat out float corner;
uniform float size;

void main() {
    vec4 p = gl_in[0].gl_Position;
    float h = size * vSize[0];
    vec2 corners[4] = vec2[4](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0), vec2(1.0, 1.0));
    for (int i = 0; i < 4; i++) {
        gl_Position = p + vec4(corners[i] * h, 0.0, 0.0);
        gColor = vColor[0] * (0.4 + 0.2 * float(i));
        corner = float(i);
        EmitVertex();
    }
}
