'use strict';
// The stateproof extension: grammars, snippets and language configuration
// are contributed in package.json; this file starts `stateproof lsp` over
// stdio and forwards the stateproof commands to it. Plain JavaScript, no
// build step.

const vscode = require('vscode');
const { LanguageClient, TransportKind, ExecuteCommandRequest } = require('vscode-languageclient/node');
const { SERVER_COMMANDS, GENERATE_TARGETS, DOCS_URL, resolveServer, commandArguments } = require('./server');

let client;
let output;
let watcher;

async function activate(context) {
  output = vscode.window.createOutputChannel('stateproof');
  context.subscriptions.push(output);
  for (const name of SERVER_COMMANDS) {
    const run = name === 'stateproof.generate' ? generate : (args) => forward(name, args);
    context.subscriptions.push(vscode.commands.registerCommand(name, (...args) => run(args)));
  }
  context.subscriptions.push(vscode.commands.registerCommand('stateproof.restartServer', () => restart()));
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('stateproof.path') || e.affectsConfiguration('stateproof.args')) {
        restart();
      }
    }),
  );
  await start();
}

async function deactivate() {
  await stop();
}

function firstFolder() {
  const folders = vscode.workspace.workspaceFolders;
  return folders && folders.length > 0 ? folders[0].uri.fsPath : undefined;
}

async function start() {
  const config = vscode.workspace.getConfiguration('stateproof');
  const found = resolveServer(config.get('path', 'stateproof'), { cwd: firstFolder() });
  if (found.error) {
    output.appendLine(found.error);
    showMissing(found.error);
    return;
  }
  const args = ['lsp', ...config.get('args', [])];
  output.appendLine(`starting ${found.command} ${args.join(' ')}`);
  const run = { command: found.command, args, transport: TransportKind.stdio, options: { cwd: firstFolder() } };
  // Imported models and the model a query names change diagnostics too.
  watcher = vscode.workspace.createFileSystemWatcher('**/*.{fcstm,fbmcq,rsc,json}');
  const clientOptions = {
    documentSelector: [
      { language: 'fcstm' },
      { language: 'fbmcq' },
      { language: 'rsc' },
      // JSON models (schemaVersion 1); the server leaves other JSON alone.
      { scheme: 'file', language: 'json' },
    ],
    synchronize: { fileEvents: watcher },
    outputChannel: output,
  };
  client = new LanguageClient('stateproof', 'stateproof', { run, debug: run }, clientOptions);
  keepOwnCommands(client);
  try {
    await client.start();
  } catch (err) {
    const message = `stateproof: \`${found.command} lsp\` did not start: ${err && err.message ? err.message : err}. ` +
      'A binary older than the lsp command cannot serve the editor: update it (docs/editor.md).';
    output.appendLine(message);
    vscode.window.showErrorMessage(message, 'Show Output').then((choice) => {
      if (choice) output.show();
    });
    client = undefined;
  }
}

async function stop() {
  const c = client;
  client = undefined;
  if (watcher) {
    watcher.dispose();
    watcher = undefined;
  }
  if (c) {
    try {
      await c.stop();
    } catch (err) {
      output.appendLine(`stopping the server: ${err && err.message ? err.message : err}`);
    }
  }
}

// Restarts run one after the other: a settings change and the restart
// command at the same time must not leave two servers running.
let restarting = Promise.resolve();

function restart() {
  restarting = restarting.then(stop).then(start);
  return restarting;
}

// The client registers a VS Code command for each command the server
// announces; the stateproof commands are registered here already (so that
// they exist, with a clear message, while no server runs), so the client
// must skip them or its registration fails.
function keepOwnCommands(c) {
  const feature = c.getFeature(ExecuteCommandRequest.method);
  if (!feature || typeof feature.register !== 'function') return;
  const register = feature.register.bind(feature);
  const own = new Set(SERVER_COMMANDS);
  feature.register = (data) => {
    const options = data.registerOptions || {};
    const commands = (options.commands || []).filter((name) => !own.has(name));
    return register({ ...data, registerOptions: { ...options, commands } });
  };
}

