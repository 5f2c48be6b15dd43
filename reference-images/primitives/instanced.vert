#version 330 core
// Instanced quads: a per-vertex corner, a per-instance grid cell held as exact 32-bit
// integers (offset by 2^30, so a float path would round them), a colour that changes
// every third instance (divisor 3), and gl_VertexID / gl_InstanceID.
layout(location = 0) in vec2 aCorner;
layout(location = 1) in ivec2 aCell;
layout(location = 2) in vec4 aColor;
layout(location = 3) in uint aTag;
out vec4 vColor;

void main() {
    ivec2 cell = aCell - ivec2(1 << 30, -(1 << 30));
    float size = 0.10 + 0.006 * float(gl_InstanceID);
    vec2 centre = vec2(-0.75 + 0.5 * float(cell.x), 0.6 - 0.6 * float(cell.y));
    gl_Position = vec4(centre + size * aCorner, 0.0, 1.0);
    // gl_VertexID is the element value: 4..7 for the second quad of the index list
    float corner = float(gl_VertexID % 4) / 3.0;
    // aTag is 4000000000 + k: exact only as a 32-bit uint
    float tag = float(aTag - 4000000000u);
    vColor = vec4(aColor.rgb * (0.55 + 0.45 * corner), 1.0) + vec4(0.0, 0.0, 0.08 * tag, 0.0);
}
