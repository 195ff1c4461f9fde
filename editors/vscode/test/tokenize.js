'use strict';
// Tokenises files and snippets with the extension's TextMate grammars, the
// way VS Code does (vscode-textmate on the Oniguruma regex engine), and
// prints what a test needs to judge them.
//
// Usage: node tokenize.js MODULES_DIR < spec.json > result.json
//
// MODULES_DIR holds node_modules/vscode-textmate and vscode-oniguruma
// (internal/editortest installs them into the user cache). spec.json is
//   {"grammars": [{"scope": "source.fcstm", "path": "…tmLanguage.json"}],
//    "files":    [{"path": "…", "scope": "source.fcstm"}],
//    "texts":    [{"name": "…", "scope": "source.fcstm", "text": "…"}]}
// The result has, for each file, its problems: tokens with an "invalid"
// scope, and non-blank text that no rule matched (only the root scope);
// for each text, every token.

const fs = require('fs');
const path = require('path');

const modules = path.resolve(process.argv[2] || '.', 'node_modules');
const vsctm = require(path.join(modules, 'vscode-textmate'));
const oniguruma = require(path.join(modules, 'vscode-oniguruma'));

function readStdin() {
  return fs.readFileSync(0, 'utf8');
}

async function main() {
  const spec = JSON.parse(readStdin());
  const wasm = fs.readFileSync(path.join(modules, 'vscode-oniguruma', 'release', 'onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const paths = new Map(spec.grammars.map((g) => [g.scope, g.path]));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) => {
      const file = paths.get(scope);
      if (!file) return null;
      return vsctm.parseRawGrammar(fs.readFileSync(file, 'utf8'), file);
    },
  });
  const grammars = new Map();
  for (const g of spec.grammars) {
    const grammar = await registry.loadGrammar(g.scope);
    if (!grammar) throw new Error(`grammar ${g.scope} did not load from ${g.path}`);
    grammars.set(g.scope, grammar);
  }
  const out = { files: [], texts: [] };
  for (const f of spec.files || []) {
    const tokens = tokenize(grammars.get(f.scope), fs.readFileSync(f.path, 'utf8'));
    const problems = tokens.filter((t) => isProblem(t, f.scope));
    out.files.push({ path: f.path, tokens: tokens.length, problems });
  }
  for (const t of spec.texts || []) {
    out.texts.push({ name: t.name, tokens: tokenize(grammars.get(t.scope), t.text) });
  }
  process.stdout.write(JSON.stringify(out));
}

// tokenize returns every token of text with its 1-based line and column.
// A line that takes longer than the time limit would be cut short by
// vscode-textmate (stoppedEarly): that is reported as a problem too.
function tokenize(grammar, text) {
  const result = [];
  let state = vsctm.INITIAL;
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    const r = grammar.tokenizeLine(line, state, 10000);
    if (r.stoppedEarly) {
      result.push({ line: i + 1, col: 1, text: line, scopes: ['invalid.tokenizer-stopped-early'] });
    }
    for (const t of r.tokens) {
      const end = Math.min(t.endIndex, line.length);
      if (t.startIndex >= end) continue;
      result.push({ line: i + 1, col: t.startIndex + 1, text: line.slice(t.startIndex, end), scopes: t.scopes });
    }
    state = r.ruleStack;
  });
  return result;
}

function isProblem(t, root) {
  if (t.scopes.some((s) => s.startsWith('invalid'))) return true;
  return t.scopes.length === 1 && t.scopes[0] === root && t.text.trim() !== '';
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err) + '\n');
  process.exit(1);
});
