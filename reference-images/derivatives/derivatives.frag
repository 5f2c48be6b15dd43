#version 330 core
// The derivatives themselves: red and green are dFdx and dFdy of a nonlinear function
// of the uv (vColor.xy, 0..1; color3d.vert passes it through), blue the window-space
// derivatives of gl_FragCoord (1 each, so 0.5 here). Fine derivatives differ between
// the two rows (dFdx) and the two columns (dFdy) of a 2x2 quad.
in vec4 vColor;
out vec4 fragColor;

void main() {
    vec2 p = vColor.xy * 6.0;
    float f = sin(p.x * p.y) + p.x * p.x * 0.25;
    vec2 g = vec2(dFdx(f), dFdy(f)) * 4.0;
    float unit = dFdx(gl_FragCoord.x) * dFdy(gl_FragCoord.y);
    fragColor = vec4(0.5 + g, 0.5 * unit, 1.0);
}
