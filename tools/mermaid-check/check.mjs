// Parses Mermaid diagrams with the real Mermaid parser and prints what it understood, so that
// cargo tests can compare it with what webmcp-sim meant to write.
//
// Usage: node check.mjs FILE...
// A FILE ending in .md contributes every ```mermaid block; any other FILE is one diagram.
// Prints one JSON object per diagram and line:
//   {"file", "diagram", "ok": true, "type", "actors": [{"id", "label"}],
//    "messages": [{"from", "to", "kind", "text"}]}
// or {"file", "diagram", "ok": false, "error"}. Entity codes (#35;) are decoded in labels and texts.
// Exit status: 0 when every diagram parses, 1 when one does not, 2 on a usage error.
import { readFileSync } from "node:fs";
import mermaid from "mermaid";

mermaid.initialize({ startOnLoad: false, securityLevel: "strict" });

// Mermaid replaces entity codes with placeholders before parsing and decodes them when drawing.
function decode(text) {
  return String(text ?? "")
    .replace(/ﬂ°°(\d+)¶ß/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/ﬂ°(\w+)¶ß/g, (_, name) => `&${name};`);
}

function diagrams(file) {
  const text = readFileSync(file, "utf8");
  if (!file.endsWith(".md")) {
    return [text];
  }
  const found = [];
  const fence = /^(`{3,})mermaid\n([\s\S]*?)^\1$/gm;
  for (const m of text.matchAll(fence)) {
    found.push(m[2]);
  }
  return found;
}

// Mermaid's sequence-diagram line types, for readable output.
const KINDS = { 0: "solid", 1: "dotted", 2: "note", 5: "solid-open", 6: "dotted-open", 24: "solid-point", 25: "dotted-point" };

async function check(file, index, text) {
  const out = { file, diagram: index };
  try {
    await mermaid.parse(text);
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
    out.ok = true;
    out.type = diagram.type;
    if (diagram.type === "sequence") {
      out.actors = [...diagram.db.getActors().values()].map((a) => ({ id: a.name, label: decode(a.description) }));
      out.messages = diagram.db.getMessages().map((m) => ({
        from: m.from ?? null,
        to: m.to ?? null,
        kind: KINDS[m.type] ?? String(m.type),
        text: decode(m.message),
      }));
    }
  } catch (e) {
    out.ok = false;
    out.error = String(e?.message ?? e);
  }
  return out;
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node check.mjs FILE...");
  process.exit(2);
}
let failed = 0;
for (const file of files) {
  const found = diagrams(file);
  if (found.length === 0) {
    console.log(JSON.stringify({ file, diagram: null, ok: false, error: "no mermaid diagram in the file" }));
    failed++;
  }
  for (const [i, text] of found.entries()) {
    const result = await check(file, i, text);
    console.log(JSON.stringify(result));
    if (!result.ok) {
      failed++;
    }
  }
}
process.exit(failed === 0 ? 0 : 1);
