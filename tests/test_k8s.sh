#!/bin/sh
# SPDX-License-Identifier: MIT
# docker/k8s/*.yaml: every manifest parses (PyYAML), and the fields that
# must agree with the programs do:
#  - the Agones Fleet: its container ports are the server's defaults
#    (naval-server --check-config), its liveness probe asks /healthz on the
#    HTTP port, NAVAL_AGONES=1 is set, Agones health checking is on, the
#    image and user are the Dockerfile's, every NAVAL_* is a server setting
#    (or pending), a FleetAutoscaler names the Fleet;
#  - the relays: each container runs naval-relay with arguments the relay
#    accepts (checked by running it), its --listen and --health ports are
#    its container ports, its probes ask those ports (/healthz on --health),
#    its Service targets them, the edge relays subscribe to the root's
#    Service.
# usage: test_k8s.sh ROOT NAVAL_SERVER NAVAL_RELAY
set -eu
root=$1
server=$2
relay=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -c 'import yaml' 2>/dev/null || { echo "test_k8s: python3 cannot import yaml (install python3-yaml: scripts/setup.sh)" >&2; exit 1; }
env -u NAVAL_CONFIG "$server" --check-config --boats 0 >"$work/defaults.json" 2>/dev/null \
    || { echo "test_k8s: naval-server --check-config failed" >&2; exit 1; }
"$server" --help >"$work/help.txt"

python3 - "$root" "$work" "$relay" <<'EOF'
import glob, json, os, re, subprocess, sys
import yaml

root, work, relay = sys.argv[1], sys.argv[2], sys.argv[3]
errors = []
def check(ok, msg):
    if not ok:
        errors.append(msg)

PENDING = set()  # variables the manifests may set before the server reads them (none now)
defaults = json.load(open(os.path.join(work, "defaults.json")))
known = set(re.findall(r"\bNAVAL_[A-Z0-9_]+", open(os.path.join(work, "help.txt")).read()))
def port_of(url):
    m = re.search(r":(\d+)(/|$)", url)
    return int(m.group(1)) if m else None
server_ports = sorted(port_of(defaults[k]) for k in ("snapshot_url", "command_url", "compact_url", "view_url", "http"))
http_port = port_of(defaults["http"])

dockerfile = open(os.path.join(root, "docker", "Dockerfile")).read()
uid = int(re.findall(r"^USER\s+(\d+)", dockerfile, re.M)[-1])
image = "naval-server:latest"

docs = []
files = sorted(glob.glob(os.path.join(root, "docker", "k8s", "*.yaml")))
check(files, "no manifests in docker/k8s/")
for f in files:
    try:
        for d in yaml.safe_load_all(open(f)):
            if d is not None:
                check(isinstance(d, dict) and "apiVersion" in d and "kind" in d and d.get("metadata", {}).get("name"),
                      "%s: a document without apiVersion, kind and metadata.name" % os.path.basename(f))
                docs.append((os.path.basename(f), d))
    except yaml.YAMLError as e:
        errors.append("%s: not YAML: %s" % (os.path.basename(f), e))
by_kind = {}
for f, d in docs:
    by_kind.setdefault(d["kind"], []).append((f, d))

def pod_security(where, pod):
    sc = pod.get("securityContext", {})
    check(sc.get("runAsNonRoot") is True and sc.get("runAsUser") == uid,
          "%s: the pod must run as non-root user %d (the Dockerfile's USER)" % (where, uid))

# ---- the Fleet of seas -------------------------------------------------
fleets = by_kind.get("Fleet", [])
check(len(fleets) == 1, "expected one Agones Fleet, found %d" % len(fleets))
for f, fl in fleets:
    check(fl["apiVersion"] == "agones.dev/v1", "%s: Fleet apiVersion must be agones.dev/v1" % f)
    gs = fl["spec"]["template"]["spec"]
    ports = gs.get("ports", [])
    cports = sorted(p.get("containerPort") for p in ports)
    check(cports == server_ports, "%s: Fleet container ports %s, the server listens on %s" % (f, cports, server_ports))
    for p in ports:
        check(p.get("portPolicy") in ("Dynamic", "Static", "Passthrough", "None"), "%s: port %s: unknown portPolicy" % (f, p.get("name")))
        check(p.get("protocol", "UDP") == "TCP", "%s: port %s: nng speaks TCP (Agones defaults to UDP)" % (f, p.get("name")))
    health = gs.get("health", {})
    check(health.get("disabled") is False and health.get("periodSeconds", 0) > 0, "%s: Agones health checking must be on" % f)
    pod = gs["template"]["spec"]
    pod_security(f + " Fleet", pod)
    containers = {c["name"]: c for c in pod["containers"]}
    check(gs.get("container") in containers, "%s: spec.container must name the game server container" % f)
    c = containers.get(gs.get("container"), {})
    check(c.get("image") == image, "%s: the game server image must be %s" % (f, image))
    env = {e["name"]: e.get("value") for e in c.get("env", [])}
    check(env.get("NAVAL_AGONES") == "1", "%s: NAVAL_AGONES=1 must tell the server it runs under Agones" % f)
    for var in env:
        if var.startswith("NAVAL_"):
            check(var in known or var in PENDING, "%s: %s is not a naval-server setting" % (f, var))
    probe = c.get("livenessProbe", {}).get("httpGet", {})
    check(probe.get("path") == "/healthz" and probe.get("port") == http_port,
          "%s: the liveness probe must GET /healthz on %d" % (f, http_port))
