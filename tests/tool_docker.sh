#!/bin/sh
# SPDX-License-Identifier: MIT
# docker/Dockerfile and docker/compose.yaml against the project they ship
# (Docker itself need not run here):
#  - the runtime stage installs exactly scripts/packages-runtime.txt, through
#    scripts/setup.sh --runtime, and nothing else; the build stage runs the
#    project's own scripts/setup.sh and a Release build of every source
#    folder the top-level CMakeLists.txt adds;
#  - that list holds exactly what the shipped binaries link (their NEEDED
#    libraries' Debian packages, glibc aside) plus packages whose commands
#    the Dockerfile runs (curl for the HEALTHCHECK);
#  - EXPOSE, the HEALTHCHECK, the shipped config.json and compose.yaml's
#    ports agree with the server's own defaults (naval-server --check-config);
#    the config file is accepted by the server;
#  - the user is not root; every NAVAL_* variable used is one the server
#    reads (naval-server --help), or a pending one listed below;
#  - compose.yaml parses (and `docker compose config` accepts it when a
#    compose plugin exists).
# usage: tool_docker.sh ROOT NAVAL_SERVER NAVAL_RELAY [NAVAL_LOAD|none]
set -eu
root=$1
server=$2
relay=$3
load=${4:-none}
fail() { echo "tool_docker: $*" >&2; exit 1; }

[ -x "$server" ] || fail "no naval-server at $server"
[ -x "$relay" ] || fail "no naval-relay at $relay"
binaries="$server $relay"
if [ "$load" != none ] && [ -x "$load" ]; then
    binaries="$binaries $load"
else
    echo "tool_docker: naval-load is not built yet: its libraries are not checked" >&2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The server's defaults, from the server itself (no NAVAL_* from outside).
env -u NAVAL_CONFIG "$server" --check-config --boats 0 >"$work/defaults.json" 2>"$work/check.err" \
    || fail "naval-server --check-config failed: $(cat "$work/check.err")"
"$server" --check-config --boats 0 --config "$root/docker/config.json" >"$work/shipped.json" 2>"$work/check.err" \
    || fail "the server refuses docker/config.json: $(cat "$work/check.err")"
"$server" --help >"$work/help.txt"

# The libraries each binary links (NEEDED), as Debian packages: each
# library's path as ldd resolves it, the same under /usr (merged /usr) and
# its real file, asked of dpkg all at once (one `dpkg -S` a path took 25 s
# over the three binaries).
for bin in $binaries; do
    for soname in $(objdump -p "$bin" | awk '$1 == "NEEDED" {print $2}'); do
        path=$(ldd "$bin" | awk -v s="$soname" '$1 == s && $2 == "=>" {print $3}')
        [ -n "$path" ] || fail "$bin: cannot resolve $soname"
        echo "$bin $soname $path /usr$path $(readlink -f "$path")" >>"$work/linked.txt"
    done
done
touch "$work/linked.txt"
# "pkg[:arch][, pkg2...]: path" per path some package holds
dpkg -S $(awk '{print $3; print $4; print $5}' "$work/linked.txt" | sort -u) >"$work/owners.txt" 2>/dev/null || true
while read -r bin soname path usr real; do
    pkg=""
    for candidate in "$path" "$usr" "$real"; do
        pkg=$(awk -v p="$candidate" '{i = index($0, ": "); if (substr($0, i + 2) == p) {print substr($0, 1, i - 1); exit}}' \
            "$work/owners.txt" | cut -d, -f1 | cut -d: -f1)
        [ -n "$pkg" ] && break
    done
    [ -n "$pkg" ] || fail "$bin: no Debian package holds $path ($soname)"
    echo "$(basename "$bin") $soname $pkg" >>"$work/needed.txt"
done <"$work/linked.txt"

# Programs each runtime package installs, for the "command the Dockerfile
# runs" rule.
for pkg in $("$root/scripts/setup.sh" --list --runtime); do
    dpkg-query -W "$pkg" >/dev/null 2>&1 || fail "scripts/packages-runtime.txt: '$pkg' is not installed here (scripts/setup.sh installs it)"
    for f in $(dpkg -L "$pkg" | grep -E '^/usr/s?bin/|^/s?bin/' || true); do
        echo "$pkg $(basename "$f")" >>"$work/commands.txt"
    done
done
touch "$work/commands.txt"
"$root/scripts/setup.sh" --list --runtime >"$work/setup-list.txt"

python3 - "$root" "$work" <<'EOF'
import json, os, re, subprocess, sys

root, work = sys.argv[1], sys.argv[2]
errors = []
def check(ok, msg):
    if not ok:
        errors.append(msg)

def read(path):
    with open(path) as f:
        return f.read()

# Variables the deployment may set before the server reads them (none now:
# NAVAL_AGONES is a setting); the rest must be in --help.
PENDING = set()
# Every Debian image has glibc; everything else the binaries link must be listed.
BASE = {"libc6"}