function showMissing(message) {
  vscode.window.showErrorMessage(message, 'Open Settings', 'How to install').then((choice) => {
    if (choice === 'Open Settings') {
      vscode.commands.executeCommand('workbench.action.openSettings', 'stateproof.path');
    } else if (choice === 'How to install') {
      vscode.env.openExternal(vscode.Uri.parse(DOCS_URL));
    }
  });
}

// forward runs a stateproof command on the server (workspace/executeCommand
// with the same name) and shows what it answers.
async function forward(name, args, { quiet = false } = {}) {
  if (!client) {
    vscode.window.showErrorMessage(`stateproof: ${name} needs the language server, which is not running (see the stateproof output).`);
    return undefined;
  }
  const editor = vscode.window.activeTextEditor;
  const params = { command: name, arguments: commandArguments(args, editor && editor.document.uri.toString()) };
  try {
    const result = await client.sendRequest(ExecuteCommandRequest.type, params);
    if (!quiet) await present(name, result);
    return result;
  } catch (err) {
    vscode.window.showErrorMessage(`stateproof: ${name}: ${err && err.message ? err.message : err}`);
    return undefined;
  }
}

// generate runs stateproof.generate: the lens passes only the document's
// URI, so the target is asked here, and the model is saved first, since
// the server generates from the saved file (docs/lsp.md#generate). The
// server names the files written in a message of its own.
async function generate(args) {
  const editor = vscode.window.activeTextEditor;
  const [uri, options] = commandArguments(args, editor && editor.document.uri.toString());
  if (!uri) return undefined;
  let opts = options;
  if (!opts || !opts.target) {
    const target = await vscode.window.showQuickPick(GENERATE_TARGETS, { placeHolder: 'stateproof: generate code for which target?' });
    if (!target) return undefined;
    opts = { ...(opts || {}), target };
  }
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  if (doc && doc.isDirty && !(await doc.save())) return undefined;
  return forward('stateproof.generate', [uri, opts], { quiet: true });
}

// present shows a command's answer: an SVG drawing in a panel, a file or
// URI opened, text as a markdown document, anything else as JSON.
async function present(name, result) {
  if (result === null || result === undefined) {
    vscode.window.showInformationMessage(`stateproof: ${name} done.`);
    return;
  }
  const text = typeof result === 'string' ? result : result.svg || result.markdown || result.text;
  if (typeof text === 'string' && /^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/.test(text)) {
    showSVG(name, text);
    return;
  }
  if (typeof result === 'object' && typeof result.uri === 'string') {
    const uri = vscode.Uri.parse(result.uri);
    if (uri.path.endsWith('.svg') || uri.path.endsWith('.html')) {
      await vscode.env.openExternal(uri);
    } else {
      await vscode.window.showTextDocument(uri, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    }
    return;
  }
  const doc = typeof text === 'string'
    ? await vscode.workspace.openTextDocument({ language: 'markdown', content: text })
    : await vscode.workspace.openTextDocument({ language: 'json', content: JSON.stringify(result, null, 2) });
  await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
}

// showSVG shows a drawing as an image (not inline markup), with scripts
// off, so that nothing in the SVG runs.
function showSVG(name, svg) {
  const panel = vscode.window.createWebviewPanel('stateproof.drawing', `stateproof: ${name}`, vscode.ViewColumn.Beside, {
    enableScripts: false,
  });
  const data = Buffer.from(svg, 'utf8').toString('base64');
  panel.webview.html = '<!DOCTYPE html><html><head><meta charset="utf-8">' +
    '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; img-src data:; style-src \'unsafe-inline\';">' +
    '</head><body style="background:#fff"><img alt="drawing" style="max-width:100%" src="data:image/svg+xml;base64,' +
    data + '"></body></html>';
}

module.exports = { activate, deactivate };
