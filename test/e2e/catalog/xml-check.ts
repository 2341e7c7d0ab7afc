// A strict XML well-formedness check (no parser package is installed): prolog, one root
// element, properly nested and matched tags, quoted unique attributes, only the five predefined
// entities or character references, no stray `<` or `&`. Returns the elements for inspection.
export type XmlElement = { name: string; attrs: Record<string, string>; text: string; children: XmlElement[] };

const NAME = "[A-Za-z_:][A-Za-z0-9._:-]*";
const ENTITY = /&(?:lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;

function decode(text: string, at: number): string {
  if (/[<]/.test(text)) throw new Error(`stray '<' near ${at}`);
  const stripped = text.replace(ENTITY, "");
  if (stripped.includes("&")) throw new Error(`bad entity near ${at}`);
  return text.replace(
    ENTITY,
    (e) => ({ "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&apos;": "'" })[e] ?? String.fromCodePoint(Number(e.slice(2, -1).replace(/^x/, "0x"))),
  );
}

export function parseXml(xml: string): XmlElement {
  let i = 0;
  const prolog = /^<\?xml[^?]*\?>\s*/.exec(xml);
  if (prolog) i = prolog[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  const tag = new RegExp(`^<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"<]*"|'[^'<]*'))*)\\s*(/?)>`);
  while (i < xml.length) {
    const lt = xml.indexOf("<", i);
    const text = xml.slice(i, lt === -1 ? xml.length : lt);
    if (stack.length) stack[stack.length - 1]!.text += decode(text, i);
    else if (text.trim()) throw new Error(`text outside the root near ${i}`);
    if (lt === -1) break;
    if (xml.startsWith("<!--", lt)) {
      const end = xml.indexOf("-->", lt);
      if (end === -1) throw new Error("unclosed comment");
      i = end + 3;
      continue;
    }
    const m = tag.exec(xml.slice(lt));
    if (!m) throw new Error(`malformed tag near ${lt}: ${xml.slice(lt, lt + 40)}`);
    const [whole, close, name, attrText, selfClose] = m as unknown as [string, string, string, string, string];
    i = lt + whole.length;
    if (close) {
      const open = stack.pop();
      if (!open || open.name !== name) throw new Error(`</${name}> does not close <${open?.name}>`);
      if (stack.length === 0) root = open;
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of attrText.matchAll(new RegExp(`(${NAME})\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, "g"))) {
      if (a[1]! in attrs) throw new Error(`duplicate attribute ${a[1]}`);
      attrs[a[1]!] = decode(a[2] ?? a[3] ?? "", lt);
    }
    const el: XmlElement = { name, attrs, text: "", children: [] };
    if (stack.length) stack[stack.length - 1]!.children.push(el);
    else if (root) throw new Error("second root element");
    if (selfClose) {
      if (!stack.length) root = el;
    } else stack.push(el);
  }
  if (stack.length) throw new Error(`unclosed <${stack[stack.length - 1]!.name}>`);
  if (!root) throw new Error("no root element");
  return root;
}