scalers = by_kind.get("FleetAutoscaler", [])
check(any(d["spec"].get("fleetName") == fl["metadata"]["name"] for _, d in scalers for _, fl in fleets),
      "no FleetAutoscaler names the Fleet")

# ---- the relays --------------------------------------------------------
services = [d for _, d in by_kind.get("Service", [])]
deployments = by_kind.get("Deployment", [])
relays = []
for f, dep in deployments:
    pod = dep["spec"]["template"]["spec"]
    labels = dep["spec"]["template"]["metadata"]["labels"]
    check(dep["spec"]["selector"]["matchLabels"].items() <= labels.items(),
          "%s: Deployment %s: its selector does not match its pod labels" % (f, dep["metadata"]["name"]))
    for c in pod["containers"]:
        if c.get("command") != ["naval-relay"]:
            continue
        where = "%s: Deployment %s" % (f, dep["metadata"]["name"])
        relays.append(dep["metadata"]["name"])
        pod_security(where, pod)
        check(c.get("image") == image, "%s: image must be %s" % (where, image))
        args = c.get("args", [])
        # the relay itself must accept them ($(VAR) is the kubelet's: a sample URL)
        sample = [re.sub(r"\$\([A-Z_]+\)", "tcp://127.0.0.1:9", a) for a in args]
        out = subprocess.run([relay] + sample + ["--help"], capture_output=True, text=True)
        check(out.returncode == 0, "%s: naval-relay refuses the arguments: %s" % (where, out.stderr.strip()))
        listen = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--listen"]
        health = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--health"]
        upstream = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--upstream"]
        check(len(upstream) == 1 and listen, "%s: needs one --upstream and a --listen" % where)
        lports = {port_of(u) for u in listen} | {port_of(h) for h in health}
        cports = {p["containerPort"] for p in c.get("ports", [])}
        check(lports == cports, "%s: listens on %s, declares container ports %s" % (where, sorted(lports), sorted(cports)))
        rp = c.get("readinessProbe", {}).get("httpGet", {})
        check(len(health) == 1 and rp.get("path") == "/healthz" and rp.get("port") == port_of(health[0]),
              "%s: the readiness probe must GET /healthz on the --health port" % where)
        lp = c.get("livenessProbe", {})
        lport = lp.get("tcpSocket", {}).get("port", lp.get("httpGet", {}).get("port"))
        check(lport in lports, "%s: the liveness probe asks port %s, which the relay does not listen on" % (where, lport))
        mine = [s for s in services if s["spec"].get("selector", {}).items() <= labels.items() and s["spec"].get("selector")]
        check(len(mine) == 1, "%s: expected one Service selecting it, found %d" % (where, len(mine)))
        for s in mine:
            targets = {p.get("targetPort", p.get("port")) for p in s["spec"]["ports"]}
            check(targets <= cports, "%s: Service %s targets %s, not all container ports" % (where, s["metadata"]["name"], sorted(targets)))
        u = upstream[0] if upstream else ""
        if "$(" not in u:
            host = re.sub(r"^tcp://([^:/]+):\d+$", r"\1", u)
            up = [s for s in services if s["metadata"]["name"] == host]
            check(up and port_of(u) in {p["port"] for p in up[0]["spec"]["ports"]},
                  "%s: its upstream %s is no Service port in the manifests" % (where, u))
check(len(relays) >= 2, "expected a root and an edge relay Deployment, found %s" % relays)

if errors:
    for e in errors:
        print("test_k8s: " + e, file=sys.stderr)
    sys.exit(1)
print("test_k8s: %d manifests in %d files agree with naval-server (ports %s) and naval-relay (%s)"
      % (len(docs), len(files), server_ports, ", ".join(relays)))
EOF
