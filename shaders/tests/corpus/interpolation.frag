#version 330 core
// Shows the three interpolations of one colour: uMode 0 the provoking vertex's colour
// (flat), 1 the screen-linear blend (noperspective), 2 the perspective-correct blend
// (smooth), 3 the difference between the last two, magnified.
flat in vec3 vFlat;
noperspective in vec3 vLinear;
smooth in vec3 vSmooth;
in vec2 vCorner;
uniform float uMode;
out vec4 fragColor;

void main() {
    vec3 c;
    if (uMode < 0.5) {
        c = vFlat;
    } else if (uMode < 1.5) {
        c = vLinear;
    } else if (uMode < 2.5) {
        c = vSmooth;
    } else {
        c = clamp(abs(vLinear - vSmooth) * 4.0, 0.0, 1.0);
    }
    // A faint stripe pattern from the smooth position keeps every pixel distinct.
    float stripe = step(0.5, fract(vCorner.x * 8.0)) * 0.1;
    fragColor = vec4(c + stripe, 1.0);
}
