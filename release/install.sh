#!/usr/bin/env bash
# install.sh: put the stateproof release VERSION (a tag, or latest) for this
# runner's OS and architecture on PATH. Used by action.yml.
set -euo pipefail
repo=stateproof/stateproof
os=$(uname -s | tr '[:upper:]' '[:lower:]')
case $(uname -m) in
  x86_64 | amd64) arch=amd64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "stateproof: no release binary for $(uname -m)" >&2; exit 2 ;;
esac
version=${VERSION:-latest}
if [ "$version" = latest ]; then
  version=$(gh release view --repo "$repo" --json tagName --jq .tagName)
fi
dir=$(mktemp -d)
gh release download "$version" --repo "$repo" --dir "$dir" \
  --pattern "stateproof_${version#v}_${os}_${arch}.tar.gz" --pattern checksums.txt
(cd "$dir" && grep " stateproof_${version#v}_${os}_${arch}.tar.gz\$" checksums.txt | sha256sum -c -)
tar -xzf "$dir"/stateproof_*.tar.gz -C "$dir" stateproof
install -d "$HOME/.local/bin"
install "$dir/stateproof" "$HOME/.local/bin/stateproof"
echo "$HOME/.local/bin" >> "${GITHUB_PATH:-/dev/null}"
"$HOME/.local/bin/stateproof" --version
