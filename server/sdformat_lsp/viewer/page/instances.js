// Repeated meshes drawn as instances. Every visual showing the same mesh file (URL and version) with the same
// look (its own materials, a colour, an opacity, or the collision colour) joins one group: one THREE.InstancedMesh
// per submesh of the file, one matrix per visual. A world of a hundred identical chairs is then one draw call
// per submesh instead of a hundred, and one copy of each matrix list on the GPU. The visuals keep their holder
// objects (posed as before, empty): a group reads their world matrices when something moved.
//
// Templates with lines, points, sprites or skinned meshes, and visuals mirrored by a negative <scale>, are not
// instanced (the caller clones them as before).
import * as THREE from 'three';

/** The submeshes of a template and their matrices within it, or null when it cannot be instanced. Kept on the
 * template (shared by every visual of the file). */
export function instanceParts(template) {
  if (template.userData.parts !== undefined) return template.userData.parts;
  template.updateMatrixWorld(true);
  let parts = [];
  template.traverse((o) => {
    if (!parts) return;
    if (o.isSkinnedMesh || o.isLine || o.isPoints || o.isSprite || o.isInstancedMesh) parts = null;
    else if (o.isMesh) parts.push({ geometry: o.geometry, material: o.material, local: o.matrixWorld.clone() });
  });
  if (parts) for (const p of parts) if (!p.geometry.boundingBox) p.geometry.computeBoundingBox();
  template.userData.parts = parts;
  return parts;
}

export function createInstances() {
  const groups = new Map(); // signature -> {parts, materials, layer, members: [{holder, scale, id}], meshes, rebuild}
  let moved = false;
  const m = new THREE.Matrix4();
  const s = new THREE.Matrix4();

  function matrixOf(group, i, part, out) {
    const member = group.members[i];
    member.holder.updateMatrixWorld(true);
    s.makeScale(member.scale[0], member.scale[1], member.scale[2]);
    return out.copy(member.holder.matrixWorld).multiply(s).multiply(part.local);
  }

  return {
    /** Adds a visual (`holder`, posed; `scale` its mesh <scale>; `id` its frame) to the group `signature` of a
     * template's `parts`, drawn with `materialOf(part)` (asked once per group) in `layer`. */
    add(signature, parts, materialOf, layer, holder, scale, id) {
      let g = groups.get(signature);
      if (!g) {
        g = { parts, materials: parts.map(materialOf), layer, members: [], meshes: [], rebuild: true };
        groups.set(signature, g);
      }
      holder.userData.instance = { group: g, index: g.members.length };
      g.members.push({ holder, scale, id });
      g.rebuild = true;
      moved = true;
    },
    /** The holders' poses changed: the matrices are read again on the next sync. */
    moved() {
      moved = true;
    },
    /** Makes the instanced meshes match their members (before a draw, a pick or a measurement). */
    sync() {
      if (!moved) return;
      moved = false;
      for (const g of groups.values()) {
        if (g.rebuild) {
          g.rebuild = false;
          for (const mesh of g.meshes) {
            g.layer.remove(mesh);
            mesh.dispose(); // its matrices only: geometry and materials are shared
          }
          g.meshes = g.parts.map((part, k) => {
            const mesh = new THREE.InstancedMesh(part.geometry, g.materials[k], g.members.length);
            mesh.userData.frameIds = g.members.map((x) => x.id);
            g.layer.add(mesh);
            return mesh;
          });
        }
        g.parts.forEach((part, k) => {
          const mesh = g.meshes[k];
          for (let i = 0; i < g.members.length; i++) mesh.setMatrixAt(i, matrixOf(g, i, part, m));
          mesh.instanceMatrix.needsUpdate = true;
          mesh.computeBoundingBox();
          mesh.computeBoundingSphere(); // frustum culling uses it
        });
      }
    },
    clear() {
      for (const g of groups.values()) for (const mesh of g.meshes) {
        g.layer.remove(mesh);
        mesh.dispose();
      }
      groups.clear();
      moved = false;
    },
    /** Every instanced mesh (for picking: a hit's instanceId indexes userData.frameIds). */
    meshes() {
      const out = [];
      for (const g of groups.values()) out.push(...g.meshes);
      return out;
    },
    /** The materials and world boxes a holder's visual is drawn with, when it is instanced. */
    drawnOf(holder) {
      const inst = holder.userData.instance;
      if (!inst) return [];
      return inst.group.parts.map((part, k) => ({
        material: inst.group.materials[k],
        box: part.geometry.boundingBox.clone().applyMatrix4(matrixOf(inst.group, inst.index, part, new THREE.Matrix4())),
      }));
    },
    /** Instanced visuals and groups (for the page's figures). */
    counts() {
      let members = 0;
      for (const g of groups.values()) members += g.members.length;
      return { groups: groups.size, instances: members };
    },
  };
}
