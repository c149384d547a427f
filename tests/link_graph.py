#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The project's layers, checked on its own build files and binaries
(docs/architecture.md, "Layers"):

- every target_link_libraries arrow between the project's targets points
  down a layer (or stays in its own directory), and there is no cycle;
- the network clients (naval-watch, naval-load, libnaval_client.so) need no
  physics library: their ELF NEEDED entries name none of FFTW, qhull,
  libccd, libpng.

Usage: link_graph.py SOURCE_DIR [BINARY...]
Exit 0 when all holds, 1 with every offence named."""
import os
import re
import subprocess
import sys

LAYERS = {"base": 0, "core": 1, "proto": 1, "net": 1, "view": 2, "server": 3, "clients": 3, "tools": 4,
          "tests": 5, "fuzz": 5}
PHYSICS = ("fftw", "qhull", "ccd", "png")
SKIP = re.compile(r"^(build|\.git|node_modules)")


def strip_comments(text):
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


def calls(text, name):
    """The argument lists of every call to `name` (balanced parentheses)."""
    for m in re.finditer(r"\b%s\s*\(" % name, text):
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        yield text[m.end():i - 1].split()


def read_graph(root):
    targets, links = {}, []
    for folder, dirs, files in os.walk(root):
        rel = os.path.relpath(folder, root)
        dirs[:] = [d for d in dirs if not SKIP.match(d) and not (rel == "." and d.startswith("build"))]
        if "CMakeLists.txt" not in files or rel == ".":
            continue
        top = rel.split(os.sep)[0]
        text = strip_comments(open(os.path.join(folder, "CMakeLists.txt"), encoding="utf-8").read())
        for kind in ("add_library", "add_executable"):
            for args in calls(text, kind):
                if args and "${" not in args[0]:
                    targets[args[0]] = (top, rel)
        for args in calls(text, "target_link_libraries"):
            if args:
                links.append((args[0], [a for a in args[1:] if a not in ("PUBLIC", "PRIVATE", "INTERFACE")], rel))
    return targets, links


def check_arrows(targets, links):
    errors, edges = [], {}
    for source, deps, rel in links:
        # foreach bodies link ${name}: the loop's own folder places them.
        src_top = targets[source][0] if source in targets else rel.split(os.sep)[0]
        for dep in deps:
            if dep not in targets:
                continue  # a system or imported library
            dep_top = targets[dep][0]
            edges.setdefault(source, set()).add(dep)
            if dep_top == src_top:
                continue
            if src_top not in LAYERS or dep_top not in LAYERS:
                errors.append("%s (%s) -> %s (%s): a directory with no layer" % (source, src_top, dep, dep_top))
            elif LAYERS[dep_top] >= LAYERS[src_top]:
                errors.append("%s (%s/, layer %d) links %s (%s/, layer %d): an arrow up or sideways" %
                              (source, src_top, LAYERS[src_top], dep, dep_top, LAYERS[dep_top]))
    # Cycles: a depth-first walk that meets a target on its own path.
    state = {}

    def walk(node, path):
        state[node] = 1
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                errors.append("cycle: " + " -> ".join(path[path.index(nxt):] + [nxt]))
            elif not state.get(nxt):
                walk(nxt, path + [nxt])
        state[node] = 2

    for node in sorted(edges):
        if not state.get(node):
            walk(node, [node])
    return errors, sum(len(v) for v in edges.values())


def check_needed(binary):
    if not os.path.exists(binary):
        return ["%s: not built (the check needs it)" % binary]
    out = subprocess.run(["readelf", "-dW", binary], capture_output=True, text=True)
    if out.returncode:
        return ["%s: readelf failed: %s" % (binary, out.stderr.strip())]
    needed = re.findall(r"\(NEEDED\).*\[(.*)\]", out.stdout)
    bad = [n for n in needed if any(p in n for p in PHYSICS)]
    print("%s needs %s" % (os.path.basename(binary), ", ".join(needed)))
    return ["%s needs %s: a network client links no physics library" % (binary, n) for n in bad]


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    targets, links = read_graph(argv[1])
    if len(targets) < 20:
        print("found only %d targets under %s: not the project's source tree?" % (len(targets), argv[1]))
        return 1
    errors, count = check_arrows(targets, links)
    for binary in argv[2:]:
        errors += check_needed(binary)
    for e in errors:
        print("FAIL: " + e)
    if not errors:
        print("%d targets, %d arrows between them: all point down, no cycle" % (len(targets), count))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
