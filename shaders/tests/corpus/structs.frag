#version 330 core
// Structs (issue 14): an array of light structs set by the scene under OpenGL's names
// (uLights[1].color), a material struct nested in a palette struct that also holds an
// array indexed at run time, a function that takes structs and returns one, a struct
// copied out of the uniform array with a run-time index, and struct equality.
in vec2 vUV;
out vec4 fragColor;

struct Light {
    vec2 pos;
    vec3 color;
    float radius;
};

struct Material {
    vec3 albedo;
    float gloss;
};

struct Shade {
    vec3 diffuse;
    float rim;
};

struct Palette {
    Material base;
    vec3 tints[3];
};

uniform Light uLights[3];
uniform Material uFloor;

Shade shade(Light l, Material m, vec2 p) {
    float fall = clamp(1.0 - length(p - l.pos) / l.radius, 0.0, 1.0);
    Shade s;
    s.diffuse = m.albedo * l.color * fall;
    s.rim = fall * fall * (1.0 + m.gloss);
    return s;
}

void main() {
    Palette pal = Palette(uFloor, vec3[3](vec3(1.0, 0.85, 0.7), vec3(0.8, 1.0, 0.85),
                                          vec3(0.75, 0.85, 1.0)));
    int band = clamp(int(vUV.y * 3.0), 0, 2);
    pal.base.albedo *= pal.tints[band];
    vec3 col = vec3(0.04);
    for (int i = 0; i < 3; i++) {
        Shade s = shade(uLights[i], pal.base, vUV);
        col += s.diffuse + vec3(0.1) * s.rim;
    }
    // The light of this column; the middle column's equals uLights[1] and is tinted.
    Light probe = uLights[clamp(int(vUV.x * 3.0), 0, 2)];
    if (probe == uLights[1]) {
        col = col * 0.7 + 0.3 * probe.color;
    }
    fragColor = vec4(col, 1.0);
}
