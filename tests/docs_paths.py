#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every file path a comment or a doc names exists.

Scans the tracked sources, scripts and docs for paths under the project's
top-level folders (include/naval/world.h, docs/network.md ...) and
for bare names of Markdown files (network.md), and fails naming each one
that is not in the tree, with the files that mention it. A path resolves
from the repository's root or from the mentioning file's folder. Build
outputs (build*/...), placeholders in capitals (data/vessels/NAME.json) and
globs are not paths of the tree.
Usage: docs_paths.py REPO_ROOT
"""
import os
import re
import subprocess
import sys

TOPS = ("core", "server", "proto", "view", "clients", "tools", "tests", "fuzz", "docker", "docs", "base", "net",
        "include", "data", "scripts", ".ci")
EXTS = ("c", "h", "cc", "cpp", "md", "sh", "json", "txt", "py", "ts", "cs", "csproj", "html", "js", "mjs", "fbs",
        "yaml", "yml", "off", "obj", "stl", "png", "css", "cmake", "map")
SCANNED = (".c", ".h", ".cc", ".cpp", ".md", ".sh", ".txt", ".py", ".ts", ".cs", ".html", ".js", ".mjs", ".fbs",
           ".yaml", ".yml", ".cmake", "Makefile", "Dockerfile", ".ci/run")
PATH = re.compile(r"(?<![\w./-])((?:%s)/[A-Za-z0-9_./+-]*\.(?:%s))(?![\w/-])"
                  % ("|".join(re.escape(t) for t in TOPS), "|".join(EXTS)))
BARE_MD = re.compile(r"(?<![\w./-])([A-Za-z0-9_-]+\.md)(?![\w/-])")


def tracked_files():
    """The checkout's files: git's list in a clone; in a tree without .git
    (a tarball, a git archive, a container's copy) every file but the build
    folders and node_modules."""
    if os.path.exists(".git"):
        try:
            listed = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            print("docs_paths: cannot list the tracked files with git ls-files in %s: %s" % (os.getcwd(), e))
            return None
        return set(f for f in listed.split("\n") if f)
    files = set()
    for top, dirs, names in os.walk("."):
        dirs[:] = [d for d in dirs if d not in (".git", "node_modules") and not (top == "." and d.startswith("build"))]
        files.update(os.path.normpath(os.path.join(top, n)) for n in names)
    return files


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    os.chdir(root)
    tracked = tracked_files()
    if tracked is None:
        return 1
    md_names = {}
    for f in tracked:
        if f.endswith(".md"):
            md_names.setdefault(os.path.basename(f), []).append(f)
    missing = {}
    for f in sorted(tracked):
        if not f.endswith(SCANNED) or f.startswith("fuzz/corpus/") or "/node_modules/" in f:
            continue
        try:
            with open(f, encoding="utf-8") as fh:
                text = fh.read()
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        here = os.path.dirname(f)
        for m in PATH.finditer(text):
            p = m.group(1)
            if re.search(r"/[A-Z_]+(\.|/|$)", p) and not os.path.exists(p):
                continue  # a placeholder: data/vessels/NAME.json
            if os.path.exists(p) or os.path.exists(os.path.join(here, p)):
                continue
            missing.setdefault(p, set()).add(f)
        for m in BARE_MD.finditer(text):
            name = m.group(1)
            if name in md_names or os.path.exists(os.path.join(here, name)):
                continue
            missing.setdefault(name, set()).add(f)
    for p in sorted(missing):
        print("docs_paths: %s is named but not in the tree (in %s)" % (p, ", ".join(sorted(missing[p]))))
    if missing:
        print("docs_paths: %d missing paths" % len(missing))
        return 1
    print("docs_paths: every path named in %d files exists" % len(tracked))
    return 0


if __name__ == "__main__":
    sys.exit(main())