defaults = json.load(open(os.path.join(work, "defaults.json")))
shipped = json.load(open(os.path.join(work, "shipped.json")))
known = set(re.findall(r"\bNAVAL_[A-Z0-9_]+", read(os.path.join(work, "help.txt"))))

def port_of(url):
    m = re.search(r":(\d+)(/|$)", url)
    return int(m.group(1)) if m else None

server_ports = sorted(p for p in (port_of(defaults[k]) for k in ("snapshot_url", "command_url", "compact_url", "view_url", "http")) if p)
http_port = port_of(defaults["http"])
check(len(server_ports) == 5, "could not read five default ports from naval-server --check-config: %s" % server_ports)
shipped_ports = sorted(p for p in (port_of(shipped[k]) for k in ("snapshot_url", "command_url", "compact_url", "view_url", "http")) if p)
check(shipped_ports == server_ports, "docker/config.json ports %s differ from the server's defaults %s" % (shipped_ports, server_ports))

# ---- the Dockerfile, stage by stage -------------------------------------
text = read(os.path.join(root, "docker", "Dockerfile"))
lines, cur = [], ""
for raw in text.splitlines():
    s = raw.strip()
    if not s or s.startswith("#"):
        continue
    if s.endswith("\\"):
        cur += s[:-1] + " "
        continue
    lines.append(cur + s)
    cur = ""
stages = []
for ln in lines:
    word = ln.split(None, 1)[0].upper()
    if word == "FROM":
        stages.append({"from": ln, "lines": []})
    elif stages:
        stages[-1]["lines"].append(ln)
check(len(stages) == 2, "Dockerfile: expected 2 stages (build, runtime), found %d" % len(stages))
if len(stages) == 2:
    build, runtime = stages
    check(re.match(r"FROM\s+debian:bookworm\s+AS\s+build$", build["from"], re.I) is not None,
          "Dockerfile: the build stage must be 'FROM debian:bookworm AS build' (is '%s')" % build["from"])
    check(re.match(r"FROM\s+debian:bookworm-slim\s+AS\s+runtime$", runtime["from"], re.I) is not None,
          "Dockerfile: the runtime stage must be 'FROM debian:bookworm-slim AS runtime' (is '%s')" % runtime["from"])
    b = "\n".join(build["lines"])
    check(re.search(r"RUN\s+scripts/setup\.sh(\s|&&|$)", b) is not None, "Dockerfile: the build stage must RUN scripts/setup.sh")
    check("CMAKE_BUILD_TYPE=Release" in b, "Dockerfile: the build stage must build Release")
    # every folder the top-level CMakeLists.txt always adds reaches the build
    top = read(os.path.join(root, "CMakeLists.txt"))
    depth, always = 0, []
    for ln in top.splitlines():
        s = ln.split("#", 1)[0].strip()
        if re.match(r"if\s*\(", s):
            depth += 1
        elif re.match(r"endif\s*\(", s):
            depth -= 1
        m = re.match(r"add_subdirectory\s*\(\s*(\S+?)\s*\)", s)
        if m and depth == 0:
            always.append(m.group(1))
    copied = set(re.findall(r"^COPY\s+(\S+?)/?\s+\S+$", b, re.M))
    for d in always:
        check(d in copied, "Dockerfile: the build stage does not COPY %s/ (CMakeLists.txt adds it)" % d)
    r = "\n".join(runtime["lines"])
    check(re.search(r"COPY\s+scripts/setup\.sh\s+scripts/packages-runtime\.txt\s+(\S+)", r) is not None,
          "Dockerfile: the runtime stage must COPY scripts/setup.sh scripts/packages-runtime.txt")
    check(re.search(r"RUN\s+\S*setup\.sh\s+--runtime", r) is not None,
          "Dockerfile: the runtime stage must RUN setup.sh --runtime (its packages come from packages-runtime.txt)")
    for bad in ("apt-get install", "apt install", "dpkg -i", "apt-get -y install"):
        check(bad not in r, "Dockerfile: the runtime stage runs '%s': add the package to scripts/packages-runtime.txt instead" % bad)
    users = re.findall(r"^USER\s+(\S+)", r, re.M)
    check(users and users[-1].split(":")[0] not in ("root", "0"), "Dockerfile: the runtime stage must end as a non-root USER")
    check(users and re.match(r"^\d+(:\d+)?$", users[-1]) is not None,
          "Dockerfile: USER should be numeric (Kubernetes runAsNonRoot checks the id)")
    expose = sorted(int(p.split("/")[0]) for ln in re.findall(r"^EXPOSE\s+(.*)$", r, re.M) for p in ln.split())
    check(expose == server_ports, "Dockerfile: EXPOSE %s, the server listens on %s" % (expose, server_ports))
    hc = re.findall(r"^HEALTHCHECK\s+.*$", r, re.M)
    check(len(hc) == 1 and "http://127.0.0.1:%d/healthz" % http_port in hc[0],
          "Dockerfile: HEALTHCHECK must ask http://127.0.0.1:%d/healthz" % http_port)
    check(re.search(r"^ENV\s+NAVAL_CONFIG=/etc/naval/config\.json", r, re.M) is not None,
          "Dockerfile: ENV NAVAL_CONFIG=/etc/naval/config.json missing")
    check(re.search(r"^COPY\s+docker/config\.json\s+/etc/naval/config\.json", r, re.M) is not None,
          "Dockerfile: docker/config.json is not installed as /etc/naval/config.json")
    for name in ("naval-server", "naval-relay", "naval-load"):
        check(name in b, "Dockerfile: the build stage does not build %s" % name)
    for var in re.findall(r"\bNAVAL_[A-Z0-9_]+", r):
        check(var in known or var in PENDING, "Dockerfile: %s is not a naval-server setting" % var)

