#version 330 core
in vec2 vUV;
out vec4 c;
uniform isampler2D uTex;
void main() {
    ivec4 t = texelFetch(uTex, ivec2(vUV * 4.0), 0);
    c = vec4(t) / 100.0;
}
