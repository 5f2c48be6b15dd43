#version 330 core
// Red and green from the perspective-correct colour, blue from the noperspective one,
// and the flat colour's green added where the uniform asks.
in vec4 vSmooth;
noperspective in vec4 vLinear;
flat in vec4 vFlat;
uniform float uFlat;
out vec4 fragColor;

void main() {
    vec3 c = vec3(vSmooth.rg, vLinear.b);
    fragColor = vec4(mix(c, vFlat.rgb, uFlat), 1.0);
}
