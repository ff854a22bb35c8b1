// Materials as Gazebo shows them. A visual's <material> wins over a mesh's own materials (gz-sim's
// SceneManager sets it on every submesh); its diffuse colour (else ambient, else the named Gazebo
// material script's colours) is drawn; opacity is 1 - <transparency> (the colour's alpha is not used,
// as in gz-sim), times the mesh material's own opacity for a mesh without a <material>. Without any
// material a primitive is Gazebo's default grey. <pbr><metal> maps and values are drawn by pbrMaterial.
import * as THREE from 'three';

// Diffuse colours of the common scripts of Gazebo's gazebo.material (textured ones by a typical colour).
export const GAZEBO_SCRIPTS = {
  'Gazebo/Grey': [0.7, 0.7, 0.7], 'Gazebo/Gray': [0.7, 0.7, 0.7],
  'Gazebo/DarkGrey': [0.175, 0.175, 0.175], 'Gazebo/DarkGray': [0.175, 0.175, 0.175],
  'Gazebo/LightGrey': [0.8, 0.8, 0.8], 'Gazebo/White': [1, 1, 1], 'Gazebo/FlatBlack': [0.1, 0.1, 0.1],
  'Gazebo/Black': [0, 0, 0], 'Gazebo/Red': [1, 0, 0], 'Gazebo/RedBright': [0.87, 0.26, 0.07],
  'Gazebo/Green': [0, 1, 0], 'Gazebo/Blue': [0, 0, 1], 'Gazebo/SkyBlue': [0.13, 0.44, 0.7],
  'Gazebo/Yellow': [1, 1, 0], 'Gazebo/ZincYellow': [0.9725, 0.9529, 0.2078], 'Gazebo/DarkYellow': [0.7, 0.7, 0],
  'Gazebo/Purple': [1, 0, 1], 'Gazebo/Turquoise': [0, 1, 1], 'Gazebo/Orange': [1, 0.5088, 0.0468],
  'Gazebo/Indigo': [0.33, 0, 0.5], 'Gazebo/Gold': [0.8, 0.64869, 0.120759],
  'Gazebo/PioneerBody': [1, 0, 0], 'Gazebo/Pioneer2Body': [0.681193, 0.000923, 0.000923],
  'Gazebo/Wood': [0.55, 0.4, 0.25], 'Gazebo/WoodFloor': [0.6, 0.45, 0.3], 'Gazebo/WoodPallet': [0.6, 0.5, 0.35],
  'Gazebo/Bricks': [0.6, 0.3, 0.25], 'Gazebo/Grass': [0.3, 0.55, 0.2], 'Gazebo/Road': [0.25, 0.25, 0.25],
  'Gazebo/Residential': [0.35, 0.35, 0.35], 'Gazebo/CeilingTiled': [0.85, 0.85, 0.85], 'Gazebo/PaintedWall': [0.9, 0.9, 0.88],
  'Gazebo/Runway': [0.3, 0.3, 0.3], 'Gazebo/BuildingFrame': [0.8, 0.8, 0.8],
  'Gazebo/GreenTransparent': [0, 1, 0, 0.5], 'Gazebo/BlueTransparent': [0, 0, 1, 0.5], 'Gazebo/RedTransparent': [1, 0, 0, 0.5],
  'Gazebo/GreyTransparent': [0.5, 0.5, 0.5, 0.5], 'Gazebo/BlackTransparent': [0, 0, 0, 0.5],
  'Gazebo/YellowTransparent': [1, 1, 0, 0.5], 'Gazebo/OrangeTransparent': [1, 0.44, 0, 0.5],
  'Gazebo/DarkMagentaTransparent': [0.6, 0, 0.6, 0.5],
};

const DEFAULT_GREY = [0.7, 0.7, 0.7];

/** The colour and opacity Gazebo gives a visual, or null when it names no material (a mesh keeps its own). */
export function visualLook(v) {
  const opacity = 1 - Math.min(1, Math.max(0, v.transparency || 0));
  if (v.color) return { color: v.color.slice(0, 3), opacity, own: false };
  if (v.material && GAZEBO_SCRIPTS[v.material]) {
    const c = GAZEBO_SCRIPTS[v.material];
    return { color: c.slice(0, 3), opacity: opacity * (c.length > 3 ? c[3] : 1), own: false };
  }
  return { color: v.shape === 'mesh' ? null : DEFAULT_GREY, opacity, own: v.shape === 'mesh' };
}

const cache = new Map();

/** A shared material for a colour and opacity (visuals with the same look share one). */
export function standardMaterial(color, opacity, side = THREE.FrontSide) {
  const key = `${color.join(',')}|${opacity}|${side}`;
  let m = cache.get(key);
  if (!m) {
    m = new THREE.MeshStandardMaterial({
      color: new THREE.Color(color[0], color[1], color[2]),
      transparent: opacity < 1,
      opacity,
      depthWrite: opacity >= 1,
      roughness: 0.6,
      metalness: 0.05,
      side,
    });
    cache.set(key, m);
  }
  return m;
}

const textures = new Map(); // url -> Texture (loaded once, shared)

function texture(url, colour, onLoad) {
  let t = textures.get(url);
  if (!t) {
    // marked while in flight: the view takes a map that never arrived off its material (else drawn black)
    const settled = () => {
      t.userData.loading = false;
      if (onLoad) onLoad();
    };
    t = new THREE.TextureLoader().load(url, settled, undefined, () => {
      textures.delete(url);
      settled();
    });
    t.userData.loading = true;
    if (colour) t.colorSpace = THREE.SRGBColorSpace;
    t.wrapS = THREE.RepeatWrapping;
    t.wrapT = THREE.RepeatWrapping;
    textures.set(url, t);
  }
  return t;
}

/** The material of a visual with SDFormat's <pbr><metal> (as the frames answer gives it: maps as served URLs):
 * albedo, normal, roughness and metalness maps, roughness and metalness (gz-sim's defaults 0.5 and 0 when not
 * given); the colour is the visual's diffuse, white under an albedo map. `onLoad` runs when a map arrives. */
export function pbrMaterial(v, look, onLoad) {
  const p = v.pbr;
  const m = new THREE.MeshStandardMaterial({
    color: p.albedoMap || !look.color ? new THREE.Color(1, 1, 1) : new THREE.Color(look.color[0], look.color[1], look.color[2]),
    roughness: typeof p.roughness === 'number' ? p.roughness : 0.5,
    metalness: typeof p.metalness === 'number' ? p.metalness : 0,
    transparent: look.opacity < 1,
    opacity: look.opacity,
    depthWrite: look.opacity >= 1,
  });
  if (p.albedoMap) m.map = texture(p.albedoMap, true, onLoad);
  if (p.normalMap) m.normalMap = texture(p.normalMap, false, onLoad);
  if (p.roughnessMap) m.roughnessMap = texture(p.roughnessMap, false, onLoad);
  if (p.metalnessMap) m.metalnessMap = texture(p.metalnessMap, false, onLoad);
  return m;
}
