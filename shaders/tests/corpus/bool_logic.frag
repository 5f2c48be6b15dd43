#version 330 core
// Boolean composition of shapes: bvec comparisons, all/any/not, ^^ and !.
in vec2 vUV;
out vec4 fragColor;

void main() {
    vec2 p = vUV * 2.0 - 1.0;
    bool inBox = all(lessThan(abs(p), vec2(0.55)));
    bool inRing = abs(length(p) - 0.6) < 0.12;
    bvec2 positive = greaterThan(p, vec2(0.0));
    bool quadrant = positive.x ^^ positive.y;
    bool lowerLeft = all(not(positive));
    vec3 col = vec3(0.1);
    if (inBox ^^ inRing) {
        col = quadrant ? vec3(0.9, 0.3, 0.2) : vec3(0.2, 0.5, 0.9);
    } else if (!inBox && !lowerLeft) {
        col = vec3(0.25, 0.25, 0.3);
    }
    if (inBox && inRing && any(equal(positive, bvec2(true, false)))) {
        col = vec3(1.0, 0.9, 0.4);
    }
    fragColor = vec4(col, 1.0);
}
