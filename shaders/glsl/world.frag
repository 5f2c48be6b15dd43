#version 330
// B §9 world.frag: light.frag modulated by a texture.
in vec3 vN;
in vec3 vP;
in vec2 vUV;
uniform vec3 lightPosition;
uniform vec3 lightColor;
uniform vec3 ambientColor;
uniform sampler2D diffuseTexture;
out vec4 fragColor;

void main() {
    vec3 N = normalize(vN);
    vec3 L = normalize(lightPosition - vP);
    float diffuse = max(dot(N, L), 0.0);
    vec3 result = ambientColor + diffuse * lightColor;
    fragColor = texture(diffuseTexture, vUV) * vec4(result, 1.0);
}
