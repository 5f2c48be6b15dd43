#version 330 core
// Structs (issue 14): an array of light structs set by the scene under OpenGL's names
// (uLights[1].color), a material struct nested in a palette struct that also holds an
// array indexed at run time, a function that takes structs and returns one, a struct
// copied out of the uniform array with a run-time index, struct equality, a const
// array of structs (two fill lights) and a bvec2 uniform that switches them.
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
uniform bvec2 uFill;

const Light kFill[2] = Light[2](Light(vec2(0.05, 0.95), vec3(0.35, 0.2, 0.1), 0.45),
                                Light(vec2(0.95, 0.05), vec3(0.1, 0.2, 0.35), 0.45));

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
    for (int i = 0; i < 2; i++) {
        if (uFill[i]) {
            col += shade(kFill[i], pal.base, vUV).diffuse;
        }
    }
    // The light of this column; the middle column's equals uLights[1] and is tinted.
    Light probe = uLights[clamp(int(vUV.x * 3.0), 0, 2)];
    if (probe == uLights[1]) {
        col = col * 0.7 + 0.3 * probe.color;
    }
    fragColor = vec4(col, 1.0);
}
