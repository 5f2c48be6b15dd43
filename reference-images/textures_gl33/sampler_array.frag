#version 330 core
in vec2 vUV;
out vec4 c;
uniform sampler2D tex[3];
uniform sampler3D vol[2];
const int LAST = 2;
vec4 half_of(sampler2D t, vec2 uv) { return 0.5 * texture(t, uv); }
void main() {
    c = half_of(tex[0], vUV) + half_of(tex[LAST], vUV.yx) * vec4(1.0, 1.0, 0.0, 1.0)
        + vec4(0.0, 0.0, texture(vol[1], vec3(vUV, 0.5)).b, 0.0);
}
