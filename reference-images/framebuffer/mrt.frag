#version 330 core
// Four targets of four formats written by one draw: the colour (rgba8), the colour
// scaled past 1 and below 0 (rgba16f: unclamped, half-float rounded), its luminance
// (r32f) and the pixel's coordinates with the primitive (rgba32ui).
in vec4 vColor;
layout(location = 0) out vec4 color;
layout(location = 1) out vec4 hdr;
layout(location = 2) out float luma;
layout(location = 3) out uvec4 ids;

void main() {
    color = vColor;
    hdr = vColor * 4.0 - vec4(1.0, 1.0, 1.0, 0.0);
    luma = dot(vColor.rgb, vec3(0.2126, 0.7152, 0.0722)) * 100.0;
    ids = uvec4(uint(gl_FragCoord.x), uint(gl_FragCoord.y), uint(gl_PrimitiveID), 4000000000u);
}
