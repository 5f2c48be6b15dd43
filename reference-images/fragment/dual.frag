#version 330 core
// Dual-source blending (GL 3.3 §4.1.8): the colour at index 0 and a second source
// colour at index 1, which the blend's src1_* factors read.
in vec4 vColor;
layout(location = 0, index = 0) out vec4 fragColor;
layout(location = 0, index = 1) out vec4 fragFactor;

void main() {
    fragColor = vColor;
    fragFactor = vec4(vColor.gbr * 0.75 + 0.1, 1.0 - vColor.a * 0.8);
}
