#version 330 core
in vec2 vUV;
out vec4 c;
uniform samplerCube uTex;
void main() {
    // The plane through the corner (1, 1, 1) across the diagonal: +x, +y and +z meet.
    vec2 p = vUV * 2.0 - 1.0;
    c = texture(uTex, vec3(1.0) + vec3(p.x, p.y, -p.x - p.y) * 0.9);
}
