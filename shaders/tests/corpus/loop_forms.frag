#version 330 core
// Loops whose trip count the compiler finds at compile time, in the forms people write
// them: a ray march as a while loop whose condition also tests a run-time distance
// (bounded by its step count), a do/while that runs at least once, and a for loop
// whose variable is also advanced in the body, with a break that depends on the pixel.
in vec2 vUV;
out vec4 fragColor;

float sdCircle(vec2 p, float r) {
    return length(p) - r;
}

void main() {
    vec2 p = vUV * 2.0 - 1.0;
    // March towards the circle: stop when close to it or after 5 steps.
    vec2 q = p + vec2(0.013, 0.007);
    int steps = 0;
    float d = sdCircle(q, 0.35);
    while (steps < 5 && d > 0.02) {
        q -= normalize(q) * d * 0.5;
        d = sdCircle(q, 0.35);
        steps++;
    }
    float glow = float(steps) / 5.0;
    // Halve until below a threshold, at least once.
    float h = abs(p.x) + abs(p.y) + 0.1;
    int halvings = 0;
    do {
        h *= 0.5;
        halvings++;
    } while (h > 0.05 && halvings < 6);
    // Every third step up to the band the pixel is in.
    float bands = 0.0;
    for (int i = 0; i < 12; i++) {
        if (fract(vUV.y * 3.0) * 12.0 < float(i)) {
            break;
        }
        bands += 0.25;
        i += 2;
    }
    fragColor = vec4(glow, float(halvings) / 6.0, bands, 1.0);
}
