#version 330 core
// Expressions with effects, as compact shader code writes them: a counter advanced
// inside an index (k++), an assignment used as a value, the comma operator in a for
// step, and a && whose right side counts only when the left one holds.
in vec2 vUV;
out vec4 fragColor;

const vec3 STOPS[4] = vec3[4](vec3(0.9, 0.2, 0.2), vec3(0.9, 0.8, 0.2), vec3(0.2, 0.8, 0.4), vec3(0.2, 0.4, 0.9));

void main() {
    int k = int(vUV.x * 3.0);
    vec3 a = STOPS[k++];
    vec3 b = STOPS[k];
    float t;
    vec3 col = mix(a, b, t = fract(vUV.x * 3.0));
    int hits = 0;
    float acc = 0.0;
    int j = 4;
    for (int i = 0; i < j; i++, j--) {
        acc += (vUV.y > 0.3 * float(i) + 0.1 && ++hits > 0) ? 0.2 : 0.0;
    }
    col *= 0.5 + acc;
    col.b += float(hits) * 0.1 * t;
    fragColor = vec4(col, 1.0);
}
