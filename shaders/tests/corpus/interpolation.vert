#version 330 core
// A tile seen in perspective: each corner has its own clip w, so perspective-correct
// and screen-linear interpolation differ. One colour per corner goes out three ways
// (GLSL 3.30 §4.3.9's interpolation qualifiers).
layout(location = 0) in vec2 aPos;   // the corner in NDC
layout(location = 1) in float aW;    // its clip w
layout(location = 2) in vec3 aColor;

flat out vec3 vFlat;
noperspective out vec3 vLinear;
smooth out vec3 vSmooth;
out vec2 vCorner;

void main() {
    vFlat = aColor;
    vLinear = aColor;
    vSmooth = aColor;
    vCorner = aPos;
    gl_Position = vec4(aPos * aW, 0.0, aW);
}
