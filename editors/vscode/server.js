'use strict';
// Finding the stateproof binary and what to say when it is missing. Kept
// apart from extension.js, which needs VS Code, so that plain Node tests
// it (test/server.test.js).

const fs = require('fs');
const os = require('os');
const path = require('path');

// The commands the server runs for the editor (workspace/executeCommand),
// contributed under the same names in package.json.
const SERVER_COMMANDS = ['stateproof.simulate', 'stateproof.checkQuery', 'stateproof.draw', 'stateproof.generate'];

// The targets of stateproof.generate (docs/generate.md), offered in a quick pick.
const GENERATE_TARGETS = ['c', 'go', 'python', 'typescript'];

const INSTALL_HINT =
  'Install it with `go install github.com/stateproof/stateproof/cmd/stateproof@latest` ' +
  '(or a release binary, see docs/editor.md), or set `stateproof.path` to the binary.';

const DOCS_URL = 'https://github.com/stateproof/stateproof/blob/main/docs/editor.md';

function isExecutableFile(file) {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return false;
    if (process.platform === 'win32') return true;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// resolveServer turns the stateproof.path setting into the binary to run:
// a bare name is looked up on PATH (with PATHEXT on Windows), "~/" is the
// home directory, and a relative path is taken from the first workspace
// folder. It returns {command} or {error} (the message to show).
function resolveServer(setting, opts = {}) {
  const env = opts.env || process.env;
  const platform = opts.platform || process.platform;
  const exists = opts.isExecutable || isExecutableFile;
  let name = (setting || '').trim() || 'stateproof';
  if (name === '~' || name.startsWith('~/')) {
    name = path.join(opts.home || os.homedir(), name.slice(1));
  }
  const hasDir = name.includes('/') || (platform === 'win32' && name.includes('\\'));
  if (hasDir) {
    const file = path.isAbsolute(name) ? name : path.resolve(opts.cwd || process.cwd(), name);
    if (exists(file)) return { command: file };
    return { error: `stateproof: the binary ${file} (stateproof.path) does not exist or is not executable. ${INSTALL_HINT}` };
  }
  const dirs = (env.PATH || env.Path || '').split(path.delimiter).filter(Boolean);
  const exts = platform === 'win32' ? ['', ...(env.PATHEXT || '.EXE;.CMD;.BAT').split(';').filter(Boolean)] : [''];
  for (const dir of dirs) {
    for (const ext of exts) {
      const file = path.join(dir, name + ext);
      if (exists(file)) return { command: file };
    }
  }
  return { error: `stateproof: cannot find "${name}" on PATH to start the language server (stateproof lsp). ${INSTALL_HINT}` };
}

// commandArguments is what a command sends to the server: the arguments it
// was invoked with (a code lens passes the server's own), or else the URI
// of the document in the active editor.
function commandArguments(args, activeUri) {
  if (args && args.length > 0) return args;
  return activeUri ? [activeUri] : [];
}

module.exports = { SERVER_COMMANDS, GENERATE_TARGETS, INSTALL_HINT, DOCS_URL, resolveServer, commandArguments };
