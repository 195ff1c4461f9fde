#!/usr/bin/env bash
# Packages the VS Code extension into stateproof-VERSION.vsix (docs/editor.md):
#
#   editors/vscode/package.sh [OUTDIR]      (default: editors/vscode)
#
# The extension is staged in a temporary directory, where `npm ci` installs
# exactly package-lock.json and @vscode/vsce (a pinned devDependency) packs
# it, so that no node_modules is left inside the Go module's tree and the
# repository's LICENSE goes into the package. Prints the .vsix's path.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$(mkdir -p "${1:-$here}" && cd "${1:-$here}" && pwd)"

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
(cd "$here" && tar --exclude=./node_modules --exclude='*.vsix' -cf - .) | (cd "$stage" && tar -xf -)
cp "$root/LICENSE" "$stage/LICENSE"

cd "$stage"
npm ci --prefer-offline --no-audit --no-fund --loglevel=error </dev/null >&2
version="$(node -p 'require("./package.json").version')"
vsix="$out/stateproof-$version.vsix"
npx --no-install vsce package --out "$vsix" </dev/null >&2
echo "$vsix"