# ---- the runtime package list against the binaries -----------------------
listed = []
for ln in read(os.path.join(root, "scripts", "packages-runtime.txt")).splitlines():
    listed += ln.split("#", 1)[0].split()
setup_list = read(os.path.join(work, "setup-list.txt")).split()
check(setup_list == listed, "scripts/setup.sh --list --runtime prints %s, the file holds %s" % (setup_list, listed))
check(len(set(listed)) == len(listed), "scripts/packages-runtime.txt lists a package twice")
needed = {}
for ln in read(os.path.join(work, "needed.txt")).splitlines():
    binary, soname, pkg = ln.split()
    needed.setdefault(pkg, []).append("%s (%s)" % (binary, soname))
# a sanitizer build (make test-sanitize) links the sanitizers' runtimes; the
# image is a Release build without them
SANITIZERS = re.compile(r"^lib(asan|ubsan|tsan|lsan|hwasan)\d+$")
needed = {pkg: users for pkg, users in needed.items() if not SANITIZERS.match(pkg)}
for pkg, users in sorted(needed.items()):
    check(pkg in listed or pkg in BASE,
          "scripts/packages-runtime.txt lacks %s, needed by %s" % (pkg, ", ".join(users)))
commands = {}
for ln in read(os.path.join(work, "commands.txt")).splitlines():
    pkg, cmd = ln.split()
    commands.setdefault(pkg, set()).add(cmd)
for pkg in listed:
    used = [c for c in commands.get(pkg, ()) if re.search(r"(^|[\s\"'\[/])%s([\s\"',\]]|$)" % re.escape(c), text, re.M)]
    check(pkg in needed or used,
          "scripts/packages-runtime.txt: %s is linked by no shipped binary and provides no command the Dockerfile runs" % pkg)

# ---- compose.yaml ---------------------------------------------------------
import yaml
compose = yaml.safe_load(read(os.path.join(root, "docker", "compose.yaml")))
services = compose.get("services", {})
srv = services.get("server", {})
check(srv.get("build", {}).get("dockerfile") == "docker/Dockerfile" and srv.get("build", {}).get("context") == "..",
      "compose.yaml: server must build docker/Dockerfile with the repository root (..) as context")
image = srv.get("image")
check(image == "naval-server:latest", "compose.yaml: server image is %r, not naval-server:latest" % image)
cports = sorted(int(str(p).split(":")[-1].split("/")[0]) for p in srv.get("ports", []))
check(cports == server_ports, "compose.yaml: server publishes %s, the server listens on %s" % (cports, server_ports))
hc = " ".join(srv.get("healthcheck", {}).get("test", []))
check("http://127.0.0.1:%d/healthz" % http_port in hc, "compose.yaml: the server's healthcheck must ask /healthz on %d" % http_port)
check(any(str(v).endswith(":/etc/naval/config.json:ro") for v in srv.get("volumes", [])),
      "compose.yaml: config.json must be mounted read-only at /etc/naval/config.json")
env = srv.get("environment", {})
check(env.get("NAVAL_CONFIG") == "/etc/naval/config.json", "compose.yaml: NAVAL_CONFIG must name the mounted file")
for var in env:
    check(var in known or var in PENDING, "compose.yaml: %s is not a naval-server setting" % var)
ld = services.get("load", {})
check(ld.get("profiles") == ["load"], "compose.yaml: the load service must be in the 'load' profile")
check(ld.get("entrypoint") == ["naval-load"] and ld.get("image") == image, "compose.yaml: load must run naval-load from the same image")
check(ld.get("depends_on", {}).get("server", {}).get("condition") == "service_healthy",
      "compose.yaml: load must wait for a healthy server")

if errors:
    for e in errors:
        print("tool_docker: " + e, file=sys.stderr)
    sys.exit(1)
print("tool_docker: Dockerfile, runtime packages (%s) and compose.yaml agree with the server (ports %s)"
      % (" ".join(listed), server_ports))
EOF

if docker compose version >/dev/null 2>&1; then
    docker compose -f "$root/docker/compose.yaml" config -q || fail "docker compose config refuses docker/compose.yaml"
    echo "tool_docker: docker compose config accepts compose.yaml"
else
    echo "tool_docker: no docker compose here: compose.yaml checked as YAML only"
fi
