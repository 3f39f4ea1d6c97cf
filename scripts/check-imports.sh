#!/usr/bin/env bash
# Every target imports only the targets it declares *directly* in Package.swift.
#
# `swift build --explicit-target-dependency-import-check error` (scripts/test.sh) refuses an
# import of a package target outside the importer's transitive dependencies, but accepts one
# reached only through another target: meridian-bench importing CCairo through MeridianApp
# passed it. This script closes that gap from the source: it reads the declared dependencies
# (`swift package dump-package`) and each target's `import` lines, and names every import of a
# package target that is not declared. System modules (Glibc, Foundation, Testing, ...) are not
# package targets and are not checked.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
swift package dump-package 2>/dev/null | python3 -c '
import json, os, re, sys
package = json.load(sys.stdin)
targets = {t["name"]: t for t in package["targets"]}
declared_import = re.compile(r"^\s*(?:@testable\s+|@_implementationOnly\s+|(?:public|internal|package)\s+)?import\s+(?:struct\s+|class\s+|enum\s+|func\s+|protocol\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)
problems = []
for name, t in targets.items():
    if t["type"] == "system":
        continue
    folder = t.get("path") or os.path.join("Tests" if t["type"] == "test" else "Sources", name)
    deps = {d["byName"][0] for d in t["dependencies"] if "byName" in d} | {d["target"][0] for d in t["dependencies"] if "target" in d}
    for root, _, files in os.walk(folder):
        for f in sorted(files):
            if not f.endswith(".swift"):
                continue
            path = os.path.join(root, f)
            for m in declared_import.finditer(open(path, encoding="utf-8").read()):
                module = m.group(1)
                module_target = next((n for n in targets if n.replace("-", "_") == module), None)
                if module_target and module_target != name and module_target not in deps:
                    line = open(path, encoding="utf-8").read()[:m.start()].count("\n") + 1
                    problems.append(f"{path}:{line}: {name} imports {module_target} but does not declare it in Package.swift")
for p in problems:
    print("check-imports: " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
'
echo "check-imports: every target imports only what it declares"
