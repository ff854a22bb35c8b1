// gz-common's opacity of COLLADA materials, read from the file's effects. Its own module: the mesh worker
// (meshworker.js) reads it with xmldom.js's reader, the page (meshes.js, when it parses a file itself) with the
// browser's DOMParser.

/** gz-common's opacity of each COLLADA material (by name and id), from the file's effects. */
export function colladaOpacities(text, parser = new DOMParser()) {
  // only the effects and materials are read (a small part of a large file): not a second parse of the geometry
  const part = (tag) => {
    const a = text.indexOf(`<${tag}`);
    const b = text.indexOf(`</${tag}>`, a);
    return a >= 0 && b > a ? text.slice(a, b + tag.length + 3) : '';
  };
  const doc = parser.parseFromString(`<c>${part('library_effects')}${part('library_materials')}</c>`, 'application/xml');
  const effects = new Map();
  for (const effect of doc.getElementsByTagName('effect')) {
    let opacity = 1;
    const technique = [...effect.getElementsByTagName('technique')].find((t) => t.parentElement && t.parentElement.localName === 'profile_COMMON');
    const shading = technique && [...technique.children].find((c) => ['phong', 'lambert', 'blinn', 'constant'].includes(c.localName));
    const transparent = shading && [...shading.children].find((c) => c.localName === 'transparent');
    if (transparent && transparent.getAttribute('opaque') && !transparent.getElementsByTagName('texture').length) {
      const colorEl = transparent.getElementsByTagName('color')[0];
      const c = colorEl ? colorEl.textContent.trim().split(/\s+/).map(Number) : [1, 1, 1, 1];
      const tEl = [...shading.children].find((x) => x.localName === 'transparency');
      const tf = tEl && tEl.getElementsByTagName('float')[0];
      const t = tf ? Number(tf.textContent) : 1;
      const lum = 0.212671 * c[0] + 0.71516 * c[1] + 0.072169 * c[2];
      const a = c.length > 3 ? c[3] : 1;
      switch (transparent.getAttribute('opaque')) {
        case 'RGB_ZERO': opacity = 1 - lum * t; break;
        case 'RGB_ONE': opacity = lum * t; break;
        case 'A_ONE': opacity = a * t; break;
        case 'A_ZERO': opacity = 1 - a * t; break;
        default: opacity = 1;
      }
    }
    effects.set(effect.getAttribute('id'), Math.min(1, Math.max(0, opacity)));
  }
  const out = new Map();
  for (const m of doc.getElementsByTagName('material')) {
    const inst = m.getElementsByTagName('instance_effect')[0];
    const url = inst ? (inst.getAttribute('url') || '').replace(/^#/, '') : '';
    if (!effects.has(url)) continue;
    if (m.getAttribute('name')) out.set(m.getAttribute('name'), effects.get(url));
    if (m.getAttribute('id')) out.set(m.getAttribute('id'), effects.get(url));
  }
  return out;
}
