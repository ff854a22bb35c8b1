// A small tolerant XML reader with the part of the DOM that three.js's COLLADA parser and our opacity reader
// use, for the mesh worker (meshworker.js): a Web Worker has no DOMParser, and parsing a COLLADA file on the
// page's thread freezes the editor (in VS Code's webview the page runs on the workbench's thread).
//
// Elements only (text is kept as each element's own text, comments, processing instructions and DOCTYPE are
// skipped, CDATA is text); names as written (prefix included); the five predefined entities and character
// references decoded. Unclosed elements are closed at the end and a stray end tag closes up to its match, as a
// tolerant reader must on half-written files; a document without any element yields a `parsererror` element,
// as the browser's DOMParser does, so the caller reports it.

const ENTITY = /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|(lt|gt|amp|quot|apos));/g;
const NAMED = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(s) {
  if (s.indexOf('&') < 0) return s;
  return s.replace(ENTITY, (m, hex, dec, name) => {
    if (name) return NAMED[name];
    const code = hex ? parseInt(hex, 16) : parseInt(dec, 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });
}

const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

export class XmlElement {
  constructor(name, attributes, parent) {
    this.nodeName = name;
    this.tagName = name;
    const colon = name.indexOf(':');
    this.localName = colon >= 0 ? name.slice(colon + 1) : name;
    this.nodeType = 1;
    this.attrs = attributes;
    this.parentElement = parent;
    this.parentNode = parent;
    this.childNodes = [];
    this.text = [];
  }

  get children() {
    return this.childNodes;
  }

  getAttribute(name) {
    return Object.prototype.hasOwnProperty.call(this.attrs, name) ? this.attrs[name] : null;
  }

  setAttribute(name, value) {
    this.attrs[name] = String(value); // three.js's parser gives every <node> an id
  }

  hasAttribute(name) {
    return Object.prototype.hasOwnProperty.call(this.attrs, name);
  }

  /** The text of the element and of every element inside it, in document order (as the DOM's textContent;
   * the common case, an element holding only text such as a <float_array>, is its own text). */
  get textContent() {
    if (this.childNodes.length === 0) return this.text.length === 1 ? this.text[0] : this.text.join('');
    const out = [];
    const walk = (e) => {
      // own text and children interleave in the file; kept apart here, the order only matters for mixed content
      out.push(...e.text);
      for (const c of e.childNodes) walk(c);
    };
    walk(this);
    return out.join('');
  }

  /** Every element below this one named `name` (or all, for '*'), in document order. */
  getElementsByTagName(name) {
    const out = [];
    const stack = [...this.childNodes].reverse();
    while (stack.length) {
      const e = stack.pop();
      if (name === '*' || e.nodeName === name) out.push(e);
      for (let i = e.childNodes.length - 1; i >= 0; i--) stack.push(e.childNodes[i]);
    }
    return out;
  }

  /** Only the attribute selectors three.js's COLLADA composer uses: `[name="value"]`. */
  querySelector(selector) {
    const m = /^\[([^\s=\]]+)="([^"]*)"\]$/.exec(selector);
    if (!m) throw new Error(`xmldom: selector not supported: ${selector}`);
    return this.getElementsByTagName('*').find((e) => e.getAttribute(m[1]) === m[2]) || null;
  }
}

class XmlDocument extends XmlElement {
  constructor() {
    super('#document', {}, null);
    this.nodeType = 9;
  }

  get documentElement() {
    return this.childNodes[0] || null;
  }
}

/** Reads `text` into an XmlDocument (never throws). */
export function parseXml(text) {
  const doc = new XmlDocument();
  let current = doc;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const lt = text.indexOf('<', i);
    const end = lt < 0 ? n : lt;
    if (end > i && current !== doc) current.text.push(decode(text.slice(i, end)));
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) {
      const c = text.indexOf('-->', lt + 4);
      i = c < 0 ? n : c + 3;
      continue;
    }
    if (text.startsWith('<![CDATA[', lt)) {
      const c = text.indexOf(']]>', lt + 9);
      if (current !== doc) current.text.push(text.slice(lt + 9, c < 0 ? n : c));
      i = c < 0 ? n : c + 3;
      continue;
    }
    if (text.startsWith('<?', lt)) {
      const c = text.indexOf('?>', lt + 2);
      i = c < 0 ? n : c + 2;
      continue;
    }
    if (text.startsWith('<!', lt)) {
      const c = text.indexOf('>', lt + 2); // DOCTYPE without an internal subset (COLLADA files have none)
      i = c < 0 ? n : c + 1;
      continue;
    }
    const gt = tagEnd(text, lt + 1);
    if (gt < 0) break; // a tag cut off at the end of the file
    const body = text.slice(lt + 1, gt);
    i = gt + 1;
    if (body[0] === '/') {
      const name = body.slice(1).trim();
      let e = current;
      while (e !== doc && e.nodeName !== name) e = e.parentElement;
      if (e !== doc) current = e.parentElement || doc; // a stray end tag (no open element of its name) is skipped
      continue;
    }
    const selfClosing = body.endsWith('/');
    const inner = selfClosing ? body.slice(0, -1) : body;
    const nameEnd = inner.search(/[\s]/);
    const name = nameEnd < 0 ? inner : inner.slice(0, nameEnd);
    if (!name) continue;
    const attributes = {};
    if (nameEnd >= 0) {
      ATTRIBUTE.lastIndex = nameEnd;
      let m;
      while ((m = ATTRIBUTE.exec(inner)) !== null) attributes[m[1]] = decode(m[2] !== undefined ? m[2] : m[3]);
    }
    const parent = current === doc ? null : current;
    const element = new XmlElement(name, attributes, parent);
    current.childNodes.push(element);
    if (!selfClosing) current = element;
  }
  if (doc.childNodes.length === 0) {
    const error = new XmlElement('parsererror', {}, null);
    const div = new XmlElement('div', {}, error); // where the browser's DOMParser puts its message
    div.text.push('no XML element in the file');
    error.childNodes.push(div);
    doc.childNodes.push(error);
  }
  return doc;
}

/** The `>` closing the tag that starts at `i`, outside quoted attribute values; -1 when the file ends first. */
function tagEnd(text, i) {
  let quote = '';
  for (let k = i; k < text.length; k++) {
    const c = text[k];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return k;
  }
  return -1;
}

/** DOMParser's interface, for code written against it (three.js's ColladaParser) run in a worker. */
export class XmlDomParser {
  parseFromString(text) {
    return parseXml(text);
  }
}
