"""The import graph summed up: `uv run python -m tests.layering_report`.

For each layer, the layers it imports and the libraries it may load through
any chain; the arrows between the Discord features; every circle (there
should be none) and every arrow a row does not allow (none either); what
loads a module by name; the modules past `WARN_LINES`. The same graph and
table as `tests/test_layering.py`, printed for a reader.
"""

from __future__ import annotations

from collections import defaultdict

from tests.layering import (
    DYNAMIC,
    FEATURES,
    LAYERS,
    WARN_LINES,
    children_graph,
    find_cycle,
    is_package,
    layer_of,
    packages,
    reach_violations,
    read,
    tree,
)


def main() -> None:
    graph = tree()
    arrows = sum(len(targets) for targets in graph.arrows.values())
    print(f"{len(graph.paths)} modules, {arrows} arrows between them, {len(LAYERS)} layers")
    between: dict[str, set[str]] = defaultdict(set)
    for module, targets in graph.arrows.items():
        for target in targets:
            here, there = layer_of(module), layer_of(target)
            if here and there and here != there:
                between[here].add(there)
    print("\nlayer -> layers it imports | libraries it may load (any chain)")
    for row in sorted(LAYERS):
        modules = [m for m in graph.paths if layer_of(m) == row]
        libraries = set().union(*(graph.reached_libraries(m) for m in modules))
        print(f"  {row} ({len(modules)}) -> {', '.join(sorted(between[row])) or '-'}")
        print(f"      | {', '.join(sorted(libraries)) or '-'}")
    up = [
        f"{module} -> {name}"
        for module in sorted(graph.paths)
        for name in reach_violations(graph, module)
    ]
    print(f"\narrows or reach a row does not allow: {len(up)}")
    for line in up:
        print("  ", line)
    features = children_graph(graph, FEATURES)
    print(f"\n{FEATURES}: features and shared modules -> what they import there")
    for node in sorted(features):
        if features[node]:
            names = sorted(target.rpartition(".")[2] for target in features[node])
            print(f"  {node.rpartition('.')[2]} -> {', '.join(names)}")
    circles = [find_cycle(graph.arrows)]
    circles += [find_cycle(children_graph(graph, package)) for package in packages(graph)]
    found = [circle for circle in circles if circle]
    print(f"\ncircles: {len(found)} (modules, and the children of {len(packages(graph))} packages)")
    for circle in found:
        print("  ", " -> ".join(circle))
    print("\nloads by name:")
    for module, lines in sorted(graph.dynamic.items()):
        reason = DYNAMIC.get(module, "NOT ALLOWED")
        print(f"  {module}:{','.join(map(str, lines))}: {reason}")
    long = {
        module: len(read(path).splitlines())
        for module, path in graph.paths.items()
        if not is_package(path) and len(read(path).splitlines()) > WARN_LINES
    }
    print(f"\nmodules over {WARN_LINES} lines: {len(long)}")
    for module, lines in sorted(long.items()):
        print(f"  {module}: {lines}")


if __name__ == "__main__":
    main()
